//! Cairn: a Tak engine.
//!
//! The rules core every other part stands on:
//! - [`board`]: the bitboard [`board::Position`], generic over the board size `N` (3..=8), with
//!   incremental Zobrist hashing and allocation-free `make`/`unmake`;
//! - [`movegen`]: legal move generation from precomputed drop patterns, bulk move counting,
//!   legality checks, road-in-one detection and perft;
//! - [`notation`]: TPS, PTN moves and PTN game files.
//!
//! Below it and below the search, knowing no game: [`score`] (evaluations and proven results
//! by distance, with every way the protocol writes a score), [`repetition`] (the hashes of a
//! game's positions), [`rng`] and [`timestamp`].
//!
//! The engine on top of it:
//! - [`search`]: the parallel alpha-beta search, written against a game trait
//!   ([`search::SearchGame`]) that [`tak`] implements for Tak and [`tablut`] for Tablut, the
//!   second game;
//! - [`eval`]: Tak's evaluation, linear in per-size weights or a network ([`eval::nnue`]);
//!   [`tinue`]: the forced-road prover;
//! - [`engine`]: the facade the protocols drive; [`tei`]: TEI on stdio; [`ws`]: TEI over
//!   WebSocket; [`playtak`]: a bot on playtak.com.
//!
//! And the tools behind the subcommands: [`analyze`], [`bench`](mod@bench), [`arena`] (`cairn match`),
//! [`report`] (`cairn report`), [`openings`], [`tune`], [`tactics`] and [`fuzz`]; with what
//! they show people: [`chance`] (evaluations as winning chances), [`plot`] (SVG pictures) and
//! [`ninja`] (links into PTN Ninja).
//!
//! README.md ("How the code is layered") says which of these may use which, and
//! `tests/all/layering.rs` holds every import to it.
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
pub mod chance;
pub mod engine;
pub mod eval;
pub mod fuzz;
pub mod movegen;
pub mod ninja;
pub mod notation;
pub mod openings;
pub mod playtak;
pub mod plot;
pub mod repetition;
pub mod report;
pub mod rng;
pub mod score;
pub mod search;
pub mod tablut;
pub mod tactics;
pub mod tak;
pub mod tei;
pub mod timestamp;
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
        $crate::board_sizes!($crate::__with_size_match!($size, $n, $body, $other))
    };
}

/// The list of board sizes Cairn plays, written once: hands the sizes (integer literals, in
/// increasing order) to another macro, after its own arguments and a `;`. [`with_size!`] and
/// [`board::SIZES`] are built from it; a size added here must also get its reserves in
/// [`board::reserves_for_size`] (a test checks that the two agree).
#[macro_export]
macro_rules! board_sizes {
    ($callback:ident ! ($($args:tt)*)) => {
        $callback!($($args)* ; 3 4 5 6 7 8)
    };
    ($krate:tt :: $callback:ident ! ($($args:tt)*)) => {
        $krate::$callback!($($args)* ; 3 4 5 6 7 8)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_size_match {
    ($size:expr, $n:ident, $body:expr, $other:expr ; $($s:literal)*) => {
        match $size {
            $(
                $s => {
                    const $n: usize = $s;
                    $body
                }
            )*
            _ => $other,
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __size_range {
    (; $($s:literal)*) => {{
        const LIST: &[usize] = &[$($s),*];
        LIST[0]..=LIST[LIST.len() - 1]
    }};
}
