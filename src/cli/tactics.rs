//! `cairn tactics`: its command-line arguments.

use cairn_tools::tactics::TacticsArgs;
use clap::Args;
use std::path::PathBuf;

/// `cairn tactics`: run the prover and the normal search on tactics files.
#[derive(Args, Debug)]
#[command(after_help = "For each file prints e.g.\n  \
    road-in-2: prover 183/190 (96.3%), search 170/190 (89.5%); mean time when solved: \
    prover 12 ms, search 95 ms\n\
    counting positions with a forced road solved within the time (the prover: proven in the \
    recorded plies; the search: a proven win). For positions without a forced road it prints \
    the false claims, which must be 0 for the prover. Progress goes to stderr.\n\n\
    Examples:\n  \
    cairn tactics tests/data/tactics/road-in-2.tsv\n  \
    cairn tactics tests/data/tactics/*.tsv --movetime 1000 --threads 1")]
pub struct TacticsCli {
    /// Tactics files (`TPS<TAB>plies` per line).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Time per position for each of prover and search, ms.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Transposition table of the search, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
}

impl From<TacticsCli> for TacticsArgs {
    fn from(cli: TacticsCli) -> Self {
        TacticsArgs {
            files: cli.files,
            movetime: cli.movetime,
            threads: cli.threads,
            hash: cli.hash,
        }
    }
}
