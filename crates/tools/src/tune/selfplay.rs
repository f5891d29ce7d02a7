//! Self-play data for tuning: games played in-process at a fixed node budget per move, from
//! random two-ply starts with a few random moves early on, written as one position per line.
//!
//! A data file holds `#` comment lines (the settings at the top, a `# games=...` summary at the
//! end) and lines `<TPS><TAB><result><TAB><half komi>[<TAB><score>]`, the result being the game's
//! PTN result (`R-0`, `0-R`, `F-0`, `0-F`, `1/2-1/2`; a game stopped at the ply limit counts as a
//! draw) and the score the search gave the position, in centiflats for the side to move (proven
//! results clamped to ±[`SCORE_CLAMP`]; no score where the move was chosen at random).
//! Positions where the side to move has a road or a flat win in one are left out: their outcome
//! is the search's business and would only add noise.
//!
//! **Off-line positions** (`siblings`, a percentage): a game's positions are the ones its players
//! chose, so an evaluation fitted to them alone never sees what a search sees at most of its
//! nodes, the positions after weak moves. For that share of the searched positions, the
//! generator also plays one random other legal move and writes the position it leads to, scored
//! by a search of its own (same node budget, a transposition table of its own). Its result is
//! written `*`: the game's result says nothing about a line nobody played, so the tuner fits
//! such a position to its score alone. The siblings draw on a random stream and a table apart
//! from the game's, so a run with siblings plays exactly the games of the same run without.
//!
//! Games are numbered from 0; game `g` depends only on the seed and `g`, and the games are
//! written in number order whatever the thread count. So a run can be split into shards
//! ([`Shard`]): shard `i` of `n` plays a contiguous range of the numbers, and the data lines of
//! shards `1/n .. n/n` concatenated in order are exactly the data lines of the whole run.

use cairn_search::rng::Rng;
use cairn_search::{self as search, Limits, SearchConfig, TranspositionTable};
use cairn_tak::board::{GameResult, Komi, Position, TakGame};
use cairn_tak::notation::tps;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

/// Search scores beyond this (proven results) are written as this, in centiflats.
pub const SCORE_CLAMP: i32 = 3000;

/// One part of a generation run: part `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 0.
    pub index: usize,
    /// How many parts the run is split into.
    pub count: usize,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `I/N` (1-based `I`, as a batch system's array index plus one).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}`: expected I/N with 1 <= I <= N, such as 3/16");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || i == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard {
            index: i - 1,
            count: n,
        })
    }

    /// The game numbers of this shard out of `games`.
    pub fn games(&self, games: usize) -> Range<usize> {
        let at = |k: usize| (games as u128 * k as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// How to generate.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Games to play.
    pub games: usize,
    /// Nodes searched per move.
    pub nodes: u64,
    /// The komi.
    pub komi: Komi,
    /// Seed of the random starts.
    pub seed: u64,
    /// Plies after which an unfinished game is stopped (and counted as a draw).
    pub max_plies: u32,
    /// The part of the run to play.
    pub shard: Shard,
    /// Percentage (0 to 100) of the searched positions that also get an off-line sibling.
    pub siblings: u32,
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
    /// Positions written (siblings included).
    pub positions: usize,
    /// Of them, positions off the games' lines (result `*`).
    pub siblings: usize,
}

impl Summary {
    /// Counts one game with its result (`None`: stopped unfinished) and `positions` data lines.
    pub fn add(&mut self, result: Option<GameResult>, positions: usize) {
        self.games += 1;
        self.positions += positions;
        match result {
            Some(GameResult::Road(c) | GameResult::Flats(c)) => match c {
                cairn_tak::board::Color::White => self.white += 1,
                cairn_tak::board::Color::Black => self.black += 1,
            },
            _ => self.draws += 1,
        }
        match result {
            Some(GameResult::Road(_)) => self.roads += 1,
            Some(_) => self.flats += 1,
            None => self.unfinished += 1,
        }
    }

    /// Adds up the counts of two summaries (of shards, say).
    pub fn merge(&mut self, other: &Summary) {
        self.games += other.games;
        self.white += other.white;
        self.black += other.black;
        self.draws += other.draws;
        self.roads += other.roads;
        self.flats += other.flats;
        self.unfinished += other.unfinished;
        self.positions += other.positions;
        self.siblings += other.siblings;
    }

    /// The share of drawn games.
    pub fn draw_rate(&self) -> f64 {
        self.draws as f64 / self.games.max(1) as f64
    }

    /// The summary as a data-file comment line (`# games=... positions=...`, then `siblings=`
    /// when there are any).
    pub fn comment(&self) -> String {
        let siblings = if self.siblings > 0 {
            format!(" siblings={}", self.siblings)
        } else {
            String::new()
        };
        format!(
            "# games={} white={} black={} draws={} roads={} flats={} unfinished={} positions={}{siblings}",
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
                "siblings" => s.siblings = value,
                _ => return None,
            }
        }
        Some(s)
    }
}

