//! Replay tests: every hand-made PTN file in tests/data/ptn replayed through the library and the
//! `cairn replay` binary (final TPS and result checked against results worked out by the rules),
//! the invalid files' errors, the `cairn perft` command line, and the shared PTN corpus.

use crate::common::text;
use cairn_tak::board::{Color, GameResult, Position, Role};
use cairn_tak::movegen::IllegalMove;
use cairn_tak::notation::ptn_game::{PtnErrorKind, PtnGame};
use cairn_tak::notation::{parse_file, replay, replay_any, tps, MoveError, PtnError, ReplayError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ptn")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn games(name: &str) -> Vec<PtnGame> {
    parse_file(&read(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn result_text(result: Option<GameResult>) -> &'static str {
    result.map_or("*", GameResult::ptn)
}

/// Every valid file, with the final TPS and result of each of its games.
///
/// Each result was worked out from the rules, not read off the program: the comments give the
/// reason, and every game was also replayed by an independent simulator written from the rules
/// texts while these files were made.
const EXPECTED: &[(&str, &[(&str, &str)])] = &[
    // 17. c1>* : the capstone flattens Black's wall on d1 and completes a1-b1-c1-d1-e1.
    (
        "road_white_5x5.ptn",
        &[("2,1S,2,2,2/x,2,2,x2/x,2,x3/x5/1,1,1,21C,1 2 9", "R-0")],
    ),
    // 22. 3d4-111 drops one Black flat on each of d3, d2, d1: the d-file d6..d1 is Black's.
    (
        "road_black_6x6.ptn",
        &[(
            "x,1S,x,2,x,2/x,1,x,2,x2/x,1,x,2,1,x/x,1,1C,2,1,x/x,1,1,2,x2/1,x,1,2,x2 1 12",
            "0-R",
        )],
    ),
    // A checkerboard of 25 flats (no two of a colour touch, so no road): 13 White, 12 Black.
    (
        "flats_board_fill_5x5.ptn",
        &[(
            "1,2,1,2,1/2,1,2,1,2/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 2 13",
            "F-0",
        )],
    ),
    // Rank 5 all White, rank 4 all Black after White's 1c4+: the mover wins.
    (
        "double_road_5x5.ptn",
        &[("1,1,1,1,1/2,2,2,2,2/x2,2,x2/x5/x5 2 7", "R-0")],
    ),
    // Black's e4- uncovers e4's White flat: a5-b5-c5(cap)-c4-d4-e4 is White's road only.
    (
        "suicide_5x5.ptn",
        &[(
            "1,1,221C,x,212C/x2,21,1,1/1,111112S,1,211,22/x2,121,1,x/x3,2,x 1 27",
            "R-0",
        )],
    ),
    // Black's last stone ends the game with b1 still empty: a flat makes it 4-4, a wall leaves
    // it 4-3; a spread places nothing and the game goes on.
    (
        "last_stone_3x3.ptn",
        &[
            ("221,112,2/112,1,2/221,x,221 1 13", "1/2-1/2"),
            ("221,112,2S/112,1,2/221,x,221 1 13", "F-0"),
            ("221,112,x/112,1,2/221,2,221 1 13", "1/2-1/2"),
            ("221,112,x/11,1,2/2212,x,221 1 13", "*"),
        ],
    ),
    // 13 flats to 11 (d5 is a wall): 2 x 2 = 4 against HalfKomi 4, 5, 3.
    (
        "komi_5x5.ptn",
        &[
            (
                "1,2,1,2S,1/2,1,2,1,2/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 2 13",
                "1/2-1/2",
            ),
            (
                "1,2,1,2S,1/2,1,2,1,2/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 2 13",
                "0-F",
            ),
            (
                "1,2,1,2S,1/2,1,2,1,2/1,2,1,2,1/2,1,2,1,2/1,2,1,2,1 2 13",
                "F-0",
            ),
        ],
    ),
    // Black's first ply from the TPS still places a White flat (a1); White fills rank 1.
    (
        "tps_black_to_move_5x5.ptn",
        &[
            ("x4,2/x4,2/x4,2/x4,2/1,1,1,1,1 2 5", "R-0"),
            ("x4,2/x4,2/x4,2/x4,2/1,1,1,1,1 2 5", "R-0"),
        ],
    ),
    (
        "unfinished_7x7.ptn",
        &[(
            "2,x6/x7/x3,2C,2C,x2/x,2,2,x,21C,x2/x,2,1C,1S,1,x2/x7/x6,1 1 10",
            "*",
        )],
    ),
    // 3x3: Black's a2 joins a2-b2-c2 (and blocks White's a-file); 8x8 and 4x4 unfinished.
    (
        "collection.ptn",
        &[
            ("1,x,1/2,2,2/221,1,2 1 7", "0-R"),
            (
                "x7,2/x8/x4,2,x3/x2,1C,x,2C,x3/x3,2C,x4/x3,1,x4/x3,1C,x4/1,x7 1 8",
                "*",
            ),
            ("x4/x4/2,1,x2/1,2,1,2 1 4", "*"),
        ],
    ),
    // 4x4 checkerboard fill with White's c3 a wall: 7 White flats, 8 Black.
    (
        "crlf_bom_4x4.ptn",
        &[("2,1,2,1/1,2,1S,2/2,1,2,1/1,2,1,2 1 9", "0-F")],
    ),
    (
        "puzzle_6x6.ptn",
        &[
            (
                "x6/x4,2,x/x4,2C,x/1,2,12,122211C,x2/x2,1S,1,12,1/x3,2S,1,1 2 19",
                "*",
            ),
            (
                "2,2,2,21,12,x/x4,2,x/x4,2C,x/1,2,12,122211C,x2/x2,1S,1,12,1/x3,2S,1,1 1 19",
                "*",
            ),
        ],
    ),
];

const INVALID: &[&str] = &[
    "invalid_illegal_ply.ptn",
    "invalid_unparsable.ptn",
    "invalid_after_end.ptn",
];

#[test]
fn every_data_file_is_covered() {
    let mut names: Vec<String> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".ptn"))
        .collect();
    names.sort();
    let mut known: Vec<String> = EXPECTED
        .iter()
        .map(|(n, _)| n.to_string())
        .chain(INVALID.iter().map(|n| n.to_string()))
        .collect();
    known.sort();
    assert_eq!(names, known);
}

