//! Legal move generation, bulk move counting, legality checks and threats (road in one).
//!
//! Generation appends to a caller-owned [`MoveList`], so a search or perft that keeps one list
//! per ply never allocates. Placements come first, then spreads. Spreads use the precomputed drop
//! patterns of [`spread`]: per own stack and direction, the free distance (open squares before
//! the edge, a wall or a capstone) and the carry limit `min(height, N)` select a ready-made list.
//!
//! Rules encoded here: the opening swap (plies 1 and 2 place one flat of the opponent's colour,
//! nothing else); placements need a stone (flat, wall) or a capstone in reserve; spreads start
//! from a stack topped by the mover, carry at most `N` and the height, drop at least one piece
//! per square, never enter a capstone, and enter a wall only with a lone capstone on the last
//! step, flattening it.

mod perft;
pub mod spread;
mod threats;

pub use perft::{perft, perft_divide, perft_parallel};

use crate::board::{Bitboard, Direction, Geo, Move, Position, Role, Square, SquareName};
use smallvec::SmallVec;
use std::fmt;

/// A list of moves, inline up to 256 (more than nearly every real position needs).
pub type MoveList = SmallVec<[Move; 256]>;

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The square is not on the board.
    OffBoard(SquareName),
    /// A placement on an occupied square.
    Occupied(SquareName),
    /// A wall or capstone placement, or a spread, during the opening swap.
    OpeningFlatOnly,
    /// No stones left for a flat or wall placement.
    NoStones,
    /// No capstones left (or none at this board size).
    NoCapstones,
    /// A spread from an empty square.
    EmptySquare(SquareName),
    /// A spread from a stack topped by the opponent.
    NotYourStack(SquareName),
    /// A spread carrying more than the carry limit.
    CarryLimit {
        /// Pieces the move carries.
        count: u32,
        /// The carry limit (board size).
        limit: u32,
    },
    /// A spread carrying more pieces than the stack has.
    StackTooShort {
        /// Pieces the move carries.
        count: u32,
        /// The stack's height.
        height: u32,
    },
    /// A spread running past the edge of the board.
    PastEdge,
    /// A spread entering a capstone, or a wall without a lone capstone on the last step.
    Blocked(SquareName, Role),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard(sq) => write!(f, "square {sq} is not on the board"),
            IllegalMove::Occupied(sq) => write!(f, "square {sq} is occupied"),
            IllegalMove::OpeningFlatOnly => {
                f.write_str("the first move of each player must place a flat")
            }
            IllegalMove::NoStones => f.write_str("no stones left to place"),
            IllegalMove::NoCapstones => f.write_str("no capstones left to place"),
            IllegalMove::EmptySquare(sq) => write!(f, "square {sq} is empty"),
            IllegalMove::NotYourStack(sq) => write!(f, "the stack on {sq} is the opponent's"),
            IllegalMove::CarryLimit { count, limit } => {
                write!(f, "carries {count} pieces, over the carry limit of {limit}")
            }
            IllegalMove::StackTooShort { count, height } => {
                write!(f, "carries {count} pieces from a stack of {height}")
            }
            IllegalMove::PastEdge => f.write_str("the spread runs off the board"),
            IllegalMove::Blocked(sq, Role::Wall) => write!(
                f,
                "the wall on {sq} can only be flattened by a lone capstone on the last step"
            ),
            IllegalMove::Blocked(sq, _) => write!(f, "the capstone on {sq} blocks the spread"),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl<const N: usize> Position<N> {
    /// Free distance from `sq` toward `dir`, and whether the square after it is a wall.
    #[inline(always)]
    fn reach(&self, sq: Square, dir: Direction) -> (usize, bool) {
        let blockers = (self.walls() | self.caps()).0 & Geo::<N>::RAYS[dir as usize][sq.index()];
        if blockers == 0 {
            return (
                Geo::<N>::EDGE_DISTANCE[dir as usize][sq.index()] as usize,
                false,
            );
        }
        let first = match dir {
            Direction::North | Direction::East => blockers.trailing_zeros(),
            Direction::South | Direction::West => 63 - blockers.leading_zeros(),
        } as usize;
        let steps = match dir {
            Direction::North | Direction::South => first.abs_diff(sq.index()) / N,
            Direction::East | Direction::West => first.abs_diff(sq.index()),
        };
        (steps - 1, self.walls().0 >> first & 1 != 0)
    }

    /// The carry limit of the stack on `sq`.
    #[inline(always)]
    fn carry_limit(&self, sq: Square) -> usize {
        self.height(sq).min(N)
    }

    /// Appends every legal move to `moves` (placements, then spreads). The game-over state is
    /// not checked: a finished position still lists its moves.
    pub fn generate_moves(&self, moves: &mut MoveList) {
        let me = self.side_to_move();
        let empty = self.empty();
        if self.is_opening() {
            if self.stones_left(!me) > 0 {
                moves.extend(empty.map(|sq| Move::place(sq, Role::Flat)));
            }
            return;
        }
        let stones = self.stones_left(me) > 0;
        let caps = self.caps_left(me) > 0;
        for sq in empty {
            if stones {
                moves.push(Move::place(sq, Role::Flat));
                moves.push(Move::place(sq, Role::Wall));
            }
            if caps {
                moves.push(Move::place(sq, Role::Cap));
            }
        }
        for sq in self.controlled(me) {
            let carry = self.carry_limit(sq);
            let is_cap = self.caps().contains(sq);
            for dir in Direction::ALL {
                let (distance, wall_next) = self.reach(sq, dir);
                for &mask in spread::normal(carry, distance) {
                    moves.push(Move::spread(sq, dir, mask));
                }
                if is_cap && wall_next {
                    for &mask in spread::crush(carry, distance) {
                        moves.push(Move::spread(sq, dir, mask));
                    }
                }
            }
        }
    }

    /// All legal moves in a new list.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// The number of legal moves, counted from the pattern tables without generating them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let me = self.side_to_move();
        let empty = self.empty().count() as u64;
        if self.is_opening() {
            return if self.stones_left(!me) > 0 { empty } else { 0 };
        }
        let per_square = 2 * (self.stones_left(me) > 0) as u64 + (self.caps_left(me) > 0) as u64;
        let mut total = empty * per_square;
        for sq in self.controlled(me) {
            let carry = self.carry_limit(sq);
            let is_cap = self.caps().contains(sq);
            for dir in Direction::ALL {
                let (distance, wall_next) = self.reach(sq, dir);
                total += spread::normal_count(carry, distance) as u64;
                if is_cap && wall_next {
                    total += spread::crush_count(carry, distance) as u64;
                }
            }
        }
        total
    }

    /// Checks that `mv` is legal here, saying why not.
    pub fn check_legal(&self, mv: Move) -> Result<(), IllegalMove> {
        let sq = mv.square();
        if sq.index() >= N * N {
            return Err(IllegalMove::OffBoard(SquareName {
                file: (sq.index() % 8) as u8,
                rank: (sq.index() / 8) as u8,
            }));
        }
        let name = sq.name::<N>();
        let me = self.side_to_move();
        if let Some(role) = mv.role() {
            if self.height(sq) > 0 {
                return Err(IllegalMove::Occupied(name));
            }
            if self.is_opening() {
                return match (role, self.stones_left(!me)) {
                    (Role::Flat, 0) => Err(IllegalMove::NoStones),
                    (Role::Flat, _) => Ok(()),
                    _ => Err(IllegalMove::OpeningFlatOnly),
                };
            }
            return match role {
                Role::Cap if self.caps_left(me) == 0 => Err(IllegalMove::NoCapstones),
                Role::Flat | Role::Wall if self.stones_left(me) == 0 => Err(IllegalMove::NoStones),
                _ => Ok(()),
            };
        }
        if self.is_opening() {
            return Err(IllegalMove::OpeningFlatOnly);
        }
        let (owner, role) = self.top(sq).ok_or(IllegalMove::EmptySquare(name))?;
        if owner != me {
            return Err(IllegalMove::NotYourStack(name));
        }
        let (count, height) = (mv.count(), self.height(sq) as u32);
        if count > N as u32 {
            return Err(IllegalMove::CarryLimit {
                count,
                limit: N as u32,
            });
        }
        if count > height {
            return Err(IllegalMove::StackTooShort { count, height });
        }
        let dir = mv.direction();
        let distance = mv.distance() as usize;
        if distance > Geo::<N>::EDGE_DISTANCE[dir as usize][sq.index()] as usize {
            return Err(IllegalMove::PastEdge);
        }
        let (free, _) = self.reach(sq, dir);
        if distance <= free {
            return Ok(());
        }
        // The square after the free run holds a wall or capstone.
        let mut blocker = sq;
        for _ in 0..=free {
            blocker = blocker.step::<N>(dir).expect("within the edge distance");
        }
        let last_drop = mv.drops().last().expect("a spread drops at least once");
        match self.top(blocker) {
            Some((_, Role::Wall))
                if role == Role::Cap && distance == free + 1 && last_drop == 1 =>
            {
                Ok(())
            }
            Some((_, blocking)) => Err(IllegalMove::Blocked(blocker.name::<N>(), blocking)),
            None => unreachable!("reach stops only at walls and capstones"),
        }
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_legal(mv).is_ok()
    }

    /// Squares along `dir` from `sq`, `steps` of them (not including `sq`).
    #[inline(always)]
    fn segment(sq: Square, dir: Direction, steps: usize) -> Bitboard {
        let ray = Geo::<N>::RAYS[dir as usize][sq.index()];
        if steps == 0 {
            return Bitboard::EMPTY;
        }
        let end = (sq.index() as isize + dir.offset::<N>() * steps as isize) as usize;
        Bitboard(ray & !Geo::<N>::RAYS[dir as usize][end])
    }
}
