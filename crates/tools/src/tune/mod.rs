//! `cairn tune`: self-play data generation, data checks, and fitting the evaluation and the
//! search to the data. Each mode is a subcommand:
//!
//! - `generate` plays games in-process ([`selfplay`]) and writes their positions with the game
//!   results and search scores to a data file; `--shard I/N` plays one part of such a run,
//!   `--siblings P` adds positions one random move off the games' lines for P% of them;
//! - `import` turns the games of PTN files into data lines ([`import`]);
//! - `check` reports what a set of data files holds ([`data`]): the runs, their shards present
//!   and missing, games and positions, parts cut short, parts of one run from different engines;
//! - `texel` fits the weights of one board size to such files ([`texel`]), printing the loss of
//!   each round, and with `--write` overwrites that size's params file
//!   (`crates/tak/src/eval/params/s<N>.rs`), recording the data and the losses in its header;
//! - `network` trains a network evaluation ([`network`], for [`cairn_tak::eval::nnue`]) on the
//!   same data, and `score` compares networks on it;
//! - `spsa` tunes the search's constants by self-play game pairs ([`spsa`]).
//!
//! Every fit checks its data first, as `check` does, and refuses a part cut short or a run with
//! a shard missing or from another engine unless `--allow-partial`.

pub mod data;
pub mod import;
pub mod network;
pub mod selfplay;
pub mod spsa;
pub mod texel;

use crate::output::OutputFile;
use crate::progress::Progress;
use crate::report::counted;
use cairn_tak::board::Komi;
use cairn_tak::eval::nnue::Network;
use cairn_tak::eval::params::{self, WEIGHTS};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Arguments of `cairn tune`: one of its modes.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "Examples:\n  \
    nice -n 10 cairn tune generate --size 6 --games 2000 --nodes 3000 --out tune-s6.txt\n  \
    cairn tune check s6-seed11-*.txt\n  \
    cairn tune texel --data tune-s6.txt --size 6 --rounds 5\n\n\
    `cairn tune MODE --help` gives each mode's options and examples. Data lines are \
    <TPS><TAB><result><TAB><half komi>[<TAB><score>]; # starts a comment.")]
pub struct TuneArgs {
    /// The mode.
    #[command(subcommand)]
    pub command: TuneCommand,
    /// Threads for the parallel work (self-play games, training, scoring) [default: all
    /// cores]; one leaves the other cores to a match running beside it.
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// The modes of `cairn tune`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum TuneCommand {
    /// Play self-play games and write their positions as data (one shard of a run with --shard).
    #[command(after_help = "Examples:\n  \
        nice -n 10 cairn tune generate --size 6 --games 2000 --nodes 3000 --out tune-s6.txt\n  \
        cairn tune generate --size 6 --games 16000 --nodes 5000 --seed 7 --shard 3/16 \
        --out s6-seed7-003.txt\n\n\
        The file is written as <OUT>.partial and renamed to OUT once every game is in, with \
        its `# games=` summary. The shards 1/N..N/N of one seed, concatenated in order, are the \
        whole run.")]
    Generate(GenerateArgs),
    /// Turn the games of PTN files into data lines.
    #[command(after_help = "Example:\n  \
        cairn tune import vs-tiltak.ptn tiltak-self.ptn --size 6 --teacher tiltak --out games-s6.txt")]
    Import(ImportArgs),
    /// Report what a set of data files holds: runs, shards present and missing, games,
    /// positions, parts cut short, and parts of one run from different engines.
    #[command(after_help = "Example:\n  \
        cairn tune check s6-seed11-*.txt\n\n\
        The exit code is 1 if anything is wrong: what a fit would refuse without --allow-partial.")]
    Check(CheckArgs),
    /// Fit the linear evaluation's weights to data files (Texel tuning).
    #[command(after_help = "Examples:\n  \
        cairn tune texel --data tune-s6.txt --size 6 --rounds 5\n  \
        cairn tune texel --data tune-s6.txt,games-s6.txt --size 6 --lambda 0.5 --rounds 8 \
        --steps 200 --write")]
    Texel(TexelArgs),
    /// Train a network evaluation (NNUE) on data files and write it to a file.
    #[command(after_help = "Example:\n  \
        cairn tune network --data tune-s6.txt --size 6 --lambda 0.3 --k 0.0026 --epochs 12 \
        --residual --residual-scale auto --out s6.nnue")]
    Network(NetworkArgs),
    /// Score network files beside the linear evaluation on every line of data files.
    #[command(after_help = "Example:\n  \
        cairn tune score s6-r7.nnue,s6-r8.nnue --data s6-seed64-37.txt --size 6 --lambda 0.5")]
    Score(ScoreArgs),
    /// Tune the search's pruning and reduction constants by SPSA on self-play game pairs.
    #[command(after_help = "Example:\n  \
        cairn tune spsa --state spsa-s6.txt --size 6 --games 20000 --nodes 10000 --seed 3")]
    Spsa(SpsaArgs),
}

