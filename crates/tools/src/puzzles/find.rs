//! The work on one game: every position is given to the tinue prover; a proven tinue of 3 plies
//! or more is checked for a unique winning first move, and the player's move is judged.

use cairn_tak::board::{Color, GameResult, Move, Position};
use cairn_tak::notation::{replay, tps, PtnGame, ReplayError};
use cairn_tak::tinue::{solve, TinueLimits, TinueOutcome};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// The prover's budgets for one run.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Nodes of one prover call (a position, or a reply after an alternative first move).
    pub nodes: u64,
    /// Longest tinue looked for in a game's position, in plies (odd).
    pub max_length: u32,
    /// Longest forced road an alternative first move is checked for, in plies after it and the
    /// reply.
    pub alternative_depth: u32,
}

/// Share of [`Budget::nodes`] each reply gets in the quick first pass over an alternative first
/// move's replies (1/`QUICK_SHARE`, at least [`QUICK_MIN_NODES`]).
pub const QUICK_SHARE: u64 = 50;
/// Fewest nodes of a quick pass's call.
pub const QUICK_MIN_NODES: u64 = 200;
/// Table size of each prover call, MiB (a table is allocated per call).
const HASH_MB: usize = 2;

/// How sure the winning first move is to be the only one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every other first move was disproven: a puzzle.
    Unique,
    /// Another first move was proven to win as well.
    Several,
    /// Some other first move was neither proven nor disproven within the budget.
    Unsure,
}

impl Verdict {
    /// The word used in the reports.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Several => "several",
            Verdict::Unsure => "unsure",
        }
    }
}

/// A position of a game where the side to move forces a road in 3 plies or more.
#[derive(Clone, Debug)]
pub struct Find {
    /// Plies of the game played before the position.
    pub ply: usize,
    /// The side to move, who has the tinue.
    pub side: Color,
    /// The position.
    pub tps: String,
    /// The game's komi, in half flats.
    pub half_komi: i8,
    /// Plies to the road.
    pub plies: u32,
    /// The proof's line in PTN, the winning first move first.
    pub solution: Vec<String>,
    /// Whether the line ends in the side's road when replayed.
    pub solution_reaches_road: bool,
    /// Whether the first move is the only winning one.
    pub verdict: Verdict,
    /// The first moves proven to win (the solution's first); more than one when several.
    pub winning_moves: Vec<String>,
    /// The first moves neither proven nor disproven (when unsure).
    pub unsure_moves: Vec<String>,
    /// The move the game went on with, if any.
    pub played: Option<String>,
    /// Whether the game's move was a proven winning first move.
    pub found: bool,
    /// Whether the game's move may have kept the tinue (proven to win, or not refuted).
    pub played_kept: bool,
}

/// What one game gave.
#[derive(Clone, Debug, Default)]
pub struct GameScan {
    /// Positions given to the prover.
    pub positions: u64,
    /// Positions with a road in one (no puzzles).
    pub road_in_one: u64,
    /// Positions whose tinue continues one of two plies before (not reported again).
    pub continuations: u64,
    /// Positions the prover could not decide within the budget.
    pub undecided: u64,
    /// Prover nodes spent.
    pub nodes: u64,
    /// The tinue positions found, in game order.
    pub finds: Vec<Find>,
}

/// What is known of a first move other than the proof's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// The move wins too (a forced road or an immediate win).
    Wins,
    /// Some reply leaves no forced win.
    Refuted,
    /// Neither within the budget.
    Unknown,
}

/// The tinue of the side to move two plies before, and whether the move played there may have
/// kept it (proven to win, or not refuted).
#[derive(Clone, Copy)]
struct Previous {
    kept: bool,
}

