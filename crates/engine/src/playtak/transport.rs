//! The connection to the server: lines over a telnet-style TCP socket or over WebSocket.
//!
//! Either way a reader thread turns what arrives into [`Incoming`] events on the client's one
//! channel (tagged with the connection's id, so a late line from an old connection is told
//! apart), and [`Connection::send`] writes one command. The protocol's text is ISO-8859-1: each
//! byte is one character, and characters beyond it go out as `?`.
//!
//! Over TCP, Nagle's algorithm is turned off so a move leaves at once. Over WebSocket (the
//! `binary` subprotocol, plain `ws://` only), one thread owns the socket: it writes the queued
//! commands, one text frame each, and reads with a short timeout; a server frame may hold
//! several lines.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread;
use std::time::Duration;

/// What a connection's reader reports.
#[derive(Debug)]
pub enum Incoming {
    /// A line from the server, without its line end.
    Line(String),
    /// The connection ended (closed by the server, or an error).
    Closed(String),
}

/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one write may block (a full send buffer on a dead link).
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the WebSocket thread waits for a frame before it looks at its queue again.
const WS_POLL: Duration = Duration::from_millis(5);

/// A live connection; closing it (or dropping it) ends its reader.
pub struct Connection {
    /// The id its events carry.
    pub id: u64,
    sink: Sink,
}

enum Sink {
    Tcp(TcpStream),
    Ws(Sender<String>),
}

/// ISO-8859-1 bytes to text.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

/// Text to ISO-8859-1 bytes.
fn to_latin1(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

fn resolve(server: &str) -> io::Result<std::net::SocketAddr> {
    server.to_socket_addrs()?.next().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("{server}: no address found"),
        )
    })
}

impl Connection {
    /// Connects to `server` (`HOST:PORT`), over WebSocket if `websocket`; what arrives goes to
    /// `events` as `(id, Incoming)`.
    pub fn open<T: From<(u64, Incoming)> + Send + 'static>(
        server: &str,
        websocket: bool,
        id: u64,
        events: Sender<T>,
    ) -> io::Result<Connection> {
        let stream = TcpStream::connect_timeout(&resolve(server)?, CONNECT_TIMEOUT)?;
        stream.set_nodelay(true)?;
        // A write into a link that went silent fails instead of blocking the client.
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let sink = if websocket {
            Sink::Ws(open_ws(server, stream, id, events)?)
        } else {
            let reader = stream.try_clone()?;
            thread::Builder::new()
                .name(format!("playtak-read-{id}"))
                .spawn(move || read_tcp(reader, id, events))?;
            Sink::Tcp(stream)
        };
        Ok(Connection { id, sink })
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        match &mut self.sink {
            Sink::Tcp(stream) => {
                let mut bytes = to_latin1(line);
                bytes.push(b'\n');
                stream.write_all(&bytes)
            }
            Sink::Ws(queue) => queue
                .send(line.to_string())
                .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "WebSocket closed")),
        }
    }

    /// Closes the connection.
    pub fn close(&mut self) {
        match &mut self.sink {
            Sink::Tcp(stream) => {
                let _ = stream.shutdown(Shutdown::Both);
            }
            // Dropping the queue's sender ends the WebSocket thread, which closes the socket.
            Sink::Ws(queue) => *queue = mpsc::channel().0,
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}

fn read_tcp<T: From<(u64, Incoming)>>(stream: TcpStream, id: u64, events: Sender<T>) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let event = match reader.read_until(b'\n', &mut buf) {
            Ok(0) => Incoming::Closed("closed by the server".to_string()),
            Ok(_) => {
                let line = latin1(&buf);
                Incoming::Line(line.trim_end_matches(['\n', '\r']).to_string())
            }
            Err(e) => Incoming::Closed(e.to_string()),
        };
        let closed = matches!(event, Incoming::Closed(_));
        if events.send((id, event).into()).is_err() || closed {
            return;
        }
    }
}

/// Does the WebSocket handshake on `stream` and starts the thread that owns the socket;
/// returns the queue of commands to send.
fn open_ws<T: From<(u64, Incoming)> + Send + 'static>(
    server: &str,
    stream: TcpStream,
    id: u64,
    events: Sender<T>,
) -> io::Result<Sender<String>> {
    use tungstenite::client::IntoClientRequest;
    let failed = |e: tungstenite::Error| io::Error::other(format!("WebSocket: {e}"));
    let mut request = format!("ws://{server}/")
        .into_client_request()
        .map_err(failed)?;
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        tungstenite::http::HeaderValue::from_static("binary"),
    );
    stream.set_read_timeout(Some(CONNECT_TIMEOUT))?;
    let (socket, _) = tungstenite::client(request, stream).map_err(|e| match e {
        tungstenite::HandshakeError::Failure(e) => failed(e),
        tungstenite::HandshakeError::Interrupted(_) => {
            io::Error::new(io::ErrorKind::TimedOut, "WebSocket handshake timed out")
        }
    })?;
    socket.get_ref().set_read_timeout(Some(WS_POLL))?;
    let (queue, outgoing) = mpsc::channel();
    thread::Builder::new()
        .name(format!("playtak-ws-{id}"))
        .spawn(move || run_ws(socket, outgoing, id, events))?;
    Ok(queue)
}

fn run_ws<T: From<(u64, Incoming)>>(
    mut socket: tungstenite::WebSocket<TcpStream>,
    outgoing: Receiver<String>,
    id: u64,
    events: Sender<T>,
) {
    use tungstenite::{Error, Message};
    let closed = |reason: String| {
        let _ = events.send((id, Incoming::Closed(reason)).into());
    };
    loop {
        loop {
            match outgoing.try_recv() {
                Ok(line) => {
                    let text = latin1(&to_latin1(&line));
                    if let Err(e) = socket.send(Message::text(text)) {
                        return closed(e.to_string());
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    let _ = socket.close(None);
                    let _ = socket.flush();
                    return;
                }
            }
        }
        match socket.read() {
            Ok(Message::Binary(bytes)) => {
                if !send_lines(&latin1(&bytes), id, &events) {
                    return;
                }
            }
            Ok(Message::Text(text)) => {
                if !send_lines(text.as_str(), id, &events) {
                    return;
                }
            }
            Ok(Message::Close(_)) => return closed("closed by the server".to_string()),
            Ok(_) => {}
            Err(Error::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return closed(e.to_string()),
        }
    }
}

/// Passes on each line of a frame; false once the client is gone.
fn send_lines<T: From<(u64, Incoming)>>(text: &str, id: u64, events: &Sender<T>) -> bool {
    text.split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.is_empty())
        .all(|l| {
            events
                .send((id, Incoming::Line(l.to_string())).into())
                .is_ok()
        })
}
