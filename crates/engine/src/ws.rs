//! `cairn ws`: TEI over WebSocket, for PTN Ninja's TEI engine client.
//!
//! Every text message carries TEI lines (one, or several separated by `\n`), and every line the
//! engine writes goes out as one text message: exactly the lines of a stdio session, because each
//! connection runs the same [`tei::run_session`] loop with its own [`Engine`](crate::engine::Engine)
//! and table. A connection is served by two threads: the session thread runs the TEI loop,
//! reading lines from a channel; the connection thread owns the socket, turning incoming
//! messages into lines and sending the session's lines out. The socket is read with a short
//! timeout so that search output goes out while the client is silent.
//!
//! Closing the connection ends the input: the session stops any running search, its engine and
//! table are dropped, and the connection thread logs it. A binary message, a malformed frame or
//! a message over [`MAX_MESSAGE`] bytes closes that connection only (with a close frame saying
//! why, where the socket still allows one); the server goes on serving the others.
//!
//! Safe on a desktop, where any web page the user opens could try `ws://localhost:7731`:
//! - a browser names the page in an `Origin` header; only allowed origins are served
//!   ([`DEFAULT_ORIGINS`], or `--allow-origin`), others get HTTP 403 and one log line. A client
//!   without `Origin` is a program, not a page, and is served;
//! - at most `--max-connections` connections at once; one more gets HTTP 503. A socket counts
//!   against that limit only once its WebSocket handshake is complete: until then it is one of
//!   at most [`MAX_PENDING`] pending sockets (one more closes the oldest), each closed if its
//!   request is not in within [`HANDSHAKE_TIMEOUT`], so silent sockets never take the place of
//!   a browser, whose request comes at once;
//! - a plain HTTP request (a browser opening the address as a page) gets a short text page
//!   saying what the server is and how to connect (HTTP 426, Upgrade Required);
//! - the hash tables of all connections share one budget (`--hash-budget`, see
//!   [`TableBudget`]); a `setoption name Hash` beyond a connection's share is clamped, with an
//!   `info string`;
//! - a connection that sends nothing for `--idle-timeout` seconds while no search of it runs is
//!   closed (close code 1001);
//! - a message over [`MAX_MESSAGE`] bytes closes its connection.

use crate::engine::DEFAULT_HASH_MB;
use crate::tei::{
    self, ChannelInput, ChannelOutput, Responder, SessionSettings, TableBudget, Transcript,
};
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tungstenite::error::ProtocolError;
use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::http::{header, StatusCode};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tungstenite::{Error, Message, WebSocket};

/// The largest message (and frame) accepted from a client, in bytes. TEI lines are short; a
/// `position` line of a long 8x8 game is a few KiB.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// The port PTN Ninja connects to by default.
pub const DEFAULT_PORT: u16 = 7731;

/// How long a client may take to send its whole opening request; a socket still without one is
/// closed. A browser sends it at once.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(2);

/// How many sockets may be waiting for their handshake at once; one more closes the one that has
/// waited longest. None of them counts against `--max-connections`.
pub const MAX_PENDING: usize = 16;

/// The longest request head read (a browser's is under 2 KiB).
const MAX_HEAD: usize = 16 * 1024;

/// How long one read of the socket waits before the connection thread sends pending output.
const POLL: Duration = Duration::from_millis(5);

/// How long a write to a client that does not read may block before the connection is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// The browser origins served by default: PTN Ninja, and pages served from this machine on any
/// port.
pub const DEFAULT_ORIGINS: [&str; 3] = [
    "https://ptn.ninja",
    "http://localhost:*",
    "http://127.0.0.1:*",
];

/// How many connections are served at once by default.
pub const DEFAULT_MAX_CONNECTIONS: u16 = 4;

/// The default budget for the hash tables of all connections together, MiB.
pub const DEFAULT_HASH_BUDGET_MB: u32 = 1024;

/// The default idle timeout, seconds.
pub const DEFAULT_IDLE_TIMEOUT: u64 = 1800;

