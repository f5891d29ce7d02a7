//! Reviewing a PTN game (`--game`): the plies to judge, the searches, each ply's note and the
//! players' summaries ([`super::review`]), then the game written back with one comment per judged
//! ply, White's view, and the marks as annotations, ending with the summary; or the same review
//! as one JSON document, an evaluation graph and a PTN Ninja link.

use super::json::{self, GameJson};
pub(super) use super::review::PlyNote;
use super::review::{
    book_plies, kept_comment, ply_notes, search_game, summaries, white_view, PlayerSummary,
};
use super::{graph, link, replay_with_komi, text, AnalyzeArgs};
use crate::chance::{percent, win_chance, Thresholds};
use crate::output::OutputFile;
use cairn_search::score::Score;
use cairn_tak::board::Position;
use cairn_tak::notation::PtnGame;
use std::fmt::Write as _;
use std::path::Path;

/// A reviewed game.
pub(super) struct Review {
    /// One note per ply of the game.
    pub(super) notes: Vec<PlyNote>,
    /// The book plies before the first judged one.
    pub(super) book: usize,
    /// The position before the first judged ply, from White's view (`None` when the game was
    /// over by then).
    pub(super) opening: Option<Score>,
    /// White's and Black's summaries.
    pub(super) players: [PlayerSummary; 2],
    /// The result: the file's, else the one the moves reach, else `*`.
    pub(super) result: String,
}

/// The PTN comment of a judged ply, White's view: `eval/depth chance` (`+0.45/12 56.5%`), with
/// the better move and its value where the ply is marked; `None` for a book ply.
fn ply_comment(note: &PlyNote) -> Option<String> {
    let eval = note.eval.as_ref()?;
    let white = |s: Score| white_view(note.mover, s);
    let depth = if eval.by_prover {
        "tinue".to_string()
    } else {
        eval.depth.to_string()
    };
    let played = white(eval.played);
    let mut comment = format!(
        "{}/{depth} {}",
        Score::short(played),
        percent(win_chance(played))
    );
    if let (Some(_), Some((best, score))) = (note.mark, &eval.best) {
        let best_score = white(*score);
        let _ = write!(
            comment,
            " best {best} {} {}",
            Score::short(best_score),
            percent(win_chance(best_score))
        );
    }
    Some(comment)
}

/// The comment of an evaluated position for its side to move: `eval/depth chance`, as
/// `+0.45/12 56.5%`.
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

/// The files of a review, made before its searches: `--out` and `--plot`.
pub(super) struct Outputs {
    /// The annotated PTN.
    pub(super) out: Option<OutputFile>,
    /// The evaluation graph.
    pub(super) plot: Option<OutputFile>,
}

/// `--game FILE`: reviews the game, then writes it (PTN, JSON, graph, link).
pub(super) fn annotate<const N: usize>(
    args: &AnalyzeArgs,
    path: &Path,
    game: &PtnGame,
    outputs: Outputs,
) -> Result<(), String> {
    let done = replay_with_komi::<N>(args, path, game)?;
    let book = book_plies(game, args.from_ply).map_err(|e| format!("{}: {e}", path.display()))?;
    let start = &done.start;
    let known = search_game(args, start, &done.moves, book)?;
    let notes = ply_notes(
        start,
        &done.moves,
        &known,
        book,
        Thresholds::with_blunder(args.blunder),
    );
    let opening = opening_score(start, &done.moves, book, known[book].score());
    let review = Review {
        players: summaries(game, &notes),
        notes,
        book,
        opening,
        result: game
            .result
            .clone()
            .or_else(|| done.result.map(|r| r.ptn().to_string()))
            .unwrap_or_else(|| "*".to_string()),
    };
    // The PTN first: a graph that cannot be written loses nothing else.
    let written = if args.json {
        json::print(&GameJson::new::<N>(game, start, &review))
    } else {
        write_annotated(args, game, &review, outputs.out)
    };
    if let Some(plot) = outputs.plot {
        plot.commit(graph::plot_svg(game, start, &review)?)?;
    }
    written
}

/// The value of the position before ply `book`, White's view, from its side to move's `score`.
fn opening_score<const N: usize>(
    start: &Position<N>,
    moves: &[cairn_tak::board::Move],
    book: usize,
    score: Option<Score>,
) -> Option<Score> {
    let mut pos = start.clone();
    for &mv in &moves[..book] {
        pos.make(mv);
    }
    score.map(|s| white_view(pos.side_to_move(), s))
}

/// The annotated game: on a judged ply, the review's mark replaces any `!`/`?` the file had (Tak
/// marks `'` and `"` stay) and its comment follows the file's; the file's evaluations go, or stay
/// labelled with `--keep-comments`.
fn annotated_game(game: &PtnGame, review: &Review, keep: bool) -> PtnGame {
    let mut annotated = game.clone();
    let keep_all = |comments: &mut Vec<String>| {
        *comments = comments
            .iter()
            .filter_map(|c| kept_comment(c, keep))
            .collect();
    };
    keep_all(&mut annotated.comments);
    for (note, ply) in review.notes.iter().zip(annotated.plies.iter_mut()) {
        keep_all(&mut ply.comments);
        if let Some(comment) = ply_comment(note) {
            ply.annotations.retain(|c| c == '\'' || c == '"');
            if let Some(mark) = note.mark {
                ply.annotations.push_str(mark.ptn());
            }
            ply.comments.push(comment);
        }
    }
    annotated
}

/// Writes the reviewed game: the PTN, its last ply (before the result, where every PTN reader
/// takes a comment) ending with the summary as a comment, to `--out` or stdout; with `--out` or
/// `--link`, stdout has the link (if asked) and then the summary.
fn write_annotated(
    args: &AnalyzeArgs,
    game: &PtnGame,
    review: &Review,
    out: Option<OutputFile>,
) -> Result<(), String> {
    let mut annotated = annotated_game(game, review, args.keep_comments);
    let summary = text::review_summary(review);
    match annotated.plies.last_mut() {
        Some(last) => last.comments.push(summary.clone()),
        None => annotated.comments.push(summary.clone()),
    }
    let text = annotated.to_ptn();
    if let Some(out) = out {
        out.commit(&text)?;
    }
    if args.link {
        println!("{}", link::game_link(&text, game, &review.notes));
    }
    if args.out.is_none() && !args.link {
        print!("{text}");
    } else {
        println!("{summary}");
    }
    Ok(())
}
