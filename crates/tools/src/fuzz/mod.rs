//! `cairn fuzz`: random and mutated inputs, at volume, through every reader of outside text.
//!
//! Five targets, each fed its own stream of inputs:
//! - [`Target::Tps`]: [`Tps`] parsing and [`Tps::to_position`] at its size. An accepted
//!   position must write back to a TPS that reads as the same position (compressed and
//!   uncompressed), and every legal move must make and unmake back to it, and read back from its
//!   own PTN.
//! - [`Target::Move`]: [`PtnMove`] parsing, then every board size: the canonical text reads
//!   back as the same move, a move that fits the board packs and unpacks to the same move, and
//!   [`parse_move`] accepts it in a position exactly when the move generator lists it.
//! - [`Target::PtnFile`]: [`parse_file`]; each game read writes back ([`PtnGame::to_ptn`]) to
//!   the same game (a lone move number, a game with nothing in it, writes nothing), and its
//!   size, komi and replay by the rules are computed.
//! - [`Target::TeiCommand`]: [`tei::parse`] of one line.
//! - [`Target::TeiSession`]: lines fed to the real TEI loop ([`tei::run_session`]), see
//!   [`session`].
//!
//! Every target must never panic (each input runs under `catch_unwind`; a panic is reported
//! with its input), never hang (a watchdog names an input that runs past the timeout), and
//! reject bad input with a typed error whose message is one non-empty line.
//!
//! Inputs come from [`generate`]: a third random text, a third grammar-aware text, a third
//! mutated valid text from a corpus of random legal games. Input `i` of a target depends only
//! on the seed, the target and `i`, so a failure names what reproduces it.

pub mod generate;
pub mod session;

use cairn_engine::tei;
use cairn_search::rng::Rng;
use cairn_tak::notation::{parse_file, parse_move, replay_any, tps, PtnGame, PtnMove, Tps};
use generate::{Corpus, Kind};
use std::cell::RefCell;
use std::fmt;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// What is fuzzed (the values of `--target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Target {
    /// TPS positions.
    Tps,
    /// Single PTN moves, at every board size.
    Move,
    /// Whole PTN files.
    PtnFile,
    /// The TEI command parser.
    TeiCommand,
    /// Lines fed to the real TEI loop.
    TeiSession,
}

impl Target {
    /// Every target, in the order they run.
    pub const ALL: [Target; 5] = [
        Target::Tps,
        Target::Move,
        Target::PtnFile,
        Target::TeiCommand,
        Target::TeiSession,
    ];

    fn name(self) -> &'static str {
        match self {
            Target::Tps => "tps",
            Target::Move => "move",
            Target::PtnFile => "ptn-file",
            Target::TeiCommand => "tei-command",
            Target::TeiSession => "tei-session",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The arguments of `cairn fuzz`: a fuzz run.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Prints one line per target and a total; exits 1 if anything failed.\n\n\
    Examples:\n  \
    cairn fuzz --inputs 100000\n  \
    nice -n 19 cairn fuzz --inputs 10000000 --seed 1 --threads 1\n  \
    cairn fuzz --target tps --target move --inputs 1000000 --seed 7"
)]
pub struct FuzzArgs {
    /// Inputs in all, shared equally by the targets.
    #[arg(long, default_value_t = 1_000_000)]
    pub inputs: u64,
    /// Seed of every input; the same seed gives the same inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads per target (for the session target: sessions at once).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Fuzz only this target (repeatable); all of them without it.
    #[arg(long = "target", value_enum)]
    pub targets: Vec<Target>,
    /// How long one input may take before it counts as a hang, in seconds.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
}

impl FuzzArgs {
    /// The targets to run, in order: those given, or all of them.
    pub fn targets(&self) -> &[Target] {
        if self.targets.is_empty() {
            &Target::ALL
        } else {
            &self.targets
        }
    }

    /// How long one input may take before it counts as a hang.
    fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout)
    }
}

