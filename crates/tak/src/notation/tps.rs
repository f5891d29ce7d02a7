//! TPS (Tak Positional System): parse, validate and write positions.
//!
//! Parsing happens in two steps, as in the shakmaty model: [`Tps`] is the syntax (rows, stacks,
//! player, move number), checked for shape only; [`Tps::to_position`] then checks it against the
//! rules of a board size (reserves, capstones) and builds a [`Position`].
//!
//! Accepted: rows from the top rank down separated by `/`; squares separated by `,`; `x` for one
//! empty square and `xN` for N of them, mixed freely (`x2,1,x,x`); stacks as `1`/`2` digits bottom
//! to top with an optional `S` or `C` for the top; the three fields separated by any whitespace.
//! The writer compresses empty runs (`x2,1,x2`), as PTN Ninja does; [`to_tps_uncompressed`] writes
//! one `x` per square, as racetrack does.
//!
//! ```
//! use cairn_tak::notation::tps;
//! let pos = tps::parse::<5>("x4,1/x5/x5/x5/2,x4 1 2").unwrap();
//! assert_eq!(pos.ply(), 2);
//! assert_eq!(tps::to_tps(&pos), "x4,1/x5/x5/x5/2,x4 1 2");
//! ```

use super::quote::quote;
use crate::board::{
    sizes_text, BuildError, Builder, Color, Position, Role, Square, MAX_SIZE, SIZES,
};
use std::fmt;
use std::str::FromStr;

/// A stack in TPS: colours bottom to top and the role of the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TpsStack {
    /// Colours from the bottom piece to the top piece.
    pub colors: Vec<Color>,
    /// The role of the top piece.
    pub top: Role,
}

/// A syntactically valid TPS, not yet checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tps {
    /// Board size (number of rows, equal to the number of squares per row).
    pub size: usize,
    /// Squares in board order (`rank * size + file`, a1 first).
    pub squares: Vec<Option<TpsStack>>,
    /// The player to move.
    pub to_move: Color,
    /// The move number (1 or more).
    pub move_number: u32,
}

/// What is wrong with a TPS string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TpsError {
    /// Not three whitespace-separated fields.
    FieldCount(usize),
    /// The player field is not `1` or `2`.
    Player(String),
    /// The move number is not a whole number from 1 up, or too large (above 2^30).
    MoveNumber(String),
    /// The board has a number of rows Cairn does not play.
    UnsupportedSize(usize),
    /// A row does not have as many squares as the board has rows.
    RowLength {
        /// 1-based row of the TPS, counted from the top (row 1 is the top rank, rank N).
        row: usize,
        /// Squares found in the row.
        found: usize,
        /// Squares expected (the number of rows).
        expected: usize,
    },
    /// A square's text is not `x`, `xN` or a stack.
    Square {
        /// 1-based row of the TPS, counted from the top (row 1 is the top rank, rank N).
        row: usize,
        /// The number of rows of the TPS (the board size), to name the rank.
        size: usize,
        /// The square's text.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The TPS is for another board size than the one asked for.
    WrongSize {
        /// Size of the TPS.
        found: usize,
        /// Size asked for.
        expected: usize,
    },
    /// More pieces of one kind than a player has.
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
    /// Another rule of a position broken (the board builder's check).
    Board(BuildError),
}

