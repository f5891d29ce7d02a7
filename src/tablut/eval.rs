//! Tablut's evaluation: a linear sum of a few terms, in hundredths of a guard, from the side to
//! move's point of view.
//!
//! Terms, each from White's side and counted against Black's:
//! - **material**: guards and Muscovites on the board (Black has twice as many pieces, each worth
//!   a little over half a guard);
//! - **the king's free lines**: directions in which he sees an edge square over empty squares.
//!   Two of them with Black to move is a fork Black can only stop by taking the king, so it
//!   scores close to a win;
//! - **the king's reach**: squares he can move to, and how close he stands to an edge;
//! - **the king's hostile neighbours**: Muscovites beside him (and the empty throne), the start of
//!   his capture;
//! - **corner blockers**: Muscovites on the diagonal squares next to the corners (b3 and c2, and
//!   the same at each corner), from which they close the edges' ends.
//!
//! The weights are set by hand, checked by self-play (the engine at 1 s a move against itself at
//! 0.1 s; see the module [`super`]).

use super::board::{bit, step, Position, Side, Squares, PALACE, THRONE};
use crate::score::Score;

/// A guard on the board.
pub const GUARD: i32 = 100;
/// A Muscovite on the board.
pub const MUSCOVITE: i32 = 55;
/// Each direction in which the king sees an edge square.
pub const FREE_LINE: i32 = 60;
/// Two or more free lines with Black to move: a fork.
pub const FORK: i32 = 1500;
/// Each square the king can move to.
pub const KING_REACH: i32 = 4;
/// Each rank or file the king stands closer to an edge than the throne does (0 to 4).
pub const KING_OUTWARD: i32 = 12;
/// Each hostile square beside the king.
pub const KING_HOSTILE: i32 = 35;
/// Each Muscovite on a corner-blocking square.
pub const CORNER_BLOCKER: i32 = 18;

/// The squares diagonally beside each corner's neighbours: b3 c2, g2 h3, b7 c8, g8 h7.
const CORNER_BLOCKS: u128 =
    bit(19) | bit(11) | bit(15) | bit(25) | bit(55) | bit(65) | bit(69) | bit(61);

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Score {
    let white = white_view(pos);
    Score(match pos.side_to_move() {
        Side::White => white,
        Side::Black => -white,
    })
}

/// The evaluation from White's point of view.
pub fn white_view(pos: &Position) -> i32 {
    let king = pos.king();
    let occupied = pos.occupied();
    let mut score =
        GUARD * pos.white().count_ones() as i32 - MUSCOVITE * pos.black().count_ones() as i32;

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
    score += FREE_LINE * free_lines + KING_REACH * reach;
    if free_lines >= 2 && pos.side_to_move() == Side::Black {
        score += FORK;
    }
    let (file, rank) = ((king % 9) as i32, (king / 9) as i32);
    let from_edge = file.min(8 - file).min(rank).min(8 - rank);
    score += KING_OUTWARD * (4 - from_edge);

    let hostile = (0..4)
        .filter_map(|dir| step(king, dir))
        .filter(|&n| pos.black() & bit(n) != 0 || (n == THRONE && PALACE & bit(king) != 0))
        .count() as i32;
    score -= KING_HOSTILE * hostile;
    score -= CORNER_BLOCKER * Squares(pos.black() & CORNER_BLOCKS).count() as i32;
    score
}
