//! The playtak session: login, seeking or accepting, playing games with the in-process engine,
//! and reconnecting.
//!
//! One thread runs [`Client`]; everything it waits for arrives on one channel as an [`Event`]:
//! server lines (from the connection's reader thread), search events (from the engine's search
//! thread) and stop requests (from the signal thread). Each search is tagged with a generation
//! number that changes whenever the position does (a move, an undo, a new or resumed game), so
//! the result of a search that no longer fits is dropped instead of played. Whether a search
//! runs is the engine's to say ([`Engine::is_searching`]); the client remembers only which
//! position it last asked about.
//!
//! `OK` and `NOK` carry no name: they answer the commands in the order sent. The client keeps a
//! queue of the commands that get one of them (`PING`, moves, answers to undo and draw offers,
//! `Accept` and `Login` when they fail) and so knows which command a `NOK` refused.
//!
//! After a dropped connection, or a silent one (a `PING` with no line back within the PING
//! timeout), the client logs in again after a back-off; the server resends the game in progress
//! (`Game Start`, every move, the clocks), which replaces the client's copy. Moves go out only
//! once the game is back on the new connection; one found meanwhile waits for it.

use super::protocol::{self, GameStart, Seek, SeekInfo, ServerMsg};
use super::transport::{Connection, Incoming};
use crate::engine::{self, Engine, SearchEvent, Start};
use crate::tei::Transcript;
use cairn_search::Limits;
use cairn_tak::board::{reserves_for_size, Color, GameResult, Komi};
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::{PtnGame, PtnMove};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to log in.
#[derive(Clone, Debug)]
pub enum Login {
    /// As a guest; the token brings back the same guest after a reconnection.
    Guest {
        /// 20 lower-case letters.
        token: String,
    },
    /// With an account.
    User {
        /// The account name.
        name: String,
        /// Its password.
        password: String,
    },
}

/// How to find games.
#[derive(Clone, Debug)]
pub enum Mode {
    /// Post these seeks in turn, one after each game (the server keeps one seek per player).
    Seek(Vec<Seek>),
    /// Accept the seeks that pass this filter.
    Accept(AcceptFilter),
}

/// Which seeks to accept (besides the standard pieces and a seek open to Cairn).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AcceptFilter {
    /// The seeker; `None`: anyone.
    pub player: Option<String>,
    /// Board sizes; empty: any.
    pub sizes: Vec<usize>,
    /// Starting time, seconds, from and to.
    pub time: Option<(u64, u64)>,
    /// Rated games only (`Some(true)`), unrated only (`Some(false)`), or either.
    pub rated: Option<bool>,
}

impl AcceptFilter {
    /// Why `seek` does not pass, if it does not.
    pub fn refuses(&self, seek: &SeekInfo) -> Option<String> {
        if let Some(player) = &self.player {
            if !seek.name.eq_ignore_ascii_case(player) {
                return Some(format!("not by {player}"));
            }
        }
        if !self.sizes.is_empty() && !self.sizes.contains(&seek.size) {
            return Some(format!("size {} not accepted", seek.size));
        }
        if let Some((from, to)) = self.time {
            if !(from..=to).contains(&seek.time) {
                return Some(format!("{} s not in {from} to {to} s", seek.time));
            }
        }
        match self.rated {
            Some(true) if seek.unrated => Some("unrated".to_string()),
            Some(false) if !seek.unrated => Some("rated".to_string()),
            _ => None,
        }
    }
}

/// Everything a session needs.
#[derive(Clone)]
pub struct Config {
    /// `HOST:PORT`.
    pub server: String,
    /// Speak WebSocket instead of plain TCP.
    pub websocket: bool,
    /// How to log in.
    pub login: Login,
    /// Seek or accept.
    pub mode: Mode,
    /// Stop after this many finished games.
    pub games: Option<u32>,
    /// Grant the opponent's undo requests.
    pub accept_undo: bool,
    /// Accept draw offers when the evaluation says Cairn is not winning.
    pub accept_draw: bool,
    /// Resign a game that is lost by Cairn's own judgement ([`RESIGN_BELOW`]).
    pub resign: bool,
    /// No chat: no greeting, no reply to a declined undo or draw.
    pub quiet: bool,
    /// Write each finished game here as PTN.
    pub ptn_dir: Option<PathBuf>,
    /// Engine options (hash, threads, move overhead); komi comes from each game.
    pub engine: engine::Options,
    /// Time between `PING`s.
    pub ping_interval: Duration,
    /// A `PING` with no line at all from the server for this long means a dead link: the
    /// connection is closed and made again.
    pub ping_timeout: Duration,
    /// The first wait before reconnecting; it doubles up to [`MAX_RECONNECT_DELAY`].
    pub reconnect_delay: Duration,
    /// Keeps every line sent and received.
    pub transcript: Option<Transcript>,
}

/// The longest wait between reconnection attempts.
pub const MAX_RECONNECT_DELAY: Duration = Duration::from_secs(60);
/// How long a login may take before the connection is given up.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait after a reconnection for the game in progress to be resent.
const RESUME_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a resumed game waits for its clocks (the end of the resent moves) before playing.
const RESUME_SETTLE: Duration = Duration::from_secs(2);
/// Moves of one game the server may refuse before Cairn resigns it.
const MAX_REFUSED_MOVES: u32 = 2;
/// Nodes of the search that judges a draw offer when no recent score is at hand.
const DRAW_EVAL_NODES: u64 = 20_000;
/// A draw is accepted at or below this score (centiflats, Cairn's view): not winning.
const DRAW_ACCEPT_MAX: i32 = 0;
/// With `--resign`: a game is resigned when the search proves a loss, or when the evaluation
/// of Cairn's move is below minus this many centiflats ...
pub const RESIGN_BELOW: i32 = 800;
/// ... for this many of its moves in a row.
pub const RESIGN_AFTER_MOVES: u32 = 6;
/// Moves of measured lag kept off the clock the engine sees, so that it plans for the time the
/// network will take from the moves still to come.
const LAG_RESERVE_MOVES: u64 = 40;
/// Below this much clock (after the lag reserve), ms, moves come from a small fixed search:
/// at once, where a timed search would overshoot its few milliseconds.
const PANIC_MS: u64 = 400;
/// Nodes of that search.
const PANIC_NODES: u64 = 1_000;
/// How long after a game's `Over` a move of that game is still added to its record.
const LATE_MOVE_WINDOW: Duration = Duration::from_secs(10);
/// How long the client stays, its games played, after a loss on time, for such a move.
const LATE_MOVE_GRACE: Duration = Duration::from_secs(2);

