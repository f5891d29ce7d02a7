//! Piece vocabulary: [`Color`] and [`Role`].
//!
//! Only the top piece of a stack can be a wall or a capstone; every piece below it is a flat, so a
//! stack is fully described by its colours plus the role of its top (see `board::Position`).

use std::fmt;
use std::ops::Not;

/// A player's colour. White (Player 1) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Player 1, written `1` in TPS.
    White = 0,
    /// Player 2, written `2` in TPS.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The index of the colour (0 for White, 1 for Black) for per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour stored in a stack bit: 0 is White, 1 is Black.
    #[inline(always)]
    pub const fn from_bit(bit: u32) -> Color {
        if bit & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The TPS digit of the colour: `1` for White, `2` for Black.
    pub const fn tps_digit(self) -> char {
        match self {
            Color::White => '1',
            Color::Black => '2',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// What kind of stone a piece is. Only the top piece of a stack may be a wall or a capstone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// A flat stone: scores, carries stacks and counts for roads.
    Flat = 0,
    /// A standing stone: blocks movement and roads, never scores.
    Wall = 1,
    /// A capstone: counts for roads, blocks movement, can flatten a wall alone.
    Cap = 2,
}

impl Role {
    /// The PTN prefix of a placement of this role (`""` for a flat).
    pub const fn ptn_prefix(self) -> &'static str {
        match self {
            Role::Flat => "",
            Role::Wall => "S",
            Role::Cap => "C",
        }
    }
}
