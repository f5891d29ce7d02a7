//! `cairn playtak` against a small fake server written from the playtak protocol: every test
//! plays the server's side of an exchange, line by line, and checks the exact lines the client
//! sends (login, seeks, accepts, moves on several sizes, undo and draw answers, the answer to
//! `NOK`, a dropped connection and the resumed game), and the network's faults: a guest's game
//! resent before its `Welcome`, a link gone silent, a `NOK` to `Login`, a move found while the
//! link was down, a draw offered while Cairn thinks; and what an operator uses: the stop on a
//! signal, `--resign`, chat, several seeks, accept filters and the PTN's tags.

use crate::common::{Reaped, Scratch, SpawnReaped};
use cairn_engine::playtak::protocol::{move_from_server, move_to_server};
use cairn_tak::board::{Color, Position};
use cairn_tak::notation::{parse_file, replay_any, PtnMove};
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The server side of one connection.
struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// PINGs received (each answered `OK`, as the server does).
    pings: usize,
}

impl Peer {
    fn accept(listener: &TcpListener) -> Peer {
        listener.set_nonblocking(false).unwrap();
        let (stream, _) = listener.accept().expect("the client did not connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        Peer {
            reader: BufReader::new(stream.try_clone().unwrap()),
            writer: stream,
            pings: 0,
        }
    }

    fn send(&mut self, line: &str) {
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .expect("write to the client");
    }

    /// The next line from the client that is not a PING.
    fn recv(&mut self) -> String {
        loop {
            let mut line = String::new();
            let n = self
                .reader
                .read_line(&mut line)
                .expect("read from the client");
            assert!(n > 0, "the client closed the connection");
            let line = line.trim_end_matches('\n').to_string();
            if line == "PING" {
                self.pings += 1;
                self.send("OK");
                continue;
            }
            return line;
        }
    }

    fn expect(&mut self, line: &str) {
        assert_eq!(self.recv(), line);
    }

    /// Asserts that the client sends nothing but PINGs for `quiet`.
    fn expect_silence(&mut self, quiet: Duration) {
        let stream = self.reader.get_ref().try_clone().unwrap();
        let until = Instant::now() + quiet;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            stream
                .set_read_timeout(Some(left.max(Duration::from_millis(1))))
                .unwrap();
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) => panic!("the client closed the connection"),
                Ok(_) if line.trim_end() == "PING" => {
                    self.pings += 1;
                    self.send("OK");
                }
                Ok(_) => panic!("expected silence, got {line:?}"),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => break,
                Err(e) => panic!("read from the client: {e}"),
            }
        }
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
    }

    /// Greets, answers `Client` and `Protocol 2`, and returns the login line (unanswered).
    fn login_line(&mut self) -> String {
        self.send("Welcome!");
        self.send("Login or Register");
        let client = self.recv();
        assert!(client.starts_with("Client cairn-"), "{client}");
        self.send("OK");
        self.expect("Protocol 2");
        self.send("OK");
        self.recv()
    }

    /// For `time`, checks that the client sends nothing but PINGs (answered).
    fn only_pings_for(&mut self, time: Duration) {
        let end = Instant::now() + time;
        self.writer
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        let mut line = String::new();
        while Instant::now() < end {
            match self.reader.read_line(&mut line) {
                Ok(0) => panic!("the client closed the connection"),
                Ok(_) if line.ends_with('\n') => {
                    assert_eq!(line, "PING\n", "only PINGs expected here");
                    self.pings += 1;
                    self.send("OK");
                    line.clear();
                }
                _ => {}
            }
        }
        assert!(line.is_empty(), "a partial line `{line}`");
        self.writer
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
    }

    /// Greets, answers `Client` and `Protocol 2`, and checks the login line.
    fn handshake(&mut self, login: &str, welcome: &str) {
        let line = self.login_line();
        if login == "Login Guest" {
            let token = line.strip_prefix("Login Guest ").expect(&line);
            assert!(
                token.len() == 20 && token.bytes().all(|b| b.is_ascii_lowercase()),
                "{line}"
            );
        } else {
            assert_eq!(line, login);
        }
        self.send(welcome);
        self.send("Online 2");
        self.send("OnlinePlayers []");
    }
}

/// A listener on a free loopback port and its address.
fn listen() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    (listener, addr)
}

/// Starts `cairn playtak` against `addr` with `args` and `--quiet`, as user `cairn` (password
/// `secret`).
fn client(addr: &str, args: &[&str]) -> Reaped {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["playtak", "--server", addr, "--hash", "2", "--quiet"])
        .args(args)
        .env("CAIRN_PLAYTAK_PASSWORD", "secret")
        .env("RUST_LOG", "warn,cairn_engine::playtak=debug")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn_reaped()
}

/// `cairn playtak` as user `cairn` seeking one 5×5 game, with `args` added.
fn one_game(addr: &str, args: &[&str]) -> Reaped {
    let mut all = vec!["--user", "cairn", "--size", "5", "--games", "1"];
    all.extend_from_slice(args);
    client(addr, &all)
}

/// Waits for the client to exit; its exit code and stderr.
fn finish(mut child: Reaped) -> (Option<i32>, String) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the client did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output();
    assert!(output.stdout.is_empty(), "playtak writes nothing to stdout");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Ends the client (which plays until stopped); its stderr.
fn kill(mut child: Reaped) -> String {
    let _ = child.kill();
    finish(child).1
}

/// Waits for the client to exit 0 having logged each of `says`; its stderr.
fn exits_0_saying(child: Reaped, says: &[&str]) -> String {
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(0), "{stderr}");
    for text in says {
        assert!(stderr.contains(text), "`{text}` not in:\n{stderr}");
    }
    stderr
}

/// The one PTN file in `dir`.
fn ptn_in(dir: &Path) -> String {
    let files: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::read_to_string(files[0].path()).unwrap()
}

/// A game seen from the server: the position, to check the client's moves and to choose the
/// opponent's (a spread whenever one is legal, so both move shapes are exercised).
struct Board<const N: usize> {
    pos: Position<N>,
    plies: Vec<String>,
}

impl<const N: usize> Board<N> {
    fn new(half_komi: i8) -> Self {
        let mut pos = Position::<N>::start();
        pos.set_half_komi(half_komi);
        Board {
            pos,
            plies: Vec::new(),
        }
    }

    /// Applies a move in server notation, checking it is legal.
    fn apply_server(&mut self, text: &str) {
        let ptn = move_from_server(text).unwrap_or_else(|e| panic!("{e}"));
        let mv = ptn
            .to_move::<N>()
            .unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert!(self.pos.is_legal(mv), "illegal move `{text}` ({ptn})");
        self.pos.make(mv);
        self.plies.push(ptn.to_string());
    }

