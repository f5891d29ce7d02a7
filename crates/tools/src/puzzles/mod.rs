//! `cairn puzzles`: tinue puzzles mined from played games.
//!
//! Every position of every game (after the opening) goes to the tinue prover
//! ([`cairn_tak::tinue`]) with a node budget (`--nodes`) and a longest proof (`--max-length`
//! plies). A road in one is no puzzle; a proven tinue of 3, 5, 7, ... plies is checked for a
//! unique winning first move:
//! - every other legal first move is tried: it also **wins** if it wins at once or every reply
//!   loses at once or leaves the side to move a proven forced road; it is **refuted** if it ends
//!   the game otherwise, leaves the opponent a road in one, or some reply ends the game without
//!   the side's win or leaves a position where the prover *disproves* a forced road (with
//!   [`find::Budget::alternative_depth`] plies); otherwise it is **unknown**. Replies are tried
//!   first with a small share of the budget, then the undecided ones with all of it;
//! - the tinue is **unique** (a puzzle) when every other first move is refuted, **several** as
//!   soon as one is proven to win, and **unsure** when some stay unknown. Only unique ones go
//!   into the PTN collection; the others are listed and counted.
//!
//! A disproof is the prover's: no forced road in its threat-restricted tree, where the
//! attacker's moves are those that threaten a road at once. A win that starts with quiet moves
//! is not seen by it, so "unique" means unique among the wins the prover can see.
//!
//! The player **found** the tinue when the game's move was a proven winning first move (the
//! solution's, or another one proven to win). One forced sequence is reported once: a tinue is
//! a **continuation**, counted but not reported, when the same player had a proven tinue two
//! plies before and the move played there was not refuted (it won, or may have). So a tinue
//! the player kept playing out is reported at its first (longest) position, and one the player
//! missed and got back later is reported again.
//!
//! The games run in parallel (`--threads`, one game per task); progress goes to stderr (a bar
//! on a terminal, else a line every ten seconds). The output is the text report (each puzzle
//! with its PTN Ninja link, then the summary) or `--json`; `--out FILE` also writes the puzzle
//! collection as PTN, one game per puzzle (through a temporary file renamed at the end, made
//! before the work so that a bad path fails at once). A game that cannot be read or replayed is
//! skipped with an error naming the file, the game and the ply; a file that cannot be read
//! stops the run.

pub mod find;
mod input;
pub mod output;

use crate::output::OutputFile;
use crate::progress::Progress;
use find::{Budget, GameScan};
use input::Job;
use output::{Puzzle, Report, Skipped};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Default node budget of one prover call.
pub const DEFAULT_NODES: u64 = 20_000;
/// Default longest tinue looked for, in plies.
pub const DEFAULT_MAX_LENGTH: u32 = 15;
/// Longest forced road an alternative first move is checked for (plies after it and a reply).
pub const ALTERNATIVE_DEPTH: u32 = 31;
/// Seconds between two progress lines when stderr is not a terminal.
const PROGRESS_SECONDS: u64 = 10;

/// Arguments of `cairn puzzles`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
    cairn puzzles games.ptn\n  \
    cairn puzzles a.ptn b.ptn --nodes 50000 --max-length 9 --out puzzles.ptn\n  \
    cairn puzzles games.ptn --json --threads 4\n\n\
    A puzzle is a position where the side to move forces a road in 3 plies or more with one\n\
    winning first move only: every other first move is disproven by the prover. Tinues with\n\
    several winning first moves, or with other first moves the prover could not decide, are\n\
    listed and counted but not written to --out.")]
pub struct PuzzlesArgs {
    /// PTN files of games (any number of games each).
    #[arg(required = true, value_name = "GAMES.ptn")]
    pub files: Vec<PathBuf>,
    /// Node budget of each prover call (a position, or a reply to another first move).
    #[arg(long, default_value_t = DEFAULT_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Longest tinue looked for, in plies to the road (odd, 3 to 63).
    #[arg(long, default_value_t = DEFAULT_MAX_LENGTH, value_parser = parse_max_length)]
    pub max_length: u32,
    /// Worker threads (default: one per core of the machine).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Write the puzzle collection (PTN, one game per puzzle) to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON document instead of the text report.
    #[arg(long)]
    pub json: bool,
}

