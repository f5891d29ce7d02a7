//! Links into PTN Ninja: a game as a URL that opens in the app.
//!
//! The form is the one the app itself makes when a game is shared (its `url` getter in
//! `src/store/ui/getters.js`, read back by `parseURLparams` in `src/router/routes.js`): the
//! origin, then the PTN compressed with lz-string's `compressToEncodedURIComponent`, then
//! parameters each written `&key=value` (the app's route takes everything after the PTN as its
//! state and splits it on `&`; a `?` query would not reach it): `name`, the game's name compressed
//! the same way, and `ply`, the 0-based index of the ply to open at (`!` after it opens with that
//! ply played). Parameter values are escaped as the app escapes them (`encodeURIComponent`, and
//! `(`, `)` too).
//!
//! The PTN in a link is written for the app ([`for_ninja`]), which reads tags more strictly than
//! PTN files are written: a tag value ends at the first `"` whatever comes before it (so `\"`
//! breaks the tag, and with it the whole game: "Missing board size"); a tag it does not know, or
//! a value it finds malformed, is dropped with a warning, and its text is skipped up to the next
//! `]`; and a `*` result in the moves is not PTN to it. So a linked game's tags are the app's own
//! tags with values it accepts, written as it writes them itself (`"` as `''`); every other tag
//! becomes a line of a note before the first move, and a `*` result is left out.
//!
//! ```
//! use cairn_tak::notation::parse_file;
//! use cairn_tools::ninja::{link, ptn_of_link};
//! let game = &parse_file("[Size \"3\"]\n[Player1 \"Bob \\\"the Builder\\\"\"]\n\n1. a1 c3\n").unwrap()[0];
//! let url = link(game, Some("a game"), Some((1, true)));
//! assert!(url.starts_with("https://ptn.ninja/"));
//! assert!(url.ends_with("&ply=1!"));
//! assert_eq!(
//!     ptn_of_link(&url).unwrap(),
//!     "[Size \"3\"]\n[Player1 \"Bob ''the Builder''\"]\n\n1. a1 c3\n"
//! );
//! ```

use cairn_tak::notation::PtnGame;
use std::fmt::Write as _;

/// Where PTN Ninja is served.
pub const ORIGIN: &str = "https://ptn.ninja/";

/// The PTN Ninja URL of a game (written for the app by [`for_ninja`]), with an optional name,
/// and an optional ply to open at (0-based index, and whether it is shown played).
pub fn link(game: &PtnGame, name: Option<&str>, ply: Option<(usize, bool)>) -> String {
    let ptn = for_ninja(game).to_ptn();
    let mut url = format!(
        "{ORIGIN}{}",
        lz_str::compress_to_encoded_uri_component(&ptn)
    );
    if let Some(name) = name {
        let packed = lz_str::compress_to_encoded_uri_component(name);
        let _ = write!(url, "&name={}", encode_component(&packed));
    }
    if let Some((index, done)) = ply {
        let _ = write!(url, "&ply={index}{}", if done { "!" } else { "" });
    }
    url
}

/// The game as PTN Ninja reads it (see the module documentation): its tags that the app knows,
/// with values it accepts, each value written by [`tag_value`]; every other tag as a line
/// `Name: value` of a note before the first move; no `*` result. The moves, their comments and
/// annotations are kept.
pub fn for_ninja(game: &PtnGame) -> PtnGame {
    let mut out = game.clone();
    out.tags.clear();
    let mut note = Vec::new();
    for (key, value) in &game.tags {
        let written = tag_value(value);
        match APP_TAGS.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)) {
            Some((name, accepts)) if written.is_empty() || accepts(&written) => {
                out.tags.push((name.to_string(), written));
            }
            // The app reads `*` as no result at all.
            Some(("Result", _)) if value.trim() == "*" => {}
            _ => note.push(format!("{key}: {written}")),
        }
    }
    if !note.is_empty() {
        out.comments.insert(0, note.join("; "));
    }
    if out.result.as_deref() == Some("*") {
        out.result = None;
    }
    out
}

/// A tag value as PTN Ninja can hold it, meaning the same to a reader: `"` as `''` (as the app
/// writes it), `\`, `]`, `{` and `}` as their full-width forms (`＼ ］ ｛ ｝`: the app reads no
/// escapes, skips a dropped tag up to the first `]`, and takes no braces in a player's name),
/// control characters (line breaks, tabs) as spaces, and no spaces at either end. Every other
/// character, non-ASCII ones too, is kept.
pub fn tag_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' => out.push_str("''"),
            '\\' => out.push('\u{FF3C}'),
            ']' => out.push('\u{FF3D}'),
            '{' => out.push('\u{FF5B}'),
            '}' => out.push('\u{FF5D}'),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

/// Whether PTN Ninja accepts a tag value.
type Accepts = fn(&str) -> bool;

/// The tags PTN Ninja knows, as it names them, each with what it accepts in its value (written
/// by [`tag_value`], not empty).
const APP_TAGS: [(&str, Accepts); 23] = [
    ("Caps", digits),
    ("Caps1", digits),
    ("Caps2", digits),
    ("Clock", any),
    ("Date", date),
    ("Event", any),
    ("Flats", digits),
    ("Flats1", digits),
    ("Flats2", digits),
    ("Komi", komi),
    ("Opening", opening),
    ("Player1", any),
    ("Player2", any),
    ("PlayTakID", digits),
    ("Points", digits),
    ("Rating1", digits),
    ("Rating2", digits),
    ("Result", result),
    ("Round", digits),
    ("Site", any),
    ("Size", size),
    ("Time", time),
    ("TPS", tps),
];

