//! Tablut's position: three bitboards over the 81 squares, the king's square, the side to move,
//! the winner once there is one, and an incremental Zobrist hash.
//!
//! Squares are numbered `rank × 9 + file` from a1 = 0 to i9 = 80 (files a–i, ranks 1–9). Every
//! rule of the seed text lives here: rook moves that may cross but not end on the empty throne
//! (the king alone may end there), custodial captures against enemy pieces (the king included:
//! he is armed) and the hostile throne, the four-side capture of the king on or beside the
//! throne, and the king's escape to any edge square. Repetitions need the game's history and
//! live in [`super::game`], and so does perft, which counts them; a side without a legal move
//! has lost, which the search and [`super::game`] read off an empty move list.

use cairn_search::rng::splitmix;
use std::fmt;

/// Squares on the board.
pub const SQUARES: usize = 81;
/// The square on `file` (0 for a) and `rank` (0 for 1).
pub const fn square_at(file: u8, rank: u8) -> u8 {
    rank * 9 + file
}

/// The name of square `sq`, such as `e5`.
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 9) as char, sq / 9 + 1)
}

/// The throne, e5.
pub const THRONE: u8 = 40;

/// A side. The Muscovites (Black) move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The Muscovites, the attackers: 16 pieces, moving first.
    Black = 0,
    /// The Swedes, the defenders: the king and 8 guards.
    White = 1,
}

impl Side {
    /// 0 for Black, 1 for White.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// `Black` or `White`, with who they are.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Black => "Black (Muscovites)",
            Side::White => "White (Swedes)",
        }
    }
}

/// The four directions, as `(file step, rank step)`: north, south, east, west.
const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// No square.
const NONE: u8 = u8::MAX;

/// `STEP[sq][dir]`: the neighbour of `sq` toward `DIRS[dir]`, or [`NONE`] off the board.
const STEP: [[u8; 4]; SQUARES] = {
    let mut table = [[NONE; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % 9) as i8, (sq / 9) as i8);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + DIRS[d].0, rank + DIRS[d].1);
            if f >= 0 && f < 9 && r >= 0 && r < 9 {
                table[sq][d] = (r * 9 + f) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    table
};

/// The neighbour of `sq` toward direction `dir` (0..4), if on the board.
#[inline(always)]
pub fn step(sq: u8, dir: usize) -> Option<u8> {
    let to = STEP[sq as usize][dir];
    (to != NONE).then_some(to)
}

/// The bitboard of one square.
#[inline(always)]
pub const fn bit(sq: u8) -> u128 {
    1 << sq
}

/// The squares of the outer ring, where the king escapes.
pub const EDGE: u128 = {
    let mut b = 0u128;
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = (sq % 9, sq / 9);
        if file == 0 || file == 8 || rank == 0 || rank == 8 {
            b |= 1 << sq;
        }
        sq += 1;
    }
    b
};

/// The throne and its four neighbours: where the king needs four hostile sides to fall.
pub const PALACE: u128 = bit(THRONE) | bit(31) | bit(39) | bit(41) | bit(49);

/// Whether `sq` is on the outer ring.
#[inline(always)]
pub fn on_edge(sq: u8) -> bool {
    EDGE & bit(sq) != 0
}

/// The squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub u128);

impl Iterator for Squares {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

/// A move: a piece from one square to another along a rank or file.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves.
    pub from: u8,
    /// The square it ends on.
    pub to: u8,
}

impl Move {
    /// Bits of [`Move::bits`].
    pub const BITS: u32 = 14;
    /// The size of the key space of [`Move::key`].
    pub const KEYS: usize = SQUARES * SQUARES;

    /// The move from `from` to `to` (both below 81; legality is not checked).
    pub const fn new(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// `from | to << 7`, never zero for a move (the two squares differ).
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        self.from as u32 | (self.to as u32) << 7
    }

