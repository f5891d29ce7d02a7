//! Evaluation weights, per board size. The only home for evaluation numbers.
//!
//! Units are centiflats (100 = one flat on top). These are hand-set starting values; `cairn tune`
//! (later) fits them to self-play results.

/// The weights of one board size.
#[derive(Clone, Copy, Debug)]
pub struct EvalParams {
    /// A top flat, at the start and when reserves are empty (interpolated by reserves used).
    pub flat: [i32; 2],
    /// A wall on top (does not score, blocks).
    pub wall: i32,
    /// A capstone on the board.
    pub cap: i32,
    /// Each own piece under an own flat top, up to the carry limit.
    pub support_flat: i32,
    /// Each own piece under an own wall or capstone, up to the carry limit.
    pub support_hard: i32,
    /// Each opponent piece under an own top, up to the carry limit.
    pub captive: i32,
    /// Per top piece: bonus by distance from the edge (0 = edge ring).
    pub center: [i32; 4],
    /// A road group by the number of files or ranks it spans (whichever is larger).
    pub group_span: [i32; 9],
    /// A rank or file by the number of the player's road pieces in it, if the opponent has no
    /// wall or capstone there.
    pub line: [i32; 9],
    /// The side to move's bonus.
    pub tempo: i32,
}

const fn params(n: usize) -> EvalParams {
    EvalParams {
        flat: [100, 160],
        wall: 40,
        cap: 80,
        support_flat: 12,
        support_hard: 20,
        captive: -6,
        center: [0, 6, 10, 12],
        group_span: match n {
            3 => [0, 0, 20, 0, 0, 0, 0, 0, 0],
            4 => [0, 0, 15, 45, 0, 0, 0, 0, 0],
            5 => [0, 0, 10, 30, 70, 0, 0, 0, 0],
            6 => [0, 0, 8, 22, 50, 90, 0, 0, 0],
            7 => [0, 0, 6, 18, 38, 70, 110, 0, 0],
            _ => [0, 0, 5, 15, 30, 55, 90, 130, 0],
        },
        line: match n {
            3 => [0, 0, 10, 0, 0, 0, 0, 0, 0],
            4 => [0, 0, 6, 18, 0, 0, 0, 0, 0],
            5 => [0, 0, 5, 14, 30, 0, 0, 0, 0],
            6 => [0, 0, 4, 11, 24, 40, 0, 0, 0],
            7 => [0, 0, 3, 9, 19, 32, 48, 0, 0],
            _ => [0, 0, 3, 8, 16, 27, 40, 56, 0],
        },
        tempo: 15,
    }
}

/// Weights for sizes 3..=8, indexed by size.
pub const PARAMS: [EvalParams; 9] = [
    params(3),
    params(3),
    params(3),
    params(3),
    params(4),
    params(5),
    params(6),
    params(7),
    params(8),
];
