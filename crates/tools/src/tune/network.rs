//! Training a network (`cairn tune network`): the data files of `cairn tune`, as sparse inputs,
//! fitted by minibatch Adam on the CPU.
//!
//! Every data line (`<TPS> <result> <half komi> [<score>]`) becomes the active inputs of both
//! perspectives and a target for the side to move: `λ · result + (1 − λ) · sigmoid(K · score)`
//! where a score was recorded, the result elsewhere (the linear tuner's blend, same `K`). The
//! training positions are also used under the board's 7 other symmetries (Tak's rules do not
//! see them), which multiplies the samples by 8 (each position is stored once, its inputs
//! mapped to the symmetry as they are read: [`NetData`]); the validation positions (each file's
//! tail) are not, and the linear evaluation's loss on them is printed beside the network's as
//! the baseline. The loss is the mean squared error between `sigmoid(y)` and the target, a
//! sibling's error weighted by [`TrainConfig::sibling_weight`] against a game position's 1
//! (`--sibling-weight`: the siblings stand for the positions a search mostly meets). Each
//! minibatch's gradient is summed in parallel (rayon) over the samples, then one Adam step
//! updates every weight; first-layer weights are kept within ±[`W1_LIMIT`] so that the `i16`
//! accumulators of the quantised network cannot overflow. Runs are deterministic for a seed
//! (the initial weights and the order of the samples come from it; the parallel sums are
//! reduced in a fixed order).

use super::texel::{blended_target, parse_record, sigmoid};
use cairn_search::rng::Rng;
use cairn_tak::board::Position;
use cairn_tak::board::Square;
use cairn_tak::eval::nnue::{active, Active, Layout, Network, HIDDEN, PLANES};
use cairn_tak::eval::SHIPPED_K;
use rayon::prelude::*;

/// First-layer weights and biases stay within this (as `i16` times `QA`, a sum of a hundred of
/// them still fits).
pub const W1_LIMIT: f32 = 1.0;
/// Samples per parallel task in a minibatch.
const CHUNK: usize = 256;

/// Positions as the network sees them: the active inputs of both perspectives and a target.
///
/// Augmented data ([`NetData::read`] with `augment`) stores each position once and stands for
/// it under all 8 board symmetries: sample `k` is stored position `k / 8` turned by symmetry
/// `k % 8`, its inputs mapped through that symmetry's table as they are read. (Storing the 8
/// copies took 8 times the memory, 7 GB for 5.3 M data lines, and the `u32` offsets of
/// the inputs would have run out at about 7 M.)
#[derive(Clone, Debug)]
pub struct NetData {
    /// Active inputs of every stored position: the side to move's, then the other's, back to
    /// back.
    inputs: Vec<u16>,
    /// Per stored position, where its side to move's inputs start and where the other's start;
    /// the next position's start (or the total) ends them.
    starts: Vec<[u32; 2]>,
    /// Game result for the side to move (1, 0.5, 0).
    results: Vec<f32>,
    /// Recorded search score for the side to move, centiflats (NaN if none).
    scores: Vec<f32>,
    /// What the network is fitted to (see [`NetData::blend`]).
    targets: Vec<f32>,
    /// The linear evaluation of the position, centiflats: the baseline (the same under every
    /// symmetry).
    linear: Vec<f32>,
    /// Samples per stored position: 1, or 8 for augmented data.
    symmetries: usize,
    /// Per symmetry, where each input goes: `maps[s * inputs + i]`, the identity for `s = 0`
    /// (empty until the first position comes in).
    maps: Vec<u16>,
}

impl Default for NetData {
    fn default() -> NetData {
        NetData {
            inputs: Vec::new(),
            starts: Vec::new(),
            results: Vec::new(),
            scores: Vec::new(),
            targets: Vec::new(),
            linear: Vec::new(),
            symmetries: 1,
            maps: Vec::new(),
        }
    }
}