/// The board size of a mode.
#[derive(clap::Args, Clone, Debug)]
pub struct SizeArg {
    /// Board size (3-8).
    #[arg(long, default_value_t = 6, value_parser = cairn_tak::board::parse_size)]
    pub size: u8,
}

/// How self-play games are played (`generate`, `spsa`).
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Komi in flats, Black's favour (the help text gives its range).
    #[arg(long, default_value = "2", allow_negative_numbers = true,
          help = format!("Komi in flats, Black's favour, {}", Komi::RANGE_TEXT))]
    pub komi: Komi,
    /// Seed of the random starts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `cairn tune generate`.
#[derive(clap::Args, Clone, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub size: SizeArg,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub play: PlayArgs,
    /// Play only part I of N of the games, for a batch system's array job.
    #[arg(long, value_parser = selfplay::Shard::parse)]
    pub shard: Option<selfplay::Shard>,
    /// Percentage of the searched positions (0-100) that also get a sibling: the position after
    /// one random other move, scored by its own search, written with result `*` (fitted to its
    /// score alone), so that an evaluation also learns positions off the games' lines, where a
    /// search spends most of its nodes.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub siblings: u32,
    /// Data file to write; default `tune-s<size>-seed<seed>.txt` in the current directory
    /// (`tune-s<size>-seed<seed>-<I>of<N>.txt` for a shard, zero-padded).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Arguments of `cairn tune import`.
#[derive(clap::Args, Clone, Debug)]
pub struct ImportArgs {
    /// PTN files whose games become data lines (several, or comma-separated).
    #[arg(required = true, value_delimiter = ',')]
    pub files: Vec<PathBuf>,
    /// Data file to write.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub size: SizeArg,
    /// The engine (a part of its player tag) whose comments' evaluations become the positions'
    /// scores, for tuning towards a stronger engine's judgement (--lambda).
    #[arg(long)]
    pub teacher: Option<String>,
    /// How the teacher's comments give its evaluation (--teacher).
    #[arg(long, value_enum, default_value_t = import::TeacherUnits::Expectation, requires = "teacher")]
    pub teacher_units: import::TeacherUnits,
    /// The logistic scale that turns a teacher's expected scores into centiflats (default the
    /// shipped weights' K).
    #[arg(long, requires = "teacher")]
    pub k: Option<f64>,
}

/// Arguments of `cairn tune check`.
#[derive(clap::Args, Clone, Debug)]
pub struct CheckArgs {
    /// The data files of the set (several, or comma-separated).
    #[arg(required = true, value_delimiter = ',')]
    pub files: Vec<PathBuf>,
}

/// The data of a fit, and how its target is made (`texel`, `network`, `score`).
#[derive(clap::Args, Clone, Debug)]
pub struct DataArgs {
    /// Data files, comma-separated (the shards of a run, other runs, imported games).
    #[arg(long, required = true, value_delimiter = ',')]
    pub data: Vec<PathBuf>,
    /// Take the data even if a part has no `# games=` summary (cut short), a run has a shard
    /// missing or twice, or its parts come from different engines (`cairn tune check` lists
    /// what is wrong).
    #[arg(long)]
    pub allow_partial: bool,
    /// Weight of the game result in the target (0 to 1); the rest is the recorded search score.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// The logistic scale K, fixed. `texel` fits it to the data by default; `network` and
    /// `score` use the shipped weights' K. Fixing it keeps the evaluation on the scale the
    /// search's margins were set for.
    #[arg(long)]
    pub k: Option<f64>,
    /// Share of the positions (the last ones of each file) held out for validation (`texel`,
    /// `network`).
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
}

/// Arguments of `cairn tune texel`.
#[derive(clap::Args, Clone, Debug)]
pub struct TexelArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub size: SizeArg,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub data: DataArgs,
    /// Start from (and with --l2, stay near) another size's weights instead of this size's own:
    /// a prior for a size with little data.
    #[arg(long, value_parser = cairn_tak::board::parse_size)]
    pub start_from: Option<u8>,
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
    /// Overwrite the size's params file (`<params-dir>/s<size>.rs`) with the tuned weights.
    #[arg(long)]
    pub write: bool,
    /// Folder of the params files (--write); default `crates/tak/src/eval/params` under the
    /// current directory, which must be the repository's top.
    #[arg(long, requires = "write")]
    pub params_dir: Option<PathBuf>,
}

