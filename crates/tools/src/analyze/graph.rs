//! The evaluation graph of a reviewed game (`--plot`), as an SVG drawn with `plotters` (its SVG
//! backend, text sized by an estimate, so the same review always gives the same bytes): White's
//! winning chance after every judged ply, White's advantage filled above 50 % and Black's below,
//! every `?!`, `?` and `??` marked and labelled with its move (`32…Sd4??`) where the label
//! overlaps neither the line nor another label ([`super::labels`]), proven results as triangles,
//! a legend, and above it the players, the result and each player's summary.

use super::annotate::Review;
use super::labels::{self, Label, Rect};
use super::text::player_line;
use crate::chance::Mark;
use crate::plot::whole;
use cairn_tak::board::Position;
use cairn_tak::notation::PtnGame;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One point of the graph.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct GraphPoint {
    /// The move number, plus one half for Black's ply.
    pub(super) x: f64,
    /// White's winning chance, percent.
    pub(super) white: f64,
    /// The ply's mark.
    pub(super) mark: Option<Mark>,
    /// The label of a marked ply: `32…Sd4??`.
    pub(super) label: Option<String>,
    /// Whether the value is a proven result.
    pub(super) proven: bool,
}

/// What the graph shows.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct EvalGraph {
    /// The players and the result.
    pub(super) title: String,
    /// One summary line per player.
    pub(super) summary: [String; 2],
    /// The x axis's name (with the book plies left out).
    pub(super) x_desc: String,
    /// The position before the first judged ply, then every judged ply.
    pub(super) points: Vec<GraphPoint>,
}

/// The x position of ply `ply` (counted from the empty board): its move number, plus ½ for
/// Black.
pub(super) fn move_x(ply: u32) -> f64 {
    f64::from(ply / 2 + 1) + if ply % 2 == 1 { 0.5 } else { 0.0 }
}

/// A ply's name in a label: the move number, `.` for White or `…` for Black, the move and its
/// mark (`32…Sd4??`).
pub(super) fn move_label(ply: u32, mv: &str, mark: Mark) -> String {
    let dot = if ply % 2 == 0 { "." } else { "…" };
    format!("{}{dot}{mv}{}", ply / 2 + 1, mark.ptn())
}

/// Draws the evaluation graph of `game` (from `start`, reviewed as `review`) as SVG.
pub(super) fn plot_svg<const N: usize>(
    game: &PtnGame,
    start: &Position<N>,
    review: &Review,
) -> Result<String, String> {
    eval_svg(&eval_graph(game, start.ply(), review))
}

/// The graph of a review of `game`, whose first ply is ply `first_ply` from the empty board.
pub(super) fn eval_graph(game: &PtnGame, first_ply: u32, review: &Review) -> EvalGraph {
    let [white, black] = &review.players;
    let title = format!(
        "{} (White) vs {} (Black), {}: White's winning chance",
        white.name, black.name, review.result
    );
    let book = review.book;
    let mut points: Vec<GraphPoint> = review
        .opening
        .map(|score| GraphPoint {
            x: move_x(first_ply + book as u32) - 0.5,
            white: crate::chance::win_chance(score),
            mark: None,
            label: None,
            proven: score.proven().is_some(),
        })
        .into_iter()
        .collect();
    for (i, (note, ply)) in review.notes.iter().zip(&game.plies).enumerate() {
        let (Some(white), Some(eval)) = (note.white_chance(), note.eval.as_ref()) else {
            continue;
        };
        let at = first_ply + i as u32;
        points.push(GraphPoint {
            x: move_x(at),
            white,
            mark: note.mark,
            label: note.mark.map(|m| move_label(at, &ply.mv.to_string(), m)),
            proven: eval.played.proven().is_some(),
        });
    }
    let x_desc = match book {
        0 => "move".to_string(),
        n => format!("move (the book's {n} plies are not judged)"),
    };
    EvalGraph {
        title,
        summary: [player_line(white), player_line(black)],
        x_desc,
        points,
    }
}

const SIZE: (u32, u32) = (1000, 580);
const HEADER: u32 = 78;
const FOOTER: u32 = 40;
const FONT: &str = "sans-serif";
const LABEL_SIZE: f64 = 13.0;
const LINE: RGBColor = RGBColor(40, 70, 140);
const GRID: RGBColor = RGBColor(150, 150, 150);
const WHITE_AHEAD: RGBColor = RGBColor(236, 228, 204);
const BLACK_AHEAD: RGBColor = RGBColor(92, 92, 104);
const PROVEN: RGBColor = RGBColor(110, 40, 150);
const INK: RGBColor = RGBColor(30, 30, 30);

