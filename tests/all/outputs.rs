//! Commands never lose work: a bad output path fails before the work starts, an existing file
//! is not replaced by nothing, a failed write ends the command non-zero saying what was kept;
//! and `cairn match` says how its games were limited and gives its result as JSON.

use crate::common::{cairn, Scratch};
use std::path::Path;
use std::process::Output;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `cairn match` between two Cairns, 4x4, 100 nodes a move, with `args` added.
fn cairn_match(args: &[&str]) -> Output {
    let engine = |name: &str| format!("cmd={} name={name}", env!("CARGO_BIN_EXE_cairn"));
    let (a, b) = (engine("a"), engine("b"));
    let mut all = vec!["match", "--size", "4", "--nodes", "100"];
    all.extend(["--engine", &a, "--engine", &b]);
    all.extend(args);
    cairn(&all)
}

/// A short 4x4 game to review.
const GAME: &str = "[Size \"4\"]\n[Player1 \"a\"]\n[Player2 \"b\"]\n\n\
    1. a1 d4 2. b2 c3 3. b1 c4 4. c1 d3\n";

#[test]
fn match_outputs_that_cannot_be_made_fail_before_the_first_game() {
    let dir = Scratch::new("outputs-match");
    let nowhere = dir.join("no-such-dir");
    for (option, file) in [("--ptn", "m.ptn"), ("--plot", "m.svg")] {
        let target = nowhere.join(file);
        let out = cairn_match(&["--games", "200", option, path(&target)]);
        let err = stderr(&out);
        assert!(!out.status.success(), "{option}: {err}");
        assert!(
            err.starts_with(&format!("error: {option} {}: ", target.display())),
            "{err}"
        );
        // No game was played: no progress line, no result.
        assert!(!err.contains("match: "), "{err}");
        assert!(out.stdout.is_empty());
    }
    assert!(!nowhere.exists());
}

/// A PTN file that stops taking games (a full disk) ends the match at once, non-zero, saying
/// how many games the file keeps; the result of the games kept is still printed.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_stops_the_match_and_says_what_was_kept() {
    let out = cairn_match(&["--games", "20", "--ptn", "/dev/full"]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains(
            "error: --ptn /dev/full: No space left on device (os error 28) (writing game 1); the \
             file keeps the 0 games written before it; the match stopped after 0 games"
        ),
        "{err}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("a vs b: +0 -0 =0 (0 games)"), "{stdout}");
}

#[test]
fn analyze_outputs_that_cannot_be_made_fail_before_the_searches() {
    let dir = Scratch::new("outputs-analyze");
    let game = dir.file("game.ptn", GAME);
    let out_file = dir.join("a.ptn");
    let bad = dir.join("no-such-dir").join("x");
    let search = ["--nodes", "300", "--threads", "1", "--tinue-nodes", "0"];
    let bad_plot = format!("{}.svg", bad.display());
    let bad_out = format!("{}.ptn", bad.display());
    let cases: [(&str, &[&str]); 2] = [
        ("--plot", &["--plot", &bad_plot, "--out", path(&out_file)]),
        ("--out", &["--out", &bad_out, "--json"]),
    ];
    for (option, bad_args) in cases {
        let mut args = vec!["analyze", "--game", path(&game)];
        args.extend(search);
        args.extend(bad_args);
        let out = cairn(&args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?}: {err}");
        assert!(err.starts_with(&format!("error: {option} ")), "{err}");
        assert!(!err.contains("analyze: "), "searched before failing: {err}");
        assert!(out.stdout.is_empty());
    }
    // Nothing was written, not even the good --out.
    assert!(!out_file.exists());
    // With good paths, both files are written whole and no temporary file is left.
    let plot = dir.join("eval.svg");
    let mut args = vec!["analyze", "--game", path(&game), "--out", path(&out_file)];
    args.extend(["--plot", path(&plot)]);
    args.extend(search);
    let out = cairn(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&out_file)
        .unwrap()
        .contains("[Size \"4\"]"));
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    assert_eq!(std::fs::read_dir(&*dir).unwrap().count(), 3);
}