/// Arguments of `cairn ws`: where to listen, which pages to serve, and the limits.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Each connection gets its own engine (own hash table); closing it stops its search. \
The bound address is printed on stderr as `listening on ws://ADDRESS:PORT`; \
refused connections are logged; RUST_LOG=info also logs the others.

Web pages: a browser says which page opens a connection (its Origin). Only PTN Ninja \
(https://ptn.ninja) and pages of this machine (http://localhost:*, http://127.0.0.1:*) are \
served unless --allow-origin says otherwise; programs, which send no Origin, always are.

Connecting PTN Ninja (https://ptn.ninja): open the Analysis panel, pick the TEI engine, \
set its address to localhost, port 7731, SSL off, and connect (ws://localhost:7731). \
Opening the address in a browser shows a page saying this.

A socket counts against --max-connections only once its WebSocket handshake is done; one that \
sends no complete request within 2 s is closed.

Examples:
  cairn ws
  cairn ws --port 9000 --log-file tei.log
  cairn ws --allow-origin https://ptn.ninja --allow-origin http://localhost:8080
  cairn ws --max-connections 1 --hash-budget 4096 --idle-timeout 0
  RUST_LOG=info cairn ws --port 0")]
pub struct WsArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on; the default accepts local connections only.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub address: IpAddr,
    /// A web page origin to serve: `https://HOST`, `http://HOST:PORT`, `http://HOST:*` (any
    /// port) or `*` (any page). Repeatable; replaces the default list (PTN Ninja and this
    /// machine's pages).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origin: Vec<AllowedOrigin>,
    /// Connections served at once; one more is refused (HTTP 503).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_CONNECTIONS,
        value_parser = clap::value_parser!(u16).range(1..))]
    pub max_connections: u16,
    /// MiB of hash tables for all connections together; a larger `setoption name Hash` is
    /// clamped to what the other connections leave.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_HASH_BUDGET_MB,
        value_parser = clap::value_parser!(u32).range(1..))]
    pub hash_budget: u32,
    /// Seconds a connection may send nothing while no search of it runs before it is closed
    /// (0: never).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_IDLE_TIMEOUT)]
    pub idle_timeout: u64,
}

/// A web page origin allowed to connect: `scheme://host`, `scheme://host:port`,
/// `scheme://host:*` (any port, or none) or `*` (any origin). Compared without regard to case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedOrigin(String);

impl FromStr for AllowedOrigin {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let pattern = text.trim().trim_end_matches('/').to_ascii_lowercase();
        if pattern == "*" {
            return Ok(AllowedOrigin(pattern));
        }
        let bad = || {
            format!(
                "`{text}` is not an origin (http://HOST, https://HOST:PORT, http://HOST:* or *)"
            )
        };
        let rest = ["http://", "https://"]
            .iter()
            .find_map(|scheme| pattern.strip_prefix(scheme))
            .ok_or_else(bad)?;
        // An IPv6 host is bracketed; the port, if any, follows the last colon after it.
        let (host, port) = match rest.rfind(':').filter(|&at| !rest[at..].contains(']')) {
            Some(at) => (&rest[..at], Some(&rest[at + 1..])),
            None => (rest, None),
        };
        let host_ok = !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-_[]:".contains(&b));
        let port_ok = port.is_none_or(|p| {
            p == "*" || (!p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
        });
        if host_ok && port_ok {
            Ok(AllowedOrigin(pattern))
        } else {
            Err(bad())
        }
    }
}

impl fmt::Display for AllowedOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AllowedOrigin {
    /// Whether the `Origin` header value `origin` is allowed by this pattern.
    pub fn allows(&self, origin: &str) -> bool {
        let origin = origin.trim().to_ascii_lowercase();
        if self.0 == "*" {
            return true;
        }
        match self.0.strip_suffix(":*") {
            Some(base) => {
                origin == base
                    || origin
                        .strip_prefix(base)
                        .and_then(|rest| rest.strip_prefix(':'))
                        .is_some_and(|port| {
                            !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
                        })
            }
            None => origin == self.0,
        }
    }
}

