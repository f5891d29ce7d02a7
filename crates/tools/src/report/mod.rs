//! `cairn report`: a summary of a match file, as racetrack or `cairn match` write them.
//!
//! A match file is a PTN file of games between two engines, named by the `Player1` (White) and
//! `Player2` (Black) tags, with a `{eval/depth time}` comment after each engine move
//! (`{+0.74/13 0.33s}`; `cairn match` also writes `{book}` after opening plies). The report
//! gives, per engine, the score with its Elo and 95 % interval (from [`crate::arena::Tally`]),
//! overall and by colour; the same over the pairs of games (see below); how the games ended,
//! overall and per engine and colour;
//! the engine's own moves per game by kind; the average time and depth of its moves; and the
//! length of the games.
//!
//! What counts as an engine's own move: every ply after the opening. The opening is the plies
//! marked `{book}`, and the plies before the first eval comment of a game (racetrack writes the
//! book moves bare); a game with no eval comment at all counts every ply as the engines' own.
//!
//! How a game ended comes from its result and, for `1-0` / `0-1`, its `Termination` tag (both
//! runners write one): a road (`R-0`, `0-R`), a flat win (`F-0`, `0-F`), a draw (`1/2-1/2`), an
//! unfinished game (`*`, cut off by the runner's ply limit and scored as a draw), a loss on time,
//! a forfeit (a crash, an illegal or malformed move), or another decisive result.
//!
//! Both runners play each opening twice with the colours swapped, as rounds `2k − 1` and `2k`
//! (the `Round` tag). Two such games of one file with different White engines are a pair, and
//! the pairs' summed scores give the Elo interval that takes the openings' colour bias out
//! ([`crate::arena::Pairs`]). Games without a `Round` tag, or whose partner is missing, are in
//! no pair.

use crate::arena::{Elo, Pairs, Sprt, Tally};
use crate::plot::{MatchGraph, Outcomes};
use cairn_tak::board::{Color, Role};
use cairn_tak::notation::{parse_file, replay_any, PtnGame, PtnMove};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The kinds of move in [`EngineStats::kinds`], in order.
pub const KINDS: [&str; 4] = ["flats", "walls", "capstones", "spreads"];

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A road.
    Road,
    /// A flat win.
    Flats,
    /// A draw (`1/2-1/2`).
    Draw,
    /// Cut off unfinished (`*`), scored as a draw.
    Unfinished,
    /// Lost on time.
    Time,
    /// Forfeited: a crash, an illegal or a malformed move.
    Forfeit,
    /// Another decisive result (`1-0` / `0-1` with no termination the report knows).
    Other,
}

/// Every ending, in the order the report lists them, with its word.
pub const ENDINGS: [(Ending, &str); 7] = [
    (Ending::Road, "roads"),
    (Ending::Flats, "flat wins"),
    (Ending::Draw, "draws"),
    (Ending::Unfinished, "unfinished"),
    (Ending::Time, "on time"),
    (Ending::Forfeit, "forfeits"),
    (Ending::Other, "other"),
];

/// The headings of the columns of [`MatchReport::endings_of`].
const ENDING_COLUMNS: [&str; 8] = [
    "won R",
    "F",
    "other",
    "lost R",
    "F",
    "other",
    "drawn",
    "unfinished",
];

/// One game of a match file, as the report reads it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// 1-based index of the game in the file.
    pub index: usize,
    /// White's engine: 0 or 1 (the order of [`MatchReport::engines`]).
    pub white: usize,
    /// The result as written.
    pub result: String,
    /// How the game ended.
    pub ending: Ending,
    /// The winner, if any.
    pub winner: Option<Color>,
    /// Plies played, the opening included.
    pub plies: usize,
    /// The game as parsed.
    pub game: PtnGame,
}

/// One engine's part of a match.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    /// Its name (the `Player1` / `Player2` tag).
    pub name: String,
    /// Its score, from its own point of view.
    pub score: Tally,
    /// Its score with White.
    pub as_white: Tally,
    /// Its score with Black.
    pub as_black: Tally,
    /// Its own moves by kind (flats, walls, capstones, spreads), over all games.
    pub kinds: [u32; 4],
    /// Seconds over its moves that carried a time, and how many did.
    pub time: (f64, u32),
    /// Depth summed over its moves that carried one, and how many did.
    pub depth: (u64, u32),
}

