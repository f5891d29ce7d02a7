//! Fitting Tablut's evaluation weights: self-play games at a fixed node count, then the
//! logistic fit that Tak's weights get ([`crate::tune::texel`]), on Tablut's terms.
//!
//! Game `g` of a run depends only on the seed and `g`: its opening is a few random moves, then
//! each side searches a fixed number of nodes on one thread with its own table, so the data is
//! the same at any thread count. Every position after the opening is a row: the terms of
//! [`cairn_tablut::eval::features`] from the side to move's point of view, and 1 if that side won, 0 if
//! it lost (Tablut has no draws), blended with the search's score of the position as Tak's data
//! is. The weights are fitted with the logistic scale fixed at Tak's
//! ([`cairn_tak::eval::SHIPPED_K`]), so that an evaluation means the same expected score in
//! both games and the search's margins keep their sense. How the shipped weights
//! ([`cairn_tablut::eval::WEIGHTS`]) were made, and what they gained in play, is in
//! docs/tablut.md.

use crate::tune::texel::{self, Dataset, Trainer};
use cairn_search::rng::Rng;
use cairn_search::{self as search, Limits, SearchConfig, TranspositionTable};
use cairn_tablut::board::{Position, Side};
use cairn_tablut::eval::{self, TERMS};
use cairn_tablut::game::{Status, TablutGame};
use cairn_tablut::search::WeightedPosition;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// Arguments of `cairn tablut tune`: how the data is made and the weights fitted.
#[derive(clap::Args, Clone, Debug)]
pub struct TuneArgs {
    /// Self-play games.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub games: u32,
    /// Nodes a move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// Random moves that open each game.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Seed of the openings; game g depends only on it and g.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game is dropped unfinished.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(2..))]
    pub max_plies: u32,
    /// Adam steps of the fit.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub steps: u64,
    /// Adam step size, in evaluation units.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// The share of the game result in the target (the rest: the search's score), 0 to 1.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// The weights both sides play with and the fit starts from, comma-separated in the order
    /// of the evaluation's terms (default: the shipped ones, so that each run is the next round).
    #[arg(long, value_parser = super::args::parse_weights, allow_hyphen_values = true)]
    pub weights: Option<[i32; TERMS]>,
}

impl TuneArgs {
    /// The weights the games are played with and the fit starts from: a run is one round of
    /// "new games, new fit", and the next round starts from its result.
    pub fn start_weights(&self) -> [i32; TERMS] {
        self.weights.unwrap_or(eval::WEIGHTS)
    }
}

/// What a run gave.
#[derive(Clone, Debug)]
pub struct TuneReport {
    /// Games played to the end.
    pub games: usize,
    /// Games won by White.
    pub white_wins: usize,
    /// Positions used, for training and for validation.
    pub train: usize,
    /// See [`TuneReport::train`].
    pub valid: usize,
    /// The scale of the fit, and the scale that would best fit the starting weights.
    pub k: f64,
    /// See [`TuneReport::k`].
    pub k_start: f64,
    /// Loss of the starting weights on the training and validation positions.
    pub start_loss: [f64; 2],
    /// Loss of the fitted weights on the same.
    pub fitted_loss: [f64; 2],
    /// The fitted weights, rounded.
    pub weights: [i32; TERMS],
}

