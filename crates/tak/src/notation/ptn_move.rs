//! PTN moves: a liberal parser and the canonical writer.
//!
//! [`PtnMove`] is a move as written, independent of any board size. The parser accepts:
//! - placements `a1`, `Fa1`, `Sa1`, `Ca1` (upper-case prefix, lower-case file);
//! - spreads `a1>`, `3c3>12`, `1a1>1` (count optional, defaulting to 1; drops optional,
//!   defaulting to the whole count on the next square; the drops must add up to the count);
//! - a trailing crush mark `*` on a spread, and any trailing mix of `'`, `"`, `!`, `?`.
//!
//! Writing gives the canonical short form (no `F`, no `*`, no annotations, count only when above
//! 1, drops only when more than one square is covered), the form racetrack and Tiltak expect.
//! [`PtnMove::to_move`] checks the board-size limits and packs a [`Move`]; legality in a position
//! is `Position::check_legal`, combined in [`parse_move`].
//!
//! ```
//! use cairn_tak::board::Position;
//! use cairn_tak::notation::ptn_move::parse_move;
//! let mut pos = Position::<5>::start();
//! let mv = parse_move(&pos, "Fa1'").unwrap();
//! assert_eq!(mv.ptn::<5>().to_string(), "a1");
//! ```

use crate::board::{mask_of_drops, Direction, Move, Position, Role, Square, SquareName};
use crate::movegen::IllegalMove;
use smallvec::SmallVec;
use std::fmt;
use std::str::FromStr;

/// A move as written in PTN, before it meets a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PtnMove {
    /// A placement.
    Place {
        /// Where.
        square: SquareName,
        /// What.
        role: Role,
    },
    /// A spread.
    Spread {
        /// Origin.
        square: SquareName,
        /// Direction.
        dir: Direction,
        /// Pieces carried.
        count: u8,
        /// Pieces dropped per square, in order; they add up to `count`.
        drops: SmallVec<[u8; 8]>,
    },
}

/// Why a PTN move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtnMoveError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for PtnMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed move `{}`: {}", self.text, self.reason)
    }
}

impl std::error::Error for PtnMoveError {}

