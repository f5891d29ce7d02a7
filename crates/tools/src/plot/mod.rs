//! Pictures as SVG, drawn with `plotters` (its SVG backend, text laid out by its built-in
//! estimate, so the same data always gives the same bytes on every machine).
//!
//! The match picture, [`match_svg`]: above, the first engine's Elo against the second after each
//! game, with its 95 % interval as a band (one point per game); below, the moves each engine
//! played per game, by kind (flats, walls, capstones, spreads), as bars.
//!
//! (A game's evaluation graph is drawn by `cairn analyze --game --plot`, in
//! `analyze::graph`.) The pictures of the docs (`docs/pictures/`) are drawn by the commands,
//! run by `docs/pictures/make.sh`.

use crate::arena::Elo;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A match picture.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchGraph {
    /// The title.
    pub title: String,
    /// The two engines' names; Elo is the first one's.
    pub engines: [String; 2],
    /// After each game: the Elo estimate and its 95 % interval.
    pub elo: Vec<Elo>,
    /// Per engine: its own moves per game, by kind ([`KINDS`] order).
    pub kinds: [[f64; 4]; 2],
}

/// The kinds of move, in the order of [`MatchGraph::kinds`].
pub const KINDS: [&str; 4] = ["flats", "walls", "capstones", "spreads"];

const MATCH_SIZE: (u32, u32) = (960, 760);
/// The Elo axis never reaches past this (a few games can give ±2400).
const ELO_CAP: f64 = 800.0;
const FONT: &str = "sans-serif";
const LINE: RGBColor = RGBColor(40, 70, 140);
const GRID: RGBColor = RGBColor(150, 150, 150);
const ENGINE: [RGBColor; 2] = [RGBColor(40, 70, 140), RGBColor(220, 120, 40)];

fn failed<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

/// A whole number as an axis label; nothing for a fraction.
pub(crate) fn whole(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

/// The match picture as an SVG document.
pub fn match_svg(graph: &MatchGraph) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, MATCH_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let body = root.titled(&graph.title, (FONT, 20)).map_err(failed)?;
        let (upper, lower) = body.split_vertically(MATCH_SIZE.1 * 11 / 20);
        draw_elo(&upper, graph).map_err(failed)?;
        draw_kinds(&root, &lower, graph).map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

fn draw_elo(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    graph: &MatchGraph,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let n = graph.elo.len();
    let clamp = |v: f64| v.clamp(-ELO_CAP, ELO_CAP);
    let reach = graph
        .elo
        .iter()
        .map(|e| clamp(e.high.max(-e.low)))
        .fold(50.0f64, f64::max);
    let top = (reach / 50.0).ceil() * 50.0;
    let clipped = graph.elo.iter().any(|e| e.high.max(-e.low) > ELO_CAP);
    let xs = 0.5..(n as f64 + 0.5).max(1.5);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "Elo of {} against {}, 95% interval{}",
                graph.engines[0],
                graph.engines[1],
                if clipped { " (clipped at ±800)" } else { "" }
            ),
            (FONT, 16),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(xs.clone(), -top..top)?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc("Elo")
        .x_label_formatter(&|x| whole(*x))
        .y_label_formatter(&|y| format!("{y:+.0}"))
        .max_light_lines(0)
        .label_style((FONT, 14))
        .draw()?;
    let band: Vec<(f64, f64)> = graph
        .elo
        .iter()
        .enumerate()
        .map(|(i, e)| ((i + 1) as f64, clamp(e.high)))
        .chain(
            graph
                .elo
                .iter()
                .enumerate()
                .rev()
                .map(|(i, e)| ((i + 1) as f64, clamp(e.low))),
        )
        .collect();
    chart.draw_series(std::iter::once(Polygon::new(band, LINE.mix(0.15).filled())))?;
    chart.draw_series(DashedLineSeries::new(
        [(xs.start, 0.0), (xs.end, 0.0)],
        6,
        4,
        GRID.stroke_width(1),
    ))?;
    let line = graph
        .elo
        .iter()
        .enumerate()
        .map(|(i, e)| ((i + 1) as f64, clamp(e.elo)));
    chart.draw_series(LineSeries::new(line.clone(), LINE.stroke_width(2)))?;
    chart.draw_series(line.map(|p| Circle::new(p, 3, LINE.filled())))?;
    Ok(())
}

fn draw_kinds(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    graph: &MatchGraph,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let most = graph.kinds.iter().flatten().fold(1.0f64, |a, &b| a.max(b));
    let mut chart = ChartBuilder::on(area)
        .caption("Own moves per game, by kind", (FONT, 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..KINDS.len() as f64, 0.0..most * 1.2)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("moves per game")
        .max_light_lines(0)
        .label_style((FONT, 14))
        .draw()?;
    for (e, name) in graph.engines.iter().enumerate() {
        let color = ENGINE[e];
        let left = 0.12 + 0.38 * e as f64;
        chart
            .draw_series(graph.kinds[e].iter().enumerate().map(|(k, &v)| {
                let x = k as f64 + left;
                Rectangle::new([(x, 0.0), (x + 0.38, v)], color.filled())
            }))?
            .label(name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(GRID)
        .label_font((FONT, 14))
        .draw()?;
    let below = (FONT, 14)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (k, kind) in KINDS.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(k as f64 + 0.5, 0.0));
        root.draw(&Text::new(kind.to_string(), (x, y + 8), below.clone()))?;
    }
    Ok(())
}
