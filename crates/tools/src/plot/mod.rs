//! Pictures as SVG, drawn with `plotters` (its SVG backend, text laid out by its built-in
//! estimate, so the same data always gives the same bytes on every machine).
//!
//! Two pictures:
//! - [`eval_svg`]: a game's evaluation graph, as under a lichess game: White's winning chance
//!   (0–100 %, 50 % marked) after every ply, the x axis in move numbers (Black's ply half a move
//!   after White's). Each ply is one point: a circle for an evaluation, a triangle for a proven
//!   result (labelled with the winner and `road` or `flats` where a proven run begins). Mistakes
//!   (`?`) and blunders (`??`) are drawn larger, in orange and red, with their mark beside them;
//!   a label is one text element (`?? White road` where both apply).
//! - [`match_svg`]: a match, titled with the engines, the games, the score and the Elo with its
//!   interval: above, the first engine's Elo after each game with its 95 % interval as a band,
//!   on an axis scaled to the data ([`elo_axis`]); below, how its games ended with each colour
//!   and in all (wins, draws, losses, each by road, flats, time, forfeit or otherwise), as bars
//!   with every count written out.
//!
//! The pictures of the docs (`docs/pictures/`) are drawn by the commands that call these
//! functions (`cairn analyze --game --plot`, `cairn report --plot`), run by
//! `docs/pictures/make.sh`.

mod matches;

pub use matches::{elo_axis, match_svg, MatchGraph, Outcomes, DECISIVE};

use crate::chance::Mark;
use cairn_search::score::WinKind;
use cairn_tak::board::Color;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color as _;

/// One ply of an evaluation graph.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalPoint {
    /// Where on the x axis: the move number, plus one half for Black's ply.
    pub x: f64,
    /// White's winning chance after the ply, in percent.
    pub white: f64,
    /// The mark the ply earned, if any (only mistakes and blunders are drawn).
    pub mark: Option<Mark>,
    /// For a proven result: who wins and how.
    pub proven: Option<(Color, WinKind)>,
}

/// An evaluation graph: a title (players and result) and one point per ply.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalGraph {
    /// The title.
    pub title: String,
    /// The plies in order.
    pub points: Vec<EvalPoint>,
}

/// The x position of a ply in an evaluation graph: its move number, plus ½ for Black.
pub fn move_x(ply_from_start: u32) -> f64 {
    f64::from(ply_from_start / 2 + 1) + if ply_from_start % 2 == 1 { 0.5 } else { 0.0 }
}

const EVAL_SIZE: (u32, u32) = (960, 480);
const FONT: &str = "sans-serif";
const LINE: RGBColor = RGBColor(40, 70, 140);
const GRID: RGBColor = RGBColor(150, 150, 150);
const MISTAKE: RGBColor = RGBColor(230, 140, 0);
const BLUNDER: RGBColor = RGBColor(210, 30, 30);
const PROVEN: RGBColor = RGBColor(110, 40, 150);

fn failed<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

/// The evaluation graph as an SVG document.
pub fn eval_svg(graph: &EvalGraph) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, EVAL_SIZE).into_drawing_area();
        draw_eval(&root, graph).map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

fn draw_eval(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    graph: &EvalGraph,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    root.fill(&WHITE)?;
    let first = graph.points.first().map_or(1.0, |p| p.x);
    let last = graph.points.last().map_or(2.0, |p| p.x);
    let xs = (first - 0.5)..(last + 0.5).max(first + 1.0);
    let mut chart = ChartBuilder::on(root)
        .caption(&graph.title, (FONT, 20))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(xs.clone(), 0.0..100.0)?;
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("White's winning chance (%)")
        .x_label_formatter(&|x| whole(*x))
        .y_labels(11)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .max_light_lines(0)
        .label_style((FONT, 14))
        .draw()?;
    // 50 %: neither side ahead.
    chart.draw_series(DashedLineSeries::new(
        [(xs.start, 50.0), (xs.end, 50.0)],
        6,
        4,
        GRID.stroke_width(1),
    ))?;
    chart.draw_series(LineSeries::new(
        graph.points.iter().map(|p| (p.x, p.white)),
        LINE.stroke_width(2),
    ))?;
    let small = (FONT, 13).into_font();
    for i in 0..graph.points.len() {
        let p = &graph.points[i];
        let (color, size, words) = look(graph, i);
        let at = EmptyElement::at((p.x, p.white));
        match p.proven {
            Some(_) => chart
                .plotting_area()
                .draw(&(at + TriangleMarker::new((0, 0), size + 2, color.filled())))?,
            None => chart
                .plotting_area()
                .draw(&(at + Circle::new((0, 0), size, color.filled())))?,
        }
        let Some(words) = words else { continue };
        // Above the point, or below it near the top; near either end of the axis the label
        // runs inwards, so it is never cut off.
        let up = p.white < 90.0;
        let across = (p.x - xs.start) / (xs.end - xs.start);
        let h = if across < 0.1 {
            HPos::Left
        } else if across > 0.9 {
            HPos::Right
        } else {
            HPos::Center
        };
        let anchor = Pos::new(h, if up { VPos::Bottom } else { VPos::Top });
        let text = Text::new(
            words,
            (0, if up { -9 } else { 9 }),
            small.color(&color).pos(anchor),
        );
        chart
            .plotting_area()
            .draw(&(EmptyElement::at((p.x, p.white)) + text))?;
    }
    Ok(())
}

/// How point `i` is drawn: its colour, its size, and its label: the mark of a mistake or a
/// blunder, and where a proven run begins, who wins and how.
fn look(graph: &EvalGraph, i: usize) -> (RGBColor, u32, Option<String>) {
    let p = &graph.points[i];
    let mark = p.mark.filter(|&m| m >= Mark::Mistake);
    let color = match (mark, p.proven) {
        (Some(Mark::Blunder), _) => BLUNDER,
        (Some(_), _) => MISTAKE,
        (None, Some(_)) => PROVEN,
        (None, None) => LINE,
    };
    let size = if mark.is_some() { 5 } else { 3 };
    let starts_run = i == 0 || graph.points[i - 1].proven != p.proven;
    let proven = p
        .proven
        .filter(|_| starts_run)
        .map(|(winner, kind)| format!("{} {}", color_word(winner), kind.name()));
    let words: Vec<String> = mark
        .map(|m| m.ptn().to_string())
        .into_iter()
        .chain(proven)
        .collect();
    (color, size, (!words.is_empty()).then(|| words.join(" ")))
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A whole number as an axis label; nothing for a fraction.
fn whole(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}
