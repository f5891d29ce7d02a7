//! The engine facade: the one API the TEI loop, `cairn bench` and the tests drive.
//!
//! It owns the options, the transposition table and the current game, and runs searches on a
//! background thread: [`Engine::go`] returns at once, [`Engine::stop`] ends the search early, and
//! the result arrives through the [`Reporter`] callback as [`SearchEvent::BestMove`], exactly
//! once per `go`. The engine alone knows whether a search is running and keeps that promise: a
//! second best move is dropped, and a search thread that ends without one (it died, or could
//! not start) is answered with an error message and the first legal move. Below this layer the board size is a compile-time constant; here it is picked
//! once per game ([`Engine::new_game`]) and hidden behind the [`AnyGame`] trait (implemented by [`TakGame`], a position with the hashes of the positions before it).

use crate::level::{self, Level, Reach};
use cairn_search::score::{Score, WinKind};
use cairn_search::{
    self as search, params::MOVE_OVERHEAD_MS, Limits, SearchConfig, SearchInfo, TimeManager,
    TranspositionTable,
};
use cairn_tak::board::{GameResult, Komi, Move, Position, TakGame};
use cairn_tak::notation::{parse_move, tps};
use cairn_tak::tinue::{self, TinueLimits, TinueResult};
use std::sync::atomic::{
    AtomicBool,
    Ordering::{Relaxed, SeqCst},
};
use std::sync::Arc;
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Instant;

/// Something the search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// A finished iteration (one line per MultiPV line), or the final line of the move played,
    /// with the search's totals, just before [`SearchEvent::BestMove`].
    Info(SearchInfo),
    /// The move to play, in canonical PTN; sent exactly once per `go`.
    BestMove(String),
    /// A problem worth telling the user (for example: the game is already over).
    Message(String),
}

/// Receives search events, from the search thread.
pub type Reporter = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// Default transposition table size, MiB.
pub const DEFAULT_HASH_MB: usize = 64;

/// Engine options (TEI `setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Time kept in hand per move, ms.
    pub move_overhead_ms: u64,
    /// Komi, in Black's favour; kept across games.
    pub komi: Komi,
    /// How much worse than even a draw is for the engine, in the evaluation's units
    /// ([`SearchConfig::contempt`]).
    pub contempt: i32,
    /// The playing strength ([`crate::level`]): [`level::FULL`] plays as well as it can.
    pub level: u8,
    /// The seed of a weaker level's choices: the same seed replays the same game.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            move_overhead_ms: MOVE_OVERHEAD_MS,
            komi: Komi::ZERO,
            contempt: 0,
            level: level::FULL,
            seed: 0,
        }
    }
}

/// Where a position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The empty board of the game's size.
    StartPos,
    /// A TPS string.
    Tps(String),
}

/// A game of some board size, behind which `Position<N>` hides.
pub trait AnyGame: Send {
    /// The board size.
    fn size(&self) -> usize;
    /// Sets the position from a start and PTN moves; on error the old position is kept.
    fn set_position(&mut self, start: &Start, moves: &[&str], komi: Komi) -> Result<(), String>;
    /// The current position as TPS.
    fn tps(&self) -> String;
    /// The current position as an ASCII diagram.
    fn diagram(&self) -> String;
    /// The result of the current position by the rules, if the game is over.
    fn result(&self) -> Option<GameResult>;
    /// Runs `job`'s search to completion on the calling thread and reports its best move, on
    /// the job's clock. A timed search (clock or movetime; no depth or node limit, one line)
    /// first gives the tinue prover a small share of that clock's budget
    /// ([`cairn_tak::tinue::root_check`]) and plays a proven road; the search then runs on the
    /// same clock, so the check's time is the search's.
    fn search(&self, job: &Job) -> search::SearchResult<Move>;
    /// Runs the tinue prover ([`cairn_tak::tinue`]) to completion on the calling thread within
    /// `job`'s limits (movetime, on the job's clock; nodes; depth in plies; none: until `stop`)
    /// and reports its proof and first move; without a proof, says so and reports the best move
    /// of a short search.
    fn solve(&self, job: &Job) -> search::SearchResult<Move>;
    /// A copy, to hand to a search thread.
    fn boxed_clone(&self) -> Box<dyn AnyGame>;
    /// The first legal move in canonical PTN (a last-resort answer), if there is one.
    fn first_legal_move(&self) -> Option<String>;
}

