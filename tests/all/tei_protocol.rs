//! TEI protocol tests: each test spawns the real `cairn` binary (no arguments: TEI mode), writes a
//! scripted session to its stdin and reads its stdout line by line. A reader thread feeds a
//! channel, so every wait has a deadline and a silent or hung engine fails the test with the
//! transcript instead of hanging the suite.
//!
//! Covered: the handshake; racetrack's exact session with komi; PTN Ninja's TEI v1 session;
//! `go infinite` with `isready` and `stop`; every `go` limit; MultiPV; every board size; bad
//! lines and bad options; `quit` and end of input; reproducibility of a fixed-node search; and
//! tactics (road in one by placement and by spread, blocking a single road threat), checked
//! against the library's rules.

use crate::common;

use cairn_tak::board::{GameResult, Position};
use cairn_tak::notation::{parse_move, tps};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single answer may take, unless a test says otherwise.
const DEADLINE: Duration = Duration::from_secs(5);

/// How far past a time limit the engine's own measure of its search may go on a busy machine
/// (it looks at the clock every thousand nodes or so, and may wait to be scheduled), in ms.
/// Bounds on the wall clock come from the deadlines of the reads.
const BUSY_MS: u64 = 1_000;

/// The default `MoveOverhead`, ms.
const OVERHEAD_MS: u64 = 30;

/// The racetrack start position for 6x6 with komi: every empty square written out.
const RACETRACK_EMPTY_6: &str =
    "x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x/x,x,x,x,x,x 1 1";

// ---------------------------------------------------------------------------------------------
// The engine process

/// A running `cairn` in TEI mode.
struct Tei {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything exchanged so far, for failure messages.
    transcript: Vec<String>,
}

impl Tei {
    fn start() -> Tei {
        Tei::start_with(&[])
    }

    /// Starts `cairn` with `args` (options of the default TEI mode).
    fn start_with(args: &[&str]) -> Tei {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start cairn");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Tei {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// A started engine that has done the handshake.
    fn ready() -> Tei {
        let mut tei = Tei::start();
        tei.send("tei");
        tei.until(|l| l == "teiok");
        tei
    }

    fn fail(&self, message: &str) -> ! {
        panic!(
            "{message}\n--- transcript (> sent, < received) ---\n{}",
            self.transcript.join("\n")
        );
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        if let Err(e) = writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
            self.fail(&format!("cannot write `{line}`: {e}"));
        }
    }

