//! Opening books: one opening per line, plies in PTN separated by spaces (racetrack's format).
//! Blank lines and lines starting with `#` are skipped. Every opening is replayed when the book
//! is loaded, so a bad line is reported with its line number before any game starts.

use crate::board::Position;
use crate::notation::parse_move;

/// Reads a book for an `N`×`N` board.
pub fn load<const N: usize>(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut pos = Position::<N>::start();
        let mut plies = Vec::new();
        for (j, text) in line.split_whitespace().enumerate() {
            if pos.is_over() {
                return Err(format!(
                    "line {}: the game is over before ply {}",
                    i + 1,
                    j + 1
                ));
            }
            let mv = parse_move(&pos, text)
                .map_err(|e| format!("line {}, ply {}: {e}", i + 1, j + 1))?;
            pos.make(mv);
            plies.push(mv.ptn::<N>().to_string());
        }
        openings.push(plies);
    }
    Ok(openings)
}
