//! Cairn's moves: a search starts when it is Cairn's turn (and the game is back on the
//! connection), its events come back tagged with their generation, and the move found goes
//! out, or waits for the resumed game when the connection dropped meanwhile.

use super::game::MAX_REFUSED_MOVES;
use super::server::Pending;
use super::session::Event;
use super::Client;
use crate::engine::{self, SearchEvent};
use crate::playtak::protocol;
use cairn_tak::notation::PtnMove;
use std::sync::Arc;
use std::time::Instant;

impl Client {
    /// Starts a search if it is Cairn's turn and none runs for this position; stops one that
    /// no longer fits.
    pub(super) fn maybe_search(&mut self) {
        if self
            .searched
            .as_ref()
            .is_some_and(|(generation, _)| *generation == self.generation)
        {
            return;
        }
        // A search of an older position does not fit any more.
        self.stop_search();
        let Some(game) = &mut self.game else {
            return;
        };
        if let Some(until) = game.settling {
            if Instant::now() < until {
                return;
            }
            game.settling = None;
        }
        if game.to_move() != game.ours()
            || game.refused >= MAX_REFUSED_MOVES
            || self.engine.result().is_some()
            || !self.may_move()
        {
            return;
        }
        if let Some((moves, best)) = self.queued.take() {
            if self.game.as_ref().is_some_and(|g| g.moves == moves) {
                log::info!("playing {best}, found before the connection dropped");
                self.play(&best);
                return;
            }
        }
        let Some(game) = &mut self.game else {
            return;
        };
        let limits = game.clock.think(game.ours(), game.start.inc);
        let generation = self.generation;
        let tx = self.tx.clone();
        let reporter: engine::Reporter = Arc::new(move |event| {
            let _ = tx.send(Event::Search(generation, event));
        });
        let moves = game.moves.clone();
        match self.engine.go(limits, reporter) {
            Ok(()) => self.searched = Some((generation, moves)),
            Err(e) => log::error!("cannot start the search: {e}"),
        }
    }

    /// Whether a move may go out now: logged in, on the connection that (re)started the game,
    /// its resent moves in, and not resigned (a resigned game only waits for the server's
    /// `Over`: no new search, no move).
    fn may_move(&self) -> bool {
        self.name.is_some()
            && self.conn.is_some()
            && self.awaiting_resume.is_none()
            && self
                .game
                .as_ref()
                .is_some_and(|g| g.conn == self.conn_id && g.settling.is_none() && !g.resigned)
    }

    /// Stops the search if one runs (its best move still arrives, and is dropped or queued).
    pub(super) fn stop_search(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }

    /// An event of the search of `generation`: a score (which may answer a draw offer), a
    /// message, or the best move, played if the search still fits the game.
    pub(super) fn on_search(&mut self, generation: u64, event: SearchEvent) {
        let current = generation == self.generation;
        match event {
            SearchEvent::Info(info) => {
                if let (true, Some(game)) = (current, &mut self.game) {
                    if info.multipv == 1 {
                        game.score = Some((game.moves.len(), info.score.0));
                        self.answer_draw();
                    }
                }
            }
            SearchEvent::Message(text) => log::info!("engine: {text}"),
            SearchEvent::BestMove(best) => {
                log::debug!(
                    "best move {best} of search {generation} (now {}, last started {:?})",
                    self.generation,
                    self.searched.as_ref().map(|s| s.0)
                );
                if current && self.may_move() {
                    if self.lost_by_own_judgement() {
                        self.resign();
                        return;
                    }
                    self.play(&best);
                    self.answer_draw();
                } else if !current {
                    // The position changed meanwhile (an undo, a new move): the move answers
                    // nothing now.
                    log::debug!("{best} answers an earlier position; dropped");
                } else if let Some((_, moves)) = self
                    .searched
                    .take_if(|(searched, _)| *searched == generation)
                {
                    log::info!("{best} found, but the game is not back yet; keeping it");
                    self.queued = Some((moves, best));
                }
            }
        }
    }

    /// Sends Cairn's move `best` and sets the engine's position after it.
    fn play(&mut self, best: &str) {
        let Some(game) = &mut self.game else {
            return;
        };
        let no = game.start.game;
        let command = best
            .parse::<PtnMove>()
            .ok()
            .and_then(|mv| protocol::move_to_server(&mv));
        let Some(command) = command else {
            log::error!("game {no}: the engine gave no playable move (`{best}`)");
            return;
        };
        game.moves.push(best.to_string());
        game.clock.moved();
        log::debug!("game {no}: playing {best}");
        self.generation += 1;
        if let Err(e) = self.sync_engine() {
            log::error!("game {no}: own move {best}: {e}");
        }
        self.send_expecting(&format!("Game#{no} {command}"), Pending::Move);
    }
}