    /// The opponent's move in server notation: the first legal spread, else a placement.
    fn choose(&self) -> String {
        let moves = self.pos.legal_moves();
        let mv = moves
            .iter()
            .copied()
            .find(|m| !m.is_placement())
            .or_else(|| moves.iter().copied().find(|m| m.is_placement()))
            .expect("a legal move");
        move_to_server(&PtnMove::from_move::<N>(mv)).unwrap()
    }

    /// The server's move `mv` in game `game`: applied here, then sent after the clocks line
    /// (`clocks`: White's and Black's milliseconds).
    fn send_move(&mut self, peer: &mut Peer, game: u64, mv: &str, clocks: &str) {
        self.apply_server(mv);
        peer.send(&format!("Game#{game} Timems {clocks}"));
        peer.send(&format!("Game#{game} {mv}"));
    }

    /// The client's next move in game `game`: checked, applied, and acknowledged after the
    /// clocks line.
    fn take_move(&mut self, peer: &mut Peer, game: u64, clocks: &str) {
        let mv = client_move(peer, game);
        self.apply_server(&mv);
        peer.send(&format!("Game#{game} Timems {clocks}"));
        peer.send("OK");
    }
}

/// The client's move line of game `game`, with its server notation.
fn client_move(peer: &mut Peer, game: u64) -> String {
    let line = peer.recv();
    let prefix = format!("Game#{game} ");
    line.strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("expected a move, got `{line}`"))
        .to_string()
}

#[test]
fn guest_login_seek_syntax_and_pings() {
    let (listener, addr) = listen();
    let child = client(
        &addr,
        &[
            "--size",
            "5",
            "--tc",
            "60+1",
            "--komi",
            "1.5",
            "--color",
            "white",
            "--unrated",
            "--extra-time",
            "10+30",
            "--opponent",
            "Alice_1",
            "--ping-interval",
            "0.2",
        ],
    );
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login Guest", "Welcome Guest7!");
    peer.expect("Seek 5 60 1 W 3 21 1 1 0 10 30 Alice_1");
    // Garbage is logged and skipped; the client keeps pinging.
    peer.send("Frobnicate the server");
    peer.send("Game#x P A1");
    peer.send("Seek new 1 x");
    // For about a second only PINGs arrive, one every 0.2 s.
    peer.writer
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let start = Instant::now();
    let mut line = String::new();
    while start.elapsed() < Duration::from_millis(1100) {
        if peer.reader.read_line(&mut line).is_ok_and(|n| n > 0) {
            assert_eq!(line, "PING\n");
            peer.pings += 1;
        }
        line.clear();
    }
    assert!(peer.pings >= 4, "{} pings in 1.1 s", peer.pings);
    drop(peer);
    let stderr = kill(child);
    assert!(
        stderr.contains("unknown server line `Frobnicate the server`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("malformed server line `Game#x P A1`"),
        "{stderr}"
    );

    // The default seek has no opponent: the line ends in a space.
    let (listener, addr) = listen();
    let child = client(&addr, &["--user", "cairn", "--tournament", "--komi", "2"]);
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.expect("Seek 6 900 10 A 4 30 1 0 1 0 0 ");
    drop(peer);
    kill(child);
}

#[test]
fn failed_login_is_one_error_and_exit_1() {
    let (listener, addr) = listen();
    let dir = Scratch::new("playtak-login");
    let pw = dir.join("pw");
    std::fs::write(&pw, "hunter22\n").unwrap();
    let log = dir.join("transcript.log");
    let child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args([
            "--log-file",
            log.to_str().unwrap(),
            "playtak",
            "--server",
            &addr,
        ])
        .args(["--user", "cairn", "--password-file", pw.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("RUST_LOG", "off")
        .spawn_reaped();
    let mut peer = Peer::accept(&listener);
    peer.send("Welcome!");
    peer.send("Login or Register");
    peer.recv();
    peer.send("OK");
    peer.expect("Protocol 2");
    peer.send("OK");
    peer.expect("Login cairn hunter22");
    peer.send("Authentication failure");
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: login as cairn failed"),
        "{stderr}"
    );
    // The transcript keeps the exchange but not the password.
    let transcript = std::fs::read_to_string(&log).unwrap();
    assert!(
        transcript.contains("< Login cairn ********"),
        "{transcript}"
    );
    assert!(
        transcript.contains("> Authentication failure"),
        "{transcript}"
    );
    assert!(!transcript.contains("hunter22"), "{transcript}");

    // No password at all: refused before connecting.
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["playtak", "--server", &addr, "--user", "cairn"])
        .env_remove("CAIRN_PLAYTAK_PASSWORD")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("CAIRN_PLAYTAK_PASSWORD"));
}

/// Plays `our_moves` moves of the client on an `N`×`N` board from the server's side, the
/// opponent answering with spreads when it can, then ends the game with `ending`; checks every
/// client move and the PTN written.
fn play_game<const N: usize>(
    color: Color,
    our_moves: usize,
    ending: &[&str],
    result: &str,
    termination: &str,
) {
    let (listener, addr) = listen();
    let dir = Scratch::new(&format!("playtak-game{N}{color:?}"));
    let size = N.to_string();
    let child = client(
        &addr,
        &[
            "--user",
            "cairn",
            "--size",
            &size,
            "--tc",
            "3+0",
            "--games",
            "1",
            "--ptn-dir",
            dir.to_str().unwrap(),
        ],
    );
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    let seek = peer.recv();
    assert!(seek.starts_with(&format!("Seek {N} 3 0 A 0 ")), "{seek}");
    let (white, black, ours) = match color {
        Color::White => ("cairn", "bob", "white"),
        Color::Black => ("bob", "cairn", "black"),
    };
    peer.send(&format!(
        "Game Start 12 {white} vs {black} {ours} {N} 3 0 0 {} {} 0 0 0 0 1",
        Position::<N>::STONES,
        Position::<N>::CAPSTONES
    ));
    let mut board = Board::<N>::new(0);
    let mut clock = [3000u64, 3000u64];
    let mut ply = 0;
    let mut ours_played = 0;
    while ours_played < our_moves {
        let mover = if ply % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if mover == color {
            let mv = client_move(&mut peer, 12);
            board.apply_server(&mv);
            clock[mover as usize] -= 50;
            peer.send(&format!("Game#12 Timems {} {}", clock[0], clock[1]));
            peer.send("OK");
            ours_played += 1;
        } else {
            let mv = board.choose();
            board.apply_server(&mv);
            peer.send(&format!("Game#12 Timems {} {}", clock[0], clock[1]));
            peer.send(&format!("Game#12 {mv}"));
        }
        ply += 1;
    }
    for line in ending {
        peer.send(line);
    }
    exits_0_saying(
        child,
        &["game 12 started", &format!("game 12 over: {result}")],
    );
    let text = ptn_in(&dir);
    let games = parse_file(&text).unwrap();
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.tag("Player1"), Some(white));
    assert_eq!(game.tag("Player2"), Some(black));
    assert_eq!(game.tag("Size"), Some(size.as_str()));
    assert_eq!(game.tag("Clock"), Some("3+0"));
    assert_eq!(game.tag("Komi"), Some("0"));
    assert_eq!(game.tag("Result"), Some(result));
    assert_eq!(game.tag("Rated"), Some("yes"));
    assert_eq!(game.tag("Termination"), Some(termination));
    assert!(game.tag("Date").is_some_and(|d| d.len() == 10));
    let plies: Vec<String> = game.plies.iter().map(|p| p.mv.to_string()).collect();
    assert_eq!(plies, board.plies);
    replay_any(game).unwrap();
}

