//! `cairn perft`: its arguments, and the leaf counts of the legal move tree depth by depth from
//! the position they name ([`cairn_tak::movegen::perft_divide`] does the counting).

use cairn_tak::board::Position;
use cairn_tak::movegen::perft_divide;
use cairn_tak::notation::{play_line, quote, tps, Tps};
use std::time::{Duration, Instant};

/// Arguments of `cairn perft`: the position, the depth, and how to count.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "Examples:\n  \
    cairn perft --size 6 --depth 5\n  \
    cairn perft --tps \"x5/x2,2S,x2/x2,121,x2/x5/x5 1 4\" --depth 3 --divide\n  \
    cairn perft --size 5 --moves \"a1 e5 c3\" --depth 4 --threads 2")]
pub struct PerftArgs {
    /// Board size (3-8) of the empty board [default: 6]; with --tps it must match the TPS.
    #[arg(long, value_parser = cairn_tak::board::parse_size)]
    pub size: Option<u8>,
    /// Start from this TPS instead of the empty board.
    #[arg(long)]
    pub tps: Option<String>,
    /// Plies to play first, in PTN, separated by spaces.
    #[arg(long)]
    pub moves: Option<String>,
    /// Deepest depth to count; every depth from 1 up is printed.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// Also print the leaf count below each root move at the deepest depth.
    #[arg(long)]
    pub divide: bool,
    /// Threads; the root moves are split between them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
}

/// The count of one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct PerftDepth {
    /// The depth, from 1.
    pub depth: u32,
    /// Leaves of the tree at this depth.
    pub leaves: u64,
    /// Time the count took.
    pub elapsed: Duration,
    /// With `--divide`, at the deepest depth: each root move in PTN and the leaves below it.
    pub divided: Vec<(String, u64)>,
}

/// Counts every depth from 1 to `--depth`, handing each to `depth_done` as it finishes;
/// `progress(depth, root moves done, root moves in all, elapsed)` is called as root moves
/// finish. `Err` is the one-line message naming the bad option.
pub fn run(
    args: &PerftArgs,
    progress: impl Fn(u32, usize, usize, Duration) + Sync,
    mut depth_done: impl FnMut(&PerftDepth),
) -> Result<(), String> {
    let size = match &args.tps {
        Some(text) => {
            let tps: Tps = text
                .parse()
                .map_err(|e| format!("--tps {}: {e}", quote(text)))?;
            if let Some(size) = args.size.filter(|&s| s as usize != tps.size) {
                return Err(format!(
                    "--size {size} does not match the {}x{} --tps",
                    tps.size, tps.size
                ));
            }
            tps.size
        }
        None => args.size.unwrap_or(6) as usize,
    };
    cairn_tak::with_size!(size, |N| count::<N>(args, &progress, &mut depth_done),
        else Err(format!("unsupported size {size}")))
}

fn count<const N: usize>(
    args: &PerftArgs,
    progress: &(impl Fn(u32, usize, usize, Duration) + Sync),
    depth_done: &mut impl FnMut(&PerftDepth),
) -> Result<(), String> {
    let mut pos = match &args.tps {
        Some(text) => tps::parse::<N>(text).map_err(|e| format!("--tps {}: {e}", quote(text)))?,
        None => Position::<N>::start(),
    };
    play_line(&mut pos, args.moves.as_deref().unwrap_or(""), |_, _| {})
        .map_err(|e| format!("--moves {e}"))?;
    for depth in 1..=args.depth {
        let started = Instant::now();
        let divided = perft_divide(&pos, depth, args.threads as usize, |done, total| {
            progress(depth, done, total, started.elapsed())
        });
        let elapsed = started.elapsed();
        let leaves = divided.iter().map(|&(_, n)| n).sum();
        let divided = if args.divide && depth == args.depth {
            divided
                .iter()
                .map(|(mv, n)| (mv.ptn::<N>().to_string(), *n))
                .collect()
        } else {
            Vec::new()
        };
        depth_done(&PerftDepth {
            depth,
            leaves,
            elapsed,
            divided,
        });
    }
    Ok(())
}
