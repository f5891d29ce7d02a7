//! The seam between the search and a game: what the search needs to know of a game, and nothing
//! more.
//!
//! The search (iterative deepening, PVS, the table, history ordering, pruning, time management,
//! Lazy SMP) is written against [`SearchGame`], implemented by a game's position: Tak's
//! `cairn_tak::board::Position` (in `cairn_tak::adapter`) and Tablut's `cairn_tablut::Position`. A
//! game supplies its moves, make and unmake, a hash, how a game ends and an evaluation; the
//! tactical hooks (an immediate win, a threat that turns pruning off, urgent moves for the
//! ordering, extensions, a null move) default to "none", except [`SearchGame::tactics`], which
//! every game writes because its type is the game's own (`()` for a game with no such
//! knowledge).
//!
//! The ordering knows two classes of move from the game ([`SearchGame::urgency`]): urgent or
//! tactical moves (a block of the opponent's win, a threat of one's own, a capture), searched
//! before the killers and never pruned or reduced, and plain moves, ordered below the killers
//! by the game's base score ([`SearchGame::quiet_order`]) and their history, which late-move
//! and futility pruning may skip and late-move reductions search shallower.
//!
//! Scores are [`Score`]s from the side to move's point of view, in the game's own evaluation
//! unit (Tak: centiflats) below [`Score::MAX_EVAL`], and proven results by distance above it.

use crate::score::{Score, WinKind};
use smallvec::SmallVec;

/// The moves of one node: kept inline up to 256 (enough for every Tak size's usual positions and
/// for any Tablut position), spilling to the heap beyond.
pub type MoveBuf<M> = SmallVec<[M; 256]>;

/// A game's move, as the search stores it.
pub trait SearchMove: Copy + Eq + std::fmt::Debug + Send + Sync + 'static {
    /// Bits the packing uses (at most [`crate::tt::MOVE_FIELD_BITS`]): [`Self::bits`] is
    /// always below `1 << BITS`.
    const BITS: u32;
    /// The size of the key space of [`Self::key`].
    const KEYS: usize;
    /// The move packed into the low [`Self::BITS`] bits, never zero.
    fn bits(self) -> u32;
    /// The move from packed bits, or `None` for zero or bits that no move packs into.
    fn from_bits(bits: u32) -> Option<Self>;
    /// A dense index below [`Self::KEYS`], for tables keyed by move (history).
    fn key(self) -> usize;
}

/// Implements [`SearchMove`] for a game's move type `$move` from its inherent items of the same
/// names (`BITS`, `KEYS`, `bits`, `from_bits`, `key`), which pack it: a game writes its packing
/// once, on its move, and names the type here.
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// struct Step(u8);
///
/// impl Step {
///     const BITS: u32 = 8;
///     const KEYS: usize = 256;
///     fn bits(self) -> u32 {
///         self.0 as u32
///     }
///     fn from_bits(bits: u32) -> Option<Step> {
///         (1..256).contains(&bits).then_some(Step(bits as u8))
///     }
///     fn key(self) -> usize {
///         self.0 as usize
///     }
/// }
///
/// cairn_search::impl_search_move!(Step);
///
/// use cairn_search::SearchMove;
/// assert_eq!(<Step as SearchMove>::from_bits(Step(7).bits()), Some(Step(7)));
/// assert_eq!(<Step as SearchMove>::from_bits(0), None);
/// ```
#[macro_export]
macro_rules! impl_search_move {
    ($move:ty) => {
        impl $crate::SearchMove for $move {
            const BITS: u32 = <$move>::BITS;
            const KEYS: usize = <$move>::KEYS;

            #[inline(always)]
            fn bits(self) -> u32 {
                <$move>::bits(self)
            }

            #[inline(always)]
            fn from_bits(bits: u32) -> Option<Self> {
                <$move>::from_bits(bits)
            }

            #[inline(always)]
            fn key(self) -> usize {
                <$move>::key(self)
            }
        }
    };
}

/// A game position as the search sees it.
///
/// `side` is 0 for the player who moves first, 1 for the other. Every `ply` argument is the
/// node's distance from the root, for scores of proven results ([`Score::win_in`]).
pub trait SearchGame: Clone + Send + Sync {
    /// A move.
    type Move: SearchMove;
    /// What [`SearchGame::unmake`] needs to restore the position.
    type Undo;
    /// What the ordering and the extensions learn about a node once, before its moves
    /// ([`SearchGame::tactics`]).
    type Tactics: Copy;

    /// The kind of win that ends a game soonest after a position without an immediate win: the
    /// mate-distance bounds assume no result better than a win of this kind next ply.
    const SLOWEST_WIN: WinKind;

