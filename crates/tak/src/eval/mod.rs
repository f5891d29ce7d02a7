//! Static evaluation, in centiflats from the side to move's point of view.
//!
//! The evaluation is linear in its weights: every term is a whole-number feature of the position
//! ([`features`]), seen from the side to move (own count minus the opponent's, except the few
//! terms that are about who is to move), and each feature has two weights, one for the opening
//! and one for the end of the game. They are blended by the phase `u / T` (`u` pieces of the `T`
//! in both reserves have been played):
//!
//! `eval = Σ f_i · (w_i,open · (T − u) + w_i,end · u) / T`, truncated toward zero.
//!
//! The features (see [`params::NAMES`]):
//! - material: the flat lead in half flats with komi, walls, capstones (hard ones, with an own
//!   piece right below, count extra) and the reserve difference; the flat lead again in a flat
//!   race (a player with 3 or fewer pieces left or 3 or fewer empty squares);
//! - stack composition: own pieces (supports) and opponent pieces (captives) under flats, walls
//!   and capstones within the carry limit, and both deeper down;
//! - centre: top pieces by distance from the edge, capstones off the edge;
//! - road potential: connected road groups by the number of ranks or files they span (and the
//!   smaller span), the number of groups, ranks and files by how many road pieces they hold when
//!   the opponent has nothing hard in them;
//! - critical squares (a road piece there completes a road): empty ones of the side to move and of
//!   the opponent, and the others by what is on them; capstones next to their critical squares,
//!   capstone mobility; walls next to the opponent's critical squares or road pieces; empty squares
//!   next to two or more road pieces of one player (influence);
//! - the flat game: own flats next to an opponent capstone or stack that can spread onto them
//!   (exposed), own pieces under own flats and capstones times the open squares around them
//!   (mobility), and, with two rows' worth of empty squares or fewer, whether the side to move
//!   would place on the last one if both players filled the board (parity);
//! - a tempo bonus for the side to move.
//!
//! [`evaluate`] (the search's, run at every leaf) and [`features`] (the tuner's) share one feature
//! extraction, [`extract`], through the [`Sink`] it reports to. Nothing allocates. Proven results
//! (roads, flat ends) are the search's job, not the evaluation's.

pub mod nnue;
pub mod params;

use crate::board::{roads, Bitboard, Color, Geo, Position, Roads, Square};
use cairn_search::score::Score;
use params::{Weights, NF};

/// Feature indices (see [`params::NAMES`] for their names).
#[allow(missing_docs)]
pub mod feature {
    pub const FLAT: usize = 0;
    pub const WALL: usize = 1;
    pub const CAP: usize = 2;
    pub const SUPPORT_FLAT: usize = 3;
    pub const SUPPORT_WALL: usize = 4;
    pub const SUPPORT_CAP: usize = 5;
    pub const CAPTIVE_FLAT: usize = 6;
    pub const CAPTIVE_WALL: usize = 7;
    pub const CAPTIVE_CAP: usize = 8;
    /// Four features: top pieces by ring (0 = edge, 3 = third ring or deeper).
    pub const CENTER: usize = 9;
    /// Nine features: road groups by span 0..=8.
    pub const SPAN: usize = 13;
    /// Nine features: clean ranks and files by road pieces 0..=8.
    pub const LINE: usize = 22;
    pub const TEMPO: usize = 31;
    pub const HARD_CAP: usize = 32;
    pub const SUPPORT_DEEP: usize = 33;
    pub const CAPTIVE_DEEP: usize = 34;
    pub const GROUPS: usize = 35;
    pub const SPAN_MINOR: usize = 36;
    pub const CRIT_MOVER: usize = 37;
    pub const CRIT_WAITER: usize = 38;
    pub const CRIT_CAPTURABLE: usize = 39;
    pub const CRIT_OWN_WALL: usize = 40;
    pub const CRIT_BLOCKED: usize = 41;
    pub const CAP_REACH: usize = 42;
    pub const CAP_MOBILITY: usize = 43;
    pub const WALL_BLOCK: usize = 44;
    pub const WALL_NEAR: usize = 45;
    pub const INFLUENCE: usize = 46;
    pub const RESERVES: usize = 47;
    pub const RACE: usize = 48;
    pub const CAP_CENTER: usize = 49;
    pub const EXPOSED: usize = 50;
    pub const MOBILITY: usize = 51;
    pub const PARITY: usize = 52;
    /// Ten features each: flats, walls and capstones on top by square class (see [`CLASSES`]).
    ///
    /// [`CLASSES`]: super::CLASSES
    pub const PSQT_FLAT: usize = 53;
    pub const PSQT_WALL: usize = 63;
    pub const PSQT_CAP: usize = 73;
    /// The side to move is White (+1) or Black (−1).
    pub const WHITE: usize = 83;
}