#[test]
fn games_in_both_colours_on_every_size() {
    // The ending's kind goes to the `Termination` tag: a loss with the loser's clock at 0 is on
    // time, another is a resignation; a draw neither agreed nor on the board is the server's.
    let time = ["Game#12 Timems 0 2900", "Game#12 Over 0-1"];
    play_game::<3>(Color::White, 2, &["Game#12 Over 1-0"], "1-0", "resignation");
    play_game::<4>(
        Color::Black,
        3,
        &["Game#12 Abandoned. bob quit"],
        "0-1",
        "abandonment",
    );
    play_game::<5>(Color::White, 4, &time, "0-1", "time");
    play_game::<6>(
        Color::Black,
        4,
        &["Game#12 Over 1/2-1/2"],
        "1/2-1/2",
        "draw rule",
    );
    play_game::<7>(
        Color::White,
        3,
        &["Game#12 Abandoned. bob quit"],
        "1-0",
        "abandonment",
    );
    play_game::<8>(Color::Black, 3, &["Game#12 Over 0-0"], "0-0", "aborted");
}

/// On a loss on time the server's clock can send `Over` before the move that started the
/// loser's turn (seen on the real server under load); that move is in the server's record, so it
/// joins the client's if it is legal there. The client waits for it before it exits.
#[test]
fn a_move_sent_after_a_loss_on_time_joins_the_record() {
    let (listener, addr) = listen();
    let dir = Scratch::new("playtak-late-move");
    let child = one_game(&addr, &["--ptn-dir", dir.to_str().unwrap()]);
    let mut peer = start_game(&listener, "black", 0);
    let mut board = Board::<5>::new(0);
    for _ in 0..3 {
        let white = board.choose();
        board.send_move(&mut peer, 5, &white, "5000 5000");
        board.take_move(&mut peer, 5, "5000 4900");
    }
    // A placement on a taken square: no move of this game.
    let illegal = (0..5)
        .flat_map(|rank| (0..5).map(move |file| format!("{}{}", (b'a' + file) as char, rank + 1)))
        .map(|square| square.parse::<PtnMove>().unwrap())
        .find(|mv| !board.pos.is_legal(mv.to_move::<5>().unwrap()))
        .unwrap();
    let white = board.choose();
    board.apply_server(&white);
    peer.send("Game#5 Timems 4900 0");
    peer.send("Game#5 Over 1-0");
    peer.send(&format!("Game#5 {}", move_to_server(&illegal).unwrap()));
    peer.send(&format!("Game#5 {white}"));
    peer.send("Game#5 Over 1-0");
    let stderr = exits_0_saying(
        child,
        &[
            "game 5 over: 1-0 (time)",
            &format!("a move `{illegal}` after the game ended does not fit"),
            "after the game's end; added to its record",
        ],
    );
    // Its one game played, the client waited for the late move without seeking again.
    assert_eq!(stderr.matches("seeking:").count(), 1, "{stderr}");
    let games = parse_file(&ptn_in(&dir)).unwrap();
    let plies: Vec<String> = games[0].plies.iter().map(|p| p.mv.to_string()).collect();
    assert_eq!(plies, board.plies);
    assert_eq!(plies.len(), 7);
    assert_eq!(games[0].tag("Termination"), Some("time"));
    assert_eq!(games[0].result.as_deref(), Some("1-0"));
    replay_any(&games[0]).unwrap();
}