#[test]
fn valid_files_replay_to_the_expected_positions_and_results() {
    for &(name, expected) in EXPECTED {
        let games = games(name);
        assert_eq!(games.len(), expected.len(), "{name}: number of games");
        for (i, (game, &(tps, result))) in games.iter().zip(expected).enumerate() {
            let (final_tps, reached) =
                replay_any(game).unwrap_or_else(|e| panic!("{name} game {}: {e}", i + 1));
            assert_eq!(
                (final_tps.as_str(), result_text(reached)),
                (tps, result),
                "{name} game {}",
                i + 1
            );
            // The result written in the file agrees with the rules (no result written = `*`).
            assert_eq!(
                game.result.as_deref().unwrap_or("*"),
                result,
                "{name} game {}",
                i + 1
            );
            if let Some(tag) = game.tag("Result") {
                assert_eq!(tag, result, "{name} game {} Result tag", i + 1);
            }
        }
    }
}

#[test]
fn road_white_5x5_details() {
    let games = games("road_white_5x5.ptn");
    let game = &games[0];
    assert_eq!(game.tag("Player2"), Some("Bob \"the Builder\""));
    assert_eq!(game.tag("size"), Some("5"));
    assert_eq!(game.tags.len(), 7);
    assert_eq!(game.comments.len(), 3, "{:?}", game.comments);
    assert!(game.comments[2].contains("[brackets]"));
    assert_eq!(game.plies.len(), 17);
    let ply = |n: usize| &game.plies[n - 1];
    assert_eq!(ply(1).comments, vec!["opening: a black flat".to_string()]);
    assert_eq!((ply(1).line, ply(1).column), (11, 4));
    assert_eq!(ply(7).annotations, "!?");
    assert_eq!(ply(10).annotations, "'");
    assert_eq!(ply(11).annotations, "!");
    // A comment between a move number and its ply belongs to the ply before.
    assert_eq!(ply(14).comments, vec!["before a ply".to_string()]);
    assert_eq!(
        (
            ply(15).mv.to_string().as_str(),
            ply(15).annotations.as_str()
        ),
        ("c2-", "''")
    );
    assert_eq!(ply(16).annotations, "?");
    assert!(ply(17).crush_mark);
    assert_eq!(ply(17).annotations, "!!");
    assert_eq!(ply(17).mv.to_string(), "c1>");
    assert_eq!(
        ply(17).comments.len(),
        2,
        "the comment after the result joins the last ply"
    );
    assert!(game.plies[..16].iter().all(|p| !p.crush_mark));

    let done = replay::<5>(game).unwrap();
    assert_eq!(done.start, Position::<5>::start());
    assert_eq!(done.moves.len(), 17);
    let d1 = cairn_tak::board::Square::new::<5>(3, 0);
    assert_eq!(done.position.top(d1), Some((Color::White, Role::Cap)));
    assert_eq!(
        done.position.stack_colors(d1).collect::<Vec<_>>(),
        vec![Color::Black, Color::White],
        "the flattened wall stays under the capstone"
    );
    assert!(done.position.has_road(Color::White));
    assert!(!done.position.has_road(Color::Black));
}

