//! `cairn tune`: its command-line arguments.

use cairn_tak::board::Komi;
use cairn_tools::tune::import::TeacherUnits;
use cairn_tools::tune::selfplay::Shard;
use cairn_tools::tune::{NnueArgs, TuneArgs};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Arguments of `cairn tune`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    nice -n 10 cairn tune --generate --size 6 --games 2000 --nodes 3000 --out target/tune-s6.txt\n  \
    cairn tune --data target/tune-s6.txt --size 6 --rounds 5\n  \
    cairn tune --generate --size 6 --games 16000 --nodes 5000 --seed 7 --shard 3/16 \
    --out s6-part03.txt\n  \
    cairn tune --import vs-tiltak.ptn,tiltak-self.ptn --size 6 --out target/games-s6.txt\n  \
    cairn tune --data target/tune-s6.txt,target/games-s6.txt --size 6 --lambda 0.5 --rounds 8 \
    --steps 200 --write\n  \
    cairn tune --data target/tune-s6.txt --size 6 --lambda 0.3 --k 0.0026 --nnue s6.nnue \
    --epochs 12\n  \
    cairn tune --spsa spsa-s6.txt --size 6 --games 20000 --nodes 10000 --seed 3\n  \
    cairn tune --score-nets s6-r7.nnue,s6-r8.nnue --data s6-seed64-37.txt --size 6 \
    --lambda 0.5\n\n\
    Data lines are <TPS><TAB><result><TAB><half komi>[<TAB><score>]; # starts a comment.\n\
    The shards 1/N..N/N of one seed, concatenated in order, are the whole run.")]
pub struct TuneCli {
    /// Play self-play games and write their positions (instead of tuning).
    #[arg(long, conflicts_with_all = ["import", "data"])]
    pub generate: bool,
    /// Train a network (NNUE) on --data instead of the linear weights, and write it to this
    /// file (see src/eval/nnue.rs).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["generate", "import", "write"])]
    pub nnue: Option<PathBuf>,
    /// Tune the search's pruning and reduction constants by SPSA instead: game pairs of
    /// --games/2 at --nodes a move between perturbed values, recorded in (and resumed from)
    /// this state file (see src/tune/spsa.rs). --freeze names constants to leave alone.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["generate", "import", "data", "nnue", "write"])]
    pub spsa: Option<PathBuf>,
    /// Score these network files (comma-separated) beside the linear evaluation on every line
    /// of --data, split into game positions and siblings (instead of tuning): one yardstick
    /// for networks of different rounds. Give data none of them was trained on.
    #[arg(long, value_name = "FILES", value_delimiter = ',', conflicts_with_all = ["generate", "import", "nnue", "spsa", "write"])]
    pub score_nets: Vec<PathBuf>,
    /// SPSA's end rate r_end = a_end / c_end² (--spsa).
    #[arg(long, default_value_t = 0.002)]
    pub spsa_rate: f64,
    /// Passes over the training positions (--nnue).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    /// Positions per Adam step (--nnue).
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub batch: u32,
    /// Adam's step size in the first epoch (--nnue).
    #[arg(long, default_value_t = 0.001)]
    pub learning_rate: f64,
    /// The step size is multiplied by this after each epoch (--nnue).
    #[arg(long, default_value_t = 0.8)]
    pub decay: f64,
    /// Train on the positions as they are, without their 7 mirror images (--nnue).
    #[arg(long)]
    pub no_augment: bool,
    /// Train a correction added to the linear evaluation instead of a whole evaluation
    /// (--nnue): the network learns what the linear terms miss.
    #[arg(long)]
    pub residual: bool,
    /// With --residual: multiply the trained correction by this (more than 0, at most 1)
    /// before writing the network, or `auto`: the share (in steps of 0.05) whose validation
    /// losses on the game positions and on the siblings are lowest against the linear
    /// evaluation's.
    #[arg(long, default_value = "1", requires = "residual")]
    pub residual_scale: cairn_tools::tune::ResidualScale,
    /// The weight of a sibling's error (a position one random move off the game, scored by
    /// its search alone) against a game position's 1, above 0 and at most 100 (--nnue).
    #[arg(long, default_value_t = 1.0)]
    pub sibling_weight: f64,
    /// Start training from this network file instead of random weights (--nnue): a
    /// fine-tune of an earlier round on new data, usually at a lower --learning-rate. Its
    /// board size and --residual must match.
    #[arg(long, value_name = "FILE", requires = "nnue")]
    pub init: Option<PathBuf>,
    /// PTN files whose games become data lines in --out (instead of tuning), comma-separated.
    #[arg(long, value_delimiter = ',', conflicts_with = "data")]
    pub import: Vec<PathBuf>,
    /// With --import: the engine (a part of its player tag) whose comments' evaluations become
    /// the positions' scores, for tuning towards a stronger engine's judgement (--lambda).
    #[arg(long, requires = "import")]
    pub teacher: Option<String>,
    /// How the teacher's comments give its evaluation (--teacher).
    #[arg(long, value_enum, default_value_t = TeacherUnitsArg::Expectation)]
    pub teacher_units: TeacherUnitsArg,
    /// Play only part I of N of the games (--generate), for a batch system's array job.
    #[arg(long, value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Percentage of the searched positions (0-100) that also get a sibling (--generate): the
    /// position after one random other move, scored by its own search, written with result `*`
    /// (fitted to its score alone), so that an evaluation also learns positions off the games'
    /// lines, where a search spends most of its nodes.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub siblings: u32,
    /// Board size (3-8).
    #[arg(long, default_value_t = 6, value_parser = cairn_tak::board::parse_size)]
    pub size: u8,
    /// Games to play (--generate).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Nodes searched per move (--generate).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Komi in half flats, Black's favour (--generate).
    #[arg(long, default_value = "4", allow_negative_numbers = true, value_parser = super::half_komi_arg)]
    pub half_komi: Komi,
    /// Seed of the random starts (--generate).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Data file to write (--generate); default `target/tune-s<size>.txt`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Data files to tune on, comma-separated (each file's last --holdout share validates).
    #[arg(long, value_delimiter = ',')]
    pub data: Vec<PathBuf>,
    /// Weight of the game result in the target; the rest is the recorded search score.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Start from (and with --l2, stay near) another size's weights instead of this size's own:
    /// a prior for a size with little data.
    #[arg(long, value_parser = cairn_tak::board::parse_size)]
    pub start_from: Option<u8>,
    /// The logistic scale K, fixed (default: fitted to the data with the current weights).
    /// Fixing it keeps the evaluation on the scale the search's margins were set for. With
    /// --teacher, the scale that turns expected scores into centiflats (default
    /// the shipped weights' K).
    #[arg(long)]
    pub k: Option<f64>,
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
    /// Features to leave at their current weights, by name, comma-separated (e.g. `tempo`);
    /// with --spsa, search constants to leave alone (e.g. `lmr_base`).
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

/// How the evaluations in a teacher engine's comments are written: the command line's names of
/// [`TeacherUnits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TeacherUnitsArg {
    /// An expected score from -1 (Black wins) to +1 (White wins), as Tiltak reports.
    Expectation,
    /// Flats from White's point of view, as Cairn reports.
    Flats,
}

