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

// ---- Pruning, reductions and the aspiration window ----
// The numbers SPSA tunes (`cairn tune spsa`) are fields of [`Tunables`], read by the search at
// run time. Their defaults below are the shipped values; `CAIRN_TUNE` overrides them for tests.

/// Iterations from this depth on start with a window around the previous score.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

/// The environment variable that overrides [`Tunables`] for a test run:
/// `CAIRN_TUNE=rfp_margin=85,lmr_base=0.55` (names as the fields; see [`Tunables::parse`]).
pub const TUNE_ENV: &str = "CAIRN_TUNE";

/// A value SPSA can move: an integer constant is tuned as a real number and rounded.
pub trait Tunable: Copy {
    /// The value as SPSA sees it.
    fn to_f64(self) -> f64;
    /// The value nearest to `x`.
    fn from_f64(x: f64) -> Self;
}

impl Tunable for i32 {
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(x: f64) -> Self {
        x.round() as i32
    }
}

impl Tunable for f64 {
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(x: f64) -> Self {
        x
    }
}

/// One tunable constant as SPSA sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// The field's name (also its name in `CAIRN_TUNE`).
    pub name: &'static str,
    /// The lowest value allowed.
    pub min: f64,
    /// The highest value allowed.
    pub max: f64,
    /// SPSA's perturbation at the end of a run (`c_end`), in the constant's units: about the
    /// smallest change whose effect a few thousand games can see.
    pub step: f64,
}

/// Declares [`Tunables`], its defaults and its [`Spec`]s from one list, so that a field, its
/// default and its range cannot drift apart.
macro_rules! tunables {
    ($($(#[$doc:meta])* $field:ident: $ty:ty = $default:expr, $min:expr, $max:expr, $step:expr;)*) => {
        /// The search constants that are read at run time, so that SPSA can tune them and a
        /// test can override them ([`TUNE_ENV`]) without a build.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Tunables {
            $($(#[$doc])* pub $field: $ty,)*
        }

        impl Tunables {
            /// The shipped values.
            pub const DEFAULT: Tunables = Tunables { $($field: $default,)* };

            /// Every tunable, in field order.
            pub const SPECS: &'static [Spec] = &[$(Spec {
                name: stringify!($field),
                min: $min as f64,
                max: $max as f64,
                step: $step as f64,
            },)*];

            /// The values in [`Tunables::SPECS`] order.
            pub fn values(&self) -> Vec<f64> {
                vec![$(self.$field.to_f64(),)*]
            }

            /// Tunables from values in [`Tunables::SPECS`] order (integers rounded); a missing
            /// value keeps its default.
            pub fn from_values(values: &[f64]) -> Tunables {
                let mut at = values.iter();
                Tunables {
                    $($field: at.next().map_or($default, |&x| <$ty as Tunable>::from_f64(x)),)*
                }
            }
        }
    };
}

tunables! {
    /// Half-width of the first aspiration window, in centiflats.
    aspiration_window: i32 = 35, 10, 100, 5;
    /// Null move is tried from this remaining depth on.
    nmp_min_depth: i32 = 3, 2, 6, 0.5;
    /// Base depth reduction of the null-move search.
    nmp_base_reduction: i32 = 3, 1, 6, 0.5;
    /// One more ply of null-move reduction per this many plies of depth.
    nmp_depth_divisor: i32 = 4, 2, 8, 0.5;
    /// Reverse futility applies at this remaining depth and below.
    rfp_max_depth: i32 = 6, 2, 10, 0.5;
    /// Margin per ply of depth by which the static eval must beat beta (reverse futility).
    rfp_margin: i32 = 80, 30, 200, 8;
    /// Futility pruning applies at this remaining depth and below.
    futility_max_depth: i32 = 4, 1, 8, 0.5;
    /// Base futility margin, centiflats.
    futility_base: i32 = 60, 0, 200, 8;
    /// Futility margin per ply of depth, centiflats.
    futility_per_depth: i32 = 90, 30, 250, 8;
    /// Late move pruning: at depth `d` (up to this) quiet moves after
    /// `lmp_base + lmp_per_depth_sq * d²` ordered moves are skipped.
    lmp_max_depth: i32 = 4, 1, 8, 0.5;
    /// See `lmp_max_depth`.
    lmp_base: i32 = 8, 2, 30, 1;
    /// See `lmp_max_depth`.
    lmp_per_depth_sq: i32 = 6, 1, 20, 0.6;
    /// Moves are reduced from this remaining depth on...
    lmr_min_depth: i32 = 3, 2, 6, 0.5;
    /// ...after this many moves have been searched at full depth.
    lmr_full_moves: i32 = 3, 1, 8, 0.5;
    /// Late-move reduction = `lmr_base + ln(depth) · ln(move number) / lmr_divisor`.
    lmr_base: f64 = 0.6, -0.5, 2.0, 0.08;
    /// See `lmr_base`.
    lmr_divisor: f64 = 2.3, 1.0, 5.0, 0.15;
}

impl Default for Tunables {
    fn default() -> Self {
        Tunables::DEFAULT
    }
}

impl Tunables {
    /// The shipped values with the overrides of `text` (`name=value` pairs, comma-separated).
    /// A name that is not a tunable, a value that is not a number, or one outside its range is
    /// an error naming it.
    pub fn parse(text: &str) -> Result<Tunables, String> {
        let mut values = Tunables::DEFAULT.values();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("`{pair}`: expected name=value"))?;
            let (name, value) = (name.trim(), value.trim());
            let i = Tunables::index(name).ok_or_else(|| format!("`{name}` is not a tunable"))?;
            let spec = Tunables::SPECS[i];
            let x: f64 = value
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("{name}: `{value}` is not a number"))?;
            if !(spec.min..=spec.max).contains(&x) {
                return Err(format!(
                    "{name}: {x} is out of range ({} to {})",
                    spec.min, spec.max
                ));
            }
            values[i] = x;
        }
        Ok(Tunables::from_values(&values))
    }

    /// Where the constant named `name` is in [`Tunables::SPECS`].
    pub fn index(name: &str) -> Option<usize> {
        Tunables::SPECS.iter().position(|s| s.name == name)
    }

    /// The values this process searches with: the shipped ones, or [`TUNE_ENV`]'s if it is set
    /// and valid (an invalid one is logged and ignored). Read once.
    pub fn current() -> Tunables {
        static CURRENT: std::sync::OnceLock<Tunables> = std::sync::OnceLock::new();
        *CURRENT.get_or_init(|| match std::env::var(TUNE_ENV) {
            Ok(text) => match Tunables::parse(&text) {
                Ok(t) => {
                    log::info!("{TUNE_ENV}: searching with {t:?}");
                    t
                }
                Err(e) => {
                    log::error!("{TUNE_ENV}: {e}; the shipped values are used");
                    Tunables::DEFAULT
                }
            },
            Err(_) => Tunables::DEFAULT,
        })
    }

    /// The values as `CAIRN_TUNE` text: every field, `name=value`, comma-separated.
    pub fn to_env(&self) -> String {
        Tunables::SPECS
            .iter()
            .zip(self.values())
            .map(|(s, v)| format!("{}={}", s.name, (v * 1e4).round() / 1e4))
            .collect::<Vec<_>>()
            .join(",")
    }
}

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
