//! `cairn puzzles` end to end, on handmade 5x5 games: a tinue in 3 missed and found, a road in
//! one, two winning first moves, the PTN collection read back and replayed, JSON against text,
//! bad games skipped, and `--out` left alone when the run fails.

use crate::common::{cairn, text, Scratch};
use cairn_tak::board::{Color, GameResult, Position};
use cairn_tak::notation::{parse_file, parse_move, replay, tps};
use serde_json::Value;
use std::process::Output;

/// The moves both games share: White builds a3-b3-c3 and d2, Cd4 (its capstone spent), Black
/// walls c2, e2, c4, e4, e1 around d3. After them White forces a road with d3 (threats on e3
/// and d5) and with no other first move.
const OPENING: &str = "1. a5 d1 2. a3 Sc2 3. b3 Se2 4. c3 Sc4 5. d2 Se4 6. Cd4 Se1";

/// The plies of [`OPENING`]: the puzzle comes after them.
const PUZZLE_PLY: usize = 12;

/// Game 1 misses the tinue (e3, answered by the wall on d3); game 2 finds it and plays on to
/// the road, through a road in one at ply 14.
fn games() -> String {
    format!(
        "[Size \"5\"]\n[Player1 \"Alice\"]\n[Player2 \"Bob\"]\n\n{OPENING} 7. e3 Sd3 *\n\n\
         [Size \"5\"]\n[Player1 \"Carol\"]\n[Player2 \"Dave\"]\n\n{OPENING} 7. d3 d5 8. e3 R-0\n"
    )
}

