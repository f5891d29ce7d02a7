//! The session target: fuzz lines fed one at a time to the real TEI loop
//! ([`tei::run_session`]) on its own thread, over channels, as `cairn ws` runs it.
//!
//! After each line the driver sends `isready` and reads everything up to `readyok`, so every
//! answer belongs to one line, and a line that is not answered within the timeout is a hang.
//! A `go` is passed on as written (absurd limits included); unless its limits end it soon
//! (few nodes, a low depth, a short time), the driver sends `stop` right after it, and then
//! waits for its one `bestmove`. The session's table has 2 MiB of budget, so `setoption name
//! Hash` is clamped as in `cairn ws`; an accepted `setoption name Threads` above 2 is followed by
//! `setoption name Threads value 2`, so that later searches stay short.
//!
//! The driver keeps its own model of the session (board size, whether `teinewgame` fixed it,
//! the position, from the notation module rather than the engine) and checks each answer
//! against it:
//! - every line written is a TEI reply, and none says that a panic was caught or that a search
//!   died without a best move;
//! - a line the command parser refuses gets exactly one `info string error` naming the error;
//! - `position` is refused (one error, position kept) exactly when the rules refuse it;
//! - `setoption` and `teinewgame` are refused exactly when their values are bad;
//! - each accepted `go` gets exactly one `bestmove`, legal in the position, and one error per
//!   ignored part;
//! - every 64 lines, and before a session ends, a valid position and `go nodes 300` still work.

use super::{input, other_panics, Failure, Shared, Target, Verdict};
use cairn_engine::engine::{Options, Start};
use cairn_engine::tei::{
    self, ChannelInput, ChannelOutput, GoCommand, PositionCommand, Responder, SessionSettings,
    TableBudget, TeiCommand, TeiError,
};
use cairn_search::rng::Rng;
use cairn_tak::notation::{parse_move, play_line, tps, Tps};
use std::collections::VecDeque;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Lines between two checks that a valid position and search still work.
const CHECK_EVERY: u64 = 64;
/// Lines after which a session is ended and a fresh one started.
const SESSION_LINES: u64 = 1024;
/// Lines kept to show what led to a failure.
const HISTORY: usize = 24;

/// A session worker: claims inputs, feeds them to its session, records the verdicts.
pub(super) fn work(shared: &Shared, worker: usize, timeout: Duration) {
    let mut driver: Option<Driver> = None;
    let mut rng = Rng::new(shared.seed ^ worker as u64);
    let mut fed = 0u64;
    while let Some(index) = shared.claim() {
        let text = input(Target::TeiSession, shared.seed, index, &shared.corpus);
        let session = driver.get_or_insert_with(|| Driver::start(timeout));
        fed += 1;
        let mut result = session.feed(&text);
        if let Ok(verdict) = result {
            if !session.ended && fed % CHECK_EVERY == 0 {
                result = session.check(&mut rng, &shared.corpus).map(|()| verdict);
            }
        }
        if let Ok(verdict) = result {
            if session.ended || fed % SESSION_LINES == 0 {
                result = session.close().map(|()| verdict);
                driver = None;
            }
        }
        let problem = match result {
            Ok(verdict) => {
                shared.record(Ok(verdict));
                continue;
            }
            Err(problem) => problem,
        };
        let mut problem = problem;
        for panic in other_panics() {
            problem += &format!("; panic: {panic}");
        }
        let hang = problem.starts_with("hang");
        shared.record(Err(Failure {
            target: Target::TeiSession,
            index,
            input: driver.as_ref().map_or(format!("{text:?}"), Driver::history),
            problem,
        }));
        if hang {
            // The stuck session cannot be ended; the run stops.
            shared.stop.store(true, Relaxed);
            std::mem::forget(driver.take());
            return;
        }
        // Start afresh, leaving the broken session to end on its own.
        driver = None;
    }
    if let Some(mut session) = driver {
        let result = session
            .check(&mut rng, &shared.corpus)
            .and_then(|()| session.close());
        if let Err(problem) = result {
            shared.record(Err(Failure {
                target: Target::TeiSession,
                index: shared.total,
                input: "(the end of the session)".to_string(),
                problem,
            }));
        }
    }
}