/// `--max-length`: an odd number of plies from 3 to 63.
fn parse_max_length(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (3..=63).contains(&n) && n % 2 == 1 => Ok(n),
        _ => Err(format!("`{text}`: an odd number of plies from 3 to 63")),
    }
}

/// Runs `cairn puzzles`: the report on stdout; `Err` is the one-line message for the user.
pub fn run(args: &PuzzlesArgs) -> Result<(), String> {
    let pool = crate::workers::pool(args.threads)?;
    let out = OutputFile::create_if("--out", args.out.as_deref())?;
    let jobs = input::read(&args.files)?;
    if jobs.is_empty() {
        return Err("no game found in the files".to_string());
    }
    let budget = Budget {
        nodes: args.nodes,
        max_length: args.max_length,
        alternative_depth: ALTERNATIVE_DEPTH,
    };
    let report = pool.install(|| collect(args, &jobs, &budget));
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| format!("JSON: {e}"))?;
        println!("{text}");
    } else {
        print!("{}", report.text());
    }
    match out {
        // Nothing to write: an existing file is kept rather than emptied.
        Some(out) if report.puzzles.is_empty() => Err(format!(
            "--out {}: no puzzle found, nothing written (an existing file is left as it was)",
            out.path().display()
        )),
        Some(out) => out.commit(report.collection()),
        None => Ok(()),
    }
}

/// What one game gave: its scan and size, or why it was skipped.
type GameOutcome = Result<(GameScan, usize), String>;

/// Scans every game in parallel and gathers the report, in input order.
fn collect(args: &PuzzlesArgs, jobs: &[Job], budget: &Budget) -> Report {
    let started = Instant::now();
    let progress = Progress::new(
        "puzzles",
        jobs.len() as u64,
        "games",
        Duration::from_secs(PROGRESS_SECONDS),
    );
    let tinues = AtomicUsize::new(0);
    let outcomes: Vec<GameOutcome> = jobs
        .par_iter()
        .map(|job| {
            let outcome = scan(job, budget);
            let found = outcome.as_ref().map_or(0, |(s, _)| s.finds.len());
            let tinues = tinues.fetch_add(found, Relaxed) + found;
            progress.inc(1, || crate::report::counted(tinues as u64, "tinue"));
            outcome
        })
        .collect();
    progress.finish();
    let mut report = Report::default();
    let summary = &mut report.summary;
    summary.files = args.files.len();
    summary.games = jobs.len();
    for (job, outcome) in jobs.iter().zip(outcomes) {
        let file = args.files[job.file].display().to_string();
        let (scan, size) = match outcome {
            Ok(done) => done,
            Err(error) => {
                eprintln!("error: {file}: game {}: {error}", job.game);
                report.skipped.push(Skipped {
                    file,
                    game: job.game,
                    error,
                });
                continue;
            }
        };
        let Ok(game) = &job.parsed else { continue };
        summary.positions += scan.positions;
        summary.road_in_one += scan.road_in_one;
        summary.continuations += scan.continuations;
        summary.undecided += scan.undecided;
        summary.nodes += scan.nodes;
        for find in scan.finds {
            let puzzle = Puzzle::new(find, &file, job.game, game, size);
            summary.count(&puzzle);
            match puzzle.verdict {
                find::Verdict::Unique => report.puzzles.push(puzzle),
                find::Verdict::Several => report.several.push(puzzle),
                find::Verdict::Unsure => report.unsure.push(puzzle),
            }
        }
    }
    summary.skipped = report.skipped.len();
    summary.seconds = started.elapsed().as_secs_f64();
    report
}

/// Scans one game at its size.
fn scan(job: &Job, budget: &Budget) -> GameOutcome {
    let game = job.parsed.as_ref().map_err(Clone::clone)?;
    let size = game.size().map_err(|e| e.to_string())?;
    cairn_tak::with_size!(size, |N| find::scan_game::<N>(game, budget)
        .map(|scan| (scan, size))
        .map_err(|e| e.to_string()),
        else Err(format!("unsupported board size {size}")))
}
