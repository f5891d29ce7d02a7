//! The text report of one position: the diagram, the material and scores and results in words,
//! the search's lines, the tinue prover's verdict, and the progress line of each finished
//! iteration on stderr; and the summary of a game's review.

use super::annotate::Review;
use super::review::{PlayerSummary, MARKS, SUMMARY_HEAD};
use super::search::{for_white, Searched};
use crate::chance::{percent, win_chance};
use cairn_search::score::Score;
use cairn_search::SearchInfo;
use cairn_tak::board::{Color, GameResult, Position};
use cairn_tak::tinue::{TinueOutcome, TinueResult};

/// A color's name: `White` or `Black`.
pub(super) fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A score in words, from the side to move's view.
fn score_words<const N: usize>(pos: &Position<N>, score: Score) -> String {
    let me = pos.side_to_move();
    match score.proven() {
        Some((win, plies, kind)) => {
            let winner = if win { me } else { !me };
            let how = kind.name();
            let unit = if plies == 1 { "ply" } else { "plies" };
            format!(
                "{} wins on {how} in {plies} {unit} (100%)",
                color_name(winner)
            )
        }
        None => format!(
            "{} for {} to move ({} for White); {}'s winning chance {}",
            Score::short(score),
            color_name(me),
            Score::short(for_white(pos, score)),
            color_name(me),
            percent(win_chance(score))
        ),
    }
}

/// A game result in words.
fn result_words(result: GameResult) -> String {
    match result {
        GameResult::Road(c) => format!("{} wins on road", color_name(c)),
        GameResult::Flats(c) => format!("{} wins on flats", color_name(c)),
        GameResult::Draw => "draw".to_string(),
    }
}

/// The material and komi of a position, in words.
fn material<const N: usize>(pos: &Position<N>) -> String {
    let side = |c: Color| {
        format!(
            "{} {} flats, {} stones + {} caps in hand",
            color_name(c),
            pos.flats(c).count(),
            pos.stones_left(c),
            pos.caps_left(c)
        )
    };
    format!(
        "{}; {}; komi {}",
        side(Color::White),
        side(Color::Black),
        pos.komi()
    )
}

/// The board diagram and the TPS.
fn print_diagram<const N: usize>(pos: &Position<N>, tps_text: &str) {
    print!("{pos}");
    println!("TPS       {tps_text}");
}

/// The report of a finished game: the diagram and the result.
pub(super) fn print_game_over<const N: usize>(
    pos: &Position<N>,
    tps_text: &str,
    result: GameResult,
) {
    print_diagram(pos, tps_text);
    println!("Game over {} ({})", result_words(result), result.ptn());
}

/// What comes before the search: the diagram, the material and the static evaluation.
pub(super) fn print_header<const N: usize>(pos: &Position<N>, tps_text: &str, static_eval: Score) {
    print_diagram(pos, tps_text);
    println!("Material  {}", material(pos));
    println!("Static    {}", score_words(pos, static_eval));
}

/// One finished iteration on stderr; `several` names its line when there are several.
pub(super) fn print_progress(info: &SearchInfo, several: bool) {
    let line = if several {
        format!(" line {}", info.multipv)
    } else {
        String::new()
    };
    eprintln!(
        "depth {:>2}{line} score {:>6} nodes {:>10} nps {:>8} time {:>6} ms pv {}",
        info.depth,
        Score::short(info.score),
        info.nodes,
        info.nps,
        info.time_ms,
        info.pv.join(" ")
    );
}

/// The search's report: its cost, the evaluation, the best move, each line, and the link.
pub(super) fn print_search<const N: usize>(pos: &Position<N>, done: &Searched, link: Option<&str>) {
    println!(
        "Search    depth {}, {} nodes in {:.2} s ({} nps)",
        done.result.depth,
        done.result.nodes,
        done.secs,
        done.nps()
    );
    println!("Eval      {}", score_words(pos, done.result.score));
    println!("Best move {}", done.best::<N>());
    for line in &done.lines {
        let label = if done.lines.len() > 1 {
            format!("PV {:<6}", line.multipv)
        } else {
            "PV       ".to_string()
        };
        println!(
            "{label} {} {} {}",
            Score::short(line.score),
            percent(win_chance(line.score)),
            line.pv.join(" ")
        );
    }
    if let Some(link) = link {
        println!("Link      {link}");
    }
}

/// The tinue prover's verdict for `me`, the side to move, with the proof's `line`.
pub(super) fn print_tinue(me: Color, result: &TinueResult, line: &[String]) {
    let me = color_name(me);
    let cost = format!("{} nodes in {} ms", result.nodes, result.time_ms);
    match result.proof() {
        Some((plies, _)) => {
            println!("Tinue     {me} forces a road in {plies} plies ({cost})");
            println!("PV        {}", line.join(" "));
        }
        None => println!(
            "Tinue     no forced road for {me}: {} ({cost})",
            match result.outcome {
                TinueOutcome::Disproven => "disproven within the depth limit",
                _ => "not decided within the budget",
            }
        ),
    }
}

/// The summary of a review, as lines of text (no final newline): what was judged and, per
/// player, the moves judged, the accuracy, the average winning chance lost and the marks. It is
/// written into a PTN comment, so braces in a player's name become parentheses.
pub(super) fn review_summary(review: &Review) -> String {
    let judged = match review.book {
        0 => "every ply judged".to_string(),
        1 => "ply 1 is book, not judged".to_string(),
        n => format!("plies 1-{n} are book, not judged"),
    };
    let mut lines = vec![format!(
        "{SUMMARY_HEAD}: every comment is White's view; {judged}"
    )];
    for p in &review.players {
        lines.push(player_line(p).replace('{', "(").replace('}', ")"));
    }
    lines.join("\n")
}

/// One player's line of the summary: `White Cairn: 24 moves, accuracy 91.2%, average loss 2.1%,
/// 1 ?!, 0 ?, 0 ??`.
pub(super) fn player_line(p: &PlayerSummary) -> String {
    let who = format!("{} {}", color_name(p.color), p.name);
    match (p.accuracy, p.average_loss) {
        (Some(accuracy), Some(loss)) => format!(
            "{who}: {} move{}, accuracy {accuracy:.1}%, average loss {loss:.1}%, {}",
            p.moves,
            if p.moves == 1 { "" } else { "s" },
            mark_counts(p)
        ),
        _ => format!("{who}: no move judged"),
    }
}

/// The counts of marks: `1 ?!, 0 ?, 0 ??`.
pub(super) fn mark_counts(p: &PlayerSummary) -> String {
    MARKS
        .iter()
        .zip(p.marks)
        .map(|(m, n)| format!("{n} {}", m.ptn()))
        .collect::<Vec<_>>()
        .join(", ")
}
