//! `cairn analyze`: its command-line arguments.

use cairn_tools::analyze::AnalyzeArgs;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `cairn analyze`.
#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
    cairn analyze --size 6 --moves \"a1 f6 d4 c3 d3\"\n  \
    cairn analyze --tps \"x6/x6/x2,2,x3/x2,1,x3/x6/x6 1 2\" --movetime 5000 --komi 2\n  \
    cairn analyze --ptn game.ptn --ply 21 --depth 10 --json\n  \
    cairn analyze --game game.ptn --movetime 1000 --out annotated.ptn\n  \
    cairn analyze --game game.ptn --movetime 1000 --plot eval.svg --link\n  \
    cairn analyze --tps \"x5/x5/x5/x5/x5 1 1\" --depth 8 --link\n\n\
    Evaluations come with the side's winning chance, from the evaluation's logistic scale (the\n\
    fitted K of `cairn tune`); a proven result is 100% or 0%. With --game, a ply that loses\n\
    --blunder percentage points of winning chance against the best move is `??`, two thirds of\n\
    that `?` and one third `?!`.")]
pub struct AnalyzeCli {
    /// The position as TPS (its size is the board size).
    #[arg(long, conflicts_with_all = ["ptn", "game", "size"])]
    pub tps: Option<String>,
    /// Plies to play first (after --tps, or from the empty board), in PTN, separated by spaces.
    #[arg(long, conflicts_with_all = ["ptn", "game"])]
    pub moves: Option<String>,
    /// Board size (3-8) of the empty board, when neither --tps nor a PTN file is given.
    #[arg(long, value_parser = cairn_tak::board::parse_size)]
    pub size: Option<u8>,
    /// A PTN file: analyse the position after --ply plies of its game (see --index).
    #[arg(long, conflicts_with = "game")]
    pub ptn: Option<PathBuf>,
    /// With --ptn: how many plies of the game to play first (default: all of them).
    #[arg(long, requires = "ptn")]
    pub ply: Option<usize>,
    /// A PTN file: annotate every ply of its game and write it back as PTN.
    #[arg(long)]
    pub game: Option<PathBuf>,
    /// With --game: write the annotated PTN to this file instead of stdout.
    #[arg(long, requires = "game")]
    pub out: Option<PathBuf>,
    /// Which game of the PTN file, 1-based.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub index: u32,
    /// Komi in flats (the help text gives its range).
    #[arg(long, allow_negative_numbers = true,
          help = format!("Komi in flats ({}); a PTN file's Komi tag is the default", cairn_tak::board::Komi::RANGE_TEXT))]
    pub komi: Option<f64>,
    /// Search time per position, ms (default 3000; 500 per position with --game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search depth (with no --movetime, the search stops only at this depth).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Search nodes (with no --movetime, the search stops only at this count).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads (default: one per core of the machine).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Transposition table size, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Lines to show for one position.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub multipv: u16,
    /// With --game: the winning chance lost against the best move, in percentage points, that
    /// makes a ply a blunder (`??`); two thirds of it make a mistake (`?`), one third an
    /// inaccuracy (`?!`).
    #[arg(long, default_value_t = 15.0)]
    pub blunder: f64,
    /// With --game: also draw the evaluation graph (White's winning chance per ply) as SVG.
    #[arg(long, requires = "game", value_name = "SVG")]
    pub plot: Option<PathBuf>,
    /// Print a PTN Ninja link: of the annotated game with --game (instead of its PTN; --out
    /// still writes it), else of the position with the principal variation as its moves.
    #[arg(long, conflicts_with = "solve")]
    pub link: bool,
    /// Machine-readable output: one JSON object (one per ply with --game).
    #[arg(long)]
    pub json: bool,
    /// Run the tinue prover instead of the search: does the side to move force a road? Uses
    /// --movetime, --nodes and --depth (longest proof in plies) as its budget.
    #[arg(long, conflicts_with_all = ["game", "multipv"])]
    pub solve: bool,
}

impl From<AnalyzeCli> for AnalyzeArgs {
    fn from(cli: AnalyzeCli) -> Self {
        AnalyzeArgs {
            tps: cli.tps,
            moves: cli.moves,
            size: cli.size,
            ptn: cli.ptn,
            ply: cli.ply,
            game: cli.game,
            out: cli.out,
            index: cli.index,
            komi: cli.komi,
            movetime: cli.movetime,
            depth: cli.depth,
            nodes: cli.nodes,
            threads: cli.threads,
            hash: cli.hash,
            multipv: cli.multipv,
            blunder: cli.blunder,
            plot: cli.plot,
            link: cli.link,
            json: cli.json,
            solve: cli.solve,
        }
    }
}
