//! The PTN Ninja links of an analysis (`--link`): one position with its principal variation as
//! the game's moves, and an annotated game opened before its first blunder.

use super::annotate::{eval_comment, players, PlyNote};
use super::search::Searched;
use crate::chance::Mark;
use crate::ninja;
use cairn_search::score::Score;
use cairn_tak::board::Position;
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::{parse_file, PtnGame, PtnMove};

/// The PTN Ninja link of a position with the principal variation as its moves: the game starts
/// from the position's TPS, and its first ply carries the evaluation.
pub(super) fn position_link<const N: usize>(
    pos: &Position<N>,
    tps_text: &str,
    done: &Searched,
) -> Result<String, String> {
    let komi = pos.half_komi() as f64 / 2.0;
    let mut game = PtnGame {
        tags: vec![
            ("Size".to_string(), N.to_string()),
            ("Komi".to_string(), format!("{komi}")),
            ("TPS".to_string(), tps_text.to_string()),
        ],
        ..PtnGame::default()
    };
    let pv = done.lines.first().map(|l| l.pv.as_slice()).unwrap_or(&[]);
    for (i, text) in pv.iter().enumerate() {
        let mv: PtnMove = text
            .parse()
            .map_err(|e| format!("the principal variation: {e}"))?;
        let comments = if i == 0 {
            vec![eval_comment(done.result.score, done.result.depth)]
        } else {
            Vec::new()
        };
        game.plies.push(PtnPly::new(mv, comments));
    }
    let name = format!("cairn analyze: {}", Score::short(done.result.score));
    Ok(ninja::link(&game, Some(&name), Some((0, false))))
}

/// The PTN Ninja link of an annotated game (`ptn`, the annotated text of `game`): it opens at
/// the first blunder, before it is played, or else at the start.
pub(super) fn game_link(ptn: &str, game: &PtnGame, notes: &[PlyNote]) -> String {
    let first_blunder = notes.iter().position(|n| n.mark == Some(Mark::Blunder));
    let name = format!("{} (cairn analyze)", players(game));
    // The annotated text is our own PTN and reads back; were it not to, the game unannotated.
    let annotated = parse_file(ptn)
        .ok()
        .and_then(|mut games| games.drain(..).next());
    if annotated.is_none() {
        log::warn!("the annotated game does not read back; its link has no annotations");
    }
    let linked = annotated.as_ref().unwrap_or(game);
    ninja::link(linked, Some(&name), first_blunder.map(|i| (i, false)))
}
