//! Self-play data for tuning: games played in-process at a fixed node budget per move, from
//! random two-ply starts with a few random moves early on, written as one position per line.
//!
//! A data file holds `#` comment lines (the settings at the top, a `# games=...` summary at the
//! end) and lines `<TPS><TAB><result><TAB><half komi>`, the result being the game's PTN result
//! (`R-0`, `0-R`, `F-0`, `0-F`, `1/2-1/2`; a game stopped at the ply limit counts as a draw).
//! Positions where the side to move has a road or a flat win in one are left out: their outcome
//! is the search's business and would only add noise.

use crate::board::{GameResult, Position};
use crate::notation::tps;
use crate::rng::Rng;
use crate::search::{self, Limits, SearchConfig, TranspositionTable};
use rayon::prelude::*;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// How to generate.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Games to play.
    pub games: usize,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Komi in half flats.
    pub half_komi: i8,
    /// Seed of the random starts.
    pub seed: u64,
    /// Plies after which an unfinished game is stopped (and counted as a draw).
    pub max_plies: u32,
}

/// What a generation run produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Won by White.
    pub white: usize,
    /// Won by Black.
    pub black: usize,
    /// Drawn (flat ties and games stopped at the ply limit).
    pub draws: usize,
    /// Ended by a road.
    pub roads: usize,
    /// Ended on flats (including flat ties).
    pub flats: usize,
    /// Stopped at the ply limit.
    pub unfinished: usize,
    /// Positions written.
    pub positions: usize,
}

impl Summary {
    /// The share of drawn games.
    pub fn draw_rate(&self) -> f64 {
        self.draws as f64 / self.games.max(1) as f64
    }

    /// The summary as a data-file comment line (`# games=... positions=...`).
    pub fn comment(&self) -> String {
        format!(
            "# games={} white={} black={} draws={} roads={} flats={} unfinished={} positions={}",
            self.games,
            self.white,
            self.black,
            self.draws,
            self.roads,
            self.flats,
            self.unfinished,
            self.positions
        )
    }

    /// Reads a line written by [`Summary::comment`].
    pub fn parse(line: &str) -> Option<Summary> {
        let rest = line.strip_prefix("# games=")?;
        let mut s = Summary::default();
        let mut fields = format!("games={rest}");
        fields.retain(|c| c != '\r');
        for part in fields.split_whitespace() {
            let (key, value) = part.split_once('=')?;
            let value: usize = value.parse().ok()?;
            match key {
                "games" => s.games = value,
                "white" => s.white = value,
                "black" => s.black = value,
                "draws" => s.draws = value,
                "roads" => s.roads = value,
                "flats" => s.flats = value,
                "unfinished" => s.unfinished = value,
                "positions" => s.positions = value,
                _ => return None,
            }
        }
        Some(s)
    }
}

/// Plays the games (in parallel on rayon's threads) and writes their positions to `out`, with
/// progress on stderr.
pub fn generate<const N: usize>(
    settings: &Settings,
    out: &mut (dyn Write + Send),
) -> std::io::Result<Summary> {
    writeln!(
        out,
        "# cairn tune data: size {N}, half komi {}, {} games, {} nodes per move, seed {}",
        settings.half_komi, settings.games, settings.nodes, settings.seed
    )?;
    let started = Instant::now();
    let done = AtomicUsize::new(0);
    let shared = Mutex::new((Summary::default(), out, Ok(())));
    (0..settings.games).into_par_iter().for_each_init(
        || TranspositionTable::new(4),
        |tt, game| {
            let (result, lines) = play::<N>(settings, game as u64, tt);
            let mut guard = shared.lock().expect("data lock");
            let (summary, out, status) = &mut *guard;
            summary.games += 1;
            summary.positions += lines.len();
            match result {
                Some(GameResult::Road(c)) | Some(GameResult::Flats(c)) => match c {
                    crate::board::Color::White => summary.white += 1,
                    crate::board::Color::Black => summary.black += 1,
                },
                _ => summary.draws += 1,
            }
            match result {
                Some(GameResult::Road(_)) => summary.roads += 1,
                Some(_) => summary.flats += 1,
                None => summary.unfinished += 1,
            }
            if status.is_ok() {
                *status = lines.iter().try_for_each(|l| writeln!(out, "{l}"));
            }
            let n = done.fetch_add(1, Relaxed) + 1;
            if n % 50 == 0 || n == settings.games {
                let secs = started.elapsed().as_secs_f64();
                eprintln!(
                    "tune: {n}/{} games, {} positions, draws {:.1}%, {:.1} games/min",
                    settings.games,
                    summary.positions,
                    100.0 * summary.draw_rate(),
                    n as f64 * 60.0 / secs.max(1e-9)
                );
            }
        },
    );
    let (summary, out, status) = shared.into_inner().expect("data lock");
    status?;
    writeln!(out, "{}", summary.comment())?;
    out.flush()?;
    Ok(summary)
}

/// Plays game number `game`: its result (`None` if stopped at the ply limit) and its data lines.
fn play<const N: usize>(
    settings: &Settings,
    game: u64,
    tt: &mut TranspositionTable,
) -> (Option<GameResult>, Vec<String>) {
    let mut rng = Rng::new(settings.seed ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03));
    tt.clear();
    let mut pos = Position::<N>::start();
    pos.set_half_komi(settings.half_komi);
    let mut history = vec![(pos.hash(), true)];
    let mut kept = Vec::new();
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let config = SearchConfig::default();
    let stop = AtomicBool::new(false);
    while pos.result().is_none() && pos.ply() < settings.max_plies {
        let random = pos.ply() < 2 || (pos.ply() < 10 && rng.below(10) == 0);
        if !pos.is_opening() && pos.winning_move().is_none() && pos.flat_win_in_one().is_none() {
            kept.push(tps::to_tps(&pos));
        }
        let mv = if random {
            let moves = pos.legal_moves();
            moves[rng.below(moves.len())]
        } else {
            stop.store(false, Relaxed);
            let found = search::search(&pos, &history, &limits, &config, tt, &stop, &|_| {});
            match found.best {
                Some(mv) => mv,
                None => pos.legal_moves()[0],
            }
        };
        pos.make(mv);
        history.push((pos.hash(), mv.is_placement()));
    }
    let result = pos.result();
    let label = result.map_or("1/2-1/2", GameResult::ptn);
    let lines = kept
        .into_iter()
        .map(|t| format!("{t}\t{label}\t{}", settings.half_komi))
        .collect();
    (result, lines)
}
