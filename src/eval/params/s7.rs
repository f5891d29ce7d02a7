//! 7x7 evaluation weights: `[opening, end]` per feature, in centiflats.
//!
//! No fitted 7x7 weights yet (Tiltak, whose games taught 4x4 to 6x6, does not play 7x7):
//! the fitted 6x6 weights as a prior ([`super::transplanted`]). They replaced the hand-set
//! weights after an SPRT against them (`cairn match`, 7x7, komi 2, 3+0.03, book
//! `openings/7s_4ply.txt`, one thread each, [0, 20]): +14 −0 in 14 games, llr 2.97, H1; a check run
//! after it: +7 −0 in 7 more games.
//! `cairn tune --write` overwrites this file with a fitted table.

use super::{s6, transplanted, Weights};

/// The 7x7 weights.
pub const WEIGHTS: Weights = transplanted(&s6::WEIGHTS, 6, 7);