    /// The move packed by [`Move::bits`], or `None` if the bits are no move's.
    pub const fn from_bits(bits: u32) -> Option<Move> {
        let (from, to) = ((bits & 0x7f) as u8, (bits >> 7 & 0x7f) as u8);
        if bits >> Self::BITS != 0 || from as usize >= SQUARES || to as usize >= SQUARES {
            return None;
        }
        let same_line = from % 9 == to % 9 || from / 9 == to / 9;
        if from == to || !same_line {
            return None;
        }
        Some(Move { from, to })
    }

    /// A dense index below [`Move::KEYS`].
    #[inline(always)]
    pub const fn key(self) -> usize {
        self.from as usize * SQUARES + self.to as usize
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", square_name(self.from), square_name(self.to))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Zobrist keys: `[black, white, king][square]`, and White to move.
struct Keys {
    pieces: [[u64; SQUARES]; 3],
    white_to_move: u64,
}

const KEYS: Keys = {
    let mut state = 0x7AB1_u64;
    let mut keys = Keys {
        pieces: [[0; SQUARES]; 3],
        white_to_move: 0,
    };
    let mut kind = 0;
    while kind < 3 {
        let mut sq = 0;
        while sq < SQUARES {
            keys.pieces[kind][sq] = splitmix(&mut state);
            sq += 1;
        }
        kind += 1;
    }
    keys.white_to_move = splitmix(&mut state);
    keys
};

const BLACK: usize = 0;
const WHITE: usize = 1;
const KING: usize = 2;

/// A Tablut position.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    black: u128,
    white: u128,
    king: u8,
    side: Side,
    winner: Option<Side>,
    hash: u64,
}

/// What [`Position::unmake`] needs: the directions (bits 0..4) in which the move captured, the
/// winner and the hash before it.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    winner: Option<Side>,
    hash: u64,
}

impl Undo {
    /// How many pieces the move captured (the king's capture ends the game instead).
    pub fn captures(&self) -> u32 {
        self.captured.count_ones()
    }

    /// Whether no earlier position can come back after the move: it captured (a piece never
    /// returns); any other move can be undone.
    pub fn is_irreversible(&self) -> bool {
        self.captured != 0
    }
}

