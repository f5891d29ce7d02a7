//! Evaluation weights, one file per board size (`s3.rs` .. `s8.rs`). The only home for
//! evaluation numbers.
//!
//! Each size's file is a full table: an `[opening, end]` pair of weights per feature (in
//! centiflats, 100 = one flat on top), in the order of [`NAMES`]. `cairn tune --write` generates
//! and overwrites them with [`render`]; each records in its header where its numbers came from.

mod s3;
mod s4;
mod s5;
mod s6;
mod s7;
mod s8;

/// The number of features.
pub const NF: usize = 84;

/// The weights of one board size: `[opening, end]` per feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [[i32; 2]; NF]);

/// Feature names, in index order (see [`super::feature`]).
pub const NAMES: [&str; NF] = [
    "flat",
    "wall",
    "cap",
    "support_flat",
    "support_wall",
    "support_cap",
    "captive_flat",
    "captive_wall",
    "captive_cap",
    "center_0",
    "center_1",
    "center_2",
    "center_3",
    "span_0",
    "span_1",
    "span_2",
    "span_3",
    "span_4",
    "span_5",
    "span_6",
    "span_7",
    "span_8",
    "line_0",
    "line_1",
    "line_2",
    "line_3",
    "line_4",
    "line_5",
    "line_6",
    "line_7",
    "line_8",
    "tempo",
    "hard_cap",
    "support_deep",
    "captive_deep",
    "groups",
    "span_minor",
    "crit_mover",
    "crit_waiter",
    "crit_capturable",
    "crit_own_wall",
    "crit_blocked",
    "cap_reach",
    "cap_mobility",
    "wall_block",
    "wall_near",
    "influence",
    "reserves",
    "race",
    "cap_center",
    "exposed",
    "mobility",
    "parity",
    "psqt_flat_0",
    "psqt_flat_1",
    "psqt_flat_2",
    "psqt_flat_3",
    "psqt_flat_4",
    "psqt_flat_5",
    "psqt_flat_6",
    "psqt_flat_7",
    "psqt_flat_8",
    "psqt_flat_9",
    "psqt_wall_0",
    "psqt_wall_1",
    "psqt_wall_2",
    "psqt_wall_3",
    "psqt_wall_4",
    "psqt_wall_5",
    "psqt_wall_6",
    "psqt_wall_7",
    "psqt_wall_8",
    "psqt_wall_9",
    "psqt_cap_0",
    "psqt_cap_1",
    "psqt_cap_2",
    "psqt_cap_3",
    "psqt_cap_4",
    "psqt_cap_5",
    "psqt_cap_6",
    "psqt_cap_7",
    "psqt_cap_8",
    "psqt_cap_9",
    "white",
];

/// Weights for sizes 3..=8, indexed by size (0..=2 repeat 3x3).
pub const WEIGHTS: [&Weights; 9] = [
    &s3::WEIGHTS,
    &s3::WEIGHTS,
    &s3::WEIGHTS,
    &s3::WEIGHTS,
    &s4::WEIGHTS,
    &s5::WEIGHTS,
    &s6::WEIGHTS,
    &s7::WEIGHTS,
    &s8::WEIGHTS,
];

/// The source of a size's params file: `header` lines become `//!` doc lines after the title.
pub fn render(size: usize, weights: &Weights, header: &[String]) -> String {
    let mut out = format!(
        "//! {size}x{size} evaluation weights: `[opening, end]` per feature, in centiflats.\n//!\n"
    );
    for line in header {
        if line.is_empty() {
            out.push_str("//!\n");
        } else {
            out.push_str(&format!("//! {line}\n"));
        }
    }
    out.push_str("\nuse super::Weights;\n\n");
    out.push_str(&format!("/// The {size}x{size} weights.\n"));
    out.push_str("pub const WEIGHTS: Weights = Weights([\n");
    // Trailing comments aligned as rustfmt aligns them.
    let cells: Vec<String> = weights
        .0
        .iter()
        .map(|w| format!("[{}, {}],", w[0], w[1]))
        .collect();
    let width = cells.iter().map(String::len).max().unwrap_or(0);
    for (name, cell) in NAMES.iter().zip(&cells) {
        out.push_str(&format!("    {cell:<width$} // {name}\n"));
    }
    out.push_str("]);\n");
    out
}
