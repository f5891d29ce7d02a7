//! Seeing a game, not only reading it: `cairn report` on a match file, the SVG pictures of
//! `analyze --game --plot`, `report --plot` and `match --plot`, and the PTN Ninja links of
//! `--link` / `--links`. Every input is made here; the searches are depth-limited on one thread,
//! so each picture is the same bytes every run.

use crate::common::{cairn_run, Scratch};
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::{parse_file, replay, tps, PtnGame};
use std::path::Path;

/// Runs the binary, which must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let (success, out, err) = cairn_run(args);
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
        assert_same_game(&ptn, &games[index - 1]);
        let name = cairn_tools::ninja::name_of_link(url).unwrap();
        assert!(name.starts_with(&format!("game {index}: ")), "{name}");
    }
}

/// The y-axis labels of a match picture (`+100`, `-50`, `+0`), as numbers.
fn elo_labels(words: &[String]) -> Vec<f64> {
    words
        .iter()
        .filter(|w| w.starts_with(['+', '-']) && w[1..].bytes().all(|b| b.is_ascii_digit()))
        .map(|w| w.parse().unwrap())
        .collect()
}

/// The counts of a row of the picture's words (`won 1 by road; lost 1 on time; 1 unfinished`)
/// in the columns of the text report's endings table: won by road, on flats, otherwise; lost
/// likewise; drawn; unfinished.
fn ending_columns(words: &str) -> [usize; 8] {
    let mut counts = [0; 8];
    for part in words.split("; ") {
        let (side, rest) = match part.split_once(' ') {
            Some(("won", rest)) => (Some(0), rest),
            Some(("lost", rest)) => (Some(3), rest),
            _ => (None, part),
        };
        for item in rest.split(", ") {
            let (n, how) = item.split_once(' ').unwrap_or_else(|| panic!("{words}"));
            let n: usize = n.parse().unwrap_or_else(|_| panic!("{words}"));
            let column = match (side, how) {
                (Some(s), "by road") => s,
                (Some(s), "on flats") => s + 1,
                (Some(s), "on time" | "by forfeit" | "otherwise") => s + 2,
                (None, "draw" | "draws") => 6,
                (None, "unfinished") => 7,
                _ => panic!("`{item}` in {words}"),
            };
            counts[column] += n;
        }
    }
    counts
}

/// The match picture: its title is the text's first line; the Elo curve starts once the
/// interval is finite and narrow enough, on an axis that spans the drawn data and not ±800;
/// how the first engine's games ended by colour, in words and as bars, matches the text
/// report's tables; the same input draws the same bytes.
/// The tags PTN Ninja knows (it drops any other with a warning).
const APP_TAGS: [&str; 23] = [
    "Caps",
    "Caps1",
    "Caps2",
    "Clock",
    "Date",
    "Event",
    "Flats",
    "Flats1",
    "Flats2",
    "Komi",
    "Opening",
    "Player1",
    "Player2",
    "PlayTakID",
    "Points",
    "Rating1",
    "Rating2",
    "Result",
    "Round",
    "Site",
    "Size",
    "Time",
    "TPS",
];

/// What a tag value of a link means: `''` is the app's `"`, and the full-width `＼ ］ ｛ ｝`
/// stand for `\ ] { }`.
fn meaning(value: &str) -> String {
    value
        .replace("''", "\"")
        .replace('\u{FF3C}', "\\")
        .replace('\u{FF3D}', "]")
        .replace('\u{FF5B}', "{")
        .replace('\u{FF5D}', "}")
}

