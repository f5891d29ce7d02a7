//! The playtak.com text protocol, version 2: reading server lines into [`ServerMsg`] and writing
//! client commands.
//!
//! Every server line becomes a [`ServerMsg`] or a typed [`ProtocolError`]; nothing here panics
//! on what the network sends. Moves are translated both ways between the server's notation and
//! [`PtnMove`]:
//!
//! | PTN | server |
//! |---|---|
//! | `a1`, `Sa1`, `Ca1` | `P A1`, `P A1 W`, `P A1 C` |
//! | `3c3+12` | `M C3 C5 1 2` (from, last square reached, stones dropped on each square) |
//!
//! Seeks go out in the V3 syntax, `Seek SIZE TIME INCR COLOR KOMI FLATS CAPS UNRATED TOURNAMENT
//! TRIGGER EXTRA OPPONENT`, whose last field stays present (a trailing space) when there is no
//! opponent: without it the server reads a V2 seek that nobody can accept.

use cairn_tak::board::{Color, Direction, Role, SquareName};
use cairn_tak::notation::PtnMove;
use smallvec::SmallVec;
use std::fmt;

/// Why a server line could not be understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// A line of a kind the client does not know.
    Unknown(String),
    /// A known kind of line with a field missing or malformed.
    Malformed {
        /// The line as received.
        line: String,
        /// Which field is wrong.
        field: &'static str,
    },
    /// A move in server notation that is not well formed.
    BadMove {
        /// The move text.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Unknown(line) => write!(f, "unknown server line `{line}`"),
            ProtocolError::Malformed { line, field } => {
                write!(f, "malformed server line `{line}`: bad {field}")
            }
            ProtocolError::BadMove { text, reason } => {
                write!(f, "malformed server move `{text}`: {reason}")
            }
        }
    }
}

impl std::error::Error for ProtocolError {}

/// A seek as the server announces it (`Seek new ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekInfo {
    /// The seek's number, for `Accept`.
    pub no: u64,
    /// Who seeks.
    pub name: String,
    /// Board size.
    pub size: usize,
    /// Starting time, seconds.
    pub time: u64,
    /// Increment, seconds.
    pub inc: u64,
    /// The seeker's colour: `W`, `B` or `A`.
    pub color: char,
    /// Komi in half flats.
    pub half_komi: u8,
    /// Stones per player.
    pub flats: u32,
    /// Capstones per player.
    pub caps: u32,
    /// Whether the game would be unrated.
    pub unrated: bool,
    /// The only player who may accept, if any.
    pub opponent: Option<String>,
}

/// `Game Start` (protocol 2): a game begins, or resumes after a reconnection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStart {
    /// The game number, used in every `Game#N` line.
    pub game: u64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The colour this client plays.
    pub color: Color,
    /// Board size.
    pub size: usize,
    /// Starting time, seconds.
    pub time: u64,
    /// Increment, seconds.
    pub inc: u64,
    /// Komi in half flats.
    pub half_komi: u8,
    /// Stones per player.
    pub flats: u32,
    /// Capstones per player.
    pub caps: u32,
    /// Whether the game is unrated.
    pub unrated: bool,
    /// Whether it is a tournament game.
    pub tournament: bool,
    /// The move at which extra time is added (0: none).
    pub trigger: u32,
    /// Extra time added at that move, seconds.
    pub extra: u64,
}

