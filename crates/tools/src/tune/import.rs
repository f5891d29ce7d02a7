//! Tuning data from games played elsewhere: every position of the games in PTN files (a match
//! runner's output, say: Cairn against Tiltak, or Tiltak against itself) as data lines of
//! [`super::selfplay`]'s format, without a score column.
//!
//! Only games whose end the rules confirm are used: the final position is a road or a flat end,
//! or the game is written as a draw (repetition, a runner's move cap). Games lost on time or
//! abandoned say nothing about their positions and are skipped, as are games of another size and
//! games that do not replay (each named in a warning on stderr). Positions are kept as in
//! self-play: not the two opening plies, not where the side to move can end the game at once.
//!
//! With a [`Teacher`], the evaluations an engine wrote in its plies' comments (a match runner
//! such as racetrack writes `{-0.45/12 0.65s}`: the score from White's point of view, then the
//! depth and time) become the score column of the positions it moved from. A stronger engine's
//! judgement of each position is a far less noisy target than the game's one result
//! (distillation); the tuner blends the two by `--lambda`.

use super::selfplay::{Summary, SCORE_CLAMP};
use cairn_tak::board::{Color, GameResult, Position};
use cairn_tak::notation::ptn_game::{self, PtnGame};
use cairn_tak::notation::tps;
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
    /// Data lines with a teacher's score.
    pub scored: usize,
    /// The games used, by result, and their data lines: the data file's closing line (a draw
    /// the rules did not make, by repetition or a runner's move cap, counts as unfinished).
    pub summary: Summary,
}

/// How the evaluations in a teacher engine's comments are written (the values of
/// `--teacher-units`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TeacherUnits {
    /// An expected score from -1 (Black wins) to +1 (White wins), as Tiltak reports.
    Expectation,
    /// Flats from White's point of view, as Cairn reports.
    Flats,
}

/// Whose comments give the positions' scores, and how to read them.
#[derive(Clone, Debug, PartialEq)]
pub struct Teacher {
    /// A part of the teacher's player tag (`Player1` for White, `Player2` for Black).
    pub name: String,
    /// The units of its comments.
    pub units: TeacherUnits,
    /// The logistic scale that turns an expected score into centiflats (`score = logit(p) / k`).
    pub k: f64,
}

/// Expected scores are kept this far from certainty, so that a sure-looking position maps to a
/// large but finite score.
const TEACHER_MAX_CONFIDENCE: f64 = 0.99;

impl Teacher {
    /// Whether the teacher played `color`'s plies in `game`.
    fn plays(&self, game: &PtnGame, color: Color) -> bool {
        let tag = match color {
            Color::White => "Player1",
            Color::Black => "Player2",
        };
        game.tag(tag).is_some_and(|p| p.contains(&self.name))
    }

    /// The score in centiflats for the side to move `to_move` that a comment such as
    /// `-0.45/12 0.65s` gives, if it starts with a number.
    fn score(&self, comment: &str, to_move: Color) -> Option<i32> {
        let number = comment.trim().split(['/', ' ']).next()?;
        let value: f64 = number.parse().ok().filter(|v: &f64| v.is_finite())?;
        let white = match self.units {
            TeacherUnits::Flats => value * 100.0,
            TeacherUnits::Expectation => {
                let p = ((1.0 + value) / 2.0)
                    .clamp(1.0 - TEACHER_MAX_CONFIDENCE, TEACHER_MAX_CONFIDENCE);
                (p / (1.0 - p)).ln() / self.k
            }
        };
        let own = match to_move {
            Color::White => white,
            Color::Black => -white,
        };
        Some((own.round() as i32).clamp(-SCORE_CLAMP, SCORE_CLAMP))
    }
}

/// The result of one game at size `N` (`None`: a draw the rules did not make) and its data
/// lines, or why it is skipped.
fn game_lines<const N: usize>(
    game: &PtnGame,
    teacher: Option<&Teacher>,
) -> Result<(Option<GameResult>, Vec<String>), Skip> {
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
    for (&mv, ply) in played.moves.iter().zip(&game.plies) {
        if !pos.is_opening() && pos.winning_move().is_none() && pos.flat_win_in_one().is_none() {
            let mut line = format!("{}\t{label}\t{half_komi}", tps::to_tps(&pos));
            let to_move = pos.side_to_move();
            let score = teacher
                .filter(|t| t.plays(game, to_move))
                .and_then(|t| ply.comments.iter().find_map(|c| t.score(c, to_move)));
            if let Some(score) = score {
                line.push_str(&format!("\t{score}"));
            }
            lines.push(line);
        }
        pos.make(mv);
    }
    Ok((played.result, lines))
}

enum Skip {
    Size,
    NoResult,
    Bad(String),
}

/// Writes the positions of the size-`N` games in the PTN `text` (from `source`, for messages) to
/// `out`, with `teacher`'s scores where it gives them. A file that is not PTN at all is an error
/// naming the line.
pub fn import_ptn<const N: usize>(
    text: &str,
    source: &str,
    teacher: Option<&Teacher>,
    out: &mut dyn Write,
    stats: &mut ImportStats,
) -> Result<(), String> {
    let games = ptn_game::parse_file(text).map_err(|e| format!("{source}: {e}"))?;
    for (i, game) in games.iter().enumerate() {
        stats.games += 1;
        match game_lines::<N>(game, teacher) {
            Ok((result, lines)) => {
                stats.used += 1;
                stats.summary.add(result, lines.len());
                stats.positions += lines.len();
                stats.scored += lines.iter().filter(|l| l.split('\t').count() == 4).count();
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
