//! A small efficiently-updatable neural network evaluation (NNUE), per board size.
//!
//! **Inputs**, seen from one player's side (its *perspective*: "mine" and "theirs" are relative
//! to that player, the board is not turned):
//! - per square, the top piece: one of six planes (my flat, wall or capstone; theirs);
//! - per square, the colours of the [`DEPTH`] pieces right under the top: for depth `d` one of
//!   two planes (mine or theirs). Pieces deeper than that are not inputs: they are out of reach
//!   of a spread from this stack for a long time;
//! - the stones each player has in hand, and its capstones, one-hot;
//! - the komi in my favour (half flats, clamped to ±[`KOMI_SPAN`]), one-hot.
//!
//! At most a few dozen inputs are active in a position, so the first layer is a sum of a few
//! weight rows (the *accumulator*). **The network**: the accumulator of each perspective
//! (`HIDDEN` wide, shared weights), squared clipped ReLU (SCReLU: `clamp(x, 0, 1)²`), both
//! perspectives concatenated with the side to move's first, one linear output `y`. The output is
//! a logit: `sigmoid(y)` is the expected score of the side to move, and the evaluation in
//! centiflats is `y / K` with the logistic scale the linear evaluation uses
//! ([`super::SHIPPED_K`]), so the search's margins keep their meaning.
//!
//! **Quantisation**: the first layer is stored as `i16` scaled by [`QA`], so an accumulator
//! holds `x · QA` and the clamp is to `0..=QA`. The file keeps the output layer in floats; it is
//! evaluated in integers, so its sums are exact and every CPU gets the same value.
//!
//! **Updates**: each thread keeps the accumulators of both perspectives for the last position it
//! evaluated, with a key per square ([`square_key`]). The next evaluation finds the squares
//! whose stored stack, height or top changed (eight heights a word), and takes out and puts back
//! only their inputs, all of them in one pass over each accumulator (in a search, the next leaf
//! is usually a move or two away), so make/unmake and the generic search carry no network state
//! (Topaz's scheme). The weight rows and accumulators are 64-byte aligned, and where the CPU has
//! AVX2 (asked at run time) the sums use it; the build's x86-64-v2 target has 8 lanes of `i16`
//! an instruction, AVX2 16.
//!
//! The incremental update keeps the network's node rate close to the linear evaluation's (the
//! measurements are in docs/results.md).
//!
//! **Residual networks** (`cairn tune network --out FILE --residual`) output a correction that is
//! added to the linear evaluation's logit instead of the whole logit: the network learns what
//! the linear terms miss, and starts from the linear evaluation's knowledge of roads. Off the
//! line of play (positions one weaker move away, which the search sees most) a full correction
//! tends to overshoot where the linear terms hold, so a network can keep a share of it
//! ([`Network::with_residual_scale`], `cairn tune network --residual-scale`).
//!
//! Networks are trained by `cairn_tools::tune::network` (`cairn tune network`) and read from a small
//! binary file ([`Network::from_bytes`]). The built-in ones ([`BUILT_IN`]) live in
//! `crates/tak/nets/`, one per size at most, and nothing else does: a network is built in only
//! where it won an SPRT at equal time against what it replaces (docs/networks.md has each
//! network's data, fit and SPRT); the environment variable
//! [`ENV`] loads others in their place for such tests (`CAIRN_NNUE=s6.nnue cairn ...`), or
//! turns them all off (`CAIRN_NNUE=linear`) ([`net`]).

use crate::board::{Bitboard, Color, Position, Square};
use cairn_search::score::Score;
use smallvec::SmallVec;
use std::cell::RefCell;

/// Pieces under the top whose colours are inputs.
pub const DEPTH: usize = 7;
/// Input planes per square: six for the top piece, two per depth under it.
pub const PLANES: usize = 6 + 2 * DEPTH;
/// Half komi in my favour is clamped to `-KOMI_SPAN..=KOMI_SPAN`.
pub const KOMI_SPAN: i32 = 10;
/// Width of each perspective's accumulator.
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer: 1.0 is stored as `QA`.
pub const QA: i32 = 255;
/// The logistic scale: a logit `y` is `y / K` centiflats.
const K: f32 = super::SHIPPED_K as f32;
/// What a network file starts with.
const MAGIC: &[u8; 8] = b"CAIRNNUE";
/// The file format's version.
const VERSION: u32 = 2;

/// The active inputs of one perspective.
pub type Active = SmallVec<[u16; 256]>;

