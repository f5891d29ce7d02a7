//! 3x3 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! Hand-set: the first evaluation's values, and guesses for the newer features (critical squares,
//! capstone reach and mobility, walls, deep stacks, influence, flat race). Generated and
//! overwritten by `cairn tune texel --write`.
//!
//! They are not fitted because they decide nothing: the search proves the empty board a White
//! win in 13 plies at every komi up to 3 in under half a second, and each of the 72 positions
//! after two plies (komi 0) within 0.4 s on one thread. With that much time a move, every
//! choice in a 3×3 game is between proven results, which the weights do not rank (test
//! `three_by_three_is_a_proven_white_win_from_the_start`).

use super::Weights;

/// The 3x3 weights.
pub const WEIGHTS: Weights = Weights([
    [50, 80],   // flat
    [40, 40],   // wall
    [80, 80],   // cap
    [12, 12],   // support_flat
    [20, 20],   // support_wall
    [20, 20],   // support_cap
    [-6, -6],   // captive_flat
    [-6, -6],   // captive_wall
    [-6, -6],   // captive_cap
    [0, 0],     // center_0
    [6, 6],     // center_1
    [10, 10],   // center_2
    [12, 12],   // center_3
    [0, 0],     // span_0
    [0, 0],     // span_1
    [20, 20],   // span_2
    [0, 0],     // span_3
    [0, 0],     // span_4
    [0, 0],     // span_5
    [0, 0],     // span_6
    [0, 0],     // span_7
    [0, 0],     // span_8
    [0, 0],     // line_0
    [0, 0],     // line_1
    [10, 10],   // line_2
    [0, 0],     // line_3
    [0, 0],     // line_4
    [0, 0],     // line_5
    [0, 0],     // line_6
    [0, 0],     // line_7
    [0, 0],     // line_8
    [15, 15],   // tempo
    [10, 10],   // hard_cap
    [3, 3],     // support_deep
    [-2, -2],   // captive_deep
    [-4, -4],   // groups
    [2, 2],     // span_minor
    [50, 50],   // crit_mover
    [-30, -30], // crit_waiter
    [15, 15],   // crit_capturable
    [-5, -5],   // crit_own_wall
    [5, 5],     // crit_blocked
    [15, 15],   // cap_reach
    [3, 3],     // cap_mobility
    [15, 15],   // wall_block
    [4, 4],     // wall_near
    [5, 5],     // influence
    [0, 0],     // reserves
    [0, 20],    // race
    [10, 10],   // cap_center
    [0, 0],     // exposed
    [0, 0],     // mobility
    [0, 0],     // parity
    [0, 0],     // psqt_flat_0
    [0, 0],     // psqt_flat_1
    [0, 0],     // psqt_flat_2
    [0, 0],     // psqt_flat_3
    [0, 0],     // psqt_flat_4
    [0, 0],     // psqt_flat_5
    [0, 0],     // psqt_flat_6
    [0, 0],     // psqt_flat_7
    [0, 0],     // psqt_flat_8
    [0, 0],     // psqt_flat_9
    [0, 0],     // psqt_wall_0
    [0, 0],     // psqt_wall_1
    [0, 0],     // psqt_wall_2
    [0, 0],     // psqt_wall_3
    [0, 0],     // psqt_wall_4
    [0, 0],     // psqt_wall_5
    [0, 0],     // psqt_wall_6
    [0, 0],     // psqt_wall_7
    [0, 0],     // psqt_wall_8
    [0, 0],     // psqt_wall_9
    [0, 0],     // psqt_cap_0
    [0, 0],     // psqt_cap_1
    [0, 0],     // psqt_cap_2
    [0, 0],     // psqt_cap_3
    [0, 0],     // psqt_cap_4
    [0, 0],     // psqt_cap_5
    [0, 0],     // psqt_cap_6
    [0, 0],     // psqt_cap_7
    [0, 0],     // psqt_cap_8
    [0, 0],     // psqt_cap_9
    [0, 0],     // white
]);
