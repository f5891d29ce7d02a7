//! Cairn's Tak rules crate: everything about the game of Tak, and nothing about protocols or
//! tools.
//!
//! - [`board`]: the bitboard [`board::Position`], generic over the board size `N` (3..=8), with
//!   incremental Zobrist hashing and allocation-free `make`/`unmake`;
//! - [`movegen`]: legal move generation from precomputed drop patterns, bulk move counting,
//!   legality checks, road-in-one detection and perft;
//! - [`notation`]: TPS, PTN moves and PTN game files;
//! - [`eval`]: the evaluation, linear in per-size weights or a network ([`eval::nnue`]);
//! - [`tinue`]: the forced-road prover;
//! - [`adapter`]: Tak's side of the game-neutral search ([`cairn_search::SearchGame`]).
//!
//! Its only dependencies are the search crate, rayon, smallvec and log: another Rust Tak project
//! can use it for the rules alone.
//!
//! The board size is a compile-time parameter inside the hot code; [`with_size!`] picks it once
//! at the edge from a runtime number.
//!
//! ```
//! use cairn_tak::board::Position;
//! use cairn_tak::notation::{parse_move, tps};
//! use cairn_tak::movegen::perft;
//!
//! let mut pos = tps::parse::<5>("x5/x5/x5/x5/x5 1 1").unwrap();
//! assert_eq!(perft(&mut pos, 2), 600);
//! let mv = parse_move(&pos, "c3").unwrap();
//! pos.make(mv);
//! assert_eq!(tps::to_tps(&pos), "x5/x5/x2,2,x2/x5/x5 2 1");
//! ```

pub mod adapter;
pub mod board;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod tinue;

/// Runs `$body` with `$n` bound to a board size known at compile time, chosen from the runtime
/// value `$size`; evaluates `$other` for a size Cairn does not play.
///
/// ```
/// use cairn_tak::board::Position;
/// fn squares(size: usize) -> Option<usize> {
///     cairn_tak::with_size!(size, |N| Some(Position::<N>::start().empty().count() as usize), else None)
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