/// The summary of a match file.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The two engines; the first is the one named first in the file.
    pub engines: [EngineStats; 2],
    /// The games in file order.
    pub games: Vec<GameSummary>,
    /// After each game, the first engine's Elo and its 95 % interval.
    pub elo: Vec<Elo>,
    /// The pairs of games (one opening, colours swapped), from the first engine's view.
    pub pairs: Pairs,
    /// An SPRT to judge the pairs by (`--sprt`), if one was asked for.
    pub sprt: Option<Sprt>,
}

/// What an eval comment says: `(depth, seconds)` where given.
fn eval_comment(comment: &str) -> Option<(u32, Option<f64>)> {
    let mut words = comment.split_whitespace();
    let (eval, depth) = words.next()?.split_once('/')?;
    if !eval.starts_with(['+', '-']) && eval.parse::<f64>().is_err() {
        return None;
    }
    let depth = depth.parse().ok()?;
    let secs = words.find_map(|w| w.strip_suffix('s').and_then(|s| s.parse::<f64>().ok()));
    Some((depth, secs))
}

/// How a game of a match file ended, from its result and `Termination` tag (`index` names the
/// game in the error for a result no match gives).
pub(crate) fn ending_of(result: &str, termination: &str, index: usize) -> Result<Ending, String> {
    let t = termination.to_ascii_lowercase();
    Ok(match result {
        "R-0" | "0-R" => Ending::Road,
        "F-0" | "0-F" => Ending::Flats,
        "1/2-1/2" => Ending::Draw,
        "*" => Ending::Unfinished,
        "1-0" | "0-1" if t.contains("time") => Ending::Time,
        "1-0" | "0-1"
            if ["crash", "illegal", "malformed", "forfeit", "could not"]
                .iter()
                .any(|w| t.contains(w)) =>
        {
            Ending::Forfeit
        }
        "1-0" | "0-1" => Ending::Other,
        other => {
            return Err(format!(
                "game {index}: result `{other}` is not one a match gives"
            ))
        }
    })
}

/// The winning colour of a PTN result (`R-0`, `0-F`, `1-0`...); `None` for a draw or `*`.
pub(crate) fn winner_of(result: &str) -> Option<Color> {
    match result {
        "R-0" | "F-0" | "1-0" => Some(Color::White),
        "0-R" | "0-F" | "0-1" => Some(Color::Black),
        _ => None,
    }
}

fn kind_of(mv: &PtnMove) -> usize {
    match mv {
        PtnMove::Place {
            role: Role::Flat, ..
        } => 0,
        PtnMove::Place {
            role: Role::Wall, ..
        } => 1,
        PtnMove::Place {
            role: Role::Cap, ..
        } => 2,
        PtnMove::Spread { .. } => 3,
    }
}

/// Counts one game in a tally: a win, a loss or (`None`) a draw.
fn add(tally: &mut Tally, points: Option<bool>) {
    match points {
        Some(true) => tally.wins += 1,
        Some(false) => tally.losses += 1,
        None => tally.draws += 1,
    }
}

impl EngineStats {
    /// Counts a game the engine played with `color`, won by `winner` (`None`: drawn).
    fn count_game(&mut self, color: Color, winner: Option<Color>) {
        let points = winner.map(|w| w == color);
        add(&mut self.score, points);
        match color {
            Color::White => add(&mut self.as_white, points),
            Color::Black => add(&mut self.as_black, points),
        }
    }

    /// Counts one of the engine's own moves and what its comment says.
    fn count_move(&mut self, mv: &PtnMove, comment: Option<(u32, Option<f64>)>) {
        self.kinds[kind_of(mv)] += 1;
        if let Some((depth, secs)) = comment {
            self.depth.0 += u64::from(depth);
            self.depth.1 += 1;
            if let Some(secs) = secs {
                self.time.0 += secs;
                self.time.1 += 1;
            }
        }
    }
}

/// Which engine (index into `names`, which it extends) plays White and which Black.
fn sides(game: &PtnGame, names: &mut Vec<String>) -> Result<[usize; 2], String> {
    let mut side = [0usize; 2];
    for (c, tag) in ["Player1", "Player2"].iter().enumerate() {
        let name = game
            .tag(tag)
            .ok_or_else(|| format!("no {tag} tag names the engine"))?;
        side[c] = match names.iter().position(|n| n == name) {
            Some(k) => k,
            None if names.len() < 2 => {
                names.push(name.to_string());
                names.len() - 1
            }
            None => {
                return Err(format!(
                    "a third engine `{name}` (the file is a match of `{}` and `{}`)",
                    names[0], names[1]
                ))
            }
        };
    }
    if side[0] == side[1] {
        return Err(format!(
            "both players are `{}`; the report tells engines by name",
            names[side[0]]
        ));
    }
    Ok(side)
}

