//! Every distinct line of K plies from the empty board, up to symmetry and transposition.
//!
//! Lines are grown one ply at a time. After each ply the new positions are keyed by a 128-bit
//! canonical key (the smallest key over the 8 board symmetries, see [`canonical_key`]) and only
//! the first line reaching each key is kept, "first" meaning the smallest (parent index, move
//! index in generation order). Keeping one line per position at every ply loses nothing: a
//! symmetry maps legal moves to legal moves, so whatever follows a dropped line also follows,
//! mirrored, from the kept one. Two lines that reach the same position up to symmetry by
//! different move orders (transpositions) are therefore one opening.
//!
//! The tree is stored as one `(parent, move)` pair per kept line and ply (8 bytes), so even the
//! ~16 million 4-ply lines of 8×8 fit in a few hundred MB while they are sorted.

use cairn_search::rng::mix;
use cairn_tak::board::{transform_square, Geo, Move, Position, Role, Square};
use cairn_tak::movegen::MoveList;
use rayon::prelude::*;

/// The kept lines of every ply: `levels[k]` holds the lines of `k + 1` plies as
/// `(index of the parent line in levels[k - 1], last move)`, in enumeration order.
pub struct Enumeration<const N: usize> {
    levels: Vec<Vec<(u32, Move)>>,
}

impl<const N: usize> Enumeration<N> {
    /// Plies per line.
    pub fn plies(&self) -> usize {
        self.levels.len()
    }

    /// The number of distinct lines of the full length (1 for zero plies: the empty line).
    pub fn len(&self) -> usize {
        self.levels.last().map_or(1, Vec::len)
    }

    /// Whether there is no line at all (never the case from the empty board).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of distinct lines after each ply, ply 1 first.
    pub fn counts(&self) -> Vec<usize> {
        self.levels.iter().map(Vec::len).collect()
    }

    /// The moves of full-length line `index`, first ply first.
    pub fn line(&self, index: usize) -> Vec<Move> {
        line_of(&self.levels, self.levels.len(), index)
    }

    /// The position at the end of full-length line `index`.
    pub fn position(&self, index: usize) -> Position<N> {
        replay(&self.line(index))
    }
}

/// The moves of line `index` of `depth` plies, first ply first.
fn line_of(levels: &[Vec<(u32, Move)>], depth: usize, index: usize) -> Vec<Move> {
    let mut moves = vec![None; depth];
    let mut index = index;
    for k in (0..depth).rev() {
        let (parent, mv) = levels[k][index];
        moves[k] = Some(mv);
        index = parent as usize;
    }
    moves.into_iter().flatten().collect()
}

/// Plays `moves` from the empty board (they must be legal).
pub fn replay<const N: usize>(moves: &[Move]) -> Position<N> {
    let mut pos = Position::<N>::start();
    for &mv in moves {
        debug_assert!(pos.is_legal(mv), "replayed move {} is legal", mv.ptn::<N>());
        pos.make(mv);
    }
    pos
}

