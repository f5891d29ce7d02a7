//! Move ordering: scores every generated move once, then hands them out best first.
//!
//! Order: the transposition-table move; the game's urgent or tactical moves by rank
//! ([`SearchGame::urgency`]: in Tak, blocks of the opponent's road-in-one and placements that
//! threaten one; in Tablut, captures); killers; then every plain move by the game's own base
//! score ([`SearchGame::quiet_order`]) plus its history score. Each class has its own band of
//! scores ([`ORDER_TT`], [`ORDER_URGENT`], [`ORDER_KILLER`], at most [`ORDER_PLAIN_MAX`]), so
//! the class a picked move belongs to ([`Class`]) is read from its score, whatever numbers the
//! game uses. (Immediate wins never get here: the search returns them first.)

use super::game::{MoveBuf, SearchGame, SearchMove};
use super::history::HistoryTables;
use super::params::*;
use smallvec::SmallVec;

/// Picks by a plain scan come first; once this many moves have been handed out, a heap takes
/// over (a node that has not been cut off by then usually searches most of its moves).
const SCAN_PICKS: usize = 3;

/// Scored moves of one node, handed out best first.
///
/// Each pick hands out the highest score among the moves left, the one at the lowest index
/// among equals, and swaps it with the first move left (selection). The first picks scan the
/// list; later ones use a max-heap of `(score, position)` keys that follows the one move each
/// swap displaces, so the order, and with it the whole search, is the same as a scan's.
pub struct MovePicker<M> {
    moves: MoveBuf<M>,
    scores: SmallVec<[i32; 256]>,
    next: usize,
    /// The heap of keys ([`key`]) once built; entries of positions before `next` are stale.
    heap: SmallVec<[u64; 256]>,
    heap_built: bool,
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            moves: MoveBuf::new(),
            scores: SmallVec::new(),
            next: 0,
            heap: SmallVec::new(),
            heap_built: false,
        }
    }
}

/// The heap key of a move with `score` at `position`: a higher score, then a lower position, is
/// a larger key (the score's sign bit is flipped so that unsigned order is signed order).
#[inline(always)]
fn key(score: i32, position: usize) -> u64 {
    ((score as u32 ^ 1 << 31) as u64) << 32 | (u32::MAX - position as u32) as u64
}

/// The position in a key.
#[inline(always)]
fn position_of(key: u64) -> usize {
    (u32::MAX - key as u32) as usize
}

/// Restores the max-heap property below `at`.
#[inline]
fn sift_down(heap: &mut [u64], mut at: usize) {
    loop {
        let left = 2 * at + 1;
        if left >= heap.len() {
            return;
        }
        let right = left + 1;
        let child = if right < heap.len() && heap[right] > heap[left] {
            right
        } else {
            left
        };
        if heap[child] <= heap[at] {
            return;
        }
        heap.swap(at, child);
        at = child;
    }
}

/// Restores the max-heap property above `at`.
#[inline]
fn sift_up(heap: &mut [u64], mut at: usize) {
    while at > 0 {
        let parent = (at - 1) / 2;
        if heap[parent] >= heap[at] {
            return;
        }
        heap.swap(at, parent);
        at = parent;
    }
}

/// The class of a picked move, for the search's pruning: only [`Class::Plain`] moves are pruned
/// or reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The transposition table's move.
    TableMove,
    /// An urgent or tactical move ([`SearchGame::urgency`]).
    Urgent,
    /// A killer move.
    Killer,
    /// Any other move.
    Plain,
}

impl Class {
    /// The class of the band `score` lies in.
    #[inline(always)]
    fn of(score: i32) -> Class {
        if score >= ORDER_TT {
            Class::TableMove
        } else if score >= ORDER_URGENT {
            Class::Urgent
        } else if score >= ORDER_KILLER[1] {
            Class::Killer
        } else {
            Class::Plain
        }
    }
}

/// The score of an urgent move of `rank`: in the urgent band, below the table move.
#[inline(always)]
fn urgent_score(rank: u32) -> i32 {
    ORDER_URGENT + rank.min((ORDER_TT - ORDER_URGENT - 1) as u32) as i32
}