/// One running session and the driver's model of it.
struct Driver {
    lines_in: Sender<Vec<u8>>,
    lines_out: Receiver<String>,
    thread: Option<JoinHandle<bool>>,
    timeout: Duration,
    /// The board size.
    size: usize,
    /// A `teinewgame` fixed the size.
    started: bool,
    /// The position, as TPS.
    position: String,
    /// The session ended (`quit`).
    ended: bool,
    /// The last lines fed, for failure reports.
    history: VecDeque<String>,
}

impl Driver {
    fn start(timeout: Duration) -> Driver {
        let (lines_in, input) = channel::<Vec<u8>>();
        let (output, lines_out) = channel::<String>();
        // 2 MiB for the session's table: `setoption name Hash` beyond it is clamped.
        let budget = TableBudget::new(2, 1).expect("2 MiB for one session is a valid budget");
        let settings = SessionSettings {
            table: Some(budget.join(2)),
            searching: Default::default(),
        };
        let out = Responder::new(ChannelOutput::new(output));
        let thread = std::thread::Builder::new()
            .name("fuzz-tei-session".to_string())
            .spawn(move || tei::run_session(ChannelInput::new(input), out, settings))
            .ok();
        Driver {
            lines_in,
            lines_out,
            thread,
            timeout,
            size: 6,
            started: false,
            position: "x6/x6/x6/x6/x6/x6 1 1".to_string(),
            ended: false,
            history: VecDeque::new(),
        }
    }

    fn history(&self) -> String {
        let lines: Vec<String> = self.history.iter().map(|l| format!("{l:?}")).collect();
        format!(
            "(the session's last lines, oldest first)\n    {}",
            lines.join("\n    ")
        )
    }

    fn send(&mut self, line: &str) {
        // A session that ended reads nothing; what it did not answer shows as a failure.
        let _ = self.lines_in.send(line.as_bytes().to_vec());
    }

    /// Feeds one fuzz line and checks the answers.
    fn feed(&mut self, text: &str) -> Result<Verdict, String> {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back(text.to_string());
        // As the loop reads it: the newline comes off, then a byte-order mark, then whitespace.
        let raw = format!("{text}\n");
        let line = raw.trim_start_matches('\u{feff}').trim();
        let parsed = tei::parse(line);
        self.send(text);
        let verdict = match &parsed {
            Ok(TeiCommand::Quit) => self.expect_end(),
            _ => {
                if let Ok(TeiCommand::Go(go)) = &parsed {
                    if !ends_soon(go) {
                        self.send("stop");
                    }
                }
                self.send("isready");
                let readyoks = 1 + matches!(parsed, Ok(TeiCommand::IsReady)) as usize;
                let bestmoves = matches!(parsed, Ok(TeiCommand::Go(_))) as usize;
                let lines = self.read(readyoks, bestmoves)?;
                self.judge(&parsed, &lines)
                    .map_err(|e| format!("{e}; the session answered {lines:?}"))
            }
        }?;
        // Many threads are accepted, but would make every later search slow: back to two.
        if let (Ok(TeiCommand::SetOption { name, value }), Verdict::Accepted) = (&parsed, verdict) {
            let threads = value.as_deref().and_then(|v| v.trim().parse::<u64>().ok());
            if name.trim().eq_ignore_ascii_case("threads") && threads.is_some_and(|t| t > 2) {
                self.feed("setoption name Threads value 2")?;
            }
        }
        Ok(verdict)
    }

