//! Perft against public reference counts (tests/data/perft.tsv and perft_extra.tsv), plus
//! counts derived from first principles: opening move counts and the "max spreads" formula.
//!
//! Counts up to `QUICK_LIMIT` leaves run by default; deeper ones are `#[ignore]`d and run with
//! `cargo test --release -- --ignored` (they take minutes on two cores).

use crate::common::{perft_rows, PerftRow};
use cairn_tak::board::Position;
use cairn_tak::movegen::{perft, perft_parallel};
use cairn_tak::notation::tps;

/// Largest expected count checked by the default test run.
const QUICK_LIMIT: u64 = 300_000_000;

fn check(row: &PerftRow, keep: impl Fn(u64) -> bool, threads: usize) -> usize {
    let mut checked = 0;
    cairn_tak::with_size!(row.size, |N| {
        let mut pos = tps::parse::<N>(&row.tps)
            .unwrap_or_else(|e| panic!("line {}: {e}", row.line));
        for (i, &expected) in row.counts.iter().enumerate() {
            if !keep(expected) {
                continue;
            }
            let depth = i as u32 + 1;
            let got = if threads > 1 {
                perft_parallel(&pos, depth, threads)
            } else {
                perft(&mut pos, depth)
            };
            assert_eq!(got, expected, "{} depth {depth} (line {})", row.tps, row.line);
            checked += 1;
        }
    }, else panic!("size {}", row.size));
    checked
}

fn all_rows() -> Vec<PerftRow> {
    let mut rows = perft_rows("perft.tsv");
    rows.extend(perft_rows("perft_extra.tsv"));
    rows
}

#[test]
fn reference_counts_quick() {
    let checked: usize = all_rows()
        .iter()
        .map(|row| check(row, |n| n <= QUICK_LIMIT, 1))
        .sum();
    assert!(checked > 100, "only {checked} counts checked");
}

#[test]
#[ignore = "deep perft: minutes; run with --ignored"]
fn reference_counts_deep() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for row in all_rows() {
        check(&row, |n| n > QUICK_LIMIT, threads);
    }
}

/// At the start every square takes a flat (of the opponent's colour), so n² moves; after one
/// placement n² − 1; after both opening plies in opposite corners every empty square takes a
/// flat, a wall and (where the size has them) a capstone, plus one spread each way from the
/// mover's corner flat.
#[test]
fn opening_move_counts() {
    fn sized<const N: usize>() {
        let n2 = (N * N) as u64;
        let mut pos = Position::<N>::start();
        assert_eq!(perft(&mut pos, 1), n2);
        let mv = cairn_tak::notation::parse_move(&pos, "a1").unwrap();
        pos.make(mv);
        assert_eq!(perft(&mut pos, 1), n2 - 1);
        let last = format!("{}{}", (b'a' + N as u8 - 1) as char, N);
        let mv = cairn_tak::notation::parse_move(&pos, &last).unwrap();
        pos.make(mv);
        let kinds = if Position::<N>::CAPSTONES > 0 { 3 } else { 2 };
        assert_eq!(perft(&mut pos, 1), kinds * (n2 - 2) + 2);
    }
    sized::<3>();
    sized::<4>();
    sized::<5>();
    sized::<6>();
    sized::<7>();
    sized::<8>();
}

/// Tall white stacks on the diagonal: each direction with d open squares and carry limit c
/// gives Σ_{k≤c} (compositions of k into at most d parts) spreads. The peer-engines P.4 table
/// gives 48, 136, 360, 834, 1890 and 4232 moves for sizes 3 to 8.
#[test]
fn max_spreads_diagonal() {
    fn sized<const N: usize>(stack: &str, move_number: u32, expected: u64) {
        let rows: Vec<String> = (0..N)
            .map(|r| {
                let file = N - 1 - r; // row r from the top holds the stack on this file
                let mut cells = Vec::new();
                if file > 0 {
                    cells.push(format!("x{file}"));
                }
                cells.push(stack.to_string());
                if file < N - 1 {
                    cells.push(format!("x{}", N - 1 - file));
                }
                cells.join(",")
            })
            .collect();
        let text = format!("{} 1 {move_number}", rows.join("/"));
        let mut pos = tps::parse::<N>(&text).unwrap();
        assert_eq!(perft(&mut pos, 1), expected, "{text}");
    }
    sized::<3>("12121", 9, 48);
    sized::<4>("12121", 5, 136);
    sized::<5>("1212121", 20, 360);
    sized::<6>("1212121", 24, 834);
    sized::<7>("121212121", 35, 1890);
    sized::<8>("12121212121", 48, 4232);
}

/// Spec vector 15: the same moves on 5×5 with `1c4+` instead of `1c4-` leave a 6-high stack,
/// so `5c3>` is legal and `6c3>` is over the carry limit.
#[test]
fn carry_limit_in_a_game() {
    let mut pos = Position::<5>::start();
    for text in "c2 c3 d3 b3 c4 1c2+ 1d3< 1b3> 1c4+ Cc2 a1 1c2+ a2".split(' ') {
        let mv = cairn_tak::notation::parse_move(&pos, text).unwrap();
        pos.make(mv);
    }
    assert!(cairn_tak::notation::parse_move(&pos, "5c3>").is_ok());
    assert!(cairn_tak::notation::parse_move(&pos, "6c3>").is_err());
}

/// Topaz's test counts only the spreads of this position: 80 (its 34 empty squares add 102
/// placements).
#[test]
fn spread_only_count() {
    let pos = tps::parse::<6>("x6/x6/x2,2,12121,x2/x6/x6/x6 1 6").unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.iter().filter(|m| !m.is_placement()).count(), 80);
    assert_eq!(moves.len(), 80 + 34 * 3);
}
