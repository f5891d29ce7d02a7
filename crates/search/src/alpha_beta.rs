//! The search worker: negamax principal variation search with a transposition table.
//!
//! Each node, in order: stop check; terminal result (in Tak a road, or flats with komi),
//! repetition; an immediate win (checked at every node, so a win in one is never missed);
//! mate-distance bounds; the leaf evaluation at depth 0; the table probe; reverse futility and
//! null-move pruning when the opponent has no threat to win at once; then the ordered move loop
//! with futility and late-move pruning, late-move reductions and PVS re-searches. Proven scores
//! never come from a pruned or null-move search (see [`crate::score`]). What each of those
//! means for a game comes from its [`SearchGame`] hooks.
//!
//! Every static evaluation the search uses (at the horizon and for pruning) is corrected by
//! correction history ([`HistoryTables::correction`]): at the end of each node whose result says
//! more than its evaluation did (an exact score, or a bound beyond the evaluation), the error is
//! averaged into the entries of the position's correction keys, so positions that share them
//! are corrected by what deeper searches found. The table keeps the raw evaluation, and each
//! worker keeps its search's raw evaluations by hash as well ([`super::eval_cache`]), since
//! the table stores no horizon nodes and each iteration comes back to most of them.

use super::eval_cache::EvalCache;
use super::game::SearchGame;
use super::history::HistoryTables;
use super::ordering::{Class, MovePicker, OrderContext};
use super::params::*;
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use crate::repetition::PositionHashes;
use crate::score::Score;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// What all threads of one search share.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Set to stop every thread.
    pub stop: &'a AtomicBool,
    /// Nodes of all threads, flushed every `CHECK_INTERVAL` nodes.
    pub nodes: AtomicU64,
    /// Node limit of `go nodes`.
    pub node_limit: Option<u64>,
    /// The pruning and reduction constants.
    pub tunables: Tunables,
    /// A draw's score for the root's side to move, negated ([`super::SearchConfig::contempt`]).
    pub contempt: i32,
    /// Set once the main thread has its result: helper threads stop (within `CHECK_INTERVAL`
    /// nodes) while `go infinite` waits for `stop` with the stop flag still clear.
    pub main_done: AtomicBool,
}

/// One thread's search state.
pub struct Worker<'a, G: SearchGame> {
    pub(super) pos: G,
    shared: &'a Shared<'a>,
    time: Option<&'a TimeManager>,
    pub(super) history: HistoryTables<G::Move>,
    /// One move list per ply, boxed so that taking one out for a node moves a pointer.
    pickers: Vec<Option<Box<MovePicker<G::Move>>>>,
    /// The game so far and the current path, for repetitions.
    path: PositionHashes,
    pub(super) pv: Vec<[Option<G::Move>; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// Per ply: whether the node there is known to hold none of the wins
    /// [`SearchGame::threatened`] looks for (its parent was not threatened and its move
    /// [`SearchGame::adds_no_threat`]).
    threat_free: [bool; MAX_PLY + 1],
    /// Root moves skipped (the better lines of MultiPV).
    pub(super) excluded: SmallVec<[G::Move; 8]>,
    lmr: Vec<[u8; 64]>,
    pub(super) nodes: u64,
    unflushed: u64,
    pub(super) seldepth: u32,
    pub(super) stopped: bool,
    /// The depth of the current iteration (bounds the extensions).
    root_depth: i32,
    /// The score of the root's line in `pv[0]`, when `pv_len[0]` is not 0: the best root move
    /// searched whole so far in the running root search ([`Worker::root_line`]).
    root_score: Score,
    /// The previous iteration's best move, which a cut root search must have searched whole
    /// before its line may answer ([`Worker::cut_root_line`]); `None` in the first iteration.
    pub(super) root_anchor: Option<G::Move>,
    /// Whether the running root search has searched `root_anchor` whole.
    anchor_done: bool,
    /// The pruning and reduction constants of this search.
    pub(super) tun: Tunables,
    /// A draw's score by the side to move (contempt: below 0 for the root's side).
    draw: [Score; 2],
    /// Raw static evaluations of this search by position hash.
    evals: EvalCache,
}