/// Where each group of inputs starts, for a board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Board size.
    pub size: usize,
    /// Stones each player starts with.
    pub stones: usize,
    /// Capstones each player starts with.
    pub caps: usize,
    /// First input of the reserves: my stones (`stones + 1` values), then theirs, then my
    /// capstones (`caps + 1`), then theirs.
    pub reserves: usize,
    /// First input of the komi (`2 · KOMI_SPAN + 1` values).
    pub komi: usize,
    /// Number of inputs.
    pub inputs: usize,
}

impl Layout {
    /// The layout of size `n` (3 to 8).
    pub const fn of(n: usize) -> Layout {
        let (stones, caps) = match crate::board::reserves_for_size(n) {
            Some((s, c)) => (s as usize, c as usize),
            None => (0, 0),
        };
        let reserves = n * n * PLANES;
        let komi = reserves + 2 * (stones + 1) + 2 * (caps + 1);
        Layout {
            size: n,
            stones,
            caps,
            reserves,
            komi,
            inputs: komi + 2 * KOMI_SPAN as usize + 1,
        }
    }
}

/// What one square holds, as far as the inputs see it: 0 for an empty square, else bit 0 set,
/// the top piece's role (bits 1-2), the number `u` of pieces under it that are inputs (bits
/// 3-5), and the colours of the top piece and those `u` pieces (1 is Black), the top at bit
/// `6 + u` and the piece `d` places under it at bit `6 + u - 1 - d`: the stack's own colour bits,
/// so the key costs a shift and a mask. Two squares with the same key have the same inputs, so
/// an evaluation only redoes the squares whose key changed since the last one.
#[inline(always)]
pub fn square_key<const N: usize>(pos: &Position<N>, sq: Square) -> u32 {
    let Some((_, role)) = pos.top(sq) else {
        return 0;
    };
    let height = pos.height(sq) as u32;
    let under = (height - 1).min(DEPTH as u32);
    let colors = pos.pile_bits(sq, height - 1 - under, under + 1);
    1 | (role as u32) << 1 | under << 3 | colors << 6
}

/// The reserves and the komi as one key (see [`square_key`]).
#[inline]
fn hand_key<const N: usize>(pos: &Position<N>) -> u32 {
    pos.stones_left(Color::White) as u32
        | (pos.stones_left(Color::Black) as u32) << 8
        | (pos.caps_left(Color::White) as u32) << 16
        | (pos.caps_left(Color::Black) as u32) << 18
        | (pos.half_komi() as u8 as u32) << 20
}

/// Gives `push` the inputs of square `sq` holding `key` (see [`square_key`]) from `me`'s
/// perspective: at most `1 + DEPTH`.
#[inline(always)]
fn square_inputs(sq: usize, key: u32, me: Color, mut push: impl FnMut(u16)) {
    if key == 0 {
        return;
    }
    let base = sq * PLANES;
    // 1 where the colour bit is not `me`'s.
    let theirs = |bit: u32| (bit != me as u32) as usize;
    // Roles are numbered flat 0, wall 1, capstone 2 ([`Role`]).
    let kind = (key >> 1 & 3) as usize;
    let under = key >> 3 & 7;
    let colors = key >> 6;
    push((base + kind + 3 * theirs(colors >> under & 1)) as u16);
    for d in 0..under {
        push((base + 6 + 2 * d as usize + theirs(colors >> (under - 1 - d) & 1)) as u16);
    }
}

/// Gives `push` the reserve and komi inputs of `hand` (see [`hand_key`]) from `me`'s
/// perspective: five of them.
#[inline(always)]
fn hand_inputs(layout: &Layout, hand: u32, me: Color, mut push: impl FnMut(u16)) {
    let stones = [hand & 0xff, hand >> 8 & 0xff];
    let caps = [hand >> 16 & 3, hand >> 18 & 3];
    let (mine, theirs) = (me.index(), (!me).index());
    let r = layout.reserves;
    let s = layout.stones + 1;
    let c = layout.caps + 1;
    push((r + stones[mine] as usize) as u16);
    push((r + s + stones[theirs] as usize) as u16);
    push((r + 2 * s + caps[mine] as usize) as u16);
    push((r + 2 * s + c + caps[theirs] as usize) as u16);
    let half_komi = (hand >> 20) as u8 as i8 as i32;
    let komi = half_komi * if me == Color::Black { 1 } else { -1 };
    push((layout.komi as i32 + komi.clamp(-KOMI_SPAN, KOMI_SPAN) + KOMI_SPAN) as u16);
}

