//! The playtak session's one type, [`Client`], with its configuration; each concern of the
//! session is a module of its own that adds its methods to [`Client`]:
//!
//! - `session`: the connection to the server, login, reconnection and resumption, stop
//!   signals, the event loop and its timers;
//! - `server`: the lines exchanged with the server: sending, the commands that wait for their
//!   `OK` or `NOK`, and each server line to the handler of its concern;
//! - `game`: the game in progress as the server reports it: its start, moves, undos, refused
//!   moves and end;
//! - `play`: Cairn's moves: when to search, the search's events, sending the move found;
//! - `clock`: the clocks and the lag: what the server's times say, how long to think;
//! - `policy`: the decisions the options make: which seeks to post or accept, draw offers,
//!   undo requests, resignation, chat;
//! - `record`: each game's record: its PTN tags and moves, its file, a move after its end.
//!
//! One thread runs [`Client`]; everything it waits for arrives on one channel as an [`Event`]:
//! server lines (from the connection's reader thread), search events (from the engine's search
//! thread) and stop requests (from the signal thread). Each search is tagged with a generation
//! number that changes whenever the position does (a move, an undo, a new or resumed game), so
//! the result of a search that no longer fits is dropped instead of played. Whether a search
//! runs is the engine's to say ([`Engine::is_searching`]); the client remembers only which
//! position it last asked about.

mod clock;
mod game;
mod play;
mod policy;
mod record;
mod server;
mod session;

pub use policy::{AcceptFilter, RESIGN_AFTER_MOVES, RESIGN_BELOW};
pub use record::game_record;
pub use session::{run, Event, Failure, MAX_RECONNECT_DELAY};

use super::protocol::Seek;
use super::transport::Connection;
use crate::engine::{self, Engine};
use crate::tei::Transcript;
use game::ServerGame;
use record::Ended;
use server::Pending;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
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
    /// Seeks already judged not to accept (by number), not judged again when listed again.
    declined: std::collections::HashSet<u64>,
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
            declined: std::collections::HashSet::new(),
        })
    }
}
