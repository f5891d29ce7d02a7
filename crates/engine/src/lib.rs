//! Cairn's engine and the protocols that drive it.
//!
//! - [`engine`]: the facade every protocol drives: options, the table, the game, the background
//!   search and the tinue pre-check;
//! - [`tei`]: TEI on stdin/stdout; [`ws`]: the same over WebSocket, for PTN Ninja;
//! - [`playtak`]: a bot on playtak.com;
//! - [`bench`](mod@bench): the search fingerprint (`cairn bench`);
//! - [`timestamp`]: UTC timestamps for transcripts and game records.

pub mod bench;
pub mod engine;
pub mod level;
pub mod playtak;
pub mod tei;
pub mod timestamp;
pub mod ws;