/// How one input fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Read (and, for a session line, carried out) without error.
    Accepted,
    /// Refused with a typed error.
    Rejected,
}

/// Something that must not happen: a panic, a hang, or a broken property.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The target.
    pub target: Target,
    /// The input's number within its target (with the seed, it reproduces the input).
    pub index: u64,
    /// The input (for a session: the line, after the lines before it).
    pub input: String,
    /// What went wrong.
    pub problem: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} input {}: {}\n  input: {}",
            self.target, self.index, self.problem, self.input
        )
    }
}

/// The counts of one target.
#[derive(Clone, Debug)]
pub struct TargetReport {
    /// The target.
    pub target: Target,
    /// Inputs run.
    pub inputs: u64,
    /// Inputs accepted.
    pub accepted: u64,
    /// Inputs rejected with a typed error.
    pub rejected: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl fmt::Display for TargetReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<12} {:>10} inputs {:>10} accepted {:>10} rejected {:>8.1} s",
            self.target.name(),
            self.inputs,
            self.accepted,
            self.rejected,
            self.elapsed.as_secs_f64()
        )
    }
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct FuzzReport {
    /// One report per target, in order.
    pub targets: Vec<TargetReport>,
    /// Every failure (at most [`MAX_FAILURES`] per target are kept; the count is in `inputs`
    /// minus accepted and rejected).
    pub failures: Vec<Failure>,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

impl FuzzReport {
    /// Inputs run over all targets.
    pub fn inputs(&self) -> u64 {
        self.targets.iter().map(|t| t.inputs).sum()
    }

    /// Inputs that failed over all targets.
    pub fn failed(&self) -> u64 {
        self.targets
            .iter()
            .map(|t| t.inputs - t.accepted - t.rejected)
            .sum()
    }
}

/// The most failures kept per target (all are counted).
pub const MAX_FAILURES: usize = 20;

/// Progress of a target, reported about every two seconds.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The target.
    pub target: Target,
    /// Inputs done.
    pub done: u64,
    /// Inputs to do.
    pub total: u64,
    /// Failures so far.
    pub failed: u64,
    /// Time since the target started.
    pub elapsed: Duration,
}

/// Runs the inputs of every target in turn, calling `progress` now and then.
pub fn run(args: &FuzzArgs, progress: impl Fn(&Progress)) -> FuzzReport {
    install_panic_hook();
    let started = Instant::now();
    let corpus = Arc::new(Corpus::new(args.seed, 24));
    let targets = args.targets().len() as u64;
    let mut report = FuzzReport {
        targets: Vec::new(),
        failures: Vec::new(),
        elapsed: Duration::ZERO,
    };
    for (i, &target) in args.targets().iter().enumerate() {
        let inputs = args.inputs / targets + u64::from((i as u64) < args.inputs % targets);
        let (counts, failures, hung) = run_target(args, target, inputs, &corpus, &progress);
        report.targets.push(counts);
        report.failures.extend(failures);
        if hung {
            break;
        }
    }
    report.elapsed = started.elapsed();
    report
}

/// Counts shared by the workers of one target.
struct Shared {
    target: Target,
    seed: u64,
    corpus: Arc<Corpus>,
    next: AtomicU64,
    total: u64,
    accepted: AtomicU64,
    rejected: AtomicU64,
    failed: AtomicU64,
    failures: Mutex<Vec<Failure>>,
    /// Set when a worker hangs: the others stop.
    stop: AtomicBool,
    /// Per worker: the input it runs and since when (ms after `epoch`, plus 1; 0 when idle).
    busy: Vec<(AtomicU64, AtomicU64)>,
    epoch: Instant,
}

