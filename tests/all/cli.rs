//! The command line as a tool: a closed pipe ends a command quietly; argument errors keep
//! clap's tip and name the subcommand's help; `--log-file` only where it works; the version
//! names the commit; shell completions and the manual page; `report --json`; the wording of
//! errors. Each test runs the real binary.

use crate::common::{cairn, Scratch};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `cairn ARGS`, which must succeed: its stdout.
fn ok(args: &[&str]) -> String {
    let out = cairn(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Runs `cairn ARGS`, which must fail with `code`: its stderr, which must be one line.
fn fails(args: &[&str], code: i32) -> String {
    let out = cairn(args);
    let err = String::from_utf8(out.stderr).expect("utf-8 stderr");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err.trim_end().to_string()
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A match of three 5x5 games between `alpha` and `beta`, as racetrack writes them: alpha
/// wins game 1 by a road as White, beta wins game 2 the same way as White (rounds 1 and 2, a
/// pair), and game 3 is cut off unfinished.
const MATCH: &str = "\
[Player1 \"alpha\"]\n[Player2 \"beta\"]\n[Size \"5\"]\n[Round \"1\"]\n[Result \"R-0\"]\n\n\
1. e5 a1 2. a2 {+0.50/3 0.10s} e4 {-0.40/2 0.20s} 3. a3 {+0.90/3 0.20s} e3 {-1.00/2 0.20s}\n\
4. a4 {+2.00/4 0.30s} Ce2 {-3.00/2 0.20s} 5. a5 {+99.99/4 0.40s} R-0\n\n\
[Player1 \"beta\"]\n[Player2 \"alpha\"]\n[Size \"5\"]\n[Round \"2\"]\n[Result \"R-0\"]\n\n\
1. e5 a1 2. a2 {+0.50/3 0.10s} e4 {-0.40/2 0.20s} 3. a3 {+0.90/3 0.20s} e3 {-1.00/2 0.20s}\n\
4. a4 {+2.00/4 0.30s} Ce2 {-3.00/2 0.20s} 5. a5 {+99.99/4 0.40s} R-0\n\n\
[Player1 \"alpha\"]\n[Player2 \"beta\"]\n[Size \"5\"]\n[Result \"*\"]\n\n\
1. e5 a1 2. c3 {+0.30/2 0.20s} c2 {-0.30/6 0.30s} *\n";

// ---------------------------------------------------------------------------------------------
// A closed pipe

/// Runs `cairn ARGS` with stdout a pipe whose reader is gone before anything is written, as
/// after `| head -1`: the command must end without a panic and without exit code 101. On Unix
/// it ends by SIGPIPE, as `cat` or `ls` do.
fn assert_quiet_on_closed_pipe(args: &[&str]) {
    // The write end of a pipe whose only reader, `true`, has ended.
    let mut reader = Command::new("true")
        .stdin(Stdio::piped())
        .spawn()
        .expect("run true");
    let writer = reader.stdin.take().expect("the write end");
    reader.wait().expect("true ends");
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run cairn");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
    assert!(!out.status.success(), "{args:?}: nothing could be written");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        const SIGPIPE: i32 = 13;
        assert_eq!(out.status.signal(), Some(SIGPIPE), "{args:?}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    let dir = Scratch::new("cli-pipe");
    let file = dir.file("match.ptn", MATCH);
    let tps = "x5/x5/x5/x5/x5 1 1";
    for args in [
        vec!["perft", "--size", "5", "--depth", "2", "--divide"],
        vec!["report", arg(&file)],
        vec!["replay", arg(&file)],
        vec![
            "analyze",
            "--tps",
            tps,
            "--depth",
            "1",
            "--threads",
            "1",
            "--link",
        ],
    ] {
        assert_quiet_on_closed_pipe(&args);
    }
}

// ---------------------------------------------------------------------------------------------
// Argument errors

#[test]
fn argument_errors_keep_the_tip_and_name_the_subcommands_help() {
    assert_eq!(
        fails(&["analyze", "--movetim", "100"], 2),
        "error: unexpected argument '--movetim' found; tip: a similar argument exists: \
         '--movetime' (see `cairn analyze --help`)"
    );
    assert_eq!(
        fails(&["prft"], 2),
        "error: unrecognized subcommand 'prft'; tip: a similar subcommand exists: 'perft' \
         (see `cairn --help`)"
    );
    // An error without clap's usage line (a bad value) still points at the subcommand.
    assert_eq!(
        fails(&["analyse", "--size", "5", "--nodes", "0"], 2),
        "error: invalid value '0' for '--nodes <NODES>': must be at least 1 \
         (see `cairn analyze --help`)"
    );
    let err = fails(&["tablut", "perft", "--depth", "x"], 2);
    assert!(err.ends_with("(see `cairn tablut perft --help`)"), "{err}");
}

#[test]
fn analyse_is_analyze() {
    let args = ["--size", "4", "--depth", "1", "--threads", "1", "--json"];
    let spelled = |name: &str| {
        let text = ok(&[[name].as_slice(), &args].concat());
        let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        json["best"].clone()
    };
    assert_eq!(spelled("analyse"), spelled("analyze"));
    assert!(ok(&["--help"]).contains("[alias: analyse]"));
}

#[test]
fn a_long_or_raw_value_is_quoted_short_and_escaped() {
    let long = "9".repeat(200);
    let err = fails(&["perft", "--depth", &long], 2);
    assert!(err.len() < 300, "{err}");
    assert!(err.contains(&format!("'{}…'", "9".repeat(48))), "{err}");
    assert!(err.contains("(the value is 200 bytes)"), "{err}");
    let err = fails(
        &[
            "perft",
            "--tps",
            "x5/x5/x5/x5/x\u{1b}[31m4 1 1",
            "--depth",
            "1",
        ],
        1,
    );
    assert_eq!(
        err,
        "error: --tps `x5/x5/x5/x5/x\\x1b[31m4 1 1`: rank 1 (the fifth row of the TPS): bad \
         square `x\\x1b[31m4`: an empty run must be x or x1 to x8"
    );
}

#[test]
fn log_file_is_an_option_of_the_protocol_modes_only() {
    let has = |args: &[&str]| ok(args).contains("--log-file <PATH>");
    assert!(has(&["--help"]));
    for protocol in ["tei", "ws", "playtak"] {
        assert!(has(&[protocol, "--help"]), "{protocol}");
    }
    for other in ["perft", "analyze", "report", "match", "bench", "replay"] {
        assert!(!has(&[other, "--help"]), "{other}");
    }
    assert_eq!(
        fails(&["perft", "--depth", "1", "--log-file", "perft.log"], 2),
        "error: unexpected argument '--log-file' found (see `cairn perft --help`)"
    );
    assert!(!Path::new("perft.log").exists());
    // Before a protocol subcommand it is that subcommand's, as it always was.
    let dir = Scratch::new("cli-log-file");
    let log = dir.join("tei.log");
    assert_eq!(ok(&["--log-file", arg(&log), "tei"]), "");
    assert!(log.exists());
}

/// The hint for a person who runs `cairn` in a terminal is for terminals only: a GUI's session
/// (stdin a pipe) gets nothing on stderr.
#[test]
fn no_terminal_hint_for_a_gui() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cairn");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"isready\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "readyok\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

// ---------------------------------------------------------------------------------------------
// The version

/// `git ARGS` in the repository, if git and the repository are there.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn the_version_names_the_commit() {
    let line = ok(&["--version"]);
    let version = line
        .trim_end()
        .strip_prefix("cairn ")
        .unwrap_or_else(|| panic!("{line}"));
    let package = env!("CARGO_PKG_VERSION");
    match git(&["rev-parse", "--short=8", "HEAD"]) {
        // Built in a work tree: the commit it was built from. (A commit made since the build
        // would also have rebuilt it: build.rs watches HEAD.)
        Some(commit) => {
            let clean = format!("{package} (commit {commit})");
            let modified = format!("{package} (commit {commit}, modified)");
            assert!(version == clean || version == modified, "{version}");
        }
        None => assert_eq!(version, package),
    }
    // A subcommand's version and TEI's `id version` are the same.
    assert_eq!(
        ok(&["perft", "--version"]),
        format!("cairn-perft {version}\n")
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run cairn");
    child.stdin.take().unwrap().write_all(b"tei\n").unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    assert!(
        out.lines().any(|l| l == format!("id version {version}")),
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// Completions and the manual

/// The names of the subcommands, from `cairn --help`.
fn subcommands() -> Vec<String> {
    let help = ok(&["--help"]);
    let commands = help
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands section");
    let names: Vec<String> = commands
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 15, "{names:?}");
    names
}

#[test]
fn completions_know_every_subcommand() {
    let names = subcommands();
    assert!(names.iter().any(|n| n == "completions") && names.iter().any(|n| n == "man"));
    let bash = ok(&["completions", "bash"]);
    assert!(bash.contains("complete -F _cairn"), "{bash}");
    for name in &names {
        assert!(bash.contains(&format!("cairn,{name})")), "bash: no {name}");
    }
    // Options of a subcommand complete too.
    assert!(bash.contains("--movetime"));
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let script = ok(&["completions", shell]);
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell}: no {name}");
        }
    }
    let err = fails(&["completions", "tcsh"], 2);
    assert!(err.contains("'tcsh'"), "{err}");
}

#[test]
fn the_manual_page_has_every_subcommand() {
    let page = ok(&["man"]);
    assert!(page.lines().any(|l| l.starts_with(".TH cairn 1")), "{page}");
    for name in subcommands() {
        assert!(
            page.contains(&format!("cairn\\-{name}(1)")),
            "no {name} in:\n{page}"
        );
    }
    let dir = Scratch::new("cli-man");
    let out = dir.join("man");
    let listed = ok(&["man", "--out", arg(&out)]);
    let perft = out.join("cairn-perft.1");
    assert!(listed.lines().any(|l| Path::new(l) == perft), "{listed}");
    let text = std::fs::read_to_string(&perft).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with(".TH cairn-perft 1")),
        "{text}"
    );
    assert!(text.contains("\\-\\-divide"), "{text}");
    // The synopsis names each option's value, as --help does, and not a flag's.
    let synopsis = text
        .lines()
        .skip_while(|l| *l != ".SH SYNOPSIS")
        .nth(1)
        .unwrap();
    assert!(
        synopsis.contains("<\\fB\\-\\-depth\\fR \\fIDEPTH\\fR>"),
        "{synopsis}"
    );
    assert!(synopsis.contains("[\\fB\\-\\-divide\\fR]"), "{synopsis}");
    assert!(
        page.contains("[\\fB\\-\\-log\\-file\\fR \\fIPATH\\fR]"),
        "{page}"
    );
    assert!(out.join("cairn-tablut-analyze.1").exists());
    assert_eq!(
        listed.lines().count(),
        std::fs::read_dir(&out).unwrap().count()
    );
}