impl From<TeacherUnitsArg> for TeacherUnits {
    fn from(units: TeacherUnitsArg) -> Self {
        match units {
            TeacherUnitsArg::Expectation => TeacherUnits::Expectation,
            TeacherUnitsArg::Flats => TeacherUnits::Flats,
        }
    }
}

impl From<TuneCli> for TuneArgs {
    fn from(cli: TuneCli) -> Self {
        TuneArgs {
            generate: cli.generate,
            nnue: cli.nnue.map(|out| NnueArgs {
                out,
                epochs: cli.epochs,
                batch: cli.batch as usize,
                rate: cli.learning_rate,
                decay: cli.decay,
                augment: !cli.no_augment,
                residual: cli.residual,
                residual_scale: cli.residual_scale,
                sibling_weight: cli.sibling_weight,
                init: cli.init,
            }),
            spsa: cli.spsa,
            score_nets: cli.score_nets,
            spsa_rate: cli.spsa_rate,
            import: cli.import,
            teacher: cli.teacher,
            teacher_units: cli.teacher_units.into(),
            shard: cli.shard,
            siblings: cli.siblings,
            size: cli.size,
            games: cli.games,
            nodes: cli.nodes,
            komi: cli.half_komi,
            seed: cli.seed,
            out: cli.out,
            data: cli.data,
            lambda: cli.lambda,
            start_from: cli.start_from,
            k: cli.k,
            rounds: cli.rounds,
            steps: cli.steps,
            rate: cli.rate,
            l2: cli.l2,
            freeze: cli.freeze,
            holdout: cli.holdout,
            write: cli.write,
            params_dir: cli.params_dir,
        }
    }
}