impl Shared {
    fn record(&self, result: Result<Verdict, Failure>) {
        match result {
            Ok(Verdict::Accepted) => self.accepted.fetch_add(1, Relaxed),
            Ok(Verdict::Rejected) => self.rejected.fetch_add(1, Relaxed),
            Err(failure) => {
                log::error!("fuzz: {failure}");
                let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
                if failures.len() < MAX_FAILURES {
                    failures.push(failure);
                }
                self.failed.fetch_add(1, Relaxed)
            }
        };
    }

    /// The next input number for a worker, or `None` when done.
    fn claim(&self) -> Option<u64> {
        if self.stop.load(Relaxed) {
            return None;
        }
        let index = self.next.fetch_add(1, Relaxed);
        (index < self.total).then_some(index)
    }

    fn done(&self) -> u64 {
        self.accepted.load(Relaxed) + self.rejected.load(Relaxed) + self.failed.load(Relaxed)
    }
}

fn run_target(
    args: &FuzzArgs,
    target: Target,
    total: u64,
    corpus: &Arc<Corpus>,
    progress: &impl Fn(&Progress),
) -> (TargetReport, Vec<Failure>, bool) {
    let started = Instant::now();
    let threads = usize::from(args.threads.max(1));
    let shared = Arc::new(Shared {
        target,
        seed: args.seed,
        corpus: Arc::clone(corpus),
        next: AtomicU64::new(0),
        total,
        accepted: AtomicU64::new(0),
        rejected: AtomicU64::new(0),
        failed: AtomicU64::new(0),
        failures: Mutex::new(Vec::new()),
        stop: AtomicBool::new(false),
        busy: (0..threads)
            .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
            .collect(),
        epoch: Instant::now(),
    });
    let (done_tx, done_rx) = channel::<()>();
    for worker in 0..threads {
        let shared = Arc::clone(&shared);
        let done_tx = done_tx.clone();
        let timeout = args.timeout();
        let spawned = std::thread::Builder::new()
            .name(format!("fuzz-{target}-{worker}"))
            .spawn(move || {
                if target == Target::TeiSession {
                    session::work(&shared, worker, timeout);
                } else {
                    parser_work(&shared, worker);
                }
                let _ = done_tx.send(());
            });
        if let Err(e) = spawned {
            log::error!("fuzz: cannot start a worker: {e}");
        }
    }
    drop(done_tx);
    // Wait for the workers, watching for an input that runs too long.
    let mut last_progress = Instant::now();
    let mut hung = false;
    loop {
        match done_rx.recv_timeout(Duration::from_millis(100)) {
            Ok(()) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {}
        }
        if last_progress.elapsed() >= Duration::from_secs(2) {
            last_progress = Instant::now();
            progress(&Progress {
                target,
                done: shared.done(),
                total,
                failed: shared.failed.load(Relaxed),
                elapsed: started.elapsed(),
            });
        }
        if target != Target::TeiSession && !hung {
            if let Some(failure) = watchdog(&shared, args.timeout()) {
                // The stuck thread cannot be stopped; it is left behind and the run ends.
                shared.record(Err(failure));
                shared.stop.store(true, Relaxed);
                hung = true;
                break;
            }
        }
        // A session worker reports its own hang and stops.
        hung |= shared.stop.load(Relaxed);
    }
    let failures = std::mem::take(&mut *shared.failures.lock().unwrap_or_else(|e| e.into_inner()));
    let report = TargetReport {
        target,
        inputs: shared.done(),
        accepted: shared.accepted.load(Relaxed),
        rejected: shared.rejected.load(Relaxed),
        elapsed: started.elapsed(),
    };
    (report, failures, hung || shared.stop.load(Relaxed))
}

/// A failure for the first worker whose input has run longer than `timeout`, if any.
fn watchdog(shared: &Shared, timeout: Duration) -> Option<Failure> {
    let now = shared.epoch.elapsed().as_millis() as u64 + 1;
    for (since, index) in &shared.busy {
        let since = since.load(Relaxed);
        if since != 0 && now.saturating_sub(since) > timeout.as_millis() as u64 {
            let index = index.load(Relaxed);
            let input = input(shared.target, shared.seed, index, &shared.corpus);
            return Some(Failure {
                target: shared.target,
                index,
                input: format!("{input:?}"),
                problem: format!("hang: still running after {} s", timeout.as_secs()),
            });
        }
    }
    None
}