/// Per symmetry of the `N`×`N` board, where each input of [`active`] goes: a square's inputs
/// move with the square ([`cairn_tak::board::transform_square`]), the reserves and the komi stay.
fn symmetry_maps<const N: usize>() -> Vec<u16> {
    let layout = Layout::of(N);
    let mut maps = Vec::with_capacity(8 * layout.inputs);
    for s in 0..8u8 {
        maps.extend((0..layout.inputs).map(|i| {
            if i < layout.reserves {
                let (sq, plane) = (i / PLANES, i % PLANES);
                let to = cairn_tak::board::transform_square::<N>(Square(sq as u8), s);
                (to.index() * PLANES + plane) as u16
            } else {
                i as u16
            }
        }));
    }
    maps
}

impl NetData {
    /// The number of samples (stored positions times their symmetries).
    pub fn len(&self) -> usize {
        self.starts.len() * self.symmetries
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The stored position of sample `k`.
    #[inline]
    fn stored(&self, k: usize) -> usize {
        k / self.symmetries
    }

    /// Adds `pos` with its result and score for the side to move (as one sample, or 8 for
    /// augmented data). Fails if the inputs outgrow their `u32` offsets (some 50 M data lines).
    pub fn push<const N: usize>(
        &mut self,
        pos: &Position<N>,
        result: f32,
        score: f32,
    ) -> Result<(), String> {
        if self.maps.is_empty() {
            self.maps = symmetry_maps::<N>();
        } else if self.maps.len() != 8 * Layout::of(N).inputs {
            return Err(format!("a {N}x{N} position in data of another size"));
        }
        let me = pos.side_to_move();
        let (mut mine, mut theirs) = (Active::new(), Active::new());
        active(pos, me, &mut mine);
        active(pos, !me, &mut theirs);
        let first = self.inputs.len();
        let second = first + mine.len();
        // Checked before anything is added, so a failure leaves the data as it was.
        let starts = [offset(first)?, offset(second)?];
        offset(second + theirs.len())?;
        self.inputs.extend_from_slice(&mine);
        self.inputs.extend_from_slice(&theirs);
        self.starts.push(starts);
        self.results.push(result);
        self.scores.push(score);
        self.targets.push(result);
        self.linear.push(
            cairn_tak::eval::evaluate_with(pos, cairn_tak::eval::params::WEIGHTS[N]).0 as f32,
        );
        Ok(())
    }

    /// The two perspectives' active inputs of sample `k`, the side to move's first, as stored,
    /// with the table that maps them to the sample's symmetry.
    #[inline]
    fn sample(&self, k: usize) -> (&[u16], &[u16], &[u16]) {
        let i = self.stored(k);
        let [a, b] = self.starts[i];
        let end = self
            .starts
            .get(i + 1)
            .map_or(self.inputs.len() as u32, |s| s[0]);
        let inputs = self.maps.len() / 8;
        let map = &self.maps[k % self.symmetries * inputs..][..inputs];
        (
            &self.inputs[a as usize..b as usize],
            &self.inputs[b as usize..end as usize],
            map,
        )
    }

    /// The two perspectives' active inputs of sample `k`, mapped to its symmetry.
    fn sample_inputs(&self, k: usize) -> (Active, Active) {
        let (mine, theirs, map) = self.sample(k);
        let mapped = |inputs: &[u16]| inputs.iter().map(|&f| map[f as usize]).collect();
        (mapped(mine), mapped(theirs))
    }

    /// Sets the targets to `λ · result + (1 − λ) · sigmoid(k · score)` where a score was
    /// recorded, the result elsewhere.
    pub fn blend(&mut self, lambda: f64, k: f64) {
        for ((t, &r), &s) in self.targets.iter_mut().zip(&self.results).zip(&self.scores) {
            *t = blended_target(lambda, k, r, s);
        }
    }

    /// Mean squared error of the linear evaluation's prediction `sigmoid(k · eval)`.
    pub fn linear_loss(&self, k: f64) -> f64 {
        let sum: f64 = self
            .linear
            .iter()
            .zip(&self.targets)
            .map(|(&e, &t)| (sigmoid(k * e as f64) - t as f64).powi(2))
            .sum();
        sum / self.starts.len().max(1) as f64
    }

    /// Mean squared errors of a finished network's predictions, split into the games' own
    /// positions and the siblings; `None` is the linear evaluation (`sigmoid(k · eval)`).
    /// A residual network's correction is added to the linear evaluation's logit at the
    /// shipped scale, as in play.
    /// The network must be of the size the data was read for.
    pub fn split_loss(&self, net: Option<&Network>, k: f64) -> SplitLoss {
        (0..self.len())
            .into_par_iter()
            .fold(SplitLoss::default, |mut loss, i| {
                let j = self.stored(i);
                let linear = self.linear[j] as f64;
                let logit = match net {
                    None => k * linear,
                    Some(net) => {
                        let (mine, theirs) = self.sample_inputs(i);
                        let base = if net.is_residual() {
                            SHIPPED_K * linear
                        } else {
                            0.0
                        };
                        base + net.logit_of(&mine, &theirs) as f64
                    }
                };
                let e = (sigmoid(logit) - self.targets[j] as f64).powi(2);
                loss.add(e, self.results[j].is_nan());
                loss
            })
            .reduce(SplitLoss::default, |a, b| SplitLoss {
                games: a.games + b.games,
                siblings: a.siblings + b.siblings,
                n_games: a.n_games + b.n_games,
                n_siblings: a.n_siblings + b.n_siblings,
            })
            .means()
    }

    /// Reads the data lines of `text` (comments skipped): the last `holdout` share of them as
    /// validation samples, the rest as training samples, under all 8 symmetries if `augment`
    /// (see [`NetData`]). Errors name the line.
    pub fn read<const N: usize>(
        text: &str,
        holdout: f64,
        augment: bool,
    ) -> Result<(NetData, NetData), String> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i, l.trim_end_matches('\r')))
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
            .collect();
        let records = lines
            .par_iter()
            .map(|&(i, line)| parse_record::<N>(line).map_err(|e| format!("line {}: {e}", i + 1)))
            .collect::<Result<Vec<_>, String>>()?;
        let cut = records.len() - (records.len() as f64 * holdout).round() as usize;
        let (train, valid) = records.split_at(cut);
        let symmetries = if augment { 8 } else { 1 };
        let parts = train
            .par_chunks(4096)
            .map(|chunk| {
                let mut part = NetData {
                    symmetries,
                    ..NetData::default()
                };
                for (pos, result, score) in chunk {
                    part.push(pos, *result, *score)?;
                }
                Ok(part)
            })
            .collect::<Result<Vec<NetData>, String>>()?;
        let mut training = NetData::default();
        for part in parts {
            training.append(part)?;
        }
        let mut validation = NetData::default();
        for (pos, result, score) in valid {
            validation.push(pos, *result, *score)?;
        }
        Ok((training, validation))
    }

    /// Appends the samples of `other`, which must have the same symmetries (empty data takes
    /// `other`'s). Fails if the inputs outgrow their `u32` offsets (some 50 M data lines).
    pub fn append(&mut self, other: NetData) -> Result<(), String> {
        if other.is_empty() {
            return Ok(());
        }
        if self.is_empty() {
            *self = other;
            return Ok(());
        }
        if self.symmetries != other.symmetries || self.maps != other.maps {
            return Err("cannot join data of different sizes or augmentation".to_string());
        }
        let base = self.inputs.len();
        offset(base + other.inputs.len())?;
        let base = base as u32;
        self.inputs.extend_from_slice(&other.inputs);
        self.starts
            .extend(other.starts.iter().map(|&[a, b]| [a + base, b + base]));
        self.results.extend_from_slice(&other.results);
        self.scores.extend_from_slice(&other.scores);
        self.targets.extend_from_slice(&other.targets);
        self.linear.extend_from_slice(&other.linear);
        Ok(())
    }
}

