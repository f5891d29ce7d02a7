//! Tuning data from games played elsewhere: every position of the games in PTN files (a match
//! runner's output, say: Cairn against Tiltak, or Tiltak against itself) as data lines of
//! [`super::selfplay`]'s format, without a score column.
//!
//! Only games whose end the rules confirm are used: the final position is a road or a flat end,
//! or the game is written as a draw (repetition, a runner's move cap). Games lost on time or
//! abandoned say nothing about their positions and are skipped, as are games of another size and
//! games that do not replay (each named in a warning on stderr). Positions are kept as in
//! self-play: not the two opening plies, not where the side to move can end the game at once.

use crate::board::Position;
use crate::notation::ptn_game::{self, PtnGame};
use crate::notation::tps;
use std::io::Write;

/// What an import read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportStats {
    /// Games in the files.
    pub games: usize,
    /// Games whose positions were written.
    pub used: usize,
    /// Games of another size.
    pub other_size: usize,
    /// Games without a result on the board (time losses, unfinished games).
    pub no_result: usize,
    /// Games that do not replay by the rules.
    pub bad: usize,
    /// Data lines written.
    pub positions: usize,
}

/// The data lines of one game at size `N`, or why it is skipped.
fn game_lines<const N: usize>(game: &PtnGame) -> Result<Vec<String>, Skip> {
    match game.size() {
        Ok(n) if n == N => {}
        Ok(_) => return Err(Skip::Size),
        Err(e) => return Err(Skip::Bad(e.to_string())),
    }
    let played = ptn_game::replay::<N>(game).map_err(|e| Skip::Bad(e.to_string()))?;
    let label = match (played.result, game.result.as_deref()) {
        (Some(result), _) => result.ptn(),
        (None, Some("1/2-1/2")) => "1/2-1/2",
        _ => return Err(Skip::NoResult),
    };
    let half_komi = played.start.half_komi();
    let mut pos: Position<N> = played.start.clone();
    let mut lines = Vec::new();
    for &mv in &played.moves {
        if !pos.is_opening() && pos.winning_move().is_none() && pos.flat_win_in_one().is_none() {
            lines.push(format!("{}\t{label}\t{half_komi}", tps::to_tps(&pos)));
        }
        pos.make(mv);
    }
    Ok(lines)
}

enum Skip {
    Size,
    NoResult,
    Bad(String),
}

/// Writes the positions of the size-`N` games in the PTN `text` (from `source`, for messages) to
/// `out`. A file that is not PTN at all is an error naming the line.
pub fn import_ptn<const N: usize>(
    text: &str,
    source: &str,
    out: &mut dyn Write,
    stats: &mut ImportStats,
) -> Result<(), String> {
    let games = ptn_game::parse_file(text).map_err(|e| format!("{source}: {e}"))?;
    for (i, game) in games.iter().enumerate() {
        stats.games += 1;
        match game_lines::<N>(game) {
            Ok(lines) => {
                stats.used += 1;
                stats.positions += lines.len();
                for line in lines {
                    writeln!(out, "{line}").map_err(|e| e.to_string())?;
                }
            }
            Err(Skip::Size) => stats.other_size += 1,
            Err(Skip::NoResult) => stats.no_result += 1,
            Err(Skip::Bad(why)) => {
                stats.bad += 1;
                log::warn!("{source}: game {}: skipped: {why}", i + 1);
            }
        }
    }
    Ok(())
}
