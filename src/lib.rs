//! Cairn: a Tak engine.
//!
//! The rules core every other part stands on:
//! - [`board`]: the bitboard [`board::Position`], generic over the board size `N` (3..=8), with
//!   incremental Zobrist hashing and allocation-free `make`/`unmake`;
//! - [`movegen`]: legal move generation from precomputed drop patterns, bulk move counting,
//!   legality checks, road-in-one detection and perft;
//! - [`notation`]: TPS, PTN moves and PTN game files.
//!
//! The engine on top of it:
//! - [`score`]: evaluations in centiflats and proven results by distance, with every way a
//!   score is written (below both the evaluation and the search);
//! - [`eval`]: the evaluation, linear in per-size weights; [`search`]: the parallel alpha-beta
//!   search; [`tinue`]: the forced-road prover;
//! - [`engine`]: the facade the protocols drive; [`tei`]: TEI on stdio; [`ws`]: TEI over
//!   WebSocket; [`playtak`]: a bot on playtak.com.
//!
//! And the tools behind the subcommands: [`analyze`], [`bench`](mod@bench), [`arena`] (`cairn match`),
//! [`openings`], [`tune`], [`tactics`] and [`fuzz`].
//!
//! The board size is a compile-time parameter inside the hot code; [`with_size!`] picks it once
//! at the edge from a runtime number.
//!
//! ```
//! use cairn::board::Position;
//! use cairn::notation::{parse_move, tps};
//! use cairn::movegen::perft;
//!
//! let mut pos = tps::parse::<5>("x5/x5/x5/x5/x5 1 1").unwrap();
//! assert_eq!(perft(&mut pos, 2), 600);
//! let mv = parse_move(&pos, "c3").unwrap();
//! pos.make(mv);
//! assert_eq!(tps::to_tps(&pos), "x5/x5/x2,2,x2/x5/x5 2 1");
//! ```

pub mod analyze;
pub mod arena;
pub mod bench;
pub mod board;
pub mod engine;
pub mod eval;
pub mod fuzz;
pub mod movegen;
pub mod notation;
pub mod openings;
pub mod playtak;
pub mod rng;
pub mod score;
pub mod search;
pub mod tactics;
pub mod tei;
pub mod tinue;
pub mod tune;
pub mod ws;

/// Runs `$body` with `$n` bound to a board size known at compile time, chosen from the runtime
/// value `$size`; evaluates `$other` for a size Cairn does not play.
///
/// ```
/// use cairn::board::Position;
/// fn squares(size: usize) -> Option<usize> {
///     cairn::with_size!(size, |N| Some(Position::<N>::start().empty().count() as usize), else None)
/// }
/// assert_eq!(squares(6), Some(36));
/// assert_eq!(squares(9), None);
/// ```
#[macro_export]
macro_rules! with_size {
    ($size:expr, |$n:ident| $body:expr, else $other:expr) => {
        match $size {
            3 => {
                const $n: usize = 3;
                $body
            }
            4 => {
                const $n: usize = 4;
                $body
            }
            5 => {
                const $n: usize = 5;
                $body
            }
            6 => {
                const $n: usize = 6;
                $body
            }
            7 => {
                const $n: usize = 7;
                $body
            }
            8 => {
                const $n: usize = 8;
                $body
            }
            _ => $other,
        }
    };
}
