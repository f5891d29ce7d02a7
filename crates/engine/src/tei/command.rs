//! TEI input: one line of text becomes one typed [`TeiCommand`], or a [`TeiError`] that names
//! the offending text.
//!
//! Parsing is pure: it never touches the engine and never prints. Keywords (`go`, `infinite`,
//! `moves`, `halfkomi`, ...) are matched case-insensitively; moves, TPS and option values are
//! passed on as written. What the grammar accepts:
//!
//! - `tei`, `isready`, `stop`, `quit`, each with nothing after it;
//! - `setoption name <words...> [value <words...>]`;
//! - `teinewgame [<size>]`, or keyword pairs in any order: `size <n>`, `halfkomi <k>`,
//!   `komi <flats>` (a decimal in half steps: `komi 2.5` is half-komi 5). The `size` keyword marks
//!   the GUI as speaking "TEI v1" (PTN Ninja's `teinewgame size N halfkomi K`);
//! - `position startpos [moves <m>...]` and `position tps <board> <player> <move> [moves <m>...]`;
//! - `go` with unordered `wtime btime winc binc movestogo movetime depth nodes <integer>` pairs and
//!   the bare flags `infinite` and `solved` (run the tinue prover, see [`cairn_tak::tinue`]). A bad
//!   or unknown part of a `go` line is reported but the rest is still used; only when nothing
//!   on the line can be used is the whole `go` an error (and then no search starts). A bare `go`
//!   is valid: it searches until `stop`.

use crate::engine::Start;
use cairn_search::Limits;
use cairn_tak::board::{Komi, HALF_KOMI_TEXT};
use cairn_tak::notation::{excerpt, quote};
use std::fmt;
use std::str::FromStr;

/// One TEI command, as sent by the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeiCommand {
    /// `tei`: identify and list the options.
    Tei,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name, as written (matched case-insensitively later).
        name: String,
        /// The value, if any (`None` when the `value` keyword is missing).
        value: Option<String>,
    },
    /// `teinewgame ...`: a new game.
    NewGame(NewGame),
    /// `position ...`: the position to search next.
    Position(PositionCommand),
    /// `go ...`: start a search.
    Go(GoCommand),
    /// `stop`: end the running search (harmless when idle).
    Stop,
    /// `quit`: stop and exit.
    Quit,
}

/// The arguments of `teinewgame`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewGame {
    /// The board size; `None` keeps the current size.
    pub size: Option<usize>,
    /// The komi for this and later games, if given (`halfkomi K` or `komi K/2`).
    pub komi: Option<Komi>,
    /// Whether the TEI v1 form (`size N ...`) was used.
    pub v1: bool,
}

/// The arguments of `position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The root: the start position, or a TPS (its three fields joined by single spaces).
    pub start: Start,
    /// Moves played from the root, as written.
    pub moves: Vec<String>,
}

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// The limits that could be read.
    pub limits: Limits,
    /// Parts of the line that were ignored, each with the reason.
    pub ignored: Vec<TeiError>,
    /// `go solved`: run the tinue prover instead of the search.
    pub solved: bool,
}

/// Why a line is not a valid TEI command. Every variant carries the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeiError {
    /// Nothing but whitespace (the loop ignores these lines silently).
    Empty,
    /// The first word is not a TEI command.
    UnknownCommand(String),
    /// A required argument is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A word that does not belong where it is.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        token: String,
    },
    /// A value that cannot be read or is out of range.
    BadValue {
        /// What the value is for (a keyword).
        key: String,
        /// The value as written.
        text: String,
        /// What was expected instead.
        expected: &'static str,
    },
    /// A whole number too large for what it counts.
    OutOfRange {
        /// What the value is for (a keyword).
        key: String,
        /// The value as written.
        text: String,
        /// The largest value accepted.
        max: u64,
    },
    /// Arguments that contradict each other.
    Conflict {
        /// The command.
        command: &'static str,
        /// What is wrong.
        what: &'static str,
    },
}