/// The generator of input `index` of `target`.
fn rng_for(target: Target, seed: u64, index: u64) -> Rng {
    // splitmix64 of the three, so that nearby numbers give unrelated streams.
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((target as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(index.wrapping_mul(0x94D0_49BB_1331_11EB));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Rng::new(z ^ (z >> 31))
}

/// Input `index` of `target`: random text, grammar-aware text or a mutated corpus text.
pub fn input(target: Target, seed: u64, index: u64, corpus: &Corpus) -> String {
    let rng = &mut rng_for(target, seed, index);
    let (kind, alphabet) = match target {
        Target::Tps => (Kind::Tps, "x12SC/,0123456789 \t"),
        Target::Move => (Kind::Move, "abcdefghiFSC0123456789+-<>*'!?\""),
        Target::PtnFile => (Kind::PtnFile, "[]{}\"\\ \n.-RF012/*abcSizeTPS+<>"),
        Target::TeiCommand | Target::TeiSession => (Kind::TeiLine, "abcdefgimnopstvx 0123456789-"),
    };
    let text = match rng.below(3) {
        0 => generate::random_text(rng, alphabet),
        1 => match kind {
            Kind::Tps => generate::tps_text(rng),
            Kind::Move => generate::move_text(rng),
            Kind::PtnFile => generate::ptn_file_text(rng, corpus),
            Kind::TeiLine => generate::tei_line(rng, corpus),
        },
        _ => {
            let valid = if kind == Kind::TeiLine && rng.chance(2) {
                generate::tei_line(rng, corpus)
            } else {
                corpus.sample(rng, kind)
            };
            let donor = corpus.sample(rng, kind);
            generate::mutate(rng, &valid, &donor)
        }
    };
    if target == Target::TeiSession {
        // One input is one line.
        text.replace('\n', " ")
    } else {
        text
    }
}

fn parser_work(shared: &Shared, worker: usize) {
    IN_WORKER.with(|w| *w.borrow_mut() = true);
    let (since, current) = &shared.busy[worker];
    while let Some(index) = shared.claim() {
        let text = input(shared.target, shared.seed, index, &shared.corpus);
        current.store(index, Relaxed);
        since.store(shared.epoch.elapsed().as_millis() as u64 + 1, Relaxed);
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            check(shared.target, &text, &shared.corpus)
        }));
        since.store(0, Relaxed);
        let result = match outcome {
            Ok(Ok(verdict)) => Ok(verdict),
            Ok(Err(problem)) => Err(problem),
            Err(payload) => Err(format!("panic: {}", panic_message(payload))),
        };
        shared.record(result.map_err(|problem| Failure {
            target: shared.target,
            index,
            input: format!("{text:?}"),
            problem,
        }));
    }
}

/// Runs one input through a parser target and checks what must hold.
pub fn check(target: Target, text: &str, corpus: &Corpus) -> Result<Verdict, String> {
    match target {
        Target::Tps => check_tps(text),
        Target::Move => check_move(text, corpus),
        Target::PtnFile => check_ptn_file(text),
        Target::TeiCommand => match tei::parse(text) {
            Ok(_) => Ok(Verdict::Accepted),
            Err(e) => rejected(&e),
        },
        Target::TeiSession => Err("the session target runs through a session".to_string()),
    }
}

/// A rejection, if the error says something (in one line, unless it quotes an input of several).
fn rejected(error: &impl fmt::Display) -> Result<Verdict, String> {
    let message = error.to_string();
    if message.trim().is_empty() {
        return Err("empty error message".to_string());
    }
    Ok(Verdict::Rejected)
}