/// A game the server said was over, kept for a move of it that comes after its `Over`. On a loss
/// on time the server's clock can send `Over` before it passes on the move that started the
/// loser's turn; that move is in the server's record of the game, so it goes into ours too.
struct Ended {
    start: GameStart,
    /// Plies, canonical PTN.
    moves: Vec<String>,
    result: String,
    /// The `Termination` tag.
    how: &'static str,
    /// When `Over` came.
    at: Instant,
    /// Its file in `--ptn-dir`, named when it ended.
    path: Option<PathBuf>,
    /// A late move has been added.
    amended: bool,
}

impl Ended {
    fn record(&self, server: &str) -> PtnGame {
        game_record(server, &self.start, &self.moves, &self.result, self.how)
    }

    /// Writes the game to its file, if it has one (again after a late move).
    fn write(&self, server: &str) {
        let Some(path) = &self.path else {
            return;
        };
        let dir = path.parent().unwrap_or(std::path::Path::new("."));
        let text = self.record(server).to_ptn();
        if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(path, text)) {
            log::error!("cannot write {}: {e}", path.display());
        }
    }
}

/// What the client waits for.
#[derive(Debug)]
pub enum Event {
    /// From connection `.0`.
    Net(u64, Incoming),
    /// From the search of generation `.0`.
    Search(u64, SearchEvent),
    /// A request to stop (SIGTERM or SIGINT), by its signal's name.
    Stop(&'static str),
}

impl From<(u64, Incoming)> for Event {
    fn from((id, incoming): (u64, Incoming)) -> Self {
        Event::Net(id, incoming)
    }
}

/// A command waiting for its `OK` or `NOK`.
#[derive(Debug)]
enum Pending {
    /// A command whose refusal only needs logging.
    Command(String),
    /// A move of the current game.
    Move,
    /// `Accept`: answered by `Game Start`, or `NOK`.
    Accept,
    /// `Login`: answered by `Welcome NAME!`, `Authentication failure`, or `NOK` (a name or
    /// password of a shape the server does not take).
    Login,
}

/// The game in progress on the server, as the client follows it.
struct ServerGame {
    start: GameStart,
    /// Plies so far, canonical PTN.
    moves: Vec<String>,
    /// White's and Black's clocks, ms, as last reported.
    clock: [u64; 2],
    /// When the clocks were reported.
    clock_at: Instant,
    /// Moves of ours the server refused.
    refused: u32,
    /// While resent moves are arriving: play only after this (or after the clocks).
    settling: Option<Instant>,
    /// The last search score: `(plies when searched, centiflats from Cairn's view)`.
    score: Option<(usize, i32)>,
    /// Cairn's last move, until the server reports the clocks after it: `(Cairn's clock when
    /// the search started, ms, the time from then until the move was sent)`.
    sent: Option<(u64, Duration)>,
    /// When the last search started.
    think_from: Instant,
    /// Measured lag per move, ms: what the server charged beyond Cairn's own thinking (moving
    /// average).
    lag_ms: u64,
    /// The connection on which the server last sent this game's `Game Start`: moves go out
    /// only on that connection, once logged in.
    conn: u64,
    /// The opponent offers a draw and Cairn has not answered yet.
    draw_offered: bool,
    /// Cairn accepted a draw offer.
    draw_accepted: bool,
    /// Cairn resigned.
    resigned: bool,
    /// Cairn's moves in a row whose evaluation was below [`RESIGN_BELOW`].
    losing_moves: u32,
}

impl ServerGame {
    fn ours(&self) -> Color {
        self.start.color
    }