/// What every connection is served under.
struct Policy {
    origins: Vec<AllowedOrigin>,
    budget: Arc<TableBudget>,
    /// `None`: connections may stay idle.
    idle_timeout: Option<Duration>,
}

impl Policy {
    /// The `Origin` header that makes a request refused, if any: one that no allowed pattern
    /// matches (or that is not text). A request without one is served.
    fn refused_origin(&self, request: &Request) -> Option<String> {
        request
            .headers()
            .get_all(header::ORIGIN)
            .iter()
            .find_map(|value| match value.to_str() {
                Ok(origin) if self.origins.iter().any(|o| o.allows(origin)) => None,
                Ok(origin) => Some(origin.to_string()),
                Err(_) => Some(String::from_utf8_lossy(value.as_bytes()).into_owned()),
            })
    }
}

/// Runs the server until the process is killed; returns the exit code (1 if it cannot listen
/// or the limits do not fit together). Lines of every session go to `transcript`, marked with
/// the connection id.
pub fn run(args: &WsArgs, transcript: Option<Transcript>) -> i32 {
    let max = args.max_connections as usize;
    let budget = match TableBudget::new(args.hash_budget as usize, max) {
        Ok(budget) => budget,
        Err(e) => {
            eprintln!(
                "error: --hash-budget {} with --max-connections {max}: {e}",
                args.hash_budget
            );
            return 1;
        }
    };
    let origins = if args.allow_origin.is_empty() {
        DEFAULT_ORIGINS
            .iter()
            .map(|o| o.parse().expect("the default origins are valid"))
            .collect()
    } else {
        args.allow_origin.clone()
    };
    let policy = Arc::new(Policy {
        origins,
        budget,
        idle_timeout: Some(Duration::from_secs(args.idle_timeout)).filter(|t| !t.is_zero()),
    });
    let wanted = SocketAddr::new(args.address, args.port);
    let listener = match TcpListener::bind(wanted) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("error: cannot listen on {wanted}: {e}");
            return 1;
        }
    };
    match listener.local_addr() {
        Ok(bound) => eprintln!("listening on ws://{bound}"),
        Err(e) => {
            eprintln!("error: cannot listen on {wanted}: {e}");
            return 1;
        }
    }
    let allowed: Vec<String> = policy.origins.iter().map(|o| o.to_string()).collect();
    log::info!(
        "serving web pages from {}; at most {max} connections, {} MiB of tables",
        allowed.join(" "),
        args.hash_budget
    );
    serve(&listener, transcript, &policy, max);
    0
}

/// Counts things in use up to a limit; a [`Slot`] is given back when dropped.
#[derive(Clone)]
struct Slots {
    taken: Arc<AtomicUsize>,
    limit: usize,
}

impl Slots {
    fn new(limit: usize) -> Self {
        Slots {
            taken: Arc::new(AtomicUsize::new(0)),
            limit,
        }
    }

    /// A slot, if fewer than the limit are taken.
    fn take(&self) -> Option<Slot> {
        self.taken
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.limit).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(&self.taken)))
    }
}

/// The sockets waiting for their handshake, oldest first, by connection id.
#[derive(Clone, Default)]
struct Pending(Arc<Mutex<VecDeque<(u64, TcpStream)>>>);

impl Pending {
    /// Adds socket `id` (a handle to `stream`); when [`MAX_PENDING`] are waiting already, the
    /// oldest is closed to make room.
    fn admit(&self, id: u64, stream: &TcpStream) {
        let handle = match stream.try_clone() {
            Ok(handle) => handle,
            Err(e) => {
                log::warn!("connection #{id}: cannot keep a handle of its socket: {e}");
                return;
            }
        };
        let mut waiting = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if waiting.len() >= MAX_PENDING {
            if let Some((_, oldest)) = waiting.pop_front() {
                let _ = oldest.shutdown(std::net::Shutdown::Both);
            }
        }
        waiting.push_back((id, handle));
    }

