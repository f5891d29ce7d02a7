//! The review of a game (`--game`), as lichess reviews one: which plies are judged (not the
//! opening book), a search before every judged ply and after the last one on one table, the tinue
//! prover after every judged move, each ply's note (its value, the better move, the winning chance
//! lost, the mark) and, per player, the marks, the average loss and an accuracy.
//!
//! Comments already in the file are sorted here too: an engine's evaluation (`{+0.68/10 0.42s}`,
//! as racetrack and `cairn match` write them, or an earlier review's) is replaced by the review's
//! own, or kept with a label; the file's other comments stay.

use super::search::{config, limits, run_search};
use super::{AnalyzeArgs, DEFAULT_GAME_MOVETIME_MS};
use crate::chance::{win_chance, Mark, Thresholds};
use crate::progress::Progress;
use cairn_search::score::{Score, WinKind};
use cairn_tak::board::{Color, Move, Position, TakGame};
use cairn_tak::notation::PtnGame;
use cairn_tak::tinue::{self, TinueLimits};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The first words of the review's summary comment at the end of the annotated game.
pub(super) const SUMMARY_HEAD: &str = "Review by cairn analyze";

/// The label of an earlier evaluation kept by `--keep-comments`.
pub(super) const EARLIER: &str = "earlier eval: ";

/// A move that loses this many percentage points of winning chance scores 50 % accuracy.
pub(super) const ACCURACY_HALF_LIFE: f64 = 15.0;

/// How many plies open the game as book, not judged: `--from-ply N` (the `N - 1` before ply
/// `N`), else the leading plies `cairn match` marks `{book}`, else, when the first comment of the
/// game is an engine's evaluation (racetrack's files), the plies before it.
pub(super) fn book_plies(game: &PtnGame, from_ply: Option<u32>) -> Result<usize, String> {
    if let Some(n) = from_ply {
        let plies = game.plies.len();
        if n as usize > plies {
            return Err(format!("--from-ply {n}, but the game has {plies} plies"));
        }
        return Ok(n as usize - 1);
    }
    let marked = game
        .plies
        .iter()
        .take_while(|p| p.comments.iter().any(|c| c.trim() == "book"))
        .count();
    if marked > 0 {
        return Ok(marked);
    }
    Ok(
        match game.plies.iter().position(|p| !p.comments.is_empty()) {
            Some(i) if game.plies[i].comments.iter().any(|c| is_eval_comment(c)) => i,
            _ => 0,
        },
    )
}