/// One line from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMsg {
    /// `Welcome!`, the greeting.
    Hello,
    /// `Login or Register`: the server waits for a login.
    LoginPrompt,
    /// `Welcome NAME!`: logged in as NAME.
    LoggedIn(String),
    /// `Authentication failure`.
    AuthFailure,
    /// `OK`: the oldest pending command succeeded.
    Ok,
    /// `NOK`: the oldest pending command failed.
    Nok,
    /// `Error:REASON` (after `NOK` for a move).
    Error(String),
    /// `Seek new ...`.
    SeekNew(SeekInfo),
    /// `Seek remove NO ...`.
    SeekRemove(u64),
    /// `Game Start ...`.
    GameStart(GameStart),
    /// `Game#N P ...` or `Game#N M ...`: a move (the opponent's, or a resent one).
    Move {
        /// The game.
        game: u64,
        /// The move.
        mv: PtnMove,
    },
    /// `Game#N Timems W B`: both clocks, ms, after a move.
    Timems {
        /// The game.
        game: u64,
        /// White's time left, ms.
        white: u64,
        /// Black's time left, ms.
        black: u64,
    },
    /// `Game#N Over RESULT`.
    Over {
        /// The game.
        game: u64,
        /// `R-0`, `0-R`, `F-0`, `0-F`, `1-0`, `0-1`, `1/2-1/2` or `0-0`.
        result: String,
    },
    /// `Game#N Abandoned. NAME quit`: the opponent left; the game counts as won.
    Abandoned {
        /// The game.
        game: u64,
    },
    /// `Game#N OfferDraw`: the opponent offers a draw.
    OfferDraw(u64),
    /// `Game#N RemoveDraw`: the offer is withdrawn.
    RemoveDraw(u64),
    /// `Game#N RequestUndo`: the opponent asks to take back a ply.
    RequestUndo(u64),
    /// `Game#N RemoveUndo`: the request is withdrawn.
    RemoveUndo(u64),
    /// `Game#N Undo`: one ply is taken back.
    Undo(u64),
    /// `Message TEXT`.
    Message(String),
    /// A line the client has no use for (`Online`, `GameList`, `Shout`, ...).
    Ignored,
}

/// Lines starting with these words carry nothing the client needs.
const IGNORED: [&str; 12] = [
    "Online",
    "OnlinePlayers",
    "GameList",
    "Shout",
    "ShoutRoom",
    "Tell",
    "Told",
    "Joined",
    "Observe",
    "Is",
    "Accept",
    "Rematch",
];

/// Reads one server line (without its line end).
pub fn parse_line(line: &str) -> Result<ServerMsg, ProtocolError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let malformed = |field| ProtocolError::Malformed {
        line: line.to_string(),
        field,
    };
    match line {
        "Welcome!" => return Ok(ServerMsg::Hello),
        "Login or Register" => return Ok(ServerMsg::LoginPrompt),
        "Authentication failure" => return Ok(ServerMsg::AuthFailure),
        "OK" => return Ok(ServerMsg::Ok),
        // The answer to `Tell` with a name that is not online.
        "No such player" => return Ok(ServerMsg::Ignored),
        "NOK" => return Ok(ServerMsg::Nok),
        _ => {}
    }
    if let Some(reason) = line.strip_prefix("Error") {
        return Ok(ServerMsg::Error(
            reason.trim_start_matches([':', ' ']).to_string(),
        ));
    }
    if let Some(rest) = line.strip_prefix("Welcome ") {
        let name = rest.strip_suffix('!').ok_or_else(|| malformed("name"))?;
        return Ok(ServerMsg::LoggedIn(name.to_string()));
    }
    if let Some(text) = line.strip_prefix("Message ") {
        return Ok(ServerMsg::Message(text.to_string()));
    }
    if let Some(rest) = line.strip_prefix("Seek new ") {
        return parse_seek(rest)
            .map(ServerMsg::SeekNew)
            .ok_or_else(|| malformed("seek"));
    }
    if let Some(rest) = line.strip_prefix("Seek remove ") {
        let no = rest.split(' ').next().and_then(|n| n.parse().ok());
        return no
            .map(ServerMsg::SeekRemove)
            .ok_or_else(|| malformed("seek number"));
    }
    if let Some(rest) = line.strip_prefix("Game Start ") {
        return parse_game_start(rest)
            .map(ServerMsg::GameStart)
            .ok_or_else(|| malformed("game start"));
    }
    if let Some(rest) = line.strip_prefix("Game#") {
        return parse_game_line(line, rest);
    }
    let word = line.split(' ').next().unwrap_or_default();
    if IGNORED.contains(&word) {
        return Ok(ServerMsg::Ignored);
    }
    Err(ProtocolError::Unknown(line.to_string()))
}

