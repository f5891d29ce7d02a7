//! Quoting input in error messages: a short, printable excerpt of whatever was read.
//!
//! An error names the text it refused, but a GUI or a shell must not get a megabyte back, nor
//! raw control bytes (a stray escape sequence would repaint a terminal). [`quote`] gives the text
//! in backticks with control characters escaped (`\x01`, `\u{9b}`), cut after
//! [`QUOTE_CHARS`] characters with `…` and followed by its length in bytes; [`excerpt`] gives
//! the same without the backticks and the length, for messages that quote otherwise.
//! [`counted`] writes a count with its noun as a reader says it (`1 game`, `2 games`).

use std::fmt::Write as _;

/// `1 game`, `2 games`: a count and its noun, plural but for one.
pub fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// The most characters of a text that an error quotes.
pub const QUOTE_CHARS: usize = 48;

/// `text` escaped and cut to [`QUOTE_CHARS`] characters (with `…` where cut); whether it was
/// cut.
fn escaped(text: &str) -> (String, bool) {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref().take(QUOTE_CHARS) {
        if c.is_control() {
            if (c as u32) < 0x80 {
                let _ = write!(out, "\\x{:02x}", c as u32);
            } else {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        } else {
            out.push(c);
        }
    }
    let cut = chars.next().is_some();
    if cut {
        out.push('…');
    }
    (out, cut)
}

/// The text as an error quotes it: `` `go depth x` ``, or `` `xxxx…` (1048576 bytes) `` when it
/// is longer than [`QUOTE_CHARS`] characters; control characters escaped either way.
///
/// ```
/// use cairn_tak::notation::quote;
/// assert_eq!(quote("foo"), "`foo`");
/// assert_eq!(quote("a\u{1b}[31m"), "`a\\x1b[31m`");
/// assert_eq!(quote(&"x".repeat(100)), format!("`{}…` (100 bytes)", "x".repeat(48)));
/// ```
pub fn quote(text: &str) -> String {
    match escaped(text) {
        (shown, false) => format!("`{shown}`"),
        (shown, true) => format!("`{shown}` ({} bytes)", text.len()),
    }
}

/// The text escaped and cut like [`quote`]'s, without backticks or length: for messages that
/// quote in their own way.
pub fn excerpt(text: &str) -> String {
    escaped(text).0
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn counts_read_as_said() {
        assert_eq!(counted(1, "game"), "1 game");
        assert_eq!(counted(0, "capstone"), "0 capstones");
        assert_eq!(counted(21, "flat"), "21 flats");
    }
}