/// Whether a comment is an engine's evaluation: `+0.68/10 …`, `-R3/12 …`, `+F2/tinue …`
/// (flats with a sign or a decimal point, or a proven result, a slash, a depth), or one kept with
/// the
/// [`EARLIER`] label.
pub(super) fn is_eval_comment(comment: &str) -> bool {
    let comment = comment.trim();
    if comment.starts_with(EARLIER) {
        return true;
    }
    let first = comment.split_whitespace().next().unwrap_or("");
    let Some((value, depth)) = first.split_once('/') else {
        return false;
    };
    let signed = value.starts_with(['+', '-']);
    let value = value.strip_prefix(['+', '-']).unwrap_or(value);
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // Flats have a sign or a decimal point, so `1/2` (a draw) is no evaluation.
    let flats = match value.split_once('.') {
        Some((whole, frac)) => number(whole) && number(frac),
        None => signed && number(value),
    };
    let proven = value.strip_prefix(['R', 'F']).is_some_and(number);
    (flats || proven) && !depth.is_empty() && depth.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A file's comment as the annotated game keeps it: an evaluation is dropped, or kept with the
/// [`EARLIER`] label when `keep`; an earlier review's summary is dropped; others stay as they are.
pub(super) fn kept_comment(comment: &str, keep: bool) -> Option<String> {
    let trimmed = comment.trim();
    if trimmed.starts_with(SUMMARY_HEAD) {
        None
    } else if is_eval_comment(trimmed) {
        keep.then(|| {
            if trimmed.starts_with(EARLIER) {
                trimmed.to_string()
            } else {
                format!("{EARLIER}{trimmed}")
            }
        })
    } else {
        Some(comment.to_string())
    }
}

/// The search of one position: its score for the side to move, depth and best move.
#[derive(Clone, Copy, Debug)]
pub(super) struct Searched {
    score: Score,
    depth: u32,
    best: Option<Move>,
}

/// What is known of each position of the game: the search (`None` in the book and where the game
/// is over) and the plies to the road the side to move forces, when the tinue prover proved one.
#[derive(Clone, Debug, Default)]
pub(super) struct Known {
    searched: Option<Searched>,
    tinue: Option<u32>,
}

impl Known {
    /// The searched score for the side to move, if the position was searched.
    pub(super) fn score(&self) -> Option<Score> {
        self.searched.map(|s| s.score)
    }
}

/// Searches every position from the one before ply `first` (0-based) to the end, on one table,
/// and runs the tinue prover (`--tinue-nodes`) on each position after a judged move that the
/// search did not decide.
pub(super) fn search_game<const N: usize>(
    args: &AnalyzeArgs,
    start: &Position<N>,
    moves: &[Move],
    first: usize,
) -> Result<Vec<Known>, String> {
    let tt = super::search::table(args)?;
    let limits = limits(args, DEFAULT_GAME_MOVETIME_MS);
    let config = config(args, 1);
    let mut at = TakGame::new(start.clone());
    let progress = Progress::new(
        "analyze",
        searched_positions(start, moves, first) as u64,
        "positions",
        Duration::ZERO,
    );
    let mut known = vec![Known::default(); moves.len() + 1];
    for (i, slot) in known.iter_mut().enumerate() {
        if i >= first && at.position().result().is_none() {
            let s = run_search(&at, &limits, &config, &tt, &|_| {});
            let searched = Searched {
                score: s.result.score,
                depth: s.result.depth,
                best: s.result.best,
            };
            if i > first && searched.score.proven().is_none() && args.tinue_nodes > 0 {
                slot.tinue = prove(at.position(), args.tinue_nodes);
            }
            slot.searched = Some(searched);
            progress.inc(1, || {
                format!(
                    "ply {i}, depth {}, {} nodes{}",
                    s.result.depth,
                    s.result.nodes,
                    if slot.tinue.is_some() { ", tinue" } else { "" },
                )
            });
        }
        if let Some(&mv) = moves.get(i) {
            at.play(mv);
        }
    }
    progress.finish();
    Ok(known)
}

/// How many positions [`search_game`] searches: from the one before ply `first` up to the end
/// of the game or the first position where it is over.
fn searched_positions<const N: usize>(start: &Position<N>, moves: &[Move], first: usize) -> usize {
    let mut pos = start.clone();
    let mut count = 0;
    for i in 0..=moves.len() {
        if pos.result().is_some() {
            break;
        }
        count += usize::from(i >= first);
        if let Some(&mv) = moves.get(i) {
            pos.make(mv);
        }
    }
    count
}

/// The plies of the road the side to move of `pos` forces, if the prover proves one within
/// `nodes` nodes (a node budget, not a time, so the review is the same on every run).
fn prove<const N: usize>(pos: &Position<N>, nodes: u64) -> Option<u32> {
    let limits = TinueLimits {
        max_nodes: Some(nodes),
        hash_mb: 4,
        ..TinueLimits::default()
    };
    tinue::solve(pos, &limits, &AtomicBool::new(false))
        .proof()
        .map(|(plies, _)| plies)
}

/// The judgement of one ply, from the mover's point of view.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PlyEval {
    /// The played move's value for the mover.
    pub(super) played: Score,
    /// The depth behind `played` (0 when the move ended the game).
    pub(super) depth: u32,
    /// Whether `played` is the tinue prover's proof rather than the search's.
    pub(super) by_prover: bool,
    /// The best move found before the ply and its value, when it was not the move played.
    pub(super) best: Option<(String, Score)>,
    /// The winning chance lost against the best move, in percentage points.
    pub(super) drop: f64,
    /// The move lets the opponent force a win (a proven loss for the mover) from a position that
    /// was not lost: not proven lost, and with at least an inaccuracy's winning chance to lose.
    pub(super) walks_into_loss: bool,
}

