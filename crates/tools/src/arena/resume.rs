//! `cairn match --resume`: the games a match file already holds, read back so that a match cut
//! short (a session's end, a lost machine, Ctrl-C) goes on where it stopped, with one score, one
//! set of pairs and one SPRT over all its games.
//!
//! Each game must be the one this match plays at its `Round`: the same size, komi and clock (or
//! node count), the engine at each colour that the round gives (even rounds have the first
//! engine Black), and the book's opening of its pair as its `{book}` plies. Anything else is an
//! error that names the game, so that two different matches never pool by mistake and a file
//! is never appended to under settings it was not played with. A round twice is an error too.

use super::{GameResult, MatchConfig};
use crate::report::ending_of;
use cairn_tak::board::Komi;
use cairn_tak::notation::{parse_file, PtnGame};
use std::path::Path;

/// A game the match file already holds.
#[derive(Clone, Debug)]
pub struct Kept {
    /// Its place in the schedule (its `Round` less one).
    pub index: usize,
    /// In short, as the match reports its games.
    pub result: GameResult,
    /// The game as PTN.
    pub text: String,
}

/// The games of the match file at `path` (none if it does not exist or holds no game), each
/// checked against the match (see the module documentation); `total` is the number of games
/// scheduled. `Err` names the file and the game.
pub fn load(
    config: &MatchConfig,
    openings: &[Vec<String>],
    total: usize,
    path: &Path,
) -> Result<Vec<Kept>, String> {
    let fail = |e: &dyn std::fmt::Display| format!("--resume {}: {e}", path.display());
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(fail(&e)),
    };
    let games = parse_file(&text).map_err(|e| fail(&e))?;
    let mut seen = vec![false; total];
    let mut kept = Vec::with_capacity(games.len());
    for (i, game) in games.into_iter().enumerate() {
        let keep = check(config, openings, total, &game)
            .map_err(|e| fail(&format!("game {}: {e}", i + 1)))?;
        if std::mem::replace(&mut seen[keep.index], true) {
            return Err(fail(&format!(
                "game {}: round {} is in the file twice",
                i + 1,
                keep.index + 1
            )));
        }
        kept.push(keep);
    }
    Ok(kept)
}

/// The game as a [`Kept`] one, if it is the game this match plays at its round.
fn check(
    config: &MatchConfig,
    openings: &[Vec<String>],
    total: usize,
    game: &PtnGame,
) -> Result<Kept, String> {
    let tag = |name: &str| {
        game.tag(name)
            .ok_or_else(|| format!("no {name} tag: not a game of `cairn match`"))
    };
    let round = tag("Round")?;
    let index = match round.trim().parse::<usize>() {
        Ok(r) if (1..=total).contains(&r) => r - 1,
        Ok(r) if r > total => {
            return Err(format!(
                "round {r} is past this match's {total} games (--games {r} or more keeps it)"
            ))
        }
        _ => return Err(format!("round `{round}` is not a game's number")),
    };
    let s = &config.settings;
    let size = tag("Size")?;
    if size.trim() != config.size.to_string() {
        return Err(format!("size {size}, but this match plays {}", config.size));
    }
    let komi = tag("Komi")?;
    if komi.trim().parse::<Komi>().ok() != Some(s.komi) {
        return Err(format!("komi {komi}, but this match plays {}", s.komi));
    }
    // A match by nodes names its node count in the Event tag and has no clock.
    let expected = match s.nodes {
        Some(n) => format!("{n} nodes a move"),
        None => format!("clock {}", s.tc),
    };
    let found = match (game.tag("Clock"), game.tag("Event")) {
        (Some(clock), _) => format!("clock {clock}"),
        (None, Some(event)) => event
            .strip_prefix("cairn match, ")
            .unwrap_or("no clock")
            .to_string(),
        (None, None) => "no clock".to_string(),
    };
    if found != expected {
        return Err(format!(
            "played at {found}, but this match plays at {expected}"
        ));
    }
    let [first, second] = [&config.engines[0].name, &config.engines[1].name];
    let (white, black) = if index % 2 == 0 {
        (first, second)
    } else {
        (second, first)
    };
    let players = [tag("Player1")?, tag("Player2")?];
    if players != [white.as_str(), black.as_str()] {
        return Err(format!(
            "round {} is {} against {}, but this match plays it {white} against {black}",
            index + 1,
            players[0],
            players[1]
        ));
    }
    let book: Vec<String> = game
        .plies
        .iter()
        .take_while(|p| p.comments.iter().any(|c| c == "book"))
        .map(|p| p.mv.to_string())
        .collect();
    let opening = &openings[(config.book_start + index / 2) % openings.len()];
    if &book != opening {
        return Err(format!(
            "round {} opens `{}`, but this match's book gives `{}` there (another --book or \
             --book-start?)",
            index + 1,
            book.join(" "),
            opening.join(" ")
        ));
    }
    let result = game
        .result
        .clone()
        .or_else(|| game.tag("Result").map(str::to_string))
        .unwrap_or_else(|| "*".to_string());
    let termination = game.tag("Termination").unwrap_or("");
    ending_of(&result, termination, index + 1)
        .map_err(|_| format!("result `{result}` is not one a match gives"))?;
    Ok(Kept {
        index,
        result: GameResult {
            round: index + 1,
            white: white.clone(),
            black: black.clone(),
            result,
            termination: termination.to_string(),
            plies: game.plies.len(),
        },
        text: game.to_ptn(),
    })
}
