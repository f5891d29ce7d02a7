//! Cairn's integration tests, built as one test binary: each file beside this one is a module
//! of it (`cargo test --release --test all perft::` runs one file's tests, `--test all
//! tablut::perft_by_hand` one test). One binary is linked once; twenty were linked twenty times.
//!
//! A new test file goes here as `tests/all/NAME.rs` with a `mod NAME;` line below (in
//! alphabetical order); it takes the shared helpers with `use crate::common;` (not
//! `mod common;`). Data files stay in `tests/data/`, found from the package root
//! (`env!("CARGO_MANIFEST_DIR")`).

mod analyze;
mod arena;
mod cli;
mod common;
mod eval;
mod fuzz;
mod layering;
mod levels;
mod multipv;
mod nnue;
mod notation;
mod openings;
mod outputs;
mod perft;
mod playtak;
mod playtak_server;
mod properties;
mod puzzles;
mod replay;
mod report;
mod rules;
mod search;
mod spsa;
mod tablut;
mod tei_protocol;
mod tinue;
mod tune;
mod ws;
