//! Evaluation properties: the evaluation is linear in its weights (the search's path equals the
//! tuner's features dotted with the weights), colour- and board-symmetric, and its features have
//! the values worked out by hand on small positions.

use crate::common;

use crate::common::Rng;
use cairn_tak::board::Position;
use cairn_tak::eval::params::{Weights, NAMES, NF, WEIGHTS};
use cairn_tak::eval::{evaluate_linear, evaluate_with, feature, features};
use cairn_tak::notation::tps;

/// Random playout positions and random boards of size `N`.
fn sample<const N: usize>(seed: u64) -> Vec<Position<N>> {
    let mut rng = Rng::new(seed);
    common::mixed_positions::<N>(seed, 12, 150, 200, &mut rng)
}

fn random_weights(rng: &mut Rng) -> Weights {
    let mut w = Weights([[0; 2]; NF]);
    for pair in w.0.iter_mut() {
        *pair = [rng.below(401) as i32 - 200, rng.below(401) as i32 - 200];
    }
    w
}

fn linear<const N: usize>(seed: u64) {
    let mut rng = Rng::new(seed);
    let weights = [
        *WEIGHTS[N],
        random_weights(&mut rng),
        random_weights(&mut rng),
    ];
    for pos in sample::<N>(seed) {
        let f = features(&pos);
        assert_eq!(evaluate_linear(&pos).0, f.dot(WEIGHTS[N]), "{pos:?}");
        for w in &weights {
            let exact = f.dot(w);
            assert_eq!(evaluate_with(&pos, w).0, exact, "{pos:?}");
            // The tuner's real-valued model agrees up to the final truncation.
            let split = f.split();
            let real: f64 = (0..NF)
                .map(|i| {
                    split[2 * i] as f64 * w.0[i][0] as f64
                        + split[2 * i + 1] as f64 * w.0[i][1] as f64
                })
                .sum();
            assert!(
                (real - exact as f64).abs() < 1.01,
                "{pos:?}: {real} vs {exact}"
            );
        }
    }
}

/// `evaluate_linear(pos)` equals the weights dotted with `features(pos)`, for the shipped weights and
/// random ones, on random positions of every size.
#[test]
fn evaluation_is_linear_in_its_weights() {
    for size in 3..=8 {
        cairn_tak::with_size!(size, |N| linear::<N>(10 + size as u64), else unreachable!());
    }
}

fn symmetric<const N: usize>(seed: u64) {
    let mut rng = Rng::new(seed);
    // The colour term (White or Black to move, for komi) changes sign under a colour swap; every
    // other feature stays, so every weighting without that term gives the same value.
    let mut w = random_weights(&mut rng);
    w.0[feature::WHITE] = [0, 0];
    for pos in sample::<N>(seed) {
        let f = features(&pos);
        for symmetry in 1..8 {
            assert_eq!(
                features(&pos.transformed(symmetry)),
                f,
                "{pos:?} symmetry {symmetry}"
            );
        }
        if pos.is_opening() {
            continue;
        }
        // Colours swapped and the other player to move: the same position for the new mover.
        let swapped = pos.color_swapped();
        let mut expected = f.values;
        expected[feature::WHITE] *= -1;
        assert_eq!(features(&swapped).values, expected, "{pos:?}");
        assert_eq!(
            evaluate_with(&swapped, &w),
            evaluate_with(&pos, &w),
            "{pos:?}"
        );
    }
}

/// Every feature is the same under the 8 board symmetries, and under a colour swap (from the side
/// to move's point of view, komi negated) all but the colour term, which changes sign.
#[test]
fn features_are_symmetric() {
    for size in 3..=8 {
        cairn_tak::with_size!(size, |N| symmetric::<N>(50 + size as u64), else unreachable!());
    }
}

fn value(text: &str, index: usize) -> i32 {
    let size = text.split('/').count();
    cairn_tak::with_size!(size, |N| {
        let pos = tps::parse::<N>(text).unwrap();
        features(&pos).values[index]
    }, else unreachable!())
}

/// Black to move, White one flat short of a road on rank 1: the hand-counted features.
#[test]
fn features_of_a_near_road() {
    use feature::*;
    let text = "x6/x6/x6/x6/x6/1,1,1,1,1,x 2 3";
    assert_eq!(value(text, FLAT), -10);
    assert_eq!(value(text, CRIT_WAITER), 1);
    assert_eq!(value(text, CRIT_MOVER), 0);
    assert_eq!(value(text, SPAN + 5), -1);
    assert_eq!(value(text, GROUPS), -1);
    assert_eq!(value(text, SPAN_MINOR), 0);
    // Black: 12 clean empty lines; White: ranks 2-6 and file f empty, files a-e one piece each.
    assert_eq!(value(text, LINE), 12 - 6);
    assert_eq!(value(text, LINE + 1), -5);
    assert_eq!(value(text, LINE + 5), -1);
    assert_eq!(value(text, CENTER), -5);
    assert_eq!(value(text, TEMPO), 1);
    assert_eq!(value(text, RESERVES), 31 - 26);
    assert_eq!(value(text, RACE), 0);
    assert_eq!(value(text, INFLUENCE), 0);
    // Komi 2 (half komi 4) is Black's.
    let mut pos = tps::parse::<6>(text).unwrap();
    pos.set_half_komi(4);
    assert_eq!(features(&pos).values[FLAT], -6);
}

