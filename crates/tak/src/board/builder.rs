//! Building a position square by square, for notation and tools that read positions from text:
//! [`Builder`] takes stacks in any order and checks the whole against the rules when done, so
//! no reader needs the board's internals.

use super::{Color, Position, Role, Square};
use std::fmt;

/// Why a built position is not one the rules allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A square outside the board.
    OffBoard(Square),
    /// A second stack on the same square.
    Occupied(Square),
    /// A stack of no pieces.
    EmptyStack(Square),
    /// More pieces of one kind on the board than a player has.
    Reserves {
        /// Whose pieces.
        color: Color,
        /// `"stones"` or `"capstones"`.
        kind: &'static str,
        /// How many are on the board.
        found: usize,
        /// How many the player has at this size.
        max: u8,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::OffBoard(sq) => write!(f, "square {} is off the board", sq.0),
            BuildError::Occupied(sq) => write!(f, "square {} has two stacks", sq.0),
            BuildError::EmptyStack(sq) => write!(f, "square {} has a stack of no pieces", sq.0),
            BuildError::Reserves {
                color,
                kind,
                found,
                max,
            } => BuildError::write_reserves(f, *color, kind, *found, *max),
        }
    }
}

impl BuildError {
    /// Writes what [`BuildError::Reserves`] with these fields says: the one text for too many
    /// pieces of a kind, which the TPS reader's own reserves error gives too.
    pub(crate) fn write_reserves(
        f: &mut fmt::Formatter<'_>,
        color: Color,
        kind: &str,
        found: usize,
        max: u8,
    ) -> fmt::Result {
        // `kind` is plural (`stones`, `capstones`): one piece is `1 capstone`.
        let kind = match found {
            1 => kind.strip_suffix('s').unwrap_or(kind),
            _ => kind,
        };
        write!(
            f,
            "{color} has {found} {kind} on the board, but only {max} in the game"
        )
    }
}

impl std::error::Error for BuildError {}

/// A position under construction: an empty board at some ply, then stacks (colours bottom to
/// top, and the role of the top piece), checked by [`Builder::build`].
pub struct Builder<const N: usize> {
    ply: u32,
    stacks: Vec<(Square, Vec<Color>, Role)>,
}

impl<const N: usize> Builder<N> {
    /// An empty `N`×`N` board with `ply` plies played (full reserves, komi 0).
    pub fn new(ply: u32) -> Self {
        Builder {
            ply,
            stacks: Vec::new(),
        }
    }

    /// Adds a stack on `sq`: `colors` from the bottom up, `top` the role of the last piece.
    pub fn stack(&mut self, sq: Square, colors: &[Color], top: Role) -> &mut Self {
        self.stacks.push((sq, colors.to_vec(), top));
        self
    }

    /// The position, or the first rule it breaks: squares on the board, one non-empty stack per
    /// square, and no more stones or capstones of a colour than the size gives.
    pub fn build(&self) -> Result<Position<N>, BuildError> {
        let mut seen = [false; 64];
        for (sq, colors, _) in &self.stacks {
            if sq.index() >= N * N {
                return Err(BuildError::OffBoard(*sq));
            }
            if std::mem::replace(&mut seen[sq.index()], true) {
                return Err(BuildError::Occupied(*sq));
            }
            if colors.is_empty() {
                return Err(BuildError::EmptyStack(*sq));
            }
        }
        for color in Color::ALL {
            let mut used = [0usize; 2];
            for (_, colors, top) in &self.stacks {
                for (i, &c) in colors.iter().enumerate() {
                    let is_cap = i + 1 == colors.len() && *top == Role::Cap;
                    used[is_cap as usize] += (c == color) as usize;
                }
            }
            let limits = [
                ("stones", Position::<N>::STONES),
                ("capstones", Position::<N>::CAPSTONES),
            ];
            for ((kind, max), found) in limits.into_iter().zip(used) {
                if found > max as usize {
                    return Err(BuildError::Reserves {
                        color,
                        kind,
                        found,
                        max,
                    });
                }
            }
        }
        let mut pos = Position::<N>::empty_at_ply(self.ply);
        for (sq, colors, top) in &self.stacks {
            let placed = pos.put_stack(*sq, colors, *top);
            debug_assert!(placed, "reserves were checked above");
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_positions_are_checked_when_done() {
        use Color::{Black, White};
        let mut builder = Builder::<3>::new(4);
        builder.stack(Square(0), &[White], Role::Flat).stack(
            Square(4),
            &[Black, White],
            Role::Wall,
        );
        let pos = builder.build().unwrap();
        assert_eq!(pos.ply(), 4);
        assert_eq!(pos.height(Square(4)), 2);
        assert_eq!(pos.stones_left(White), Position::<3>::STONES - 2);
        assert_eq!(pos.stones_left(Black), Position::<3>::STONES - 1);

        let err = |stacks: &[(u8, &[Color], Role)]| {
            let mut b = Builder::<3>::new(2);
            for &(sq, colors, top) in stacks {
                b.stack(Square(sq), colors, top);
            }
            b.build().unwrap_err()
        };
        assert_eq!(
            err(&[(9, &[White], Role::Flat)]),
            BuildError::OffBoard(Square(9))
        );
        assert_eq!(
            err(&[(1, &[White], Role::Flat), (1, &[Black], Role::Flat)]),
            BuildError::Occupied(Square(1))
        );
        assert_eq!(
            err(&[(2, &[], Role::Flat)]),
            BuildError::EmptyStack(Square(2))
        );
        assert_eq!(
            err(&[(3, &[White], Role::Cap)]),
            BuildError::Reserves {
                color: White,
                kind: "capstones",
                found: 1,
                max: 0
            }
        );
        let eleven = [White; 11];
        assert!(matches!(
            err(&[(0, &eleven, Role::Flat)]),
            BuildError::Reserves {
                kind: "stones",
                found: 11,
                max: 10,
                ..
            }
        ));
    }
}
