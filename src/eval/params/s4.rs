//! 4x4 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.3); generated, do not edit by hand.
//!
//! Data: t4.txt (size 4, games imported from tiltak-self-4s.ptn m1-4s-snap.ptn):
//! games not recorded;
//! 3410 positions (3069 training, 341 validation), 6.5% of them from drawn games.
//! Started from the 5x5 weights; K = 0.002600; 8 rounds of 100 Adam steps (rate 1, l2 0.0000001, frozen: none); training loss per round:
//! - round 1: 0.062407 -> 0.051660 (validation 0.148391)
//! - round 2: 0.051660 -> 0.051222 (validation 0.149781)
//! - round 3: 0.051222 -> 0.051150 (validation 0.149870)
//! - round 4: 0.051150 -> 0.051140 (validation 0.149869)
//! - round 5: 0.051140 -> 0.051139 (validation 0.149869)
//! - round 6: 0.051139 -> 0.051139 (validation 0.149869)
//! - round 7: 0.051139 -> 0.051139 (validation 0.149869)
//! - round 8: 0.051139 -> 0.051139 (validation 0.149869)
//!
//! Kept round 0: loss 0.062407 -> 0.062407 (rounded weights), validation 0.141416 -> 0.141416.

use super::Weights;

/// The 4x4 weights.
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
