//! Running the searches of an analysis: the limits, table and configuration the arguments ask
//! for, and one search with the last line of each MultiPV index (a game's searches are in
//! `review`).

use super::AnalyzeArgs;
use crate::workers::every_core;
use cairn_search::score::Score;
use cairn_search::{self as search, Limits, SearchConfig, SearchInfo, TranspositionTable};
use cairn_tak::board::{Color, Move, Position, TakGame};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

/// The search limits: the user's, or the default time.
pub(super) fn limits(args: &AnalyzeArgs, default_ms: u64) -> Limits {
    let movetime = match (args.movetime, args.depth, args.nodes) {
        (Some(ms), _, _) => Some(ms),
        (None, None, None) => Some(default_ms),
        _ => None,
    };
    Limits {
        movetime,
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    }
}

/// The transposition table of `--hash` MiB.
pub(super) fn table(args: &AnalyzeArgs) -> Result<TranspositionTable, String> {
    TranspositionTable::try_new(args.hash as usize)
        .map_err(|e| format!("--hash {}: {e}", args.hash))
}

/// The search configuration: `--threads` (every core by default) and `multipv` lines.
pub(super) fn config(args: &AnalyzeArgs, multipv: usize) -> SearchConfig {
    SearchConfig {
        threads: args.threads.map_or_else(every_core, usize::from),
        multipv,
        move_overhead_ms: 0,
        ..SearchConfig::default()
    }
}

/// A score from the side to move's view, turned to White's.
pub(super) fn for_white<const N: usize>(pos: &Position<N>, score: Score) -> Score {
    if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// The outcome of one search, with its last reported lines.
pub(super) struct Searched {
    /// What the search returned.
    pub(super) result: search::SearchResult<Move>,
    /// The last finished line per MultiPV index (index 0 = best).
    pub(super) lines: Vec<SearchInfo>,
    /// The time it took, in seconds.
    pub(super) secs: f64,
}

impl Searched {
    /// The best move in PTN (empty when the search found none).
    pub(super) fn best<const N: usize>(&self) -> String {
        self.result
            .best
            .map(|m| m.ptn::<N>().to_string())
            .unwrap_or_default()
    }

    /// Nodes per second over the whole search.
    pub(super) fn nps(&self) -> u64 {
        (self.result.nodes as f64 / self.secs.max(1e-9)) as u64
    }
}

/// Searches one position, echoing each finished iteration to `progress`.
pub(super) fn run_search<const N: usize>(
    at: &TakGame<N>,
    limits: &Limits,
    config: &SearchConfig,
    tt: &TranspositionTable,
    progress: &(dyn Fn(&SearchInfo) + Sync),
) -> Searched {
    let lines: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let report = |info: &SearchInfo| {
        progress(info);
        let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
        let k = info.multipv.max(1) - 1;
        if lines.len() <= k {
            lines.resize(k + 1, info.clone());
        }
        lines[k] = info.clone();
    };
    let result = search::search(
        at.position(),
        at.hashes(),
        limits,
        config,
        tt,
        &stop,
        &report,
    );
    Searched {
        result,
        lines: lines.into_inner().unwrap_or_else(|e| e.into_inner()),
        secs: started.elapsed().as_secs_f64(),
    }
}
