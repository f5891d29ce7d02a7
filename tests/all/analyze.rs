//! `cairn analyze` end to end: the binary is run on real positions and games, and its text, JSON
//! and annotated PTN are checked against the rules.

use crate::common::{cairn, Scratch};
use cairn_search::score::{Score, WinKind};
use cairn_tak::board::{Color, GameResult, Position};
use cairn_tak::notation::{parse_file, parse_move, replay, tps};
use serde::Deserialize;
use std::path::PathBuf;
use std::process::Output;

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("utf-8 stderr")
}

/// The stdout of a run that must succeed.
fn succeeds(args: &[&str]) -> String {
    let out = cairn(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// White to move has a road in one (e5); Black threatens one too (e2).
const ROAD_IN_ONE: &str = "1,1,1,1,x/x5/x5/2,2,2,2,x/x5 1 5";

/// A 3x3 game in which both players miss wins in one and then allow the opponent's.
const BLUNDERS_3X3: &str = "[Size \"3\"]\n[Result \"0-R\"]\n\n\
    1. a1 c3 2. b2 a2 3. a3 c2 4. b2< b2 5. b1 c1 6. 2a2- a2 0-R\n";

/// The first words of a review's summary.
const SUMMARY_HEAD: &str = "Review by cairn analyze";

/// A 5x5 game as `cairn match` writes it: two `{book}` plies, then evaluations from White's view.
/// Black's 4... a4 lets White's road in one at e1 (Black had e1 to block it).
const ROAD_MATCH_5X5: &str = "[Player1 \"Ann\"]\n[Player2 \"Bob\"]\n[Size \"5\"]\n[Komi \"0\"]\n\n\
    1. e5 {book} a1 {book} 2. b1 {+0.30/8 0.10s} a2 {+0.40/8 0.10s} 3. c1 {+0.50/8 0.10s} \
    a3 {-0.90/8 0.10s} 4. d1 {+1.20/8 0.10s} a4 {+9.00/8 0.10s} 5. e1 R-0\n";

/// The one error line of a failed run.
fn single_error(out: &Output) -> String {
    assert!(!out.status.success(), "expected a failure: {}", stdout(out));
    let err = stderr(out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one error line expected: {err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    lines[0].to_string()
}

#[test]
fn text_report_finds_the_road_in_one() {
    let out = cairn(&["analyze", "--tps", ROAD_IN_ONE, "--depth", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The diagram: five ranks from 5 down to 1, then the files.
    let ranks: Vec<&str> = text.lines().take(5).collect();
    for (i, line) in ranks.iter().enumerate() {
        assert!(line.starts_with(&format!("{} ", 5 - i)), "{text}");
    }
    assert!(text.contains("\n   "), "{text}");
    assert!(text.contains(&format!("TPS       {ROAD_IN_ONE}")), "{text}");
    assert!(
        text.contains("Eval      White wins on road in 1 ply"),
        "{text}"
    );
    assert!(text.contains("Best move e5"), "{text}");
    // A progress line per finished depth on stderr.
    assert!(stderr(&out).lines().any(|l| l.starts_with("depth  1 ")));
}

#[test]
fn json_report_is_valid_and_its_best_move_wins() {
    let out = cairn(&["analyze", "--tps", ROAD_IN_ONE, "--depth", "3", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["size"], 5);
    assert_eq!(v["tps"], ROAD_IN_ONE);
    assert_eq!(v["side_to_move"], "white");
    assert_eq!(v["score"]["win"], true);
    assert_eq!(v["score"]["plies"], 1);
    assert_eq!(v["score"]["kind"], "road");
    assert_eq!(v["score_white"], v["score"]);
    // The best move, played by the rules, wins the game for White.
    let mut pos = tps::parse::<5>(ROAD_IN_ONE).unwrap();
    let best = v["best"].as_str().expect("best move");
    pos.make(parse_move(&pos, best).expect("legal best move"));
    assert_eq!(pos.result(), Some(GameResult::Road(Color::White)));
}

/// `--movetime` is time to use: the search runs to the limit (a middlegame is not proven),
/// by the report's own measure, and stops not long after it even on a busy machine.
#[test]
fn movetime_is_used_to_the_end() {
    let out = cairn(&[
        "analyze",
        "--size",
        "6",
        "--moves",
        "a1 f6 d4 c4 d3 c3 d5",
        "--movetime",
        "500",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let ms = v["time_ms"].as_u64().expect("time_ms");
    assert!((500..1500).contains(&ms), "--movetime 500 took {ms} ms");
    assert!(v["score"]["cp"].is_i64(), "{v}");
}

#[test]
fn multipv_json_lines_are_distinct_legal_moves() {
    let out = cairn(&[
        "analyze",
        "--size",
        "5",
        "--moves",
        "a1 e5 c3",
        "--depth",
        "4",
        "--multipv",
        "3",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let lines = v["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3);
    let mut pos = Position::<5>::start();
    for m in ["a1", "e5", "c3"] {
        pos.make(parse_move(&pos, m).unwrap());
    }
    let mut firsts = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["multipv"], i + 1);
        let pv: Vec<&str> = line["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        // Every PV replays legally.
        let mut p = pos.clone();
        for m in &pv {
            let mv = parse_move(&p, m).unwrap_or_else(|e| panic!("pv {pv:?}: {e}"));
            p.make(mv);
        }
        firsts.push(pv[0].to_string());
    }
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "MultiPV lines start with distinct moves");
    assert_eq!(v["lines"][0]["pv"][0], v["best"]);
}

#[test]
fn ptn_ply_position_matches_the_replayed_game() {
    let dir = Scratch::new("analyze-ply");
    let path = dir.file("ply.ptn", BLUNDERS_3X3);
    let out = cairn(&[
        "analyze",
        "--ptn",
        path.to_str().unwrap(),
        "--ply",
        "4",
        "--depth",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let game = &parse_file(BLUNDERS_3X3).unwrap()[0];
    let done = replay::<3>(game).unwrap();
    let mut pos = done.start.clone();
    for &mv in &done.moves[..4] {
        pos.make(mv);
    }
    assert_eq!(v["tps"], tps::to_tps(&pos));
    // The end of the game: no search, the result.
    let out = cairn(&["analyze", "--ptn", path.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("Game over Black wins on road (0-R)"));
}

#[test]
fn annotated_game_replays_and_flags_missed_wins() {
    let dir = Scratch::new("analyze-blunders");
    let path = dir.file("blunders.ptn", BLUNDERS_3X3);
    let out = cairn(&["analyze", "--game", path.to_str().unwrap(), "--depth", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let annotated = parse_file(&stdout(&out)).expect("annotated PTN parses");
    assert_eq!(annotated.len(), 1);
    let annotated = &annotated[0];
    let original = &parse_file(BLUNDERS_3X3).unwrap()[0];
    assert_eq!(annotated.result, original.result);
    let done = replay::<3>(annotated).expect("annotated game replays");
    assert_eq!(done.result, Some(GameResult::Road(Color::Black)));
    assert_eq!(annotated.plies.len(), original.plies.len());
    // One `{eval/depth}` comment per ply, and the review's summary after the last one.
    let last = annotated.plies.len() - 1;
    assert!(annotated.plies[last].comments[1].starts_with(SUMMARY_HEAD));
    for (i, ply) in annotated.plies.iter().enumerate() {
        assert_eq!(ply.comments.len(), if i == last { 2 } else { 1 }, "{ply:?}");
        let (eval, depth) = ply.comments[0]
            .split_whitespace()
            .next()
            .unwrap()
            .split_once('/')
            .expect("eval/depth");
        assert!(eval.starts_with('+') || eval.starts_with('-'), "{eval}");
        assert!(depth == "tinue" || depth.parse::<u32>().is_ok(), "{depth}");
    }
    // Independently: a ply where the mover had a road in one, did not take it, and let the
    // opponent have one is a blunder.
    let mut pos = done.start.clone();
    let mut missed = 0;
    for (mv, ply) in done.moves.iter().zip(&annotated.plies) {
        let had_win = pos.winning_move().is_some();
        pos.make(*mv);
        if had_win && pos.result().is_none() && pos.winning_move().is_some() {
            missed += 1;
            assert!(ply.annotations.contains("??"), "{} not flagged", ply.mv);
            assert!(ply.comments[0].contains(" best "), "{:?}", ply.comments);
        }
    }
    assert!(missed >= 2, "the game has missed wins: {missed}");
}

#[test]
fn annotated_game_as_one_json_document() {
    let dir = Scratch::new("analyze-json");
    let path = dir.file("json.ptn", BLUNDERS_3X3);
    let out = cairn(&[
        "analyze",
        "--game",
        path.to_str().unwrap(),
        "--depth",
        "3",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: GameDoc = serde_json::from_str(stdout(&out).trim()).expect("one JSON document");
    assert_eq!(doc.plies.len(), 12);
    for (i, row) in doc.plies.iter().enumerate() {
        assert_eq!(row.ply, i + 1);
        assert!(!row.book);
    }
    // The last ply is Black's road: a win for Black is a loss from White's view.
    let last = doc.plies[11].eval_white.expect("judged");
    assert_eq!(last.score().proven().map(|(win, _, _)| win), Some(false));
    assert_eq!((doc.view.as_str(), doc.result.as_str()), ("white", "0-R"));
}

/// A score as `--json` writes it: an evaluation in centiflats or a proven result.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(untagged)]
enum ScoreDoc {
    Eval { cp: i32 },
    Proven { win: bool, plies: u32, kind: Kind },
}

/// How a proven result is reached, as `--json` names it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Road,
    Flats,
}

impl ScoreDoc {
    /// The score the document stands for.
    fn score(self) -> Score {
        match self {
            ScoreDoc::Eval { cp } => Score(cp),
            ScoreDoc::Proven { win, plies, kind } => {
                let kind = match kind {
                    Kind::Road => WinKind::Outright,
                    Kind::Flats => WinKind::Count,
                };
                if win {
                    Score::win_in(plies, kind)
                } else {
                    Score::loss_in(plies, kind)
                }
            }
        }
    }
}

/// One position's `--json` document, every key of it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct PositionDoc {
    size: usize,
    tps: String,
    side_to_move: String,
    komi: f64,
    #[serde(rename = "static")]
    static_eval: ScoreDoc,
    depth: u32,
    nodes: u64,
    time_ms: u64,
    nps: u64,
    score: ScoreDoc,
    score_white: ScoreDoc,
    win_pct: f64,
    win_pct_white: f64,
    best: String,
    lines: Vec<LineDoc>,
    link: Option<String>,
}

/// One line of a position's document.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct LineDoc {
    multipv: usize,
    depth: u32,
    score: ScoreDoc,
    score_white: ScoreDoc,
    win_pct: f64,
    win_pct_white: f64,
    pv: Vec<String>,
}

/// A reviewed game's `--json` document, every key of it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct GameDoc {
    white: String,
    black: String,
    result: String,
    size: usize,
    komi: f64,
    view: String,
    book_plies: usize,
    opening_eval: Option<ScoreDoc>,
    plies: Vec<PlyDoc>,
    summary: SummaryDoc,
}

/// One ply of a reviewed game's document, every key of it.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct PlyDoc {
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
    mover: String,
    book: bool,
    eval_white: Option<ScoreDoc>,
    depth: Option<u32>,
    tinue: bool,
    win_pct_white: Option<f64>,
    best: Option<String>,
    best_eval_white: Option<ScoreDoc>,
    best_win_pct_white: Option<f64>,
    drop_pct: Option<f64>,
    walks_into_loss: bool,
    flag: String,
}

/// Both players' summaries.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct SummaryDoc {
    white: PlayerDoc,
    black: PlayerDoc,
}

/// One player's summary.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct PlayerDoc {
    player: String,
    moves: usize,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    average_loss_pct: Option<f64>,
    accuracy_pct: Option<f64>,
}

/// Two winning chances of the same search, each rounded to 0.1, agree.
fn same_chance(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.051
}

/// The percent of a text report's `56.5%`.
fn chance_in(text: &str) -> f64 {
    text.strip_suffix('%')
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("a winning chance: {text}"))
}

/// The JSON of one position, read into typed fields, says what the text report of the same
/// search says; White's view is the side to move's turned over.
#[test]
fn position_json_has_typed_fields_that_match_the_text_report() {
    let args = [
        "analyze",
        "--size",
        "5",
        "--moves",
        "a1 e5 c3",
        "--komi",
        "1.5",
        "--depth",
        "4",
        "--threads",
        "1",
        "--multipv",
        "2",
    ];
    let json = succeeds(&[&args[..], &["--json"]].concat());
    let doc: PositionDoc = serde_json::from_str(json.trim()).expect("a position document");
    let mut pos = Position::<5>::start();
    for m in ["a1", "e5", "c3"] {
        pos.make(parse_move(&pos, m).unwrap());
    }
    assert_eq!((doc.size, doc.side_to_move.as_str()), (5, "black"));
    assert_eq!(doc.tps, tps::to_tps(&pos));
    assert_eq!(doc.komi, 1.5);
    assert_eq!(doc.depth, 4);
    assert!(
        doc.nodes > 0 && doc.nps > 0 && doc.time_ms < 60_000,
        "{doc:?}"
    );
    assert_eq!(doc.link, None);
    assert_eq!(doc.score_white.score(), -doc.score.score());
    assert!(
        same_chance(doc.win_pct + doc.win_pct_white, 100.0),
        "{doc:?}"
    );
    assert_eq!(doc.lines.len(), 2);
    for (i, line) in doc.lines.iter().enumerate() {
        assert_eq!((line.multipv, line.depth), (i + 1, 4));
        assert_eq!(line.score_white.score(), -line.score.score());
        assert!(same_chance(line.win_pct + line.win_pct_white, 100.0));
    }
    assert_eq!(doc.lines[0].pv[0], doc.best);
    assert_eq!(doc.lines[0].score, doc.score);
    // The same search as text.
    let text = succeeds(&args);
    let static_eval = Score::short(doc.static_eval.score());
    assert!(
        text.contains(&format!("Static    {static_eval} for Black")),
        "{text}"
    );
    assert!(
        text.contains(&format!("Best move {}\n", doc.best)),
        "{text}"
    );
    for line in &doc.lines {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("PV {:<6} ", line.multipv)))
            .unwrap_or_else(|| panic!("PV {}: {text}", line.multipv));
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[2], Score::short(line.score.score()), "{row}");
        assert!(same_chance(chance_in(words[3]), line.win_pct), "{row}");
        assert_eq!(words[4..], line.pv, "{row}");
    }
}

/// The JSON document of a reviewed game, read into typed fields, says what the annotated PTN of
/// the same searches says: the move, the `eval/depth chance` comment (White's view), the mark and
/// the better move, and the summary.
#[test]
fn game_json_has_typed_fields_that_match_the_annotated_ptn() {
    let dir = Scratch::new("analyze-json-fields");
    let path = dir.file("fields.ptn", BLUNDERS_3X3);
    let args = [
        "analyze",
        "--game",
        path.to_str().unwrap(),
        "--depth",
        "4",
        "--threads",
        "1",
    ];
    let json = succeeds(&[&args[..], &["--json"]].concat());
    let doc: GameDoc = serde_json::from_str(json.trim()).expect("a game document");
    let annotated = parse_file(&succeeds(&args)).expect("annotated PTN")[0].clone();
    assert_eq!(doc.plies.len(), annotated.plies.len());
    for (i, (row, ply)) in doc.plies.iter().zip(&annotated.plies).enumerate() {
        assert_eq!(row.ply, i + 1);
        assert_eq!(row.mv, ply.mv.to_string());
        assert_eq!(row.mover, if i % 2 == 0 { "white" } else { "black" });
        assert_eq!(row.flag, ply.annotations, "ply {}", row.ply);
        let comment: Vec<&str> = ply.comments[0].split_whitespace().collect();
        let eval = format!(
            "{}/{}",
            Score::short(row.eval_white.unwrap().score()),
            row.depth.unwrap()
        );
        assert_eq!(comment[0], eval, "ply {}", row.ply);
        let white = row.win_pct_white.unwrap();
        assert!(same_chance(chance_in(comment[1]), white), "{comment:?}");
        match (&row.best, row.best_eval_white, row.best_win_pct_white) {
            (Some(best), Some(best_eval), Some(best_pct)) => {
                // The mover's loss: White's chance down for White, up for Black.
                let lost = if i % 2 == 0 {
                    best_pct - white
                } else {
                    white - best_pct
                };
                assert!(same_chance(row.drop_pct.unwrap(), lost.max(0.0)), "{row:?}");
                if !row.flag.is_empty() {
                    let shown = format!("best {best} {}", Score::short(best_eval.score()));
                    assert!(ply.comments[0].contains(&shown), "{comment:?}");
                }
            }
            (None, None, None) => {
                assert_eq!((row.drop_pct, row.flag.as_str()), (Some(0.0), ""));
            }
            other => panic!(
                "ply {}: best, its eval and chance go together: {other:?}",
                row.ply
            ),
        }
    }
    // Both kinds of ply are in the game: the missed wins and the best moves played.
    assert!(doc.plies.iter().filter(|r| r.flag == "??").count() >= 2);
    assert!(doc.plies.iter().any(|r| r.best.is_none()));
    assert_eq!((doc.size, doc.komi, doc.book_plies), (3, 0.0, 0));
    assert!(doc.opening_eval.is_some());
    assert_eq!((doc.white.as_str(), doc.black.as_str()), ("?", "?"));
}

#[test]
fn annotated_game_to_a_file() {
    let dir = Scratch::new("analyze-to-file");
    let path = dir.file("to_file.ptn", BLUNDERS_3X3);
    let out_path = path.with_file_name("annotated_out.ptn");
    let out = cairn(&[
        "analyze",
        "--game",
        path.to_str().unwrap(),
        "--depth",
        "2",
        "--out",
        out_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(parse_file(&text).unwrap()[0].plies.len(), 12);
    // The last ply ends with the summary as a comment, then the result; stdout has the summary
    // alone.
    let summary = stdout(&out);
    assert!(summary.starts_with(SUMMARY_HEAD), "{summary}");
    assert!(
        text.ends_with(&format!("{{{}}} 0-R\n", summary.trim_end())),
        "{text}"
    );
}

#[test]
fn bad_input_gives_one_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (&["--tps", "x5/x5/x5"], "error: --tps \"x5/x5/x5\": "),
        (
            &["--size", "5", "--moves", "a1 e5 zz"],
            "error: --moves ply 3: ",
        ),
        (
            &["--size", "5", "--moves", "a1 a1"],
            "error: --moves ply 2: ",
        ),
        (&["--size", "5", "--komi", "0.3"], "error: --komi 0.3: "),
        (
            &["--game", "/nonexistent/cairn.ptn"],
            "error: /nonexistent/cairn.ptn: ",
        ),
        (&["--size", "5", "--blunder", "0"], "error: --blunder 0: "),
        (
            &["--game", "/nonexistent/cairn.ptn", "--plot", "eval.png"],
            "error: --plot eval.png: the graph is drawn as SVG only",
        ),
    ];
    for (args, prefix) in cases {
        let mut all = vec!["analyze"];
        all.extend_from_slice(args);
        let line = single_error(&cairn(&all));
        assert!(line.starts_with(prefix), "{args:?}: {line}");
    }
    let dir = Scratch::new("analyze-short");
    let path = dir.file("short.ptn", BLUNDERS_3X3);
    let p = path.to_str().unwrap();
    let line = single_error(&cairn(&["analyze", "--ptn", p, "--ply", "13"]));
    assert!(
        line.ends_with("--ply 13, but the game has 12 plies"),
        "{line}"
    );
    let line = single_error(&cairn(&["analyze", "--ptn", p, "--index", "2"]));
    assert!(
        line.ends_with("--index 2, but the file has 1 game"),
        "{line}"
    );
    let line = single_error(&cairn(&["analyze", "--game", p, "--from-ply", "13"]));
    assert!(
        line.ends_with("--from-ply 13, but the game has 12 plies"),
        "{line}"
    );
    let bad = dir.file("illegal.ptn", "[Size \"5\"]\n\n1. a1 e5 2. a1 *\n");
    let line = single_error(&cairn(&["analyze", "--game", bad.to_str().unwrap()]));
    assert!(line.contains("ply 3"), "{line}");
}

/// The first data line of a tactics file: (TPS, plies).
fn first_tactic(file: &str) -> (String, i32) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tactics")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("tactics file");
    let line = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .expect("a position");
    let (tps, plies) = line.split_once('\t').expect("TPS<TAB>plies");
    (tps.to_string(), plies.trim().parse().expect("plies"))
}

#[test]
fn solve_proves_a_tinue_and_its_line_ends_in_a_road() {
    let (position, plies) = first_tactic("tinue-5.tsv");
    let out = cairn(&["analyze", "--tps", &position, "--solve", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["tinue"], "proven", "{v}");
    assert_eq!(v["plies"], plies);
    let size = v["size"].as_u64().unwrap() as usize;
    let pv: Vec<String> = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(pv.len() as i32, plies);
    // The proof's line, played by the rules, ends in a road for the side to move.
    let road_for_mover = cairn_tak::with_size!(size, |N| {
        let mut pos = tps::parse::<N>(&position).unwrap();
        let attacker = pos.side_to_move();
        for m in &pv {
            let mv = parse_move(&pos, m).unwrap_or_else(|e| panic!("{pv:?}: {e}"));
            pos.make(mv);
        }
        pos.result() == Some(GameResult::Road(attacker))
    }, else false);
    assert!(road_for_mover, "{pv:?}");
    // The text report says the same.
    let out = cairn(&["analyze", "--tps", &position, "--solve"]);
    let text = stdout(&out);
    assert!(
        text.contains(&format!("forces a road in {plies} plies")),
        "{text}"
    );
}

#[test]
fn solve_never_proves_a_position_without_a_forced_road() {
    let (position, _) = first_tactic("not-tinue.tsv");
    let out = cairn(&[
        "analyze", "--tps", &position, "--solve", "--depth", "5", "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_ne!(v["tinue"], "proven", "{v}");
    assert_eq!(v["plies"], serde_json::Value::Null);
}

/// Reviews `ROAD_MATCH_5X5` with `extra` arguments: the annotated game and the text output.
fn review_road_game(name: &str, extra: &[&str]) -> (cairn_tak::notation::PtnGame, String) {
    let dir = Scratch::new(name);
    let path = dir.file("road.ptn", ROAD_MATCH_5X5);
    let args = [
        "analyze",
        "--game",
        path.to_str().unwrap(),
        "--nodes",
        "3000",
        "--threads",
        "1",
    ];
    let text = succeeds(&[&args[..], extra].concat());
    let game = parse_file(&text).expect("annotated PTN").remove(0);
    (game, text)
}

/// The plies `cairn match` marks `{book}` are not judged: no mark, no evaluation, the `{book}`
/// comment kept; the review starts after them.
#[test]
fn book_plies_are_not_judged() {
    let (game, text) = review_road_game("analyze-book", &[]);
    for ply in &game.plies[..2] {
        assert_eq!(ply.comments, ["book"], "{ply:?}");
        assert_eq!(ply.annotations, "", "{ply:?}");
    }
    for ply in &game.plies[2..] {
        assert!(ply.comments[0].contains('%'), "judged: {ply:?}");
    }
    assert!(text.contains("plies 1-2 are book, not judged"), "{text}");
}

/// `--from-ply N` judges from ply N on, whatever the comments say.
#[test]
fn from_ply_sets_where_the_review_starts() {
    let (game, text) = review_road_game("analyze-from-ply", &["--from-ply", "6"]);
    for ply in &game.plies[..5] {
        assert!(ply.comments.iter().all(|c| !c.contains('/')), "{ply:?}");
        assert_eq!(ply.annotations, "", "{ply:?}");
    }
    for ply in &game.plies[5..] {
        assert!(ply.comments[0].contains('%'), "judged: {ply:?}");
    }
    assert!(text.contains("plies 1-5 are book, not judged"), "{text}");
}

/// A move that lets the opponent's road in one is `??`, and every comment is White's view: the
/// comment on Black's losing move says White wins (`+R2`), and each judged ply's chance is
/// White's chance in the JSON.
#[test]
fn walking_into_a_road_is_a_blunder_and_comments_are_whites_view() {
    let (game, _) = review_road_game("analyze-road", &[]);
    let a4 = &game.plies[7];
    assert_eq!(a4.mv.to_string(), "a4");
    assert_eq!(a4.annotations, "??", "{a4:?}");
    assert!(a4.comments[0].starts_with("+R2/"), "{a4:?}");
    let dir = Scratch::new("analyze-road-json");
    let path = dir.file("road.ptn", ROAD_MATCH_5X5);
    let p = path.to_str().unwrap();
    let json = succeeds(&[
        "analyze",
        "--game",
        p,
        "--nodes",
        "3000",
        "--threads",
        "1",
        "--json",
    ]);
    let doc: GameDoc = serde_json::from_str(json.trim()).expect("a game document");
    assert!(doc.plies[7].walks_into_loss, "{:?}", doc.plies[7]);
    let book = &doc.plies[..2];
    assert!(book
        .iter()
        .all(|p| p.book && !p.tinue && p.eval_white.is_none()));
    assert_eq!(doc.plies[7].flag, "??");
    for (row, ply) in doc.plies.iter().zip(&game.plies).skip(2) {
        let comment: Vec<&str> = ply.comments[0].split_whitespace().collect();
        let white = row.win_pct_white.expect("judged");
        assert!(same_chance(chance_in(comment[1]), white), "{comment:?}");
        let eval = Score::short(row.eval_white.unwrap().score());
        assert!(comment[0].starts_with(&format!("{eval}/")), "{comment:?}");
    }
    // Black's a2, a3 and a4 leave White ahead: positive numbers after Black's moves.
    for i in [3, 5, 7] {
        assert!(
            game.plies[i].comments[0].starts_with('+'),
            "{:?}",
            game.plies[i]
        );
    }
}

/// The file's evaluations are replaced by the review's, or kept under a label with
/// `--keep-comments`.
#[test]
fn earlier_evaluations_are_replaced_or_kept_labelled() {
    let (game, _) = review_road_game("analyze-replace", &[]);
    let (kept, _) = review_road_game("analyze-keep", &["--keep-comments"]);
    for (ply, kept_ply) in game.plies.iter().zip(&kept.plies).skip(2).take(6) {
        assert_eq!(ply.comments.len(), 1, "{ply:?}");
        assert!(!ply.comments[0].contains("0.10s"), "{ply:?}");
        assert_eq!(kept_ply.comments.len(), 2, "{kept_ply:?}");
        assert!(kept_ply.comments[0].starts_with("earlier eval: "));
        assert!(kept_ply.comments[0].ends_with(" 0.10s"));
        assert_eq!(kept_ply.comments[1], ply.comments[0]);
    }
    // A reviewed game reviewed again: the earlier review's comments and summary are replaced.
    let dir = Scratch::new("analyze-again");
    let path = dir.file("again.ptn", &game.to_ptn());
    let again = succeeds(&[
        "analyze",
        "--game",
        path.to_str().unwrap(),
        "--nodes",
        "3000",
        "--threads",
        "1",
    ]);
    let again = parse_file(&again).unwrap().remove(0);
    assert_eq!(again.plies, game.plies);
}

/// One number of a summary line: the word after `label`, without its `%`.
fn number_after(line: &str, label: &str) -> f64 {
    let rest = &line[line
        .find(label)
        .unwrap_or_else(|| panic!("{label}: {line}"))
        + label.len()..];
    rest.split([',', '%'])
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// The JSON summary says what the text summary says.
#[test]
fn json_summary_matches_the_text_summary() {
    let (_, text) = review_road_game("analyze-summary-text", &[]);
    let dir = Scratch::new("analyze-summary-json");
    let path = dir.file("road.ptn", ROAD_MATCH_5X5);
    let json = succeeds(&[
        "analyze",
        "--game",
        path.to_str().unwrap(),
        "--nodes",
        "3000",
        "--threads",
        "1",
        "--json",
    ]);
    let doc: GameDoc = serde_json::from_str(json.trim()).expect("a game document");
    let summary = &text[text.find(SUMMARY_HEAD).expect("a summary")..];
    let before_result = text
        .trim_end()
        .rsplit_once(' ')
        .map_or("", |(head, _)| head);
    assert!(
        before_result.ends_with('}'),
        "the summary is the last comment, before the result"
    );
    for (color, player) in [("White", &doc.summary.white), ("Black", &doc.summary.black)] {
        let line = summary
            .lines()
            .find(|l| l.starts_with(&format!("{color} {}:", player.player)))
            .unwrap_or_else(|| panic!("{color}: {summary}"));
        assert!(line.contains(&format!(": {} move", player.moves)), "{line}");
        assert_eq!(Some(number_after(line, "accuracy ")), player.accuracy_pct);
        assert_eq!(
            Some(number_after(line, "average loss ")),
            player.average_loss_pct
        );
        let marks = format!(
            "{} ?!, {} ?, {} ??",
            player.inaccuracies, player.mistakes, player.blunders
        );
        assert!(line.contains(&marks), "{line} / {marks}");
    }
    // The marks counted are the marks in the plies.
    let flags = |who: &str, flag: &str| {
        doc.plies
            .iter()
            .filter(|p| p.mover == who && p.flag == flag)
            .count()
    };
    assert_eq!(doc.summary.black.blunders, flags("black", "??"));
    assert_eq!(doc.summary.white.inaccuracies, flags("white", "?!"));
    assert_eq!((doc.summary.white.moves, doc.summary.black.moves), (4, 3));
}

/// The graph names every marked move, has its legend and the players' accuracy, and is the same
/// file byte for byte on a second run.
#[test]
fn the_graph_labels_marked_moves_and_is_the_same_every_run() {
    let dir = Scratch::new("analyze-graph");
    let path = dir.file("road.ptn", ROAD_MATCH_5X5);
    let svg = |name: &str| {
        let out = path.with_file_name(name);
        succeeds(&[
            "analyze",
            "--game",
            path.to_str().unwrap(),
            "--nodes",
            "3000",
            "--threads",
            "1",
            "--plot",
            out.to_str().unwrap(),
        ]);
        std::fs::read_to_string(out).expect("the SVG")
    };
    let first = svg("a.svg");
    assert!(first.starts_with("<svg"), "{}", &first[..40]);
    assert!(first.contains("4…a4??"), "the blunder's label");
    for text in [
        "White ahead",
        "Black ahead",
        "?! inaccuracy",
        "?? blunder",
        "accuracy ",
    ] {
        assert!(first.contains(text), "{text} missing");
    }
    assert!(first.contains("Ann (White) vs Bob (Black), R-0"));
    assert_eq!(svg("b.svg"), first);
}