/// One `go` as a game runs it ([`AnyGame::search`], [`AnyGame::solve`]): all of it but the
/// position.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// What `go` asked for.
    pub limits: &'a Limits,
    /// How to search. The job's clock starts at `config.started` (when the `go` arrived;
    /// without it, when the job starts): its deadlines and every `info time` count from then.
    pub config: &'a SearchConfig,
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Set to end the job early; its best move is still reported.
    pub stop: &'a AtomicBool,
    /// Where the job's events go.
    pub reporter: &'a Reporter,
    /// The playing strength, and the seed of its choices.
    pub level: (Level, u64),
}

/// The empty board of `N`×`N` with `komi`, as a new game.
fn new_game<const N: usize>(komi: Komi) -> TakGame<N> {
    let mut position = Position::<N>::start();
    position.set_komi(komi);
    TakGame::new(position)
}

impl<const N: usize> AnyGame for TakGame<N> {
    fn size(&self) -> usize {
        N
    }

    fn set_position(&mut self, start: &Start, moves: &[&str], komi: Komi) -> Result<(), String> {
        *self = play_moves::<N>(start, moves, komi)?;
        Ok(())
    }

    fn tps(&self) -> String {
        tps::to_tps(self.position())
    }

    fn diagram(&self) -> String {
        self.position().to_string()
    }

    fn result(&self) -> Option<GameResult> {
        self.position().result()
    }

    fn search(&self, job: &Job) -> search::SearchResult<Move> {
        if !job.level.0.is_full() {
            return search_at_level(self, job);
        }
        let (config, clock) = one_clock(self.position(), job);
        let started = clock.start();
        if let Some(result) = self.position().result() {
            (job.reporter)(SearchEvent::Message(format!("the game is over ({result})")));
        }
        // A timed search first gives the tinue prover a small share of what is left of its
        // budget.
        let limits = job.limits;
        let timed = limits.depth.is_none() && limits.nodes.is_none() && config.multipv <= 1;
        if let Some(time) = clock.planned_left().filter(|_| timed) {
            if let Some(proof) = tinue::root_check(self.position(), time, job.stop) {
                return report_proof::<N>(&proof, started, job.reporter);
            }
        }
        let info = |info: &SearchInfo| (job.reporter)(SearchEvent::Info(info.clone()));
        let result = search::search(
            self.position(),
            self.hashes(),
            limits,
            &config,
            job.tt,
            job.stop,
            &info,
        );
        report_final::<N>(&result, started, job.tt.hashfull(), job.reporter);
        result
    }

    fn solve(&self, job: &Job) -> search::SearchResult<Move> {
        let (config, clock) = one_clock(self.position(), job);
        let started = clock.start();
        let mut tinue_limits = TinueLimits::from_search_limits(
            job.limits,
            config.move_overhead_ms,
            TinueLimits::default().hash_mb,
        );
        // A movetime's deadline counts from the `go`, as the search's does.
        tinue_limits.deadline = tinue_limits.deadline.and(clock.deadline());
        let result = tinue::solve(self.position(), &tinue_limits, job.stop);
        if result.proof().is_some() {
            return report_proof::<N>(&result, started, job.reporter);
        }
        (job.reporter)(SearchEvent::Message(format!(
            "no tinue found ({}, {} nodes, {} ms)",
            result.kind(),
            result.nodes,
            result.time_ms
        )));
        let short = Limits {
            nodes: Some(SOLVE_FALLBACK_NODES),
            ..Limits::default()
        };
        self.search(&Job {
            limits: &short,
            config: &config,
            stop: &AtomicBool::new(false),
            ..*job
        })
    }