/// Counts the engines' own moves of a game: every ply after the opening (see the module
/// documentation), given to the engine whose colour played it.
fn count_moves(game: &PtnGame, engines: &mut [EngineStats; 2], side: [usize; 2]) {
    let first_ply = game.start_tps().ok().flatten().map_or(0, |t| t.ply()) as usize;
    let opening = game
        .plies
        .iter()
        .position(|p| p.comments.iter().any(|c| eval_comment(c).is_some()))
        .unwrap_or(0);
    for (k, ply) in game.plies.iter().enumerate().skip(opening) {
        if ply.comments.iter().any(|c| c.trim() == "book") {
            continue;
        }
        let comment = ply.comments.iter().find_map(|c| eval_comment(c));
        engines[side[(first_ply + k) % 2]].count_move(&ply.mv, comment);
    }
}

impl MatchReport {
    /// Reads a match file; `Err` names the game (1-based) that cannot be read.
    pub fn from_ptn(text: &str) -> Result<MatchReport, String> {
        let games = parse_file(text).map_err(|e| e.to_string())?;
        if games.is_empty() {
            return Err("no game found".to_string());
        }
        let mut names: Vec<String> = Vec::new();
        let mut engines: [EngineStats; 2] = Default::default();
        let mut summaries = Vec::with_capacity(games.len());
        let mut elo = Vec::with_capacity(games.len());
        let mut pairs = Pairs::default();
        // Per pair number, the first game seen: its White engine and the first engine's points.
        let mut halves = std::collections::HashMap::new();
        for (i, game) in games.into_iter().enumerate() {
            let index = i + 1;
            replay_any(&game).map_err(|e| format!("game {index}: {e}"))?;
            let side = sides(&game, &mut names).map_err(|e| format!("game {index}: {e}"))?;
            let result = game
                .result
                .clone()
                .or_else(|| game.tag("Result").map(str::to_string))
                .unwrap_or_else(|| "*".to_string());
            let ending = ending_of(&result, game.tag("Termination").unwrap_or(""), index)?;
            let winner = winner_of(&result);
            for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
                engines[side[c]].count_game(color, winner);
            }
            count_moves(&game, &mut engines, side);
            elo.push(engines[0].score.elo());
            let round = game.tag("Round").and_then(|r| r.trim().parse::<u64>().ok());
            if let Some(round) = round.filter(|&r| r > 0) {
                let points = match winner {
                    Some(color) if side[color as usize] == 0 => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                match halves.remove(&round.div_ceil(2)) {
                    Some((white, other)) if white != side[0] => pairs.add(other, points),
                    _ => {
                        halves.insert(round.div_ceil(2), (side[0], points));
                    }
                }
            }
            summaries.push(GameSummary {
                index,
                white: side[0],
                result,
                ending,
                winner,
                plies: game.plies.len(),
                game,
            });
        }
        if names.len() < 2 {
            return Err("the file has one engine only".to_string());
        }
        for (e, name) in engines.iter_mut().zip(names) {
            e.name = name;
        }
        Ok(MatchReport {
            engines,
            games: summaries,
            elo,
            pairs,
            sprt: None,
        })
    }

    /// How many games ended in `ending`.
    pub fn count(&self, ending: Ending) -> usize {
        self.games.iter().filter(|g| g.ending == ending).count()
    }

    /// How the games `engine` played with `colour` ended: won by a road, on flats, otherwise
    /// (on time, by forfeit, another result); lost likewise; drawn; unfinished.
    pub fn endings_of(&self, engine: usize, colour: Color) -> [usize; 8] {
        let mut counts = [0; 8];
        let own = |g: &&GameSummary| (g.white == engine) == (colour == Color::White);
        for g in self.games.iter().filter(own) {
            let column = match g.ending {
                Ending::Road => 0,
                Ending::Flats => 1,
                Ending::Time | Ending::Forfeit | Ending::Other => 2,
                Ending::Draw => 6,
                Ending::Unfinished => 7,
            };
            let lost = column < 3 && g.winner != Some(colour);
            counts[column + if lost { 3 } else { 0 }] += 1;
        }
        counts
    }

    /// An engine's own moves per game, by kind.
    pub fn kinds_per_game(&self, engine: usize) -> [f64; 4] {
        let games = self.games.len().max(1) as f64;
        self.engines[engine].kinds.map(|k| f64::from(k) / games)
    }

