//! Tak as a game of the generic search: [`SearchGame`] for [`Position`].
//!
//! The rules ([`crate::board`], [`crate::movegen`]) and the evaluation ([`crate::eval`]) know
//! nothing of the search; this module tells the search what Tak's tactics are:
//! - an immediate win is a road in one, else a placement that wins on flats;
//! - the opponent's road-in-one threat turns off pruning, and a placement that blocks it is
//!   searched first, before the placements that threaten a road of our own;
//! - a move that leaves its player two road-completing placements (a double threat) is extended;
//! - the null move is allowed after the opening while three stones are in hand (near the end of
//!   the reserves, zugzwang is real in Tak);
//! - other moves are ordered flats, capstones, walls, then spreads by the flats they gain on top;
//! - only spreads are reversible; a repetition is a draw.

use crate::board::{
    Bitboard, Color, Direction, GameResult, Geo, Move, Position, Role, Square, Undo,
};
use crate::eval::evaluate;
use cairn_search::rng::mix;
use cairn_search::score::{Score, WinKind};
use cairn_search::{MoveBuf, SearchGame};

/// The null move needs at least this many stones in hand (a pass is only safe when placing is
/// not forced; near a flat-out zugzwang is real in Tak).
pub const NMP_MIN_STONES: u8 = 3;

// Move ordering. Urgent moves ([`SearchGame::urgency`]) by rank:
/// Urgency of a placement that blocks the opponent's road-in-one threat, plus its role (a
/// capstone first, then a wall, then a flat).
pub const ORDER_BLOCK: u32 = 4;
/// Urgency of a placement that creates a road-in-one threat of our own.
pub const ORDER_THREAT: u32 = 0;
// Plain moves ([`SearchGame::quiet_order`]), before their history score:
/// Base score of a flat placement.
pub const ORDER_FLAT: i32 = 300;
/// Base score of a capstone placement.
pub const ORDER_CAP: i32 = 250;
/// Base score of a wall placement.
pub const ORDER_WALL: i32 = 100;
/// Base score of a spread, plus `ORDER_SPREAD_FLAT` per flat gained on top.
pub const ORDER_SPREAD: i32 = 0;
/// See [`ORDER_SPREAD`].
pub const ORDER_SPREAD_FLAT: i32 = 120;
/// Bonus for a capstone flattening a wall.
pub const ORDER_CRUSH: i32 = 150;

// The search stores a move as its packing (`Move::bits`, `Move::key`).
cairn_search::impl_search_move!(Move);

/// What Tak's ordering and extension learn about a node.
#[derive(Clone, Copy, Debug)]
pub struct Tactics {
    /// Squares where the opponent completes a road by placing (when it threatens one).
    block: Bitboard,
    /// Squares where our flat would create a road-in-one threat (with depth to spare).
    threat: Bitboard,
}

/// The score of a finished game for `me`, the game having ended `ply` plies from the root: a
/// road is an outright win, a flat win one on a count.
pub fn result_score(result: GameResult, me: Color, ply: u32) -> Score {
    match result {
        GameResult::Road(c) if c == me => Score::win_in(ply, WinKind::Outright),
        GameResult::Road(_) => Score::loss_in(ply, WinKind::Outright),
        GameResult::Flats(c) if c == me => Score::win_in(ply, WinKind::Count),
        GameResult::Flats(_) => Score::loss_in(ply, WinKind::Count),
        GameResult::Draw => Score::DRAW,
    }
}

impl<const N: usize> SearchGame for Position<N> {
    type Move = Move;
    type Undo = Undo;
    type Tactics = Tactics;

    const SLOWEST_WIN: WinKind = WinKind::Count;

    #[inline(always)]
    fn side(&self) -> usize {
        self.side_to_move().index()
    }