    /// The next line, or `None` if none comes within `wait`.
    fn next_within(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.fail("the engine closed its output");
            }
        }
    }

    /// Lines up to and including the first one matching `done`, within `wait`.
    fn until_within(&mut self, wait: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_within(left) {
                Some(line) => {
                    let last = done(&line);
                    lines.push(line);
                    if last {
                        return lines;
                    }
                }
                None => self.fail(&format!("the expected line did not come within {wait:?}")),
            }
        }
    }

    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(DEADLINE, done)
    }

    /// Sends `isready` and returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `line` and expects exactly one reply, an `info string error`.
    fn expect_one_error(&mut self, line: &str) {
        self.send(line);
        let lines = self.sync();
        assert_eq!(lines.len(), 1, "`{line}` -> {lines:?}");
        assert!(
            lines[0].starts_with("info string error "),
            "`{line}` -> {lines:?}"
        );
    }

    /// Waits for the `bestmove` of a search: the `info` lines before it and the move.
    fn bestmove_within(&mut self, wait: Duration) -> Search {
        let lines = self.until_within(wait, |l| l.starts_with("bestmove"));
        let last = lines.last().expect("at least the bestmove");
        let tokens: Vec<&str> = last.split_whitespace().collect();
        if tokens.len() != 2 || tokens[0] != "bestmove" {
            self.fail(&format!("malformed bestmove line `{last}`"));
        }
        let best = tokens[1].to_string();
        let search = Search {
            infos: lines[..lines.len() - 1].to_vec(),
            best,
        };
        // Every bestmove comes right after the final info line of the move it plays.
        let before = search.infos.last().map_or("", String::as_str);
        if !before.starts_with("info depth ") {
            self.fail(&format!("no final info line before `{last}`"));
        }
        if Info::parse(before).pv.first() != Some(&search.best) {
            self.fail("the final info line does not start with the move played");
        }
        search
    }

    fn bestmove(&mut self) -> Search {
        self.bestmove_within(DEADLINE)
    }

    /// Asserts that nothing is printed for `wait`.
    fn silent_for(&mut self, wait: Duration) {
        if let Some(line) = self.next_within(wait) {
            self.fail(&format!("unexpected line `{line}`"));
        }
    }

    /// Closes stdin and waits for the exit status, up to `wait`.
    fn exit_within(&mut self, wait: Duration) -> ExitStatus {
        self.stdin.take();
        let deadline = Instant::now() + wait;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if Instant::now() >= deadline {
                self.fail(&format!("the engine did not exit within {wait:?}"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Tei {
    fn drop(&mut self) {
        // Only our own child, by its handle.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// What a search printed.
struct Search {
    infos: Vec<String>,
    best: String,
}

/// An `info depth ...` line, read field by field.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Info {
    depth: u32,
    seldepth: u32,
    multipv: Option<u32>,
    time: u64,
    nodes: u64,
    /// `cp 12`, `solved win 3`.
    score: String,
    pv: Vec<String>,
}

impl Info {
    fn parse(line: &str) -> Info {
        let number = |key: &str| -> u64 {
            let value = field(line, key).unwrap_or_else(|| panic!("no {key} in `{line}`"));
            value
                .parse()
                .unwrap_or_else(|_| panic!("{key} `{value}` in `{line}`"))
        };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let at = |key: &str| tokens.iter().position(|&t| t == key);
        let score_at = at("score").unwrap_or_else(|| panic!("no score in `{line}`"));
        let pv_at = at("pv").unwrap_or(tokens.len());
        Info {
            depth: number("depth") as u32,
            seldepth: number("seldepth") as u32,
            multipv: at("multipv").map(|_| number("multipv") as u32),
            time: number("time"),
            nodes: number("nodes"),
            score: tokens[score_at + 1..pv_at].join(" "),
            pv: tokens[(pv_at + 1).min(tokens.len())..]
                .iter()
                .map(|t| t.to_string())
                .collect(),
        }
    }

    /// The line itself (depth, score, pv...) without the totals (time and nodes).
    fn line(&self) -> Info {
        Info {
            time: 0,
            nodes: 0,
            ..self.clone()
        }
    }
}

impl Search {
    /// The final info line: the one right before `bestmove` (checked to be there).
    fn final_info(&self) -> Info {
        Info::parse(self.infos.last().expect("a final info line"))
    }

    /// The lines of finished iterations: every `info depth` line but the final one.
    fn iterations(&self) -> Vec<Info> {
        let lines = &self.infos[..self.infos.len() - 1];
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .map(|l| Info::parse(l))
            .collect()
    }

    /// The value after `key` in the last `info` line that has it.
    fn last(&self, key: &str) -> Option<String> {
        self.infos.iter().rev().find_map(|l| field(l, key))
    }

    /// The `score ...` part (`cp 12`, `solved win 1`) of the last info line.
    fn last_score(&self) -> String {
        let line = self
            .infos
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("no info line before bestmove {}", self.best));
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let at = tokens
            .iter()
            .position(|&t| t == "score")
            .unwrap_or_else(|| panic!("no score in `{line}`"));
        let end = tokens[at + 1..]
            .iter()
            .position(|&t| t == "pv")
            .map_or(tokens.len(), |p| at + 1 + p);
        tokens[at + 1..end].join(" ")
    }
}

/// The token after `key` in an `info` line.
fn field(line: &str, key: &str) -> Option<String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens.iter().position(|&t| t == key)?;
    tokens.get(at + 1).map(|s| s.to_string())
}

// ---------------------------------------------------------------------------------------------
// Rules checks through the library

/// The position after `moves` from `start` (a TPS, or the empty board).
fn position<const N: usize>(start: Option<&str>, moves: &[&str]) -> Position<N> {
    let mut pos = match start {
        Some(text) => tps::parse::<N>(text).unwrap_or_else(|e| panic!("bad test TPS {text}: {e}")),
        None => Position::<N>::start(),
    };
    for m in moves {
        let mv = parse_move(&pos, m).unwrap_or_else(|e| panic!("bad test move {m}: {e}"));
        pos.make(mv);
    }
    pos
}

/// What playing `best` after `start` + `moves` leads to.
#[derive(Debug)]
struct Outcome {
    /// The move completes a road for the mover.
    road_win: bool,
    /// After it, the opponent can complete a road in one.
    opponent_wins_next: bool,
}

fn outcome(
    size: usize,
    start: Option<&str>,
    moves: &[&str],
    best: &str,
) -> Result<Outcome, String> {
    cairn_tak::with_size!(size, |N| {
        let mut pos = position::<N>(start, moves);
        let mover = pos.side_to_move();
        let mv = parse_move(&pos, best).map_err(|e| format!("bestmove {best}: {e}"))?;
        pos.make(mv);
        Ok(Outcome {
            road_win: pos.result() == Some(GameResult::Road(mover)),
            opponent_wins_next: pos.result().is_none() && pos.winning_move().is_some(),
        })
    }, else panic!("size {size}"))
}

fn assert_legal(size: usize, start: Option<&str>, moves: &[&str], best: &str) {
    if let Err(e) = outcome(size, start, moves, best) {
        panic!("{size}x{size} {start:?} moves {moves:?}: {e}");
    }
}

fn position_line(start: Option<&str>, moves: &[&str]) -> String {
    let root = match start {
        Some(text) => format!("tps {text}"),
        None => "startpos".to_string(),
    };
    format!("position {root} moves {}", moves.join(" "))
}

// ---------------------------------------------------------------------------------------------
// Handshake and sessions

fn expected_handshake() -> Vec<String> {
    let komis: Vec<String> = (-10..=10).map(|k: i32| k.to_string()).collect();
    vec![
        "id name Cairn".to_string(),
        "id author The Cairn developers".to_string(),
        // The build, as build.rs names it for the binary and its tests alike.
        format!("id version {}", env!("CAIRN_VERSION")),
        format!("size 3 4 5 6 7 8 halfkomi {}", komis.join(" ")),
        "option name HalfKomi type spin default 0 min -10 max 10".to_string(),
        "option name Hash type spin default 64 min 1 max 65536".to_string(),
        "option name Threads type spin default 1 min 1 max 1024".to_string(),
        "option name MultiPV type spin default 1 min 1 max 64".to_string(),
        "option name MoveOverhead type spin default 30 min 0 max 5000".to_string(),
        "option name Contempt type spin default 0 min -100 max 100".to_string(),
        format!(
            "option name Level type spin default {full} min 1 max {full}",
            full = cairn_engine::level::FULL
        ),
        "option name Seed type spin default 0 min 0 max 2147483647".to_string(),
        "teiok".to_string(),
    ]
}

#[test]
fn handshake_is_exact_and_repeatable() {
    let mut tei = Tei::start();
    tei.send("tei");
    let lines = tei.until(|l| l == "teiok");
    assert_eq!(lines, expected_handshake());
    // Racetrack parses every spin strictly: default, min and max must all be integers.
    for line in lines.iter().filter(|l| l.starts_with("option ")) {
        for key in ["default", "min", "max"] {
            let value = field(line, key).unwrap_or_else(|| panic!("{key} missing: {line}"));
            value
                .parse::<i64>()
                .unwrap_or_else(|_| panic!("{key}: {line}"));
        }
    }
    // `tei` again, mid-session, prints the same block.
    tei.send("teinewgame 5");
    tei.send("position startpos moves a1");
    tei.send("tei");
    assert_eq!(tei.until(|l| l == "teiok"), expected_handshake());
    assert!(tei.sync().is_empty());
}

#[test]
fn racetrack_session_with_komi() {
    let mut tei = Tei::ready();
    tei.send("setoption name HalfKomi value 4");
    assert!(tei.sync().is_empty(), "no output expected before readyok");
    tei.send("teinewgame 6");
    assert!(tei.sync().is_empty());
    tei.send(&format!("position tps {RACETRACK_EMPTY_6} moves "));
    tei.send("go wtime 10000 btime 10000 winc 100 binc 100");
    let search = tei.bestmove_within(Duration::from_secs(10));
    assert_within_clock(&search, 10_000);
    assert_legal(6, Some(RACETRACK_EMPTY_6), &[], &search.best);
    assert!(!search.infos.is_empty(), "racetrack wants info lines");
    for info in &search.infos {
        assert!(info.starts_with("info depth "), "{info}");
        field(info, "depth").unwrap().parse::<u16>().expect("depth");
        field(info, "cp")
            .unwrap_or_else(|| panic!("no score cp: {info}"))
            .parse::<i64>()
            .expect("cp");
        assert!(!info.contains("mate") && !info.contains("solved"), "{info}");
    }
    // The next move of the game, racetrack style, with the moves from the root.
    let reply = if search.best == "a6" { "f1" } else { "a6" };
    let moves = [search.best.as_str(), reply];
    tei.send(&format!(
        "position tps {RACETRACK_EMPTY_6} moves {} ",
        moves.join(" ")
    ));
    tei.send("go wtime 9000 btime 9500 winc 100 binc 100");
    let search = tei.bestmove_within(Duration::from_secs(10));
    assert_within_clock(&search, 9_000);
    assert_legal(6, Some(RACETRACK_EMPTY_6), &moves, &search.best);
    tei.send("quit");
    assert!(tei.exit_within(Duration::from_secs(1)).success());
}

#[test]
fn ptn_ninja_v1_session() {
    // Compressed TPS; a white capstone on c3 facing a black wall on c4.
    let start = "2,x5/x6/x2,2S,x3/x2,1C,x3/x6/1,1,x4 1 5";
    let moves = ["c3+*", "a5'", "b2!?"];
    let mut tei = Tei::ready();
    tei.send("teinewgame size 6 halfkomi 4");
    assert!(tei.sync().is_empty());
    tei.send(&position_line(Some(start), &moves));
    tei.send("go movetime 300");
    let search = tei.bestmove();
    assert_movetime_used(&search, 300);
    assert_legal(6, Some(start), &moves, &search.best);
    assert!(
        !search.infos.iter().any(|l| l.contains("error")),
        "{:?}",
        search.infos
    );
    // PTN Ninja also sends a bare TPS without `moves`.
    tei.send("position tps x6/x6/x6/x6/x6/x6 2 1");
    tei.send("go depth 2");
    let search = tei.bestmove();
    assert_legal(6, Some("x6/x6/x6/x6/x6/x6 2 1"), &[], &search.best);
}

#[test]
fn teinewgame_forms() {
    let mut tei = Tei::ready();
    tei.send("teinewgame size 5 komi 2.5");
    tei.send("position tps x5/x5/x5/x5/x5 1 1");
    assert!(tei.sync().is_empty());
    // A bad teinewgame changes nothing: the game stays 5x5.
    for bad in [
        "teinewgame 9",
        "teinewgame size 2 halfkomi 0",
        "teinewgame size 6 komi 2.25",
        "teinewgame size 6 halfkomi 11",
        "teinewgame six",
    ] {
        tei.expect_one_error(bad);
    }
    tei.send("position tps x5/x5/x5/x5/x5 1 1 moves a1 e5");
    assert!(tei.sync().is_empty(), "the game should still be 5x5");
    tei.send("position tps x6/x6/x6/x6/x6/x6 1 1");
    let lines = tei.sync();
    assert_eq!(lines.len(), 1, "a 6x6 TPS in a 5x5 game: {lines:?}");
    assert!(lines[0].starts_with("info string error "));
    tei.send("teinewgame 4");
    tei.send("position startpos moves a1 d4");
    tei.send("go depth 2");
    let search = tei.bestmove();
    assert_legal(4, None, &["a1", "d4"], &search.best);
}

#[test]
fn size_follows_the_tps_before_any_teinewgame() {
    let mut tei = Tei::ready();
    let start = "x3/x3/x3 1 1";
    tei.send(&position_line(Some(start), &["a1", "c3"]));
    tei.send("go depth 2");
    let search = tei.bestmove();
    assert_legal(3, Some(start), &["a1", "c3"], &search.best);
    let start = "x7/x7/x7/x7/x7/x7/x7 1 1";
    tei.send(&position_line(Some(start), &["g7"]));
    tei.send("go depth 2");
    let search = tei.bestmove();
    assert_legal(7, Some(start), &["g7"], &search.best);
    assert!(search.best != "g7");
}

// ---------------------------------------------------------------------------------------------
// Searching

#[test]
fn go_infinite_isready_stop() {
    let mut tei = Tei::ready();
    tei.send("teinewgame 6");
    tei.send("position startpos moves a1 f6 c3");
    tei.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    // readyok comes while the search runs, and the search goes on.
    let before = tei.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    // A second go is refused, without a bestmove.
    tei.send("go depth 1");
    let line = tei.until(|l| !l.starts_with("info depth"));
    assert!(
        line.last().unwrap().starts_with("info string error"),
        "{line:?}"
    );
    // Still no bestmove a while later: only progress lines.
    let quiet_until = Instant::now() + Duration::from_millis(300);
    while let Some(left) = quiet_until.checked_duration_since(Instant::now()) {
        match tei.next_within(left) {
            Some(l) if l.starts_with("info depth") => {}
            Some(l) => tei.fail(&format!("unexpected `{l}` during go infinite")),
            None => break,
        }
    }
    tei.send("stop");
    let search = tei.bestmove();
    assert_legal(6, None, &["a1", "f6", "c3"], &search.best);
    // Exactly one bestmove: nothing else comes, and an idle stop prints nothing.
    tei.send("stop");
    let after = tei.sync();
    assert!(after.is_empty(), "{after:?}");
    tei.silent_for(Duration::from_millis(200));
}

#[test]
fn go_depth() {
    let mut tei = Tei::ready();
    tei.send("teinewgame 6");
    tei.send("position startpos moves a1 f6");
    tei.send("go depth 3");
    let search = tei.bestmove();
    assert_legal(6, None, &["a1", "f6"], &search.best);
    let iterations = search.iterations();
    let depths: Vec<u32> = iterations.iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3]);
    // One thread and a depth limit: the final line repeats the depth-3 line, totals included
    // (nothing was searched after it), at the same time or later.
    let last = &iterations[2];
    let end = search.final_info();
    assert_eq!(end.line(), last.line());
    assert_eq!(end.nodes, last.nodes);
    assert!(end.time >= last.time, "{end:?} {last:?}");
    assert_eq!(end.pv[0], search.best);
}

#[test]
fn go_nodes() {
    let mut tei = Tei::ready();
    tei.send("teinewgame 6");
    tei.send("position startpos moves a1 f6");
    tei.send("go nodes 3000");
    let search = tei.bestmove();
    assert_legal(6, None, &["a1", "f6"], &search.best);
    // The count is looked at every CHECK_INTERVAL nodes: the search ends at the first look at
    // or past the limit, and the final line says how many nodes that was.
    let nodes = search.final_info().nodes;
    let interval = cairn_search::params::CHECK_INTERVAL;
    assert!((3000..3000 + interval).contains(&nodes), "nodes {nodes}");
    assert!(search.iterations().iter().all(|i| i.nodes <= nodes));
    // More nodes, deeper.
    tei.send("go nodes 200000");
    // A node budget takes what it takes on a busy machine: the wait is generous.
    let more = tei.bestmove_within(Duration::from_secs(120));
    let depth = |s: &Search| s.last("depth").unwrap().parse::<u32>().unwrap();
    assert!(depth(&more) > depth(&search));
}

/// A fixed move time is used to the end (less MoveOverhead), by the engine's own measure, and
/// not much longer; the wall clock agrees.
#[test]
fn go_movetime_uses_all_of_the_time() {
    let mut tei = Tei::ready();
    tei.send("teinewgame 6");
    for moves in [
        &["a1", "f6"][..],
        &["a1", "f6", "d4", "c4", "d3", "c3", "d5"],
    ] {
        tei.send(&position_line(None, moves));
        let sent = Instant::now();
        tei.send("go movetime 500");
        let search = tei.bestmove();
        let wall = sent.elapsed();
        assert_movetime_used(&search, 500);
        assert!(wall >= Duration::from_millis(500 - OVERHEAD_MS), "{wall:?}");
        assert_legal(6, None, moves, &search.best);
    }
}

/// A result proven within the depth searched ends even a timed search: a flat win in one on
/// 3x3 (not a road, so the tinue check before the search does not find it) is answered long
/// before the 20 seconds, after depth 3.
#[test]
fn a_proven_result_ends_a_timed_search() {
    let start = "1,2S,1/2S,x,2S/1,2S,1 1 5";
    let mut tei = Tei::ready();
    tei.send("teinewgame 3");
    tei.send(&position_line(Some(start), &[]));
    tei.send("go movetime 20000");
    // Within DEADLINE (5 s).
    let search = tei.bestmove();
    let depths: Vec<u32> = search.iterations().iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3]);
    let end = search.final_info();
    assert_eq!((end.depth, end.score.as_str()), (3, "cp 9999"), "{end:?}");
    assert_eq!(
        (end.pv, search.best.as_str()),
        (vec!["b2".to_string()], "b2")
    );
}

