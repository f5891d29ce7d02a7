//! The position: stacks, top-piece bitboards, reserves, side to move, komi and hash.
//!
//! `Position<N>` is generic over the board size so that every mask, ray and loop bound in the hot
//! code is a compile-time constant; the size is chosen once at the edge (see [`crate::with_size`]).
//!
//! # Representation
//! - Each square holds a stack as a `u128` of colour bits, bit `i` = piece `i` from the bottom
//!   (0 White, 1 Black), and a height. Stacks have no height limit: a `u128` holds every piece of
//!   an 8×8 game (104).
//! - Four bitboards describe the tops: `white` and `black` (colour of the top piece), `walls` and
//!   `caps` (role of the top piece). Every piece below a top is a flat.
//! - Reserves are counted per colour (stones, capstones). The ply counts half-moves since the
//!   start of the game; the side to move is its parity and the opening swap is `ply < 2`, which is
//!   exactly "move number 1" in TPS terms.
//!
//! Rules (roads, game end) live in `rules`, make/unmake in `make`, legality and generation in
//! `crate::movegen`.

mod bitboard;
mod builder;
mod game;
mod komi;
mod make;
mod moves;
mod piece;
mod roads;
mod rules;
mod square;
pub mod zobrist;

pub use bitboard::{Bitboard, Geo};
pub use builder::{BuildError, Builder};
pub use game::TakGame;
pub use komi::{Komi, KomiError, HALF_KOMI_TEXT};
pub use make::Undo;
pub use moves::{drops_of_mask, mask_of_drops, Move, MovePtn};
pub use piece::{Color, Role};
pub use roads::{roads, Roads};
pub use rules::GameResult;
pub use square::{Direction, Square, SquareName};

use std::fmt;

/// Starting reserves `(stones, capstones)` per player for a board size, or `None` for a size
/// Cairn does not play (outside [`SIZES`]).
pub const fn reserves_for_size(size: usize) -> Option<(u8, u8)> {
    match size {
        3 => Some((10, 0)),
        4 => Some((15, 0)),
        5 => Some((21, 1)),
        6 => Some((30, 1)),
        7 => Some((40, 2)),
        8 => Some((50, 2)),
        _ => None,
    }
}

/// The board sizes Cairn plays, from the one list in [`crate::board_sizes!`].
pub const SIZES: std::ops::RangeInclusive<usize> = crate::board_sizes!(crate::__size_range!());

/// The largest board size: the bound of every fixed-size table and of TPS rows.
pub const MAX_SIZE: usize = *SIZES.end();

/// [`SIZES`] in words, for messages: `3 to 8`.
pub fn sizes_text() -> String {
    format!("{} to {}", SIZES.start(), SIZES.end())
}

/// Reads a board size Cairn plays (a command-line value parser): `6`, but not `9` or `six`.
pub fn parse_size(text: &str) -> Result<u8, String> {
    match text.trim().parse::<u8>() {
        Ok(n) if SIZES.contains(&(n as usize)) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a board size Cairn plays ({})",
            sizes_text()
        )),
    }
}

/// A Tak position on an `N`×`N` board.
#[derive(Clone, PartialEq, Eq)]
pub struct Position<const N: usize> {
    stacks: [u128; 64],
    heights: [u8; 64],
    white: Bitboard,
    black: Bitboard,
    walls: Bitboard,
    caps: Bitboard,
    stones: [u8; 2],
    capstones: [u8; 2],
    ply: u32,
    komi: Komi,
    hash: u64,
}

impl<const N: usize> Default for Position<N> {
    fn default() -> Self {
        Self::start()
    }
}

impl<const N: usize> Position<N> {
    /// Stones each player starts with.
    pub const STONES: u8 = match reserves_for_size(N) {
        Some((stones, _)) => stones,
        None => panic!("Cairn does not play this board size (see SIZES)"),
    };
    /// Capstones each player starts with.
    pub const CAPSTONES: u8 = match reserves_for_size(N) {
        Some((_, caps)) => caps,
        None => panic!("Cairn does not play this board size (see SIZES)"),
    };

    /// The empty start position, White to move, komi 0.
    pub fn start() -> Self {
        Self::empty_at_ply(0)
    }

