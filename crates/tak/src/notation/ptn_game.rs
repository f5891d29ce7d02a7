//! PTN game files: tag pairs, move text, comments, results; reading, writing and replaying.
//!
//! The reader is liberal, taking what PTN Ninja, playtak, Tiltak and Taktician write:
//! - a UTF-8 byte-order mark and CRLF line ends;
//! - tag pairs `[Name "value"]` with `\"` and `\\` escapes; names are matched case-insensitively;
//! - move numbers `N.` and `N...`, glued to a ply or not (`1.a1`), and `--` for a missing ply;
//!   plies without any numbers, as in opening books, are fine too;
//! - `{comments}` anywhere in the move text, attached to the ply before them;
//! - results `R-0 0-R F-0 0-F 1-0 0-1 1/2-1/2 0-0 *`;
//! - several games per file: a tag after move text, or a second `Size` or `TPS` tag, starts the
//!   next game (so header-only puzzles can follow each other; other tags may repeat).
//!
//! Errors give the 1-based line and column and say what was expected. Syntax is checked here;
//! [`replay`] then plays the moves by the rules, naming the ply that fails.

use super::ptn_move::{split_annotations, MoveError, PtnMove, PtnMoveError};
use super::tps::{Tps, TpsError};
use crate::board::{GameResult, Komi, KomiError, Move, Position, SIZES};
use std::fmt;

/// The result strings PTN allows after the moves.
pub const RESULTS: [&str; 9] = [
    "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0", "*",
];

/// One ply of a game as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtnPly {
    /// The move.
    pub mv: PtnMove,
    /// Whether it carried the crush mark `*`.
    pub crush_mark: bool,
    /// Trailing annotations such as `'` or `!?`.
    pub annotations: String,
    /// Comments written after it.
    pub comments: Vec<String>,
    /// 1-based line of the ply in the file.
    pub line: usize,
    /// 1-based column of the ply in the file.
    pub column: usize,
}

impl PtnPly {
    /// A ply as a program writes it: the move and the comments after it, with no mark, no
    /// annotation and no place in a file.
    pub fn new(mv: PtnMove, comments: Vec<String>) -> PtnPly {
        PtnPly {
            mv,
            crush_mark: false,
            annotations: String::new(),
            comments,
            line: 0,
            column: 0,
        }
    }
}

/// One game from a PTN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Comments before the first ply.
    pub comments: Vec<String>,
    /// The plies in order.
    pub plies: Vec<PtnPly>,
    /// The result written after the moves, if any.
    pub result: Option<String>,
}

/// A syntax error in a PTN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtnError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What went wrong.
    pub kind: PtnErrorKind,
}

/// What went wrong in a PTN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PtnErrorKind {
    /// A malformed tag pair.
    Tag(&'static str),
    /// A `{` with no closing `}`.
    UnterminatedComment,
    /// A move that is not PTN.
    Move {
        /// 1-based ply index within its game.
        ply: usize,
        /// What is wrong with it.
        error: PtnMoveError,
    },
    /// A move or second result after the result.
    AfterResult(String),
}

impl fmt::Display for PtnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match &self.kind {
            PtnErrorKind::Tag(why) => write!(f, "bad tag: {why}"),
            PtnErrorKind::UnterminatedComment => f.write_str("comment `{` is never closed"),
            PtnErrorKind::Move { ply, error } => write!(f, "ply {ply}: {error}"),
            PtnErrorKind::AfterResult(t) => write!(f, "`{t}` comes after the game's result"),
        }
    }
}

impl std::error::Error for PtnError {}