// ---------------------------------------------------------------------------------------------
// report --json

#[test]
fn report_json_says_what_the_text_says() {
    let dir = Scratch::new("cli-report-json");
    let file = dir.file("match.ptn", MATCH);
    let text = ok(&["report", arg(&file)]);
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["report", arg(&file), "--json", "--links"])).expect("JSON");
    // The first line of the text is the title, numbers and all.
    assert_eq!(json["title"], text.lines().next().unwrap());
    assert_eq!(json["games"], 3);
    // Each engine's row: name, score, per cent, Elo and interval, by colour.
    let words = |start: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no `{start}` in:\n{text}"));
        line.split_whitespace().map(str::to_string).collect()
    };
    let tally = |t: &serde_json::Value| format!("+{} -{} ={}", t["wins"], t["losses"], t["draws"]);
    let signed = |v: &serde_json::Value| format!("{:+.0}", v.as_f64().unwrap());
    for (i, engine) in json["engines"].as_array().unwrap().iter().enumerate() {
        let name = engine["name"].as_str().unwrap();
        assert_eq!(name, ["alpha", "beta"][i]);
        let row = words(&format!("{name}  "));
        let score = &engine["score"];
        assert_eq!(row[1..4].join(" "), tally(score));
        assert_eq!(
            row[4],
            format!("{:.1}%", score["score_pct"].as_f64().unwrap())
        );
        let elo = &score["elo"];
        let interval = format!(
            "{} [{}, {}]",
            signed(&elo["elo"]),
            signed(&elo["low"]),
            signed(&elo["high"])
        );
        assert_eq!(row[5..8].join(" "), interval);
        assert_eq!(row[8..11].join(" "), tally(&engine["as_white"]));
        assert_eq!(row[11..14].join(" "), tally(&engine["as_black"]));
        // Endings by colour: the eight columns of the text.
        for (colour, key) in [("White", "endings_as_white"), ("Black", "endings_as_black")] {
            let e = &engine[key];
            let counts: Vec<String> = [
                "won_road",
                "won_flats",
                "won_other",
                "lost_road",
                "lost_flats",
                "lost_other",
                "drawn",
                "unfinished",
            ]
            .iter()
            .map(|k| e[k].to_string())
            .collect();
            let found = text.lines().any(|l| {
                l.split_whitespace().collect::<Vec<_>>().join(" ")
                    == format!("{name} {colour} {}", counts.join(" "))
            });
            assert!(found, "{name} {colour} {counts:?} not in:\n{text}");
        }
        // Own moves per game, time and depth per move (to the decimals the text shows: the
        // JSON numbers are the exact ones).
        let moves = &engine["moves_per_game"];
        let row = text
            .lines()
            .rfind(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        let shown: Vec<f64> = row
            .split_whitespace()
            .skip(1)
            .map(|w| w.trim_end_matches('s').parse().unwrap())
            .collect();
        let exact = [
            (&moves["flats"], 0.05),
            (&moves["walls"], 0.05),
            (&moves["capstones"], 0.05),
            (&moves["spreads"], 0.05),
            (&engine["seconds_per_move"], 0.005),
            (&engine["depth_per_move"], 0.005),
        ];
        assert_eq!(shown.len(), exact.len(), "{row}");
        for (shown, (exact, half_step)) in shown.iter().zip(exact) {
            let exact = exact.as_f64().unwrap();
            assert!((shown - exact).abs() <= half_step + 1e-9, "{row}: {exact}");
        }
    }
    // alpha won game 1 by a road as White, lost game 2 by a road as Black; game 3 unfinished.
    let alpha = &json["engines"][0];
    assert_eq!(alpha["score"]["wins"], 1);
    assert_eq!(alpha["score"]["losses"], 1);
    assert_eq!(alpha["score"]["draws"], 1);
    assert_eq!(alpha["endings_as_white"]["won_road"], 1);
    assert_eq!(alpha["endings_as_black"]["lost_road"], 1);
    // Endings, pairs and length, as the text words them.
    let e = &json["endings"];
    assert_eq!(
        words("Endings:").join(" "),
        format!(
            "Endings: {} roads, {} flat wins, {} draws, {} unfinished, {} on time, {} forfeits, \
             {} other",
            e["roads"],
            e["flat_wins"],
            e["draws"],
            e["unfinished"],
            e["on_time"],
            e["forfeits"],
            e["other"]
        )
    );
    assert_eq!(e["roads"], 2);
    let pairs = &json["pairs"];
    assert_eq!(pairs["pairs"], 1);
    assert_eq!(pairs["counts"], serde_json::json!([0, 0, 1, 0, 0]));
    assert!(text.contains("3/2: 0, 2: 0 (1 pair); Elo "), "{text}");
    let length = &json["length"];
    assert_eq!(
        words("Game length:").join(" "),
        format!(
            "Game length: {:.1} plies on average, shortest {}, longest {}",
            length["mean"].as_f64().unwrap(),
            length["shortest"],
            length["longest"]
        )
    );
    // The lost games with their links, as `--links` lists them.
    let lost = json["lost_games"].as_array().unwrap();
    assert_eq!(lost.len(), 2);
    let links = ok(&["report", arg(&file), "--links"]);
    for game in lost {
        let line = format!(
            "game {} ({}): {} lost as {}: {}",
            game["game"],
            game["result"].as_str().unwrap(),
            game["loser"].as_str().unwrap(),
            game["colour"].as_str().unwrap(),
            game["link"].as_str().unwrap()
        );
        assert!(links.lines().any(|l| l == line), "{line} not in:\n{links}");
    }
}

// ---------------------------------------------------------------------------------------------
// Wording

#[test]
fn one_game_is_one_game() {
    let dir = Scratch::new("cli-one-game");
    let first = MATCH.split("\n\n[Player1 \"beta\"]").next().unwrap();
    let file = dir.file("one.ptn", first);
    let text = ok(&["report", arg(&file)]);
    assert!(
        text.starts_with("alpha vs beta: +1 -0 =0 (1 game), score 100.0%, Elo "),
        "{text}"
    );
    let text = ok(&["report", arg(&dir.file("three.ptn", MATCH))]);
    assert!(text.contains(" (3 games), "), "{text}");
}
