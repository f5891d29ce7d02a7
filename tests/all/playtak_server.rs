//! `cairn playtak` against the real playtak server code in `../shared/playtak-server/` (with
//! Java and the jars of its `install-deps.sh`). Ignored by `cargo test`, as a fresh clone has no
//! kit beside it; `.ci/run` installs the kit's dependencies and runs it with `--ignored`, and a
//! run without the kit fails, saying what is missing, rather than passing unchecked.
//!
//! Starts a loopback server in a temporary folder and runs two clients (one seeks over TCP,
//! the other accepts over WebSocket) until the seeker is stopped by SIGTERM; see the test for
//! what each game must show.

use crate::common::{Reaped, Scratch, SpawnReaped};
use cairn_tak::notation::{parse_file, replay_any};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A running server, stopped when dropped.
struct Server {
    kit: PathBuf,
    /// The server's files; dropped after `drop` has stopped it.
    dir: Scratch,
    telnet: u16,
    ws: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(self.kit.join("stop.sh"))
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// The server kit, or what is missing.
fn kit() -> Result<PathBuf, String> {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/playtak-server");
    if !kit.join("start.sh").exists() {
        return Err(format!("{} is not there", kit.display()));
    }
    let java = Command::new("java")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !java.is_ok_and(|s| s.success()) {
        return Err("no java".to_string());
    }
    if !Path::new("/usr/share/java/jbcrypt.jar").exists() {
        return Err("the server's jars are missing (run install-deps.sh)".to_string());
    }
    Ok(kit)
}

fn start(kit: &Path) -> Server {
    let dir = Scratch::new("playtak-server");
    let (telnet, ws, http) = (free_port(), free_port(), free_port());
    let out = Command::new("bash")
        .arg(kit.join("start.sh"))
        .arg(&dir)
        .env("PLAYTAK_TELNET_PORT", telnet.to_string())
        .env("PLAYTAK_WS_PORT", ws.to_string())
        .env("PLAYTAK_HTTP_PORT", http.to_string())
        .output()
        .expect("cannot run start.sh");
    let server = Server {
        kit: kit.to_path_buf(),
        dir,
        telnet,
        ws,
    };
    assert!(
        out.status.success(),
        "start.sh failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{}", String::from_utf8_lossy(&out.stdout).trim_end());
    server
}

fn client(args: &[&str]) -> Reaped {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .env("CAIRN_PLAYTAK_PASSWORD", "password")
        .env("RUST_LOG", "warn,cairn_engine::playtak=info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn_reaped()
}

/// Waits for `child` to exit 0; its stderr.
fn wait(child: Reaped, limit: Duration) -> String {
    let mut child = child;
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output();
            panic!(
                "a client did not finish:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

fn ptn_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// `(white, black, result, moves)` of every game in the server's database.
fn stored_games(server: &Server) -> Vec<(String, String, String, usize)> {
    let out = Command::new("sqlite3")
        .arg(server.dir.join("games.db"))
        .arg("select player_white, player_black, result, notation from games order by id")
        .output()
        .expect("sqlite3");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let moves = f[3].split(',').filter(|m| !m.is_empty()).count();
            (f[0].to_string(), f[1].to_string(), f[2].to_string(), moves)
        })
        .collect()
}

/// Two clients play until the seeker is stopped: `cairn` over TCP posts three seeks in turn
/// (5×5, 5×5, 6×6, unrated, komi 2) and gets SIGTERM once two games are over; `opponent` over
/// WebSocket accepts `cairn`'s 5×5 and 6×6 seeks, chats, and resigns lost games. Each game's
/// PTN must be the same for both, replay by the rules to the result and ending the server
/// announced (a resignation only by `opponent`, which said why), and be the server's record.
#[test]
#[ignore = "needs ../shared/playtak-server, Java and its jars; .ci/run runs it"]
fn plays_complete_games_on_the_real_server() {
    let kit = kit().unwrap_or_else(|why| {
        panic!("the real playtak server test needs ../shared/playtak-server and Java: {why}")
    });
    let server = start(&kit);
    let dir = server.dir.join("ptn");
    let (seeker_dir, accepter_dir) = (dir.join("seeker"), dir.join("accepter"));
    let transcript = dir.join("accepter.log");
    let _ = std::fs::create_dir_all(&dir);
    let telnet = format!("127.0.0.1:{}", server.telnet);
    let ws = format!("ws://127.0.0.1:{}/", server.ws);
    let seeker = client(&[
        "playtak",
        "--server",
        &telnet,
        "--user",
        "cairn",
        "--seek",
        "5 10+0 komi 2 unrated",
        "--seek",
        "5 10+0 komi 2 unrated",
        "--seek",
        "6 10+0 komi 2 unrated",
        "--hash",
        "16",
        "--quiet",
        "--ptn-dir",
        seeker_dir.to_str().unwrap(),
    ]);
    let accepter = client(&[
        "--log-file",
        transcript.to_str().unwrap(),
        "playtak",
        "--server",
        &ws,
        "--user",
        "opponent",
        "--accept",
        "cairn",
        "--accept-size",
        "5,6",
        "--accept-unrated",
        "--resign",
        "--hash",
        "16",
        "--ptn-dir",
        accepter_dir.to_str().unwrap(),
    ]);
    // Stop the seeker once two games are over: it finishes the third if it has begun (or quits
    // at once if not) and posts no new seek.
    let deadline = Instant::now() + Duration::from_secs(360);
    while ptn_files(&seeker_dir).len() < 2 {
        assert!(Instant::now() < deadline, "two games took over 6 minutes");
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(1));
    seeker.signal("TERM");
    let seeker_log = wait(seeker, Duration::from_secs(180));
    let seeker_files = ptn_files(&seeker_dir);
    assert!(
        seeker_log.contains(&format!(
            "stopped as asked after {} games",
            seeker_files.len()
        )),
        "{seeker_log}"
    );
    // The accepter, with no game in progress, stops at once.
    std::thread::sleep(Duration::from_secs(1));
    accepter.signal("TERM");
    let accepter_log = wait(accepter, Duration::from_secs(30));
    for line in seeker_log.lines().chain(accepter_log.lines()) {
        if line.contains(" over: ") || line.contains("started") || line.contains("resigning") {
            println!("{line}");
        }
    }
    let accepter_files = ptn_files(&accepter_dir);
    assert_eq!(seeker_files.len(), accepter_files.len());
    let mut checked = Vec::new();
    for (i, (a, b)) in seeker_files.iter().zip(&accepter_files).enumerate() {
        let text = std::fs::read_to_string(a).unwrap();
        let games = parse_file(&text).unwrap();
        let game = &games[0];
        let other = parse_file(&std::fs::read_to_string(b).unwrap()).unwrap();
        // Both players saw the same game, and the seeks came in turn.
        assert_eq!(game.plies, other[0].plies, "{}", a.display());
        assert_eq!(game.result, other[0].result);
        let size = if i == 2 { "6" } else { "5" };
        assert_eq!(game.tag("Size"), Some(size));
        assert_eq!(game.tag("Komi"), Some("2"));
        assert_eq!(game.tag("Rated"), Some("no"));
        let ending = game.tag("Termination").unwrap();
        assert_eq!(other[0].tag("Termination"), Some(ending));
        let result = game.result.clone().unwrap();
        let (_, by_rules) = replay_any(game).unwrap_or_else(|e| panic!("{}: {e}", a.display()));
        match (result.as_str(), ending) {
            ("R-0" | "0-R", "road") | ("F-0" | "0-F", "flats") => {
                assert_eq!(by_rules.map(|r| r.ptn()), Some(result.as_str()), "{text}")
            }
            // A tie on flats, or 50 plies without a placement.
            ("1/2-1/2", "flats" | "draw rule") => assert!(
                by_rules.is_some_and(|r| r.ptn() == "1/2-1/2")
                    || (by_rules.is_none() && game.plies.len() >= 50),
                "{text}"
            ),
            // Only `opponent` resigns, and only a game it judged lost.
            ("1-0" | "0-1", "resignation") => {
                let loser = if result == "1-0" {
                    "Player2"
                } else {
                    "Player1"
                };
                assert_eq!(game.tag(loser), Some("opponent"), "{text}");
                assert!(accepter_log.contains("resigning, "), "{accepter_log}");
                // Once: a resigned game is not searched again while the `Over` is on its way.
                let event = game.tag("Event").unwrap();
                let no = event.strip_prefix("playtak game ").expect(event);
                let resigned = format!("game {no}: resigning, ");
                assert_eq!(accepter_log.matches(&resigned).count(), 1, "{accepter_log}");
            }
            other => panic!("unexpected ending {other:?}:\n{text}"),
        }
        println!(
            "{}: {} plies, {result} by {ending} (rules: {})",
            a.file_name().unwrap().to_string_lossy(),
            game.plies.len(),
            by_rules.map_or("-", |r| r.ptn())
        );
        checked.push((
            game.tag("Player1").unwrap().to_string(),
            game.tag("Player2").unwrap().to_string(),
            result,
            game.plies.len(),
        ));
    }
    // The server stored the same games, with the same results, and no other (no game was
    // begun after the stop).
    assert_eq!(stored_games(&server), checked);
    // The accepter greeted the seeker in each game; the seeker, --quiet, said nothing.
    let transcript = std::fs::read_to_string(&transcript).unwrap();
    let greetings = transcript.matches("< Tell cairn Hi! I am Cairn").count();
    assert_eq!(greetings, checked.len(), "{transcript}");
    assert!(!transcript.contains("> Tell <cairn>"), "{transcript}");
}
