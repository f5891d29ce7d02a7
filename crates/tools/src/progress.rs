//! Progress of the long commands (`match`, `analyze --game`, `openings`, `tactics`, `puzzles`) on
//! stderr, never stdout (where the results go).
//!
//! On a terminal, a bar (`indicatif`) with the count, the rate, the time left and a message that
//! each step replaces. Elsewhere (a log file, a pipe, CI), plain lines: one per step, or at most
//! one every so often for fast steps, each with the count, the rate, the time left and the
//! message, so a log shows the same as the bar did.

use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Progress through a known number of steps (see the module documentation).
#[derive(Debug)]
pub struct Progress {
    /// The bar, on a terminal.
    bar: Option<ProgressBar>,
    /// What is counted, first on each line (`match`, `stage 1/2 (depth 4 ±20)`).
    label: String,
    /// The steps' name (`games`).
    unit: String,
    total: u64,
    done: AtomicU64,
    started: Instant,
    /// Plain lines: at most one per `every` (zero: one per step), and when the last was printed.
    every: Duration,
    last_line: Mutex<Option<Instant>>,
}

impl Progress {
    /// Progress through `total` steps named `unit`, as a bar on a terminal, else a plain line
    /// per step, or at most one every `every` for fast steps.
    pub fn new(label: &str, total: u64, unit: &str, every: Duration) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress::with_bar(terminal, label, total, unit, every)
    }

    /// [`Progress::new`] with the choice made: a bar or plain lines.
    pub fn with_bar(bar: bool, label: &str, total: u64, unit: &str, every: Duration) -> Progress {
        let bar = bar.then(|| {
            let bar = ProgressBar::new(total);
            let template = format!(
                "{{prefix}} {{elapsed_precise}} [{{bar:20}}] {{pos}}/{{len}} {unit}, \
                 {{rate}}/s, eta {{eta}}  {{wide_msg}}"
            );
            let style = ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = w.write_str(&rate_text(state.per_sec()));
                    },
                )
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            bar
        });
        Progress {
            bar,
            label: label.to_string(),
            unit: unit.to_string(),
            total,
            done: AtomicU64::new(0),
            started: Instant::now(),
            every,
            last_line: Mutex::new(None),
        }
    }

    /// Steps done so far.
    pub fn done(&self) -> u64 {
        self.done.load(Relaxed)
    }

    /// `steps` more done; `message` says how things stand (the bar shows it, a plain line ends
    /// with it). The message is only made when it is shown.
    pub fn inc(&self, steps: u64, message: impl FnOnce() -> String) {
        let done = self.done.fetch_add(steps, Relaxed) + steps;
        if let Some(bar) = &self.bar {
            bar.inc(steps);
            bar.set_message(message());
            return;
        }
        if !self.every.is_zero() {
            let Ok(mut last) = self.last_line.try_lock() else {
                return;
            };
            let now = Instant::now();
            let due = last.map_or(now - self.started >= self.every, |t| now - t >= self.every);
            if !due && done < self.total {
                return;
            }
            *last = Some(now);
        }
        eprintln!("{}", self.line(done, &message()));
    }

    /// The plain line after `done` steps: `label: done/total unit, rate/s, eta S s: message`.
    fn line(&self, done: u64, message: &str) -> String {
        let secs = self.started.elapsed().as_secs_f64();
        let rate = done as f64 / secs.max(1e-3);
        let left = self.total.saturating_sub(done) as f64 / rate.max(1e-9);
        let mut line = format!(
            "{}: {done}/{} {}, {}/s, {secs:.0} s, eta {left:.0} s",
            self.label,
            self.total,
            self.unit,
            rate_text(rate)
        );
        if !message.is_empty() {
            line.push_str(": ");
            line.push_str(message);
        }
        line
    }

    /// A line of its own on stderr, above the bar on a terminal.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Removes the bar (plain lines have nothing to end).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A rate with two significant figures' worth of decimals: `0.25`, `3.4`, `120`.
fn rate_text(rate: f64) -> String {
    match rate {
        r if r < 1.0 => format!("{r:.2}"),
        r if r < 10.0 => format!("{r:.1}"),
        r => format!("{r:.0}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_give_the_count_rate_and_time_left() {
        let progress = Progress::with_bar(false, "match", 10, "games", Duration::ZERO);
        progress.inc(2, String::new);
        assert_eq!(progress.done(), 2);
        let line = progress.line(2, "elo +3");
        assert!(line.starts_with("match: 2/10 games, "), "{line}");
        assert!(
            line.contains(" s, eta ") && line.ends_with(" s: elo +3"),
            "{line}"
        );
        assert_eq!(rate_text(0.254), "0.25");
        assert_eq!(rate_text(3.44), "3.4");
        assert_eq!(rate_text(120.4), "120");
    }
}