impl fmt::Display for TpsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TpsError::FieldCount(n) => write!(
                f,
                "expected 3 fields (board, player, move number), found {n}"
            ),
            TpsError::Player(p) => write!(f, "player must be 1 or 2, found {}", quote(p)),
            TpsError::MoveNumber(m) if is_large_number(m) => write!(
                f,
                "move number {} is too large (at most {MAX_MOVE_NUMBER})",
                quote(m)
            ),
            TpsError::MoveNumber(m) => {
                write!(f, "move number must be 1 or more, found {}", quote(m))
            }
            TpsError::UnsupportedSize(n) => {
                write!(f, "board has {n} rows; Cairn plays sizes {}", sizes_text())
            }
            TpsError::RowLength {
                row,
                found,
                expected,
            } => write!(
                f,
                "{} has {found} square{}, expected {expected}",
                rank_name(*row, *expected),
                if *found == 1 { "" } else { "s" }
            ),
            TpsError::Square {
                row,
                size,
                text,
                reason,
            } => {
                let rank = rank_name(*row, *size);
                write!(f, "{rank}: bad square {}: {reason}", quote(text))
            }
            TpsError::WrongSize { found, expected } => {
                write!(
                    f,
                    "TPS is for {found}x{found}, expected {expected}x{expected}"
                )
            }
            TpsError::Reserves {
                color,
                kind,
                found,
                max,
            } => BuildError::write_reserves(f, *color, kind, *found, *max),
            TpsError::Board(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TpsError {}

/// The largest move number a TPS may have.
const MAX_MOVE_NUMBER: u32 = 1 << 30;

/// Whether `text` is a whole number above [`MAX_MOVE_NUMBER`] (however many digits).
fn is_large_number(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && text.parse::<u32>().map_or(true, |n| n > MAX_MOVE_NUMBER)
}

/// A row of a TPS named as a player reads the board: the first row is the top rank, rank
/// `size`: `rank 6 (the first row of the TPS)`.
fn rank_name(row: usize, size: usize) -> String {
    const ORDINALS: [&str; 8] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    ];
    let ordinal = match ORDINALS.get(row.wrapping_sub(1)) {
        Some(word) => format!("the {word} row"),
        None => format!("row {row}"),
    };
    format!(
        "rank {} ({ordinal} of the TPS)",
        (size + 1).saturating_sub(row)
    )
}

fn parse_stack(text: &str, row: usize, size: usize) -> Result<TpsStack, TpsError> {
    let bad = |reason| TpsError::Square {
        row,
        size,
        text: text.to_string(),
        reason,
    };
    let (digits, top) = match text.as_bytes().last() {
        Some(b'S') => (&text[..text.len() - 1], Role::Wall),
        Some(b'C') => (&text[..text.len() - 1], Role::Cap),
        _ => (text, Role::Flat),
    };
    if text.is_empty() {
        return Err(bad("empty square text (two commas in a row?)"));
    }
    if digits.is_empty() {
        return Err(bad("a wall or capstone needs a colour before it"));
    }
    let colors = digits
        .bytes()
        .map(|b| match b {
            b'1' => Ok(Color::White),
            b'2' => Ok(Color::Black),
            b'S' | b'C' => Err(bad("S and C may only mark the top piece")),
            _ => Err(bad("expected x, xN, or a stack of 1s and 2s")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TpsStack { colors, top })
}

fn parse_row(text: &str, row: usize, size: usize) -> Result<Vec<Option<TpsStack>>, TpsError> {
    let mut squares = Vec::new();
    for cell in text.split(',') {
        if let Some(run) = cell.strip_prefix('x') {
            let n = if run.is_empty() {
                1
            } else {
                match run.parse::<usize>() {
                    Ok(n)
                        if (1..=MAX_SIZE).contains(&n)
                            && run.bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        n
                    }
                    _ => {
                        return Err(TpsError::Square {
                            row,
                            size,
                            text: cell.to_string(),
                            reason: "an empty run must be x or x1 to x8",
                        })
                    }
                }
            };
            squares.extend((0..n).map(|_| None));
        } else {
            squares.push(Some(parse_stack(cell, row, size)?));
        }
        if squares.len() > MAX_SIZE {
            break;
        }
    }
    Ok(squares)
}

impl FromStr for Tps {
    type Err = TpsError;

    fn from_str(s: &str) -> Result<Tps, TpsError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() != 3 {
            return Err(TpsError::FieldCount(fields.len()));
        }
        let to_move = match fields[1] {
            "1" => Color::White,
            "2" => Color::Black,
            other => return Err(TpsError::Player(other.to_string())),
        };
        let move_number = match fields[2].parse::<u32>() {
            Ok(m)
                if (1..=MAX_MOVE_NUMBER).contains(&m)
                    && fields[2].bytes().all(|b| b.is_ascii_digit()) =>
            {
                m
            }
            _ => return Err(TpsError::MoveNumber(fields[2].to_string())),
        };
        let rows: Vec<&str> = fields[0].split('/').collect();
        let size = rows.len();
        if !SIZES.contains(&size) {
            return Err(TpsError::UnsupportedSize(size));
        }
        let mut squares = vec![None; size * size];
        for (i, text) in rows.iter().enumerate() {
            let row = parse_row(text, i + 1, size)?;
            if row.len() != size {
                return Err(TpsError::RowLength {
                    row: i + 1,
                    found: row.len(),
                    expected: size,
                });
            }
            let rank = size - 1 - i;
            for (file, stack) in row.into_iter().enumerate() {
                squares[rank * size + file] = stack;
            }
        }
        Ok(Tps {
            size,
            squares,
            to_move,
            move_number,
        })
    }
}

