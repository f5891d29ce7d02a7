//! `cairn analyze`: analysis from the command line, its arguments and its entry point.
//!
//! Two jobs:
//! - **One position** (`--tps`, `--moves`, `--size`, or `--ptn FILE --ply K`): prints an ASCII
//!   diagram, the material, the static evaluation, then searches and prints the evaluation, the
//!   best move and the principal variation. Each finished iteration is a progress line on stderr.
//!   `--json` prints one JSON object instead of the text report.
//! - **A game's review** (`--game FILE.ptn`), as lichess reviews one: the opening book is left
//!   out (`{book}` plies, racetrack's uncommented first plies, or `--from-ply N`), every other
//!   position is searched once, and the game is written back as PTN with one `{eval/depth
//!   chance}` comment per judged ply, all from White's point of view as match runners and PTN
//!   Ninja show them (earlier evaluations go, or stay labelled with `--keep-comments`). A ply is
//!   judged by the winning chance it loses against the best move found ([`crate::chance`]): `??`
//!   from `--blunder` percentage points (15 by default), `?` from two thirds of that and `?!` from
//!   one third, with the better move in the comment; a move that lets the opponent force a win
//!   (the search's proven result or the tinue prover's) from a position that was not lost is
//!   `??` whatever the numbers. The output ends with each player's marks, average loss and
//!   accuracy. `--json` prints the review as one JSON document; `--plot` also draws the game's
//!   evaluation graph (`graph`) and `--link` prints a PTN Ninja link of the annotated game
//!   ([`crate::ninja`]) instead of its PTN.
//!
//! - **Tinue** (`--solve`): the tinue prover instead of the search: does the side to move force a
//!   road, in how many plies, and the proof's main line.
//!
//! Proven results are written `+R3` / `-R3` (road win / loss in 3 plies) and `+F3` / `-F3` (flat
//! win / loss). Plain evaluations are in flats (`+0.45`), positive for the side named, each with
//! the side's winning chance (`56.5%`; a proven result is `100%` or `0%`). With `--link`, one
//! position's report also gives a PTN Ninja link of the position with the principal variation as
//! its moves.
//!
//! The analysis runs the search directly on a table of its own rather than through the TEI
//! [`Engine`](cairn_engine::engine::Engine) facade: it needs the typed position (diagram, static
//! evaluation, game-over checks) and a table shared across the plies of a game.
//!
//! This module reads the arguments and finds the position or the game; the work is in its
//! parts: `search` runs the searches, `position` reports one position (its search or its tinue
//! proof), `review` judges a game and `annotate` writes it, `text` and `json` write the reports,
//! `link` builds the PTN Ninja links, `graph` the evaluation graph and `labels` places its
//! labels.

mod annotate;
mod graph;
mod json;
mod labels;
mod link;
mod position;
mod review;
mod search;
mod text;

use crate::output::OutputFile;
use cairn_tak::board::{Komi, Position, TakGame};
use cairn_tak::notation::ptn_game::Replayed;
use cairn_tak::notation::{parse_file, play_line, replay, tps, PtnGame, Tps};
use clap::Args;
use std::path::{Path, PathBuf};

/// Default search time for one position, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 3000;
/// Default search time per position when annotating a game, ms.
pub const DEFAULT_GAME_MOVETIME_MS: u64 = 500;

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
    that `?` and one third `?!`; a move that lets the opponent force a win from a position\n\
    that was not lost is `??`. Every comment of the review is White's view, book plies are\n\
    not judged, and the review ends with each player's marks, average loss and accuracy.")]
pub struct AnalyzeArgs {
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
    /// Komi in flats (see [`Komi`]); a PTN file's Komi tag is the default.
    #[arg(long, allow_negative_numbers = true,
          help = format!("Komi in flats ({}); a PTN file's Komi tag is the default", Komi::RANGE_TEXT))]
    pub komi: Option<f64>,
    /// Search time per position, ms (default [`DEFAULT_MOVETIME_MS`]; [`DEFAULT_GAME_MOVETIME_MS`]
    /// per position with --game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..),
          help = format!("Search time per position, ms (default {DEFAULT_MOVETIME_MS}; \
                          {DEFAULT_GAME_MOVETIME_MS} per position with --game)"))]
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
    /// With --game: judge from this ply on (1-based); the plies before it are the opening book.
    /// By default the book is the plies marked `{book}` (cairn match), or the uncommented plies
    /// before the first evaluation comment (racetrack).
    #[arg(long, requires = "game", value_parser = clap::value_parser!(u32).range(1..))]
    pub from_ply: Option<u32>,
    /// With --game: keep the file's evaluation comments, labelled `earlier eval:`, beside the
    /// review's own (by default the review's replace them).
    #[arg(long, requires = "game")]
    pub keep_comments: bool,
    /// With --game: the tinue prover's node budget on each position after a judged move, to
    /// find the moves that let the opponent force a road (0: only the search's proven results).
    #[arg(long, requires = "game", default_value_t = 20_000)]
    pub tinue_nodes: u64,
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

