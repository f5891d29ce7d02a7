//! 6x6 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to self-play
//! results); generated, do not edit by hand.
//!
//! Data: tune-s6.txt (size 6, half komi 4, 2000 games, 2500 nodes per move, seed 1):
//! 2000 games (4.9% drawn: 889 white, 1014 black, 97 draws; 1189 roads, 810 flats);
//! 170530 positions (153477 training, 17053 validation), 6.7% of them from drawn games.
//! K = 0.002626; 10 rounds of 50 Adam steps (rate 1, l2 0.00000001); training loss per round:
//! - round 1: 0.179530 -> 0.158322 (validation 0.159883)
//! - round 2: 0.158322 -> 0.156112 (validation 0.157988)
//! - round 3: 0.156112 -> 0.155550 (validation 0.157674)
//! - round 4: 0.155550 -> 0.155349 (validation 0.157621)
//! - round 5: 0.155349 -> 0.155267 (validation 0.157634)
//! - round 6: 0.155267 -> 0.155229 (validation 0.157657)
//! - round 7: 0.155229 -> 0.155209 (validation 0.157669)
//! - round 8: 0.155209 -> 0.155196 (validation 0.157668)
//! - round 9: 0.155196 -> 0.155187 (validation 0.157658)
//! - round 10: 0.155187 -> 0.155180 (validation 0.157643)
//!
//! Kept round 4: loss 0.179530 -> 0.155346 (rounded weights), validation 0.182716 -> 0.157624.

use super::Weights;

/// The 6x6 weights.
pub const WEIGHTS: Weights = Weights([
    [37, 91],   // flat
    [88, 65],   // wall
    [35, 83],   // cap
    [68, 66],   // support_flat
    [92, 76],   // support_wall
    [96, 110],  // support_cap
    [-68, -30], // captive_flat
    [46, -33],  // captive_wall
    [2, -12],   // captive_cap
    [10, 22],   // center_0
    [47, 38],   // center_1
    [75, 36],   // center_2
    [12, 12],   // center_3
    [0, 0],     // span_0
    [-19, 15],  // span_1
    [0, 39],    // span_2
    [33, 15],   // span_3
    [49, 38],   // span_4
    [96, 70],   // span_5
    [0, 0],     // span_6
    [0, 0],     // span_7
    [0, 0],     // span_8
    [-37, 24],  // line_0
    [3, 38],    // line_1
    [50, 12],   // line_2
    [25, 42],   // line_3
    [56, 53],   // line_4
    [43, 51],   // line_5
    [0, 0],     // line_6
    [0, 0],     // line_7
    [0, 0],     // line_8
    [117, 123], // tempo
    [14, 15],   // hard_cap
    [23, 42],   // support_deep
    [-58, -31], // captive_deep
    [-15, 9],   // groups
    [-5, 22],   // span_minor
    [50, 50],   // crit_mover
    [-60, -48], // crit_waiter
    [21, 23],   // crit_capturable
    [-14, -17], // crit_own_wall
    [-28, -29], // crit_blocked
    [28, 27],   // cap_reach
    [8, 22],    // cap_mobility
    [6, 8],     // wall_block
    [26, 43],   // wall_near
    [25, 1],    // influence
    [-74, -53], // reserves
    [16, 62],   // race
    [74, 3],    // cap_center
    [0, 0],     // exposed
    [0, 0],     // mobility
    [0, 0],     // parity
]);