    /// Socket `id` is done with its handshake; false if it was closed to make room.
    fn done(&self, id: u64) -> bool {
        let mut waiting = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match waiting.iter().position(|(waiting, _)| *waiting == id) {
            Some(at) => {
                waiting.remove(at);
                true
            }
            None => false,
        }
    }
}

/// One taken slot of [`Slots`].
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Accepts connections forever, one thread each. A socket holds one of [`MAX_PENDING`] pending
/// slots until its handshake is over; only a completed WebSocket handshake takes one of the `max`
/// connection slots (or, with none free, is refused).
fn serve(listener: &TcpListener, transcript: Option<Transcript>, policy: &Arc<Policy>, max: usize) {
    let ids = Arc::new(AtomicU64::new(1));
    let serving = Slots::new(max);
    let pending = Pending::default();
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(e) => {
                // Out of file descriptors and the like: wait a little instead of spinning.
                log::warn!("cannot accept a connection: {e}");
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        let id = ids.fetch_add(1, Ordering::Relaxed);
        pending.admit(id, &stream);
        let waiting = pending.clone();
        let transcript = transcript.as_ref().map(|t| t.connection(id));
        let policy = Arc::clone(policy);
        let serving = serving.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("ws-{id}"))
            .spawn(move || connection(id, stream, transcript, &policy, &serving, waiting));
        if let Err(e) = spawned {
            log::warn!("connection #{id}: cannot start its thread: {e}");
        }
    }
}

/// Why a connection ended.
enum End {
    /// The client closed it (or the socket went away).
    Client,
    /// The session ended by itself (`quit`).
    Quit,
    /// The client sent nothing for this long while no search ran.
    Idle(Duration),
    /// The connection was closed for a fault of the client or the socket.
    Fault(String),
}

/// Why a handshake did not open a connection.
enum Refused {
    /// The request came from a web page whose origin is not allowed (answered 403).
    Origin(String),
    /// All connection slots were taken (answered 503).
    Full(usize),
    /// A plain HTTP request, not a WebSocket one (its request line): answered with the page
    /// saying what this server is.
    Page(String),
    /// No complete request came: the socket was closed, or stayed silent too long (why).
    NoRequest(String),
    /// The handshake failed.
    Handshake(String),
}

/// A client's socket during and after the handshake: the bytes already read from it (the
/// request head, and anything sent after it) are read again first.
struct Prefixed {
    stream: TcpStream,
    prefix: Vec<u8>,
    at: usize,
}

impl Read for Prefixed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.prefix.len() {
            let n = buf.len().min(self.prefix.len() - self.at);
            buf[..n].copy_from_slice(&self.prefix[self.at..self.at + n]);
            self.at += n;
            if self.at == self.prefix.len() {
                self.prefix = Vec::new();
                self.at = 0;
            }
            return Ok(n);
        }
        self.stream.read(buf)
    }
}

impl Write for Prefixed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

/// A served connection's socket.
type Socket = WebSocket<Prefixed>;