/// Runs `cairn analyze`; `Err` is the one-line message for the user.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    komi(args)?;
    if !(args.blunder > 0.0 && args.blunder <= 100.0) {
        return Err(format!(
            "--blunder {}: must be above 0 and at most 100 (percentage points)",
            args.blunder
        ));
    }
    if let Some(path) = &args.game {
        if args.json && args.link {
            return Err(
                "--link with --game prints a link instead of the PTN; not with --json".into(),
            );
        }
        if let Some(plot) = &args.plot {
            svg_only(plot)?;
        }
        // Both made before the searches, so that a bad path fails at once; each is written
        // whole at the end, an existing file replaced only then.
        let outputs = annotate::Outputs {
            out: OutputFile::create_if("--out", args.out.as_deref())?,
            plot: OutputFile::create_if("--plot", args.plot.as_deref())?,
        };
        let (game, size) = load_game(path, args.index)?;
        return cairn_tak::with_size!(size, |N| annotate::annotate::<N>(args, path, &game, outputs),
            else Err(format!("{}: unsupported board size {size}", path.display())));
    }
    if let Some(path) = &args.ptn {
        let (game, size) = load_game(path, args.index)?;
        return cairn_tak::with_size!(size, |N| analyse_ptn::<N>(args, path, &game),
            else Err(format!("{}: unsupported board size {size}", path.display())));
    }
    let size = match &args.tps {
        Some(text) => {
            text.parse::<Tps>()
                .map_err(|e| format!("--tps \"{text}\": {e}"))?
                .size
        }
        None => args.size.unwrap_or(6) as usize,
    };
    cairn_tak::with_size!(size, |N| analyse_text::<N>(args),
        else Err(format!("--tps: unsupported board size {size}")))
}

/// `--plot` draws SVG only: a bitmap name is refused before any search. (PNG would need a
/// bitmap backend, an image encoder and a font shipped or found at run time.)
fn svg_only(plot: &Path) -> Result<(), String> {
    let ext = plot
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some(e @ ("png" | "jpg" | "jpeg" | "gif" | "bmp" | "webp")) => Err(format!(
            "--plot {}: the graph is drawn as SVG only, not {e}; name it .svg (rsvg-convert or \
             a browser turns it into a bitmap)",
            plot.display()
        )),
        _ => Ok(()),
    }
}

/// The `--komi` given, if any.
fn komi(args: &AnalyzeArgs) -> Result<Option<Komi>, String> {
    args.komi
        .map(|flats| Komi::from_flats(flats).map_err(|e| format!("--komi {flats}: {e}")))
        .transpose()
}

/// Reads game number `index` (1-based) of a PTN file, and its board size.
fn load_game(path: &Path, index: u32) -> Result<(PtnGame, usize), String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let mut games = parse_file(&text).map_err(|e| format!("{name}: {e}"))?;
    let count = games.len();
    if count == 0 {
        return Err(format!("{name}: no game found"));
    }
    if index as usize > count {
        return Err(format!(
            "{name}: --index {index}, but the file has {count} game{}",
            if count == 1 { "" } else { "s" }
        ));
    }
    let game = games.swap_remove(index as usize - 1);
    let size = game.size().map_err(|e| format!("{name}: {e}"))?;
    Ok((game, size))
}

/// Replays the game of the PTN file `path` by the rules; its start takes `--komi` when given (the
/// replayed `position` and `result` keep the file's komi).
fn replay_with_komi<const N: usize>(
    args: &AnalyzeArgs,
    path: &Path,
    game: &PtnGame,
) -> Result<Replayed<N>, String> {
    let mut done = replay::<N>(game).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(komi) = komi(args)? {
        done.start.set_komi(komi);
    }
    Ok(done)
}

/// `--tps` / `--moves` / `--size`.
fn analyse_text<const N: usize>(args: &AnalyzeArgs) -> Result<(), String> {
    let mut position = match &args.tps {
        Some(text) => tps::parse::<N>(text).map_err(|e| format!("--tps \"{text}\": {e}"))?,
        None => Position::<N>::start(),
    };
    position.set_komi(komi(args)?.unwrap_or_default());
    let mut game = TakGame::new(position.clone());
    play_line(
        &mut position,
        args.moves.as_deref().unwrap_or(""),
        |_, mv| game.play(mv),
    )
    .map_err(|e| format!("--moves {e}"))?;
    position::report(args, &game)
}

/// `--ptn FILE [--ply K]`.
fn analyse_ptn<const N: usize>(
    args: &AnalyzeArgs,
    path: &Path,
    game: &PtnGame,
) -> Result<(), String> {
    let done = replay_with_komi::<N>(args, path, game)?;
    let plies = args.ply.unwrap_or(done.moves.len());
    if plies > done.moves.len() {
        return Err(format!(
            "{}: --ply {plies}, but the game has {} plies",
            path.display(),
            done.moves.len()
        ));
    }
    let mut at = TakGame::new(done.start);
    for &mv in &done.moves[..plies] {
        at.play(mv);
    }
    position::report(args, &at)
}