fn check_tps(text: &str) -> Result<Verdict, String> {
    let syntax = match text.parse::<Tps>() {
        Ok(syntax) => syntax,
        Err(e) => {
            for size in cairn_tak::board::SIZES {
                let sized =
                    cairn_tak::with_size!(size, |N| tps::parse::<N>(text).map(|_| ()), else Ok(()));
                if sized.is_ok() {
                    return Err(format!(
                        "Tps refuses it ({e}) but tps::parse::<{size}> reads it"
                    ));
                }
            }
            return rejected(&e);
        }
    };
    let mut verdict = Verdict::Accepted;
    for size in cairn_tak::board::SIZES {
        if size == syntax.size {
            verdict = cairn_tak::with_size!(size, |N| check_tps_at::<N>(&syntax, text)?, else unreachable!());
        } else if cairn_tak::with_size!(size, |N| syntax.to_position::<N>().is_ok(), else false) {
            return Err(format!(
                "a {0}x{0} TPS was read at size {size}",
                syntax.size
            ));
        }
    }
    Ok(verdict)
}

/// Reads `syntax` at its size `N`; if that works, checks the round trips and the moves of the
/// position.
fn check_tps_at<const N: usize>(syntax: &Tps, text: &str) -> Result<Verdict, String> {
    let pos = match syntax.to_position::<N>() {
        Ok(pos) => pos,
        Err(e) => return rejected(&e),
    };
    if tps::parse::<N>(text).as_ref() != Ok(&pos) {
        return Err("tps::parse disagrees with Tps::to_position".to_string());
    }
    for written in [tps::to_tps(&pos), tps::to_tps_uncompressed(&pos)] {
        match tps::parse::<N>(&written) {
            Ok(again) if again == pos => {}
            Ok(_) => return Err(format!("`{written}` reads as another position")),
            Err(e) => return Err(format!("its own TPS `{written}` is refused: {e}")),
        }
    }
    if pos.hash() != pos.compute_hash() {
        return Err("the incremental hash differs from the computed one".to_string());
    }
    let _ = pos.result();
    let _ = cairn_tak::eval::evaluate(&pos);
    let mut after = pos.clone();
    for &mv in pos.legal_moves().iter() {
        let text = mv.ptn::<N>().to_string();
        if parse_move(&pos, &text) != Ok(mv) {
            return Err(format!("legal move `{text}` does not read back"));
        }
        let undo = after.make(mv);
        if after.hash() != after.compute_hash() {
            return Err(format!("hash wrong after `{text}`"));
        }
        after.unmake(mv, undo);
        if after != pos {
            return Err(format!("`{text}` does not unmake to the same position"));
        }
    }
    Ok(Verdict::Accepted)
}

fn check_move(text: &str, corpus: &Corpus) -> Result<Verdict, String> {
    let parsed = match text.parse::<PtnMove>() {
        Ok(parsed) => parsed,
        Err(e) => return rejected(&e),
    };
    let canonical = parsed.to_string();
    match canonical.parse::<PtnMove>() {
        Ok(again) if again == parsed => {}
        Ok(again) => return Err(format!("canonical `{canonical}` reads as {again:?}")),
        Err(e) => return Err(format!("canonical `{canonical}` is refused: {e}")),
    }
    // The same position of each size for a given text, so failures reproduce.
    let mut rng = Rng::new(text.len() as u64);
    for size in cairn_tak::board::SIZES {
        let game = corpus.game_of_size(&mut rng, size);
        cairn_tak::with_size!(size, |N| check_move_at::<N>(text, &parsed, &canonical, game)?, else unreachable!());
    }
    Ok(Verdict::Accepted)
}

