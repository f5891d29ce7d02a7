//! `cairn playtak` against the real playtak server code in `../shared/playtak-server/` (with
//! Java and the jars of its `install-deps.sh`). Ignored by `cargo test`, as a fresh clone has no
//! kit beside it; `.ci/run` installs the kit's dependencies and runs it with `--ignored`, and a
//! run without the kit fails, saying what is missing, rather than passing unchecked.
//!
//! Starts a loopback server in a temporary folder, runs two clients (one seeks over TCP, the
//! other accepts over WebSocket), plays two 5×5 games and one 6×6 game to a result, and checks
//! that each game's PTN replays by the rules to the result the server announced and stored.

use cairn::notation::{parse_file, replay_any};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server, stopped when dropped.
struct Server {
    kit: PathBuf,
    dir: PathBuf,
    telnet: u16,
    ws: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new(self.kit.join("stop.sh"))
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
    let dir = std::env::temp_dir().join(format!("cairn-playtak-server-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (telnet, ws, http) = (free_port(), free_port(), free_port());
    let out = Command::new(kit.join("start.sh"))
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

fn client(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .arg("playtak")
        .args(args)
        .env("CAIRN_PLAYTAK_PASSWORD", "password")
        .env("RUST_LOG", "warn,cairn::playtak=info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run cairn")
}

fn wait(child: Child, limit: Duration) -> String {
    let mut child = child;
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "a client did not finish:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

/// Plays `games` games of `size` between a seeking and an accepting client; returns the PTN
/// files each wrote.
fn play(server: &Server, size: usize, games: u32, dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (seeker_dir, accepter_dir) = (
        dir.join(format!("seek{size}")),
        dir.join(format!("acc{size}")),
    );
    let common = |dir: &Path| {
        vec![
            "--games".to_string(),
            games.to_string(),
            "--hash".to_string(),
            "16".to_string(),
            "--ptn-dir".to_string(),
            dir.display().to_string(),
        ]
    };
    let mut seek_args: Vec<String> = [
        "--server",
        &format!("127.0.0.1:{}", server.telnet),
        "--user",
        "cairn",
        "--size",
        &size.to_string(),
        "--tc",
        "10+0",
        "--komi",
        "2",
        "--unrated",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    seek_args.extend(common(&seeker_dir));
    let mut accept_args: Vec<String> = [
        "--server",
        &format!("127.0.0.1:{}", server.ws),
        "--websocket",
        "--user",
        "opponent",
        "--accept",
        "cairn",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    accept_args.extend(common(&accepter_dir));
    let seeker = client(&seek_args);
    let accepter = client(&accept_args);
    let limit = Duration::from_secs(120 * u64::from(games));
    let seeker_log = wait(seeker, limit);
    let accepter_log = wait(accepter, limit);
    for line in seeker_log.lines().chain(accepter_log.lines()) {
        if line.contains(" over: ") || line.contains("started") {
            println!("{line}");
        }
    }
    let files = |dir: &Path| {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        v.sort();
        v
    };
    (files(&seeker_dir), files(&accepter_dir))
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

#[test]
#[ignore = "needs ../shared/playtak-server, Java and its jars; .ci/run runs it"]
fn plays_complete_games_on_the_real_server() {
    let kit = kit().unwrap_or_else(|why| {
        panic!("the real playtak server test needs ../shared/playtak-server and Java: {why}")
    });
    let server = start(&kit);
    let dir = server.dir.join("ptn");
    let mut checked = Vec::new();
    for (size, games) in [(5, 2), (6, 1)] {
        let (seeker, accepter) = play(&server, size, games, &dir);
        assert_eq!(seeker.len(), games as usize, "{seeker:?}");
        assert_eq!(accepter.len(), games as usize, "{accepter:?}");
        for (a, b) in seeker.iter().zip(&accepter) {
            let text = std::fs::read_to_string(a).unwrap();
            let games = parse_file(&text).unwrap();
            let game = &games[0];
            let other = parse_file(&std::fs::read_to_string(b).unwrap()).unwrap();
            // Both players saw the same game.
            assert_eq!(game.plies, other[0].plies, "{}", a.display());
            assert_eq!(game.result, other[0].result);
            assert_eq!(game.tag("Size"), Some(size.to_string().as_str()));
            assert_eq!(game.tag("Komi"), Some("2"));
            let result = game.result.clone().unwrap();
            let (_, by_rules) = replay_any(game).unwrap_or_else(|e| panic!("{}: {e}", a.display()));
            match result.as_str() {
                "R-0" | "0-R" | "F-0" | "0-F" => {
                    assert_eq!(by_rules.map(|r| r.ptn()), Some(result.as_str()), "{text}")
                }
                // A draw on flats, or 50 plies without a placement.
                "1/2-1/2" => assert!(
                    by_rules.is_some_and(|r| r.ptn() == "1/2-1/2")
                        || (by_rules.is_none() && game.plies.len() >= 50),
                    "{text}"
                ),
                other => panic!("unexpected result {other} (time? resignation?):\n{text}"),
            }
            println!(
                "{}: {} plies, {} (rules: {})",
                a.file_name().unwrap().to_string_lossy(),
                game.plies.len(),
                result,
                by_rules.map_or("-", |r| r.ptn())
            );
            checked.push((
                game.tag("Player1").unwrap().to_string(),
                game.tag("Player2").unwrap().to_string(),
                result,
                game.plies.len(),
            ));
        }
    }
    // The server stored the same games, with the same results.
    assert_eq!(stored_games(&server), checked);
}