    /// The side to move: 0 or 1.
    fn side(&self) -> usize;
    /// The position's hash (side to move included).
    fn hash(&self) -> u64;
    /// Appends every legal move to `out` (empty when the game is over).
    fn generate(&self, out: &mut MoveBuf<Self::Move>);
    /// Whether `mv` is legal here (table moves may come from a colliding position).
    fn is_legal(&self, mv: Self::Move) -> bool;
    /// Plays `mv`, which is legal.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, the last move made.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// Whether `mv`, just made (`undo` its record), can never be undone by later moves, so that
    /// no earlier position can come back (a Tak placement, a Tablut capture).
    fn is_irreversible(&self, mv: Self::Move, undo: &Self::Undo) -> bool;
    /// The score of a finished game for the side to move, found `ply` plies from the root, or
    /// `None` if the game goes on. (A side with no legal move is [`SearchGame::no_moves`].)
    fn terminal(&self, ply: u32) -> Option<Score>;
    /// The score for the side to move when the position repeats an earlier one of the game.
    fn repetition(&self, ply: u32) -> Score;
    /// The score for the side to move when it has no legal move and the game is not otherwise
    /// over.
    fn no_moves(&self, ply: u32) -> Score;
    /// The static evaluation for the side to move.
    fn evaluate(&self) -> Score;
    /// `mv` as the game's notation writes it (in any position), for reports.
    fn move_text(mv: Self::Move) -> String;
    /// About how many more moves the side to move will make, for time allocation.
    fn moves_left(&self) -> u64;

    /// A move that wins at once for the side to move and is not in `skip`, with the kind of win.
    /// `threat_free` says that the wins [`SearchGame::threatened`] looks for are known to be
    /// absent (the parent was not threatened and its move [`SearchGame::adds_no_threat`]), so
    /// a game may skip looking for them.
    fn win_in_one(
        &self,
        _skip: &[Self::Move],
        _threat_free: bool,
    ) -> Option<(Self::Move, WinKind)> {
        None
    }
    /// Whether the opponent would win at once if it were to move: pruning that assumes a quiet
    /// position is then off.
    fn threatened(&self) -> bool {
        false
    }
    /// Whether `mv`, about to be played here, can only take wins away from the opponent: when
    /// the opponent has none of the wins [`SearchGame::threatened`] looks for before `mv`, it
    /// has none after it either (in Tak a placement: it gives the opponent no piece and leaves
    /// its stacks as they are). The search then tells the child's
    /// [`SearchGame::win_in_one`] so.
    fn adds_no_threat(&self, _mv: Self::Move) -> bool {
        false
    }
    /// Keys of two coarse features of the position (in Tak: the material and reserves, and who
    /// owns which square) under which the search learns how far its evaluation is off
    /// (correction history). A game without them gives constant keys: one learned bias.
    fn correction_keys(&self) -> [u64; 2] {
        [0, 0]
    }
    /// Whether passing is a fair test of the position here (no zugzwang to fear).
    fn null_move_ok(&self) -> bool {
        false
    }
    /// Passes the move (only called when [`SearchGame::null_move_ok`]).
    fn make_null(&mut self) {}
    /// Takes back [`SearchGame::make_null`].
    fn unmake_null(&mut self) {}
    /// What ordering and extensions need of this node; `threatened` is
    /// [`SearchGame::threatened`], `deep` whether enough depth is left for costly knowledge.
    fn tactics(&self, threatened: bool, deep: bool) -> Self::Tactics;
    /// `Some(rank)` for an urgent or tactical move (a block of the opponent's win, a threat of
    /// one's own, a capture): searched after the table move and before the killers, higher
    /// ranks first, and never pruned or reduced; `None` for a plain move.
    fn urgency(&self, _mv: Self::Move, _tactics: &Self::Tactics) -> Option<u32> {
        None
    }
    /// The base ordering score of a plain move, before its history score (the sum is kept below
    /// the killers).
    fn quiet_order(&self, _mv: Self::Move) -> i32 {
        0
    }
    /// [`SearchGame::quiet_order`] of each of `moves`, into `out` (as long as `moves`): a game
    /// may share work between the moves of one node here. The scores must be the ones
    /// `quiet_order` gives.
    #[inline]
    fn quiet_orders(&self, moves: &[Self::Move], out: &mut [i32]) {
        for (score, &mv) in out.iter_mut().zip(moves) {
            *score = self.quiet_order(mv);
        }
    }
    /// Whether `mv`, just made here by the player not to move, deserves a ply more (a double
    /// threat); asked only at interior nodes with depth to spare.
    fn extends(&self, _mv: Self::Move, _tactics: &Self::Tactics) -> bool {
        false
    }

    /// Every legal move.
    fn legal_moves(&self) -> MoveBuf<Self::Move> {
        let mut out = MoveBuf::new();
        self.generate(&mut out);
        out
    }
}

/// A move for the search's own unit tests, which use no game: any number from 1 below
/// `1 << 16`, packed as itself.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TestMove(pub u32);

#[cfg(test)]
impl SearchMove for TestMove {
    const BITS: u32 = 16;
    const KEYS: usize = 1 << 16;

    fn bits(self) -> u32 {
        self.0
    }

    fn from_bits(bits: u32) -> Option<Self> {
        (bits != 0 && bits < 1 << 16).then_some(TestMove(bits))
    }

    fn key(self) -> usize {
        self.0 as usize
    }
}
