//! Match statistics: Elo with a 95% error bar, and the sequential probability ratio test.
//!
//! Scores are from the first engine's point of view: win 1, draw ½, loss 0. The Elo estimate is
//! the logistic inverse of the mean score. Its 95% interval is a Wilson score interval on the mean
//! score, mapped to Elo: the plain normal interval (mean ± 1.96 standard errors) leaves [0, 1] when
//! one engine wins nearly every game, and the Elo of a score past 1 is meaningless (a 56 −4 =3
//! match read ±1,033). Wilson's interval stays inside [0, 1] and is lopsided as it should be near
//! an end. Draws shrink a game's variance below the `p(1 − p)` of a win-or-loss game, so the
//! interval takes the binomial count that has the observed variance, `n p(1 − p) / var` (the
//! design effect); far from the ends and over many games it is the normal interval.
//!
//! The SPRT uses the normal approximation of the log-likelihood ratio between "the difference
//! is `elo0`" and "it is `elo1`" (as fishtest and cutechess do):
//! `LLR ≈ n (s1 − s0)(2·mean − s0 − s1) / (2·var)`, with bounds `ln(β/(1−α))` and `ln((1−β)/α)`.
//!
//! The variance in the LLR is estimated as if one more game of each result (a win, a draw and a
//! loss) had been played. A few games say little about the spread of results: 7 wins and a draw
//! have a sample variance so small that the plain estimate accepts [0, 20] after 8 games. The
//! three extra games keep such a start from deciding, and their weight fades as games come in.
//!
//! **Pairs.** A match plays each opening twice, colours swapped, and the two games of a pair are
//! not independent: at 6×6 komi 2 between near-equal Cairns Black wins about 70% of the games,
//! so a pair most often ends one game each whichever engine is better. [`Pairs`] counts pairs by
//! their summed score (0, ½, 1, 1½ or 2: the pentanomial counts) and runs the same test on the
//! pair means. Their variance holds only what the openings do not explain, so with such a colour
//! bias the test decides in fewer games: replayed over the games of the seven SPRTs that
//! accepted the networks (their streams taken in turn), the pair test reaches H1 in each, after
//! 2,658 games in all where the per-game test needed 3,489 (24% fewer; from 10% to 32% each).
//! For independent games the two tests agree: a pair's
//! mean has half a game's variance, and there are half as many pairs as games. The pair
//! variance is padded likewise, with one pair of each of the five sums.

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

impl std::str::FromStr for Sprt {
    type Err = String;

    /// `elo0=E0 elo1=E1 alpha=A beta=B`, any of them left out keeping its default (0, 5, 0.05,
    /// 0.05); the error names the part that is wrong.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split_whitespace() {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}`: expected key=value"))?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("`{part}`: not a number"))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(format!("`{key}`: expected elo0, elo1, alpha or beta")),
            }
        }
        let valid = |p: f64| p > 0.0 && p < 0.5;
        if sprt.elo1 <= sprt.elo0 || !valid(sprt.alpha) || !valid(sprt.beta) {
            return Err(format!(
                "\"{text}\": need elo1 > elo0 and 0 < alpha, beta < 0.5"
            ));
        }
        Ok(sprt)
    }
}

impl SprtState {
    /// The state as one word: `continue`, `accept_h1` or `accept_h0`.
    pub fn word(self) -> &'static str {
        match self {
            SprtState::Continue => "continue",
            SprtState::AcceptH1 => "accept_h1",
            SprtState::AcceptH0 => "accept_h0",
        }
    }
}

impl Sprt {
    /// The LLR's bounds: `ln(β/(1−α))` (accept `elo0` at or below it) and `ln((1−β)/α)` (accept
    /// `elo1` at or above it).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives this expected score: infinite at 0 and 1, and within rounding
/// of them (the Wilson bound of a clean sweep is 1 only up to rounding, which read +6261).
fn elo_of(score: f64) -> f64 {
    const ROUNDING: f64 = 1e-9;
    match score {
        s if s >= 1.0 - ROUNDING => f64::INFINITY,
        s if s <= ROUNDING => f64::NEG_INFINITY,
        // Adding zero turns the −0 of an even score into +0, which prints as `+0`.
        s => -400.0 * (1.0 / s - 1.0).log10() + 0.0,
    }
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

    /// Elo difference and its 95% interval.
    pub fn elo(&self) -> Elo {
        interval(self.score(), self.variance(), self.games())
    }

    /// The log-likelihood ratio and the state of the test.
    pub fn sprt(&self, sprt: &Sprt) -> (f64, SprtState) {
        // The variance with one game of each result added (see the module documentation).
        let padded = Self {
            wins: self.wins + 1,
            draws: self.draws + 1,
            losses: self.losses + 1,
        };
        test(sprt, self.games(), self.score(), padded.variance())
    }
}

/// Pairs of games from one opening with the colours swapped, by the first engine's summed score
/// over the pair (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// `counts[k]`: pairs in which the first engine scored `k` half points (0 to 4).
    pub counts: [u32; 5],
}