/// Appends the active inputs of `pos` from `me`'s perspective to `out`.
pub fn active<const N: usize>(pos: &Position<N>, me: Color, out: &mut Active) {
    let layout = const { Layout::of(N) };
    for sq in pos.occupied() {
        square_inputs(sq.index(), square_key(pos, sq), me, |i| out.push(i));
    }
    hand_inputs(&layout, hand_key(pos), me, |i| out.push(i));
}

/// A quantised network for one board size.
#[derive(Clone, Debug)]
pub struct Network {
    /// A number of its own (its clones share it: same weights), so that a thread's cache of
    /// accumulators is never taken for another network's.
    id: u64,
    layout: Layout,
    /// First-layer weights, a row of `HIDDEN` per input, times `QA`.
    w1: Vec<Row>,
    /// First-layer biases, times `QA`.
    b1: Row,
    /// Output weights for the side to move's half, then the other's, as the file holds them
    /// (for squared accumulators in `0..=1`); the evaluation uses their integer form, `out`.
    w2: Vec<f32>,
    /// Output bias.
    b2: f32,
    /// The output weights as the evaluation uses them ([`Output`]).
    out: Output,
    /// Whether the output is a correction added to the linear evaluation's logit (`K` times
    /// its centiflats) rather than the whole logit.
    residual: bool,
}

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with the network magic and version.
    NotANetwork,
    /// The file is for another board size, depth or width.
    Shape(String),
    /// The file ends early or has bytes left over.
    Length {
        /// Bytes the header says there are.
        expected: usize,
        /// Bytes there are.
        found: usize,
    },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::NotANetwork => write!(f, "not a Cairn network file (version {VERSION})"),
            NetError::Shape(what) => write!(f, "network shape: {what}"),
            NetError::Length { expected, found } => {
                write!(f, "network file of {found} bytes, expected {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

impl PartialEq for Network {
    /// Same shape and weights (whatever their ids).
    fn eq(&self, other: &Network) -> bool {
        (
            &self.layout,
            &self.w1,
            &self.b1,
            &self.w2,
            self.b2,
            self.residual,
        ) == (
            &other.layout,
            &other.w1,
            &other.b1,
            &other.w2,
            other.b2,
            other.residual,
        )
    }
}

/// The next network's id (0 is no network).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Network {
    /// A network from float weights (`w1` input-major, `HIDDEN` per input; `w2` the side to
    /// move's half first), quantised.
    /// `residual` says whether the output is added to the linear evaluation's logit.
    pub fn quantise(
        layout: Layout,
        w1: &[f32],
        b1: &[f32],
        w2: &[f32],
        b2: f32,
        residual: bool,
    ) -> Network {
        let q = |x: f32| {
            (x * QA as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        Network {
            id: next_id(),
            layout,
            w1: w1.chunks_exact(HIDDEN).map(|row| Row::of(row, q)).collect(),
            b1: Row::of(b1, q),
            out: Output::of(w2),
            w2: w2.to_vec(),
            b2,
            residual,
        }
    }

    /// The weights as floats, in [`Network::quantise`]'s order and scale: `(w1, b1, w2, b2)`.
    /// Quantising them again gives this network back, so a trainer can start from it.
    pub fn float_weights(&self) -> (Vec<f32>, Vec<f32>, Vec<f32>, f32) {
        let f = |q: i16| q as f32 / QA as f32;
        let w1 = self.w1.iter().flat_map(|row| row.0.map(f)).collect();
        (w1, self.b1.0.map(f).to_vec(), self.w2.clone(), self.b2)
    }

    /// The layout of the network's inputs.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// This residual network with its correction multiplied by `scale` (its output layer
    /// scaled: the output is linear in it). A residual network fitted to the positions of games
    /// can overshoot on the positions a search visits, one weaker move away; a smaller
    /// correction keeps most of its gain on the one and loses less on the other.
    pub fn with_residual_scale(mut self, scale: f32) -> Network {
        debug_assert!(self.residual, "only a correction can be scaled");
        self.w2.iter_mut().for_each(|w| *w *= scale);
        self.b2 *= scale;
        self.out = Output::of(&self.w2);
        self.id = next_id();
        self
    }

    /// Whether the network corrects the linear evaluation instead of replacing it.
    pub fn is_residual(&self) -> bool {
        self.residual
    }

    /// The board size the network is for.
    pub fn size(&self) -> usize {
        self.layout.size
    }

    /// The network as a file: magic, version, size, depth, width, residual (0 or 1), then the
    /// first layer's weights and biases (`i16`), the output weights and bias (`f32`), all little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            self.layout.size as u32,
            DEPTH as u32,
            HIDDEN as u32,
            self.residual as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for &w in self.w1.iter().chain([&self.b1]).flat_map(|row| &row.0) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in &self.w2 {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// Reads a network file (see [`Network::to_bytes`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let header = MAGIC.len() + 20;
        if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::NotANetwork);
        }
        let word = |i: usize| {
            let at = MAGIC.len() + 4 * i;
            u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
        };
        if word(0) != VERSION {
            return Err(NetError::NotANetwork);
        }
        let (size, depth, hidden) = (word(1) as usize, word(2) as usize, word(3) as usize);
        let residual = match word(4) {
            0 => false,
            1 => true,
            other => {
                return Err(NetError::Shape(format!(
                    "residual flag {other}, not 0 or 1"
                )))
            }
        };
        if !crate::board::SIZES.contains(&size) || depth != DEPTH || hidden != HIDDEN {
            return Err(NetError::Shape(format!(
                "size {size}, depth {depth}, width {hidden}; this build reads sizes {}, depth \
                 {DEPTH}, width {HIDDEN}",
                crate::board::sizes_text()
            )));
        }
        let layout = Layout::of(size);
        let n1 = layout.inputs * HIDDEN;
        let expected = header + 2 * (n1 + HIDDEN) + 4 * (2 * HIDDEN + 1);
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = header;
        let mut i16s = |count: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * count]
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect();
            at += 2 * count;
            v
        };
        let w1 = i16s(n1)
            .chunks_exact(HIDDEN)
            .map(|row| Row::of(row, |w| w))
            .collect();
        let b1 = Row::of(&i16s(HIDDEN), |w| w);
        let floats: Vec<f32> = bytes[header + 2 * (n1 + HIDDEN)..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Ok(Network {
            id: next_id(),
            layout,
            w1,
            b1,
            out: Output::of(&floats[..2 * HIDDEN]),
            w2: floats[..2 * HIDDEN].to_vec(),
            b2: floats[2 * HIDDEN],
            residual,
        })
    }

    /// The accumulator of the given active inputs.
    #[inline]
    fn accumulate(&self, active: &[u16], acc: &mut Row) {
        *acc = self.b1;
        self.shift(acc, &[], active);
    }

    /// Takes the weight rows of `gone` out of `acc` and puts those of `new` in (wrapping `i16`
    /// sums, so that taking a row out undoes putting it in exactly).
    #[inline]
    fn shift(&self, acc: &mut Row, gone: &[u16], new: &[u16]) {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the CPU has AVX2 (`avx2` asked it at run time).
            return unsafe { simd::shift(&self.w1, acc, gone, new) };
        }
        shift(&self.w1, acc, gone, new)
    }

    /// The output logit for the side to move, from both accumulators.
    #[inline]
    fn output(&self, mine: &Row, theirs: &Row) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if avx2() {
            // SAFETY: the CPU has AVX2 (`avx2` asked it at run time).
            return unsafe { simd::output(&self.out, self.b2, mine, theirs) };
        }
        output(&self.out, self.b2, mine, theirs)
    }

    /// The network's logit for the side to move of `pos` (the size must be the network's).
    pub fn logit<const N: usize>(&self, pos: &Position<N>) -> f32 {
        debug_assert_eq!(N, self.layout.size);
        let me = pos.side_to_move();
        let (mut mine, mut theirs) = (Active::new(), Active::new());
        active(pos, me, &mut mine);
        active(pos, !me, &mut theirs);
        self.logit_of(&mine, &theirs) + self.base(pos)
    }

    /// What the output is added to: the linear evaluation's logit for a residual network, else
    /// nothing.
    #[inline]
    fn base<const N: usize>(&self, pos: &Position<N>) -> f32 {
        if self.residual {
            let linear = super::evaluate_linear(pos);
            linear.0 as f32 * K
        } else {
            0.0
        }
    }

    /// The network's output for the side to move whose perspective has the active inputs
    /// `mine`, the other's `theirs` (for a residual network, without the linear part).
    pub fn logit_of(&self, mine: &[u16], theirs: &[u16]) -> f32 {
        let mut accs = [Row([0; HIDDEN]); 2];
        self.accumulate(mine, &mut accs[0]);
        self.accumulate(theirs, &mut accs[1]);
        self.output(&accs[0], &accs[1])
    }

    /// Brings this thread's cached accumulators (see [`Cache`]) to `pos`: only the squares
    /// whose contents changed since the last evaluation on this thread, and the reserves if
    /// they did, are taken out and put back in; a cache of another network or size is rebuilt.
    fn update<const N: usize>(&self, pos: &Position<N>, cache: &mut Cache) {
        if cache.network != self.id || cache.size != N {
            cache.network = self.id;
            cache.size = N;
            cache.keys = [0; 64];
            cache.stacks = [0; 64];
            cache.heights = [0; 64];
            cache.tops = [0; 3];
            cache.hand = u32::MAX;
            cache.accs = [self.b1; 2];
        }
        // The squares whose contents may differ from the cached position's, found without
        // computing every key: a different height, top colour or top role, or, on a stack of two
        // or more, different colour bits. Only their keys are computed.
        let (stacks, heights) = pos.raw_stacks();
        let tops = [pos.controlled(Color::White).0, pos.walls().0, pos.caps().0];
        let mut maybe = bytes_differ::<N>(heights, &cache.heights);
        for (now, then) in tops.iter().zip(&cache.tops) {
            maybe |= now ^ then;
        }
        for i in Bitboard(tall::<N>(heights) & !maybe) {
            let i = i.index();
            maybe |= ((stacks[i] != cache.stacks[i]) as u64) << i;
        }
        cache.tops = tops;
        let mut batch = Batch::default();
        for i in Bitboard(maybe) {
            let i = i.index();
            cache.stacks[i] = stacks[i];
            cache.heights[i] = heights[i];
            let key = square_key(pos, Square(i as u8));
            let old = cache.keys[i];
            if key != old {
                cache.keys[i] = key;
                batch.make_room(self, &mut cache.accs);
                for color in Color::ALL {
                    let c = color.index();
                    square_inputs(i, old, color, |x| batch.gone[c].push(x));
                    square_inputs(i, key, color, |x| batch.new[c].push(x));
                }
            }
        }
        let hand = hand_key(pos);
        if hand != cache.hand {
            batch.make_room(self, &mut cache.accs);
            for color in Color::ALL {
                let c = color.index();
                if cache.hand != u32::MAX {
                    hand_inputs(&self.layout, cache.hand, color, |x| batch.gone[c].push(x));
                }
                hand_inputs(&self.layout, hand, color, |x| batch.new[c].push(x));
            }
            cache.hand = hand;
        }
        batch.flush(self, &mut cache.accs);
    }

    /// The evaluation of `pos` for the side to move, in centiflats, through this thread's
    /// cache of accumulators: the same value as [`Network::logit`] gives, times the scale.
    pub fn evaluate<const N: usize>(&self, pos: &Position<N>) -> Score {
        let logit = CACHE.with(|cell| {
            let mut cache = cell.borrow_mut();
            self.update(pos, &mut cache);
            let me = pos.side_to_move().index();
            self.output(&cache.accs[me], &cache.accs[1 - me])
        });
        self.centiflats(logit + self.base(pos))
    }

    /// A logit as an evaluation in centiflats (kept well inside the evaluation range).
    pub fn centiflats(&self, logit: f32) -> Score {
        let limit = (Score::MAX_EVAL.0 / 2) as f32;
        Score((logit / K).clamp(-limit, limit) as i32)
    }
}