    fn boxed_clone(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn first_legal_move(&self) -> Option<String> {
        let first = self.position().legal_moves().first().copied();
        first.map(|mv| mv.ptn::<N>().to_string())
    }
}

/// [`AnyGame::search`] at a level below full strength: a capped search of several lines on one
/// thread, then the level's pick among them ([`Level::pick`]). Only the lines the user asked
/// for (`MultiPV`) are reported; the final line is the move played.
fn search_at_level<const N: usize>(game: &TakGame<N>, job: &Job) -> search::SearchResult<Move> {
    let (level, seed) = job.level;
    let (mut config, clock) = one_clock(game.position(), job);
    let started = clock.start();
    let shown = config.multipv.max(1);
    config.multipv = shown.max(level.lines);
    config.threads = 1;
    let mut limits = job.limits.clone();
    match level.reach {
        Some(Reach::Depth(plies)) => {
            limits.depth = Some(limits.depth.map_or(plies, |d| d.min(plies)))
        }
        Some(Reach::Nodes(cap)) => limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap))),
        None => {}
    }
    // The lines of the last complete iteration, in the order reported.
    let lines: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
    let info = |info: &SearchInfo| {
        let mut kept = lines.lock().unwrap_or_else(|e| e.into_inner());
        if info.multipv == 1 {
            kept.clear();
        }
        kept.push(info.clone());
        if info.multipv <= shown {
            (job.reporter)(SearchEvent::Info(info.clone()));
        }
    };
    let search = |limits: &Limits| {
        search::search(
            game.position(),
            game.hashes(),
            limits,
            &config,
            job.tt,
            job.stop,
            &info,
        )
    };
    let mut result = search(&limits);
    if result.depth == 0 && limits.nodes.is_some() && !job.stop.load(Relaxed) {
        // The cap ended the first ply: a level always looks that far.
        let one_ply = Limits {
            nodes: None,
            depth: Some(1),
            ..limits.clone()
        };
        result = search(&one_ply);
    }
    let lines = lines.into_inner().unwrap_or_else(|e| e.into_inner());
    let scores: Vec<Score> = lines.iter().map(|l| l.score).collect();
    let chosen = level
        .pick(&scores, seed, game.position().hash())
        .and_then(|i| {
            let line = &lines[i];
            let first = parse_move(game.position(), line.pv.first()?).ok()?;
            let mut pos = game.position().clone();
            let mut pv = Vec::with_capacity(line.pv.len());
            for text in &line.pv {
                let Ok(mv) = parse_move(&pos, text) else {
                    break;
                };
                pos.make(mv);
                pv.push(mv);
            }
            Some((first, line.score, pv))
        });
    if let Some((best, score, pv)) = chosen {
        result.best = Some(best);
        result.score = score;
        result.pv = pv;
    }
    report_final::<N>(&result, started, job.tt.hashfull(), job.reporter);
    result
}

/// Nodes of the short search that answers `go solved` when no tinue is proven.
const SOLVE_FALLBACK_NODES: u64 = 50_000;

/// `job`'s config with its clock's start fixed (now, if it has none), so that every clock made
/// from it is the same one, and that clock for `pos`.
fn one_clock<const N: usize>(pos: &Position<N>, job: &Job) -> (SearchConfig, TimeManager) {
    let config = SearchConfig {
        started: Some(job.config.started.unwrap_or_else(Instant::now)),
        ..job.config.clone()
    };
    let clock = search::clock(pos, job.limits, &config);
    (config, clock)
}