/// `go infinite` on a proven position deepens until the proof lies within the depth searched,
/// then waits for `stop` without a word; `stop` gets the final line, with no more nodes than
/// the last iteration and the time of the search (not of the wait), then the move.
#[test]
fn go_infinite_waits_quietly_once_proven() {
    // 5x5: White forces a road in 3 plies (tests/tinue.rs checks the proof).
    let start = "1,2,2,x2/2,2,2,2,1/x5/1,1,1,x2/x4,1 1 7";
    for (newgame, proven) in [
        ("teinewgame size 5 halfkomi 0", "solved win 3"),
        ("teinewgame 5", "cp 9997"),
    ] {
        let mut tei = Tei::ready();
        tei.send(newgame);
        tei.send(&position_line(Some(start), &[]));
        let wait = Instant::now();
        tei.send("go infinite");
        let lines = tei.until(|l| field(l, "depth").as_deref() == Some("5"));
        let infos: Vec<Info> = lines.iter().map(|l| Info::parse(l)).collect();
        let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
        assert_eq!(depths, [1, 2, 3, 4, 5]);
        let last = &infos[4];
        assert_eq!(last.score, proven);
        // Nothing more while it waits.
        tei.silent_for(Duration::from_millis(400));
        assert!(tei.sync().is_empty());
        tei.send("stop");
        let search = tei.bestmove();
        let waited = wait.elapsed().as_millis() as u64;
        assert_eq!(search.infos.len(), 1, "{:?}", search.infos);
        let end = search.final_info();
        assert_eq!(end.line(), last.line());
        assert_eq!(end.nodes, last.nodes);
        assert!(end.time < waited, "{end:?} after {waited} ms");
        // A flat or the capstone on d2 or d1 leaves two road threats (d1: c1 and d2); the
        // evaluation picks one of the four.
        assert!(
            ["d1", "d2", "Cd1", "Cd2"].contains(&search.best.as_str()),
            "{}",
            search.best
        );
        assert_eq!(end.pv.first(), Some(&search.best));
    }
}