/// `HIDDEN` values of the first layer: a weight row, the biases, or an accumulator, aligned so
/// that vector instructions load and store them whole.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct Row([i16; HIDDEN]);

impl Row {
    /// The row of `HIDDEN` values `f(x)` for the `x` of `values`.
    fn of<T: Copy>(values: &[T], f: impl Fn(T) -> i16) -> Row {
        debug_assert_eq!(values.len(), HIDDEN);
        Row(std::array::from_fn(|k| f(values[k])))
    }
}

/// Inputs waiting to be taken out of and put into an accumulator, so that several squares'
/// rows are summed in one pass over it.
#[derive(Default)]
struct Pending {
    ids: [u16; Batch::ROOM],
    len: usize,
}

impl Pending {
    #[inline(always)]
    fn push(&mut self, id: u16) {
        // The mask only spares the bounds check: [`Batch::make_room`] keeps `len` below it.
        self.ids[self.len & (Batch::ROOM - 1)] = id;
        self.len += 1;
    }

    #[inline(always)]
    fn get(&self) -> &[u16] {
        &self.ids[..self.len]
    }
}

/// The pending inputs of both perspectives (White's, then Black's).
#[derive(Default)]
struct Batch {
    gone: [Pending; 2],
    new: [Pending; 2],
}