/// Reports a proven road as a finished search and plays its first move. The line gives the
/// prover's own work: its nodes, and the time since `started` (the start of the `go`, so at
/// least the prover's time).
fn report_proof<const N: usize>(
    proof: &TinueResult,
    started: Instant,
    reporter: &Reporter,
) -> search::SearchResult<Move> {
    let Some((plies, pv)) = proof.proof() else {
        unreachable!("report_proof needs a proof")
    };
    let result = search::SearchResult::<Move> {
        best: Some(pv[0]),
        score: Score::win_in(plies, WinKind::Outright),
        depth: plies,
        seldepth: plies,
        pv: pv.to_vec(),
        nodes: proof.nodes,
        ended: Instant::now(),
    };
    // The prover uses a table of its own, not the search's.
    report_final::<N>(&result, started, 0, reporter);
    result
}

/// Ends a search's report: one last `info` for the move played, with the totals (every node,
/// the time from `started` until the search ended) and that move's line, then the move itself.
/// Whatever the last iteration reported, a GUI thus shows what the search really did and the
/// line it plays.
fn report_final<const N: usize>(
    result: &search::SearchResult<Move>,
    started: Instant,
    hashfull: u32,
    reporter: &Reporter,
) {
    let elapsed = result.ended.saturating_duration_since(started);
    let pv: Vec<String> = result
        .pv
        .iter()
        .map(|m: &Move| m.ptn::<N>().to_string())
        .collect();
    let best = pv.first().cloned().unwrap_or_default();
    reporter(SearchEvent::Info(SearchInfo {
        depth: result.depth,
        seldepth: result.seldepth.max(result.depth),
        multipv: 1,
        score: result.score,
        nodes: result.nodes,
        nps: search::nodes_per_second(result.nodes, elapsed),
        time_ms: elapsed.as_millis() as u64,
        hashfull,
        pv,
    }));
    reporter(SearchEvent::BestMove(best));
}

/// Plays `moves` from `start`: the game, or what is wrong, naming the move.
fn play_moves<const N: usize>(
    start: &Start,
    moves: &[&str],
    komi: Komi,
) -> Result<TakGame<N>, String> {
    let mut position = match start {
        Start::StartPos => Position::<N>::start(),
        Start::Tps(text) => tps::parse::<N>(text).map_err(|e| format!("bad TPS: {e}"))?,
    };
    position.set_komi(komi);
    let mut game = TakGame::new(position);
    for (i, text) in moves.iter().enumerate() {
        if let Some(result) = game.position().result() {
            return Err(format!(
                "move {} `{text}`: the game already ended {result}",
                i + 1
            ));
        }
        let mv = parse_move(game.position(), text).map_err(|e| format!("move {}: {e}", i + 1))?;
        game.play(mv);
    }
    Ok(game)
}

/// Checks that `moves` can be played from `start` on a `size`×`size` board, with the messages
/// [`Engine::set_position`] would give, without touching any engine.
pub fn validate_position(size: usize, start: &Start, moves: &[&str]) -> Result<(), String> {
    cairn_tak::with_size!(size, |N| play_moves::<N>(start, moves, Komi::ZERO).map(|_| ()),
        else Err(format!("unsupported board size {size}")))
}

/// A search running on its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The engine.
pub struct Engine {
    options: Options,
    tt: Arc<TranspositionTable>,
    game: Box<dyn AnyGame>,
    running: Option<Running>,
    /// Set by `go` and cleared just before its best move is reported (so a GUI that answers the
    /// best move with the next `go` is never refused); the thread may end a moment later.
    searching: Arc<AtomicBool>,
}

/// The reporter of one `go`, keeping the promise of exactly one best move: only the first one
/// passes, and if it is dropped before any (the search thread died, or never started), it
/// reports an error message and the fallback move.
struct OneBestMove {
    reporter: Reporter,
    searching: Arc<AtomicBool>,
    fallback: Option<String>,
}

impl OneBestMove {
    fn report(&self, event: SearchEvent) {
        match event {
            SearchEvent::BestMove(mv) => {
                if self.searching.swap(false, SeqCst) {
                    (self.reporter)(SearchEvent::BestMove(mv));
                } else {
                    log::error!("a second bestmove `{mv}` for one go was dropped");
                }
            }
            other => (self.reporter)(other),
        }
    }
}

