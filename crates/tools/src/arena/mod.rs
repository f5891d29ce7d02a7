//! `cairn match`: an engine-vs-engine runner for any TEI engines, Cairn included.
//!
//! Games are scheduled in pairs: each opening of the book is played twice with the colours
//! swapped, from the opening `book_start` on, wrapping around (without a book, every game starts
//! from the empty board). `concurrency` games run at once, each slot with its own pair of engine
//! processes, reused from game to game and restarted after a crash. Every finished game is
//! appended to the PTN output with its termination and per-move `{eval/depth time}` comments, as
//! soon as it ends (the file is opened before the first game; a failed write stops the match and
//! says how many games the file holds). The progress, with the Elo estimate and the SPRT's LLR
//! between its bounds, goes to stderr ([`crate::progress`]): a bar on a terminal, a line per
//! game elsewhere. `summary` prints the result (text or `--json`) and draws `--plot`. With an
//! SPRT the match stops as soon as
//! the test decides; the test runs on the finished pairs (`stats`: the two games of an opening
//! share its colour bias, which the pairs take out). A first Ctrl-C (or SIGTERM) ends the
//! games in progress, which count nowhere, and the result covers the finished ones
//! ([`Interrupt`]). With `resume` the games the PTN file already holds count first, and only
//! the rounds it lacks are played (the `resume` module).

mod args;
mod book;
mod game;
mod interrupt;
mod process;
mod resume;
mod stats;
mod summary;

pub use args::MatchArgs;
pub use game::{GameRecord, GameSettings, TimeControl};
pub use interrupt::Interrupt;
pub use process::{EngineProcess, EngineSpec};
pub use stats::{Elo, Pairs, Sprt, SprtState, Tally};
pub use summary::{main, MatchJson};

use crate::output::AppendFile;
use crate::progress::Progress;
use crate::report::Ending;
use cairn_tak::board::Color;
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::{PtnGame, PtnMove};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// A whole match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Board size.
    pub size: usize,
    /// Clock, komi and ply limit.
    pub settings: GameSettings,
    /// Number of games (rounded up to whole pairs).
    pub games: usize,
    /// Book text (one opening per line), if any.
    pub book: Option<String>,
    /// The book's opening (0-based) of the first pair; later pairs take the next ones and wrap
    /// around. Two matches run side by side start far apart so they do not repeat each other.
    pub book_start: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Where to append the games as PTN.
    pub ptn: Option<PathBuf>,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// Go on with the match that `ptn` holds (see `resume`).
    pub resume: bool,
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// Results from the first engine's point of view.
    pub tally: Tally,
    /// The finished pairs (both games of an opening), from the first engine's point of view.
    pub pairs: Pairs,
    /// Games lost by forfeit (crash, time, illegal move), per engine.
    pub forfeits: [u32; 2],
    /// Every game as PTN, in the order the games finished (what `--plot` draws).
    pub games: Vec<String>,
    /// Every game in short, in the order the games finished.
    pub results: Vec<GameResult>,
    /// Why the match stopped before its last game, when writing the PTN failed: the message
    /// says what the file holds.
    pub write_error: Option<String>,
    /// What interrupted the match (`SIGINT`, `SIGTERM`), if anything did.
    pub interrupted: Option<&'static str>,
    /// Games in progress when the match was interrupted: they count nowhere.
    pub cut_short: usize,
}

impl MatchOutcome {
    /// Why the match stopped before its last game, if it did: a failed write of its PTN, or an
    /// interrupt. The message says how many games count.
    pub fn stopped(&self) -> Option<String> {
        let finished = crate::report::counted(self.results.len() as u64, "game");
        if let Some(e) = &self.write_error {
            return Some(format!("{e}; the match stopped after {finished}"));
        }
        self.interrupted.map(|signal| {
            let left_out = match self.cut_short {
                0 => String::new(),
                n => format!(
                    "; {} in progress left out",
                    crate::report::counted(n as u64, "game")
                ),
            };
            format!("interrupted by {signal} after {finished}{left_out}")
        })
    }
}

