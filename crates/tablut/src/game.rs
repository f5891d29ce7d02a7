//! A Tablut game: a position with the history that led to it, how the game stands, repetitions
//! included, and the count of its move tree (perft), which needs them.

use super::board::{Move, Position, Side};
use super::notation::{self, NotationError};
use cairn_search::repetition::PositionHashes;
use smallvec::SmallVec;
use std::fmt;

/// How a finished game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The king reached an edge square.
    Escape,
    /// The king was captured.
    Capture,
    /// The loser had no legal move.
    NoMoves,
    /// The loser's move brought back an earlier position.
    Repetition,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move is to play.
    Ongoing,
    /// Won by `0`, as `1` says.
    Won(Side, Ending),
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => write!(f, "the game goes on"),
            Status::Won(side, ending) => {
                let how = match ending {
                    Ending::Escape => "the king escaped",
                    Ending::Capture => "the king was captured",
                    Ending::NoMoves => "the other side has no legal move",
                    Ending::Repetition => "the other side repeated a position",
                };
                write!(f, "{} wins: {how}", side.name())
            }
        }
    }
}

/// A Tablut game in progress: a position with the hashes of the positions before it, and
/// whether the last move repeated one.
#[derive(Clone, Debug)]
pub struct TablutGame {
    position: Position,
    hashes: PositionHashes,
    repeated: bool,
}

impl TablutGame {
    /// A game from `position` (nothing before it is known).
    pub fn new(position: Position) -> TablutGame {
        TablutGame {
            hashes: PositionHashes::new(position.hash()),
            position,
            repeated: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The hashes of the game's positions, the current position last.
    pub fn hashes(&self) -> &PositionHashes {
        &self.hashes
    }

    /// How the game stands.
    pub fn status(&self) -> Status {
        let mover = self.position.side_to_move().other();
        if let Some(winner) = self.position.winner() {
            let ending = if winner == Side::White {
                Ending::Escape
            } else {
                Ending::Capture
            };
            return Status::Won(winner, ending);
        }
        if self.repeated {
            return Status::Won(mover.other(), Ending::Repetition);
        }
        if self.position.legal_moves().is_empty() {
            return Status::Won(mover, Ending::NoMoves);
        }
        Status::Ongoing
    }

    /// Plays `mv` if the game goes on and the move is legal.
    pub fn play(&mut self, mv: Move) -> Result<(), NotationError> {
        if self.status() != Status::Ongoing {
            return Err(NotationError::Illegal(mv.to_string(), "the game is over"));
        }
        if let Some(why) = self.position.why_illegal(mv) {
            return Err(NotationError::Illegal(mv.to_string(), why));
        }
        let undo = self.position.make(mv);
        let fresh = undo.is_irreversible();
        self.hashes.push(self.position.hash(), fresh);
        self.repeated = self.hashes.is_repetition();
        Ok(())
    }

    /// Counts the leaves of the move tree `depth` plies deep (perft) by the rules of the game: a
    /// won game has nothing below it, whether the king escaped or was captured, the side to
    /// move has no legal move, or the last move brought back an earlier position, of the game
    /// before this one or of the line in the tree. The move that wins is a leaf of its depth.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.status() != Status::Ongoing {
            return u64::from(depth == 0);
        }
        let mut position = self.position.clone();
        let mut hashes = self.hashes.with_room(depth as usize);
        perft_below(&mut position, &mut hashes, depth)
    }

    /// Plays moves in coordinates, separated by spaces; an error names the move (1-based) that
    /// failed.
    pub fn play_line(&mut self, moves: &str) -> Result<(), String> {
        for (i, text) in moves.split_whitespace().enumerate() {
            let mv = notation::parse_move_text(text).map_err(|e| format!("move {}: {e}", i + 1))?;
            self.play(mv).map_err(|e| format!("move {}: {e}", i + 1))?;
        }
        Ok(())
    }
}

/// [`TablutGame::perft`] below a position that goes on, with `hashes` (the game's positions) ending at it.
fn perft_below(position: &mut Position, hashes: &mut PositionHashes, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves: SmallVec<[Move; 128]> = SmallVec::new();
    position.generate(&mut moves);
    if depth == 1 {
        // Every legal move is a leaf, a winning one too.
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        let undo = position.make(mv);
        hashes.push(position.hash(), undo.is_irreversible());
        // An escape or a capture of the king leaves no move to generate; a repetition has to
        // be cut here.
        if !hashes.is_repetition() {
            total += perft_below(position, hashes, depth - 1);
        }
        hashes.pop();
        position.unmake(mv, undo);
    }
    total
}