/// The colour of a mark.
fn mark_color(mark: Mark) -> RGBColor {
    match mark {
        Mark::Inaccuracy => RGBColor(30, 130, 200),
        Mark::Mistake => RGBColor(225, 135, 0),
        Mark::Blunder => RGBColor(210, 30, 30),
    }
}

/// The estimated size in pixels of a label's box.
fn label_size(text: &str) -> (f64, f64) {
    (
        text.chars().count() as f64 * LABEL_SIZE * 0.6 + 10.0,
        LABEL_SIZE + 6.0,
    )
}

fn failed<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// The evaluation graph as an SVG document.
pub(super) fn eval_svg(graph: &EvalGraph) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        draw(&root, graph).map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

fn draw(root: &Area<'_>, graph: &EvalGraph) -> Drawn {
    root.fill(&WHITE)?;
    let left = Pos::new(HPos::Left, VPos::Top);
    root.draw(&Text::new(
        graph.title.clone(),
        (16, 10),
        (FONT, 20).into_font().color(&INK).pos(left),
    ))?;
    for (i, line) in graph.summary.iter().enumerate() {
        root.draw(&Text::new(
            line.clone(),
            (16, 38 + 18 * i as i32),
            (FONT, 14).into_font().color(&INK).pos(left),
        ))?;
    }
    let (_, rest) = root.split_vertically(HEADER);
    let (body, _) = rest.split_vertically(SIZE.1 - HEADER - FOOTER);
    draw_chart(root, &body, graph)?;
    draw_legend(root, SIZE.1 as i32 - FOOTER as i32 / 2)
}

fn draw_chart(root: &Area<'_>, body: &Area<'_>, graph: &EvalGraph) -> Drawn {
    let first = graph.points.first().map_or(1.0, |p| p.x);
    let last = graph.points.last().map_or(2.0, |p| p.x);
    let xs = (first - 0.5)..(last + 0.5).max(first + 1.0);
    let mut chart = ChartBuilder::on(body)
        .margin_left(12)
        .margin_right(20)
        .margin_top(6)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(xs.clone(), 0.0..100.0)?;
    chart
        .configure_mesh()
        .x_desc(graph.x_desc.as_str())
        .y_desc("White's winning chance (%)")
        .x_label_formatter(&|x| whole(*x))
        .y_labels(11)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .max_light_lines(0)
        .label_style((FONT, 14))
        .draw()?;
    let line: Vec<(f64, f64)> = graph.points.iter().map(|p| (p.x, p.white)).collect();
    let (above, below) = fills(&line);
    chart.draw_series([
        Polygon::new(above, WHITE_AHEAD.filled()),
        Polygon::new(below, BLACK_AHEAD.filled()),
    ])?;
    chart.draw_series(DashedLineSeries::new(
        [(xs.start, 50.0), (xs.end, 50.0)],
        6,
        4,
        GRID.stroke_width(1),
    ))?;
    chart.draw_series(LineSeries::new(line.iter().copied(), LINE.stroke_width(2)))?;
    // The markers, then the labels where they are free.
    let mut labelled = Vec::new();
    let mut markers = Vec::new();
    for p in &graph.points {
        let at = EmptyElement::at((p.x, p.white));
        let color = p
            .mark
            .map_or(if p.proven { PROVEN } else { LINE }, mark_color);
        let size = if p.mark.is_some() { 5 } else { 2 };
        if p.proven {
            chart
                .plotting_area()
                .draw(&(at + TriangleMarker::new((0, 0), size + 2, color.filled())))?;
        } else {
            chart
                .plotting_area()
                .draw(&(at + Circle::new((0, 0), size, color.filled())))?;
        }
        let (px, py) = chart.backend_coord(&(p.x, p.white));
        let (px, py) = (f64::from(px), f64::from(py));
        if let (Some(label), Some(mark)) = (&p.label, p.mark) {
            let (w, h) = label_size(label);
            markers.push(Rect::centred(px, py, 14.0, 14.0));
            labelled.push((
                Label { at: (px, py), w, h },
                label.clone(),
                mark_color(mark),
            ));
        }
    }
    let pixels: Vec<(f64, f64)> = line
        .iter()
        .map(|p| {
            let (x, y) = chart.backend_coord(p);
            (f64::from(x), f64::from(y))
        })
        .collect();
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let area = Rect {
        x0: f64::from(xr.start),
        y0: f64::from(yr.start),
        x1: f64::from(xr.end),
        y1: f64::from(yr.end),
    };
    let boxes: Vec<Label> = labelled.iter().map(|l| l.0).collect();
    let placed = labels::place(&boxes, &pixels, &markers, area);
    for ((label, text, color), spot) in labelled.iter().zip(&placed) {
        draw_label(root, label, text, *color, &spot.rect)?;
    }
    Ok(())
}