/// Arguments of `cairn tune network`.
#[derive(clap::Args, Clone, Debug)]
pub struct NetworkArgs {
    /// The network file to write (see crates/tak/src/eval/nnue.rs).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub size: SizeArg,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub data: DataArgs,
    /// How the network is trained.
    #[command(flatten)]
    pub network: NnueArgs,
    /// Seed of the network's first weights.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `cairn tune score`.
#[derive(clap::Args, Clone, Debug)]
pub struct ScoreArgs {
    /// Network files to score (several, or comma-separated). Give data none of them was
    /// trained on.
    #[arg(required = true, value_delimiter = ',')]
    pub nets: Vec<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub size: SizeArg,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub data: DataArgs,
}

/// Arguments of `cairn tune spsa`.
#[derive(clap::Args, Clone, Debug)]
pub struct SpsaArgs {
    /// The state file: each pair as it ends is recorded in it, and a run started again with the
    /// same settings resumes from it (see crates/tools/src/tune/spsa.rs).
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub size: SizeArg,
    /// Game pairs of --games/2 at --nodes a move between perturbed values.
    #[command(flatten)]
    pub play: PlayArgs,
    /// SPSA's end rate r_end = a_end / c_end².
    #[arg(long, default_value_t = 0.002)]
    pub rate: f64,
    /// Search constants to leave alone, comma-separated (e.g. `lmr_base`).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
}

/// How `cairn tune network` trains a network.
#[derive(clap::Args, Clone, Debug)]
pub struct NnueArgs {
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub batch: u32,
    /// Adam's step size in the first epoch.
    #[arg(long, default_value_t = 0.001)]
    pub learning_rate: f64,
    /// The step size is multiplied by this after each epoch.
    #[arg(long, default_value_t = 0.8)]
    pub decay: f64,
    /// Train on the positions as they are, without their 7 mirror images.
    #[arg(long)]
    pub no_augment: bool,
    /// Train a correction added to the linear evaluation instead of a whole evaluation: the
    /// network learns what the linear terms miss.
    #[arg(long)]
    pub residual: bool,
    /// With --residual: multiply the trained correction by this (more than 0, at most 1)
    /// before writing the network, or `auto`: the share (in steps of 0.05) whose validation
    /// losses on the game positions and on the siblings are lowest against the linear
    /// evaluation's.
    #[arg(long, default_value = "1", requires = "residual")]
    pub residual_scale: ResidualScale,
    /// The weight of a sibling's error (a position one random move off the game, scored by
    /// its search alone) against a game position's 1, above 0 and at most 100.
    #[arg(long, default_value_t = 1.0)]
    pub sibling_weight: f64,
    /// Start training from this network file instead of random weights: a fine-tune of an
    /// earlier round on new data, usually at a lower --learning-rate. Its board size and
    /// --residual must match.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
}

/// The share of a residual network's correction that `cairn tune network` writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ResidualScale {
    /// This share, in (0, 1].
    Fixed(f64),
    /// The share, in steps of 0.05, whose validation losses on the games' positions and on
    /// the siblings are lowest against the linear evaluation's (see [`network::best_scale`]).
    Auto,
}

impl std::str::FromStr for ResidualScale {
    type Err = String;

    /// `auto` or a number (checked for its range where the network is trained).
    fn from_str(text: &str) -> Result<Self, String> {
        if text.eq_ignore_ascii_case("auto") {
            return Ok(ResidualScale::Auto);
        }
        text.parse::<f64>()
            .map(ResidualScale::Fixed)
            .map_err(|_| format!("`{text}`: expected a share of the correction (0 to 1) or auto"))
    }
}

/// The modes of the old single-command form (`cairn tune --generate ...`), each with the
/// subcommand that replaced it: `tune` names the new form when it meets one.
pub const OLD_MODES: [(&str, &str); 6] = [
    ("--generate", "generate"),
    ("--import", "import FILES"),
    ("--nnue", "network --out FILE"),
    ("--score-nets", "score FILES"),
    ("--spsa", "spsa --state FILE"),
    ("--data", "texel --data FILES"),
];