fn any(_: &str) -> bool {
    true
}

fn digits(v: &str) -> bool {
    !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit())
}

/// `YYYY.M.D`, month and day of one or two digits.
fn date(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    matches!(parts[..], [y, m, d] if y.len() == 4 && digits(y)
        && (1..=2).contains(&m.len()) && digits(m)
        && (1..=2).contains(&d.len()) && digits(d))
}

/// `hh:mm` or `hh:mm:ss`.
fn time(v: &str) -> bool {
    let parts: Vec<&str> = v.split(':').collect();
    (2..=3).contains(&parts.len()) && parts.iter().all(|p| p.len() == 2 && digits(p))
}

/// Whole or half flats, maybe negative: `2`, `-1.5`, `.5`.
fn komi(v: &str) -> bool {
    let v = v.strip_prefix('-').unwrap_or(v);
    let whole = v.strip_suffix(".5").unwrap_or(v);
    whole.bytes().all(|b| b.is_ascii_digit()) && !v.is_empty()
}

fn opening(v: &str) -> bool {
    ["swap", "no-swap", "double black stack"]
        .iter()
        .any(|o| o.eq_ignore_ascii_case(v))
}

fn result(v: &str) -> bool {
    [
        "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "1/2", "0-0",
    ]
    .contains(&v)
}

fn size(v: &str) -> bool {
    matches!(v, "3" | "4" | "5" | "6" | "7" | "8")
}

/// Board rows of `1-8xSC/,`, the player, the move number.
fn tps(v: &str) -> bool {
    let words: Vec<&str> = v.split_whitespace().collect();
    matches!(words[..], [board, player, number]
        if board.chars().all(|c| "12345678xXSCsc/,".contains(c))
            && (player == "1" || player == "2")
            && digits(number))
}

/// The PTN inside a link made by [`link`] (or by the app), decompressed.
pub fn ptn_of_link(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix(ORIGIN)
        .ok_or_else(|| format!("not a PTN Ninja link: {url}"))?;
    let packed = rest.split(['&', '?']).next().unwrap_or_default();
    unpack(packed).ok_or_else(|| format!("the link's game does not decompress: {packed}"))
}

/// The game name inside a link, if it has one.
pub fn name_of_link(url: &str) -> Option<String> {
    let value = url.split('&').find_map(|p| p.strip_prefix("name="))?;
    unpack(&decode_component(value)?)
}

fn unpack(packed: &str) -> Option<String> {
    let wide = lz_str::decompress_from_encoded_uri_component(packed)?;
    String::from_utf16(&wide).ok()
}

/// JavaScript's `encodeURIComponent`, with `(` and `)` escaped as well (as the app does).
fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The inverse of [`encode_component`]; `None` for a broken escape.
fn decode_component(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_escaped_as_the_app_does() {
        assert_eq!(encode_component("a+b$c-d(e)"), "a%2Bb%24c-d%28e%29");
        assert_eq!(
            decode_component("a%2Bb%24c-d%28e%29").as_deref(),
            Some("a+b$c-d(e)")
        );
        assert_eq!(decode_component("%2"), None);
    }

    #[test]
    fn names_and_games_come_back() {
        let ptn = "[Player1 \"Ünïcode 🐢\"]\n[Size \"5\"]\n\n1. a1 {+0.45/3 56.5%} e5\n";
        let game = &cairn_tak::notation::parse_file(ptn).unwrap()[0];
        let url = link(game, Some("cairn: x vs y"), None);
        assert_eq!(ptn_of_link(&url).unwrap(), ptn);
        assert_eq!(name_of_link(&url).as_deref(), Some("cairn: x vs y"));
        assert!(ptn_of_link("https://example.org/x").is_err());
    }

    #[test]
    fn values_are_written_as_the_app_reads_them() {
        assert_eq!(tag_value("Bob \"the Builder\""), "Bob ''the Builder''");
        assert_eq!(
            tag_value(" C:\\dir]\n{x}\t"),
            "C:\u{FF3C}dir\u{FF3D} \u{FF5B}x\u{FF5D}"
        );
        assert_eq!(tag_value("Ünïcode 🐢 [1]"), "Ünïcode 🐢 [1\u{FF3D}");
    }

    #[test]
    fn tags_the_app_drops_become_a_note() {
        let mut game = PtnGame {
            tags: [
                ("size", "5"),
                ("Player2", "a \"b\""),
                ("Termination", "x lost on time ]"),
                ("Date", "2024-05-01"),
                ("Result", "*"),
                ("Komi", "1.5"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .to_vec(),
            result: Some("*".to_string()),
            ..PtnGame::default()
        };
        game.comments.push("the game".to_string());
        let app = for_ninja(&game);
        let tags: Vec<(&str, &str)> = app
            .tags
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            tags,
            [("Size", "5"), ("Player2", "a ''b''"), ("Komi", "1.5")]
        );
        assert_eq!(
            app.comments,
            [
                "Termination: x lost on time \u{FF3D}; Date: 2024-05-01",
                "the game"
            ]
        );
        assert_eq!(app.result, None);
    }
}
