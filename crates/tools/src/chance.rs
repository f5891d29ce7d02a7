//! Winning chances: an evaluation read as the side's chance to win, and the marks a move earns
//! by the chance it gives away.
//!
//! The evaluation's own logistic scale turns centiflats into an expected score: an evaluation of
//! `e` centiflats means `sigmoid(K · e)`, with `K` the scale the weights were fitted with
//! ([`SHIPPED_K`], the `--k` of `cairn tune`; 0.0026 per centiflat for the committed weights, so
//! one flat ahead is about 56 % and five flats ahead about 79 %). Proven results are certain: a
//! proven win is 100 % and a proven loss 0 %; a drawn game is 50 %.
//!
//! Marks compare chances, not flats, as lichess does: a move is judged by how many percentage
//! points of winning chance it loses against the best move found. A move in a game that was
//! lost already (from 7 % to 2 %) loses little and is not called a blunder; a move that throws
//! away a won position is, whatever the flats say. The thresholds are lichess's, which reads a
//! chance on a −1..1 scale and marks drops of 0.1, 0.2 and 0.3 there; on a 0–100 % scale those
//! are [`Thresholds::LICHESS`]: 5, 10 and 15 points.
//!
//! ```
//! use cairn_tools::chance::{win_chance, Mark, Thresholds};
//! use cairn_search::score::{Score, WinKind};
//! assert_eq!(win_chance(Score(0)), 50.0);
//! assert_eq!(win_chance(Score::win_in(3, WinKind::Outright)), 100.0);
//! assert!((win_chance(Score(100)) - 56.5).abs() < 0.1);
//! let marks = Thresholds::LICHESS;
//! assert_eq!(marks.mark(20.0), Some(Mark::Blunder));
//! assert_eq!(marks.mark(4.9), None);
//! ```

use crate::tune::texel::sigmoid;
use cairn_search::score::Score;
pub use cairn_tak::eval::SHIPPED_K;

/// The chance to win, in percent (0–100), of the side whose score this is.
pub fn win_chance(score: Score) -> f64 {
    match score.proven() {
        Some((true, _, _)) => 100.0,
        Some((false, _, _)) => 0.0,
        None => 100.0 * sigmoid(SHIPPED_K * score.0 as f64),
    }
}

/// A chance in percent as people read it: `56.5%`, and `100%` / `0%` exactly for proven results.
pub fn percent(chance: f64) -> String {
    if chance == 100.0 || chance == 0.0 {
        format!("{chance:.0}%")
    } else {
        format!("{chance:.1}%")
    }
}

/// What a move is called for the chance it loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// `?!`: an inaccuracy.
    Inaccuracy,
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl Mark {
    /// The PTN annotation: `?!`, `?` or `??`.
    pub const fn ptn(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The word: `inaccuracy`, `mistake` or `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// The drops in winning chance, in percentage points, from which a move is marked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// From this drop a move is an inaccuracy (`?!`).
    pub inaccuracy: f64,
    /// From this drop a move is a mistake (`?`).
    pub mistake: f64,
    /// From this drop a move is a blunder (`??`).
    pub blunder: f64,
}

impl Thresholds {
    /// 5, 10 and 15 points: lichess's 0.1, 0.2 and 0.3 on its −1..1 scale.
    pub const LICHESS: Thresholds = Thresholds {
        inaccuracy: 5.0,
        mistake: 10.0,
        blunder: 15.0,
    };

    /// The thresholds scaled so that a blunder starts at `blunder` points (a mistake at two
    /// thirds of it and an inaccuracy at one third, as in [`Thresholds::LICHESS`]).
    pub fn with_blunder(blunder: f64) -> Thresholds {
        Thresholds {
            inaccuracy: blunder / 3.0,
            mistake: blunder * 2.0 / 3.0,
            blunder,
        }
    }

    /// The mark for a drop of `drop` percentage points, if any.
    pub fn mark(&self, drop: f64) -> Option<Mark> {
        if drop >= self.blunder {
            Some(Mark::Blunder)
        } else if drop >= self.mistake {
            Some(Mark::Mistake)
        } else if drop >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_search::score::WinKind;

    #[test]
    fn chances_follow_the_fitted_scale() {
        // sigmoid(0.0026 · 500) = 0.7858.
        assert!((win_chance(Score(500)) - 78.58).abs() < 0.01);
        assert!((win_chance(Score(-500)) + win_chance(Score(500)) - 100.0).abs() < 1e-9);
        assert_eq!(win_chance(Score::loss_in(2, WinKind::Count)), 0.0);
        assert_eq!(percent(100.0), "100%");
        assert_eq!(percent(56.54), "56.5%");
    }

    #[test]
    fn a_lost_position_has_no_blunders_left() {
        // The case that flats misjudge: -10.15 to -15.36 flats loses about 5 points.
        let drop = win_chance(Score(-1015)) - win_chance(Score(-1536));
        assert!(drop < 5.0, "{drop}");
        assert_eq!(Thresholds::LICHESS.mark(drop), None);
        // An even position thrown to -2.5 flats is a blunder.
        let drop = win_chance(Score(0)) - win_chance(Score(-250));
        assert_eq!(Thresholds::LICHESS.mark(drop), Some(Mark::Blunder));
        assert_eq!(Thresholds::with_blunder(15.0), Thresholds::LICHESS);
    }
}
