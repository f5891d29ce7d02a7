//! Search behaviour through the library: immediate wins are played, proven scores are right,
//! MultiPV's lines and answer agree.

use crate::common::random_positions;
use cairn_search::repetition::PositionHashes;
use cairn_search::score::WinKind;
use cairn_search::{
    search, search_to_depth, Limits, SearchConfig, SearchGame, SearchInfo, TranspositionTable,
};
use cairn_tak::board::{GameResult, Position};
use cairn_tak::notation::parse_move;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

fn best<const N: usize>(
    pos: &Position<N>,
    depth: u32,
) -> cairn_search::SearchResult<cairn_tak::board::Move> {
    search_to_depth(pos, depth, &TranspositionTable::new(4))
}

fn immediate_wins<const N: usize>(seed: u64) -> usize {
    let mut checked = 0;
    for pos in random_positions::<N>(seed, 150, 400) {
        if pos.is_over() {
            continue;
        }
        let me = pos.side_to_move();
        let road = pos.winning_move().is_some();
        let flat = pos.flat_win_in_one().is_some();
        if !road && !flat {
            continue;
        }
        checked += 1;
        for depth in [1, 3] {
            let result = best(&pos, depth);
            let mv = result.best.expect("a move");
            let mut child = pos.clone();
            child.make(mv);
            let won = child.result().and_then(|r| r.winner()) == Some(me);
            assert!(
                won,
                "depth {depth}: {} does not win in {pos:?}",
                mv.ptn::<N>()
            );
            let kind = if road {
                WinKind::Outright
            } else {
                WinKind::Count
            };
            assert_eq!(result.score.proven(), Some((true, 1, kind)), "{pos:?}");
        }
    }
    checked
}

/// Whenever the side to move can win at once, by a road or on flats, the search plays such a
/// move at any depth and scores it as a win in one ply of the right kind.
#[test]
fn immediate_wins_are_played() {
    let checked = immediate_wins::<3>(1) + immediate_wins::<4>(2) + immediate_wins::<5>(3);
    assert!(checked > 50, "only {checked} positions");
}

/// A finished game still yields a legal move (the engine must always answer `go`).
#[test]
fn finished_game_still_answers() {
    let pos = cairn_tak::notation::tps::parse::<3>("1,1,1/2,2,x/x3 2 3").unwrap();
    assert!(matches!(pos.result(), Some(GameResult::Road(_))));
    assert!(best(&pos, 2).best.is_some());
}

/// Correction history: an entry moves toward the errors it is given (more for deeper
/// searches), stays within the limit, is kept per side to move and per key (a position sharing
/// one of its two keys gets half), and a new game clears it.
#[test]
fn correction_history_learns_per_side_and_key() {
    use cairn_search::params::CORR_LIMIT;
    use cairn_search::HistoryTables;
    use cairn_tak::board::Move;
    let mut h = HistoryTables::<Move>::default();
    let keys = [11u64, 22];
    assert_eq!(h.correction(0, keys), 0);
    h.update_correction(0, keys, 120, 0);
    let shallow = h.correction(0, keys);
    let mut deep = HistoryTables::<Move>::default();
    deep.update_correction(0, keys, 120, 12);
    assert!(
        0 <= shallow && shallow < deep.correction(0, keys),
        "{shallow}"
    );
    for _ in 0..300 {
        h.update_correction(0, keys, 120, 20);
    }
    let learned = h.correction(0, keys);
    assert!((110..=120).contains(&learned), "{learned}");
    assert_eq!(
        h.correction(1, keys),
        0,
        "the other side to move has its own"
    );
    assert_eq!(h.correction(0, [33, 44]), 0, "other keys have their own");
    let half = h.correction(0, [11, 44]);
    assert!(
        (learned / 2 - 1..=learned / 2 + 1).contains(&half),
        "{half}"
    );
    for _ in 0..300 {
        h.update_correction(1, keys, -100_000, 20);
    }
    let floor = h.correction(1, keys);
    assert!((-CORR_LIMIT..=-CORR_LIMIT + 10).contains(&floor), "{floor}");
    h.clear();
    assert_eq!(h.correction(0, keys), 0);
}

/// 3×3 is solved by the search from the empty board: White wins in 13 plies at any komi up to
/// 3 (by a road; at komi 3, when a road cannot be forced in time, on flats). So the 3×3
/// evaluation never decides a game: its weights stay hand-set (see `eval::params::s3`).
#[test]
fn three_by_three_is_a_proven_white_win_from_the_start() {
    for (half_komi, kind) in [
        (0, WinKind::Outright),
        (4, WinKind::Outright),
        (6, WinKind::Count),
    ] {
        let mut pos = Position::<3>::start();
        pos.set_half_komi(half_komi);
        let result = best(&pos, 17);
        assert_eq!(
            result.score.proven(),
            Some((true, 13, kind)),
            "komi {half_komi} half flats: {:?}",
            result.score.proven()
        );
    }
}