#[test]
fn rule_edge_games_end_for_the_right_reason() {
    // Double road: both roads are on the board; the mover (White) wins.
    let done = replay::<5>(&games("double_road_5x5.ptn")[0]).unwrap();
    assert!(done.position.has_road(Color::White) && done.position.has_road(Color::Black));
    assert_eq!(
        done.position.side_to_move(),
        Color::Black,
        "White moved last"
    );
    assert_eq!(done.result, Some(GameResult::Road(Color::White)));

    // Suicide: Black moved last, only White has a road.
    let done = replay::<5>(&games("suicide_5x5.ptn")[0]).unwrap();
    assert_eq!(done.moves.len(), 52);
    assert_eq!(
        done.position.side_to_move(),
        Color::White,
        "Black moved last"
    );
    assert!(done.position.has_road(Color::White) && !done.position.has_road(Color::Black));
    assert_eq!(done.result, Some(GameResult::Road(Color::White)));

    // Board fill: no empty square, no road, 13 flats to 12; stones are left on both sides.
    let done = replay::<5>(&games("flats_board_fill_5x5.ptn")[0]).unwrap();
    assert!(done.position.empty().is_empty());
    assert_eq!(done.position.flats(Color::White).count(), 13);
    assert_eq!(done.position.flats(Color::Black).count(), 12);
    assert!(
        done.position.stones_left(Color::White) > 0 && done.position.stones_left(Color::Black) > 0
    );

    // Last stone: Black is out of pieces while a square is still empty.
    for game in &games("last_stone_3x3.ptn")[..3] {
        let done = replay::<3>(game).unwrap();
        assert_eq!(done.position.stones_left(Color::Black), 0);
        assert_eq!(done.position.caps_left(Color::Black), 0);
        assert_eq!(done.position.empty().count(), 1);
        assert!(done.result.is_some());
    }

    // Komi is read from the tag into the start position; only the result changes.
    let komis: Vec<i8> = games("komi_5x5.ptn")
        .iter()
        .map(|g| replay::<5>(g).unwrap().start.half_komi())
        .collect();
    assert_eq!(komis, vec![4, 5, 3]);

    // The game from a TPS with Black to move: the opening swap still applies to Black's ply.
    let games = games("tps_black_to_move_5x5.ptn");
    let done = replay::<5>(&games[0]).unwrap();
    assert_eq!(done.start.ply(), 1);
    assert_eq!(tps::to_tps(&done.start), "x4,2/x5/x5/x5/x5 2 1");
    assert_eq!(
        done.position.top(cairn_tak::board::Square(0)),
        Some((Color::White, Role::Flat))
    );
    let plies = |g: &PtnGame| g.plies.iter().map(|p| p.mv.clone()).collect::<Vec<_>>();
    assert_eq!(
        plies(&games[0]),
        plies(&games[1]),
        "`1...` and `1. --` number the same plies"
    );
}