/// The `cp` value of an `info` line's score (every score is `cp` outside TEI v1).
fn centipawns(info: &Info) -> i64 {
    let value = info.score.strip_prefix("cp ");
    value
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("a cp score: {info:?}"))
}

/// The iterations of a MultiPV search, each its lines in order; every iteration's lines are
/// numbered 1, 2, ..., best first, with distinct first moves.
fn multipv_iterations(search: &Search) -> Vec<Vec<Info>> {
    let mut iterations: Vec<Vec<Info>> = Vec::new();
    for info in search.iterations() {
        match iterations.last_mut() {
            Some(last) if last[0].depth == info.depth => last.push(info),
            _ => iterations.push(vec![info]),
        }
    }
    for lines in &iterations {
        let ks: Vec<Option<u32>> = lines.iter().map(|i| i.multipv).collect();
        let expected: Vec<Option<u32>> = (1..=lines.len() as u32).map(Some).collect();
        assert_eq!(ks, expected, "{lines:?}");
        assert!(
            lines
                .windows(2)
                .all(|w| centipawns(&w[0]) >= centipawns(&w[1])),
            "lines not best first: {lines:?}"
        );
        let firsts: std::collections::HashSet<&String> = lines.iter().map(|i| &i.pv[0]).collect();
        assert_eq!(firsts.len(), lines.len(), "{lines:?}");
    }
    iterations
}

