//! `cairn tablut`: the arguments of Tablut's subcommands, handed to [`cairn_tools::tablut`].

use cairn_tablut::eval::{TERMS, WEIGHTS};
use cairn_tablut::{notation, Side, TablutGame};
use cairn_tools::tablut::{self as tools, Effort};
use clap::{Args, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// Tablut's subcommands.
#[derive(Subcommand)]
pub enum TablutCommand {
    /// Analyse a position: the board, one line per search depth, the best move and its line.
    #[command(after_help = "Examples:\n  \
        cairn tablut analyze --movetime 2000\n  \
        cairn tablut analyze --moves \"e2-c2 e3-b3\" --depth 8\n  \
        cairn tablut analyze --position \"3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 b\"")]
    Analyze(AnalyzeArgs),
    /// Count the leaves of the legal move tree, depth by depth (a won game has none below it:
    /// an escape, a capture of the king, no legal move, or a move that repeats a position of the
    /// line or of --moves).
    #[command(
        after_help = "Prints `perft <depth> <leaves> <ms> ms <nps> nps` per depth.\n\n\
        Example:\n  cairn tablut perft --depth 4\n  cairn tablut perft --moves \"e2-c2\" --depth 3"
    )]
    Perft(PerftArgs),
    /// Play against Cairn in the terminal: the board is drawn after each move, you type yours
    /// in coordinates (e3-e1).
    Play(PlayArgs),
    /// Play Cairn against itself at two time controls, colours swapped over each opening.
    #[command(
        after_help = "Example (the engine at 1 s a move against 0.1 s, 10 pairs):\n  \
        cairn tablut selfplay --pairs 10 --first-ms 1000 --second-ms 100 --games-out games.txt"
    )]
    Selfplay(SelfplayArgs),
    /// Fit the evaluation's weights to self-play games at a fixed node count.
    #[command(
        after_help = "Prints the games, the positions, the loss of the starting and the \
        fitted weights on training and validation positions, and the fitted weights as a line of \
        Rust for src/tablut/eval.rs. Progress goes to stderr.\n\n\
        Example:\n  cairn tablut tune --games 2000 --nodes 3000 --seed 1"
    )]
    Tune(TuneArgs),
}

/// Where a position comes from.
#[derive(Args)]
pub struct Start {
    /// The position, one line (see `cairn tablut --help`); `startpos` for the usual start.
    #[arg(long, default_value = "startpos")]
    position: String,
    /// Moves to play first, in coordinates, separated by spaces.
    #[arg(long, default_value = "")]
    moves: String,
}

impl Start {
    fn game(&self) -> Result<TablutGame, String> {
        let pos = notation::parse_position(&self.position)
            .map_err(|e| format!("--position \"{}\": {e}", self.position))?;
        let mut game = TablutGame::new(pos);
        game.play_line(&self.moves)
            .map_err(|e| format!("--moves: {e}"))?;
        Ok(game)
    }
}

/// How hard the engine thinks.
#[derive(Args)]
pub struct Think {
    /// Search to this depth instead of by time.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Milliseconds a move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    movetime: u64,
    /// Search threads (default: one per core of the machine).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Transposition table, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash: u32,
}

impl Think {
    fn effort(&self) -> Effort {
        Effort {
            depth: self.depth,
            movetime_ms: self.movetime,
            threads: self.threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            ),
            hash_mb: self.hash as usize,
            weights: &WEIGHTS,
        }
    }
}

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    start: Start,
    #[command(flatten)]
    think: Think,
}

#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    start: Start,
    /// Deepest depth to count; every depth from 1 up is printed.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    depth: u32,
}

/// A side, as typed.
#[derive(Clone, Copy, ValueEnum)]
pub enum SideArg {
    /// The Muscovites, who move first.
    Black,
    /// The Swedes and their king.
    White,
}

#[derive(Args)]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long, value_enum, default_value = "white")]
    side: SideArg,
    #[command(flatten)]
    start: Start,
    #[command(flatten)]
    think: Think,
}

#[derive(Args)]
pub struct SelfplayArgs {
    /// Pairs of games (each opening is played with both colours).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pairs: u32,
    /// Milliseconds a move of the first engine.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    first_ms: u64,
    /// Milliseconds a move of the second engine.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    second_ms: u64,
    /// Random moves that open each pair's games.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Plies after the opening before a game is called (a loss for the side to move).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(2..))]
    max_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads of each engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// Write each game (result and moves) to this file.
    #[arg(long)]
    games_out: Option<PathBuf>,
    /// The first engine's evaluation weights, comma-separated in the order of
    /// `cairn tablut tune`'s list (default: the shipped ones).
    #[arg(long, value_parser = parse_weights, allow_hyphen_values = true)]
    first_weights: Option<[i32; TERMS]>,
    /// The second engine's evaluation weights (see --first-weights).
    #[arg(long, value_parser = parse_weights, allow_hyphen_values = true)]
    second_weights: Option<[i32; TERMS]>,
}

