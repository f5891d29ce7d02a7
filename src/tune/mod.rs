//! `cairn tune`: self-play data generation and Texel tuning of the evaluation weights.
//!
//! - `--generate` plays games in-process ([`selfplay`]) and writes their positions with the game
//!   results to a data file;
//! - `--data` fits the weights of one board size to such a file ([`texel`]), printing the loss of
//!   each round, and with `--write` overwrites that size's params file
//!   (`src/eval/params/s<N>.rs`), recording the data and the losses in its header.

pub mod selfplay;
pub mod texel;

use crate::eval::params::{self, WEIGHTS};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `cairn tune`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    nice -n 10 cairn tune --generate --size 6 --games 2000 --nodes 3000 --out target/tune-s6.txt\n  \
    cairn tune --data target/tune-s6.txt --size 6 --rounds 5\n  \
    cairn tune --data target/tune-s6.txt --size 6 --rounds 8 --steps 200 --write\n\n\
    Data lines are <TPS><TAB><result><TAB><half komi>; # starts a comment.")]
pub struct TuneArgs {
    /// Play self-play games and write their positions (instead of tuning).
    #[arg(long)]
    pub generate: bool,
    /// Board size (3-8).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(3..=8))]
    pub size: u8,
    /// Games to play (--generate).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Nodes searched per move (--generate).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Komi in half flats, Black's favour (--generate).
    #[arg(long, default_value_t = 4, allow_negative_numbers = true)]
    pub half_komi: i8,
    /// Seed of the random starts (--generate).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Data file to write (--generate); default `target/tune-s<size>.txt`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Data file to tune on.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Tuning rounds; the loss is printed after each.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// Adam steps per round.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub steps: u32,
    /// Adam step size, in centiflats.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Penalty on the squared distance of the weights from the current ones (per centiflat²).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Features to leave at their current weights, by name, comma-separated (e.g. `tempo`).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
    /// Share of the positions (the last ones) held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Overwrite the size's params file with the tuned weights.
    #[arg(long)]
    pub write: bool,
    /// Folder of the params files (--write).
    #[arg(long, default_value = "src/eval/params")]
    pub params_dir: PathBuf,
}

/// Runs `cairn tune`; returns the exit code (errors are one line on stderr).
pub fn run(args: TuneArgs) -> i32 {
    let size = args.size as usize;
    let outcome = if args.generate {
        crate::with_size!(size, |N| generate::<N>(&args), else unreachable!())
    } else {
        crate::with_size!(size, |N| tune::<N>(&args), else unreachable!())
    };
    match outcome {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            1
        }
    }
}

