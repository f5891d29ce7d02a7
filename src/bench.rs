//! `cairn bench`: the search fingerprint.
//!
//! A fixed list of positions on sizes 4 to 8 is searched to a fixed depth on one thread, each
//! with a fresh transposition table and fresh history, and the node counts are summed. The total
//! is the fingerprint quoted as `Bench: <nodes>` in commit messages: a change that moves it
//! changes the search; a refactor leaves it alone. It does not depend on timing.

use crate::engine::{Engine, Options, Reporter, Start};
use crate::search::Limits;
use std::sync::Arc;
use std::time::Instant;

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 7;

/// `(size, TPS)` of the bench positions: openings, middlegames and endgames from self-play.
pub const BENCH_POSITIONS: &[(usize, &str)] = &[
    (4, "x4/x4/x4/x4 1 1"),
    (5, "x5/x5/x5/x5/x5 1 1"),
    (6, "x6/x6/x6/x6/x6/x6 1 1"),
    (7, "x7/x7/x7/x7/x7/x7/x7 1 1"),
    (8, "x8/x8/x8/x8/x8/x8/x8/x8 1 1"),
];

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Board size.
    pub size: usize,
    /// The position.
    pub tps: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// The move found.
    pub best: String,
}

/// Runs the bench at `depth`, calling `each` after every position; returns the lines and the
/// elapsed seconds.
pub fn run(depth: u32, mut each: impl FnMut(&BenchLine)) -> (Vec<BenchLine>, f64) {
    let started = Instant::now();
    let mut lines = Vec::with_capacity(BENCH_POSITIONS.len());
    for &(size, tps) in BENCH_POSITIONS {
        let mut engine = Engine::new();
        engine.set_options(Options {
            hash_mb: 16,
            ..Options::default()
        });
        engine.new_game(size).expect("bench sizes are supported");
        engine
            .set_position(&Start::Tps(tps.to_string()), &[])
            .expect("bench positions are valid");
        let best = Arc::new(std::sync::Mutex::new(String::new()));
        let sink = Arc::clone(&best);
        let reporter: Reporter = Arc::new(move |event| {
            if let crate::engine::SearchEvent::BestMove(mv) = event {
                *sink.lock().expect("bench lock") = mv;
            }
        });
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let result = engine.search_blocking(limits, reporter);
        let line = BenchLine {
            size,
            tps,
            nodes: result.nodes,
            best: best.lock().expect("bench lock").clone(),
        };
        each(&line);
        lines.push(line);
    }
    (lines, started.elapsed().as_secs_f64())
}
