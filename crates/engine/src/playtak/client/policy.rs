//! The decisions the options make: which seek to post or which to accept (the accept filter),
//! the answers to draw offers and undo requests, when to resign, and what to say to the
//! opponent.

use super::server::Pending;
use super::{Client, Mode};
use crate::playtak::protocol::SeekInfo;
use cairn_search::Limits;
use cairn_tak::board::{reserves_for_size, Color};
use cairn_tak::notation::counted;
use std::sync::Arc;

/// Nodes of the search that judges a draw offer when no recent score is at hand.
const DRAW_EVAL_NODES: u64 = 20_000;
/// A draw is accepted at or below this score (centiflats, Cairn's view): not winning.
const DRAW_ACCEPT_MAX: i32 = 0;
/// With `--resign`: a game is resigned when the search proves a loss, or when the evaluation
/// of Cairn's move is below minus this many centiflats ...
pub const RESIGN_BELOW: i32 = 800;
/// ... for this many of its moves in a row.
pub const RESIGN_AFTER_MOVES: u32 = 6;

/// Which seeks to accept (besides the standard pieces and a seek open to Cairn).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AcceptFilter {
    /// The seeker; `None`: anyone.
    pub player: Option<String>,
    /// Board sizes; empty: any.
    pub sizes: Vec<usize>,
    /// Starting time, seconds, from and to.
    pub time: Option<(u64, u64)>,
    /// Rated games only (`Some(true)`), unrated only (`Some(false)`), or either.
    pub rated: Option<bool>,
}

impl AcceptFilter {
    /// Why `seek` does not pass, if it does not.
    pub fn refuses(&self, seek: &SeekInfo) -> Option<String> {
        if let Some(player) = &self.player {
            if !seek.name.eq_ignore_ascii_case(player) {
                return Some(format!("not by {player}"));
            }
        }
        if !self.sizes.is_empty() && !self.sizes.contains(&seek.size) {
            return Some(format!("size {} not accepted", seek.size));
        }
        if let Some((from, to)) = self.time {
            if !(from..=to).contains(&seek.time) {
                return Some(format!("{} s not in {from} to {to} s", seek.time));
            }
        }
        match self.rated {
            Some(true) if seek.unrated => Some("unrated".to_string()),
            Some(false) if !seek.unrated => Some("rated".to_string()),
            _ => None,
        }
    }
}

impl Client {
    /// Posts the next seek, or asks for the seeks to accept one (not after a stop request).
    pub(super) fn look_for_game(&mut self) {
        if self.stops > 0 {
            return;
        }
        match &self.config.mode {
            Mode::Seek(seeks) => {
                let Some(seek) = seeks.get(self.next_seek % seeks.len().max(1)) else {
                    return;
                };
                self.next_seek += 1;
                let line = seek.command();
                log::info!("seeking: {}", line.trim_end());
                self.send(&line);
            }
            Mode::Accept(filter) => {
                let by = filter.player.as_deref().unwrap_or("anyone");
                log::info!("waiting for a seek by {by}");
                // The seeks are resent, so one posted during the last game is seen too.
                self.send("List");
            }
        }
    }

    /// A seek on the server: accepted when accepting, free, and the seek passes the filter, is
    /// open to Cairn and uses the standard pieces.
    pub(super) fn on_seek(&mut self, seek: &SeekInfo) {
        let Mode::Accept(filter) = &self.config.mode else {
            return;
        };
        if self.game.is_some()
            || self.accepting.is_some()
            || self.awaiting_resume.is_some()
            || self.stops > 0
        {
            return;
        }
        let me = self.name.as_deref().unwrap_or_default();
        if seek.name.eq_ignore_ascii_case(me) {
            return;
        }
        // The server lists the open seeks at login and again for `List`: each is judged once.
        if self.declined.contains(&seek.no) {
            return;
        }
        if let Some(why) = filter.refuses(seek) {
            log::debug!("not accepting seek {} by {}: {why}", seek.no, seek.name);
            self.declined.insert(seek.no);
            return;
        }
        if seek
            .opponent
            .as_ref()
            .is_some_and(|o| !o.eq_ignore_ascii_case(me))
        {
            return;
        }
        let standard = reserves_for_size(seek.size)
            .is_some_and(|(s, c)| u32::from(s) == seek.flats && u32::from(c) == seek.caps);
        if !standard {
            log::warn!(
                "not accepting seek {} by {}: {}x{} with {} and {}; Cairn plays sizes 3 to 8 \
                 with the standard pieces",
                seek.no,
                seek.name,
                seek.size,
                seek.size,
                counted(seek.flats.into(), "flat"),
                counted(seek.caps.into(), "capstone")
            );
            self.declined.insert(seek.no);
            return;
        }
        log::info!("accepting seek {} by {}", seek.no, seek.name);
        self.accepting = Some(seek.no);
        self.send_expecting(&format!("Accept {}", seek.no), Pending::Accept);
    }

    /// The opponent offers a draw.
    pub(super) fn on_draw_offer(&mut self) {
        if let Some(g) = &mut self.game {
            g.draw_offered = true;
        }
        self.answer_draw();
    }

    /// The opponent withdrew the draw offer of `game`.
    pub(super) fn on_draw_withdrawn(&mut self, game: u64) {
        log::info!("game {game}: the opponent withdrew the draw offer");
        if let Some(g) = &mut self.game {
            g.draw_offered = false;
        }
    }