    /// An empty board at a given ply with full reserves (building block for [`Builder`]).
    fn empty_at_ply(ply: u32) -> Self {
        let mut pos = Position {
            stacks: [0; 64],
            heights: [0; 64],
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            walls: Bitboard::EMPTY,
            caps: Bitboard::EMPTY,
            stones: [Self::STONES; 2],
            capstones: [Self::CAPSTONES; 2],
            ply,
            komi: Komi::ZERO,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// Puts a stack (colours bottom to top, role of the top) on an empty square and takes its
    /// pieces from the reserves. Returns `false`, changing nothing, if a reserve would go below 0.
    fn put_stack(&mut self, sq: Square, colors: &[Color], top: Role) -> bool {
        debug_assert!(self.heights[sq.index()] == 0 && !colors.is_empty());
        let mut stones = self.stones;
        let mut caps = self.capstones;
        for (i, &c) in colors.iter().enumerate() {
            let pool = if i + 1 == colors.len() && top == Role::Cap {
                &mut caps[c.index()]
            } else {
                &mut stones[c.index()]
            };
            match pool.checked_sub(1) {
                Some(left) => *pool = left,
                None => return false,
            }
        }
        self.stones = stones;
        self.capstones = caps;
        let mut bits = 0u128;
        for (i, &c) in colors.iter().enumerate() {
            bits |= (c as u128) << i;
        }
        let i = sq.index();
        self.stacks[i] = bits;
        self.heights[i] = colors.len() as u8;
        self.set_top(sq, *colors.last().expect("non-empty stack"), top);
        self.hash = self.compute_hash();
        true
    }

    /// The number of half-moves played since the start of the game.
    #[inline(always)]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The TPS move number: 1 for the first two plies, then one more after each Black move.
    pub fn move_number(&self) -> u32 {
        self.ply / 2 + 1
    }

    /// The player to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        Color::from_bit(self.ply)
    }

    /// Whether the opening swap is in force: each player places one flat of the opponent's colour.
    #[inline(always)]
    pub fn is_opening(&self) -> bool {
        self.ply < 2
    }

    /// Komi in half flats, in Black's favour (may be negative).
    #[inline(always)]
    pub fn half_komi(&self) -> i8 {
        self.komi.halves()
    }

    /// The komi.
    #[inline]
    pub fn komi(&self) -> Komi {
        self.komi
    }

    /// Sets the komi. Komi decides only flat-count results, not the hash.
    pub fn set_komi(&mut self, komi: Komi) {
        self.komi = komi;
    }

    /// Sets the komi in half flats, for tests and literals (input goes through [`Komi`]).
    ///
    /// # Panics
    /// Outside [`Komi::MIN`]..=[`Komi::MAX`].
    pub fn set_half_komi(&mut self, half_komi: i8) {
        match Komi::from_halves(half_komi as i64) {
            Ok(komi) => self.set_komi(komi),
            Err(e) => panic!("{e}"),
        }
    }

    /// The incrementally maintained Zobrist hash.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The number of pieces on `sq`.
    #[inline(always)]
    pub fn height(&self, sq: Square) -> usize {
        self.heights[sq.index()] as usize
    }

    /// The colour of the piece at height index `i` (0 = bottom) of `sq`.
    #[inline(always)]
    pub fn color_at(&self, sq: Square, i: usize) -> Color {
        Color::from_bit((self.stacks[sq.index()] >> i) as u32)
    }

    /// `count` colour bits of `sq` starting at height index `from` (bit 0 = the lowest of them).
    #[inline(always)]
    pub(crate) fn pile_bits(&self, sq: Square, from: u32, count: u32) -> u32 {
        (self.stacks[sq.index()] >> from) as u32 & ((1u32 << count) - 1)
    }

    /// Every square's colour bits (bit `i` the piece at height index `i`; bits above the
    /// height are 0) and height, as stored: two squares with equal entries and equal top roles
    /// hold the same stack, which lets an incremental evaluation find the squares that changed.
    #[inline(always)]
    pub(crate) fn raw_stacks(&self) -> (&[u128; 64], &[u8; 64]) {
        (&self.stacks, &self.heights)
    }

    /// The colours of the stack on `sq`, bottom to top.
    pub fn stack_colors(&self, sq: Square) -> impl Iterator<Item = Color> + '_ {
        (0..self.height(sq)).map(move |i| self.color_at(sq, i))
    }

    /// The colour and role of the top piece of `sq`, or `None` if it is empty.
    #[inline]
    pub fn top(&self, sq: Square) -> Option<(Color, Role)> {
        let color = if self.white.contains(sq) {
            Color::White
        } else if self.black.contains(sq) {
            Color::Black
        } else {
            return None;
        };
        Some((color, self.role_at(sq)))
    }

    /// The role of the top piece of an occupied square.
    #[inline(always)]
    fn role_at(&self, sq: Square) -> Role {
        if self.walls.contains(sq) {
            Role::Wall
        } else if self.caps.contains(sq) {
            Role::Cap
        } else {
            Role::Flat
        }
    }

    /// Stones (flats and walls) `color` has left to place.
    #[inline(always)]
    pub fn stones_left(&self, color: Color) -> u8 {
        self.stones[color.index()]
    }

    /// Capstones `color` has left to place.
    #[inline(always)]
    pub fn caps_left(&self, color: Color) -> u8 {
        self.capstones[color.index()]
    }

    /// Squares whose top piece is `color`'s.
    #[inline(always)]
    pub fn controlled(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Squares topped by a wall.
    #[inline(always)]
    pub fn walls(&self) -> Bitboard {
        self.walls
    }

    /// Squares topped by a capstone.
    #[inline(always)]
    pub fn caps(&self) -> Bitboard {
        self.caps
    }

    /// Occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.white | self.black
    }

