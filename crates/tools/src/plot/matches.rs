//! The match picture ([`match_svg`]): the title (engines, games, score, Elo with its interval);
//! above, the first engine's Elo after each game with its 95 % interval as a band, on an axis
//! scaled to what is drawn; below, how the first engine's games ended with each colour and in
//! all, as bars of wins, draws and losses split by how the game ended, each count written out.

use super::{failed, whole, FONT, GRID, LINE};
use crate::arena::Elo;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontStyle;

/// A match picture.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchGraph {
    /// The title: the match in one line.
    pub title: String,
    /// The two engines' names; Elo and outcomes are the first one's.
    pub engines: [String; 2],
    /// After each game: the Elo estimate and its 95 % interval.
    pub elo: Vec<Elo>,
    /// How the first engine's games ended: with White, with Black.
    pub outcomes: [Outcomes; 2],
}

/// How a decisive game ended, in the order of [`Outcomes::won`] and [`Outcomes::lost`].
pub const DECISIVE: [&str; 5] = ["road", "flats", "time", "forfeit", "other"];

/// How one engine's games (of one colour, or all) ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Games it won, by how they ended ([`DECISIVE`] order: a road, a flat win, the other's
    /// time, the other's forfeit, another decisive result such as a resignation).
    pub won: [usize; 5],
    /// Games it lost, likewise.
    pub lost: [usize; 5],
    /// Drawn games.
    pub drawn: usize,
    /// Games cut off unfinished (scored as draws).
    pub unfinished: usize,
}

impl Outcomes {
    /// Every game counted.
    pub fn games(&self) -> usize {
        self.wins() + self.losses() + self.drawn + self.unfinished
    }

    /// Games won.
    pub fn wins(&self) -> usize {
        self.won.iter().sum()
    }

    /// Games lost.
    pub fn losses(&self) -> usize {
        self.lost.iter().sum()
    }

    /// Both counts added.
    fn plus(&self, other: &Outcomes) -> Outcomes {
        let mut sum = *self;
        for k in 0..DECISIVE.len() {
            sum.won[k] += other.won[k];
            sum.lost[k] += other.lost[k];
        }
        sum.drawn += other.drawn;
        sum.unfinished += other.unfinished;
        sum
    }

    /// `+6 -8 =1`: wins, losses, draws (unfinished games among them).
    pub fn tally(&self) -> String {
        format!(
            "+{} -{} ={}",
            self.wins(),
            self.losses(),
            self.drawn + self.unfinished
        )
    }

    /// The counts in words, each kind that happened: `won 6 by road; lost 7 on flats, 1 on
    /// time; 1 draw`.
    pub fn words(&self) -> String {
        let how = |counts: &[usize; 5]| -> Vec<String> {
            counts
                .iter()
                .zip(WON_BY)
                .filter(|(n, _)| **n > 0)
                .map(|(n, by)| format!("{n} {by}"))
                .collect()
        };
        let mut parts = Vec::new();
        let won = how(&self.won);
        if !won.is_empty() {
            parts.push(format!("won {}", won.join(", ")));
        }
        let lost = how(&self.lost);
        if !lost.is_empty() {
            parts.push(format!("lost {}", lost.join(", ")));
        }
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        if self.drawn > 0 {
            parts.push(plural(self.drawn, "draw"));
        }
        if self.unfinished > 0 {
            parts.push(format!("{} unfinished", self.unfinished));
        }
        if parts.is_empty() {
            "no games".to_string()
        } else {
            parts.join("; ")
        }
    }
}

const MATCH_SIZE: (u32, u32) = (960, 765);
/// The height of the Elo panel (below the title).
const ELO_HEIGHT: u32 = 420;
/// An interval wider than this many Elo says next to nothing; the curve starts after the last
/// such one, when there is a narrower one to start from.
const ELO_WIDEST: f64 = 600.0;
/// The first engine's colour, the second's, a draw's, an unfinished game's.
const FIRST: RGBColor = LINE;
const SECOND: RGBColor = RGBColor(220, 120, 40);
const DRAW: RGBColor = RGBColor(150, 150, 150);
const UNFINISHED: RGBColor = RGBColor(205, 205, 205);
/// How much white each decisive kind mixes into its side's colour ([`DECISIVE`] order).
const SHADE: [f64; 5] = [0.0, 0.35, 0.6, 0.72, 0.82];