    /// The games each engine lost, in file order: `(game, loser)`.
    pub fn lost_games(&self) -> impl Iterator<Item = (&GameSummary, usize)> {
        self.games.iter().filter_map(|g| {
            g.winner.map(|w| {
                let loser = if w == Color::White {
                    1 - g.white
                } else {
                    g.white
                };
                (g, loser)
            })
        })
    }

    /// The name of the game for a link or a title: `game 3: A vs B`.
    pub fn game_name(&self, game: &GameSummary) -> String {
        format!(
            "game {}: {} vs {}",
            game.index,
            self.engines[game.white].name,
            self.engines[1 - game.white].name
        )
    }

    /// The title of the picture and the first line of the text: the [`summary_line`].
    pub fn title(&self) -> String {
        summary_line(
            [&self.engines[0].name, &self.engines[1].name],
            &self.engines[0].score,
        )
    }

    /// How the games `engine` played with `colour` ended, split by how each was decided
    /// ([`crate::plot::DECISIVE`] order: road, flats, time, forfeit, other).
    pub fn outcomes_of(&self, engine: usize, colour: Color) -> Outcomes {
        let mut o = Outcomes::default();
        let own = |g: &&GameSummary| (g.white == engine) == (colour == Color::White);
        for g in self.games.iter().filter(own) {
            let kind = match g.ending {
                Ending::Draw => {
                    o.drawn += 1;
                    continue;
                }
                Ending::Unfinished => {
                    o.unfinished += 1;
                    continue;
                }
                Ending::Road => 0,
                Ending::Flats => 1,
                Ending::Time => 2,
                Ending::Forfeit => 3,
                Ending::Other => 4,
            };
            if g.winner == Some(colour) {
                o.won[kind] += 1;
            } else {
                o.lost[kind] += 1;
            }
        }
        o
    }

    /// The data of the match picture.
    pub fn graph(&self) -> MatchGraph {
        MatchGraph {
            title: self.title(),
            engines: [self.engines[0].name.clone(), self.engines[1].name.clone()],
            elo: self.elo.clone(),
            outcomes: [Color::White, Color::Black].map(|c| self.outcomes_of(0, c)),
        }
    }

    /// The report as text, one table per topic.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let width = self
            .engines
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let tally = |t: &Tally| format!("+{} -{} ={}", t.wins, t.losses, t.draws);
        let _ = writeln!(out, "{}", self.title());
        let _ = writeln!(
            out,
            "\n{:<width$}  {:<16} {:>6}  {:<18}  {:<16} {:<16}",
            "engine", "score", "", "Elo (95%)", "as White", "as Black"
        );
        for e in &self.engines {
            let _ = writeln!(
                out,
                "{:<width$}  {:<16} {:>5.1}%  {:<18}  {:<16} {:<16}",
                e.name,
                tally(&e.score),
                100.0 * e.score.score(),
                e.score.elo().to_string(),
                tally(&e.as_white),
                tally(&e.as_black)
            );
        }
        let p = &self.pairs;
        if p.pairs() > 0 {
            let [c0, c1, c2, c3, c4] = p.counts;
            let _ = writeln!(
                out,
                "\nPairs (one opening, colours swapped), by {}'s points: 0: {c0}, 1/2: {c1}, 1: {c2}, \
                 3/2: {c3}, 2: {c4} ({}); Elo {}",
                self.engines[0].name,
                counted(p.pairs().into(), "pair"),
                p.elo()
            );
        }
        if let Some(sprt) = &self.sprt {
            let t = SprtJson::new(sprt, p);
            let _ = writeln!(
                out,
                "SPRT elo0={} elo1={} alpha={} beta={} over the pairs: LLR {} in [{}, {}], {}",
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                two_decimals(t.llr),
                two_decimals(t.lower),
                two_decimals(t.upper),
                t.state
            );
        }
        let endings: Vec<String> = ENDINGS
            .iter()
            .map(|&(ending, word)| format!("{} {word}", self.count(ending)))
            .collect();
        let _ = writeln!(out, "\nEndings: {}", endings.join(", "));
        // The columns of `endings_of`, each as wide as its heading.
        let columns = |cells: [String; 8]| {
            let headings = ENDING_COLUMNS.iter();
            let cells = cells.iter().zip(headings);
            let cells: Vec<String> = cells
                .map(|(c, h)| format!("{c:>0$}", h.len().max(5)))
                .collect();
            cells.join(" ")
        };
        let _ = writeln!(
            out,
            "\nEndings by engine and colour (wins and losses by road, on flats, otherwise):\n\
             {:<width$}  {:<6}  {}",
            "engine",
            "colour",
            columns(ENDING_COLUMNS.map(String::from))
        );
        for (i, e) in self.engines.iter().enumerate() {
            for colour in [Color::White, Color::Black] {
                let counts = self.endings_of(i, colour).map(|n| n.to_string());
                let _ = writeln!(
                    out,
                    "{:<width$}  {:<6}  {}",
                    e.name,
                    format!("{colour:?}"),
                    columns(counts)
                );
            }
        }
        let _ = writeln!(
            out,
            "\nOwn moves per game, by kind (opening plies left out):\n{:<width$}  {:>7} {:>7} {:>9} {:>7}  {:>9} {:>6}",
            "engine", KINDS[0], KINDS[1], KINDS[2], KINDS[3], "time/move", "depth"
        );
        for (i, e) in self.engines.iter().enumerate() {
            let k = self.kinds_per_game(i);
            let mean = |(sum, n): (f64, u32)| {
                if n == 0 {
                    "-".to_string()
                } else {
                    format!("{:.2}", sum / f64::from(n))
                }
            };
            let _ = writeln!(
                out,
                "{:<width$}  {:>7.1} {:>7.1} {:>9.1} {:>7.1}  {:>8}s {:>6}",
                e.name,
                k[0],
                k[1],
                k[2],
                k[3],
                mean(e.time),
                mean((e.depth.0 as f64, e.depth.1))
            );
        }
        let lengths: Vec<usize> = self.games.iter().map(|g| g.plies).collect();
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64;
        let _ = writeln!(
            out,
            "\nGame length: {mean:.1} plies on average, shortest {}, longest {}",
            lengths.iter().min().unwrap_or(&0),
            lengths.iter().max().unwrap_or(&0)
        );
        out
    }
}