impl Drop for OneBestMove {
    fn drop(&mut self) {
        if self.searching.load(SeqCst) {
            let text = "the search ended without a best move; playing the first legal move";
            log::warn!("{text}");
            (self.reporter)(SearchEvent::Message(format!("error {text}")));
            let fallback = self.fallback.take().unwrap_or_default();
            self.report(SearchEvent::BestMove(fallback));
        }
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine with default options and a 6×6 game.
    pub fn new() -> Self {
        Self::with_options(Options::default())
    }

    /// An engine with `options` and a 6×6 game.
    pub fn with_options(options: Options) -> Self {
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            game: Box::new(new_game::<6>(Komi::ZERO)),
            options,
            running: None,
            searching: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Lets an observer (a server's idle timer) read whether a search is running, through
    /// `flag`: the engine sets and clears it from now on.
    pub fn share_searching_flag(&mut self, flag: Arc<AtomicBool>) {
        flag.store(self.searching.load(SeqCst), SeqCst);
        self.searching = flag;
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes options; a new table size takes effect at once. Refused while a search runs,
    /// and when the table cannot be allocated (the old options stay).
    pub fn set_options(&mut self, options: Options) -> Result<(), String> {
        if self.is_searching() {
            return Err("cannot change options while searching; send stop first".to_string());
        }
        self.wait();
        if options.hash_mb != self.options.hash_mb {
            self.tt = Arc::new(TranspositionTable::try_new(options.hash_mb)?);
        }
        self.options = options;
        Ok(())
    }

    /// Starts a new game of `size` (one of [`cairn_tak::board::SIZES`]): stops any search, clears the table and the position.
    pub fn new_game(&mut self, size: usize) -> Result<(), String> {
        let komi = self.options.komi;
        let game: Box<dyn AnyGame> = cairn_tak::with_size!(size, |N| Box::new(new_game::<N>(komi)),
        else return Err(format!(
            "unsupported board size {size}; Cairn plays {}",
            cairn_tak::board::sizes_text()
        )));
        self.stop();
        self.wait();
        self.game = game;
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb)),
        }
        Ok(())
    }

    /// The current game's board size.
    pub fn size(&self) -> usize {
        self.game.size()
    }

    /// Sets the position; on error the previous position stays.
    pub fn set_position(&mut self, start: &Start, moves: &[&str]) -> Result<(), String> {
        self.game.set_position(start, moves, self.options.komi)
    }

    /// The current position as TPS.
    pub fn tps(&self) -> String {
        self.game.tps()
    }

    /// The current position as an ASCII diagram.
    pub fn diagram(&self) -> String {
        self.game.diagram()
    }

    /// The result of the current position by the rules, if the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.game.result()
    }

    /// Whether a search is running (one that has reported its best move is not).
    pub fn is_searching(&self) -> bool {
        self.searching.load(SeqCst)
    }

    /// The search's config, on a clock that started at `started`.
    fn config(&self, started: Instant) -> SearchConfig {
        SearchConfig {
            threads: self.options.threads,
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead_ms,
            contempt: self.options.contempt,
            started: Some(started),
            ..SearchConfig::default()
        }
    }

    /// Starts a search of the current position on a clock that starts now; returns at once.
    /// The best move arrives through `reporter`. Fails if a search is already running.
    pub fn go(&mut self, limits: Limits, reporter: Reporter) -> Result<(), String> {
        self.go_since(Instant::now(), limits, reporter)
    }

    /// [`Engine::go`] on a clock that started at `started`, when the `go` arrived: the time
    /// since then counts against `limits` and in every `info time`.
    pub fn go_since(
        &mut self,
        started: Instant,
        limits: Limits,
        reporter: Reporter,
    ) -> Result<(), String> {
        self.start(started, limits, reporter, false)
    }