/// Logs in as `cairn` with `args`, starts game 5 on 5×5 (komi in half flats) in `colour`, and
/// returns the peer after the seek.
fn start_game(listener: &TcpListener, color: &str, half_komi: u8) -> Peer {
    let mut peer = Peer::accept(listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    let seek = peer.recv();
    assert!(seek.starts_with("Seek 5 "), "{seek}");
    let (white, black) = if color == "white" {
        ("cairn", "bob")
    } else {
        ("bob", "cairn")
    };
    peer.send(&format!(
        "Game Start 5 {white} vs {black} {color} 5 6 0 {half_komi} 21 1 0 0 0 0 1"
    ));
    peer
}

#[test]
fn clock_low_time_moves_fast() {
    let (listener, addr) = listen();
    let child = client(
        &addr,
        &["--user", "cairn", "--size", "5", "--move-overhead", "50"],
    );
    let mut peer = start_game(&listener, "black", 0);
    let mut board = Board::<5>::new(0);
    board.send_move(&mut peer, 5, "P A1", "6000 6000");
    board.take_move(&mut peer, 5, "6000 6000");
    // White moves; Black has 300 ms left: the answer must come well inside it.
    let white = board.choose();
    board.apply_server(&white);
    peer.send("Game#5 Timems 6000 300");
    let sent = Instant::now();
    peer.send(&format!("Game#5 {white}"));
    let mv = client_move(&mut peer, 5);
    let took = sent.elapsed();
    board.apply_server(&mv);
    assert!(
        took < Duration::from_millis(250),
        "{took:?} with 300 ms left"
    );
    drop(peer);
    kill(child);
}

#[test]
fn undo_and_draw_policies() {
    // Flags on: the undo is granted and the move searched again; a draw offer is accepted
    // when Cairn is not winning (Black at komi 0, where White's first move is worth flats).
    let (listener, addr) = listen();
    let child = one_game(&addr, &["--accept-undo", "--accept-draw"]);
    let mut peer = start_game(&listener, "black", 0);
    let mut board = Board::<5>::new(0);
    board.send_move(&mut peer, 5, "P E5", "6000 6000");
    board.take_move(&mut peer, 5, "6000 6000");
    peer.send("Game#5 RequestUndo");
    peer.expect("Game#5 RequestUndo");
    peer.send("OK");
    peer.send("Game#5 Timems 6000 6000");
    peer.send("Game#5 Undo");
    // Back to White's first move: Cairn plays its reply again.
    let mut board = Board::<5>::new(0);
    board.apply_server("P E5");
    board.take_move(&mut peer, 5, "6000 6000");
    peer.send("Game#5 OfferDraw");
    peer.expect("Game#5 OfferDraw");
    peer.send("OK");
    peer.send("Game#5 Over 1/2-1/2");
    exits_0_saying(child, &["accepting the draw offer"]);

    // Flags off (and Black, 4 flats ahead, winning anyway): both ignored, play goes on.
    let (listener, addr) = listen();
    let child = one_game(&addr, &[]);
    let mut peer = start_game(&listener, "black", 8);
    let mut board = Board::<5>::new(8);
    board.send_move(&mut peer, 5, "P E5", "6000 6000");
    board.take_move(&mut peer, 5, "6000 6000");
    peer.send("Game#5 RequestUndo");
    peer.send("Game#5 OfferDraw");
    let white = board.choose();
    board.send_move(&mut peer, 5, &white, "6000 6000");
    // The next line is a move: no undo, no draw.
    board.take_move(&mut peer, 5, "6000 6000");
    peer.send("Game#5 Over R-0");
    exits_0_saying(child, &["undo request not granted", "draw offer declined"]);
}

#[test]
fn refused_moves_are_retried_then_resigned() {
    let (listener, addr) = listen();
    let child = one_game(&addr, &[]);
    let mut peer = start_game(&listener, "white", 0);
    let mut board = Board::<5>::new(0);
    let first = client_move(&mut peer, 5);
    peer.send("NOK");
    peer.send("Error:Invalid move");
    // Searched and sent again from the same position.
    let again = client_move(&mut peer, 5);
    board.apply_server(&again);
    assert!(first.starts_with("P "), "{first}");
    peer.send("NOK");
    peer.send("Error:Invalid move");
    peer.expect("Game#5 Resign");
    peer.send("Game#5 Over 0-1");
    exits_0_saying(child, &["server error: Invalid move", "game 5 over: 0-1"]);
}

/// A game whose komi Cairn cannot play (the server caps it at 4 flats, but a server is not to be
/// trusted) is resigned with a reason, and the client goes on.
#[test]
fn a_komi_out_of_range_is_resigned_not_a_crash() {
    let (listener, addr) = listen();
    let child = one_game(&addr, &[]);
    let mut peer = start_game(&listener, "white", 200);
    peer.expect("Game#5 Resign");
    peer.send("Game#5 Over 0-1");
    exits_0_saying(
        child,
        &[
            "game 5: komi of 200 half flats: must be a multiple of 0.5 from -5 to 5; resigning",
            "game 5 over: 0-1",
        ],
    );
}

#[test]
fn dropped_connection_resumes_the_game() {
    let (listener, addr) = listen();
    let dir = Scratch::new("playtak-resume");
    let child = one_game(
        &addr,
        &[
            "--reconnect-delay",
            "100",
            "--ptn-dir",
            dir.to_str().unwrap(),
        ],
    );
    let mut peer = start_game(&listener, "white", 0);
    let mut board = Board::<5>::new(0);
    board.take_move(&mut peer, 5, "6000 6000");
    // The connection drops while the opponent thinks.
    drop(peer);
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    // The server resends the game; no seek: the next line is White's second move.
    let start = "Game Start 5 cairn vs bob white 5 6 0 0 21 1 0 0 0 0 1";
    resend_game(&mut peer, start, &mut board);
    let stderr = play_on_and_end(&mut peer, &mut board, child, "1-0", &dir);
    assert!(stderr.contains("reconnecting"), "{stderr}");
}

#[test]
fn accepts_only_the_named_players_standard_seeks() {
    let (listener, addr) = listen();
    let child = client(
        &addr,
        &["--user", "cairn", "--accept", "alice", "--games", "1"],
    );
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.expect("List");
    peer.send("Seek new 4 bob 5 60 0 A 0 21 1 0 0 0 0 0 0");
    peer.send("Seek new 6 alice 5 60 0 A 0 30 1 0 0 0 0 0 0");
    peer.send("Seek new 7 alice 5 60 0 A 0 21 1 0 0 0 0 carol 0");
    // Listed again (as at login and for `List`): judged once.
    peer.send("Seek new 6 alice 5 60 0 A 0 30 1 0 0 0 0 0 0");
    peer.send("Seek new 8 Alice 4 60 0 B 0 15 0 0 0 0 0 cairn 0");
    peer.expect("Accept 8");
    peer.send("NOK");
    peer.send("Seek new 9 alice 3 60 0 W 0 10 0 0 0 0 0 0 0");
    peer.expect("Accept 9");
    peer.send("Game Start 2 alice vs cairn black 3 6 0 0 10 0 0 0 0 0 0");
    peer.send("Game#2 Timems 6000 6000");
    peer.send("Game#2 P A1");
    let mv = client_move(&mut peer, 2);
    let mut board = Board::<3>::new(0);
    board.apply_server("P A1");
    board.apply_server(&mv);
    peer.send("Game#2 Timems 6000 6000");
    peer.send("OK");
    peer.send("Game#2 Over 1-0");
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("not accepting seek 6 by alice").count(),
        1,
        "{stderr}"
    );
}

/// Every move shape in both notations: fixed pairs, then every legal move of many positions on
/// every size, server text → PTN → packed move and back, with the shapes seen counted so that a
/// generator that stopped reaching tall stacks would fail the test rather than pass it thinly.
#[test]
fn every_move_shape_round_trips_between_server_notation_and_ptn() {
    // (PTN, server) pairs written out by hand from the two notations' definitions.
    for (ptn, server) in [
        ("a1", "P A1"),
        ("Sb3", "P B3 W"),
        ("Ch8", "P H8 C"),
        ("a1>", "M A1 B1 1"),
        ("a2-", "M A2 A1 1"),
        ("3c3<", "M C3 B3 3"),
        ("3c3-12", "M C3 C1 1 2"),
        ("2e4<11", "M E4 C4 1 1"),
        ("5d5>32*", "M D5 F5 3 2"),
        ("8a1+1111112", "M A1 A8 1 1 1 1 1 1 2"),
        ("8h8<8", "M H8 G8 8"),
        ("6f1+213", "M F1 F4 2 1 3"),
    ] {
        let parsed: PtnMove = ptn.parse().unwrap();
        assert_eq!(move_to_server(&parsed).as_deref(), Some(server), "{ptn}");
        let back = move_from_server(server).unwrap();
        assert_eq!(back.to_move::<8>(), parsed.to_move::<8>(), "{server}");
    }
    // What the server never sends is refused, not guessed at.
    for bad in [
        "P A9",
        "P I1",
        "P A1 F",
        "P A1 W C",
        "M A1 A1",
        "M A1 B2 1",
        "M A1 A3 1",
        "M A1 A3 1 2 3",
        "M A1 A2 0",
        "M A1 A2 9",
        "M A1 A2 x",
        "M A1 A8 2 2 2 2 2 2 2",
        "Q A1",
        "",
    ] {
        assert!(move_from_server(bad).is_err(), "`{bad}` was accepted");
    }
    round_trip_size::<3>();
    round_trip_size::<4>();
    round_trip_size::<5>();
    round_trip_size::<6>();
    round_trip_size::<7>();
    round_trip_size::<8>();
}

