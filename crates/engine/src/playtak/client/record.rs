//! Each game's record: how it ended (the `Termination` tag), its PTN (the server's tags and
//! the moves), its file in `--ptn-dir`, and a move of it that the server sends after its end.

use super::game::ServerGame;
use super::Client;
use crate::playtak::protocol::GameStart;
use cairn_tak::board::{Color, GameResult};
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::{PtnGame, PtnMove};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long after a game's `Over` a move of that game is still added to its record.
const LATE_MOVE_WINDOW: Duration = Duration::from_secs(10);
/// How long the client stays, its games played, after a loss on time, for such a move.
const LATE_MOVE_GRACE: Duration = Duration::from_secs(2);

/// A game the server said was over, kept for a move of it that comes after its `Over`. On a loss
/// on time the server's clock can send `Over` before it passes on the move that started the
/// loser's turn; that move is in the server's record of the game, so it goes into ours too.
pub(super) struct Ended {
    start: GameStart,
    /// Plies, canonical PTN.
    moves: Vec<String>,
    result: String,
    /// The `Termination` tag.
    how: &'static str,
    /// When `Over` came.
    at: Instant,
    /// Its file in `--ptn-dir`, named when it ended.
    path: Option<PathBuf>,
    /// A late move has been added.
    amended: bool,
}

impl Ended {
    /// Whether this is game number `game`.
    pub(super) fn is(&self, game: u64) -> bool {
        self.start.game == game
    }

    /// Whether the session waits for a late move: the game was lost on time moments ago and
    /// none has come yet.
    pub(super) fn awaits_late_move(&self) -> bool {
        self.how == "time" && !self.amended && self.at.elapsed() < LATE_MOVE_GRACE
    }

    fn record(&self, server: &str) -> PtnGame {
        game_record(server, &self.start, &self.moves, &self.result, self.how)
    }

    /// Writes the game to its file, if it has one (again after a late move).
    fn write(&self, server: &str) {
        let Some(path) = &self.path else {
            return;
        };
        let dir = path.parent().unwrap_or(std::path::Path::new("."));
        let text = self.record(server).to_ptn();
        if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(path, text)) {
            log::error!("cannot write {}: {e}", path.display());
        }
    }
}

impl Client {
    /// Keeps the game that just ended (`result`, ended by `how`) for a late move, and writes
    /// it to its file in `--ptn-dir`.
    pub(super) fn keep_ended(&mut self, game: ServerGame, result: &str, how: &'static str) {
        let path = self
            .config
            .ptn_dir
            .as_ref()
            .map(|dir| dir.join(ptn_file_name(&game.start)));
        let ended = Ended {
            start: game.start,
            moves: game.moves,
            result: result.to_string(),
            how,
            at: Instant::now(),
            path,
            amended: false,
        };
        ended.write(&self.config.server);
        self.ended = Some(ended);
    }

    /// A move of the game that just ended, sent after its `Over`: added to the game's record
    /// if it comes soon and is legal there.
    pub(super) fn late_move(&mut self, mv: &PtnMove) {
        let Some(ended) = &mut self.ended else {
            return;
        };
        let no = ended.start.game;
        if ended.amended {
            log::warn!("game {no}: a second move `{mv}` after the game ended; not recorded");
            return;
        }
        let after = ended.at.elapsed();
        if after > LATE_MOVE_WINDOW {
            log::warn!(
                "game {no}: a move `{mv}` {:.1} s after the game ended; not recorded",
                after.as_secs_f64()
            );
            return;
        }
        ended.moves.push(mv.to_string());
        if let Err(e) =
            cairn_tak::notation::ptn_game::replay_any(&ended.record(&self.config.server))
        {
            ended.moves.pop();
            log::warn!(
                "game {no}: a move `{mv}` after the game ended does not fit ({e}); not recorded"
            );
            return;
        }
        log::info!("game {no}: the server sent `{mv}` after the game's end; added to its record");
        ended.amended = true;
        ended.write(&self.config.server);
    }
}

/// How a game ended, for the log and the PTN's `Termination` tag: `road`, `flats`, `time`,
/// `resignation`, `abandonment`, `agreement` (a draw), `draw rule` (a draw the rules do not
/// make on the board: the server's no-placement rule) or `aborted`.
pub(super) fn termination(
    game: &ServerGame,
    result: &str,
    abandoned: bool,
    by_rules: Option<GameResult>,
) -> &'static str {
    if abandoned {
        return "abandonment";
    }
    match result {
        "R-0" | "0-R" => "road",
        "F-0" | "0-F" => "flats",
        "1/2-1/2" if game.draw_accepted => "agreement",
        "1/2-1/2" if by_rules == Some(GameResult::Draw) => "flats",
        "1/2-1/2" => "draw rule",
        "1-0" | "0-1" => {
            let loser = if result == "1-0" {
                Color::Black
            } else {
                Color::White
            };
            // The server sends the clocks, the loser's at 0, before a loss on time.
            if game.clock.reported(loser) == 0 && !(loser == game.ours() && game.resigned) {
                "time"
            } else {
                "resignation"
            }
        }
        _ => "aborted",
    }
}

/// A finished game's record, with the tags of the game: the server's, `Rated` (`yes` or `no`),
/// and `Termination` (how it ended: `road`, `flats`, `time`, `resignation`, `abandonment`,
/// `agreement`, `draw rule` or `aborted`).
pub fn game_record(
    server: &str,
    start: &GameStart,
    moves: &[String],
    result: &str,
    termination: &str,
) -> PtnGame {
    let plies = moves
        .iter()
        .filter_map(|m| m.parse::<PtnMove>().ok())
        .map(|mv| PtnPly {
            mv,
            crush_mark: false,
            annotations: String::new(),
            comments: Vec::new(),
            line: 0,
            column: 0,
        })
        .collect();
    let tags = [
        ("Site", server.to_string()),
        ("Event", format!("playtak game {}", start.game)),
        ("Date", crate::timestamp::today()),
        ("Player1", start.white.clone()),
        ("Player2", start.black.clone()),
        ("Size", start.size.to_string()),
        ("Clock", format!("{}+{}", start.time, start.inc)),
        ("Komi", format!("{}", f64::from(start.half_komi) / 2.0)),
        ("Flats", start.flats.to_string()),
        ("Caps", start.caps.to_string()),
        ("Result", result.to_string()),
        (
            "Rated",
            if start.unrated { "no" } else { "yes" }.to_string(),
        ),
        ("Termination", termination.to_string()),
    ];
    PtnGame {
        tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        comments: Vec::new(),
        plies,
        result: Some(result.to_string()),
    }
}

/// `YYYY.MM.DD-HHMMSS-gameN-WHITE-BLACK.ptn`, names reduced to letters, digits and `_`.
fn ptn_file_name(start: &GameStart) -> String {
    let stamp = crate::timestamp::utc_timestamp(std::time::SystemTime::now());
    let time: String = stamp
        .get(11..19)
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    let clean = |name: &str| -> String {
        name.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    };
    format!(
        "{}-{time}-game{}-{}-{}.ptn",
        crate::timestamp::today(),
        start.game,
        clean(&start.white),
        clean(&start.black)
    )
}
