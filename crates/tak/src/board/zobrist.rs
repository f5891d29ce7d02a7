//! Zobrist keys.
//!
//! A position's hash is the XOR of one key per piece — `(square, height index, colour)` — plus one
//! key per wall or capstone on top of a stack, plus a key when Black is to move and a key while the
//! opening swap is pending. Stacks are unbounded (up to every piece of the game, 104 on 8×8), so
//! there is a key for every height a piece can reach. The keys come from a fixed-seed SplitMix64
//! stream at compile time, so hashes are the same on every run and every machine. One table
//! serves every board size: square indices are dense per size, so keys are simply reused.

use super::piece::{Color, Role};
use super::square::Square;
use cairn_search::rng::splitmix;

/// The tallest possible stack: every stone and capstone of an 8×8 game.
pub const MAX_STACK: usize = 2 * (50 + 2);

struct Keys {
    pieces: [[[u64; 2]; MAX_STACK]; 64],
    roles: [[u64; 2]; 64],
    black_to_move: u64,
    opening: u64,
}

const fn make_keys() -> Keys {
    let mut state = 0x0C41_2D5E_7A1B_u64;
    let mut keys = Keys {
        pieces: [[[0; 2]; MAX_STACK]; 64],
        roles: [[0; 2]; 64],
        black_to_move: 0,
        opening: 0,
    };
    let mut sq = 0;
    while sq < 64 {
        let mut h = 0;
        while h < MAX_STACK {
            keys.pieces[sq][h][0] = splitmix(&mut state);
            keys.pieces[sq][h][1] = splitmix(&mut state);
            h += 1;
        }
        keys.roles[sq][0] = splitmix(&mut state);
        keys.roles[sq][1] = splitmix(&mut state);
        sq += 1;
    }
    keys.black_to_move = splitmix(&mut state);
    keys.opening = splitmix(&mut state);
    keys
}

static KEYS: Keys = make_keys();

/// The key of a piece of `color` at height index `height` (0 = bottom) of `sq`.
#[inline(always)]
pub fn piece(sq: Square, height: usize, color: Color) -> u64 {
    KEYS.pieces[sq.index()][height][color.index()]
}

/// The key of a piece whose colour is stack bit `bit` (0 White, 1 Black).
#[inline(always)]
pub fn piece_bit(sq: Square, height: usize, bit: u32) -> u64 {
    KEYS.pieces[sq.index()][height][(bit & 1) as usize]
}

/// The key of a wall or capstone on top of `sq`; flats have none.
#[inline(always)]
pub fn role(sq: Square, role: Role) -> u64 {
    match role {
        Role::Flat => 0,
        Role::Wall => KEYS.roles[sq.index()][0],
        Role::Cap => KEYS.roles[sq.index()][1],
    }
}

/// The key toggled when Black is to move.
#[inline(always)]
pub fn black_to_move() -> u64 {
    KEYS.black_to_move
}

/// The key present while the opening swap (move 1) is in force.
#[inline(always)]
pub fn opening() -> u64 {
    KEYS.opening
}
