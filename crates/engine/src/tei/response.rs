//! TEI output: the only code that writes to stdout.
//!
//! A [`Responder`] wraps one writer behind a mutex and is cloned into the search thread's
//! reporter, so lines from the input loop and from the search never interleave. There is one
//! method per kind of reply; each writes a whole line and flushes it at once (GUIs read line by
//! line and wait for each answer). Every line written is also logged at `debug` level, and
//! recorded in the session's [`Transcript`] if it has one.

use super::options::SpinOption;
use super::transcript::Transcript;
use cairn_search::SearchInfo;
use cairn_tak::notation::excerpt;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// How `info` lines are written for one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoStyle {
    /// TEI v1 session (PTN Ninja): proven results as `score solved win|loss N`. Otherwise
    /// (racetrack, which drops `score mate`) as `score cp ±(10000 - N)`.
    pub v1: bool,
    /// Whether to write `multipv k` (MultiPV above 1).
    pub multipv: bool,
}

/// Formats one `info` line for a finished iteration.
///
/// `info depth D seldepth S [multipv K] time T nodes N nps X hashfull H score ... [pv ...]`,
/// with the score from the side to move's point of view.
pub fn format_info(info: &SearchInfo, style: InfoStyle) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if style.multipv {
        line += &format!(" multipv {}", info.multipv);
    }
    line += &format!(
        " time {} nodes {} nps {} hashfull {} score ",
        info.time_ms, info.nodes, info.nps, info.hashfull
    );
    line += &match info.score.solved() {
        Some(solved) if style.v1 => solved,
        _ => format!("cp {}", info.score.cp()),
    };
    if !info.pv.is_empty() {
        line += " pv";
        for mv in &info.pv {
            line.push(' ');
            line += mv;
        }
    }
    line
}

/// Formats an option declaration.
pub fn format_option(option: &SpinOption) -> String {
    format!(
        "option name {} type spin default {} min {} max {}",
        option.name, option.default, option.min, option.max
    )
}

/// `text` on one line: newlines as spaces, other control characters escaped.
fn printable(text: &str) -> String {
    if !text.contains(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => out.push_str(&excerpt(c.encode_utf8(&mut [0; 4]))),
            c => out.push(c),
        }
    }
    out
}

/// The shared, line-buffered output channel to the GUI.
#[derive(Clone)]
pub struct Responder {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    transcript: Option<Transcript>,
}

impl Responder {
    /// A responder writing to stdout.
    pub fn stdout() -> Self {
        Self::new(std::io::stdout())
    }

    /// A responder writing to `writer` (tests use a buffer).
    pub fn new(writer: impl Write + Send + 'static) -> Self {
        Responder {
            out: Arc::new(Mutex::new(Box::new(writer))),
            transcript: None,
        }
    }

    /// The same responder, also recording every line (out, and in through [`Self::record_input`])
    /// in `transcript`.
    pub fn with_transcript(mut self, transcript: Option<Transcript>) -> Self {
        self.transcript = transcript;
        self
    }

    /// Records a line the session read in the transcript, if there is one.
    pub fn record_input(&self, line: &str) {
        if let Some(transcript) = &self.transcript {
            transcript.input(line);
        }
    }

