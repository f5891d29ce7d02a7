//! Opening books: one opening per line, plies in PTN separated by spaces (racetrack's format).
//! Blank lines and lines starting with `#` are skipped. Every opening is replayed when the book
//! is loaded, so a bad line is reported with its line number before any game starts.

use cairn_tak::board::Position;
use cairn_tak::notation::parse_move;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_the_committed_books() {
        for size in 4..=8 {
            for plies in [2, 4] {
                let path = format!(
                    "{}/../../openings/{size}s_{plies}ply.txt",
                    env!("CARGO_MANIFEST_DIR")
                );
                let text = std::fs::read_to_string(&path).expect("committed book");
                let book = cairn_tak::with_size!(size, |N| load::<N>(&text), else unreachable!())
                    .unwrap_or_else(|e| panic!("{path}: {e}"));
                assert_eq!(book.len(), text.lines().count(), "{path}");
                assert!(book.iter().all(|o| o.len() == plies), "{path}");
                // Written back in canonical PTN, the openings are the file itself.
                let again: String = book.iter().map(|o| o.join(" ") + "\n").collect();
                assert_eq!(again, text, "{path}");
            }
        }
    }
}
