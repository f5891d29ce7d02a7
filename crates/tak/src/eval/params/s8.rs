//! 8x8 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune texel --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.5); generated, do not edit by hand.
//!
//! Data: s8-seed41-01.txt, s8-seed41-02.txt, s8-seed41-03.txt, s8-seed41-04.txt, s8-seed41-05.txt, s8-seed41-06.txt, s8-seed41-07.txt, s8-seed41-08.txt, s8-seed41-09.txt, s8-seed41-11.txt, s8-seed41-13.txt, s8-seed41-14.txt (size 8, half komi 4, 20000 games, 8000 nodes per move, seed 41):
//! 3000 games (4.2% drawn: 1458 white, 1415 black, 127 draws; 1594 roads, 1406 flats);
//! 391031 positions (351932 training, 39099 validation), 5.1% of them from drawn games.
//! Started from the 8x8 weights; K = 0.002600; 3 rounds of 200 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.058204 -> 0.051686 (validation 0.050086)
//! - round 2: 0.051686 -> 0.051620 (validation 0.050177)
//! - round 3: 0.051620 -> 0.051615 (validation 0.050195)
//!
//! Kept round 1: loss 0.058204 -> 0.051688 (rounded weights), validation 0.053102 -> 0.050077.

use super::Weights;

/// The 8x8 weights.
pub const WEIGHTS: Weights = Weights([
    [21, 101],   // flat
    [68, -50],   // wall
    [-186, 15],  // cap
    [-265, 61],  // support_flat
    [228, 163],  // support_wall
    [-135, 164], // support_cap
    [-44, -69],  // captive_flat
    [150, -58],  // captive_wall
    [185, -63],  // captive_cap
    [65, 1],     // center_0
    [124, 2],    // center_1
    [218, 40],   // center_2
    [75, 7],     // center_3
    [0, 0],      // span_0
    [-72, 46],   // span_1
    [-50, 55],   // span_2
    [-37, 63],   // span_3
    [-35, 86],   // span_4
    [3, 94],     // span_5
    [69, 56],    // span_6
    [104, 82],   // span_7
    [0, 0],      // span_8
    [-42, 32],   // line_0
    [-21, 51],   // line_1
    [-17, 74],   // line_2
    [8, 50],     // line_3
    [33, 49],    // line_4
    [64, 68],    // line_5
    [128, 61],   // line_6
    [138, 93],   // line_7
    [0, 0],      // line_8
    [191, 173],  // tempo
    [227, 59],   // hard_cap
    [-81, 96],   // support_deep
    [-34, -68],  // captive_deep
    [48, -29],   // groups
    [15, -2],    // span_minor
    [50, 50],    // crit_mover
    [-67, -139], // crit_waiter
    [38, 56],    // crit_capturable
    [-1, 92],    // crit_own_wall
    [-87, 60],   // crit_blocked
    [59, 11],    // cap_reach
    [15, 26],    // cap_mobility
    [-7, 31],    // wall_block
    [16, 33],    // wall_near
    [11, -12],   // influence
    [-169, -61], // reserves
    [-56, 38],   // race
    [113, 15],   // cap_center
    [-9, 2],     // exposed
    [97, 22],    // mobility
    [-99, 29],   // parity
    [-86, 19],   // psqt_flat_0
    [7, -21],    // psqt_flat_1
    [-33, 21],   // psqt_flat_2
    [21, 13],    // psqt_flat_3
    [6, -5],     // psqt_flat_4
    [-100, -41], // psqt_flat_5
    [29, 1],     // psqt_flat_6
    [19, 6],     // psqt_flat_7
    [-78, -50],  // psqt_flat_8
    [-17, -23],  // psqt_flat_9
    [-152, 14],  // psqt_wall_0
    [-105, 50],  // psqt_wall_1
    [-58, 31],   // psqt_wall_2
    [-36, 77],   // psqt_wall_3
    [-121, 97],  // psqt_wall_4
    [-210, 79],  // psqt_wall_5
    [15, 38],    // psqt_wall_6
    [-30, 51],   // psqt_wall_7
    [-198, 70],  // psqt_wall_8
    [-42, -22],  // psqt_wall_9
    [-204, 42],  // psqt_cap_0
    [45, -22],   // psqt_cap_1
    [-243, 9],   // psqt_cap_2
    [33, -19],   // psqt_cap_3
    [-48, -35],  // psqt_cap_4
    [29, -8],    // psqt_cap_5
    [31, -34],   // psqt_cap_6
    [-88, 8],    // psqt_cap_7
    [47, -16],   // psqt_cap_8
    [209, -4],   // psqt_cap_9
    [-58, 49],   // white
]);