fn check_move_at<const N: usize>(
    text: &str,
    parsed: &PtnMove,
    canonical: &str,
    game: &generate::CorpusGame,
) -> Result<(), String> {
    let pos = tps::parse::<N>(&game.end).map_err(|e| format!("corpus TPS refused: {e}"))?;
    let in_position = parse_move(&pos, text);
    let mv = match parsed.to_move::<N>() {
        Ok(mv) => mv,
        Err(e) => {
            rejected(&e)?;
            return match in_position {
                Err(_) => Ok(()),
                Ok(_) => Err(format!("does not fit {N}x{N} but parse_move takes it")),
            };
        }
    };
    if PtnMove::from_move::<N>(mv) != *parsed {
        return Err(format!("packed at {N}x{N} it unpacks as another move"));
    }
    if mv.ptn::<N>().to_string() != canonical {
        return Err(format!("written at {N}x{N} as `{}`", mv.ptn::<N>()));
    }
    let listed = game.legal.binary_search(&mv).is_ok();
    match in_position {
        Ok(m) if m == mv && listed => Ok(()),
        Err(e) if !listed => rejected(&e).map(|_| ()),
        Ok(_) => Err(format!("legal in `{}` but not generated", game.end)),
        Err(e) => Err(format!("generated in `{}` but refused: {e}", game.end)),
    }
}

/// A game with its positions in the file forgotten, to compare a game with its rewrite.
fn without_positions(game: &PtnGame) -> PtnGame {
    let mut game = game.clone();
    for ply in &mut game.plies {
        ply.line = 0;
        ply.column = 0;
    }
    game
}

fn check_ptn_file(text: &str) -> Result<Verdict, String> {
    let games = match parse_file(text) {
        Ok(games) => games,
        Err(e) => {
            if e.line == 0 || e.column == 0 {
                return Err(format!("error at line {} column {}", e.line, e.column));
            }
            return rejected(&e);
        }
    };
    for game in &games {
        // A lone move number (`19.`, as puzzle files have) is a game with nothing to write.
        let lone = game.tags.is_empty()
            && game.comments.is_empty()
            && game.plies.is_empty()
            && game.result.is_none();
        let written = game.to_ptn();
        match parse_file(&written) {
            Ok(again)
                if again.len() == 1 && without_positions(&again[0]) == without_positions(game) => {}
            Ok(again) if lone && again.is_empty() => {}
            Ok(again) => {
                return Err(format!(
                    "rewritten as {written:?}, which reads as {again:?}"
                ))
            }
            Err(e) => return Err(format!("rewritten as {written:?}, which is refused: {e}")),
        }
        if let Err(e) = game.size() {
            rejected(&e)?;
        }
        if let Err(e) = game.komi() {
            rejected(&e)?;
        }
        if let Err(e) = replay_any(game) {
            rejected(&e)?;
        }
    }
    Ok(Verdict::Accepted)
}

thread_local! {
    /// Set on the fuzz workers: their panics are expected to be caught and reported, quietly.
    static IN_WORKER: RefCell<bool> = const { RefCell::new(false) };
    /// The location of the last panic on this thread.
    static PANIC_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Panics on threads that are not fuzz workers (a session's, a search's) while a fuzz run is on.
static OTHER_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Installs, once, a panic hook that keeps the workers' panics quiet (each is reported with its
/// input) and remembers where every panic happened.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            PANIC_AT.with(|p| *p.borrow_mut() = Some(at.clone()));
            if IN_WORKER.with(|w| *w.borrow()) {
                return;
            }
            if let Ok(mut others) = OTHER_PANICS.lock() {
                if others.len() < 100 {
                    others.push(format!("{} at {at}", payload_text(info.payload())));
                }
            }
            previous(info);
        }));
    });
}

/// The panics seen on other threads since the last call.
fn other_panics() -> Vec<String> {
    std::mem::take(&mut *OTHER_PANICS.lock().unwrap_or_else(|e| e.into_inner()))
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// A caught panic's message and where it happened.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    let at = PANIC_AT.with(|p| p.borrow_mut().take()).unwrap_or_default();
    format!("{} at {at}", payload_text(payload.as_ref()))
}