impl fmt::Display for TeiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeiError::Empty => write!(f, "empty line"),
            TeiError::UnknownCommand(word) => write!(f, "unknown command {}", quote(word)),
            TeiError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            TeiError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected {}", quote(token))
            }
            TeiError::BadValue {
                key,
                text,
                expected,
            } if text.is_empty() => write!(f, "{key}: missing value, expected {expected}"),
            TeiError::BadValue {
                key,
                text,
                expected,
            } => write!(
                f,
                "{}: bad value {}, expected {expected}",
                excerpt(key),
                quote(text)
            ),
            TeiError::OutOfRange { key, text, max } => write!(
                f,
                "{}: {} is out of range (at most {max})",
                excerpt(key),
                quote(text)
            ),
            TeiError::Conflict { command, what } => write!(f, "{command}: {what}"),
        }
    }
}

impl std::error::Error for TeiError {}

impl FromStr for TeiCommand {
    type Err = TeiError;

    fn from_str(line: &str) -> Result<TeiCommand, TeiError> {
        parse(line)
    }
}

/// Parses one input line (without its line ending; surrounding whitespace is ignored).
pub fn parse(line: &str) -> Result<TeiCommand, TeiError> {
    let mut tokens = line.split_whitespace();
    let Some(word) = tokens.next() else {
        return Err(TeiError::Empty);
    };
    let rest: Vec<&str> = tokens.collect();
    let command = word.to_ascii_lowercase();
    match command.as_str() {
        "tei" => no_arguments("tei", &rest, TeiCommand::Tei),
        "isready" => no_arguments("isready", &rest, TeiCommand::IsReady),
        "stop" => no_arguments("stop", &rest, TeiCommand::Stop),
        "quit" => no_arguments("quit", &rest, TeiCommand::Quit),
        "setoption" => parse_setoption(&rest),
        "teinewgame" => parse_newgame(&rest).map(TeiCommand::NewGame),
        "position" => parse_position(&rest).map(TeiCommand::Position),
        "go" => parse_go(&rest).map(TeiCommand::Go),
        _ => Err(TeiError::UnknownCommand(word.to_string())),
    }
}

fn is(token: &str, keyword: &str) -> bool {
    token.eq_ignore_ascii_case(keyword)
}

