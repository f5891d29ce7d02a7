//! The tools behind Cairn's subcommands, on top of the engine.
//!
//! - [`analyze`]: positions and whole games, with winning chances and marks;
//! - [`arena`]: matches between TEI engines (`cairn match`), with Elo and SPRT;
//! - [`report`]: match summaries; [`plot`]: SVG pictures; [`ninja`]: links into PTN Ninja;
//!   [`chance`]: evaluations as winning chances;
//! - [`openings`]: balanced opening books; [`tune`]: self-play data and evaluation fitting;
//! - [`tactics`]: the prover and the search on tactics files; [`fuzz`]: random and broken
//!   input through every parser and TEI session; [`perft`]: leaf counts of the move tree;
//! - [`puzzles`]: tinue puzzles mined from played games, with the prover;
//! - [`tablut`]: Tablut's analysis, perft, terminal play, self-play and tuning;
//! - [`output`]: output files checked before the work and never left half written;
//!   [`progress`]: progress bars on a terminal, plain lines elsewhere; [`workers`]: the thread
//!   pool of `--threads`.

pub mod analyze;
pub mod arena;
pub mod chance;
pub mod fuzz;
pub mod ninja;
pub mod openings;
pub mod output;
pub mod perft;
pub mod plot;
pub mod progress;
pub mod puzzles;
pub mod report;
pub mod tablut;
pub mod tactics;
pub mod tune;
pub mod workers;