/// What ordering needs to know about the node besides the position.
pub struct OrderContext<G: SearchGame> {
    /// The table's move for this position, if legal.
    pub tt_move: Option<G::Move>,
    /// Killer moves at this ply.
    pub killers: [Option<G::Move>; 2],
    /// The game's knowledge of the node ([`SearchGame::tactics`]).
    pub tactics: G::Tactics,
}

impl<M: SearchMove> MovePicker<M> {
    /// Generates and scores the moves of `pos`.
    pub fn fill<G: SearchGame<Move = M>>(
        &mut self,
        pos: &G,
        history: &HistoryTables<M>,
        ctx: &OrderContext<G>,
    ) {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        self.heap_built = false;
        pos.generate(&mut self.moves);
        let side = pos.side();
        // Every move's base score at once (the few that turn out urgent, killers or the
        // table's move do not use theirs).
        self.scores.resize(self.moves.len(), 0);
        pos.quiet_orders(&self.moves, &mut self.scores);
        for (&mv, score) in self.moves.iter().zip(self.scores.iter_mut()) {
            *score = if Some(mv) == ctx.tt_move {
                ORDER_TT
            } else if let Some(rank) = pos.urgency(mv, &ctx.tactics) {
                urgent_score(rank)
            } else if ctx.killers[0] == Some(mv) {
                ORDER_KILLER[0]
            } else if ctx.killers[1] == Some(mv) {
                ORDER_KILLER[1]
            } else {
                (*score + history.score(side, mv)).min(ORDER_PLAIN_MAX)
            };
        }
    }

    /// The best remaining move and its class (the first generated among equals).
    #[inline]
    pub fn pick(&mut self) -> Option<(M, Class)> {
        self.pick_scored().map(|(mv, score)| (mv, Class::of(score)))
    }

    /// The best remaining move and its ordering score.
    #[inline]
    fn pick_scored(&mut self) -> Option<(M, i32)> {
        let first = self.next;
        if first >= self.scores.len() {
            return None;
        }
        if self.heap_built || first >= SCAN_PICKS {
            return Some(self.pick_from_heap());
        }
        // The highest score, the earliest move among equals, as the largest of keys that put
        // the score above the complement of the offset: a branch-free maximum.
        let best_key = self.scores[first..]
            .iter()
            .enumerate()
            .map(|(i, &score)| (score as i64) << 32 | (u32::MAX - i as u32) as i64)
            .fold(i64::MIN, i64::max);
        let best = first + (u32::MAX - best_key as u32) as usize;
        let best_score = (best_key >> 32) as i32;
        self.moves.swap(first, best);
        self.scores.swap(first, best);
        self.next = first + 1;
        Some((self.moves[first], best_score))
    }

    /// A pick through the heap (built on first use from the moves left): the caller has checked
    /// that a move is left.
    fn pick_from_heap(&mut self) -> (M, i32) {
        let first = self.next;
        if !self.heap_built {
            self.heap.clear();
            self.heap.extend(
                self.scores[first..]
                    .iter()
                    .enumerate()
                    .map(|(i, &score)| key(score, first + i)),
            );
            for at in (0..self.heap.len() / 2).rev() {
                sift_down(&mut self.heap, at);
            }
            self.heap_built = true;
        }
        let best = loop {
            let top = self.heap[0];
            let last = self.heap.pop().expect("a live entry is left");
            if !self.heap.is_empty() {
                self.heap[0] = last;
                sift_down(&mut self.heap, 0);
            }
            let at = position_of(top);
            // An entry of a position already handed out is the old key of a displaced move.
            if at >= first {
                break at;
            }
        };
        self.moves.swap(first, best);
        self.scores.swap(first, best);
        if best != first {
            // The move that was first now sits where the best was.
            self.heap.push(key(self.scores[best], best));
            let end = self.heap.len() - 1;
            sift_up(&mut self.heap, end);
        }
        self.next = first + 1;
        (self.moves[first], self.scores[first])
    }

