//! 6x6 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune texel --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.5); generated, do not edit by hand.
//!
//! Data: s6-seed26-01.txt, s6-seed26-02.txt, s6-seed26-03.txt, s6-seed26-04.txt, s6-seed26-05.txt, s6-seed26-06.txt, s6-seed26-07.txt, s6-seed26-08.txt, s6-seed26-09.txt (size 6, half komi 4, 20000 games, 8000 nodes per move, seed 26):
//! 4500 games (9.8% drawn: 2325 white, 1733 black, 442 draws; 1026 roads, 3474 flats);
//! 400674 positions (360610 training, 40064 validation), 10.6% of them from drawn games.
//! Started from the 6x6 weights; K = 0.002600; 8 rounds of 200 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.043984 -> 0.041239 (validation 0.041366)
//! - round 2: 0.041239 -> 0.041220 (validation 0.041324)
//! - round 3: 0.041220 -> 0.041212 (validation 0.041299)
//! - round 4: 0.041212 -> 0.041209 (validation 0.041285)
//! - round 5: 0.041209 -> 0.041208 (validation 0.041278)
//! - round 6: 0.041208 -> 0.041208 (validation 0.041276)
//! - round 7: 0.041208 -> 0.041208 (validation 0.041275)
//! - round 8: 0.041208 -> 0.041208 (validation 0.041274)
//!
//! Kept round 8: loss 0.043984 -> 0.041210 (rounded weights), validation 0.044238 -> 0.041280.

use super::Weights;

/// The 6x6 weights.
pub const WEIGHTS: Weights = Weights([
    [56, 141],    // flat
    [93, -51],    // wall
    [-101, 123],  // cap
    [-299, 65],   // support_flat
    [364, 224],   // support_wall
    [-130, 206],  // support_cap
    [-89, -97],   // captive_flat
    [204, -81],   // captive_wall
    [181, -83],   // captive_cap
    [104, 24],    // center_0
    [204, 14],    // center_1
    [304, 45],    // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-48, 67],    // span_1
    [-61, 62],    // span_2
    [-49, 64],    // span_3
    [3, 53],      // span_4
    [65, 14],     // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-45, 24],    // line_0
    [-39, 62],    // line_1
    [-51, 67],    // line_2
    [-29, 69],    // line_3
    [14, 88],     // line_4
    [27, 106],    // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [292, 275],   // tempo
    [286, 116],   // hard_cap
    [34, 127],    // support_deep
    [-152, -87],  // captive_deep
    [1, -51],     // groups
    [0, 6],       // span_minor
    [50, 50],     // crit_mover
    [-99, -109],  // crit_waiter
    [27, 57],     // crit_capturable
    [15, 37],     // crit_own_wall
    [-77, 60],    // crit_blocked
    [75, 24],     // cap_reach
    [-13, 36],    // cap_mobility
    [-62, 62],    // wall_block
    [6, 68],      // wall_near
    [19, -14],    // influence
    [-239, -111], // reserves
    [-57, 37],    // race
    [200, 21],    // cap_center
    [-10, -6],    // exposed
    [125, 39],    // mobility
    [-80, -17],   // parity
    [-54, 26],    // psqt_flat_0
    [46, 3],      // psqt_flat_1
    [16, 12],     // psqt_flat_2
    [67, 14],     // psqt_flat_3
    [57, 16],     // psqt_flat_4
    [-70, -33],   // psqt_flat_5
    [0, 0],       // psqt_flat_6
    [0, 0],       // psqt_flat_7
    [0, 0],       // psqt_flat_8
    [0, 0],       // psqt_flat_9
    [-130, -37],  // psqt_wall_0
    [-75, 21],    // psqt_wall_1
    [-61, 36],    // psqt_wall_2
    [16, 58],     // psqt_wall_3
    [-70, 56],    // psqt_wall_4
    [-124, 55],   // psqt_wall_5
    [0, 0],       // psqt_wall_6
    [0, 0],       // psqt_wall_7
    [0, 0],       // psqt_wall_8
    [0, 0],       // psqt_wall_9
    [-325, 46],   // psqt_cap_0
    [-24, 20],    // psqt_cap_1
    [-131, -30],  // psqt_cap_2
    [-58, -25],   // psqt_cap_3
    [20, -46],    // psqt_cap_4
    [104, 5],     // psqt_cap_5
    [0, 0],       // psqt_cap_6
    [0, 0],       // psqt_cap_7
    [0, 0],       // psqt_cap_8
    [0, 0],       // psqt_cap_9
    [-1, 38],     // white
]);
