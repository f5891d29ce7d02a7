//! Command-line interface (clap): parses arguments and runs one subcommand.
//!
//! Results go to stdout; progress and errors go to stderr. Every error is one line naming the
//! offending input, and the exit code is non-zero.

#[cfg(test)]
mod doc_commands;
mod fuzz;
mod openings;
mod playtak;
mod report;
mod tablut;
mod tactics;
mod tune;
mod ws;

use cairn_tak::board::Position;
use cairn_tak::movegen::perft_divide;
use cairn_tak::notation::{parse_file, play_line, replay_any, tps, Tps};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Cairn, a Tak engine for every board size from 3x3 to 8x8.
///
/// With no subcommand Cairn speaks TEI on stdin/stdout, as GUIs and match runners expect.
#[derive(Parser)]
#[command(name = "cairn", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Append a timestamped transcript of the session(s) to this file (no subcommand, `tei`,
    /// `ws`, and `playtak`, which records the server protocol).
    #[arg(long, global = true, value_name = "PATH")]
    log_file: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak TEI on stdin/stdout (what GUIs and racetrack launch; also the default).
    #[command(
        after_help = "Example session:\n  tei\n  teinewgame 6\n  position startpos moves a1 f6\n  go movetime 1000\n  quit"
    )]
    Tei,
    /// Serve TEI over WebSocket (for PTN Ninja): one engine session per connection.
    Ws(ws::WsCli),
    /// Analyse a position (TPS, moves, or a ply of a PTN file), or annotate a whole game.
    Analyze(Box<cairn_tools::analyze::AnalyzeArgs>),
    /// Count the leaves of the legal move tree, depth by depth (perft).
    #[command(after_help = "Examples:\n  \
        cairn perft --size 6 --depth 5\n  \
        cairn perft --tps \"x5/x2,2S,x2/x2,121,x2/x5/x5 1 4\" --depth 3 --divide\n  \
        cairn perft --size 5 --moves \"a1 e5 c3\" --depth 4 --threads 2")]
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
    #[command(
        after_help = "Engine spec: \"cmd=PATH [name=NAME] [arg=ARG]... [option.NAME=VALUE]...\"\n\n\
        Examples:\n  \
        cairn match --engine \"cmd=target/release/cairn name=new\" --engine \"cmd=./cairn-old name=old\" \\\n    \
        --size 6 --tc 10+0.1 --komi 2 --book openings/6s_4ply.txt --games 200 --concurrency 2 \\\n    \
        --ptn games.ptn --sprt \"elo0=0 elo1=10 alpha=0.05 beta=0.05\"\n  \
        cairn match --engine \"cmd=target/release/cairn name=a\" --engine \"cmd=target/release/cairn name=b\" \\\n    \
        --size 5 --games 10 --plot match.svg"
    )]
    Match(MatchArgs),
    /// Summarise a match file: score, Elo and 95% interval by colour, endings, moves by kind,
    /// time and depth per move, game length; optionally a picture and PTN Ninja links.
    Report(report::ReportCli),
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
    /// Generate a balanced opening book (all distinct lines up to symmetry, searched).
    Openings(openings::OpeningsCli),
    /// Measure the tinue prover and the search on tactics files (`TPS<TAB>plies` lines).
    Tactics(tactics::TacticsCli),
    /// Feed random and mutated input to every parser and to TEI sessions; report what breaks.
    Fuzz(fuzz::FuzzCli),
    /// Fit the evaluation weights to self-play results (Texel tuning), or generate the games.
    Tune(Box<tune::TuneCli>),
    /// Play people on playtak.com as a bot: log in, seek (or accept) and play until stopped.
    Playtak(Box<playtak::PlaytakCli>),
    /// Tablut, the second game on Cairn's search: analyse, count moves, play in the terminal.
    ///
    /// A position is one line: the ranks from 9 down to 1 separated by `/`, each written from
    /// file a to i with B (Muscovite), W (guard), K (king) and digits for empty squares, then
    /// `b` or `w` for the side to move. The start is
    /// `3BBB3/4B4/4W4/B3W3B/BBWWKWWBB/B3W3B/4W4/4B4/3BBB3 b` (also `startpos`).
    #[command(subcommand)]
    Tablut(tablut::TablutCommand),
}

#[derive(Args)]
struct PerftArgs {
    /// Board size (3-8) of the empty board [default: 6]; with --tps it must match the TPS.
    #[arg(long, value_parser = cairn_tak::board::parse_size)]
    size: Option<u8>,
    /// Start from this TPS instead of the empty board.
    #[arg(long)]
    tps: Option<String>,
    /// Plies to play first, in PTN, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Deepest depth to count; every depth from 1 up is printed.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Also print the leaf count below each root move at the deepest depth.
    #[arg(long)]
    divide: bool,
    /// Threads; the root moves are split between them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
}

