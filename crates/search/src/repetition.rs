//! Repetitions, for any game: [`PositionHashes`], the hashes of a game's positions with how
//! many reversible plies led to each.
//!
//! A game says which of its moves can never be undone (in Tak a placement, in Tablut a capture):
//! no position before such a move can come back. A position repeats when the same hash occurs
//! an even number of plies earlier (the same side to move) within the run of reversible plies
//! that led to it. The search extends a game's hashes along its path (a null move starts a new
//! run, as an irreversible move does), so the games, the engine, the tools and the search all
//! build them here.

/// The hashes of a game's positions, oldest first, each with the number of reversible plies
/// that led to it since the last irreversible one (or the start).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionHashes {
    hashes: Vec<u64>,
    reversible: Vec<u32>,
}

impl PositionHashes {
    /// The hashes of a game that starts at a position with hash `start`.
    pub fn new(start: u64) -> Self {
        PositionHashes {
            hashes: vec![start],
            reversible: vec![0],
        }
    }

    /// A copy with room for `extra` more positions (a search's path), so that pushing them does
    /// not allocate.
    pub fn with_room(&self, extra: usize) -> Self {
        let mut copy = PositionHashes {
            hashes: Vec::with_capacity(self.hashes.len() + extra),
            reversible: Vec::with_capacity(self.hashes.len() + extra),
        };
        copy.hashes.extend_from_slice(&self.hashes);
        copy.reversible.extend_from_slice(&self.reversible);
        copy
    }

    /// Records the position with hash `hash`; `fresh` when what led to it cannot be undone (an
    /// irreversible move, a null move or a new start), which begins a new run.
    #[inline]
    pub fn push(&mut self, hash: u64, fresh: bool) {
        let run = if fresh {
            0
        } else {
            self.reversible.last().map_or(0, |r| r + 1)
        };
        self.hashes.push(hash);
        self.reversible.push(run);
    }

    /// Forgets the last position.
    #[inline]
    pub fn pop(&mut self) {
        self.hashes.pop();
        self.reversible.pop();
    }

    /// The hash of the last position.
    pub fn last(&self) -> Option<u64> {
        self.hashes.last().copied()
    }

    /// Positions recorded.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Whether the last position occurred before, with the same side to move, since the last
    /// irreversible ply.
    #[inline]
    pub fn is_repetition(&self) -> bool {
        let Some(last) = self.hashes.len().checked_sub(1) else {
            return false;
        };
        let run = self.reversible[last] as usize;
        let hash = self.hashes[last];
        (2..=run.min(last))
            .step_by(2)
            .any(|k| self.hashes[last - k] == hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_are_found_within_a_run_of_reversible_plies_only() {
        let mut hashes = PositionHashes::new(1);
        hashes.push(2, false);
        assert!(!hashes.is_repetition());
        hashes.push(1, false);
        assert!(hashes.is_repetition());
        // A fresh start (an irreversible move, a null move) in between: no repetition across it.
        hashes.push(3, true);
        hashes.push(1, false);
        assert!(!hashes.is_repetition());
        // An odd distance is the other side to move.
        hashes.push(1, false);
        assert!(!hashes.is_repetition());
        hashes.pop();
        hashes.pop();
        hashes.pop();
        assert!(hashes.is_repetition());
        assert_eq!((hashes.len(), hashes.last()), (3, Some(1)));
        let roomy = hashes.with_room(8);
        assert_eq!(roomy, hashes);
    }
}