/// With MultiPV, the move played and the final line are the first line of the last iteration
/// whose every line was searched, whatever node count cuts the next one short (fixed node
/// counts on one thread: reproducible).
#[test]
fn the_final_line_is_the_first_of_the_last_full_iteration() {
    let mut tei = Tei::ready();
    tei.send("setoption name Threads value 1");
    for multipv in [2, 3] {
        tei.send(&format!("setoption name MultiPV value {multipv}"));
        for nodes in (2000..=30_000).step_by(4000) {
            tei.send("teinewgame 6");
            tei.send("position startpos moves f1 a6 c3 c4");
            tei.send(&format!("go nodes {nodes}"));
            // bestmove() checks that the final line starts with the move played.
            let search = tei.bestmove();
            let end = search.final_info();
            let iterations = multipv_iterations(&search);
            let last = iterations.last().expect("a finished iteration");
            assert_eq!(last.len(), multipv, "{last:?}");
            assert_eq!(end.multipv, Some(1));
            assert_eq!(end.line(), last[0].line(), "{nodes} nodes");
            // Nodes after the last full iteration are counted too.
            assert!(end.nodes >= nodes && end.nodes >= last[0].nodes, "{end:?}");
        }
    }
}

/// The search's own time (its final line) is all of `movetime` less MoveOverhead, and at most
/// a busy machine's delay more.
fn assert_movetime_used(search: &Search, movetime: u64) {
    let used = search.final_info().time;
    assert!(
        (movetime - OVERHEAD_MS..movetime + BUSY_MS).contains(&used),
        "movetime {movetime}: the search took {used} ms"
    );
}

/// A clock of `clock` ms for the mover: the engine's own time for the move (its final line) is
/// well inside it, under half.
fn assert_within_clock(search: &Search, clock: u64) {
    let used = search.final_info().time;
    assert!(
        used < clock / 2,
        "clock {clock} ms: the search took {used} ms"
    );
}

#[test]
fn go_clock_uses_the_movers_time() {
    let mut tei = Tei::ready();
    tei.send("teinewgame 6");
    // Black to move with 1 s left (White has plenty): a quick answer.
    quick_legal_answer(
        &mut tei,
        &["a1", "f6", "c3"],
        "go wtime 600000 btime 1000 winc 0 binc 10",
        1000,
    );
    // White to move, keywords in another order.
    quick_legal_answer(
        &mut tei,
        &["a1", "f6"],
        "go binc 10 winc 10 btime 600000 wtime 1000",
        1000,
    );
    // movestogo splits the clock: 3 s over 30 moves is about 0.1 s.
    quick_legal_answer(
        &mut tei,
        &["a1", "f6"],
        "go wtime 3000 btime 3000 movestogo 30",
        3000,
    );
}

/// Sets the 6x6 position after `moves`, sends `go` with `clock` ms for the mover, and expects a
/// legal move in well under that time by the engine's own measure.
fn quick_legal_answer(tei: &mut Tei, moves: &[&str], go: &str, clock: u64) {
    tei.send(&format!("position startpos moves {}", moves.join(" ")));
    tei.send(go);
    let search = tei.bestmove();
    assert_within_clock(&search, clock);
    assert_legal(6, None, moves, &search.best);
}

#[test]
fn multipv_lines() {
    let mut tei = Tei::ready();
    tei.send("setoption name MultiPV value 3");
    tei.send("teinewgame 5");
    tei.send("position startpos moves a1 e5");
    tei.send("go depth 3");
    let search = tei.bestmove();
    assert_legal(5, None, &["a1", "e5"], &search.best);
    let at_depth_3: Vec<Info> = search
        .iterations()
        .into_iter()
        .filter(|i| i.depth == 3)
        .collect();
    let ks: Vec<Option<u32>> = at_depth_3.iter().map(|i| i.multipv).collect();
    assert_eq!(ks, [Some(1), Some(2), Some(3)], "{at_depth_3:?}");
    let firsts: std::collections::HashSet<&String> = at_depth_3.iter().map(|i| &i.pv[0]).collect();
    assert_eq!(
        firsts.len(),
        3,
        "three different first moves: {at_depth_3:?}"
    );
    // The final line is the first line again.
    let end = search.final_info();
    assert_eq!(end.line(), at_depth_3[0].line());
    assert_eq!(end.nodes, at_depth_3[0].nodes);
    // An out-of-range value is refused and the old one stays.
    tei.send("setoption name multipv value 65");
    let lines = tei.sync();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("info string error"), "{lines:?}");
    tei.send("go depth 1");
    let search = tei.bestmove();
    let ks: Vec<String> = search
        .infos
        .iter()
        .filter_map(|l| field(l, "multipv"))
        .collect();
    assert_eq!(ks, ["1", "2", "3", "1"]);
    // Back to one line: no multipv field at all.
    tei.send("setoption name MultiPV value 1");
    tei.send("go depth 1");
    let search = tei.bestmove();
    assert!(search.infos.iter().all(|l| !l.contains("multipv")));
}

#[test]
fn every_size_plays_a_legal_move() {
    let mut tei = Tei::ready();
    for size in 3..=8usize {
        let last = (b'a' + size as u8 - 1) as char;
        let moves = [
            format!("{last}{size}"),
            "a1".to_string(),
            format!("{last}1"),
        ];
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        tei.send(&format!("teinewgame {size}"));
        tei.send(&position_line(None, &moves));
        tei.send("go depth 2");
        let search = tei.bestmove();
        assert_legal(size, None, &moves, &search.best);
        // And from the empty board.
        tei.send("position startpos");
        tei.send("go depth 1");
        let search = tei.bestmove();
        assert_legal(size, None, &[], &search.best);
    }
}

