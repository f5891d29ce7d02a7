//! `cairn openings`: enumeration counts against a brute force that canonicalises by another
//! route (TPS text of the 8 transformed positions), the filter stages, determinism, CLI errors,
//! and the committed books in `openings/`.

use crate::common::cairn_run;
use cairn_search::TranspositionTable;
use cairn_tak::board::{Komi, Move, Position};
use cairn_tak::movegen::MoveList;
use cairn_tak::notation::{parse_move, tps};
use cairn_tools::openings::{enumerate, generate, median, score_position, Center, Config, Stage};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// The position up to symmetry, by a route independent of the enumerator's keys: the smallest
/// TPS among the 8 transformed positions.
fn canonical_tps<const N: usize>(pos: &Position<N>) -> String {
    (0..8u8)
        .map(|s| tps::to_tps(&pos.transformed(s)))
        .min()
        .expect("8 symmetries")
}

/// Every line of `plies` plies from the empty board with no pruning at all, grouped by
/// position up to symmetry: canonical TPS -> the lines reaching it.
fn brute_force<const N: usize>(plies: usize, placements_only: bool) -> HashMap<String, usize> {
    fn walk<const N: usize>(
        pos: &mut Position<N>,
        left: usize,
        placements_only: bool,
        out: &mut HashMap<String, usize>,
    ) {
        if left == 0 {
            *out.entry(canonical_tps(pos)).or_default() += 1;
            return;
        }
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            if placements_only && !mv.is_placement() {
                continue;
            }
            let undo = pos.make(mv);
            walk(pos, left - 1, placements_only, out);
            pos.unmake(mv, undo);
        }
    }
    let mut out = HashMap::new();
    walk(
        &mut Position::<N>::start(),
        plies,
        placements_only,
        &mut out,
    );
    out
}

/// Checks the enumeration of `plies` plies against the brute force: same number of classes,
/// one line per class, every line legal.
fn check_against_brute_force<const N: usize>(plies: usize, placements_only: bool) {
    let classes = brute_force::<N>(plies, placements_only);
    let tree = enumerate::<N>(plies, placements_only, &|_, _, _| {});
    assert_eq!(
        tree.len(),
        classes.len(),
        "{N}x{N}, {plies} plies, placements only {placements_only}"
    );
    let mut seen = HashSet::new();
    for i in 0..tree.len() {
        let line = tree.line(i);
        assert_eq!(line.len(), plies);
        let mut pos = Position::<N>::start();
        for &mv in &line {
            assert!(pos.is_legal(mv), "{N}x{N} line {i}: {mv:?}");
            pos.make(mv);
        }
        let class = canonical_tps(&pos);
        assert!(classes.contains_key(&class), "{N}x{N}: {class} unknown");
        assert!(seen.insert(class.clone()), "{N}x{N}: {class} twice");
    }
}

#[test]
fn first_ply_gives_one_opening_per_square_up_to_symmetry() {
    // Hand count: a corner, an edge and the centre on 3x3; the 3 squares of a 2x2 quadrant up
    // to its diagonal on 4x4; the 6 squares of a triangle on 5x5 and 6x6; 10 on 7x7 and 8x8.
    let counts = [
        enumerate::<3>(1, false, &|_, _, _| {}).len(),
        enumerate::<4>(1, false, &|_, _, _| {}).len(),
        enumerate::<5>(1, false, &|_, _, _| {}).len(),
        enumerate::<6>(1, false, &|_, _, _| {}).len(),
        enumerate::<7>(1, false, &|_, _, _| {}).len(),
        enumerate::<8>(1, false, &|_, _, _| {}).len(),
    ];
    assert_eq!(counts, [3, 3, 6, 6, 10, 10]);
}

#[test]
fn second_ply_counts_match_burnside() {
    // Ordered pairs of distinct squares up to the 8 symmetries: (n²(n²-1) + 4·fix) / 8, where
    // only the 4 reflections fix pairs: the 2 diagonal ones fix n·(n-1) pairs each, and for odd n
    // the 2 axis ones also fix n·(n-1) (for even n the middle line has no squares).
    for n in 3..=8usize {
        let sq = n * n;
        let axis = if n % 2 == 1 { 2 * n * (n - 1) } else { 0 };
        let expected = (sq * (sq - 1) + 2 * n * (n - 1) + axis) / 8;
        let got = cairn_tak::with_size!(n, |N| enumerate::<N>(2, false, &|_, _, _| {}).len(),
            else unreachable!());
        assert_eq!(got, expected, "{n}x{n}");
    }
}