/// An Elo estimate in JSON; an infinite bound (a score of 0 or 1) is `null`.
#[derive(serde::Serialize, Debug)]
pub struct EloJson {
    /// The estimate.
    pub elo: Option<f64>,
    /// The lower end of the 95 % interval.
    pub low: Option<f64>,
    /// The upper end of the 95 % interval.
    pub high: Option<f64>,
}

impl From<Elo> for EloJson {
    fn from(e: Elo) -> Self {
        let finite = |v: f64| v.is_finite().then_some(v);
        EloJson {
            elo: finite(e.elo),
            low: finite(e.low),
            high: finite(e.high),
        }
    }
}

/// Wins, losses and draws in JSON.
#[derive(serde::Serialize, Debug)]
pub struct TallyJson {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn (unfinished games included).
    pub draws: u32,
    /// Games in all.
    pub games: u32,
    /// The score in per cent.
    pub score_pct: f64,
    /// The Elo of the score and its 95 % interval.
    pub elo: EloJson,
}

impl From<&Tally> for TallyJson {
    fn from(t: &Tally) -> Self {
        TallyJson {
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
            games: t.games(),
            score_pct: 100.0 * t.score(),
            elo: t.elo().into(),
        }
    }
}

/// How the games an engine played with one colour ended ([`MatchReport::endings_of`]).
#[derive(serde::Serialize, Debug)]
pub struct ColourEndingsJson {
    /// Won by a road.
    pub won_road: usize,
    /// Won on flats.
    pub won_flats: usize,
    /// Won otherwise (on time, by forfeit, another result).
    pub won_other: usize,
    /// Lost by a road.
    pub lost_road: usize,
    /// Lost on flats.
    pub lost_flats: usize,
    /// Lost otherwise.
    pub lost_other: usize,
    /// Drawn.
    pub drawn: usize,
    /// Cut off unfinished.
    pub unfinished: usize,
}

impl From<[usize; 8]> for ColourEndingsJson {
    fn from(c: [usize; 8]) -> Self {
        let [won_road, won_flats, won_other, lost_road, lost_flats, lost_other, drawn, unfinished] =
            c;
        ColourEndingsJson {
            won_road,
            won_flats,
            won_other,
            lost_road,
            lost_flats,
            lost_other,
            drawn,
            unfinished,
        }
    }
}

/// Own moves per game by kind, in JSON.
#[derive(serde::Serialize, Debug)]
pub struct KindsJson {
    /// Flats placed.
    pub flats: f64,
    /// Walls placed.
    pub walls: f64,
    /// Capstones placed.
    pub capstones: f64,
    /// Spreads.
    pub spreads: f64,
}