/// Square classes: a square's distances from the nearer file edge and the nearer rank edge,
/// unordered, as `hi · (hi + 1) / 2 + lo` (0 = corner, 1 = edge next to the corner, 2 = the
/// second ring's corner, …, 9 = the centre of 8×8). Sizes below 8 use the first few.
pub const CLASSES: usize = 10;

/// Receives the features of a position, one by one.
pub trait Sink {
    /// Adds `value` to feature `index`.
    fn add(&mut self, index: usize, value: i32);

    /// Adds the features that each top piece of one player adds alone, by its role and square
    /// (walls and capstones counted, pieces by ring, capstones off the edge, pieces by square
    /// class); `tops` are the player's flats, walls and capstones, `sign` +1 for the side to move
    /// and −1 for the other.
    #[inline(always)]
    fn pieces<const N: usize>(&mut self, tops: [u64; 3], sign: i32)
    where
        Self: Sized,
    {
        piece_features::<N, Self>(tops, sign, self);
    }
}

/// The features of one position: whole-number values and the game phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Feature values, from the side to move's point of view.
    pub values: [i32; NF],
    /// Pieces played from both reserves.
    pub used: i32,
    /// Pieces in both reserves at the start.
    pub total: i32,
}

impl Sink for Features {
    #[inline(always)]
    fn add(&mut self, index: usize, value: i32) {
        self.values[index] += value;
    }
}

impl Features {
    /// The evaluation these features give with `weights`, exactly as [`evaluate`] computes it.
    pub fn dot(&self, weights: &Weights) -> i32 {
        let (early, late) = ((self.total - self.used) as i64, self.used as i64);
        let sum: i64 = self
            .values
            .iter()
            .zip(&weights.0)
            .map(|(&f, w)| f as i64 * (w[0] as i64 * early + w[1] as i64 * late))
            .sum();
        (sum / self.total as i64) as i32
    }

    /// The phase-split inputs of the linear model: `2 * NF` values, feature `i`'s opening part at
    /// `2i` (`f · (T − u) / T`) and its end part at `2i + 1` (`f · u / T`).
    pub fn split(&self) -> [f32; 2 * NF] {
        let late = self.used as f32 / self.total as f32;
        let mut out = [0f32; 2 * NF];
        for (i, &f) in self.values.iter().enumerate() {
            out[2 * i] = f as f32 * (1.0 - late);
            out[2 * i + 1] = f as f32 * late;
        }
        out
    }
}

/// Adds features weighted by any weights into two running sums, one per phase weight, tapered
/// once at the end ([`evaluate_with`]).
struct Accumulator<'a> {
    weights: &'a Weights,
    early: i64,
    late: i64,
}

impl Sink for Accumulator<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, value: i32) {
        let w = self.weights.0[index];
        self.early += value as i64 * w[0] as i64;
        self.late += value as i64 * w[1] as i64;
    }
}

/// A weight pair `[opening, end]` as one integer, `end · 2³² + opening`, so that one product
/// and one sum serve both phases: the sum of `value · pack(w)` over the features is `L · 2³² +
/// E`, where `E` and `L` are the sums by the opening and the end weights, and [`unpack`] gives
/// them back exactly while both lie inside the `i32` range.
///
/// That holds for the shipped weights. [`Tables::PACKED`] refuses to build unless each is below
/// [`PACKED_WEIGHT_MAX`] in size; no feature's value reaches 1,024 (each counts squares, at most
/// 64, pieces, at most 104 on 8×8, pieces times their four neighbours, or the flat lead in half
/// flats with komi); and a piece's table row sums at most four weights. So `|E|` and `|L|` stay
/// below `(84 · 1,024 + 104 · 4) · 4,096`, under 2³¹ / 6. The test that the evaluation is linear
/// in its weights checks the shipped path against the features dotted with the weights at every
/// size.
const fn pack(w: [i32; 2]) -> i64 {
    w[1] as i64 * (1 << 32) + w[0] as i64
}