/// Enumerates every distinct line of `plies` plies from the empty board (up to symmetry and
/// transposition). With `placements_only`, plies after the opening swap are placements (flats,
/// walls, capstones) only. `progress(ply, parents done, parents)` is called as work goes on,
/// from any thread.
pub fn enumerate<const N: usize>(
    plies: usize,
    placements_only: bool,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Enumeration<N> {
    let mut levels: Vec<Vec<(u32, Move)>> = Vec::with_capacity(plies);
    for ply in 1..=plies {
        let parents = levels.last().map_or(1, Vec::len);
        let done = std::sync::atomic::AtomicUsize::new(0);
        // (key, parent, move index, move): sorting by the first three keeps the first line per
        // key, in an order that does not depend on the number of threads.
        let mut children: Vec<(u128, u32, u16, Move)> = (0..parents)
            .into_par_iter()
            .with_min_len(64)
            .flat_map_iter(|parent| {
                let mut pos = if ply == 1 {
                    Position::<N>::start()
                } else {
                    replay(&line_of(&levels, ply - 1, parent))
                };
                let mut moves = MoveList::new();
                pos.generate_moves(&mut moves);
                let mut out = Vec::with_capacity(moves.len());
                for (i, &mv) in moves.iter().enumerate() {
                    if placements_only && !mv.is_placement() {
                        continue;
                    }
                    let undo = pos.make(mv);
                    out.push((canonical_key(&pos), parent as u32, i as u16, mv));
                    pos.unmake(mv, undo);
                }
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(ply, n, parents);
                out
            })
            .collect();
        children.par_sort_unstable_by_key(|&(key, parent, i, _)| (key, parent, i));
        children.dedup_by_key(|c| c.0);
        children.par_sort_unstable_by_key(|&(_, parent, i, _)| (parent, i));
        levels.push(children.into_iter().map(|(_, p, _, mv)| (p, mv)).collect());
    }
    Enumeration { levels }
}

/// A 128-bit pseudo-random value for "this stack content on square index `sq`".
fn term(sq: usize, content: u128) -> u128 {
    let a = mix(content as u64 ^ (sq as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let b = mix((content >> 64) as u64 ^ a.rotate_left(23) ^ 0x2545_F491_4F6C_DD1D);
    let lo = mix(a ^ b.rotate_left(7));
    let hi = mix(b ^ lo.wrapping_add(0xD6E8_FEB8_6659_FD93));
    (hi as u128) << 64 | lo as u128
}

/// The exact content of a stack in one number: colours (bit `i` = piece `i` from the bottom,
/// 1 for Black), the height from bit 104 and the top's role from bit 112.
fn content<const N: usize>(pos: &Position<N>, sq: Square) -> u128 {
    let mut bits = 0u128;
    for (i, color) in pos.stack_colors(sq).enumerate() {
        bits |= (color.index() as u128) << i;
    }
    let role = match pos.top(sq) {
        Some((_, Role::Flat)) | None => 0u128,
        Some((_, Role::Wall)) => 1,
        Some((_, Role::Cap)) => 2,
    };
    bits | (pos.height(sq) as u128) << 104 | role << 112
}

/// The position's key under each of the 8 symmetries (index = symmetry, as in
/// [`Position::transformed`]). Keys hash the stacks square by square (128 bits, so a collision
/// among even 10^9 positions has odds below 10^-20) plus the ply.
pub fn symmetry_keys<const N: usize>(pos: &Position<N>) -> [u128; 8] {
    let base = term(64, pos.ply() as u128);
    let mut keys = [base; 8];
    for sq in pos.occupied() & Geo::<N>::board() {
        let c = content(pos, sq);
        for (s, key) in keys.iter_mut().enumerate() {
            *key ^= term(transform_square::<N>(sq, s as u8).index(), c);
        }
    }
    keys
}

/// The key of the position up to symmetry: the smallest of its [`symmetry_keys`].
pub fn canonical_key<const N: usize>(pos: &Position<N>) -> u128 {
    symmetry_keys(pos).into_iter().min().expect("8 keys")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_transforms() {
        let moves = ["a1", "b3", "c3", "Sd1", "c3<"];
        let mut pos = Position::<5>::start();
        for m in moves {
            let mv = cairn_tak::notation::parse_move(&pos, m).unwrap();
            pos.make(mv);
        }
        let keys = symmetry_keys(&pos);
        for s in 0..8u8 {
            let t = pos.transformed(s);
            assert_eq!(symmetry_keys(&t)[0], keys[s as usize], "symmetry {s}");
            assert_eq!(canonical_key(&t), canonical_key(&pos));
        }
        // The same pieces one ply later (other side to move) are another position.
        let mut later = pos.clone();
        later.make_null();
        assert_ne!(canonical_key(&later), canonical_key(&pos));
    }
}
