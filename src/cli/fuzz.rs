//! `cairn fuzz`: its command-line arguments.

use cairn_tools::fuzz::{FuzzConfig, Target};
use clap::{Args, ValueEnum};
use std::time::Duration;

/// The arguments of `cairn fuzz`.
#[derive(Args, Clone, Debug)]
#[command(
    after_help = "Prints one line per target and a total; exits 1 if anything failed.\n\n\
    Examples:\n  \
    cairn fuzz --inputs 100000\n  \
    nice -n 19 cairn fuzz --inputs 10000000 --seed 1 --threads 1\n  \
    cairn fuzz --target tps --target move --inputs 1000000 --seed 7"
)]
pub struct FuzzCli {
    /// Inputs in all, shared equally by the targets.
    #[arg(long, default_value_t = 1_000_000)]
    pub inputs: u64,
    /// Seed of every input; the same seed gives the same inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads per target (for the session target: sessions at once).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Fuzz only this target (repeatable); all of them without it.
    #[arg(long = "target", value_enum)]
    pub targets: Vec<TargetArg>,
    /// How long one input may take before it counts as a hang, in seconds.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
}

/// What is fuzzed: the command line's names of [`Target`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    /// TPS positions.
    Tps,
    /// Single PTN moves, at every board size.
    Move,
    /// Whole PTN files.
    PtnFile,
    /// The TEI command parser.
    TeiCommand,
    /// Lines fed to the real TEI loop.
    TeiSession,
}

impl From<TargetArg> for Target {
    fn from(target: TargetArg) -> Self {
        match target {
            TargetArg::Tps => Target::Tps,
            TargetArg::Move => Target::Move,
            TargetArg::PtnFile => Target::PtnFile,
            TargetArg::TeiCommand => Target::TeiCommand,
            TargetArg::TeiSession => Target::TeiSession,
        }
    }
}

impl From<&FuzzCli> for FuzzConfig {
    fn from(args: &FuzzCli) -> Self {
        FuzzConfig {
            inputs: args.inputs,
            seed: args.seed,
            threads: args.threads as usize,
            targets: if args.targets.is_empty() {
                Target::ALL.to_vec()
            } else {
                args.targets.iter().map(|&t| t.into()).collect()
            },
            timeout: Duration::from_secs(args.timeout),
        }
    }
}