/// The opening and end sums of a sum of [`pack`]ed weights.
#[inline(always)]
fn unpack(sum: i64) -> (i64, i64) {
    let early = sum as i32 as i64;
    (early, (sum - early) >> 32)
}

/// The largest size of a shipped weight that [`pack`] takes (the largest is 465).
const PACKED_WEIGHT_MAX: i32 = 4096;

/// The shipped weights, [`pack`]ed.
type PackedWeights = [i64; NF];

/// Adds features weighted by the shipped weights into one packed sum (the search's path): the
/// weights a top piece adds alone come from [`PieceTable`] rows, one per piece.
struct Packed {
    weights: &'static PackedWeights,
    pieces: &'static PieceTable,
    sum: i64,
}

impl Sink for Packed {
    #[inline(always)]
    fn add(&mut self, index: usize, value: i32) {
        self.sum += value as i64 * self.weights[index];
    }

    #[inline(always)]
    fn pieces<const N: usize>(&mut self, tops: [u64; 3], sign: i32) {
        let mut sum = 0i64;
        for (rows, &set) in self.pieces.iter().zip(&tops) {
            for sq in Bitboard(set) {
                sum += rows[sq.index()];
            }
        }
        self.sum += sign as i64 * sum;
    }
}

/// By role (flat, wall, capstone) and square, the weights a top piece there adds alone
/// ([`piece_features`]), summed and [`pack`]ed.
type PieceTable = [[i64; 64]; 3];

/// The shipped `weights`, [`pack`]ed, checked against [`PACKED_WEIGHT_MAX`].
const fn packed_weights(weights: &Weights) -> PackedWeights {
    let mut out = [0i64; NF];
    let mut i = 0;
    while i < NF {
        let w = weights.0[i];
        assert!(
            w[0].abs() < PACKED_WEIGHT_MAX && w[1].abs() < PACKED_WEIGHT_MAX,
            "a shipped weight is too large to pack"
        );
        out[i] = pack(w);
        i += 1;
    }
    out
}

/// The [`PieceTable`] of `weights` on an `n`×`n` board.
const fn piece_table(n: usize, weights: &Weights) -> PieceTable {
    use feature::*;
    let rings = rings(n);
    let classes = classes(n);
    let mut table = [[0i64; 64]; 3];
    let mut sq = 0;
    while sq < n * n {
        let bit = 1u64 << sq;
        let mut ring = 0;
        while rings[ring] & bit == 0 {
            ring += 1;
        }
        let mut class = 0;
        while classes[class] & bit == 0 {
            class += 1;
        }
        let mut row = [[0i32; 2]; 3];
        let mut phase = 0;
        while phase < 2 {
            let w = &weights.0;
            let center = w[CENTER + ring][phase];
            row[0][phase] = center + w[PSQT_FLAT + class][phase];
            row[1][phase] = center + w[PSQT_WALL + class][phase] + w[WALL][phase];
            let cap_center = if ring > 0 { w[CAP_CENTER][phase] } else { 0 };
            row[2][phase] = center + w[PSQT_CAP + class][phase] + w[CAP][phase] + cap_center;
            phase += 1;
        }
        let mut role = 0;
        while role < 3 {
            table[role][sq] = pack(row[role]);
            role += 1;
        }
        sq += 1;
    }
    table
}

/// The features one player's top pieces add alone, by role and square (`tops`: its flats,
/// walls and capstones; `sign`: +1 for the side to move, −1 for the other): walls and
/// capstones counted, pieces by ring, capstones off the edge, and pieces by square class.
#[inline(always)]
fn piece_features<const N: usize, S: Sink>(tops: [u64; 3], sign: i32, sink: &mut S) {
    use feature::*;
    let mut add = |index: usize, value: u32| {
        if value != 0 {
            sink.add(index, sign * value as i32);
        }
    };
    let [flats, walls, caps] = tops;
    add(WALL, walls.count_ones());
    add(CAP, caps.count_ones());
    for ring in 0..4 {
        add(
            CENTER + ring,
            ((flats | walls | caps) & Tables::<N>::RINGS[ring]).count_ones(),
        );
    }
    add(CAP_CENTER, (caps & !Tables::<N>::RINGS[0]).count_ones());
    for (class, &squares) in Tables::<N>::CLASSES.iter().enumerate() {
        add(PSQT_FLAT + class, (flats & squares).count_ones());
        add(PSQT_WALL + class, (walls & squares).count_ones());
        add(PSQT_CAP + class, (caps & squares).count_ones());
    }
}

