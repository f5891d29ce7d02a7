//! The evaluation graph of an annotated game (`--plot`): White's winning chance after each ply
//! with its mark and proven result, titled with the players, the result and the count of
//! blunders and mistakes, written to an SVG file.

use super::annotate::{players, PlyNote};
use crate::chance::Mark;
use crate::plot::{eval_svg, move_x, EvalGraph, EvalPoint};
use cairn_tak::board::{GameResult, Position};
use cairn_tak::notation::PtnGame;
use std::path::Path;

/// Draws the evaluation graph of `game` (from `start`, judged by `notes`, ended by `end` when
/// the moves end it) and writes it to `path`.
pub(super) fn write_plot<const N: usize>(
    path: &Path,
    game: &PtnGame,
    start: &Position<N>,
    notes: &[PlyNote],
    end: Option<GameResult>,
) -> Result<(), String> {
    let svg = eval_svg(&eval_graph(game, start, notes, end))?;
    std::fs::write(path, svg).map_err(|e| format!("--plot {}: {e}", path.display()))
}

/// The evaluation graph of an annotated game: White's chance after each ply.
fn eval_graph<const N: usize>(
    game: &PtnGame,
    start: &Position<N>,
    notes: &[PlyNote],
    end: Option<GameResult>,
) -> EvalGraph {
    let result = game
        .result
        .clone()
        .or_else(|| end.map(|r| r.ptn().to_string()))
        .unwrap_or_else(|| "*".to_string());
    let marks = |m: Mark| notes.iter().filter(|n| n.mark == Some(m)).count();
    let counted = |m: Mark| {
        let n = marks(m);
        format!("{n} {}{}", m.name(), if n == 1 { "" } else { "s" })
    };
    let title = format!(
        "{}, {result}: White's winning chance ({}, {})",
        players(game),
        counted(Mark::Blunder),
        counted(Mark::Mistake)
    );
    let points = notes
        .iter()
        .enumerate()
        .map(|(i, note)| EvalPoint {
            x: move_x(start.ply() + i as u32),
            white: note.white_chance(),
            mark: note.mark,
            proven: note
                .played
                .proven()
                .map(|(win, _, kind)| (if win { note.mover } else { !note.mover }, kind)),
        })
        .collect();
    EvalGraph { title, points }
}