/// One engine's part of the report, in JSON.
#[derive(serde::Serialize, Debug)]
pub struct EngineJson {
    /// Its name.
    pub name: String,
    /// Its score overall, with its Elo.
    pub score: TallyJson,
    /// Its score with White.
    pub as_white: TallyJson,
    /// Its score with Black.
    pub as_black: TallyJson,
    /// How its games with White ended.
    pub endings_as_white: ColourEndingsJson,
    /// How its games with Black ended.
    pub endings_as_black: ColourEndingsJson,
    /// Its own moves per game, by kind (opening plies left out).
    pub moves_per_game: KindsJson,
    /// Mean seconds per move over the moves that give a time; `null` if none does.
    pub seconds_per_move: Option<f64>,
    /// Mean depth over the moves that give one; `null` if none does.
    pub depth_per_move: Option<f64>,
}

/// The pairs of games (one opening, colours swapped), in JSON.
#[derive(serde::Serialize, Debug)]
pub struct PairsJson {
    /// `counts[k]`: pairs in which the first engine scored `k` half points (0 to 4).
    pub counts: [u32; 5],
    /// Pairs in all.
    pub pairs: u32,
    /// The first engine's Elo over the pairs.
    pub elo: EloJson,
}

/// The state of an SPRT over the pairs, in JSON.
#[derive(serde::Serialize, Debug)]
pub struct SprtJson {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
    /// The log-likelihood ratio over the pairs.
    pub llr: f64,
    /// The bound at or below which `elo0` is accepted.
    pub lower: f64,
    /// The bound at or above which `elo1` is accepted.
    pub upper: f64,
    /// `continue`, `accept_h1` or `accept_h0`.
    pub state: &'static str,
}

impl SprtJson {
    /// Where `sprt` stands over `pairs`.
    pub fn new(sprt: &Sprt, pairs: &Pairs) -> SprtJson {
        let (llr, state) = pairs.sprt(sprt);
        let (lower, upper) = sprt.bounds();
        SprtJson {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            llr,
            lower,
            upper,
            state: state.word(),
        }
    }
}

/// How many games ended each way, in JSON ([`ENDINGS`]).
#[derive(serde::Serialize, Debug)]
pub struct EndingsJson {
    /// By a road.
    pub roads: usize,
    /// On flats.
    pub flat_wins: usize,
    /// Drawn.
    pub draws: usize,
    /// Cut off unfinished.
    pub unfinished: usize,
    /// Lost on time.
    pub on_time: usize,
    /// Forfeited.
    pub forfeits: usize,
    /// Another decisive result.
    pub other: usize,
}

/// The length of the games in plies, in JSON.
#[derive(serde::Serialize, Debug)]
pub struct LengthJson {
    /// The mean.
    pub mean: f64,
    /// The shortest game.
    pub shortest: usize,
    /// The longest game.
    pub longest: usize,
}

