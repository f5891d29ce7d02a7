//! Tactics files: reading them, measuring prover and search on them (`cairn tactics`), and
//! generating them from random playouts with a brute-force check.
//!
//! A tactics file has one position per line, `TPS<TAB>plies`, with `#` comment lines. A
//! positive `plies` means the side to move forces a road in exactly that many plies (and not
//! fewer); a negative one, `-d`, means it does not force a road within `d` plies. Both are
//! decided by [`cairn_tak::tinue::brute`] over all legal moves, with half-komi 0.

use crate::progress::Progress;
use cairn_search::repetition::PositionHashes;
use cairn_search::rng::Rng;
use cairn_search::score::WinKind;
use cairn_search::{self as search, Limits, SearchConfig, TranspositionTable};
use cairn_tak::board::{Color, Position, Role};
use cairn_tak::movegen::MoveList;
use cairn_tak::notation::tps;
use cairn_tak::tinue::brute::{forced_road, shortest_forced_road};
use cairn_tak::tinue::{solve, TinueLimits};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One position of a tactics file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tactic {
    /// The position.
    pub tps: String,
    /// Plies to the forced road (positive), or `-d`: no forced road within `d` plies.
    pub plies: i32,
}

/// Reads a tactics file's text; an unreadable line is an error naming its number.
pub fn parse_file(text: &str) -> Result<Vec<Tactic>, String> {
    let mut tactics = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| format!("line {}: {what} in `{line}`", i + 1);
        let (tps_text, plies) = line
            .split_once('\t')
            .ok_or_else(|| bad("expected TPS<TAB>plies"))?;
        let plies: i32 = plies
            .trim()
            .parse()
            .ok()
            .filter(|p: &i32| *p != 0 && p % 2 != 0)
            .ok_or_else(|| bad("the plies must be a non-zero odd integer"))?;
        let parsed: tps::Tps = tps_text
            .parse()
            .map_err(|e| bad(&format!("bad TPS ({e})")))?;
        if !cairn_tak::board::SIZES.contains(&parsed.size) {
            return Err(bad("unsupported board size"));
        }
        tactics.push(Tactic {
            tps: tps_text.to_string(),
            plies,
        });
    }
    Ok(tactics)
}

