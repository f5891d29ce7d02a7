//! Playing strength levels: Cairn weakened so that a person can beat it.
//!
//! A level below [`FULL`] plays a move a person could play, never a random blunder. Its search
//! is smaller (a cap on nodes, one thread, no tinue prover before the search) and it looks at a
//! few lines at once (MultiPV). Of those lines it keeps the ones within a window of the best and
//! picks one with a temperature: a line `d` centiflats worse than the best has `exp(-d / T)`
//! times its chance. A move into a proven loss is never picked while the best line is not one.
//! The pick is deterministic: it depends only on the lines, the `Seed` option and the position,
//! so a game replays move for move with the same seed.
//!
//! The levels' Elo are measured by matches, each level against the next (`docs/levels.md`).

use cairn_search::rng::{mix, Rng};
use cairn_search::score::Score;

/// The strongest level: no cap, no temperature; Cairn as it plays by default.
pub const FULL: u8 = 15;

/// The weakest level.
pub const WEAKEST: u8 = 1;

/// How one level searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level's number, [`WEAKEST`] to [`FULL`].
    pub number: u8,
    /// How far it looks; `None` at full strength. The clock may stop it sooner.
    pub reach: Option<Reach>,
    /// Lines searched at once, among which the move is picked.
    pub lines: usize,
    /// The temperature, centiflats: a line this much worse than the best is `e` times less
    /// likely.
    pub temperature: i64,
    /// Lines more than this many centiflats worse than the best are never picked.
    pub window: i64,
}

/// The size of a weaker level's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// So many plies deep.
    Depth(u32),
    /// So many nodes a move; at least the first ply is always searched whole.
    Nodes(u64),
}

/// The ladder, weakest first: a one-ply look with a hot choice at the bottom, then two plies,
/// then searches of about 1.7 times the nodes of the rung below, each with a cooler choice. At
/// these sizes three times the nodes alone is worth about 400 Elo, so the steps stay near 200
/// (measured in `docs/levels.md`).
const LADDER: [(Reach, usize, i64, i64); FULL as usize - 1] = [
    (Reach::Depth(1), 8, 250, 800),
    (Reach::Depth(1), 6, 130, 400),
    (Reach::Depth(1), 5, 50, 150),
    (Reach::Depth(2), 5, 120, 400),
    (Reach::Depth(2), 4, 30, 100),
    (Reach::Nodes(5_000), 3, 15, 50),
    (Reach::Nodes(8_000), 3, 12, 40),
    (Reach::Nodes(13_000), 3, 10, 35),
    (Reach::Nodes(22_000), 3, 8, 30),
    (Reach::Nodes(36_000), 3, 6, 25),
    (Reach::Nodes(60_000), 2, 5, 20),
    (Reach::Nodes(100_000), 2, 4, 15),
    (Reach::Nodes(170_000), 2, 3, 10),
    (Reach::Nodes(290_000), 2, 2, 6),
];

impl Level {
    /// Level `number`, clamped to [`WEAKEST`]..=[`FULL`].
    pub fn new(number: u8) -> Level {
        let number = number.clamp(WEAKEST, FULL);
        match LADDER.get(number as usize - 1) {
            Some(&(reach, lines, temperature, window)) => Level {
                number,
                reach: Some(reach),
                lines,
                temperature,
                window,
            },
            None => Level {
                number,
                reach: None,
                lines: 1,
                temperature: 0,
                window: 0,
            },
        }
    }

    /// Whether this is full strength (the search and its move as they are).
    pub fn is_full(self) -> bool {
        self.number >= FULL
    }

    /// One line describing the level, for a greeting or a log.
    pub fn describe(self) -> String {
        let reach = match self.reach {
            None => return format!("level {} of {FULL} (full strength)", self.number),
            Some(Reach::Depth(1)) => "looks one ply ahead".to_string(),
            Some(Reach::Depth(plies)) => format!("looks {plies} plies ahead"),
            Some(Reach::Nodes(nodes)) => format!("searches {nodes} nodes a move"),
        };
        format!(
            "level {} of {FULL} ({reach} and picks among its {} best moves)",
            self.number, self.lines
        )
    }