/// Runs `cairn tune`; returns the exit code (errors are one line on stderr).
pub fn run(args: TuneArgs) -> i32 {
    let with_size = |size: &SizeArg| size.size as usize;
    let pool = match crate::workers::pool(args.threads) {
        Ok(pool) => pool,
        Err(message) => {
            eprintln!("error: {message}");
            return 1;
        }
    };
    let outcome = pool.install(|| match &args.command {
        TuneCommand::Generate(a) => {
            cairn_tak::with_size!(with_size(&a.size), |N| generate::<N>(a), else unreachable!())
        }
        TuneCommand::Import(a) => {
            cairn_tak::with_size!(with_size(&a.size), |N| import::<N>(a), else unreachable!())
        }
        TuneCommand::Check(a) => check(a),
        TuneCommand::Texel(a) => {
            cairn_tak::with_size!(with_size(&a.size), |N| tune::<N>(a), else unreachable!())
        }
        TuneCommand::Network(a) => {
            cairn_tak::with_size!(with_size(&a.size), |N| train_nnue::<N>(a), else unreachable!())
        }
        TuneCommand::Score(a) => {
            cairn_tak::with_size!(with_size(&a.size), |N| score_nets::<N>(a), else unreachable!())
        }
        TuneCommand::Spsa(a) => {
            cairn_tak::with_size!(with_size(&a.size), |N| run_spsa::<N>(a), else unreachable!())
        }
    });
    match outcome {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            1
        }
    }
}

/// `tune check`: the report on stdout; an error (exit code 1) if the set has problems.
fn check(args: &CheckArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    data::report(&args.files, &mut stdout.lock())
}

/// The default data file of a generation run, in the current directory: size and seed, and for
/// a shard its number and count, zero-padded to at least 3 digits so that names sort in order.
pub fn default_out(size: usize, seed: u64, shard: selfplay::Shard) -> PathBuf {
    if shard == selfplay::Shard::WHOLE {
        return PathBuf::from(format!("tune-s{size}-seed{seed}.txt"));
    }
    let width = shard.count.to_string().len().max(3);
    PathBuf::from(format!(
        "tune-s{size}-seed{seed}-{:0width$}of{:0width$}.txt",
        shard.index + 1,
        shard.count
    ))
}

/// Time between the progress lines of a generation when stderr is not a terminal.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