/// The PTN of a link is one PTN Ninja reads: every tag line `[Name "value"]` with no other `"`
/// in it (the app's value ends at the first one), of a tag the app knows, no `\"` anywhere,
/// no `*` result; and it reads back with our parser to `game`: its moves, comments and result
/// (a `*` left out), and its tags, those the app knows with the same meaning, the others
/// (and values the app would refuse) written out in a note before the first move.
fn assert_same_game(ptn: &str, game: &PtnGame) {
    assert!(!ptn.contains("\\\""), "{ptn}");
    for line in ptn.lines().filter(|l| l.starts_with('[')) {
        assert_eq!(line.matches('"').count(), 2, "{line}");
        let name = line[1..].split(' ').next().unwrap();
        assert!(APP_TAGS.contains(&name) && line.ends_with("\"]"), "{line}");
    }
    let linked = &parse_file(ptn).expect("the link's PTN reads back")[0];
    let moves = |g: &PtnGame| -> Vec<String> {
        let ply = |p: &PtnPly| format!("{}{} {:?}", p.mv, p.annotations, p.comments);
        g.plies.iter().map(ply).collect()
    };
    assert_eq!(moves(linked), moves(game));
    let result = |g: &PtnGame| g.result.clone().filter(|r| r != "*");
    assert_eq!(result(linked), result(game));
    let note = linked.comments.first().cloned().unwrap_or_default();
    for (name, value) in &game.tags {
        let value = value.trim();
        match linked.tag(name) {
            Some(written) => assert_eq!(meaning(written), value, "{name}"),
            None if name == "Result" && value == "*" => {}
            None => assert!(
                meaning(&note).contains(&format!("{name}: {value}")),
                "{name}: {value} not in the note `{note}`"
            ),
        }
    }
}

/// Links of games whose tags hold what PTN Ninja cannot read as such (an escaped quote, a
/// backslash, `]`, braces in a name, non-ASCII, a tag it does not know): `analyze --game
/// --link` and `report --links` write them as the app reads them, the game re-reads with our
/// parser to the same tags and moves, and the link opens at the ply it names.
#[test]
fn links_open_whatever_the_tags_hold() {
    let dir = Scratch::new("report-link-tags");
    let tags = "[Player1 \"Ann \\\"the Hammer\\\" {A}\"]\n[Player2 \"Bob \\\\ Builder ]\"]\n\
        [Event \"Ünïcode 🐢 cup [x]\"]\n[Opponent \"x\"]\n[Date \"2024-05-01\"]\n";
    let game_text = BLUNDERS_3X3.replace("[Player1 \"Ann\"]\n[Player2 \"Bob\"]\n", tags);
    let game = &parse_file(&game_text).unwrap()[0];
    assert_eq!(game.tag("Player1"), Some("Ann \"the Hammer\" {A}"));
    let file = dir.file("game.ptn", &game_text);
    let annotated = dir.join("annotated.ptn");
    let out = ok(&[
        "analyze",
        "--game",
        arg(&file),
        "--depth",
        "3",
        "--threads",
        "1",
        "--link",
        "--out",
        arg(&annotated),
    ]);
    // The link, then the review's summary.
    let url = out.lines().next().unwrap_or_default();
    let written = &parse_file(&std::fs::read_to_string(&annotated).unwrap()).unwrap()[0];
    let ptn = cairn_tools::ninja::ptn_of_link(url).unwrap();
    assert_same_game(&ptn, written);
    assert!(
        ptn.contains("[Player1 \"Ann ''the Hammer'' \u{FF5B}A\u{FF5D}\"]"),
        "{ptn}"
    );
    // It opens before the first blunder, a ply of the game.
    let first = written
        .plies
        .iter()
        .position(|p| p.annotations.ends_with("??"))
        .unwrap();
    assert!(url.ends_with(&format!("&ply={first}")), "{url}");
    // A match between engines with such names: the lost games' links open at their last ply.
    let mut games = MATCH.replace("\"alpha\"", "\"al\\\"pha\\\\\"");
    games = games.replace("[Size \"5\"]", "[Size \"5\"]\n[Site \"a]b\"]");
    let file = dir.file("match.ptn", &games);
    let text = ok(&["report", arg(&file), "--links"]);
    let parsed = parse_file(&games).unwrap();
    let links: Vec<&str> = text.lines().filter(|l| l.contains("https://")).collect();
    assert_eq!(links.len(), 3, "{text}");
    for (line, index) in links.iter().zip([1, 2, 3]) {
        let url = line.split_whitespace().last().unwrap();
        let game = &parsed[index - 1];
        assert!(
            url.ends_with(&format!("&ply={}!", game.plies.len() - 1)),
            "{url}"
        );
        assert_same_game(&cairn_tools::ninja::ptn_of_link(url).unwrap(), game);
    }
}

