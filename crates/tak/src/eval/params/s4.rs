//! 4x4 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune texel --write` (Texel: logistic fit of the evaluation to game results
//! blended with search scores, lambda 0.5); generated, do not edit by hand.
//!
//! Data: s4-seed44-01.txt, s4-seed44-02.txt, s4-seed44-03.txt, s4-seed44-04.txt, s4-seed44-05.txt, s4-seed44-06.txt, s4-seed44-07.txt, s4-seed44-08.txt, s4-seed44-09.txt, s4-seed44-10.txt, s4-seed44-11.txt, s4-seed44-12.txt, s4-seed44-13.txt, s4-seed44-14.txt, s4-seed44-15.txt, s4-seed44-16.txt (size 4, half komi 0, 20000 games, 8000 nodes per move, seed 44):
//! 8000 games (9.6% drawn: 6015 white, 1215 black, 770 draws; 1757 roads, 6243 flats);
//! 265487 positions (238946 training, 26541 validation), 11.2% of them from drawn games.
//! Started from the 4x4 weights; K = 0.002600; 3 rounds of 200 Adam steps (rate 1, l2 0, frozen: none); training loss per round:
//! - round 1: 0.031928 -> 0.023768 (validation 0.023108)
//! - round 2: 0.023768 -> 0.023583 (validation 0.022985)
//! - round 3: 0.023583 -> 0.023534 (validation 0.022967)
//!
//! Kept round 3: loss 0.031928 -> 0.023534 (rounded weights), validation 0.031265 -> 0.022969.

use super::Weights;

/// The 4x4 weights.
pub const WEIGHTS: Weights = Weights([
    [93, 191],    // flat
    [73, -24],    // wall
    [-37, 117],   // cap
    [-111, 105],  // support_flat
    [465, 387],   // support_wall
    [-148, 292],  // support_cap
    [-77, -34],   // captive_flat
    [344, -95],   // captive_wall
    [153, -39],   // captive_cap
    [221, 39],    // center_0
    [336, 14],    // center_1
    [265, 35],    // center_2
    [12, 12],     // center_3
    [0, 0],       // span_0
    [-96, 84],    // span_1
    [-37, 57],    // span_2
    [-40, 23],    // span_3
    [2, 12],      // span_4
    [66, 36],     // span_5
    [0, 0],       // span_6
    [0, 0],       // span_7
    [0, 0],       // span_8
    [-172, 47],   // line_0
    [-125, 75],   // line_1
    [-72, 103],   // line_2
    [35, 58],     // line_3
    [-121, 123],  // line_4
    [-176, 192],  // line_5
    [0, 0],       // line_6
    [0, 0],       // line_7
    [0, 0],       // line_8
    [426, 425],   // tempo
    [319, 186],   // hard_cap
    [105, 73],    // support_deep
    [-130, -25],  // captive_deep
    [84, -50],    // groups
    [23, 18],     // span_minor
    [50, 50],     // crit_mover
    [-181, -84],  // crit_waiter
    [65, 62],     // crit_capturable
    [64, 62],     // crit_own_wall
    [76, -15],    // crit_blocked
    [12, 53],     // cap_reach
    [26, 35],     // cap_mobility
    [56, 14],     // wall_block
    [141, 87],    // wall_near
    [42, -70],    // influence
    [-305, -248], // reserves
    [-45, 74],    // race
    [196, -19],   // cap_center
    [63, 17],     // exposed
    [110, 34],    // mobility
    [74, -47],    // parity
    [8, 24],      // psqt_flat_0
    [57, 11],     // psqt_flat_1
    [38, 21],     // psqt_flat_2
    [0, 0],       // psqt_flat_3
    [0, 0],       // psqt_flat_4
    [0, 0],       // psqt_flat_5
    [0, 0],       // psqt_flat_6
    [0, 0],       // psqt_flat_7
    [0, 0],       // psqt_flat_8
    [0, 0],       // psqt_flat_9
    [-80, -48],   // psqt_wall_0
    [18, -7],     // psqt_wall_1
    [52, -3],     // psqt_wall_2
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
    [22, -56],    // white
]);
