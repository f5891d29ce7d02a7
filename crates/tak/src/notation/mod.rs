//! Notation: TPS positions, PTN moves and PTN game files.
//!
//! Each format has a liberal reader and a strict, canonical writer. Readers never panic: every
//! malformed input comes back as a typed error that says what is wrong and where.

pub mod ptn_game;
pub mod ptn_move;
pub mod quote;
pub mod tps;

pub use ptn_game::{parse_file, replay, replay_any, PtnError, PtnGame, ReplayError};
pub use ptn_move::{parse_move, play_line, MoveError, PtnMove, PtnMoveError};
pub use quote::{counted, excerpt, quote};
pub use tps::{Tps, TpsError};
