//! Texel tuning: fit the evaluation weights so that `sigmoid(K · eval)` predicts game results.
//!
//! Every position is turned into its phase-split features once ([`cairn_tak::eval::Features::split`]),
//! so the model is linear: `eval = w · x`. First the scale `K` is fitted with the weights fixed
//! (a golden-section search on `log K`), then the weights by full-batch Adam on the mean squared
//! error between the prediction and the target. The target is the game result (1 win, ½ draw,
//! 0 loss for the side to move), or a blend `λ · result + (1 − λ) · sigmoid(K · score)` with the
//! search score recorded beside the position ([`Dataset::blend`]): the result says who won, the
//! deeper search's score says what the position was worth when it was played. The gradient is
//! summed over the positions in parallel (rayon).

use super::selfplay::Summary;
use cairn_tak::board::{Color, Komi, Position, HALF_KOMI_TEXT};
use cairn_tak::eval::features;
use cairn_tak::eval::params::{Weights, NF};
use cairn_tak::notation::tps;
use rayon::prelude::*;

/// Model inputs: two per feature (opening and end part).
pub const INPUTS: usize = 2 * NF;

/// Positions as model inputs and results; `I` inputs a row (Tak's phase-split features by
/// default; another game's evaluation terms, such as Tablut's, fit the same way).
#[derive(Clone, Debug)]
pub struct Dataset<const I: usize = INPUTS> {
    /// Model inputs (for Tak, phase-split features), one row per position.
    pub rows: Vec<[f32; I]>,
    /// What the model is fitted to, for the side to move (the result unless [`Dataset::blend`]
    /// mixed in the scores).
    pub targets: Vec<f32>,
    /// The game result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub results: Vec<f32>,
    /// The search score for the side to move in centiflats, NaN where none was recorded.
    pub scores: Vec<f32>,
    /// The game summary line of the file, if it had one.
    pub summary: Option<Summary>,
    /// How the games were generated (the file's `# cairn tune data:` line), if it says.
    pub origin: Option<String>,
}

impl<const I: usize> Default for Dataset<I> {
    fn default() -> Self {
        Dataset {
            rows: Vec::new(),
            targets: Vec::new(),
            results: Vec::new(),
            scores: Vec::new(),
            summary: None,
            origin: None,
        }
    }
}

impl<const I: usize> Dataset<I> {
    /// The number of positions.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The share of positions from drawn games.
    pub fn draw_share(&self) -> f64 {
        self.results.iter().filter(|&&t| t == 0.5).count() as f64 / self.len().max(1) as f64
    }

    /// The number of positions with a search score.
    pub fn scored(&self) -> usize {
        self.scores.iter().filter(|s| !s.is_nan()).count()
    }

    /// The last `share` of the positions, split off (for validation).
    pub fn split_off_tail(&mut self, share: f64) -> Dataset<I> {
        let at = self.len() - (self.len() as f64 * share) as usize;
        Dataset {
            rows: self.rows.split_off(at),
            targets: self.targets.split_off(at),
            results: self.results.split_off(at),
            scores: self.scores.split_off(at),
            summary: None,
            origin: None,
        }
    }

    /// Appends the positions of `other`; the summaries are added up, the origins joined.
    pub fn append(&mut self, mut other: Dataset<I>) {
        self.rows.append(&mut other.rows);
        self.targets.append(&mut other.targets);
        self.results.append(&mut other.results);
        self.scores.append(&mut other.scores);
        self.summary = match (self.summary.take(), other.summary) {
            (Some(mut a), Some(b)) => {
                a.merge(&b);
                Some(a)
            }
            (a, b) => a.or(b),
        };
        self.origin = match (self.origin.take(), other.origin) {
            (Some(a), Some(b)) if !a.split("; ").any(|known| known == b) => {
                Some(format!("{a}; {b}"))
            }
            (a, b) => a.or(b),
        };
    }

    /// Sets the targets to `λ · result + (1 − λ) · sigmoid(k · score)` where a score was
    /// recorded, and to the result elsewhere. `λ = 1` gives the plain results.
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for ((t, &r), &s) in self.targets.iter_mut().zip(&self.results).zip(&self.scores) {
            *t = blended_target(lambda, k, r, s);
        }
    }
}