impl Batch {
    /// Inputs a batch holds on each side of each perspective (a power of two).
    const ROOM: usize = 32;

    /// Makes room for one more square or the reserves (at most `1 + DEPTH` inputs).
    #[inline(always)]
    fn make_room(&mut self, net: &Network, accs: &mut [Row; 2]) {
        let used = self.gone[0].len.max(self.new[0].len);
        if used + 1 + DEPTH > Self::ROOM {
            self.flush(net, accs);
        }
    }

    /// Applies the pending inputs and empties the batch.
    #[inline(always)]
    fn flush(&mut self, net: &Network, accs: &mut [Row; 2]) {
        for ((acc, gone), new) in accs.iter_mut().zip(&mut self.gone).zip(&mut self.new) {
            if gone.len + new.len > 0 {
                net.shift(acc, gone.get(), new.get());
            }
            gone.len = 0;
            new.len = 0;
        }
    }
}

/// The squares of an `N`×`N` board whose bytes in `a` and `b` differ, eight at a time.
#[inline(always)]
fn bytes_differ<const N: usize>(a: &[u8; 64], b: &[u8; 64]) -> u64 {
    let mut mask = 0;
    for w in 0..(N * N).div_ceil(8) {
        let word = |x: &[u8; 64]| u64::from_le_bytes(x[8 * w..][..8].try_into().expect("8 bytes"));
        mask |= nonzero_bytes(word(a) ^ word(b)) << (8 * w);
    }
    mask
}

