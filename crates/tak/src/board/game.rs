//! A Tak game in progress: [`TakGame`], a position with the hashes of the positions before
//! it ([`PositionHashes`]), for repetitions.
//!
//! Only spreads are reversible: a placement adds a piece for good, so no position before it can
//! come back.

use super::{Move, Position};
use cairn_search::repetition::PositionHashes;

/// A position with the hashes of the game's positions that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakGame<const N: usize> {
    position: Position<N>,
    hashes: PositionHashes,
}

impl<const N: usize> TakGame<N> {
    /// A game starting at `position` (nothing before it is known).
    pub fn new(position: Position<N>) -> Self {
        TakGame {
            hashes: PositionHashes::new(position.hash()),
            position,
        }
    }

    /// Plays `mv` (which must be legal).
    pub fn play(&mut self, mv: Move) {
        self.position.make(mv);
        self.hashes.push(self.position.hash(), mv.is_placement());
    }

    /// The current position.
    pub fn position(&self) -> &Position<N> {
        &self.position
    }

    /// The hashes of the game's positions, the current position last.
    pub fn hashes(&self) -> &PositionHashes {
        &self.hashes
    }

    /// Whether the current position repeats an earlier one.
    pub fn is_repetition(&self) -> bool {
        self.hashes.is_repetition()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    #[test]
    fn repetitions_are_found_within_a_run_of_spreads_only() {
        let mut game = TakGame::<5>::new(Position::start());
        let moves = ["a1", "e5", "c3", "b2", "c3>", "b2>", "d3<", "c2<"];
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_move(game.position(), text).unwrap();
            game.play(mv);
            // The last two spreads bring back the position after b2, four plies earlier.
            assert_eq!(game.is_repetition(), i == moves.len() - 1, "after {text}");
        }
        assert_eq!(game.hashes().len(), moves.len() + 1);
        assert_eq!(game.hashes().last(), Some(game.position().hash()));
    }
}
