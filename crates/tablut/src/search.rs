//! Tablut as a game of the generic search: [`SearchGame`] for [`WeightedPosition`], a position with the
//! evaluation weights it is judged by (so that two engines with different weights can play).
//!
//! - An immediate win is the king's escape (a free line to an edge) or a Muscovite move that
//!   captures the king; the opponent holding either turns pruning off.
//! - A repetition loses for the player who made it, so a node that repeats is a win for the side
//!   to move; a side with no legal move has lost.
//! - Captures are irreversible (a piece never comes back), other moves are not.
//! - Captures are urgent: searched first (after the table move, the more pieces taken the
//!   sooner), before the killers, and never pruned or reduced; then king moves, then the rest by
//!   history.
//! - Every win is [`WinKind::Outright`]: Tablut has no win on a count.

use super::board::{Move, Position, Side, Undo};
use super::eval::{self, TERMS, WEIGHTS};
use cairn_search::score::{Score, WinKind};
use cairn_search::{MoveBuf, SearchGame};

// The search stores a move as its packing (`Move::bits`, `Move::key`).
cairn_search::impl_search_move!(Move);

/// Ordering score of a king move (a plain move), before its history score.
const ORDER_KING: i32 = 200;

/// A position as the search sees it: the position and the weights of its evaluation.
#[derive(Clone, Debug)]
pub struct WeightedPosition<'w> {
    /// The position.
    pub pos: Position,
    /// The evaluation's weights ([`eval::evaluate_with`]).
    pub weights: &'w [i32; TERMS],
}

impl WeightedPosition<'static> {
    /// `pos` with the shipped weights.
    pub fn new(pos: Position) -> Self {
        WeightedPosition {
            pos,
            weights: &WEIGHTS,
        }
    }
}

impl SearchGame for WeightedPosition<'_> {
    type Move = Move;
    type Undo = Undo;
    type Tactics = ();

    const SLOWEST_WIN: WinKind = WinKind::Outright;

    #[inline(always)]
    fn side(&self) -> usize {
        self.pos.side_to_move().index()
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn generate(&self, out: &mut MoveBuf<Move>) {
        self.pos.generate(out);
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.pos.is_legal(mv)
    }

    #[inline]
    fn make(&mut self, mv: Move) -> Undo {
        self.pos.make(mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: Undo) {
        self.pos.unmake(mv, undo)
    }

    fn is_irreversible(&self, _mv: Move, undo: &Undo) -> bool {
        undo.is_irreversible()
    }

    fn terminal(&self, ply: u32) -> Option<Score> {
        // The winner is always the player who just moved.
        self.pos
            .winner()
            .map(|_| Score::loss_in(ply, WinKind::Outright))
    }

    fn repetition(&self, ply: u32) -> Score {
        Score::win_in(ply, WinKind::Outright)
    }

    fn no_moves(&self, ply: u32) -> Score {
        Score::loss_in(ply, WinKind::Outright)
    }

    fn evaluate(&self) -> Score {
        eval::evaluate_with(&self.pos, self.weights)
    }

    fn move_text(mv: Move) -> String {
        mv.to_string()
    }

    fn moves_left(&self) -> u64 {
        30
    }

    fn win_in_one(&self, skip: &[Move], _threat_free: bool) -> Option<(Move, WinKind)> {
        let win = match self.pos.side_to_move() {
            Side::White => self.pos.king_escape(),
            Side::Black => self.pos.king_capture(),
        }?;
        (!skip.contains(&win)).then_some((win, WinKind::Outright))
    }

    fn threatened(&self) -> bool {
        match self.pos.side_to_move() {
            Side::White => self.pos.king_capture().is_some(),
            Side::Black => self.pos.king_escape().is_some(),
        }
    }

    fn null_move_ok(&self) -> bool {
        true
    }

    fn make_null(&mut self) {
        self.pos.make_null()
    }

    fn unmake_null(&mut self) {
        self.pos.unmake_null()
    }

    fn tactics(&self, _threatened: bool, _deep: bool) {}

    /// A capture, ranked by the pieces it takes.
    fn urgency(&self, mv: Move, _tactics: &()) -> Option<u32> {
        let captures = self.pos.captures_of(mv);
        (captures > 0).then_some(captures as u32)
    }

    fn quiet_order(&self, mv: Move) -> i32 {
        if mv.from == self.pos.king() {
            ORDER_KING
        } else {
            0
        }
    }
}

impl Position {
    /// How many pieces `mv` (legal) would capture, without playing it.
    pub fn captures_of(&self, mv: Move) -> i32 {
        // Cheap enough: the position is a few words, and a move looks at four neighbours.
        let mut copy = self.clone();
        copy.make(mv).captures() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_search::rng::Rng;

    /// Along random games, a move is urgent exactly when it captures, ranked by the pieces it
    /// takes, and the king's other moves come first among the plain ones.
    #[test]
    fn captures_are_the_urgent_moves() {
        let mut rng = Rng::new(5);
        let mut captures = 0;
        for _ in 0..20 {
            let mut at = WeightedPosition::new(Position::start());
            for _ in 0..60 {
                let moves = at.pos.legal_moves();
                if moves.is_empty() || at.pos.winner().is_some() {
                    break;
                }
                for &mv in &moves {
                    let taken = at.pos.clone().make(mv).captures();
                    assert_eq!(at.urgency(mv, &()), (taken > 0).then_some(taken), "{mv}");
                    captures += (taken > 0) as u32;
                    let king = (mv.from == at.pos.king()) as i32 * ORDER_KING;
                    assert_eq!(at.quiet_order(mv), king, "{mv}");
                }
                at.pos.make(moves[rng.below(moves.len())]);
            }
        }
        assert!(captures > 20, "only {captures} captures seen");
    }
}
