//! Game end: roads, flat counts with komi, and the result of a position.
//!
//! After every ply the game ends, in this order:
//! 1. on a road (flats and capstones of one colour joining opposite edges orthogonally). If the
//!    player who just moved has one, that player wins, even if the move also made the opponent's
//!    road; if only the opponent has one, the opponent wins;
//! 2. on flats, when the board is full or either player has no stones **and** no capstones
//!    left: top flats are counted (walls and capstones do not score). White wins iff
//!    `2 × (white − black) > half_komi`, Black iff it is smaller; equality is a draw.

use super::{roads, Color, Position};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A road win for the colour.
    Road(Color),
    /// A flat-count win for the colour.
    Flats(Color),
    /// An exact tie on flats (with komi).
    Draw,
}

impl GameResult {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::Road(c) | GameResult::Flats(c) => Some(c),
            GameResult::Draw => None,
        }
    }

    /// The PTN result string: `R-0`, `0-R`, `F-0`, `0-F` or `1/2-1/2`.
    pub fn ptn(self) -> &'static str {
        match self {
            GameResult::Road(Color::White) => "R-0",
            GameResult::Road(Color::Black) => "0-R",
            GameResult::Flats(Color::White) => "F-0",
            GameResult::Flats(Color::Black) => "0-F",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.ptn())
    }
}

impl<const N: usize> Position<N> {
    /// Whether `color` has a road.
    #[inline]
    pub fn has_road(&self, color: Color) -> bool {
        // A road needs at least N pieces; most positions' players have fewer or no road.
        let road = self.road_pieces(color).0;
        road.count_ones() as usize >= N && roads::<N>(road).connected
    }

    /// Whether the game ends on flats: the board is full or a player has no pieces left.
    #[inline]
    pub fn is_flat_end(&self) -> bool {
        self.empty().is_empty()
            || (self.stones[0] == 0 && self.capstones[0] == 0)
            || (self.stones[1] == 0 && self.capstones[1] == 0)
    }

    /// Whether the game is over (a road or a flat end). Cheaper than [`Position::result`].
    #[inline]
    pub fn is_over(&self) -> bool {
        self.is_flat_end() || self.has_road(Color::White) || self.has_road(Color::Black)
    }

    /// The flat-count winner (or a draw) with komi, whether or not the game is over.
    pub fn flat_result(&self) -> GameResult {
        let white = self.flats(Color::White).count() as i32;
        let black = self.flats(Color::Black).count() as i32;
        let margin = 2 * (white - black) - self.komi.halves() as i32;
        match margin {
            m if m > 0 => GameResult::Flats(Color::White),
            m if m < 0 => GameResult::Flats(Color::Black),
            _ => GameResult::Draw,
        }
    }

    /// The result if the game is over, judged for the player who made the last move.
    pub fn result(&self) -> Option<GameResult> {
        let mover = !self.side_to_move();
        if self.has_road(mover) {
            Some(GameResult::Road(mover))
        } else if self.has_road(!mover) {
            Some(GameResult::Road(!mover))
        } else if self.is_flat_end() {
            Some(self.flat_result())
        } else {
            None
        }
    }
}
