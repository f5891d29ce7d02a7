//! MultiPV end to end: `cairn analyze` says what its lines say (the evaluation, the depth and
//! the best move are the first line's, the lines best first with distinct first moves), and the
//! TEI engine given the same search prints the same lines and plays the first one.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// The positions: a board size and the plies played from the empty board.
const POSITIONS: [(&str, &str); 3] = [
    ("6", "a1 f6 d4 c3 d3"),
    ("5", "a1 e5 c3"),
    ("5", "e1 a5 c3 b4 c2 b3"),
];

/// One line of a search: its depth, its score in centiflats (a proven result as a large
/// number, as TEI's `cp` writes it) and its moves.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    depth: u64,
    cp: i64,
    pv: Vec<String>,
}

/// What an analysis printed as JSON: the summary (as a line) and the lines.
fn analyze(size: &str, moves: &str, multipv: usize, limit: &[&str]) -> (String, Line, Vec<Line>) {
    let multipv = multipv.to_string();
    let mut args = vec![
        "analyze",
        "--size",
        size,
        "--moves",
        moves,
        "--threads",
        "1",
        "--hash",
        "16",
        "--multipv",
        &multipv,
        "--json",
    ];
    args.extend_from_slice(limit);
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(&args)
        .output()
        .expect("run cairn");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON document");
    let cp = |score: &serde_json::Value| {
        if let Some(cp) = score["cp"].as_i64() {
            return cp;
        }
        // A proven result: as TEI's cp writes it, far beyond any evaluation.
        let plies = score["plies"].as_i64().expect("a proven result");
        let win = score["win"].as_bool().expect("a proven result");
        if win {
            1_000_000 - plies
        } else {
            plies - 1_000_000
        }
    };
    let line = |v: &serde_json::Value, pv: Vec<String>| Line {
        depth: v["depth"].as_u64().expect("a depth"),
        cp: cp(&v["score"]),
        pv,
    };
    let lines: Vec<Line> = doc["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            let pv = l["pv"].as_array().expect("a pv").iter();
            line(l, pv.map(|m| m.as_str().unwrap().to_string()).collect())
        })
        .collect();
    let best = doc["best"].as_str().expect("a best move").to_string();
    (best.clone(), line(&doc, vec![best]), lines)
}

/// What the TEI engine printed for `go` with `limit` and `multipv` lines: the move played,
/// and the lines of its last iteration.
fn tei(size: &str, moves: &str, multipv: usize, limit: &str) -> (String, Vec<Line>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run cairn");
    let mut stdin = child.stdin.take().unwrap();
    let script = format!(
        "tei\nsetoption name Hash value 16\nsetoption name MultiPV value {multipv}\n\
         teinewgame {size}\nposition startpos moves {moves}\ngo {limit}\n"
    );
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut infos = Vec::new();
    let mut best = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.expect("a line");
        if let Some(mv) = line.strip_prefix("bestmove ") {
            best = Some(mv.trim().to_string());
            break;
        }
        if line.starts_with("info depth ") {
            infos.push(line);
        }
    }
    drop(stdin);
    let _ = child.wait();
    let best = best.expect("a bestmove");
    // The last info is the final report of the move played; before it, the last iteration.
    infos.pop();
    let parsed: Vec<(u64, Line)> = infos.iter().map(|l| tei_line(l, multipv > 1)).collect();
    let depth = parsed.last().expect("an iteration").1.depth;
    let lines: Vec<(u64, Line)> = parsed
        .into_iter()
        .filter(|(_, l)| l.depth == depth)
        .collect();
    let ks: Vec<u64> = lines.iter().map(|(k, _)| *k).collect();
    let expected: Vec<u64> = (1..=lines.len() as u64).collect();
    assert_eq!(ks, expected, "{infos:?}");
    (best, lines.into_iter().map(|(_, l)| l).collect())
}