#[test]
fn file_format_details() {
    // A byte-order mark and CRLF line ends really are in the file.
    let raw = std::fs::read(data_dir().join("crlf_bom_4x4.ptn")).unwrap();
    assert!(
        raw.starts_with(&[0xEF, 0xBB, 0xBF]),
        "BOM missing (was the file re-encoded?)"
    );
    assert!(
        raw.windows(2).any(|w| w == b"\r\n"),
        "CRLF missing (was the file re-encoded?)"
    );
    assert!(
        !raw.windows(2).any(|w| w[1] == b'\n' && w[0] != b'\r'),
        "a bare LF"
    );
    let games = games("crlf_bom_4x4.ptn");
    assert_eq!(games[0].tag("Player1"), Some("White"));
    assert_eq!(games[0].plies.len(), 16);
    assert_eq!((games[0].plies[0].line, games[0].plies[0].column), (8, 4));

    // `1.f6`: move numbers glued to plies.
    let games6 = self::games("road_black_6x6.ptn");
    assert_eq!(games6[0].plies.len(), 22);
    assert_eq!((games6[0].plies[0].line, games6[0].plies[0].column), (7, 3));
    assert_eq!(games6[0].plies[0].mv.to_string(), "f6");

    // Several games: a tag after move text starts the next one.
    let collection = self::games("collection.ptn");
    assert_eq!(
        collection.iter().map(|g| g.tag("Size")).collect::<Vec<_>>(),
        vec![Some("3"), Some("8"), Some("4")]
    );
    assert_eq!(
        collection
            .iter()
            .map(|g| g.result.as_deref())
            .collect::<Vec<_>>(),
        vec![Some("0-R"), None, None],
        "no result written after the moves (a Result tag is not the result token)"
    );
    assert_eq!(collection[2].plies.len(), 6, "plies without move numbers");

    // Header-only puzzle: tags, no plies, no result; the first puzzle has only `19.`.
    let puzzles = self::games("puzzle_6x6.ptn");
    assert!(puzzles
        .iter()
        .all(|g| g.plies.is_empty() && g.result.is_none()));
    assert_eq!(puzzles[1].tags.len(), 3);
    assert_eq!(puzzles[0].size(), Ok(6), "size from the TPS tag");

    // The comment before the first tag of a file belongs to the first game.
    let last = self::games("last_stone_3x3.ptn");
    assert_eq!(last.len(), 4);
    assert!(last[0].comments[0].starts_with("Black has one stone left"));
}

/// Line ends made CRLF, a BOM added: the same games (comments aside, which keep their `\r`).
#[test]
fn crlf_and_bom_versions_of_every_file_read_the_same() {
    let strip = |g: &PtnGame| {
        let mut g = g.clone();
        g.comments = g.comments.iter().map(|c| c.replace('\r', "")).collect();
        for p in &mut g.plies {
            p.comments = p.comments.iter().map(|c| c.replace('\r', "")).collect();
        }
        g
    };
    for &(name, _) in EXPECTED {
        let text = read(name).replace("\r\n", "\n").replace('\u{feff}', "");
        let crlf = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        let a: Vec<PtnGame> = parse_file(&text).unwrap().iter().map(strip).collect();
        let b: Vec<PtnGame> = parse_file(&crlf).unwrap().iter().map(strip).collect();
        assert_eq!(a, b, "{name}");
    }
}

/// Writing each game back as PTN and reading it again gives the same game and the same replay.
#[test]
fn games_written_back_read_the_same() {
    for &(name, _) in EXPECTED {
        for game in games(name) {
            let text = game.to_ptn();
            let again = parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            assert_eq!(again.len(), 1, "{name}\n{text}");
            let mut a = game.clone();
            let mut b = again[0].clone();
            for p in a.plies.iter_mut().chain(b.plies.iter_mut()) {
                p.line = 0;
                p.column = 0;
            }
            assert_eq!(a, b, "{name}\n{text}");
            assert_eq!(replay_any(&again[0]), replay_any(&game), "{name}");
            // Canonical move text: no `F` prefix.
            assert!(
                !text.split_whitespace().any(|t| t.starts_with('F')
                    && t.len() > 1
                    && t.as_bytes()[1].is_ascii_lowercase()),
                "{text}"
            );
        }
    }
    let game = &games("tps_black_to_move_5x5.ptn")[0];
    let text = game.to_ptn();
    assert!(text.contains("\n1. -- a1\n2. b1 e4\n"), "{text}");
}