#[test]
fn search_is_reproducible() {
    let mut runs = Vec::new();
    let mut tei = Tei::ready();
    tei.send("setoption name Threads value 1");
    for _ in 0..2 {
        tei.send("teinewgame 6");
        tei.send("position startpos moves a1 f6 d3 c4");
        tei.send("go nodes 20000");
        let search = tei.bestmove();
        runs.push((search.best.clone(), search.last("nodes").expect("nodes")));
    }
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn teinewgame_during_a_search_stops_it_once() {
    let mut tei = Tei::ready();
    tei.send("position startpos moves a1 f6");
    tei.send("go infinite");
    tei.send("isready");
    tei.until(|l| l == "readyok");
    tei.send("teinewgame 5");
    let search = tei.bestmove();
    assert_legal(6, None, &["a1", "f6"], &search.best);
    let after = tei.sync();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:?}"
    );
    tei.send("position startpos moves a1 e5");
    tei.send("go depth 1");
    assert_legal(5, None, &["a1", "e5"], &tei.bestmove().best);
}

#[test]
fn go_on_a_finished_game_still_answers_once() {
    // 3x3, board full: the game is over (White wins on flats).
    let start = "1,2S,1/2S,1,2S/1,2S,1 2 5";
    let mut tei = Tei::ready();
    tei.send("teinewgame 3");
    tei.send(&position_line(Some(start), &[]));
    tei.send("go depth 2");
    let search = tei.bestmove();
    assert!(
        search.infos.iter().any(|l| l.starts_with("info string")),
        "{:?}",
        search.infos
    );
    assert!(tei.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn komi_is_applied_and_persists() {
    // 3x3, one empty square, White to move: its only moves are a flat or a wall on b2, which
    // fill the board. The flat gives White 5 flats to 0: a win at komi 0 (and below 5), a draw
    // at komi 5 (HalfKomi 10).
    let start = "1,2S,1/2S,x,2S/1,2S,1 1 5";
    cairn_tak::with_size!(3, |N| {
        let pos = position::<N>(Some(start), &[]);
        assert_eq!(pos.legal_moves().len(), 2);
        assert!(pos.winning_move().is_none());
    }, else unreachable!());
    let score = |tei: &mut Tei, newgame: &str| {
        tei.send(newgame);
        tei.send(&position_line(Some(start), &[]));
        tei.send("go depth 2");
        let search = tei.bestmove();
        assert_eq!(search.best, "b2");
        search.last_score()
    };
    let mut tei = Tei::ready();
    assert_eq!(score(&mut tei, "teinewgame 3"), "cp 9999");
    tei.send("setoption name halfkomi value 10");
    assert_eq!(score(&mut tei, "teinewgame 3"), "cp 0");
    // Kept across games.
    assert_eq!(score(&mut tei, "teinewgame 3"), "cp 0");
    // TEI v1 sets it with the game, and proven results become `solved`.
    assert_eq!(
        score(&mut tei, "teinewgame size 3 halfkomi 8"),
        "solved win 1"
    );
    assert_eq!(score(&mut tei, "teinewgame size 3 komi 5"), "cp 0");
    assert_eq!(
        score(&mut tei, "teinewgame size 3 komi -0.5"),
        "solved win 1"
    );
    // A plain teinewgame keeps the last komi and goes back to plain scores.
    assert_eq!(score(&mut tei, "teinewgame 3"), "cp 9999");
}

#[test]
fn options_are_accepted() {
    let mut tei = Tei::ready();
    for line in [
        "setoption name Hash value 16",
        "setoption name Threads value 2",
        "setoption name MoveOverhead value 50",
        "setoption name MultiPV value 2",
        "setoption name HalfKomi value -3",
        "setoption name HASH value 8",
        "setoption name Contempt value 20",
    ] {
        tei.send(line);
        assert!(tei.sync().is_empty(), "{line}");
    }
    tei.send("teinewgame 6");
    tei.send("position startpos moves a1 f6");
    tei.send("go depth 3");
    let search = tei.bestmove();
    assert_legal(6, None, &["a1", "f6"], &search.best);
    assert!(search.infos.iter().any(|l| l.contains("multipv 2")));
}

// ---------------------------------------------------------------------------------------------
// Bad input

#[test]
fn bad_lines_get_errors_and_the_engine_goes_on() {
    let mut tei = Tei::ready();
    // A road-in-one position: if a bad `position` replaced it, the winning move would change.
    let start = "x5/x5/1,1,x,1,1/2,2,x3/2,x4 1 5";
    tei.send("teinewgame 5");
    tei.send(&position_line(Some(start), &[]));
    assert!(tei.sync().is_empty());
    let long = "x".repeat(10_000);
    let bad = [
        "foo",
        "foo bar baz",
        "uci",
        "isready now",
        "go depth x",
        "go foo",
        "go nodes -5",
        "go movetime",
        "setoption",
        "setoption name",
        "setoption name Foo value 1",
        "setoption name Hash value abc",
        "setoption name Threads value 0",
        "setoption name HalfKomi value 11",
        "setoption name HalfKomi value 2.5",
        "setoption name Contempt value 101",
        "setoption name HalfKomi",
        "teinewgame size",
        "position",
        "position fen 8/8/8",
        "position tps",
        "position tps x5/x5 1 1",
        "position tps x5/x5/x5/x5/x5 3 1",
        "position tps x6/x6/x6/x6/x6/x6 1 1",
        "position startpos moves zz9",
        "position startpos moves a1 a1",
        "position startpos moves a1 e5 Cc3 Cb3 Cd4",
        "position startpos junk",
        "\u{1}\u{2}\u{3}",
        "\u{feff}\u{fffd}garbage",
        &long,
    ];
    for line in bad {
        tei.expect_one_error(line);
    }
    // Blank lines are ignored silently.
    tei.send("");
    tei.send("   \t ");
    assert!(tei.sync().is_empty());
    // Illegal moves name their index.
    tei.send("position startpos moves a1 e5 c3 c3");
    let lines = tei.sync();
    assert!(lines[0].contains("move 4"), "{lines:?}");
    // The road-in-one position is still the current one.
    tei.send("go depth 1");
    let search = tei.bestmove();
    let result = outcome(5, Some(start), &[], &search.best).unwrap();
    assert!(
        result.road_win,
        "{} does not win: the position changed",
        search.best
    );
    // A `go` with a bad part still searches with the rest, with one error line first.
    tei.send("go depth 1 ponder");
    let search = tei.bestmove();
    let errors = search.infos.iter().filter(|l| l.contains("error")).count();
    assert_eq!(errors, 1, "{:?}", search.infos);
    assert!(search.infos.iter().any(|l| l.contains("ponder")));
    assert!(outcome(5, Some(start), &[], &search.best).unwrap().road_win);
}

// ---------------------------------------------------------------------------------------------
// Ending

#[test]
fn quit_exits_promptly() {
    let mut tei = Tei::ready();
    tei.send("quit");
    let started = Instant::now();
    let status = tei.exit_within(Duration::from_secs(1));
    assert!(status.success(), "{status:?}");
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut tei = Tei::ready();
    tei.send("position startpos moves a1 f6");
    tei.send("go infinite");
    tei.send("isready");
    tei.until(|l| l == "readyok");
    tei.send("quit");
    let status = tei.exit_within(Duration::from_secs(1));
    assert!(status.success(), "{status:?}");
    let mut bestmoves = 0;
    while let Ok(line) = tei.lines.recv_timeout(Duration::from_millis(200)) {
        bestmoves += line.starts_with("bestmove") as usize;
    }
    assert!(bestmoves <= 1);
}

#[test]
fn end_of_input_is_quit() {
    let mut tei = Tei::ready();
    tei.send("go depth 1");
    tei.bestmove();
    let status = tei.exit_within(Duration::from_secs(1));
    assert!(status.success(), "{status:?}");
}

// ---------------------------------------------------------------------------------------------
// --log-file

#[test]
fn log_file_records_both_directions_in_order() {
    let path = common::fresh_log_path("tei-log");
    let path_arg = path.to_str().unwrap();
    let mut sessions = Vec::new();
    for (args, size) in [
        (vec!["--log-file", path_arg], 5),
        (vec!["tei", "--log-file", path_arg], 4),
    ] {
        let mut tei = Tei::start_with(&args);
        tei.send("tei");
        tei.until(|l| l == "teiok");
        tei.send(&format!("teinewgame {size}"));
        assert!(tei.sync().is_empty());
        tei.send("position startpos moves a1");
        tei.send("go depth 2");
        tei.bestmove();
        tei.send("foo");
        tei.until(|l| l.starts_with("info string error "));
        assert!(tei.sync().is_empty());
        tei.send("quit");
        assert!(tei.exit_within(Duration::from_secs(1)).success());
        sessions.extend(tei.transcript.clone());
        // Every line of both sessions, in the order they were exchanged, the file appended to.
        assert_eq!(common::logged(&path), sessions);
    }
    assert!(sessions.contains(&"< readyok".to_string()));
    assert!(sessions.contains(&"> go depth 2".to_string()));
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn log_file_errors_are_one_line() {
    let missing = std::env::temp_dir()
        .join(format!("cairn-no-such-dir-{}", std::process::id()))
        .join("x.log");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["--log-file", missing],
        vec!["ws", "--port", "0", "--log-file", missing],
        // Before another subcommand it would record nothing. (After it, clap refuses it:
        // tests/all/cli.rs.)
        vec!["--log-file", "perft.log", "perft", "--depth", "1"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("cannot run cairn");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        let expected = if args.contains(&"perft") {
            "error: --log-file is for the protocol modes only".to_string()
        } else {
            format!("error: --log-file {missing}: ")
        };
        assert!(stderr.starts_with(&expected), "{args:?}: {stderr}");
    }
    assert!(!std::path::Path::new("perft.log").exists());
}

// ---------------------------------------------------------------------------------------------
// Quoting bad input

/// Runs a whole TEI session on `input` (stdin closed after it): stdout and stderr.
fn session_bytes(input: &[u8]) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start cairn");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread, so that a large input never waits on unread output.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8 output");
    (text(out.stdout), text(out.stderr))
}

/// A megabyte line is not sent back: the reply quotes its first 48 characters and its length,
/// on stdout and in the log on stderr alike.
#[test]
fn a_huge_line_is_quoted_short() {
    let mut input = vec![b'a'; 1 << 20];
    input.extend_from_slice(b"\nisready\n");
    let (out, err) = session_bytes(&input);
    let quoted = format!("`{}…` (1048576 bytes)", "a".repeat(48));
    assert_eq!(
        out,
        format!("info string error unknown command {quoted} in {quoted}\nreadyok\n")
    );
    assert!(err.len() < 400, "{} bytes on stderr", err.len());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&quoted), "{err}");
}