/// An offset into [`NetData`]'s inputs, or the error that there are too many.
fn offset(at: usize) -> Result<u32, String> {
    u32::try_from(at).map_err(|_| {
        format!(
            "more than {} network inputs in memory: train on fewer data lines",
            u32::MAX
        )
    })
}

/// Mean squared errors on two kinds of position: the games' own (they have a result) and the
/// siblings, one random move off the games (result `*`, fitted to their score alone).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SplitLoss {
    /// The loss on the games' own positions.
    pub games: f64,
    /// The loss on the siblings.
    pub siblings: f64,
    /// How many of the games' own positions there are.
    pub n_games: usize,
    /// How many siblings there are.
    pub n_siblings: usize,
}

impl SplitLoss {
    /// Adds the squared error `e` of a sibling (`sibling`) or of a game position.
    fn add(&mut self, e: f64, sibling: bool) {
        if sibling {
            self.siblings += e;
            self.n_siblings += 1;
        } else {
            self.games += e;
            self.n_games += 1;
        }
    }

    /// The sums added so far as means.
    fn means(mut self) -> SplitLoss {
        self.games /= self.n_games.max(1) as f64;
        self.siblings /= self.n_siblings.max(1) as f64;
        self
    }

    /// Each kind's loss as a share of `baseline`'s, summed over the kinds that have positions:
    /// both kinds count alike, however many of each there are. The game positions are what
    /// the players chose; the siblings stand for the positions a search mostly evaluates.
    pub fn relative_to(&self, baseline: &SplitLoss) -> f64 {
        let share = |loss: f64, base: f64, n: usize| {
            if n == 0 || base <= 0.0 {
                0.0
            } else {
                loss / base
            }
        };
        share(self.games, baseline.games, self.n_games)
            + share(self.siblings, baseline.siblings, self.n_siblings)
    }
}