#[test]
fn invalid_files_fail_with_the_expected_errors() {
    let game = &games("invalid_illegal_ply.ptn")[0];
    assert_eq!(
        replay_any(game),
        Err(ReplayError::Ply {
            ply: 7,
            label: "4.".into(),
            line: 6,
            error: MoveError::Illegal {
                text: "c3+".into(),
                reason: IllegalMove::Blocked(
                    cairn_tak::board::SquareName { file: 2, rank: 3 },
                    Role::Wall
                ),
            },
        })
    );
    match parse_file(&read("invalid_unparsable.ptn")) {
        Err(PtnError {
            line: 5,
            column: 7,
            kind: PtnErrorKind::Move { ply: 6, error: e },
        }) => assert_eq!(e.text, "5d4-22"),
        other => panic!("{other:?}"),
    }
    let game = &games("invalid_after_end.ptn")[0];
    assert_eq!(
        replay_any(game),
        Err(ReplayError::AfterEnd {
            ply: 14,
            label: "7...".into(),
            line: 3,
            text: "e3".into(),
            result: GameResult::Road(Color::White),
        })
    );
}

// ---------------------------------------------------------------------------------------------
// The binary

/// The binary with its warnings shown.
fn cairn(args: &[&str]) -> Output {
    crate::common::cairn_with(args, &[("RUST_LOG", "warn")])
}

#[test]
fn cli_replay_prints_final_tps_and_result() {
    for &(name, expected) in EXPECTED {
        let path = data_dir().join(name);
        let out = cairn(&["replay", path.to_str().unwrap()]);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{name}: {:?}\n{stderr}", out.status);
        let want: String = expected
            .iter()
            .map(|(tps, result)| format!("{tps}\t{result}\n"))
            .collect();
        assert_eq!(text(&out.stdout), want, "{name}");
        assert!(!stderr.contains("error"), "{name}: {stderr}");
    }
}