fn no_arguments(
    command: &'static str,
    rest: &[&str],
    value: TeiCommand,
) -> Result<TeiCommand, TeiError> {
    match rest.first() {
        None => Ok(value),
        Some(token) => Err(TeiError::Unexpected {
            command,
            token: token.to_string(),
        }),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<TeiCommand, TeiError> {
    const COMMAND: &str = "setoption";
    let Some((&first, rest)) = rest.split_first() else {
        return Err(TeiError::Missing {
            command: COMMAND,
            what: "`name <option>`",
        });
    };
    if !is(first, "name") {
        return Err(TeiError::Unexpected {
            command: COMMAND,
            token: first.to_string(),
        });
    }
    let value_at = rest.iter().position(|t| is(t, "value"));
    let name_words = &rest[..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(TeiError::Missing {
            command: COMMAND,
            what: "the option name after `name`",
        });
    }
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    Ok(TeiCommand::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// Parses a komi given as an integer number of half flats.
fn parse_half_komi(key: &str, text: &str) -> Result<Komi, TeiError> {
    let bad = || TeiError::BadValue {
        key: key.to_string(),
        text: text.to_string(),
        expected: HALF_KOMI_TEXT,
    };
    let k: i64 = text.parse().map_err(|_| bad())?;
    Komi::from_halves(k).map_err(|_| bad())
}

fn parse_newgame(rest: &[&str]) -> Result<NewGame, TeiError> {
    const COMMAND: &str = "teinewgame";
    let mut game = NewGame::default();
    let mut tokens = rest.iter().copied().peekable();
    let read_size = |text: &str| {
        text.parse::<usize>().map_err(|_| TeiError::BadValue {
            key: "size".to_string(),
            text: text.to_string(),
            expected: "a board size (a whole number)",
        })
    };
    // The classic form: a bare size first.
    if let Some(first) = tokens.peek() {
        if first.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            game.size = Some(read_size(first)?);
            tokens.next();
        }
    }
    let mut komi_given = false;
    while let Some(key) = tokens.next() {
        let lower = key.to_ascii_lowercase();
        let what = match lower.as_str() {
            "size" => "a board size after `size`",
            "halfkomi" => "a half-komi after `halfkomi`",
            "komi" => "a komi after `komi`",
            _ => {
                return Err(TeiError::Unexpected {
                    command: COMMAND,
                    token: key.to_string(),
                })
            }
        };
        let Some(value) = tokens.next() else {
            return Err(TeiError::Missing {
                command: COMMAND,
                what,
            });
        };
        match lower.as_str() {
            "size" => {
                if game.size.is_some() {
                    return Err(TeiError::Conflict {
                        command: COMMAND,
                        what: "the size is given twice",
                    });
                }
                game.size = Some(read_size(value)?);
                game.v1 = true;
            }
            _ => {
                if komi_given {
                    return Err(TeiError::Conflict {
                        command: COMMAND,
                        what: "the komi is given twice (use one of `halfkomi` and `komi`)",
                    });
                }
                komi_given = true;
                game.komi = Some(if lower == "komi" {
                    value.parse::<Komi>().map_err(|_| TeiError::BadValue {
                        key: "komi".to_string(),
                        text: value.to_string(),
                        expected: Komi::RANGE_TEXT,
                    })?
                } else {
                    parse_half_komi("halfkomi", value)?
                });
            }
        }
    }
    Ok(game)
}

fn parse_position(rest: &[&str]) -> Result<PositionCommand, TeiError> {
    const COMMAND: &str = "position";
    let Some((&kind, rest)) = rest.split_first() else {
        return Err(TeiError::Missing {
            command: COMMAND,
            what: "`startpos` or `tps <board> <player> <move>`",
        });
    };
    let (start, rest) = if is(kind, "startpos") {
        (Start::StartPos, rest)
    } else if is(kind, "tps") {
        let fields = rest.iter().take_while(|t| !is(t, "moves")).count();
        if fields < 3 {
            return Err(TeiError::Missing {
                command: COMMAND,
                what: "TPS fields (expected `tps <board> <player> <move>`)",
            });
        }
        (Start::Tps(rest[..3].join(" ")), &rest[3..])
    } else {
        return Err(TeiError::Unexpected {
            command: COMMAND,
            token: kind.to_string(),
        });
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&word, moves)) if is(word, "moves") => moves.iter().map(|m| m.to_string()).collect(),
        Some((&word, _)) => {
            return Err(TeiError::Unexpected {
                command: COMMAND,
                token: word.to_string(),
            })
        }
    };
    Ok(PositionCommand { start, moves })
}

/// The `go` keywords that take a value.
pub const GO_KEYS: [&str; 8] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
];

fn parse_go(rest: &[&str]) -> Result<GoCommand, TeiError> {
    const COMMAND: &str = "go";
    let mut go = GoCommand::default();
    let mut used = 0;
    let mut i = 0;
    while i < rest.len() {
        let token = rest[i];
        i += 1;
        let key = token.to_ascii_lowercase();
        if key == "infinite" {
            go.limits.infinite = true;
            used += 1;
            continue;
        }
        if key == "solved" {
            go.solved = true;
            used += 1;
            continue;
        }
        if !GO_KEYS.contains(&key.as_str()) {
            go.ignored.push(TeiError::Unexpected {
                command: COMMAND,
                token: token.to_string(),
            });
            continue;
        }
        // A keyword where the value should be is not taken as the value.
        let value = match rest.get(i) {
            Some(v)
                if !GO_KEYS.contains(&v.to_ascii_lowercase().as_str())
                    && !is(v, "infinite")
                    && !is(v, "solved") =>
            {
                i += 1;
                *v
            }
            _ => {
                go.ignored.push(TeiError::BadValue {
                    key,
                    text: String::new(),
                    expected: "an integer",
                });
                continue;
            }
        };
        match set_go_value(&mut go.limits, &key, value) {
            Ok(()) => used += 1,
            Err(e) => go.ignored.push(e),
        }
    }
    if used == 0 && !go.ignored.is_empty() {
        return Err(go.ignored.swap_remove(0));
    }
    Ok(go)
}

