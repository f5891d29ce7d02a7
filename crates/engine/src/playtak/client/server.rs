//! The lines exchanged with the server: sending a command (and keeping secrets out of the
//! transcript), the commands that wait for an answer, and each server line handed to the
//! handler of its concern.
//!
//! `OK` and `NOK` carry no name: they answer the commands in the order sent. The client keeps a
//! queue of the commands that get one of them (`PING`, moves, answers to undo and draw offers,
//! `Accept` and `Login` when they fail) and so knows which command a `NOK` refused.

use super::session::Failure;
use super::Client;
use crate::playtak::protocol::{self, ServerMsg};

/// A command waiting for its `OK` or `NOK`.
#[derive(Debug)]
pub(super) enum Pending {
    /// A command whose refusal only needs logging.
    Command(String),
    /// A move of the current game.
    Move,
    /// `Accept`: answered by `Game Start`, or `NOK`.
    Accept,
    /// `Login`: answered by `Welcome NAME!`, `Authentication failure`, or `NOK` (a name or
    /// password of a shape the server does not take).
    Login,
}

impl Client {
    /// Sends a line that gets no `OK`.
    pub(super) fn send(&mut self, line: &str) {
        if let Some(t) = &self.config.transcript {
            // Neither the password nor a guest's token (which brings back the guest) reaches
            // the transcript.
            match line.strip_prefix("Login ") {
                Some(rest) if rest.contains(' ') => {
                    let name = rest.split(' ').next().unwrap_or_default();
                    t.output(&format!("Login {name} ********"));
                }
                _ => t.output(line),
            }
        }
        let Some(conn) = &mut self.conn else {
            return;
        };
        if let Err(e) = conn.send(line) {
            self.broken.get_or_insert(e.to_string());
        }
    }

    /// Sends a line that gets an `OK` or a `NOK`, remembering what it was.
    pub(super) fn send_expecting(&mut self, line: &str, pending: Pending) {
        self.pending.push_back(pending);
        self.send(line);
    }

    /// Takes the first pending command that `is` (an answer that is not `OK`/`NOK`).
    pub(super) fn answered(&mut self, is: impl Fn(&Pending) -> bool) {
        if let Some(i) = self.pending.iter().position(is) {
            self.pending.remove(i);
        }
    }

    /// One line from the server; an error ends the session.
    pub(super) fn on_line(&mut self, line: &str) -> Result<(), Failure> {
        let msg = match protocol::parse_line(line) {
            Ok(msg) => msg,
            Err(e) => {
                log::warn!("{e}");
                return Ok(());
            }
        };
        match msg {
            ServerMsg::Hello | ServerMsg::Ignored => {}
            ServerMsg::LoginPrompt => self.log_in(),
            ServerMsg::LoggedIn(name) => self.on_logged_in(name),
            ServerMsg::AuthFailure => {
                return Err(format!(
                    "login as {} failed: the server says `Authentication failure` \
                     (check the user name and the password)",
                    self.login_name()
                )
                .into());
            }
            ServerMsg::Ok => {
                self.pending.pop_front();
            }
            ServerMsg::Nok => self.on_nok()?,
            ServerMsg::Error(reason) => log::warn!("server error: {reason}"),
            ServerMsg::SeekNew(seek) => self.on_seek(&seek),
            ServerMsg::SeekRemove(no) => {
                self.declined.remove(&no);
            }
            ServerMsg::GameStart(start) => self.on_game_start(start),
            ServerMsg::Move { game, mv } if self.is_current(game) => self.on_move(&mv),
            ServerMsg::Move { game, mv } if self.ended.as_ref().is_some_and(|e| e.is(game)) => {
                self.late_move(&mv)
            }
            ServerMsg::Timems { game, white, black } if self.is_current(game) => {
                self.on_clocks(white, black);
            }
            ServerMsg::Over { game, result } if self.is_current(game) => {
                self.finish(&result, false);
            }
            ServerMsg::Abandoned { game } if self.is_current(game) => self.on_abandoned(),
            ServerMsg::OfferDraw(game) if self.is_current(game) => self.on_draw_offer(),
            ServerMsg::RequestUndo(game) if self.is_current(game) => self.on_undo_request(game),
            ServerMsg::RemoveDraw(game) if self.is_current(game) => self.on_draw_withdrawn(game),
            ServerMsg::RemoveUndo(game) if self.is_current(game) => {
                log::info!("game {game}: the opponent withdrew the undo request");
            }
            ServerMsg::Undo(game) if self.is_current(game) => self.on_undo(),
            ServerMsg::Message(text) => self.on_server_message(&text)?,
            other => log::debug!("not for the current game: {other:?}"),
        }
        Ok(())
    }

    /// `NOK`: the oldest command waiting was refused.
    fn on_nok(&mut self) -> Result<(), String> {
        match self.pending.pop_front() {
            Some(Pending::Login) => {
                return Err(format!(
                    "login as {} refused: the server answers `NOK` (a user name is a letter \
                     and 3 to 15 letters, digits or _, a password 6 to 50 characters without \
                     spaces; is {} the server's telnet port?)",
                    self.login_name(),
                    self.config.server
                ))
            }
            Some(Pending::Move) => self.move_refused(),
            Some(Pending::Accept) => {
                log::warn!("the server refused to start the game (the seek is gone?)");
                self.accepting = None;
            }
            Some(Pending::Command(command)) => log::warn!("the server refused `{command}`"),
            None => log::warn!("NOK with no command waiting"),
        }
        Ok(())
    }
}