    #[inline(always)]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    #[inline]
    fn generate(&self, out: &mut MoveBuf<Move>) {
        self.generate_moves(out);
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    #[inline(always)]
    fn make(&mut self, mv: Move) -> Undo {
        Position::make(self, mv)
    }

    #[inline(always)]
    fn unmake(&mut self, mv: Move, undo: Undo) {
        Position::unmake(self, mv, undo)
    }

    #[inline(always)]
    fn is_irreversible(&self, mv: Move, _undo: &Undo) -> bool {
        mv.is_placement()
    }

    #[inline]
    fn terminal(&self, ply: u32) -> Option<Score> {
        self.result()
            .map(|over| result_score(over, self.side_to_move(), ply))
    }

    #[inline]
    fn repetition(&self, _ply: u32) -> Score {
        Score::DRAW
    }

    fn no_moves(&self, _ply: u32) -> Score {
        // A Tak position that is not over always has a placement.
        Score::DRAW
    }

    #[inline]
    fn evaluate(&self) -> Score {
        evaluate(self)
    }

    fn move_text(mv: Move) -> String {
        mv.ptn::<N>().to_string()
    }

    /// One per piece in hand and six more, never fewer than 10. Spreads do not use up the
    /// reserves, so games outlast them: in 235 games of Cairn against Tiltak at 6×6 a player
    /// with `r` pieces in hand made a median of about `r + 6` more moves (r + 9 at 30 in hand,
    /// r + 6 at 20, r + 7 at 10, r + 4 at 5). Counting only the pieces spent the clock by the
    /// middlegame and left the flat endgame to the increment.
    fn moves_left(&self) -> u64 {
        let me = self.side_to_move();
        ((self.stones_left(me) + self.caps_left(me)) as u64 + 6).max(10)
    }

    #[inline]
    fn win_in_one(&self, skip: &[Move], threat_free: bool) -> Option<(Move, WinKind)> {
        if !threat_free {
            if let Some(win) = self.winning_move().filter(|m| !skip.contains(m)) {
                return Some((win, WinKind::Outright));
            }
        }
        let win = self.flat_win_in_one().filter(|m| !skip.contains(m))?;
        Some((win, WinKind::Count))
    }

    #[inline]
    fn threatened(&self) -> bool {
        self.winning_move_for(!self.side_to_move()).is_some()
    }

    /// A placement (after the opening, whose placements are the opponent's colour) adds no
    /// road piece of the opponent's and moves none of its stacks. A flat on the square leaves
    /// every spread over it the same outcome as the empty square had, and a wall or capstone
    /// only stops spreads. So every road the opponent could complete afterwards it could
    /// complete before.
    #[inline]
    fn adds_no_threat(&self, mv: Move) -> bool {
        mv.is_placement() && !self.is_opening()
    }

    #[inline]
    fn correction_keys(&self) -> [u64; 2] {
        let count = |b: Bitboard| b.count() as u64;
        let (w, b) = (Color::White, Color::Black);
        let material = count(self.flats(w))
            | count(self.flats(b)) << 8
            | (self.stones_left(w) as u64) << 16
            | (self.stones_left(b) as u64) << 24
            | (self.caps_left(w) as u64) << 32
            | (self.caps_left(b) as u64) << 40
            | count(self.walls() & self.controlled(w)) << 48
            | count(self.walls() & self.controlled(b)) << 56;
        let owners = mix(self.controlled(w).0) ^ self.controlled(b).0.rotate_left(17);
        [mix(material), mix(owners)]
    }

    #[inline]
    fn null_move_ok(&self) -> bool {
        !self.is_opening() && self.stones_left(self.side_to_move()) >= NMP_MIN_STONES
    }

    #[inline]
    fn make_null(&mut self) {
        Position::make_null(self)
    }

    #[inline]
    fn unmake_null(&mut self) {
        Position::unmake_null(self)
    }

    #[inline]
    fn tactics(&self, threatened: bool, deep: bool) -> Tactics {
        let me = self.side_to_move();
        Tactics {
            block: if threatened {
                self.completing_placements(!me)
            } else {
                Bitboard::EMPTY
            },
            threat: if deep {
                self.placement_threats(me)
            } else {
                Bitboard::EMPTY
            },
        }
    }

    #[inline]
    fn urgency(&self, mv: Move, tactics: &Tactics) -> Option<u32> {
        // The kind index is one more than the placed role, and 0 for a spread.
        let kind = mv.kind_index() as u32;
        if kind == 0 {
            return None;
        }
        let sq = mv.square();
        if tactics.block.contains(sq) {
            Some(ORDER_BLOCK + kind - 1)
        } else if kind != Role::Wall as u32 + 1 && tactics.threat.contains(sq) {
            Some(ORDER_THREAT)
        } else {
            None
        }
    }

    #[inline]
    fn quiet_order(&self, mv: Move) -> i32 {
        match mv.role() {
            Some(Role::Flat) => ORDER_FLAT,
            Some(Role::Cap) => ORDER_CAP,
            Some(Role::Wall) => ORDER_WALL,
            None => ORDER_SPREAD + SpreadGains::new(self).gain(mv),
        }
    }

    /// [`SearchGame::quiet_order`] of every move, with each spread origin's stack and each
    /// direction's squares read once (`SpreadGains`), not once per move.
    #[inline]
    fn quiet_orders(&self, moves: &[Move], out: &mut [i32]) {
        const PLACED: [i32; 4] = [ORDER_SPREAD, ORDER_FLAT, ORDER_WALL, ORDER_CAP];
        let mut spreads = SpreadGains::new(self);
        for (score, &mv) in out.iter_mut().zip(moves) {
            let kind = mv.kind_index();
            *score = if kind != 0 {
                PLACED[kind]
            } else {
                ORDER_SPREAD + spreads.gain(mv)
            };
        }
    }

    /// A placement on a threat square or a spread that leaves its player (now not to move) two
    /// or more placements that complete a road.
    #[inline]
    fn extends(&self, mv: Move, tactics: &Tactics) -> bool {
        (match mv.role() {
            Some(Role::Wall) => false,
            Some(_) => tactics.threat.contains(mv.square()),
            None => true,
        }) && self.completing_placements(!self.side_to_move()).count() >= 2
    }
}

/// What a top piece is worth to `me` in a spread's gain: +1 for my flat, −1 for the
/// opponent's, 0 for a wall, a capstone or an empty square.
#[inline(always)]
fn flat_value(top: Option<(Color, Role)>, me: Color) -> i32 {
    match top {
        Some((c, Role::Flat)) if c == me => 1,
        Some((_, Role::Flat)) => -1,
        _ => 0,
    }
}

/// Ordering bonus of spreads: flats gained on top (own flats made minus own flats lost and
/// opponent flats covered), plus a bonus for flattening a wall. What it reads of the board is
/// kept for the last origin (the colours of the pieces a spread can carry, the flat gained or lost there by
/// carry) and the last direction from it (the worth of each square's top and its walls), so
/// that the spreads of one stack, which the generator lists together, read the board once.
/// Spreads in any order get the same gains.
struct SpreadGains<'a, const N: usize> {
    pos: &'a Position<N>,
    me: Color,
    /// The origin the tables are for (`u8::MAX` before the first spread).
    origin: u8,
    /// The direction `before` and `walls` are for (`u8::MAX`: none yet from this origin).
    dir: u8,
    /// Pieces a spread from the origin can carry.
    limit: u32,
    /// Their colour bits, bit 0 the lowest.
    pile: u32,
    /// The role of the origin's top piece, which ends on the last square.
    moving_role: Role,
    /// By pieces carried: the worth of the origin's new top minus its old one.
    origin_gain: [i32; 9],
    /// By squares travelled (1 = the first): the worth of the square's top before the spread.
    before: [i32; 9],
    /// Bit `k`: the square `k` steps away has a wall on top.
    walls: u32,
}

