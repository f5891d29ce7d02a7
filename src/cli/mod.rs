//! Command-line interface (clap): parses arguments and runs one subcommand.
//!
//! Results go to stdout; progress and errors go to stderr. Every error is one line naming the
//! offending input, and the exit code is non-zero.

#[cfg(test)]
mod doc_commands;
mod errors;
mod pages;
mod tablut;

use cairn_engine::playtak::PlaytakArgs;
use cairn_engine::ws::WsArgs;
use cairn_tak::notation::{parse_file, replay_any};
use cairn_tools::arena::MatchArgs;
use cairn_tools::fuzz::FuzzArgs;
use cairn_tools::openings::OpeningsArgs;
use cairn_tools::perft::{PerftArgs, PerftDepth};
use cairn_tools::report::ReportArgs;
use cairn_tools::tablut::args::TablutCommand;
use cairn_tools::tactics::TacticsArgs;
use cairn_tools::tune::TuneArgs;
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Cairn, a Tak engine for every board size from 3x3 to 8x8.
///
/// With no subcommand Cairn speaks TEI on stdin/stdout, as GUIs and match runners expect.
#[derive(Parser)]
#[command(name = "cairn", version = env!("CAIRN_VERSION"), about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    log: LogFile,
}

/// The `--log-file` of the protocol modes (no subcommand, `tei`, `ws`, `playtak`): the only
/// ones that write a transcript, so the only ones that take it.
#[derive(clap::Args, Clone, Debug, Default)]
struct LogFile {
    /// Append a timestamped transcript of the session(s) to this file (of the server protocol
    /// for `playtak`).
    #[arg(long, value_name = "PATH")]
    log_file: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak TEI on stdin/stdout (what GUIs and racetrack launch; also the default).
    #[command(
        after_help = "Example session:\n  tei\n  teinewgame 6\n  position startpos moves a1 f6\n  go movetime 1000\n  quit"
    )]
    Tei {
        #[command(flatten)]
        log: LogFile,
    },
    /// Serve TEI over WebSocket (for PTN Ninja): one engine session per connection.
    Ws {
        #[command(flatten)]
        args: WsArgs,
        #[command(flatten)]
        log: LogFile,
    },
    /// Analyse a position (TPS, moves, or a ply of a PTN file), or annotate a whole game.
    #[command(visible_alias = "analyse")]
    Analyze(Box<cairn_tools::analyze::AnalyzeArgs>),
    /// Count the leaves of the legal move tree, depth by depth (perft).
    Perft(PerftArgs),
    /// Search the fixed bench positions at a fixed depth on one thread: the search fingerprint.
    #[command(
        after_help = "Prints the nodes of each position, then `<total> nodes <nps> nps`.\n\n\
        Example:\n  cairn bench\n  cairn bench --depth 5"
    )]
    Bench {
        /// Threads (the fingerprint is defined for 1; more measure parallel speed).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
        threads: u16,
        /// Search depth.
        #[arg(long, default_value_t = cairn_engine::bench::BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
    },
    /// Play a match between two TEI engines (Cairn or any other) and report Elo and SPRT.
    Match(MatchArgs),
    /// Summarise a match file: score, Elo and 95% interval by colour, endings, moves by kind,
    /// time and depth per move, game length; optionally a picture and PTN Ninja links.
    Report(ReportArgs),
    /// Replay every game of a PTN file by the rules and print its final TPS and result.
    #[command(
        after_help = "Prints one line per game: <final TPS><TAB><result>, where the result \
        is R-0, 0-R, F-0, 0-F, 1/2-1/2, or * if the game is unfinished.\n\n\
        Example:\n  cairn replay game.ptn"
    )]
    Replay {
        /// The PTN file.
        file: PathBuf,
    },
    /// Find tinue puzzles in played games: forced roads with a unique winning first move.
    Puzzles(Box<cairn_tools::puzzles::PuzzlesArgs>),
    /// Generate a balanced opening book (all distinct lines up to symmetry, searched).
    Openings(OpeningsArgs),
    /// Measure the tinue prover and the search on tactics files (`TPS<TAB>plies` lines).
    Tactics(TacticsArgs),
    /// Feed random and mutated input to every parser and to TEI sessions; report what breaks.
    Fuzz(FuzzArgs),
    /// Make tuning data (self-play, PTN games), check it, and fit the evaluation (Texel,
    /// network) and the search (SPSA) to it.
    Tune(Box<TuneArgs>),
    /// Play people on playtak.com as a bot: log in, seek (or accept) and play until stopped.
    Playtak {
        #[command(flatten)]
        args: Box<PlaytakArgs>,
        #[command(flatten)]
        log: LogFile,
    },
    /// Tablut, the second game on Cairn's search: analyse, count moves, play in the terminal.
    ///
    /// A position is one line: the ranks from 9 down to 1 separated by `/`, each written from
    /// file a to i with B (Muscovite), W (guard), K (king) and digits for empty squares, then
    /// `b` or `w` for the side to move. The start is
    /// `3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 b` (also `startpos`).
    #[command(subcommand)]
    Tablut(TablutCommand),
    /// Print a shell completion script for cairn (bash, zsh, fish, elvish, powershell).
    #[command(after_help = pages::COMPLETIONS_HELP)]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print cairn's manual page (roff) to stdout, or write one page per subcommand.
    #[command(after_help = pages::MAN_HELP)]
    Man {
        /// Write `cairn.1` and a `cairn-SUBCOMMAND.1` per subcommand into this folder instead.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return old_tune_form().unwrap_or_else(|| errors::argument_error(e)),
    };
    if !matches!(
        cli.command,
        None | Some(
            Command::Tei { .. } | Command::Ws { .. } | Command::Playtak { .. } | Command::Match(_)
        )
    ) {
        errors::end_quietly_on_closed_pipe();
    }
    if cli.command.is_none() && std::io::stdin().is_terminal() {
        eprintln!(
            "Cairn speaks TEI on stdin/stdout: type `tei` to start, `quit` to leave; \
             `cairn --help` lists the subcommands."
        );
    }
    let transcript = match transcript(&cli) {
        Ok(transcript) => transcript,
        Err(message) => {
            eprintln!("error: {message}");
            return 1;
        }
    };
    let outcome = match cli.command {
        Some(Command::Ws { args, .. }) => return cairn_engine::ws::run(&args, transcript),
        Some(Command::Playtak { args, .. }) => {
            return cairn_engine::playtak::run(&args, transcript)
        }
        Some(Command::Analyze(args)) => cairn_tools::analyze::run(&args),
        Some(Command::Perft(args)) => perft(&args),
        Some(Command::Replay { file }) => replay(&file),
        Some(Command::Tactics(args)) => return cairn_tools::tactics::run(args),
        Some(Command::Match(args)) => cairn_tools::arena::main(&args),
        Some(Command::Report(args)) => cairn_tools::report::run(&args),
        Some(Command::Puzzles(args)) => cairn_tools::puzzles::run(&args),
        Some(Command::Openings(args)) => return cairn_tools::openings::run(&args),
        Some(Command::Tune(args)) => return cairn_tools::tune::run(*args),
        Some(Command::Fuzz(args)) => return fuzz(&args),
        Some(Command::Tablut(command)) => tablut::run(&command),
        Some(Command::Bench { depth, threads }) => {
            bench(depth, threads as usize);
            Ok(())
        }
        Some(Command::Completions { shell }) => pages::completions(shell),
        Some(Command::Man { out }) => pages::man(out.as_deref()),
        None | Some(Command::Tei { .. }) => {
            cairn_engine::tei::run(transcript);
            Ok(())
        }
    };
    match outcome {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            1
        }
    }
}

