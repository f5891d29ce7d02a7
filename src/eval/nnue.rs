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
//! holds `x · QA` and the clamp is to `0..=QA`; the output layer stays `f32` (two dot products of
//! `HIDDEN` values, cheap next to the accumulator).
//!
//! **Updates**: each thread keeps the accumulators of both perspectives for the last position it
//! evaluated, with a key per square ([`square_key`]). The next evaluation compares keys and
//! takes out and puts back only the inputs of the squares that changed (in a search, the next
//! leaf is usually a move or two away), so make/unmake and the generic search carry no network
//! state (Topaz's scheme). 6×6 middlegame, one thread: about 15% fewer nodes a second than the
//! linear evaluation, against 22% with a full rebuild at every evaluation.
//!
//! **Residual networks** (`cairn tune --nnue FILE --residual`) output a correction that is
//! added to the linear evaluation's logit instead of the whole logit: the network learns what
//! the linear terms miss, and starts from the linear evaluation's knowledge of roads.
//!
//! **Where it stands** (6×6, komi 2): a first round on 935,592 self-play positions
//! (`cairn tune --generate --size 6 --games 12000 --nodes 3000 --half-komi 4 --seed 21`, in 4
//! shards), trained with `--lambda 0.5 --k 0.0026 --holdout 0.05 --epochs 5 --batch 16384
//! --learning-rate 0.002 --decay 0.6` (7.1 M samples with the symmetries, 20 s an epoch on 2
//! cores). Validation loss: linear evaluation 0.05260, whole network 0.04831, residual network
//! (`--learning-rate 0.001`) 0.04559. In play both lost heavily to the linear evaluation at equal
//! time (3+0.03, public book): the whole network 0–8 (SPRT H0), the residual one +3 −20 =1. A
//! lower loss on Cairn's own 3000-node games does not make a stronger player: the targets teach
//! the habits of those games. The next data must come from stronger play (a teacher such as
//! Tiltak's evaluations, or deeper searches).
//!
//! A later residual network, trained the same way on 938,129 positions of 8,000-node self-play
//! (6 epochs, decay 0.6; validation 0.039327 against the linear evaluation's 0.041374), lost at
//! **equal nodes** (`cairn match --nodes 40000`): +102 −155 =32 in 289 games, −64 ± 39 Elo, so
//! its node rate is not what loses. What is left is the positions: a game's positions are the
//! ones both players chose, while the search evaluates mostly positions after weaker moves,
//! which the network never saw and where it has nothing to hold it. `cairn tune --generate
//! --siblings P` writes such positions, scored by their own search, for the next training.
//!
//! Networks are trained by [`crate::tune::network`] (`cairn tune --nnue`) and read from a small binary file
//! ([`Network::from_bytes`]). None is built into the binary yet: a network replaces the linear
//! evaluation only where it wins an SPRT against it, and until then the environment variable
//! [`ENV`] (`CAIRN_NNUE=s6.nnue cairn ...`) loads one for such tests ([`net`]).

use crate::board::{Color, Position, Square};
use crate::score::Score;
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