#[test]
fn enumeration_matches_brute_force() {
    for plies in 1..=4 {
        check_against_brute_force::<3>(plies, false);
    }
    check_against_brute_force::<3>(4, true);
    for plies in 1..=4 {
        check_against_brute_force::<4>(plies, false);
    }
    for plies in 1..=3 {
        check_against_brute_force::<5>(plies, false);
    }
    check_against_brute_force::<5>(3, true);
    for plies in 1..=2 {
        check_against_brute_force::<6>(plies, false);
        check_against_brute_force::<7>(plies, false);
        check_against_brute_force::<8>(plies, false);
    }
}

#[test]
fn transpositions_are_one_opening() {
    // a1 b1 c1 d1 and d1 c1 b1 a1 reach the same position (Black flats a1 d1, White b1 c1).
    let tree = enumerate::<4>(4, false, &|_, _, _| {});
    let lines: Vec<Vec<Move>> = (0..tree.len()).map(|i| tree.line(i)).collect();
    let target = canonical_tps(&play::<4>("a1 b1 c1 d1"));
    assert_eq!(target, canonical_tps(&play::<4>("d1 c1 b1 a1")));
    let reaching: Vec<_> = lines
        .iter()
        .filter(|line| {
            canonical_tps(&cairn_tools::openings::enumerate::replay::<4>(line)) == target
        })
        .collect();
    assert_eq!(reaching.len(), 1);
}

fn play<const N: usize>(line: &str) -> Position<N> {
    let mut pos = Position::<N>::start();
    for text in line.split(' ') {
        let mv = parse_move(&pos, text).unwrap_or_else(|e| panic!("{line}: {e}"));
        pos.make(mv);
    }
    pos
}

/// Bounds around zero (`--center zero`), as the tests below count them.
fn config(plies: u32, stages: &[&str]) -> Config {
    Config {
        center: Center::Zero,
        plies,
        komi: Komi::ZERO,
        stages: stages.iter().map(|s| s.parse().unwrap()).collect(),
        placements_only: false,
    }
}

/// Generates on a pool of `threads` threads.
fn generate_on<const N: usize>(config: &Config, threads: usize) -> cairn_tools::openings::Book {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| generate::<N>(config, false))
}

#[test]
fn every_kept_line_passes_every_stage_and_nothing_else_does() {
    let config = config(3, &["0:60", "2:30"]);
    let book = generate_on::<4>(&config, 2);
    let tree = enumerate::<4>(3, false, &|_, _, _| {});
    let mut tt = TranspositionTable::new(2);
    let mut expected = HashSet::new();
    for i in 0..tree.len() {
        let pos = tree.position(i);
        let s0 = score_position(&pos, 0, &mut tt);
        let s2 = score_position(&pos, 2, &mut tt);
        if s0.0.abs() <= 60 && s2.0.abs() <= 30 && !s2.is_proven() {
            expected.insert(canonical_tps(&pos));
        }
    }
    let kept: HashSet<String> = book
        .lines
        .iter()
        .map(|l| canonical_tps(&play::<4>(&l.plies.join(" "))))
        .collect();
    assert_eq!(kept.len(), book.lines.len());
    assert_eq!(kept, expected);
    assert_eq!(book.distinct, tree.counts());
    assert_eq!(*book.survivors.last().unwrap(), book.lines.len());
    assert_eq!(book.passed, book.survivors);
    assert!(book.survivors[0] >= book.survivors[1]);
    assert!(!expected.is_empty() && expected.len() < tree.len());
}

/// By default a stage's bound is measured from the median score of the lines it scores: the
/// book holds exactly the lines within ±bound of it, whatever the evaluation's offset.
#[test]
fn bounds_around_the_median_keep_the_typical_lines() {
    let mut centred = config(2, &["4:20"]);
    centred.center = Center::Median;
    let book = generate_on::<5>(&centred, 2);
    let tree = enumerate::<5>(2, false, &|_, _, _| {});
    let mut tt = TranspositionTable::new(2);
    let scores: Vec<_> = (0..tree.len())
        .map(|i| score_position(&tree.position(i), 4, &mut tt))
        .collect();
    let center = median(&scores);
    assert_eq!(book.centers, [center]);
    let expected: HashSet<String> = (0..tree.len())
        .filter(|&i| !scores[i].is_proven() && (scores[i].0 - center.0).abs() <= 20)
        .map(|i| canonical_tps(&tree.position(i)))
        .collect();
    let kept: HashSet<String> = book
        .lines
        .iter()
        .map(|l| canonical_tps(&play::<5>(&l.plies.join(" "))))
        .collect();
    assert_eq!(kept, expected);
    assert!(
        !kept.is_empty() && kept.len() < tree.len(),
        "{}",
        kept.len()
    );
    // The median of an odd count is its middle score; proven scores do not count.
    let s = |v| cairn_search::score::Score(v);
    let win = cairn_search::score::Score::MAX_EVAL;
    assert_eq!(median(&[s(5), s(-3), s(40), win, win]), s(5));
}

