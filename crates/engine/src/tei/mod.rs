//! TEI (Tak Engine Interface) on stdin/stdout: the input loop and the session state.
//!
//! Each input line is parsed into a [`TeiCommand`] ([`command`]) and carried out on the
//! [`Engine`] facade; every reply goes through the single [`Responder`] ([`response`]), which the
//! search thread shares for its `info` and `bestmove` lines. The loop never panics on input and
//! never exits on a bad line: each problem is answered with `info string error ...` and the
//! state stays as it was. End of input acts as `quit`.
//!
//! Session rules beyond the grammar:
//! - `isready` is answered at once, also while a search runs (the search goes on).
//! - `go` starts a search in the background; exactly one `bestmove` follows each accepted `go`,
//!   right after one final `info` line: the line of the move played, with the search's totals.
//!   A `go` while searching is refused (`info string error`), without a second `bestmove`.
//!   Whether a search runs, and the one-`bestmove` promise, are the engine's
//!   ([`crate::engine`]); the session only writes what it reports.
//!   `stop` ends the search and waits for its `bestmove`; when idle it does nothing.
//! - A `go`'s clock starts when its line is read: its time limits and every `info time` count
//!   from then, whatever happens before the search starts (see [`cairn_search::time`]).
//! - `teinewgame` during a search stops it first (its `bestmove` is printed). `setoption` during a
//!   search is refused. `HalfKomi` persists across games; `teinewgame ... halfkomi K` sets it too.
//! - The most recent `teinewgame` decides the score format: its TEI v1 form (`size N ...`, PTN
//!   Ninja) gets proven results as `score solved win|loss <plies>`; otherwise (racetrack) they are
//!   written `score cp ±(10000 - plies)`.
//! - Until the first `teinewgame`, `position tps` picks the board size from the TPS (startpos keeps
//!   the current size, 6 at first). After it, a TPS of another size is an error.
//! - A bad `position` (TPS, move syntax, illegal move, move after the game ended) keeps the
//!   previous position.

pub mod budget;
pub mod channel;
pub mod command;
pub mod options;
pub mod response;
pub mod transcript;

pub use budget::{TableBudget, TableShare};
pub use channel::{ChannelInput, ChannelOutput};
pub use command::{parse, GoCommand, NewGame, PositionCommand, TeiCommand, TeiError};
pub use response::{InfoStyle, Responder};
pub use transcript::Transcript;

use crate::engine::{Engine, Options, Reporter, SearchEvent, Start};
use cairn_tak::notation::{quote, Tps};
use std::io::BufRead;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The engine's name, as `id name` reports it.
pub const NAME: &str = "Cairn";
/// The authors, as `id author` reports them.
pub const AUTHOR: &str = "The Cairn developers";

/// The version `id version` reports, once the program has named its build ([`set_version`]).
static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Names the build for `id version`: the binary calls this once at start-up with the version
/// and commit it was built from (`0.1.0 (commit abcdef12)`); until then, and in this crate's
/// own tests, it is the package version. A second call changes nothing.
pub fn set_version(version: &str) {
    let _ = VERSION.set(version.to_string());
}

/// The version `id version` reports (see [`set_version`]).
pub fn version() -> &'static str {
    VERSION
        .get()
        .map_or(env!("CARGO_PKG_VERSION"), String::as_str)
}

/// Runs the TEI loop on stdin and stdout until `quit` or end of input, recording both directions
/// in `transcript` if given.
pub fn run(transcript: Option<Transcript>) {
    let stdin = std::io::stdin();
    run_session(
        stdin.lock(),
        Responder::stdout().with_transcript(transcript),
        SessionSettings::default(),
    );
}

/// What a server that hosts several sessions (`cairn ws`) sets for each; a stdio session has
/// the defaults.
#[derive(Debug, Default)]
pub struct SessionSettings {
    /// The session's share of a table budget common to all sessions: its table starts at the
    /// default size or what the budget leaves, and `setoption name Hash` beyond the share is
    /// clamped (with an `info string`). `None`: only the machine's memory limits it.
    pub table: Option<TableShare>,
    /// Set by the engine while a search runs (from `go` until just before its `bestmove`), for
    /// the server to read.
    pub searching: Arc<AtomicBool>,
}