/// What one square holds, as far as the inputs see it: 0 for an empty square, else the top
/// piece's colour (bit 1) and role (bits 2-3), the number of pieces under it that are inputs
/// (bits 4-6) and their colours (bit 7 up, the piece right under the top first; 1 is Black).
/// Two squares with the same key have the same inputs, so an evaluation only redoes the squares
/// whose key changed since the last one.
#[inline]
pub fn square_key<const N: usize>(pos: &Position<N>, sq: Square) -> u32 {
    let Some((color, role)) = pos.top(sq) else {
        return 0;
    };
    let height = pos.height(sq) as u32;
    let under = (height - 1).min(DEPTH as u32);
    // Colour bits of the `under` pieces below the top, lowest first; reversed so that the piece
    // right under the top comes first.
    let below = pos.pile_bits(sq, height - 1 - under, under);
    let colors = below.reverse_bits() >> (32 - under.max(1)) & ((1 << under) - 1);
    1 | (color as u32) << 1 | (role as u32) << 2 | under << 4 | colors << 7
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

/// Appends the inputs of square `sq` holding `key` (see [`square_key`]) from `me`'s perspective.
#[inline]
fn square_inputs(sq: usize, key: u32, me: Color, out: &mut Active) {
    if key == 0 {
        return;
    }
    let base = sq * PLANES;
    let mine = |bit: u32| (bit == me as u32) as usize;
    // Roles are numbered flat 0, wall 1, capstone 2 ([`Role`]).
    let kind = (key >> 2 & 3) as usize;
    out.push((base + kind + 3 * (1 - mine(key >> 1 & 1))) as u16);
    let under = (key >> 4 & 7) as usize;
    for d in 0..under {
        let theirs = 1 - mine(key >> (7 + d) & 1);
        out.push((base + 6 + 2 * d + theirs) as u16);
    }
}

/// Appends the reserve and komi inputs of `hand` (see [`hand_key`]) from `me`'s perspective.
#[inline]
fn hand_inputs(layout: &Layout, hand: u32, me: Color, out: &mut Active) {
    let stones = [hand & 0xff, hand >> 8 & 0xff];
    let caps = [hand >> 16 & 3, hand >> 18 & 3];
    let (mine, theirs) = (me.index(), (!me).index());
    let r = layout.reserves;
    let s = layout.stones + 1;
    let c = layout.caps + 1;
    out.push((r + stones[mine] as usize) as u16);
    out.push((r + s + stones[theirs] as usize) as u16);
    out.push((r + 2 * s + caps[mine] as usize) as u16);
    out.push((r + 2 * s + c + caps[theirs] as usize) as u16);
    let half_komi = (hand >> 20) as u8 as i8 as i32;
    let komi = half_komi * if me == Color::Black { 1 } else { -1 };
    out.push((layout.komi as i32 + komi.clamp(-KOMI_SPAN, KOMI_SPAN) + KOMI_SPAN) as u16);
}

/// Appends the active inputs of `pos` from `me`'s perspective to `out`.
pub fn active<const N: usize>(pos: &Position<N>, me: Color, out: &mut Active) {
    let layout = const { Layout::of(N) };
    for sq in pos.occupied() {
        square_inputs(sq.index(), square_key(pos, sq), me, out);
    }
    hand_inputs(&layout, hand_key(pos), me, out);
}

/// A quantised network for one board size.
#[derive(Clone, Debug)]
pub struct Network {
    /// A number of its own (its clones share it: same weights), so that a thread's cache of
    /// accumulators is never taken for another network's.
    id: u64,
    layout: Layout,
    /// First-layer weights, `HIDDEN` per input, times `QA`.
    w1: Vec<i16>,
    /// First-layer biases, times `QA`.
    b1: Vec<i16>,
    /// Output weights for the side to move's half, then the other's, divided by `QA²` (they
    /// multiply squared accumulator values).
    w2: Vec<f32>,
    /// Output bias.
    b2: f32,
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
            w1: w1.iter().map(|&x| q(x)).collect(),
            b1: b1.iter().map(|&x| q(x)).collect(),
            w2: w2.iter().map(|&x| x / (QA * QA) as f32).collect(),
            b2,
            residual,
        }
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
        for &w in self.w1.iter().chain(&self.b1) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for &w in &self.w2 {
            out.extend_from_slice(&(w * (QA * QA) as f32).to_le_bytes());
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
        let w1 = i16s(n1);
        let b1 = i16s(HIDDEN);
        let floats: Vec<f32> = bytes[header + 2 * (n1 + HIDDEN)..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Ok(Network {
            id: next_id(),
            layout,
            w1,
            b1,
            w2: floats[..2 * HIDDEN]
                .iter()
                .map(|&w| w / (QA * QA) as f32)
                .collect(),
            b2: floats[2 * HIDDEN],
            residual,
        })
    }

    /// The accumulator of the given active inputs.
    #[inline]
    fn accumulate(&self, active: &[u16], acc: &mut [i16; HIDDEN]) {
        acc.copy_from_slice(&self.b1);
        self.apply(active, acc, i16::wrapping_add);
    }

    /// Adds (`op` wrapping add) or takes out (wrapping sub) the weight rows of `inputs`.
    #[inline(always)]
    fn apply(&self, inputs: &[u16], acc: &mut [i16; HIDDEN], op: fn(i16, i16) -> i16) {
        for &i in inputs {
            let row = &self.w1[i as usize * HIDDEN..][..HIDDEN];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = op(*a, w);
            }
        }
    }

    /// The output logit for the side to move, from both accumulators.
    #[inline]
    fn output(&self, mine: &[i16; HIDDEN], theirs: &[i16; HIDDEN]) -> f32 {
        let half = |acc: &[i16; HIDDEN], w: &[f32]| -> f32 {
            let mut sum = [0f32; 8];
            for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
                for k in 0..8 {
                    let x = (a[k] as i32).clamp(0, QA) as f32;
                    sum[k] += x * x * w[k];
                }
            }
            sum.iter().sum()
        };
        half(mine, &self.w2[..HIDDEN]) + half(theirs, &self.w2[HIDDEN..]) + self.b2
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
            let linear = super::evaluate_with(pos, super::params::WEIGHTS[N]);
            linear.0 as f32 * K
        } else {
            0.0
        }
    }

    /// The network's output for the side to move whose perspective has the active inputs
    /// `mine`, the other's `theirs` (for a residual network, without the linear part).
    pub fn logit_of(&self, mine: &[u16], theirs: &[u16]) -> f32 {
        let mut accs = [[0i16; HIDDEN]; 2];
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
            cache.keys = [0; 65];
            cache.hand = u32::MAX;
            for acc in &mut cache.accs {
                acc.copy_from_slice(&self.b1);
            }
        }
        let mut gone = [Active::new(), Active::new()];
        let mut new = [Active::new(), Active::new()];
        for i in 0..N * N {
            let key = square_key(pos, Square(i as u8));
            let old = cache.keys[i];
            if key != old {
                for color in Color::ALL {
                    square_inputs(i, old, color, &mut gone[color.index()]);
                    square_inputs(i, key, color, &mut new[color.index()]);
                }
                cache.keys[i] = key;
            }
        }
        let hand = hand_key(pos);
        if hand != cache.hand {
            for color in Color::ALL {
                if cache.hand != u32::MAX {
                    hand_inputs(&self.layout, cache.hand, color, &mut gone[color.index()]);
                }
                hand_inputs(&self.layout, hand, color, &mut new[color.index()]);
            }
            cache.hand = hand;
        }
        for color in Color::ALL {
            let acc = &mut cache.accs[color.index()];
            self.apply(&gone[color.index()], acc, i16::wrapping_sub);
            self.apply(&new[color.index()], acc, i16::wrapping_add);
        }
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