/// Every legal move of a tall-stack position and of random games on an `N`×`N` board.
fn round_trip_size<const N: usize>() {
    use cairn_tak::notation::Tps;
    use std::collections::{HashMap, HashSet};
    // Tall stacks on a corner and near the centre reach every carry and every drop pattern.
    // White's stacks (top `1`), as White moves next.
    let tall: String = (0..N + 2)
        .map(|i| if (N + 1 - i) % 2 == 0 { '1' } else { '2' })
        .collect();
    let mut rows = vec![format!("x{N}"); N];
    rows[N - 1] = format!("{tall},x{}", N - 1);
    let mid = N / 2;
    rows[N - 1 - mid] = format!("x{mid},{tall},x{}", N - 1 - mid);
    let tps = format!("{} 1 3", rows.join("/"));
    let mut positions = vec![tps
        .parse::<Tps>()
        .unwrap()
        .to_position::<N>()
        .unwrap_or_else(|e| panic!("{tps}: {e}"))];
    // Random games that favour spreads, so stacks grow and walls and capstones get crushed.
    let mut rng = cairn_search::rng::Rng::new(N as u64);
    for _ in 0..12 {
        let mut pos = Position::<N>::start();
        for _ in 0..(N * N * 3) {
            if pos.is_over() {
                break;
            }
            let moves = pos.legal_moves();
            let spreads: Vec<_> = moves.iter().filter(|m| !m.is_placement()).collect();
            let mv = if !spreads.is_empty() && !rng.chance(3) {
                *spreads[rng.below(spreads.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make(mv);
            positions.push(pos.clone());
        }
    }
    let mut shapes: HashSet<(bool, u32, u32, u32)> = HashSet::new();
    let mut checked = 0usize;
    for pos in &positions {
        let mut seen: HashMap<String, _> = HashMap::new();
        for &mv in pos.legal_moves().iter() {
            let ptn = PtnMove::from_move::<N>(mv);
            let server = move_to_server(&ptn).unwrap_or_else(|| panic!("{ptn} has no server text"));
            let back =
                move_from_server(&server).unwrap_or_else(|e| panic!("{ptn} → {server}: {e}"));
            assert_eq!(back.to_move::<N>(), Ok(mv), "{ptn} → {server} → {back}");
            assert_eq!(back.to_string(), ptn.to_string(), "{server}");
            if let Some(other) = seen.insert(server.clone(), mv) {
                panic!("{server} names both {other:?} and {mv:?}");
            }
            let wall_or_cap = mv.role().map_or(0, |r| r as u32);
            shapes.insert((mv.is_placement(), mv.count(), mv.distance(), wall_or_cap));
            checked += 1;
        }
    }
    let caps = cairn_tak::board::reserves_for_size(N).unwrap().1;
    for role in 0..if caps > 0 { 3 } else { 2 } {
        assert!(
            shapes.iter().any(|s| s.0 && s.3 == role),
            "{N}: no placement of role {role}"
        );
    }
    for count in 1..=N as u32 {
        for distance in 1..=count.min(N as u32 - 1) {
            assert!(
                shapes.contains(&(false, count, distance, 0)),
                "{N}×{N}: no spread of {count} over {distance} squares among {checked} moves"
            );
        }
    }
}

/// The client's next line, which must be a move of game 5 (PINGs answered).
fn move_of_5(peer: &mut Peer) -> String {
    client_move(peer, 5)
}

/// Resends game 5 as the server does after a login (the opponent's reply to the client's first
/// move having come in meanwhile): `Game Start`, every move, the clocks, `Your game is resumed`.
fn resend_game(peer: &mut Peer, start: &str, board: &mut Board<5>) {
    let black = board.choose();
    board.apply_server(&black);
    peer.send(start);
    for mv in &board.plies {
        let mv = move_to_server(&mv.parse().unwrap()).unwrap();
        peer.send(&format!("Game#5 {mv}"));
    }
    peer.send("Game#5 Timems 5900 5800");
    peer.send("Message Your game is resumed");
}

/// After [`resend_game`]: White's second move (legal after the resent ones), then `Over
/// result`; checks the exit and the PTN in `dir`, and returns the client's stderr.
fn play_on_and_end(
    peer: &mut Peer,
    board: &mut Board<5>,
    child: Reaped,
    result: &str,
    dir: &Path,
) -> String {
    let mv = move_of_5(peer);
    board.apply_server(&mv);
    peer.send("Game#5 Timems 5800 5800");
    peer.send("OK");
    peer.send(&format!("Game#5 Over {result}"));
    let stderr = exits_0_saying(child, &["game 5 resumed"]);
    let games = parse_file(&ptn_in(dir)).unwrap();
    let plies: Vec<String> = games[0].plies.iter().map(|p| p.mv.to_string()).collect();
    assert_eq!(plies, board.plies);
    assert_eq!(games[0].result.as_deref(), Some(result));
    stderr
}

#[test]
fn a_guest_gets_its_game_back_when_welcome_comes_last() {
    let (listener, addr) = listen();
    let dir = Scratch::new("playtak-guest-resume");
    let child = client(
        &addr,
        &[
            "--size",
            "5",
            "--tc",
            "6+0",
            "--games",
            "1",
            "--reconnect-delay",
            "100",
            "--ptn-dir",
            dir.to_str().unwrap(),
        ],
    );
    let mut peer = Peer::accept(&listener);
    let login = peer.login_line();
    assert!(login.starts_with("Login Guest "), "{login}");
    peer.send("Welcome Guest3!");
    let seek = peer.recv();
    assert!(seek.starts_with("Seek 5 6 0 "), "{seek}");
    let start = "Game Start 5 Guest3 vs bob white 5 6 0 0 21 1 0 0 0 0 0";
    peer.send(start);
    let mut board = Board::<5>::new(0);
    let mv = move_of_5(&mut peer);
    board.apply_server(&mv);
    peer.send("Game#5 Timems 6000 6000");
    peer.send("OK");
    drop(peer);
    // The guest comes back with the same token; as the server does for guests, the game, its
    // moves (the opponent's came in meanwhile) and `Your game is resumed` come before `Welcome`.
    let mut peer = Peer::accept(&listener);
    assert_eq!(peer.login_line(), login, "the same guest token");
    resend_game(&mut peer, start, &mut board);
    peer.send("Welcome Guest3!");
    peer.send("Online 2");
    // No seek: the game goes on.
    let stderr = play_on_and_end(&mut peer, &mut board, child, "0-R", &dir);
    assert!(!stderr.contains("not resumed"), "{stderr}");
}

#[test]
fn a_silent_link_is_dropped_and_the_game_resumed() {
    let (listener, addr) = listen();
    let dir = Scratch::new("playtak-silent");
    let child = one_game(
        &addr,
        &[
            "--ping-interval",
            "0.2",
            "--ping-timeout",
            "0.5",
            "--reconnect-delay",
            "100",
            "--ptn-dir",
            dir.to_str().unwrap(),
        ],
    );
    let mut peer = start_game(&listener, "white", 0);
    let mut board = Board::<5>::new(0);
    let mv = move_of_5(&mut peer);
    board.apply_server(&mv);
    peer.send("Game#5 Timems 6000 6000");
    peer.send("OK");
    // The link goes silent: nothing is read or answered, and the socket stays open.
    let silent = Instant::now();
    let mut new_peer = Peer::accept(&listener);
    let took = silent.elapsed();
    // The documented bound: a PING interval, the PING timeout and the reconnection delay.
    assert!(took < Duration::from_secs(5), "reconnected after {took:?}");
    // The client closed the silent connection: after its unanswered PINGs, the end.
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut peer.reader, &mut rest);
    assert!(rest.lines().all(|l| l == "PING"), "{rest}");
    new_peer.handshake("Login cairn secret", "Welcome cairn!");
    let start = "Game Start 5 cairn vs bob white 5 6 0 0 21 1 0 0 0 0 1";
    resend_game(&mut new_peer, start, &mut board);
    let stderr = play_on_and_end(&mut new_peer, &mut board, child, "1-0", &dir);
    assert!(stderr.contains("no answer to PING in 0.5 s"), "{stderr}");
}

/// Runs `cairn playtak` with the default log filter and `password`; its exit code and stderr.
fn run_with_password(addr: &str, args: &[&str], password: &str) -> Reaped {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["playtak", "--server", addr])
        .args(args)
        .env("CAIRN_PLAYTAK_PASSWORD", password)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn_reaped()
}

#[test]
fn a_refused_login_is_one_error_and_exit_1() {
    let (listener, addr) = listen();
    // Shapes the server refuses are refused before connecting.
    let name = " (a letter, then 3 to 15 letters, digits or _)";
    for (user, password, error) in [
        (
            "ab1",
            "secret",
            format!("--user ab1: not a playtak name{name}"),
        ),
        (
            "9lives",
            "secret",
            format!("--user 9lives: not a playtak name{name}"),
        ),
        (
            "cairn",
            "12345",
            "the password has 5 characters; the server takes 6 to 50".into(),
        ),
    ] {
        let (code, stderr) = finish(run_with_password(&addr, &["--user", user], password));
        assert_eq!(code, Some(1), "{stderr}");
        assert_eq!(stderr, format!("error: {error}\n"));
    }
    // A `NOK` to `Login` (as for a shape the server's pattern refuses) ends the run.
    let child = run_with_password(&addr, &["--user", "cairn"], "secret");
    let mut peer = Peer::accept(&listener);
    assert_eq!(peer.login_line(), "Login cairn secret");
    peer.send("NOK");
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.matches("refused").count(), 1, "{stderr}");
    assert!(
        stderr
            .lines()
            .last()
            .unwrap()
            .starts_with("error: login as cairn refused: the server answers `NOK`"),
        "{stderr}"
    );
    // A wrong password: the error once, with the log on as by default.
    let child = run_with_password(&addr, &["--user", "cairn"], "secret");
    let mut peer = Peer::accept(&listener);
    peer.login_line();
    peer.send("Authentication failure");
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stderr.matches("Authentication failure").count(),
        1,
        "{stderr}"
    );
    // A server that never greets (a WebSocket port spoken to in plain TCP) is given up after
    // 5 s of silence, with the hint.
    let child = run_with_password(&addr, &["--user", "cairn"], "secret");
    let silent = Peer::accept(&listener);
    let since = Instant::now();
    let (code, stderr) = finish(child);
    let took = since.elapsed();
    drop(silent);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        took >= Duration::from_millis(4500) && took < Duration::from_secs(8),
        "{took:?}"
    );
    assert!(
        stderr.lines().last().unwrap().ends_with(
            "does not answer as a playtak server (not a word in 5 s); for a WebSocket port give \
             --websocket"
        ),
        "{stderr}"
    );
}

