//! Move generation and rules primitives over a fixed set of positions, single thread.
//!
//! The positions come from seeded random playouts (a tiny xorshift RNG, so they are the same
//! on every run): 64 unfinished positions per size 5, 6 and 7 at plies 10 to 60, plus the
//! midgame TPS positions of the perft bench (one each for 6x6, 7x7 and 8x8). For each size the
//! bench times, over the whole set:
//! - `generate_moves` into one reused [`cairn_tak::movegen::MoveList`];
//! - `count_moves` (bulk counting from the pattern tables);
//! - `make_unmake`: [`Position::make`] + [`Position::unmake`] of every legal move;
//! - `winning_move` (road in one);
//! - `result` ([`Position::result`], the game-end check).
//!
//! Throughput is positions per second, except for `make_unmake`, which counts moves (each
//! move made and taken back once). Before timing, `count_moves` is checked against the
//! generated list for every position.
//!
//! Run with:
//!
//! ```text
//! cargo bench --bench movegen
//! ```
//!
//! The headline number for the project goal is perft on the 6x6 start position at depth 5
//! (1,253,506,520 leaves, single thread); see also `cargo bench --bench perft`:
//!
//! ```text
//! cargo run --release -- perft --size 6 --depth 5
//! ```

use cairn_tak::board::Position;
use cairn_tak::movegen::MoveList;
use cairn_tak::notation::tps;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// Random positions per board size.
const PER_SIZE: usize = 64;
/// The 6x6 midgame position of the perft bench.
const MIDGAME_6: &str = "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42";
/// The 7x7 midgame position of the perft bench.
const MIDGAME_7: &str = "1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41";
/// The 8x8 position of the perft bench with an eight-high stack in the corner.
const TALL_8: &str = "x8/x8/x8/x8/x8/x8/x8/22221111,2,x6 1 9";

/// Xorshift64: tiny, seeded, good enough to pick random moves.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`; the modulo bias does not matter here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `PER_SIZE` unfinished positions reached by random playouts of 10 to 60 plies from the start;
/// a playout whose game ends early is dropped.
fn random_positions<const N: usize>(seed: u64) -> Vec<Position<N>> {
    let mut rng = XorShift(seed);
    let mut positions = Vec::with_capacity(PER_SIZE);
    let mut moves = MoveList::new();
    'playout: while positions.len() < PER_SIZE {
        let plies = 10 + rng.below(51);
        let mut pos = Position::<N>::start();
        for _ in 0..plies {
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.make(moves[rng.below(moves.len())]);
            if pos.is_over() {
                continue 'playout;
            }
        }
        positions.push(pos);
    }
    positions
}

fn parse<const N: usize>(tps: &str) -> Position<N> {
    tps::parse::<N>(tps).unwrap_or_else(|err| panic!("bad TPS {tps:?}: {err}"))
}

/// Times the five primitives over `positions` in a group named after the board size.
fn bench_set<const N: usize>(c: &mut Criterion, positions: Vec<Position<N>>) {
    let lists: Vec<MoveList> = positions.iter().map(Position::legal_moves).collect();
    for (pos, moves) in positions.iter().zip(&lists) {
        assert!(!pos.is_over(), "bench positions must be unfinished");
        assert_eq!(
            pos.count_moves(),
            moves.len() as u64,
            "count_moves disagrees with generate_moves on {}",
            tps::to_tps(pos)
        );
    }
    let n_positions = positions.len() as u64;
    let n_moves: u64 = lists.iter().map(|l| l.len() as u64).sum();
    let tall = lists.iter().map(MoveList::len).max().unwrap_or(0);
    eprintln!(
        "{N}x{N}: {n_positions} positions, {n_moves} legal moves ({:.1} per position, max {tall})",
        n_moves as f64 / n_positions as f64
    );

    let mut group = c.benchmark_group(format!("movegen {N}x{N} ({n_positions} positions)"));
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500));

    group.throughput(Throughput::Elements(n_positions));
    let mut moves = MoveList::new();
    group.bench_function("generate_moves", |b| {
        b.iter(|| {
            let mut total = 0;
            for pos in black_box(&positions) {
                moves.clear();
                pos.generate_moves(&mut moves);
                total += moves.len();
            }
            total
        })
    });
    group.bench_function("count_moves", |b| {
        b.iter(|| {
            black_box(&positions)
                .iter()
                .map(Position::count_moves)
                .sum::<u64>()
        })
    });

    group.throughput(Throughput::Elements(n_moves));
    let mut scratch = positions.clone();
    group.bench_function("make_unmake", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (pos, moves) in black_box(&mut scratch).iter_mut().zip(&lists) {
                for &mv in moves {
                    let undo = pos.make(mv);
                    acc ^= black_box(pos.hash());
                    pos.unmake(mv, undo);
                }
            }
            acc
        })
    });
    assert!(
        scratch == positions,
        "make/unmake did not restore a position"
    );

    group.throughput(Throughput::Elements(n_positions));
    group.bench_function("winning_move", |b| {
        b.iter(|| {
            black_box(&positions)
                .iter()
                .filter(|pos| pos.winning_move().is_some())
                .count()
        })
    });
    group.bench_function("result", |b| {
        b.iter(|| {
            black_box(&positions)
                .iter()
                .filter(|pos| pos.result().is_some())
                .count()
        })
    });
    group.finish();
}

fn movegen_bench(c: &mut Criterion) {
    let five = random_positions::<5>(0x5EED_0005);
    bench_set(c, five);

    let mut six = random_positions::<6>(0x5EED_0006);
    six.push(parse::<6>(MIDGAME_6));
    bench_set(c, six);

    let mut seven = random_positions::<7>(0x5EED_0007);
    seven.push(parse::<7>(MIDGAME_7));
    bench_set(c, seven);

    bench_set(c, vec![parse::<8>(TALL_8)]);
}

criterion_group!(benches, movegen_bench);
criterion_main!(benches);