/// Scans one game (size `N`): the prover on every position after the opening, a uniqueness check
/// of each new tinue, and the player's move judged. Tinue positions that continue the same
/// player's tinue of two plies before (whose move there was not refuted) are counted, not
/// reported.
pub fn scan_game<const N: usize>(game: &PtnGame, budget: &Budget) -> Result<GameScan, ReplayError> {
    let done = replay::<N>(game)?;
    let stop = AtomicBool::new(false);
    let mut scan = GameScan::default();
    let mut pos = done.start.clone();
    let mut previous: [Option<Previous>; 2] = [None, None];
    for k in 0..=done.moves.len() {
        if pos.is_over() {
            break;
        }
        let played = done.moves.get(k).copied();
        let side = pos.side_to_move();
        if !pos.is_opening() {
            scan.positions += 1;
            let limits = limits(budget.nodes, budget.max_length);
            let result = solve(&pos, &limits, &stop);
            scan.nodes += result.nodes;
            let earlier = previous[side.index()].take();
            match result.outcome {
                TinueOutcome::Proven { plies: 1, .. } => scan.road_in_one += 1,
                TinueOutcome::Proven { plies, pv } if !pv.is_empty() => {
                    let first = pv[0];
                    let continues = earlier.is_some_and(|p| p.kept);
                    let kept = if continues {
                        scan.continuations += 1;
                        match played {
                            Some(mv) if mv == first => true,
                            Some(mv) => {
                                alternative(&mut pos, mv, first, &pv, budget, &mut scan.nodes)
                                    != Status::Refuted
                            }
                            None => false,
                        }
                    } else {
                        let find = judge(&mut pos, plies, &pv, played, k, budget, &mut scan.nodes);
                        let kept = find.played_kept;
                        scan.finds.push(find);
                        kept
                    };
                    previous[side.index()] = Some(Previous { kept });
                }
                TinueOutcome::Proven { .. } | TinueOutcome::Unknown => scan.undecided += 1,
                TinueOutcome::Disproven => {}
            }
        }
        match played {
            Some(mv) => {
                pos.make(mv);
            }
            None => break,
        }
    }
    Ok(scan)
}

/// Prover limits with `nodes` and a depth of `depth` plies.
fn limits(nodes: u64, depth: u32) -> TinueLimits {
    TinueLimits {
        max_nodes: Some(nodes),
        deadline: None,
        max_depth: depth,
        hash_mb: HASH_MB,
    }
}

/// The uniqueness check and the player's move for a new tinue at `pos` (restored on return).
fn judge<const N: usize>(
    pos: &mut Position<N>,
    plies: u32,
    pv: &[Move],
    played: Option<Move>,
    ply: usize,
    budget: &Budget,
    nodes: &mut u64,
) -> Find {
    let first = pv[0];
    let ptn = |mv: Move| mv.ptn::<N>().to_string();
    let mut winning = vec![first];
    let mut unsure = Vec::new();
    let mut played_status = match played {
        Some(mv) if mv == first => Some(Status::Wins),
        _ => None,
    };
    // The game's move first (whether the player found a win), then the moves that threaten a
    // road at once (the likeliest other wins: one proven ends the check), then the rest.
    let side = pos.side_to_move();
    let mut others: Vec<(u8, Move)> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&mv| mv != first)
        .map(|mv| {
            let rank = if Some(mv) == played {
                0
            } else {
                let undo = pos.make(mv);
                let threat = pos.winning_move_for(side).is_some();
                pos.unmake(mv, undo);
                if threat {
                    1
                } else {
                    2
                }
            };
            (rank, mv)
        })
        .collect();
    others.sort_by_key(|&(rank, _)| rank);
    for (_, mv) in others {
        let status = alternative(pos, mv, first, pv, budget, nodes);
        if Some(mv) == played {
            played_status = Some(status);
        }
        match status {
            Status::Wins => {
                winning.push(mv);
                break;
            }
            Status::Unknown => unsure.push(mv),
            Status::Refuted => {}
        }
    }
    let verdict = if winning.len() > 1 {
        Verdict::Several
    } else if !unsure.is_empty() {
        Verdict::Unsure
    } else {
        Verdict::Unique
    };
    let line = complete_line(pos, pv, budget, nodes);
    let solution: Vec<String> = line.iter().map(|&mv| ptn(mv)).collect();
    Find {
        ply,
        side,
        tps: tps::to_tps(pos),
        half_komi: pos.half_komi(),
        plies,
        solution_reaches_road: reaches_road(pos, &line, side),
        solution,
        verdict,
        winning_moves: winning.into_iter().map(ptn).collect(),
        unsure_moves: unsure.into_iter().map(ptn).collect(),
        played: played.map(ptn),
        found: played_status == Some(Status::Wins),
        played_kept: played_status.is_some_and(|s| s != Status::Refuted),
    }
}

/// Most attempts of [`complete_line`] to lengthen a line.
const COMPLETIONS: usize = 8;

/// The proof's line `pv` from `pos` played out to the road: a line the budget cut short (the
/// prover's line may stop early) is lengthened by solving where it stops, on the side to move's
/// turn (a last move of the side's own is dropped first). Stays short if that fails.
fn complete_line<const N: usize>(
    pos: &Position<N>,
    pv: &[Move],
    budget: &Budget,
    nodes: &mut u64,
) -> Vec<Move> {
    let side = pos.side_to_move();
    let stop = AtomicBool::new(false);
    let mut line = pv.to_vec();
    for _ in 0..COMPLETIONS {
        if reaches_road(pos, &line, side) {
            break;
        }
        if line.len() % 2 == 1 {
            line.pop();
        }
        let mut at = pos.clone();
        for &mv in &line {
            at.make(mv);
        }
        let result = solve(&at, &limits(budget.nodes, budget.max_length), &stop);
        *nodes += result.nodes;
        match result.proof() {
            Some((_, more)) => line.extend_from_slice(more),
            None => break,
        }
    }
    line
}