/// One ply of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PlyNote {
    /// The mover.
    pub(super) mover: Color,
    /// The judgement, `None` for a book ply.
    pub(super) eval: Option<PlyEval>,
    /// What the judgement makes of the move.
    pub(super) mark: Option<Mark>,
}

/// A score for the side `side`, from White's point of view.
pub(super) fn white_view(side: Color, score: Score) -> Score {
    match side {
        Color::White => score,
        Color::Black => -score,
    }
}

impl PlyNote {
    /// White's winning chance after the move, in percent (`None` for a book ply).
    pub(super) fn white_chance(&self) -> Option<f64> {
        self.eval
            .as_ref()
            .map(|e| win_chance(white_view(self.mover, e.played)))
    }
}

/// The notes of every ply from what is known of the positions around it, replaying the game for
/// its results. Plies before `first` are book.
pub(super) fn ply_notes<const N: usize>(
    start: &Position<N>,
    moves: &[Move],
    known: &[Known],
    first: usize,
    thresholds: Thresholds,
) -> Vec<PlyNote> {
    let mut pos = start.clone();
    let mut notes = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = pos.side_to_move();
        pos.make(mv);
        if i < first {
            notes.push(PlyNote {
                mover,
                eval: None,
                mark: None,
            });
            continue;
        }
        let before = known[i]
            .searched
            .expect("a judged ply is played before the game ends");
        let (played, depth, by_prover) = match (pos.result(), &known[i + 1]) {
            (Some(result), _) => (cairn_tak::adapter::result_score(result, mover, 1), 0, false),
            (
                None,
                Known {
                    tinue: Some(plies),
                    searched: Some(s),
                },
            ) => (Score::loss_in(plies + 1, WinKind::Outright), s.depth, true),
            (
                None,
                Known {
                    searched: Some(after),
                    ..
                },
            ) => (one_ply_back(-after.score), after.depth, false),
            (None, _) => unreachable!("a search exists wherever the game goes on"),
        };
        let best_other = before.best.filter(|&b| b != mv);
        let drop = match best_other {
            Some(_) => (win_chance(before.score) - win_chance(played)).max(0.0),
            None => 0.0,
        };
        let lost = |s: Score| s.proven().is_some_and(|(win, _, _)| !win);
        // A position already as good as lost (less than an inaccuracy to lose) is not thrown
        // away by a move into a forced loss.
        let walks_into_loss = best_other.is_some()
            && lost(played)
            && !lost(before.score)
            && drop >= thresholds.inaccuracy;
        let mark = if walks_into_loss {
            Some(Mark::Blunder)
        } else {
            thresholds.mark(drop)
        };
        notes.push(PlyNote {
            mover,
            eval: Some(PlyEval {
                played,
                depth,
                by_prover,
                best: best_other.map(|b| (b.ptn::<N>().to_string(), before.score)),
                drop,
                walks_into_loss,
            }),
            mark,
        });
    }
    notes
}

/// A proven score of the position after a move, one ply further from the position before it.
fn one_ply_back(score: Score) -> Score {
    match score.proven() {
        Some((true, plies, kind)) => Score::win_in(plies + 1, kind),
        Some((false, plies, kind)) => Score::loss_in(plies + 1, kind),
        None => score,
    }
}

/// One player's review.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PlayerSummary {
    /// The player's color.
    pub(super) color: Color,
    /// The name from the PTN tags (`?` where missing).
    pub(super) name: String,
    /// The moves judged.
    pub(super) moves: usize,
    /// The `?!`, `?` and `??` counts.
    pub(super) marks: [usize; 3],
    /// The mean winning chance lost per judged move, percentage points (`None` with no move).
    pub(super) average_loss: Option<f64>,
    /// The mean move accuracy, percent (`None` with no move).
    pub(super) accuracy: Option<f64>,
}

/// A move's accuracy, percent, for the winning chance `drop` it lost: 100 for the best move,
/// halving with every [`ACCURACY_HALF_LIFE`] points lost.
pub(super) fn move_accuracy(drop: f64) -> f64 {
    100.0 * 0.5f64.powf(drop / ACCURACY_HALF_LIFE)
}

