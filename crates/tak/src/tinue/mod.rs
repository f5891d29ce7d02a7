//! Tinue: proving forced road wins (a "tinue" is a position where the side to move forces a
//! road whatever the opponent does).
//!
//! [`solve`] runs a depth-first proof-number search (df-pn) on a threat-restricted tree:
//! - the **attacker** (the side to move at the root) wins at once if it can complete a road;
//!   otherwise it plays only moves after which it threatens a road in one (a "Tak") and the
//!   defender cannot win at once. Walls are never tried (a wall is no road piece). This
//!   restriction makes the prover incomplete (a quiet move that sets up a later double threat is
//!   not seen) but never unsound;
//! - the **defender** plays every move after which the attacker has no road in one (every other
//!   move loses at once, so this is sound). A defender move that ends the game without the
//!   attacker's road - the defender's own road (a spread can complete both roads: the mover
//!   wins), or a flat end (board full, or a player out of pieces, counted with the position's
//!   half-komi), whoever wins it - refutes the attack. Placement threats narrow the defences
//!   first ([`Position::placement_defence_squares`]).
//!
//! Only a road counts as the attacker's win: a proof is a forced road in `plies` plies, counted
//! to the road (road in one = 1 ply, road in two = 3 plies, ...). The search deepens by two
//! plies at a time from 3 up to [`TinueLimits::max_depth`], so the plies found are the fewest the
//! restricted tree allows. The transposition table is bounded and allocated once per solve;
//! nodes allocate nothing.
//!
//! Outcomes: [`TinueOutcome::Proven`] with the proof's line (attacker move first, the defender's
//! longest resistance), [`TinueOutcome::Disproven`] (no forced road within the depth in the
//! restricted tree) or [`TinueOutcome::Unknown`] (a budget ran out first).
//!
//! Where it is used:
//! - TEI `go solved [movetime MS] [nodes N]` (`cairn_engine::engine::Engine::go_solved`) runs the
//!   prover alone. If it proves a road it reports `score solved win N` (or the large `cp` form
//!   outside a TEI v1 session) with the proof's line and plays its first move. Otherwise it says
//!   `info string no tinue found (disproven|unknown)` and answers with the best move of a short
//!   normal search (a fixed node budget), so that a GUI always gets exactly one `bestmove`;
//! - in play, [`root_check`] runs with a small budget before each timed search;
//! - [`solve_tps`] is the size-erased entry for tools (`cairn analyze --solve`), and
//!   `cairn_tools::tactics` measures prover and search on the test files (`cairn tactics`).

pub mod brute;
mod prover;
mod table;

use crate::board::{Komi, Move, Position, HALF_KOMI_TEXT};
use crate::notation::tps;
use cairn_search::Limits;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Budgets of one solve.
#[derive(Clone, Debug)]
pub struct TinueLimits {
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Longest proof looked for, in plies (odd; road in one = 1).
    pub max_depth: u32,
    /// Transposition table size, MiB.
    pub hash_mb: usize,
}

impl Default for TinueLimits {
    fn default() -> Self {
        TinueLimits {
            max_nodes: None,
            deadline: None,
            max_depth: 63,
            hash_mb: 16,
        }
    }
}

impl TinueLimits {
    /// The limits of a `go`-style request, from now: `movetime` (less `overhead_ms`) as the
    /// deadline, `nodes` as the node budget, `depth` as the longest proof in plies (an even
    /// value allows the odd one below it); `hash_mb` for the table. None of them: until stopped.
    pub fn from_search_limits(limits: &Limits, overhead_ms: u64, hash_mb: usize) -> Self {
        TinueLimits {
            max_nodes: limits.nodes,
            deadline: limits.movetime.map(|ms| {
                Instant::now() + Duration::from_millis(ms.saturating_sub(overhead_ms).max(1))
            }),
            max_depth: limits.depth.unwrap_or(TinueLimits::default().max_depth),
            hash_mb,
        }
    }