impl Pairs {
    /// Counts a finished pair from its two games' scores (each 0, 0.5 or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let halves = (2.0 * (first + second)).round().clamp(0.0, 4.0) as usize;
        self.counts[halves] += 1;
    }

    /// Adds the pairs of `other`.
    pub fn merge(&mut self, other: Pairs) {
        for (c, o) in self.counts.iter_mut().zip(other.counts) {
            *c += o;
        }
    }

    /// The same pairs from the other engine's point of view.
    pub fn mirrored(&self) -> Pairs {
        let mut counts = self.counts;
        counts.reverse();
        Pairs { counts }
    }

    /// Finished pairs.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean score per game.
    pub fn score(&self) -> f64 {
        let points: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| k as f64 / 4.0 * c as f64)
            .sum();
        points / self.pairs().max(1) as f64
    }

    /// Variance of a pair's mean score.
    fn variance(&self) -> f64 {
        let m = self.score();
        let spread: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - m).powi(2))
            .sum();
        spread / self.pairs().max(1) as f64
    }

    /// Elo difference and its 95% interval, from the pairs.
    pub fn elo(&self) -> Elo {
        interval(self.score(), self.variance(), self.pairs())
    }

    /// The log-likelihood ratio over the pairs and the state of the test.
    pub fn sprt(&self, sprt: &Sprt) -> (f64, SprtState) {
        let mut padded = *self;
        for c in &mut padded.counts {
            *c += 1;
        }
        test(sprt, self.pairs(), self.score(), padded.variance())
    }
}

/// An Elo estimate and its 95% interval (see the module documentation). A score of 0 or 1
/// gives an infinite bound; [`Display`](std::fmt::Display) shows it as `-inf` or `+inf`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

impl std::fmt::Display for Elo {
    /// `+408 [+271, +544]`; a precision (`{:.1}`) applies to all three numbers.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = f.precision().unwrap_or(0);
        let one = |v: f64| {
            if v.is_infinite() {
                if v > 0.0 { "+inf" } else { "-inf" }.to_string()
            } else {
                format!("{v:+.digits$}")
            }
        };
        write!(
            f,
            "{} [{}, {}]",
            one(self.elo),
            one(self.low),
            one(self.high)
        )
    }
}

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_964;