impl Tps {
    /// The number of plies played before this position.
    pub fn ply(&self) -> u32 {
        2 * (self.move_number - 1) + self.to_move as u32
    }

    /// Checks the TPS against the rules of an `N`×`N` game and builds the position (komi 0).
    pub fn to_position<const N: usize>(&self) -> Result<Position<N>, TpsError> {
        if self.size != N {
            return Err(TpsError::WrongSize {
                found: self.size,
                expected: N,
            });
        }
        let mut builder = Builder::<N>::new(self.ply());
        for (i, stack) in self.squares.iter().enumerate() {
            if let Some(stack) = stack {
                builder.stack(Square(i as u8), &stack.colors, stack.top);
            }
        }
        builder.build().map_err(|e| match e {
            BuildError::Reserves {
                color,
                kind,
                found,
                max,
            } => TpsError::Reserves {
                color,
                kind,
                found,
                max,
            },
            other => TpsError::Board(other),
        })
    }
}

/// Parses and validates a TPS for an `N`×`N` board.
pub fn parse<const N: usize>(s: &str) -> Result<Position<N>, TpsError> {
    s.parse::<Tps>()?.to_position::<N>()
}

fn write_square<const N: usize>(pos: &Position<N>, sq: Square, out: &mut String) {
    out.extend(pos.stack_colors(sq).map(Color::tps_digit));
    match pos.top(sq) {
        Some((_, Role::Wall)) => out.push('S'),
        Some((_, Role::Cap)) => out.push('C'),
        _ => {}
    }
}

fn write<const N: usize>(pos: &Position<N>, compress: bool) -> String {
    let mut out = String::new();
    for rank in (0..N).rev() {
        let mut empties = 0;
        for file in 0..N {
            let sq = Square::new::<N>(file, rank);
            let flush = |out: &mut String, empties: &mut usize| {
                if *empties > 0 {
                    out.push('x');
                    if *empties > 1 {
                        out.push_str(&empties.to_string());
                    }
                    out.push(',');
                    *empties = 0;
                }
            };
            if pos.height(sq) == 0 {
                if compress {
                    empties += 1;
                } else {
                    out.push_str("x,");
                }
            } else {
                flush(&mut out, &mut empties);
                write_square(pos, sq, &mut out);
                out.push(',');
            }
            if file == N - 1 {
                flush(&mut out, &mut empties);
            }
        }
        out.pop();
        out.push('/');
    }
    out.pop();
    let player = pos.side_to_move().tps_digit();
    out.push_str(&format!(" {player} {}", pos.move_number()));
    out
}

/// The TPS of a position, with runs of empty squares compressed (`x3`).
pub fn to_tps<const N: usize>(pos: &Position<N>) -> String {
    write(pos, true)
}

/// The TPS of a position with one `x` per empty square, the form racetrack sends.
pub fn to_tps_uncompressed<const N: usize>(pos: &Position<N>) -> String {
    write(pos, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_vectors() {
        let pos = parse::<5>("x2,1,x,1/x5/x5/x5/2,x4 2 2").unwrap();
        assert_eq!(pos.ply(), 3);
        assert_eq!(to_tps(&pos), "x2,1,x,1/x5/x5/x5/2,x4 2 2");
        let long =
            "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26";
        let pos = parse::<5>(long).unwrap();
        assert_eq!(pos.ply(), 50);
        assert_eq!(to_tps(&pos), long);
        let empty = parse::<5>("x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x 1 1").unwrap();
        assert_eq!(empty, Position::<5>::start());
        assert_eq!(
            to_tps_uncompressed(&empty),
            "x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x 1 1"
        );
    }

    /// Too many pieces read the same from TPS as from the board builder.
    #[test]
    fn reserves_are_reported_as_the_builder_says() {
        let err = parse::<4>("1C,x3/x4/x4/x4 2 2").unwrap_err();
        let text = "white has 1 capstone on the board, but only 0 in the game";
        assert_eq!(err.to_string(), text);
        let mut builder = Builder::<4>::new(2);
        builder.stack(Square(0), &[Color::White], Role::Cap);
        assert_eq!(builder.build().unwrap_err().to_string(), text);
    }
}