/// One finished game of a match, in short.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GameResult {
    /// The game's number in the schedule (the PTN's Round), 1-based.
    pub round: usize,
    /// White's engine.
    pub white: String,
    /// Black's engine.
    pub black: String,
    /// The PTN result (`R-0`, `1/2-1/2`, `*`, ...).
    pub result: String,
    /// Why the game ended.
    pub termination: String,
    /// Plies played, the book's included.
    pub plies: usize,
}

/// The score so far, from the first engine's point of view.
#[derive(Debug)]
struct Standing {
    tally: Tally,
    /// Games lost by forfeit, per engine.
    forfeits: [u32; 2],
    /// The finished pairs.
    pairs: Pairs,
    /// Per pair, the first engine's points in its first finished game until the other ends.
    half: Vec<Option<f64>>,
}

impl Standing {
    fn new(pairs: usize) -> Standing {
        Standing {
            tally: Tally::default(),
            forfeits: [0; 2],
            pairs: Pairs::default(),
            half: vec![None; pairs],
        }
    }

    /// Counts the game at `index` in the schedule (even: the first engine is White) by its PTN
    /// result and `Termination`.
    fn count(&mut self, index: usize, result: &str, termination: &str) {
        let winner = crate::report::winner_of(result);
        let first_color = if index % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let points = match winner {
            Some(c) if c == first_color => {
                self.tally.wins += 1;
                1.0
            }
            Some(_) => {
                self.tally.losses += 1;
                0.0
            }
            None => {
                self.tally.draws += 1;
                0.5
            }
        };
        match self.half[index / 2].take() {
            Some(other) => self.pairs.add(other, points),
            None => self.half[index / 2] = Some(points),
        }
        // Read as `cairn report` reads it: a loss on time or a forfeit.
        let ending = crate::report::ending_of(result, termination, index + 1);
        if ending.is_ok_and(|e| matches!(e, Ending::Time | Ending::Forfeit)) {
            let loser_is_first = winner.is_some_and(|w| w != first_color);
            self.forfeits[usize::from(!loser_is_first)] += 1;
        }
    }

    /// The progress message: the score, the SPRT's LLR between its bounds and whether it
    /// decided.
    fn line(&self, config: &MatchConfig) -> (String, bool) {
        let t = &self.tally;
        let mut line = format!(
            "{} +{} -{} ={}, elo {:.1}",
            config.engines[0].name,
            t.wins,
            t.losses,
            t.draws,
            t.elo(),
        );
        let mut decided = false;
        if let Some(sprt) = &config.sprt {
            let (llr, decision) = self.pairs.sprt(sprt);
            let (lower, upper) = sprt.bounds();
            let two = crate::report::two_decimals;
            let pairs = crate::report::counted(self.pairs.pairs().into(), "pair");
            line.push_str(&format!(
                ", llr {} [{}, {}] ({pairs})",
                two(llr),
                two(lower),
                two(upper)
            ));
            decided = decision != SprtState::Continue;
        }
        (line, decided)
    }
}