impl<'a, const N: usize> SpreadGains<'a, N> {
    fn new(pos: &'a Position<N>) -> Self {
        SpreadGains {
            pos,
            me: pos.side_to_move(),
            origin: u8::MAX,
            dir: u8::MAX,
            limit: 0,
            pile: 0,
            moving_role: Role::Flat,
            origin_gain: [0; 9],
            before: [0; 9],
            walls: 0,
        }
    }

    /// Reads the stack on `origin`.
    fn load_origin(&mut self, origin: Square) {
        let (pos, me) = (self.pos, self.me);
        let height = pos.height(origin) as u32;
        self.origin = origin.0;
        self.dir = u8::MAX;
        self.limit = height.min(N as u32);
        self.pile = pos.pile_bits(origin, height - self.limit, self.limit);
        let top = pos.top(origin);
        self.moving_role = top.map_or(Role::Flat, |(_, r)| r);
        let old = flat_value(top, me);
        for carry in 1..=self.limit {
            let below = (height > carry).then(|| {
                (
                    pos.color_at(origin, (height - carry - 1) as usize),
                    Role::Flat,
                )
            });
            self.origin_gain[carry as usize] = flat_value(below, me) - old;
        }
    }

    /// Reads the squares a spread from the origin toward `dir` can reach.
    fn load_direction(&mut self, dir: Direction) {
        let (pos, me) = (self.pos, self.me);
        self.dir = dir as u8;
        let edge = Geo::<N>::EDGE_DISTANCE[dir as usize][self.origin as usize];
        let step = dir.offset::<N>();
        self.walls = 0;
        let mut at = self.origin as isize;
        for k in 1..=self.limit.min(edge as u32) as usize {
            at += step;
            let top = pos.top(Square(at as u8));
            self.before[k] = flat_value(top, me);
            if matches!(top, Some((_, Role::Wall))) {
                self.walls |= 1 << k;
            }
        }
    }

    /// The gain of the spread `mv`.
    #[inline]
    fn gain(&mut self, mv: Move) -> i32 {
        let origin = mv.square();
        if origin.0 != self.origin {
            self.load_origin(origin);
        }
        let dir = mv.direction();
        if dir as u8 != self.dir {
            self.load_direction(dir);
        }
        let carry = mv.count();
        let pile = self.pile >> (self.limit - carry);
        let mut gain = self.origin_gain[carry as usize];
        let mut rest = mv.drop_mask() as u32;
        let (mut k, mut crush) = (0, false);
        while rest != 0 {
            let total = rest.trailing_zeros() + 1;
            rest &= rest - 1;
            k += 1;
            let role = if rest == 0 {
                self.moving_role
            } else {
                Role::Flat
            };
            let color = Color::from_bit(pile >> (total - 1));
            gain += flat_value(Some((color, role)), self.me) - self.before[k];
            crush |= self.walls >> k & 1 != 0;
        }
        gain * ORDER_SPREAD_FLAT + if crush { ORDER_CRUSH } else { 0 }
    }
}