    /// Writes one line and flushes it. Newlines inside `text` become spaces, so a message can
    /// never break the line structure, and other control characters are escaped (`\x1b`), so
    /// none reaches the GUI or a terminal raw. Write errors (a closed pipe) are logged and
    /// dropped.
    fn line(&self, text: &str) {
        let text = printable(text);
        log::debug!("out: {text}");
        // A poisoned lock only means another thread panicked mid-write; the writer is still fine.
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        // Recorded under the output lock, in the order the lines go out, and before the GUI can
        // see the line, so that its answer is never recorded ahead of it.
        if let Some(transcript) = &self.transcript {
            transcript.output(&text);
        }
        if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
            log::warn!("cannot write to the GUI: {e}");
        }
    }

    /// `id <key> <value>` (`name`, `author`, `version`).
    pub fn id(&self, key: &str, value: &str) {
        self.line(&format!("id {key} {value}"));
    }

    /// `size <sizes...> halfkomi <half-komis...>`: the TEI v1 capability line.
    pub fn sizes(&self, sizes: impl Iterator<Item = usize>, half_komis: impl Iterator<Item = i8>) {
        let mut text = "size".to_string();
        for size in sizes {
            text += &format!(" {size}");
        }
        text += " halfkomi";
        for k in half_komis {
            text += &format!(" {k}");
        }
        self.line(&text);
    }

    /// `option name ... type spin default ... min ... max ...`.
    pub fn option(&self, option: &SpinOption) {
        self.line(&format_option(option));
    }

    /// `teiok`.
    pub fn teiok(&self) {
        self.line("teiok");
    }

    /// `readyok`.
    pub fn readyok(&self) {
        self.line("readyok");
    }

    /// `info ...` for a finished iteration.
    pub fn info(&self, info: &SearchInfo, style: InfoStyle) {
        self.line(&format_info(info, style));
    }

    /// `bestmove <move>`; `bestmove (none)` if there is no move at all.
    pub fn bestmove(&self, mv: &str) {
        let mv = mv.trim();
        if mv.is_empty() {
            self.line("bestmove (none)");
        } else {
            self.line(&format!("bestmove {mv}"));
        }
    }

    /// `info string <text>`.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    /// `info string error <text>`.
    pub fn error(&self, text: &str) {
        log::warn!("{text}");
        self.info_string(&format!("error {text}"));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use cairn_search::score::{Score, WinKind};

    /// A writer into shared memory, to read back what was written (also used by the loop's
    /// tests).
    #[derive(Clone, Default)]
    pub(crate) struct Buffer(pub(crate) Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn info(score: Score) -> SearchInfo {
        SearchInfo {
            depth: 3,
            seldepth: 5,
            multipv: 2,
            score,
            nodes: 1234,
            nps: 5678,
            time_ms: 12,
            hashfull: 7,
            pv: vec!["a1".to_string(), "2b2>11".to_string()],
        }
    }

    #[test]
    fn info_lines() {
        let plain = InfoStyle::default();
        assert_eq!(
            format_info(&info(Score(-37)), plain),
            "info depth 3 seldepth 5 time 12 nodes 1234 nps 5678 hashfull 7 score cp -37 pv a1 2b2>11"
        );
        assert_eq!(
            format_info(
                &info(Score(5)),
                InfoStyle {
                    v1: true,
                    multipv: true
                }
            ),
            "info depth 3 seldepth 5 multipv 2 time 12 nodes 1234 nps 5678 hashfull 7 score cp 5 pv a1 2b2>11"
        );
        let mut empty_pv = info(Score(0));
        empty_pv.pv.clear();
        assert!(format_info(&empty_pv, plain).ends_with("score cp 0"));
    }

    #[test]
    fn proven_scores() {
        let win = info(Score::win_in(1, WinKind::Outright));
        let loss = info(Score::loss_in(4, WinKind::Count));
        let v1 = InfoStyle {
            v1: true,
            multipv: false,
        };
        assert!(format_info(&win, v1).contains(" score solved win 1 pv "));
        assert!(format_info(&loss, v1).contains(" score solved loss 4 pv "));
        let plain = InfoStyle::default();
        assert!(format_info(&win, plain).contains(" score cp 9999 pv "));
        assert!(format_info(&loss, plain).contains(" score cp -9996 pv "));
    }

    #[test]
    fn every_reply_is_one_flushed_line() {
        let buffer = Buffer::default();
        let out = Responder::new(buffer.clone());
        out.id("name", "Cairn");
        out.sizes([3, 4].into_iter(), [-1, 0, 1].into_iter());
        out.option(&SpinOption {
            name: "Hash",
            default: 64,
            min: 1,
            max: 65536,
        });
        out.teiok();
        out.readyok();
        out.bestmove("a1");
        out.bestmove("");
        out.info_string("hello\nworld");
        out.error("bad");
        assert_eq!(
            buffer.text(),
            "id name Cairn\n\
             size 3 4 halfkomi -1 0 1\n\
             option name Hash type spin default 64 min 1 max 65536\n\
             teiok\n\
             readyok\n\
             bestmove a1\n\
             bestmove (none)\n\
             info string hello world\n\
             info string error bad\n"
        );
    }

    #[test]
    fn threads_do_not_interleave_lines() {
        let buffer = Buffer::default();
        let out = Responder::new(buffer.clone());
        std::thread::scope(|s| {
            for t in 0..4 {
                let out = out.clone();
                s.spawn(move || {
                    for i in 0..200 {
                        out.info_string(&format!("thread {t} line {i} {}", "x".repeat(50)));
                    }
                });
            }
        });
        let text = buffer.text();
        assert_eq!(text.lines().count(), 800);
        assert!(text
            .lines()
            .all(|l| l.starts_with("info string thread ") && l.ends_with(&"x".repeat(50))));
    }
}
