//! 8x8 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! No fitted 8x8 weights yet (Tiltak, whose games taught 4x4 to 6x6, does not play 8x8):
//! the fitted 6x6 weights as a prior ([`super::transplanted`]). They replaced the hand-set
//! weights after an SPRT against them (`cairn match`, 8x8, komi 2, 3+0.03, book
//! `openings/8s_4ply.txt`, one thread each, [0, 20]): +14 −0 in 14 games, llr 2.97, H1.
//! `cairn tune --write` overwrites this file with a fitted table.

use super::{s6, transplanted, Weights};

/// The 8x8 weights.
pub const WEIGHTS: Weights = transplanted(&s6::WEIGHTS, 6, 8);
