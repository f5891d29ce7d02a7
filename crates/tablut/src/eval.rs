//! Tablut's evaluation: linear in a few terms, in hundredths of a guard, from the side to move's
//! point of view.
//!
//! Terms, each counted from White's side ([`features`]):
//! - **material**: guards, and Muscovites (Black has twice as many pieces);
//! - **the king's free lines**: directions in which he sees an edge square over empty squares,
//!   and whether he has two of them with Black to move (a fork that only taking him stops);
//! - **the king's reach**: squares he can move to, and how much closer to an edge than the
//!   throne he stands;
//! - **the king's hostile neighbours**: Muscovites beside him (and the empty throne), the start of
//!   his capture;
//! - **corner blockers**: Muscovites on the diagonal squares next to the corners (b3 and c2, and
//!   the same at each corner), from which they close the edges' ends;
//! - **the move**: +1 with White to move, −1 with Black to move.
//!
//! The weights ([`WEIGHTS`]) are fitted by `cairn tablut tune` (self-play games at a fixed node
//! count, then the same logistic fit as Tak's, `cairn_tools::tune::texel`); the module
//! `cairn_tools::tablut::tune` says how they were made.

use super::board::{bit, step, Position, Side, Squares, THRONE};
use cairn_search::score::Score;

/// The number of terms.
pub const TERMS: usize = 9;

/// The terms' names, in order.
pub const NAMES: [&str; TERMS] = [
    "guards",
    "muscovites",
    "free lines",
    "fork",
    "king reach",
    "king outward",
    "king hostile",
    "corner blockers",
    "to move",
];

/// Hand-set weights, the starting point of the fit.
pub const HAND_WEIGHTS: [i32; TERMS] = [100, -55, 60, 1500, 4, 12, -35, -18, 0];

/// The weights of the terms, from White's point of view: one round of `cairn tablut tune` from
/// [`HAND_WEIGHTS`] (`cairn_tools::tablut::tune` gives the command and the result).
pub const WEIGHTS: [i32; TERMS] = [164, -74, 187, 597, 33, -1, 26, -14, 42];

/// The squares diagonally beside each corner's neighbours: b3 c2, g2 h3, b7 c8, g8 h7.
const CORNER_BLOCKS: u128 =
    bit(19) | bit(11) | bit(15) | bit(25) | bit(55) | bit(65) | bit(69) | bit(61);

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation of `pos` for the side to move with the given weights.
pub fn evaluate_with(pos: &Position, weights: &[i32; TERMS]) -> Score {
    let white: i32 = features(pos).iter().zip(weights).map(|(f, w)| f * w).sum();
    Score(match pos.side_to_move() {
        Side::White => white,
        Side::Black => -white,
    })
}

/// The terms of `pos`, counted from White's side.
pub fn features(pos: &Position) -> [i32; TERMS] {
    let king = pos.king();
    let occupied = pos.occupied();
    let mut free_lines = 0;
    let mut reach = 0;
    for dir in 0..4 {
        let mut at = king;
        let mut free = true;
        while let Some(next) = step(at, dir) {
            if occupied & bit(next) != 0 {
                free = false;
                break;
            }
            at = next;
            reach += 1;
        }
        free_lines += (free && at != king) as i32;
    }
    let white_to_move = pos.side_to_move() == Side::White;
    let fork = (free_lines >= 2 && !white_to_move) as i32;
    let (file, rank) = ((king % 9) as i32, (king / 9) as i32);
    let from_edge = file.min(8 - file).min(rank).min(8 - rank);
    let hostile = (0..4)
        .filter_map(|dir| step(king, dir))
        .filter(|&n| pos.black() & bit(n) != 0 || n == THRONE)
        .count() as i32;
    [
        pos.white().count_ones() as i32,
        pos.black().count_ones() as i32,
        free_lines,
        fork,
        reach,
        4 - from_edge,
        hostile,
        Squares(pos.black() & CORNER_BLOCKS).count() as i32,
        if white_to_move { 1 } else { -1 },
    ]
}