/// Pieces in both reserves at the start, and pieces played from them.
#[inline(always)]
fn phase<const N: usize>(pos: &Position<N>) -> (i32, i32) {
    let total = 2 * (Position::<N>::STONES + Position::<N>::CAPSTONES) as i32;
    let left: i32 = Color::ALL
        .iter()
        .map(|&c| (pos.stones_left(c) + pos.caps_left(c)) as i32)
        .sum();
    (total, total - left)
}

/// The logistic scale the shipped weights were fitted with (`cairn tune texel --k`): an evaluation of
/// `e` centiflats means an expected score of `sigmoid(SHIPPED_K · e)`. The search's margins are
/// set for this scale, and a network's output is read on it.
pub const SHIPPED_K: f64 = 0.0026;

/// The evaluation of `pos` for the side to move, with the weights of its size (or the network
/// of its size that [`nnue::net`] gives, if any).
#[inline]
pub fn evaluate<const N: usize>(pos: &Position<N>) -> Score {
    if let Some(net) = nnue::net::<N>() {
        return net.evaluate(pos);
    }
    evaluate_linear(pos)
}

/// The linear evaluation of `pos` for the side to move with the shipped weights, whatever
/// network is loaded (the tests of the linear terms, and a residual network's base).
pub fn evaluate_linear<const N: usize>(pos: &Position<N>) -> Score {
    let mut acc = Packed {
        weights: &Tables::<N>::PACKED,
        pieces: &Tables::<N>::PIECES,
        sum: 0,
    };
    extract(pos, &mut acc);
    let (early, late) = unpack(acc.sum);
    taper(pos, early, late)
}

/// The evaluation of `pos` for the side to move with the given weights.
pub fn evaluate_with<const N: usize>(pos: &Position<N>, weights: &Weights) -> Score {
    let mut acc = Accumulator {
        weights,
        early: 0,
        late: 0,
    };
    extract(pos, &mut acc);
    taper(pos, acc.early, acc.late)
}

/// The evaluation from the sums by the opening and the end weights, blended by the pieces
/// played.
#[inline(always)]
fn taper<const N: usize>(pos: &Position<N>, early: i64, late: i64) -> Score {
    let (total, used) = phase(pos);
    let sum = early * (total - used) as i64 + late * used as i64;
    Score((sum / total as i64) as i32)
}

/// The features of `pos` from the side to move's point of view.
pub fn features<const N: usize>(pos: &Position<N>) -> Features {
    let (total, used) = phase(pos);
    let mut out = Features {
        values: [0; NF],
        used,
        total,
    };
    extract(pos, &mut out);
    out
}

/// Distance of each square from the edge ring, per size.
const fn rings(n: usize) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut sq = 0;
    while sq < n * n {
        let (f, r) = (sq % n, sq / n);
        let a = if f < n - 1 - f { f } else { n - 1 - f };
        let b = if r < n - 1 - r { r } else { n - 1 - r };
        let ring = if a < b { a } else { b };
        out[if ring < 3 { ring } else { 3 }] |= 1 << sq;
        sq += 1;
    }
    out
}

/// The squares of each square class, per size.
const fn classes(n: usize) -> [u64; CLASSES] {
    let mut out = [0u64; CLASSES];
    let mut sq = 0;
    while sq < n * n {
        let (f, r) = (sq % n, sq / n);
        let a = if f < n - 1 - f { f } else { n - 1 - f };
        let b = if r < n - 1 - r { r } else { n - 1 - r };
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        out[hi * (hi + 1) / 2 + lo] |= 1 << sq;
        sq += 1;
    }
    out
}