    fn to_move(&self) -> Color {
        if self.moves.len() % 2 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Cairn's clock now, ms: the last report less the time since (the server runs the clock
    /// of the side to move).
    fn our_clock(&self) -> u64 {
        let reported = self.clock[self.ours() as usize];
        if self.to_move() == self.ours() {
            reported.saturating_sub(self.clock_at.elapsed().as_millis() as u64)
        } else {
            reported
        }
    }

    /// After the clocks that follow Cairn's move: the lag is what the move cost on the
    /// server's clock beyond the thinking measured here.
    fn measure_lag(&mut self) {
        let Some((before, thought)) = self.sent.take() else {
            return;
        };
        let after = self.clock[self.ours() as usize];
        let charged = (before + self.start.inc * 1000).saturating_sub(after);
        let lag = charged.saturating_sub(thought.as_millis() as u64).min(1000);
        self.lag_ms = (self.lag_ms * 3 + lag) / 4;
        log::debug!(
            "game {}: move charged {charged} ms, thought {} ms, lag now {} ms",
            self.start.game,
            thought.as_millis(),
            self.lag_ms
        );
    }
}

/// How a connection ended.
enum End {
    /// The games are played.
    Done,
    /// The connection was lost (after logging in, if `.1`); try again.
    Dropped(String, bool),
}

/// A playtak client.
pub struct Client {
    config: Config,
    engine: Engine,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    conn: Option<Connection>,
    /// A send failed: the connection is gone.
    broken: Option<String>,
    next_conn: u64,
    /// The id of the current connection.
    conn_id: u64,
    /// The name the server gave at login.
    name: Option<String>,
    game: Option<ServerGame>,
    /// The last game that ended, for a late move of it.
    ended: Option<Ended>,
    games_done: u32,
    pending: VecDeque<Pending>,
    generation: u64,
    /// The last search started: its generation and the game's moves then. Whether it still
    /// runs is the engine's to say.
    searched: Option<(u64, Vec<String>)>,
    /// A best move that could not be sent (the connection dropped while searching), with the
    /// moves it answers; played when the resumed game reaches the same position.
    queued: Option<(Vec<String>, String)>,
    last_ping: Instant,
    /// When the oldest `PING` that has had no line back was sent.
    ping_unanswered: Option<Instant>,
    /// After a reconnection with a game in progress: until when to wait for it.
    awaiting_resume: Option<Instant>,
    /// A seek number accepted, waiting for its game.
    accepting: Option<u64>,
    /// The seek to post next (an index into the seeks).
    next_seek: usize,
    /// Stop requests received: after the first, no new game; the second resigns the game.
    stops: u32,
}

/// Plays on the server until the games are played; an error (a failed login, a first
/// connection that fails) is one line for the user.
pub fn run(config: Config) -> Result<(), String> {
    let mut client = Client::new(config)?;
    client.forward_signals()?;
    let mut delay = client.config.reconnect_delay;
    let mut ever_connected = false;
    loop {
        match client.connection()? {
            End::Done => {
                client.log_exit();
                return Ok(());
            }
            End::Dropped(why, logged_in) => {
                if !ever_connected && !logged_in {
                    return Err(match client.conn {
                        None => format!("cannot connect to {}: {why}", client.config.server),
                        // Connected, but no login: not a playtak telnet port (a WebSocket
                        // port waits for its handshake and says nothing).
                        Some(_) => format!(
                            "{} does not answer as a playtak server ({why}); for a WebSocket \
                             port give --websocket",
                            client.config.server
                        ),
                    });
                }
                ever_connected = true;
                if logged_in {
                    delay = client.config.reconnect_delay;
                }
                log::warn!(
                    "connection to {} lost ({why}); reconnecting in {:.1} s",
                    client.config.server,
                    delay.as_secs_f64()
                );
            }
        }
        client.conn = None;
        if client.wait_to_reconnect(delay) {
            client.log_exit();
            return Ok(());
        }
        delay = (delay * 2).min(MAX_RECONNECT_DELAY);
    }
}

impl Client {
    fn new(config: Config) -> Result<Self, String> {
        let engine = Engine::with_options(config.engine.clone());
        let (tx, rx) = mpsc::channel();
        Ok(Client {
            config,
            engine,
            tx,
            rx,
            conn: None,
            broken: None,
            next_conn: 1,
            conn_id: 0,
            name: None,
            game: None,
            ended: None,
            games_done: 0,
            pending: VecDeque::new(),
            generation: 0,
            searched: None,
            queued: None,
            last_ping: Instant::now(),
            ping_unanswered: None,
            awaiting_resume: None,
            accepting: None,
            next_seek: 0,
            stops: 0,
        })
    }

    /// Turns SIGTERM and SIGINT into [`Event::Stop`].
    fn forward_signals(&self) -> Result<(), String> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT])
            .map_err(|e| format!("cannot handle SIGTERM and SIGINT: {e}"))?;
        let tx = self.tx.clone();
        std::thread::Builder::new()
            .name("playtak-signals".to_string())
            .spawn(move || {
                for signal in signals.forever() {
                    let name = if signal == SIGINT {
                        "SIGINT"
                    } else {
                        "SIGTERM"
                    };
                    if tx.send(Event::Stop(name)).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| format!("cannot start the signal thread: {e}"))?;
        Ok(())
    }

    /// Waits `delay` before reconnecting, still taking stop requests (and a search's last
    /// move, which is queued); true to stop now.
    fn wait_to_reconnect(&mut self, delay: Duration) -> bool {
        let until = Instant::now() + delay;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            match self.rx.recv_timeout(left) {
                Ok(Event::Stop(signal)) => {
                    self.on_stop(signal);
                    if self.game.is_none() || self.stops >= 2 {
                        return true;
                    }
                }
                Ok(Event::Search(generation, event)) => self.on_search(generation, event),
                Ok(Event::Net(..)) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return true,
            }
        }
    }

    fn log_exit(&self) {
        let games = self.games_done;
        if self.stops > 0 {
            match &self.game {
                Some(game) => log::warn!(
                    "stopped after {games} games; game {} left unfinished (the server scores it \
                     as abandoned if Cairn does not come back in time)",
                    game.start.game
                ),
                None => log::info!("stopped as asked after {games} games"),
            }
        } else {
            log::info!("done: {games} games played");
        }
    }

    /// A stop request: the first lets the game in progress finish and posts no new seek; the
    /// second resigns the game; a third (or a second while logged out) stops at once.
    fn on_stop(&mut self, signal: &str) {
        self.stops += 1;
        let Some(game) = &self.game else {
            log::info!("{signal}: no game in progress; stopping");
            return;
        };
        let no = game.start.game;
        match self.stops {
            1 => log::info!(
                "{signal}: finishing game {no}, then stopping (a second signal resigns it)"
            ),
            2 if self.name.is_some() => {
                log::warn!("{signal} again: resigning game {no}");
                self.resign();
            }
            _ => log::warn!("{signal} again: stopping now"),
        }
    }

    /// Resigns the game in progress. A search still running is stopped and forgotten: its move
    /// answers a game that is over, so it is not kept for a resumption.
    fn resign(&mut self) {
        self.stop_search();
        self.searched = None;
        self.generation += 1;
        let Some(game) = &mut self.game else {
            return;
        };
        game.resigned = true;
        let line = format!("Game#{} Resign", game.start.game);
        self.send(&line);
    }

    /// Says `text` to the opponent (unless `--quiet`).
    fn tell(&mut self, text: &str) {
        let Some(game) = &self.game else {
            return;
        };
        if self.config.quiet {
            return;
        }
        let opponent = match game.ours() {
            Color::White => &game.start.black,
            Color::Black => &game.start.white,
        };
        let line = format!("Tell {opponent} {text}");
        self.send(&line);
    }