    /// Reads the answers until `readyoks` `readyok` and `bestmoves` `bestmove` lines came.
    fn read(&mut self, readyoks: usize, bestmoves: usize) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + self.timeout;
        let (mut ready, mut best) = (0, 0);
        let mut lines = Vec::new();
        while ready < readyoks || best < bestmoves {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines_out.recv_timeout(wait) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "hang: no answer within {} s; it answered {lines:?}",
                        self.timeout.as_secs()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the session ended; it answered {lines:?}"))
                }
            };
            well_formed(&line)?;
            ready += (line == "readyok") as usize;
            best += line.starts_with("bestmove") as usize;
            if ready > readyoks || best > bestmoves {
                return Err(format!("unexpected `{line}` after {lines:?}"));
            }
            lines.push(line);
        }
        Ok(lines)
    }

    /// After `quit`: the session ends, with no answer.
    fn expect_end(&mut self) -> Result<Verdict, String> {
        match self.lines_out.recv_timeout(self.timeout) {
            Ok(line) => return Err(format!("`{line}` after quit")),
            Err(RecvTimeoutError::Timeout) => {
                return Err("hang: the session did not end after quit".to_string())
            }
            Err(RecvTimeoutError::Disconnected) => {}
        }
        self.ended = true;
        Ok(Verdict::Accepted)
    }

    /// Ends the session (end of input) and waits for its thread.
    fn close(&mut self) -> Result<(), String> {
        if !self.ended {
            self.lines_in = channel().0;
            self.expect_end()?;
        }
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(false)) => Ok(()),
            Some(Ok(true)) => Err("a search was still running at the end".to_string()),
            Some(Err(_)) => Err("the session thread panicked".to_string()),
            None => Err("the session thread did not start".to_string()),
        }
    }

    /// A valid position and a short search still work: no error, one legal `bestmove`.
    fn check(&mut self, rng: &mut Rng, corpus: &super::Corpus) -> Result<(), String> {
        if self.ended {
            return Ok(());
        }
        let game = corpus.game_of_size(rng, self.size);
        for line in [
            format!("position tps {}", game.end),
            "go nodes 300".to_string(),
        ] {
            if self.feed(&line)? != Verdict::Accepted {
                return Err(format!("the valid `{line}` was refused"));
            }
        }
        Ok(())
    }

    /// Checks the answers to one line against the model, and updates the model.
    fn judge(
        &mut self,
        parsed: &Result<TeiCommand, TeiError>,
        lines: &[String],
    ) -> Result<Verdict, String> {
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error "))
            .collect();
        let no_errors = |verdict| match errors.is_empty() {
            true => Ok(verdict),
            false => Err("an accepted line got an error".to_string()),
        };
        let one_error = |start: &str| match errors.as_slice() {
            [e] if e.contains(start) => Ok(Verdict::Rejected),
            _ => Err(format!("a refused line needs one error with `{start}`")),
        };
        let command = match parsed {
            Err(TeiError::Empty) => return no_errors(Verdict::Rejected),
            Err(e) => return one_error(&e.to_string()),
            Ok(command) => command,
        };
        match command {
            TeiCommand::Tei if !lines.iter().any(|l| l == "teiok") => Err("no teiok".to_string()),
            TeiCommand::Tei | TeiCommand::IsReady | TeiCommand::Stop | TeiCommand::Quit => {
                no_errors(Verdict::Accepted)
            }
            TeiCommand::SetOption { name, value } => {
                let mut options = Options::default();
                match tei::options::set(&mut options, name, value.as_deref()) {
                    Ok(_) => no_errors(Verdict::Accepted),
                    Err(_) => one_error("info string error "),
                }
            }
            TeiCommand::NewGame(game) => match game.size.unwrap_or(self.size) {
                size @ 3..=8 => {
                    self.size = size;
                    self.started = true;
                    self.position = empty_board(size);
                    no_errors(Verdict::Accepted)
                }
                _ => one_error("teinewgame: unsupported board size"),
            },
            TeiCommand::Position(position) => match self.expect_position(position) {
                Ok((size, tps)) => {
                    (self.size, self.position) = (size, tps);
                    no_errors(Verdict::Accepted)
                }
                Err(_) => one_error("info string error position: "),
            },
            TeiCommand::Go(go) => {
                if errors.len() != go.ignored.len() {
                    return Err(format!(
                        "{} errors for {} ignored parts",
                        errors.len(),
                        go.ignored.len()
                    ));
                }
                let best = lines
                    .iter()
                    .find_map(|l| l.strip_prefix("bestmove "))
                    .ok_or("no bestmove")?;
                self.check_bestmove(best)?;
                Ok(Verdict::Accepted)
            }
        }
    }

    /// Where a `position` line leads by the rules: the size and the TPS, or why not.
    fn expect_position(&self, position: &PositionCommand) -> Result<(usize, String), String> {
        let size = match &position.start {
            Start::StartPos => self.size,
            Start::Tps(text) => text.parse::<Tps>().map_err(|e| e.to_string())?.size,
        };
        if size != self.size && self.started {
            return Err("another size than teinewgame's".to_string());
        }
        cairn_tak::with_size!(size, |N| {
            let mut pos = match &position.start {
                Start::StartPos => cairn_tak::board::Position::<N>::start(),
                Start::Tps(text) => tps::parse::<N>(text).map_err(|e| e.to_string())?,
            };
            play_line(&mut pos, &position.moves.join(" "), |_, _| {})?;
            Ok((N, tps::to_tps(&pos)))
        }, else Err(format!("size {size}")))
    }

    /// The best move is legal in the model's position (or `(none)` when there is no move).
    fn check_bestmove(&self, best: &str) -> Result<(), String> {
        cairn_tak::with_size!(self.size, |N| {
            let pos = tps::parse::<N>(&self.position).map_err(|e| format!("model TPS: {e}"))?;
            match parse_move(&pos, best) {
                Ok(_) => Ok(()),
                // A finished game can leave no move at all (a player out of stones in the opening).
                Err(_) if best == "(none)" && pos.legal_moves().is_empty() => Ok(()),
                Err(e) => Err(format!("bestmove `{best}` in `{}`: {e}", self.position)),
            }
        }, else Err(format!("model size {}", self.size)))
    }
}