/// Serves one connection from handshake to close. It waits for its handshake among the
/// `waiting` sockets, then takes one of the `serving` slots for as long as it is open.
fn connection(
    id: u64,
    stream: TcpStream,
    transcript: Option<Transcript>,
    policy: &Policy,
    serving: &Slots,
    waiting: Pending,
) {
    let peer = stream
        .peer_addr()
        .map_or_else(|_| "an unknown address".to_string(), |a| a.to_string());
    let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
    let request = read_head(&stream, deadline);
    // The request is in (or will never be): the socket no longer waits among the silent ones.
    let evicted = !waiting.done(id);
    let opened =
        request.and_then(|(head, read)| handshake(stream, &head, read, deadline, policy, serving));
    let (mut ws, slot) = match opened {
        Ok(opened) => opened,
        Err(Refused::Origin(origin)) => {
            log::warn!(
                "connection #{id} from {peer} refused (403): origin `{origin}` is not allowed \
                 (see --allow-origin)"
            );
            return;
        }
        Err(Refused::Full(max)) => {
            log::warn!(
                "connection #{id} from {peer} refused (503): {max} connections are open \
                 (--max-connections)"
            );
            return;
        }
        Err(Refused::Page(line)) => {
            log::info!(
                "connection #{id} from {peer}: a plain HTTP request (`{line}`), answered with \
                 the page on how to connect"
            );
            return;
        }
        Err(Refused::NoRequest(_)) if evicted => {
            log::info!(
                "connection #{id} from {peer}: closed without a request to make room, as \
                 {MAX_PENDING} newer sockets wait for their handshake"
            );
            return;
        }
        Err(Refused::NoRequest(why)) => {
            log::info!("connection #{id} from {peer}: {why}; closed");
            return;
        }
        Err(Refused::Handshake(e)) => {
            log::warn!("connection #{id} from {peer}: no WebSocket handshake: {e}");
            return;
        }
    };
    log::info!("connection #{id} from {peer} opened");
    let (lines_in, input) = channel::<String>();
    let (output, lines_out) = channel::<String>();
    let out = Responder::new(ChannelOutput::new(output)).with_transcript(transcript);
    let table = policy.budget.join(DEFAULT_HASH_MB);
    if table.mb() < DEFAULT_HASH_MB {
        log::info!(
            "connection #{id}: a {} MiB table (what the others leave of --hash-budget)",
            table.mb()
        );
    }
    let searching = Arc::new(AtomicBool::new(false));
    let settings = SessionSettings {
        table: Some(table),
        searching: Arc::clone(&searching),
    };
    let session = std::thread::Builder::new()
        .name(format!("ws-{id}-tei"))
        .spawn(move || tei::run_session(ChannelInput::new(input), out, settings));
    let session = match session {
        Ok(handle) => handle,
        Err(e) => {
            log::warn!("connection #{id}: cannot start its session: {e}");
            return;
        }
    };
    let idle = policy.idle_timeout.map(|limit| Idle {
        limit,
        since: Instant::now(),
        searching,
    });
    let end = pump(&mut ws, &lines_in, &lines_out, idle);
    // End of input: the session stops its search and drops its engine.
    drop(lines_in);
    let stopped = match session.join() {
        Ok(stopped) => stopped,
        Err(_) => {
            log::error!("connection #{id}: the session thread panicked");
            false
        }
    };
    // Free before the log line says the connection is closed: a new one may follow at once.
    drop(slot);
    let search = if stopped {
        "its search was stopped"
    } else {
        "no search was running"
    };
    match end {
        End::Client => log::info!("connection #{id} closed by the client; session ended, {search}"),
        End::Quit => log::info!("connection #{id} closed after quit; session ended, {search}"),
        End::Idle(limit) => log::info!(
            "connection #{id} closed: idle for {} s (--idle-timeout); session ended, {search}",
            limit.as_secs()
        ),
        End::Fault(why) => {
            log::warn!("connection #{id} closed: {why}; session ended, {search}");
        }
    }
}

/// The request head a client sent: its first line, and whether it asks for a WebSocket.
struct Head {
    line: String,
    method: String,
    upgrade: bool,
}

/// Where the request head in `buf` ends (after its blank line), if it is all there.
fn head_end(buf: &[u8]) -> Option<usize> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    crlf.into_iter().chain(lf).min()
}

