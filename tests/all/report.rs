//! Seeing a game, not only reading it: `cairn report` on a match file, the SVG pictures of
//! `analyze --game --plot`, `report --plot` and `match --plot`, and the PTN Ninja links of
//! `--link` / `--links`. Every input is made here; the searches are depth-limited on one thread,
//! so each picture is the same bytes every run.

use crate::common::Scratch;
use cairn_tak::notation::{parse_file, replay, tps, PtnGame};
use std::path::Path;
use std::process::Command;

/// Runs the binary: whether it succeeded, its stdout and its stderr.
fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .output()
        .expect("run cairn");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8 output");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// Runs the binary, which must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let (success, out, err) = run(args);
    assert!(success, "{args:?}: {err}");
    out
}

fn arg(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A match of four 5x5 games between `alpha` and `beta`, as racetrack writes them: book plies
/// bare, then `{eval/depth time}` after every engine move. Game 1: alpha (White) wins by a road;
/// game 2: alpha (Black) wins by a road after beta played a wall and a spread; game 3: alpha
/// (White) loses on time; game 4 is cut off unfinished.
const MATCH: &str = "\
[Player1 \"alpha\"]\n[Player2 \"beta\"]\n[Size \"5\"]\n[Result \"R-0\"]\n\n\
1. e5 a1 2. a2 {+0.50/3 0.10s} e4 {-0.40/2 0.20s} 3. a3 {+0.90/3 0.20s} e3 {-1.00/2 0.20s}\n\
4. a4 {+2.00/4 0.30s} Ce2 {-3.00/2 0.20s} 5. a5 {+99.99/4 0.40s} R-0\n\n\
[Player1 \"beta\"]\n[Player2 \"alpha\"]\n[Size \"5\"]\n[Result \"0-R\"]\n\n\
1. e5 a1 2. b1 {+0.10/2 0.20s} e4 {-0.20/5 0.10s} 3. Sc1 {+0.00/2 0.20s} e3 {-0.50/5 0.10s}\n\
4. c1< {-1.00/2 0.20s} e2 {-2.00/5 0.10s} 5. d3 {-9.00/2 0.20s} e1 {-99.99/5 0.10s} 0-R\n\n\
[Player1 \"alpha\"]\n[Player2 \"beta\"]\n[Size \"5\"]\n[Result \"0-1\"]\n\
[Termination \"alpha lost on time (1200 ms with 1000 ms left)\"]\n\n\
1. e5 a1 2. c3 {+0.30/4 0.50s} 0-1\n\n\
[Player1 \"beta\"]\n[Player2 \"alpha\"]\n[Size \"5\"]\n[Result \"*\"]\n\
[Termination \"stopped after 4 plies\"]\n\n\
1. e5 a1 2. c3 {+0.30/2 0.20s} c2 {-0.30/6 0.30s} *\n";

/// A 3x3 game in which both players miss wins in one and then allow the opponent's.
const BLUNDERS_3X3: &str =
    "[Player1 \"Ann\"]\n[Player2 \"Bob\"]\n[Size \"3\"]\n[Result \"0-R\"]\n\n\
    1. a1 c3 2. b2 a2 3. a3 c2 4. b2< b2 5. b1 c1 6. 2a2- a2 0-R\n";

/// The elements of an SVG document, checked to be well-formed XML.
fn svg(text: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(text).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

fn count(doc: &roxmltree::Document<'_>, tag: &str) -> usize {
    doc.descendants()
        .filter(|n| n.tag_name().name() == tag)
        .count()
}

/// The words of every `<text>` element.
fn texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

#[test]
fn report_counts_every_part_of_the_match() {
    let dir = Scratch::new("report-text");
    let file = dir.file("match.ptn", MATCH);
    let text = ok(&["report", arg(&file)]);
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line `{start}` in:\n{text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    // alpha: won games 1 and 2, lost 3, drew 4 (unfinished): 62.5 %, with a Wilson interval as
    // wide as four games deserve.
    assert!(
        text.starts_with("alpha vs beta: +2 -1 =1 (4 games), score 62.5%, Elo +89 [-184, +361]\n"),
        "{text}"
    );
    assert!(line("alpha  ").starts_with("alpha +2 -1 =1 62.5% +89 [-184, +361] "));
    assert!(line("alpha  ").ends_with("+1 -1 =0 +1 -0 =1"), "{text}");
    assert!(line("beta  ").starts_with("beta +1 -2 =1 37.5% -89 [-361, +184] "));
    assert!(line("beta  ").ends_with("+0 -1 =1 +1 -1 =0"), "{text}");
    assert_eq!(
        line("Endings:"),
        "Endings: 2 roads, 0 flat wins, 0 draws, 1 unfinished, 1 on time, 0 forfeits, 0 other"
    );
    // By engine and colour: won by road, on flats, otherwise; lost likewise; drawn; unfinished.
    // alpha won a road with each colour, lost on time as White, and was Black in the cut-off
    // game; beta's rows mirror it.
    for (row, counts) in [
        ("alpha White", "1 0 0 0 0 1 0 0"),
        ("alpha Black", "1 0 0 0 0 0 0 1"),
        ("beta White", "0 0 0 1 0 0 0 1"),
        ("beta Black", "0 0 1 1 0 0 0 0"),
    ] {
        let want = format!("{row} {counts}");
        let found = text
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") == want);
        assert!(found, "no line `{want}` in:\n{text}");
    }
    // Own moves per game (4 games), time and depth per move; the two book plies left out.
    let rows: Vec<String> = text
        .lines()
        .filter(|l| l.contains('s') && l.ends_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert!(
        rows.contains(&"alpha 2.5 0.0 0.0 0.0 0.22s 4.40".to_string()),
        "{text}"
    );
    assert!(
        rows.contains(&"beta 1.2 0.2 0.2 0.2 0.20s 2.00".to_string())
            || rows.contains(&"beta 1.3 0.3 0.3 0.3 0.20s 2.00".to_string()),
        "{text}"
    );
    assert_eq!(
        line("Game length:"),
        "Game length: 6.5 plies on average, shortest 3, longest 10"
    );
}

#[test]
fn report_links_open_each_lost_game() {
    let dir = Scratch::new("report-links");
    let file = dir.file("match.ptn", MATCH);
    let text = ok(&["report", arg(&file), "--links"]);
    let games = parse_file(MATCH).unwrap();
    let links: Vec<&str> = text.lines().filter(|l| l.contains("https://")).collect();
    // Games 1 and 2 lost by beta, game 3 by alpha; game 4 was not finished.
    assert_eq!(links.len(), 3, "{text}");
    for (line, (index, loser, ply)) in
        links
            .iter()
            .zip([(1, "beta", 8), (2, "beta", 9), (3, "alpha", 2)])
    {
        assert!(
            line.starts_with(&format!("game {index} ("))
                && line.contains(&format!(": {loser} lost as ")),
            "{line}"
        );
        let url = line.split_whitespace().last().unwrap();
        assert!(url.ends_with(&format!("&ply={ply}!")), "{url}");
        let ptn = cairn_tools::ninja::ptn_of_link(url).unwrap();
        assert_eq!(ptn, games[index - 1].to_ptn(), "game {index}");
        let name = cairn_tools::ninja::name_of_link(url).unwrap();
        assert!(name.starts_with(&format!("game {index}: ")), "{name}");
    }
}

#[test]
fn report_picture_has_a_point_per_game_and_the_kinds() {
    let dir = Scratch::new("report-plot");
    let file = dir.file("match.ptn", MATCH);
    let plot = dir.join("report.svg");
    ok(&["report", arg(&file), "--plot", arg(&plot)]);
    let first = std::fs::read_to_string(&plot).unwrap();
    let doc = svg(&first);
    assert_eq!(count(&doc, "circle"), 4, "one Elo point per game");
    assert_eq!(count(&doc, "polygon"), 1, "the 95% band");
    // The background, 4 kinds x 2 engines, and the legend (its box, its border, two keys).
    assert_eq!(count(&doc, "rect"), 1 + 8 + 4);
    let words = texts(&doc);
    for label in ["flats", "walls", "capstones", "spreads", "alpha", "beta"] {
        assert_eq!(
            words.iter().filter(|w| *w == label).count(),
            1,
            "{label}: {words:?}"
        );
    }
    assert!(words
        .iter()
        .any(|w| w.starts_with("alpha vs beta: +2 -1 =1")));
    // Same input, same bytes.
    ok(&["report", arg(&file), "--plot", arg(&plot)]);
    assert_eq!(std::fs::read_to_string(&plot).unwrap(), first);
}

#[test]
fn report_names_what_it_cannot_read() {
    let dir = Scratch::new("report-errors");
    let cases = [
        (
            format!(
                "{MATCH}\n[Player1 \"gamma\"]\n[Player2 \"beta\"]\n[Size \"5\"]\n\n1. e5 a1 *\n"
            ),
            "game 5: a third engine `gamma`",
        ),
        (
            MATCH.replacen("[Player1 \"alpha\"]\n", "", 1),
            "game 1: no Player1 tag",
        ),
        (MATCH.replacen("4. a4", "4. a1", 1), "game 1: "),
        (
            MATCH.replace("beta", "alpha"),
            "game 1: both players are `alpha`",
        ),
        (String::new(), "no game found"),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let file = dir.file(&format!("bad{i}.ptn"), text);
        let (success, _, err) = run(&["report", arg(&file)]);
        assert!(!success);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{message}: {err}");
    }
}

/// Matches run side by side pool into one report: the two halves of the match give the whole
/// match's text; a file with other engines, or a bad game in the second file, is refused with
/// that file's name.
#[test]
fn report_pools_several_files() {
    let dir = Scratch::new("report-pool");
    let whole = dir.file("whole.ptn", MATCH);
    let cut = MATCH.find("[Player1 \"alpha\"]\n[Player2 \"beta\"]\n[Size \"5\"]\n[Result \"0-1\"]");
    let (head, tail) = MATCH.split_at(cut.expect("game 3 starts"));
    let first = dir.file("first.ptn", head);
    let second = dir.file("second.ptn", tail);
    let pooled = ok(&["report", arg(&first), arg(&second)]);
    assert_eq!(pooled, ok(&["report", arg(&whole)]));
    assert!(pooled.contains("alpha vs beta: +2 -1 =1"), "{pooled}");
    assert_ne!(ok(&["report", arg(&first)]), pooled);

    let others = dir.file("others.ptn", &tail.replace("beta", "gamma"));
    let (success, _, err) = run(&["report", arg(&first), arg(&others)]);
    assert!(!success);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("others.ptn: its engines `alpha` and `gamma`"),
        "{err}"
    );
    let bad = dir.file("bad.ptn", &tail.replacen("[Player1 \"alpha\"]\n", "", 1));
    let (success, _, err) = run(&["report", arg(&first), arg(&bad)]);
    assert!(!success);
    assert!(err.contains("bad.ptn: game 1: no Player1 tag"), "{err}");
    let (success, _, err) = run(&["report"]);
    assert!(!success && err.contains("FILES"), "{err}");
}

/// [`MATCH`] with `Round` tags 1 to 4, the rounds each runner writes: games 1 and 2 are a pair
/// (one opening, colours swapped), and so are games 3 and 4.
fn with_rounds() -> String {
    let mut round = 0;
    MATCH
        .split("[Player1 ")
        .map(|game| {
            if game.is_empty() {
                String::new()
            } else {
                round += 1;
                format!("[Round \"{round}\"]\n[Player1 {game}")
            }
        })
        .collect()
}

/// Pairs: alpha scored 2 in rounds 1–2 (two roads) and ½ in rounds 3–4 (a loss on time, an
/// unfinished game). A file without `Round` tags has no pairs line; pooled files are paired
/// each alone, also when a file names beta first and its rounds come out of order.
#[test]
fn report_pairs_the_rounds_of_one_opening() {
    let dir = Scratch::new("report-pairs");
    let text = ok(&["report", arg(&dir.file("rounds.ptn", &with_rounds()))]);
    let expected = "Pairs (one opening, colours swapped), by alpha's points: 0: 0, 1/2: 1, 1: 0, \
                    3/2: 0, 2: 1 (2 pairs); Elo ";
    assert!(text.contains(expected), "{text}");
    assert!(text.contains("alpha vs beta: +2 -1 =1"), "{text}");
    let plain = ok(&["report", arg(&dir.file("plain.ptn", MATCH))]);
    assert!(!plain.contains("Pairs"), "{plain}");
    let games: Vec<String> = with_rounds()
        .split("[Round ")
        .filter(|g| !g.is_empty())
        .map(|g| format!("[Round {g}"))
        .collect();
    assert_eq!(games.len(), 4);
    let first = dir.file("first.ptn", &games[..2].concat());
    let second = dir.file("second.ptn", &format!("{}\n{}", games[3], games[2]));
    let beta_first = ok(&["report", arg(&second)]);
    assert!(
        beta_first.contains("by beta's points: 0: 0, 1/2: 0, 1: 0, 3/2: 1, 2: 0 (1 pair)"),
        "{beta_first}"
    );
    let pooled = ok(&["report", arg(&first), arg(&second)]);
    assert!(pooled.contains(expected), "{pooled}");
    // Two games of one round number with the same White engine are no pair.
    let same_white = dir.file(
        "same.ptn",
        &format!(
            "{}\n{}",
            games[0],
            games[2].replace("[Round \"3\"]", "[Round \"2\"]")
        ),
    );
    assert!(!ok(&["report", arg(&same_white)]).contains("Pairs"));
}

/// Runs `analyze --game` on the 3x3 game, depth 3 on one thread, with extra arguments.
fn annotate(dir: &Scratch, extra: &[&str]) -> String {
    let game = dir.file("game.ptn", BLUNDERS_3X3);
    let mut args = vec![
        "analyze",
        "--game",
        arg(&game),
        "--depth",
        "3",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn eval_graph_has_a_point_per_ply_and_the_marks() {
    let dir = Scratch::new("report-eval");
    let plot = dir.join("eval.svg");
    let annotated = dir.join("annotated.ptn");
    annotate(&dir, &["--plot", arg(&plot), "--out", arg(&annotated)]);
    let game = &parse_file(&std::fs::read_to_string(&annotated).unwrap()).unwrap()[0];
    let first = std::fs::read_to_string(&plot).unwrap();
    let doc = svg(&first);
    // One point per ply: a circle for an evaluation, a triangle for a proven result.
    let proven = game
        .plies
        .iter()
        .filter(|p| {
            p.comments[0].starts_with(['+', '-'])
                && p.comments[0].as_bytes()[1].is_ascii_alphabetic()
        })
        .count();
    assert!(proven >= 2, "the game ends in proven roads");
    assert_eq!(count(&doc, "circle"), game.plies.len() - proven);
    assert_eq!(count(&doc, "polygon"), proven);
    // Each mistake and blunder of the PTN is marked once in the picture.
    let words = texts(&doc);
    for mark in ["??", "?"] {
        let in_ptn = game
            .plies
            .iter()
            .filter(|p| {
                p.annotations.ends_with(mark) && !(mark == "?" && p.annotations.ends_with("??"))
            })
            .count();
        let in_svg = words
            .iter()
            .filter(|w| w.split(' ').next() == Some(mark))
            .count();
        assert_eq!(in_svg, in_ptn, "{mark}: {words:?}");
    }
    assert!(
        words
            .iter()
            .filter(|w| w.split(' ').next() == Some("??"))
            .count()
            >= 2
    );
    assert!(words.iter().any(|w| w.ends_with("White road")), "{words:?}");
    assert!(words.iter().any(|w| w.ends_with("Black road")), "{words:?}");
    // Players and result in the title, move numbers 1 to 6 on the x axis, 0-100 on the y axis.
    assert!(
        words.iter().any(|w| w.starts_with("Ann vs Bob, 0-R:")),
        "{words:?}"
    );
    for n in ["1", "2", "3", "4", "5", "6", "50", "100"] {
        assert!(words.iter().any(|w| w == n), "{n}: {words:?}");
    }
    annotate(&dir, &["--plot", arg(&plot), "--out", arg(&annotated)]);
    assert_eq!(std::fs::read_to_string(&plot).unwrap(), first, "same bytes");
}

#[test]
fn game_link_decodes_to_the_annotated_ptn_byte_for_byte() {
    let dir = Scratch::new("report-link");
    let annotated = dir.join("annotated.ptn");
    let text = annotate(&dir, &["--link", "--out", arg(&annotated)]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "only the link on stdout: {text}");
    let url = lines[0];
    assert!(url.starts_with("https://ptn.ninja/"), "{url}");
    let written = std::fs::read_to_string(&annotated).unwrap();
    assert_eq!(cairn_tools::ninja::ptn_of_link(url).unwrap(), written);
    assert_eq!(
        cairn_tools::ninja::name_of_link(url).as_deref(),
        Some("Ann vs Bob (cairn analyze)")
    );
    // It opens at the first blunder, before it is played.
    let game = &parse_file(&written).unwrap()[0];
    let first = game
        .plies
        .iter()
        .position(|p| p.annotations.ends_with("??"))
        .unwrap();
    assert!(url.ends_with(&format!("&ply={first}")), "{url}");
}

#[test]
fn position_link_plays_the_principal_variation() {
    let position = "x4/x4/x2,2,x/x,1,x2 1 2";
    let text = ok(&[
        "analyze",
        "--tps",
        position,
        "--depth",
        "3",
        "--threads",
        "1",
        "--link",
    ]);
    let pv: Vec<&str> = text
        .lines()
        .find_map(|l| l.strip_prefix("PV"))
        .unwrap()
        .split_whitespace()
        .skip(2) // the score and its winning chance
        .collect();
    let url = text
        .lines()
        .find_map(|l| l.strip_prefix("Link      "))
        .unwrap();
    assert!(url.ends_with("&ply=0"), "{url}");
    let ptn = cairn_tools::ninja::ptn_of_link(url).unwrap();
    let game: &PtnGame = &parse_file(&ptn).unwrap()[0];
    assert_eq!(game.tag("TPS"), Some(position));
    let moves: Vec<String> = game.plies.iter().map(|p| p.mv.to_string()).collect();
    assert_eq!(moves, pv);
    let done = replay::<4>(game).expect("the PV replays from the position");
    assert_eq!(tps::to_tps(&done.start), position);
    assert!(text.contains("winning chance"), "{text}");
}

#[test]
fn json_carries_evaluations_and_chances() {
    let text = ok(&[
        "analyze",
        "--tps",
        "x4/x4/x2,2,x/x,1,x2 1 2",
        "--depth",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    let cp = v["score"]["cp"].as_f64().expect("an evaluation");
    let chance = 100.0 / (1.0 + (-cairn_tools::chance::SHIPPED_K * cp).exp());
    assert!(
        (v["win_pct"].as_f64().unwrap() - chance).abs() <= 0.05,
        "{v}"
    );
    assert!(
        (v["win_pct_white"].as_f64().unwrap() - chance).abs() <= 0.05,
        "{v}"
    );
    let dir = Scratch::new("report-json");
    let rows = annotate(&dir, &["--json"]);
    let last: serde_json::Value = serde_json::from_str(rows.lines().last().unwrap()).unwrap();
    assert_eq!(last["eval"]["win"], true);
    assert_eq!(last["win_pct"], 100.0);
    assert_eq!(last["win_pct_white"], 0.0, "Black's road");
    for row in rows.lines() {
        let v: serde_json::Value = serde_json::from_str(row).unwrap();
        let drop = v["drop_pct"].as_f64().unwrap();
        if [5.0, 10.0, 15.0].iter().any(|t| (drop - t).abs() <= 0.05) {
            continue; // rounded to 0.1 in the JSON: too close to a threshold to tell
        }
        let flag = v["flag"].as_str().unwrap();
        let expected = if drop >= 15.0 {
            "??"
        } else if drop >= 10.0 {
            "?"
        } else if drop >= 5.0 {
            "?!"
        } else {
            ""
        };
        assert_eq!(flag, expected, "{v}");
    }
}

#[test]
fn match_plot_is_the_report_picture_of_its_games() {
    let dir = Scratch::new("report-match");
    let ptn = dir.join("games.ptn");
    let plot = dir.join("match.svg");
    let engine = |name: &str| format!("cmd={} name={name}", env!("CARGO_BIN_EXE_cairn"));
    ok(&[
        "match",
        "--size",
        "3",
        "--tc",
        "2+0.05",
        "--games",
        "2",
        "--engine",
        &engine("one"),
        "--engine",
        &engine("two"),
        "--ptn",
        arg(&ptn),
        "--plot",
        arg(&plot),
    ]);
    let drawn = std::fs::read_to_string(&plot).unwrap();
    assert_eq!(count(&svg(&drawn), "circle"), 2);
    let again = dir.join("again.svg");
    ok(&["report", arg(&ptn), "--plot", arg(&again)]);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), drawn);
}