/// Why a move does not fit a board or a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a PTN move.
    Syntax(PtnMoveError),
    /// The move names a square outside the board.
    OffBoard {
        /// The move text.
        text: String,
        /// The board size.
        size: usize,
    },
    /// The move carries more pieces than the board size allows.
    CarryLimit {
        /// The move text.
        text: String,
        /// The board size.
        size: usize,
    },
    /// The move is not legal in the position.
    Illegal {
        /// The move text.
        text: String,
        /// Why.
        reason: IllegalMove,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::OffBoard { text, size } => {
                write!(f, "move `{text}` leaves the {size}x{size} board")
            }
            MoveError::CarryLimit { text, size } => write!(
                f,
                "move `{text}` carries more than the carry limit of {size}"
            ),
            MoveError::Illegal { text, reason } => write!(f, "illegal move `{text}`: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<PtnMoveError> for MoveError {
    fn from(e: PtnMoveError) -> Self {
        MoveError::Syntax(e)
    }
}

/// Splits trailing annotations (`'`, `"`, `!`, `?`) and the crush mark `*` off a move.
/// Returns `(move, crush mark present, annotations)`.
pub fn split_annotations(text: &str) -> (&str, bool, &str) {
    let core = text.trim_end_matches(['\'', '"', '!', '?']);
    let annotations = &text[core.len()..];
    match core.strip_suffix('*') {
        Some(core) => (core, true, annotations),
        None => (core, false, annotations),
    }
}

impl FromStr for PtnMove {
    type Err = PtnMoveError;

    fn from_str(text: &str) -> Result<PtnMove, PtnMoveError> {
        let err = |reason| PtnMoveError {
            text: text.to_string(),
            reason,
        };
        let (core, crush, _) = split_annotations(text);
        let bytes = core.as_bytes();
        if bytes.is_empty() {
            return Err(err("empty move"));
        }
        let mut i = 0;
        let (count, role) = match bytes[0] {
            b'1'..=b'8' => {
                i = 1;
                (Some(bytes[0] - b'0'), None)
            }
            b'0' | b'9' => return Err(err("a count must be 1 to 8")),
            b'F' => (None, Some(Role::Flat)),
            b'S' => (None, Some(Role::Wall)),
            b'C' => (None, Some(Role::Cap)),
            _ => (None, None),
        };
        if role.is_some() {
            i = 1;
        }
        let square = match (bytes.get(i), bytes.get(i + 1)) {
            (Some(f @ b'a'..=b'h'), Some(r @ b'1'..=b'8')) => SquareName {
                file: f - b'a',
                rank: r - b'1',
            },
            (Some(b'a'..=b'h'), _) => return Err(err("a square's rank must be 1 to 8")),
            _ => return Err(err("expected a square a1 to h8")),
        };
        i += 2;
        let Some(&dir_byte) = bytes.get(i) else {
            if count.is_some() {
                return Err(err("a count needs a direction"));
            }
            if crush {
                return Err(err("only a spread can flatten a wall (`*`)"));
            }
            return Ok(PtnMove::Place {
                square,
                role: role.unwrap_or(Role::Flat),
            });
        };
        let Some(dir) = Direction::from_symbol(dir_byte as char) else {
            return Err(err("expected a direction + - < > after the square"));
        };
        if role.is_some() {
            return Err(err("a spread cannot start with F, S or C"));
        }
        let count = count.unwrap_or(1);
        let mut drops: SmallVec<[u8; 8]> = SmallVec::new();
        for &b in &bytes[i + 1..] {
            match b {
                b'1'..=b'8' if drops.len() < 8 => drops.push(b - b'0'),
                b'1'..=b'8' => return Err(err("more than 8 drops")),
                _ => return Err(err("drops must be digits 1 to 8")),
            }
        }
        let sum: u32 = drops.iter().map(|&d| d as u32).sum();
        if drops.is_empty() {
            drops.push(count);
        } else if sum != count as u32 {
            return Err(err("the drops must add up to the count"));
        }
        Ok(PtnMove::Spread {
            square,
            dir,
            count,
            drops,
        })
    }
}

impl fmt::Display for PtnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PtnMove::Place { square, role } => write!(f, "{}{square}", role.ptn_prefix()),
            PtnMove::Spread {
                square,
                dir,
                count,
                drops,
            } => {
                if *count > 1 {
                    write!(f, "{count}")?;
                }
                write!(f, "{square}{}", dir.symbol())?;
                if drops.len() > 1 {
                    for d in drops {
                        write!(f, "{d}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl PtnMove {
    /// The move for an `N`×`N` board, checking only the board's limits (square and carry).
    pub fn to_move<const N: usize>(&self) -> Result<Move, MoveError> {
        let on_board = |sq: SquareName| {
            if (sq.file as usize) < N && (sq.rank as usize) < N {
                Ok(Square::new::<N>(sq.file as usize, sq.rank as usize))
            } else {
                Err(MoveError::OffBoard {
                    text: self.to_string(),
                    size: N,
                })
            }
        };
        match self {
            PtnMove::Place { square, role } => Ok(Move::place(on_board(*square)?, *role)),
            PtnMove::Spread {
                square,
                dir,
                count,
                drops,
            } => {
                let origin = on_board(*square)?;
                if *count as usize > N {
                    return Err(MoveError::CarryLimit {
                        text: self.to_string(),
                        size: N,
                    });
                }
                let mask = mask_of_drops(drops).expect("the parser checked the drops");
                let mv = Move::spread(origin, *dir, mask);
                if origin.step::<N>(*dir).is_none() || drops.len() >= N {
                    return Err(MoveError::OffBoard {
                        text: self.to_string(),
                        size: N,
                    });
                }
                Ok(mv)
            }
        }
    }

    /// The PTN of a packed move on an `N`×`N` board.
    pub fn from_move<const N: usize>(mv: Move) -> PtnMove {
        let square = mv.square().name::<N>();
        match mv.role() {
            Some(role) => PtnMove::Place { square, role },
            None => PtnMove::Spread {
                square,
                dir: mv.direction(),
                count: mv.count() as u8,
                drops: mv.drops().map(|d| d as u8).collect(),
            },
        }
    }
}

/// Parses `text` as a move and checks that it is legal in `pos`.
pub fn parse_move<const N: usize>(pos: &Position<N>, text: &str) -> Result<Move, MoveError> {
    let mv = text.parse::<PtnMove>()?.to_move::<N>()?;
    pos.check_legal(mv).map_err(|reason| MoveError::Illegal {
        text: text.to_string(),
        reason,
    })?;
    Ok(mv)
}

/// Plays the plies of `line` (PTN, separated by white space) on `pos` by the rules, calling
/// `played` with the position after each. An error names the 1-based ply:
/// ``ply 3: malformed move `zz`: ...`` or ``ply 5 `a1`: the game already ended R-0``; the plies
/// before it stay played.
pub fn play_line<const N: usize>(
    pos: &mut Position<N>,
    line: &str,
    mut played: impl FnMut(&Position<N>, Move),
) -> Result<(), String> {
    for (i, text) in line.split_whitespace().enumerate() {
        if let Some(result) = pos.result() {
            return Err(format!(
                "ply {} `{text}`: the game already ended {result}",
                i + 1
            ));
        }
        let mv = parse_move(pos, text).map_err(|e| format!("ply {}: {e}", i + 1))?;
        pos.make(mv);
        played(pos, mv);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str) -> String {
        text.parse::<PtnMove>().unwrap().to_string()
    }

    #[test]
    fn liberal_in_canonical_out() {
        assert_eq!(canonical("Fh7"), "h7");
        assert_eq!(canonical("Sa4"), "Sa4");
        assert_eq!(canonical("1a1>1"), "a1>");
        assert_eq!(canonical("3a1+111"), "3a1+111");
        assert_eq!(canonical("3c3>12"), "3c3>12");
        assert_eq!(canonical("b1>*'"), "b1>");
        assert_eq!(canonical("3a1+111''!"), "3a1+111");
        assert_eq!(canonical("6e3+411*"), "6e3+411");
        assert_eq!(canonical("2a1>2"), "2a1>");
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "", "a11", "z3", "14c4>", "6a1", "6a1>2222", "a", "3a", "a1d", "5d4-22",
        ] {
            assert!(bad.parse::<PtnMove>().is_err(), "{bad} should be rejected");
        }
    }
}
