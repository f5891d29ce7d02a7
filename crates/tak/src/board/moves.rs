//! The packed move.
//!
//! A [`Move`] is a non-zero `u32` (so `Option<Move>` is 4 bytes too):
//!
//! ```text
//!  bit 17      10 9  8 7  6 5        0
//!     | drop mask | dir | kind | square |
//! ```
//! - `square`: the placement square or the spread's origin (`rank * N + file`).
//! - `kind`: 0 spread, 1 flat, 2 wall, 3 capstone placement.
//! - `dir` (spreads): 0 north `+`, 1 east `>`, 2 south `-`, 3 west `<`.
//! - `drop mask` (spreads): the carried pile is numbered 1..=k from its bottom; bit `c - 1` is set
//!   for every running total `c` of pieces dropped after each square. So the highest set bit is
//!   `k - 1` (k = pieces carried), the number of set bits is the number of squares travelled,
//!   and the gaps between set bits are the drop counts. `3c3>12` carries 3 and has totals 1 and
//!   3: mask `0b101`. The mask of a spread is never 0, so no move is 0.
//!
//! This type lives with the board rather than in `movegen` because `make`/`unmake` consume it.
//! Whether a capstone flattens a wall is not stored: it follows from the position.

use super::{Direction, Role, Square};
use std::fmt;
use std::num::NonZeroU32;

/// A placement or a spread, packed in 32 bits (see the module doc for the layout).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(NonZeroU32);

const KIND_SHIFT: u32 = 6;
const DIR_SHIFT: u32 = 8;
const MASK_SHIFT: u32 = 10;

const fn nonzero(bits: u32) -> NonZeroU32 {
    match NonZeroU32::new(bits) {
        Some(v) => v,
        None => panic!("a move is never zero"),
    }
}

impl Move {
    /// A placement of `role` on `sq`.
    #[inline(always)]
    pub const fn place(sq: Square, role: Role) -> Move {
        Move(nonzero(sq.0 as u32 | (role as u32 + 1) << KIND_SHIFT))
    }

    /// A spread from `sq` toward `dir` with drop mask `mask` (non-zero).
    #[inline(always)]
    pub const fn spread(sq: Square, dir: Direction, mask: u8) -> Move {
        Move(nonzero(
            sq.0 as u32 | (dir as u32) << DIR_SHIFT | (mask as u32) << MASK_SHIFT,
        ))
    }

    /// How many low bits the packing uses: [`Move::bits`] is always below `1 << BITS`, so
    /// tables can pack a move beside other fields.
    pub const BITS: u32 = 18;

    /// The size of the key space of [`Move::key`].
    pub const KEYS: usize = 256 + (1 << 16);

    /// A dense index below [`Move::KEYS`] for tables keyed by move (move-ordering history):
    /// placements take `0..256` (`kind × 64 + square`), spreads
    /// `256 + (square << 10 | drop mask << 2 | direction)`.
    #[inline(always)]
    pub const fn key(self) -> usize {
        let bits = self.bits() as usize;
        if self.is_placement() {
            bits & 0xff
        } else {
            256 + ((bits & 0x3f) << 10 | (bits >> DIR_SHIFT) & 0x3ff)
        }
    }

    /// The packed bits.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.0.get()
    }

    /// A move from packed bits, or `None` if the bits are zero or not a valid layout.
    pub const fn from_bits(bits: u32) -> Option<Move> {
        let kind = (bits >> KIND_SHIFT) & 3;
        let valid = if bits >> Self::BITS != 0 {
            false
        } else if kind == 0 {
            (bits >> MASK_SHIFT) & 0xff != 0
        } else {
            bits >> DIR_SHIFT == 0
        };
        match NonZeroU32::new(bits) {
            Some(v) if valid => Some(Move(v)),
            _ => None,
        }
    }

    /// The placement square or the spread's origin.
    #[inline(always)]
    pub const fn square(self) -> Square {
        Square((self.bits() & 0x3f) as u8)
    }

    /// Whether this is a placement.
    #[inline(always)]
    pub const fn is_placement(self) -> bool {
        (self.bits() >> KIND_SHIFT) & 3 != 0
    }

    /// The move's kind as a table index: 0 for a spread, else one more than the placed role
    /// (`Role::Flat as usize + 1` for a flat, and so on).
    #[inline(always)]
    pub const fn kind_index(self) -> usize {
        ((self.bits() >> KIND_SHIFT) & 3) as usize
    }

    /// The placed role, or `None` for a spread.
    #[inline(always)]
    pub const fn role(self) -> Option<Role> {
        match (self.bits() >> KIND_SHIFT) & 3 {
            1 => Some(Role::Flat),
            2 => Some(Role::Wall),
            3 => Some(Role::Cap),
            _ => None,
        }
    }

    /// The spread direction (meaningless for a placement).
    #[inline(always)]
    pub const fn direction(self) -> Direction {
        Direction::from_bits(self.bits() >> DIR_SHIFT)
    }

    /// The drop mask of a spread (0 for a placement).
    #[inline(always)]
    pub const fn drop_mask(self) -> u8 {
        (self.bits() >> MASK_SHIFT) as u8
    }

    /// Pieces carried by a spread (0 for a placement).
    #[inline(always)]
    pub const fn count(self) -> u32 {
        8 - self.drop_mask().leading_zeros()
    }

    /// Squares travelled by a spread (0 for a placement).
    #[inline(always)]
    pub const fn distance(self) -> u32 {
        self.drop_mask().count_ones()
    }

    /// The pieces dropped on each square of a spread, first square first.
    pub fn drops(self) -> impl Iterator<Item = u32> {
        drops_of_mask(self.drop_mask())
    }

    /// The move's canonical PTN on an `N`×`N` board, as a displayable value.
    pub const fn ptn<const N: usize>(self) -> MovePtn<N> {
        MovePtn(self)
    }
}