/// `cairn tactics`: run the prover and the normal search on tactics files.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "For each file prints e.g.\n  \
    road-in-2: prover 183/190 (96.3%), search 170/190 (89.5%); mean time when solved: \
    prover 12 ms, search 95 ms\n\
    counting positions with a forced road solved within the time (the prover: proven in the \
    recorded plies; the search: a proven win). For positions without a forced road it prints \
    the false claims, which must be 0 for the prover. Progress goes to stderr.\n\n\
    Examples:\n  \
    cairn tactics tests/data/tactics/road-in-2.tsv\n  \
    cairn tactics tests/data/tactics/*.tsv --movetime 1000 --threads 1")]
pub struct TacticsArgs {
    /// Tactics files (`TPS<TAB>plies` per line).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Time per position for each of prover and search, ms.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Transposition table of the search, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
}

/// What one position gave.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    positive: u32,
    prover: u32,
    search: u32,
    negative: u32,
    prover_false: u32,
    search_false: u32,
    /// Time to the answer on solved positive positions, ms.
    prover_ms: u64,
    search_ms: u64,
}

/// Runs `cairn tactics`; returns the exit code.
pub fn run(args: TacticsArgs) -> i32 {
    let mut tt = match TranspositionTable::try_new(args.hash as usize) {
        Ok(tt) => tt,
        Err(e) => {
            eprintln!("error: --hash {}: {e}", args.hash);
            return 1;
        }
    };
    for file in &args.files {
        let tactics = match std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| parse_file(&text))
        {
            Ok(tactics) => tactics,
            Err(e) => {
                eprintln!("error: {}: {e}", file.display());
                return 1;
            }
        };
        let mut tally = Tally::default();
        let progress = Progress::new(
            &file.display().to_string(),
            tactics.len() as u64,
            "positions",
            Duration::from_secs(5),
        );
        for tactic in &tactics {
            measure(tactic, &args, &mut tt, &mut tally, &progress);
            progress.inc(1, || {
                format!(
                    "prover {}/{}, search {}/{}",
                    tally.prover, tally.positive, tally.search, tally.positive
                )
            });
        }
        progress.finish();
        let name = file.file_stem().unwrap_or_default().to_string_lossy();
        let share = |n: u32, d: u32| 100.0 * n as f64 / d.max(1) as f64;
        let mut line = format!("{name}:");
        if tally.positive > 0 {
            let mean = |ms: u64, n: u32| ms as f64 / n.max(1) as f64;
            line += &format!(
                " prover {}/{} ({:.1}%), search {}/{} ({:.1}%); mean time when solved: \
                 prover {:.0} ms, search {:.0} ms",
                tally.prover,
                tally.positive,
                share(tally.prover, tally.positive),
                tally.search,
                tally.positive,
                share(tally.search, tally.positive),
                mean(tally.prover_ms, tally.prover),
                mean(tally.search_ms, tally.search),
            );
        }
        if tally.positive + tally.negative == 0 {
            line += " no positions";
        }
        if tally.negative > 0 {
            line += &format!(
                "{} no forced road: prover false proofs {}/{}, search false road wins {}/{}",
                if tally.positive > 0 { ";" } else { "" },
                tally.prover_false,
                tally.negative,
                tally.search_false,
                tally.negative
            );
        }
        println!("{line}");
    }
    0
}

/// Runs prover and search on one position and counts the results.
fn measure(
    tactic: &Tactic,
    args: &TacticsArgs,
    tt: &mut TranspositionTable,
    tally: &mut Tally,
    progress: &Progress,
) {
    let size = tactic.tps.parse::<tps::Tps>().map(|t| t.size).unwrap_or(0);
    cairn_tak::with_size!(size, |N| measure_sized::<N>(tactic, args, tt, tally, progress), else ())
}

fn measure_sized<const N: usize>(
    tactic: &Tactic,
    args: &TacticsArgs,
    tt: &mut TranspositionTable,
    tally: &mut Tally,
    progress: &Progress,
) {
    let Ok(pos) = tps::parse::<N>(&tactic.tps) else {
        return;
    };
    let time = Duration::from_millis(args.movetime);
    let stop = AtomicBool::new(false);
    let depth = tactic.plies.unsigned_abs();
    let limits = TinueLimits {
        deadline: Some(Instant::now() + time),
        max_depth: if tactic.plies > 0 { 63 } else { depth },
        ..TinueLimits::default()
    };
    let proved = solve(&pos, &limits, &stop);
    let proof = proved.proof().map(|(plies, _)| plies);
    tt.clear();
    let limits = Limits {
        movetime: Some(args.movetime),
        ..Limits::default()
    };
    let config = SearchConfig {
        threads: args.threads as usize,
        multipv: 1,
        move_overhead_ms: 0,
        ..SearchConfig::default()
    };
    let started = Instant::now();
    let result = search::search(
        &pos,
        &PositionHashes::new(pos.hash()),
        &limits,
        &config,
        tt,
        &stop,
        &|_| {},
    );
    let search_ms = started.elapsed().as_millis() as u64;
    let found = result.score.proven().filter(|&(win, _, _)| win);
    if tactic.plies > 0 {
        tally.positive += 1;
        if proof == Some(depth) {
            tally.prover += 1;
            tally.prover_ms += proved.time_ms;
        }
        if found.is_some() {
            tally.search += 1;
            tally.search_ms += search_ms;
        }
        if proof.is_some_and(|p| p != depth) {
            progress.note(&format!(
                "{}: proven in {proof:?} plies, not {depth}",
                tactic.tps
            ));
        }
    } else {
        tally.negative += 1;
        tally.prover_false += proof.is_some() as u32;
        tally.search_false += found
            .is_some_and(|(_, plies, kind)| kind == WinKind::Outright && plies <= depth)
            as u32;
    }
}

/// Positions found by [`generate`], per kind.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    /// Forced road in exactly 3 plies.
    pub road_in_2: Vec<Tactic>,
    /// Forced road in exactly `deep` plies (5 or more).
    pub deep: Vec<Tactic>,
    /// No forced road within `deep` plies, though the side to move has a road threat move.
    pub negative: Vec<Tactic>,
}

/// How many positions of each kind [`generate`] collects per board size.
#[derive(Clone, Copy, Debug)]
pub struct Quota {
    /// Road-in-2 positions.
    pub road_in_2: usize,
    /// Deep positions.
    pub deep: usize,
    /// Positions without a forced road.
    pub negative: usize,
    /// Plies of the deep positions (odd, 5 or more).
    pub deep_plies: u32,
    /// Give up on the size after this many random games.
    pub max_games: usize,
}

/// Collects tactics positions of size `N` from random playouts (placements of flats favoured,
/// so roads form), keeping at most one position of each kind per game. Each kept position is
/// decided by brute force over all legal moves: road-in-2 positions with the rules alone, deep
/// and negative ones with the road-in-one detector on the last ply. Progress on stderr.
pub fn generate<const N: usize>(seed: u64, quota: &Quota, out: &mut Generated) {
    let mut rng = Rng::new(seed ^ N as u64);
    let (mut road2, mut deep, mut negative) = (0, 0, 0);
    let mut moves = MoveList::new();
    for game in 0..quota.max_games {
        if road2 >= quota.road_in_2 && deep >= quota.deep && negative >= quota.negative {
            break;
        }
        if game % 50 == 0 {
            eprintln!("{N}x{N}: game {game}: road-in-2 {road2}, deep {deep}, negative {negative}");
        }
        let mut pos = Position::<N>::start();
        let (mut took2, mut took_deep, mut took_neg) = (false, false, false);
        while !pos.is_over() {
            if pos.ply() as usize >= 2 * N && pos.winning_move().is_none() {
                let threat = has_threat_move(&mut pos);
                if !took2 && road2 < quota.road_in_2 && forced_road(&mut pos, 3, true) {
                    took2 = true;
                    if shortest_forced_road(&mut pos, 3, false) == Some(3) {
                        road2 += 1;
                        out.road_in_2.push(tactic(&pos, 3));
                    }
                } else if threat && (!took_deep || !took_neg) && rng.below(3) == 0 {
                    let plies = quota.deep_plies;
                    let wins = shortest_forced_road(&mut pos, plies, true);
                    if wins == Some(plies) && !took_deep && deep < quota.deep {
                        took_deep = true;
                        deep += 1;
                        out.deep.push(tactic(&pos, plies as i32));
                    } else if wins.is_none() && !took_neg && negative < quota.negative {
                        took_neg = true;
                        negative += 1;
                        out.negative.push(tactic(&pos, -(plies as i32)));
                    }
                }
            }
            moves.clear();
            pos.generate_moves(&mut moves);
            let flats: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| m.role() == Some(Role::Flat))
                .collect();
            let mv = if !flats.is_empty() && rng.below(10) < 6 {
                flats[rng.below(flats.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make(mv);
        }
    }
    eprintln!("{N}x{N}: done: road-in-2 {road2}, deep {deep}, negative {negative}");
}

/// Collects up to `count` positions of size `N` with a forced road in exactly `plies` plies
/// (7 or more), at most one per random game. Brute force at that depth is too slow to try on
/// every position, so the candidates are the prover's proofs (within `prover_nodes` nodes), each
/// then confirmed by brute force over all legal moves (road-in-one detector on the last ply).
/// The set therefore holds tinues the prover can find; it measures speed, not completeness.
pub fn generate_deeper<const N: usize>(
    seed: u64,
    count: usize,
    plies: u32,
    prover_nodes: u64,
    max_games: usize,
    out: &mut Vec<Tactic>,
) {
    let mut rng = Rng::new(seed ^ N as u64);
    let mut found = 0;
    let mut moves = MoveList::new();
    let limits = TinueLimits {
        max_nodes: Some(prover_nodes),
        max_depth: plies,
        ..TinueLimits::default()
    };
    let stop = AtomicBool::new(false);
    for game in 0..max_games {
        if found >= count {
            break;
        }
        if game % 50 == 0 {
            eprintln!("{N}x{N}: game {game}: tinue in {plies}: {found}");
        }
        let mut pos = Position::<N>::start();
        while !pos.is_over() {
            if pos.ply() as usize >= 2 * N
                && pos.winning_move().is_none()
                && rng.below(2) == 0
                && solve(&pos, &limits, &stop)
                    .proof()
                    .is_some_and(|(p, _)| p == plies)
                && shortest_forced_road(&mut pos, plies, true) == Some(plies)
            {
                found += 1;
                out.push(tactic(&pos, plies as i32));
                break;
            }
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.make(moves[rng.below(moves.len())]);
        }
    }
    eprintln!("{N}x{N}: done: tinue in {plies}: {found}");
}

fn tactic<const N: usize>(pos: &Position<N>, plies: i32) -> Tactic {
    Tactic {
        tps: tps::to_tps(pos),
        plies,
    }
}

/// Whether the side to move has a move after which it threatens a road in one.
fn has_threat_move<const N: usize>(pos: &mut Position<N>) -> bool {
    if pos.is_opening() {
        return false;
    }
    let me: Color = pos.side_to_move();
    pos.legal_moves().iter().any(|&mv| {
        let undo = pos.make(mv);
        let threat = !pos.is_over() && pos.winning_move_for(me).is_some();
        pos.unmake(mv, undo);
        threat
    })
}