/// The stdout of a run that must succeed.
fn succeeds(args: &[&str]) -> String {
    let out = cairn(args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The JSON report of `cairn puzzles FILE --json` with a small budget.
fn json(file: &str) -> Value {
    let out = succeeds(&[
        "puzzles",
        file,
        "--json",
        "--nodes",
        "5000",
        "--threads",
        "1",
    ]);
    serde_json::from_str(&out).expect("one JSON document")
}

/// The TPS after the first `plies` moves of [`OPENING`], played here by the rules.
fn tps_after_opening() -> String {
    let mut pos = Position::<5>::start();
    let moves = OPENING
        .split_whitespace()
        .filter(|w| !w.ends_with('.'))
        .take(PUZZLE_PLY);
    for text in moves {
        let mv = parse_move(&pos, text).expect("a legal move");
        pos.make(mv);
    }
    tps::to_tps(&pos)
}

/// Plays a puzzle's solution from its TPS; the game's result.
fn replay_solution(tps_text: &str, solution: &[Value]) -> Option<GameResult> {
    let mut pos = tps::parse::<5>(tps_text).expect("the puzzle's TPS");
    for mv in solution {
        let mv = parse_move(&pos, mv.as_str().expect("a move")).expect("a legal move");
        pos.make(mv);
    }
    pos.result()
}

#[test]
fn a_missed_and_a_found_tinue_in_three() {
    let dir = Scratch::new("puzzles-found");
    let file = dir.file("games.ptn", &games());
    let report = json(file.to_str().unwrap());
    let puzzles = report["puzzles"].as_array().expect("puzzles");
    assert_eq!(puzzles.len(), 2, "{report:#}");
    let expected_tps = tps_after_opening();
    for (p, (game, found, played)) in puzzles.iter().zip([(1, false, "e3"), (2, true, "d3")]) {
        assert_eq!(p["verdict"], "unique");
        assert_eq!(p["game"], game);
        assert_eq!(p["ply"], PUZZLE_PLY);
        assert_eq!(p["plies"], 3);
        assert_eq!(p["side"], "white");
        assert_eq!(p["found"], found);
        assert_eq!(p["played"], played);
        assert_eq!(p["tps"], expected_tps.as_str());
        let solution = p["solution"].as_array().expect("solution");
        assert_eq!(solution[0], "d3");
        assert_eq!(solution.len(), 3);
        assert_eq!(
            replay_solution(&expected_tps, solution),
            Some(GameResult::Road(Color::White))
        );
        assert_eq!(p["winning_moves"], serde_json::json!(["d3"]));
    }
    assert_eq!(puzzles[0]["white"], "Alice");
    assert_eq!(puzzles[1]["black"], "Dave");
    let summary = &report["summary"];
    assert_eq!(summary["found"], 1);
    assert_eq!(summary["missed"], 1);
    assert_eq!(summary["by_length"]["3"]["unique"], 2);
}

#[test]
fn a_road_in_one_is_no_puzzle() {
    let dir = Scratch::new("puzzles-road1");
    let file = dir.file("games.ptn", &games());
    let report = json(file.to_str().unwrap());
    // Game 2 reaches White's road in one at ply 14 (after d3 d5): counted, not a puzzle.
    let mut pos = tps::parse::<5>(&tps_after_opening()).unwrap();
    for text in ["d3", "d5"] {
        let mv = parse_move(&pos, text).unwrap();
        pos.make(mv);
    }
    assert!(pos.winning_move().is_some());
    assert!(report["summary"]["road_in_one"].as_u64().unwrap() >= 1);
    for list in ["puzzles", "several", "unsure"] {
        for p in report[list].as_array().unwrap() {
            assert!(p["plies"].as_u64().unwrap() >= 3, "{p:#}");
            assert_ne!(p["tps"], tps::to_tps(&pos).as_str());
        }
    }
}

#[test]
fn two_winning_first_moves_are_several() {
    // With the capstone in hand (d4 a flat), Cd3 wins as well as d3.
    let dir = Scratch::new("puzzles-several");
    let game = games().replace("6. Cd4", "6. d4");
    let file = dir.file("games.ptn", &game);
    let report = json(file.to_str().unwrap());
    assert_eq!(report["puzzles"].as_array().unwrap().len(), 0, "{report:#}");
    let several = report["several"].as_array().unwrap();
    assert_eq!(several.len(), 2);
    for p in several {
        assert_eq!(p["verdict"], "several");
        let mut moves: Vec<&str> = p["winning_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        moves.sort();
        assert_eq!(moves, ["Cd3", "d3"]);
    }
    assert_eq!(report["summary"]["several"], 2);
    assert_eq!(report["summary"]["unique"], 0);
}

#[test]
fn the_collection_reparses_and_its_solutions_reach_the_road() {
    let dir = Scratch::new("puzzles-collection");
    let file = dir.file("games.ptn", &games());
    let out = dir.join("puzzles.ptn");
    succeeds(&[
        "puzzles",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--nodes",
        "5000",
    ]);
    let written = std::fs::read_to_string(&out).expect("the collection");
    let collection = parse_file(&written).expect("the collection is PTN");
    assert_eq!(collection.len(), 2);
    for (i, game) in collection.iter().enumerate() {
        assert_eq!(game.tag("Source"), file.to_str());
        assert_eq!(game.tag("SourceGame"), Some((i + 1).to_string().as_str()));
        assert_eq!(game.tag("SourcePly"), Some("12"));
        assert_eq!(game.tag("Tinue"), Some("3"));
        assert_eq!(game.tag("TPS"), Some(tps_after_opening().as_str()));
        assert!(game.comments[0].contains("road in 3 plies"), "{game:?}");
        let done = replay::<5>(game).expect("the solution replays");
        assert_eq!(done.result, Some(GameResult::Road(Color::White)));
    }
    assert_eq!(collection[0].tag("Found"), Some("no"));
    assert_eq!(collection[1].tag("Found"), Some("yes"));
    // No temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(&*dir).unwrap().collect();
    assert_eq!(left.len(), 2);
}

#[test]
fn json_and_text_say_the_same() {
    let dir = Scratch::new("puzzles-json-text");
    let several = games().replace("6. Cd4", "6. d4");
    let file = dir.file("games.ptn", &format!("{}\n{several}", games()));
    let name = file.to_str().unwrap();
    let report = json(name);
    let out = succeeds(&["puzzles", name, "--nodes", "5000", "--threads", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    let mut checked = 0;
    for (kind, list) in [
        ("puzzle", "puzzles"),
        ("several", "several"),
        ("unsure", "unsure"),
    ] {
        for (i, p) in report[list].as_array().unwrap().iter().enumerate() {
            let head = format!("{kind} {}: tinue in {}, ", i + 1, p["plies"]);
            let at = lines
                .iter()
                .position(|l| l.starts_with(&head))
                .unwrap_or_else(|| panic!("no `{head}` in\n{out}"));
            let played = p["played"].as_str().unwrap();
            let what = if p["found"] == true {
                "found"
            } else {
                "missed"
            };
            assert!(lines[at].ends_with(&format!("to move, {what} ({played})")));
            assert!(lines[at + 1].contains(&format!(", game {} (", p["game"])));
            assert!(lines[at + 1].ends_with(&format!("after ply {}", p["ply"])));
            assert_eq!(
                lines[at + 2],
                format!("  tps: {}", p["tps"].as_str().unwrap())
            );
            let solution: Vec<&str> = p["solution"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            assert_eq!(lines[at + 3], format!("  solution: {}", solution.join(" ")));
            let link = lines[at + 3..]
                .iter()
                .find(|l| l.starts_with("  link: "))
                .unwrap();
            assert_eq!(*link, format!("  link: {}", p["link"].as_str().unwrap()));
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
    let s = &report["summary"];
    let expect = [
        format!("games: {} read from 1 files, 0 skipped", s["games"]),
        format!(
            "tinues: {} (unique {}, several {}, unsure {})",
            s["tinues"], s["unique"], s["several"], s["unsure"]
        ),
        format!(
            "puzzles: {}, found by the player {}, missed {}",
            s["unique"], s["found"], s["missed"]
        ),
    ];
    for line in expect {
        assert!(lines.contains(&line.as_str()), "no `{line}` in\n{out}");
    }
    // The links hold the puzzles' PTN, as PTN Ninja reads it (its source tags as a note).
    for p in report["puzzles"].as_array().unwrap() {
        let ptn = cairn_tools::ninja::ptn_of_link(p["link"].as_str().unwrap()).unwrap();
        let game = &parse_file(p["ptn"].as_str().unwrap()).unwrap()[0];
        assert_eq!(ptn, cairn_tools::ninja::for_ninja(game).to_ptn());
        assert!(ptn.contains("SourcePly: "), "{ptn}");
    }
}

#[test]
fn bad_games_are_skipped_with_their_place() {
    let dir = Scratch::new("puzzles-bad");
    let illegal = "[Size \"5\"]\n\n1. a5 d1 2. a3 a3 *\n";
    let broken = "[Size \"5\"]\n\n1. a5 d1 2. a3 zz9 *\n";
    let input = format!("{illegal}\n{broken}\n{}", games());
    let file = dir.file("games.ptn", &input);
    let name = file.to_str().unwrap();
    let out = cairn(&["puzzles", name, "--json", "--nodes", "5000"]);
    assert!(out.status.success(), "{}", text_of(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["summary"]["games"], 4);
    assert_eq!(report["summary"]["skipped"], 2);
    assert_eq!(report["puzzles"].as_array().unwrap().len(), 2);
    let skipped = report["skipped"].as_array().unwrap();
    assert_eq!(skipped[0]["game"], 1);
    assert!(skipped[0]["error"].as_str().unwrap().contains("ply 4"));
    assert_eq!(skipped[1]["game"], 2);
    assert!(skipped[1]["error"].as_str().unwrap().contains("ply 4"));
    let errors = text(&out.stderr);
    assert!(
        errors.contains(&format!("error: {name}: game 1: ply 4")),
        "{errors}"
    );
    assert!(
        errors.contains(&format!("error: {name}: game 2: line 7")),
        "{errors}"
    );
}

fn text_of(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_failed_run_leaves_the_out_file_alone() {
    let dir = Scratch::new("puzzles-out");
    let good = dir.file("games.ptn", &games());
    let out = dir.file("puzzles.ptn", "keep me\n");
    let missing = dir.join("missing.ptn");
    let run = cairn(&[
        "puzzles",
        good.to_str().unwrap(),
        missing.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    assert!(
        text(&run.stderr).contains("missing.ptn"),
        "{}",
        text_of(&run)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me\n");
    assert_eq!(std::fs::read_dir(&*dir).unwrap().count(), 2);
    // An --out that cannot be made fails before the work.
    let nowhere = dir.join("no-such-dir").join("puzzles.ptn");
    let run = cairn(&[
        "puzzles",
        good.to_str().unwrap(),
        "--out",
        nowhere.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    assert!(text(&run.stderr).contains("--out"), "{}", text_of(&run));
    assert!(run.stdout.is_empty());
}