    /// One connection: connect, log in, play; returns how it ended.
    fn connection(&mut self) -> Result<End, String> {
        let id = self.next_conn;
        self.next_conn += 1;
        self.conn = None;
        let conn = match Connection::open(
            &self.config.server,
            self.config.websocket,
            id,
            self.tx.clone(),
        ) {
            Ok(conn) => conn,
            Err(e) => return Ok(End::Dropped(e.to_string(), false)),
        };
        log::info!("connected to {}", self.config.server);
        self.conn = Some(conn);
        self.conn_id = id;
        self.broken = None;
        self.ping_unanswered = None;
        self.pending.clear();
        self.accepting = None;
        self.name = None;
        let started = Instant::now();
        let end = self.serve(id, started);
        // A search running when the connection ends stops now, so that its best move is the
        // first event the next connection sees: it waits in `queued` for the resumed game.
        self.stop_search();
        if let Some(conn) = &mut self.conn {
            conn.close();
        }
        end
    }

    fn serve(&mut self, id: u64, started: Instant) -> Result<End, String> {
        loop {
            if let Some(why) = self.broken.take() {
                return Ok(End::Dropped(why, self.name.is_some()));
            }
            if self.finished() {
                self.send("quit");
                return Ok(End::Done);
            }
            if self.name.is_none() && started.elapsed() > LOGIN_TIMEOUT {
                return Ok(End::Dropped("no login answer".to_string(), false));
            }
            match self.rx.recv_timeout(self.wait_time()) {
                Ok(Event::Net(from, incoming)) if from == id => match incoming {
                    Incoming::Line(line) => {
                        self.ping_unanswered = None;
                        if let Some(t) = &self.config.transcript {
                            t.input(&line);
                        }
                        self.on_line(&line)?;
                    }
                    Incoming::Closed(why) => return Ok(End::Dropped(why, self.name.is_some())),
                },
                Ok(Event::Net(..)) => {}
                Ok(Event::Search(generation, event)) => self.on_search(generation, event),
                Ok(Event::Stop(signal)) => self.on_stop(signal),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("internal error: the event channel closed".to_string())
                }
            }
            self.tick();
        }
    }

    /// No new game: the games asked for are played, or a stop was asked for.
    fn no_new_game(&self) -> bool {
        self.config.games.is_some_and(|n| self.games_done >= n) || self.stops > 0
    }

    fn finished(&self) -> bool {
        // After a loss on time, the move that began the loser's turn may still be on its way.
        let late_move_due = self
            .ended
            .as_ref()
            .is_some_and(|e| e.how == "time" && !e.amended && e.at.elapsed() < LATE_MOVE_GRACE);
        (self.game.is_none() && self.no_new_game() && !late_move_due)
            || self.stops >= 3
            || (self.stops >= 2 && self.name.is_none())
    }

    /// How long to wait for the next event before [`Client::tick`] has something to do.
    fn wait_time(&self) -> Duration {
        let mut wait = Duration::from_millis(500);
        if self.name.is_some() {
            let ping = self
                .config
                .ping_interval
                .saturating_sub(self.last_ping.elapsed());
            wait = wait.min(ping);
        }
        if let Some(sent) = self.ping_unanswered {
            wait = wait.min(self.config.ping_timeout.saturating_sub(sent.elapsed()));
        }
        if let Some(until) = self.game.as_ref().and_then(|g| g.settling) {
            wait = wait.min(until.saturating_duration_since(Instant::now()));
        }
        wait.max(Duration::from_millis(1))
    }

    /// Timers: the ping, the wait for a resumed game, and starting a search when it is Cairn's
    /// turn.
    fn tick(&mut self) {
        if self.name.is_none() {
            return;
        }
        if self
            .ping_unanswered
            .is_some_and(|t| t.elapsed() >= self.config.ping_timeout)
        {
            let why = format!(
                "no answer to PING in {:.1} s: the link is dead",
                self.config.ping_timeout.as_secs_f64()
            );
            self.broken.get_or_insert(why);
            return;
        }
        if self.last_ping.elapsed() >= self.config.ping_interval {
            self.ping();
        }
        if self.awaiting_resume.is_some_and(|t| Instant::now() >= t) {
            self.awaiting_resume = None;
            if let Some(game) = self.game.take() {
                log::warn!(
                    "game {} was not resumed by the server; looking for a new game",
                    game.start.game
                );
                self.generation += 1;
            }
            self.look_for_game();
        }
        self.maybe_search();
    }

    fn ping(&mut self) {
        self.last_ping = Instant::now();
        self.ping_unanswered.get_or_insert(self.last_ping);
        self.send_expecting("PING", Pending::Command("PING".to_string()));
    }

    /// Sends a line that gets no `OK`.
    fn send(&mut self, line: &str) {
        if let Some(t) = &self.config.transcript {
            // Neither the password nor a guest's token (which brings back the guest) reaches
            // the transcript.
            match line.strip_prefix("Login ") {
                Some(rest) if rest.contains(' ') => {
                    let name = rest.split(' ').next().unwrap_or_default();
                    t.output(&format!("Login {name} ********"));
                }
                _ => t.output(line),
            }
        }
        let Some(conn) = &mut self.conn else {
            return;
        };
        if let Err(e) = conn.send(line) {
            self.broken.get_or_insert(e.to_string());
        }
    }

    fn send_expecting(&mut self, line: &str, pending: Pending) {
        self.pending.push_back(pending);
        self.send(line);
    }

    fn on_line(&mut self, line: &str) -> Result<(), String> {
        let msg = match protocol::parse_line(line) {
            Ok(msg) => msg,
            Err(e) => {
                log::warn!("{e}");
                return Ok(());
            }
        };
        match msg {
            ServerMsg::Hello | ServerMsg::Ignored => {}
            ServerMsg::LoginPrompt => self.log_in(),
            ServerMsg::LoggedIn(name) => {
                log::info!("logged in as {name}");
                self.answered(|p| matches!(p, Pending::Login));
                self.name = Some(name);
                self.ping();
                match &self.game {
                    // A guest's game is resent before `Welcome`: already resumed.
                    Some(game) if game.conn == self.conn_id => {}
                    Some(_) => self.awaiting_resume = Some(Instant::now() + RESUME_TIMEOUT),
                    None => self.look_for_game(),
                }
            }
            ServerMsg::AuthFailure => {
                return Err(format!(
                    "login as {} failed: the server says `Authentication failure` \
                     (check the user name and the password)",
                    self.login_name()
                ));
            }
            ServerMsg::Ok => {
                self.pending.pop_front();
            }
            ServerMsg::Nok => self.on_nok()?,
            ServerMsg::Error(reason) => log::warn!("server error: {reason}"),
            ServerMsg::SeekNew(seek) => self.on_seek(&seek),
            ServerMsg::SeekRemove(_) => {}
            ServerMsg::GameStart(start) => self.on_game_start(start),
            ServerMsg::Move { game, mv } if self.is_current(game) => self.on_move(&mv),
            ServerMsg::Move { game, mv }
                if self.ended.as_ref().is_some_and(|e| e.start.game == game) =>
            {
                self.late_move(&mv)
            }
            ServerMsg::Timems { game, white, black } if self.is_current(game) => {
                if let Some(g) = &mut self.game {
                    g.clock = [white, black];
                    g.clock_at = Instant::now();
                    g.settling = None;
                    g.measure_lag();
                }
            }
            ServerMsg::Over { game, result } if self.is_current(game) => {
                self.finish(&result, false);
            }
            ServerMsg::Abandoned { game } if self.is_current(game) => {
                let result = match self.game.as_ref().map(ServerGame::ours) {
                    Some(Color::White) => "1-0",
                    _ => "0-1",
                };
                self.finish(result, true);
            }
            ServerMsg::OfferDraw(game) if self.is_current(game) => {
                if let Some(g) = &mut self.game {
                    g.draw_offered = true;
                }
                self.answer_draw();
            }
            ServerMsg::RequestUndo(game) if self.is_current(game) => {
                if self.config.accept_undo {
                    log::info!("game {game}: granting the opponent's undo request");
                    let line = format!("Game#{game} RequestUndo");
                    self.send_expecting(&line, Pending::Command(line.clone()));
                } else {
                    log::info!("game {game}: undo request not granted (--accept-undo is off)");
                    self.tell("Sorry, I do not take moves back.");
                }
            }
            ServerMsg::RemoveDraw(game) if self.is_current(game) => {
                log::info!("game {game}: the opponent withdrew the draw offer");
                if let Some(g) = &mut self.game {
                    g.draw_offered = false;
                }
            }
            ServerMsg::RemoveUndo(game) if self.is_current(game) => {
                log::info!("game {game}: the opponent withdrew the undo request");
            }
            ServerMsg::Undo(game) if self.is_current(game) => self.on_undo(),
            ServerMsg::Message(text) => {
                if text.contains("logged in from another window") {
                    return Err(format!(
                        "another login took over this account ({}); stopping",
                        self.name.as_deref().unwrap_or("?")
                    ));
                }
                if text.contains("Your game is resumed") {
                    if let Some(g) = &mut self.game {
                        g.settling = None;
                    }
                }
                log::info!("server message: {text}");
            }
            other => log::debug!("not for the current game: {other:?}"),
        }
        Ok(())
    }

    fn is_current(&self, game: u64) -> bool {
        self.game.as_ref().is_some_and(|g| g.start.game == game)
    }

    fn log_in(&mut self) {
        self.send_expecting(
            &format!("Client cairn-{}", env!("CARGO_PKG_VERSION")),
            Pending::Command("Client".to_string()),
        );
        self.send_expecting("Protocol 2", Pending::Command("Protocol 2".to_string()));
        let line = match &self.config.login {
            Login::Guest { token } => format!("Login Guest {token}"),
            Login::User { name, password } => format!("Login {name} {password}"),
        };
        self.send_expecting(&line, Pending::Login);
    }

    /// Takes the first pending command that `is` (an answer that is not `OK`/`NOK`).
    fn answered(&mut self, is: impl Fn(&Pending) -> bool) {
        if let Some(i) = self.pending.iter().position(is) {
            self.pending.remove(i);
        }
    }

    /// Who logs in, for messages.
    fn login_name(&self) -> &str {
        match &self.config.login {
            Login::User { name, .. } => name,
            Login::Guest { .. } => "a guest",
        }
    }

    fn look_for_game(&mut self) {
        if self.stops > 0 {
            return;
        }
        match &self.config.mode {
            Mode::Seek(seeks) => {
                let Some(seek) = seeks.get(self.next_seek % seeks.len().max(1)) else {
                    return;
                };
                self.next_seek += 1;
                let line = seek.command();
                log::info!("seeking: {}", line.trim_end());
                self.send(&line);
            }
            Mode::Accept(filter) => {
                let by = filter.player.as_deref().unwrap_or("anyone");
                log::info!("waiting for a seek by {by}");
                // The seeks are resent, so one posted during the last game is seen too.
                self.send("List");
            }
        }
    }

    fn on_nok(&mut self) -> Result<(), String> {
        match self.pending.pop_front() {
            Some(Pending::Login) => {
                return Err(format!(
                    "login as {} refused: the server answers `NOK` (a user name is a letter \
                     and 3 to 15 letters, digits or _, a password 6 to 50 characters without \
                     spaces; is {} the server's telnet port?)",
                    self.login_name(),
                    self.config.server
                ))
            }
            Some(Pending::Move) => self.move_refused(),
            Some(Pending::Accept) => {
                log::warn!("the server refused to start the game (the seek is gone?)");
                self.accepting = None;
            }
            Some(Pending::Command(command)) => log::warn!("the server refused `{command}`"),
            None => log::warn!("NOK with no command waiting"),
        }
        Ok(())
    }

    fn on_seek(&mut self, seek: &SeekInfo) {
        let Mode::Accept(filter) = &self.config.mode else {
            return;
        };
        if self.game.is_some()
            || self.accepting.is_some()
            || self.awaiting_resume.is_some()
            || self.stops > 0
        {
            return;
        }
        let me = self.name.as_deref().unwrap_or_default();
        if seek.name.eq_ignore_ascii_case(me) {
            return;
        }
        if let Some(why) = filter.refuses(seek) {
            log::debug!("not accepting seek {} by {}: {why}", seek.no, seek.name);
            return;
        }
        if seek
            .opponent
            .as_ref()
            .is_some_and(|o| !o.eq_ignore_ascii_case(me))
        {
            return;
        }
        let standard = reserves_for_size(seek.size)
            .is_some_and(|(s, c)| u32::from(s) == seek.flats && u32::from(c) == seek.caps);
        if !standard {
            log::warn!(
                "not accepting seek {} by {}: {}x{} with {} and {}; Cairn plays sizes 3 to 8 \
                 with the standard pieces",
                seek.no,
                seek.name,
                seek.size,
                seek.size,
                super::plural(seek.flats, "flat"),
                super::plural(seek.caps, "capstone")
            );
            return;
        }
        log::info!("accepting seek {} by {}", seek.no, seek.name);
        self.accepting = Some(seek.no);
        self.send_expecting(&format!("Accept {}", seek.no), Pending::Accept);
    }

    fn on_game_start(&mut self, start: GameStart) {
        self.answered(|p| matches!(p, Pending::Accept));
        self.accepting = None;
        let resumed = self.is_current(start.game) || self.awaiting_resume.is_some();
        self.awaiting_resume = None;
        if !resumed {
            if let Some(old) = &self.game {
                log::warn!("game {} was left without a result", old.start.game);
            }
            self.queued = None;
        }
        self.stop_search();
        self.generation += 1;
        let mut options = self.engine.options().clone();
        let ready = Komi::from_halves(i64::from(start.half_komi))
            .map_err(|e| format!("komi of {} half flats: {e}", start.half_komi))
            .and_then(|komi| {
                options.komi = komi;
                self.engine.set_options(options)
            })
            .and_then(|()| self.engine.new_game(start.size));
        let time_ms = start.time * 1000;
        let game = start.game;
        log::info!(
            "game {game} {}: {} vs {}, {}x{}, {}+{}, komi {}; Cairn plays {}",
            if resumed { "resumed" } else { "started" },
            start.white,
            start.black,
            start.size,
            start.size,
            start.time,
            start.inc,
            f64::from(start.half_komi) / 2.0,
            if start.color == Color::White {
                "white"
            } else {
                "black"
            }
        );
        let standard = reserves_for_size(start.size)
            .is_some_and(|(s, c)| u32::from(s) == start.flats && u32::from(c) == start.caps);
        if ready.is_ok() && !standard {
            log::warn!(
                "game {game} uses {} flats and {} capstones; Cairn plays as if the pieces \
                 were standard",
                start.flats,
                start.caps
            );
        }
        self.game = Some(ServerGame {
            start,
            moves: Vec::new(),
            clock: [time_ms, time_ms],
            clock_at: Instant::now(),
            refused: 0,
            settling: resumed.then(|| Instant::now() + RESUME_SETTLE),
            score: None,
            sent: None,
            think_from: Instant::now(),
            lag_ms: 0,
            conn: self.conn_id,
            draw_offered: false,
            draw_accepted: false,
            resigned: false,
            losing_moves: 0,
        });
        if let Err(e) = ready {
            log::error!("game {game}: {e}; resigning");
            self.resign();
        } else if !resumed {
            self.tell(&format!(
                "Hi! I am Cairn {}, a Tak engine. Have a good game!",
                env!("CARGO_PKG_VERSION")
            ));
        }
    }

    /// Sets the engine's position to the game's moves.
    fn sync_engine(&mut self) -> Result<(), String> {
        let Some(game) = &self.game else {
            return Ok(());
        };
        let moves: Vec<&str> = game.moves.iter().map(String::as_str).collect();
        self.engine.set_position(&Start::StartPos, &moves)
    }

    fn on_move(&mut self, mv: &PtnMove) {
        let Some(game) = &mut self.game else {
            return;
        };
        game.moves.push(mv.to_string());
        let no = game.start.game;
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            if let Some(game) = &mut self.game {
                game.moves.pop();
            }
            log::error!("game {no}: the server's move `{mv}` does not fit: {e}; resigning");
            self.resign();
        }
    }

    fn on_undo(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        if let Some(mv) = game.moves.pop() {
            log::info!("game {}: {mv} taken back", game.start.game);
        }
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            log::error!("after an undo: {e}");
        }
    }

    fn move_refused(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        let ours = game.ours();
        if game.to_move() != ours {
            if let Some(mv) = game.moves.pop() {
                log::warn!("game {}: the server refused {mv}", game.start.game);
            }
        }
        game.refused += 1;
        let (no, refused) = (game.start.game, game.refused);
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            log::error!("after a refused move: {e}");
        }
        if refused >= MAX_REFUSED_MOVES {
            log::error!("game {no}: {refused} moves refused; resigning");
            self.resign();
        }
    }

    /// Starts a search if it is Cairn's turn and none runs for this position; stops one that
    /// no longer fits.
    fn maybe_search(&mut self) {
        if self
            .searched
            .as_ref()
            .is_some_and(|(generation, _)| *generation == self.generation)
        {
            return;
        }
        // A search of an older position does not fit any more.
        self.stop_search();
        let Some(game) = &mut self.game else {
            return;
        };
        if let Some(until) = game.settling {
            if Instant::now() < until {
                return;
            }
            game.settling = None;
        }
        if game.to_move() != game.ours()
            || game.refused >= MAX_REFUSED_MOVES
            || self.engine.result().is_some()
            || !self.may_move()
        {
            return;
        }
        if let Some((moves, best)) = self.queued.take() {
            if self.game.as_ref().is_some_and(|g| g.moves == moves) {
                log::info!("playing {best}, found before the connection dropped");
                self.play(&best);
                return;
            }
        }
        let Some(game) = &mut self.game else {
            return;
        };
        // The server runs Cairn's clock from when it sent the last move; the network's lag on
        // the moves to come is kept off it.
        let clock = game.our_clock();
        let usable = clock.saturating_sub(game.lag_ms * LAG_RESERVE_MOVES).max(1);
        let inc = game.start.inc * 1000;
        let mut clocks = game.clock;
        clocks[game.ours() as usize] = usable;
        let limits = if usable < PANIC_MS && inc < PANIC_MS {
            Limits {
                nodes: Some(PANIC_NODES),
                ..Limits::default()
            }
        } else {
            Limits {
                wtime: Some(clocks[0]),
                btime: Some(clocks[1]),
                winc: Some(inc),
                binc: Some(inc),
                ..Limits::default()
            }
        };
        game.sent = Some((clock, Duration::ZERO));
        game.think_from = Instant::now();
        let generation = self.generation;
        let tx = self.tx.clone();
        let reporter: engine::Reporter = Arc::new(move |event| {
            let _ = tx.send(Event::Search(generation, event));
        });
        let moves = game.moves.clone();
        match self.engine.go(limits, reporter) {
            Ok(()) => self.searched = Some((generation, moves)),
            Err(e) => log::error!("cannot start the search: {e}"),
        }
    }

    /// With `--resign`, after a search of Cairn's move: whether the game is lost by its own
    /// judgement (a proven loss, or [`RESIGN_AFTER_MOVES`] evaluations in a row below
    /// [`RESIGN_BELOW`]).
    fn lost_by_own_judgement(&mut self) -> bool {
        let Some(game) = &mut self.game else {
            return false;
        };
        let Some((_, score)) = game.score.filter(|(at, _)| *at == game.moves.len()) else {
            return false;
        };
        let no = game.start.game;
        game.losing_moves = if score < -RESIGN_BELOW {
            game.losing_moves + 1
        } else {
            0
        };
        if !self.config.resign {
            return false;
        }
        let score = cairn_search::score::Score(score);
        if score.is_proven() && score.0 < 0 {
            log::info!(
                "game {no}: resigning, the search proves a loss ({})",
                score.short()
            );
            return true;
        }
        if game.losing_moves >= RESIGN_AFTER_MOVES {
            log::info!(
                "game {no}: resigning, evaluated below -{} flats for {} moves in a row",
                RESIGN_BELOW / 100,
                game.losing_moves
            );
            return true;
        }
        false
    }

    /// Whether a move may go out now: logged in, on the connection that (re)started the game,
    /// its resent moves in, and not resigned (a resigned game only waits for the server's
    /// `Over`: no new search, no move).
    fn may_move(&self) -> bool {
        self.name.is_some()
            && self.conn.is_some()
            && self.awaiting_resume.is_none()
            && self
                .game
                .as_ref()
                .is_some_and(|g| g.conn == self.conn_id && g.settling.is_none() && !g.resigned)
    }

    /// Stops the search if one runs (its best move still arrives, and is dropped or queued).
    fn stop_search(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    fn on_search(&mut self, generation: u64, event: SearchEvent) {
        let current = generation == self.generation;
        match event {
            SearchEvent::Info(info) => {
                if let (true, Some(game)) = (current, &mut self.game) {
                    if info.multipv == 1 {
                        game.score = Some((game.moves.len(), info.score.0));
                        self.answer_draw();
                    }
                }
            }
            SearchEvent::Message(text) => log::info!("engine: {text}"),
            SearchEvent::BestMove(best) => {
                log::debug!(
                    "best move {best} of search {generation} (now {}, last started {:?})",
                    self.generation,
                    self.searched.as_ref().map(|s| s.0)
                );
                if current && self.may_move() {
                    if self.lost_by_own_judgement() {
                        self.resign();
                        return;
                    }
                    self.play(&best);
                    self.answer_draw();
                } else if let Some((_, moves)) = self
                    .searched
                    .take_if(|(searched, _)| *searched == generation)
                {
                    log::info!("{best} found, but the game is not back yet; keeping it");
                    self.queued = Some((moves, best));
                }
            }
        }
    }

    fn play(&mut self, best: &str) {
        let Some(game) = &mut self.game else {
            return;
        };
        let no = game.start.game;
        let command = best
            .parse::<PtnMove>()
            .ok()
            .and_then(|mv| protocol::move_to_server(&mv));
        let Some(command) = command else {
            log::error!("game {no}: the engine gave no playable move (`{best}`)");
            return;
        };
        game.moves.push(best.to_string());
        if let Some((_, thought)) = &mut game.sent {
            *thought = game.think_from.elapsed();
        }
        log::debug!("game {no}: playing {best}");
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            log::error!("game {no}: own move {best}: {e}");
        }
        self.send_expecting(&format!("Game#{no} {command}"), Pending::Move);
    }

    /// Answers a standing draw offer by policy: at once if `--accept-draw` is off, else as soon
    /// as there is an evaluation (the running search's first iteration, at the latest its move).
    fn answer_draw(&mut self) {
        let Some(game) = &self.game else {
            return;
        };
        if !game.draw_offered {
            return;
        }
        let no = game.start.game;
        if !self.config.accept_draw {
            log::info!("game {no}: draw offer declined (--accept-draw is off)");
            self.draw_answered(false);
            self.tell("Thank you, but I do not take draws.");
            return;
        }
        match self.score_for_us() {
            Some(score) if score <= DRAW_ACCEPT_MAX => {
                log::info!("game {no}: accepting the draw offer (eval {score:+} centiflats)");
                self.draw_answered(true);
                let line = format!("Game#{no} OfferDraw");
                self.send_expecting(&line, Pending::Command(line.clone()));
            }
            Some(score) => {
                log::info!("game {no}: draw offer declined (eval {score:+} centiflats)");
                self.draw_answered(false);
                self.tell("Thank you, but I would rather play on.");
            }
            None => log::info!("game {no}: draw offer kept until the search has an evaluation"),
        }
    }

    fn draw_answered(&mut self, accepted: bool) {
        if let Some(game) = &mut self.game {
            game.draw_offered = false;
            game.draw_accepted |= accepted;
        }
    }

    /// The evaluation from Cairn's side: the last search's score if it is recent (this
    /// position or the one before), else a short search of this one (when none is running).
    fn score_for_us(&mut self) -> Option<i32> {
        let game = self.game.as_ref()?;
        let plies = game.moves.len();
        if let Some((at, score)) = game.score {
            if at + 1 >= plies {
                return Some(score);
            }
        }
        if self.engine.is_searching() {
            return None;
        }
        let ours = game.to_move() == game.ours();
        let result = self.engine.search_blocking(
            Limits {
                nodes: Some(DRAW_EVAL_NODES),
                ..Limits::default()
            },
            Arc::new(|_| {}),
        );
        let score = result.score.0;
        Some(if ours { score } else { -score })
    }

    fn finish(&mut self, result: &str, abandoned: bool) {
        self.stop_search();
        self.generation += 1;
        self.queued = None;
        let by_rules = self.engine.result();
        let Some(game) = self.game.take() else {
            return;
        };
        let how = termination(&game, result, abandoned, by_rules);
        self.games_done += 1;
        log::info!(
            "game {} over: {result} ({how}); {} vs {}, {} plies",
            game.start.game,
            game.start.white,
            game.start.black,
            game.moves.len()
        );
        let path = self
            .config
            .ptn_dir
            .as_ref()
            .map(|dir| dir.join(ptn_file_name(&game.start)));
        let ended = Ended {
            start: game.start,
            moves: game.moves,
            result: result.to_string(),
            how,
            at: Instant::now(),
            path,
            amended: false,
        };
        ended.write(&self.config.server);
        self.ended = Some(ended);
        if !self.no_new_game() {
            self.look_for_game();
        }
    }

    /// A move of the game that just ended, sent after its `Over`: added to the game's record
    /// if it comes soon and is legal there.
    fn late_move(&mut self, mv: &PtnMove) {
        let Some(ended) = &mut self.ended else {
            return;
        };
        let no = ended.start.game;
        if ended.amended {
            log::warn!("game {no}: a second move `{mv}` after the game ended; not recorded");
            return;
        }
        let after = ended.at.elapsed();
        if after > LATE_MOVE_WINDOW {
            log::warn!(
                "game {no}: a move `{mv}` {:.1} s after the game ended; not recorded",
                after.as_secs_f64()
            );
            return;
        }
        ended.moves.push(mv.to_string());
        if let Err(e) =
            cairn_tak::notation::ptn_game::replay_any(&ended.record(&self.config.server))
        {
            ended.moves.pop();
            log::warn!(
                "game {no}: a move `{mv}` after the game ended does not fit ({e}); not recorded"
            );
            return;
        }
        log::info!("game {no}: the server sent `{mv}` after the game's end; added to its record");
        ended.amended = true;
        ended.write(&self.config.server);
    }
}

