//! Cairn's game-neutral search: iterative deepening PVS with aspiration windows, MultiPV and Lazy SMP.
//!
//! [`search`] runs one complete search and returns its best move; it reports each finished
//! iteration (and with one line, the best line of one cut short) through a callback and never
//! prints. Threads share only the transposition table, the stop flag and the node count: the
//! main thread manages time and reports, helper threads run the same iterative deepening (odd
//! helpers one ply ahead, for diversity) and stop when the main thread is done. Only the main
//! thread's result is played. Deepening ends at the limits, or once the best line's result is
//! proven within the depth searched (`go infinite` then waits for `stop` without searching).
//! The result carries the line of the move played and the totals, for the caller's final
//! report.

pub mod repetition;
pub mod rng;
pub mod score;

mod alpha_beta;
mod eval_cache;
pub mod game;
pub mod history;
pub mod ordering;
pub mod params;
pub mod time;
pub mod tt;

pub use game::{MoveBuf, SearchGame, SearchMove};
pub use history::HistoryTables;
pub use params::Tunables;
pub use time::{Limits, TimeManager};
pub use tt::{Bound, TranspositionTable};

use crate::repetition::PositionHashes;
use crate::score::Score;
use alpha_beta::{Shared, Worker};
use params::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// One line of search output: what `info` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV line.
    pub multipv: usize,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search's clock started ([`SearchConfig::started`]: the `go`).
    pub time_ms: u64,
    /// Table fill, permille.
    pub hashfull: u32,
    /// The principal variation, in the game's notation (canonical PTN for Tak).
    pub pv: Vec<String>,
}

/// How a search is run.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Threads (1 or more).
    pub threads: usize,
    /// Lines to report (1 or more).
    pub multipv: usize,
    /// Time kept in hand for the pipe and the GUI, ms.
    pub move_overhead_ms: u64,
    /// The pruning and reduction constants ([`Tunables::current`] unless a tuner sets them).
    pub tunables: Tunables,
    /// What a draw is worth to the side the search is for, in the evaluation's units
    /// (centiflats in Tak), negated: a draw scores `-contempt` for the root's side to move and
    /// `+contempt` for the other. Above 0 the search avoids draws for any line it judges
    /// better than that; 0 (the default) scores a draw as even.
    pub contempt: i32,
    /// When the search's clock started: the moment `go` arrived, so that the time before the
    /// search (reading the position, a tinue check) counts against its deadlines and in its
    /// `info time`. `None` (the default): when [`search`] is called.
    pub started: Option<Instant>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            multipv: 1,
            move_overhead_ms: MOVE_OVERHEAD_MS,
            tunables: Tunables::current(),
            contempt: 0,
            started: None,
        }
    }
}

/// The outcome of a search for a game whose moves are `M`.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// The move to play (`None` only if the game is over or there is no legal move).
    pub best: Option<M>,
    /// Its score: from the deepest search of its line, or without one the static evaluation
    /// (the game's result if it is over).
    pub score: Score,
    /// The depth of the search `best` and `score` come from: the deepest iteration whose every
    /// MultiPV line was searched (or, when even the first iteration was cut short, that one if
    /// its first line was); 0 for none. With one line, an iteration cut short counts once it
    /// has searched the previous iteration's best move whole: its best line so far is that
    /// move seen deeper or a move that beat it. `best`, `score` and `pv` are that iteration's
    /// first line, the last one reported.
    pub depth: u32,
    /// The deepest ply that search reached.
    pub seldepth: u32,
    /// The principal variation of `best` (starting with it; empty when there is no move).
    pub pv: Vec<M>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// When the search stopped searching (before `go infinite` waited for `stop`).
    pub ended: Instant,
}

/// The clock that `limits` give the side to move of `pos`, started at
/// [`SearchConfig::started`] (or now): the one a [`search`] with the same arguments runs on, so
/// that work done before the search on the same config (the tinue check) can spend its budget.
pub fn clock<G: SearchGame>(pos: &G, limits: &Limits, config: &SearchConfig) -> TimeManager {
    // The first player's clock is the protocol's `wtime` (Tak's White).
    let first = pos.side() == 0;
    let start = config.started.unwrap_or_else(Instant::now);
    TimeManager::started_at(
        start,
        limits,
        first,
        config.move_overhead_ms,
        pos.moves_left(),
    )
}