#[derive(Args)]
struct MatchArgs {
    /// An engine spec (give exactly two); results are from the first one's point of view.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Board size (3-8).
    #[arg(long, default_value_t = 6, value_parser = cairn_tak::board::parse_size)]
    size: u8,
    /// Time control, base+increment in seconds.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Komi in flats (the help text gives its range).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true,
          help = format!("Komi in flats ({})", cairn_tak::board::Komi::RANGE_TEXT))]
    komi: f64,
    /// Number of games (rounded up to pairs: each opening is played with both colours).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Opening book: one opening per line, plies separated by spaces.
    #[arg(long)]
    book: Option<PathBuf>,
    /// The book's opening of the first pair of games (1 = its first line); later pairs take the
    /// next ones, wrapping around. Two matches run side by side start far apart so they do not
    /// repeat each other's openings.
    #[arg(long, requires = "book", value_parser = clap::value_parser!(u32).range(1..))]
    book_start: Option<u32>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,
    /// Append every game to this PTN file.
    #[arg(long)]
    ptn: Option<PathBuf>,
    /// Stop when the test decides: "elo0=E0 elo1=E1 alpha=A beta=B".
    #[arg(long)]
    sprt: Option<String>,
    /// Stop a game unfinished (*, a draw) after this many plies.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(2..))]
    max_plies: u32,
    /// Search every move to this many nodes (`go nodes N`) instead of by the clock (--tc is
    /// not used; the PTN's Event tag names the node count): results that do not depend on the machine's load, for
    /// two versions of an engine with the same speed per node.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// At the end, draw the match as SVG (as `cairn report --plot` does).
    #[arg(long, value_name = "SVG")]
    plot: Option<PathBuf>,
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return argument_error(e),
    };
    let transcript = match transcript(&cli) {
        Ok(transcript) => transcript,
        Err(message) => {
            eprintln!("error: {message}");
            return 1;
        }
    };
    let outcome = match cli.command {
        Some(Command::Ws(args)) => return cairn_engine::ws::run(&args.into(), transcript),
        Some(Command::Playtak(args)) => {
            return cairn_engine::playtak::run(&(*args).into(), transcript)
        }
        Some(Command::Analyze(args)) => cairn_tools::analyze::run(&args),
        Some(Command::Perft(args)) => perft(&args),
        Some(Command::Replay { file }) => replay(&file),
        Some(Command::Tactics(args)) => return cairn_tools::tactics::run(args.into()),
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::Report(args)) => cairn_tools::report::run(&args.into()),
        Some(Command::Openings(args)) => match args.job() {
            Ok(job) => return cairn_tools::openings::run(&job),
            Err(message) => Err(message),
        },
        Some(Command::Tune(args)) => return cairn_tools::tune::run((*args).into()),
        Some(Command::Fuzz(args)) => return fuzz(&args),
        Some(Command::Tablut(command)) => tablut::run(&command),
        Some(Command::Bench { depth, threads }) => {
            bench(depth, threads as usize);
            Ok(())
        }
        None | Some(Command::Tei) => {
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

/// Help and version go to stdout as clap writes them; a usage error becomes one line on stderr
/// (clap's message, which names the offending argument) and exit code 2.
fn argument_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return e.exit_code();
    }
    // The message runs until the blank line before `Usage:`; its continuation lines name the
    // arguments (for example the missing required ones).
    let text = e.render().to_string();
    let first = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    eprintln!("{first} (see `cairn --help`)");
    2
}