    /// Answers a standing draw offer by policy: at once if `--accept-draw` is off, else as soon
    /// as there is an evaluation (the running search's first iteration, at the latest its move).
    pub(super) fn answer_draw(&mut self) {
        let Some(game) = &self.game else {
            return;
        };
        if !game.draw_offered {
            return;
        }
        let no = game.start.game;
        if !self.config.accept_draw {
            log::info!("game {no}: draw offer declined (--accept-draw is off)");
            self.draw_answered(false);
            self.tell("Thank you, but I do not take draws.");
            return;
        }
        match self.score_for_us() {
            Some(score) if score <= DRAW_ACCEPT_MAX => {
                log::info!("game {no}: accepting the draw offer (eval {score:+} centiflats)");
                self.draw_answered(true);
                let line = format!("Game#{no} OfferDraw");
                self.send_expecting(&line, Pending::Command(line.clone()));
            }
            Some(score) => {
                log::info!("game {no}: draw offer declined (eval {score:+} centiflats)");
                self.draw_answered(false);
                self.tell("Thank you, but I would rather play on.");
            }
            None => log::info!("game {no}: draw offer kept until the search has an evaluation"),
        }
    }

    fn draw_answered(&mut self, accepted: bool) {
        if let Some(game) = &mut self.game {
            game.draw_offered = false;
            game.draw_accepted |= accepted;
        }
    }

    /// The evaluation from Cairn's side: the last search's score if it is recent (this
    /// position or the one before), else a short search of this one (when none is running).
    fn score_for_us(&mut self) -> Option<i32> {
        let game = self.game.as_ref()?;
        let plies = game.moves.len();
        if let Some((at, score)) = game.score {
            if at + 1 >= plies {
                return Some(score);
            }
        }
        if self.engine.is_searching() {
            return None;
        }
        let ours = game.to_move() == game.ours();
        let result = self.engine.search_blocking(
            Limits {
                nodes: Some(DRAW_EVAL_NODES),
                ..Limits::default()
            },
            Arc::new(|_| {}),
        );
        let score = result.score.0;
        Some(if ours { score } else { -score })
    }

    /// The opponent asks to take back a move of `game`: granted with `--accept-undo`.
    pub(super) fn on_undo_request(&mut self, game: u64) {
        if self.config.accept_undo {
            log::info!("game {game}: granting the opponent's undo request");
            let line = format!("Game#{game} RequestUndo");
            self.send_expecting(&line, Pending::Command(line.clone()));
        } else {
            log::info!("game {game}: undo request not granted (--accept-undo is off)");
            self.tell("Sorry, I do not take moves back.");
        }
    }

    /// With `--resign`, after a search of Cairn's move: whether the game is lost by its own
    /// judgement (a proven loss, or [`RESIGN_AFTER_MOVES`] evaluations in a row below
    /// [`RESIGN_BELOW`]).
    pub(super) fn lost_by_own_judgement(&mut self) -> bool {
        let Some(game) = &mut self.game else {
            return false;
        };
        let Some((_, score)) = game.score.filter(|(at, _)| *at == game.moves.len()) else {
            return false;
        };
        let no = game.start.game;
        game.losing_moves = if score < -RESIGN_BELOW {
            game.losing_moves + 1
        } else {
            0
        };
        if !self.config.resign {
            return false;
        }
        let score = cairn_search::score::Score(score);
        if let Some((false, plies, kind)) = score.proven() {
            let how = match kind {
                cairn_search::score::WinKind::Outright => "a road",
                cairn_search::score::WinKind::Count => "a win on flats",
            };
            let plies = if plies == 1 {
                "1 ply".to_string()
            } else {
                format!("{plies} plies")
            };
            log::info!(
                "game {no}: resigning, the search proves a loss: the opponent has {how} within \
                 {plies}"
            );
            return true;
        }
        if game.losing_moves >= RESIGN_AFTER_MOVES {
            log::info!(
                "game {no}: resigning, evaluated below -{} flats for {} moves in a row",
                RESIGN_BELOW / 100,
                game.losing_moves
            );
            return true;
        }
        false
    }

    /// Resigns the game in progress. A search still running is stopped and forgotten: its move
    /// answers a game that is over, so it is not kept for a resumption.
    pub(super) fn resign(&mut self) {
        self.stop_search();
        self.searched = None;
        self.generation += 1;
        let Some(game) = &mut self.game else {
            return;
        };
        game.resigned = true;
        let line = format!("Game#{} Resign", game.start.game);
        self.send(&line);
    }

    /// Greets the opponent at the start of a game.
    pub(super) fn greet(&mut self) {
        let level = crate::level::Level::new(self.config.engine.level);
        self.tell(&format!(
            "Hi! I am Cairn {}, a Tak engine, playing at {}. Have a good game!",
            env!("CARGO_PKG_VERSION"),
            level.describe()
        ));
    }

    /// Says `text` to the opponent (unless `--quiet`).
    fn tell(&mut self, text: &str) {
        let Some(game) = &self.game else {
            return;
        };
        if self.config.quiet {
            return;
        }
        let opponent = match game.ours() {
            Color::White => &game.start.black,
            Color::Black => &game.start.white,
        };
        let line = format!("Tell {opponent} {text}");
        self.send(&line);
    }
}