/// The Elo of a mean score over `n` samples of the given variance, with its Wilson interval.
fn interval(mean: f64, variance: f64, n: u32) -> Elo {
    if n == 0 {
        return Elo {
            elo: 0.0,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let spread = mean * (1.0 - mean);
    // The binomial count with this variance; a sample with none (all one result) counts as is.
    let count = if variance > 0.0 && spread > 0.0 {
        n as f64 * spread / variance
    } else {
        n as f64
    };
    let z2 = Z95 * Z95 / count;
    let centre = (mean + z2 / 2.0) / (1.0 + z2);
    let half = Z95 / (1.0 + z2) * (spread / count + z2 / (4.0 * count)).sqrt();
    Elo {
        elo: elo_of(mean),
        low: elo_of(centre - half),
        high: elo_of(centre + half),
    }
}

/// The normal-approximation SPRT over `n` samples with this mean score and (padded) variance.
fn test(sprt: &Sprt, n: u32, mean: f64, variance: f64) -> (f64, SprtState) {
    let (s0, s1) = (expected_score(sprt.elo0), expected_score(sprt.elo1));
    let llr = if n == 0 {
        0.0
    } else {
        n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    };
    let (lower, upper) = sprt.bounds();
    let state = if llr >= upper {
        SprtState::AcceptH1
    } else if llr <= lower {
        SprtState::AcceptH0
    } else {
        SprtState::Continue
    };
    (llr, state)
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
        assert_eq!(even.elo().elo, 0.0);
        assert_eq!(format!("{}", even.elo()), "+0 [-68, +68]");
        let strong = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let Elo { elo, low, high } = strong.elo();
        assert!((elo - 190.8).abs() < 0.5, "{elo}");
        // Scores 0.75 ± 1.96 · 0.0433 would give [+119, +282]; Wilson's [0.6570, 0.8245] is
        // pulled towards ½: [+113, +269].
        assert!(
            (low - 112.9).abs() < 0.5 && (high - 268.8).abs() < 0.5,
            "{low} {high}"
        );
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

    /// Independent games: the pairs give the games' Elo interval exactly, and nearly their LLR
    /// (the paddings differ); 100 pairs from games won, drawn and lost with chances 0.5, 0.2
    /// and 0.3 sum to 0, ½, 1, 1½, 2 in 9, 12, 34, 20 and 25 of them.
    #[test]
    fn pairs_of_independent_games_agree_with_the_games() {
        let pairs = Pairs {
            counts: [9, 12, 34, 20, 25],
        };
        let games = Tally {
            wins: 100,
            draws: 40,
            losses: 60,
        };
        assert_eq!(pairs.pairs(), 100);
        assert!((pairs.score() - games.score()).abs() < 1e-12);
        let (by_pairs, by_games) = (pairs.elo(), games.elo());
        for (p, g) in [
            (by_pairs.elo, by_games.elo),
            (by_pairs.low, by_games.low),
            (by_pairs.high, by_games.high),
        ] {
            assert!((p - g).abs() < 1e-9, "{by_pairs} {by_games}");
        }
        let test = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let by_pairs = Pairs {
            counts: pairs.counts.map(|c| c * 10),
        }
        .sprt(&test)
        .0;
        let by_games = Tally {
            wins: 1000,
            draws: 400,
            losses: 600,
        }
        .sprt(&test)
        .0;
        assert!(
            (by_pairs / by_games - 1.0).abs() < 0.01,
            "{by_pairs} {by_games}"
        );
    }

    /// Where colour decides most games the pairs see through it: 80 pairs of one win each way,
    /// 30 of a win and a draw, 10 of a draw and a loss. The 240 games alone (110 wins, 40 draws,
    /// 90 losses) give LLR 0.58; the pairs, with mean 0.54167 and padded variance 0.0234,
    /// give 120 · 0.014391 · 0.06894 / 0.0468 = 2.54.
    #[test]
    fn pairs_see_through_a_colour_bias() {
        let test = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut pairs = Pairs::default();
        for (first, second, times) in [(1.0, 0.0, 80), (0.5, 1.0, 30), (0.0, 0.5, 10)] {
            for _ in 0..times {
                pairs.add(first, second);
            }
        }
        assert_eq!(pairs.counts, [0, 10, 80, 30, 0]);
        let (llr, state) = pairs.sprt(&test);
        assert!((llr - 2.543).abs() < 0.005, "{llr}");
        assert_eq!(state, SprtState::Continue);
        let games = Tally {
            wins: 110,
            draws: 40,
            losses: 90,
        };
        let (game_llr, _) = games.sprt(&test);
        assert!((game_llr - 0.577).abs() < 0.005, "{game_llr}");
        let more = Pairs {
            counts: pairs.counts.map(|c| c * 2),
        };
        assert_eq!(more.sprt(&test).1, SprtState::AcceptH1);
        assert_eq!(Pairs::default().sprt(&test), (0.0, SprtState::Continue));
    }

    /// Near a clean sweep the interval stays finite and lopsided, and at a sweep its upper end is
    /// infinite; a normal interval past a score of 1 read ±1,033 for the first of these.
    #[test]
    fn intervals_near_a_sweep() {
        let tally = |wins, draws, losses| Tally {
            wins,
            draws,
            losses,
        };
        // 56 −4 =3: mean 0.9127, variance 0.06777, as 74.1 binomial games; Wilson gives scores
        // [0.8264, 0.9583], Elo [+271, +544] around +408.
        let near = tally(56, 3, 4).elo();
        assert_eq!(format!("{near}"), "+408 [+271, +544]");
        // All 20 won: the score is 1, the lower end that of 20 binomial wins, 20 / 23.84.
        let sweep = tally(20, 0, 0).elo();
        assert_eq!((sweep.elo, sweep.high), (f64::INFINITY, f64::INFINITY));
        assert!((sweep.low - 286.6).abs() < 0.1, "{sweep}");
        // Four straight wins: the upper end is infinite, not a rounding of 1 (it read +6261.4).
        for n in 1..=40 {
            let high = tally(n, 0, 0).elo().high;
            assert_eq!(high, f64::INFINITY, "{n} wins: {}", tally(n, 0, 0).elo());
        }
        assert_eq!(
            format!("{:.1}", tally(0, 0, 20).elo()),
            "-inf [-inf, -286.6]"
        );
        // No games: nothing known.
        assert_eq!(format!("{}", Tally::default().elo()), "+0 [-inf, +inf]");
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