/// The command line in the old form of `cairn tune` (`cairn tune --generate ...`, before its
/// modes were subcommands): an error naming the new form, exit code 2.
fn old_tune_form() -> Option<i32> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let at = args.iter().position(|a| a == "tune")?;
    let rest = &args[at + 1..];
    if rest.first().is_none_or(|first| !first.starts_with("--")) {
        return None;
    }
    let (old, new) = cairn_tools::tune::OLD_MODES.iter().find(|(old, _)| {
        rest.iter()
            .any(|a| a == old || a.starts_with(&format!("{old}=")))
    })?;
    eprintln!(
        "error: `cairn tune {old}` is now `cairn tune {new} ...` (`cairn tune --help` lists the \
         modes)"
    );
    Some(2)
}

/// Opens the `--log-file` transcript, which only the TEI modes write.
fn transcript(cli: &Cli) -> Result<Option<cairn_engine::tei::Transcript>, String> {
    let own = match &cli.command {
        Some(Command::Tei { log } | Command::Ws { log, .. } | Command::Playtak { log, .. }) => {
            log.log_file.as_ref()
        }
        _ => None,
    };
    let Some(path) = own.or(cli.log.log_file.as_ref()) else {
        return Ok(None);
    };
    // Given before a subcommand, it is that subcommand's (`cairn --log-file F playtak ...`),
    // which only the protocol modes can use: before another (`cairn --log-file F perft`), it
    // would record nothing.
    if !matches!(
        cli.command,
        None | Some(Command::Tei { .. } | Command::Ws { .. } | Command::Playtak { .. })
    ) {
        return Err(
            "--log-file is for the protocol modes only (no subcommand, tei, ws, playtak)"
                .to_string(),
        );
    }
    cairn_engine::tei::Transcript::open(path)
        .map(Some)
        .map_err(|e| format!("--log-file {}: {e}", path.display()))
}

