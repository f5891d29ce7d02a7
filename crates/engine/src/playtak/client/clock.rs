//! The clocks and the lag: what the server's times say, what the network costs each move, and
//! so how long Cairn may think.
//!
//! The server runs the clock of the side to move from when it sent the last move, and reports
//! both clocks after each move. What Cairn's move cost on the server's clock beyond the
//! thinking measured here is the lag; a reserve of it for the moves still to come is kept off
//! the clock the engine sees.

use super::Client;
use cairn_search::Limits;
use cairn_tak::board::Color;
use std::time::{Duration, Instant};

/// Moves of measured lag kept off the clock the engine sees, so that it plans for the time the
/// network will take from the moves still to come.
const LAG_RESERVE_MOVES: u64 = 40;
/// Below this much clock (after the lag reserve), ms, moves come from a small fixed search:
/// at once, where a timed search would overshoot its few milliseconds.
const PANIC_MS: u64 = 400;
/// Nodes of that search.
const PANIC_NODES: u64 = 1_000;

/// A game's clocks as the server reports them, and the lag measured on Cairn's moves.
pub(super) struct Clock {
    /// White's and Black's clocks, ms, as last reported.
    reported: [u64; 2],
    /// When the clocks were reported.
    reported_at: Instant,
    /// Cairn's last move, until the server reports the clocks after it: `(Cairn's clock when
    /// the search started, ms, the time from then until the move was sent)`.
    sent: Option<(u64, Duration)>,
    /// When the last search started.
    think_from: Instant,
    /// Measured lag per move, ms: what the server charged beyond Cairn's own thinking (moving
    /// average).
    lag_ms: u64,
}

impl Clock {
    /// Both clocks at the game's starting time, ms; no lag measured yet.
    pub(super) fn new(time_ms: u64) -> Self {
        Clock {
            reported: [time_ms, time_ms],
            reported_at: Instant::now(),
            sent: None,
            think_from: Instant::now(),
            lag_ms: 0,
        }
    }

    /// `side`'s clock, ms, as last reported.
    pub(super) fn reported(&self, side: Color) -> u64 {
        self.reported[side as usize]
    }

    /// The server reports the clocks.
    fn report(&mut self, white: u64, black: u64) {
        self.reported = [white, black];
        self.reported_at = Instant::now();
    }

    /// After the clocks that follow Cairn's move (Cairn plays `ours`, with `inc_s` seconds of
    /// increment, in game `game`): the lag is what the move cost on the server's clock beyond
    /// the thinking measured here.
    fn measure_lag(&mut self, ours: Color, inc_s: u64, game: u64) {
        let Some((before, thought)) = self.sent.take() else {
            return;
        };
        let after = self.reported(ours);
        let charged = (before + inc_s * 1000).saturating_sub(after);
        let lag = charged.saturating_sub(thought.as_millis() as u64).min(1000);
        self.lag_ms = (self.lag_ms * 3 + lag) / 4;
        log::debug!(
            "game {game}: move charged {charged} ms, thought {} ms, lag now {} ms",
            thought.as_millis(),
            self.lag_ms
        );
    }

    /// On Cairn's turn (Cairn plays `ours`, with `inc_s` seconds of increment): the limits of
    /// the search of its move, from the clocks less the lag reserve; the thinking time starts.
    pub(super) fn think(&mut self, ours: Color, inc_s: u64) -> Limits {
        // The server runs Cairn's clock from when it sent the last move; the network's lag on
        // the moves to come is kept off it.
        let clock = self
            .reported(ours)
            .saturating_sub(self.reported_at.elapsed().as_millis() as u64);
        let usable = clock.saturating_sub(self.lag_ms * LAG_RESERVE_MOVES).max(1);
        let inc = inc_s * 1000;
        let mut clocks = self.reported;
        clocks[ours as usize] = usable;
        let limits = if usable < PANIC_MS && inc < PANIC_MS {
            Limits {
                nodes: Some(PANIC_NODES),
                ..Limits::default()
            }
        } else {
            Limits {
                wtime: Some(clocks[0]),
                btime: Some(clocks[1]),
                winc: Some(inc),
                binc: Some(inc),
                ..Limits::default()
            }
        };
        self.sent = Some((clock, Duration::ZERO));
        self.think_from = Instant::now();
        limits
    }

    /// Cairn's move goes out: the thinking time ends.
    pub(super) fn moved(&mut self) {
        if let Some((_, thought)) = &mut self.sent {
            *thought = self.think_from.elapsed();
        }
    }
}

impl Client {
    /// `Timems`: the server reports the clocks of the game in progress, which also ends the
    /// wait for a resumed game's moves.
    pub(super) fn on_clocks(&mut self, white: u64, black: u64) {
        if let Some(g) = &mut self.game {
            g.clock.report(white, black);
            g.settling = None;
            let (ours, inc, no) = (g.ours(), g.start.inc, g.start.game);
            g.clock.measure_lag(ours, inc, no);
        }
    }
}
