//! Stopping a match by hand. The first SIGINT (Ctrl-C) or SIGTERM ends the games in progress,
//! which are left out of the result and of the PTN file, and the match prints its result over
//! the games that finished; a second one ends the process at once. The engines run in their own
//! process group, so a Ctrl-C at the terminal reaches the match and not them: a game cut short
//! is never scored as a crash.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// A stop request, shared by a match's games and their engines; `Default` is one that never
/// comes, [`Interrupt::on_signals`] one that SIGINT and SIGTERM make.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// Set by the first signal; a second one while it is set ends the process.
    stopped: Arc<AtomicBool>,
    /// The signal's number, 0 before any came.
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Listens for SIGINT and SIGTERM from now on.
    pub fn on_signals() -> Result<Self, String> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let interrupt = Self::default();
        for signal in [SIGINT, SIGTERM] {
            // The second signal's default action (the process ends, killed by it) is registered
            // first, so that the first signal finds the flag still clear.
            signal_hook::flag::register_conditional_default(signal, Arc::clone(&interrupt.stopped))
                .and_then(|_| {
                    signal_hook::flag::register_usize(
                        signal,
                        Arc::clone(&interrupt.signal),
                        signal as usize,
                    )
                })
                .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&interrupt.stopped)))
                .map_err(|e| format!("cannot handle SIGINT and SIGTERM: {e}"))?;
        }
        Ok(interrupt)
    }

    /// Whether the match was asked to stop.
    pub fn requested(&self) -> bool {
        self.stopped.load(Relaxed)
    }

    /// What stopped the match, for its message (`SIGINT`, `SIGTERM`); `None` while it runs on.
    pub fn reason(&self) -> Option<&'static str> {
        if !self.requested() {
            return None;
        }
        Some(match self.signal.load(Relaxed) as i32 {
            signal_hook::consts::SIGINT => "SIGINT",
            signal_hook::consts::SIGTERM => "SIGTERM",
            _ => "a signal",
        })
    }
}
