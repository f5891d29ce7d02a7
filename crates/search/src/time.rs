//! Search limits from `go`, and the time manager that turns a clock into deadlines.
//!
//! Under a clock, the soft deadline is when to stop starting new iterations; it grows when the
//! best move keeps changing. The hard deadline is when a running iteration is abandoned. A fixed
//! move time (`movetime`) has only the hard deadline: all of it is used. Deadlines leave
//! `MoveOverhead` for the pipe and the GUI: racetrack forfeits on the first millisecond over, and
//! counts the time from writing `position` until it reads `bestmove`. So the clock starts when
//! `go` arrives ([`TimeManager::started_at`]): whatever runs before the search (a tinue check)
//! spends the same budget, and the search's deadlines and `info time` count from `go`.

use super::params::*;
use std::time::{Duration, Instant};

/// What `go` asked for. Every field is optional; with none the search runs until `stop`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining time, ms.
    pub wtime: Option<u64>,
    /// Black's remaining time, ms.
    pub btime: Option<u64>,
    /// White's increment, ms.
    pub winc: Option<u64>,
    /// Black's increment, ms.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u64>,
    /// Fixed time for this move, ms.
    pub movetime: Option<u64>,
    /// Maximum depth.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

/// Deadlines for one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Deadlines for the side to move (`white`), from `limits`, keeping `overhead_ms` in hand,
    /// on a clock that starts now. `moves_left` estimates how many more moves this player will
    /// make.
    pub fn new(limits: &Limits, white: bool, overhead_ms: u64, moves_left: u64) -> Self {
        Self::started_at(Instant::now(), limits, white, overhead_ms, moves_left)
    }

    /// [`TimeManager::new`] on a clock that started at `start` (when `go` arrived): the time
    /// since then counts against the deadlines and in [`TimeManager::elapsed`].
    pub fn started_at(
        start: Instant,
        limits: &Limits,
        white: bool,
        overhead_ms: u64,
        moves_left: u64,
    ) -> Self {
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(movetime) = limits.movetime {
            // A fixed time is there to be used (GUIs and match runners expect it): no soft
            // deadline, so the search runs to the limit unless it proves a result first.
            let t = Duration::from_millis(movetime.saturating_sub(overhead_ms).max(1));
            return TimeManager {
                start,
                soft: None,
                hard: Some(t),
            };
        }
        let (time, inc) = if white {
            (limits.wtime, limits.winc)
        } else {
            (limits.btime, limits.binc)
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        let inc = inc.unwrap_or(0);
        // Never plan to use time we do not have: the overhead comes off first.
        let usable = time.saturating_sub(overhead_ms).max(1);
        let moves = limits
            .movestogo
            .unwrap_or(moves_left)
            .clamp(1, TIME_MAX_MOVES_LEFT);
        // Any clock a GUI sends, up to u64::MAX ms, must neither overflow nor wrap.
        let percent = |ms: u64, percent: u64| (ms as u128 * percent as u128 / 100) as u64;
        // Spending most of each increment keeps the clock where it is; below the reserve the
        // increment is saved, and the clock grows back.
        let inc_share = if usable > inc.saturating_mul(TIME_RESERVE_INCREMENTS) {
            percent(inc, TIME_INC_PERCENT)
        } else {
            0
        };
        let soft = (usable / moves)
            .saturating_add(inc_share)
            .min(percent(usable, TIME_SOFT_MAX_PERCENT));
        let hard = soft
            .saturating_mul(TIME_HARD_FACTOR)
            .min(percent(usable, TIME_HARD_MAX_PERCENT));
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft.max(1))),
            hard: Some(Duration::from_millis(hard.max(1))),
        }
    }

    /// When the clock started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the running iteration must be abandoned.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether a new iteration should not start, with the soft budget scaled by `scale` (above
    /// 1 when the best move is unstable): past a fraction of it, the next iteration would most
    /// likely overrun it.
    pub fn soft_expired(&self, scale: f64) -> bool {
        let elapsed = self.elapsed().as_secs_f64();
        self.soft.is_some_and(|s| {
            elapsed >= s.as_secs_f64() * (scale * TIME_NEXT_ITERATION_FRACTION).min(1.0)
        })
    }

    /// The soft deadline, if any (for logging).
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The time the search plans to use, if limited: the soft deadline under a clock, all of it
    /// under a fixed move time.
    pub fn planned(&self) -> Option<Duration> {
        self.soft.or(self.hard)
    }

    /// What is left of [`TimeManager::planned`] now, if limited (zero once it has passed): the
    /// budget of work done before the search on the same clock.
    pub fn planned_left(&self) -> Option<Duration> {
        self.planned()
            .map(|planned| planned.saturating_sub(self.elapsed()))
    }

    /// The hard deadline, if any (for logging).
    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// The hard deadline as an instant, if any.
    pub fn deadline(&self) -> Option<Instant> {
        self.hard.map(|hard| self.start + hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_stay_inside_the_clock() {
        let limits = Limits {
            wtime: Some(10_000),
            btime: Some(10_000),
            winc: Some(100),
            binc: Some(100),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, true, 50, 30);
        let (soft, hard) = (tm.soft().unwrap(), tm.hard().unwrap());
        assert!(soft <= hard && hard < Duration::from_millis(10_000 - 50));
        // Almost no time left: still within what remains after the overhead.
        let low = Limits {
            wtime: Some(60),
            winc: Some(0),
            ..Limits::default()
        };
        let tm = TimeManager::new(&low, true, 50, 30);
        assert!(tm.hard().unwrap() <= Duration::from_millis(10));
        let fixed = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let tm = TimeManager::new(&fixed, false, 50, 30);
        assert_eq!(tm.hard(), Some(Duration::from_millis(950)));
        // All of a fixed time is used: no soft deadline ends the search before it.
        assert_eq!(tm.soft(), None);
        assert_eq!(tm.planned(), Some(Duration::from_millis(950)));
        assert!(!tm.soft_expired(1.0));
        assert!(TimeManager::new(&Limits::default(), true, 50, 30)
            .hard()
            .is_none());
    }

    /// With a healthy clock most of the increment is spent; below the reserve of increments it
    /// is banked, so over a long game the clock settles near the reserve, not near zero.
    #[test]
    fn a_low_clock_banks_the_increment() {
        let clock = |ms: u64| Limits {
            btime: Some(ms),
            binc: Some(100),
            ..Limits::default()
        };
        let soft = |ms: u64| TimeManager::new(&clock(ms), false, 30, 10).soft().unwrap();
        // 10 s: a tenth of the usable clock plus 75 ms of the increment.
        assert_eq!(soft(10_030), Duration::from_millis(1000 + 75));
        // 800 ms, under 10 increments: a tenth of the usable clock only.
        assert_eq!(soft(830), Duration::from_millis(80));
        // A game of moves spending the soft budget each: the clock never falls below the
        // reserve's neighbourhood (here it starts at 3 s and ends each move with the increment).
        let mut left = 3_000u64;
        let mut lowest = left;
        for _ in 0..300 {
            left = left - soft(left).as_millis() as u64 + 100;
            lowest = lowest.min(left);
        }
        assert!(lowest >= 900, "lowest clock {lowest} ms");
    }

    /// A clock that started before the search counts that time: against the deadlines, in
    /// what is left of the plan, and in the elapsed time reported.
    #[test]
    fn a_clock_started_at_go_counts_the_time_before_the_search() {
        let fixed = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let now = Instant::now();
        let at = |ago_ms: u64| now.checked_sub(Duration::from_millis(ago_ms)).unwrap();
        let tm = TimeManager::started_at(at(600), &fixed, true, 50, 30);
        assert!(tm.elapsed() >= Duration::from_millis(600));
        assert_eq!(tm.deadline(), Some(at(600) + Duration::from_millis(950)));
        assert!(tm.planned_left().unwrap() <= Duration::from_millis(350));
        // Past the deadline before the search starts: nothing is left, and the search stops.
        let late = TimeManager::started_at(at(2000), &fixed, true, 50, 30);
        assert_eq!(late.planned_left(), Some(Duration::ZERO));
        assert!(late.hard_expired());
        assert_eq!(late.start(), at(2000));
        // No limit: no deadline, however long ago the clock started.
        let free = TimeManager::started_at(at(2000), &Limits::default(), true, 50, 30);
        assert_eq!((free.deadline(), free.planned_left()), (None, None));
        assert!(!free.hard_expired());
    }
}