/// A label: a thin leader from its point when the box is not right beside it, then the box and
/// its text.
fn draw_label(root: &Area<'_>, label: &Label, text: &str, color: RGBColor, r: &Rect) -> Drawn {
    let px = |v: f64| v.round() as i32;
    let (x, y) = label.at;
    let near = (x.clamp(r.x0, r.x1), y.clamp(r.y0, r.y1));
    if (near.0 - x).hypot(near.1 - y) > 12.0 {
        root.draw(&PathElement::new(
            vec![(px(x), px(y)), (px(near.0), px(near.1))],
            color.mix(0.6).stroke_width(1),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(px(r.x0), px(r.y0)), (px(r.x1), px(r.y1))],
        WHITE.mix(0.92).filled(),
    ))?;
    root.draw(&Rectangle::new(
        [(px(r.x0), px(r.y0)), (px(r.x1), px(r.y1))],
        color.stroke_width(1),
    ))?;
    let (cx, cy) = r.centre();
    root.draw(&Text::new(
        text.to_string(),
        (px(cx), px(cy)),
        (FONT, LABEL_SIZE)
            .into_font()
            .color(&color)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))
}

/// The legend, one row centred at height `y`.
fn draw_legend(root: &Area<'_>, y: i32) -> Drawn {
    let items: [(&str, RGBColor, u8); 6] = [
        ("White ahead", WHITE_AHEAD, 0),
        ("Black ahead", BLACK_AHEAD, 0),
        ("?! inaccuracy", mark_color(Mark::Inaccuracy), 1),
        ("? mistake", mark_color(Mark::Mistake), 1),
        ("?? blunder", mark_color(Mark::Blunder), 1),
        ("proven result", PROVEN, 2),
    ];
    let width = |t: &str| (t.chars().count() as f64 * 14.0 * 0.6) as i32 + 44;
    let total: i32 = items.iter().map(|(t, _, _)| width(t)).sum();
    let mut x = (SIZE.0 as i32 - total) / 2;
    let style = (FONT, 14)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (text, color, shape) in items {
        match shape {
            0 => {
                root.draw(&Rectangle::new(
                    [(x, y - 7), (x + 18, y + 7)],
                    color.filled(),
                ))?;
                root.draw(&Rectangle::new([(x, y - 7), (x + 18, y + 7)], GRID))?;
            }
            1 => root.draw(&Circle::new((x + 9, y), 5, color.filled()))?,
            _ => root.draw(&TriangleMarker::new((x + 9, y), 7, color.filled()))?,
        }
        root.draw(&Text::new(text, (x + 24, y), style.clone()))?;
        x += width(text);
    }
    Ok(())
}

/// A polygon's corners in chart coordinates.
pub(super) type Outline = Vec<(f64, f64)>;