/// Runs the TEI loop on `input`, answering through `out`, until `quit` or end of input. Any
/// running search is stopped (its `bestmove` printed) before this returns; the result tells
/// whether one was running. Input lines go to `out`'s transcript, if it has one.
pub fn run_session(mut input: impl BufRead, out: Responder, settings: SessionSettings) -> bool {
    let mut session = Session::new(out, settings);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => {
                log::debug!("in: end of input");
                break;
            }
            Ok(_) => {}
            Err(e) => {
                log::error!("cannot read input: {e}");
                break;
            }
        }
        // A `go`'s clock starts here, when its line is read.
        let received = Instant::now();
        let text = String::from_utf8_lossy(&buffer);
        let line = text.trim_start_matches('\u{feff}').trim();
        log::debug!("in: {line}");
        session.out.record_input(line);
        // An engine bug must not take the GUI's game down with it: report it and go on.
        let handled = std::panic::catch_unwind(AssertUnwindSafe(|| session.handle(line, received)));
        match handled {
            Ok(Flow::Quit) => break,
            Ok(Flow::Continue) => {}
            Err(_) => session.out.error(&format!(
                "internal error while handling {}; carrying on",
                quote(line)
            )),
        }
    }
    session.finish()
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The protocol state around the engine.
struct Session {
    engine: Engine,
    out: Responder,
    /// The last `teinewgame` used the TEI v1 form.
    v1: bool,
    /// A `teinewgame` was received (fixes the board size).
    game_started: bool,
    /// This session's part of a table budget shared with other sessions, if any.
    table: Option<TableShare>,
}

impl Session {
    fn new(out: Responder, settings: SessionSettings) -> Self {
        let mut options = Options::default();
        if let Some(share) = &settings.table {
            options.hash_mb = share.mb();
        }
        let mut engine = Engine::with_options(options);
        engine.share_searching_flag(settings.searching);
        Session {
            engine,
            out,
            v1: false,
            game_started: false,
            table: settings.table,
        }
    }