/// Runs a match; errors only for setup problems (bad book, engines that cannot start, with
/// `resume` a match file that holds another match). Once `interrupt` is requested no game
/// starts, the games in progress end without a result, and the outcome covers the games that
/// finished.
pub fn run(config: &MatchConfig, interrupt: &Interrupt) -> Result<MatchOutcome, String> {
    let openings: Vec<Vec<String>> = match &config.book {
        Some(text) => cairn_tak::with_size!(config.size, |N| book::load::<N>(text),
            else Err(format!("unsupported size {}", config.size)))
        .map_err(|e| format!("book: {e}"))?,
        None => vec![Vec::new()],
    };
    if openings.is_empty() {
        return Err("book: no openings".to_string());
    }
    if config.book.is_some() && config.book_start >= openings.len() {
        return Err(format!(
            "book start {}: the book has {} openings",
            config.book_start + 1,
            openings.len()
        ));
    }
    let pairs = config.games.div_ceil(2).max(1);
    let total = pairs * 2;
    let kept = match (&config.ptn, config.resume) {
        (Some(path), true) => resume::load(config, &openings, total, path)?,
        _ => Vec::new(),
    };
    // Opened before any game, so that a bad path fails at once.
    let ptn = config
        .ptn
        .as_deref()
        .map(|path| AppendFile::open("--ptn", path).map(|f| f.holding(kept.len())))
        .transpose()?;
    let appending_to = ptn
        .as_ref()
        .filter(|f| !config.resume && !f.is_empty())
        .map(|f| f.path().display().to_string());
    let ptn = Mutex::new(ptn);
    for spec in &config.engines {
        let mut probe =
            EngineProcess::spawn(spec, interrupt).map_err(|e| format!("{}: {e}", spec.name))?;
        probe
            .handshake(config.settings.komi)
            .map_err(|e| format!("{}: {e} during the handshake", spec.name))?;
        probe.quit();
    }
    let mut standing = Standing::new(pairs);
    let mut done = vec![false; total];
    for k in &kept {
        standing.count(k.index, &k.result.result, &k.result.termination);
        done[k.index] = true;
    }
    let (kept_line, decided) = standing.line(config);
    // An SPRT the kept games decided plays no more.
    let pending: Vec<usize> = (0..total).filter(|&i| !done[i] && !decided).collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let state = Mutex::new(standing);
    let games = Mutex::new(kept.iter().map(|k| k.text.clone()).collect::<Vec<_>>());
    let results = Mutex::new(kept.into_iter().map(|k| k.result).collect::<Vec<_>>());
    let write_error = Mutex::new(None);
    let cut_short = AtomicUsize::new(0);
    let progress = Progress::new(
        "match",
        pending.len() as u64,
        "games",
        std::time::Duration::ZERO,
    );
    if let Some(path) = appending_to {
        progress.note(&format!(
            "--ptn {path} is not empty: the games are appended after what it holds (--resume goes \
             on with a match it holds)"
        ));
    }
    let kept_count = results.lock().expect("match results").len();
    if kept_count > 0 {
        progress.note(&format!(
            "resumed: {} kept ({kept_line}), {} to play",
            crate::report::counted(kept_count as u64, "game"),
            pending.len()
        ));
    }
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, pending.len().max(1)) {
            scope.spawn(|| {
                let mut slot: [Option<EngineProcess>; 2] = [None, None];
                while let Some(&index) = pending.get(next.fetch_add(1, Relaxed)) {
                    if stop.load(Relaxed) || interrupt.requested() {
                        break;
                    }
                    let opening = &openings[(config.book_start + index / 2) % openings.len()];
                    let first_is_white = index % 2 == 0;
                    let Some(record) =
                        play_one(config, interrupt, &mut slot, opening, first_is_white)
                    else {
                        cut_short.fetch_add(1, Relaxed);
                        break;
                    };
                    let mut standing = state.lock().expect("match state");
                    // The game goes to the file first: a game counts only once it is kept.
                    if write_error.lock().expect("error").is_some() {
                        break;
                    }
                    let text = to_ptn(config, &record, index + 1);
                    if let Some(file) = ptn.lock().expect("match file").as_mut() {
                        // A blank line after each game, before the next one's tags.
                        if let Err(e) = file.append(&format!("{text}\n"), "game") {
                            *write_error.lock().expect("error") = Some(e);
                            stop.store(true, Relaxed);
                            break;
                        }
                    }
                    standing.count(index, &record.result, &record.termination);
                    games.lock().expect("match games").push(text);
                    results.lock().expect("match results").push(GameResult {
                        round: index + 1,
                        white: record.white.clone(),
                        black: record.black.clone(),
                        result: record.result.clone(),
                        termination: record.termination.clone(),
                        plies: record.opening.len() + record.moves.len(),
                    });
                    // The score first: a bar on a narrow terminal cuts the message's end.
                    let (mut line, decided) = standing.line(config);
                    if decided {
                        stop.store(true, Relaxed);
                    }
                    line.push_str(&format!(
                        "; last {} vs {}: {} ({})",
                        record.white, record.black, record.result, record.termination
                    ));
                    progress.inc(1, || line);
                }
                for engine in slot.into_iter().flatten() {
                    engine.quit();
                }
            });
        }
    });
    progress.finish();
    let standing = state.into_inner().expect("match state");
    Ok(MatchOutcome {
        tally: standing.tally,
        pairs: standing.pairs,
        forfeits: standing.forfeits,
        games: games.into_inner().expect("match games"),
        results: results.into_inner().expect("match results"),
        write_error: write_error.into_inner().expect("error"),
        interrupted: interrupt.reason(),
        cut_short: cut_short.into_inner(),
    })
}