/// The match picture as an SVG document.
pub fn match_svg(graph: &MatchGraph) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, MATCH_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let title = (FONT, 21).into_font().style(FontStyle::Bold);
        let body = root.titled(&graph.title, title).map_err(failed)?;
        let (upper, lower) = body.split_vertically(ELO_HEIGHT);
        draw_elo(&upper, graph).map_err(failed)?;
        draw_outcomes(&lower, graph).map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// The Elo curve worth drawing and the axis that holds it: the first game drawn (1-based) and
/// the axis' low and high ends. The curve starts after the last game whose interval is
/// infinite (a match that one engine has won every game of so far) or wider than 600 Elo; if
/// even the last game's is that wide, after the last infinite one. The axis spans the drawn
/// estimates and intervals with a margin, rounded to its label step, and reaches 0 (even
/// strength) when that is within one span of the data. `None` when the last estimate is
/// infinite: nothing to draw.
pub fn elo_axis(elo: &[Elo]) -> Option<(usize, f64, f64)> {
    let finite = |e: &Elo| e.elo.is_finite() && e.low.is_finite() && e.high.is_finite();
    let narrow = |e: &Elo| finite(e) && e.high - e.low <= ELO_WIDEST;
    let after_last = |ok: &dyn Fn(&Elo) -> bool| match elo.iter().rposition(|e| !ok(e)) {
        None => 1,
        Some(i) => i + 2,
    };
    let start = match after_last(&narrow) {
        s if s <= elo.len() => s,
        _ => after_last(&finite),
    };
    let drawn = elo.get(start.checked_sub(1)?..).filter(|d| !d.is_empty())?;
    let mut lo = drawn
        .iter()
        .map(|e| e.low.min(e.elo))
        .fold(f64::INFINITY, f64::min);
    let mut hi = drawn
        .iter()
        .map(|e| e.high.max(e.elo))
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (hi - lo).max(20.0);
    if lo > 0.0 && lo < span {
        lo = 0.0;
    }
    if hi < 0.0 && -hi < span {
        hi = 0.0;
    }
    let margin = ((hi - lo) * 0.08).max(10.0);
    let step = label_step(hi - lo + 2.0 * margin);
    let lo = ((lo - margin) / step).floor() * step;
    let hi = ((hi + margin) / step).ceil() * step;
    Some((start, lo, hi))
}

/// A round step that cuts `span` into about four to ten parts.
fn label_step(span: f64) -> f64 {
    let mut step = 10.0;
    for _ in 0..12 {
        for m in [1.0, 2.0, 2.5, 5.0] {
            if span / (step * m) <= 10.0 {
                return step * m;
            }
        }
        step *= 10.0;
    }
    step
}

/// `+58 [-63, +180]`.
fn elo_words(e: &Elo) -> String {
    format!("{:+.0} [{:+.0}, {:+.0}]", e.elo, e.low, e.high)
}