#[test]
fn cli_replay_reports_invalid_files() {
    let run = |name: &str| {
        let out = cairn(&["replay", data_dir().join(name).to_str().unwrap()]);
        assert!(!out.status.success(), "{name} should fail");
        assert_ne!(out.status.code(), Some(0));
        assert!(out.stdout.is_empty(), "{name}: {}", text(&out.stdout));
        text(&out.stderr)
    };
    let err = run("invalid_illegal_ply.ptn");
    assert!(
        err.contains("ply 7") && err.contains("c3+") && err.contains("c4"),
        "{err}"
    );
    let err = run("invalid_unparsable.ptn");
    assert!(
        err.contains("line 5, column 7") && err.contains("5d4-22"),
        "{err}"
    );
    let err = run("invalid_after_end.ptn");
    assert!(err.contains("ply 14") && err.contains("R-0"), "{err}");

    // A missing file, an empty file, and a good game followed by a bad one.
    let out = cairn(&["replay", "/nonexistent/cairn-test.ptn"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cairn-test.ptn"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let empty = dir.join("replay-empty.ptn");
    std::fs::write(&empty, "\n\n").unwrap();
    let out = cairn(&["replay", empty.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no game"),
        "{}",
        text(&out.stderr)
    );
    let mixed = dir.join("replay-mixed.ptn");
    std::fs::write(
        &mixed,
        "[Size \"3\"]\n1. c1 a3 2. b3 b1 3. c3 R-0\n[Size \"3\"]\n1. a1 a1\n",
    )
    .unwrap();
    let out = cairn(&["replay", mixed.to_str().unwrap()]);
    assert!(!out.status.success());
    assert_eq!(text(&out.stdout), "1,1,1/x3/x,2,2 2 3\tR-0\n");
    let err = text(&out.stderr);
    assert!(err.contains("game 2") && err.contains("ply 2"), "{err}");

    // A stated result the rules contradict: the rules' result is printed, with a warning.
    let wrong = dir.join("replay-wrong-result.ptn");
    std::fs::write(&wrong, "[Size \"3\"]\n1. c1 a3 2. b3 b1 3. c3 0-R\n").unwrap();
    let out = cairn(&["replay", wrong.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "1,1,1/x3/x,2,2 2 3\tR-0\n");
    let err = text(&out.stderr);
    assert!(err.contains("0-R") && err.contains("R-0"), "{err}");
}

#[test]
fn cli_perft() {
    let out = cairn(&["perft", "--size", "5", "--depth", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for (line, want) in lines
        .iter()
        .zip(["perft 1 25 ", "perft 2 600 ", "perft 3 43320 "])
    {
        assert!(
            line.starts_with(want),
            "{line:?} should start with {want:?}"
        );
    }

    let out = cairn(&["perft", "--tps", "garbage", "--depth", "1"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("garbage") && err.contains("3 fields"), "{err}");
    assert!(out.stdout.is_empty());

    // A --size that disagrees with the TPS is refused, 6 (the size of the empty board when
    // none is given) as much as any other; one that agrees is accepted.
    let five = "x5/x5/x5/x5/x5 1 1";
    for size in ["6", "4"] {
        let out = cairn(&["perft", "--size", size, "--tps", five, "--depth", "1"]);
        assert_eq!(out.status.code(), Some(1), "--size {size}");
        assert!(out.stdout.is_empty());
        let err = text(&out.stderr);
        let expected = format!("--size {size} does not match the 5x5 --tps");
        assert!(err.contains(&expected), "{err}");
    }
    let agreed = perft_counts(&["--size", "5", "--tps", five, "--depth", "1"]);
    assert_eq!(agreed, vec!["25"]);

    let out = cairn(&["perft", "--size", "5", "--moves", "a1 a1", "--depth", "1"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("ply 2") && err.contains("occupied"), "{err}");

    // Spec vector 15: the same position from its TPS and from the moves that reach it.
    let from_tps = perft_counts(&["--tps", "x5/x2,2S,x2/x2,121,x2/x5/x5 1 4", "--depth", "2"]);
    assert_eq!(from_tps, vec!["87", "6155"]);
    let from_moves = perft_counts(&[
        "--size",
        "5",
        "--moves",
        "d3 c3 c4 1d3< 1c4- Sc4",
        "--depth",
        "2",
    ]);
    assert_eq!(from_moves, vec!["87", "6155"]);
}

/// Runs `cairn perft ARGS`, expects success, and returns the leaf count of each depth line.
fn perft_counts(args: &[&str]) -> Vec<String> {
    let out = cairn(&[&["perft"], args].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The shared corpus

/// Every game of the public corpus beside the repository (`../shared/data/ptn`) replays by the
/// rules. Ignored by default, since a fresh clone has no corpus beside it; `.ci/run` runs it
/// when the corpus is there, and run on purpose without it, it fails.
#[test]
#[ignore = "needs ../shared/data/ptn beside the repository; .ci/run runs it when it is there"]
fn shared_corpus_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/ptn");
    assert!(
        dir.is_dir(),
        "{} not found: this test needs the shared PTN corpus",
        dir.display()
    );
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptn"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    let mut failures = Vec::new();
    let mut results: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut files, mut game_count, mut plies, mut agree, mut by_tps) = (0, 0, 0, 0, 0);
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let games = match parse_file(&text) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        files += 1;
        for (i, game) in games.iter().enumerate() {
            game_count += 1;
            plies += game.plies.len();
            by_tps += game.tag("TPS").is_some() as usize;
            match replay_any(game) {
                Ok((_, reached)) => {
                    *results.entry(result_text(reached)).or_default() += 1;
                    // Where the file states a road, flat or draw result and the game did end by
                    // the rules, the two agree.
                    let declared = game.result.as_deref().or(game.tag("Result"));
                    if let (Some(declared), Some(reached)) = (declared, reached) {
                        if ["R-0", "0-R", "F-0", "0-F", "1/2-1/2"].contains(&declared) {
                            if declared == reached.ptn() {
                                agree += 1;
                            } else {
                                failures.push(format!(
                                    "{name} game {}: file says {declared}, rules say {reached}",
                                    i + 1
                                ));
                            }
                        }
                    }
                }
                Err(e) => failures.push(format!("{name} game {}: {e}", i + 1)),
            }
        }
    }
    eprintln!(
        "shared corpus: {files} files, {game_count} games ({by_tps} from a TPS), {plies} plies; \
         results by the rules: {results:?}; {agree} stated results confirmed"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(files, paths.len());
    assert!(game_count >= paths.len());
}