#[test]
fn a_cap_keeps_a_prefix_of_the_book() {
    // The book is sorted by canonical key and a cap keeps the smallest keys: the capped book is
    // the first lines of the uncapped one.
    let full = generate_on::<4>(&config(3, &["2:40"]), 1);
    let capped = generate_on::<4>(&config(3, &["2:40:25"]), 2);
    assert_eq!(capped.lines.len(), 25);
    assert!(full.lines.len() > 25);
    assert_eq!(capped.lines[..], full.lines[..25]);
    assert_eq!(capped.passed, full.passed);
    assert_eq!(capped.survivors, [25]);
    assert!(full.lines.iter().all(|l| l.score.0.abs() <= 40));
}

#[test]
fn the_same_command_gives_the_same_book() {
    let config = config(3, &["0:50:150", "2:40"]);
    let one = generate_on::<4>(&config, 1).text();
    let two = generate_on::<4>(&config, 2).text();
    assert_eq!(one, two);
    assert!(one.lines().count() > 10);
    let stage: Stage = "3:25:7".parse().unwrap();
    assert_eq!((stage.depth, stage.bound, stage.max), (3, 25, Some(7)));
}

#[test]
fn cli_writes_a_book_and_rejects_bad_input() {
    let (ok, stdout, stderr) = cairn_run(&[
        "openings",
        "--size",
        "3",
        "--plies",
        "2",
        "--depth",
        "2",
        "--max-eval",
        "1000",
    ]);
    assert!(ok, "{stderr}");
    // All 12 two-ply 3x3 openings (none is lost within 2 plies), two plies each.
    assert_eq!(stdout.lines().count(), 12, "{stdout}");
    assert!(
        stdout.lines().all(|l| l.split(' ').count() == 2),
        "{stdout}"
    );
    for (args, needle) in [
        ("--size 9 --plies 2 --max-eval 20", "--size"),
        ("--size 6 --plies 5 --max-eval 20", "--plies"),
        ("--size 6 --plies 2", "--max-eval"),
        (
            "--size 6 --plies 2 --max-eval 9 --komi 0.3",
            "invalid value '0.3' for '--komi <KOMI>': must be a multiple of 0.5 from -5 to 5",
        ),
        (
            "--size 3 --plies 1 --max-eval 9 --out /nonexistent-dir/book.txt",
            "--out /nonexistent-dir/book.txt",
        ),
        (
            "--size 6 --plies 2 --max-eval 9 --prefilter 2-30",
            "--prefilter `2-30`",
        ),
    ] {
        let mut full = vec!["openings"];
        full.extend(args.split(' '));
        let (ok, stdout, stderr) = cairn_run(&full);
        assert!(!ok, "{full:?} should fail");
        assert!(stdout.is_empty(), "{full:?}: {stdout}");
        assert!(stderr.contains(needle), "{full:?}: {stderr}");
    }
}

// ---------------------------------------------------------------------------------------------
// The committed books

fn book_path(size: usize, plies: usize) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("openings/{size}s_{plies}ply.txt"))
}

/// Every line replays legally in canonical PTN with `plies` plies, has no comment or blank line,
/// and no two lines are the same opening up to symmetry or transposition.
fn check_book<const N: usize>(plies: usize) {
    let path = book_path(N, plies);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    assert!(text.ends_with('\n'), "{path:?}");
    assert!(text.len() < 1 << 20, "{path:?} is over 1 MiB");
    let mut seen = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let plies_text: Vec<&str> = line.split(' ').collect();
        assert_eq!(plies_text.len(), plies, "{path:?} line {}: {line:?}", i + 1);
        let mut pos = Position::<N>::start();
        for ply in plies_text {
            assert!(!pos.is_over(), "{path:?} line {}", i + 1);
            let mv =
                parse_move(&pos, ply).unwrap_or_else(|e| panic!("{path:?} line {}: {e}", i + 1));
            assert_eq!(mv.ptn::<N>().to_string(), ply, "{path:?} line {}", i + 1);
            pos.make(mv);
        }
        assert!(
            seen.insert(canonical_tps(&pos)),
            "{path:?} line {}: {line} repeats an earlier opening",
            i + 1
        );
    }
    assert!(!seen.is_empty(), "{path:?} is empty");
}

#[test]
fn committed_books_are_valid() {
    for plies in [2, 4] {
        check_book::<4>(plies);
        check_book::<5>(plies);
        check_book::<6>(plies);
        check_book::<7>(plies);
        check_book::<8>(plies);
    }
}
