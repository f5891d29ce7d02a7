//! Match statistics: Elo with a 95% error bar, and the sequential probability ratio test.
//!
//! Scores are from the first engine's point of view: win 1, draw ½, loss 0. The Elo estimate is
//! the logistic inverse of the mean score; its interval comes from the per-game variance of the
//! scores (normal approximation). The SPRT uses the normal approximation of the log-likelihood
//! ratio between "the difference is `elo0`" and "it is `elo1`" (as fishtest and cutechess do):
//! `LLR ≈ n (s1 − s0)(2·mean − s0 − s1) / (2·var)`, with bounds `ln(β/(1−α))` and
//! `ln((1−β)/α)`.
//!
//! The variance in the LLR is estimated as if one more game of each result (a win, a draw and a
//! loss) had been played. A few games say little about the spread of results: 7 wins and a draw
//! have a sample variance so small that the plain estimate accepts [0, 20] after 8 games. The
//! three extra games keep such a start from deciding, and their weight fades as games come in.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won by the first engine.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost by the first engine.
    pub losses: u32,
}

/// SPRT settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// `elo1` accepted: the change is good.
    AcceptH1,
    /// `elo0` accepted: the change is not good enough.
    AcceptH0,
}

fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let m = self.score();
        (self.wins as f64 * (1.0 - m).powi(2)
            + self.draws as f64 * (0.5 - m).powi(2)
            + self.losses as f64 * m.powi(2))
            / n
    }

    /// Elo difference and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let m = self.score();
        let se = (self.variance() / n).sqrt();
        let (low, high) = (elo_of(m - 1.96 * se), elo_of(m + 1.96 * se));
        (elo_of(m), (high - low) / 2.0)
    }

    /// The log-likelihood ratio and the state of the test.
    pub fn sprt(&self, sprt: &Sprt) -> (f64, SprtState) {
        let (s0, s1) = (expected_score(sprt.elo0), expected_score(sprt.elo1));
        // The variance with one game of each result added (see the module documentation).
        let padded = Self {
            wins: self.wins + 1,
            draws: self.draws + 1,
            losses: self.losses + 1,
        };
        let var = padded.variance();
        let llr = if self.games() == 0 {
            0.0
        } else {
            self.games() as f64 * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
        };
        let lower = (sprt.beta / (1.0 - sprt.alpha)).ln();
        let upper = ((1.0 - sprt.beta) / sprt.alpha).ln();
        let state = if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        };
        (llr, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_sprt() {
        let even = Tally {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        assert!(even.elo().0.abs() < 1e-9);
        let strong = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (elo, err) = strong.elo();
        assert!((elo - 190.8).abs() < 0.5, "{elo}");
        assert!(err > 50.0 && err < 100.0, "{err}");
        let test = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // n (s1 - s0)(2m - s0 - s1) / (2 var) = 100 · 0.01439 · 0.4856 / (2 · 0.18868) ≈ 1.852
        // < 2.94, where var is that of 76 wins, a draw and 26 losses.
        let (llr, state) = strong.sprt(&test);
        assert!((llr - 1.852).abs() < 0.005, "{llr}");
        assert_eq!(state, SprtState::Continue);
        let scaled = |t: Tally| Tally {
            wins: t.wins * 10,
            draws: t.draws * 10,
            losses: t.losses * 10,
        };
        assert_eq!(scaled(strong).sprt(&test).1, SprtState::AcceptH1);
        let weak = Tally {
            wins: 25,
            draws: 10,
            losses: 65,
        };
        assert_eq!(weak.sprt(&test).1, SprtState::Continue);
        assert_eq!(scaled(weak).sprt(&test).1, SprtState::AcceptH0);
        assert_eq!(Tally::default().sprt(&test).1, SprtState::Continue);
    }

    /// A run of one result only still ends: 29 straight wins pass [0, 20], 29 straight losses
    /// fail it, and 3 wins are not yet enough.
    #[test]
    fn one_sided_runs_end() {
        let test = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let only = |wins, draws, losses| Tally {
            wins,
            draws,
            losses,
        };
        // m = 1, and var is that of 30 wins, a draw and a loss (0.03687): llr = 29 · 0.02878 ·
        // 0.9712 / 0.07373 ≈ 10.98.
        let (llr, state) = only(29, 0, 0).sprt(&test);
        assert!((llr - 10.98).abs() < 0.05, "{llr}");
        assert_eq!(state, SprtState::AcceptH1);
        assert_eq!(only(0, 0, 29).sprt(&test).1, SprtState::AcceptH0);
        assert_eq!(only(3, 0, 0).sprt(&test).1, SprtState::Continue);
        // A lucky start does not decide: 7 wins and a draw (the plain sample variance gave
        // llr 3.56 here, past the bound of 2.94).
        let (llr, state) = only(7, 1, 0).sprt(&test);
        assert!(llr < 1.5, "{llr}");
        assert_eq!(state, SprtState::Continue);
        // All draws: an even result, no evidence either way yet.
        assert_eq!(only(0, 4, 0).sprt(&test).1, SprtState::Continue);
    }
}
