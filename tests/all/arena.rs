//! `cairn match` when an engine fails mid-game: one that is killed and one that hangs. Each
//! failure is a forfeit named in the PTN, the failed engine is started afresh, and the match
//! plays on to its last game. And the SPRT over whole pairs, in the match and in `cairn report`.

#![cfg(unix)]

use crate::common::{cairn_run, Scratch};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A TEI engine as a shell script: it plays `a1` (or `d4` when a1 is taken) on its first `go`
/// and does `on_second_go` on its second.
fn fake_engine(dir: &Path, name: &str, on_second_go: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = format!(
        "#!/bin/sh\n\
         gos=0\n\
         square=a1\n\
         while read -r line; do\n\
         \x20 case \"$line\" in\n\
         \x20   tei) echo \"id name {name}\"; echo teiok ;;\n\
         \x20   isready) echo readyok ;;\n\
         \x20   position*) case \"$line\" in *a1*) square=d4 ;; *) square=a1 ;; esac ;;\n\
         \x20   go*) gos=$((gos + 1)); if [ \"$gos\" -ge 2 ]; then {on_second_go}; fi; \
         echo \"bestmove $square\" ;;\n\
         \x20   quit) exit 0 ;;\n\
         \x20 esac\n\
         done\n"
    );
    let path = dir.join(format!("{name}.sh"));
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Runs a 4x4 match of `games` games, Cairn first; returns stdout and the PTN written.
fn run_match(dir: &Path, engine: &Path, name: &str, tc: &str, games: u32) -> (String, String) {
    run_match_with(dir, engine, name, &["--tc", tc], games)
}

/// [`run_match`] with any limit arguments (`--tc`, `--nodes`).
fn run_match_with(
    dir: &Path,
    engine: &Path,
    name: &str,
    limits: &[&str],
    games: u32,
) -> (String, String) {
    let ptn = dir.join(format!("{name}.ptn"));
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["match", "--size", "4", "--games", &games.to_string()])
        .args(limits)
        .arg("--engine")
        .arg(format!("cmd={} name=cairn", env!("CARGO_BIN_EXE_cairn")))
        .arg("--engine")
        .arg(format!("cmd={} name={name}", engine.display()))
        .arg("--ptn")
        .arg(&ptn)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    (stdout, std::fs::read_to_string(&ptn).unwrap())
}