/// Control bytes in a bad line come back escaped, never raw; so do those in a bad value.
#[test]
fn control_bytes_are_escaped() {
    let input = "hello\u{1}\u{1b}[31mred\ngo depth \u{7}\nsetoption name Hash value 1\u{1b}\n\
                 isready\n";
    let (out, err) = session_bytes(input.as_bytes());
    assert_eq!(
        out,
        "info string error unknown command `hello\\x01\\x1b[31mred` in `hello\\x01\\x1b[31mred`\n\
         info string error depth: bad value `\\x07`, expected a positive integer in `go depth \\x07`\n\
         info string error option Hash: `1\\x1b` is not an integer\n\
         readyok\n"
    );
    assert!(!err.contains(['\u{1}', '\u{7}', '\u{1b}']), "{err:?}");
}

/// Numbers too large for what they count are out of range, not malformed; a TPS move number
/// too large says so; ranks are named as a player reads the board.
#[test]
fn out_of_range_and_rank_wording() {
    let mut tei = Tei::ready();
    let replies = [
        (
            "go wtime 18446744073709551615",
            "info string error wtime: `18446744073709551615` is out of range (at most \
             9223372036854775807) in `go wtime 18446744073709551615`",
        ),
        (
            "go depth 4294967296",
            "info string error depth: `4294967296` is out of range (at most 4294967295) in \
             `go depth 4294967296`",
        ),
        (
            "position tps x6/x6/x6/x6/x6/x6 1 99999999999999999999",
            "info string error position: bad TPS `x6/x6/x6/x6/x6/x6 1 99999999999999999999`: move \
             number `99999999999999999999` is too large (at most 1073741824); position unchanged",
        ),
        (
            "position tps x6/x5/x6/x6/x6/x6 1 1",
            "info string error position: bad TPS `x6/x5/x6/x6/x6/x6 1 1`: rank 5 (the second row \
             of the TPS) has 5 squares, expected 6; position unchanged",
        ),
        (
            "position tps x6/x6/x6/x6/x6/x5,3 1 1",
            "info string error position: bad TPS `x6/x6/x6/x6/x6/x5,3 1 1`: rank 1 (the sixth \
             row of the TPS): bad square `3`: expected x, xN, or a stack of 1s and 2s; position \
             unchanged",
        ),
    ];
    for (line, reply) in replies {
        tei.send(line);
        assert_eq!(tei.sync(), [reply], "{line}");
    }
}

