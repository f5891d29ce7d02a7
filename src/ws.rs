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

use crate::tei::{self, Responder, Transcript};
use std::io::{self, BufRead, ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::Duration;
use tungstenite::error::ProtocolError;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tungstenite::{Error, Message, WebSocket};

/// The largest message (and frame) accepted from a client, in bytes. TEI lines are short; a
/// `position` line of a long 8x8 game is a few KiB.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// The port PTN Ninja connects to by default.
pub const DEFAULT_PORT: u16 = 7731;

/// How long a client may take to send its opening handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one read of the socket waits before the connection thread sends pending output.
const POLL: Duration = Duration::from_millis(5);

/// How long a write to a client that does not read may block before the connection is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// Serve TEI over WebSocket (for PTN Ninja): one engine session per connection.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Each connection gets its own engine (own hash table); closing it stops its search. \
The bound address is printed on stderr as `listening on ws://ADDRESS:PORT`; \
RUST_LOG=info also logs connections.

Connecting PTN Ninja (https://ptn.ninja): open the Analysis panel, pick the TEI engine, \
set its address to localhost, port 7731, SSL off, and connect (ws://localhost:7731).

Examples:
  cairn ws
  cairn ws --port 9000 --log-file tei.log
  RUST_LOG=info cairn ws --port 0")]
pub struct WsArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on; the default accepts local connections only.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub address: IpAddr,
}

/// Runs the server until the process is killed; returns the exit code (1 if it cannot listen).
/// Lines of every session go to `transcript`, marked with the connection id.
pub fn run(args: &WsArgs, transcript: Option<Transcript>) -> i32 {
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
    serve(&listener, transcript);
    0
}

/// Accepts connections forever, one thread each.
fn serve(listener: &TcpListener, transcript: Option<Transcript>) {
    let ids = Arc::new(AtomicU64::new(1));
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
        let transcript = transcript.as_ref().map(|t| t.connection(id));
        let spawned = std::thread::Builder::new()
            .name(format!("ws-{id}"))
            .spawn(move || connection(id, stream, transcript));
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
    /// The connection was closed for a fault of the client or the socket.
    Fault(String),
}

/// Serves one connection from handshake to close.
fn connection(id: u64, stream: TcpStream, transcript: Option<Transcript>) {
    let peer = stream
        .peer_addr()
        .map_or_else(|_| "an unknown address".to_string(), |a| a.to_string());
    let mut ws = match handshake(stream) {
        Ok(ws) => ws,
        Err(e) => {
            log::warn!("connection #{id} from {peer}: no WebSocket handshake: {e}");
            return;
        }
    };
    log::info!("connection #{id} from {peer} opened");
    let (lines_in, input) = channel::<String>();
    let (output, lines_out) = channel::<String>();
    let out = Responder::new(Outgoing {
        lines: output,
        partial: Vec::new(),
    })
    .with_transcript(transcript);
    let session = std::thread::Builder::new()
        .name(format!("ws-{id}-tei"))
        .spawn(move || tei::run_session(ChannelInput::new(input), out));
    let session = match session {
        Ok(handle) => handle,
        Err(e) => {
            log::warn!("connection #{id}: cannot start its session: {e}");
            return;
        }
    };
    let end = pump(&mut ws, &lines_in, &lines_out);
    // End of input: the session stops its search and drops its engine.
    drop(lines_in);
    let stopped = match session.join() {
        Ok(stopped) => stopped,
        Err(_) => {
            log::error!("connection #{id}: the session thread panicked");
            false
        }
    };
    let search = if stopped {
        "its search was stopped"
    } else {
        "no search was running"
    };
    match end {
        End::Client => log::info!("connection #{id} closed by the client; session ended, {search}"),
        End::Quit => log::info!("connection #{id} closed after quit; session ended, {search}"),
        End::Fault(why) => {
            log::warn!("connection #{id} closed: {why}; session ended, {search}");
        }
    }
}

/// The server side of the opening handshake, with a deadline; then sets the read timeout used
/// for polling.
fn handshake(stream: TcpStream) -> Result<WebSocket<TcpStream>, String> {
    stream
        .set_read_timeout(Some(HANDSHAKE_TIMEOUT))
        .and_then(|()| stream.set_write_timeout(Some(WRITE_TIMEOUT)))
        .and_then(|()| stream.set_nodelay(true))
        .map_err(|e| e.to_string())?;
    let config = WebSocketConfig::default()
        .read_buffer_size(16 * 1024)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let ws = tungstenite::accept_with_config(stream, Some(config)).map_err(|e| match e {
        tungstenite::HandshakeError::Interrupted(_) => "timed out".to_string(),
        tungstenite::HandshakeError::Failure(e) => e.to_string(),
    })?;
    ws.get_ref()
        .set_read_timeout(Some(POLL))
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// Moves lines both ways until the connection or the session ends.
fn pump(
    ws: &mut WebSocket<TcpStream>,
    lines_in: &Sender<String>,
    lines_out: &Receiver<String>,
) -> End {
    loop {
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
                    let frame = CloseFrame {
                        code: CloseCode::Normal,
                        reason: "quit".into(),
                    };
                    if ws.close(Some(frame)).is_ok() {
                        let _ = ws.flush();
                    }
                    return End::Quit;
                }
            }
        }
        match ws.read() {
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
fn refuse(ws: &mut WebSocket<TcpStream>, code: CloseCode, why: String) -> End {
    let frame = CloseFrame {
        code,
        reason: why.chars().take(100).collect::<String>().into(),
    };
    if ws.close(Some(frame)).is_ok() {
        let _ = ws.flush();
    }
    End::Fault(why)
}

/// The session's input: lines arriving over a channel. The end of the channel is the end of
/// input (the TEI loop then stops any search and returns).
struct ChannelInput {
    lines: Receiver<String>,
    /// The current line, newline included, and how much of it was consumed.
    current: Vec<u8>,
    at: usize,
}

impl ChannelInput {
    fn new(lines: Receiver<String>) -> Self {
        ChannelInput {
            lines,
            current: Vec::new(),
            at: 0,
        }
    }
}

impl Read for ChannelInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelInput {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.current.len() {
            match self.lines.recv() {
                Ok(line) => {
                    self.current = line.into_bytes();
                    self.current.push(b'\n');
                    self.at = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.current.len());
    }
}

/// The session's output: the [`Responder`] writes whole lines; each becomes one message.
struct Outgoing {
    lines: Sender<String>,
    /// Bytes of a line not yet ended by `\n`.
    partial: Vec<u8>,
}

impl Write for Outgoing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line = String::from_utf8_lossy(&self.partial[..end]).into_owned();
            self.partial.drain(..=end);
            // After the connection closed nobody reads: the line is dropped on purpose.
            let _ = self.lines.send(line);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_input_gives_lines_then_end_of_input() {
        let (tx, rx) = channel();
        tx.send("tei".to_string()).unwrap();
        tx.send(String::new()).unwrap();
        tx.send("go depth 3".to_string()).unwrap();
        drop(tx);
        let mut input = ChannelInput::new(rx);
        let mut lines = Vec::new();
        let mut line = String::new();
        while input.read_line(&mut line).unwrap() > 0 {
            lines.push(std::mem::take(&mut line));
        }
        assert_eq!(lines, ["tei\n", "\n", "go depth 3\n"]);
    }

    #[test]
    fn outgoing_splits_writes_into_lines() {
        let (tx, rx) = channel();
        let mut out = Outgoing {
            lines: tx,
            partial: Vec::new(),
        };
        out.write_all(b"info string a").unwrap();
        out.write_all(b"b\nreadyok\nbest").unwrap();
        assert_eq!(
            rx.try_iter().collect::<Vec<_>>(),
            ["info string ab", "readyok"]
        );
        out.write_all(b"move a1\n").unwrap();
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), ["bestmove a1"]);
        // A closed connection drops lines without failing the session.
        drop(rx);
        assert_eq!(out.write(b"readyok\n").unwrap(), 8);
    }
}
