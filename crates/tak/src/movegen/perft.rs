//! Perft: count the leaves of the legal move tree, to prove move generation correct and fast.
//!
//! Conventions (shared with the public reference counts): `perft(0) = 1`; at depth ≥ 1 a
//! finished game counts 0; at depth 1 the legal moves are counted in bulk from the pattern tables
//! instead of being generated and made. One reusable move list per ply keeps the recursion free
//! of allocation.

use super::MoveList;
use crate::board::{Move, Position};
use rayon::prelude::*;

/// Leaf count of the move tree of depth `depth`.
pub fn perft<const N: usize>(pos: &mut Position<N>, depth: u32) -> u64 {
    let mut lists = vec![MoveList::new(); depth as usize];
    count(pos, depth, &mut lists)
}

fn count<const N: usize>(pos: &mut Position<N>, depth: u32, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    if depth == 1 {
        return pos.count_moves();
    }
    let (moves, deeper) = lists.split_first_mut().expect("one list per ply");
    moves.clear();
    pos.generate_moves(moves);
    let mut leaves = 0;
    for &mv in moves.iter() {
        let undo = pos.make(mv);
        leaves += count(pos, depth - 1, deeper);
        pos.unmake(mv, undo);
    }
    leaves
}

/// The leaf count below each root move at `depth` (empty if the game is over or `depth` is 0),
/// computed on `threads` threads (1 = the calling thread). `progress` is called after each root
/// move with the number done so far and the total.
pub fn perft_divide<const N: usize>(
    pos: &Position<N>,
    depth: u32,
    threads: usize,
    progress: impl Fn(usize, usize) + Sync,
) -> Vec<(Move, u64)> {
    if depth == 0 || pos.is_over() {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let total = moves.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let below = |mv: Move| {
        let mut child = pos.clone();
        child.make(mv);
        let leaves = perft(&mut child, depth - 1);
        let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(finished, total);
        (mv, leaves)
    };
    if threads <= 1 {
        return moves.iter().map(|&mv| below(mv)).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(|&mv| below(mv)).collect()),
        Err(err) => {
            log::warn!("no thread pool ({err}); counting on one thread");
            moves.iter().map(|&mv| below(mv)).collect()
        }
    }
}

/// Leaf count of depth `depth`, with the root moves split over `threads` threads.
pub fn perft_parallel<const N: usize>(pos: &Position<N>, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(&mut pos.clone(), depth);
    }
    perft_divide(pos, depth, threads, |_, _| {})
        .iter()
        .map(|&(_, n)| n)
        .sum()
}