#[test]
fn report_picture_shows_the_elo_and_how_games_ended() {
    let dir = Scratch::new("report-plot");
    let file = dir.file("match.ptn", MATCH);
    let plot = dir.join("report.svg");
    let text = ok(&["report", arg(&file), "--plot", arg(&plot)]);
    let first = std::fs::read_to_string(&plot).unwrap();
    let doc = svg(&first);
    let words = texts(&doc);
    assert!(
        words.contains(&text.lines().next().unwrap().to_string()),
        "{words:?}"
    );
    // Games 1 and 2 (both won by alpha) have no finite Elo: no point, no spike.
    let report = cairn_tools::report::MatchReport::from_ptn(MATCH).unwrap();
    assert!(!report.elo[0].high.is_finite() && !report.elo[1].high.is_finite());
    let (start, _, _) = cairn_tools::plot::elo_axis(&report.elo).unwrap();
    assert!(start >= 3, "{start}");
    assert_eq!(
        count(&doc, "circle"),
        4 + 1 - start,
        "one Elo point per game drawn"
    );
    assert_eq!(count(&doc, "polygon"), 1, "the 95% band");
    // The axis holds the last estimate and its interval, +89 [-184, +361], with a margin,
    // and is not the old fixed ±800.
    let labels = elo_labels(&words);
    let (lo, hi) = labels
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    assert!(lo <= -184.0 && hi >= 361.0, "{labels:?}");
    assert!(hi - lo < 2.0 * (361.0 + 184.0), "{labels:?}");
    assert!(words.contains(&"+89 [-184, +361]".to_string()), "{words:?}");
    // Each row: its name, its tally, its endings in words, then its bar's counts.
    let tallies: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("alpha  "))
        .unwrap()
        .split_whitespace()
        .collect();
    // `alpha +2 -1 =1 62.5% +89 [-184, +361] +1 -1 =0 +1 -0 =1`: all, then White's, Black's.
    let n = tallies.len();
    let (white, black, all) = (
        tallies[n - 6..n - 3].join(" "),
        tallies[n - 3..].join(" "),
        tallies[1..4].join(" "),
    );
    let table = |colour: &str| -> [usize; 8] {
        let row = text
            .lines()
            .find(|l| l.split_whitespace().take(2).eq(["alpha", colour]))
            .unwrap();
        let numbers: Vec<usize> = row
            .split_whitespace()
            .skip(2)
            .map(|n| n.parse().unwrap())
            .collect();
        numbers.try_into().unwrap()
    };
    let (as_white, as_black) = (table("White"), table("Black"));
    let sum: [usize; 8] = std::array::from_fn(|i| as_white[i] + as_black[i]);
    for (name, tally, columns) in [
        ("as White", white, as_white),
        ("as Black", black, as_black),
        ("all games", all, sum),
    ] {
        let at = words
            .iter()
            .position(|w| w == name)
            .unwrap_or_else(|| panic!("{name}"));
        let games: usize = columns.iter().sum();
        assert_eq!(words[at + 1], format!("{tally} ({games} games)"), "{name}");
        assert_eq!(
            ending_columns(&words[at + 2]),
            columns,
            "{name}: {}",
            words[at + 2]
        );
        let bar: usize = words[at + 3..]
            .iter()
            .take_while(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .map(|w| w.parse::<usize>().unwrap())
            .sum();
        assert_eq!(bar, games, "{name}: {words:?}");
    }
    // Same input, same bytes.
    ok(&["report", arg(&file), "--plot", arg(&plot)]);
    assert_eq!(std::fs::read_to_string(&plot).unwrap(), first);
}