#[test]
fn a_takeover_of_the_account_exits_3() {
    let (listener, addr) = listen();
    let child = client(&addr, &["--user", "cairn"]);
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.recv();
    peer.send("Message You've logged in from another window. Disconnecting");
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.lines().last().unwrap().starts_with(
            "error: another login took over this account (cairn); stopping for good (exit status 3)"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("reconnecting"), "{stderr}");
}

#[test]
fn a_search_overtaken_by_an_undo_is_dropped_not_kept_as_after_a_drop() {
    let (listener, addr) = listen();
    let child = one_game(&addr, &["--tc", "600+0", "--accept-undo"]);
    let mut peer = start_game(&listener, "black", 0);
    // White's move on a long clock: Cairn thinks for long.
    peer.send("Game#5 Timems 600000 600000");
    peer.send("Game#5 P A1");
    peer.only_pings_for(Duration::from_millis(300));
    // The move is taken back while Cairn thinks, then played again.
    peer.send("Game#5 RequestUndo");
    peer.expect("Game#5 RequestUndo");
    peer.send("OK");
    peer.send("Game#5 Timems 600000 600000");
    peer.send("Game#5 Undo");
    peer.only_pings_for(Duration::from_millis(300));
    peer.send("Game#5 Timems 6000 6000");
    peer.send("Game#5 P A1");
    let mv = move_of_5(&mut peer);
    let mut board = Board::<5>::new(0);
    board.apply_server("P A1");
    board.apply_server(&mv);
    peer.send("Game#5 Timems 6000 6000");
    peer.send("OK");
    peer.send("Game#5 Over 1-0");
    let stderr = exits_0_saying(
        child,
        &["a1 taken back", "answers an earlier position; dropped"],
    );
    for words in ["connection dropped", "not back yet", "keeping it"] {
        assert!(!stderr.contains(words), "`{words}` in:\n{stderr}");
    }
}

#[test]
fn a_second_signal_while_the_link_is_down_does_not_claim_a_resignation() {
    let (listener, addr) = listen();
    let child = client(
        &addr,
        &[
            "--user",
            "cairn",
            "--size",
            "5",
            "--reconnect-delay",
            "3000",
        ],
    );
    let mut peer = start_game(&listener, "white", 0);
    let mv = move_of_5(&mut peer);
    Board::<5>::new(0).apply_server(&mv);
    child.signal("TERM");
    peer.only_pings_for(Duration::from_millis(150));
    drop(peer);
    std::thread::sleep(Duration::from_millis(300));
    child.signal("TERM");
    let stderr = exits_0_saying(
        child,
        &[
            "SIGTERM again while the connection is down: game 5 cannot be resigned; stopping now",
            "game 5 left unfinished",
        ],
    );
    assert!(!stderr.contains("resigning"), "{stderr}");
}

