//! 5x5 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune texel --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.3); generated, do not edit by hand.
//!
//! Data: t5.txt, t5-s16.txt (size 5, games imported from tiltak-self-5s.ptn s5-vs-tiltak-3s.ptn; size 5, games imported from t5-vs-tiltak-5s.ptn tiltak-self-5s-b.ptn):
//! games not recorded;
//! 48364 positions (43529 training, 4835 validation), 15.2% of them from drawn games.
//! Started from the 5x5 weights; K = 0.002600; 8 rounds of 100 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.075401 -> 0.068488 (validation 0.095630)
//! - round 2: 0.068488 -> 0.068266 (validation 0.095926)
//! - round 3: 0.068266 -> 0.068199 (validation 0.096083)
//! - round 4: 0.068199 -> 0.068167 (validation 0.096182)
//! - round 5: 0.068167 -> 0.068148 (validation 0.096249)
//! - round 6: 0.068148 -> 0.068135 (validation 0.096300)
//! - round 7: 0.068135 -> 0.068126 (validation 0.096342)
//! - round 8: 0.068126 -> 0.068118 (validation 0.096380)
//!
//! Kept round 1: loss 0.075401 -> 0.068488 (rounded weights), validation 0.100358 -> 0.095597.

use super::Weights;

/// The 5x5 weights.
pub const WEIGHTS: Weights = Weights([
    [33, 208],    // flat
    [115, 30],    // wall
    [-53, 34],    // cap
    [-314, 100],  // support_flat
    [166, 291],   // support_wall
    [-68, 314],   // support_cap
    [-61, -96],   // captive_flat
    [242, -83],   // captive_wall
    [188, -19],   // captive_cap
    [190, 35],    // center_0
    [286, -14],   // center_1
    [323, 109],   // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-65, 72],    // span_1
    [-48, 56],    // span_2
    [-27, 62],    // span_3
    [2, -3],      // span_4
    [66, 36],     // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-77, 41],    // line_0
    [-105, 88],   // line_1
    [-128, 104],  // line_2
    [-92, 138],   // line_3
    [-56, 96],    // line_4
    [-176, 192],  // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [279, 400],   // tempo
    [415, 197],   // hard_cap
    [5, 121],     // support_deep
    [-62, -53],   // captive_deep
    [25, -40],    // groups
    [16, -4],     // span_minor
    [50, 50],     // crit_mover
    [-92, -140],  // crit_waiter
    [88, 55],     // crit_capturable
    [232, -80],   // crit_own_wall
    [9, 1],       // crit_blocked
    [27, -22],    // cap_reach
    [18, 57],     // cap_mobility
    [-33, -24],   // wall_block
    [-36, 58],    // wall_near
    [5, -45],     // influence
    [-220, -196], // reserves
    [-1, 51],     // race
    [203, 31],    // cap_center
    [-53, 4],     // exposed
    [145, 36],    // mobility
    [76, -37],    // parity
    [-49, -30],   // psqt_flat_0
    [46, 16],     // psqt_flat_1
    [61, 39],     // psqt_flat_2
    [51, 42],     // psqt_flat_3
    [57, 49],     // psqt_flat_4
    [-61, -60],   // psqt_flat_5
    [0, 0],       // psqt_flat_6
    [0, 0],       // psqt_flat_7
    [0, 0],       // psqt_flat_8
    [0, 0],       // psqt_flat_9
    [-76, -65],   // psqt_wall_0
    [41, -42],    // psqt_wall_1
    [62, 53],     // psqt_wall_2
    [-45, -24],   // psqt_wall_3
    [42, 23],     // psqt_wall_4
    [-60, -56],   // psqt_wall_5
    [0, 0],       // psqt_wall_6
    [0, 0],       // psqt_wall_7
    [0, 0],       // psqt_wall_8
    [0, 0],       // psqt_wall_9
    [-72, -79],   // psqt_cap_0
    [-27, -46],   // psqt_cap_1
    [-58, -65],   // psqt_cap_2
    [57, -39],    // psqt_cap_3
    [26, 46],     // psqt_cap_4
    [61, 67],     // psqt_cap_5
    [0, 0],       // psqt_cap_6
    [0, 0],       // psqt_cap_7
    [0, 0],       // psqt_cap_8
    [0, 0],       // psqt_cap_9
    [43, 41],     // white
]);