/// A lost game, in JSON.
#[derive(serde::Serialize, Debug)]
pub struct LostGameJson {
    /// 1-based index of the game (over the files, in the order given).
    pub game: usize,
    /// The result as written.
    pub result: String,
    /// The engine that lost.
    pub loser: String,
    /// Its colour: `White` or `Black`.
    pub colour: &'static str,
    /// A PTN Ninja link opened at the last ply (with `--links`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// `cairn report --json`: everything the text report says, as one document.
#[derive(serde::Serialize, Debug)]
pub struct ReportJson {
    /// The first line of the text: the [`summary_line`].
    pub title: String,
    /// Games in all.
    pub games: usize,
    /// The two engines, the first named first in the file.
    pub engines: Vec<EngineJson>,
    /// The pairs, if there are any.
    pub pairs: Option<PairsJson>,
    /// The SPRT over the pairs, with `--sprt`.
    pub sprt: Option<SprtJson>,
    /// How the games ended.
    pub endings: EndingsJson,
    /// The length of the games.
    pub length: LengthJson,
    /// The lost games, in file order.
    pub lost_games: Vec<LostGameJson>,
}

impl MatchReport {
    /// The report as a JSON document ([`ReportJson`]); `links` adds PTN Ninja links to the
    /// lost games.
    pub fn json(&self, links: bool) -> ReportJson {
        let mean = |(sum, n): (f64, u32)| (n > 0).then(|| sum / f64::from(n));
        let engines = self
            .engines
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let [flats, walls, capstones, spreads] = self.kinds_per_game(i);
                EngineJson {
                    name: e.name.clone(),
                    score: (&e.score).into(),
                    as_white: (&e.as_white).into(),
                    as_black: (&e.as_black).into(),
                    endings_as_white: self.endings_of(i, Color::White).into(),
                    endings_as_black: self.endings_of(i, Color::Black).into(),
                    moves_per_game: KindsJson {
                        flats,
                        walls,
                        capstones,
                        spreads,
                    },
                    seconds_per_move: mean(e.time),
                    depth_per_move: mean((e.depth.0 as f64, e.depth.1)),
                }
            })
            .collect();
        let p = &self.pairs;
        let pairs = (p.pairs() > 0).then(|| PairsJson {
            counts: p.counts,
            pairs: p.pairs(),
            elo: p.elo().into(),
        });
        let lengths: Vec<usize> = self.games.iter().map(|g| g.plies).collect();
        let lost_games = self
            .lost_games()
            .map(|(game, loser)| LostGameJson {
                game: game.index,
                result: game.result.clone(),
                loser: self.engines[loser].name.clone(),
                colour: if loser == game.white {
                    "White"
                } else {
                    "Black"
                },
                link: links.then(|| self.link(game)),
            })
            .collect();
        ReportJson {
            title: self.title(),
            games: self.games.len(),
            engines,
            pairs,
            sprt: self.sprt.map(|t| SprtJson::new(&t, p)),
            endings: EndingsJson {
                roads: self.count(Ending::Road),
                flat_wins: self.count(Ending::Flats),
                draws: self.count(Ending::Draw),
                unfinished: self.count(Ending::Unfinished),
                on_time: self.count(Ending::Time),
                forfeits: self.count(Ending::Forfeit),
                other: self.count(Ending::Other),
            },
            length: LengthJson {
                mean: lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64,
                shortest: lengths.iter().copied().min().unwrap_or(0),
                longest: lengths.iter().copied().max().unwrap_or(0),
            },
            lost_games,
        }
    }

    /// The PTN Ninja link of a game, opened at its last ply.
    fn link(&self, game: &GameSummary) -> String {
        let last = game.plies.checked_sub(1).map(|i| (i, true));
        crate::ninja::link(&game.game, Some(&self.game_name(game)), last)
    }
}

/// A match in one line, from the first engine's point of view, as `cairn match` ends and
/// `cairn report` begins: `alpha vs beta: +2 -1 =1 (4 games), score 62.5%, Elo +89 [-184, +361]`.
pub fn summary_line(names: [&str; 2], tally: &Tally) -> String {
    format!(
        "{} vs {}: +{} -{} ={} ({}), score {:.1}%, Elo {}",
        names[0],
        names[1],
        tally.wins,
        tally.losses,
        tally.draws,
        counted(tally.games().into(), "game"),
        100.0 * tally.score(),
        tally.elo()
    )
}

pub use cairn_tak::notation::counted;

/// A number with two decimals, never `-0.00` (an LLR of -0.001 prints as `0.00`).
pub fn two_decimals(x: f64) -> String {
    let text = format!("{x:.2}");
    match text.strip_prefix('-') {
        Some(digits) if digits.bytes().all(|b| b == b'0' || b == b'.') => digits.to_string(),
        _ => text,
    }
}

/// Arguments of `cairn report`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Reads a match file written by racetrack or `cairn match` (Player1/Player2 \
    tags name the engines, `{eval/depth time}` comments follow their moves). Several files \
    between the same two engines (matches run side by side, or one after another) are pooled \
    into one report, their games numbered in the order given, their pairs found in each file \
    alone.\n\n\
    Examples:\n  \
    cairn report games.ptn\n  \
    cairn report core1.ptn core2.ptn\n  \
    cairn report games.ptn --plot report.svg --links\n  \
    cairn report games.ptn --json\n  \
    cairn report monday.ptn tuesday.ptn --sprt \"elo0=0 elo1=10 alpha=0.05 beta=0.05\""
)]
pub struct ReportArgs {
    /// The match files (PTN), one or more, between the same two engines.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Also draw the match as SVG: the first engine's Elo with its 95% interval after each game,
    /// and how its games ended with each colour (wins, draws, losses; road, flats, time...).
    #[arg(long, value_name = "SVG")]
    pub plot: Option<PathBuf>,
    /// Also list a PTN Ninja link for each lost game, opened at its last ply.
    #[arg(long)]
    pub links: bool,
    /// Write the report as one JSON document instead of text (the same numbers; the links too
    /// with --links).
    #[arg(long)]
    pub json: bool,
    /// Also judge the pairs by an SPRT, "elo0=E0 elo1=E1 alpha=A beta=B" (as `cairn match
    /// --sprt`): where a test stands over matches played in several runs, pooled.
    #[arg(long, value_name = "SPRT")]
    pub sprt: Option<Sprt>,
}