/// The share of a residual network's correction to keep: of `scales`, the one whose
/// `losses` (as [`Model::scaled_losses`] gives them, in the same order) are lowest relative
/// to the linear evaluation's (`linear`, the correction at scale 0). Ties go to the smaller
/// share.
pub fn best_scale(scales: &[f32], losses: &[SplitLoss], linear: &SplitLoss) -> f32 {
    let mut best = (f64::INFINITY, 1.0);
    for (&scale, loss) in scales.iter().zip(losses) {
        let value = loss.relative_to(linear);
        if value < best.0 {
            best = (value, scale);
        }
    }
    best.1
}

/// A network in training: float weights, the layout of [`Network`].
#[derive(Clone, Debug)]
pub struct Model {
    layout: Layout,
    /// Whether the output is added to the linear evaluation's logit (see [`Network`]).
    residual: bool,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

/// A gradient of a [`Model`] (or Adam's moments of one), with the loss summed beside it.
#[derive(Clone, Debug)]
struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    loss: f64,
}

impl Grad {
    fn zero(layout: &Layout) -> Grad {
        Grad {
            w1: vec![0.0; layout.inputs * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
        self.loss = 0.0;
    }

    fn add(&mut self, other: &Grad) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        self.b2 += other.b2;
        self.loss += other.loss;
    }
}

/// How a network is trained.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training samples.
    pub epochs: u32,
    /// Samples per Adam step.
    pub batch: usize,
    /// Adam's step size in the first epoch.
    pub rate: f32,
    /// The step size is multiplied by this after each epoch.
    pub decay: f32,
    /// Seed of the initial weights and of the sample order.
    pub seed: u64,
    /// Weight of a sibling's squared error (a position off the game's line, with no result)
    /// against a game position's 1.
    pub sibling_weight: f32,
}

impl Model {
    /// A model with small random weights (from `seed`), first-layer biases that leave most
    /// units in the clipped ReLU's slope.
    pub fn new(layout: Layout, seed: u64, residual: bool) -> Model {
        let mut rng = Rng::new(seed);
        let mut uniform = |a: f32| {
            let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * a
        };
        let w1 = (0..layout.inputs * HIDDEN).map(|_| uniform(0.1)).collect();
        let b1 = (0..HIDDEN).map(|_| 0.3 + uniform(0.1)).collect();
        let w2 = (0..2 * HIDDEN).map(|_| uniform(0.1)).collect();
        Model {
            layout,
            residual,
            w1,
            b1,
            w2,
            b2: 0.0,
        }
    }

