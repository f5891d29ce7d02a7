//! Annotating a PTN game (`--game`): a search before every ply, each ply's note (its value for
//! the mover, the better move and the winning chance lost against it, the mark that loss earns),
//! and the game written back with the notes as comments and the marks as annotations, or as JSON
//! lines, an evaluation graph and a PTN Ninja link.

use super::json::{self, PlyJson};
use super::search::{search_plies, PlySearch};
use super::{graph, link, replay_with_komi, AnalyzeArgs};
use crate::chance::{percent, win_chance, Mark, Thresholds};
use cairn_search::score::Score;
use cairn_tak::board::{Color, Move, Position};
use cairn_tak::notation::PtnGame;
use std::fmt::Write as _;
use std::path::Path;

/// One annotated ply of a game.
pub(super) struct PlyNote {
    /// The mover.
    pub(super) mover: Color,
    /// The played move's value for the mover.
    pub(super) played: Score,
    /// The depth behind `played` (0 when the move ended the game).
    pub(super) depth: u32,
    /// The best move found before the ply and its value, when it was not the move played.
    pub(super) best: Option<(String, Score)>,
    /// The winning chance lost against the best move, in percentage points.
    pub(super) drop: f64,
    /// What the drop makes of the move.
    pub(super) mark: Option<Mark>,
}

impl PlyNote {
    /// The mover's winning chance after the move, in percent.
    pub(super) fn chance(&self) -> f64 {
        win_chance(self.played)
    }

    /// White's winning chance after the move, in percent.
    pub(super) fn white_chance(&self) -> f64 {
        match self.mover {
            Color::White => self.chance(),
            Color::Black => 100.0 - self.chance(),
        }
    }

    /// The PTN comment: `eval/depth chance`, and the better move where the ply is marked.
    fn comment(&self) -> String {
        let mut comment = eval_comment(self.played, self.depth);
        if let (Some(_), Some((best, score))) = (self.mark, &self.best) {
            let _ = write!(
                comment,
                " best {best} {} {}",
                Score::short(*score),
                percent(win_chance(*score))
            );
        }
        comment
    }
}

/// The comment of an evaluated ply: `eval/depth chance`, as `+0.45/12 56.5%`.
pub(super) fn eval_comment(score: Score, depth: u32) -> String {
    format!(
        "{}/{depth} {}",
        Score::short(score),
        percent(win_chance(score))
    )
}

/// `White vs Black` from the player tags (`?` where a tag is missing).
pub(super) fn players(game: &PtnGame) -> String {
    format!(
        "{} vs {}",
        game.tag("Player1").unwrap_or("?"),
        game.tag("Player2").unwrap_or("?")
    )
}

/// `--game FILE`: searches every position of the game once, then writes the annotated game.
pub(super) fn annotate<const N: usize>(
    args: &AnalyzeArgs,
    path: &Path,
    game: &PtnGame,
) -> Result<(), String> {
    let done = replay_with_komi::<N>(args, path, game)?;
    let start = &done.start;
    let searches = search_plies(args, start, &done.moves)?;
    let notes = ply_notes(
        start,
        &done.moves,
        &searches,
        Thresholds::with_blunder(args.blunder),
    );
    if let Some(plot) = &args.plot {
        graph::write_plot(plot, game, start, &notes, done.result)?;
    }
    if args.json {
        for (i, (note, ply)) in notes.iter().zip(&game.plies).enumerate() {
            json::print(&PlyJson::new(i + 1, ply, note))?;
        }
        return Ok(());
    }
    write_annotated(args, game, &notes)
}

/// The notes of every ply from the searches around it, replaying the game for its results.
fn ply_notes<const N: usize>(
    start: &Position<N>,
    moves: &[Move],
    searches: &[PlySearch],
    thresholds: Thresholds,
) -> Vec<PlyNote> {
    let mut pos = start.clone();
    let mut notes = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = pos.side_to_move();
        let (before, _, best) = searches[i].expect("a ply is only played before the game ends");
        pos.make(mv);
        let (played, depth) = match (pos.result(), searches[i + 1]) {
            (Some(result), _) => (cairn_tak::adapter::result_score(result, mover, 1), 0),
            (None, Some((after, depth, _))) => (-after, depth),
            (None, None) => unreachable!("a search exists wherever the game goes on"),
        };
        let played = match played.proven() {
            // One ply further from the position before the move.
            Some((win, plies, kind)) if depth > 0 => {
                if win {
                    Score::win_in(plies + 1, kind)
                } else {
                    Score::loss_in(plies + 1, kind)
                }
            }
            _ => played,
        };
        let best_other = best.filter(|&b| b != mv);
        let drop = match best_other {
            Some(_) => (win_chance(before) - win_chance(played)).max(0.0),
            None => 0.0,
        };
        notes.push(PlyNote {
            mover,
            played,
            depth,
            best: best_other.map(|b| (b.ptn::<N>().to_string(), before)),
            drop,
            mark: thresholds.mark(drop),
        });
    }
    notes
}

/// Writes the annotated game: to `--out`, and as PTN or (`--link`) a PTN Ninja link on stdout.
fn write_annotated(args: &AnalyzeArgs, game: &PtnGame, notes: &[PlyNote]) -> Result<(), String> {
    let mut annotated = game.clone();
    for (note, ply) in notes.iter().zip(annotated.plies.iter_mut()) {
        if let Some(mark) = note.mark {
            // Our judgement replaces any `!`/`?` the file had; Tak marks (`'`, `"`) stay.
            ply.annotations.retain(|c| c == '\'' || c == '"');
            ply.annotations.push_str(mark.ptn());
        }
        ply.comments.push(note.comment());
    }
    let text = annotated.to_ptn();
    if let Some(out) = &args.out {
        std::fs::write(out, &text).map_err(|e| format!("--out {}: {e}", out.display()))?;
    }
    if args.link {
        println!("{}", link::game_link(&text, game, notes));
    } else if args.out.is_none() {
        print!("{text}");
    }
    Ok(())
}
