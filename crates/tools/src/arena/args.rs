//! The arguments of `cairn match`, and the [`MatchConfig`] they ask for: engine specs, clock and
//! SPRT read from their text, the book read from its file.

use super::{EngineSpec, GameSettings, MatchConfig, Sprt, TimeControl};
use cairn_tak::board::Komi;
use std::path::PathBuf;

/// Arguments of `cairn match`: the two engines, the games and their settings, the output.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Engine spec: \"cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]...\"\n\n\
    Examples:\n  \
    cairn match --engine \"cmd=target/release/cairn name=new\" --engine \"cmd=./cairn-old name=old\" \\\n    \
    --size 6 --tc 10+0.1 --komi 2 --book openings/6s_4ply.txt --games 200 --concurrency 2 \\\n    \
    --ptn games.ptn --sprt \"elo0=0 elo1=10 alpha=0.05 beta=0.05\"\n  \
    cairn match --engine \"cmd=target/release/cairn name=a\" --engine \"cmd=target/release/cairn name=b\" \\\n    \
    --size 5 --games 10 --plot match.svg\n  \
    cairn match --engine \"cmd=target/release/cairn name=a\" --engine \"cmd=target/release/cairn name=b\" \\\n    \
    --size 5 --nodes 2000 --games 20 --json\n\n\
    Progress goes to stderr: a bar on a terminal, a line per game otherwise.\n\
    Ctrl-C stops the match with the result of the finished games; those in progress count nowhere."
)]
pub struct MatchArgs {
    /// An engine spec (give exactly two); results are from the first one's point of view.
    #[arg(long = "engine", required = true, num_args = 1)]
    pub engines: Vec<String>,
    /// Board size (3-8).
    #[arg(long, default_value_t = 6, value_parser = cairn_tak::board::parse_size)]
    pub size: u8,
    /// Time control, base+increment in seconds.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Komi in flats (the help text gives its range).
    #[arg(long, default_value_t = Komi::ZERO, allow_negative_numbers = true,
          help = format!("Komi in flats ({})", Komi::RANGE_TEXT))]
    pub komi: Komi,
    /// Number of games (rounded up to pairs: each opening is played with both colours).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Opening book: one opening per line, plies separated by spaces.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// The book's opening of the first pair of games (1 = its first line); later pairs take the
    /// next ones, wrapping around. Two matches run side by side start far apart so they do not
    /// repeat each other's openings.
    #[arg(long, requires = "book", value_parser = clap::value_parser!(u32).range(1..))]
    pub book_start: Option<u32>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,
    /// Append every game to this PTN file as soon as it ends (opened before the first game).
    #[arg(long)]
    pub ptn: Option<PathBuf>,
    /// Go on with the match that --ptn holds, after an interruption: its games count in the
    /// score, the pairs and the SPRT, and only the rounds it lacks are played. Give the same
    /// engines, size, komi, clock or nodes, book and book start (--games may grow); a game in
    /// the file that this match would not play is an error naming it. Without the file, the
    /// match starts afresh.
    #[arg(long, requires = "ptn")]
    pub resume: bool,
    /// Stop when the test decides: "elo0=E0 elo1=E1 alpha=A beta=B".
    #[arg(long, value_name = "SPRT")]
    pub sprt: Option<Sprt>,
    /// Stop a game unfinished (*, a draw) after this many plies.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(2..))]
    pub max_plies: u32,
    /// Search every move to this many nodes (`go nodes N`) instead of by the clock (--tc is
    /// not used; the PTN has no Clock tag and its Event tag names the node count): results that
    /// do not depend on the machine's load, for two versions of an engine with the same speed
    /// per node.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// At the end, draw the match as SVG (as `cairn report --plot` does).
    #[arg(long, value_name = "SVG")]
    pub plot: Option<PathBuf>,
    /// Print the result as one JSON document instead of text: the engines, the settings, the
    /// score with its Elo, the pairs, the SPRT and every game.
    #[arg(long)]
    pub json: bool,
}

impl MatchArgs {
    /// The match these arguments ask for; `Err` is the one-line message naming the bad option.
    pub fn config(&self) -> Result<MatchConfig, String> {
        if self.engines.len() != 2 {
            return Err(format!(
                "give exactly two --engine specs, not {}",
                self.engines.len()
            ));
        }
        let spec = |i: usize| {
            self.engines[i]
                .parse::<EngineSpec>()
                .map_err(|e| format!("--engine: {e}"))
        };
        let book = match &self.book {
            Some(path) => Some(
                std::fs::read_to_string(path)
                    .map_err(|e| format!("--book {}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(MatchConfig {
            engines: [spec(0)?, spec(1)?],
            size: self.size as usize,
            settings: GameSettings {
                komi: self.komi,
                tc: self
                    .tc
                    .parse::<TimeControl>()
                    .map_err(|e| format!("--tc: {e}"))?,
                max_plies: self.max_plies,
                nodes: self.nodes,
            },
            games: self.games as usize,
            book,
            book_start: self.book_start.map_or(0, |n| n as usize - 1),
            concurrency: self.concurrency as usize,
            ptn: self.ptn.clone(),
            sprt: self.sprt,
            resume: self.resume,
        })
    }
}