/// Whether playing `line` from `pos` (restored on return) ends in `side`'s road.
fn reaches_road<const N: usize>(pos: &Position<N>, line: &[Move], side: Color) -> bool {
    let mut at = pos.clone();
    for &mv in line {
        if at.is_over() || at.check_legal(mv).is_err() {
            return false;
        }
        at.make(mv);
    }
    at.result() == Some(GameResult::Road(side))
}

/// Whether the first move `mv` at `pos` (restored on return) also wins for the side to move:
/// - it wins at once, or every reply loses at once or leaves a proven forced road: `Wins`;
/// - it ends the game otherwise, or the opponent then has a road in one, or some reply ends the
///   game without the side's win, or leaves a forced road for the side disproven: `Refuted`;
/// - else `Unknown`.
///
/// The replies are tried in two passes, first each with a small share of the budget (most
/// refutations are quick), in an order that puts first the replies touching the squares of the
/// proof's line (`pv`, which starts with `first`) and the replies that threaten a road.
fn alternative<const N: usize>(
    pos: &mut Position<N>,
    mv: Move,
    first: Move,
    pv: &[Move],
    budget: &Budget,
    nodes: &mut u64,
) -> Status {
    debug_assert_ne!(mv, first);
    let side = pos.side_to_move();
    let undo = pos.make(mv);
    let status = replies(pos, side, pv, budget, nodes);
    pos.unmake(mv, undo);
    status
}

/// [`alternative`] after its move: `pos` has the opponent of `side` to move.
fn replies<const N: usize>(
    pos: &mut Position<N>,
    side: Color,
    pv: &[Move],
    budget: &Budget,
    nodes: &mut u64,
) -> Status {
    match pos.result() {
        Some(result) if result.winner() == Some(side) => return Status::Wins,
        Some(_) => return Status::Refuted,
        None => {}
    }
    if pos.can_win_in_one() {
        return Status::Refuted;
    }
    let key_squares = pv.iter().fold(0u64, |acc, &m| acc | touched::<N>(m));
    let mut candidates: Vec<(u8, Move)> = Vec::new();
    for reply in pos.legal_moves() {
        let undo = pos.make(reply);
        let outcome = match pos.result() {
            Some(result) if result.winner() == Some(side) => None,
            Some(_) => Some(Status::Refuted),
            None if pos.winning_move_for(side).is_some() => None,
            None => {
                let threat = pos.winning_move_for(!side).is_some();
                let near = touched::<N>(reply) & key_squares != 0;
                candidates.push((u8::from(!near) * 2 + u8::from(!threat), reply));
                None
            }
        };
        pos.unmake(reply, undo);
        if let Some(status) = outcome {
            return status;
        }
    }
    if candidates.is_empty() {
        return Status::Wins;
    }
    candidates.sort_by_key(|&(rank, _)| rank);
    let stop = AtomicBool::new(false);
    let quick = (budget.nodes / QUICK_SHARE)
        .max(QUICK_MIN_NODES)
        .min(budget.nodes);
    let passes: &[u64] = if quick < budget.nodes {
        &[quick, budget.nodes]
    } else {
        &[budget.nodes]
    };
    let mut open: Vec<Move> = candidates.iter().map(|&(_, m)| m).collect();
    for &pass_nodes in passes {
        let mut still_open = Vec::new();
        for reply in open {
            let undo = pos.make(reply);
            let result = solve(pos, &limits(pass_nodes, budget.alternative_depth), &stop);
            pos.unmake(reply, undo);
            *nodes += result.nodes;
            match result.outcome {
                TinueOutcome::Disproven => return Status::Refuted,
                TinueOutcome::Proven { .. } => {}
                TinueOutcome::Unknown => still_open.push(reply),
            }
        }
        if still_open.is_empty() {
            return Status::Wins;
        }
        open = still_open;
    }
    Status::Unknown
}

/// The squares a move changes: a placement's square, or a spread's origin and the squares it
/// drops on, as a bit set.
fn touched<const N: usize>(mv: Move) -> u64 {
    let mut sq = mv.square();
    let mut set = 1u64 << sq.index();
    if !mv.is_placement() {
        for _ in 0..mv.distance() {
            match sq.step::<N>(mv.direction()) {
                Some(next) => {
                    sq = next;
                    set |= 1u64 << sq.index();
                }
                None => break,
            }
        }
    }
    set
}