fn draw_elo(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    graph: &MatchGraph,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let n = graph.elo.len();
    let caption = format!(
        "Elo of {} against {} after each game, with its 95% interval",
        graph.engines[0], graph.engines[1]
    );
    let Some((start, lo, hi)) = elo_axis(&graph.elo) else {
        let (w, h) = area.dim_in_pixel();
        let centre = Pos::new(HPos::Center, VPos::Center);
        area.draw(&Text::new(
            caption,
            (w as i32 / 2, 24),
            (FONT, 16).into_font().color(&BLACK).pos(centre),
        ))?;
        let words = if n == 0 {
            "No games yet.".to_string()
        } else {
            format!(
                "No finite Elo yet: one engine has won all {n} game{}.",
                if n == 1 { "" } else { "s" }
            )
        };
        area.draw(&Text::new(
            words,
            (w as i32 / 2, h as i32 / 2),
            (FONT, 16).into_font().color(&DRAW).pos(centre),
        ))?;
        return Ok(());
    };
    let xs = 0.5..(n as f64 + 0.5).max(1.5);
    let step = label_step(hi - lo);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 16))
        .margin(12)
        .margin_right(24)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(xs.clone(), lo..hi)?;
    chart
        .configure_mesh()
        .x_desc("games played")
        .y_desc("Elo")
        .x_label_formatter(&|x| whole(*x))
        .y_labels(((hi - lo) / step).round() as usize + 1)
        .y_label_formatter(&|y| format!("{y:+.0}"))
        .max_light_lines(0)
        .light_line_style(WHITE)
        .bold_line_style(GRID.mix(0.35))
        .label_style((FONT, 14))
        .draw()?;
    let drawn: Vec<(f64, &Elo)> = graph.elo[start - 1..]
        .iter()
        .enumerate()
        .map(|(i, e)| ((start + i) as f64, e))
        .collect();
    let band: Vec<(f64, f64)> = drawn
        .iter()
        .map(|&(x, e)| (x, e.high))
        .chain(drawn.iter().rev().map(|&(x, e)| (x, e.low)))
        .collect();
    chart.draw_series(std::iter::once(Polygon::new(
        band,
        FIRST.mix(0.18).filled(),
    )))?;
    if lo < 0.0 && hi > 0.0 {
        chart.draw_series(DashedLineSeries::new(
            [(xs.start, 0.0), (xs.end, 0.0)],
            6,
            4,
            GRID.stroke_width(1),
        ))?;
    }
    let line: Vec<(f64, f64)> = drawn.iter().map(|&(x, e)| (x, e.elo)).collect();
    chart.draw_series(LineSeries::new(line.iter().copied(), FIRST.stroke_width(2)))?;
    chart.draw_series(line.iter().map(|&p| Circle::new(p, 3, FIRST.filled())))?;
    let plot = chart.plotting_area();
    if start > 1 {
        let note = if start == 2 {
            "game 1: interval too wide to draw".to_string()
        } else {
            format!("games 1\u{2013}{}: interval too wide to draw", start - 1)
        };
        let (x, y) = chart.backend_coord(&(xs.start, hi));
        let style = (FONT, 13)
            .into_font()
            .color(&DRAW)
            .pos(Pos::new(HPos::Left, VPos::Top));
        area.draw(&Text::new(note, (x + 8, y + 6), style))?;
    }
    // The final estimate, written above the last point (left of it, inside the frame).
    let (x, last) = drawn[drawn.len() - 1];
    let up = last.elo < (lo + hi) / 2.0;
    let anchor = Pos::new(HPos::Right, if up { VPos::Bottom } else { VPos::Top });
    let words = (FONT, 15)
        .into_font()
        .style(FontStyle::Bold)
        .color(&FIRST)
        .pos(anchor);
    let offset = (-6, if up { -10 } else { 10 });
    plot.draw(&(EmptyElement::at((x, last.elo)) + Text::new(elo_words(last), offset, words)))?;
    Ok(())
}

/// A bar segment: how many games, its colour, and its legend key: the engine whose win it is
/// (none for a draw or an unfinished game) and how.
struct Segment {
    games: usize,
    color: RGBColor,
    winner: Option<usize>,
    how: &'static str,
}

/// How a decisive game was won, in words ([`DECISIVE`] order).
const WON_BY: [&str; 5] = ["by road", "on flats", "on time", "by forfeit", "otherwise"];

