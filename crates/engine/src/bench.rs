//! `cairn bench`: the search fingerprint.
//!
//! A fixed list of positions on sizes 4 to 8 is searched to a fixed depth on one thread, each
//! with a fresh transposition table and fresh history, and the node counts are summed. The total
//! is the fingerprint quoted as `Bench: <nodes>` in commit messages: a change that moves it
//! changes the search; a refactor leaves it alone. It does not depend on timing. With more
//! threads (`--threads`) the bench measures parallel speed instead; node counts then vary.

use crate::engine::{Engine, Options, Reporter, Start};
use cairn_search::Limits;
use std::sync::Arc;
use std::time::Instant;

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 7;

/// `(size, TPS)` of the bench positions: the start positions, then middlegames and endgames
/// sampled from Cairn's own depth-4 self-play games (with some random moves), sizes 4 to 8.
pub const BENCH_POSITIONS: &[(usize, &str)] = &[
    (4, "x4/x4/x4/x4 1 1"),
    (5, "x5/x5/x5/x5/x5 1 1"),
    (6, "x6/x6/x6/x6/x6/x6 1 1"),
    (7, "x7/x7/x7/x7/x7/x7/x7 1 1"),
    (8, "x8/x8/x8/x8/x8/x8/x8/x8 1 1"),
    (4, "x2,1S,2/2S,x,1S,2/x,1,2,1/x4 1 5"),
    (4, "x2,1S,x/2S,x,221S,212/x,1,2,1/2S,x3 1 9"),
    (4, "2,2,2,x/x,1,1,12/2S,1S,1,x/1,x3 1 7"),
    (4, "x,2,x2/x,2,21,x/x2,21,x/x,1S,x2 2 5"),
    (4, "x,2221,2,2/x,2,x2/x,1,21,x/x,1S,x2 2 8"),
    (5, "x4,1/x3,2S,x/x2,112,1,x/x3,1,x/x5 1 6"),
    (5, "x4,1/x,2,2,2S,2/x2,1,x2/1,1,x,12,x/x3,112,x 1 12"),
    (5, "x,1,x2,1/2,2,1C,2212,x/x2,1,12S,x/1,1,2,12,x/x,2,11,x2 1 18"),
    (5, "x5/1,2,2,1,x/2,112S,x3/1,1,x,2C,x/1,x4 1 8"),
    (5, "1,1,1,2,x/12,2,2,12,1/1,x,1112S,x2/1,1,1,2C,x/1,x4 1 15"),
    (5, "x5/x,121,1,x2/x2,121C,1,12/x,2,x3/2,x3,2S 1 10"),
    (5, "2S,x4/x5/x,1,2,2,1/x,1C,1,2,1/x4,1 2 6"),
    (5, "2S,x,2,x2/1S,x,2,2,1/x,1,2,2,12/x,1C,121,x,1/x,1,x2,11 2 13"),
    (6, "2C,x5/x2,1,x3/x2,2,2,1,2/x2,1S,x,1,1/x6/x2,2,x3 1 6"),
    (6, "2C,x5/x3,2,x2/x,21S,12,2,12,x/x2,2,2,1,1/x2,1,1,1,x/x2,2,x3 1 13"),
    (6, "2C,x,2S,x,21,x/x,2,2,2,2,x/x,21S,x,21,x2/x2,1,2,12112,x/x,1,2,1,1,x/x2,2,x,1C,x 1 21"),
    (6, "x6/2,x,2S,x3/2,x,1,x3/2,1,x4/2,12S,1,1C,1,x/x3,1S,x2 1 8"),
    (6, "1,x,2S,x3/2,2,2,x3/2,x,112S,1,1,x/21,1S,x,2,1,1/2,12S,1,1C,1,x/2,x2,1S,x2 1 16"),
    (6, "x4,1,1/2,x,2,1,1,x/x,1,2,2,12,x/x2,2,1,1,x/x3,2,1C,x/x4,12,x 1 11"),
    (6, "1,x,1,1S,1,1/2,2,21,x,112,2/x,2,21,2,2,1/x2,2,112,x2/x2,2,1,1C,x/x2,2,x,12,x 1 19"),
    (6, "x6/x,2,x4/x,2,12C,1221S,x,2S/x,1,1221C,1,2,x/x3,1,1,x/x4,2,x 1 14"),
    (6, "x5,1/1,x5/x,2,2,2,x2/x,1,1,21C,2,x/x3,2,x2/x,1,x4 2 7"),
    (6, "1,x4,1/1,x,1,x3/1,2,2,221C,2,2/1,1,12,21,2,x/x,2,x2,2,x/x,1,x4 2 14"),
    (7, "x6,1C/x,1S,x5/x2,1,x4/x3,2,x3/x2,21C,2,2C,x,2/x,2,x5/x5,1,x 1 7"),
    (7, "x6,1C/x,1S,x5/x5,1,x/x2,22221C,12,2,x2/x2,2,2,2C,12,x/x2,12,x2,1,x/x2,1,x2,1,x 1 16"),
    (7, "x6,1C/x7/x,1S,x3,112C,x/x,2S,1,122222221C,x3/x,1,2,2,212,2,2/x,2,12,x4/x,1,1,x2,1,x 1 26"),
    (7, "x4,1C,x2/x5,2C,x/x2,2,2,21,x2/x7/x2,2,1,1221,x2/x4,1,1C,x/x7 1 11"),
    (7, "x3,1C,x3/x2,1,x,2,2C,x/x2,2,22,2,1,x/x2,2,x,2C,x2/x2,2,x4/x2,12,1112S,1,1C,1/x2,1,1,1,2S,x 1 21"),
    (7, "1S,x,1C,x2,1,2S/x2,1,x4/x2,21,x,2,x2/x2,1,x,1,x2/2S,x3,2,x2/x4,2,x2/x,2,x5 2 8"),
    (7, "1S,x,1C,x2,1,2S/x2,1,x4/x2,2121,x4/x,1,1,2221,x,12,x/2S,x3,2212,x2/x2,1,x4/x,2,x5 2 18"),
    (8, "x3,2,x4/x3,2,x4/x3,1112,x2,1S,x/x4,2,x,1,x/1S,x7/x4,2S,x3/x8/x8 1 8"),
    (8, "x3,2,x4/1S,x2,2,x4/x3,1112,2,x,1S,x/x4,2,2,1,x/1S,1,1,12,1,2,1,x/x3,21,x,2,1,x/x,1C,x,2,2S,x3/x3,2,x4 1 18"),
    (8, "x2,2,x5/x4,2,x,1C,x/x3,12,2,2C,x2/x2,1,x5/x2,2121,x,1,1,12S,x/x2,1,x4,1S/x5,2C,x2/x8 1 13"),
    (8, "x2,2,x5/x2,2,x3,1C,x/1,1,11,121,222112S,2C,x2/x2,1,x,2,x3/x2,2,2,x4/x2,1,x4,1S/x2,1,x,2,2C,x2/x2,1,x2,1C,x2 1 23"),
    (8, "x8/x4,1C,2,x2/x4,2,x3/x5,2S,x2/x2,21,2,12,2,x2/1S,x7/x2,1C,1,1,1,x2/x4,1,x3 2 10"),
    (8, "x,2S,x2,1S,x3/x4,1C,2,1S,x/2,x3,2,2,x2/x4,1,2S,x2/x2,21,2,12,2,x2/1S,x6,2C/1S,1,1C,1,1,12121,x2/1S,2S,2,x,1,x3 2 20"),
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

/// Runs the bench at `depth` on `threads` threads (the fingerprint is defined for 1), calling
/// `each` after every position; returns the lines and the elapsed seconds.
pub fn run(depth: u32, threads: usize, mut each: impl FnMut(&BenchLine)) -> (Vec<BenchLine>, f64) {
    let started = Instant::now();
    let mut lines = Vec::with_capacity(BENCH_POSITIONS.len());
    for &(size, tps) in BENCH_POSITIONS {
        let mut engine = Engine::with_options(Options {
            hash_mb: 16,
            threads,
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