/// Whether a search with these limits ends on its own soon enough to wait for: few nodes, or a
/// short time (a move time, which comes before any clock, or else two short clocks), or, except
/// for the prover, depth 1.
fn ends_soon(go: &GoCommand) -> bool {
    let limits = &go.limits;
    if limits.infinite {
        return false;
    }
    let short_time = match limits.movetime {
        Some(movetime) => movetime <= 5,
        None => {
            !go.solved
                && limits.wtime.is_some_and(|t| t <= 100)
                && limits.btime.is_some_and(|t| t <= 100)
        }
    };
    let few_nodes = limits.nodes.is_some_and(|n| n <= 500);
    short_time || few_nodes || (!go.solved && limits.depth == Some(1))
}

/// The TPS of the empty board of `size`.
fn empty_board(size: usize) -> String {
    cairn_tak::with_size!(size, |N| tps::to_tps(&cairn_tak::board::Position::<N>::start()),
        else String::new())
}

/// A line the engine may write: a TEI reply, and not a report of a caught panic or of a search
/// that died.
fn well_formed(line: &str) -> Result<(), String> {
    const REPLIES: [&str; 8] = [
        "id ",
        "option name ",
        "size ",
        "info depth ",
        "info string ",
        "bestmove ",
        "teiok",
        "readyok",
    ];
    if line.contains("internal error") || line.contains("without a best move") {
        return Err(format!("the session reports a failure: `{line}`"));
    }
    if !REPLIES.iter().any(|r| line.starts_with(r)) {
        return Err(format!("`{line}` is not a TEI reply"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> GoCommand {
        match tei::parse(line) {
            Ok(TeiCommand::Go(go)) => go,
            other => panic!("`{line}`: {other:?}"),
        }
    }

    #[test]
    fn no_bestmove_only_without_legal_moves() {
        let mut driver = Driver::start(Duration::from_secs(30));
        // 3x3, Black to move in the opening, White out of stones: no move at all.
        for (position, best, fine) in [
            ("11,x,1/x3/2112,121,1112 2 1", "(none)", true),
            ("11,x,1/x3/2112,121,1112 2 1", "b2", false),
            ("x3/x3/x3 1 1", "(none)", false),
            ("x3/x3/x3 1 1", "b2", true),
        ] {
            driver.size = 3;
            driver.position = position.to_string();
            assert_eq!(
                driver.check_bestmove(best).is_ok(),
                fine,
                "{position} {best}"
            );
        }
        // And the session answers so: one `bestmove (none)` after saying the game is over.
        driver
            .feed("position tps 11,x,1/x3/2112,121,1112 2 1")
            .unwrap();
        assert_eq!(driver.feed("go depth 3"), Ok(Verdict::Accepted));
        driver.close().unwrap();
    }

    #[test]
    fn only_searches_with_small_limits_are_left_to_end() {
        for line in [
            "go nodes 300",
            "go depth 1",
            "go movetime 5",
            "go wtime 10 btime 100",
        ] {
            assert!(ends_soon(&go(line)), "{line}");
        }
        // The run that found this: a move time comes before the clocks, and this one is huge.
        for line in [
            "go btime 8 wtime 10 movetime 9223372036854775808",
            "go infinite nodes 1",
            "go depth 2",
            "go wtime 10",
            "go solved depth 1",
            "go",
        ] {
            assert!(!ends_soon(&go(line)), "{line}");
        }
    }
}
