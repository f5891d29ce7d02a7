//! Threats: which moves complete a road now (road in one, for either side), which placements
//! would threaten one, and where a defence against the opponent's threats must go.
//!
//! The search asks this at every node, so it avoids generating moves:
//! 1. **Placements.** Flood the mover's road pieces from each edge. An empty square completes a
//!    road if it touches (or lies on) both edges of a pair through those floods.
//! 2. **Spreads.** A spread changes only its origin and the squares it covers, a straight
//!    segment. Even if every square of that segment became the mover's, a road would have to run
//!    through it, so the segment must touch (or border a flood from) both edges of a pair. The
//!    test is made first for every square the stack's carry limit lets it reach along its rank
//!    and file at once (most stacks stop there), then per direction, for each distance a spread
//!    can travel (no further than the carry limit), as a pattern covering `j` squares changes
//!    only the first `j`. Only the patterns that pass have their outcome simulated
//!    exactly, on the top-piece bitboard alone, without making the move.
//!
//! A move that completes the mover's road wins even if it also completes the opponent's.

use super::spread;
use crate::board::{roads, Bitboard, Color, Direction, Geo, Move, Position, Role, Square};

impl<const N: usize> Position<N> {
    /// Empty squares where a flat of `color` would complete a road now.
    pub fn completing_placements(&self, color: Color) -> Bitboard {
        Bitboard(roads::<N>(self.road_pieces(color).0).completing() & self.empty().0)
    }

    /// Where to look for defences against the placement threats of the player not to move:
    /// `None` if that player has no placement that completes a road; else `(completing squares,
    /// guard, relevant)`. Only placements on `guard` squares and spreads covering a `relevant`
    /// square can stop those threats: a placement elsewhere leaves every completing square
    /// free (unless it ends the game first: then every square is a guard), and a spread changes
    /// only the tops it covers, its origin at most revealing more opponent pieces.
    pub fn placement_defence_squares(&self) -> Option<(Bitboard, Bitboard, Bitboard)> {
        let me = self.side_to_move();
        let them = !me;
        if self.is_opening() || (self.stones_left(them) == 0 && self.caps_left(them) == 0) {
            return None;
        }
        let squares = self.completing_placements(them);
        if squares.is_empty() {
            return None;
        }
        let ends_game = self.empty().count() == 1
            || self.stones_left(me) as u32 + self.caps_left(me) as u32 == 1;
        let guard = if ends_game {
            Geo::<N>::board()
        } else if squares.count() == 1 {
            squares
        } else {
            Bitboard::EMPTY
        };
        Some((squares, guard, guard | squares | self.road_pieces(them)))
    }

    /// Empty squares where a flat of `color` would leave `color` a placement that completes a
    /// road (a road-in-one threat made by a placement), considering only placement completions.
    pub fn placement_threats(&self, color: Color) -> Bitboard {
        let road = self.road_pieces(color).0;
        let empty = self.empty().0;
        let near = (Geo::<N>::dilate(road)
            | Geo::<N>::SOUTH
            | Geo::<N>::NORTH
            | Geo::<N>::WEST
            | Geo::<N>::EAST)
            & empty;
        let mut threats = 0;
        for sq in Bitboard(near) {
            let with = road | 1 << sq.0;
            if completing_squares::<N>(with) & empty & !(1 << sq.0) != 0 {
                threats |= 1 << sq.0;
            }
        }
        Bitboard(threats)
    }

    /// A placement that ends the game at once with a flat win for the side to move (its last
    /// piece, or the last empty square), if there is one. Roads are not considered.
    pub fn flat_win_in_one(&self) -> Option<Move> {
        if self.is_opening() {
            return None;
        }
        let me = self.side_to_move();
        let empty = self.empty();
        let last_piece = self.stones_left(me) as u32 + self.caps_left(me) as u32 == 1;
        if empty.is_empty() || !(last_piece || empty.count() == 1) {
            return None;
        }
        let role = if self.stones_left(me) > 0 {
            Role::Flat
        } else {
            Role::Cap
        };
        let mine = self.flats(me).count() as i32 + (role == Role::Flat) as i32;
        let theirs = self.flats(!me).count() as i32;
        let white_margin = match me {
            Color::White => 2 * (mine - theirs),
            Color::Black => 2 * (theirs - mine),
        } - self.half_komi() as i32;
        let wins = match me {
            Color::White => white_margin > 0,
            Color::Black => white_margin < 0,
        };
        wins.then(|| Move::place(empty.lowest(), role))
    }

    /// Whether the side to move can complete a road in one ply.
    #[inline]
    pub fn can_win_in_one(&self) -> bool {
        self.winning_move().is_some()
    }

    /// A move that completes a road for the side to move, if there is one (placements first).
    #[inline]
    pub fn winning_move(&self) -> Option<Move> {
        self.winning_move_for(self.side_to_move())
    }

