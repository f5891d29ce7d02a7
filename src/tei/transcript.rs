//! TEI transcripts (`--log-file`): every line of a session, both directions, timestamped.
//!
//! A [`Transcript`] is a tap on the TEI layer, not on stdout: the input loop records each line it
//! reads and the [`Responder`](super::Responder) records each line it writes, so the same
//! transcript works for stdio and for every WebSocket connection. One line per protocol line:
//!
//! ```text
//! 2026-11-21T08:01:02.345Z > go movetime 1000
//! 2026-11-21T08:01:03.346Z < bestmove c3
//! 2026-11-21T08:01:04.001Z #2 > isready
//! ```
//!
//! `>` is what the engine read, `<` what it wrote; a WebSocket session puts its connection id
//! (`#2`) before the arrow. The file is opened for appending and shared by all sessions behind
//! one lock, and every line is flushed at once, so lines never interleave and a crash loses
//! nothing. Times are UTC with milliseconds, computed from [`SystemTime`] alone.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// A shared, append-only TEI transcript; clones write to the same file.
#[derive(Clone)]
pub struct Transcript {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    /// Written between the time and the arrow (`#3 ` for connection 3; empty on stdio).
    label: String,
    /// A write already failed and was reported (reported once, not per line).
    failed: Arc<AtomicBool>,
}

impl Transcript {
    /// Opens (creates if needed) `path` for appending.
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Self::new(file))
    }

    /// A transcript writing to `writer` (tests use a buffer).
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        Transcript {
            out: Arc::new(Mutex::new(Box::new(writer))),
            label: String::new(),
            failed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The same transcript, with the lines of this session marked by connection `id`.
    pub fn connection(&self, id: u64) -> Self {
        Transcript {
            label: format!("#{id} "),
            ..self.clone()
        }
    }

    /// Records a line the engine read.
    pub fn input(&self, line: &str) {
        self.record('>', line);
    }

    /// Records a line the engine wrote.
    pub fn output(&self, line: &str) {
        self.record('<', line);
    }

    fn record(&self, arrow: char, line: &str) {
        let stamp = utc_timestamp(SystemTime::now());
        // A poisoned lock only means another thread panicked mid-write; the file is still fine.
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let written =
            writeln!(out, "{stamp} {}{arrow} {line}", self.label).and_then(|()| out.flush());
        if let Err(e) = written {
            if !self.failed.swap(true, Ordering::Relaxed) {
                log::warn!("cannot write the TEI transcript: {e}");
            }
        }
    }
}

/// `time` in UTC as `YYYY-MM-DDTHH:MM:SS.mmmZ` (times before 1970 are written as 1970).
pub fn utc_timestamp(time: SystemTime) -> String {
    let millis = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let (secs, ms) = (millis / 1000, millis % 1000);
    let (days, day_secs) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_date(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        day_secs / 3600,
        day_secs / 60 % 60,
        day_secs % 60
    )
}

/// The Gregorian (year, month, day) of the day `days` after 1970-01-01.
///
/// Counts in 400-year eras from 0000-03-01, so that the leap day falls at the end of each
/// March-based year; then shifts the months back to January-based.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // 719_468 days from 0000-03-01 to 1970-01-01; an era is 146_097 days.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let march_month = (5 * day_of_year + 2) / 153; // 0 = March ... 11 = February
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tei::response::tests::Buffer;
    use std::time::Duration;

    fn at(millis: u64) -> String {
        utc_timestamp(UNIX_EPOCH + Duration::from_millis(millis))
    }

    #[test]
    fn known_instants() {
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        // 2000-02-29 (a leap day in a year divisible by 400), one ms before midnight.
        assert_eq!(at(951_868_799_999), "2000-02-29T23:59:59.999Z");
        assert_eq!(at(951_868_800_000), "2000-03-01T00:00:00.000Z");
        assert_eq!(at(4_107_542_400_000), "2100-03-01T00:00:00.000Z");
        assert_eq!(
            utc_timestamp(UNIX_EPOCH - Duration::from_secs(5)),
            "1970-01-01T00:00:00.000Z"
        );
    }

    /// Walks day by day over 600 years with a plain calendar and compares every date.
    #[test]
    fn every_day_matches_a_simple_calendar() {
        let leap = |y: u64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let (mut year, mut month, mut day) = (1970, 1, 1);
        for days in 0..600 * 366 {
            assert_eq!(civil_date(days), (year, month, day), "day {days}");
            let length = match month {
                2 if leap(year) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > length {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
    }

    #[test]
    fn lines_are_marked_and_labelled() {
        let buffer = Buffer::default();
        let transcript = Transcript::new(buffer.clone());
        transcript.input("isready");
        transcript.connection(7).output("readyok");
        let text = String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        // `YYYY-MM-DDTHH:MM:SS.mmmZ ` is 25 characters.
        assert_eq!(&lines[0][23..], "Z > isready");
        assert_eq!(&lines[1][23..], "Z #7 < readyok");
        for line in lines {
            let bytes = line.as_bytes();
            for (i, &b) in bytes[..23].iter().enumerate() {
                match i {
                    4 | 7 => assert_eq!(b, b'-', "{line}"),
                    10 => assert_eq!(b, b'T', "{line}"),
                    13 | 16 => assert_eq!(b, b':', "{line}"),
                    19 => assert_eq!(b, b'.', "{line}"),
                    _ => assert!(b.is_ascii_digit(), "{line}"),
                }
            }
        }
    }
}