/// Stacks: supports and captives by top type within the carry limit, deeper pieces apart, and
/// hard capstones.
#[test]
fn features_of_stacks() {
    use feature::*;
    // White to move. b1: white flat over (white, black); c1 white wall; d1: black cap on white.
    let text = "x5/x5/x5/x5/2,121,1S,12C,x 1 5";
    assert_eq!(value(text, FLAT), 0);
    assert_eq!(value(text, WALL), 1);
    assert_eq!(value(text, CAP), -1);
    assert_eq!(value(text, SUPPORT_FLAT), 1);
    assert_eq!(value(text, CAPTIVE_FLAT), 1);
    assert_eq!(value(text, CAPTIVE_CAP), -1);
    assert_eq!(value(text, HARD_CAP), 0);
    // d1's cap reaches c1..e1 and d2 (c1 is a wall: still reachable).
    assert_eq!(value(text, CAP_MOBILITY), -3);
    // b1's one own piece within reach, times its open neighbours a1 and b2 (c1 is a wall); the
    // black cap on d1 holds no own piece.
    assert_eq!(value(text, MOBILITY), 2);
    // Black's a1 flat is next to White's stack on b1; White's b1 is not next to the black cap.
    assert_eq!(value(text, EXPOSED), -1);
    // Parity counts only with 10 or fewer empty squares on 5x5. With 9, the side to move
    // would place on the last one; with 8, the other player would.
    assert_eq!(value(text, PARITY), 0);
    assert_eq!(
        value("1,2,1,2,1/2,1,2,1,2/x5/x3,2,1/2,121,1S,12C,x 1 13", PARITY),
        1
    );
    assert_eq!(
        value(
            "1,2,1,2,1/2,1,2,1,2/x5/x2,1,2,1/2,121,1S,12C,x 2 13",
            PARITY
        ),
        0
    );
    // Black to move: a1 black stack 1,2,1,2,1,2 on 4x4 (carry 4): three within reach (1,2,1),
    // two deeper (1,2).
    let text = "x4/x4/x4/121212,x3 2 9";
    assert_eq!(value(text, SUPPORT_FLAT), 1);
    assert_eq!(value(text, CAPTIVE_FLAT), 2);
    assert_eq!(value(text, SUPPORT_DEEP), 1);
    assert_eq!(value(text, CAPTIVE_DEEP), 1);
    assert_eq!(value("x5/x5/x5/x,2C,x3/x5 1 4", CAP_CENTER), -1);
    let hard = "x5/x5/x5/x5/x4,22C 2 4";
    assert_eq!(value(hard, HARD_CAP), 1);
}

/// Critical squares by what stands on them, with capstones and walls around them.
#[test]
fn features_of_critical_squares() {
    use feature::*;
    // White to move: a1 b1 c1 d1 white, e1 black flat (capturable), white cap on e2 next to it
    // (so d2 completes a road too); Black's wall on a2 is next to nothing critical of White's.
    let text = "x5/x5/x5/2S,x3,1C/1,1,1,1,2 1 6";
    assert_eq!(value(text, CRIT_CAPTURABLE), 1);
    assert_eq!(value(text, CRIT_MOVER), 1);
    assert_eq!(value(text, WALL_BLOCK), 0);
    assert_eq!(value(text, CAP_REACH), 1);
    // e1 blocked by a black wall instead; the wall sits next to White's critical square.
    let text = "x5/x5/x5/x4,1C/1,1,1,1,2S 1 6";
    assert_eq!(value(text, CRIT_BLOCKED), 1);
    assert_eq!(value(text, WALL_BLOCK), -1);
    assert_eq!(value(text, CRIT_CAPTURABLE), 0);
}

/// Every size's params file names every feature once, in index order.
#[test]
fn params_files_are_complete() {
    let mut names = NAMES.to_vec();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), NF);
    for (size, weights) in WEIGHTS.iter().enumerate().skip(3) {
        let text = cairn_tak::eval::params::render(size, weights, &[]);
        assert_eq!(text.matches(" // ").count(), NF, "s{size}");
        // Comments aligned in one column, as rustfmt leaves them.
        let mut columns: Vec<usize> = text.lines().filter_map(|l| l.find(" // ")).collect();
        columns.dedup();
        assert_eq!(columns.len(), 1, "s{size}");
    }
}