/// Plays one game with the slot's engines, (re)starting any that is not running; `None` if the
/// match was interrupted before it ended.
fn play_one(
    config: &MatchConfig,
    interrupt: &Interrupt,
    slot: &mut [Option<EngineProcess>; 2],
    opening: &[String],
    first_is_white: bool,
) -> Option<GameRecord> {
    for (i, engine) in slot.iter_mut().enumerate() {
        if engine.is_none() {
            let spec = &config.engines[i];
            match EngineProcess::spawn(spec, interrupt)
                .and_then(|mut e| e.handshake(config.settings.komi).map(|_| e))
            {
                Ok(e) => *engine = Some(e),
                Err(e) => log::error!("{}: {e}", spec.name),
            }
        }
    }
    let [a, b] = slot;
    let record = match (a.as_mut(), b.as_mut()) {
        (Some(a), Some(b)) => {
            let engines = if first_is_white { [a, b] } else { [b, a] };
            cairn_tak::with_size!(config.size, |N| game::play::<N>(engines, opening, &config.settings),
                else unreachable!("the size was checked with the book"))?
        }
        _ if interrupt.requested() => return None,
        _ => {
            let first_failed = a.is_none();
            let loser_white = first_failed == first_is_white;
            let names = [&config.engines[0].name, &config.engines[1].name];
            let (white, black) = if first_is_white {
                (names[0], names[1])
            } else {
                (names[1], names[0])
            };
            GameRecord {
                white: white.clone(),
                black: black.clone(),
                opening: opening.to_vec(),
                moves: Vec::new(),
                result: if loser_white { "0-1" } else { "1-0" }.to_string(),
                termination: format!(
                    "{} crashed: could not be started",
                    names[usize::from(!first_failed)]
                ),
                winner: Some(if loser_white {
                    Color::Black
                } else {
                    Color::White
                }),
                broken: Some(if loser_white {
                    Color::White
                } else {
                    Color::Black
                }),
            }
        }
    };
    // An engine that crashed or stopped answering is stopped (killed if it must be) and
    // started afresh for the next game: a hung one would otherwise lose every game after.
    if let Some(broken) = record.broken {
        let broken_first = (broken == Color::White) == first_is_white;
        slot[usize::from(!broken_first)] = None;
    }
    Some(record)
}