fn generate<const N: usize>(args: &TuneArgs) -> Result<(), String> {
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("target/tune-s{N}.txt")));
    let name = path.display();
    let file = std::fs::File::create(&path).map_err(|e| format!("--out {name}: {e}"))?;
    let settings = selfplay::Settings {
        games: args.games as usize,
        nodes: args.nodes,
        half_komi: args.half_komi,
        seed: args.seed,
        max_plies: 400,
    };
    let started = Instant::now();
    let summary = selfplay::generate::<N>(&settings, &mut std::io::BufWriter::new(file))
        .map_err(|e| format!("--out {name}: {e}"))?;
    println!(
        "{} games ({} white, {} black, {} draws = {:.1}%; {} roads, {} flats, {} unfinished), \
         {} positions, {:.0} s -> {name}",
        summary.games,
        summary.white,
        summary.black,
        summary.draws,
        100.0 * summary.draw_rate(),
        summary.roads,
        summary.flats,
        summary.unfinished,
        summary.positions,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn tune<const N: usize>(args: &TuneArgs) -> Result<(), String> {
    let path = args
        .data
        .as_ref()
        .ok_or("give --data FILE to tune on (or --generate to make one)")?;
    let name = path.display();
    if !(0.0..0.9).contains(&args.holdout) {
        return Err(format!("--holdout {}: must be from 0 to 0.9", args.holdout));
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(format!("--l2 {}: must be 0 or more", args.l2));
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err(format!("--rate {}: must be positive", args.rate));
    }
    let frozen = args
        .freeze
        .iter()
        .map(|f| {
            params::NAMES
                .iter()
                .position(|n| n == f)
                .ok_or_else(|| format!("--freeze {f}: no such feature (see src/eval/params)"))
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("--data {name}: {e}"))?;
    let mut train = texel::parse_data::<N>(&text).map_err(|e| format!("--data {name}: {e}"))?;
    if train.len() < 10 {
        return Err(format!(
            "--data {name}: {} positions; need at least 10",
            train.len()
        ));
    }
    let draw_share = train.draw_share();
    let summary = train.summary.clone();
    let valid = train.split_off_tail(args.holdout);
    let start = texel::to_model(WEIGHTS[N]);
    let k = texel::fit_k(&train, &start);
    let loss = |data: &texel::Dataset, w: &[f64; texel::INPUTS]| {
        if data.is_empty() {
            f64::NAN
        } else {
            texel::loss(data, w, k)
        }
    };
    let (first, first_valid) = (loss(&train, &start), loss(&valid, &start));
    println!(
        "{} positions ({} training, {} validation), {:.1}% from drawn games; K = {k:.6}; \
         loss {first:.6}, validation {first_valid:.6}",
        train.len() + valid.len(),
        train.len(),
        valid.len(),
        100.0 * draw_share
    );
    let mut trainer = texel::Trainer::new(start, k, args.rate);
    trainer.l2 = args.l2;
    for &i in &frozen {
        trainer.frozen[2 * i] = true;
        trainer.frozen[2 * i + 1] = true;
    }
    let mut rounds = Vec::new();
    // Early stopping: keep the weights of the round with the lowest validation loss.
    let mut best = (first_valid, 0, start);
    for round in 1..=args.rounds {
        let before = loss(&train, &trainer.w);
        trainer.run(&train, args.steps as usize);
        let after = loss(&train, &trainer.w);
        let valid_after = loss(&valid, &trainer.w);
        println!(
            "round {round}: {} positions, loss {before:.6} -> {after:.6} (gain {:.6}), \
             validation {valid_after:.6}",
            train.len(),
            before - after
        );
        rounds.push(format!(
            "- round {round}: {before:.6} -> {after:.6} (validation {valid_after:.6})"
        ));
        if valid.is_empty() || valid_after < best.0 {
            best = (valid_after, round, trainer.w);
        }
    }
    println!("keeping round {} (lowest validation loss)", best.1);
    let tuned = texel::from_model(&best.2);
    let rounded = texel::to_model(&tuned);
    let (last, last_valid) = (loss(&train, &rounded), loss(&valid, &rounded));
    println!("rounded weights: loss {last:.6}, validation {last_valid:.6}");
    for (i, (old, new)) in WEIGHTS[N].0.iter().zip(&tuned.0).enumerate() {
        if old != new {
            println!("  {:<16} {:?} -> {:?}", params::NAMES[i], old, new);
        }
    }
    if args.write {
        let games = match &summary {
            Some(s) => format!(
                "{} games ({:.1}% drawn: {} white, {} black, {} draws; {} roads, {} flats)",
                s.games,
                100.0 * s.draw_rate(),
                s.white,
                s.black,
                s.draws,
                s.roads,
                s.flats
            ),
            None => "games not recorded".to_string(),
        };
        let file_name = Path::new(path)
            .file_name()
            .map_or_else(|| name.to_string(), |f| f.to_string_lossy().into_owned());
        let mut header = vec![
            "Tuned by `cairn tune --write` (Texel: logistic fit of the evaluation to self-play"
                .to_string(),
            "results); generated, do not edit by hand.".to_string(),
            String::new(),
            format!(
                "Data: {file_name} ({}):",
                train.origin.as_deref().unwrap_or("settings not recorded")
            ),
            format!("{games};"),
            format!(
                "{} positions ({} training, {} validation), {:.1}% of them from drawn games.",
                train.len() + valid.len(),
                train.len(),
                valid.len(),
                100.0 * draw_share
            ),
            format!(
                "K = {k:.6}; {} rounds of {} Adam steps (rate {}, l2 {}, frozen: {}); \
                 training loss per round:",
                args.rounds,
                args.steps,
                args.rate,
                args.l2,
                if args.freeze.is_empty() {
                    "none".to_string()
                } else {
                    args.freeze.join(",")
                }
            ),
        ];
        header.extend(rounds);
        header.push(String::new());
        header.push(format!(
            "Kept round {}: loss {first:.6} -> {last:.6} (rounded weights), validation \
             {first_valid:.6} -> {last_valid:.6}.",
            best.1
        ));
        let out = args.params_dir.join(format!("s{N}.rs"));
        std::fs::write(&out, params::render(N, &tuned, &header))
            .map_err(|e| format!("--write {}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}