/// The squares of an `N`×`N` board with two or more pieces.
#[inline(always)]
fn tall<const N: usize>(heights: &[u8; 64]) -> u64 {
    let mut mask = 0;
    for w in 0..(N * N).div_ceil(8) {
        let word = u64::from_le_bytes(heights[8 * w..][..8].try_into().expect("8 bytes"));
        mask |= nonzero_bytes(word & 0xfefe_fefe_fefe_fefe) << (8 * w);
    }
    mask
}

/// Bit `k` set where byte `k` of `x` is not zero.
#[inline(always)]
fn nonzero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The top bit of each byte: set if the byte's low seven bits carry into it, or it was set.
    let tops = ((x & LOW7).wrapping_add(LOW7) | x) & !LOW7;
    // Gathers the eight top bits (at 7, 15, ..., 63) into the top byte, then down.
    (tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Whether the CPU has AVX2, asked once (the answer is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// [`Network::shift`] on `w1`: written so that the compiler vectorises it, for the build's
/// target here and for AVX2 in [`simd`]. The accumulator is summed in a local copy, which the
/// compiler keeps in registers across the rows.
#[inline(always)]
fn shift(w1: &[Row], acc: &mut Row, gone: &[u16], new: &[u16]) {
    let mut sum = acc.0;
    for &i in gone {
        let row = &w1[i as usize].0;
        for k in 0..HIDDEN {
            sum[k] = sum[k].wrapping_sub(row[k]);
        }
    }
    for &i in new {
        let row = &w1[i as usize].0;
        for k in 0..HIDDEN {
            sum[k] = sum[k].wrapping_add(row[k]);
        }
    }
    acc.0 = sum;
}

/// The output layer in integers. Each output weight `w` (the file's, for squared accumulators
/// in `0..=1`) is kept as `round(w · scale)`, with `scale` the largest that keeps them within
/// ±[`Output::LIMIT`], and each clamped accumulator value `c` (`0..=QA`) enters as `c² / 2`
/// (rounded down; it fits an `i16`). Their products summed over a perspective fit an `i32`, so
/// the sums are exact: every CPU and instruction set gets the same value. The rounding moves
/// the output by well under a centiflat.
#[derive(Clone, Debug)]
struct Output {
    /// The side to move's weights, then the other's.
    w: [Row; 2],
    /// What one unit of the sum is worth as a logit: `2 / (QA² · scale)`.
    unit: f32,
}

impl Output {
    /// The largest weight: `HIDDEN` products of it and `QA² / 2` stay inside an `i32`.
    const LIMIT: f32 = 511.0;

    /// The integer output layer of the file's weights `w2`.
    fn of(w2: &[f32]) -> Output {
        let largest = w2.iter().fold(0f32, |m, w| m.max(w.abs()));
        let scale = if largest > 0.0 {
            Self::LIMIT / largest
        } else {
            1.0
        };
        let q = |w: f32| (w * scale).round().clamp(-Self::LIMIT, Self::LIMIT) as i16;
        Output {
            w: [Row::of(&w2[..HIDDEN], q), Row::of(&w2[HIDDEN..], q)],
            unit: 2.0 / ((QA * QA) as f32 * scale),
        }
    }
}

/// [`Network::output`] (vectorised by the compiler for the build's target; AVX2 in [`simd`]).
#[inline(always)]
fn output(out: &Output, b2: f32, mine: &Row, theirs: &Row) -> f32 {
    let sum = dot(mine, &out.w[0]) as i64 + dot(theirs, &out.w[1]) as i64;
    sum as f32 * out.unit + b2
}

/// One perspective's share of the output: `Σ (c² / 2) · w` over its clamped accumulator values
/// `c` and weights `w`.
#[inline(always)]
fn dot(acc: &Row, w: &Row) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.0.iter().zip(&w.0) {
        let c = a.clamp(0, QA as i16) as i32;
        sum += ((c * c) >> 1) * w as i32;
    }
    sum
}

/// [`shift`] and [`output`] compiled for AVX2 (16 lanes of `i16` an instruction where the
/// build's x86-64-v2 target has 8), chosen at run time where the CPU has it. The same source
/// gives the same results.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Output, Row, HIDDEN, QA};
    use std::arch::x86_64::*;

    /// [`super::shift`] for AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn shift(w1: &[Row], acc: &mut Row, gone: &[u16], new: &[u16]) {
        super::shift(w1, acc, gone, new)
    }

    /// [`super::output`] for AVX2: the same sums, sixteen values an instruction.
    #[target_feature(enable = "avx2")]
    pub(super) fn output(out: &Output, b2: f32, mine: &Row, theirs: &Row) -> f32 {
        let sum = dot(mine, &out.w[0]) as i64 + dot(theirs, &out.w[1]) as i64;
        sum as f32 * out.unit + b2
    }

    /// [`super::dot`] for AVX2: clamp, `c²` in 16 bits (it fits unsigned) halved, then the
    /// products with the weights summed in pairs into 32 bits (`vpmaddwd`).
    #[target_feature(enable = "avx2")]
    pub(super) fn dot(acc: &Row, w: &Row) -> i32 {
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let mut sum = _mm256_setzero_si256();
        for k in (0..HIDDEN).step_by(16) {
            // SAFETY: `k + 16 <= HIDDEN`, and a `Row` is 64-byte aligned, so both loads read 32
            // aligned bytes inside the rows.
            let (a, w) = unsafe {
                (
                    _mm256_load_si256(acc.0.as_ptr().add(k).cast()),
                    _mm256_load_si256(w.0.as_ptr().add(k).cast()),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            let half_square = _mm256_srli_epi16(_mm256_mullo_epi16(c, c), 1);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(half_square, w));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256(sum, 1),
        );
        let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 1)))
    }
}