/// The part of a `Game#N ...` line after `Game#`.
fn parse_game_line(line: &str, rest: &str) -> Result<ServerMsg, ProtocolError> {
    let malformed = |field| ProtocolError::Malformed {
        line: line.to_string(),
        field,
    };
    let (no, tail) = rest.split_once(' ').ok_or_else(|| malformed("game line"))?;
    let game: u64 = no.parse().map_err(|_| malformed("game number"))?;
    let mut words = tail.split(' ');
    let msg = match words.next().unwrap_or_default() {
        "P" | "M" => ServerMsg::Move {
            game,
            mv: move_from_server(tail)?,
        },
        "Timems" => {
            let mut ms = || words.next().and_then(|w| w.parse::<i64>().ok());
            let (Some(white), Some(black)) = (ms(), ms()) else {
                return Err(malformed("clock"));
            };
            ServerMsg::Timems {
                game,
                white: white.max(0) as u64,
                black: black.max(0) as u64,
            }
        }
        "Over" => {
            let result = words.next().ok_or_else(|| malformed("result"))?;
            if !cairn_tak::notation::ptn_game::RESULTS.contains(&result) || result == "*" {
                return Err(malformed("result"));
            }
            ServerMsg::Over {
                game,
                result: result.to_string(),
            }
        }
        "Abandoned." | "Abandoned" => ServerMsg::Abandoned { game },
        "OfferDraw" => ServerMsg::OfferDraw(game),
        "RemoveDraw" => ServerMsg::RemoveDraw(game),
        "RequestUndo" => ServerMsg::RequestUndo(game),
        "RemoveUndo" => ServerMsg::RemoveUndo(game),
        "Undo" => ServerMsg::Undo(game),
        // Protocol 0 clocks, chat in a game, square queries: nothing the client needs.
        "Time" | "Show" | "Resign" => ServerMsg::Ignored,
        _ => return Err(ProtocolError::Unknown(line.to_string())),
    };
    Ok(msg)
}

/// `NO NAME SIZE TIME INCR COLOR KOMI FLATS CAPS UNRATED TOURNAMENT TRIGGER EXTRA OPPONENT BOT`.
fn parse_seek(rest: &str) -> Option<SeekInfo> {
    let f: Vec<&str> = rest.split(' ').collect();
    if f.len() < 14 {
        return None;
    }
    let color = match f[5] {
        "W" => 'W',
        "B" => 'B',
        "A" => 'A',
        _ => return None,
    };
    let opponent = match f[13] {
        "" | "0" => None,
        name => Some(name.to_string()),
    };
    Some(SeekInfo {
        no: f[0].parse().ok()?,
        name: f[1].to_string(),
        size: f[2].parse().ok()?,
        time: f[3].parse().ok()?,
        inc: f[4].parse().ok()?,
        color,
        half_komi: f[6].parse().ok()?,
        flats: f[7].parse().ok()?,
        caps: f[8].parse().ok()?,
        unrated: f[9] == "1",
        opponent,
    })
}

/// `GAME WHITE vs BLACK COLOR SIZE TIME INCR KOMI FLATS CAPS UNRATED TOURNAMENT TRIGGER EXTRA
/// BOT` (the fields after the colour are optional from KOMI on, as older servers stop early).
fn parse_game_start(rest: &str) -> Option<GameStart> {
    let f: Vec<&str> = rest.split(' ').collect();
    if f.len() < 8 || f[2] != "vs" {
        return None;
    }
    let color = match f[4] {
        "white" => Color::White,
        "black" => Color::Black,
        _ => return None,
    };
    let size: usize = f[5].parse().ok()?;
    let (stones, caps) = cairn_tak::board::reserves_for_size(size).unwrap_or((0, 0));
    let num = |i: usize, default: u64| -> Option<u64> {
        match f.get(i) {
            None | Some(&"") => Some(default),
            Some(text) => text.parse().ok(),
        }
    };
    Some(GameStart {
        game: f[0].parse().ok()?,
        white: f[1].to_string(),
        black: f[3].to_string(),
        color,
        size,
        time: f[6].parse().ok()?,
        inc: f[7].parse().ok()?,
        half_komi: u8::try_from(num(8, 0)?).ok()?,
        flats: u32::try_from(num(9, u64::from(stones))?).ok()?,
        caps: u32::try_from(num(10, u64::from(caps))?).ok()?,
        unrated: num(11, 0)? == 1,
        tournament: num(12, 0)? == 1,
        trigger: u32::try_from(num(13, 0)?).ok()?,
        extra: num(14, 0)?,
    })
}

