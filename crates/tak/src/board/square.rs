//! Squares and directions.
//!
//! A square is an index `rank * N + file` into an `N`×`N` board: a1 is 0, the last file of rank 1
//! is `N - 1`, and so on up the board. The board size is not stored in the square; functions that
//! need it take it as the const parameter `N`, matching `Position<N>`.

use std::fmt;

/// A square index `rank * N + file` (a1 = 0). Always below 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1) on an `N`×`N` board.
    #[inline(always)]
    pub const fn new<const N: usize>(file: usize, rank: usize) -> Square {
        Square((rank * N + file) as u8)
    }

    /// The index of the square for per-square arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 for `a`.
    #[inline(always)]
    pub const fn file<const N: usize>(self) -> usize {
        self.0 as usize % N
    }

    /// The rank, 0 for rank `1`.
    #[inline(always)]
    pub const fn rank<const N: usize>(self) -> usize {
        self.0 as usize / N
    }

    /// The neighbour in `dir`, or `None` at the edge.
    #[inline]
    pub fn step<const N: usize>(self, dir: Direction) -> Option<Square> {
        let (f, r) = (self.file::<N>() as isize, self.rank::<N>() as isize);
        let (df, dr) = dir.delta();
        let (nf, nr) = (f + df, r + dr);
        if (0..N as isize).contains(&nf) && (0..N as isize).contains(&nr) {
            Some(Square::new::<N>(nf as usize, nr as usize))
        } else {
            None
        }
    }

    /// The PTN name of the square, such as `c3`.
    pub fn name<const N: usize>(self) -> SquareName {
        SquareName {
            file: self.file::<N>() as u8,
            rank: self.rank::<N>() as u8,
        }
    }
}

/// A square's PTN name (`a1`...`h8`), independent of the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareName {
    /// File, 0 for `a`.
    pub file: u8,
    /// Rank, 0 for rank `1`.
    pub rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank + 1)
    }
}

/// One of the four orthogonal directions, named by their PTN symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `+`: toward higher ranks.
    North = 0,
    /// `>`: toward higher files.
    East = 1,
    /// `-`: toward lower ranks.
    South = 2,
    /// `<`: toward lower files.
    West = 3,
}

impl Direction {
    /// All four directions, in encoding order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The direction with encoding `bits & 3`.
    #[inline(always)]
    pub const fn from_bits(bits: u32) -> Direction {
        Self::ALL[(bits & 3) as usize]
    }

    /// `(file delta, rank delta)` of one step.
    #[inline(always)]
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }

    /// The change of square index for one step on an `N`×`N` board.
    #[inline(always)]
    pub const fn offset<const N: usize>(self) -> isize {
        match self {
            Direction::North => N as isize,
            Direction::East => 1,
            Direction::South => -(N as isize),
            Direction::West => -1,
        }
    }

    /// The PTN symbol: `+`, `>`, `-` or `<`.
    pub const fn symbol(self) -> char {
        match self {
            Direction::North => '+',
            Direction::East => '>',
            Direction::South => '-',
            Direction::West => '<',
        }
    }

    /// The direction for a PTN symbol.
    pub const fn from_symbol(c: char) -> Option<Direction> {
        match c {
            '+' => Some(Direction::North),
            '>' => Some(Direction::East),
            '-' => Some(Direction::South),
            '<' => Some(Direction::West),
            _ => None,
        }
    }
}