impl Settings {
    /// The header of the data a run of these settings writes at size `N`: the settings (the
    /// shard last), then what plays the games ([`super::data::Provenance`]).
    pub fn header<const N: usize>(&self) -> Vec<String> {
        let shard = if self.shard == Shard::WHOLE {
            String::new()
        } else {
            format!(", shard {}", self.shard)
        };
        let siblings = if self.siblings > 0 {
            format!(", siblings {}%", self.siblings)
        } else {
            String::new()
        };
        let mut lines = vec![format!(
            "{}size {N}, half komi {}, {} games, {} nodes per move, seed {}, at most {} plies\
             {siblings}{shard}",
            super::data::HEADER,
            self.komi.halves(),
            self.games,
            self.nodes,
            self.seed,
            self.max_plies
        )];
        lines.extend(super::data::Provenance::current::<N>().lines());
        lines
    }
}

/// Plays the shard's games (in parallel on rayon's threads) and writes their positions to `out`
/// in game order, after the header and before the summary; `on_game` hears of each game as it
/// ends, with the summary so far.
pub fn generate<const N: usize>(
    settings: &Settings,
    out: &mut (dyn Write + Send),
    on_game: &(dyn Fn(&Summary) + Sync),
) -> std::io::Result<Summary> {
    for line in settings.header::<N>() {
        writeln!(out, "{line}")?;
    }
    let range = settings.shard.games(settings.games);
    // Finished games wait in `pending` until every lower number has been written.
    struct Output<'a> {
        summary: Summary,
        out: &'a mut (dyn Write + Send),
        status: std::io::Result<()>,
        next: usize,
        pending: BTreeMap<usize, Vec<String>>,
    }
    let shared = Mutex::new(Output {
        summary: Summary::default(),
        out,
        status: Ok(()),
        next: range.start,
        pending: BTreeMap::new(),
    });
    let sibling_table = if settings.siblings > 0 { 4 } else { 1 };
    range.clone().into_par_iter().for_each_init(
        || {
            (
                TranspositionTable::new(4),
                TranspositionTable::new(sibling_table),
            )
        },
        |(tt, side_tt), game| {
            let (result, lines, siblings) = play::<N>(settings, game as u64, tt, side_tt);
            let mut guard = shared.lock().expect("data lock");
            let o = &mut *guard;
            o.summary.add(result, lines.len());
            o.summary.siblings += siblings;
            o.pending.insert(game, lines);
            while let Some(lines) = o.pending.remove(&o.next) {
                if o.status.is_ok() {
                    o.status = lines.iter().try_for_each(|l| writeln!(o.out, "{l}"));
                }
                o.next += 1;
            }
            on_game(&o.summary);
        },
    );
    let o = shared.into_inner().expect("data lock");
    o.status?;
    writeln!(o.out, "{}", o.summary.comment())?;
    o.out.flush()?;
    Ok(o.summary)
}