/// Evaluation weights: `TERMS` integers separated by commas.
fn parse_weights(text: &str) -> Result<[i32; TERMS], String> {
    let values: Vec<i32> = text
        .split(',')
        .map(|v| {
            v.trim()
                .parse()
                .map_err(|_| format!("'{}' is not an integer", v.trim()))
        })
        .collect::<Result<_, _>>()?;
    values
        .try_into()
        .map_err(|v: Vec<i32>| format!("{} weights instead of {TERMS}", v.len()))
}

#[derive(Args)]
pub struct TuneArgs {
    /// Self-play games.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Nodes a move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    nodes: u64,
    /// Random moves that open each game.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Seed of the openings; game g depends only on it and g.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies after which a game is dropped unfinished.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(2..))]
    max_plies: u32,
    /// Adam steps of the fit.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    steps: u64,
    /// Adam step size, in evaluation units.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// The share of the game result in the target (the rest: the search's score), 0 to 1.
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// The weights both sides play with and the fit starts from, comma-separated in the order
    /// of the evaluation's terms (default: the shipped ones, so that each run is the next round).
    #[arg(long, value_parser = parse_weights, allow_hyphen_values = true)]
    weights: Option<[i32; TERMS]>,
}

/// Runs one Tablut subcommand.
pub fn run(command: &TablutCommand) -> Result<(), String> {
    let stdout = std::io::stdout();
    let io = |e: std::io::Error| format!("output: {e}");
    match command {
        TablutCommand::Analyze(args) => {
            let game = args.start.game()?;
            tools::analyze(&game, &args.think.effort(), &mut stdout.lock()).map_err(io)
        }
        TablutCommand::Perft(args) => {
            let game = args.start.game()?;
            tools::perft(&game, args.depth, &mut stdout.lock()).map_err(io)
        }
        TablutCommand::Play(args) => {
            let game = args.start.game()?;
            let side = match args.side {
                SideArg::Black => Side::Black,
                SideArg::White => Side::White,
            };
            let stdin = std::io::stdin();
            tools::play(
                game,
                side,
                &args.think.effort(),
                &mut stdin.lock(),
                &mut stdout.lock(),
            )
            .map(|_| ())
            .map_err(io)
        }
        TablutCommand::Tune(args) => tune(args),
        TablutCommand::Selfplay(args) => {
            let effort = |ms, weights: Option<[i32; TERMS]>| Effort {
                depth: None,
                movetime_ms: ms,
                threads: args.threads as usize,
                hash_mb: 64,
                // Weights live as long as the run: a few bytes, leaked once per engine.
                weights: weights.map_or(&WEIGHTS, |w| &*Box::leak(Box::new(w))),
            };
            let mut out: Box<dyn Write> = match &args.games_out {
                Some(path) => Box::new(
                    std::fs::File::create(path)
                        .map_err(|e| format!("--games-out {}: {e}", path.display()))?,
                ),
                None => Box::new(std::io::sink()),
            };
            let score = tools::self_play(
                &effort(args.first_ms, args.first_weights),
                &effort(args.second_ms, args.second_weights),
                args.pairs,
                args.random_plies,
                args.max_plies,
                args.seed,
                &mut out,
            )
            .map_err(|e| format!("--games-out: {e}"))?;
            let wins = |s: [u32; 2]| s[0] + s[1];
            println!(
                "first ({} ms) {} - {} second ({} ms) in {} games; first won {} as Black, {} as White; second won {} as Black, {} as White",
                args.first_ms,
                wins(score.first),
                wins(score.second),
                args.second_ms,
                score.games,
                score.first[0],
                score.first[1],
                score.second[0],
                score.second[1]
            );
            Ok(())
        }
    }
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    use cairn_tablut::eval::NAMES;
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err(format!("--rate {}: must be above 0", args.rate));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {}: must be from 0 to 1", args.lambda));
    }
    let report = cairn_tools::tablut::tune::run(&cairn_tools::tablut::tune::TuneConfig {
        games: args.games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        seed: args.seed,
        max_plies: args.max_plies,
        steps: args.steps as usize,
        rate: args.rate,
        lambda: args.lambda,
        weights: args.weights.unwrap_or(WEIGHTS),
    })?;
    println!(
        "{} games finished ({} won by White), {} training and {} validation positions",
        report.games, report.white_wins, report.train, report.valid
    );
    println!(
        "k {} (best for the starting weights: {:.5}); loss train/valid: start {:.5}/{:.5}, fitted {:.5}/{:.5}",
        report.k,
        report.k_start,
        report.start_loss[0],
        report.start_loss[1],
        report.fitted_loss[0],
        report.fitted_loss[1]
    );
    let start = args.weights.unwrap_or(WEIGHTS);
    for ((name, old), new) in NAMES.iter().zip(start).zip(report.weights) {
        println!("{name:>16}: {old:>6} -> {new:>6}");
    }
    let list: Vec<String> = report.weights.iter().map(|w| w.to_string()).collect();
    println!("pub const WEIGHTS: [i32; TERMS] = [{}];", list.join(", "));
    Ok(())
}