/// The two filled areas between the line and 50 %: White's above, Black's below. Where the
/// line crosses 50 % between two points, the crossing is a corner of both.
pub(super) fn fills(line: &[(f64, f64)]) -> (Outline, Outline) {
    let mut path: Vec<(f64, f64)> = Vec::with_capacity(line.len() * 2);
    for (i, &(x, y)) in line.iter().enumerate() {
        if let Some(&(px, py)) = i.checked_sub(1).map(|j| &line[j]) {
            if (py - 50.0) * (y - 50.0) < 0.0 {
                let t = (50.0 - py) / (y - py);
                path.push((px + t * (x - px), 50.0));
            }
        }
        path.push((x, y));
    }
    let side = |f: fn(f64, f64) -> f64| -> Outline {
        let (Some(first), Some(last)) = (path.first(), path.last()) else {
            return Vec::new();
        };
        std::iter::once((first.0, 50.0))
            .chain(path.iter().map(|&(x, y)| (x, f(y, 50.0))))
            .chain(std::iter::once((last.0, 50.0)))
            .collect()
    };
    (side(f64::max), side(f64::min))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::annotate::PlyNote;
    use crate::analyze::review::{PlayerSummary, PlyEval};
    use cairn_search::score::{Score, WinKind};
    use cairn_tak::board::Color;
    use cairn_tak::notation::parse_file;

    #[test]
    fn labels_name_the_move_and_who_played_it() {
        assert_eq!(move_label(62, "Sd4", Mark::Mistake), "32.Sd4?");
        assert_eq!(move_label(63, "Sd4", Mark::Blunder), "32…Sd4??");
        assert_eq!(move_label(0, "a1", Mark::Inaccuracy), "1.a1?!");
        assert_eq!(move_x(0), 1.0);
        assert_eq!(move_x(3), 2.5);
    }

    #[test]
    fn fills_meet_at_the_crossings() {
        let (above, below) = fills(&[(1.0, 40.0), (1.5, 60.0), (2.0, 70.0)]);
        assert_eq!(
            above,
            vec![
                (1.0, 50.0),
                (1.0, 50.0),
                (1.25, 50.0),
                (1.5, 60.0),
                (2.0, 70.0),
                (2.0, 50.0)
            ]
        );
        assert_eq!(below[1..4], [(1.0, 40.0), (1.25, 50.0), (1.5, 50.0)]);
    }

    /// A review of a 3x3 game with book, marks from both sides and a proven end.
    fn review() -> (PtnGame, Review) {
        let game = parse_file(
            "[Player1 \"Ann\"]\n[Player2 \"Bob\"]\n[Size \"3\"]\n\n\
             1. a1 {book} c3 {book} 2. b2 a2 3. a3 c2 4. b2< b2 0-R\n",
        )
        .unwrap()
        .remove(0);
        let eval = |played: i32, mark: Option<Mark>, mover| PlyNote {
            mover,
            eval: Some(PlyEval {
                played: Score(played),
                depth: 4,
                by_prover: false,
                best: None,
                drop: 0.0,
                walks_into_loss: false,
            }),
            mark,
        };
        let book = |mover| PlyNote {
            mover,
            eval: None,
            mark: None,
        };
        let mut notes = vec![
            book(Color::White),
            book(Color::Black),
            eval(120, None, Color::White),
            eval(-300, Some(Mark::Inaccuracy), Color::Black),
            eval(-200, Some(Mark::Mistake), Color::White),
            eval(0, Some(Mark::Blunder), Color::Black),
            eval(10, None, Color::White),
        ];
        notes.push(PlyNote {
            mover: Color::Black,
            eval: Some(PlyEval {
                played: Score::win_in(1, WinKind::Outright),
                depth: 0,
                by_prover: false,
                best: None,
                drop: 0.0,
                walks_into_loss: false,
            }),
            mark: None,
        });
        let player = |color, name: &str| PlayerSummary {
            color,
            name: name.to_string(),
            moves: 3,
            marks: [0, 1, 0],
            average_loss: Some(4.0),
            accuracy: Some(80.0),
        };
        let review = Review {
            notes,
            book: 2,
            opening: Some(Score(40)),
            players: [player(Color::White, "Ann"), player(Color::Black, "Bob")],
            result: "0-R".to_string(),
        };
        (game, review)
    }

    #[test]
    fn the_graph_has_a_point_per_judged_ply_and_labels_its_marks() {
        let (game, review) = review();
        let graph = eval_graph(&game, 0, &review);
        let judged = review.notes.iter().filter(|n| n.eval.is_some()).count();
        assert_eq!(graph.points.len(), 1 + judged);
        // The opening point sits half a move before the first judged ply (2. b2).
        assert_eq!(graph.points[0].x, 1.5);
        assert_eq!(graph.points[1].x, 2.0);
        let labels: Vec<&str> = graph
            .points
            .iter()
            .filter_map(|p| p.label.as_deref())
            .collect();
        assert_eq!(labels, ["2…a2?!", "3.a3?", "3…c2??"]);
        // White's view: Black's -3 flats is White's +3.
        assert!(graph.points[2].white > 50.0);
        assert!(graph.points.last().unwrap().proven);
        assert_eq!(graph.points.last().unwrap().white, 0.0);
        assert!(graph.title.contains("Ann (White) vs Bob (Black), 0-R"));
        assert!(graph.x_desc.contains("2 plies"));
    }

    #[test]
    fn the_svg_has_the_labels_the_legend_and_the_same_bytes_every_time() {
        let (game, review) = review();
        let graph = eval_graph(&game, 0, &review);
        let svg = eval_svg(&graph).unwrap();
        for text in [
            "2…a2?!",
            "3.a3?",
            "3…c2??",
            "White ahead",
            "Black ahead",
            "?! inaccuracy",
            "? mistake",
            "?? blunder",
            "proven result",
            "accuracy 80.0%",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        assert_eq!(eval_svg(&graph).unwrap(), svg);
    }
}
