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
//! ```
//! use cairn_tools::ninja::{link, ptn_of_link};
//! let ptn = "[Size \"3\"]\n\n1. a1 c3\n";
//! let url = link(ptn, Some("a game"), Some((1, true)));
//! assert!(url.starts_with("https://ptn.ninja/"));
//! assert!(url.ends_with("&ply=1!"));
//! assert_eq!(ptn_of_link(&url).unwrap(), ptn);
//! ```

use std::fmt::Write as _;

/// Where PTN Ninja is served.
pub const ORIGIN: &str = "https://ptn.ninja/";

/// The PTN Ninja URL of a game: its PTN, an optional name, and an optional ply to open at
/// (0-based index, and whether it is shown played).
pub fn link(ptn: &str, name: Option<&str>, ply: Option<(usize, bool)>) -> String {
    let mut url = format!("{ORIGIN}{}", lz_str::compress_to_encoded_uri_component(ptn));
    if let Some(name) = name {
        let packed = lz_str::compress_to_encoded_uri_component(name);
        let _ = write!(url, "&name={}", encode_component(&packed));
    }
    if let Some((index, done)) = ply {
        let _ = write!(url, "&ply={index}{}", if done { "!" } else { "" });
    }
    url
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
        let ptn = "[Player1 \"Ünïcode\"]\n\n1. a1 {+0.45/3 56.5%} e5\n";
        let url = link(ptn, Some("cairn: x vs y"), None);
        assert_eq!(ptn_of_link(&url).unwrap(), ptn);
        assert_eq!(name_of_link(&url).as_deref(), Some("cairn: x vs y"));
        assert!(ptn_of_link("https://example.org/x").is_err());
    }
}