impl<'a, G: SearchGame> Worker<'a, G> {
    /// A worker for `pos`, whose game history (`pos` last) is `game`.
    pub fn new(
        pos: G,
        game: &PositionHashes,
        shared: &'a Shared<'a>,
        time: Option<&'a TimeManager>,
    ) -> Self {
        let mut path = game.with_room(MAX_PLY + 2);
        if path.last() != Some(pos.hash()) {
            path.push(pos.hash(), true);
        }
        let tun = shared.tunables;
        let mut draw = [Score(shared.contempt); 2];
        draw[pos.side()] = Score(-shared.contempt);
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let v = tun.lmr_base + (d as f64).ln() * (m as f64).ln() / tun.lmr_divisor;
                        *r = v.max(0.0) as u8;
                    }
                }
                row
            })
            .collect();
        Worker {
            pos,
            shared,
            time,
            history: HistoryTables::default(),
            pickers: (0..MAX_PLY + 1).map(|_| Some(Box::default())).collect(),
            path,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            threat_free: [false; MAX_PLY + 1],
            excluded: SmallVec::new(),
            lmr,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
            root_score: Score::DRAW,
            root_anchor: None,
            anchor_done: false,
            tun,
            draw,
            evals: EvalCache::default(),
        }
    }

    /// A game's end scored for the side to move `me`: a draw takes the contempt, a win or a
    /// loss stays as it is.
    #[inline]
    fn with_contempt(&self, over: Score, me: usize) -> Score {
        if over == Score::DRAW {
            self.draw[me]
        } else {
            over
        }
    }

    /// Counts a node and, every `CHECK_INTERVAL` nodes, flushes the count and checks limits.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= CHECK_INTERVAL {
            let total = self.shared.nodes.fetch_add(self.unflushed, Relaxed) + self.unflushed;
            self.unflushed = 0;
            let out_of_nodes = self.shared.node_limit.is_some_and(|limit| total >= limit);
            if out_of_nodes || self.time.is_some_and(|t| t.hard_expired()) {
                self.shared.stop.store(true, Relaxed);
            }
            if self.shared.main_done.load(Relaxed) {
                self.stopped = true;
            }
        }
        if self.shared.stop.load(Relaxed) {
            self.stopped = true;
        }
    }

    /// Nodes of all threads so far (this thread's exactly, others' as last flushed).
    pub fn shared_nodes(&self) -> u64 {
        self.shared.nodes.load(Relaxed) + self.unflushed
    }

    /// Table fill, permille.
    pub fn hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }

    /// Flushes the remaining node count into the shared total.
    pub fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
    }

    #[inline]
    fn make(&mut self, mv: G::Move) -> G::Undo {
        let undo = self.pos.make(mv);
        let fresh = self.pos.is_irreversible(mv, &undo);
        self.path.push(self.pos.hash(), fresh);
        undo
    }

    #[inline]
    fn unmake(&mut self, mv: G::Move, undo: G::Undo) {
        self.path.pop();
        self.pos.unmake(mv, undo);
    }

    fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let child = ply + 1;
        let len = if child <= MAX_PLY {
            self.pv_len[child]
        } else {
            0
        };
        self.pv[ply][0] = Some(mv);
        for i in 0..len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[child][i];
        }
        self.pv_len[ply] = 1 + len.min(MAX_PLY - 1);
    }

    /// `mv`, scored `score`, is the best move so far at `ply`: its line becomes the node's
    /// principal variation, and at the root the score is kept with it.
    fn set_best(&mut self, ply: usize, mv: G::Move, score: Score) {
        self.set_pv(ply, mv);
        if ply == 0 {
            self.root_score = score;
        }
    }

    /// The best line the running (or just stopped) root search has found: a root move searched
    /// whole to the search's depth that scored above the window's floor, with its score and
    /// principal variation. `None` until a root move has done so.
    pub(super) fn root_line(&self) -> Option<(Score, Vec<G::Move>)> {
        let pv: Vec<G::Move> = self.pv[0][..self.pv_len[0]]
            .iter()
            .flatten()
            .copied()
            .collect();
        (!pv.is_empty()).then_some((self.root_score, pv))
    }

    /// [`Worker::root_line`] of a root search that was stopped, when it can stand for the
    /// whole search: once the previous iteration's best move has been searched whole, the best
    /// line so far is that move seen deeper or a move that beat it at this depth.
    pub(super) fn cut_root_line(&self) -> Option<(Score, Vec<G::Move>)> {
        if self.root_anchor.is_some() && !self.anchor_done {
            return None;
        }
        self.root_line()
    }

    /// Whether `mv`, just played, is searched one ply deeper ([`SearchGame::extends`]: in Tak
    /// a double road threat). Only at interior nodes, and no deeper than twice the iteration's
    /// depth.
    #[inline]
    fn extended(&self, mv: G::Move, depth: i32, ply: usize, tactics: &G::Tactics) -> bool {
        EXTENSIONS
            && depth >= 2
            && (ply as i32) < 2 * self.root_depth
            && self.pos.extends(mv, tactics)
    }

    /// `raw`, the static evaluation here, plus what correction history has learned for this
    /// position's correction `keys`.
    #[inline]
    fn corrected(&self, raw: Score, keys: [u64; 2]) -> Score {
        Score(raw.0 + self.history.correction(self.pos.side(), keys))
    }

    /// The corrected static evaluation of the current position, for the search's leaves.
    #[inline]
    fn leaf_eval(&mut self) -> Score {
        let raw = self.static_eval();
        self.corrected(raw, self.pos.correction_keys())
    }

    /// The raw static evaluation of the current position, from the evaluation cache when it
    /// holds it.
    #[inline]
    fn static_eval(&mut self) -> Score {
        let pos = &self.pos;
        self.evals.get_or(pos.hash(), || pos.evaluate())
    }

    /// Negamax search of the current position to `depth` plies, `ply` plies from the root.
    pub fn alpha_beta(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> Score {
        self.pv_len[ply] = 0;
        if ply == 0 {
            self.root_depth = depth;
            self.anchor_done = false;
        }
        self.count_node();
        if self.stopped {
            return Score::DRAW;
        }
        // The probe and the evaluation come after the checks below; let their lines load
        // meanwhile.
        let hash = self.pos.hash();
        if depth > 0 {
            self.shared.tt.prefetch(hash);
        }
        self.evals.prefetch(hash);
        let me = self.pos.side();
        let p = ply as u32;
        if ply > 0 {
            if let Some(over) = self.pos.terminal(p) {
                return self.with_contempt(over, me);
            }
            if self.path.is_repetition() {
                return self.with_contempt(self.pos.repetition(p), me);
            }
        }
        // A win in one is always found, at every node.
        let skip: &[G::Move] = if ply == 0 { &self.excluded } else { &[] };
        // Only children are marked: the root's entry stays false.
        if let Some((win, kind)) = self.pos.win_in_one(skip, self.threat_free[ply]) {
            self.pv_len[ply + 1] = 0;
            let score = Score::win_in(p + 1, kind);
            self.set_best(ply, win, score);
            return score;
        }
        if ply >= MAX_PLY - 2 {
            return self.leaf_eval();
        }
        if ply > 0 {
            // We cannot win sooner than the slowest win next move, nor lose sooner.
            alpha = alpha.max(Score::loss_in(p + 1, G::SLOWEST_WIN));
            beta = beta.min(Score::win_in(p + 1, G::SLOWEST_WIN));
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 {
            self.seldepth = self.seldepth.max(p);
            return self.leaf_eval();
        }

        // Transposition table.
        let hit = self.shared.tt.probe::<G::Move>(hash, p);
        let tt_move = hit.and_then(|h| h.mv).filter(|&m| self.pos.is_legal(m));
        if let Some(h) = hit {
            if !pv_node && h.depth as i32 >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    return h.score;
                }
            }
        }
        let raw_eval = match hit {
            Some(h) => Score(h.eval as i32),
            None => self.static_eval(),
        };
        let keys = self.pos.correction_keys();
        let eval = self.corrected(raw_eval, keys);

        // The opponent's threat to win at once turns off the pruning that assumes a quiet
        // position.
        let threatened = self.pos.threatened();
        if !pv_node && !threatened && !beta.is_proven() {
            let t = &self.tun;
            if depth <= t.rfp_max_depth && eval.0 - t.rfp_margin * depth >= beta.0 {
                return eval;
            }
            if null_ok && depth >= t.nmp_min_depth && eval >= beta && self.pos.null_move_ok() {
                let r = t.nmp_base_reduction + depth / t.nmp_depth_divisor;
                // Passing changes nothing the opponent could win with.
                self.threat_free[ply + 1] = true;
                self.pos.make_null();
                self.path.push(self.pos.hash(), true);
                let score =
                    -self.alpha_beta(depth - 1 - r, -beta, -beta + 1, ply + 1, false, false);
                self.path.pop();
                self.pos.unmake_null();
                if self.stopped {
                    return Score::DRAW;
                }
                if score >= beta {
                    return if score.is_proven() { beta } else { score };
                }
            }
        }

        // Moves, best first.
        let ctx = OrderContext::<G> {
            tt_move,
            killers: self.history.killers(ply),
            tactics: self.pos.tactics(threatened, depth >= 2),
        };
        self.history.clear_killers(ply);
        let mut picker = self.pickers[ply]
            .take()
            .expect("one node per ply at a time");
        picker.fill(&self.pos, &self.history, &ctx);

        let original_alpha = alpha;
        let mut best_score = -Score::INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        while let Some((mv, class)) = picker.pick() {
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            // Only plain moves are pruned and reduced; the table move, the game's urgent or
            // tactical moves and the killers never are.
            let plain = class == Class::Plain;
            // Late-move and futility pruning. Moves come by class, so every move after a
            // pruned one is plain too, and nothing in the conditions changes while moves are
            // skipped: the first pruned move ends the loop without picking the rest.
            if !pv_node && !threatened && searched > 0 && plain && !(-best_score).is_proven() {
                let t = &self.tun;
                let late = t.lmp_base + t.lmp_per_depth_sq * depth * depth;
                if depth <= t.lmp_max_depth && searched >= late as usize {
                    break;
                }
                if depth <= t.futility_max_depth
                    && eval.0 + t.futility_base + t.futility_per_depth * depth <= alpha.0
                {
                    break;
                }
            }
            self.threat_free[ply + 1] = !threatened && self.pos.adds_no_threat(mv);
            let undo = self.make(mv);
            let mut new_depth = depth - 1;
            if self.extended(mv, depth, ply, &ctx.tactics) {
                new_depth += 1;
            }
            let mut score;
            if searched == 0 {
                score = -self.alpha_beta(new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                let mut r = 0;
                let t = &self.tun;
                if depth >= t.lmr_min_depth && searched >= t.lmr_full_moves as usize && plain {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    r += (!pv_node) as i32;
                    r = r.clamp(0, new_depth - 1);
                }
                let zw = -alpha - 1;
                score = -self.alpha_beta(new_depth - r, zw, -alpha, ply + 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.alpha_beta(new_depth, zw, -alpha, ply + 1, false, true);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.alpha_beta(new_depth, -beta, -alpha, ply + 1, true, true);
                }
            }
            self.unmake(mv, undo);
            if self.stopped {
                self.pickers[ply] = Some(picker);
                return Score::DRAW;
            }
            searched += 1;
            if ply == 0 && Some(mv) == self.root_anchor {
                self.anchor_done = true;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.set_best(ply, mv, score);
                    if score >= beta {
                        let bonus = depth * depth;
                        for &tried in picker.tried() {
                            if tried != mv {
                                self.history.update(me, tried, -bonus);
                            }
                        }
                        self.history.update(me, mv, bonus);
                        self.history.add_killer(ply, mv);
                        break;
                    }
                }
            }
        }
        let no_moves = picker.is_empty();
        self.pickers[ply] = Some(picker);
        if searched == 0 {
            if no_moves {
                return self.with_contempt(self.pos.no_moves(p), me);
            }
            // Only at the root, when MultiPV has excluded every move.
            return -Score::INFINITE;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            hash,
            p,
            best_move.or(tt_move),
            best_score,
            raw_eval.0 as i16,
            depth.clamp(0, 127) as u8,
            bound,
        );
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > eval,
            Bound::Upper => best_score < eval,
        };
        if informative && !threatened && !best_score.is_proven() {
            let error = best_score.0 - raw_eval.0;
            self.history.update_correction(me, keys, error, depth);
        }
        best_score
    }
}