    /// Empty squares.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        !self.occupied() & Geo::<N>::board()
    }

    /// Squares topped by `color`'s flats or capstones: the pieces that count for a road.
    #[inline(always)]
    pub fn road_pieces(&self, color: Color) -> Bitboard {
        self.controlled(color) & !self.walls
    }

    /// Squares topped by `color`'s flats: the pieces that count in a flat win.
    #[inline(always)]
    pub fn flats(&self, color: Color) -> Bitboard {
        self.controlled(color) & !self.walls & !self.caps
    }

    /// Sets the top bitboards of an occupied square to `color` and `role`.
    #[inline(always)]
    fn set_top(&mut self, sq: Square, color: Color, role: Role) {
        self.clear_top(sq);
        match color {
            Color::White => self.white.set(sq),
            Color::Black => self.black.set(sq),
        }
        match role {
            Role::Flat => {}
            Role::Wall => self.walls.set(sq),
            Role::Cap => self.caps.set(sq),
        }
    }

    /// Clears the top bitboards of `sq`.
    #[inline(always)]
    fn clear_top(&mut self, sq: Square) {
        self.white.clear(sq);
        self.black.clear(sq);
        self.walls.clear(sq);
        self.caps.clear(sq);
    }

    /// The hash computed from scratch; equals [`Position::hash`] in every reachable position.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for sq in Geo::<N>::board() {
            for i in 0..self.height(sq) {
                hash ^= zobrist::piece(sq, i, self.color_at(sq, i));
            }
            if let Some((_, role)) = self.top(sq) {
                hash ^= zobrist::role(sq, role);
            }
        }
        if self.side_to_move() == Color::Black {
            hash ^= zobrist::black_to_move();
        }
        if self.is_opening() {
            hash ^= zobrist::opening();
        }
        hash
    }

    /// The position under one of the 8 board symmetries (`0..8`: rotations, then mirrored
    /// rotations). Everything but the geometry is kept.
    pub fn transformed(&self, symmetry: u8) -> Self {
        let mut out = Self::empty_at_ply(self.ply);
        out.komi = self.komi;
        for sq in self.occupied() {
            let target = transform_square::<N>(sq, symmetry);
            let colors: smallvec::SmallVec<[Color; 16]> = self.stack_colors(sq).collect();
            let (_, role) = self.top(sq).expect("occupied");
            out.put_stack(target, &colors, role);
        }
        out
    }

    /// The position with every piece's colour swapped and the other player to move (the ply
    /// moves by one). Komi is negated so that flat-count results swap too. Outside the opening
    /// this is the mirror-image position; within it (ply 0 or 1) the number of swap plies left
    /// changes, so the two are not equivalent there.
    pub fn color_swapped(&self) -> Self {
        let mut out = Self::empty_at_ply(self.ply ^ 1);
        out.komi = self.komi.for_other_side();
        for sq in self.occupied() {
            let colors: smallvec::SmallVec<[Color; 16]> =
                self.stack_colors(sq).map(|c| !c).collect();
            let (_, role) = self.top(sq).expect("occupied");
            out.put_stack(sq, &colors, role);
        }
        out
    }
}

/// Maps a square through one of the 8 symmetries of the square board.
pub fn transform_square<const N: usize>(sq: Square, symmetry: u8) -> Square {
    let (mut f, mut r) = (sq.file::<N>(), sq.rank::<N>());
    if symmetry & 4 != 0 {
        f = N - 1 - f;
    }
    for _ in 0..symmetry & 3 {
        (f, r) = (r, N - 1 - f);
    }
    Square::new::<N>(f, r)
}

impl<const N: usize> fmt::Debug for Position<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position<{N}>(ply {}, half-komi {}, hash {:016x})\n{self}",
            self.ply,
            self.komi.halves(),
            self.hash
        )
    }
}

impl<const N: usize> fmt::Display for Position<N> {
    /// An ASCII diagram, rank N at the top, each square showing its stack bottom to top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..N).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..N {
                let sq = Square::new::<N>(file, rank);
                let mut cell: String = self.stack_colors(sq).map(|c| c.tps_digit()).collect();
                match self.top(sq) {
                    None => cell.push('.'),
                    Some((_, Role::Wall)) => cell.push('S'),
                    Some((_, Role::Cap)) => cell.push('C'),
                    Some(_) => {}
                }
                write!(f, " {cell:>6}")?;
            }
            writeln!(f)?;
        }
        write!(f, "  ")?;
        for file in 0..N {
            write!(f, " {:>6}", (b'a' + file as u8) as char)?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_size_list_and_the_reserves_agree() {
        for size in 0..=2 * MAX_SIZE {
            let listed = crate::with_size!(size, |N| N == size, else false);
            assert_eq!(listed, SIZES.contains(&size), "size {size}");
            assert_eq!(reserves_for_size(size).is_some(), listed, "size {size}");
        }
        assert_eq!(parse_size("6"), Ok(6));
        assert!(parse_size("9").unwrap_err().contains("3 to 8"));
        assert!(parse_size("six").is_err());
    }
}
