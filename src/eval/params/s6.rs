//! 6x6 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.3); generated, do not edit by hand.
//!
//! Data: t6-tself.txt, t6-vs.txt (size 6, games imported from tiltak-self-6s.ptn; size 6, games imported from base-vs-tiltak-3s.ptn v1-vs-tiltak-3s.ptn v1-vs-tiltak-ref.ptn):
//! games not recorded;
//! 117984 positions (106187 training, 11797 validation), 9.0% of them from drawn games.
//! Started from the 6x6 weights; K = 0.002600; 8 rounds of 100 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.067954 -> 0.062887 (validation 0.067873)
//! - round 2: 0.062887 -> 0.062710 (validation 0.067447)
//! - round 3: 0.062710 -> 0.062642 (validation 0.067261)
//! - round 4: 0.062642 -> 0.062604 (validation 0.067181)
//! - round 5: 0.062604 -> 0.062578 (validation 0.067148)
//! - round 6: 0.062578 -> 0.062561 (validation 0.067135)
//! - round 7: 0.062561 -> 0.062550 (validation 0.067133)
//! - round 8: 0.062550 -> 0.062543 (validation 0.067136)
//!
//! Kept round 7: loss 0.067954 -> 0.062552 (rounded weights), validation 0.082795 -> 0.067162.

use super::Weights;

/// The 6x6 weights.
pub const WEIGHTS: Weights = Weights([
    [84, 152],    // flat
    [80, -9],     // wall
    [-39, 117],   // cap
    [-330, 137],  // support_flat
    [255, 236],   // support_wall
    [-159, 276],  // support_cap
    [-81, -112],  // captive_flat
    [210, -77],   // captive_wall
    [128, -74],   // captive_cap
    [165, 7],     // center_0
    [225, 3],     // center_1
    [237, 5],     // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-57, 74],    // span_1
    [-84, 53],    // span_2
    [-62, 42],    // span_3
    [0, 9],       // span_4
    [66, 36],     // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-55, 59],    // line_0
    [-94, 78],    // line_1
    [-164, 102],  // line_2
    [-137, 101],  // line_3
    [-125, 118],  // line_4
    [-176, 192],  // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [223, 348],   // tempo
    [318, 187],   // hard_cap
    [97, 107],    // support_deep
    [-131, -63],  // captive_deep
    [-6, -53],    // groups
    [-5, 2],      // span_minor
    [50, 50],     // crit_mover
    [-28, -116],  // crit_waiter
    [31, 23],     // crit_capturable
    [292, -6],    // crit_own_wall
    [-13, 78],    // crit_blocked
    [11, 64],     // cap_reach
    [16, 30],     // cap_mobility
    [46, 33],     // wall_block
    [-87, 54],    // wall_near
    [1, -10],     // influence
    [-230, -151], // reserves
    [6, 22],      // race
    [191, -24],   // cap_center
    [-42, 0],     // exposed
    [129, 21],    // mobility
    [23, -61],    // parity
]);