    /// A model that starts from `net`'s weights, to train further on new data (a fine-tune):
    /// its quantised form is `net` again.
    pub fn from_network(net: &Network) -> Model {
        let (w1, b1, w2, b2) = net.float_weights();
        Model {
            layout: net.layout(),
            residual: net.is_residual(),
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// The accumulators of both perspectives and the output logit of sample `i`.
    #[inline]
    fn forward(&self, data: &NetData, i: usize, acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let (mine, theirs, map) = data.sample(i);
        let mut y = self.b2 + self.base(data, i);
        for (h, inputs) in [mine, theirs].into_iter().enumerate() {
            let a = &mut acc[h];
            a.copy_from_slice(&self.b1);
            for &f in inputs {
                let row = &self.w1[map[f as usize] as usize * HIDDEN..][..HIDDEN];
                for (x, &w) in a.iter_mut().zip(row) {
                    *x += w;
                }
            }
            let w2 = &self.w2[h * HIDDEN..][..HIDDEN];
            for (&x, &w) in a.iter().zip(w2) {
                let c = x.clamp(0.0, 1.0);
                y += c * c * w;
            }
        }
        y
    }

    /// The linear part of sample `i`'s logit for a residual model, else 0.
    #[inline]
    fn base(&self, data: &NetData, i: usize) -> f32 {
        if self.residual {
            data.linear[data.stored(i)] * SHIPPED_K as f32
        } else {
            0.0
        }
    }

    /// Adds the gradient of sample `i`'s squared error, times `sibling_weight` for a sibling,
    /// to `grad` (its loss unweighted).
    fn backward(&self, data: &NetData, i: usize, sibling_weight: f32, grad: &mut Grad) {
        let mut acc = [[0f32; HIDDEN]; 2];
        let y = self.forward(data, i, &mut acc);
        let p = sigmoid(y as f64) as f32;
        let j = data.stored(i);
        let err = p - data.targets[j];
        grad.loss += (err * err) as f64;
        let weight = if data.results[j].is_nan() {
            sibling_weight
        } else {
            1.0
        };
        let g = 2.0 * err * p * (1.0 - p) * weight;
        grad.b2 += g;
        let (mine, theirs, map) = data.sample(i);
        for (h, inputs) in [mine, theirs].into_iter().enumerate() {
            let mut delta = [0f32; HIDDEN];
            let w2 = &self.w2[h * HIDDEN..][..HIDDEN];
            let gw2 = &mut grad.w2[h * HIDDEN..][..HIDDEN];
            for j in 0..HIDDEN {
                let x = acc[h][j];
                let c = x.clamp(0.0, 1.0);
                gw2[j] += g * c * c;
                if x > 0.0 && x < 1.0 {
                    delta[j] = g * w2[j] * 2.0 * c;
                }
            }
            for (b, d) in grad.b1.iter_mut().zip(&delta) {
                *b += d;
            }
            for &f in inputs {
                let row = &mut grad.w1[map[f as usize] as usize * HIDDEN..][..HIDDEN];
                for (r, d) in row.iter_mut().zip(&delta) {
                    *r += d;
                }
            }
        }
    }

    /// Mean squared error on `data`, and the same for the quantised network.
    pub fn loss(&self, data: &NetData) -> (f64, f64) {
        let net = self.to_network();
        let (float, quantised) = (0..data.len())
            .into_par_iter()
            .map(|i| {
                let mut acc = [[0f32; HIDDEN]; 2];
                let y = self.forward(data, i, &mut acc);
                let (mine, theirs) = data.sample_inputs(i);
                let q = net.logit_of(&mine, &theirs) + self.base(data, i);
                let t = data.targets[data.stored(i)] as f64;
                (
                    (sigmoid(y as f64) - t).powi(2),
                    (sigmoid(q as f64) - t).powi(2),
                )
            })
            .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
        let n = data.len().max(1) as f64;
        (float / n, quantised / n)
    }

    /// Validation losses of a residual model with its correction multiplied by each of
    /// `scales` (0 is the linear evaluation alone, 1 the model as trained), split into the
    /// games' own positions and the siblings. The float model is used: the quantised one is
    /// within half a centiflat of it.
    pub fn scaled_losses(&self, data: &NetData, scales: &[f32]) -> Vec<SplitLoss> {
        assert!(self.residual, "only a correction can be scaled");
        let parts: Vec<(f32, f32, f32, bool)> = (0..data.len())
            .into_par_iter()
            .map(|i| {
                let mut acc = [[0f32; HIDDEN]; 2];
                let base = self.base(data, i);
                let y = self.forward(data, i, &mut acc);
                let j = data.stored(i);
                (base, y - base, data.targets[j], data.results[j].is_nan())
            })
            .collect();
        scales
            .iter()
            .map(|&scale| {
                let mut loss = SplitLoss::default();
                for &(base, correction, target, sibling) in &parts {
                    let p = sigmoid((base + scale * correction) as f64);
                    loss.add((p - target as f64).powi(2), sibling);
                }
                loss.means()
            })
            .collect()
    }

    /// The quantised network.
    pub fn to_network(&self) -> Network {
        Network::quantise(
            self.layout,
            &self.w1,
            &self.b1,
            &self.w2,
            self.b2,
            self.residual,
        )
    }

    /// Trains on `train` by `config`, printing each epoch's training loss and the validation
    /// losses (float and quantised) to stderr; returns the last validation losses.
    pub fn train(&mut self, train: &NetData, valid: &NetData, config: &TrainConfig) -> (f64, f64) {
        let mut rng = Rng::new(config.seed ^ 0x5EED);
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        let mut m = Grad::zero(&self.layout);
        let mut v = Grad::zero(&self.layout);
        let mut parts: Vec<Grad> = Vec::new();
        let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let mut step = 0i32;
        let mut rate = config.rate;
        let mut last = self.loss(valid);
        for epoch in 1..=config.epochs {
            let started = std::time::Instant::now();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut epoch_loss = 0.0;
            for batch in order.chunks(config.batch.max(1)) {
                // One gradient a chunk, summed in chunk order (the same sums whatever the
                // threads): kept from batch to batch and cleared, as fresh zeroed pages for
                // each were a tenth of the training's time in page faults.
                let chunks = batch.len().div_ceil(CHUNK);
                parts.resize_with(parts.len().max(chunks), || Grad::zero(&self.layout));
                batch
                    .par_chunks(CHUNK)
                    .zip(parts[..chunks].par_iter_mut())
                    .for_each(|(chunk, g)| {
                        g.clear();
                        for &i in chunk {
                            self.backward(train, i as usize, config.sibling_weight, g);
                        }
                    });
                let (first, rest) = parts[..chunks]
                    .split_first_mut()
                    .expect("a batch has samples");
                for other in rest.iter() {
                    first.add(other);
                }
                let grad = &*first;
                epoch_loss += grad.loss;
                step += 1;
                let scale = 1.0 / batch.len() as f32;
                let correct1 = 1.0 - beta1.powi(step);
                let correct2 = 1.0 - beta2.powi(step);
                let adam = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32, limit: f32| {
                    let g = g * scale;
                    *m = beta1 * *m + (1.0 - beta1) * g;
                    *v = beta2 * *v + (1.0 - beta2) * g * g;
                    let update = rate * (*m / correct1) / ((*v / correct2).sqrt() + eps);
                    *w = (*w - update).clamp(-limit, limit);
                };
                let adam_all = |w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], limit| {
                    for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m).zip(v) {
                        adam(w, g, m, v, limit);
                    }
                };
                adam_all(&mut self.w1, &grad.w1, &mut m.w1, &mut v.w1, W1_LIMIT);
                adam_all(&mut self.b1, &grad.b1, &mut m.b1, &mut v.b1, W1_LIMIT);
                adam_all(&mut self.w2, &grad.w2, &mut m.w2, &mut v.w2, f32::MAX);
                adam(&mut self.b2, grad.b2, &mut m.b2, &mut v.b2, f32::MAX);
            }
            last = self.loss(valid);
            eprintln!(
                "nnue: epoch {epoch}/{}: train {:.6}, validation {:.6} (quantised {:.6}), rate \
                 {rate:.2e}, {:.1} s",
                config.epochs,
                epoch_loss / train.len().max(1) as f64,
                last.0,
                last.1,
                started.elapsed().as_secs_f64()
            );
            rate *= config.decay;
        }
        last
    }
}