/// An engine killed by a signal in every game loses each one as a crash, with the signal named;
/// it is restarted, so every game is played.
#[test]
fn a_killed_engine_forfeits_and_the_match_goes_on() {
    let dir = Scratch::new("arena-killed");
    let engine = fake_engine(&dir, "killed", "kill -9 $$");
    let (stdout, ptn) = run_match(&dir, &engine, "killed", "5+0.1", 4);
    // The summary line `cairn report` begins with, and the forfeits.
    let tally = cairn_tools::arena::Tally {
        wins: 4,
        draws: 0,
        losses: 0,
    };
    assert_eq!(
        stdout.lines().next(),
        Some(&*format!(
            "cairn vs killed: +4 -0 =0 (4 games), score 100.0%, Elo {}, forfeits 0/4",
            tally.elo()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("pairs (0, 1/2, 1, 3/2, 2 points): 0 0 0 0 2 (2 pairs)"),
        "{stdout}"
    );
    let crashes = ptn
        .matches("[Termination \"killed crashed: killed by signal 9 (SIGKILL)\"]")
        .count();
    assert_eq!(crashes, 4, "{ptn}");
    // Each game got as far as the engine's second move: a fresh process every game.
    assert_eq!(ptn.matches("[Result \"1-0\"]").count(), 2, "{ptn}");
    assert_eq!(ptn.matches("[Result \"0-1\"]").count(), 2, "{ptn}");
}

/// The SPRT runs on finished pairs. Against an engine that loses every game, [0, 400] is
/// decided after 4 pairs: the pairs' LLR (padded by one pair of each sum) is 2.65 after 3 and
/// 3.69 after 4, past the bound of 2.94. On single games, 3 straight wins would already have
/// decided it.
#[test]
fn the_sprt_counts_whole_pairs() {
    let dir = Scratch::new("arena-sprt");
    let engine = fake_engine(&dir, "sprt", "kill -9 $$");
    let sprt = [
        "--tc",
        "5+0.1",
        "--sprt",
        "elo0=0 elo1=400 alpha=0.05 beta=0.05",
    ];
    let (stdout, ptn) = run_match_with(&dir, &engine, "sprt", &sprt, 20);
    assert!(
        stdout.contains("cairn vs sprt: +8 -0 =0 (8 games)"),
        "{stdout}"
    );
    assert!(stdout.contains(" 0 0 0 0 4 (4 pairs)"), "{stdout}");
    assert!(
        stdout.contains("sprt: llr 3.69 over the pairs, AcceptH1"),
        "{stdout}"
    );
    assert_eq!(ptn.matches("[Result ").count(), 8, "{ptn}");

    // `cairn report --sprt` judges the file's pairs by the same test, and so does it when the
    // match was played in two runs (each file with its own rounds).
    let report = |files: &[&Path], test: &str| {
        let mut args = vec!["report"];
        args.extend(files.iter().map(|f| f.to_str().expect("a UTF-8 path")));
        cairn_run(&[&args[..], &["--sprt", test]].concat())
    };
    let test = "elo0=0 elo1=400 alpha=0.05 beta=0.05";
    let decided = "SPRT elo0=0 elo1=400 alpha=0.05 beta=0.05 over the pairs: LLR 3.69 in \
                   [-2.94, 2.94], accept_h1";
    let whole = dir.file("whole.ptn", &ptn);
    let (success, text, err) = report(&[&whole], test);
    assert!(success && text.contains(decided), "{text}{err}");
    let fifth = ptn.find("[Round \"5\"]").expect("a fifth game");
    let cut = ptn[..fifth].rfind("\n\n").expect("games apart") + 2;
    let monday = dir.file("monday.ptn", &ptn[..cut]);
    let tuesday = dir.file("tuesday.ptn", &ptn[cut..]);
    let (success, pooled, err) = report(&[&monday, &tuesday], test);
    assert!(success && pooled.contains(decided), "{pooled}{err}");
    let (success, half, err) = report(&[&monday], test);
    assert!(
        success && half.contains("(2 pairs)") && half.contains(", continue\n"),
        "{half}{err}"
    );
    let (success, _, err) = report(&[&whole], "elo0=10 elo1=5");
    assert!(
        !success && err.contains("\"elo0=10 elo1=5\": need elo1 > elo0"),
        "{err}"
    );
}

/// An engine that stops answering loses on time one second past its clock, is killed and
/// restarted, and so plays its first move of the next game again instead of losing at once.
#[test]
fn a_hung_engine_is_restarted_for_the_next_game() {
    let dir = Scratch::new("arena-hung");
    let engine = fake_engine(&dir, "hung", "exec sleep 60");
    let (stdout, ptn) = run_match(&dir, &engine, "hung", "1+0", 2);
    assert!(
        stdout.contains("cairn vs hung: +2 -0 =0 (2 games)"),
        "{stdout}"
    );
    assert_eq!(
        ptn.matches("[Termination \"hung lost on time (no move)\"]")
            .count(),
        2,
        "{ptn}"
    );
    // In both games the hung engine made its first move: the second game had a new process.
    for game in ptn.split("[Event").skip(1) {
        let moves = game.rsplit("]\n\n").next().unwrap();
        assert!(moves.contains("a1") || moves.contains("d4"), "{game}");
    }
}

/// With `--nodes`, every move is searched by `go nodes N` and the clock is not kept: an engine
/// that takes far longer than the nominal clock does not lose on time, and the PTN says how the
/// games were limited.
#[test]
fn a_match_by_nodes_sends_go_nodes_and_keeps_no_clock() {
    let dir = Scratch::new("arena-nodes");
    let log = dir.join("gos.txt");
    // Its second and later moves take 300 ms, six times the whole 50 ms clock.
    let engine = fake_engine(
        &dir,
        "slow",
        &format!("sleep 0.3; echo \"$line\" >> {}", log.display()),
    );
    let (stdout, ptn) = run_match_with(
        &dir,
        &engine,
        "slow",
        &["--tc", "0.05+0", "--nodes", "300"],
        2,
    );
    assert!(stdout.contains("forfeits 0/2"), "{stdout}");
    assert!(!ptn.contains("lost on time"), "{ptn}");
    assert_eq!(
        ptn.matches("[Event \"cairn match, 300 nodes a move\"]")
            .count(),
        2,
        "{ptn}"
    );
    let gos = std::fs::read_to_string(&log).unwrap();
    assert!(!gos.is_empty());
    assert!(gos.lines().all(|l| l == "go nodes 300"), "{gos}");
}

/// Runs `cairn match` (Cairn against itself, 4x4, 100 nodes a move) with `args`.
fn cairn_match(args: &[&str]) -> std::process::Output {
    let cairn = format!("cmd={} name=cairn", env!("CARGO_BIN_EXE_cairn"));
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["match", "--size", "4", "--nodes", "100", "--engine", &cairn])
        .args(["--engine", &cairn])
        .args(args)
        .output()
        .unwrap()
}

/// `--book-start K` plays the book from its K-th opening, each with both colours, and wraps
/// around to the first; a start past the book's end is refused, naming both numbers.
#[test]
fn book_start_picks_the_first_opening_and_wraps() {
    let dir = Scratch::new("arena-book-start");
    let book = dir.join("book.txt");
    std::fs::write(&book, "a1 d4\nb1 c4\nd1 a4\n").unwrap();
    let ptn = dir.join("games.ptn");
    let (book_arg, ptn_arg) = (book.to_str().unwrap(), ptn.to_str().unwrap());
    let out = cairn_match(&[
        "--book",
        book_arg,
        "--book-start",
        "3",
        "--games",
        "4",
        "--ptn",
        ptn_arg,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = std::fs::read_to_string(&ptn).unwrap();
    let openings: Vec<&str> = games
        .split("[Event")
        .skip(1)
        .map(|g| {
            let moves = g.rsplit("]\n\n").next().unwrap();
            if moves.starts_with("1. d1 {book} a4 {book}") {
                "d1 a4"
            } else if moves.starts_with("1. a1 {book} d4 {book}") {
                "a1 d4"
            } else {
                panic!("unexpected opening: {moves}")
            }
        })
        .collect();
    assert_eq!(openings, ["d1 a4", "d1 a4", "a1 d4", "a1 d4"], "{games}");

    let out = cairn_match(&["--book", book_arg, "--book-start", "4", "--games", "2"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("book start 4: the book has 3 openings"),
        "{stderr}"
    );
    // It needs a book, and counts from 1.
    let cases: [(&[&str], &str); 2] = [
        (
            &["--book-start", "2"],
            "required arguments were not provided: --book",
        ),
        (
            &["--book", book_arg, "--book-start", "0"],
            "'0' for '--book-start",
        ),
    ];
    for (args, expected) in cases {
        let out = cairn_match(args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// Ctrl-C ends a match at once, even in a game where an engine is thinking: the game in
/// progress counts nowhere (not as a crash, not in the PTN), the result covers the finished
/// games, and the exit says why it stopped. The engine's later moves hang (each would take
/// a minute): its third move is illegal and loses game 1, its first move of game 2 hangs.
#[test]
fn ctrl_c_keeps_the_finished_games_and_leaves_out_the_one_in_progress() {
    use crate::common::SpawnReaped;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = Scratch::new("arena-interrupt");
    let thinking = dir.join("thinking");
    let engine = fake_engine(
        &dir,
        "slow",
        &format!(
            "if [ \"$gos\" -ge 4 ]; then touch {}; exec sleep 60; fi",
            thinking.display()
        ),
    );
    let ptn = dir.join("games.ptn");
    let mut command = Command::new(env!("CARGO_BIN_EXE_cairn"));
    command
        .args(["match", "--size", "4", "--tc", "100+0", "--games", "4"])
        .arg("--engine")
        .arg(format!("cmd={} name=cairn", env!("CARGO_BIN_EXE_cairn")))
        .arg("--engine")
        .arg(format!("cmd={} name=slow", engine.display()))
        .arg("--ptn")
        .arg(&ptn)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = command.spawn_reaped();
    let started = Instant::now();
    while !thinking.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "game 2 never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let interrupted = Instant::now();
    child.signal("INT");
    let out = child.wait_with_output();
    // The engine would have thought for a minute: the match did not wait for it.
    assert!(interrupted.elapsed() < Duration::from_secs(20));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!out.status.success(), "{stdout}{stderr}");
    assert!(
        stderr.contains("error: interrupted by SIGINT after 1 game; 1 game in progress left out"),
        "{stderr}"
    );
    assert!(
        stdout.contains("cairn vs slow: +1 -0 =0 (1 game)"),
        "{stdout}"
    );
    let games = std::fs::read_to_string(&ptn).unwrap();
    assert_eq!(games.matches("[Result ").count(), 1, "{games}");
    assert!(games.contains("slow made an illegal move"), "{games}");
}

/// Runs `cairn match` between Cairn as `a` and Cairn as `b` (the order `names` gives), 4x4,
/// 100 nodes a move, with `args`; exit status, stdout and stderr.
fn named_match(names: [&str; 2], args: &[&str]) -> (bool, String, String) {
    let exe = env!("CARGO_BIN_EXE_cairn");
    let [first, second] = names.map(|n| format!("cmd={exe} name={n}"));
    let mut all = vec!["match", "--size", "4", "--engine", &first];
    all.extend(["--engine", second.as_str()]);
    all.extend(args);
    cairn_run(&all)
}

/// The games of a match file, each with its Round.
fn rounds_of(ptn: &str) -> Vec<(usize, String)> {
    ptn.split("[Event")
        .skip(1)
        .map(|g| {
            let round = g
                .split("[Round \"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            (round.parse().unwrap(), format!("[Event{g}"))
        })
        .collect()
}

/// `--resume` goes on with the match its `--ptn` file holds: the kept games count in the score
/// and the pairs, only the missing rounds are played (a gap left by a game in progress when the
/// match was cut, and the rounds a larger `--games` adds), and the result is the file's, as
/// `cairn report` reads it. A file that holds another match (another book start, engines
/// swapped, another komi, clock or game count) is refused, naming the game, and left as it was.
#[test]
fn a_resumed_match_plays_only_the_rounds_its_file_lacks() {
    let dir = Scratch::new("arena-resume");
    let book = dir.file("book.txt", "a1 d4\nb1 c4\nd1 a4\n");
    let ptn = dir.join("games.ptn");
    let (book, path) = (book.to_str().unwrap(), ptn.to_str().unwrap());
    let settings = ["--nodes", "100", "--book", book, "--book-start", "2"];
    fn resume_args<'a>(settings: &[&'a str], path: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        [settings, &["--ptn", path, "--resume"], extra].concat()
    }
    let with = |extra: &[&'static str]| resume_args(&settings, path, extra);
    // Without the file, the match starts afresh.
    let (ok, _, stderr) = named_match(["a", "b"], &with(&["--games", "6"]));
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("resumed"), "{stderr}");
    // Cut as a match stopped with round 3 in progress would leave it, after round 4.
    let played = std::fs::read_to_string(&ptn).unwrap();
    let cut: String = rounds_of(&played)
        .into_iter()
        .filter(|(r, _)| [1, 2, 4].contains(r))
        .map(|(_, g)| g)
        .collect();
    std::fs::write(&ptn, &cut).unwrap();

    let (ok, stdout, stderr) = named_match(["a", "b"], &with(&["--games", "8", "--json"]));
    assert!(ok, "{stderr}");
    assert!(stderr.contains("resumed: 3 games kept (a +"), "{stderr}");
    assert!(stderr.contains("), 5 to play"), "{stderr}");
    let file = std::fs::read_to_string(&ptn).unwrap();
    assert!(file.starts_with(&cut), "the kept games stay as they were");
    let mut rounds: Vec<usize> = rounds_of(&file).into_iter().map(|(r, _)| r).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, [1, 2, 3, 4, 5, 6, 7, 8]);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mut played: Vec<u64> = doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["round"].as_u64().unwrap())
        .collect();
    played.sort_unstable();
    assert_eq!(played, [1, 2, 3, 4, 5, 6, 7, 8]);
    let (ok, report, stderr) = cairn_run(&["report", path, "--json"]);
    assert!(ok, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["engines"][0]["name"], "a");
    for key in ["wins", "losses", "draws", "games"] {
        assert_eq!(
            doc["score"][key], report["engines"][0]["score"][key],
            "{key}"
        );
    }
    assert_eq!(doc["pairs"]["counts"], report["pairs"]["counts"]);
    assert_eq!(doc["pairs"]["pairs"], 4);

    // Complete: nothing to play, the same result.
    let (ok, again, stderr) = named_match(["a", "b"], &with(&["--games", "8", "--json"]));
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("8 games kept") && stderr.contains(", 0 to play"),
        "{stderr}"
    );
    let again: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(again["score"], doc["score"]);
    assert_eq!(std::fs::read_to_string(&ptn).unwrap(), file);

    let other_start = [
        &settings[..4],
        &["--book-start", "1", "--ptn", path, "--resume"],
    ]
    .concat();
    let cases: [([&str; 2], Vec<&str>, &str); 5] = [
        (
            ["a", "b"],
            other_start,
            "game 1: round 1 opens `b1 c4`, but this match's book gives `a1 d4` there",
        ),
        (
            ["b", "a"],
            with(&["--games", "8"]),
            "game 1: round 1 is a against b, but this match plays it b against a",
        ),
        (
            ["a", "b"],
            with(&["--games", "6"]),
            "round 7 is past this match's 6 games",
        ),
        (
            ["a", "b"],
            with(&["--games", "8", "--komi", "1"]),
            "game 1: komi 0, but this match plays 1",
        ),
        (
            ["a", "b"],
            [
                &settings[2..],
                &["--ptn", path, "--resume", "--tc", "1+0.01"],
            ]
            .concat(),
            "game 1: played at 100 nodes a move, but this match plays at clock 1+0.01",
        ),
    ];
    for (names, args, expected) in cases {
        let (ok, _, stderr) = named_match(names, &args);
        assert!(!ok, "{args:?}");
        assert!(stderr.contains(&format!("--resume {path}: ")), "{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&ptn).unwrap(), file, "{args:?}");
    }
    // It goes on with a file.
    let (ok, _, stderr) = named_match(["a", "b"], &["--nodes", "100", "--resume"]);
    assert!(!ok);
    assert!(stderr.contains("--ptn"), "{stderr}");
}