/// Searches `pos` alone (no game before it) to a fixed `depth` on one thread, reporting nothing:
/// the deterministic search that tools and tests use. Clear `tt` first for a result that does not
/// depend on earlier searches.
pub fn search_to_depth<G: SearchGame>(
    pos: &G,
    depth: u32,
    tt: &TranspositionTable,
) -> SearchResult<G::Move> {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    search(
        pos,
        &PositionHashes::new(pos.hash()),
        &limits,
        &SearchConfig::default(),
        tt,
        &stop,
        &|_| {},
    )
}

/// Searches `pos`, reached by the game whose positions' hashes are `history` (`pos` last; it counts for repetitions), within
/// `limits` on the [`clock`] that starts at [`SearchConfig::started`], reporting each iteration
/// to `report`. Stops early when `stop` is set. Blocks until done.
pub fn search<G: SearchGame>(
    pos: &G,
    history: &PositionHashes,
    limits: &Limits,
    config: &SearchConfig,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    report: &(dyn Fn(&SearchInfo) + Sync),
) -> SearchResult<G::Move> {
    let time = clock(pos, limits, config);
    log::debug!(
        "search: soft {:?} hard {:?} limits {limits:?}",
        time.soft(),
        time.hard()
    );
    tt.new_search();
    let shared = Shared {
        tt,
        stop,
        nodes: AtomicU64::new(0),
        node_limit: limits.nodes,
        main_done: AtomicBool::new(false),
        tunables: config.tunables,
        contempt: config.contempt,
    };
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 2)
        .clamp(1, MAX_PLY as u32 - 2);
    let threads = config.threads.max(1);
    let mut result = std::thread::scope(|scope| {
        for id in 1..threads {
            let shared = &shared;
            scope.spawn(move || {
                let mut helper = Worker::new(pos.clone(), history, shared, None);
                iterate(&mut helper, 1 + (id as u32 % 2), max_depth, 1, None);
                helper.flush_nodes();
            });
        }
        let mut main = Worker::new(pos.clone(), history, &shared, Some(&time));
        let driver = Driver {
            time: &time,
            report,
            multipv: config.multipv.max(1),
        };
        let mut result = iterate(&mut main, 1, max_depth, driver.multipv, Some(&driver));
        main.flush_nodes();
        shared.main_done.store(true, Relaxed);
        result.ended = Instant::now();
        if limits.infinite {
            // `go infinite` answers only after `stop`, even if the search has nothing left to do
            // (a proven result): it waits without searching or printing.
            while !stop.load(Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        stop.store(true, Relaxed);
        result
    });
    // Every thread has ended and flushed its count.
    result.nodes = shared.nodes.load(Relaxed);
    if result.depth == 0 {
        result.score = pos.terminal(0).unwrap_or_else(|| pos.evaluate());
        result.pv = result.best.into_iter().collect();
    }
    result
}

/// Nodes per second for `nodes` in `elapsed` (as if a millisecond had passed when less did).
pub fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// What the main thread needs for reporting and time decisions.
struct Driver<'a> {
    time: &'a TimeManager,
    report: &'a (dyn Fn(&SearchInfo) + Sync),
    multipv: usize,
}