struct Tables<const N: usize>;
impl<const N: usize> Tables<N> {
    /// The squares of each ring (0 = edge, 3 = third ring or deeper).
    const RINGS: [u64; 4] = rings(N);
    /// The squares of each class (see [`CLASSES`]).
    const CLASSES: [u64; CLASSES] = classes(N);
    /// The shipped weights' [`PieceTable`].
    const PIECES: PieceTable = piece_table(N, params::WEIGHTS[N]);
    /// The shipped weights, [`pack`]ed.
    const PACKED: PackedWeights = packed_weights(params::WEIGHTS[N]);
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

/// The colour-independent facts about one player that several features share.
struct Side {
    /// Squares topped by the player.
    mine: u64,
    /// The player's road pieces.
    road: u64,
    /// Squares where a road piece of the player would complete a road.
    critical: u64,
    /// The player's road groups.
    facts: Roads,
}

impl Side {
    /// The player's pieces and road facts (from the per-thread table of [`roads`]).
    #[inline(always)]
    fn of<const N: usize>(pos: &Position<N>, color: Color) -> Side {
        let road = pos.road_pieces(color).0;
        let facts = roads::<N>(road);
        Side {
            mine: pos.controlled(color).0,
            road,
            critical: facts.completing() & !road,
            facts,
        }
    }
}

/// Reports every feature of `pos` to `sink`, from the side to move's point of view.
#[inline]
pub fn extract<const N: usize, S: Sink>(pos: &Position<N>, sink: &mut S) {
    use feature::*;
    let me = pos.side_to_move();
    let sides = [Side::of(pos, me), Side::of(pos, !me)];
    let empty = pos.empty().0;
    let walls = pos.walls().0;
    let caps = pos.caps().0;

    // Flat lead in half flats with komi (Black's favour), and the race.
    let flat_count = |s: &Side| ((s.mine & !walls & !caps).count_ones()) as i32;
    let komi = match me {
        Color::White => -(pos.half_komi() as i32),
        Color::Black => pos.half_komi() as i32,
    };
    let lead = 2 * (flat_count(&sides[0]) - flat_count(&sides[1])) + komi;
    sink.add(FLAT, lead);
    sink.add(WHITE, if me == Color::White { 1 } else { -1 });
    let left = |c: Color| (pos.stones_left(c) + pos.caps_left(c)) as i32;
    sink.add(RESERVES, left(me) - left(!me));
    if left(me).min(left(!me)) <= 3 || empty.count_ones() <= 3 {
        sink.add(RACE, lead);
    }
    sink.add(TEMPO, 1);
    if empty.count_ones() as usize <= 2 * N {
        sink.add(PARITY, (empty.count_ones() & 1) as i32);
    }
    if !pos.is_opening() {
        sink.add(CRIT_MOVER, (sides[0].critical & empty).count_ones() as i32);
        sink.add(CRIT_WAITER, (sides[1].critical & empty).count_ones() as i32);
    }

    let mut tall = [0u64; 2];
    for (i, color) in [me, !me].into_iter().enumerate() {
        let sign = 1 - 2 * i as i32;
        let (own, other) = (&sides[i], &sides[1 - i]);
        tall[i] = side_features::<N, S>(pos, color, own, other, sign, sink);
    }
    // Own flats next to an opponent capstone or stack (found by the stack walk above).
    let caps = pos.caps().0;
    let flats = |s: &Side| s.mine & !pos.walls().0 & !caps;
    for i in 0..2 {
        let movers = sides[1 - i].mine & (caps | tall[1 - i]);
        let exposed = (flats(&sides[i]) & Geo::<N>::dilate(movers)).count_ones() as i32;
        sink.add(EXPOSED, (1 - 2 * i as i32) * exposed);
    }
}

/// The features counted per player (added with `sign`: +1 for the side to move, −1 for the other);
/// returns the player's stacks (squares it tops with two or more pieces).
#[inline(always)]
fn side_features<const N: usize, S: Sink>(
    pos: &Position<N>,
    color: Color,
    own: &Side,
    other: &Side,
    sign: i32,
    sink: &mut S,
) -> u64 {
    use feature::*;
    let walls = pos.walls().0;
    let caps = pos.caps().0;
    let empty = pos.empty().0;
    let my_walls = own.mine & walls;
    let my_caps = own.mine & caps;
    let my_flats = own.mine & !walls & !caps;
    sink.pieces::<N>([my_flats, my_walls, my_caps], sign);
    let mut add = |index: usize, value: u32| {
        if value != 0 {
            sink.add(index, sign * value as i32);
        }
    };

    // Stacks.
    let mut totals = [0u32; 9];
    let mut tall = 0u64;
    for sq in Bitboard(own.mine) {
        let height = pos.height(sq) as u32;
        if height == 1 {
            continue;
        }
        tall |= 1 << sq.0;
        let shallow = (height - 1).min(N as u32 - 1);
        let deep = height - 1 - shallow;
        let own_shallow = own_count(pos, sq, color, deep, shallow);
        let kind = if walls >> sq.0 & 1 != 0 {
            1
        } else if caps >> sq.0 & 1 != 0 {
            if pos.color_at(sq, height as usize - 2) == color {
                totals[6] += 1;
            }
            2
        } else {
            0
        };
        totals[kind] += own_shallow;
        totals[3 + kind] += shallow - own_shallow;
        if kind != 1 {
            let bit = 1u64 << sq.0;
            let open = Geo::<N>::dilate(bit) & !bit & !(walls | caps);
            totals[8] += own_shallow * open.count_ones();
        }
        if deep > 0 {
            let own_deep = own_count(pos, sq, color, 0, deep);
            totals[7] += own_deep;
            add(CAPTIVE_DEEP, deep - own_deep);
        }
    }
    add(SUPPORT_FLAT, totals[0]);
    add(SUPPORT_WALL, totals[1]);
    add(SUPPORT_CAP, totals[2]);
    add(CAPTIVE_FLAT, totals[3]);
    add(CAPTIVE_WALL, totals[4]);
    add(CAPTIVE_CAP, totals[5]);
    add(HARD_CAP, totals[6]);
    add(SUPPORT_DEEP, totals[7]);
    add(MOBILITY, totals[8]);

    // Road groups.
    let road = own.road;
    for (span, &count) in own.facts.spans.iter().enumerate() {
        add(SPAN + span, count as u32);
    }
    add(SPAN_MINOR, own.facts.minor as u32);
    add(GROUPS, own.facts.groups as u32);
    let hard_theirs = other.mine & (walls | caps);
    for &line in &Tables::<N>::LINES[..2 * N] {
        if line & hard_theirs == 0 {
            add(LINE + (line & road).count_ones() as usize, 1);
        }
    }

    // Critical squares by what is on them, capstones and walls around them.
    let critical = own.critical;
    add(
        CRIT_CAPTURABLE,
        (critical & other.mine & !walls & !caps).count_ones(),
    );
    add(CRIT_OWN_WALL, (critical & my_walls).count_ones());
    add(
        CRIT_BLOCKED,
        (critical & other.mine & (walls | caps)).count_ones(),
    );
    let mut cap_squares = my_caps;
    while cap_squares != 0 {
        let cap = cap_squares & cap_squares.wrapping_neg();
        cap_squares &= cap_squares - 1;
        let around = Geo::<N>::dilate(cap) & !cap;
        add(CAP_REACH, (around & critical != 0) as u32);
        add(CAP_MOBILITY, (around & !caps).count_ones());
    }
    add(
        WALL_BLOCK,
        (my_walls & Geo::<N>::dilate(other.critical)).count_ones(),
    );
    add(
        WALL_NEAR,
        (my_walls & Geo::<N>::dilate(other.road)).count_ones(),
    );
    add(INFLUENCE, (empty & at_least_two::<N>(road)).count_ones());
    tall
}

/// How many of the `count` pieces of `sq` from height index `from` up are `color`'s.
#[inline(always)]
fn own_count<const N: usize>(
    pos: &Position<N>,
    sq: Square,
    color: Color,
    from: u32,
    count: u32,
) -> u32 {
    let mut black = 0;
    let mut at = from;
    while at < from + count {
        let chunk = (from + count - at).min(31);
        black += pos.pile_bits(sq, at, chunk).count_ones();
        at += chunk;
    }
    match color {
        Color::White => count - black,
        Color::Black => black,
    }
}

/// Squares next to at least two squares of `set`.
#[inline(always)]
fn at_least_two<const N: usize>(set: u64) -> u64 {
    use crate::board::Direction::*;
    let [a, b, c, d] = [North, South, East, West].map(|dir| Geo::<N>::shift(set, dir));
    (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
}