    /// Limits with a node budget and a time budget from now.
    pub fn budget(max_nodes: Option<u64>, time: Option<Duration>) -> Self {
        TinueLimits {
            max_nodes,
            deadline: time.map(|t| Instant::now() + t),
            ..TinueLimits::default()
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TinueOutcome {
    /// The side to move forces a road in `plies` plies.
    Proven {
        /// Plies to the road (road in one = 1).
        plies: u32,
        /// The proof's line, the attacker's move first: the attacker's shortest win against the
        /// defender's longest resistance, `plies` long unless a budget ran out while it was read
        /// (then shorter, but never empty).
        pv: Vec<Move>,
    },
    /// No forced road within the depth limit (in the threat-restricted tree).
    Disproven,
    /// A budget ran out first.
    Unknown,
}

/// The outcome of a solve with its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TinueResult {
    /// What was found.
    pub outcome: TinueOutcome,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken, ms.
    pub time_ms: u64,
}

impl TinueResult {
    /// The proof's plies and line, if proven (the line is never empty).
    pub fn proof(&self) -> Option<(u32, &[Move])> {
        match &self.outcome {
            TinueOutcome::Proven { plies, pv } if !pv.is_empty() => Some((*plies, pv)),
            _ => None,
        }
    }

    /// `proven`, `disproven` or `unknown`.
    pub fn kind(&self) -> &'static str {
        match self.outcome {
            TinueOutcome::Proven { .. } => "proven",
            TinueOutcome::Disproven => "disproven",
            TinueOutcome::Unknown => "unknown",
        }
    }
}

/// Looks for a forced road for the side to move of `pos` within `limits`; stops early when
/// `stop` is set (the outcome is then [`TinueOutcome::Unknown`] unless already decided).
///
/// ```
/// use cairn_tak::notation::tps;
/// use cairn_tak::tinue::{solve, TinueLimits, TinueOutcome};
/// use std::sync::atomic::AtomicBool;
///
/// // White has a road in one at b4.
/// let pos = tps::parse::<4>("x2,2,2/x,1,x2/x,1,x2/x,1,2,x 1 5").unwrap();
/// let result = solve(&pos, &TinueLimits::default(), &AtomicBool::new(false));
/// assert!(matches!(result.outcome, TinueOutcome::Proven { plies: 1, .. }));
/// ```
pub fn solve<const N: usize>(
    pos: &Position<N>,
    limits: &TinueLimits,
    stop: &AtomicBool,
) -> TinueResult {
    prover::solve(pos, limits, stop)
}

/// A solve's report for tools, with moves in PTN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TinueReport {
    /// The board size.
    pub size: usize,
    /// The outcome, with the line in PTN when proven.
    pub outcome: ReportOutcome,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken, ms.
    pub time_ms: u64,
}

/// [`TinueOutcome`] with the line in PTN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportOutcome {
    /// A forced road in `plies` plies along `pv`.
    Proven {
        /// Plies to the road.
        plies: u32,
        /// The line in canonical PTN, the attacker's move first.
        pv: Vec<String>,
    },
    /// No forced road within the depth limit.
    Disproven,
    /// A budget ran out first.
    Unknown,
}

/// Solves a position given as TPS (any size Cairn plays) with `half_komi`: the size-erased entry for
/// tools. Fails with a message naming the problem when the TPS cannot be read.
pub fn solve_tps(
    text: &str,
    half_komi: i8,
    limits: &TinueLimits,
    stop: &AtomicBool,
) -> Result<TinueReport, String> {
    let parsed: tps::Tps = text.parse().map_err(|e| format!("bad TPS `{text}`: {e}"))?;
    let size = parsed.size;
    crate::with_size!(size, |N| {
        let mut pos = tps::parse::<N>(text).map_err(|e| format!("bad TPS `{text}`: {e}"))?;
        let komi = Komi::from_halves(half_komi as i64)
            .map_err(|_| format!("half komi {half_komi}: {HALF_KOMI_TEXT}"))?;
        pos.set_komi(komi);
        let result = solve(&pos, limits, stop);
        let outcome = match &result.outcome {
            TinueOutcome::Proven { plies, pv } => ReportOutcome::Proven {
                plies: *plies,
                pv: pv.iter().map(|m| m.ptn::<N>().to_string()).collect(),
            },
            TinueOutcome::Disproven => ReportOutcome::Disproven,
            TinueOutcome::Unknown => ReportOutcome::Unknown,
        };
        Ok(TinueReport {
            size,
            outcome,
            nodes: result.nodes,
            time_ms: result.time_ms,
        })
    }, else Err(format!("unsupported board size {size}")))
}

/// Share of the move time the in-play check may use (1/`ROOT_CHECK_DIVISOR`).
pub const ROOT_CHECK_DIVISOR: u32 = 25;
/// Most nodes the in-play check may use.
pub const ROOT_CHECK_NODES: u64 = 200_000;

/// The in-play check before a timed search with `time` for the move: runs the prover for at
/// most `time / ROOT_CHECK_DIVISOR` and [`ROOT_CHECK_NODES`] nodes (a position without road
/// threats is disproven in a few nodes). Returns the result if it is a proof.
pub fn root_check<const N: usize>(
    pos: &Position<N>,
    time: Duration,
    stop: &AtomicBool,
) -> Option<TinueResult> {
    if pos.is_over() || pos.is_opening() {
        return None;
    }
    let limits = TinueLimits {
        max_nodes: Some(ROOT_CHECK_NODES),
        deadline: Some(Instant::now() + time / ROOT_CHECK_DIVISOR),
        max_depth: 31,
        hash_mb: 1,
    };
    Some(solve(pos, &limits, stop)).filter(|r| r.proof().is_some())
}
