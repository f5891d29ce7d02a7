//! Referee for one game between two TEI engines, by the rules and by the clock.
//!
//! Like racetrack: the full move list is sent with every `position`; the clock runs from just
//! before `position` is written until `bestmove` is read, and a move that arrives after the
//! remaining time is a loss on time. A move that is not PTN, or not legal, loses; so does a crash.
//! A third occurrence of a position since the last placement is a draw, and a game longer than
//! the ply limit is stopped unfinished (`*`, scored as a draw). A game the match's interrupt cuts
//! short has no record.

use super::process::{EngineProcess, ProcessError};
use cairn_tak::board::{Color, GameResult, Komi, Position};
use cairn_tak::notation::{parse_move, PtnMove};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Fischer time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Starting time, ms.
    pub base_ms: u64,
    /// Increment per move, ms.
    pub inc_ms: u64,
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// Parses `base+inc` in seconds, such as `10+0.1` or `60+0.6`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| {
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                .ok_or_else(|| format!("bad time control `{s}`: expected seconds like 10+0.1"))
        };
        let (base, inc) = (secs(base)?, secs(inc)?);
        if base <= 0.0 {
            return Err(format!(
                "bad time control `{s}`: the base time must be positive"
            ));
        }
        Ok(TimeControl {
            base_ms: (base * 1000.0).round() as u64,
            inc_ms: (inc * 1000.0).round() as u64,
        })
    }
}

impl std::fmt::Display for TimeControl {
    /// `base+inc` in seconds, as read: `10+0.1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base_ms as f64 / 1000.0,
            self.inc_ms as f64 / 1000.0
        )
    }
}

/// One ply as played.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// Canonical PTN.
    pub ptn: String,
    /// `(centiflats from White's view, depth, seconds)` from the engine's last `info`, if any.
    pub eval: Option<(i64, u32, f64)>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// Opening plies from the book.
    pub opening: Vec<String>,
    /// Plies played by the engines.
    pub moves: Vec<PlayedMove>,
    /// PTN result: `R-0`, `0-R`, `F-0`, `0-F`, `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why the game ended.
    pub termination: String,
    /// The winner, if any.
    pub winner: Option<Color>,
    /// The side whose engine crashed or stopped answering: it is restarted before the next game.
    pub broken: Option<Color>,
}

/// Everything fixed for the games of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The komi.
    pub komi: Komi,
    /// The clock.
    pub tc: TimeControl,
    /// Plies after which a game is stopped unfinished.
    pub max_plies: u32,
    /// Search each move to this many nodes (`go nodes N`) instead of by the clock: games that
    /// do not depend on the machine's load, for comparing two versions of one engine whose
    /// speed per node is the same. The clock is not kept (a move may take as long as it needs,
    /// up to `NODE_MOVE_LIMIT`, two minutes).
    pub nodes: Option<u64>,
}

/// In a game by nodes, an engine that has not answered after this long is lost (hung).
pub const NODE_MOVE_LIMIT: Duration = Duration::from_secs(120);