    /// The index in `lines` (scores of the candidate lines, in any order) of the line to play,
    /// drawn with the level's temperature from a generator seeded by `seed` and the position's
    /// `hash`. `None` only for no lines.
    pub fn pick(self, lines: &[Score], seed: u64, hash: u64) -> Option<usize> {
        let best = (0..lines.len()).max_by_key(|&i| (lines[i], std::cmp::Reverse(i)))?;
        if self.temperature <= 0 {
            return Some(best);
        }
        let top = lines[best];
        let top_lost = top.proven().is_some_and(|(win, _, _)| !win);
        let weights: Vec<f64> = lines
            .iter()
            .map(|&score| {
                let lost = score.proven().is_some_and(|(win, _, _)| !win);
                let behind = top.cp().saturating_sub(score.cp());
                if (lost && !top_lost) || behind > self.window {
                    0.0
                } else {
                    (-(behind as f64) / self.temperature as f64).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut rng = Rng::new(mix(seed ^ mix(hash)));
        // 53 random bits as a fraction in [0, 1).
        let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if *w > 0.0 && draw < *w {
                return Some(i);
            }
            draw -= w;
        }
        Some(best)
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::new(FULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_search::score::WinKind;

    #[test]
    fn each_level_searches_more_or_chooses_cooler_than_the_one_below() {
        let size = |level: Level| match level.reach {
            Some(Reach::Depth(d)) => d as u64,
            Some(Reach::Nodes(n)) => n,
            None => u64::MAX,
        };
        for n in WEAKEST..FULL {
            let (a, b) = (Level::new(n), Level::new(n + 1));
            // Each rung searches more, or as much with a cooler choice among no more lines.
            let cooler = a.temperature > b.temperature && a.window > b.window;
            assert!(
                size(a) < size(b) || (size(a) == size(b) && cooler),
                "{a:?} {b:?}"
            );
            assert!(a.lines >= b.lines, "{a:?} {b:?}");
        }
        assert!(Level::new(FULL).is_full() && Level::new(200).is_full());
        assert_eq!(Level::new(0).number, WEAKEST);
    }

    #[test]
    fn full_strength_plays_the_best_line() {
        let lines = [Score(10), Score(50), Score(49)];
        for seed in 0..50 {
            assert_eq!(Level::new(FULL).pick(&lines, seed, 7), Some(1));
        }
        assert_eq!(Level::new(3).pick(&[], 1, 2), None);
    }

    #[test]
    fn a_weak_level_varies_among_close_moves_but_never_beyond_its_window() {
        let level = Level::new(2);
        let lines = [
            Score(30),
            Score(0),
            Score(-20),
            Score(30 - level.window as i32 - 1),
        ];
        let mut seen = [0usize; 4];
        for seed in 0..2000 {
            seen[level.pick(&lines, seed, 99).unwrap()] += 1;
        }
        assert!(
            seen[0] > seen[1] && seen[1] > seen[2] && seen[2] > 0,
            "{seen:?}"
        );
        assert_eq!(seen[3], 0, "{seen:?}");
        // The same seed and position give the same pick; the position changes it.
        let picks: Vec<_> = (0..64).map(|s| level.pick(&lines, s, 5)).collect();
        assert_eq!(
            picks,
            (0..64)
                .map(|s| level.pick(&lines, s, 5))
                .collect::<Vec<_>>()
        );
        let other: Vec<_> = (0..64).map(|s| level.pick(&lines, s, 6)).collect();
        assert_ne!(picks, other);
    }

    #[test]
    fn a_proven_loss_is_never_chosen_while_something_else_is_not_lost() {
        let level = Level::new(WEAKEST);
        let lines = [Score(-5), Score::loss_in(2, WinKind::Outright), Score(-40)];
        for seed in 0..500 {
            assert_ne!(level.pick(&lines, seed, 1), Some(1));
        }
        // When everything is lost, the longest defence is still preferred most often.
        let lost = [
            Score::loss_in(2, WinKind::Outright),
            Score::loss_in(6, WinKind::Outright),
        ];
        assert!(level.pick(&lost, 3, 3).is_some());
    }
}
