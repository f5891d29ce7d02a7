//! 5x5 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.3); generated, do not edit by hand.
//!
//! Data: t5.txt (size 5, games imported from tiltak-self-5s.ptn s5-vs-tiltak-3s.ptn):
//! games not recorded;
//! 30895 positions (27806 training, 3089 validation), 14.7% of them from drawn games.
//! Started from the 6x6 weights; K = 0.002600; 8 rounds of 100 Adam steps (rate 1, l2 0.0000001, frozen: none); training loss per round:
//! - round 1: 0.071848 -> 0.064393 (validation 0.126397)
//! - round 2: 0.064393 -> 0.064385 (validation 0.126426)
//! - round 3: 0.064385 -> 0.064385 (validation 0.126426)
//! - round 4: 0.064385 -> 0.064385 (validation 0.126426)
//! - round 5: 0.064385 -> 0.064385 (validation 0.126426)
//! - round 6: 0.064385 -> 0.064385 (validation 0.126426)
//! - round 7: 0.064385 -> 0.064385 (validation 0.126426)
//! - round 8: 0.064385 -> 0.064385 (validation 0.126426)
//!
//! Kept round 1: loss 0.071848 -> 0.064391 (rounded weights), validation 0.128551 -> 0.126360.

use super::Weights;

/// The 5x5 weights.
pub const WEIGHTS: Weights = Weights([
    [41, 175],    // flat
    [82, 2],      // wall
    [-37, 117],   // cap
    [-333, 126],  // support_flat
    [248, 234],   // support_wall
    [-148, 292],  // support_cap
    [-66, -106],  // captive_flat
    [206, -76],   // captive_wall
    [153, -39],   // captive_cap
    [166, 36],    // center_0
    [240, 0],     // center_1
    [265, 35],    // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-65, 63],    // span_1
    [-81, 51],    // span_2
    [-55, 52],    // span_3
    [2, 12],      // span_4
    [66, 36],     // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-76, 39],    // line_0
    [-99, 77],    // line_1
    [-142, 106],  // line_2
    [-128, 136],  // line_3
    [-121, 123],  // line_4
    [-176, 192],  // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [227, 352],   // tempo
    [319, 186],   // hard_cap
    [91, 103],    // support_deep
    [-125, -57],  // captive_deep
    [-3, -54],    // groups
    [7, 8],       // span_minor
    [50, 50],     // crit_mover
    [-31, -118],  // crit_waiter
    [42, 38],     // crit_capturable
    [291, -8],    // crit_own_wall
    [-13, 68],    // crit_blocked
    [12, 53],     // cap_reach
    [26, 35],     // cap_mobility
    [41, 30],     // wall_block
    [-85, 62],    // wall_near
    [15, -9],     // influence
    [-227, -159], // reserves
    [7, 38],      // race
    [196, -19],   // cap_center
    [-45, 0],     // exposed
    [144, 32],    // mobility
    [28, -55],    // parity
    [0, 0],       // psqt_flat_0
    [0, 0],       // psqt_flat_1
    [0, 0],       // psqt_flat_2
    [0, 0],       // psqt_flat_3
    [0, 0],       // psqt_flat_4
    [0, 0],       // psqt_flat_5
    [0, 0],       // psqt_flat_6
    [0, 0],       // psqt_flat_7
    [0, 0],       // psqt_flat_8
    [0, 0],       // psqt_flat_9
    [0, 0],       // psqt_wall_0
    [0, 0],       // psqt_wall_1
    [0, 0],       // psqt_wall_2
    [0, 0],       // psqt_wall_3
    [0, 0],       // psqt_wall_4
    [0, 0],       // psqt_wall_5
    [0, 0],       // psqt_wall_6
    [0, 0],       // psqt_wall_7
    [0, 0],       // psqt_wall_8
    [0, 0],       // psqt_wall_9
    [0, 0],       // psqt_cap_0
    [0, 0],       // psqt_cap_1
    [0, 0],       // psqt_cap_2
    [0, 0],       // psqt_cap_3
    [0, 0],       // psqt_cap_4
    [0, 0],       // psqt_cap_5
    [0, 0],       // psqt_cap_6
    [0, 0],       // psqt_cap_7
    [0, 0],       // psqt_cap_8
    [0, 0],       // psqt_cap_9
    [0, 0],       // white
]);