fn set_go_value(limits: &mut Limits, key: &str, text: &str) -> Result<(), TeiError> {
    let bad = |expected| TeiError::BadValue {
        key: key.to_string(),
        text: text.to_string(),
        expected,
    };
    // A whole number with more digits than the type holds is out of range, not malformed.
    let too_large = |max: u64| {
        let digits = text.strip_prefix('+').unwrap_or(text);
        let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        let above = digits.parse::<u64>().map_or(true, |n| n > max);
        (whole && above).then(|| TeiError::OutOfRange {
            key: key.to_string(),
            text: text.to_string(),
            max,
        })
    };
    match key {
        // Clocks may run negative in some GUIs once a player is over time: read as 0.
        "wtime" | "btime" | "winc" | "binc" => {
            let ms = text
                .parse::<i64>()
                .map_err(|_| {
                    too_large(i64::MAX as u64)
                        .unwrap_or_else(|| bad("an integer number of milliseconds"))
                })?
                .max(0) as u64;
            let slot = match key {
                "wtime" => &mut limits.wtime,
                "btime" => &mut limits.btime,
                "winc" => &mut limits.winc,
                _ => &mut limits.binc,
            };
            *slot = Some(ms);
        }
        "movetime" => {
            limits.movetime = Some(text.parse().map_err(|_| {
                too_large(u64::MAX)
                    .unwrap_or_else(|| bad("a non-negative integer number of milliseconds"))
            })?)
        }
        "movestogo" => {
            limits.movestogo =
                Some(positive(text, u64::MAX).ok_or_else(|| {
                    too_large(u64::MAX).unwrap_or_else(|| bad("a positive integer"))
                })?)
        }
        "depth" => {
            let max = u64::from(u32::MAX);
            let depth = positive(text, max)
                .ok_or_else(|| too_large(max).unwrap_or_else(|| bad("a positive integer")))?;
            limits.depth = Some(depth as u32)
        }
        "nodes" => {
            limits.nodes =
                Some(positive(text, u64::MAX).ok_or_else(|| {
                    too_large(u64::MAX).unwrap_or_else(|| bad("a positive integer"))
                })?)
        }
        _ => unreachable!("only GO_KEYS reach here"),
    }
    Ok(())
}

