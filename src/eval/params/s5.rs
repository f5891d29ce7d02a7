//! 5x5 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 1); generated, do not edit by hand.
//!
//! Data: imp-tiltak-self-5s.txt (size 5, games imported from tiltak-self-5s.ptn):
//! games not recorded;
//! 20628 positions (18566 training, 2062 validation), 14.8% of them from drawn games.
//! Started from the 6x6 weights; K = 0.002600; 10 rounds of 100 Adam steps (rate 1, l2 0.0000001, frozen: none); training loss per round:
//! - round 1: 0.163224 -> 0.146984 (validation 0.159817)
//! - round 2: 0.146984 -> 0.146874 (validation 0.159762)
//! - round 3: 0.146874 -> 0.146874 (validation 0.159762)
//! - round 4: 0.146874 -> 0.146874 (validation 0.159762)
//! - round 5: 0.146874 -> 0.146874 (validation 0.159762)
//! - round 6: 0.146874 -> 0.146874 (validation 0.159762)
//! - round 7: 0.146874 -> 0.146874 (validation 0.159762)
//! - round 8: 0.146874 -> 0.146874 (validation 0.159762)
//! - round 9: 0.146874 -> 0.146874 (validation 0.159762)
//! - round 10: 0.146874 -> 0.146874 (validation 0.159762)
//!
//! Kept round 2: loss 0.163224 -> 0.146864 (rounded weights), validation 0.170485 -> 0.159802.

use super::Weights;

/// The 5x5 weights.
pub const WEIGHTS: Weights = Weights([
    [16, 172],    // flat
    [9, 27],      // wall
    [-68, 57],    // cap
    [-171, 11],   // support_flat
    [185, 191],   // support_wall
    [1, 127],     // support_cap
    [-93, -86],   // captive_flat
    [208, -44],   // captive_wall
    [82, -15],    // captive_cap
    [84, 62],     // center_0
    [232, 27],    // center_1
    [200, 80],    // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-35, 58],    // span_1
    [-52, 41],    // span_2
    [-11, 52],    // span_3
    [93, -21],    // span_4
    [225, -38],   // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-49, 47],    // line_0
    [-58, 26],    // line_1
    [-97, 59],    // line_2
    [-28, 17],    // line_3
    [-47, 4],     // line_4
    [-6, -26],    // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [176, 231],   // tempo
    [41, 335],    // hard_cap
    [215, 53],    // support_deep
    [-157, -33],  // captive_deep
    [41, -73],    // groups
    [62, -14],    // span_minor
    [50, 50],     // crit_mover
    [58, -154],   // crit_waiter
    [-10, 58],    // crit_capturable
    [91, -38],    // crit_own_wall
    [-16, 18],    // crit_blocked
    [-132, 161],  // cap_reach
    [25, 78],     // cap_mobility
    [0, 10],      // wall_block
    [-49, 39],    // wall_near
    [-23, -2],    // influence
    [-138, -153], // reserves
    [76, 26],     // race
    [253, -31],   // cap_center
    [-48, 19],    // exposed
    [91, 75],     // mobility
    [-14, 35],    // parity
]);
