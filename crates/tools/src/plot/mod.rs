//! Pictures as SVG, drawn with `plotters` (its SVG backend, text laid out by its built-in
//! estimate, so the same data always gives the same bytes on every machine).
//!
//! The match picture, [`match_svg`] (in `matches`): titled with the engines, the games, the
//! score and the Elo with its interval; above, the first engine's Elo after each game with its
//! 95 % interval as a band, on an axis scaled to the data ([`elo_axis`]); below, how its games
//! ended with each colour and in all (wins, draws, losses, each by road, flats, time, forfeit or
//! otherwise), as bars with every count written out.
//!
//! (A game's evaluation graph is drawn by `cairn analyze --game --plot`, in
//! `analyze::graph`.) The pictures of the docs (`docs/pictures/`) are drawn by the commands,
//! run by `docs/pictures/make.sh`.

mod matches;

pub use matches::{elo_axis, match_svg, MatchGraph, Outcomes, DECISIVE};

use plotters::prelude::*;

const FONT: &str = "sans-serif";
const LINE: RGBColor = RGBColor(40, 70, 140);
const GRID: RGBColor = RGBColor(150, 150, 150);

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