/// A square in server notation (`A1`, upper-case file), read liberally (either case).
fn square_from_server(text: &str) -> Option<SquareName> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes[0].to_ascii_lowercase().checked_sub(b'a')?;
    let rank = bytes[1].checked_sub(b'1')?;
    (file < 8 && rank < 8).then_some(SquareName { file, rank })
}

fn square_to_server(square: SquareName) -> String {
    format!("{}{}", (b'A' + square.file) as char, square.rank + 1)
}

/// Reads a move in server notation: `P A1`, `P A1 W`, `P A1 C` or `M A1 A3 1 2`.
pub fn move_from_server(text: &str) -> Result<PtnMove, ProtocolError> {
    let bad = |reason| ProtocolError::BadMove {
        text: text.to_string(),
        reason,
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["P", square, role @ ..] => {
            let square = square_from_server(square).ok_or_else(|| bad("bad square"))?;
            let role = match role {
                [] => Role::Flat,
                ["W"] => Role::Wall,
                ["C"] => Role::Cap,
                _ => return Err(bad("expected W or C after the square")),
            };
            Ok(PtnMove::Place { square, role })
        }
        ["M", from, to, drops @ ..] => {
            let from = square_from_server(from).ok_or_else(|| bad("bad origin square"))?;
            let to = square_from_server(to).ok_or_else(|| bad("bad target square"))?;
            let drops: SmallVec<[u8; 8]> = drops
                .iter()
                .map(|d| d.parse::<u8>().ok().filter(|&d| (1..=8).contains(&d)))
                .collect::<Option<_>>()
                .ok_or_else(|| bad("drops must be numbers from 1 to 8"))?;
            let (df, dr) = (
                i32::from(to.file) - i32::from(from.file),
                i32::from(to.rank) - i32::from(from.rank),
            );
            let (dir, distance) = match (df, dr) {
                (0, d) if d > 0 => (Direction::North, d),
                (0, d) if d < 0 => (Direction::South, -d),
                (d, 0) if d > 0 => (Direction::East, d),
                (d, 0) if d < 0 => (Direction::West, -d),
                _ => return Err(bad("the squares are not on one line")),
            };
            if drops.len() != distance as usize {
                return Err(bad("one drop per square from the origin to the target"));
            }
            let count: u32 = drops.iter().map(|&d| u32::from(d)).sum();
            if count > 8 {
                return Err(bad("carries more than 8 stones"));
            }
            Ok(PtnMove::Spread {
                square: from,
                dir,
                count: count as u8,
                drops,
            })
        }
        _ => Err(bad("expected `P SQUARE [W|C]` or `M FROM TO DROPS...`")),
    }
}

/// Writes a move in server notation; `None` if a spread leaves the 8×8 board (no legal move
/// does).
pub fn move_to_server(mv: &PtnMove) -> Option<String> {
    match mv {
        PtnMove::Place { square, role } => {
            let suffix = match role {
                Role::Flat => "",
                Role::Wall => " W",
                Role::Cap => " C",
            };
            Some(format!("P {}{suffix}", square_to_server(*square)))
        }
        PtnMove::Spread {
            square,
            dir,
            drops,
            count,
        } => {
            let steps = i32::try_from(drops.len()).ok()?;
            let (df, dr) = match dir {
                Direction::North => (0, steps),
                Direction::South => (0, -steps),
                Direction::East => (steps, 0),
                Direction::West => (-steps, 0),
            };
            let file = u8::try_from(i32::from(square.file) + df).ok()?;
            let rank = u8::try_from(i32::from(square.rank) + dr).ok()?;
            if file >= 8 || rank >= 8 {
                return None;
            }
            let mut out = format!(
                "M {} {}",
                square_to_server(*square),
                square_to_server(SquareName { file, rank })
            );
            // A spread written without drops (`a1>`) carries its whole count one square.
            if drops.is_empty() {
                out.push_str(&format!(" {count}"));
            }
            for d in drops {
                out.push_str(&format!(" {d}"));
            }
            Some(out)
        }
    }
}

