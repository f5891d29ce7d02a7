//! Reading the PTN files: every game of every file, each either ready to scan or with the error
//! that keeps it out (named by file, game and, for a bad ply, the ply).

use cairn_tak::notation::{parse_file, PtnGame};
use std::path::PathBuf;

/// One game of the input, or why it cannot be read.
pub struct Job {
    /// Index of its file in the arguments.
    pub file: usize,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// The game, or the syntax error that keeps it out.
    pub parsed: Result<PtnGame, String>,
}

/// Reads every file; a file that cannot be read is an error for the whole run. A file with a
/// syntax error is read game by game ([`chunks`]), so that only the broken games are lost.
pub fn read(files: &[PathBuf]) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::new();
    for (file, path) in files.iter().enumerate() {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        match parse_file(&text) {
            Ok(games) => jobs.extend(games.into_iter().enumerate().map(|(i, game)| Job {
                file,
                game: i + 1,
                parsed: Ok(game),
            })),
            Err(_) => {
                let mut game = 0;
                for (first_line, chunk) in chunks(&text) {
                    match parse_file(chunk) {
                        Ok(games) => {
                            for g in games {
                                game += 1;
                                jobs.push(Job {
                                    file,
                                    game,
                                    parsed: Ok(g),
                                });
                            }
                        }
                        Err(mut e) => {
                            game += 1;
                            e.line += first_line - 1;
                            jobs.push(Job {
                                file,
                                game,
                                parsed: Err(e.to_string()),
                            });
                        }
                    }
                }
            }
        }
    }
    Ok(jobs)
}

/// The text of a file cut before each tag line that follows move text (where the PTN reader
/// starts a new game), each piece with its first line's 1-based number.
fn chunks(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut start_line = 1;
    let mut in_moves = false;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            if in_moves {
                out.push((start_line, &text[start..offset]));
                start = offset;
                start_line = i + 1;
                in_moves = false;
            }
        } else if !trimmed.is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    if start < text.len() {
        out.push((start_line, &text[start..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_start_at_tags_after_moves() {
        let text = "[Size \"4\"]\n\n1. a1 d4\n[Size \"4\"]\n[Komi \"0\"]\n1. a1 zz\n";
        let pieces = chunks(text);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0], (1, "[Size \"4\"]\n\n1. a1 d4\n"));
        assert_eq!(pieces[1].0, 4);
        assert!(pieces[1].1.ends_with("zz\n"));
    }
}