    /// The moves handed out so far, in order.
    pub fn tried(&self) -> &[M] {
        &self.moves[..self.next]
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TestMove as Move;
    use crate::rng::Rng;

    /// Selection by scanning alone, as the picker did before it had a heap.
    fn scan_order(mut moves: Vec<Move>, mut scores: Vec<i32>) -> Vec<(Move, i32)> {
        let mut out = Vec::new();
        for first in 0..moves.len() {
            let mut best = first;
            for i in first + 1..moves.len() {
                if scores[i] > scores[best] {
                    best = i;
                }
            }
            moves.swap(first, best);
            scores.swap(first, best);
            out.push((moves[first], scores[first]));
        }
        out
    }

    /// A game of ten moves, 1 to 10, for the picker alone: moves 8 and 9 are urgent (rank 1
    /// and 0), and every plain move claims a base score far above the killers'.
    #[derive(Clone)]
    struct Ten;

    impl SearchGame for Ten {
        type Move = Move;
        type Undo = ();
        type Tactics = ();
        const SLOWEST_WIN: crate::score::WinKind = crate::score::WinKind::Outright;

        fn side(&self) -> usize {
            0
        }
        fn hash(&self) -> u64 {
            0
        }
        fn generate(&self, out: &mut MoveBuf<Move>) {
            out.extend((1..=10).map(Move));
        }
        fn is_legal(&self, _mv: Move) -> bool {
            true
        }
        fn make(&mut self, _mv: Move) {}
        fn unmake(&mut self, _mv: Move, _undo: ()) {}
        fn is_irreversible(&self, _mv: Move, _undo: &()) -> bool {
            false
        }
        fn terminal(&self, _ply: u32) -> Option<crate::score::Score> {
            None
        }
        fn repetition(&self, _ply: u32) -> crate::score::Score {
            crate::score::Score::DRAW
        }
        fn no_moves(&self, _ply: u32) -> crate::score::Score {
            crate::score::Score::DRAW
        }
        fn evaluate(&self) -> crate::score::Score {
            crate::score::Score::DRAW
        }
        fn move_text(mv: Move) -> String {
            mv.0.to_string()
        }
        fn moves_left(&self) -> u64 {
            1
        }
        fn tactics(&self, _threatened: bool, _deep: bool) {}
        fn urgency(&self, mv: Move, _tactics: &()) -> Option<u32> {
            match mv.0 {
                8 => Some(1),
                9 => Some(0),
                _ => None,
            }
        }
        fn quiet_order(&self, mv: Move) -> i32 {
            i32::MAX / 2 - mv.0 as i32
        }
    }

    /// The table move, then the urgent moves by rank, then the killers, then the plain moves
    /// (whatever base score the game gives them), each with its class.
    #[test]
    fn each_class_has_its_band() {
        let ctx = OrderContext::<Ten> {
            tt_move: Some(Move(5)),
            killers: [Some(Move(3)), Some(Move(9))],
            tactics: (),
        };
        let mut picker = MovePicker::default();
        picker.fill(&Ten, &HistoryTables::default(), &ctx);
        let picked: Vec<(u32, Class)> = std::iter::from_fn(|| picker.pick())
            .map(|(mv, class)| (mv.0, class))
            .collect();
        assert_eq!(
            picked[..4],
            [
                (5, Class::TableMove),
                (8, Class::Urgent),
                // An urgent move that is also a killer stays urgent.
                (9, Class::Urgent),
                (3, Class::Killer),
            ]
        );
        let mut plain: Vec<u32> = picked[4..].iter().map(|&(mv, _)| mv).collect();
        plain.sort();
        assert_eq!(plain, [1, 2, 4, 6, 7, 10]);
        assert!(
            picked[4..].iter().all(|&(_, class)| class == Class::Plain),
            "plain moves stay below the killers, whatever their base score"
        );
    }

    #[test]
    fn the_heap_hands_out_moves_in_the_scans_order() {
        let mut rng = Rng::new(3);
        for round in 0..400 {
            let n = rng.below(300);
            // Few distinct scores, so that ties (where selection is not stable) are common.
            let spread = 1 + rng.below(if round % 2 == 0 { 4 } else { 1000 }) as i32;
            let moves: Vec<Move> = (0..n).map(|i| Move(i as u32 + 1)).collect();
            let scores: Vec<i32> = (0..n)
                .map(|_| rng.below(2 * spread as usize) as i32 - spread)
                .collect();
            let mut picker = MovePicker::<Move>::default();
            picker.moves.extend_from_slice(&moves);
            picker.scores.extend_from_slice(&scores);
            let mut picked = Vec::new();
            while let Some(pick) = picker.pick_scored() {
                picked.push(pick);
            }
            assert_eq!(picked, scan_order(moves, scores), "round {round}");
            assert_eq!(picker.tried().len(), n);
        }
    }
}
