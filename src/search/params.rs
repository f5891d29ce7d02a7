//! Search and time-management constants: every tunable number of the search, named and
//! commented. A few numbers are still written where they are used, as arithmetic rather than
//! settings: 100 for percentages, 2 for a side's turn (killers two plies down, the depth to spare
//! for an extension or the game's costly knowledge, plies kept below [`MAX_PLY`], odd helper
//! threads one ply ahead), the doubling of a failed aspiration window, the halving of the
//! best-move changes each iteration, the history bonus depth², and the sizes of fixed tables
//! (the late-move reduction table's 64 rows, the table entry's depth byte). A game's own numbers
//! (Tak's move-ordering weights, when its null move is safe) live with the game.

/// Deepest ply the search can reach (iterative deepening stops below it).
pub const MAX_PLY: usize = 128;

// ---- Extensions ----

/// Search a move one ply deeper when the game says it deserves it
/// ([`super::SearchGame::extends`]: in Tak a double road threat).
pub const EXTENSIONS: bool = true;

// ---- Aspiration windows ----
/// Iterations from this depth on start with a window around the previous score.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Half-width of the first aspiration window, in centiflats.
pub const ASPIRATION_WINDOW: i32 = 35;

// ---- Null move pruning ----
/// Null move is tried from this remaining depth on.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Base depth reduction of the null-move search.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// One more ply of reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;

// ---- Reverse futility pruning ----
/// Reverse futility applies at this remaining depth and below.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Margin per ply of depth by which the static eval must beat beta.
pub const RFP_MARGIN: i32 = 80;

// ---- Futility pruning and late move pruning ----
/// Futility pruning applies at this remaining depth and below.
pub const FUTILITY_MAX_DEPTH: i32 = 4;
/// Base futility margin, centiflats.
pub const FUTILITY_BASE: i32 = 60;
/// Futility margin per ply of depth, centiflats.
pub const FUTILITY_PER_DEPTH: i32 = 90;
/// Late move pruning: at depth `d` (up to `LMP_MAX_DEPTH`) quiet moves after
/// `LMP_BASE + LMP_PER_DEPTH_SQ * d²` ordered moves are skipped.
pub const LMP_MAX_DEPTH: i32 = 4;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_BASE: usize = 8;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_PER_DEPTH_SQ: usize = 6;

// ---- Late move reductions ----
/// Moves are reduced from this remaining depth on...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ...after this many moves have been searched at full depth.
pub const LMR_FULL_MOVES: usize = 3;
/// Reduction = `LMR_BASE + ln(depth) · ln(move number) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.6;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.3;

// ---- Move ordering ----
// The picker's scores come in bands, one per class of move (see `ordering`): the table move,
// then the game's urgent moves by their rank, then the killers, then every plain move by the
// game's base score plus its history score, kept below the killers.
/// Score of the transposition-table move (searched first).
pub const ORDER_TT: i32 = 1 << 30;
/// Score of an urgent move of rank 0 ([`super::SearchGame::urgency`]); a rank adds to it, up to
/// just below [`ORDER_TT`].
pub const ORDER_URGENT: i32 = 1 << 24;
/// First and second killer moves.
pub const ORDER_KILLER: [i32; 2] = [1 << 23, (1 << 23) - 1];
/// The highest score of a plain move (its base score plus history is cut to it).
pub const ORDER_PLAIN_MAX: i32 = ORDER_KILLER[1] - 1;
/// History scores are kept within ±this.
pub const HISTORY_MAX: i32 = 8192;

// ---- Time ----
/// Moves-to-go estimate is capped at this.
pub const TIME_MAX_MOVES_LEFT: u64 = 40;
/// Share of the increment added to each move's budget, percent.
pub const TIME_INC_PERCENT: u64 = 75;
/// With fewer than this many increments left on the clock, the increment is banked instead of
/// spent, so the clock settles near this reserve rather than near a few increments: a reserve
/// that outlasts a stall of the machine (a busy core, a slow pipe) of several hundred ms.
pub const TIME_RESERVE_INCREMENTS: u64 = 10;
/// The soft budget never exceeds this share of the usable clock, percent.
pub const TIME_SOFT_MAX_PERCENT: u64 = 20;
/// The hard deadline is this many soft budgets...
pub const TIME_HARD_FACTOR: u64 = 3;
/// ...but never more than this share of the usable clock, percent.
pub const TIME_HARD_MAX_PERCENT: u64 = 40;
/// No new iteration once this fraction of the (scaled) soft budget is used: the next one would
/// take longer than all before it.
pub const TIME_NEXT_ITERATION_FRACTION: f64 = 0.6;
/// The soft deadline is scaled by up to this factor when the best move changes often.
pub const TIME_INSTABILITY_MAX: f64 = 2.0;
/// Default move overhead, ms.
pub const MOVE_OVERHEAD_MS: u64 = 30;

/// Nodes between checks of the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

/// Entries per side and key of the correction history (a power of two).
pub const CORR_SIZE: usize = 1 << 14;
/// Correction history entries count in 1/`CORR_GRAIN` centiflats.
pub const CORR_GRAIN: i32 = 16;
/// The largest evaluation error (centiflats) one update moves an entry toward.
pub const CORR_LIMIT: i32 = 400;
/// An update's weight out of 256 is the depth plus one, up to this.
pub const CORR_MAX_WEIGHT: i32 = 16;
