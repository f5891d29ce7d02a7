//! The search worker: negamax principal variation search with a transposition table.
//!
//! Each node, in order: stop check; terminal result (road, flats with komi), repetition; an
//! immediate road win (checked at every node, so a win in one is never missed); mate-distance
//! bounds; the leaf evaluation at depth 0; the table probe; reverse futility and null-move
//! pruning when the opponent has no road threat; then the ordered move loop with futility and
//! late-move pruning, late-move reductions and PVS re-searches. Proven scores never come from a
//! pruned or null-move search (see [`crate::score`]).

use super::history::History;
use super::ordering::{MovePicker, OrderContext};
use super::params::*;
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use crate::board::{Bitboard, Color, Move, Position, Role};
use crate::eval::evaluate;
use crate::score::{Score, WinKind};
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
    /// Set once the main thread has its result: helper threads stop (within `CHECK_INTERVAL`
    /// nodes) while `go infinite` waits for `stop` with the stop flag still clear.
    pub main_done: AtomicBool,
}

/// One thread's search state.
pub struct Worker<'a, const N: usize> {
    pub(super) pos: Position<N>,
    shared: &'a Shared<'a>,
    time: Option<&'a TimeManager>,
    pub(super) history: History,
    pickers: Vec<MovePicker>,
    /// The game so far and the current path, for repetitions.
    path: crate::board::History,
    pub(super) pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
    /// Root moves skipped (the better lines of MultiPV).
    pub(super) excluded: SmallVec<[Move; 8]>,
    lmr: Vec<[u8; 64]>,
    pub(super) nodes: u64,
    unflushed: u64,
    pub(super) seldepth: u32,
    pub(super) stopped: bool,
    /// The depth of the current iteration (bounds the extensions).
    root_depth: i32,
}