/// A position off a game's line: its TPS and its search's score, written with result `*`.
type Sibling = (String, i32);

/// The random stream of game `number`'s siblings is the game's seed mixed with this, apart from
/// the stream that picks the game's own random moves.
const SIBLING_STREAM: u64 = 0x5EB1_1A65_0FF1_14E5;

/// Plays game number `game`: its result (`None` if stopped at the ply limit), its data lines and
/// how many of them are siblings (see the module doc). `side_tt` serves the siblings' searches.
fn play<const N: usize>(
    settings: &Settings,
    number: u64,
    tt: &mut TranspositionTable,
    side_tt: &mut TranspositionTable,
) -> (Option<GameResult>, Vec<String>, usize) {
    let game_seed = settings.seed ^ number.wrapping_mul(0xD1B5_4A32_D192_ED03);
    let mut rng = Rng::new(game_seed);
    let mut side_rng = Rng::new(game_seed ^ SIBLING_STREAM);
    tt.clear();
    side_tt.clear();
    let mut start = Position::<N>::start();
    start.set_komi(settings.komi);
    let mut game = TakGame::new(start);
    // The game's positions with their scores, each with its sibling if it has one.
    let mut kept: Vec<(String, Option<i32>, Option<Sibling>)> = Vec::new();
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let config = SearchConfig::default();
    let stop = AtomicBool::new(false);
    let clamp = |score: cairn_search::score::Score| score.0.clamp(-SCORE_CLAMP, SCORE_CLAMP);
    // A fixed-node search of a game's current position, on the table given.
    let searched = |g: &TakGame<N>, table: &TranspositionTable| {
        stop.store(false, Relaxed);
        search::search(
            g.position(),
            g.hashes(),
            &limits,
            &config,
            table,
            &stop,
            &|_| {},
        )
    };
    loop {
        let pos = game.position();
        if pos.result().is_some() || pos.ply() >= settings.max_plies {
            break;
        }
        let random = pos.ply() < 2 || (pos.ply() < 10 && rng.below(10) == 0);
        let keep = kept_for_data(pos);
        let (mv, score) = if random {
            let moves = pos.legal_moves();
            (moves[rng.below(moves.len())], None)
        } else {
            let found = searched(&game, tt);
            match found.best {
                Some(mv) => (mv, Some(clamp(found.score))),
                None => (pos.legal_moves()[0], None),
            }
        };
        if keep {
            let sibling = if score.is_some() && (side_rng.below(100) as u32) < settings.siblings {
                let moves = pos.legal_moves();
                let other = moves[side_rng.below(moves.len())];
                let mut side = game.clone();
                side.play(other);
                let next = side.position();
                (other != mv && next.result().is_none() && kept_for_data(next))
                    .then(|| (tps::to_tps(next), clamp(searched(&side, side_tt).score)))
            } else {
                None
            };
            kept.push((tps::to_tps(pos), score, sibling));
        }
        game.play(mv);
    }
    let result = game.position().result();
    let label = result.map_or("1/2-1/2", GameResult::ptn);
    let half_komi = settings.komi.halves();
    let mut lines = Vec::with_capacity(kept.len());
    let mut siblings = 0;
    for (t, score, sibling) in kept {
        lines.push(match score {
            Some(s) => format!("{t}\t{label}\t{half_komi}\t{s}"),
            None => format!("{t}\t{label}\t{half_komi}"),
        });
        if let Some((t, s)) = sibling {
            lines.push(format!("{t}\t*\t{half_komi}\t{s}"));
            siblings += 1;
        }
    }
    (result, lines, siblings)
}

/// Whether a position is written as data: past the opening placements, and the side to move
/// has neither a road nor a flat win in one.
fn kept_for_data<const N: usize>(pos: &Position<N>) -> bool {
    !pos.is_opening() && pos.winning_move().is_none() && pos.flat_win_in_one().is_none()
}
