//! Static evaluation, in centiflats from the side to move's point of view.
//!
//! Terms, each per colour and then differenced:
//! - material on top: flats (weighted more as reserves run out, with komi in Black's favour),
//!   walls and capstones;
//! - stack composition: own pieces under own tops (supply; more under walls and capstones, which
//!   cannot be covered) and captured opponent pieces, counted up to the carry limit;
//! - centre control of top pieces;
//! - road potential: connected road groups by their span, and ranks and files by how many road
//!   pieces they hold when the opponent has nothing hard in them;
//! - a tempo bonus for the side to move.
//!
//! Proven results (roads, flat ends) are the search's job, not the evaluation's.

pub mod params;

use crate::board::{Color, Geo, Position, Square};
use crate::search::Score;
use params::{EvalParams, PARAMS};

/// Distance of each square from the edge ring, per size.
const fn rings(n: usize) -> [u8; 64] {
    let mut out = [0u8; 64];
    let mut sq = 0;
    while sq < n * n {
        let (f, r) = (sq % n, sq / n);
        let a = if f < n - 1 - f { f } else { n - 1 - f };
        let b = if r < n - 1 - r { r } else { n - 1 - r };
        out[sq] = if a < b { a } else { b } as u8;
        sq += 1;
    }
    out
}

struct Tables<const N: usize>;
impl<const N: usize> Tables<N> {
    const RINGS: [u8; 64] = rings(N);
    /// Each rank and each file as a mask.
    const LINES: [u64; 16] = {
        let mut lines = [0u64; 16];
        let mut i = 0;
        while i < N {
            lines[i] = Geo::<N>::SOUTH << (i * N);
            lines[N + i] = Geo::<N>::WEST << i;
            i += 1;
        }
        lines
    };
}

/// The evaluation of `pos` for the side to move.
pub fn evaluate<const N: usize>(pos: &Position<N>) -> Score {
    let p = &PARAMS[N];
    let white = side::<N>(pos, Color::White, p);
    let black = side::<N>(pos, Color::Black, p);
    let total = 2 * (Position::<N>::STONES + Position::<N>::CAPSTONES) as i32;
    let left: i32 = Color::ALL
        .iter()
        .map(|&c| (pos.stones_left(c) + pos.caps_left(c)) as i32)
        .sum();
    // Flat lead in half flats, komi included, weighted by how far the game has run.
    let flat_weight = p.flat[0] + (p.flat[1] - p.flat[0]) * (total - left) / total;
    let half_flats = 2
        * (pos.flats(Color::White).count() as i32 - pos.flats(Color::Black).count() as i32)
        - pos.half_komi() as i32;
    let mut score = white - black + half_flats * flat_weight / 2;
    if pos.side_to_move() == Color::Black {
        score = -score;
    }
    Score(score + p.tempo)
}

/// Everything but the flat count, for one colour.
fn side<const N: usize>(pos: &Position<N>, color: Color, p: &EvalParams) -> i32 {
    let mine = pos.controlled(color);
    let theirs = pos.controlled(!color);
    let mut score =
        (mine & pos.walls()).count() as i32 * p.wall + (mine & pos.caps()).count() as i32 * p.cap;

    for sq in mine {
        score += p.center[Tables::<N>::RINGS[sq.index()].min(3) as usize];
        let height = pos.height(sq);
        if height > 1 {
            let hard = pos.walls().contains(sq) || pos.caps().contains(sq);
            let (own, other) = under_top(pos, sq, color);
            let support = if hard { p.support_hard } else { p.support_flat };
            score += own * support + other * p.captive;
        }
    }

    let road = pos.road_pieces(color).0;
    let mut rest = road;
    while rest != 0 {
        let group = Geo::<N>::flood(rest & rest.wrapping_neg(), road);
        rest &= !group;
        let files = (0..N)
            .filter(|&f| group & Tables::<N>::LINES[N + f] != 0)
            .count();
        let ranks = (0..N)
            .filter(|&r| group & Tables::<N>::LINES[r] != 0)
            .count();
        score += p.group_span[files.max(ranks)];
    }
    let hard_theirs = (theirs & (pos.walls() | pos.caps())).0;
    for &line in &Tables::<N>::LINES[..2 * N] {
        if line & hard_theirs == 0 {
            score += p.line[(line & road).count_ones() as usize];
        }
    }
    score
}

/// Own and opponent pieces directly under the top of `sq`, within the carry limit.
fn under_top<const N: usize>(pos: &Position<N>, sq: Square, color: Color) -> (i32, i32) {
    let height = pos.height(sq);
    let depth = (height - 1).min(N - 1);
    let mut own = 0;
    for i in height - 1 - depth..height - 1 {
        own += (pos.color_at(sq, i) == color) as i32;
    }
    (own, depth as i32 - own)
}
