//! Quiet-move history and killer moves, per search thread.
//!
//! History is indexed by the side to move and the move's dense key ([`SearchMove::key`]).
//! Updates use the "gravity" formula, so scores saturate smoothly at ±`HISTORY_MAX`.
//!
//! Correction history: per side to move and for each of the game's two correction keys
//! ([`super::SearchGame::correction_keys`]), a running average of how far the search's result
//! at a node was from the static evaluation, which then corrects the evaluation of positions
//! that share those keys.

use super::game::SearchMove;
use super::params::*;

/// One search thread's learned tables: the history scores of moves, the correction history of
/// the evaluation, and the killer moves of each ply.
pub struct HistoryTables<M> {
    table: Vec<i16>,
    corrections: Vec<i16>,
    killers: [[Option<M>; 2]; MAX_PLY + 2],
}

impl<M: SearchMove> Default for HistoryTables<M> {
    fn default() -> Self {
        HistoryTables {
            table: vec![0; 2 * M::KEYS],
            corrections: vec![0; 2 * 2 * CORR_SIZE],
            killers: [[None; 2]; MAX_PLY + 2],
        }
    }
}

/// The table index of `mv` for `side` (0 or 1).
#[inline(always)]
fn slot<M: SearchMove>(side: usize, mv: M) -> usize {
    side * M::KEYS + mv.key()
}

/// The correction table index of key number `k` (0 or 1) with value `key` for `side`.
#[inline(always)]
fn corr_slot(side: usize, k: usize, key: u64) -> usize {
    (side * 2 + k) * CORR_SIZE + (key as usize & (CORR_SIZE - 1))
}

impl<M: SearchMove> HistoryTables<M> {
    /// Clears everything (new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|h| *h = 0);
        self.corrections.iter_mut().for_each(|c| *c = 0);
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

    /// The correction (centiflats) to add to the static evaluation for `side` to move in a
    /// position with correction keys `keys`.
    #[inline]
    pub fn correction(&self, side: usize, keys: [u64; 2]) -> i32 {
        let sum: i32 = (0..2)
            .map(|k| self.corrections[corr_slot(side, k, keys[k])] as i32)
            .sum();
        sum / (2 * CORR_GRAIN)
    }

    /// Moves the corrections for `side` and `keys` toward `error` (the search's result minus
    /// the raw static evaluation), the more the deeper the search was.
    #[inline]
    pub fn update_correction(&mut self, side: usize, keys: [u64; 2], error: i32, depth: i32) {
        let target = error.clamp(-CORR_LIMIT, CORR_LIMIT) * CORR_GRAIN;
        let weight = (depth + 1).min(CORR_MAX_WEIGHT);
        for (k, &key) in keys.iter().enumerate() {
            let entry = &mut self.corrections[corr_slot(side, k, key)];
            let value = *entry as i32;
            *entry = (value + (target - value) * weight / 256) as i16;
        }
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