/// How a game ended, for the log and the PTN's `Termination` tag: `road`, `flats`, `time`,
/// `resignation`, `abandonment`, `agreement` (a draw), `draw rule` (a draw the rules do not
/// make on the board: the server's no-placement rule) or `aborted`.
fn termination(
    game: &ServerGame,
    result: &str,
    abandoned: bool,
    by_rules: Option<GameResult>,
) -> &'static str {
    if abandoned {
        return "abandonment";
    }
    match result {
        "R-0" | "0-R" => "road",
        "F-0" | "0-F" => "flats",
        "1/2-1/2" if game.draw_accepted => "agreement",
        "1/2-1/2" if by_rules == Some(GameResult::Draw) => "flats",
        "1/2-1/2" => "draw rule",
        "1-0" | "0-1" => {
            let loser = if result == "1-0" {
                Color::Black
            } else {
                Color::White
            };
            // The server sends the clocks, the loser's at 0, before a loss on time.
            if game.clock[loser as usize] == 0 && !(loser == game.ours() && game.resigned) {
                "time"
            } else {
                "resignation"
            }
        }
        _ => "aborted",
    }
}

/// A finished game's record, with the tags of the game: the server's, `Rated` (`yes` or `no`),
/// and `Termination` (how it ended: `road`, `flats`, `time`, `resignation`, `abandonment`,
/// `agreement`, `draw rule` or `aborted`).
pub fn game_record(
    server: &str,
    start: &GameStart,
    moves: &[String],
    result: &str,
    termination: &str,
) -> PtnGame {
    let plies = moves
        .iter()
        .filter_map(|m| m.parse::<PtnMove>().ok())
        .map(|mv| PtnPly {
            mv,
            crush_mark: false,
            annotations: String::new(),
            comments: Vec::new(),
            line: 0,
            column: 0,
        })
        .collect();
    let tags = [
        ("Site", server.to_string()),
        ("Event", format!("playtak game {}", start.game)),
        ("Date", crate::timestamp::today()),
        ("Player1", start.white.clone()),
        ("Player2", start.black.clone()),
        ("Size", start.size.to_string()),
        ("Clock", format!("{}+{}", start.time, start.inc)),
        ("Komi", format!("{}", f64::from(start.half_komi) / 2.0)),
        ("Flats", start.flats.to_string()),
        ("Caps", start.caps.to_string()),
        ("Result", result.to_string()),
        (
            "Rated",
            if start.unrated { "no" } else { "yes" }.to_string(),
        ),
        ("Termination", termination.to_string()),
    ];
    PtnGame {
        tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        comments: Vec::new(),
        plies,
        result: Some(result.to_string()),
    }
}

/// `YYYY.MM.DD-HHMMSS-gameN-WHITE-BLACK.ptn`, names reduced to letters, digits and `_`.
fn ptn_file_name(start: &GameStart) -> String {
    let stamp = crate::timestamp::utc_timestamp(std::time::SystemTime::now());
    let time: String = stamp
        .get(11..19)
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let clean = |name: &str| -> String {
        name.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    };
    format!(
        "{}-{time}-game{}-{}-{}.ptn",
        crate::timestamp::today(),
        start.game,
        clean(&start.white),
        clean(&start.black)
    )
}
