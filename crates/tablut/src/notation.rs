//! Tablut notation: squares (`e5`), moves in plain coordinates (`e3-e1`, also `e3e1`), and a
//! one-line position.
//!
//! A position is the nine ranks from 9 down to 1, separated by `/`, each written file a to i
//! with `B` for a Muscovite, `W` for a guard, `K` for the king and a digit for a run of empty
//! squares, then a space and the side to move, `b` or `w`. The start:
//!
//! ```text
//! 3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 b
//! ```
//!
//! Every parser returns a [`NotationError`] that says what is wrong and where.

pub use super::board::square_name;
use super::board::{bit, square_at, Move, Position, PositionError, Side, SQUARES};
use std::fmt;

/// What is wrong with a square, move or position text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a square name `a1`..`i9`.
    Square(String),
    /// Not a move in coordinates.
    Move(String),
    /// A well-formed move that the position does not allow, and why.
    Illegal(String, &'static str),
    /// The position text is malformed: what and where.
    Position(String),
    /// The pieces are well written but cannot stand so.
    Pieces(PositionError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Square(s) => write!(f, "'{s}' is not a square (a1 to i9)"),
            NotationError::Move(s) => write!(
                f,
                "'{s}' is not a move: write the square a piece leaves and the square it ends on, such as e3-e1"
            ),
            NotationError::Illegal(s, why) => write!(f, "{s} is illegal: {why}"),
            NotationError::Position(why) => write!(f, "bad position: {why}"),
            NotationError::Pieces(e) => write!(f, "bad position: {e}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// The square named `text` (`a1`..`i9`, case-insensitive).
pub fn parse_square(text: &str) -> Result<u8, NotationError> {
    let bytes = text.as_bytes();
    let bad = || NotationError::Square(text.to_string());
    let [file, rank] = bytes else {
        return Err(bad());
    };
    let file = file.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&file) || !(b'1'..=b'9').contains(rank) {
        return Err(bad());
    }
    Ok(square_at(file - b'a', rank - b'1'))
}

/// A position is debugged as its one line.
impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", write_position(self))
    }
}

/// A move in coordinates (`e3-e1` or `e3e1`), without checking it against a position.
pub fn parse_move_text(text: &str) -> Result<Move, NotationError> {
    let trimmed = text.trim();
    let bad = || NotationError::Move(trimmed.to_string());
    let (from, to) = match trimmed.split_once('-') {
        Some(parts) => parts,
        None if trimmed.len() == 4 && trimmed.is_ascii() => trimmed.split_at(2),
        None => return Err(bad()),
    };
    let (from, to) = (
        parse_square(from).map_err(|_| bad())?,
        parse_square(to).map_err(|_| bad())?,
    );
    Ok(Move::new(from, to))
}

/// A legal move of `pos` in coordinates.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let mv = parse_move_text(text)?;
    match pos.why_illegal(mv) {
        None => Ok(mv),
        Some(why) => Err(NotationError::Illegal(mv.to_string(), why)),
    }
}

/// `pos` in the one-line format.
pub fn write_position(pos: &Position) -> String {
    let mut out = String::with_capacity(48);
    for rank in (0..9u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let sq = rank * 9 + file;
            let c = if sq == pos.king() {
                'K'
            } else if pos.black() & bit(sq) != 0 {
                'B'
            } else if pos.white() & bit(sq) != 0 {
                'W'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                out.push((b'0' + empty) as char);
                empty = 0;
            }
            out.push(c);
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(match pos.side_to_move() {
        Side::Black => " b",
        Side::White => " w",
    });
    out
}

/// A position in the one-line format (`startpos` is the usual start).
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let text = text.trim();
    if text == "startpos" {
        return Ok(Position::start());
    }
    let bad = |why: String| NotationError::Position(why);
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or_else(|| bad("it is empty".into()))?;
    let side = match fields.next() {
        Some("b" | "B") => Side::Black,
        Some("w" | "W") => Side::White,
        Some(other) => {
            return Err(bad(format!(
                "the side to move is 'b' or 'w', not '{other}'"
            )))
        }
        None => return Err(bad("the side to move ('b' or 'w') is missing".into())),
    };
    if let Some(extra) = fields.next() {
        return Err(bad(format!("unexpected '{extra}' after the side to move")));
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(bad(format!("{} ranks instead of 9", ranks.len())));
    }
    let (mut black, mut white, mut king) = (0u128, 0u128, None);
    for (i, row) in ranks.iter().enumerate() {
        let rank = 8 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            let at = |file: u8| rank * 9 + file;
            if file >= 9 {
                return Err(bad(format!("rank {} has more than 9 squares", rank + 1)));
            }
            match c {
                '1'..='9' => {
                    file += c as u8 - b'0';
                    continue;
                }
                'B' | 'b' => black |= bit(at(file)),
                'W' | 'w' => white |= bit(at(file)),
                'K' | 'k' => {
                    if king.is_some() {
                        return Err(bad("two kings".into()));
                    }
                    king = Some(at(file));
                }
                _ => {
                    return Err(bad(format!(
                        "'{c}' in rank {} is not B, W, K or a digit",
                        rank + 1
                    )))
                }
            }
            file += 1;
        }
        if file != 9 {
            return Err(bad(format!(
                "rank {} has {file} squares instead of 9",
                rank + 1
            )));
        }
    }
    let king = king.ok_or_else(|| bad("there is no king".into()))?;
    debug_assert!((king as usize) < SQUARES);
    Position::from_parts(black, white, king, side).map_err(NotationError::Pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves_round_trip() {
        for sq in 0..SQUARES as u8 {
            assert_eq!(parse_square(&square_name(sq)), Ok(sq));
        }
        assert_eq!(square_name(40), "e5");
        let mv = parse_move_text("e3-e1").unwrap();
        assert_eq!(mv.to_string(), "e3-e1");
        assert_eq!(parse_move_text("E3E1"), Ok(mv));
        for bad in [
            "", "e3", "e3-", "j1-j2", "e0-e1", "e3-e10", "e3--e1", "é3-e1",
        ] {
            assert!(parse_move_text(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn start_position_text() {
        let start = "3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 b";
        assert_eq!(write_position(&Position::start()), start);
        assert_eq!(parse_position(start), Ok(Position::start()));
        assert_eq!(parse_position("startpos"), Ok(Position::start()));
    }

    #[test]
    fn malformed_positions_say_why() {
        let cases = [
            ("", "empty"),
            ("9/9/9/9/4K4/9/9/9/9", "missing"),
            ("9/9/9/9/4K4/9/9/9/9 x", "'b' or 'w'"),
            ("9/9/9/9/4K4/9/9/9 b", "8 ranks"),
            ("9/9/9/9/4K5/9/9/9/9 b", "10 squares"),
            ("9/9/9/9/4K4B/9/9/9/9 b", "more than 9"),
            ("9/9/9/9/4K3/9/9/9/9 b", "8 squares"),
            ("9/9/9/9/4K4/9/9/9/8X b", "'X'"),
            ("9/9/9/9/9/9/9/9/9 b", "no king"),
            ("K8/9/9/9/4K4/9/9/9/9 b", "two kings"),
            ("9/9/9/9/4B4/9/9/K8/9 b", "throne"),
            ("9/9/9/9/4K4/9/9/9/9 b w", "unexpected"),
            ("BBBBBBBBB/BBBBBBBB1/9/9/4K4/9/9/9/9 b", "17 Muscovites"),
            ("WWWWWWWWW/9/9/9/4K4/9/9/9/9 w", "9 guards"),
        ];
        for (text, expected) in cases {
            let err = parse_position(text).unwrap_err().to_string();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }
}
