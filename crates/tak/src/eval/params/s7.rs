//! 7x7 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune texel --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.5); generated, do not edit by hand.
//!
//! Data: s7-seed31-01.txt, s7-seed31-02.txt, s7-seed31-03.txt, s7-seed31-04.txt, s7-seed31-05.txt, s7-seed31-06.txt, s7-seed31-07.txt, s7-seed31-08.txt, s7-seed31-09.txt, s7-seed31-10.txt, s7-seed31-11.txt, s7-seed31-12.txt (size 7, half komi 4, 20000 games, 8000 nodes per move, seed 31):
//! 3000 games (7.0% drawn: 1492 white, 1299 black, 209 draws; 1064 roads, 1936 flats);
//! 340323 positions (306298 training, 34025 validation), 7.7% of them from drawn games.
//! Started from the 7x7 weights; K = 0.002600; 3 rounds of 200 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.049785 -> 0.046082 (validation 0.048246)
//! - round 2: 0.046082 -> 0.046067 (validation 0.048259)
//! - round 3: 0.046067 -> 0.046067 (validation 0.048264)
//!
//! Kept round 1: loss 0.049785 -> 0.046084 (rounded weights), validation 0.050306 -> 0.048240.

use super::Weights;

/// The 7x7 weights.
pub const WEIGHTS: Weights = Weights([
    [26, 117],   // flat
    [117, -18],  // wall
    [-199, 2],   // cap
    [-260, 46],  // support_flat
    [257, 192],  // support_wall
    [-147, 156], // support_cap
    [-40, -90],  // captive_flat
    [138, -61],  // captive_wall
    [167, -58],  // captive_cap
    [57, 20],    // center_0
    [139, 19],   // center_1
    [232, 36],   // center_2
    [57, 42],    // center_3
    [0, 0],      // span_0
    [-58, 51],   // span_1
    [-38, 59],   // span_2
    [-26, 77],   // span_3
    [7, 70],     // span_4
    [69, 72],    // span_5
    [124, 76],   // span_6
    [0, 0],      // span_7
    [0, 0],      // span_8
    [-75, 19],   // line_0
    [-57, 55],   // line_1
    [-33, 41],   // line_2
    [-14, 36],   // line_3
    [48, 21],    // line_4
    [85, 51],    // line_5
    [66, 92],    // line_6
    [0, 0],      // line_7
    [0, 0],      // line_8
    [219, 217],  // tempo
    [331, -2],   // hard_cap
    [-81, 106],  // support_deep
    [-13, -95],  // captive_deep
    [46, -53],   // groups
    [3, 10],     // span_minor
    [50, 50],    // crit_mover
    [-80, -132], // crit_waiter
    [53, 23],    // crit_capturable
    [10, 79],    // crit_own_wall
    [-83, 52],   // crit_blocked
    [51, 35],    // cap_reach
    [31, 47],    // cap_mobility
    [-32, 30],   // wall_block
    [-33, 39],   // wall_near
    [3, -8],     // influence
    [-195, -79], // reserves
    [-82, 47],   // race
    [118, -27],  // cap_center
    [-8, -5],    // exposed
    [96, 40],    // mobility
    [-47, -9],   // parity
    [-63, 26],   // psqt_flat_0
    [10, -4],    // psqt_flat_1
    [0, -8],     // psqt_flat_2
    [67, 0],     // psqt_flat_3
    [23, -3],    // psqt_flat_4
    [-69, -21],  // psqt_flat_5
    [73, -3],    // psqt_flat_6
    [32, -11],   // psqt_flat_7
    [-63, -24],  // psqt_flat_8
    [-26, 4],    // psqt_flat_9
    [-141, 45],  // psqt_wall_0
    [-15, 24],   // psqt_wall_1
    [-45, 81],   // psqt_wall_2
    [2, 63],     // psqt_wall_3
    [-34, 86],   // psqt_wall_4
    [-153, 100], // psqt_wall_5
    [40, 40],    // psqt_wall_6
    [-9, 48],    // psqt_wall_7
    [-157, 52],  // psqt_wall_8
    [-165, -25], // psqt_wall_9
    [-197, -56], // psqt_cap_0
    [-19, -7],   // psqt_cap_1
    [-183, -25], // psqt_cap_2
    [-187, 20],  // psqt_cap_3
    [-5, -38],   // psqt_cap_4
    [45, -5],    // psqt_cap_5
    [-57, 12],   // psqt_cap_6
    [25, -41],   // psqt_cap_7
    [65, -24],   // psqt_cap_8
    [160, 14],   // psqt_cap_9
    [-43, 69],   // white
]);
