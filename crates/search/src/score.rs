//! Scores: evaluations in the game's unit, and exact game results encoded by distance. Knows
//! no game: Tak's and Tablut's searches both score with it.
//!
//! A [`Score`] is an `i32` from the point of view of the side to move. Ordinary values are in
//! the game's evaluation unit (Tak: centiflats, 100 = one flat ahead) and stay well inside
//! ±[`Score::MAX_EVAL`]. Proven results sit above it: a win `p` plies from the root is
//! `WIN - 2p` for an outright win and `WIN - 2p - 1` for a win on a count ([`WinKind`]), so a
//! shorter win always scores higher, an outright win beats a count at the same distance, and
//! the kind of win can be read back from the parity. Losses are the negations. In the
//! transposition table the distance is stored relative to the node (see [`Score::to_tt`]).
//!
//! Every way the protocol (TEI, for Tak) and the PTN tools write a score lives here too, in Tak's
//! words (an outright win is a road, a count is flats): [`Display`](fmt::Display) for people
//! (`+0.45`, `win in 3 (road)`), [`Score::short`] for PTN comments and tables (`+0.45`, `+R3`),
//! and [`Score::cp`] and [`Score::solved`] for the protocol's `score cp` and `score solved`
//! (machine-readable output serialises scores with serde, in the tools). Tablut writes its scores itself.

use std::fmt;

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

/// How a proven result is reached: the two kinds of win a game may have, the first better than
/// the second at the same distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinKind {
    /// Outright, by the game's goal reached on the board: a road in Tak; in Tablut every win
    /// (the king's escape or capture, a repetition, no legal move).
    Outright,
    /// On a count when the game runs out: Tak's flat win (board full or a player out of
    /// pieces).
    Count,
}

impl Score {
    /// A draw, and the neutral evaluation.
    pub const DRAW: Score = Score(0);
    /// The best possible score: an outright win on the move itself (never reached; `WIN - 2`
    /// is).
    pub const WIN: Score = Score(30_000);
    /// Larger than any score, for open windows.
    pub const INFINITE: Score = Score(32_000);
    /// Scores at or beyond this magnitude are proven results.
    pub const MAX_EVAL: Score = Score(20_000);

    /// A win `plies` plies from the root.
    pub const fn win_in(plies: u32, kind: WinKind) -> Score {
        let count = matches!(kind, WinKind::Count) as i32;
        Score(Self::WIN.0 - 2 * plies as i32 - count)
    }

    /// A loss `plies` plies from the root.
    pub const fn loss_in(plies: u32, kind: WinKind) -> Score {
        Score(-Self::win_in(plies, kind).0)
    }

    /// Whether the score is a proven result (win or loss).
    pub const fn is_proven(self) -> bool {
        self.0.abs() >= Self::MAX_EVAL.0
    }

    /// For a proven result: `(win?, plies from the root, kind)`.
    pub fn proven(self) -> Option<(bool, u32, WinKind)> {
        if !self.is_proven() {
            return None;
        }
        let below = Self::WIN.0 - self.0.abs();
        let kind = if below % 2 == 0 {
            WinKind::Outright
        } else {
            WinKind::Count
        };
        Some((self.0 > 0, (below / 2) as u32, kind))
    }

    /// The score as stored in the table at a node `ply` plies from the root: proven results are
    /// made relative to the node, so they stay right when the node is reached by another path.
    pub const fn to_tt(self, ply: u32) -> i16 {
        let shift = 2 * ply as i32;
        let v = if self.0 >= Self::MAX_EVAL.0 {
            self.0 + shift
        } else if self.0 <= -Self::MAX_EVAL.0 {
            self.0 - shift
        } else {
            self.0
        };
        v as i16
    }