/// Runs `cairn report`: the text on stdout, the picture to `plot`; `Err` is the one-line message.
pub fn run(args: &ReportArgs) -> Result<(), String> {
    let mut report = pooled(&args.files)?;
    report.sprt = args.sprt;
    if args.json {
        let json = serde_json::to_string_pretty(&report.json(args.links))
            .map_err(|e| format!("--json: {e}"))?;
        println!("{json}");
        if let Some(path) = &args.plot {
            write_plot(&report, path)?;
        }
        return Ok(());
    }
    print!("{}", report.text());
    if args.links {
        println!("\nLost games in PTN Ninja:");
        for (game, loser) in report.lost_games() {
            let colour = if loser == game.white {
                "White"
            } else {
                "Black"
            };
            println!(
                "game {} ({}): {} lost as {colour}: {}",
                game.index,
                game.result,
                report.engines[loser].name,
                report.link(game)
            );
        }
    }
    if let Some(path) = &args.plot {
        write_plot(&report, path)?;
    }
    Ok(())
}

/// The report of the games of several match files between the same two engines, in file
/// order. Each file is read alone first, so that an error names its file and its own game
/// number.
pub fn pooled(files: &[PathBuf]) -> Result<MatchReport, String> {
    let mut texts = Vec::with_capacity(files.len());
    // Pairs are found in each file alone (rounds restart in every file), each file's from its
    // own first engine's view, turned to the first file's where that differs.
    let mut pairs = Pairs::default();
    let mut first: Option<(String, [String; 2])> = None;
    let mut first_engine = None;
    let mut last = None;
    for file in files {
        let name = file.display();
        let text = std::fs::read_to_string(file).map_err(|e| format!("{name}: {e}"))?;
        let report = MatchReport::from_ptn(&text).map_err(|e| format!("{name}: {e}"))?;
        let mut pair = [0, 1].map(|i| report.engines[i].name.clone());
        pair.sort();
        match &first {
            None => first = Some((name.to_string(), pair)),
            Some((first_name, first_pair)) if *first_pair != pair => {
                return Err(format!(
                    "{name}: its engines `{}` and `{}` are not those of {first_name} (`{}` and \
                     `{}`), so the files cannot be pooled",
                    pair[0], pair[1], first_pair[0], first_pair[1]
                ))
            }
            Some(_) => {}
        }
        let first_engine = first_engine.get_or_insert_with(|| report.engines[0].name.clone());
        pairs.merge(if report.engines[0].name == *first_engine {
            report.pairs
        } else {
            report.pairs.mirrored()
        });
        texts.push(text);
        last = Some(report);
    }
    match last {
        Some(report) if texts.len() == 1 => Ok(report),
        Some(_) => {
            let mut report = MatchReport::from_ptn(&texts.join("\n\n"))?;
            report.pairs = pairs;
            Ok(report)
        }
        None => Err("no match file given".to_string()),
    }
}

/// Draws the match picture of `report` to `path`.
pub fn write_plot(report: &MatchReport, path: &Path) -> Result<(), String> {
    let svg = crate::plot::match_svg(&report.graph())?;
    std::fs::write(path, svg).map_err(|e| format!("--plot {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_read_well() {
        assert_eq!(two_decimals(-0.001), "0.00");
        assert_eq!(two_decimals(-0.0), "0.00");
        assert_eq!(two_decimals(-0.0051), "-0.01");
        assert_eq!(two_decimals(2.944), "2.94");
    }

    #[test]
    fn eval_comments_of_both_runners() {
        assert_eq!(eval_comment("+0.74/13 0.33s"), Some((13, Some(0.33))));
        assert_eq!(eval_comment("-2.15/14 0.60s"), Some((14, Some(0.60))));
        assert_eq!(eval_comment("+R3/5 56.5%"), Some((5, None)));
        assert_eq!(eval_comment("book"), None);
        assert_eq!(eval_comment("see 3/4 of it"), None);
    }

    #[test]
    fn endings_read_the_termination() {
        let end = |r, t| ending_of(r, t, 1).unwrap();
        assert_eq!(end("0-R", ""), Ending::Road);
        assert_eq!(end("1-0", "cairn-b lost on time (no move)"), Ending::Time);
        assert_eq!(end("0-1", "x made an illegal move: a1"), Ending::Forfeit);
        assert_eq!(end("1-0", ""), Ending::Other);
        assert!(ending_of("2-0", "", 4).unwrap_err().contains("game 4"));
    }
}