fn generate<const N: usize>(args: &GenerateArgs) -> Result<(), String> {
    let play = &args.play;
    let shard = args.shard.unwrap_or(selfplay::Shard::WHOLE);
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(N, play.seed, shard));
    let name = path.display();
    let mut file = OutputFile::create("--out", &path)?;
    let settings = selfplay::Settings {
        games: play.games as usize,
        nodes: play.nodes,
        komi: play.komi,
        seed: play.seed,
        max_plies: 400,
        shard,
        siblings: args.siblings,
    };
    let games = shard.games(settings.games).len();
    eprintln!(
        "tune: {games} games ({}) -> {name} (as {name}.partial until done)",
        if shard == selfplay::Shard::WHOLE {
            "the whole run".to_string()
        } else {
            format!("shard {shard} of {}", settings.games)
        }
    );
    let started = Instant::now();
    let progress = Progress::new("tune", games as u64, "games", PROGRESS_EVERY);
    let summary = selfplay::generate::<N>(&settings, &mut file, &|summary| {
        progress.inc(1, || {
            let draws = 100.0 * summary.draw_rate();
            format!("{} positions, draws {draws:.1}%", summary.positions)
        })
    });
    progress.finish();
    let summary = summary.map_err(|e| format!("--out {name}: {e}"))?;
    file.finish()?;
    println!(
        "{} ({} won by White, {} by Black, {} drawn = {:.1}%; {} by road, {} on flats, {} \
         unfinished), {} ({} of them siblings), {:.0} s -> {name}",
        counted(summary.games as u64, "game"),
        summary.white,
        summary.black,
        summary.draws,
        100.0 * summary.draw_rate(),
        summary.roads,
        summary.flats,
        summary.unfinished,
        counted(summary.positions as u64, "position"),
        summary.siblings,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_spsa<const N: usize>(args: &SpsaArgs) -> Result<(), String> {
    use cairn_search::Tunables;
    let path = &args.state;
    let play = &args.play;
    let frozen = args
        .freeze
        .iter()
        .map(|name| {
            Tunables::index(name)
                .ok_or_else(|| format!("--freeze: `{name}` is not a search constant"))
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let settings = spsa::SpsaSettings {
        pairs: (play.games as usize).div_ceil(2),
        nodes: play.nodes,
        komi: play.komi,
        seed: play.seed,
        max_plies: 300,
        rate: args.rate,
        frozen,
    };
    let started = Instant::now();
    let state = spsa::run::<N>(&settings, path)?;
    println!(
        "{} pairs, score {:+.1} for the + side, {:.0} s -> {}",
        state.done,
        state.score,
        started.elapsed().as_secs_f64(),
        path.display()
    );
    let tuned = Tunables::from_values(&state.theta);
    for (spec, (from, to)) in Tunables::SPECS
        .iter()
        .zip(Tunables::DEFAULT.values().into_iter().zip(tuned.values()))
    {
        println!("{:<20} {from:>8} -> {to}", spec.name);
    }
    println!("{}={}", cairn_search::params::TUNE_ENV, tuned.to_env());
    Ok(())
}

fn import<const N: usize>(args: &ImportArgs) -> Result<(), String> {
    let path = &args.out;
    let name = path.display();
    // Read every input first, so that a missing one fails before anything is written.
    let texts = args
        .files
        .iter()
        .map(|p| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect::<Result<Vec<String>, String>>()?;
    let mut out = OutputFile::create("--out", path)?;
    let files = args
        .files
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            )
        })
        .collect::<Vec<_>>()
        .join(" ");
    let io = |e: std::io::Error| format!("--out {name}: {e}");
    writeln!(out, "{}size {N}, games imported from {files}", data::HEADER).map_err(io)?;
    let teacher = args.teacher.as_ref().map(|name| import::Teacher {
        name: name.clone(),
        units: args.teacher_units,
        k: args.k.unwrap_or(cairn_tak::eval::SHIPPED_K),
    });
    let mut stats = import::ImportStats::default();
    for (p, text) in args.files.iter().zip(&texts) {
        let source = p.display().to_string();
        import::import_ptn::<N>(text, &source, teacher.as_ref(), &mut out, &mut stats)?;
        eprintln!("tune: {source}: {} games so far", stats.games);
    }
    println!(
        "{} games: {} used, {} of another size, {} without a result on the board, {} not \
         replayable; {} positions ({} with a teacher's score){}",
        stats.games,
        stats.used,
        stats.other_size,
        stats.no_result,
        stats.bad,
        stats.positions,
        stats.scored,
        if stats.used > 0 {
            format!(" -> {name}")
        } else {
            String::new()
        }
    );
    if stats.used == 0 {
        return Err(format!(
            "no {N}x{N} game with a result on the board; {name} not written"
        ));
    }
    writeln!(out, "{}", stats.summary.comment()).map_err(io)?;
    out.finish()?;
    Ok(())
}

/// Checks the result's weight in the target, which every fit and `score` read.
fn check_lambda(args: &DataArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {}: must be from 0 to 1", args.lambda));
    }
    Ok(())
}

/// Checks the arguments every fit shares: the result's weight in the target and the share held
/// out for validation.
fn check_split(args: &DataArgs) -> Result<(), String> {
    check_lambda(args)?;
    if !(0.0..0.9).contains(&args.holdout) {
        return Err(format!("--holdout {}: must be from 0 to 0.9", args.holdout));
    }
    Ok(())
}

/// The logistic scale of a network fit or score: `--k`, or the shipped weights' scale.
fn network_k(args: &DataArgs) -> Result<f64, String> {
    let k = args.k.unwrap_or(cairn_tak::eval::SHIPPED_K);
    if !(k > 0.0 && k.is_finite()) {
        return Err(format!("--k {k}: must be positive"));
    }
    Ok(k)
}

/// The network file `path` (named by `option` in errors), which must be for `N`×`N`.
fn read_network<const N: usize>(path: &Path, option: &str) -> Result<Network, String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{option} {name}: {e}"))?;
    let net = Network::from_bytes(&bytes).map_err(|e| format!("{option} {name}: {e}"))?;
    if net.size() != N {
        return Err(format!(
            "{option} {name}: a network for {0}x{0}, not {N}x{N}",
            net.size()
        ));
    }
    Ok(net)
}