/// The time manager plans for one move per piece in hand and six more (games outlast the
/// reserves, as spreads use none), and never for fewer than ten.
#[test]
fn moves_left_counts_the_reserves_and_the_endgame_after_them() {
    use cairn_search::SearchGame;
    let start = Position::<6>::start();
    assert_eq!(start.moves_left(), 31 + 6);
    let three = Position::<3>::start();
    assert_eq!(three.moves_left(), 10 + 6);
    // 5×5 after the opening: 20 stones and the capstone in hand.
    let five: Position<5> = cairn_tak::notation::tps::parse("2,x4/x5/x5/x5/x4,1 1 2").unwrap();
    assert_eq!(five.moves_left(), 21 + 6);
    // White to move with 4 stones and no capstone left: 4 + 6, and never fewer than 10.
    let late: Position<6> = cairn_tak::notation::tps::parse(
        "1,12121S,1,1,x2/12,2S,21S,1211112C,121,x/1,x,2221S,2,1,x/1,x,2,x,21221C,2/2,1221,2,x,2,x/2,x,112S,x,112,x 1 47",
    )
    .unwrap();
    assert_eq!(late.moves_left(), 10);
}

/// The lines of one MultiPV iteration as reported: best first, distinct first moves, legal.
fn assert_lines_sorted<const N: usize>(pos: &Position<N>, lines: &[SearchInfo], case: &str) {
    let indices: Vec<usize> = lines.iter().map(|l| l.multipv).collect();
    let expected: Vec<usize> = (1..=lines.len()).collect();
    assert_eq!(indices, expected, "{case}: {lines:?}");
    assert!(
        lines.windows(2).all(|w| w[0].score >= w[1].score),
        "{case}: lines not best first: {lines:?}"
    );
    let firsts: HashSet<&String> = lines.iter().map(|l| &l.pv[0]).collect();
    assert_eq!(firsts.len(), lines.len(), "{case}: {lines:?}");
    for line in lines {
        assert!(parse_move(pos, &line.pv[0]).is_ok(), "{case}: {line:?}");
    }
}

/// Runs one search of `pos` on one thread and checks what MultiPV promises: each iteration
/// reports its lines best first with distinct first moves, every iteration but a cut-short
/// first one has all its lines, and the result (move, score, depth, line) is the first line of
/// the last iteration reported, however the limits cut the search.
fn check_multipv<const N: usize>(pos: &Position<N>, multipv: usize, limits: &Limits, case: &str) {
    let reported = Mutex::new(Vec::new());
    let report = |info: &SearchInfo| reported.lock().unwrap().push(info.clone());
    let config = SearchConfig {
        multipv,
        ..SearchConfig::default()
    };
    let tt = TranspositionTable::new(4);
    let history = PositionHashes::new(pos.hash());
    let stop = AtomicBool::new(false);
    let result = search(pos, &history, limits, &config, &tt, &stop, &report);
    let reported = reported.into_inner().unwrap();
    let lines = multipv.min(pos.legal_moves().len());
    let mut iterations: Vec<&[SearchInfo]> = reported.chunk_by(|a, b| a.depth == b.depth).collect();
    let last = iterations.pop().expect("an iteration");
    for (i, iteration) in iterations.iter().enumerate() {
        assert_eq!(
            iteration.len(),
            lines,
            "{case}: iteration {i}: {iteration:?}"
        );
        assert_lines_sorted(pos, iteration, case);
    }
    assert_lines_sorted(pos, last, case);
    // Only a first iteration cut short has fewer lines.
    assert!(
        last.len() == lines || iterations.is_empty(),
        "{case}: {last:?}"
    );
    let text = |m| <Position<N> as SearchGame>::move_text(m);
    assert_eq!(
        result.best.map(text).as_ref(),
        Some(&last[0].pv[0]),
        "{case}"
    );
    assert_eq!(result.score, last[0].score, "{case}");
    assert_eq!(result.depth, last[0].depth, "{case}");
    let pv: Vec<String> = result.pv.iter().map(|&m| text(m)).collect();
    assert_eq!(pv, last[0].pv, "{case}");
    if let Some(depth) = limits.depth {
        assert!(result.depth <= depth, "{case}");
    }
}

/// MultiPV's lines and the search's answer agree: for 1, 2, 3 and 5 lines, at fixed depths and
/// at node counts that cut iterations short (on one thread, reproducible), on opening and
/// middle-game positions of 5x5 and 6x6.
#[test]
fn multipv_answer_is_the_first_of_its_sorted_lines() {
    let mut six = Position::<6>::start();
    for m in ["a1", "f6", "d4", "c3", "d3"] {
        six.make(parse_move(&six, m).unwrap());
    }
    let mut five = random_positions::<5>(11, 6, 18);
    five.retain(|p| !p.is_over() && p.legal_moves().len() > 8);
    let fives = [
        Position::<5>::start(),
        five[five.len() / 2].clone(),
        five[five.len() - 1].clone(),
    ];
    let limits = [
        Limits {
            depth: Some(1),
            ..Limits::default()
        },
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        Limits {
            nodes: Some(1500),
            ..Limits::default()
        },
        Limits {
            nodes: Some(9000),
            ..Limits::default()
        },
        Limits {
            nodes: Some(25_000),
            ..Limits::default()
        },
    ];
    for multipv in [1, 2, 3, 5] {
        for limit in &limits {
            check_multipv(
                &six,
                multipv,
                limit,
                &format!("6x6 MultiPV {multipv} {limit:?}"),
            );
            for (i, pos) in fives.iter().enumerate() {
                let case = format!("5x5 #{i} MultiPV {multipv} {limit:?}");
                check_multipv(pos, multipv, limit, &case);
            }
        }
    }
}