    /// The inverse of [`Score::to_tt`] at a node `ply` plies from the root.
    pub const fn from_tt(stored: i16, ply: u32) -> Score {
        let v = stored as i32;
        let shift = 2 * ply as i32;
        Score(if v >= Self::MAX_EVAL.0 {
            v - shift
        } else if v <= -Self::MAX_EVAL.0 {
            v + shift
        } else {
            v
        })
    }
}

/// What `score cp` reports for a proven result `p` plies away: `±(PROVEN_CP - p)`, beyond any
/// evaluation, and larger for a shorter win.
pub const PROVEN_CP: i64 = 10_000;

impl Score {
    /// The score in flats (evaluations only; a proven score gives its raw encoding).
    pub fn flats(self) -> f64 {
        self.0 as f64 / 100.0
    }

    /// The short form: `+0.45` for an evaluation, `+R3` / `-F5` for an outright (road) or
    /// counted (flat) win or loss in so many plies.
    pub fn short(self) -> String {
        match self.proven() {
            Some((win, plies, kind)) => {
                format!("{}{}{plies}", if win { '+' } else { '-' }, kind.letter())
            }
            None => format!("{:+.2}", self.flats()),
        }
    }

    /// The protocol's `cp` value: the evaluation in centiflats, or ±(`PROVEN_CP` − plies) for a
    /// proven result.
    pub fn cp(self) -> i64 {
        match self.proven() {
            Some((win, plies, _)) => {
                let cp = PROVEN_CP - plies as i64;
                if win {
                    cp
                } else {
                    -cp
                }
            }
            None => self.0 as i64,
        }
    }

    /// The protocol's `solved win N` / `solved loss N` for a proven result.
    pub fn solved(self) -> Option<String> {
        self.proven()
            .map(|(win, plies, _)| format!("solved {} {plies}", if win { "win" } else { "loss" }))
    }
}

impl WinKind {
    /// Tak's name of the kind: `road` or `flats`.
    pub const fn name(self) -> &'static str {
        match self {
            WinKind::Outright => "road",
            WinKind::Count => "flats",
        }
    }

    /// Tak's letter of the kind, as in PTN results: `R` or `F`.
    pub const fn letter(self) -> char {
        match self {
            WinKind::Outright => 'R',
            WinKind::Count => 'F',
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.proven() {
            Some((win, plies, kind)) => write!(
                f,
                "{} in {plies} ({})",
                if win { "win" } else { "loss" },
                kind.name()
            ),
            None => write!(f, "{:+.2}", self.flats()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_scores_round_trip() {
        let s = Score::win_in(5, WinKind::Count);
        assert_eq!(s.proven(), Some((true, 5, WinKind::Count)));
        assert_eq!((-s).proven(), Some((false, 5, WinKind::Count)));
        assert!(Score::win_in(3, WinKind::Count) > Score::win_in(5, WinKind::Outright));
        assert!(Score::win_in(3, WinKind::Outright) > Score::win_in(3, WinKind::Count));
        assert_eq!(Score::from_tt(s.to_tt(2), 2), s);
        // Stored at ply 2 as "win 3 plies below", read back at ply 4: win at 7.
        assert_eq!(
            Score::from_tt(s.to_tt(2), 4),
            Score::win_in(7, WinKind::Count)
        );
        assert_eq!(Score(123).proven(), None);
    }

    #[test]
    fn every_written_form() {
        let eval = Score(-45);
        let road = Score::win_in(3, WinKind::Outright);
        let flats = Score::loss_in(5, WinKind::Count);
        assert_eq!(
            [eval.to_string(), road.to_string(), flats.to_string()],
            ["-0.45", "win in 3 (road)", "loss in 5 (flats)"]
        );
        assert_eq!(
            [eval.short(), road.short(), flats.short()],
            ["-0.45", "+R3", "-F5"]
        );
        assert_eq!([eval.cp(), road.cp(), flats.cp()], [-45, 9_997, -9_995]);
        assert_eq!(eval.solved(), None);
        assert_eq!(flats.solved().as_deref(), Some("solved loss 5"));
    }
}