/// The target of a position with result `result` and search score `score` (NaN for none):
/// `λ · result + (1 − λ) · sigmoid(k · score)`, or the result alone without a score, or the
/// score alone without a result (a position off the games' lines, whatever `λ`).
pub fn blended_target(lambda: f64, k: f64, result: f32, score: f32) -> f32 {
    if score.is_nan() {
        result
    } else if result.is_nan() {
        sigmoid(k * score as f64) as f32
    } else {
        (lambda * result as f64 + (1.0 - lambda) * sigmoid(k * score as f64)) as f32
    }
}

/// One data line, read: the model inputs, the result and the score for the side to move.
type Parsed = ([f32; INPUTS], f32, f32);

/// Reads one data line (not a comment) into the position (its komi set), the game result for
/// its side to move (1 win, 0.5 draw, 0 loss; NaN for `*`, a position off the games' lines, which
/// must have a score) and the recorded search score for the side to move (NaN if none).
pub fn parse_record<const N: usize>(line: &str) -> Result<(Position<N>, f32, f32), String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let (text_tps, result, komi, score) = match fields[..] {
        [t, r, k] => (t, r, k, None),
        [t, r, k, s] => (t, r, k, Some(s)),
        _ => {
            return Err(format!(
                "expected <TPS><TAB><result><TAB><half komi>[<TAB><score>], found {} field(s)",
                fields.len()
            ))
        }
    };
    let mut pos = tps::parse::<N>(text_tps).map_err(|e| format!("TPS `{text_tps}`: {e}"))?;
    let white = match result {
        "R-0" | "F-0" => 1.0,
        "0-R" | "0-F" => 0.0,
        "1/2-1/2" => 0.5,
        "*" if score.is_some() => f32::NAN,
        "*" => return Err("result `*` (a position off the games' lines) needs a score".into()),
        _ => {
            return Err(format!(
                "result `{result}`: expected R-0, 0-R, F-0, 0-F, 1/2-1/2 or * (with a score)"
            ))
        }
    };
    let half_komi = komi
        .parse::<i64>()
        .ok()
        .and_then(|halves| Komi::from_halves(halves).ok())
        .ok_or_else(|| format!("half komi `{komi}`: {}", HALF_KOMI_TEXT))?;
    let score = match score {
        None => f32::NAN,
        Some(s) => match s.parse::<i32>() {
            Ok(v) if v.abs() <= super::selfplay::SCORE_CLAMP => v as f32,
            _ => {
                return Err(format!(
                    "score `{s}`: expected centiflats from -{0} to {0}",
                    super::selfplay::SCORE_CLAMP
                ))
            }
        },
    };
    pos.set_komi(half_komi);
    let result = match pos.side_to_move() {
        Color::White => white,
        Color::Black => 1.0 - white,
    };
    Ok((pos, result, score))
}

/// Reads one data line (not a comment) as the linear model's inputs.
fn parse_line<const N: usize>(line: &str) -> Result<Parsed, String> {
    let (pos, result, score) = parse_record::<N>(line)?;
    Ok((features(&pos).split(), result, score))
}

