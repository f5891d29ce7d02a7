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
//! nothing. Times are UTC with milliseconds ([`utc_timestamp`]).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Where the time stamps come from; also reachable here for the playtak client, which still
/// names this path (to be moved to [`crate::timestamp`] with the client's next change).
use crate::timestamp::utc_timestamp;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tei::response::tests::Buffer;

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