/// `openings --out` onto an existing book: a run that keeps no line leaves it as it was and
/// fails, saying so; a run that keeps lines replaces it.
#[test]
fn openings_that_keep_nothing_do_not_empty_an_existing_book() {
    let dir = Scratch::new("outputs-openings");
    let book = dir.file("book.txt", "a1 d4\nb1 c4\n");
    let run = |center: &str, bound: &str| {
        cairn(&[
            "openings",
            "--size",
            "4",
            "--plies",
            "2",
            "--depth",
            "2",
            "--threads",
            "1",
            "--center",
            center,
            "--max-eval",
            bound,
            "--out",
            path(&book),
        ])
    };
    // The evaluation gives the side to move after two plies a tempo and the first player's
    // share: no 4x4 line scores within ±0.01 of zero.
    let out = run("zero", "1");
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "error: no line is within the bounds: nothing written, {} left as it was",
            book.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), "a1 d4\nb1 c4\n");
    assert_eq!(std::fs::read_dir(&*dir).unwrap().count(), 1);
    // Around the median, the same bound keeps the typical lines.
    let out = run("median", "1");
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_to_string(&book).unwrap();
    assert!(
        !written.is_empty() && written != "a1 d4\nb1 c4\n",
        "{written}"
    );
    assert!(
        written.lines().all(|l| l.split(' ').count() == 2),
        "{written}"
    );
}

/// A match by nodes keeps no clock, so its PTN has no Clock tag (its Event names the nodes); a
/// match by the clock has one.
#[test]
fn a_match_by_nodes_has_no_clock_tag() {
    let dir = Scratch::new("outputs-clock");
    let nodes = dir.join("nodes.ptn");
    let out = cairn_match(&["--games", "2", "--ptn", path(&nodes)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let ptn = std::fs::read_to_string(&nodes).unwrap();
    assert_eq!(
        ptn.matches("[Event \"cairn match, 100 nodes a move\"]")
            .count(),
        2
    );
    assert!(!ptn.contains("[Clock"), "{ptn}");
    let clock = dir.join("clock.ptn");
    let engine = format!("cmd={} name=c", env!("CARGO_BIN_EXE_cairn"));
    let out = cairn(&[
        "match",
        "--size",
        "3",
        "--games",
        "2",
        "--tc",
        "2+0.05",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--ptn",
        path(&clock),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let ptn = std::fs::read_to_string(&clock).unwrap();
    assert_eq!(ptn.matches("[Clock \"2+0.05\"]").count(), 2, "{ptn}");
}

/// `match --json` is one JSON document whose numbers agree with each other; off a terminal the
/// progress is a line per game on stderr, with the SPRT's LLR between its bounds.
#[test]
fn match_json_parses_and_progress_lines_show_the_sprt_bounds() {
    let out = cairn_match(&["--games", "4", "--json", "--sprt", "elo0=0 elo1=50"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let score = &json["score"];
    let games = json["games"].as_array().unwrap();
    assert_eq!(score["games"], 4);
    assert_eq!(games.len(), 4);
    let total = ["wins", "losses", "draws"].map(|k| score[k].as_u64().unwrap());
    assert_eq!(total.iter().sum::<u64>(), 4);
    assert_eq!(json["engines"][0]["name"], "a");
    assert_eq!(json["settings"]["nodes"], 100);
    assert!(json["settings"]["tc"].is_null());
    assert_eq!(json["pairs"]["pairs"], 2);
    let sprt = &json["sprt"];
    assert_eq!(sprt["elo1"], 50.0);
    let (lower, upper) = (
        sprt["lower"].as_f64().unwrap(),
        sprt["upper"].as_f64().unwrap(),
    );
    assert!((upper - 19f64.ln()).abs() < 1e-9 && (lower + 19f64.ln()).abs() < 1e-9);
    assert_eq!(sprt["state"], "continue");
    for (i, game) in games.iter().enumerate() {
        assert!(
            game["round"].as_u64().is_some_and(|r| (1..=4).contains(&r)),
            "{game}"
        );
        assert!(
            game["result"].is_string() && game["termination"].is_string(),
            "{game}"
        );
        assert!(game["plies"].as_u64().unwrap() > 0, "{game} ({i})");
    }
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("match: ")).collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(lines[3].starts_with("match: 4/4 games, "), "{err}");
    assert!(
        lines.iter().all(|l| l.contains(" [-2.94, 2.94] (")),
        "{err}"
    );
    // The score comes before the last game, which a narrow terminal's bar may cut.
    assert!(lines.iter().all(|l| l.contains(" s: a +")), "{err}");
    assert!(lines.iter().all(|l| l.contains("; last ")), "{err}");
}