    /// A move that would complete a road for `me` if `me` were to move now: for the side to move
    /// a winning move, for the other side the threat it holds (a "Tak").
    pub fn winning_move_for(&self, me: Color) -> Option<Move> {
        if self.is_opening() {
            // Opening placements are the opponent's colour and there are no spreads.
            return None;
        }
        let road = self.road_pieces(me).0;
        // A segment touches an edge's flood (or the edge) when it meets the flood's
        // neighbourhood (adjacency is symmetric), so each side is one mask.
        let facts = roads::<N>(road);
        let [near_south, near_north, near_west, near_east] = facts.near;
        let completing = facts.completing();
        let joins = |seg: u64| {
            (seg & near_south != 0 && seg & near_north != 0)
                || (seg & near_west != 0 && seg & near_east != 0)
        };

        let role = if self.stones_left(me) > 0 {
            Some(Role::Flat)
        } else if self.caps_left(me) > 0 {
            Some(Role::Cap)
        } else {
            None
        };
        if let Some(role) = role {
            let winning = completing & self.empty().0;
            if winning != 0 {
                return Some(Move::place(Square(winning.trailing_zeros() as u8), role));
            }
        }

        // A lone piece empties its square and covers one neighbour, so it can only make a road
        // by moving onto a square that completes the road as it stands: a flat onto a flat or an
        // empty square, a capstone onto anything but a capstone. A lone wall adds no road piece.
        let walls = self.walls().0;
        let caps = self.caps().0;
        let lone_flat_targets = Geo::<N>::dilate(completing & !(walls | caps));
        let lone_cap_targets = Geo::<N>::dilate(completing & !caps);
        for sq in self.controlled(me) {
            let carry = self.carry_limit(sq);
            let origin = 1u64 << sq.0;
            if carry == 1 {
                let targets = if origin & caps != 0 {
                    lone_cap_targets
                } else if origin & walls != 0 {
                    0
                } else {
                    lone_flat_targets
                };
                if origin & targets == 0 {
                    continue;
                }
            }
            // No spread from here goes further than `carry` squares along a rank or a file.
            if !joins(Geo::<N>::CROSS[sq.index()][carry] | origin) {
                continue;
            }
            let is_cap = origin & caps != 0;
            for dir in Direction::ALL {
                let (distance, wall_next) = self.reach(sq, dir);
                let crush = is_cap && wall_next && distance < carry;
                let steps = (distance + crush as usize).min(carry);
                if steps == 0 || !joins(Self::segment(sq, dir, steps).0 | origin) {
                    continue;
                }
                // Patterns covering `j` squares change only the first `j`: only the distances
                // whose segment could still complete a road are tried, shortest first, each
                // with its own patterns (a crush covers `distance + 1`).
                for j in 1..=steps {
                    if j < steps && !joins(Self::segment(sq, dir, j).0 | origin) {
                        continue;
                    }
                    let masks = if j > distance {
                        spread::crush(carry, distance)
                    } else {
                        spread::covering(carry, j)
                    };
                    for &mask in masks {
                        if self.spread_completes_road(me, sq, dir, mask, road) {
                            return Some(Move::spread(sq, dir, mask));
                        }
                    }
                }
            }
        }
        None
    }

    /// Whether the spread leaves the mover with a road, judged on the top pieces alone.
    #[inline]
    fn spread_completes_road(
        &self,
        me: Color,
        sq: Square,
        dir: Direction,
        mask: u8,
        road: u64,
    ) -> bool {
        let me = me as u32;
        let mask = mask as u32;
        let carry = 32 - mask.leading_zeros();
        let height = self.height(sq) as u32;
        let rest = height - carry;
        let pile = self.pile_bits(sq, rest, carry);
        let moving_wall = self.walls().contains(sq);

        let mut road = road;
        let mut mark = |at: usize, mine: bool| {
            if mine {
                road |= 1 << at;
            } else {
                road &= !(1 << at);
            }
        };
        mark(
            sq.index(),
            rest > 0 && self.color_at(sq, rest as usize - 1) as u32 == me,
        );
        let mut at = sq.index() as isize;
        let mut left = mask;
        while left != 0 {
            let total = left.trailing_zeros() + 1;
            left &= left - 1;
            at += dir.offset::<N>();
            let top = (pile >> (total - 1)) & 1;
            let wall_on_top = left == 0 && moving_wall;
            mark(at as usize, top == me && !wall_on_top);
        }
        Geo::<N>::connects_edges(road)
    }
}

/// Squares that would complete a road if added to `road` (occupied or not), for a bitboard
/// looked at once (a placement tried in thought): the four edge floods, not kept in
/// [`roads`]' table.
#[inline]
fn completing_squares<const N: usize>(road: u64) -> u64 {
    let near = |edge: u64| edge | Geo::<N>::dilate(Geo::<N>::flood(edge, road));
    (near(Geo::<N>::SOUTH) & near(Geo::<N>::NORTH)) | (near(Geo::<N>::WEST) & near(Geo::<N>::EAST))
}
