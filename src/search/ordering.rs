//! Move ordering: scores every generated move once, then hands them out best first.
//!
//! Order: the transposition-table move; the game's urgent moves ([`SearchGame::urgent_order`]:
//! in Tak, blocks of the opponent's road-in-one and placements that threaten one); killers; then
//! every other move by the game's own base score ([`SearchGame::quiet_order`]) plus its history
//! score. (Immediate wins never get here: the search returns them first.)

use super::game::{MoveBuf, SearchGame, SearchMove};
use super::history::History;
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
        history: &History<M>,
        ctx: &OrderContext<G>,
    ) {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        self.heap_built = false;
        pos.generate(&mut self.moves);
        let side = pos.side();
        for &mv in &self.moves {
            let score = if Some(mv) == ctx.tt_move {
                ORDER_TT
            } else if let Some(urgent) = pos.urgent_order(mv, &ctx.tactics) {
                urgent
            } else if ctx.killers[0] == Some(mv) {
                ORDER_KILLER[0]
            } else if ctx.killers[1] == Some(mv) {
                ORDER_KILLER[1]
            } else {
                pos.quiet_order(mv) + history.score(side, mv)
            };
            self.scores.push(score);
        }
    }

    /// The candidate defences against the opponent's threat to win at once
    /// ([`SearchGame::defences`]): the kind of the threatened win, or `None` (and no moves) if
    /// there is no such threat.
    pub fn fill_defences<G: SearchGame<Move = M>>(
        &mut self,
        pos: &G,
    ) -> Option<crate::score::WinKind> {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        self.heap_built = false;
        pos.defences(&mut self.moves, &mut self.scores)
    }

    /// The best remaining move and its ordering score (the first generated among equals).
    #[inline]
    pub fn pick(&mut self) -> Option<(M, i32)> {
        let first = self.next;
        if first >= self.scores.len() {
            return None;
        }
        if self.heap_built || first >= SCAN_PICKS {
            return Some(self.pick_from_heap());
        }
        let (&head, rest) = self.scores.get(first..)?.split_first()?;
        let (mut best, mut best_score) = (first, head);
        for (i, &score) in rest.iter().enumerate() {
            if score > best_score {
                best = first + 1 + i;
                best_score = score;
            }
        }
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
    use crate::board::{Move, Role, Square};
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

    #[test]
    fn the_heap_hands_out_moves_in_the_scans_order() {
        let mut rng = Rng::new(3);
        for round in 0..400 {
            let n = rng.below(300);
            // Few distinct scores, so that ties (where selection is not stable) are common.
            let spread = 1 + rng.below(if round % 2 == 0 { 4 } else { 1000 }) as i32;
            let moves: Vec<Move> = (0..n)
                .map(|i| {
                    Move::place(
                        Square((i % 64) as u8),
                        [Role::Flat, Role::Wall, Role::Cap][i / 64 % 3],
                    )
                })
                .collect();
            let scores: Vec<i32> = (0..n)
                .map(|_| rng.below(2 * spread as usize) as i32 - spread)
                .collect();
            let mut picker = MovePicker::<Move>::default();
            picker.moves.extend_from_slice(&moves);
            picker.scores.extend_from_slice(&scores);
            let mut picked = Vec::new();
            while let Some(pick) = picker.pick() {
                picked.push(pick);
            }
            assert_eq!(picked, scan_order(moves, scores), "round {round}");
            assert_eq!(picker.tried().len(), n);
        }
    }
}