/// `cairn perft`: a line per depth (after the root moves' counts with `--divide`), progress on
/// stderr once a depth has run a second, at most once a second.
fn perft(args: &PerftArgs) -> Result<(), String> {
    let second = Duration::from_secs(1);
    let last_report = Mutex::new(Instant::now());
    let progress = |depth: u32, done: usize, total: usize, elapsed: Duration| {
        let mut last = last_report.lock().expect("progress lock");
        if elapsed >= second && last.elapsed() >= second {
            *last = Instant::now();
            eprintln!(
                "perft {depth}: {done}/{total} root moves, {:.1} s",
                elapsed.as_secs_f64()
            );
        }
    };
    cairn_tools::perft::run(args, progress, |count: &PerftDepth| {
        for (mv, n) in &count.divided {
            println!("{mv} {n}");
        }
        let secs = count.elapsed.as_secs_f64();
        println!(
            "perft {} {} {secs:.3} s {:.1} Mnps",
            count.depth,
            count.leaves,
            count.leaves as f64 / secs.max(1e-9) / 1e6
        );
    })
}

fn replay(file: &PathBuf) -> Result<(), String> {
    let name = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("{name}: {e}"))?;
    let games = parse_file(&text).map_err(|e| format!("{name}: {e}"))?;
    if games.is_empty() {
        return Err(format!("{name}: no game found"));
    }
    let mut failed = 0;
    for (i, game) in games.iter().enumerate() {
        match replay_any(game) {
            Ok((tps, result)) => {
                if let (Some(declared), Some(reached)) = (game.result.as_deref(), result) {
                    if declared != reached.ptn() {
                        log::warn!(
                            "{name}: game {} says {declared}, the rules give {reached}",
                            i + 1
                        );
                    }
                }
                println!("{tps}\t{}", result.map_or("*", |r| r.ptn()));
            }
            Err(e) => {
                eprintln!("error: {name}: game {}: {e}", i + 1);
                failed += 1;
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(format!(
            "{name}: {n} of {} games could not be replayed",
            games.len()
        )),
    }
}

/// `cairn fuzz`: progress on stderr, one line per target and a total on stdout, each failure on
/// stderr; exit code 1 if anything failed.
fn fuzz(args: &FuzzArgs) -> i32 {
    // The sessions log every error they answer; unless asked for, keep only real errors.
    if std::env::var_os("RUST_LOG").is_none() {
        log::set_max_level(log::LevelFilter::Error);
    }
    let report = cairn_tools::fuzz::run(args, |p| {
        eprintln!(
            "fuzz {}: {}/{} inputs, {} failed, {:.1} s",
            p.target,
            p.done,
            p.total,
            p.failed,
            p.elapsed.as_secs_f64()
        );
    });
    for target in &report.targets {
        println!("{target}");
    }
    for failure in &report.failures {
        eprintln!("FAILED {failure}");
    }
    let secs = report.elapsed.as_secs_f64();
    println!(
        "fuzz: {} inputs, {} failed, {secs:.1} s ({:.0} inputs/s), seed {}, threads {}",
        report.inputs(),
        report.failed(),
        report.inputs() as f64 / secs.max(1e-9),
        args.seed,
        args.threads
    );
    i32::from(report.failed() > 0)
}

fn bench(depth: u32, threads: usize) {
    let (lines, secs) = cairn_engine::bench::run(depth, threads, |line| {
        println!(
            "{:>12} {:>2}x{} {:<8} {}",
            line.nodes, line.size, line.size, line.best, line.tps
        );
    });
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    println!(
        "{total} nodes {} nps",
        (total as f64 / secs.max(1e-9)) as u64
    );
}