/// What the last evaluation on a thread left: the network and size it was for, every square's
/// key ([`square_key`]), the reserves' key, and the accumulators of White's and Black's
/// perspectives for exactly those contents (wrapping `i16` sums, so taking inputs out undoes
/// putting them in exactly).
struct Cache {
    network: u64,
    size: usize,
    keys: [u32; 65],
    hand: u32,
    accs: [[i16; HIDDEN]; 2],
}

thread_local! {
    static CACHE: RefCell<Cache> = const {
        RefCell::new(Cache {
            network: 0,
            size: 0,
            keys: [0; 65],
            hand: u32::MAX,
            accs: [[0; HIDDEN]; 2],
        })
    };
}

/// The environment variable that names network files to evaluate with, comma-separated (each
/// file says its board size); sizes without one keep the linear evaluation.
pub const ENV: &str = "CAIRN_NNUE";

/// The networks of `CAIRN_NNUE`, read at the first evaluation, by board size.
static NETS: std::sync::OnceLock<Vec<Option<Network>>> = std::sync::OnceLock::new();

/// Reads the files `CAIRN_NNUE` names; a file that cannot be read is reported in the log and
/// left out (its size keeps the linear evaluation).
fn load() -> Vec<Option<Network>> {
    let mut nets = vec![None; crate::board::MAX_SIZE + 1];
    let Ok(list) = std::env::var(ENV) else {
        return nets;
    };
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
            Err(e) => log::error!("{ENV}: {path}: {e}; the linear evaluation is used instead"),
        }
    }
    nets
}

/// The network that evaluates size `N`, if `CAIRN_NNUE` gave one.
#[inline]
pub fn net<const N: usize>() -> Option<&'static Network> {
    NETS.get_or_init(load)[N].as_ref()
}
