//! A game's history, for repetitions: [`History`] (the hashes of the positions played, with how
//! many reversible plies led to each) and [`Game`] (a position with the history that led to it).
//!
//! Only spreads are reversible: a placement adds a piece for good, so no position before it can
//! come back. A position repeats when the same hash occurs an even number of plies earlier (the
//! same side to move) within the run of spreads that led to it. The search extends a game's
//! history along its path (a null move starts a new run, as a placement does), so the engine,
//! the analysis, self-play, the tactics tools and the search all build it here.

use super::{Move, Position};

/// The hashes of a game's positions, oldest first, each with the number of reversible plies
/// (spreads) that led to it since the last placement (or the start).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    hashes: Vec<u64>,
    reversible: Vec<u32>,
}

impl History {
    /// The history of a game that starts at a position with hash `start`.
    pub fn new(start: u64) -> Self {
        History {
            hashes: vec![start],
            reversible: vec![0],
        }
    }

    /// A copy with room for `extra` more positions (a search's path), so that pushing them does
    /// not allocate.
    pub fn with_room(&self, extra: usize) -> Self {
        let mut copy = History {
            hashes: Vec::with_capacity(self.hashes.len() + extra),
            reversible: Vec::with_capacity(self.hashes.len() + extra),
        };
        copy.hashes.extend_from_slice(&self.hashes);
        copy.reversible.extend_from_slice(&self.reversible);
        copy
    }

    /// Records the position with hash `hash`, reached by `mv`.
    #[inline]
    pub fn push_move(&mut self, hash: u64, mv: Move) {
        self.push(hash, mv.is_placement());
    }

    /// Records the position with hash `hash`; `fresh` when what led to it cannot be undone (a
    /// placement, a null move or a new start), which begins a new run.
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
    /// placement.
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

/// A position with the history of the game that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<const N: usize> {
    position: Position<N>,
    history: History,
}

impl<const N: usize> Game<N> {
    /// A game starting at `position` (nothing before it is known).
    pub fn new(position: Position<N>) -> Self {
        Game {
            history: History::new(position.hash()),
            position,
        }
    }

    /// Plays `mv` (which must be legal).
    pub fn play(&mut self, mv: Move) {
        self.position.make(mv);
        self.history.push_move(self.position.hash(), mv);
    }

    /// The current position.
    pub fn position(&self) -> &Position<N> {
        &self.position
    }

    /// The history, the current position last.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether the current position repeats an earlier one.
    pub fn is_repetition(&self) -> bool {
        self.history.is_repetition()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    #[test]
    fn repetitions_are_found_within_a_run_of_spreads_only() {
        let mut game = Game::<5>::new(Position::start());
        let moves = ["a1", "e5", "c3", "b2", "c3>", "b2>", "d3<", "c2<"];
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_move(game.position(), text).unwrap();
            game.play(mv);
            // The last two spreads bring back the position after b2, four plies earlier.
            assert_eq!(game.is_repetition(), i == moves.len() - 1, "after {text}");
        }
        assert_eq!(game.history().len(), moves.len() + 1);
        assert_eq!(game.history().last(), Some(game.position().hash()));

        let mut history = History::new(1);
        history.push(2, false);
        history.push(1, false);
        assert!(history.is_repetition());
        // A fresh start (placement, null move) in between: no repetition across it.
        history.push(3, true);
        history.push(1, false);
        assert!(!history.is_repetition());
        history.pop();
        history.pop();
        assert!(history.is_repetition());
        let roomy = history.with_room(8);
        assert_eq!(roomy, history);
    }
}
