//! Quiet-move history and killer moves, per search thread.
//!
//! History is indexed by the side to move and the move's dense key ([`Move::key`]).
//! Updates use the "gravity" formula, so scores saturate smoothly at ±`HISTORY_MAX`.

use super::params::{HISTORY_MAX, MAX_PLY};
use crate::board::{Color, Move};

const SLOTS: usize = Move::KEYS;

/// Per-thread move-ordering memory.
pub struct History {
    table: Vec<i16>,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
}

impl Default for History {
    fn default() -> Self {
        History {
            table: vec![0; 2 * SLOTS],
            killers: [[None; 2]; MAX_PLY + 2],
        }
    }
}

#[inline(always)]
fn slot(color: Color, mv: Move) -> usize {
    color.index() * SLOTS + mv.key()
}

impl History {
    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// The history score of `mv` for `color`.
    #[inline(always)]
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.table[slot(color, mv)] as i32
    }

    /// Rewards (`bonus > 0`) or punishes (`bonus < 0`) `mv`.
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.table[slot(color, mv)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let value = *entry as i32;
        *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
    }

    /// The killer moves at `ply`.
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// Records a quiet cutoff move at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
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
