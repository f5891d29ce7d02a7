//! Evaluation weights, one file per board size (`s3.rs` .. `s8.rs`). The only home for
//! evaluation numbers.
//!
//! Each size's file is a full table: an `[opening, end]` pair of weights per feature (in
//! centiflats, 100 = one flat on top), in the order of [`NAMES`]. `cairn tune texel --write` generates
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

/// A prior for size `to` made from weights fitted at size `from`, for a size that has no fitted
/// weights of its own yet: every term keeps its weight, but for those whose meaning depends on
/// the board's width.
///
/// - Spans and lines (`span_k`, `line_k`: how far a road group reaches, how many road pieces a
///   free row or column holds) are matched by how far they are from a full road: `k` at size
///   `to` takes `k + from - to` at size `from`, kept within `1..from`, so the term one step short
///   of a road keeps the weight it has one step short at `from`. The empty line (`line_0`) keeps
///   its weight; indices the board cannot reach are 0.
/// - A square ring that `from` lacks (the inner ones, on a larger board) takes the weights of the
///   innermost ring `from` has, class by class; the classes a smaller board lacks are 0.
///
/// A transplant to the same size changes nothing.
pub const fn transplanted(weights: &Weights, from: usize, to: usize) -> Weights {
    use super::feature::{LINE, PSQT_CAP, PSQT_FLAT, PSQT_WALL, SPAN};
    let mut out = *weights;
    let families = [SPAN, LINE];
    // span_0..span_8 (and line_0..line_8): one entry per reach up to 8x8's.
    let family_len = LINE - SPAN;
    let mut f = 0;
    while f < families.len() {
        let base = families[f];
        let mut k = 1;
        while k < family_len {
            out.0[base + k] = if k >= to {
                [0, 0]
            } else {
                let shifted = k as isize + from as isize - to as isize;
                let at = if shifted < 1 {
                    1
                } else if shifted > from as isize - 1 {
                    from - 1
                } else {
                    shifted as usize
                };
                weights.0[base + at]
            };
            k += 1;
        }
        f += 1;
    }
    // Square classes are `hi · (hi + 1) / 2 + lo` for edge distances lo <= hi; a board of size n
    // has distances below (n + 1) / 2, 8x8 four of them (CLASSES = 4 · 5 / 2).
    let (rings_from, rings_to) = (from.div_ceil(2), to.div_ceil(2));
    let max_rings = 4;
    let tables = [PSQT_FLAT, PSQT_WALL, PSQT_CAP];
    let mut t = 0;
    while t < tables.len() {
        let mut hi = 0;
        while hi < max_rings {
            let mut lo = 0;
            while lo <= hi {
                let class = hi * (hi + 1) / 2 + lo;
                out.0[tables[t] + class] = if hi >= rings_to {
                    [0, 0]
                } else {
                    let h = if hi < rings_from { hi } else { rings_from - 1 };
                    let l = if lo < h { lo } else { h };
                    weights.0[tables[t] + h * (h + 1) / 2 + l]
                };
                lo += 1;
            }
            hi += 1;
        }
        t += 1;
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::feature::{FLAT, LINE, PSQT_CAP, PSQT_FLAT, SPAN, WALL};

    /// Weights whose every entry says where it came from.
    fn numbered() -> Weights {
        let mut w = Weights([[0; 2]; NF]);
        for (i, pair) in w.0.iter_mut().enumerate() {
            *pair = [i as i32 + 1, -(i as i32) - 1];
        }
        w
    }

    #[test]
    fn a_transplant_to_the_same_size_changes_nothing() {
        assert_eq!(transplanted(&s6::WEIGHTS, 6, 6), s6::WEIGHTS);
    }

    #[test]
    fn a_larger_board_matches_spans_and_lines_by_distance_to_a_road_and_copies_the_inner_ring() {
        let w = numbered();
        let t = transplanted(&w, 6, 8);
        for base in [SPAN, LINE] {
            // One, two and three steps short of a road: 7, 6, 5 on 8x8 take 5, 4, 3 on 6x6.
            assert_eq!(t.0[base + 7], w.0[base + 5]);
            assert_eq!(t.0[base + 6], w.0[base + 4]);
            assert_eq!(t.0[base + 5], w.0[base + 3]);
            // The short end is clamped to the shortest 6x6 term; the empty one stays.
            assert_eq!(t.0[base + 1], w.0[base + 1]);
            assert_eq!(t.0[base + 2], w.0[base + 1]);
            assert_eq!(t.0[base], w.0[base]);
            assert_eq!(t.0[base + 8], [0, 0]);
        }
        // 8x8's fourth ring (classes 6 to 9) copies 6x6's third (classes 3 to 5).
        for (ring4, ring3) in [(6, 3), (7, 4), (8, 5), (9, 5)] {
            assert_eq!(t.0[PSQT_FLAT + ring4], w.0[PSQT_FLAT + ring3]);
            assert_eq!(t.0[PSQT_CAP + ring4], w.0[PSQT_CAP + ring3]);
        }
        for class in 0..6 {
            assert_eq!(t.0[PSQT_FLAT + class], w.0[PSQT_FLAT + class]);
        }
        assert_eq!(t.0[FLAT], w.0[FLAT]);
        assert_eq!(t.0[WALL], w.0[WALL]);
    }

    #[test]
    fn a_smaller_board_drops_what_it_cannot_reach() {
        let w = numbered();
        let t = transplanted(&w, 6, 4);
        for base in [SPAN, LINE] {
            assert_eq!(t.0[base + 3], w.0[base + 5]);
            assert_eq!(t.0[base + 2], w.0[base + 4]);
            assert_eq!(t.0[base + 1], w.0[base + 3]);
            for k in 4..9 {
                assert_eq!(t.0[base + k], [0, 0], "index {k}");
            }
        }
        // 4x4 has two rings: classes 0 to 2.
        for class in 0..3 {
            assert_eq!(t.0[PSQT_FLAT + class], w.0[PSQT_FLAT + class]);
        }
        for class in 3..crate::eval::CLASSES {
            assert_eq!(t.0[PSQT_FLAT + class], [0, 0], "class {class}");
        }
    }
}
