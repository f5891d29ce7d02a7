//! Quiet-move history and killer moves, per search thread.
//!
//! History is indexed by the side to move and the move's dense key ([`SearchMove::key`]).
//! Updates use the "gravity" formula, so scores saturate smoothly at ±`HISTORY_MAX`.

use super::game::SearchMove;
use super::params::{HISTORY_MAX, MAX_PLY};

/// Per-thread move-ordering memory.
pub struct History<M> {
    table: Vec<i16>,
    killers: [[Option<M>; 2]; MAX_PLY + 2],
}

impl<M: SearchMove> Default for History<M> {
    fn default() -> Self {
        History {
            table: vec![0; 2 * M::KEYS],
            killers: [[None; 2]; MAX_PLY + 2],
        }
    }
}

/// The table index of `mv` for `side` (0 or 1).
#[inline(always)]
fn slot<M: SearchMove>(side: usize, mv: M) -> usize {
    side * M::KEYS + mv.key()
}

impl<M: SearchMove> History<M> {
    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// The history score of `mv` for `side`.
    #[inline(always)]
    pub fn score(&self, side: usize, mv: M) -> i32 {
        self.table[slot(side, mv)] as i32
    }

    /// Rewards (`bonus > 0`) or punishes (`bonus < 0`) `mv`.
    #[inline]
    pub fn update(&mut self, side: usize, mv: M, bonus: i32) {
        let entry = &mut self.table[slot(side, mv)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let value = *entry as i32;
        *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
    }

    /// The killer moves at `ply`.
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers[ply]
    }

    /// Records a quiet cutoff move at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: M) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Clears the killers two plies down (called on entering a ply).
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply + 2] = [None; 2];
    }
}