/// An `info` line: its `multipv` index (1 without the field) and its line.
fn tei_line(text: &str, several: bool) -> (u64, Line) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let after = |key: &str| {
        let at = words
            .iter()
            .position(|w| *w == key)
            .unwrap_or_else(|| panic!("{key}: {text}"));
        words[at + 1]
    };
    let k = if several {
        after("multipv").parse().unwrap()
    } else {
        1
    };
    assert_eq!(after("score"), "cp", "{text}");
    let cp: i64 = after("cp").parse().unwrap();
    let pv_at = words
        .iter()
        .position(|w| *w == "pv")
        .unwrap_or(words.len() - 1);
    let line = Line {
        depth: after("depth").parse().unwrap(),
        cp: if cp.abs() >= 9999 {
            cp.signum() * 1_000_000
        } else {
            cp
        },
        pv: words[pv_at + 1..].iter().map(|w| w.to_string()).collect(),
    };
    (k, line)
}

/// The lines of one search are best first and start with distinct moves.
fn assert_sorted(lines: &[Line], case: &str) {
    assert!(!lines.is_empty(), "{case}");
    assert!(
        lines.windows(2).all(|w| w[0].cp >= w[1].cp),
        "{case}: {lines:?}"
    );
    let firsts: HashSet<&String> = lines.iter().map(|l| &l.pv[0]).collect();
    assert_eq!(firsts.len(), lines.len(), "{case}: {lines:?}");
}

/// For 1, 2, 3 and 5 lines at a fixed depth, the analysis' evaluation, depth and best move are
/// its first line's, its lines are best first with distinct first moves, and the TEI engine
/// prints the same lines (moves, scores, depth) and plays the first.
#[test]
fn analyze_and_tei_agree_on_sorted_lines() {
    for (size, moves) in POSITIONS {
        for multipv in [1, 2, 3, 5] {
            let depth = if size == "6" { "5" } else { "6" };
            let case = format!("{size}x{size} {moves}, MultiPV {multipv}, depth {depth}");
            let (best, summary, lines) = analyze(size, moves, multipv, &["--depth", depth]);
            assert_eq!(lines.len(), multipv, "{case}");
            assert_sorted(&lines, &case);
            assert_eq!(summary.depth, lines[0].depth, "{case}");
            assert_eq!(summary.cp, lines[0].cp, "{case}");
            assert_eq!(best, lines[0].pv[0], "{case}");
            let (played, tei_lines) = tei(size, moves, multipv, &format!("depth {depth}"));
            let cp = |l: &Line| Line {
                // TEI's cp of a proven result is capped; compare the sign there.
                cp: if l.cp.abs() >= 9999 {
                    l.cp.signum() * 1_000_000
                } else {
                    l.cp
                },
                ..l.clone()
            };
            let ours: Vec<Line> = lines.iter().map(cp).collect();
            assert_eq!(tei_lines, ours, "{case}");
            assert_eq!(played, best, "{case}");
        }
    }
}

/// Searches cut short by a node count (the first case of the issue: a deeper iteration's first
/// line shown over the last full iteration's lines) still give the first line's evaluation,
/// depth and move, with the lines best first.
#[test]
fn a_node_limit_keeps_the_summary_on_the_first_line() {
    for (size, moves) in POSITIONS {
        for multipv in [2, 3, 5] {
            for nodes in ["4000", "15000", "40000"] {
                let case = format!("{size}x{size} {moves}, MultiPV {multipv}, {nodes} nodes");
                let (best, summary, lines) = analyze(size, moves, multipv, &["--nodes", nodes]);
                assert_sorted(&lines, &case);
                assert!(
                    lines.iter().all(|l| l.depth == summary.depth),
                    "{case}: {lines:?}"
                );
                assert_eq!(summary.cp, lines[0].cp, "{case}");
                assert_eq!(best, lines[0].pv[0], "{case}");
            }
        }
    }
}