#[test]
fn no_move_goes_out_before_the_game_is_resumed() {
    let (listener, addr) = listen();
    let child = one_game(&addr, &["--tc", "600+0", "--reconnect-delay", "100"]);
    // Cairn plays White on a long clock: it is thinking when the connection drops.
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.recv();
    let start = "Game Start 5 cairn vs bob white 5 600 0 0 21 1 0 0 0 0 1";
    peer.send(start);
    peer.only_pings_for(Duration::from_millis(300));
    drop(peer);
    // The new connection: the login comes first (`handshake` checks it), and after `Welcome`
    // nothing but PINGs until the game is resent.
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.only_pings_for(Duration::from_millis(500));
    peer.send(start);
    peer.send("Game#5 Timems 599000 600000");
    peer.send("Message Your game is resumed");
    let mv = move_of_5(&mut peer);
    Board::<5>::new(0).apply_server(&mv);
    peer.send("Game#5 Timems 599000 600000");
    peer.send("OK");
    peer.send("Game#5 Over 0-1");
    let stderr = exits_0_saying(child, &["found before the connection dropped"]);
    assert!(!stderr.contains("refused"), "{stderr}");
}

#[test]
fn a_draw_offer_made_while_thinking_is_answered() {
    let (listener, addr) = listen();
    let child = one_game(&addr, &["--tc", "600+0", "--accept-draw"]);
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.recv();
    // White gives 4 flats of komi (not winning); the offer comes as the first search starts.
    peer.writer
        .write_all(b"Game Start 5 cairn vs bob white 5 600 0 8 21 1 0 0 0 0 1\nGame#5 OfferDraw\n")
        .unwrap();
    peer.expect("Game#5 OfferDraw");
    peer.send("OK");
    peer.send("Game#5 Over 1/2-1/2");
    let stderr = exits_0_saying(child, &["accepting the draw offer"]);
    assert!(!stderr.contains("declined"), "{stderr}");
}

#[test]
fn a_signal_finishes_the_game_and_a_second_resigns_it() {
    // First signal (once the game runs): the game goes on to its end, then the client quits
    // (no new seek), exit 0.
    let (listener, addr) = listen();
    let child = client(&addr, &["--user", "cairn", "--size", "5"]);
    let mut peer = start_game(&listener, "white", 0);
    let mut board = Board::<5>::new(0);
    let mv = move_of_5(&mut peer);
    board.apply_server(&mv);
    child.signal("TERM");
    peer.send("Game#5 Timems 6000 6000");
    peer.send("OK");
    let black = board.choose();
    board.apply_server(&black);
    peer.send(&format!("Game#5 {black}"));
    let mv = move_of_5(&mut peer);
    board.apply_server(&mv);
    peer.send("OK");
    peer.send("Game#5 Over R-0");
    peer.expect("quit");
    exits_0_saying(
        child,
        &[
            "SIGTERM: finishing game 5, then stopping",
            "stopped as asked after 1 games",
        ],
    );

    // Two signals, the second while Cairn searches: the game is resigned, and the search's
    // move is dropped, not kept for a game that is over.
    let (listener, addr) = listen();
    let child = client(&addr, &["--user", "cairn", "--size", "5"]);
    let mut peer = start_game(&listener, "white", 0);
    let mut board = Board::<5>::new(0);
    let mv = move_of_5(&mut peer);
    board.apply_server(&mv);
    child.signal("INT");
    peer.only_pings_for(Duration::from_millis(200));
    // A long clock, so the search runs for a second or more.
    peer.send("Game#5 Timems 60000 60000");
    let black = board.choose();
    peer.send(&format!("Game#5 {black}"));
    peer.only_pings_for(Duration::from_millis(150));
    child.signal("INT");
    peer.expect("Game#5 Resign");
    peer.send("Game#5 Over 0-1");
    peer.expect("quit");
    let stderr = exits_0_saying(
        child,
        &[
            "SIGINT again: resigning game 5",
            "game 5 over: 0-1 (resignation)",
        ],
    );
    assert!(!stderr.contains("keeping it"), "{stderr}");

    // No game in progress: the client quits at once.
    let (listener, addr) = listen();
    let child = client(&addr, &["--user", "cairn"]);
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.recv();
    child.signal("TERM");
    peer.expect("quit");
    exits_0_saying(child, &["SIGTERM: no game in progress"]);
}

/// 3×3, White to move: Black threatens roads on b3 and on c2, White has no road in reach.
const LOST_FOR_WHITE: [&str; 6] = ["P A2", "P C3", "P A3 W", "P B2", "P C1 W", "P B1"];

/// Cairn (White) gets [`LOST_FOR_WHITE`] resent at the start of game 5; its next line.
fn answer_to_lost_position(resign: bool) -> (String, Reaped, Peer) {
    let (listener, addr) = listen();
    let mut args = vec!["--user", "cairn", "--size", "3", "--tc", "60+0"];
    if resign {
        args.push("--resign");
    }
    let child = client(&addr, &args);
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.recv();
    peer.send("Game Start 5 cairn vs bob white 3 60 0 0 10 0 0 0 0 0 1");
    for mv in LOST_FOR_WHITE {
        peer.send(&format!("Game#5 {mv}"));
    }
    peer.send("Game#5 Timems 59000 59000");
    let line = peer.recv();
    (line, child, peer)
}

#[test]
fn resign_only_a_lost_game_and_only_when_asked() {
    let (line, child, mut peer) = answer_to_lost_position(true);
    assert_eq!(line, "Game#5 Resign");
    // Resigned once: until the server's `Over` comes, no other search, move or resignation.
    peer.expect_silence(Duration::from_millis(1500));
    peer.send("Game#5 Over 0-1");
    drop(peer);
    let stderr = kill(child);
    assert!(
        stderr.contains("resigning, the search proves a loss: the opponent has a road within "),
        "{stderr}"
    );
    // Without --resign, the same position gets a move.
    let (line, child, peer) = answer_to_lost_position(false);
    let mut board = Board::<3>::new(0);
    for mv in LOST_FOR_WHITE {
        board.apply_server(mv);
    }
    board.apply_server(line.strip_prefix("Game#5 ").expect(&line));
    drop(peer);
    kill(child);
    // A position that is not lost gets a move with --resign on: see the chat test below.
}