/// The segments of one bar, left to right: the first engine's wins (by road first), draws,
/// unfinished games, the second engine's wins (by road last).
fn segments(o: &Outcomes) -> Vec<Segment> {
    let win = |winner: usize, k: usize, games: usize| Segment {
        games,
        color: mixed([FIRST, SECOND][winner], SHADE[k]),
        winner: Some(winner),
        how: WON_BY[k],
    };
    let mut out: Vec<Segment> = (0..DECISIVE.len()).map(|k| win(0, k, o.won[k])).collect();
    out.push(Segment {
        games: o.drawn,
        color: DRAW,
        winner: None,
        how: "draw",
    });
    out.push(Segment {
        games: o.unfinished,
        color: UNFINISHED,
        winner: None,
        how: "unfinished",
    });
    out.extend((0..DECISIVE.len()).rev().map(|k| win(1, k, o.lost[k])));
    out
}

/// `color` with `white` parts of white mixed in.
fn mixed(color: RGBColor, white: f64) -> RGBColor {
    let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * white).round() as u8;
    RGBColor(mix(color.0), mix(color.1), mix(color.2))
}

/// Whether white text reads on `color`.
fn dark(color: RGBColor) -> bool {
    let RGBColor(r, g, b) = color;
    0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b) < 150.0
}

/// A crude width of `text` at `size`, in pixels (enough for spacing the legend).
fn text_width(text: &str, size: f64) -> i32 {
    (text.chars().count() as f64 * size / 1.24 * 0.58).ceil() as i32
}

