//! Bitboards: one bit per square (`rank * N + file`) in a `u64`, and the per-size masks and rays.
//!
//! The layout is dense (no padding files), so east and west shifts mask off the wrapped file.
//! [`Geo<N>`] holds every per-size constant, computed at compile time for each board size.

use super::square::{Direction, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.0)
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u64 << sq.0;
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u64 << sq.0);
    }

    /// The lowest square of a non-empty set.
    #[inline(always)]
    pub const fn lowest(self) -> Square {
        Square(self.0.trailing_zeros() as u8)
    }

    /// The highest square of a non-empty set.
    #[inline(always)]
    pub const fn highest(self) -> Square {
        Square(63 - self.0.leading_zeros() as u8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lowest();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

macro_rules! bit_op {
    ($trait:ident, $fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
    };
}
bit_op!(BitAnd, bitand, &);
bit_op!(BitOr, bitor, |);
bit_op!(BitXor, bitxor, ^);

impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Compile-time geometry of an `N`×`N` board: edge masks, rays and edge distances.
pub struct Geo<const N: usize>;

const fn file_mask(n: usize, file: usize) -> u64 {
    let mut mask = 0u64;
    let mut rank = 0;
    while rank < n {
        mask |= 1u64 << (rank * n + file);
        rank += 1;
    }
    mask
}

/// Squares strictly beyond `sq` in each direction, indexed `[direction][square]`.
const fn rays(n: usize) -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let mut sq = 0;
    while sq < n * n {
        let (file, rank) = (sq % n, sq / n);
        let mut r = rank + 1;
        while r < n {
            rays[0][sq] |= 1u64 << (r * n + file);
            r += 1;
        }
        let mut f = file + 1;
        while f < n {
            rays[1][sq] |= 1u64 << (rank * n + f);
            f += 1;
        }
        let mut r = 0;
        while r < rank {
            rays[2][sq] |= 1u64 << (r * n + file);
            r += 1;
        }
        let mut f = 0;
        while f < file {
            rays[3][sq] |= 1u64 << (rank * n + f);
            f += 1;
        }
        sq += 1;
    }
    rays
}

/// Number of squares between `sq` and the edge in each direction, indexed `[direction][square]`.
const fn edge_distances(n: usize) -> [[u8; 64]; 4] {
    let mut dist = [[0u8; 64]; 4];
    let mut sq = 0;
    while sq < n * n {
        let (file, rank) = (sq % n, sq / n);
        dist[0][sq] = (n - 1 - rank) as u8;
        dist[1][sq] = (n - 1 - file) as u8;
        dist[2][sq] = rank as u8;
        dist[3][sq] = file as u8;
        sq += 1;
    }
    dist
}

/// Squares at most `r` steps from `sq` along a rank or a file (not `sq` itself), indexed
/// `[square][r]`: every square a spread carrying `r` pieces or fewer can reach.
const fn crosses(n: usize) -> [[u64; 9]; 64] {
    let mut out = [[0u64; 9]; 64];
    let mut sq = 0;
    while sq < n * n {
        let (file, rank) = (sq % n, sq / n);
        let mut r = 1;
        while r <= 8 {
            let mut cross = out[sq][r - 1];
            if rank + r < n {
                cross |= 1u64 << ((rank + r) * n + file);
            }
            if rank >= r {
                cross |= 1u64 << ((rank - r) * n + file);
            }
            if file + r < n {
                cross |= 1u64 << (rank * n + file + r);
            }
            if file >= r {
                cross |= 1u64 << (rank * n + file - r);
            }
            out[sq][r] = cross;
            r += 1;
        }
        sq += 1;
    }
    out
}

impl<const N: usize> Geo<N> {
    /// Number of squares on the board.
    pub const SQUARES: usize = N * N;
    /// Every square of the board.
    pub const BOARD: u64 = if N * N == 64 {
        u64::MAX
    } else {
        (1u64 << (N * N)) - 1
    };
    /// Rank 1 (the south edge).
    pub const SOUTH: u64 = (1u64 << N) - 1;
    /// The last rank (the north edge).
    pub const NORTH: u64 = Self::SOUTH << (N * (N - 1));
    /// File a (the west edge).
    pub const WEST: u64 = file_mask(N, 0);
    /// The last file (the east edge).
    pub const EAST: u64 = file_mask(N, N - 1);
    /// Rays beyond each square, `[direction][square]`.
    pub const RAYS: [[u64; 64]; 4] = rays(N);
    /// Squares to the edge, `[direction][square]`.
    pub const EDGE_DISTANCE: [[u8; 64]; 4] = edge_distances(N);
    /// Squares at most `r` steps from a square along its rank or file (not the square itself),
    /// `[square][r]`: every square a spread carrying `r` pieces or fewer can reach.
    pub const CROSS: [[u64; 9]; 64] = crosses(N);

    /// Every square of the board as a bitboard.
    #[inline(always)]
    pub const fn board() -> Bitboard {
        Bitboard(Self::BOARD)
    }

    /// `bb` moved one step in `dir`, dropping squares that leave the board.
    #[inline(always)]
    pub const fn shift(bb: u64, dir: Direction) -> u64 {
        match dir {
            Direction::North => (bb << N) & Self::BOARD,
            Direction::South => bb >> N,
            Direction::East => (bb << 1) & !Self::WEST & Self::BOARD,
            Direction::West => (bb >> 1) & !Self::EAST,
        }
    }

    /// `bb` plus its orthogonal neighbours.
    #[inline(always)]
    pub const fn dilate(bb: u64) -> u64 {
        bb | Self::shift(bb, Direction::North)
            | Self::shift(bb, Direction::South)
            | Self::shift(bb, Direction::East)
            | Self::shift(bb, Direction::West)
    }

    /// The squares of `within` connected to `seeds` (seeds outside `within` are dropped).
    #[inline(always)]
    pub const fn flood(seeds: u64, within: u64) -> u64 {
        let mut filled = seeds & within;
        loop {
            let next = Self::dilate(filled) & within;
            if next == filled {
                return filled;
            }
            filled = next;
        }
    }

    /// Whether the squares in `road` connect north to south or east to west.
    #[inline]
    pub const fn connects_edges(road: u64) -> bool {
        if (road.count_ones() as usize) < N {
            return false;
        }
        (road & Self::SOUTH != 0
            && road & Self::NORTH != 0
            && Self::reaches(road & Self::SOUTH, road, Self::NORTH))
            || (road & Self::WEST != 0
                && road & Self::EAST != 0
                && Self::reaches(road & Self::WEST, road, Self::EAST))
    }

    /// Whether a flood from `seeds` within `within` touches `goal`, stopping as soon as it does.
    #[inline(always)]
    const fn reaches(seeds: u64, within: u64, goal: u64) -> bool {
        let mut filled = seeds;
        loop {
            let next = Self::dilate(filled) & within;
            if next & goal != 0 {
                return true;
            }
            if next == filled {
                return false;
            }
            filled = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_shifts_stay_on_the_board() {
        assert_eq!(Geo::<8>::BOARD, u64::MAX);
        assert_eq!(Geo::<5>::BOARD.count_ones(), 25);
        assert_eq!(Geo::<6>::EAST.count_ones(), 6);
        // East of the last file and west of file a fall off the board.
        assert_eq!(Geo::<5>::shift(Geo::<5>::EAST, Direction::East), 0);
        assert_eq!(Geo::<5>::shift(Geo::<5>::WEST, Direction::West), 0);
        assert_eq!(Geo::<7>::shift(Geo::<7>::NORTH, Direction::North), 0);
        assert_eq!(Geo::<3>::RAYS[0][0], 0b001_001_000);
        assert_eq!(Geo::<3>::EDGE_DISTANCE[1][4], 1);
    }

    #[test]
    fn road_detection_on_lines_and_bends() {
        // A straight file on 5x5 and a bent road west-east on 4x4.
        assert!(Geo::<5>::connects_edges(Geo::<5>::WEST));
        let bent = 0b0000_0000_1110_0011; // a1 b1 b2 c2 d2
        assert!(Geo::<4>::connects_edges(bent));
        assert!(!Geo::<4>::connects_edges(bent & !(1 << 5)));
        // Diagonal neighbours never connect.
        assert!(!Geo::<3>::connects_edges(0b100_010_001));
    }
}
