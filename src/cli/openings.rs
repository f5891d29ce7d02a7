//! `cairn openings`: its command-line arguments.

use cairn_tak::board::Komi;
use cairn_tools::openings::{Config, Job, Stage, MAX_PLIES};
use clap::Args;
use std::path::PathBuf;

/// Generate a balanced opening book: every distinct line of K plies (up to symmetry and
/// transposition), kept if a fixed search scores it near equal.
#[derive(Args, Debug)]
#[command(
    after_help = "The book is written one opening per line, plies in canonical PTN \
    separated by spaces (racetrack's move-list format); progress and a summary go to stderr.\n\n\
    Examples:\n  \
    cairn openings --size 6 --plies 2 --depth 6 --max-eval 30 --out openings/6s_2ply.txt\n  \
    cairn openings --size 6 --plies 4 --prefilter 0:50:40000,2:40:16000 --depth 4 --max-eval 20 \\\n    \
    --max-lines 8000 --out openings/6s_4ply.txt\n  \
    cairn openings --size 4 --plies 4 --placements-only --depth 2 --max-eval 50"
)]
pub struct OpeningsCli {
    /// Board size (3-8).
    #[arg(long, value_parser = cairn_tak::board::parse_size)]
    pub size: u8,
    /// Plies per opening (1-4).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    pub plies: u32,
    /// Keep a line only if the final search scores it within ±E centiflats (100 = one flat).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..20000))]
    pub max_eval: u32,
    /// Depth of the final fixed search (one thread, cleared table per position).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Komi in flats for the scoring (the help text gives its range).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "half_komi",
          help = format!("Komi in flats for the scoring, {} [default: 0]", Komi::RANGE_TEXT))]
    pub komi: Option<f64>,
    /// Komi in half flats (the help text gives its range).
    #[arg(long, allow_negative_numbers = true, value_parser = super::half_komi_arg,
          help = format!("Komi in half flats, {} (instead of --komi)", cairn_tak::board::HALF_KOMI_TEXT))]
    pub half_komi: Option<Komi>,
    /// Cheap stages before the final search, "DEPTH:BOUND,..." or "DEPTH:BOUND:MAX,..."
    /// (depth 0 = static evaluation): each drops the lines it scores beyond ±BOUND centiflats, then keeps at most
    /// MAX of them (a fixed pseudo-random sample: the smallest canonical keys).
    #[arg(long)]
    pub prefilter: Option<String>,
    /// Plies 3 and 4 are placements only (flats, walls, capstones; no spreads).
    #[arg(long)]
    pub placements_only: bool,
    /// Keep at most this many lines (a fixed pseudo-random sample of those that pass).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_lines: Option<u64>,
    /// Write the book here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

impl OpeningsCli {
    /// The run these arguments ask for; `Err` is the one-line message for the user.
    pub fn job(&self) -> Result<Job, String> {
        Ok(Job {
            size: self.size,
            config: self.config()?,
            threads: self.threads,
            out: self.out.clone(),
        })
    }

    /// The generation settings these arguments ask for.
    fn config(&self) -> Result<Config, String> {
        let komi = match (self.komi, self.half_komi) {
            (Some(flats), _) => {
                Komi::from_flats(flats).map_err(|e| format!("--komi {flats}: {e}"))?
            }
            (None, Some(komi)) => komi,
            (None, None) => Komi::ZERO,
        };
        let mut stages = match &self.prefilter {
            Some(text) => text
                .split(',')
                .map(|part| {
                    part.parse::<Stage>()
                        .map_err(|e| format!("--prefilter {e}"))
                })
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        stages.push(Stage {
            depth: self.depth,
            bound: self.max_eval as i32,
            max: self.max_lines.map(|m| m as usize),
        });
        Ok(Config {
            plies: self.plies,
            komi,
            stages,
            placements_only: self.placements_only,
        })
    }
}
