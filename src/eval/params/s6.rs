//! 6x6 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 1); generated, do not edit by hand.
//!
//! Data: imp-base-vs-tiltak.txt, imp-tiltak-self-a.txt (settings not recorded):
//! games not recorded;
//! 78839 positions (70956 training, 7883 validation), 6.7% of them from drawn games.
//! K = 0.002600; 10 rounds of 100 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.231216 -> 0.155253 (validation 0.150221)
//! - round 2: 0.155253 -> 0.153264 (validation 0.148596)
//! - round 3: 0.153264 -> 0.152415 (validation 0.148167)
//! - round 4: 0.152415 -> 0.151872 (validation 0.148051)
//! - round 5: 0.151872 -> 0.151483 (validation 0.148011)
//! - round 6: 0.151483 -> 0.151188 (validation 0.147987)
//! - round 7: 0.151188 -> 0.150956 (validation 0.147968)
//! - round 8: 0.150956 -> 0.150772 (validation 0.147954)
//! - round 9: 0.150772 -> 0.150624 (validation 0.147949)
//! - round 10: 0.150624 -> 0.150504 (validation 0.147952)
//!
//! Kept round 9: loss 0.231216 -> 0.150625 (rounded weights), validation 0.228463 -> 0.148042.

use super::Weights;

/// The 6x6 weights.
pub const WEIGHTS: Weights = Weights([
    [64, 124],    // flat
    [-1, 18],     // wall
    [-77, 56],    // cap
    [-166, 21],   // support_flat
    [183, 175],   // support_wall
    [-18, 95],    // support_cap
    [-91, -86],   // captive_flat
    [194, -57],   // captive_wall
    [77, -36],    // captive_cap
    [146, 43],    // center_0
    [176, 23],    // center_1
    [148, 48],    // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-28, 56],    // span_1
    [-49, 51],    // span_2
    [-16, 37],    // span_3
    [87, -25],    // span_4
    [225, -38],   // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-24, 77],    // line_0
    [-62, 36],    // line_1
    [-141, 41],   // line_2
    [-29, -26],   // line_3
    [-58, -3],    // line_4
    [-6, -26],    // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [170, 199],   // tempo
    [40, 336],    // hard_cap
    [228, 75],    // support_deep
    [-168, -44],  // captive_deep
    [41, -83],    // groups
    [42, -17],    // span_minor
    [50, 50],     // crit_mover
    [71, -147],   // crit_waiter
    [-31, 40],    // crit_capturable
    [92, -34],    // crit_own_wall
    [-24, 16],    // crit_blocked
    [-135, 178],  // cap_reach
    [-13, 80],    // cap_mobility
    [-1, 7],      // wall_block
    [-64, 13],    // wall_near
    [-27, 14],    // influence
    [-118, -126], // reserves
    [77, -5],     // race
    [243, -28],   // cap_center
    [-59, -5],    // exposed
    [66, 49],     // mobility
    [-18, 24],    // parity
]);
