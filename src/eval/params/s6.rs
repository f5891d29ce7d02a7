//! 6x6 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.3); generated, do not edit by hand.
//!
//! Data: t6-tself.txt, t6-vs.txt (size 6, games imported from tiltak-self-6s.ptn; size 6, games imported from base-vs-tiltak-3s.ptn v1-vs-tiltak-3s.ptn v1-vs-tiltak-ref.ptn):
//! games not recorded;
//! 117984 positions (106187 training, 11797 validation), 9.0% of them from drawn games.
//! Started from the 6x6 weights; K = 0.002600; 8 rounds of 100 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.062552 -> 0.059000 (validation 0.063558)
//! - round 2: 0.059000 -> 0.058875 (validation 0.063494)
//! - round 3: 0.058875 -> 0.058858 (validation 0.063502)
//! - round 4: 0.058858 -> 0.058850 (validation 0.063493)
//! - round 5: 0.058850 -> 0.058847 (validation 0.063485)
//! - round 6: 0.058847 -> 0.058846 (validation 0.063480)
//! - round 7: 0.058846 -> 0.058846 (validation 0.063477)
//! - round 8: 0.058846 -> 0.058845 (validation 0.063476)
//!
//! Kept round 8: loss 0.062552 -> 0.058847 (rounded weights), validation 0.067162 -> 0.063474.

use super::Weights;

/// The 6x6 weights.
pub const WEIGHTS: Weights = Weights([
    [78, 154],    // flat
    [229, -82],   // wall
    [-47, 81],    // cap
    [-292, 130],  // support_flat
    [261, 233],   // support_wall
    [-72, 269],   // support_cap
    [-101, -114], // captive_flat
    [224, -86],   // captive_wall
    [190, -86],   // captive_cap
    [147, -4],    // center_0
    [200, -9],    // center_1
    [337, 16],    // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-55, 76],    // span_1
    [-69, 76],    // span_2
    [-43, 77],    // span_3
    [21, 48],     // span_4
    [89, 67],     // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-115, 81],   // line_0
    [-129, 103],  // line_1
    [-163, 116],  // line_2
    [-120, 119],  // line_3
    [-76, 136],   // line_4
    [-101, 216],  // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [270, 338],   // tempo
    [352, 181],   // hard_cap
    [119, 115],   // support_deep
    [-155, -71],  // captive_deep
    [3, -29],     // groups
    [-1, 15],     // span_minor
    [50, 50],     // crit_mover
    [-66, -115],  // crit_waiter
    [33, 44],     // crit_capturable
    [205, 11],    // crit_own_wall
    [-59, 90],    // crit_blocked
    [25, 36],     // cap_reach
    [11, 10],     // cap_mobility
    [-20, 42],    // wall_block
    [-102, 62],   // wall_near
    [-2, -19],    // influence
    [-258, -135], // reserves
    [-6, 21],     // race
    [163, 14],    // cap_center
    [-34, -6],    // exposed
    [130, 21],    // mobility
    [43, -64],    // parity
    [-63, -4],    // psqt_flat_0
    [17, -2],     // psqt_flat_1
    [9, -5],      // psqt_flat_2
    [54, 12],     // psqt_flat_3
    [74, 22],     // psqt_flat_4
    [-99, -40],   // psqt_flat_5
    [0, 0],       // psqt_flat_6
    [0, 0],       // psqt_flat_7
    [0, 0],       // psqt_flat_8
    [0, 0],       // psqt_flat_9
    [-26, -63],   // psqt_wall_0
    [-116, 58],   // psqt_wall_1
    [51, 40],     // psqt_wall_2
    [84, 38],     // psqt_wall_3
    [-33, 63],    // psqt_wall_4
    [-5, -10],    // psqt_wall_5
    [0, 0],       // psqt_wall_6
    [0, 0],       // psqt_wall_7
    [0, 0],       // psqt_wall_8
    [0, 0],       // psqt_wall_9
    [-197, 44],   // psqt_cap_0
    [101, 15],    // psqt_cap_1
    [-187, -72],  // psqt_cap_2
    [9, -35],     // psqt_cap_3
    [-13, -2],    // psqt_cap_4
    [102, 38],    // psqt_cap_5
    [0, 0],       // psqt_cap_6
    [0, 0],       // psqt_cap_7
    [0, 0],       // psqt_cap_8
    [0, 0],       // psqt_cap_9
    [-27, 17],    // white
]);