/// The marks in the order of [`PlayerSummary::marks`].
pub(super) const MARKS: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

/// The review of each player of `game`, White first.
pub(super) fn summaries(game: &PtnGame, notes: &[PlyNote]) -> [PlayerSummary; 2] {
    [Color::White, Color::Black].map(|color| {
        let tag = if color == Color::White {
            "Player1"
        } else {
            "Player2"
        };
        let mine: Vec<(&PlyEval, Option<Mark>)> = notes
            .iter()
            .filter(|n| n.mover == color)
            .filter_map(|n| n.eval.as_ref().map(|e| (e, n.mark)))
            .collect();
        let moves = mine.len();
        let mean = |f: &dyn Fn(&PlyEval) -> f64| {
            (moves > 0).then(|| mine.iter().map(|(e, _)| f(e)).sum::<f64>() / moves as f64)
        };
        PlayerSummary {
            color,
            name: game.tag(tag).unwrap_or("?").to_string(),
            moves,
            marks: MARKS.map(|m| mine.iter().filter(|(_, mark)| *mark == Some(m)).count()),
            average_loss: mean(&|e| e.drop),
            accuracy: mean(&|e| move_accuracy(e.drop)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_tak::notation::parse_file;

    #[test]
    fn evaluation_comments_are_told_from_words() {
        for eval in [
            "+0.68/10 0.42s",
            "-1.35/11 41.3%",
            "0.00/3",
            "-R3/12 0%",
            "+F2/tinue 100%",
            "earlier eval: +0.1/2 0.1s",
        ] {
            assert!(is_eval_comment(eval), "{eval}");
        }
        for words in ["book", "nice move", "+1", "1/2", "R/3", "+0.5/ x", "-/3"] {
            assert!(!is_eval_comment(words), "{words}");
        }
    }

    #[test]
    fn book_is_marked_or_before_the_first_evaluation() {
        let game = |text: &str| parse_file(text).unwrap().remove(0);
        let matched = game("[Size \"5\"]\n1. a1 {book} e5 {book} 2. c3 {+0.45/12 0.65s} d4\n");
        assert_eq!(book_plies(&matched, None), Ok(2));
        let racetrack = game("[Size \"5\"]\n1. a1 e5 2. c3 {+0.45/12 0.65s} d4 {-0.1/9 1s}\n");
        assert_eq!(book_plies(&racetrack, None), Ok(2));
        let human = game("[Size \"5\"]\n1. a1 e5 2. c3 {nice} d4 {+0.45/12}\n");
        assert_eq!(book_plies(&human, None), Ok(0));
        assert_eq!(book_plies(&human, Some(3)), Ok(2));
        assert_eq!(book_plies(&human, Some(1)), Ok(0));
        assert!(book_plies(&human, Some(5)).is_err());
    }

    #[test]
    fn accuracy_halves_every_fifteen_points() {
        assert_eq!(move_accuracy(0.0), 100.0);
        assert!((move_accuracy(15.0) - 50.0).abs() < 1e-9);
        assert!((move_accuracy(30.0) - 25.0).abs() < 1e-9);
        assert!(move_accuracy(5.0) > move_accuracy(10.0));
    }

    #[test]
    fn earlier_evaluations_go_or_keep_a_label() {
        assert_eq!(kept_comment("+0.68/10 0.42s", false), None);
        assert_eq!(
            kept_comment("+0.68/10 0.42s", true).as_deref(),
            Some("earlier eval: +0.68/10 0.42s")
        );
        let twice = kept_comment("+0.68/10 0.42s", true).unwrap();
        assert_eq!(kept_comment(&twice, true), Some(twice.clone()));
        assert_eq!(kept_comment(&twice, false), None);
        assert_eq!(kept_comment("book", false).as_deref(), Some("book"));
        let summary = format!("{SUMMARY_HEAD} (White's view)\nWhite");
        assert_eq!(kept_comment(&summary, true), None);
    }
}
