//! The arguments of `cairn tablut`'s subcommands, and what they ask for: the game to start from,
//! the engine's [`Effort`], the side a person plays.

use super::tune::TuneArgs;
use super::Effort;
use crate::workers::every_core;
use cairn_tablut::eval::{TERMS, WEIGHTS};
use cairn_tablut::{notation, Side, TablutGame};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Tablut's subcommands.
#[derive(Subcommand, Clone, Debug)]
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
        Rust for crates/tablut/src/eval.rs. Progress goes to stderr.\n\n\
        Example:\n  cairn tablut tune --games 2000 --nodes 3000 --seed 1"
    )]
    Tune(TuneArgs),
}

/// Where a position comes from.
#[derive(Args, Clone, Debug)]
pub struct Start {
    /// The position, one line (see `cairn tablut --help`); `startpos` for the usual start.
    #[arg(long, default_value = "startpos")]
    pub position: String,
    /// Moves to play first, in coordinates, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
}

impl Start {
    /// The game at the position after the moves; `Err` names the bad option.
    pub fn game(&self) -> Result<TablutGame, String> {
        let pos = notation::parse_position(&self.position)
            .map_err(|e| format!("--position \"{}\": {e}", self.position))?;
        let mut game = TablutGame::new(pos);
        game.play_line(&self.moves)
            .map_err(|e| format!("--moves: {e}"))?;
        Ok(game)
    }
}

/// How hard the engine thinks.
#[derive(Args, Clone, Debug)]
pub struct Think {
    /// Search to this depth instead of by time.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Milliseconds a move.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub movetime: u64,
    /// Search threads (default: one per core of the machine).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Transposition table, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub hash: u32,
}

impl Think {
    /// The effort these options ask for, with the shipped weights.
    pub fn effort(&self) -> Effort {
        Effort {
            depth: self.depth,
            movetime_ms: self.movetime,
            threads: self.threads.map_or_else(every_core, usize::from),
            hash_mb: self.hash as usize,
            weights: &WEIGHTS,
        }
    }
}

/// Arguments of `cairn tablut analyze`.
#[derive(Args, Clone, Debug)]
pub struct AnalyzeArgs {
    /// The position.
    #[command(flatten)]
    pub start: Start,
    /// The search.
    #[command(flatten)]
    pub think: Think,
}

/// Arguments of `cairn tablut perft`.
#[derive(Args, Clone, Debug)]
pub struct PerftArgs {
    /// The position.
    #[command(flatten)]
    pub start: Start,
    /// Deepest depth to count; every depth from 1 up is printed.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
}

/// A side, as typed.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SideArg {
    /// The Muscovites, who move first.
    Black,
    /// The Swedes and their king.
    White,
}

impl From<SideArg> for Side {
    fn from(side: SideArg) -> Side {
        match side {
            SideArg::Black => Side::Black,
            SideArg::White => Side::White,
        }
    }
}

/// Arguments of `cairn tablut play`.
#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// The side you play.
    #[arg(long, value_enum, default_value = "white")]
    pub side: SideArg,
    /// The position.
    #[command(flatten)]
    pub start: Start,
    /// The engine's search.
    #[command(flatten)]
    pub think: Think,
}

/// Arguments of `cairn tablut selfplay`.
#[derive(Args, Clone, Debug)]
pub struct SelfplayArgs {
    /// Pairs of games (each opening is played with both colours).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub pairs: u32,
    /// Milliseconds a move of the first engine.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub first_ms: u64,
    /// Milliseconds a move of the second engine.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub second_ms: u64,
    /// Random moves that open each pair's games.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Plies after the opening before a game is called (a loss for the side to move).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(2..))]
    pub max_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads of each engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: u16,
    /// Write each game (result and moves) to this file.
    #[arg(long)]
    pub games_out: Option<PathBuf>,
    /// The first engine's evaluation weights, comma-separated in the order of
    /// `cairn tablut tune`'s list (default: the shipped ones).
    #[arg(long, value_parser = parse_weights, allow_hyphen_values = true)]
    pub first_weights: Option<[i32; TERMS]>,
    /// The second engine's evaluation weights (see --first-weights).
    #[arg(long, value_parser = parse_weights, allow_hyphen_values = true)]
    pub second_weights: Option<[i32; TERMS]>,
}

impl SelfplayArgs {
    /// The efforts of the first and the second engine.
    pub fn efforts(&self) -> [Effort; 2] {
        let effort = |ms, weights: Option<[i32; TERMS]>| Effort {
            depth: None,
            movetime_ms: ms,
            threads: self.threads as usize,
            hash_mb: 64,
            // Weights live as long as the run: a few bytes, leaked once per engine.
            weights: weights.map_or(&WEIGHTS, |w| &*Box::leak(Box::new(w))),
        };
        [
            effort(self.first_ms, self.first_weights),
            effort(self.second_ms, self.second_weights),
        ]
    }
}

/// Evaluation weights: `TERMS` integers separated by commas.
pub(super) fn parse_weights(text: &str) -> Result<[i32; TERMS], String> {
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