/// Why pieces cannot stand as given (see [`Position::from_parts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Two pieces on one square.
    Overlap(u8),
    /// A piece other than the king on the throne.
    OnThrone,
    /// More than 16 Muscovites or 8 guards.
    TooMany(Side, u32),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(sq) => {
                write!(f, "two pieces on {}", square_name(*sq))
            }
            PositionError::OnThrone => write!(f, "only the king may stand on the throne (e5)"),
            PositionError::TooMany(Side::Black, n) => {
                write!(f, "{n} Muscovites (at most 16)")
            }
            PositionError::TooMany(Side::White, n) => {
                write!(f, "{n} guards beside the king (at most 8)")
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The usual start: the king on the throne, his guards around him, the Muscovites in four
    /// groups at the edges, Black to move.
    pub fn start() -> Position {
        let sq = |name: &str| {
            let [file, rank] = name.as_bytes() else {
                unreachable!("a square name is two letters")
            };
            square_at(file - b'a', rank - b'1')
        };
        let black = [
            "d1", "e1", "f1", "e2", "d9", "e9", "f9", "e8", "a4", "a5", "a6", "b5", "i4", "i5",
            "i6", "h5",
        ]
        .iter()
        .fold(0, |b, s| b | bit(sq(s)));
        let white = ["c5", "d5", "f5", "g5", "e3", "e4", "e6", "e7"]
            .iter()
            .fold(0, |b, s| b | bit(sq(s)));
        Position::from_parts(black, white, THRONE, Side::Black).expect("the start is valid")
    }

    /// A position from its pieces: Muscovites, guards, the king's square and the side to move.
    /// The king on an edge square means White has won.
    pub fn from_parts(
        black: u128,
        white: u128,
        king: u8,
        side: Side,
    ) -> Result<Position, PositionError> {
        let board = (1u128 << SQUARES) - 1;
        debug_assert!(black & !board == 0 && white & !board == 0 && (king as usize) < SQUARES);
        if let Some(sq) = Squares(black & white | (black | white) & bit(king)).next() {
            return Err(PositionError::Overlap(sq));
        }
        if (black | white) & bit(THRONE) != 0 {
            return Err(PositionError::OnThrone);
        }
        if black.count_ones() > 16 {
            return Err(PositionError::TooMany(Side::Black, black.count_ones()));
        }
        if white.count_ones() > 8 {
            return Err(PositionError::TooMany(Side::White, white.count_ones()));
        }
        let mut hash = if side == Side::White {
            KEYS.white_to_move
        } else {
            0
        };
        for sq in Squares(black) {
            hash ^= KEYS.pieces[BLACK][sq as usize];
        }
        for sq in Squares(white) {
            hash ^= KEYS.pieces[WHITE][sq as usize];
        }
        hash ^= KEYS.pieces[KING][king as usize];
        Ok(Position {
            black,
            white,
            king,
            side,
            winner: on_edge(king).then_some(Side::White),
            hash,
        })
    }

    /// The Muscovites.
    pub fn black(&self) -> u128 {
        self.black
    }

    /// The king's guards (not the king).
    pub fn white(&self) -> u128 {
        self.white
    }

    /// The king's square.
    pub fn king(&self) -> u8 {
        self.king
    }

    /// Every piece.
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.black | self.white | bit(self.king)
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The winner, once the king has escaped or been captured.
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// The Zobrist hash.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// What stands on `sq`: `Some(Side::Black)`, `Some(Side::White)` for a guard or the king,
    /// or `None`.
    pub fn at(&self, sq: u8) -> Option<Side> {
        if self.black & bit(sq) != 0 {
            Some(Side::Black)
        } else if (self.white | bit(self.king)) & bit(sq) != 0 {
            Some(Side::White)
        } else {
            None
        }
    }

    /// The pieces of `side` that move (for White, the guards and the king).
    #[inline(always)]
    fn movers(&self, side: Side) -> u128 {
        match side {
            Side::Black => self.black,
            Side::White => self.white | bit(self.king),
        }
    }

    /// Appends every legal move to `out` (none once the game is won).
    pub fn generate(&self, out: &mut impl Extend<Move>) {
        if self.winner.is_some() {
            return;
        }
        let occupied = self.occupied();
        for from in Squares(self.movers(self.side)) {
            let king = from == self.king;
            for dir in 0..4 {
                let mut at = from;
                while let Some(next) = step(at, dir) {
                    if occupied & bit(next) != 0 {
                        break;
                    }
                    at = next;
                    // The empty throne may be crossed, and only the king ends on it.
                    if king || next != THRONE {
                        out.extend(std::iter::once(Move::new(from, next)));
                    }
                }
            }
        }
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.generate(&mut moves);
        moves
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.why_illegal(mv).is_none()
    }

    /// Why `mv` is not legal here, or `None` if it is.
    pub fn why_illegal(&self, mv: Move) -> Option<&'static str> {
        let (from, to) = (mv.from, mv.to);
        if self.winner.is_some() {
            return Some("the game is over");
        }
        if from as usize >= SQUARES || to as usize >= SQUARES || from == to {
            return Some("a move goes from one square to another");
        }
        if self.movers(self.side) & bit(from) == 0 {
            return Some(if self.occupied() & bit(from) == 0 {
                "there is no piece on that square"
            } else {
                "that piece is not the side to move's"
            });
        }
        let dir = match (to % 9).cmp(&(from % 9)) {
            std::cmp::Ordering::Equal if to > from => 0,
            std::cmp::Ordering::Equal => 1,
            _ if to / 9 != from / 9 => return Some("pieces move along a rank or a file"),
            std::cmp::Ordering::Greater => 2,
            std::cmp::Ordering::Less => 3,
        };
        if to == THRONE && from != self.king {
            return Some("only the king may end on the throne");
        }
        let mut at = from;
        while at != to {
            at = step(at, dir).expect("the target is on this line");
            if self.occupied() & bit(at) != 0 {
                return Some("the way is blocked");
            }
        }
        None
    }

    #[inline(always)]
    fn toggle(&mut self, kind: usize, sq: u8) {
        match kind {
            BLACK => self.black ^= bit(sq),
            WHITE => self.white ^= bit(sq),
            _ => self.king = sq,
        }
        self.hash ^= KEYS.pieces[kind][sq as usize];
    }

    /// Whether `sq` is hostile to a piece of `victim`: an enemy piece stands on it (the king is
    /// one for the Muscovites), or it is the empty throne, or it is the throne with the king on
    /// it and three of its neighbours Muscovites (hostile to the guards).
    #[inline]
    fn hostile(&self, sq: Option<u8>, victim: Side) -> bool {
        let Some(sq) = sq else { return false };
        match victim {
            Side::Black => {
                // The throne is empty here or holds the king: hostile either way.
                (self.white | bit(self.king)) & bit(sq) != 0 || sq == THRONE
            }
            Side::White => {
                if self.black & bit(sq) != 0 {
                    return true;
                }
                if sq != THRONE {
                    return false;
                }
                if self.king != THRONE {
                    return true;
                }
                (self.black & PALACE).count_ones() >= 3
            }
        }
    }

    /// Whether the king, on `sq` next to the Muscovite that just arrived from direction `dir`
    /// (the king is at its `dir` side), is captured: on or beside the throne by four hostile
    /// sides (the empty throne counts), elsewhere by a Muscovite on the far side.
    #[inline]
    fn king_falls(&self, sq: u8, dir: usize) -> bool {
        if PALACE & bit(sq) != 0 {
            (0..4).all(|d| match step(sq, d) {
                Some(n) => self.black & bit(n) != 0 || (n == THRONE && self.king != THRONE),
                None => false,
            })
        } else {
            step(sq, dir).is_some_and(|far| self.black & bit(far) != 0)
        }
    }

    /// Plays `mv`, which must be legal: moves the piece, removes what it captures, and records a
    /// win (the king on an edge square, or the king captured).
    pub fn make(&mut self, mv: Move) -> Undo {
        let undo_hash = self.hash;
        let winner = self.winner;
        let mover = self.side;
        let kind = if mv.from == self.king {
            KING
        } else if mover == Side::Black {
            BLACK
        } else {
            WHITE
        };
        self.toggle(kind, mv.from);
        self.toggle(kind, mv.to);
        let mut captured = 0u8;
        if kind == KING && on_edge(mv.to) {
            self.winner = Some(Side::White);
        }
        let enemy = mover.other();
        for dir in 0..4 {
            let Some(n) = step(mv.to, dir) else { continue };
            let victim_kind = match enemy {
                Side::Black if self.black & bit(n) != 0 => BLACK,
                Side::White if self.white & bit(n) != 0 => WHITE,
                Side::White if self.king == n => {
                    if self.king_falls(n, dir) {
                        self.winner = Some(Side::Black);
                    }
                    continue;
                }
                _ => continue,
            };
            if self.hostile(step(n, dir), enemy) {
                self.toggle(victim_kind, n);
                captured |= 1 << dir;
            }
        }
        self.side = enemy;
        self.hash ^= KEYS.white_to_move;
        Undo {
            captured,
            winner,
            hash: undo_hash,
        }
    }

    /// Takes back `mv`, the last move made, with what [`Position::make`] returned.
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let mover = self.side.other();
        self.side = mover;
        let enemy_bits = match mover {
            Side::Black => &mut self.white,
            Side::White => &mut self.black,
        };
        for dir in 0..4 {
            if undo.captured & 1 << dir != 0 {
                *enemy_bits |= bit(step(mv.to, dir).expect("a captured piece was on the board"));
            }
        }
        if mv.to == self.king {
            self.king = mv.from;
        } else if mover == Side::Black {
            self.black ^= bit(mv.to) | bit(mv.from);
        } else {
            self.white ^= bit(mv.to) | bit(mv.from);
        }
        self.winner = undo.winner;
        self.hash = undo.hash;
    }

    /// Passes the move (for the search's null move).
    pub fn make_null(&mut self) {
        self.side = self.side.other();
        self.hash ^= KEYS.white_to_move;
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self) {
        self.make_null();
    }

    /// An escape the king can make at once: a free line to an edge square (`None` when Black
    /// is to move is not asked: this looks at the king whoever moves).
    pub fn king_escape(&self) -> Option<Move> {
        let occupied = self.occupied();
        (0..4).find_map(|dir| {
            let mut at = self.king;
            while let Some(next) = step(at, dir) {
                if occupied & bit(next) != 0 {
                    return None;
                }
                at = next;
            }
            (at != self.king).then(|| Move::new(self.king, at))
        })
    }

    /// The number of directions in which the king sees an edge square over empty squares.
    pub fn king_free_lines(&self) -> u32 {
        let occupied = self.occupied();
        (0..4)
            .filter(|&dir| {
                let mut at = self.king;
                let mut moved = false;
                while let Some(next) = step(at, dir) {
                    if occupied & bit(next) != 0 {
                        return false;
                    }
                    at = next;
                    moved = true;
                }
                moved
            })
            .count() as u32
    }

    /// A Muscovite move that captures the king at once, if there is one.
    pub fn king_capture(&self) -> Option<Move> {
        let occupied = self.occupied();
        let king = self.king;
        for dir in 0..4 {
            // The Muscovite arrives on `n`, the king's neighbour opposite `dir`... that is, the
            // king lies toward `back` from `n`.
            let back = dir ^ 1;
            let Some(n) = step(king, dir) else { continue };
            if occupied & bit(n) != 0 || n == THRONE {
                continue;
            }
            let falls = if PALACE & bit(king) != 0 {
                (0..4).all(|d| match step(king, d) {
                    Some(m) if m == n => true,
                    Some(m) => self.black & bit(m) != 0 || (m == THRONE && king != THRONE),
                    None => false,
                })
            } else {
                step(king, back).is_some_and(|far| self.black & bit(far) != 0)
            };
            if !falls {
                continue;
            }
            // A Muscovite that can reach `n`: the first piece seen from `n` along each line
            // (crossing the empty throne), other than through the king.
            for d in 0..4 {
                let mut at = n;
                while let Some(next) = step(at, d) {
                    if occupied & bit(next) != 0 {
                        if self.black & bit(next) != 0 {
                            return Some(Move::new(next, n));
                        }
                        break;
                    }
                    at = next;
                }
            }
        }
        None
    }

    /// The position under board symmetry `s` (0..8: the four rotations, then each mirrored):
    /// the throne stays, and so do the rules.
    pub fn transformed(&self, s: u8) -> Position {
        let map = |b: u128| Squares(b).fold(0u128, |acc, sq| acc | bit(transform_square(sq, s)));
        let mut pos = Position::from_parts(
            map(self.black),
            map(self.white),
            transform_square(self.king, s),
            self.side,
        )
        .expect("a symmetry keeps a position valid");
        pos.winner = self.winner;
        pos
    }
}

/// Square `sq` under board symmetry `s` (0..8).
pub fn transform_square(sq: u8, s: u8) -> u8 {
    let (mut f, mut r) = (sq % 9, sq / 9);
    if s >= 4 {
        f = 8 - f;
    }
    for _ in 0..s % 4 {
        (f, r) = (r, 8 - f);
    }
    r * 9 + f
}

impl fmt::Display for Position {
    /// The board as a diagram, rank 9 on top, with the side to move. A captured king (Black
    /// has won) is off the board: his square is drawn empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let captured = self.winner == Some(Side::Black);
        for rank in (0..9u8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..9u8 {
                let sq = rank * 9 + file;
                let c = if sq == self.king && !captured {
                    'K'
                } else if self.black & bit(sq) != 0 {
                    'B'
                } else if self.white & bit(sq) != 0 {
                    'W'
                } else if sq == THRONE {
                    '+'
                } else {
                    '.'
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        match self.winner {
            Some(side) => write!(f, "{} has won", side.name()),
            None => write!(f, "{} to move", self.side.name()),
        }
    }
}