/// Plays one game on an `N`×`N` board; `engines[0]` plays White. `None` if the match was
/// interrupted before the game ended.
pub fn play<const N: usize>(
    engines: [&mut EngineProcess; 2],
    opening: &[String],
    settings: &GameSettings,
) -> Option<GameRecord> {
    let names = [engines[0].spec.name.clone(), engines[1].spec.name.clone()];
    let mut record = GameRecord {
        white: names[0].clone(),
        black: names[1].clone(),
        opening: opening.to_vec(),
        moves: Vec::new(),
        result: "*".to_string(),
        termination: String::new(),
        winner: None,
        broken: None,
    };
    let [white, black] = engines;
    let mut engines = [white, black];
    let finish = |record: &mut GameRecord, winner: Option<Color>, result: &str, why: String| {
        record.winner = winner;
        record.result = result.to_string();
        record.termination = why;
    };
    for (i, engine) in engines.iter_mut().enumerate() {
        let started = engine
            .send(&format!("teinewgame {N}"))
            .and_then(|_| engine.ready());
        if let Err(e) = started {
            if e == ProcessError::Interrupted {
                return None;
            }
            let loser = Color::ALL[i];
            let result = if loser == Color::White { "0-1" } else { "1-0" };
            finish(
                &mut record,
                Some(!loser),
                result,
                format!("{} {e} at the start", names[i]),
            );
            record.broken = Some(loser);
            return Some(record);
        }
    }
    let mut pos = Position::<N>::start();
    pos.set_komi(settings.komi);
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    for text in opening {
        let mv = parse_move(&pos, text).expect("openings are checked when the book is loaded");
        pos.make(mv);
        moves.push(mv.ptn::<N>().to_string());
        if mv.is_placement() {
            seen.clear();
        }
        *seen.entry(pos.hash()).or_default() += 1;
    }
    let mut clock = [settings.tc.base_ms as i64; 2];
    loop {
        if let Some(result) = pos.result() {
            let why = match result {
                GameResult::Road(_) => "road",
                GameResult::Flats(_) => "flat count",
                GameResult::Draw => "flat count tie",
            };
            finish(&mut record, result.winner(), result.ptn(), why.to_string());
            return Some(record);
        }
        if seen.get(&pos.hash()).copied().unwrap_or(0) >= 3 {
            finish(
                &mut record,
                None,
                "1/2-1/2",
                "threefold repetition".to_string(),
            );
            return Some(record);
        }
        if pos.ply() >= settings.max_plies {
            finish(
                &mut record,
                None,
                "*",
                format!("stopped after {} plies", settings.max_plies),
            );
            return Some(record);
        }
        let side = pos.side_to_move();
        let me = side.index();
        let forfeit = |record: &mut GameRecord, why: String| {
            let result = if side == Color::White { "0-1" } else { "1-0" };
            record.winner = Some(!side);
            record.result = result.to_string();
            record.termination = format!("{} {why}", names[me]);
        };
        let engine = &mut engines[me];
        let started = Instant::now();
        let go = match settings.nodes {
            Some(nodes) => format!("go nodes {nodes}"),
            None => format!(
                "go wtime {} btime {} winc {} binc {}",
                clock[0].max(0),
                clock[1].max(0),
                settings.tc.inc_ms,
                settings.tc.inc_ms
            ),
        };
        let sent = engine
            .send(&format!("position startpos moves {}", moves.join(" ")))
            .and_then(|_| engine.send(&go));
        // A hung engine is given a second beyond its clock before it is declared lost.
        let deadline = match settings.nodes {
            Some(_) => started + NODE_MOVE_LIMIT,
            None => started + Duration::from_millis(clock[me].max(0) as u64 + 1000),
        };
        let reply = sent.and_then(|_| read_bestmove(engine, deadline));
        let elapsed = started.elapsed();
        let (text, eval) = match reply {
            Ok(r) => r,
            Err(ProcessError::Interrupted) => return None,
            Err(ProcessError::Timeout) => {
                forfeit(&mut record, "lost on time (no move)".to_string());
                record.broken = Some(side);
                return Some(record);
            }
            Err(ProcessError::Closed) => {
                let how = engine.exit_status();
                forfeit(&mut record, format!("crashed: {how}"));
                record.broken = Some(side);
                return Some(record);
            }
            Err(e) => {
                forfeit(&mut record, format!("crashed: {e}"));
                record.broken = Some(side);
                return Some(record);
            }
        };
        let used = elapsed.as_millis() as i64;
        if settings.nodes.is_none() && used > clock[me] {
            forfeit(
                &mut record,
                format!("lost on time ({used} ms with {} ms left)", clock[me]),
            );
            return Some(record);
        }
        clock[me] += settings.tc.inc_ms as i64 - used;
        if text.parse::<PtnMove>().is_err() {
            forfeit(&mut record, format!("sent a malformed move `{text}`"));
            return Some(record);
        }
        let mv = match parse_move(&pos, &text) {
            Ok(mv) => mv,
            Err(e) => {
                forfeit(&mut record, format!("made an illegal move: {e}"));
                return Some(record);
            }
        };
        pos.make(mv);
        let ptn = mv.ptn::<N>().to_string();
        moves.push(ptn.clone());
        if mv.is_placement() {
            seen.clear();
        }
        *seen.entry(pos.hash()).or_default() += 1;
        let white_view = |cp: i64| if side == Color::White { cp } else { -cp };
        record.moves.push(PlayedMove {
            ptn,
            eval: eval.map(|(cp, depth)| (white_view(cp), depth, elapsed.as_secs_f64())),
        });
    }
}

/// Reads until `bestmove`, keeping the last `info` score and depth.
fn read_bestmove(
    engine: &mut EngineProcess,
    deadline: Instant,
) -> Result<(String, Option<(i64, u32)>), ProcessError> {
    let mut eval = None;
    loop {
        let line = engine.recv(deadline)?;
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("bestmove") => {
                return Ok((tokens.next().unwrap_or("").to_string(), eval));
            }
            Some("info") => {
                let words: Vec<&str> = line.split_whitespace().collect();
                let find = |key: &str| words.windows(2).find(|w| w[0] == key).map(|w| w[1]);
                let depth = find("depth").and_then(|d| d.parse().ok());
                let cp = words
                    .windows(3)
                    .find(|w| w[0] == "score" && w[1] == "cp")
                    .and_then(|w| w[2].parse().ok());
                if let (Some(cp), Some(depth)) = (cp, depth) {
                    eval = Some((cp, depth));
                }
            }
            _ => {}
        }
    }
}