/// The drop counts encoded by a drop mask, first square first.
pub fn drops_of_mask(mask: u8) -> impl Iterator<Item = u32> {
    let mut rest = mask;
    let mut done = 0;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let total = rest.trailing_zeros() + 1;
        rest &= rest - 1;
        let drop = total - done;
        done = total;
        Some(drop)
    })
}

/// The drop mask of a list of drop counts, or `None` if a count is 0 or they carry more than 8.
pub fn mask_of_drops(drops: &[u8]) -> Option<u8> {
    let mut total = 0u32;
    let mut mask = 0u32;
    for &d in drops {
        if d == 0 {
            return None;
        }
        total += d as u32;
        if total > 8 {
            return None;
        }
        mask |= 1 << (total - 1);
    }
    if mask == 0 {
        None
    } else {
        Some(mask as u8)
    }
}

/// A move with a board size, for canonical PTN display: no `F`, no `*`, count only when above 1,
/// drops only when the spread covers more than one square.
#[derive(Clone, Copy)]
pub struct MovePtn<const N: usize>(Move);

impl<const N: usize> fmt::Display for MovePtn<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.0;
        let name = mv.square().name::<N>();
        if let Some(role) = mv.role() {
            return write!(f, "{}{name}", role.ptn_prefix());
        }
        if mv.count() > 1 {
            write!(f, "{}", mv.count())?;
        }
        write!(f, "{name}{}", mv.direction().symbol())?;
        if mv.distance() > 1 {
            for d in mv.drops() {
                write!(f, "{d}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without a board size the square is shown by index.
        match self.role() {
            Some(role) => write!(f, "Move({}#{})", role.ptn_prefix(), self.square().0),
            None => write!(
                f,
                "Move(#{}{}{:08b})",
                self.square().0,
                self.direction().symbol(),
                self.drop_mask()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_masks_round_trip() {
        assert_eq!(mask_of_drops(&[1, 2]), Some(0b101));
        assert_eq!(drops_of_mask(0b101).collect::<Vec<_>>(), vec![1, 2]);
        for mask in 1..=255u8 {
            let drops: Vec<u8> = drops_of_mask(mask).map(|d| d as u8).collect();
            assert_eq!(mask_of_drops(&drops), Some(mask));
            assert_eq!(
                drops.iter().map(|&d| d as u32).sum::<u32>(),
                8 - mask.leading_zeros()
            );
        }
        assert_eq!(mask_of_drops(&[5, 4]), None);
        assert_eq!(mask_of_drops(&[1, 0]), None);
    }

    #[test]
    fn packing_round_trips() {
        let mv = Move::spread(Square(12), Direction::East, 0b101);
        assert_eq!(Move::from_bits(mv.bits()), Some(mv));
        assert_eq!((mv.count(), mv.distance()), (3, 2));
        assert_eq!(mv.ptn::<5>().to_string(), "3c3>12");
        assert_eq!(
            Move::place(Square(0), Role::Cap).ptn::<5>().to_string(),
            "Ca1"
        );
        assert_eq!(
            Move::spread(Square(0), Direction::North, 1)
                .ptn::<5>()
                .to_string(),
            "a1+"
        );
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(Move::from_bits(1 << 20), None);
    }
}