    /// Starts the tinue prover on the current position (TEI `go solved`), on a clock that
    /// started at `started` (when the `go` arrived); returns at once. Like [`Engine::go`],
    /// exactly one best move follows: the proof's first move, or without a proof that of a
    /// short search ([`AnyGame::solve`]).
    pub fn go_solved(
        &mut self,
        started: Instant,
        limits: Limits,
        reporter: Reporter,
    ) -> Result<(), String> {
        self.start(started, limits, reporter, true)
    }

    fn start(
        &mut self,
        started: Instant,
        limits: Limits,
        reporter: Reporter,
        solve: bool,
    ) -> Result<(), String> {
        if self.is_searching() {
            return Err("a search is already running; send stop first".to_string());
        }
        self.wait();
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.boxed_clone();
        let tt = Arc::clone(&self.tt);
        let config = self.config(started);
        let level = self.level();
        let thread_stop = Arc::clone(&stop);
        self.searching.store(true, SeqCst);
        let guard = OneBestMove {
            reporter,
            searching: Arc::clone(&self.searching),
            fallback: self.game.first_legal_move(),
        };
        let report: Reporter = Arc::new(move |event| guard.report(event));
        let handle = std::thread::Builder::new()
            .name("search".to_string())
            .spawn(move || {
                let job = Job {
                    limits: &limits,
                    config: &config,
                    tt: &tt,
                    stop: &thread_stop,
                    reporter: &report,
                    level,
                };
                if solve {
                    game.solve(&job);
                } else {
                    game.search(&job);
                }
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { stop, handle });
        Ok(())
    }

    /// Runs a search on the calling thread, on a clock that starts now, and returns its result
    /// (for bench and tools).
    pub fn search_blocking(
        &mut self,
        limits: Limits,
        reporter: Reporter,
    ) -> search::SearchResult<Move> {
        self.wait();
        let stop = AtomicBool::new(false);
        let config = self.config(Instant::now());
        self.game.search(&Job {
            limits: &limits,
            config: &config,
            tt: &self.tt,
            stop: &stop,
            reporter: &reporter,
            level: self.level(),
        })
    }

    /// The playing strength of the options, with the seed of its choices.
    fn level(&self) -> (Level, u64) {
        (Level::new(self.options.level), self.options.seed)
    }

    /// Asks a running search to stop; its best move is still reported. Harmless when idle.
    pub fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Relaxed);
        }
    }

    /// Waits for a running search to finish (after `stop`, or by its limits).
    pub fn wait(&mut self) {
        if let Some(running) = self.running.take() {
            if running.handle.join().is_err() {
                log::error!("the search thread panicked");
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A reporter that keeps what it is given.
    fn recorder() -> (Reporter, Arc<Mutex<Vec<SearchEvent>>>) {
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        let reporter: Reporter = Arc::new(move |event| sink.lock().unwrap().push(event));
        (reporter, events)
    }

    #[test]
    fn a_search_that_dies_still_gets_one_bestmove() {
        let (reporter, events) = recorder();
        let searching = Arc::new(AtomicBool::new(true));
        let game = new_game::<3>(Komi::ZERO);
        drop(OneBestMove {
            reporter: Arc::clone(&reporter),
            searching: Arc::clone(&searching),
            fallback: game.first_legal_move(),
        });
        // A search that reported normally adds nothing, and a second best move is dropped.
        searching.store(true, SeqCst);
        let guard = OneBestMove {
            reporter,
            searching: Arc::clone(&searching),
            fallback: None,
        };
        guard.report(SearchEvent::BestMove("c3".to_string()));
        guard.report(SearchEvent::BestMove("b2".to_string()));
        drop(guard);
        let events = events.lock().unwrap().clone();
        assert_eq!(events.len(), 3, "{events:?}");
        assert!(
            matches!(&events[0], SearchEvent::Message(m) if m.starts_with("error the search ended"))
        );
        assert_eq!(events[1], SearchEvent::BestMove("a1".to_string()));
        assert_eq!(events[2], SearchEvent::BestMove("c3".to_string()));
        assert!(!searching.load(SeqCst));
    }
}
