//! Move ordering: scores every generated move once, then hands them out best first.
//!
//! Order: the transposition-table move; moves that block the opponent's road-in-one threat (a
//! placement on its completing square); flat or capstone placements that create a road-in-one
//! threat; killers; then placements by kind and spreads by the flats they gain on top, each plus
//! its history score. (Immediate road wins never get here: the search returns them first.)

use super::history::History;
use super::params::*;
use crate::board::{Bitboard, Color, Move, Position, Role, Square};
use crate::movegen::MoveList;
use smallvec::SmallVec;

/// Scored moves of one node, picked best first by selection.
#[derive(Default)]
pub struct MovePicker {
    moves: MoveList,
    scores: SmallVec<[i32; 256]>,
    next: usize,
}

/// What ordering needs to know about the node besides the position.
pub struct OrderContext {
    /// The table's move for this position, if legal.
    pub tt_move: Option<Move>,
    /// Killer moves at this ply.
    pub killers: [Option<Move>; 2],
    /// Squares where the opponent completes a road by placing.
    pub block_squares: Bitboard,
    /// Squares where our flat would create a road-in-one threat.
    pub threat_squares: Bitboard,
}

impl MovePicker {
    /// Generates and scores the moves of `pos`.
    pub fn fill<const N: usize>(
        &mut self,
        pos: &Position<N>,
        history: &History,
        ctx: &OrderContext,
    ) {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        pos.generate_moves(&mut self.moves);
        let me = pos.side_to_move();
        for &mv in &self.moves {
            let score = if Some(mv) == ctx.tt_move {
                ORDER_TT
            } else {
                order_score(pos, me, mv, history, ctx)
            };
            self.scores.push(score);
        }
    }

    /// The candidate defences against a road threat: placements on `guard` squares, and the
    /// spreads that cover at least one `relevant` square (scored by the flats they gain). A
    /// spread changes only the tops of the squares it covers (its origin can only reveal more
    /// opponent pieces), so one that covers no opponent road piece, guard square or threatening
    /// stack leaves the threat standing.
    pub fn fill_defences<const N: usize>(
        &mut self,
        pos: &Position<N>,
        guard: Bitboard,
        relevant: Bitboard,
    ) {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        pos.generate_moves(&mut self.moves);
        let me = pos.side_to_move();
        self.moves.retain(|m| {
            if m.is_placement() {
                return guard.contains(m.square());
            }
            let mut at = m.square();
            (0..m.distance()).any(|_| {
                at = at
                    .step::<N>(m.direction())
                    .expect("legal spreads stay on the board");
                relevant.contains(at)
            })
        });
        for &mv in &self.moves {
            self.scores.push(match mv.role() {
                Some(role) => ORDER_BLOCK + role as i32,
                None => spread_gain(pos, me, mv),
            });
        }
    }

    /// The best remaining move and its ordering score.
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
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
    pub fn tried(&self) -> &[Move] {
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

fn order_score<const N: usize>(
    pos: &Position<N>,
    me: Color,
    mv: Move,
    history: &History,
    ctx: &OrderContext,
) -> i32 {
    let sq = mv.square();
    if let Some(role) = mv.role() {
        if ctx.block_squares.contains(sq) {
            return ORDER_BLOCK + role as i32;
        }
        if role != Role::Wall && ctx.threat_squares.contains(sq) {
            return ORDER_THREAT;
        }
    }
    if ctx.killers[0] == Some(mv) {
        return ORDER_KILLER[0];
    }
    if ctx.killers[1] == Some(mv) {
        return ORDER_KILLER[1];
    }
    let base = match mv.role() {
        Some(Role::Flat) => ORDER_FLAT,
        Some(Role::Cap) => ORDER_CAP,
        Some(Role::Wall) => ORDER_WALL,
        None => ORDER_SPREAD + spread_gain(pos, me, mv),
    };
    base + history.score(me, mv)
}

/// Ordering bonus of a spread: flats gained on top (own flats made minus own flats lost and
/// opponent flats covered), plus a bonus for flattening a wall.
fn spread_gain<const N: usize>(pos: &Position<N>, me: Color, mv: Move) -> i32 {
    let origin = mv.square();
    let height = pos.height(origin) as u32;
    let carry = mv.count();
    let pile = pos.pile_bits(origin, height - carry, carry);
    let moving_role = pos.top(origin).map_or(Role::Flat, |(_, r)| r);
    let flat_value = |top: Option<(Color, Role)>| match top {
        Some((c, Role::Flat)) if c == me => 1,
        Some((_, Role::Flat)) => -1,
        _ => 0,
    };
    let mut gain = 0;
    // The origin loses its top and shows what is under the carried pieces.
    let below = (height > carry).then(|| {
        (
            pos.color_at(origin, (height - carry - 1) as usize),
            Role::Flat,
        )
    });
    gain += flat_value(below) - flat_value(pos.top(origin));
    // Walk the drop mask: each set bit ends one square's drop; its top is the pile piece there.
    let step = mv.direction().offset::<N>();
    let mut at = origin.index() as isize;
    let mut rest = mv.drop_mask() as u32;
    let mut crush = false;
    while rest != 0 {
        let total = rest.trailing_zeros() + 1;
        rest &= rest - 1;
        at += step;
        let square = Square(at as u8);
        let color = Color::from_bit(pile >> (total - 1));
        let role = if rest == 0 { moving_role } else { Role::Flat };
        let before = pos.top(square);
        crush |= matches!(before, Some((_, Role::Wall)));
        gain += flat_value(Some((color, role))) - flat_value(before);
    }
    gain * ORDER_SPREAD_FLAT + if crush { ORDER_CRUSH } else { 0 }
}