/// A match one engine has won every game of has no finite Elo: the picture says so instead of
/// drawing a curve.
#[test]
fn report_picture_of_a_whitewash_draws_no_curve() {
    let dir = Scratch::new("report-plot-whitewash");
    let games: String = MATCH
        .split("\n\n[Player1")
        .take(2)
        .collect::<Vec<_>>()
        .join("\n\n[Player1");
    let file = dir.file("match.ptn", &games);
    let plot = dir.join("report.svg");
    ok(&["report", arg(&file), "--plot", arg(&plot)]);
    let drawn = std::fs::read_to_string(&plot).unwrap();
    let doc = svg(&drawn);
    assert_eq!(count(&doc, "circle"), 0);
    assert_eq!(count(&doc, "polygon"), 0);
    let words = texts(&doc);
    assert!(
        words.iter().any(|w| w.starts_with("No finite Elo yet")),
        "{words:?}"
    );
    assert!(
        words.contains(&"+2 -0 =0 (2 games)".to_string()),
        "{words:?}"
    );
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
        let (success, _, err) = cairn_run(&["report", arg(&file)]);
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
    let (success, _, err) = cairn_run(&["report", arg(&first), arg(&others)]);
    assert!(!success);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("others.ptn: its engines `alpha` and `gamma`"),
        "{err}"
    );
    let bad = dir.file("bad.ptn", &tail.replacen("[Player1 \"alpha\"]\n", "", 1));
    let (success, _, err) = cairn_run(&["report", arg(&first), arg(&bad)]);
    assert!(!success);
    assert!(err.contains("bad.ptn: game 1: no Player1 tag"), "{err}");
    let (success, _, err) = cairn_run(&["report"]);
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
    // Each marked ply of the PTN is labelled once with its move: `3.b2<??`, `3…c2?`.
    let words = texts(&doc);
    let mut marked = 0;
    for (i, ply) in game.plies.iter().enumerate() {
        let Some(mark) = ["??", "?!", "?"]
            .into_iter()
            .find(|m| ply.annotations.ends_with(m))
        else {
            continue;
        };
        marked += 1;
        let dot = if i % 2 == 0 { "." } else { "…" };
        let label = format!("{}{dot}{}{mark}", i / 2 + 1, ply.mv);
        assert_eq!(
            words.iter().filter(|w| **w == label).count(),
            1,
            "{label}: {words:?}"
        );
    }
    assert!(marked >= 2, "the game has marked plies");
    // Proven results are triangles: the last plies are proven roads.
    assert!(count(&doc, "polygon") >= 2);
    // Players and result in the title, move numbers 1 to 6 on the x axis, 0-100 on the y axis.
    assert!(
        words
            .iter()
            .any(|w| w.starts_with("Ann (White) vs Bob (Black), 0-R:")),
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
    // The link, then the review's summary.
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("Review by cairn analyze"), "{text}");
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
    let doc: serde_json::Value = serde_json::from_str(annotate(&dir, &["--json"]).trim()).unwrap();
    let rows = doc["plies"].as_array().unwrap();
    let last = rows.last().unwrap();
    assert_eq!(last["eval_white"]["win"], false, "Black's road");
    assert_eq!(last["win_pct_white"], 0.0, "Black's road");
    for v in rows {
        let drop = v["drop_pct"].as_f64().unwrap();
        if [5.0, 10.0, 15.0].iter().any(|t| (drop - t).abs() <= 0.05) {
            continue; // rounded to 0.1 in the JSON: too close to a threshold to tell
        }
        if v["walks_into_loss"] == true {
            assert_eq!(v["flag"], "??", "{v}");
            continue; // a blunder whatever the drop
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
    let report =
        cairn_tools::report::MatchReport::from_ptn(&std::fs::read_to_string(&ptn).unwrap());
    let drawn_games =
        cairn_tools::plot::elo_axis(&report.unwrap().elo).map_or(0, |(s, _, _)| 3 - s);
    assert_eq!(count(&svg(&drawn), "circle"), drawn_games);
    let again = dir.join("again.svg");
    ok(&["report", arg(&ptn), "--plot", arg(&again)]);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), drawn);
}