impl<'a, const N: usize> Worker<'a, N> {
    /// A worker for `pos`, whose game history (`pos` last) is `game`.
    pub fn new(
        pos: Position<N>,
        game: &crate::board::History,
        shared: &'a Shared<'a>,
        time: Option<&'a TimeManager>,
    ) -> Self {
        let mut path = game.with_room(MAX_PLY + 2);
        if path.last() != Some(pos.hash()) {
            path.push(pos.hash(), true);
        }
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let v = LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR;
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
            history: History::default(),
            pickers: (0..MAX_PLY + 1).map(|_| MovePicker::default()).collect(),
            path,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            excluded: SmallVec::new(),
            lmr,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 0,
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

    fn make(&mut self, mv: Move) -> crate::board::Undo {
        let undo = self.pos.make(mv);
        self.path.push_move(self.pos.hash(), mv);
        undo
    }

    fn unmake(&mut self, mv: Move, undo: crate::board::Undo) {
        self.path.pop();
        self.pos.unmake(mv, undo);
    }

    fn set_pv(&mut self, ply: usize, mv: Move) {
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

    /// The horizon: the static evaluation, unless the opponent threatens to complete a road
    /// next ply. Then only the moves that stop every such threat are searched (recursively, up to
    /// `QS_MAX_DEPTH` plies), and having none is a proven loss. The caller has checked that the
    /// game is not over and that the side to move cannot win at once.
    fn quiesce(&mut self, mut alpha: Score, beta: Score, ply: usize, qdepth: u32) -> Score {
        self.seldepth = self.seldepth.max(ply as u32);
        let me = self.pos.side_to_move();
        if self.pos.flat_win_in_one().is_some() {
            return Score::win_in(ply as u32 + 1, WinKind::Flats);
        }
        // Only placement threats are looked for here (four floods); spread threats are left to
        // the evaluation. Each defence is still checked against every threat below.
        let Some((_, guard, relevant)) = self.pos.placement_defence_squares() else {
            return evaluate(&self.pos);
        };
        if qdepth >= QS_MAX_DEPTH || ply >= MAX_PLY - 2 {
            return evaluate(&self.pos);
        }
        let mut picker = std::mem::take(&mut self.pickers[ply]);
        picker.fill_defences(&self.pos, guard, relevant);
        let mut best = Score::loss_in(ply as u32 + 2, WinKind::Road);
        while let Some((mv, _)) = picker.pick() {
            self.count_node();
            if self.stopped {
                break;
            }
            let undo = self.make(mv);
            let score = if self.pos.winning_move().is_some() {
                None
            } else if let Some(result) = self.pos.result() {
                Some(-Score::of_result(result, !me, ply as u32 + 1))
            } else {
                Some(-self.quiesce(-beta, -alpha, ply + 1, qdepth + 1))
            };
            self.unmake(mv, undo);
            let Some(score) = score else { continue };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.pickers[ply] = picker;
        best
    }

    /// Whether `mv`, just played by `me`, leaves `me` two or more placements that complete a
    /// road (a double Tak threat, often a forced win): such moves are searched one ply deeper.
    /// Only at interior nodes, for placements on a threat square and for spreads, and no
    /// deeper than twice the iteration's depth.
    #[inline]
    fn double_threat(
        &self,
        mv: Move,
        me: Color,
        depth: i32,
        ply: usize,
        threats: Bitboard,
    ) -> bool {
        DOUBLE_THREAT_EXTENSION
            && depth >= 2
            && (ply as i32) < 2 * self.root_depth
            && match mv.role() {
                Some(Role::Wall) => false,
                Some(_) => threats.contains(mv.square()),
                None => true,
            }
            && self.pos.completing_placements(me).count() >= 2
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
        }
        self.count_node();
        if self.stopped {
            return Score::DRAW;
        }
        let me = self.pos.side_to_move();
        let p = ply as u32;
        if ply > 0 {
            if let Some(result) = self.pos.result() {
                return Score::of_result(result, me, p);
            }
            if self.path.is_repetition() {
                return Score::DRAW;
            }
        }
        // A road in one is always found, at every node.
        if let Some(win) = self.pos.winning_move() {
            if ply > 0 || !self.excluded.contains(&win) {
                self.pv_len[ply + 1] = 0;
                self.set_pv(ply, win);
                return Score::win_in(p + 1, WinKind::Road);
            }
        }
        if let Some(win) = self.pos.flat_win_in_one() {
            if ply > 0 || !self.excluded.contains(&win) {
                self.pv_len[ply + 1] = 0;
                self.set_pv(ply, win);
                return Score::win_in(p + 1, WinKind::Flats);
            }
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(&self.pos);
        }
        if ply > 0 {
            // We cannot win sooner than a flat win next move, nor lose sooner than a flat loss.
            alpha = alpha.max(Score::loss_in(p + 1, WinKind::Flats));
            beta = beta.min(Score::win_in(p + 1, WinKind::Flats));
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 {
            if THREAT_QUIESCENCE {
                return self.quiesce(alpha, beta, ply, 0);
            }
            self.seldepth = self.seldepth.max(p);
            return evaluate(&self.pos);
        }

        // Transposition table.
        let hash = self.pos.hash();
        let hit = self.shared.tt.probe(hash, p);
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
        let eval = match hit {
            Some(h) => Score(h.eval as i32),
            None => evaluate(&self.pos),
        };

        // The opponent's road-in-one threat turns off the pruning that assumes a quiet position.
        let threatened = self.pos.winning_move_for(!me).is_some();
        if !pv_node && !threatened && !beta.is_proven() {
            if depth <= RFP_MAX_DEPTH && eval.0 - RFP_MARGIN * depth >= beta.0 {
                return eval;
            }
            if null_ok
                && depth >= NMP_MIN_DEPTH
                && eval >= beta
                && !self.pos.is_opening()
                && self.pos.stones_left(me) >= NMP_MIN_STONES
            {
                let r = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR;
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
        let ctx = OrderContext {
            tt_move,
            killers: self.history.killers(ply),
            block_squares: if threatened {
                self.pos.completing_placements(!me)
            } else {
                Bitboard::EMPTY
            },
            threat_squares: if depth >= 2 {
                self.pos.placement_threats(me)
            } else {
                Bitboard::EMPTY
            },
        };
        self.history.clear_killers(ply);
        let mut picker = std::mem::take(&mut self.pickers[ply]);
        picker.fill(&self.pos, &self.history, &ctx);

        let original_alpha = alpha;
        let mut best_score = -Score::INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        while let Some((mv, order)) = picker.pick() {
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            let plain = order < ORDER_KILLER[1];
            if !pv_node && !threatened && searched > 0 && plain && !(-best_score).is_proven() {
                let d = depth as usize;
                if depth <= LMP_MAX_DEPTH && searched >= LMP_BASE + LMP_PER_DEPTH_SQ * d * d {
                    continue;
                }
                if depth <= FUTILITY_MAX_DEPTH
                    && eval.0 + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha.0
                {
                    continue;
                }
            }
            let undo = self.make(mv);
            let mut new_depth = depth - 1;
            if self.double_threat(mv, me, depth, ply, ctx.threat_squares) {
                new_depth += 1;
            }
            let mut score;
            if searched == 0 {
                score = -self.alpha_beta(new_depth, -beta, -alpha, ply + 1, pv_node, true);
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH && searched >= LMR_FULL_MOVES && plain {
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
                self.pickers[ply] = picker;
                return Score::DRAW;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.set_pv(ply, mv);
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
        self.pickers[ply] = picker;
        if searched == 0 {
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
            eval.0 as i16,
            depth.clamp(0, 127) as u8,
            bound,
        );
        best_score
    }
}