/// Iterative deepening from `first` to `max_depth` with aspiration windows and MultiPV.
fn iterate<G: SearchGame>(
    worker: &mut Worker<'_, G>,
    first: u32,
    max_depth: u32,
    multipv: usize,
    driver: Option<&Driver>,
) -> SearchResult<G::Move> {
    let root_moves = worker.pos.legal_moves();
    let mut result = SearchResult {
        best: root_moves.first().copied(),
        score: Score::DRAW,
        depth: 0,
        seldepth: 0,
        pv: Vec::new(),
        nodes: 0,
        ended: Instant::now(),
    };
    if root_moves.is_empty() || worker.pos.terminal(0).is_some() {
        return result;
    }
    let lines = multipv.min(root_moves.len());
    let mut previous: Vec<Score> = vec![Score::DRAW; lines];
    let mut best_changes = 0.0f64;
    for depth in first..=max_depth {
        worker.excluded.clear();
        worker.seldepth = 0;
        worker.root_anchor = result.best.filter(|_| result.depth > 0);
        let mut found: Vec<(Score, Vec<G::Move>)> = Vec::with_capacity(lines);
        let mut cut = false;
        for &guess in &previous {
            let score = aspiration(worker, depth, guess);
            if worker.stopped {
                cut = true;
                // With one line, the cut search's best line answers for it once the previous
                // best move is searched: that move seen deeper, or a move that beat it.
                if lines == 1 {
                    found.extend(worker.cut_root_line());
                }
                break;
            }
            let Some((_, pv)) = worker.root_line() else {
                break;
            };
            worker.excluded.push(pv[0]);
            found.push((score, pv));
        }
        let complete = found.len() == lines && !cut;
        // With several lines, an iteration is the answer only once every line of it is
        // searched: a deeper first line shown over shallower other lines, or a first line the
        // unsearched others might beat, would contradict the lines beside it. Only when the
        // very first iteration is cut short do its finished lines answer, for want of anything
        // better. With one line, a cut iteration answers whenever it found a line (above).
        if !complete && (found.is_empty() || (lines > 1 && result.depth > 0)) {
            break;
        }
        // Each line is the best move outside the lines before it, searched on its own: the
        // search's instability (table entries, pruning) can score a later line above an
        // earlier one. Best first; the sort is stable, so equal scores keep their search order.
        found.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
        let (score, pv) = &found[0];
        if result.best != pv.first().copied() && depth > first {
            best_changes += 1.0;
        }
        result.best = pv.first().copied();
        result.score = *score;
        result.depth = depth;
        result.seldepth = worker.seldepth.max(depth);
        result.pv.clone_from(pv);
        if let Some(driver) = driver {
            report_lines(worker, driver, depth, &found);
        }
        if !complete {
            break;
        }
        best_changes *= 0.5;
        for (i, (score, _)) in found.iter().enumerate() {
            previous[i] = *score;
        }
        let Some(driver) = driver else { continue };
        // The best line proven with a margin within the depth searched: deeper searches would
        // only repeat it, in any kind of search (`go infinite` then waits for `stop`).
        if let Some((_, plies, _)) = result.score.proven() {
            if depth > plies + 1 {
                break;
            }
        }
        let instability = (1.0 + best_changes).min(TIME_INSTABILITY_MAX);
        if driver.time.soft_expired(instability) {
            break;
        }
    }
    result
}

/// One root search with a window around `previous`, widened until the score falls inside.
fn aspiration<G: SearchGame>(worker: &mut Worker<'_, G>, depth: u32, previous: Score) -> Score {
    let mut width = worker.tun.aspiration_window;
    let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && !previous.is_proven() {
        (previous - width, previous + width)
    } else {
        (-Score::INFINITE, Score::INFINITE)
    };
    loop {
        let score = worker.alpha_beta(depth as i32, alpha, beta, 0, true, false);
        if worker.stopped {
            return score;
        }
        if score <= alpha && alpha > -Score::INFINITE {
            alpha = (score - width).max(-Score::INFINITE);
        } else if score >= beta && beta < Score::INFINITE {
            beta = (score + width).min(Score::INFINITE);
        } else {
            return score;
        }
        width *= 2;
    }
}

fn report_lines<G: SearchGame>(
    worker: &Worker<'_, G>,
    driver: &Driver,
    depth: u32,
    found: &[(Score, Vec<G::Move>)],
) {
    let elapsed = driver.time.elapsed();
    let nodes = worker.shared_nodes();
    let time_ms = elapsed.as_millis() as u64;
    let nps = nodes_per_second(nodes, elapsed);
    let hashfull = worker.hashfull();
    for (i, (score, pv)) in found.iter().enumerate() {
        (driver.report)(&SearchInfo {
            depth,
            seldepth: worker.seldepth.max(depth),
            multipv: i + 1,
            score: *score,
            nodes,
            nps,
            time_ms,
            hashfull,
            pv: pv.iter().map(|&m| G::move_text(m)).collect(),
        });
    }
}

