//! The game in progress as the server reports it: its start (or its resumption after a
//! reconnection), the engine's position kept on the game's moves, the opponent's moves and
//! undos, Cairn's moves the server refused, and the game's end.

use super::clock::Clock;
use super::record::termination;
use super::server::Pending;
use super::Client;
use crate::engine::Start;
use crate::playtak::protocol::GameStart;
use cairn_tak::board::{reserves_for_size, Color, Komi};
use cairn_tak::notation::PtnMove;
use std::time::{Duration, Instant};

/// How long a resumed game waits for its clocks (the end of the resent moves) before playing.
const RESUME_SETTLE: Duration = Duration::from_secs(2);
/// Moves of one game the server may refuse before Cairn resigns it.
pub(super) const MAX_REFUSED_MOVES: u32 = 2;

/// The game in progress on the server, as the client follows it.
pub(super) struct ServerGame {
    pub(super) start: GameStart,
    /// Plies so far, canonical PTN.
    pub(super) moves: Vec<String>,
    /// The clocks, as the server reports them, and the lag measured on them.
    pub(super) clock: Clock,
    /// Moves of ours the server refused.
    pub(super) refused: u32,
    /// While resent moves are arriving: play only after this (or after the clocks).
    pub(super) settling: Option<Instant>,
    /// The last search score: `(plies when searched, centiflats from Cairn's view)`.
    pub(super) score: Option<(usize, i32)>,
    /// The connection on which the server last sent this game's `Game Start`: moves go out
    /// only on that connection, once logged in.
    pub(super) conn: u64,
    /// The opponent offers a draw and Cairn has not answered yet.
    pub(super) draw_offered: bool,
    /// Cairn accepted a draw offer.
    pub(super) draw_accepted: bool,
    /// Cairn resigned.
    pub(super) resigned: bool,
    /// Cairn's moves in a row whose evaluation was below
    /// [`RESIGN_BELOW`](super::policy::RESIGN_BELOW).
    pub(super) losing_moves: u32,
}

impl ServerGame {
    /// Cairn's colour.
    pub(super) fn ours(&self) -> Color {
        self.start.color
    }

    /// The side to move.
    pub(super) fn to_move(&self) -> Color {
        if self.moves.len() % 2 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl Client {
    /// Whether `game` is the game in progress.
    pub(super) fn is_current(&self, game: u64) -> bool {
        self.game.as_ref().is_some_and(|g| g.start.game == game)
    }

    /// `Game Start`: a new game, or the game in progress resent after a reconnection.
    pub(super) fn on_game_start(&mut self, start: GameStart) {
        self.answered(|p| matches!(p, Pending::Accept));
        self.accepting = None;
        let resumed = self.is_current(start.game) || self.awaiting_resume.is_some();
        self.awaiting_resume = None;
        if !resumed {
            if let Some(old) = &self.game {
                log::warn!("game {} was left without a result", old.start.game);
            }
            self.queued = None;
        }
        self.stop_search();
        self.generation += 1;
        let mut options = self.engine.options().clone();
        let ready = Komi::from_halves(i64::from(start.half_komi))
            .map_err(|e| format!("komi of {} half flats: {e}", start.half_komi))
            .and_then(|komi| {
                options.komi = komi;
                // A weaker level's choices vary from game to game and replay with the game's
                // number and --seed.
                options.seed =
                    cairn_search::rng::mix(self.config.engine.seed ^ start.game) & i32::MAX as u64;
                self.engine.set_options(options)
            })
            .and_then(|()| self.engine.new_game(start.size));
        let time_ms = start.time * 1000;
        let game = start.game;
        log::info!(
            "game {game} {}: {} vs {}, {}x{}, {}+{}, komi {}; Cairn plays {}",
            if resumed { "resumed" } else { "started" },
            start.white,
            start.black,
            start.size,
            start.size,
            start.time,
            start.inc,
            f64::from(start.half_komi) / 2.0,
            if start.color == Color::White {
                "white"
            } else {
                "black"
            }
        );
        let standard = reserves_for_size(start.size)
            .is_some_and(|(s, c)| u32::from(s) == start.flats && u32::from(c) == start.caps);
        if ready.is_ok() && !standard {
            log::warn!(
                "game {game} uses {} flats and {} capstones; Cairn plays as if the pieces \
                 were standard",
                start.flats,
                start.caps
            );
        }
        self.game = Some(ServerGame {
            start,
            moves: Vec::new(),
            clock: Clock::new(time_ms),
            refused: 0,
            settling: resumed.then(|| Instant::now() + RESUME_SETTLE),
            score: None,
            conn: self.conn_id,
            draw_offered: false,
            draw_accepted: false,
            resigned: false,
            losing_moves: 0,
        });
        if let Err(e) = ready {
            log::error!("game {game}: {e}; resigning");
            self.resign();
        } else if !resumed {
            self.greet();
        }
    }

    /// Sets the engine's position to the game's moves.
    pub(super) fn sync_engine(&mut self) -> Result<(), String> {
        let Some(game) = &self.game else {
            return Ok(());
        };
        let moves: Vec<&str> = game.moves.iter().map(String::as_str).collect();
        self.engine.set_position(&Start::StartPos, &moves)
    }

    /// A move of the game in progress (the opponent's, or a resent one).
    pub(super) fn on_move(&mut self, mv: &PtnMove) {
        let Some(game) = &mut self.game else {
            return;
        };
        game.moves.push(mv.to_string());
        let no = game.start.game;
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            if let Some(game) = &mut self.game {
                game.moves.pop();
            }
            log::error!("game {no}: the server's move `{mv}` does not fit: {e}; resigning");
            self.resign();
        }
    }

    /// `Undo`: the last move is taken back.
    pub(super) fn on_undo(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        if let Some(mv) = game.moves.pop() {
            log::info!("game {}: {mv} taken back", game.start.game);
        }
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            log::error!("after an undo: {e}");
        }
    }

    /// The server refused Cairn's move: it is taken back, and after [`MAX_REFUSED_MOVES`] the
    /// game is resigned.
    pub(super) fn move_refused(&mut self) {
        let Some(game) = &mut self.game else {
            return;
        };
        let ours = game.ours();
        if game.to_move() != ours {
            if let Some(mv) = game.moves.pop() {
                log::warn!("game {}: the server refused {mv}", game.start.game);
            }
        }
        game.refused += 1;
        let (no, refused) = (game.start.game, game.refused);
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            log::error!("after a refused move: {e}");
        }
        if refused >= MAX_REFUSED_MOVES {
            log::error!("game {no}: {refused} moves refused; resigning");
            self.resign();
        }
    }

    /// The opponent abandoned the game: Cairn wins it.
    pub(super) fn on_abandoned(&mut self) {
        let result = match self.game.as_ref().map(ServerGame::ours) {
            Some(Color::White) => "1-0",
            _ => "0-1",
        };
        self.finish(result, true);
    }

    /// The game in progress is over: its record is kept and written, and a new game is looked
    /// for unless the session is ending.
    pub(super) fn finish(&mut self, result: &str, abandoned: bool) {
        self.stop_search();
        self.generation += 1;
        self.queued = None;
        let by_rules = self.engine.result();
        let Some(game) = self.game.take() else {
            return;
        };
        let how = termination(&game, result, abandoned, by_rules);
        self.games_done += 1;
        log::info!(
            "game {} over: {result} ({how}); {} vs {}, {} plies",
            game.start.game,
            game.start.white,
            game.start.black,
            game.moves.len()
        );
        self.keep_ended(game, result, how);
        if !self.no_new_game() {
            self.look_for_game();
        }
    }
}