/// `text` as a whole number from 1 to `max`, if it is one.
fn positive(text: &str, max: u64) -> Option<u64> {
    text.parse::<u64>().ok().filter(|&n| (1..=max).contains(&n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> TeiCommand {
        parse(line).unwrap_or_else(|e| panic!("`{line}`: {e}"))
    }

    fn err(line: &str) -> TeiError {
        match parse(line) {
            Ok(c) => panic!("`{line}` parsed as {c:?}"),
            Err(e) => e,
        }
    }

    fn go(line: &str) -> GoCommand {
        match ok(line) {
            TeiCommand::Go(go) => go,
            other => panic!("`{line}` parsed as {other:?}"),
        }
    }

    fn position(line: &str) -> PositionCommand {
        match ok(line) {
            TeiCommand::Position(p) => p,
            other => panic!("`{line}` parsed as {other:?}"),
        }
    }

    fn newgame(line: &str) -> NewGame {
        match ok(line) {
            TeiCommand::NewGame(g) => g,
            other => panic!("`{line}` parsed as {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("tei"), TeiCommand::Tei);
        assert_eq!(ok("  isready \r"), TeiCommand::IsReady);
        assert_eq!(ok("stop"), TeiCommand::Stop);
        assert_eq!(ok("quit"), TeiCommand::Quit);
        assert_eq!(ok("QUIT"), TeiCommand::Quit);
        assert_eq!("tei".parse::<TeiCommand>(), Ok(TeiCommand::Tei));
        assert_eq!(
            err("isready now"),
            TeiError::Unexpected {
                command: "isready",
                token: "now".to_string()
            }
        );
        assert!(matches!(err("tei 1"), TeiError::Unexpected { .. }));
        assert!(matches!(err("stop it"), TeiError::Unexpected { .. }));
        assert!(matches!(err("quit now"), TeiError::Unexpected { .. }));
    }

    #[test]
    fn empty_and_unknown() {
        assert_eq!(err(""), TeiError::Empty);
        assert_eq!(err(" \t "), TeiError::Empty);
        assert_eq!(err("uci"), TeiError::UnknownCommand("uci".to_string()));
        assert_eq!(
            err("xyzzy plugh"),
            TeiError::UnknownCommand("xyzzy".to_string())
        );
        assert_eq!(
            err("ponderhit"),
            TeiError::UnknownCommand("ponderhit".to_string())
        );
        assert!(err("\u{1}\u{2}").to_string().contains("unknown command"));
    }

    #[test]
    fn setoption() {
        assert_eq!(
            ok("setoption name HalfKomi value 4"),
            TeiCommand::SetOption {
                name: "HalfKomi".to_string(),
                value: Some("4".to_string())
            }
        );
        assert_eq!(
            ok("setoption NAME Move Overhead VALUE  100 "),
            TeiCommand::SetOption {
                name: "Move Overhead".to_string(),
                value: Some("100".to_string())
            }
        );
        assert_eq!(
            ok("setoption name Hash"),
            TeiCommand::SetOption {
                name: "Hash".to_string(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name Hash value"),
            TeiCommand::SetOption {
                name: "Hash".to_string(),
                value: Some(String::new())
            }
        );
        assert!(matches!(err("setoption"), TeiError::Missing { .. }));
        assert!(matches!(err("setoption name"), TeiError::Missing { .. }));
        assert!(matches!(
            err("setoption name value 3"),
            TeiError::Missing { .. }
        ));
        assert!(matches!(
            err("setoption Hash value 3"),
            TeiError::Unexpected { .. }
        ));
    }

    fn halves(k: i64) -> Komi {
        Komi::from_halves(k).unwrap()
    }

    #[test]
    fn teinewgame() {
        assert_eq!(
            newgame("teinewgame 6"),
            NewGame {
                size: Some(6),
                komi: None,
                v1: false
            }
        );
        assert_eq!(newgame("teinewgame"), NewGame::default());
        assert_eq!(
            newgame("teinewgame size 6 halfkomi 4"),
            NewGame {
                size: Some(6),
                komi: Some(halves(4)),
                v1: true
            }
        );
        assert_eq!(
            newgame("teinewgame halfkomi -3 size 5"),
            NewGame {
                size: Some(5),
                komi: Some(halves(-3)),
                v1: true
            }
        );
        assert_eq!(newgame("teinewgame size 7 komi 2.5").komi, Some(halves(5)));
        assert_eq!(newgame("teinewgame 5 komi 2").komi, Some(halves(4)));
        assert!(!newgame("teinewgame 5 komi 2").v1);
        assert_eq!(newgame("teinewgame size 4").komi, None);
        // The size is range-checked by the engine, not here.
        assert_eq!(newgame("teinewgame 9").size, Some(9));
        assert!(matches!(err("teinewgame six"), TeiError::Unexpected { .. }));
        assert!(matches!(
            err("teinewgame size x"),
            TeiError::BadValue { .. }
        ));
        assert!(matches!(err("teinewgame 6.5"), TeiError::BadValue { .. }));
        assert!(matches!(err("teinewgame size"), TeiError::Missing { .. }));
        assert!(matches!(
            err("teinewgame size 6 halfkomi"),
            TeiError::Missing { .. }
        ));
        assert!(matches!(
            err("teinewgame size 6 halfkomi 11"),
            TeiError::BadValue { .. }
        ));
        assert!(matches!(
            err("teinewgame size 6 halfkomi 2.5"),
            TeiError::BadValue { .. }
        ));
        assert!(matches!(
            err("teinewgame size 6 komi 2.25"),
            TeiError::BadValue { .. }
        ));
        assert!(matches!(
            err("teinewgame 6 size 6"),
            TeiError::Conflict { .. }
        ));
        assert!(matches!(
            err("teinewgame size 6 komi 2 halfkomi 4"),
            TeiError::Conflict { .. }
        ));
        assert!(matches!(
            err("teinewgame 6 flats 30"),
            TeiError::Unexpected { .. }
        ));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            position("position startpos"),
            PositionCommand {
                start: Start::StartPos,
                moves: vec![]
            }
        );
        assert_eq!(
            position("position startpos moves").moves,
            Vec::<String>::new()
        );
        assert_eq!(
            position("position startpos moves ").moves,
            Vec::<String>::new()
        );
        assert_eq!(
            position("position startpos moves a1 f6 c3* 2c3>11'!").moves,
            vec!["a1", "f6", "c3*", "2c3>11'!"]
        );
        let p = position("position tps x,x,x/x,x,x/x,x,x 1 1 moves ");
        assert_eq!(p.start, Start::Tps("x,x,x/x,x,x/x,x,x 1 1".to_string()));
        assert!(p.moves.is_empty());
        let p = position("position tps x6/x6/x6/x6/x6/x6 2 3");
        assert_eq!(p.start, Start::Tps("x6/x6/x6/x6/x6/x6 2 3".to_string()));
        let p = position("position TPS x3/x3/x3   1  1 MOVES a1 c3");
        assert_eq!(p.moves, vec!["a1", "c3"]);
        // Bad TPS text is the engine's business; the shape is ours.
        assert!(matches!(err("position"), TeiError::Missing { .. }));
        assert!(matches!(err("position tps"), TeiError::Missing { .. }));
        assert!(matches!(
            err("position tps x3/x3/x3 1"),
            TeiError::Missing { .. }
        ));
        assert!(matches!(
            err("position tps x3/x3/x3 1 moves a1"),
            TeiError::Missing { .. }
        ));
        assert!(matches!(
            err("position tps x3/x3/x3 1 1 a1"),
            TeiError::Unexpected { .. }
        ));
        assert!(matches!(err("position fen x"), TeiError::Unexpected { .. }));
        assert!(matches!(
            err("position startpos a1 b2"),
            TeiError::Unexpected { .. }
        ));
    }

    #[test]
    fn go_limits_any_order() {
        assert_eq!(go("go"), GoCommand::default());
        let g = go("go wtime 10000 btime 9000 winc 100 binc 50");
        assert_eq!(
            g.limits,
            Limits {
                wtime: Some(10000),
                btime: Some(9000),
                winc: Some(100),
                binc: Some(50),
                ..Limits::default()
            }
        );
        assert!(g.ignored.is_empty());
        let g = go("go depth 4 infinite nodes 100 movetime 5 movestogo 7 binc 1");
        assert_eq!(
            g.limits,
            Limits {
                depth: Some(4),
                nodes: Some(100),
                movetime: Some(5),
                movestogo: Some(7),
                binc: Some(1),
                infinite: true,
                ..Limits::default()
            }
        );
        assert!(go("go INFINITE").limits.infinite);
        assert_eq!(go("go wtime -20").limits.wtime, Some(0));
    }

    #[test]
    fn go_with_bad_parts_keeps_the_rest() {
        let g = go("go depth 3 ponder");
        assert_eq!(g.limits.depth, Some(3));
        assert_eq!(
            g.ignored,
            vec![TeiError::Unexpected {
                command: "go",
                token: "ponder".to_string()
            }]
        );
        let g = go("go movetime x depth 2");
        assert_eq!(g.limits.depth, Some(2));
        assert_eq!(g.limits.movetime, None);
        assert_eq!(g.ignored.len(), 1);
        // A keyword is not swallowed as a missing value.
        let g = go("go depth movetime 100");
        assert_eq!(g.limits.movetime, Some(100));
        assert_eq!(g.limits.depth, None);
        assert_eq!(g.ignored.len(), 1);
        let g = go("go nodes 0 depth 0 movestogo 0 movetime 10");
        assert_eq!(g.ignored.len(), 3);
        assert_eq!(g.limits.movetime, Some(10));
    }

    #[test]
    fn go_with_nothing_usable_is_an_error() {
        assert!(matches!(err("go foo"), TeiError::Unexpected { .. }));
        assert!(matches!(err("go depth"), TeiError::BadValue { .. }));
        assert!(matches!(err("go depth x"), TeiError::BadValue { .. }));
        assert!(matches!(err("go depth -1"), TeiError::BadValue { .. }));
        assert!(matches!(err("go movetime 1.5"), TeiError::BadValue { .. }));
        assert!(matches!(
            err("go nodes 99999999999999999999999"),
            TeiError::OutOfRange { .. }
        ));
        assert!(matches!(err("go depth 0"), TeiError::BadValue { .. }));
        assert!(matches!(
            err("go depth 4294967296"),
            TeiError::OutOfRange { .. }
        ));
        assert!(matches!(err("go wtime"), TeiError::BadValue { .. }));
    }

    #[test]
    fn errors_name_the_offending_text() {
        assert!(err("foo bar").to_string().contains("foo"));
        assert!(err("go depth x").to_string().contains("`x`"));
        assert!(err("teinewgame size 6 halfkomi 99")
            .to_string()
            .contains("99"));
        assert!(err("position fen").to_string().contains("fen"));
    }
}