/// `cairn tune score`: the linear evaluation's losses and each network's on every data line of the
/// data files, split into the games' own positions and the siblings. Each round of training
/// reports its losses on its own holdout; this scores networks of different rounds on the same
/// lines, so they can be compared before their SPRT (give lines none of them was trained on).
fn score_nets<const N: usize>(score: &ScoreArgs) -> Result<(), String> {
    use network::NetData;
    let args = &score.data;
    // Every line is scored, so --holdout does not apply.
    check_lambda(args)?;
    let k = network_k(args)?;
    let nets = score
        .nets
        .iter()
        .map(|path| {
            Ok((
                path.display().to_string(),
                read_network::<N>(path, "score")?,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    data::check_before_fit(&args.data, args.allow_partial)?;
    let mut data = NetData::default();
    for path in &args.data {
        let file = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("--data {file}: {e}"))?;
        let (_, lines) =
            NetData::read::<N>(&text, 1.0, false).map_err(|e| format!("--data {file}: {e}"))?;
        eprintln!("tune: {file}: {} positions", lines.len());
        data.append(lines)
            .map_err(|e| format!("--data {file}: {e}"))?;
    }
    if data.is_empty() {
        return Err("--data: no data lines to score on".to_string());
    }
    data.blend(args.lambda, k);
    let linear = data.split_loss(None, k);
    println!(
        "{N}x{N}: {} game positions, {} siblings (lambda {}, K {k})",
        linear.n_games, linear.n_siblings, args.lambda
    );
    let width = nets
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0)
        .max(6);
    println!(
        "{:<width$}  {:>9}  {:>9}  {:>9}",
        "", "games", "siblings", "vs linear"
    );
    let row = |name: &str, loss: &network::SplitLoss| {
        println!(
            "{name:<width$}  {:>9.6}  {:>9.6}  {:>9.4}",
            loss.games,
            loss.siblings,
            loss.relative_to(&linear)
        );
    };
    row("linear", &linear);
    for (name, net) in &nets {
        row(name, &data.split_loss(Some(net), k));
    }
    Ok(())
}

/// `cairn tune network`: a network trained on the data files, written to its file.
fn train_nnue<const N: usize>(fit: &NetworkArgs) -> Result<(), String> {
    use network::{Model, NetData, TrainConfig};
    let args = &fit.data;
    check_split(args)?;
    let nnue = &fit.network;
    if !(nnue.learning_rate > 0.0 && nnue.learning_rate < 1.0) {
        return Err(format!(
            "--learning-rate {}: must be above 0 and below 1",
            nnue.learning_rate
        ));
    }
    if !(nnue.decay > 0.0 && nnue.decay <= 1.0) {
        return Err(format!(
            "--decay {}: must be above 0 and at most 1",
            nnue.decay
        ));
    }
    if !(nnue.sibling_weight > 0.0 && nnue.sibling_weight <= 100.0) {
        return Err(format!(
            "--sibling-weight {}: must be above 0 and at most 100",
            nnue.sibling_weight
        ));
    }
    match nnue.residual_scale {
        ResidualScale::Fixed(s) if !(s > 0.0 && s <= 1.0) => {
            return Err(format!(
                "--residual-scale {s}: must be above 0 and at most 1, or auto"
            ));
        }
        ResidualScale::Fixed(1.0) => {}
        _ if !nnue.residual => {
            return Err("--residual-scale scales a correction: give --residual too".to_string());
        }
        _ => {}
    }
    let k = network_k(args)?;
    let out = &fit.out;
    let file = OutputFile::create("--out", out)?;
    data::check_before_fit(&args.data, args.allow_partial)?;
    let mut train = NetData::default();
    let mut valid = NetData::default();
    for path in &args.data {
        let file = path.display();
        let started = Instant::now();
        let text = std::fs::read_to_string(path).map_err(|e| format!("--data {file}: {e}"))?;
        let (t, v) = NetData::read::<N>(&text, args.holdout, !nnue.no_augment)
            .map_err(|e| format!("--data {file}: {e}"))?;
        eprintln!(
            "nnue: {file}: {} training samples, {} validation positions in {:.1} s",
            t.len(),
            v.len(),
            started.elapsed().as_secs_f64()
        );
        train.append(t).map_err(|e| format!("--data {file}: {e}"))?;
        valid.append(v).map_err(|e| format!("--data {file}: {e}"))?;
    }
    if train.is_empty() || valid.is_empty() {
        return Err(format!(
            "--data: {} training and {} validation positions; need some of each",
            train.len(),
            valid.len()
        ));
    }
    train.blend(args.lambda, k);
    valid.blend(args.lambda, k);
    let mut model = match &nnue.init {
        Some(path) => {
            let net = read_network::<N>(path, "--init")?;
            if net.is_residual() != nnue.residual {
                let (kind, with) = if net.is_residual() {
                    ("a residual", "with")
                } else {
                    ("a whole (not residual)", "without")
                };
                return Err(format!(
                    "--init {}: {kind} network; train it {with} --residual",
                    path.display()
                ));
            }
            Model::from_network(&net)
        }
        None => Model::new(
            cairn_tak::eval::nnue::Layout::of(N),
            fit.seed,
            nnue.residual,
        ),
    };
    let config = TrainConfig {
        epochs: nnue.epochs,
        batch: nnue.batch as usize,
        rate: nnue.learning_rate as f32,
        decay: nnue.decay as f32,
        seed: fit.seed,
        sibling_weight: nnue.sibling_weight as f32,
    };
    let (float, quantised) = model.train(&train, &valid, &config);
    let mut network = model.to_network();
    if nnue.residual {
        let scale = report_scales(&model, &valid, nnue.residual_scale);
        if scale != 1.0 {
            network = network.with_residual_scale(scale);
            eprintln!("nnue: correction scaled by {scale:.2}");
        }
    }
    let bytes = network.to_bytes();
    let name = out.display();
    file.commit(&bytes)?;
    println!(
        "{N}x{N} {}network: {} training samples, {} validation positions (lambda {}, K {k}); \
         validation loss {float:.6} (quantised {quantised:.6}), linear evaluation {:.6}; \
         {} bytes -> {name}",
        if nnue.residual { "residual " } else { "" },
        train.len(),
        valid.len(),
        args.lambda,
        valid.linear_loss(k),
        bytes.len()
    );
    Ok(())
}

/// Prints the validation losses of a residual `model` with its correction scaled, on the
/// games' own positions and on the siblings, beside the linear evaluation's; returns the scale
/// to write: `choice`'s, or the best of the steps for [`ResidualScale::Auto`].
fn report_scales(model: &network::Model, valid: &network::NetData, choice: ResidualScale) -> f32 {
    const STEPS: usize = 20;
    let mut scales: Vec<f32> = (0..=STEPS).map(|i| i as f32 / STEPS as f32).collect();
    let on_grid = |s: f64| scales.iter().position(|&g| (g as f64 - s).abs() < 1e-6);
    let fixed = match choice {
        ResidualScale::Fixed(s) => Some(on_grid(s).unwrap_or(STEPS + 1)),
        ResidualScale::Auto => None,
    };
    if let (ResidualScale::Fixed(s), Some(i)) = (choice, fixed) {
        if i > STEPS {
            scales.push(s as f32);
        }
    }
    let losses = model.scaled_losses(valid, &scales);
    let linear = losses[0];
    let chosen = fixed.unwrap_or_else(|| {
        let best = network::best_scale(&scales[1..=STEPS], &losses[1..=STEPS], &linear);
        scales.iter().position(|&g| g == best).expect("a step")
    });
    eprintln!(
        "nnue: validation by share of the correction: {} game positions, {} siblings",
        linear.n_games, linear.n_siblings
    );
    for (i, (&scale, loss)) in scales.iter().zip(&losses).enumerate() {
        if i % 5 == 0 && i <= STEPS || i == chosen {
            eprintln!(
                "nnue:   scale {scale:.2}: games {:.6}, siblings {:.6}, against linear {:.4}{}",
                loss.games,
                loss.siblings,
                loss.relative_to(&linear),
                if i == chosen { " <- written" } else { "" }
            );
        }
    }
    scales[chosen]
}

fn tune<const N: usize>(fit: &TexelArgs) -> Result<(), String> {
    let args = &fit.data;
    let name = args
        .data
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(",");
    check_split(args)?;
    if !(fit.l2 >= 0.0 && fit.l2.is_finite()) {
        return Err(format!("--l2 {}: must be 0 or more", fit.l2));
    }
    if !(fit.rate > 0.0 && fit.rate.is_finite()) {
        return Err(format!("--rate {}: must be positive", fit.rate));
    }
    let frozen = fit
        .freeze
        .iter()
        .map(|f| {
            params::NAMES.iter().position(|n| n == f).ok_or_else(|| {
                format!("--freeze {f}: no such feature (see crates/tak/src/eval/params)")
            })
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let params_out = if fit.write {
        Some(params_file::<N>(fit.params_dir.as_deref())?)
    } else {
        None
    };
    data::check_before_fit(&args.data, args.allow_partial)?;
    let mut train = texel::Dataset::default();
    let mut valid = texel::Dataset::default();
    for path in &args.data {
        let file = path.display();
        let started = Instant::now();
        let text = std::fs::read_to_string(path).map_err(|e| format!("--data {file}: {e}"))?;
        let mut part = texel::parse_data::<N>(&text).map_err(|e| format!("--data {file}: {e}"))?;
        eprintln!(
            "tune: {file}: {} positions ({} with a score) in {:.1} s",
            part.len(),
            part.scored(),
            started.elapsed().as_secs_f64()
        );
        valid.append(part.split_off_tail(args.holdout));
        train.append(part);
    }
    if train.len() < 10 {
        return Err(format!(
            "--data {name}: {} positions; need at least 10",
            train.len()
        ));
    }
    let draw_share = train.draw_share();
    let summary = train.summary.clone();
    let origin_size = fit.start_from.map_or(N, usize::from);
    let start = texel::to_model(WEIGHTS[origin_size]);
    // K is fitted to the results alone; the scores are then read on that scale.
    let k = match args.k {
        Some(k) if k > 0.0 && k.is_finite() => k,
        Some(k) => return Err(format!("--k {k}: must be positive")),
        None => texel::fit_k(&train, &start),
    };
    train.blend(args.lambda, k);
    valid.blend(args.lambda, k);
    let loss = |data: &texel::Dataset, w: &[f64; texel::INPUTS]| {
        if data.is_empty() {
            f64::NAN
        } else {
            texel::loss(data, w, k)
        }
    };
    let (first, first_valid) = (loss(&train, &start), loss(&valid, &start));
    println!(
        "{} positions ({} training, {} validation), {:.1}% from drawn games, {} with a score; \
         K = {k:.6}; lambda {}; loss {first:.6}, validation {first_valid:.6}",
        train.len() + valid.len(),
        train.len(),
        valid.len(),
        100.0 * draw_share,
        train.scored() + valid.scored(),
        args.lambda
    );
    let mut trainer = texel::Trainer::new(start, k, fit.rate);
    trainer.l2 = fit.l2;
    for &i in &frozen {
        trainer.frozen[2 * i] = true;
        trainer.frozen[2 * i + 1] = true;
    }
    let mut rounds = Vec::new();
    // Early stopping: keep the weights of the round with the lowest validation loss.
    let mut best = (first_valid, 0, start);
    for round in 1..=fit.rounds {
        let before = loss(&train, &trainer.w);
        trainer.run(&train, fit.steps as usize);
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
    for (i, (old, new)) in WEIGHTS[origin_size].0.iter().zip(&tuned.0).enumerate() {
        if old != new {
            println!("  {:<16} {:?} -> {:?}", params::NAMES[i], old, new);
        }
    }
    if fit.write {
        let games = match &summary {
            Some(s) => format!(
                "{} ({:.1}% drawn: {} won by White, {} by Black, {} drawn; {} by road, {} on \
                 flats)",
                counted(s.games as u64, "game"),
                100.0 * s.draw_rate(),
                s.white,
                s.black,
                s.draws,
                s.roads,
                s.flats
            ),
            None => "games not recorded".to_string(),
        };
        let file_name = args
            .data
            .iter()
            .map(|p| {
                Path::new(p).file_name().map_or_else(
                    || p.display().to_string(),
                    |f| f.to_string_lossy().into_owned(),
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let mut header = vec![
            "Tuned by `cairn tune texel --write` (Texel: logistic fit of the evaluation to game results"
                .to_string(),
            format!(
                "blended with search scores, lambda {}); generated, do not edit by hand.",
                args.lambda
            ),
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
                "Started from the {origin_size}x{origin_size} weights; K = {k:.6}; {} rounds of {} \
                 Adam steps (rate {}, l2 {}, frozen: {}); \
                 training loss per round:",
                fit.rounds,
                fit.steps,
                fit.rate,
                fit.l2,
                if fit.freeze.is_empty() {
                    "none".to_string()
                } else {
                    fit.freeze.join(",")
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
        let out = params_out.expect("opened with --write");
        let name = out.path().display().to_string();
        out.commit(params::render(N, &tuned, &header))?;
        println!("wrote {name}");
    }
    Ok(())
}

/// The params file `--write` overwrites, checked before the fit: `<dir>/s<N>.rs`, which must
/// exist (a folder without it is not the params folder).
fn params_file<const N: usize>(dir: Option<&Path>) -> Result<OutputFile, String> {
    let (dir, given) = match dir {
        Some(dir) => (dir, true),
        None => (Path::new("crates/tak/src/eval/params"), false),
    };
    let path = dir.join(format!("s{N}.rs"));
    if !path.is_file() {
        return Err(if given {
            format!("--params-dir {}: no s{N}.rs in it", dir.display())
        } else {
            format!(
                "--write: no {} here: run from the repository's top, or give --params-dir",
                path.display()
            )
        });
    }
    OutputFile::create("--write", &path)
}