/// Reads a data file of size `N` (see [`super::selfplay`]), in parallel; errors name the line.
pub fn parse_data<const N: usize>(text: &str) -> Result<Dataset, String> {
    let mut data = Dataset::default();
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if let Some(summary) = Summary::parse(line) {
            match &mut data.summary {
                Some(s) => s.merge(&summary),
                None => data.summary = Some(summary),
            }
            continue;
        }
        if let Some(origin) = line.strip_prefix("# cairn tune data: ") {
            // Shards of one run repeat the settings with their own shard number.
            let origin = origin
                .split(", shard ")
                .next()
                .unwrap_or(origin)
                .to_string();
            if data
                .origin
                .as_ref()
                .is_none_or(|o| !o.split("; ").any(|known| known == origin))
            {
                data.origin = Some(match data.origin.take() {
                    Some(o) => format!("{o}; {origin}"),
                    None => origin,
                });
            }
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        lines.push((i, line));
    }
    let parsed: Vec<Parsed> = lines
        .par_iter()
        .map(|&(i, line)| parse_line::<N>(line).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect::<Result<_, String>>()?;
    data.rows.reserve(parsed.len());
    for (row, result, score) in parsed {
        data.rows.push(row);
        data.results.push(result);
        data.targets.push(result);
        data.scores.push(score);
    }
    Ok(data)
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn predict<const I: usize>(w: &[f64; I], row: &[f32; I]) -> f64 {
    row.iter().zip(w).map(|(&x, &w)| x as f64 * w).sum()
}

/// Mean squared error of `sigmoid(k · w · x)` against the targets, over the positions that have
/// one (before a blend, positions off the games' lines have none: their result is unknown).
pub fn loss<const I: usize>(data: &Dataset<I>, w: &[f64; I], k: f64) -> f64 {
    let (sum, count) = data
        .rows
        .par_iter()
        .zip(&data.targets)
        .filter(|(_, t)| !t.is_nan())
        .map(|(row, &t)| {
            let p = sigmoid(k * predict(w, row));
            ((p - t as f64).powi(2), 1usize)
        })
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    sum / count.max(1) as f64
}

/// The scale `K` in `[1e-5, 1]` that minimises the loss with the weights fixed.
pub fn fit_k<const I: usize>(data: &Dataset<I>, w: &[f64; I]) -> f64 {
    let (mut lo, mut hi) = ((1e-5f64).ln(), 0.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let f = |x: f64| loss(data, w, x.exp());
    let (mut a, mut b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - ratio * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + ratio * (hi - lo);
            fb = f(b);
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Full-batch Adam on the weights with `K` fixed.
pub struct Trainer<const I: usize = INPUTS> {
    /// The weights being fitted.
    pub w: [f64; I],
    /// The logistic scale.
    pub k: f64,
    /// Step size, in centiflats.
    pub rate: f64,
    /// Weight of the penalty `Σ (w − w_start)²` that keeps the weights near where they started.
    pub l2: f64,
    /// Inputs held at their starting weights.
    pub frozen: [bool; I],
    start: [f64; I],
    m: [f64; I],
    v: [f64; I],
    steps: i32,
}

impl<const I: usize> Trainer<I> {
    /// A trainer starting from `w`, without a penalty (set [`Trainer::l2`] for one).
    pub fn new(w: [f64; I], k: f64, rate: f64) -> Trainer<I> {
        Trainer {
            w,
            k,
            rate,
            l2: 0.0,
            frozen: [false; I],
            start: w,
            m: [0.0; I],
            v: [0.0; I],
            steps: 0,
        }
    }

    /// The loss gradient at the current weights.
    fn gradient(&self, data: &Dataset<I>) -> [f64; I] {
        let k = self.k;
        let w = &self.w;
        let mut grad = data
            .rows
            .par_chunks(2048)
            .zip(data.targets.par_chunks(2048))
            .map(|(rows, targets)| {
                let mut g = [0f64; I];
                for (row, &t) in rows.iter().zip(targets) {
                    let p = sigmoid(k * predict(w, row));
                    let scale = 2.0 * (p - t as f64) * p * (1.0 - p) * k;
                    for (gi, &x) in g.iter_mut().zip(row) {
                        *gi += scale * x as f64;
                    }
                }
                g
            })
            .reduce(
                || [0f64; I],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let n = data.len().max(1) as f64;
        for (i, g) in grad.iter_mut().enumerate() {
            if *g != 0.0 {
                *g = *g / n + 2.0 * self.l2 * (self.w[i] - self.start[i]);
            }
        }
        grad
    }

    /// Takes `steps` Adam steps.
    pub fn run(&mut self, data: &Dataset<I>, steps: usize) {
        let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-12);
        for _ in 0..steps {
            let grad = self.gradient(data);
            self.steps += 1;
            let (c1, c2) = (1.0 - beta1.powi(self.steps), 1.0 - beta2.powi(self.steps));
            for (i, &g) in grad.iter().enumerate() {
                if g == 0.0 || self.frozen[i] {
                    continue;
                }
                self.m[i] = beta1 * self.m[i] + (1.0 - beta1) * g;
                self.v[i] = beta2 * self.v[i] + (1.0 - beta2) * g * g;
                self.w[i] -= self.rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            }
        }
    }
}

/// The model weights of an evaluation table (opening weight at `2i`, end weight at `2i + 1`).
pub fn to_model(weights: &Weights) -> [f64; INPUTS] {
    let mut w = [0f64; INPUTS];
    for (i, pair) in weights.0.iter().enumerate() {
        w[2 * i] = pair[0] as f64;
        w[2 * i + 1] = pair[1] as f64;
    }
    w
}

/// The evaluation table of model weights, rounded to whole centiflats.
pub fn from_model(w: &[f64; INPUTS]) -> Weights {
    let mut weights = Weights([[0; 2]; NF]);
    for (i, pair) in weights.0.iter_mut().enumerate() {
        *pair = [w[2 * i].round() as i32, w[2 * i + 1].round() as i32];
    }
    weights
}
