//! Tablut, the second game on Cairn's search, played by the rules of the seed text.
//!
//! 9×9, the king on the throne (e5) with eight guards (the Swedes, White) against sixteen
//! Muscovites (Black), who move first. Pieces move like rooks; custodial captures, with the
//! empty throne hostile to both sides and the king armed; the king falls to two Muscovites
//! away from the throne and to four hostile sides on or beside it; he wins by reaching any edge
//! square. A side with no legal move, or whose move repeats an earlier position, loses: there
//! are no draws.
//!
//! - [`board`]: the position (bitboards of 81 squares), move generation, make and unmake with
//!   captures, and the board's symmetries;
//! - [`notation`]: squares, moves (`e3-e1`) and the one-line position, with typed errors;
//! - [`eval`]: the evaluation; [`search`](mod@search): Tablut's side of the search's
//!   [`SearchGame`](cairn_search::SearchGame) seam, where a second game plugs in;
//! - [`game`]: a game with its history, for repetitions, results and perft.
//!
//! What `cairn tablut analyze | perft | play | selfplay | tune` do lives in the tools crate
//! (`cairn_tools::tablut`).
//!
//! ```
//! use cairn_tablut::{notation, Position, TablutGame};
//! let mut pos = Position::start();
//! assert_eq!(TablutGame::new(pos.clone()).perft(1), 80);
//! let mv = notation::parse_move(&pos, "e2-c2").unwrap();
//! pos.make(mv);
//! assert_eq!(notation::write_position(&pos), "3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/2B6/3BBB3 w");
//! ```

pub mod board;
pub mod eval;
pub mod game;
pub mod notation;
pub mod search;

pub use board::{Move, Position, Side};
pub use game::{Ending, Status, TablutGame};