/// A character cursor that tracks line and column.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, line: usize, column: usize, kind: PtnErrorKind) -> PtnError {
        PtnError { line, column, kind }
    }

    /// Reads `[Name "value"]`, the `[` already consumed.
    fn tag(&mut self, line: usize, column: usize) -> Result<(String, String), PtnError> {
        let bad = |why| PtnError {
            line,
            column,
            kind: PtnErrorKind::Tag(why),
        };
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(bad("expected a tag name after `[`"));
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some('"') {
            return Err(bad("the tag value must be in double quotes"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    _ => return Err(bad("only \\\" and \\\\ escapes are allowed")),
                },
                Some('\n') | Some('\r') | None => return Err(bad("the tag value is never closed")),
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some(']') {
            return Err(bad("expected `]` after the tag value"));
        }
        Ok((name, value))
    }
}

/// Strips a leading move number (`12.`, `12...`) from a token.
fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

/// Reads every game in a PTN file.
pub fn parse_file(text: &str) -> Result<Vec<PtnGame>, PtnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut games = Vec::new();
    let mut game = PtnGame::default();
    let mut in_moves = false;
    while let Some(c) = cur.peek() {
        let (line, column) = (cur.line, cur.column);
        if c.is_whitespace() {
            cur.bump();
        } else if c == '[' {
            cur.bump();
            let tag = cur.tag(line, column)?;
            // A tag after move text, or a second `Size` or `TPS` tag, starts the next game (so
            // consecutive header-only puzzles stay separate; other tags may repeat).
            let defines_game = ["Size", "TPS"]
                .iter()
                .any(|t| t.eq_ignore_ascii_case(&tag.0));
            let repeated = defines_game && game.tag(&tag.0).is_some();
            if in_moves || repeated {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            game.tags.push(tag);
        } else if c == '{' {
            cur.bump();
            let mut comment = String::new();
            loop {
                match cur.bump() {
                    Some('}') => break,
                    Some(c) => comment.push(c),
                    None => return Err(cur.error(line, column, PtnErrorKind::UnterminatedComment)),
                }
            }
            match game.plies.last_mut() {
                Some(ply) => ply.comments.push(comment),
                None => game.comments.push(comment),
            }
        } else {
            let mut token = String::new();
            while let Some(c) = cur.peek().filter(|c| !c.is_whitespace() && *c != '{') {
                token.push(c);
                cur.bump();
            }
            in_moves = true;
            if RESULTS.contains(&token.as_str()) {
                if game.result.is_some() {
                    return Err(cur.error(line, column, PtnErrorKind::AfterResult(token)));
                }
                game.result = Some(token);
                continue;
            }
            let ply_text = strip_move_number(&token);
            if ply_text.is_empty() || ply_text == "--" {
                continue;
            }
            if game.result.is_some() {
                return Err(cur.error(line, column, PtnErrorKind::AfterResult(token)));
            }
            let column = column + (token.len() - ply_text.len());
            let ply = game.plies.len() + 1;
            let mv = ply_text
                .parse::<PtnMove>()
                .map_err(|error| cur.error(line, column, PtnErrorKind::Move { ply, error }))?;
            let (_, crush_mark, annotations) = split_annotations(ply_text);
            game.plies.push(PtnPly {
                mv,
                crush_mark,
                annotations: annotations.to_string(),
                comments: Vec::new(),
                line,
                column,
            });
        }
    }
    if in_moves || !game.tags.is_empty() || !game.comments.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// Why a game cannot be set up or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `Size` tag is missing (and there is no `TPS` tag), not a number, or not one of [`SIZES`].
    Size(String),
    /// The `Size` and `TPS` tags disagree.
    SizeMismatch {
        /// The `Size` tag.
        size: usize,
        /// The size of the `TPS` tag.
        tps: usize,
    },
    /// The `Komi` tag is not a komi Cairn plays ([`Komi`]).
    Komi(String),
    /// The `TPS` tag is not a valid position.
    Tps(TpsError),
    /// A tag asks for a variant Cairn does not play (custom reserves, no opening swap).
    Variant {
        /// The tag.
        tag: String,
        /// Its value.
        value: String,
    },
    /// A ply cannot be played.
    Ply {
        /// 1-based ply index within the game.
        ply: usize,
        /// The move number label (`12.` or `12...`).
        label: String,
        /// Line of the ply.
        line: usize,
        /// Why it cannot be played.
        error: MoveError,
    },
    /// A ply comes after the game already ended.
    AfterEnd {
        /// 1-based ply index within the game.
        ply: usize,
        /// The move number label.
        label: String,
        /// Line of the ply.
        line: usize,
        /// The move text.
        text: String,
        /// How the game had ended.
        result: GameResult,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Size(s) => write!(
                f,
                "bad or missing Size tag `{s}` (Cairn plays {})",
                crate::board::sizes_text()
            ),
            ReplayError::SizeMismatch { size, tps } => {
                write!(f, "Size tag says {size} but the TPS tag is {tps}x{tps}")
            }
            ReplayError::Komi(k) => write!(f, "bad Komi tag `{k}`: {}", KomiError(k.clone())),
            ReplayError::Tps(e) => write!(f, "bad TPS tag: {e}"),
            ReplayError::Variant { tag, value } => write!(
                f,
                "[{tag} \"{value}\"] asks for a variant Cairn does not play \
                 (standard reserves and the opening swap only)"
            ),
            ReplayError::Ply {
                ply,
                label,
                line,
                error,
            } => write!(f, "ply {ply} ({label}, line {line}): {error}"),
            ReplayError::AfterEnd {
                ply,
                label,
                line,
                text,
                result,
            } => write!(
                f,
                "ply {ply} ({label} {text}, line {line}): the game already ended {result}"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

impl PtnGame {
    /// The value of a tag, matched case-insensitively (the first one if repeated).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The start position's TPS syntax, if the game has a `TPS` tag.
    pub fn start_tps(&self) -> Result<Option<Tps>, ReplayError> {
        self.tag("TPS")
            .map(|t| t.parse::<Tps>().map_err(ReplayError::Tps))
            .transpose()
    }

    /// The board size, from the `Size` tag or else the `TPS` tag.
    pub fn size(&self) -> Result<usize, ReplayError> {
        let tps = self.start_tps()?;
        let size = match self.tag("Size") {
            Some(s) => match s.trim().parse::<usize>() {
                Ok(n) if SIZES.contains(&n) => n,
                _ => return Err(ReplayError::Size(s.to_string())),
            },
            None => match &tps {
                Some(t) => t.size,
                None => return Err(ReplayError::Size(String::new())),
            },
        };
        match tps {
            Some(t) if t.size != size => Err(ReplayError::SizeMismatch { size, tps: t.size }),
            _ => Ok(size),
        }
    }

    /// The komi of the `Komi` tag (none without one).
    pub fn komi(&self) -> Result<Komi, ReplayError> {
        match self.tag("Komi") {
            Some(text) => text
                .parse()
                .map_err(|_| ReplayError::Komi(text.to_string())),
            None => Ok(Komi::ZERO),
        }
    }

    /// Rejects tags that change the rules at an `N`×`N` size: custom reserves (`Flats`, `Caps`,
    /// `Flats1`, ...) that differ from the standard ones, and `Opening` other than `swap`.
    fn check_variant<const N: usize>(&self) -> Result<(), ReplayError> {
        for (tag, value) in &self.tags {
            let standard = match tag.to_ascii_lowercase().as_str() {
                "flats" | "flats1" | "flats2" => Position::<N>::STONES.to_string(),
                "caps" | "caps1" | "caps2" => Position::<N>::CAPSTONES.to_string(),
                "opening" => "swap".to_string(),
                _ => continue,
            };
            if !value.trim().eq_ignore_ascii_case(&standard) {
                return Err(ReplayError::Variant {
                    tag: tag.clone(),
                    value: value.clone(),
                });
            }
        }
        Ok(())
    }

    /// The move number label of ply `index` (0-based): `N.` for White, `N...` for Black.
    fn label(&self, first_ply: u32, index: usize) -> String {
        let ply = first_ply as usize + index;
        let dots = if ply % 2 == 0 { "." } else { "..." };
        format!("{}{dots}", ply / 2 + 1)
    }

    /// Writes the game back as PTN: tags, a blank line, numbered move text, the result.
    pub fn to_ptn(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        out.push('\n');
        for c in &self.comments {
            out.push_str(&format!("{{{c}}}\n"));
        }
        let first = self.start_tps().ok().flatten().map_or(0, |t| t.ply());
        for (i, ply) in self.plies.iter().enumerate() {
            let at = first as usize + i;
            if at % 2 == 0 || i == 0 {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&format!("{}.", at / 2 + 1));
                if at % 2 == 1 {
                    out.push_str(" --");
                }
            }
            out.push_str(&format!(" {}", ply.mv));
            if ply.crush_mark {
                out.push('*');
            }
            out.push_str(&ply.annotations);
            for c in &ply.comments {
                out.push_str(&format!(" {{{c}}}"));
            }
        }
        if let Some(r) = &self.result {
            if !self.plies.is_empty() {
                out.push(' ');
            }
            out.push_str(r);
        }
        out.push('\n');
        out
    }
}

/// A game replayed by the rules.
#[derive(Clone, Debug)]
pub struct Replayed<const N: usize> {
    /// The start position (with the game's komi).
    pub start: Position<N>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The final position.
    pub position: Position<N>,
    /// The result the rules give the final position, if the game is over.
    pub result: Option<GameResult>,
}

/// Replays a game on an `N`×`N` board, checking every ply.
pub fn replay<const N: usize>(game: &PtnGame) -> Result<Replayed<N>, ReplayError> {
    game.check_variant::<N>()?;
    let mut start = match game.start_tps()? {
        Some(tps) => tps.to_position::<N>().map_err(ReplayError::Tps)?,
        None => Position::<N>::start(),
    };
    start.set_komi(game.komi()?);
    let mut pos = start.clone();
    let first = pos.ply();
    let mut moves = Vec::with_capacity(game.plies.len());
    for (i, ply) in game.plies.iter().enumerate() {
        let label = game.label(first, i);
        if let Some(result) = pos.result() {
            return Err(ReplayError::AfterEnd {
                ply: i + 1,
                label,
                line: ply.line,
                text: ply.mv.to_string(),
                result,
            });
        }
        let mv = ply
            .mv
            .to_move::<N>()
            .and_then(|mv| {
                pos.check_legal(mv)
                    .map(|_| mv)
                    .map_err(|reason| MoveError::Illegal {
                        text: ply.mv.to_string(),
                        reason,
                    })
            })
            .map_err(|error| ReplayError::Ply {
                ply: i + 1,
                label,
                line: ply.line,
                error,
            })?;
        pos.make(mv);
        moves.push(mv);
    }
    let result = pos.result();
    Ok(Replayed {
        start,
        moves,
        result,
        position: pos,
    })
}

/// Replays a game at its own size: the final TPS and the result by the rules.
pub fn replay_any(game: &PtnGame) -> Result<(String, Option<GameResult>), ReplayError> {
    let size = game.size()?;
    crate::with_size!(size, |N| {
        let done = replay::<N>(game)?;
        Ok((super::tps::to_tps(&done.position), done.result))
    }, else Err(ReplayError::Size(size.to_string())))
}
