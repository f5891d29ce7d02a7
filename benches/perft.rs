//! Perft throughput (leaves per second) on fixed positions, single thread.
//!
//! Measures [`cairn_tak::movegen::perft`] on the 5x5 and 6x6 start positions (depth 4), a 6x6
//! midgame and a 7x7 midgame (depth 3) and an 8x8 position with one tall stack (depth 3).
//! Criterion reports leaves/s (`Throughput::Elements(leaves)`). Every leaf count is checked
//! against its reference value once before timing, so a wrong move generator cannot produce a
//! fast-looking number.
//!
//! Run with:
//!
//! ```text
//! cargo bench --bench perft
//! ```
//!
//! The headline number for the project goal is not this bench but the 6x6 start position at
//! depth 5 (1,253,506,520 leaves, single thread):
//!
//! ```text
//! cargo run --release -- perft --size 6 --depth 5
//! ```
//!
//! Perft counts the last ply in bulk from the pattern tables (no generation, no make), so these
//! numbers mostly measure generation plus make/unmake at depth - 1 and `count_moves` at the
//! frontier.

use cairn_tak::board::Position;
use cairn_tak::movegen::perft;
use cairn_tak::notation::tps;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// The 6x6 midgame position.
const MIDGAME_6: &str = "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42";
/// The 7x7 midgame position.
const MIDGAME_7: &str = "1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41";
/// The 8x8 position with an eight-high stack in the corner.
const TALL_8: &str = "x8/x8/x8/x8/x8/x8/x8/22221111,2,x6 1 9";

/// Checks the leaf count of `pos` at `depth`, then times perft on it with leaves/s throughput.
fn bench_position<const N: usize>(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    mut pos: Position<N>,
    depth: u32,
    expected: u64,
) {
    let original = pos.clone();
    let leaves = perft(&mut pos, depth);
    assert_eq!(
        leaves, expected,
        "{name}: perft({depth}) = {leaves}, expected {expected}"
    );
    assert!(
        pos == original,
        "{name}: perft did not restore the position"
    );
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(format!("{name} d{depth}"), |b| {
        b.iter(|| perft(black_box(&mut pos), black_box(depth)))
    });
    assert!(
        pos == original,
        "{name}: perft did not restore the position"
    );
}

fn parse<const N: usize>(tps: &str) -> Position<N> {
    tps::parse::<N>(tps).unwrap_or_else(|err| panic!("bad TPS {tps:?}: {err}"))
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // Each iteration takes milliseconds; short windows keep the whole bench around a minute.
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    bench_position(
        &mut group,
        "5x5 start",
        Position::<5>::start(),
        4,
        2_999_784,
    );
    bench_position(
        &mut group,
        "6x6 start",
        Position::<6>::start(),
        4,
        13_586_048,
    );
    bench_position(
        &mut group,
        "6x6 midgame",
        parse::<6>(MIDGAME_6),
        3,
        2_774_593,
    );
    bench_position(
        &mut group,
        "7x7 midgame",
        parse::<7>(MIDGAME_7),
        3,
        9_102_472,
    );
    bench_position(
        &mut group,
        "8x8 tall stack",
        parse::<8>(TALL_8),
        3,
        43_965_458,
    );
    group.finish();
}

criterion_group!(benches, perft_bench);
criterion_main!(benches);
