//! `cairn report`: its command-line arguments.

use cairn_tools::report::ReportArgs;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `cairn report`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Reads a match file written by racetrack or `cairn match` (Player1/Player2 \
    tags name the engines, `{eval/depth time}` comments follow their moves). Several files \
    between the same two engines (matches run side by side) are pooled into one report, their \
    games numbered in the order given.\n\n\
    Examples:\n  \
    cairn report games.ptn\n  \
    cairn report core1.ptn core2.ptn\n  \
    cairn report games.ptn --plot report.svg --links"
)]
pub struct ReportCli {
    /// The match files (PTN), one or more, between the same two engines.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Also draw the match as SVG: the first engine's Elo with its 95% interval after each game,
    /// and each engine's moves per game by kind.
    #[arg(long, value_name = "SVG")]
    pub plot: Option<PathBuf>,
    /// Also list a PTN Ninja link for each lost game, opened at its last ply.
    #[arg(long)]
    pub links: bool,
}

impl From<ReportCli> for ReportArgs {
    fn from(cli: ReportCli) -> Self {
        ReportArgs {
            files: cli.files,
            plot: cli.plot,
            links: cli.links,
        }
    }
}