/// One game's rows (the side to move's terms, and whether that side won) and its winner, or
/// `None` for a game that did not finish.
fn play_game(config: &TuneArgs, weights: &[i32; TERMS], number: u64) -> Option<(Vec<Row>, Side)> {
    let mut rng = Rng::new(config.seed ^ number.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut game = TablutGame::new(Position::start());
    for _ in 0..config.random_plies {
        let moves = game.position().legal_moves();
        game.play(moves[rng.below(moves.len())]).ok()?;
        if game.status() != Status::Ongoing {
            return None;
        }
    }
    let tt = TranspositionTable::new(4);
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut seen: Vec<([i32; TERMS], Side, f32)> = Vec::new();
    let winner = loop {
        if let Status::Won(side, _) = game.status() {
            break side;
        }
        if seen.len() as u32 >= config.max_plies {
            return None;
        }
        let pos = game.position();
        stop.store(false, Relaxed);
        let result = search::search(
            &WeightedPosition {
                pos: pos.clone(),
                weights,
            },
            game.hashes(),
            &limits,
            &SearchConfig::default(),
            &tt,
            &stop,
            &|_| {},
        );
        // A proven result has no evaluation to teach: the row keeps only the game's result.
        let score = if result.score.is_proven() {
            f32::NAN
        } else {
            result.score.0 as f32
        };
        seen.push((eval::features(pos), pos.side_to_move(), score));
        game.play(result.best?).ok()?;
    };
    let rows = seen
        .into_iter()
        .map(|(features, side, score)| {
            let sign = if side == Side::White { 1.0 } else { -1.0 };
            (
                features.map(|f| sign * f as f32),
                (side == winner) as u8 as f32,
                score,
            )
        })
        .collect();
    Some((rows, winner))
}

/// A position's terms for the side to move, 1 if that side won, and the search's score for it
/// (NaN when proven).
type Row = ([f32; TERMS], f32, f32);

/// Plays the games (in parallel, progress on stderr) and fits the weights, from the ones the
/// games were played with.
/// `Err` names a bad option, or says that no game finished.
pub fn run(config: &TuneArgs) -> Result<TuneReport, String> {
    if !(config.rate > 0.0 && config.rate.is_finite()) {
        return Err(format!("--rate {}: must be above 0", config.rate));
    }
    if !(0.0..=1.0).contains(&config.lambda) {
        return Err(format!("--lambda {}: must be from 0 to 1", config.lambda));
    }
    let weights = config.start_weights();
    let done = AtomicUsize::new(0);
    let games: Vec<Option<(Vec<Row>, Side)>> = (0..config.games as u64)
        .into_par_iter()
        .map(|g| {
            let rows = play_game(config, &weights, g);
            let n = done.fetch_add(1, Relaxed) + 1;
            if n % 100 == 0 || n == config.games as usize {
                eprintln!("tablut tune: {n}/{} games", config.games);
            }
            rows
        })
        .collect();
    let finished: Vec<&(Vec<Row>, Side)> = games.iter().flatten().collect();
    if finished.is_empty() {
        return Err("no game finished: raise --max-plies or --nodes".to_string());
    }
    // The last tenth of the games validates (whole games, so no position is in both sets).
    let split = finished.len() - finished.len() / 10;
    let mut train = Dataset::<TERMS>::default();
    let mut valid = Dataset::<TERMS>::default();
    let mut white_wins = 0;
    for (i, (rows, winner)) in finished.iter().enumerate() {
        white_wins += (*winner == Side::White) as usize;
        let data = if i < split { &mut train } else { &mut valid };
        for &(row, result, score) in rows.iter() {
            data.rows.push(row);
            data.results.push(result);
            data.targets.push(result);
            data.scores.push(score);
        }
    }
    let start = weights.map(f64::from);
    let k = cairn_tak::eval::SHIPPED_K;
    train.blend(config.lambda, k);
    valid.blend(config.lambda, k);
    let start_loss = [
        texel::loss(&train, &start, k),
        texel::loss(&valid, &start, k),
    ];
    let mut trainer = Trainer::new(start, k, config.rate);
    trainer.run(&train, config.steps as usize);
    let fitted = trainer.w;
    Ok(TuneReport {
        games: finished.len(),
        white_wins,
        train: train.len(),
        valid: valid.len(),
        k,
        k_start: texel::fit_k(&train, &start),
        start_loss,
        fitted_loss: [
            texel::loss(&train, &fitted, k),
            texel::loss(&valid, &fitted, k),
        ],
        weights: fitted.map(|w| w.round() as i32),
    })
}
