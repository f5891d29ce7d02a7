//! The session's life: one connection after another (connect, log in, play, and after a drop
//! a back-off and a new login), the stop signals, and the event loop with its timers (the
//! ping, the wait for a resumed game).
//!
//! After a dropped connection, or a silent one (a `PING` with no line back within the PING
//! timeout), the client logs in again after a back-off; the server resends the game in progress
//! (`Game Start`, every move, the clocks), which replaces the client's copy. Moves go out only
//! once the game is back on the new connection; one found meanwhile waits for it.

use super::record::Ended;
use super::server::Pending;
use super::{Client, Config, Login};
use crate::engine::SearchEvent;
use crate::playtak::transport::{Connection, Incoming};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// The longest wait between reconnection attempts.
pub const MAX_RECONNECT_DELAY: Duration = Duration::from_secs(60);
/// How long the server may take to say its first line (`Welcome!`); a port that says nothing
/// (a WebSocket port spoken to in plain TCP) is given up after this.
const GREETING_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a login may take before the connection is given up.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait after a reconnection for the game in progress to be resent.
const RESUME_TIMEOUT: Duration = Duration::from_secs(5);

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

/// Why the session ended with an error: one line for the user.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong.
    pub message: String,
    /// Another login took over the account: the bot must not come back.
    pub taken_over: bool,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure {
            message,
            taken_over: false,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// How a connection ended.
enum End {
    /// The games are played.
    Done,
    /// The connection was lost (after logging in, if `.1`); try again.
    Dropped(String, bool),
}

/// Plays on the server until the games are played; an error (a failed login, a first
/// connection that fails) is one line for the user.
pub fn run(config: Config) -> Result<(), Failure> {
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
                    return Err(Failure::from(match client.conn {
                        None => format!("cannot connect to {}: {why}", client.config.server),
                        // Connected, but no login: not a playtak telnet port (a WebSocket
                        // port waits for its handshake and says nothing).
                        Some(_) => format!(
                            "{} does not answer as a playtak server ({why}); for a WebSocket \
                             port give --websocket",
                            client.config.server
                        ),
                    }));
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
            2 => log::warn!(
                "{signal} again while the connection is down: game {no} cannot be resigned; \
                 stopping now"
            ),
            _ => log::warn!("{signal} again: stopping now"),
        }
    }

    /// One connection: connect, log in, play; returns how it ended.
    fn connection(&mut self) -> Result<End, Failure> {
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
        // Logged out with the connection: nothing can be sent until the next login.
        self.name = None;
        // A search running when the connection ends stops now, so that its best move is the
        // first event the next connection sees: it waits in `queued` for the resumed game.
        self.stop_search();
        if let Some(conn) = &mut self.conn {
            conn.close();
        }
        end
    }

    fn serve(&mut self, id: u64, started: Instant) -> Result<End, Failure> {
        let mut greeted = false;
        loop {
            if let Some(why) = self.broken.take() {
                return Ok(End::Dropped(why, self.name.is_some()));
            }
            if self.finished() {
                self.send("quit");
                return Ok(End::Done);
            }
            if !greeted && started.elapsed() > GREETING_TIMEOUT {
                let why = format!("not a word in {} s", GREETING_TIMEOUT.as_secs());
                return Ok(End::Dropped(why, false));
            }
            if self.name.is_none() && started.elapsed() > LOGIN_TIMEOUT {
                return Ok(End::Dropped("no login answer".to_string(), false));
            }
            match self.rx.recv_timeout(self.wait_time()) {
                Ok(Event::Net(from, incoming)) if from == id => match incoming {
                    Incoming::Line(line) => {
                        greeted = true;
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
                    return Err("internal error: the event channel closed"
                        .to_string()
                        .into())
                }
            }
            self.tick();
        }
    }

    /// No new game: the games asked for are played, or a stop was asked for.
    pub(super) fn no_new_game(&self) -> bool {
        self.config.games.is_some_and(|n| self.games_done >= n) || self.stops > 0
    }

    fn finished(&self) -> bool {
        // After a loss on time, the move that began the loser's turn may still be on its way.
        let late_move_due = self.ended.as_ref().is_some_and(Ended::awaits_late_move);
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

    /// The server's login prompt: names the client and logs in.
    pub(super) fn log_in(&mut self) {
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

    /// `Welcome NAME!`: logged in; waits for the game in progress to be resent, or looks for a
    /// game.
    pub(super) fn on_logged_in(&mut self, name: String) {
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

    /// Who logs in, for messages.
    pub(super) fn login_name(&self) -> &str {
        match &self.config.login {
            Login::User { name, .. } => name,
            Login::Guest { .. } => "a guest",
        }
    }

    /// A message from the server: another login taking over the account ends the session;
    /// `Your game is resumed` ends the wait for the resent moves.
    pub(super) fn on_server_message(&mut self, text: &str) -> Result<(), Failure> {
        if text.contains("logged in from another window") {
            return Err(Failure {
                message: format!(
                    "another login took over this account ({}); stopping for good (exit \
                     status {})",
                    self.name.as_deref().unwrap_or("?"),
                    crate::playtak::EXIT_TAKEN_OVER
                ),
                taken_over: true,
            });
        }
        if text.contains("Your game is resumed") {
            if let Some(g) = &mut self.game {
                g.settling = None;
            }
        }
        log::info!("server message: {text}");
        Ok(())
    }
}