/// Reads the request head from `stream` before `deadline`; returns it and every byte read.
fn read_head(stream: &TcpStream, deadline: Instant) -> Result<(Head, Vec<u8>), Refused> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    let end = loop {
        if let Some(end) = head_end(&buf) {
            break end;
        }
        if buf.len() >= MAX_HEAD {
            return Err(Refused::Handshake(format!(
                "a request head over {} KiB",
                MAX_HEAD / 1024
            )));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Refused::NoRequest(format!(
                "no complete request within {} s",
                HANDSHAKE_TIMEOUT.as_secs()
            )));
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|e| Refused::Handshake(e.to_string()))?;
        match (&*stream).read(&mut chunk) {
            Ok(0) if buf.is_empty() => {
                return Err(Refused::NoRequest("closed without a request".to_string()))
            }
            Ok(0) => {
                return Err(Refused::NoRequest(
                    "closed in the middle of its request".to_string(),
                ))
            }
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(e) => {
                return Err(Refused::NoRequest(format!(
                    "a socket error before its request ({e})"
                )))
            }
        }
    };
    let text = String::from_utf8_lossy(&buf[..end]);
    let mut lines = text.lines();
    let line: String = lines
        .next()
        .unwrap_or_default()
        .trim()
        .chars()
        .take(100)
        .collect();
    let method = line.split(' ').next().unwrap_or_default().to_string();
    let upgrade = lines.any(|header| {
        header.split_once(':').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("upgrade")
                && value.to_ascii_lowercase().contains("websocket")
        })
    });
    Ok((
        Head {
            line,
            method,
            upgrade,
        },
        buf,
    ))
}

/// The server side of the opening handshake, before `deadline`, once the request `head` is in
/// (`read`: every byte read so far): answers a plain HTTP request with [`page`]; refuses a web
/// page of an origin `policy` does not allow, then, with no `serving` slot free, every request;
/// else opens the connection with a slot taken, and sets the read timeout used for polling.
fn handshake(
    stream: TcpStream,
    head: &Head,
    read: Vec<u8>,
    deadline: Instant,
    policy: &Policy,
    serving: &Slots,
) -> Result<(Socket, Slot), Refused> {
    let failed = |e: io::Error| Refused::Handshake(e.to_string());
    stream
        .set_write_timeout(Some(WRITE_TIMEOUT))
        .and_then(|()| stream.set_nodelay(true))
        .map_err(failed)?;
    if !head.upgrade {
        answer_with_page(&stream, head);
        return Err(Refused::Page(head.line.clone()));
    }
    // The rest of the handshake reads only what is already read, and writes the answer.
    stream
        .set_read_timeout(Some(
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(1)),
        ))
        .map_err(failed)?;
    let stream = Prefixed {
        stream,
        prefix: read,
        at: 0,
    };
    let config = WebSocketConfig::default()
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let mut refused = None;
    let mut slot = None;
    // The error type is the one tungstenite's callback returns: the HTTP answer itself.
    #[allow(clippy::result_large_err)]
    let check = |request: &Request, response: Response| {
        if let Some(origin) = policy.refused_origin(request) {
            refused = Some(Refused::Origin(origin));
            return Err(refusal(StatusCode::FORBIDDEN, "origin not allowed"));
        }
        match serving.take() {
            Some(taken) => {
                slot = Some(taken);
                Ok(response)
            }
            None => {
                refused = Some(Refused::Full(serving.limit));
                Err(refusal(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too many connections",
                ))
            }
        }
    };
    // `None`: the handshake timed out.
    let accepted =
        tungstenite::accept_hdr_with_config(stream, check, Some(config)).map_err(|e| match e {
            tungstenite::HandshakeError::Interrupted(_) => None,
            tungstenite::HandshakeError::Failure(e) => Some(e),
        });
    let ws = accepted.map_err(|e| match (refused, e) {
        (Some(refusal), Some(Error::Http(_))) => refusal,
        (_, None) => Refused::Handshake("timed out".to_string()),
        (_, Some(e)) => Refused::Handshake(e.to_string()),
    })?;
    let slot = slot.ok_or_else(|| Refused::Handshake("no connection slot".to_string()))?;
    ws.get_ref()
        .stream
        .set_read_timeout(Some(POLL))
        .map_err(failed)?;
    Ok((ws, slot))
}