/// The colour a seek asks for (the values of `--color`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SeekColor {
    /// The seeker plays White.
    White,
    /// The seeker plays Black.
    Black,
    /// Drawn at random by the server.
    Any,
}

/// What to seek.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Board size, 3..=8.
    pub size: usize,
    /// Starting time, seconds.
    pub time: u64,
    /// Increment, seconds.
    pub inc: u64,
    /// The seeker's colour.
    pub color: SeekColor,
    /// Komi in half flats, 0..=8.
    pub half_komi: u8,
    /// Stones per player.
    pub flats: u32,
    /// Capstones per player.
    pub caps: u32,
    /// Unrated game.
    pub unrated: bool,
    /// Tournament game.
    pub tournament: bool,
    /// Extra time: `(move, seconds)`, or `(0, 0)` for none.
    pub extra: (u32, u64),
    /// The only player who may accept, if any.
    pub opponent: Option<String>,
}

impl Seek {
    /// The V3 seek command. The opponent field is always present, so without an opponent the
    /// line ends in a space.
    pub fn command(&self) -> String {
        let color = match self.color {
            SeekColor::White => 'W',
            SeekColor::Black => 'B',
            SeekColor::Any => 'A',
        };
        format!(
            "Seek {} {} {} {color} {} {} {} {} {} {} {} {}",
            self.size,
            self.time,
            self.inc,
            self.half_komi,
            self.flats,
            self.caps,
            u8::from(self.unrated),
            u8::from(self.tournament),
            self.extra.0,
            self.extra.1,
            self.opponent.as_deref().unwrap_or("")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_lines_parse() {
        assert_eq!(parse_line("Welcome!"), Ok(ServerMsg::Hello));
        assert_eq!(
            parse_line("Welcome Guest12!\r"),
            Ok(ServerMsg::LoggedIn("Guest12".into()))
        );
        assert_eq!(
            parse_line("Error:Not your turn"),
            Ok(ServerMsg::Error("Not your turn".into()))
        );
        assert_eq!(
            parse_line("Game#3 Timems 61000 -5"),
            Ok(ServerMsg::Timems {
                game: 3,
                white: 61000,
                black: 0
            })
        );
        assert_eq!(
            parse_line("Game#3 Abandoned. opponent quit"),
            Ok(ServerMsg::Abandoned { game: 3 })
        );
        let start = parse_line("Game Start 1 cairn vs opponent white 5 60 1 4 21 1 1 0 10 30 1");
        let Ok(ServerMsg::GameStart(start)) = start else {
            panic!("{start:?}")
        };
        assert_eq!(
            (start.game, start.color, start.size, start.half_komi),
            (1, Color::White, 5, 4)
        );
        assert_eq!((start.unrated, start.trigger, start.extra), (true, 10, 30));
        let seek = parse_line("Seek new 7 tiltak 6 900 10 W 4 30 1 0 0 0 0 0 1");
        let Ok(ServerMsg::SeekNew(seek)) = seek else {
            panic!("{seek:?}")
        };
        assert_eq!((seek.no, seek.name.as_str(), seek.size), (7, "tiltak", 6));
        assert_eq!((seek.color, seek.opponent), ('W', None));
    }

    #[test]
    fn bad_lines_are_typed_errors() {
        for line in [
            "Game#x P A1",
            "Game#1 P Z9",
            "Game#1 M A1 B2 1",
            "Game#1 M A1 A3 1",
            "Game#1 Timems 5",
            "Game#1 Over 2-0",
            "Game Start 1 a vs b purple 5 60 0",
            "Seek new 1 a 5",
            "Welcome nobody",
            "Game#1 Dance",
            "Frobnicate",
            "",
        ] {
            assert!(parse_line(line).is_err(), "{line}");
        }
    }
}