/// What the last evaluation on a thread left: the network and size it was for, every square's
/// key ([`square_key`]), the reserves' key, and the accumulators of White's and Black's
/// perspectives for exactly those contents (wrapping `i16` sums, so taking inputs out undoes
/// putting them in exactly).
struct Cache {
    network: u64,
    size: usize,
    keys: [u32; 64],
    /// The stored stacks and heights of the squares ([`Position::raw_stacks`]), and the squares
    /// White controls, and those topped by a wall or a capstone, of the position the keys are
    /// for.
    stacks: [u128; 64],
    heights: [u8; 64],
    tops: [u64; 3],
    hand: u32,
    accs: [Row; 2],
}

thread_local! {
    static CACHE: RefCell<Cache> = const {
        RefCell::new(Cache {
            network: 0,
            size: 0,
            keys: [0; 64],
            stacks: [0; 64],
            heights: [0; 64],
            tops: [0; 3],
            hand: u32::MAX,
            accs: [Row([0; HIDDEN]); 2],
        })
    };
}

/// The environment variable that names network files to evaluate with, comma-separated (each
/// file says its board size, and replaces the built-in network of that size, if any); `linear`
/// turns every network off, the built-in ones included.
pub const ENV: &str = "CAIRN_NNUE";

/// The networks built into the binary, as files ([`Network::from_bytes`]). A network is built
/// in (`include_bytes!`) only where it beat what its size had before (the linear evaluation, or
/// the previous network) by SPRT at equal time; until then a candidate plays through [`ENV`].
/// All are residual networks (see the module doc): each correction was fitted on top of the
/// shipped linear weights of its size, so a change to those weights calls for a new fit.
pub const BUILT_IN: &[&[u8]] = &[
    include_bytes!("../../nets/s6-r11.nnue"),
    include_bytes!("../../nets/s5-r4.nnue"),
    include_bytes!("../../nets/s7-r4.nnue"),
    include_bytes!("../../nets/s8-r3.nnue"),
];

