//! `make` and `unmake`: play a legal move and take it back, without allocating.
//!
//! Both update the stacks, the top bitboards, the reserves, the ply and the hash incrementally.
//! [`Undo`] keeps what cannot be recomputed cheaply: the previous hash and whether a capstone
//! flattened a wall. Legality is the caller's job (`movegen` generates and checks moves).

use super::{zobrist, Color, Move, Position, Role, Square};

/// What [`Position::unmake`] needs besides the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    hash: u64,
    crushed: bool,
}

impl Undo {
    /// Whether the move flattened a wall with a lone capstone.
    pub fn crushed(self) -> bool {
        self.crushed
    }
}

impl<const N: usize> Position<N> {
    /// Plays a legal move. In the opening the placed flat has the opponent's colour.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            hash: self.hash,
            crushed: false,
        };
        let crushed = match mv.role() {
            Some(role) => {
                self.make_placement(mv.square(), role);
                false
            }
            None => self.make_spread(mv),
        };
        self.hash ^= zobrist::black_to_move();
        if self.ply == 1 {
            self.hash ^= zobrist::opening();
        }
        self.ply += 1;
        Undo { crushed, ..undo }
    }

    /// Takes back `mv`, which must be the last move made, with the `Undo` it returned.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.ply -= 1;
        match mv.role() {
            Some(role) => self.unmake_placement(mv.square(), role),
            None => self.unmake_spread(mv, undo.crushed),
        }
        self.hash = undo.hash;
    }

    /// Passes the move to the opponent (for null-move pruning). Not allowed in the opening.
    #[inline]
    pub fn make_null(&mut self) {
        debug_assert!(!self.is_opening());
        self.hash ^= zobrist::black_to_move();
        self.ply += 1;
    }

    /// Takes back [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self) {
        self.hash ^= zobrist::black_to_move();
        self.ply -= 1;
    }

    #[inline(always)]
    fn make_placement(&mut self, sq: Square, role: Role) {
        let me = self.side_to_move();
        let color = if self.is_opening() { !me } else { me };
        match role {
            Role::Cap => self.capstones[color.index()] -= 1,
            _ => self.stones[color.index()] -= 1,
        }
        let i = sq.index();
        self.stacks[i] = color as u128;
        self.heights[i] = 1;
        self.set_top(sq, color, role);
        self.hash ^= zobrist::piece(sq, 0, color) ^ zobrist::role(sq, role);
    }

    #[inline(always)]
    fn unmake_placement(&mut self, sq: Square, role: Role) {
        let i = sq.index();
        let color = Color::from_bit(self.stacks[i] as u32);
        match role {
            Role::Cap => self.capstones[color.index()] += 1,
            _ => self.stones[color.index()] += 1,
        }
        self.stacks[i] = 0;
        self.heights[i] = 0;
        self.clear_top(sq);
    }

    /// Sets the top colour of `sq` from a stack bit, leaving the role bitboards alone.
    #[inline(always)]
    fn set_top_color(&mut self, sq: Square, bit: u32) {
        let b = 1u64 << sq.0;
        let black = (bit & 1) as u64;
        self.white.0 = (self.white.0 & !b) | (b * (black ^ 1));
        self.black.0 = (self.black.0 & !b) | (b * black);
    }

    /// Moves the pieces of a spread; returns whether a wall was flattened.
    #[inline(always)]
    fn make_spread(&mut self, mv: Move) -> bool {
        let origin = mv.square();
        let o = origin.index();
        let step = mv.direction().offset::<N>();
        let mask = mv.drop_mask() as u32;
        let carry = mv.count();
        let rest = self.heights[o] as u32 - carry;
        let carried = (self.stacks[o] >> rest) as u32 & ((1 << carry) - 1);
        let role = self.role_at(origin);

        // Lift the carried pieces off the origin.
        let mut hash = self.hash ^ zobrist::role(origin, role);
        for i in 0..carry {
            hash ^= zobrist::piece_bit(origin, (rest + i) as usize, carried >> i);
        }
        self.stacks[o] &= (1u128 << rest) - 1;
        self.heights[o] = rest as u8;
        self.clear_top(origin);
        if rest > 0 {
            self.set_top_color(origin, (self.stacks[o] >> (rest - 1)) as u32);
        }

        // Drop them square by square, from the bottom of the carried pile.
        let mut at = o as isize;
        let mut rest_mask = mask;
        let mut done = 0;
        while rest_mask != 0 {
            let total = rest_mask.trailing_zeros() + 1;
            rest_mask &= rest_mask - 1;
            let n = total - done;
            let bits = (carried >> done) & ((1 << n) - 1);
            done = total;
            at += step;
            let dest = Square(at as u8);
            let d = dest.index();
            let dh = self.heights[d] as u32;
            for i in 0..n {
                hash ^= zobrist::piece_bit(dest, (dh + i) as usize, bits >> i);
            }
            self.stacks[d] |= (bits as u128) << dh;
            self.heights[d] = (dh + n) as u8;
            self.set_top_color(dest, bits >> (n - 1));
        }

        // The moving top keeps its role on the last square; a lone capstone flattens a wall.
        let last = Square(at as u8);
        let mut crushed = false;
        match role {
            Role::Flat => {}
            Role::Wall => self.walls.set(last),
            Role::Cap => {
                if self.walls.contains(last) {
                    crushed = true;
                    self.walls.clear(last);
                    hash ^= zobrist::role(last, Role::Wall);
                }
                self.caps.set(last);
            }
        }
        self.hash = hash ^ zobrist::role(last, role);
        crushed
    }

    /// Takes a spread back: picks the drops up from the last square to the first.
    #[inline(always)]
    fn unmake_spread(&mut self, mv: Move, crushed: bool) {
        let origin = mv.square();
        let step = mv.direction().offset::<N>();
        let mut rest_mask = mv.drop_mask() as u32;
        let carry = mv.count();
        let mut at = origin.index() as isize + step * mv.distance() as isize;
        let role = self.role_at(Square(at as u8));

        let mut carried = 0u32;
        let mut is_last = true;
        while rest_mask != 0 {
            let high = 31 - rest_mask.leading_zeros();
            rest_mask &= !(1 << high);
            let before = 32 - rest_mask.leading_zeros();
            let n = high + 1 - before;
            let dest = Square(at as u8);
            let d = dest.index();
            let dh = self.heights[d] as u32 - n;
            carried |= ((self.stacks[d] >> dh) as u32 & ((1 << n) - 1)) << before;
            self.stacks[d] &= (1u128 << dh) - 1;
            self.heights[d] = dh as u8;
            self.clear_top(dest);
            if dh > 0 {
                self.set_top_color(dest, (self.stacks[d] >> (dh - 1)) as u32);
                if is_last && crushed {
                    self.walls.set(dest);
                }
            }
            is_last = false;
            at -= step;
        }

        let o = origin.index();
        let oh = self.heights[o] as u32;
        self.stacks[o] |= (carried as u128) << oh;
        self.heights[o] = (oh + carry) as u8;
        self.set_top(origin, Color::from_bit(carried >> (carry - 1)), role);
    }
}