/// Opens the `--log-file` transcript, which only the TEI modes write.
fn transcript(cli: &Cli) -> Result<Option<cairn_engine::tei::Transcript>, String> {
    let Some(path) = &cli.log_file else {
        return Ok(None);
    };
    if !matches!(
        cli.command,
        None | Some(Command::Tei | Command::Ws(_) | Command::Playtak(_))
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

fn perft(args: &PerftArgs) -> Result<(), String> {
    let size = match &args.tps {
        Some(text) => {
            let tps: Tps = text.parse().map_err(|e| format!("--tps \"{text}\": {e}"))?;
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
    cairn_tak::with_size!(size, |N| perft_sized::<N>(args), else Err(format!("unsupported size {size}")))
}

fn perft_sized<const N: usize>(args: &PerftArgs) -> Result<(), String> {
    let mut pos = match &args.tps {
        Some(text) => tps::parse::<N>(text).map_err(|e| format!("--tps \"{text}\": {e}"))?,
        None => Position::<N>::start(),
    };
    play_line(&mut pos, args.moves.as_deref().unwrap_or(""), |_, _| {})
        .map_err(|e| format!("--moves {e}"))?;
    let threads = args.threads as usize;
    for depth in 1..=args.depth {
        let started = Instant::now();
        let last_report = Mutex::new(started);
        let progress = |done: usize, total: usize| {
            let mut last = last_report.lock().expect("progress lock");
            if last.elapsed() >= Duration::from_secs(1) {
                *last = Instant::now();
                eprintln!(
                    "perft {depth}: {done}/{total} root moves, {:.1} s",
                    started.elapsed().as_secs_f64()
                );
            }
        };
        let divided = perft_divide(&pos, depth, threads, progress);
        let leaves: u64 = divided.iter().map(|&(_, n)| n).sum();
        let secs = started.elapsed().as_secs_f64();
        if args.divide && depth == args.depth {
            for (mv, n) in &divided {
                println!("{} {n}", mv.ptn::<N>());
            }
        }
        println!(
            "perft {depth} {leaves} {secs:.3} s {:.1} Mnps",
            leaves as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
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
fn fuzz(args: &fuzz::FuzzCli) -> i32 {
    let config = cairn_tools::fuzz::FuzzConfig::from(args);
    // The sessions log every error they answer; unless asked for, keep only real errors.
    if std::env::var_os("RUST_LOG").is_none() {
        log::set_max_level(log::LevelFilter::Error);
    }
    let report = cairn_tools::fuzz::run(&config, |p| {
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
        config.seed,
        config.threads
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

fn parse_sprt(text: &str) -> Result<cairn_tools::arena::Sprt, String> {
    let mut sprt = cairn_tools::arena::Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for part in text.split_whitespace() {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("--sprt `{part}`: expected key=value"))?;
        let value: f64 = value
            .parse()
            .map_err(|_| format!("--sprt `{part}`: not a number"))?;
        match key {
            "elo0" => sprt.elo0 = value,
            "elo1" => sprt.elo1 = value,
            "alpha" => sprt.alpha = value,
            "beta" => sprt.beta = value,
            _ => {
                return Err(format!(
                    "--sprt `{key}`: expected elo0, elo1, alpha or beta"
                ))
            }
        }
    }
    let valid = |p: f64| p > 0.0 && p < 0.5;
    if sprt.elo1 <= sprt.elo0 || !valid(sprt.alpha) || !valid(sprt.beta) {
        return Err(format!(
            "--sprt \"{text}\": need elo1 > elo0 and 0 < alpha, beta < 0.5"
        ));
    }
    Ok(sprt)
}

fn run_match(args: &MatchArgs) -> Result<(), String> {
    use cairn_tools::arena::{self, EngineSpec, GameSettings, MatchConfig, TimeControl};
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two --engine specs, not {}",
            args.engines.len()
        ));
    }
    let spec = |i: usize| {
        args.engines[i]
            .parse::<EngineSpec>()
            .map_err(|e| format!("--engine: {e}"))
    };
    let komi = cairn_tak::board::Komi::from_flats(args.komi)
        .map_err(|e| format!("--komi {}: {e}", args.komi))?;
    let book = match &args.book {
        Some(path) => Some(
            std::fs::read_to_string(path).map_err(|e| format!("--book {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let config = MatchConfig {
        engines: [spec(0)?, spec(1)?],
        size: args.size as usize,
        settings: GameSettings {
            komi,
            tc: args
                .tc
                .parse::<TimeControl>()
                .map_err(|e| format!("--tc: {e}"))?,
            max_plies: args.max_plies,
            nodes: args.nodes,
        },
        games: args.games as usize,
        book,
        book_start: args.book_start.map_or(0, |n| n as usize - 1),
        concurrency: args.concurrency as usize,
        ptn: args.ptn.clone(),
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
    };
    let outcome = arena::run(&config)?;
    let t = outcome.tally;
    println!(
        "{} vs {}: +{} -{} ={} ({} games), score {:.1}%, elo {:.1}, forfeits {}/{}",
        config.engines[0].name,
        config.engines[1].name,
        t.wins,
        t.losses,
        t.draws,
        t.games(),
        100.0 * t.score(),
        t.elo(),
        outcome.forfeits[0],
        outcome.forfeits[1]
    );
    let p = outcome.pairs;
    if p.pairs() > 0 {
        let [c0, c1, c2, c3, c4] = p.counts;
        println!(
            "pairs (0, 1/2, 1, 3/2, 2 points): {c0} {c1} {c2} {c3} {c4} ({} pairs), elo {:.1}",
            p.pairs(),
            p.elo()
        );
    }
    if let Some((llr, state)) = outcome.sprt {
        println!("sprt: llr {llr:.2} over the pairs, {state:?}");
    }
    if let Some(path) = &args.plot {
        let report = cairn_tools::report::MatchReport::from_ptn(&outcome.games.concat())
            .map_err(|e| format!("--plot: the match's games: {e}"))?;
        cairn_tools::report::write_plot(&report, path)?;
    }
    Ok(())
}

/// A `--half-komi` argument: an integer number of half flats.
fn half_komi_arg(text: &str) -> Result<cairn_tak::board::Komi, String> {
    use cairn_tak::board::{Komi, HALF_KOMI_TEXT};
    text.parse::<i64>()
        .ok()
        .and_then(|halves| Komi::from_halves(halves).ok())
        .ok_or_else(|| format!("must be {HALF_KOMI_TEXT}"))
}