/// The networks of `CAIRN_NNUE`, read at the first evaluation, by board size.
static NETS: std::sync::OnceLock<Vec<Option<Network>>> = std::sync::OnceLock::new();

/// The built-in networks, then the files `CAIRN_NNUE` names in their place (or none at all for
/// `linear`); a file that cannot be read is reported in the log and left out (its size keeps
/// what it had).
fn load() -> Vec<Option<Network>> {
    let mut nets = vec![None; crate::board::MAX_SIZE + 1];
    let list = std::env::var(ENV).unwrap_or_default();
    if list.trim() == "linear" {
        log::info!("{ENV}=linear: the linear evaluation at every size");
        return nets;
    }
    for bytes in BUILT_IN {
        let net = Network::from_bytes(bytes).expect("a built-in network is a network");
        let size = net.size();
        nets[size] = Some(net);
    }
    for path in list.split(',').filter(|p| !p.trim().is_empty()) {
        let read = std::fs::read(path.trim())
            .map_err(|e| e.to_string())
            .and_then(|bytes| Network::from_bytes(&bytes).map_err(|e| e.to_string()));
        match read {
            Ok(net) => {
                log::info!("{ENV}: {path}: a {0}x{0} network", net.size());
                let size = net.size();
                nets[size] = Some(net);
            }
            Err(e) => log::error!("{ENV}: {path}: {e}; left out"),
        }
    }
    nets
}

/// The network that evaluates size `N`, if `CAIRN_NNUE` gave one.
#[inline]
pub fn net<const N: usize>() -> Option<&'static Network> {
    NETS.get_or_init(load)[N].as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_search::rng::Rng;

    /// A row of random values in `-range..range`.
    fn random_row(rng: &mut Rng, range: i16) -> Row {
        Row(std::array::from_fn(|_| {
            (rng.next_u64() % (2 * range as u64)) as i16 - range
        }))
    }

    /// On an x86-64 CPU without AVX2 this fails rather than pass untested (the search there
    /// never takes the AVX2 code); other architectures have no AVX2 code.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_code_gives_the_portable_code_s_values() {
        assert!(avx2(), "this test needs an x86-64 CPU with AVX2");
        let mut rng = Rng::new(7);
        let rows: Vec<Row> = (0..64).map(|_| random_row(&mut rng, 400)).collect();
        for round in 0..200 {
            // Accumulators past both ends of the clamp, weights to the ±511 limit.
            let acc = random_row(&mut rng, 2 * QA as i16);
            let w = random_row(&mut rng, 512);
            // SAFETY: the CPU has AVX2 (asserted above).
            let fast = unsafe { simd::dot(&acc, &w) };
            assert_eq!(fast, dot(&acc, &w), "dot, round {round}");
            let mut pick =
                |n: u64| -> Vec<u16> { (0..n).map(|_| (rng.next_u64() % 64) as u16).collect() };
            let (gone, new) = (pick(round % 9), pick(round % 13));
            let (mut a, mut b) = (acc, acc);
            shift(&rows, &mut a, &gone, &new);
            // SAFETY: as above.
            unsafe { simd::shift(&rows, &mut b, &gone, &new) };
            assert_eq!(a, b, "shift, round {round}");
        }
    }

    #[test]
    fn the_integer_output_is_the_float_output_to_half_a_centiflat() {
        let mut rng = Rng::new(11);
        let mut w2 = [0f32; 2 * HIDDEN];
        for w in &mut w2 {
            *w = (rng.next_u64() % 2001) as f32 / 10000.0 - 0.1;
        }
        let out = Output::of(&w2);
        let mut worst = 0f64;
        for _ in 0..2000 {
            let (mine, theirs) = (random_row(&mut rng, 300), random_row(&mut rng, 300));
            let exact: f64 = [&mine, &theirs]
                .iter()
                .zip(w2.chunks_exact(HIDDEN))
                .flat_map(|(acc, w)| acc.0.iter().zip(w))
                .map(|(&a, &w)| {
                    let x = (a as f64).clamp(0.0, QA as f64) / QA as f64;
                    x * x * w as f64
                })
                .sum();
            let got = output(&out, 0.0, &mine, &theirs) as f64;
            worst = worst.max((got - exact).abs() / K as f64);
        }
        assert!(worst < 0.5, "{worst} centiflats off");
    }
}