/// The game as PTN text ([`PtnGame::to_ptn`]): the match's tags, the book plies marked
/// `{book}`, and each engine ply with the evaluation its engine reported last
/// (`{+0.45/12 0.65s}`: flats from White's view, depth, seconds).
pub fn to_ptn(config: &MatchConfig, record: &GameRecord, round: usize) -> String {
    let s = &config.settings;
    // A match by nodes keeps no clock: its Event tag names the node count instead.
    let clock = s.nodes.is_none().then(|| ("Clock", s.tc.to_string()));
    let event = match s.nodes {
        Some(n) => format!("cairn match, {n} nodes a move"),
        None => "cairn match".to_string(),
    };
    let tags = [
        Some(("Event", event)),
        Some(("Date", cairn_engine::timestamp::today())),
        Some(("Round", round.to_string())),
        Some(("Player1", record.white.clone())),
        Some(("Player2", record.black.clone())),
        Some(("Size", config.size.to_string())),
        Some(("Komi", s.komi.to_string())),
        clock,
        Some(("Result", record.result.clone())),
        Some(("Termination", record.termination.clone())),
    ];
    let book = record.opening.iter().map(|m| (m, Some("book".to_string())));
    let played = record.moves.iter().map(|m| {
        let eval = m
            .eval
            .map(|(cp, depth, secs)| format!("{:+.2}/{depth} {secs:.2}s", cp as f64 / 100.0));
        (&m.ptn, eval)
    });
    let plies = book
        .chain(played)
        .map(|(text, comment)| {
            let mv = text
                .parse::<PtnMove>()
                .expect("a game record holds moves the rules have read");
            PtnPly::new(mv, comment.into_iter().collect())
        })
        .collect();
    PtnGame {
        tags: tags
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        comments: Vec::new(),
        plies,
        result: Some(record.result.clone()),
    }
    .to_ptn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::{PlayedMove, TimeControl};
    use cairn_tak::board::Komi;
    use cairn_tak::notation::parse_file;

    /// A match game is written with its tags, book plies marked, each engine ply's evaluation
    /// as a comment, and the result; and reads back as the same moves and comments.
    #[test]
    fn a_match_game_as_ptn() {
        let spec = "name=a cmd=cairn".parse::<EngineSpec>();
        let config = MatchConfig {
            engines: [spec.clone().unwrap(), spec.unwrap()],
            size: 5,
            settings: GameSettings {
                komi: "2.5".parse::<Komi>().unwrap(),
                tc: TimeControl {
                    base_ms: 10_000,
                    inc_ms: 100,
                },
                max_plies: 300,
                nodes: None,
            },
            games: 2,
            book: None,
            book_start: 0,
            concurrency: 1,
            ptn: None,
            sprt: None,
            resume: false,
        };
        let played = |ptn: &str, eval| PlayedMove {
            ptn: ptn.to_string(),
            eval,
        };
        let record = GameRecord {
            white: "a".to_string(),
            black: "b \"q\"".to_string(),
            opening: vec!["a1".to_string(), "e5".to_string()],
            moves: vec![
                played("c3", Some((45, 12, 0.654))),
                played("2b2>11", None),
                played("d4", Some((-120, 9, 1.0))),
            ],
            result: "R-0".to_string(),
            termination: "road".to_string(),
            winner: Some(Color::White),
            broken: None,
        };
        let text = to_ptn(&config, &record, 3);
        let date = cairn_engine::timestamp::today();
        assert_eq!(
            text,
            format!(
                "[Event \"cairn match\"]\n[Date \"{date}\"]\n[Round \"3\"]\n[Player1 \"a\"]\n\
                 [Player2 \"b \\\"q\\\"\"]\n[Size \"5\"]\n[Komi \"2.5\"]\n[Clock \"10+0.1\"]\n\
                 [Result \"R-0\"]\n[Termination \"road\"]\n\n\
                 1. a1 {{book}} e5 {{book}}\n2. c3 {{+0.45/12 0.65s}} 2b2>11\n\
                 3. d4 {{-1.20/9 1.00s}} R-0\n"
            )
        );
        let game = &parse_file(&text).unwrap()[0];
        assert_eq!(game.plies.len(), 5);
        assert_eq!(game.plies[2].comments, ["+0.45/12 0.65s"]);
        assert_eq!(game.result.as_deref(), Some("R-0"));
    }
}