fn draw_outcomes(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    graph: &MatchGraph,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let (width, _) = area.dim_in_pixel();
    let width = width as i32;
    let [white, black] = graph.outcomes;
    let rows = [
        ("as White", white),
        ("as Black", black),
        ("all games", white.plus(&black)),
    ];
    let centre = Pos::new(HPos::Center, VPos::Top);
    area.draw(&Text::new(
        format!("How the games of {} ended, by colour", graph.engines[0]),
        (width / 2, 4),
        (FONT, 16).into_font().color(&BLACK).pos(centre),
    ))?;
    let (left, right) = (200, width - 24);
    let row_top = |i: usize| 38 + 72 * i as i32;
    let left_top = Pos::new(HPos::Left, VPos::Top);
    let label = (FONT, 16)
        .into_font()
        .style(FontStyle::Bold)
        .color(&BLACK)
        .pos(left_top);
    let small = (FONT, 14).into_font().color(&BLACK.mix(0.75)).pos(left_top);
    // Which segments are drawn anywhere: (winner, how), for the legend.
    let mut used: Vec<(Option<usize>, &str)> = Vec::new();
    for (i, (name, o)) in rows.iter().enumerate() {
        let top = row_top(i);
        let games = o.games();
        area.draw(&Text::new(name.to_string(), (24, top + 1), label.clone()))?;
        let plural = if games == 1 { "" } else { "s" };
        let summary = format!("{} ({games} game{plural})", o.tally());
        area.draw(&Text::new(summary, (24, top + 21), small.clone()))?;
        area.draw(&Text::new(o.words(), (left, top + 34), small.clone()))?;
        let bar = (top, top + 28);
        if games == 0 {
            area.draw(&Rectangle::new(
                [(left, bar.0), (right, bar.1)],
                GRID.mix(0.5),
            ))?;
            continue;
        }
        let per_game = f64::from(right - left) / games as f64;
        let mut done = 0usize;
        for s in segments(o) {
            if s.games == 0 {
                continue;
            }
            let x0 = left + (done as f64 * per_game).round() as i32;
            done += s.games;
            let x1 = left + (done as f64 * per_game).round() as i32;
            area.draw(&Rectangle::new(
                [(x0, bar.0), (x1, bar.1)],
                s.color.filled(),
            ))?;
            area.draw(&Rectangle::new(
                [(x0, bar.0), (x1, bar.1)],
                WHITE.stroke_width(1),
            ))?;
            let ink = if dark(s.color) { WHITE } else { BLACK };
            let count = s.games.to_string();
            if x1 - x0 >= text_width(&count, 15.0) + 4 {
                let style = (FONT, 15)
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                area.draw(&Text::new(
                    count,
                    ((x0 + x1) / 2, (bar.0 + bar.1) / 2),
                    style,
                ))?;
            }
            if !used.contains(&(s.winner, s.how)) {
                used.push((s.winner, s.how));
            }
        }
    }
    // The legend: a line per engine, its wins by how, road first; draws and unfinished games
    // end the first engine's line. Only what is drawn.
    let font = (FONT, 14)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let all = segments(&Outcomes::default());
    let lines = [
        (
            Some(0),
            (0..DECISIVE.len())
                .chain([DECISIVE.len(), DECISIVE.len() + 1])
                .collect::<Vec<_>>(),
        ),
        (
            Some(1),
            (0..DECISIVE.len()).map(|k| all.len() - 1 - k).collect(),
        ),
    ];
    let mut y = row_top(rows.len()) + 2;
    for (winner, order) in lines {
        let keys: Vec<&Segment> = order
            .iter()
            .map(|&i| &all[i])
            .filter(|s| used.contains(&(s.winner, s.how)))
            .collect();
        if keys.is_empty() {
            continue;
        }
        let mut x = 24;
        if let Some(e) = winner.filter(|_| keys.iter().any(|s| s.winner.is_some())) {
            let head = format!("{} won", graph.engines[e]);
            area.draw(&Text::new(head.clone(), (x, y), font.clone()))?;
            x += text_width(&head, 14.0) + 14;
        }
        for s in keys {
            if s.winner.is_none() && x > 24 {
                x += 16;
            }
            area.draw(&Rectangle::new(
                [(x, y - 7), (x + 14, y + 7)],
                s.color.filled(),
            ))?;
            area.draw(&Text::new(s.how, (x + 20, y), font.clone()))?;
            x += 20 + text_width(s.how, 14.0) + 18;
        }
        y += 24;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elo(elo: f64, low: f64, high: f64) -> Elo {
        Elo { elo, low, high }
    }

    /// Infinite and very wide intervals are not drawn; the axis spans what is, with a margin,
    /// and reaches 0 when 0 is near the data.
    #[test]
    fn the_axis_follows_the_data() {
        let inf = f64::INFINITY;
        let games = [
            elo(inf, 200.0, inf),
            elo(inf, 150.0, inf),
            elo(350.0, -100.0, 900.0),
            elo(240.0, 120.0, 390.0),
            elo(220.0, 146.0, 297.0),
        ];
        let (start, lo, hi) = elo_axis(&games).unwrap();
        assert_eq!(start, 4);
        assert!(lo <= 0.0 && lo > -60.0, "{lo}");
        assert!((390.0..500.0).contains(&hi), "{hi}");
        // Far from 0, the axis leaves 0 out.
        let strong = [elo(700.0, 650.0, 760.0), elo(690.0, 660.0, 730.0)];
        let (start, lo, hi) = elo_axis(&strong).unwrap();
        assert_eq!(start, 1);
        assert!(
            (550.0..650.0).contains(&lo) && (760.0..850.0).contains(&hi),
            "{lo} {hi}"
        );
        // And the other way round.
        let weak = strong.map(|e| elo(-e.elo, -e.high, -e.low));
        assert_eq!(elo_axis(&weak), Some((1, -hi, -lo)));
        // Only wide intervals: the curve starts after the last infinite one.
        let wide = [elo(-inf, -inf, 100.0), elo(0.0, -700.0, 700.0)];
        assert_eq!(elo_axis(&wide).map(|a| a.0), Some(2));
        // Nothing finite: nothing to draw.
        assert_eq!(elo_axis(&games[..2]), None);
        assert_eq!(elo_axis(&[]), None);
    }

    #[test]
    fn outcomes_in_words() {
        let o = Outcomes {
            won: [6, 0, 0, 0, 1],
            lost: [0, 7, 1, 0, 0],
            drawn: 1,
            unfinished: 0,
        };
        assert_eq!(o.tally(), "+7 -8 =1");
        assert_eq!(
            o.words(),
            "won 6 by road, 1 otherwise; lost 7 on flats, 1 on time; 1 draw"
        );
        assert_eq!(Outcomes::default().words(), "no games");
        assert_eq!(label_step(545.0 * 1.16), 100.0);
    }
}