/// The text of the page a plain HTTP request gets: what this server is and how to connect to
/// it, at `address` (the address the request came to).
pub fn page(address: Option<SocketAddr>) -> String {
    let (host, port) = match address {
        Some(a) => (a.ip().to_string(), a.port().to_string()),
        None => ("localhost".to_string(), DEFAULT_PORT.to_string()),
    };
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host
    };
    format!(
        "Cairn {version}: a Tak engine serving TEI over WebSocket, for PTN Ninja.\n\
         \n\
         This address takes WebSocket connections (ws://{host}:{port}), not web pages.\n\
         \n\
         To analyse with Cairn in PTN Ninja (https://ptn.ninja): open the Analysis panel, pick \
         the TEI engine, set its address to localhost, port {port}, SSL off, and connect.\n\
         \n\
         A program connects with a WebSocket client to ws://{host}:{port} and speaks TEI: each \
         line it sends or receives is one text message. Every connection gets its own engine.\n",
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Answers a plain HTTP request with [`page`] (HTTP 426, Upgrade Required: this address speaks
/// WebSocket), then closes the socket.
fn answer_with_page(stream: &TcpStream, head: &Head) {
    let body = page(stream.local_addr().ok());
    let mut answer = format!(
        "HTTP/1.1 426 Upgrade Required\r\nUpgrade: websocket\r\nConnection: close\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    if head.method != "HEAD" {
        answer.push_str(&body);
    }
    let mut writer = stream;
    if writer.write_all(answer.as_bytes()).is_err() {
        return;
    }
    // Closing with unread bytes would reset the connection before the client reads the page:
    // the client's side is drained for a moment first.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 1024];
    let mut reader = stream;
    while matches!(reader.read(&mut sink), Ok(n) if n > 0) {}
}

/// An HTTP answer refusing a handshake, with `why` as a one-line text body.
fn refusal(status: StatusCode, why: &str) -> ErrorResponse {
    let body = format!("{why}\n");
    let mut response = ErrorResponse::new(Some(body.clone()));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(
        header::CONTENT_LENGTH,
        header::HeaderValue::from(body.len()),
    );
    response
}

/// The idle timeout of one connection.
struct Idle {
    limit: Duration,
    /// The last message from the client, or the end of the session's last search.
    since: Instant,
    /// Set by the session while it searches.
    searching: Arc<AtomicBool>,
}

impl Idle {
    /// Whether the connection has now been idle too long; a running search or a message just
    /// `heard` starts the count again.
    fn expired(&mut self, heard: bool) -> bool {
        if heard || self.searching.load(Ordering::SeqCst) {
            self.since = Instant::now();
        }
        self.since.elapsed() >= self.limit
    }
}

/// Moves lines both ways until the connection or the session ends, or (with `idle`) the client
/// stays silent too long.
fn pump(
    ws: &mut Socket,
    lines_in: &Sender<String>,
    lines_out: &Receiver<String>,
    mut idle: Option<Idle>,
) -> End {
    let mut heard = false;
    loop {
        if let Some(idle) = &mut idle {
            if idle.expired(std::mem::take(&mut heard)) {
                let why = format!("idle for {} s", idle.limit.as_secs());
                close(ws, CloseCode::Away, &why);
                return End::Idle(idle.limit);
            }
        }
        // Everything the session wrote so far goes out first.
        loop {
            match lines_out.try_recv() {
                Ok(line) => {
                    if let Err(e) = ws.send(Message::text(line)) {
                        return closed_by(e);
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    // The session is over (`quit`) and every line of it is out.
                    close(ws, CloseCode::Normal, "quit");
                    return End::Quit;
                }
            }
        }
        let read = ws.read();
        heard |= read.is_ok();
        match read {
            Ok(Message::Text(text)) => {
                for line in text.as_str().lines() {
                    // The session may have quit already; its lines are then dropped.
                    let _ = lines_in.send(line.trim_end_matches('\r').to_string());
                }
            }
            Ok(Message::Binary(data)) => {
                let why = format!("a binary message ({} bytes); TEI is text", data.len());
                return refuse(ws, CloseCode::Unsupported, why);
            }
            Ok(Message::Close(_)) => {
                // Sends the reply to the client's close frame.
                let _ = ws.flush();
                return End::Client;
            }
            Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_)) => {}
            Err(Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(Error::Protocol(ProtocolError::ResetWithoutClosingHandshake)) => {
                return End::Client;
            }
            Err(Error::Capacity(e)) => {
                return refuse(ws, CloseCode::Size, format!("message too large ({e})"));
            }
            Err(Error::Protocol(e)) => {
                return refuse(ws, CloseCode::Protocol, format!("malformed frame ({e})"));
            }
            Err(Error::Utf8(e)) => {
                return refuse(ws, CloseCode::Invalid, format!("text is not UTF-8 ({e})"));
            }
            Err(e) => return closed_by(e),
        }
    }
}

/// What a failed read or write of the socket means.
fn closed_by(e: Error) -> End {
    match e {
        Error::ConnectionClosed
        | Error::AlreadyClosed
        | Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => End::Client,
        Error::Io(e)
            if matches!(
                e.kind(),
                ErrorKind::ConnectionReset | ErrorKind::BrokenPipe | ErrorKind::UnexpectedEof
            ) =>
        {
            End::Client
        }
        e => End::Fault(format!("socket error ({e})")),
    }
}

/// Closes the connection for a fault of the client, telling it why if the socket still works.
fn refuse(ws: &mut Socket, code: CloseCode, why: String) -> End {
    close(ws, code, &why);
    End::Fault(why)
}

/// Starts the closing handshake with `code` and (the start of) `reason`, if the socket still
/// allows it.
fn close(ws: &mut Socket, code: CloseCode, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.chars().take(100).collect::<String>().into(),
    };
    if ws.close(Some(frame)).is_ok() {
        let _ = ws.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_patterns() {
        let pattern = |text: &str| text.parse::<AllowedOrigin>().unwrap();
        assert_eq!(
            pattern("https://PTN.ninja/").to_string(),
            "https://ptn.ninja"
        );
        for (allowed, origin, served) in [
            ("https://PTN.ninja/", "https://ptn.ninja", true),
            ("https://ptn.ninja", "HTTPS://Ptn.Ninja", true),
            ("https://ptn.ninja", "http://ptn.ninja", false),
            ("https://ptn.ninja", "https://ptn.ninja:8443", false),
            ("https://ptn.ninja", "https://ptn.ninja.x", false),
            ("https://ptn.ninja", "", false),
            ("http://localhost:*", "http://localhost", true),
            ("http://localhost:*", "http://localhost:8080", true),
            ("http://localhost:*", "http://LOCALHOST:1", true),
            ("http://localhost:*", "http://localhost:", false),
            ("http://localhost:*", "http://localhost:80x", false),
            ("http://localhost:*", "http://localhost.evil.example", false),
            ("http://localhost:*", "https://localhost:8080", false),
            ("http://localhost:*", "null", false),
            ("http://[::1]:*", "http://[::1]:3000", true),
            ("http://[::1]:*", "http://[::2]:3000", false),
            ("http://[::1]", "http://[::1]", true),
            ("http://127.0.0.1:5173", "http://127.0.0.1:5173", true),
            ("http://127.0.0.1:5173", "http://127.0.0.1:5174", false),
            (" * ", "null", true),
        ] {
            assert_eq!(
                pattern(allowed).allows(origin),
                served,
                "{allowed} {origin}"
            );
        }
        for bad in [
            "",
            "ptn.ninja",
            "ws://localhost",
            "https://",
            "https://ptn.ninja/analysis",
            "http://localhost:",
            "http://localhost:123456",
            "http://local host",
            "**",
        ] {
            assert!(bad.parse::<AllowedOrigin>().is_err(), "{bad}");
        }
        for default in DEFAULT_ORIGINS {
            assert_eq!(pattern(default).to_string(), default);
        }
    }
}
