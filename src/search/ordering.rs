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

/// Scored moves of one node, picked best first by selection.
pub struct MovePicker<M> {
    moves: MoveBuf<M>,
    scores: SmallVec<[i32; 256]>,
    next: usize,
}

impl<M> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            moves: MoveBuf::new(),
            scores: SmallVec::new(),
            next: 0,
        }
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
        pos.defences(&mut self.moves, &mut self.scores)
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn pick(&mut self) -> Option<(M, i32)> {
        let rest = self.scores.get(self.next..)?;
        let (offset, _) = rest
            .iter()
            .enumerate()
            .max_by_key(|&(i, &s)| (s, -(i as isize)))?;
        let best = self.next + offset;
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some((self.moves[self.next - 1], self.scores[self.next - 1]))
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