// ---------------------------------------------------------------------------------------------
// Tactics

/// Positions where the side to move completes a road with a placement.
const ROAD_BY_PLACEMENT: [(usize, &str); 6] = [
    (4, "x4/x4/1,1,x,1/2,2,x2 1 4"),
    (5, "x5/2,2,x,2,2/x5/1,1,x3/1,x4 2 5"),
    (6, "x2,1,x3/x2,1,2,x2/x6/x2,1,2,x2/x2,1,2,x2/2,x,1,x3 1 6"),
    (6, "x6/x6/1,1,1,1,x2/2,2,2,2,2,x/x6/x6 2 6"),
    (
        7,
        "x3,2,x3/x3,2,x3/x3,2,x3/1,1,x,2,x3/x3,x4/x3,2,x2,1/x3,2,1,x,1 2 8",
    ),
    (8, "x8/x8/x8/1,1,1,x,1,1,1,1/2,2,2,2,2,x3/x8/2,x7/2,x7 1 10"),
];

/// Positions where only a spread completes the mover's road.
const ROAD_BY_SPREAD: [(usize, &str); 3] = [
    (5, "x5/x5/1,1,1,1,2/x3,2S,1/2,2,x3 1 6"),
    (6, "x6/x6/1,1,1,1,2,1/x4,21,x/2,2,x4/x6 1 8"),
    (4, "x4/x2,2,21/1,1,1,2/x4 1 5"),
];

/// Positions where the opponent threatens one placement road and the mover can block it.
const BLOCK: [(usize, &str); 4] = [
    (5, "x5/2,2,2,2,x/x5/1,x,1,x2/1,x4 1 5"),
    (6, "x3,2,x2/x3,2,x2/x6/x3,2,x2/x,1,x,2,x2/1,x,1,2,x2 1 6"),
    (4, "x4/x,1,x2/2,2,2,x/1,x3 1 4"),
    (7, "x7/x7/x7/2,2,2,x,2,2,2/x7/1,x,1,x,1,x2/1,x6 1 6"),
];

fn check_road_in_one(size: usize, start: &str, by_spread: bool) {
    // The test position itself must be what it claims.
    cairn_tak::with_size!(size, |N| {
        let pos = position::<N>(Some(start), &[]);
        assert!(pos.result().is_none(), "{start}: already over");
        let win = pos.winning_move().unwrap_or_else(|| panic!("{start}: no road in one"));
        let placements_win = pos.legal_moves().iter().any(|&mv| {
            let mut after = pos.clone();
            after.make(mv);
            mv.is_placement() && after.has_road(pos.side_to_move())
        });
        assert_eq!(placements_win, !by_spread, "{start}");
        assert_eq!(win.is_placement(), !by_spread, "{start}");
    }, else unreachable!());
    for (v1, newgame) in [
        (false, format!("teinewgame {size}")),
        (true, format!("teinewgame size {size} halfkomi 0")),
    ] {
        let mut tei = Tei::ready();
        tei.send(&newgame);
        tei.send(&position_line(Some(start), &[]));
        for depth in [1, 4] {
            tei.send(&format!("go depth {depth}"));
            let search = tei.bestmove();
            let result = outcome(size, Some(start), &[], &search.best)
                .unwrap_or_else(|e| panic!("{start}: {e}"));
            assert!(
                result.road_win,
                "{start} depth {depth}: {} does not win",
                search.best
            );
            let score = search.last_score();
            if v1 {
                assert_eq!(score, "solved win 1", "{start}");
            } else {
                let cp: i64 = score
                    .strip_prefix("cp ")
                    .unwrap_or_else(|| panic!("{start}: score {score}"))
                    .parse()
                    .unwrap();
                assert!(cp >= 9_000, "{start}: score {score}");
            }
        }
    }
}

#[test]
fn road_in_one_by_placement_is_found() {
    for (size, start) in ROAD_BY_PLACEMENT {
        check_road_in_one(size, start, false);
    }
}

#[test]
fn road_in_one_by_spread_is_found() {
    for (size, start) in ROAD_BY_SPREAD {
        check_road_in_one(size, start, true);
    }
}

#[test]
fn single_road_threat_is_blocked() {
    let mut tei = Tei::ready();
    for (size, start) in BLOCK {
        cairn_tak::with_size!(size, |N| {
            let pos = position::<N>(Some(start), &[]);
            let me = pos.side_to_move();
            assert!(pos.result().is_none() && pos.winning_move().is_none(), "{start}");
            let threats = pos.completing_placements(!me);
            assert_eq!(threats.count(), 1, "{start}: exactly one placement threat");
            assert!(pos.winning_move_for(!me).is_some(), "{start}");
            // Some move blocks it; most do not.
            let blocking = pos
                .legal_moves()
                .iter()
                .filter(|&&mv| {
                    let mut after = pos.clone();
                    after.make(mv);
                    after.result().is_none() && after.winning_move().is_none()
                })
                .count();
            assert!(blocking > 0 && blocking * 4 < pos.legal_moves().len(), "{start}");
        }, else unreachable!());
        tei.send(&format!("teinewgame {size}"));
        tei.send(&position_line(Some(start), &[]));
        tei.send("go depth 3");
        let search = tei.bestmove();
        let result = outcome(size, Some(start), &[], &search.best).unwrap();
        assert!(
            !result.opponent_wins_next,
            "{start}: {} leaves the road open",
            search.best
        );
    }
}