#[test]
fn chat_greets_and_answers_and_the_guest_token_stays_secret() {
    let (listener, addr) = listen();
    let dir = Scratch::new("playtak-chat");
    let log = dir.join("transcript.log");
    let child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args([
            "--log-file",
            log.to_str().unwrap(),
            "playtak",
            "--server",
            &addr,
        ])
        .args(["--size", "5", "--tc", "60+0", "--games", "1", "--resign"])
        .env("RUST_LOG", "warn,cairn_engine::playtak=debug")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn_reaped();
    let mut peer = Peer::accept(&listener);
    let login = peer.login_line();
    let token = login.strip_prefix("Login Guest ").unwrap().to_string();
    peer.send("Welcome Guest4!");
    peer.recv();
    peer.send("Game Start 5 bob vs Guest4 black 5 60 0 0 21 1 1 0 0 0 0");
    let hello = peer.recv();
    assert!(hello.starts_with("Tell bob Hi! I am Cairn "), "{hello}");
    peer.send("Game#5 RequestUndo");
    peer.expect("Tell bob Sorry, I do not take moves back.");
    peer.send("Game#5 OfferDraw");
    peer.expect("Tell bob Thank you, but I do not take draws.");
    peer.send("Told <bob> Thank you, but I do not take draws.");
    peer.send("Game#5 Timems 60000 60000");
    peer.send("Game#5 P A1");
    let mv = move_of_5(&mut peer);
    let mut board = Board::<5>::new(0);
    board.apply_server("P A1");
    board.apply_server(&mv);
    peer.send("Game#5 Over 1-0");
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("unknown server line"), "{stderr}");
    let transcript = std::fs::read_to_string(&log).unwrap();
    assert!(
        transcript.contains("< Login Guest ********"),
        "{transcript}"
    );
    assert!(!transcript.contains(&token), "{transcript}");
}

#[test]
fn several_seeks_in_turn() {
    let (listener, addr) = listen();
    let child = client(
        &addr,
        &[
            "--user",
            "cairn",
            "--games",
            "3",
            "--seek",
            "5 60+1 komi 1.5 white unrated",
            "--seek",
            "4 30+0",
        ],
    );
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    for (game, seek) in [
        (1, "Seek 5 60 1 W 3 21 1 1 0 0 0 "),
        (2, "Seek 4 30 0 A 0 15 0 0 0 0 0 "),
        (3, "Seek 5 60 1 W 3 21 1 1 0 0 0 "),
    ] {
        peer.expect(seek);
        // Cairn plays Black, and White resigns at once.
        peer.send(&format!(
            "Game Start {game} bob vs cairn black 4 30 0 0 15 0 0 0 0 0 1"
        ));
        peer.send(&format!("Game#{game} Over 1-0"));
    }
    peer.expect("quit");
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(0), "{stderr}");
    // Bad options are refused before connecting: the exit code and stderr.
    let refused = |option: &str, value: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["playtak", "--server", &addr, option, value])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr)
    };
    // A bad seek is named with its text and the fault.
    for (seek, error) in [
        ("9 60+0", "`9` is not a board size"),
        ("5", "no time control"),
        (
            "5 60+0 komi x",
            "komi `x`: the server allows 0 to 4 in steps of 0.5",
        ),
        (
            "5 60+0 komi 9",
            "komi `9`: the server allows 0 to 4 in steps of 0.5",
        ),
        (
            "5 60+0 komi 4.5",
            "--komi 4.5: the server allows 0 to 4 in steps of 0.5",
        ),
        ("5 60+0 blue", "unknown word `blue`"),
    ] {
        let (code, stderr) = refused("--seek", seek);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.starts_with(&format!("error: --seek \"{seek}\": ")) && stderr.contains(error),
            "{stderr}"
        );
    }
    // `--komi` is read in flats as every subcommand reads it, then held to the server's range.
    for (komi, code, error) in [
        (
            "0.3",
            2,
            "error: invalid value '0.3' for '--komi <KOMI>': must be a multiple of 0.5 from -5 to 5",
        ),
        ("-1", 1, "error: --komi -1: the server allows 0 to 4 in steps of 0.5"),
        ("4.5", 1, "error: --komi 4.5: the server allows 0 to 4 in steps of 0.5"),
    ] {
        let (status, stderr) = refused("--komi", komi);
        assert_eq!(status, Some(code), "{stderr}");
        assert!(stderr.starts_with(error), "{stderr}");
    }
}

#[test]
fn accept_filters() {
    let (listener, addr) = listen();
    let child = client(
        &addr,
        &[
            "--user",
            "cairn",
            "--accept",
            "*",
            "--accept-size",
            "4,5",
            "--accept-time",
            "60-300",
            "--accept-unrated",
            "--games",
            "1",
        ],
    );
    let mut peer = Peer::accept(&listener);
    peer.handshake("Login cairn secret", "Welcome cairn!");
    peer.expect("List");
    for refused in [
        "Seek new 1 bob 6 120 0 A 0 30 1 1 0 0 0 0 0",
        "Seek new 2 bob 5 900 0 A 0 21 1 1 0 0 0 0 0",
        "Seek new 3 bob 5 120 0 A 0 21 1 0 0 0 0 0 0",
        "Seek new 4 cairn 5 120 0 A 0 21 1 1 0 0 0 0 0",
        "Seek new 5 carol 5 20 0 A 0 21 1 1 0 0 0 0 0",
    ] {
        peer.send(refused);
    }
    peer.send("Seek new 6 carol 4 120 0 B 0 15 0 1 0 0 0 0 0");
    peer.expect("Accept 6");
    peer.send("Game Start 2 cairn vs carol white 4 120 0 0 15 0 1 0 0 0 0");
    peer.send("Game#2 Over 0-1");
    exits_0_saying(
        child,
        &[
            "not accepting seek 1 by bob: size 6",
            "seek 2 by bob: 900 s not in 60 to 300",
            "seek 3 by bob: rated",
        ],
    );
}

#[test]
fn small_option_errors() {
    for (args, error) in [
        (
            &["--hash", "0"][..],
            "error: --hash 0: the transposition table needs at least 1 MiB",
        ),
        (&["--server", "https://playtak.com"][..], "not https://"),
        (
            &["--server", "host:port"][..],
            "`port` is not a port number",
        ),
        (
            &["--size", "5", "--caps", "2"][..],
            "21 flats and 1 capstone on 5x5",
        ),
        (
            &["--accept", "*", "--accept-time", "300-60"][..],
            "expected MIN-MAX seconds",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .arg("playtak")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(error), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // A password the server would refuse, counted as a person counts.
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["playtak", "--user", "cairnbot"])
        .env("CAIRN_PLAYTAK_PASSWORD", "x")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the password has 1 character; the server takes 6 to 50"),
        "{stderr}"
    );
    // The seek's options would not filter what --accept accepts: refused with it.
    for args in [
        &["--size", "6"][..],
        &["--tc", "600+5"],
        &["--komi", "2"],
        &["--color", "white"],
        &["--unrated"],
        &["--tournament"],
        &["--extra-time", "10+30"],
        &["--flats", "30"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["playtak", "--accept", "*"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "'--accept <NAME>' cannot be used with '{}",
                args[0]
            )),
            "{args:?}: {stderr}"
        );
    }
    // The link's timing options are in the help.
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["playtak", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--ping-interval <SECONDS>",
        "--ping-timeout <SECONDS>",
        "--reconnect-delay <MS>",
    ] {
        assert!(help.contains(flag), "{flag} not in:\n{help}");
    }
}