    /// Carries out `line`, read at `received`.
    fn handle(&mut self, line: &str, received: Instant) -> Flow {
        let command = match command::parse(line) {
            Ok(command) => command,
            Err(TeiError::Empty) => return Flow::Continue,
            Err(e) => {
                self.out.error(&format!("{e} in {}", quote(line)));
                return Flow::Continue;
            }
        };
        match command {
            TeiCommand::Tei => self.identify(),
            TeiCommand::IsReady => self.out.readyok(),
            TeiCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            TeiCommand::NewGame(game) => self.new_game(&game),
            TeiCommand::Position(position) => self.position(&position),
            TeiCommand::Go(go) => self.go(go, line, received),
            TeiCommand::Stop => self.stop_search(),
            TeiCommand::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn identify(&self) {
        self.out.id("name", NAME);
        self.out.id("author", AUTHOR);
        self.out.id("version", version());
        self.out.sizes(options::SIZES, options::HALF_KOMI_RANGE);
        for option in options::declarations() {
            self.out.option(&option);
        }
        self.out.teiok();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.engine.is_searching() {
            self.out.error(&format!(
                "setoption {name}: cannot change options while searching; send stop first"
            ));
            return;
        }
        let mut options = self.engine.options().clone();
        let (name, mut value) = match options::set(&mut options, name, value) {
            Ok(set) => set,
            Err(e) => return self.out.error(&e),
        };
        let before = self.engine.options().hash_mb;
        if let Some(share) = self.table.as_mut().filter(|_| options.hash_mb != before) {
            // Reserved before the table is made, so that sessions together never exceed it.
            let granted = share.resize(options.hash_mb);
            if granted < options.hash_mb {
                self.out.info_string(&format!(
                    "setoption {name}: {} MB is beyond this connection's part of the {} MB \
                     that the server's tables share; using {granted} MB",
                    options.hash_mb,
                    share.budget().total_mb()
                ));
                options.hash_mb = granted;
                value = granted as i64;
            }
        }
        match self.engine.set_options(options) {
            Ok(()) => log::info!("option {name} = {value}"),
            Err(e) => {
                if let Some(share) = &mut self.table {
                    share.resize(before);
                }
                self.out.error(&format!("setoption {name}: {e}"));
            }
        }
    }

    fn new_game(&mut self, game: &NewGame) {
        let size = game.size.unwrap_or_else(|| self.engine.size());
        if !options::SIZES.contains(&size) {
            self.out.error(&format!(
                "teinewgame: unsupported board size {size}; Cairn plays {} to {}",
                options::SIZES.start(),
                options::SIZES.end()
            ));
            return;
        }
        self.stop_search();
        if let Some(komi) = game.komi {
            let mut options = self.engine.options().clone();
            options.komi = komi;
            if let Err(e) = self.engine.set_options(options) {
                self.out.error(&format!("teinewgame: {e}"));
                return;
            }
        }
        if let Err(e) = self.engine.new_game(size) {
            self.out.error(&format!("teinewgame: {e}"));
            return;
        }
        self.v1 = game.v1;
        self.game_started = true;
    }

    fn position(&mut self, position: &PositionCommand) {
        let moves: Vec<&str> = position.moves.iter().map(String::as_str).collect();
        let current = self.engine.size();
        let size = match &position.start {
            Start::StartPos => current,
            Start::Tps(text) => match text.parse::<Tps>() {
                Ok(parsed) => parsed.size,
                Err(e) => {
                    self.out.error(&format!(
                        "position: bad TPS {}: {e}; position unchanged",
                        quote(text)
                    ));
                    return;
                }
            },
        };
        if size != current {
            if self.game_started {
                self.out.error(&format!(
                    "position: the TPS is {size}x{size} but teinewgame set {current}x{current}; \
                     position unchanged"
                ));
                return;
            }
            // No teinewgame yet: switch to the TPS's size, but only once the position is known
            // to be good, so that a bad one leaves the old game alone.
            if let Err(e) = crate::engine::validate_position(size, &position.start, &moves) {
                self.out
                    .error(&format!("position: {e}; position unchanged"));
                return;
            }
            self.stop_search();
            if let Err(e) = self.engine.new_game(size) {
                self.out.error(&format!("position: {e}"));
                return;
            }
        }
        if let Err(e) = self.engine.set_position(&position.start, &moves) {
            self.out
                .error(&format!("position: {e}; position unchanged"));
        }
    }

    /// Starts the search of `go` on a clock that started at `received`, when its line was read:
    /// its deadlines and every `info time` count from then.
    fn go(&mut self, go: GoCommand, line: &str, received: Instant) {
        if self.engine.is_searching() {
            self.out
                .error("go: a search is already running; send stop first");
            return;
        }
        for ignored in &go.ignored {
            self.out.error(&format!(
                "{ignored} in {}; ignored, searching with the rest",
                quote(line)
            ));
        }
        // The previous search has printed its bestmove; let its thread end.
        self.engine.wait();
        let style = InfoStyle {
            v1: self.v1,
            multipv: self.engine.options().multipv > 1,
        };
        let out = self.out.clone();
        let reporter: Reporter = Arc::new(move |event| match event {
            SearchEvent::Info(info) => out.info(&info, style),
            SearchEvent::BestMove(mv) => out.bestmove(&mv),
            SearchEvent::Message(text) => out.info_string(&text),
        });
        let started = if go.solved {
            self.engine.go_solved(received, go.limits, reporter)
        } else {
            self.engine.go_since(received, go.limits, reporter)
        };
        if let Err(e) = started {
            // The engine has answered with its fallback bestmove already.
            self.out.error(&format!("go: {e}"));
        }
    }

    /// Stops a running search and waits for its `bestmove`; nothing happens when idle.
    fn stop_search(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    /// Ends the session; returns whether a search was still running (it is stopped).
    fn finish(&mut self) -> bool {
        let was_searching = self.engine.is_searching();
        self.stop_search();
        was_searching
    }
}

#[cfg(test)]
mod tests {
    use super::response::tests::Buffer;
    use super::*;
    use std::time::Duration;

    fn session(input: &str) -> Vec<String> {
        let buffer = Buffer::default();
        run_session(
            input.as_bytes(),
            Responder::new(buffer.clone()),
            SessionSettings::default(),
        );
        let bytes = buffer.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Runs `setup` on a new session, then a `go` whose line was read `delay` ago (a slow
    /// pipe, a busy machine, work before the search), and waits for its `bestmove`. Returns
    /// the lines written after the `go` and the time from its reading until the `bestmove`.
    fn late_go(setup: &[&str], go: &str, delay: Duration) -> (Vec<String>, Duration) {
        let buffer = Buffer::default();
        let mut session = Session::new(Responder::new(buffer.clone()), SessionSettings::default());
        for line in setup {
            assert_eq!(session.handle(line, Instant::now()), Flow::Continue);
        }
        let before = buffer.0.lock().unwrap().len();
        let received = Instant::now().checked_sub(delay).unwrap();
        session.handle(go, received);
        session.engine.wait();
        let took = received.elapsed();
        let bytes = buffer.0.lock().unwrap()[before..].to_vec();
        let lines = String::from_utf8(bytes).unwrap();
        (lines.lines().map(str::to_string).collect(), took)
    }

    /// The `time` field of every `info depth` line.
    fn info_times(lines: &[String]) -> Vec<u64> {
        let time = |line: &str| {
            let mut words = line.split_whitespace().skip_while(|&w| w != "time");
            words.nth(1).and_then(|ms| ms.parse().ok())
        };
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .map(|l| time(l).unwrap_or_else(|| panic!("no time in `{l}`")))
            .collect()
    }

    /// `info time` counts from the reading of `go`, not from the start of the search: every
    /// line of a search whose `go` was read 5 s ago says at least 5000 ms.
    #[test]
    fn info_time_counts_from_go() {
        let setup = [
            "setoption name Hash value 1",
            "position startpos moves a1 f6",
        ];
        let (lines, _) = late_go(&setup, "go depth 3", Duration::from_secs(5));
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        let times = info_times(&lines);
        assert!(times.len() >= 2, "{lines:?}");
        assert!(times.iter().all(|&ms| ms >= 5000), "{lines:?}");
    }

    /// `go movetime M` with its line read 2 s before the search starts (as if a tinue check
    /// had taken that long) still answers within M plus the move overhead, counted from the
    /// `go`, having used the time up to M less the overhead: the tinue check and the search
    /// share the one clock that starts at `go`.
    #[test]
    fn a_late_movetime_search_stays_within_its_time() {
        const MOVETIME: u64 = 3000;
        const OVERHEAD: u64 = 500;
        let setup = [
            "setoption name Hash value 1",
            "setoption name MoveOverhead value 500",
            "position startpos moves a1 f6 c3 d4 c4 d3",
        ];
        let go = format!("go movetime {MOVETIME}");
        let (lines, took) = late_go(&setup, &go, Duration::from_millis(2000));
        assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
        assert!(
            took <= Duration::from_millis(MOVETIME + OVERHEAD),
            "answered {took:?} after the go: {lines:?}"
        );
        let last = *info_times(&lines).last().unwrap();
        assert!(
            (MOVETIME - OVERHEAD..=MOVETIME + OVERHEAD).contains(&last),
            "{lines:?}"
        );
    }

    #[test]
    fn the_session_says_whether_it_stopped_a_search() {
        let buffer = Buffer::default();
        let transcript = Buffer::default();
        let out = Responder::new(buffer.clone())
            .with_transcript(Some(Transcript::new(transcript.clone())));
        assert!(run_session(
            "position startpos\ngo infinite\n".as_bytes(),
            out.clone(),
            SessionSettings::default()
        ));
        assert!(!run_session(
            "isready\n".as_bytes(),
            out,
            SessionSettings::default()
        ));
        // The transcript has both directions of both sessions, in order.
        let text = String::from_utf8(transcript.0.lock().unwrap().clone()).unwrap();
        // (The search may get to write an `info` line before it sees the stop.)
        let entries: Vec<&str> = text
            .lines()
            .map(|l| &l[25..])
            .filter(|l| !l.starts_with("< info depth "))
            .collect();
        assert_eq!(entries.len(), 5, "{text}");
        assert_eq!(entries[..2], ["> position startpos", "> go infinite"]);
        assert!(entries[2].starts_with("< bestmove "), "{text}");
        assert_eq!(entries[3..], ["> isready", "< readyok"]);
    }

    #[test]
    fn handshake_and_ready() {
        let lines = session("tei\nisready\n");
        assert_eq!(lines[0], "id name Cairn");
        assert_eq!(lines[1], "id author The Cairn developers");
        assert!(lines[3].starts_with("size 3 4 5 6 7 8 halfkomi -10 -9 "));
        assert_eq!(lines[lines.len() - 2], "teiok");
        assert_eq!(lines[lines.len() - 1], "readyok");
    }

    #[test]
    fn bad_lines_are_answered_and_survived() {
        let lines = session("\n  \nfoo\ngo depth x\nposition tps x3/x3 1 1\nisready\n");
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(lines[..3]
            .iter()
            .all(|l| l.starts_with("info string error ")));
        assert!(lines[0].contains("`foo`"));
        assert_eq!(lines[3], "readyok");
    }

    #[test]
    fn size_is_inferred_until_teinewgame() {
        let lines = session(
            "position tps x4/x4/x4/x4 1 1 moves a1 d4\n\
             go depth 1\n\
             teinewgame 5\n\
             position tps x4/x4/x4/x4 1 1\n\
             position tps x5/x5/x5/x5/x5 1 1 moves a1 zz\n\
             isready\n",
        );
        let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 2, "{lines:?}");
        assert!(errors[0].contains("4x4"));
        assert!(errors[1].contains("move 2"));
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
            1
        );
        assert_eq!(lines.last().unwrap(), "readyok");
    }
}