impl std::ops::Sub<i32> for Score {
    type Output = Score;
    fn sub(self, rhs: i32) -> Score {
        Score(self.0 - rhs)
    }
}

impl std::ops::Add<i32> for Score {
    type Output = Score;
    fn add(self, rhs: i32) -> Score {
        Score(self.0 + rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TestMove as Move;
    use crate::score::WinKind;

    /// A small game tree for tests, given by functions of the line of moves from the root.
    /// Every position is a distinct line. Its game may raise a stop flag as the root's
    /// `n`-th move is made (counting every iteration's).
    #[derive(Clone)]
    struct Tree {
        line: Vec<u32>,
        /// The moves after a line.
        moves: fn(&[u32]) -> &'static [u32],
        /// The static value of a line for the root's side to move.
        value: fn(&[u32]) -> i32,
        /// Whether a line ends the game in a draw.
        drawn: fn(&[u32]) -> bool,
        /// The count of root moves made, the flag, and the count that raises it.
        stop_at: Option<(&'static AtomicU64, &'static AtomicBool, u64)>,
    }

    impl Tree {
        fn new(moves: fn(&[u32]) -> &'static [u32], value: fn(&[u32]) -> i32) -> Tree {
            Tree {
                line: Vec::new(),
                moves,
                value,
                drawn: |_| false,
                stop_at: None,
            }
        }
    }

    impl SearchGame for Tree {
        type Move = Move;
        type Undo = ();
        type Tactics = ();
        const SLOWEST_WIN: WinKind = WinKind::Outright;

        fn side(&self) -> usize {
            self.line.len() % 2
        }
        fn hash(&self) -> u64 {
            self.line.iter().fold(17, |h, &m| {
                (h ^ m as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            })
        }
        fn generate(&self, out: &mut MoveBuf<Move>) {
            out.extend((self.moves)(&self.line).iter().map(|&m| Move(m)));
        }
        fn is_legal(&self, mv: Move) -> bool {
            (self.moves)(&self.line).contains(&mv.0)
        }
        fn make(&mut self, mv: Move) {
            if let Some((made, stop, n)) = self.stop_at {
                if self.line.is_empty() && made.fetch_add(1, Relaxed) + 1 == n {
                    stop.store(true, Relaxed);
                }
            }
            self.line.push(mv.0);
        }
        fn unmake(&mut self, _mv: Move, _undo: ()) {
            self.line.pop();
        }
        fn is_irreversible(&self, _mv: Move, _undo: &()) -> bool {
            true
        }
        fn terminal(&self, _ply: u32) -> Option<Score> {
            (self.drawn)(&self.line).then_some(Score::DRAW)
        }
        fn repetition(&self, _ply: u32) -> Score {
            Score::DRAW
        }
        fn no_moves(&self, _ply: u32) -> Score {
            Score::DRAW
        }
        fn evaluate(&self) -> Score {
            let for_root = (self.value)(&self.line);
            Score(if self.side() == 0 {
                for_root
            } else {
                -for_root
            })
        }
        fn correction_keys(&self) -> [u64; 2] {
            [self.hash(), self.hash()]
        }
        fn move_text(mv: Move) -> String {
            mv.0.to_string()
        }
        fn moves_left(&self) -> u64 {
            1
        }
        fn tactics(&self, _threatened: bool, _deep: bool) {}
    }

    const EDGE: i32 = 10;

    /// A choice at the root between a draw (move 1 ends the game) and playing on (move 2) into a
    /// line that stays `EDGE` worse for the root's side to move however deep it goes.
    fn draw_or_play_on() -> Tree {
        Tree {
            drawn: |line| line.first() == Some(&1),
            ..Tree::new(
                |line| if line.is_empty() { &[1, 2] } else { &[3] },
                |_| -EDGE,
            )
        }
    }

    fn best_with_contempt(contempt: i32) -> (Option<Move>, Score) {
        let pos = draw_or_play_on();
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let config = SearchConfig {
            contempt,
            ..SearchConfig::default()
        };
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let history = PositionHashes::new(pos.hash());
        let result = search(&pos, &history, &limits, &config, &tt, &stop, &|_| {});
        (result.best, result.score)
    }

    /// A clock started before the search (at `go`) counts that time in every `info time`.
    #[test]
    fn info_time_counts_from_the_clocks_start() {
        let pos = draw_or_play_on();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let go = Instant::now().checked_sub(Duration::from_secs(5)).unwrap();
        let config = SearchConfig {
            started: Some(go),
            ..SearchConfig::default()
        };
        let times = std::sync::Mutex::new(Vec::new());
        let report = |info: &SearchInfo| times.lock().unwrap().push(info.time_ms);
        let tt = TranspositionTable::new(1);
        let history = PositionHashes::new(pos.hash());
        let stop = AtomicBool::new(false);
        search(&pos, &history, &limits, &config, &tt, &stop, &report);
        let times = times.into_inner().unwrap();
        assert!(!times.is_empty());
        assert!(times.iter().all(|&ms| ms >= 5000), "{times:?}");
    }

    /// Without contempt a draw beats a line that is worse; with more contempt than the line is
    /// worse, the search plays on; a negative contempt makes the draw a gain.
    #[test]
    fn contempt_prices_the_draw() {
        assert_eq!(best_with_contempt(0), (Some(Move(1)), Score::DRAW));
        assert_eq!(
            best_with_contempt(EDGE - 1),
            (Some(Move(1)), Score(1 - EDGE))
        );
        assert_eq!(best_with_contempt(EDGE + 5), (Some(Move(2)), Score(-EDGE)));
        assert_eq!(best_with_contempt(-20), (Some(Move(1)), Score(20)));
    }

    /// Three root moves for the root's side: move 1 looks best one ply deep (+50) and loses
    /// (-100) once the reply is seen, move 2 gains (+10, then +20), move 3 holds (0).
    fn trap_at_depth_two() -> Tree {
        Tree::new(
            |line| if line.is_empty() { &[1, 2, 3] } else { &[4] },
            |line| match (line.first(), line.len()) {
                (None, _) | (Some(3), _) => 0,
                (Some(1), 1) => 50,
                (Some(1), _) => -100,
                (Some(_), 1) => 10,
                (Some(_), _) => 20,
            },
        )
    }

    /// The search of [`trap_at_depth_two`] to depth 3, stopped as the root's `stop_at`-th move
    /// is made: the best move, its score and the depth answered, with the depths reported.
    fn cut_at(stop_at: u64) -> (Option<Move>, Score, u32, Vec<u32>) {
        let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let made: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let pos = Tree {
            stop_at: Some((made, stop, stop_at)),
            ..trap_at_depth_two()
        };
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let tt = TranspositionTable::new(1);
        let history = PositionHashes::new(pos.hash());
        let depths = std::sync::Mutex::new(Vec::new());
        let report = |info: &SearchInfo| depths.lock().unwrap().push(info.depth);
        let config = SearchConfig::default();
        let result = search(&pos, &history, &limits, &config, &tt, stop, &report);
        let depths = depths.into_inner().unwrap();
        (result.best, result.score, result.depth, depths)
    }

    /// A stop in the second iteration, once the trap (the first iteration's best move, searched
    /// first) and move 2 are searched whole, answers with move 2 at depth 2; a stop before the
    /// trap is searched whole keeps the first iteration's answer; a stop after the trap alone
    /// gives it with its deeper score. (When a cut iteration never answered, the first case
    /// played the trap.)
    #[test]
    fn a_cut_iteration_answers_once_its_previous_best_move_is_searched() {
        assert_eq!(cut_at(6), (Some(Move(2)), Score(20), 2, vec![1, 2]));
        assert_eq!(cut_at(4), (Some(Move(1)), Score(50), 1, vec![1]));
        assert_eq!(cut_at(5), (Some(Move(1)), Score(-100), 2, vec![1, 2]));
        // Never stopped, the search finds move 2 by itself.
        let (best, _, depth, depths) = cut_at(0);
        assert_eq!((best, depth, depths), (Some(Move(2)), 3, vec![1, 2, 3]));
    }
}
