//! Brute force: full-width minimax over **all** legal moves, the independent check of the
//! prover (tests, and the generator of the tactics files).
//!
//! [`forced_road`] answers "can the side to move force a road within `plies` plies?" with the
//! same meaning of a win as the prover: only the attacker's road counts; any other end of the
//! game (the defender's road, a flat count, a draw) is a failure. Only the rules are used
//! ([`Position::result`]), never the road-in-one detector, unless `fast` is asked for: then the
//! last attacker ply asks [`Position::winning_move`] instead of trying every move (much faster,
//! for deep checks). Allocates per node; not for the engine.

use crate::board::{Color, GameResult, Position};

/// Whether the side to move forces a road within `plies` plies (1, 3, 5, ...), trying every
/// legal move on both sides. `fast` uses the road-in-one detector on the last ply.
pub fn forced_road<const N: usize>(pos: &mut Position<N>, plies: u32, fast: bool) -> bool {
    if pos.is_over() {
        return false;
    }
    let attacker = pos.side_to_move();
    attack(pos, attacker, plies, fast)
}

/// The fewest plies (odd, at most `max_plies`) in which the side to move forces a road, if any.
pub fn shortest_forced_road<const N: usize>(
    pos: &mut Position<N>,
    max_plies: u32,
    fast: bool,
) -> Option<u32> {
    (1..=max_plies)
        .step_by(2)
        .find(|&plies| forced_road(pos, plies, fast))
}

fn attack<const N: usize>(pos: &mut Position<N>, attacker: Color, plies: u32, fast: bool) -> bool {
    if plies == 0 {
        return false;
    }
    if fast && plies == 1 {
        return pos.winning_move().is_some();
    }
    let moves = pos.legal_moves();
    for &mv in &moves {
        let undo = pos.make(mv);
        let wins = pos.result() == Some(GameResult::Road(attacker));
        pos.unmake(mv, undo);
        if wins {
            return true;
        }
    }
    if plies < 3 {
        return false;
    }
    for &mv in &moves {
        let undo = pos.make(mv);
        let wins = pos.result().is_none() && defend(pos, attacker, plies - 1, fast);
        pos.unmake(mv, undo);
        if wins {
            return true;
        }
    }
    false
}

/// Whether every defender move loses to a road within `plies` plies (the defender's included).
fn defend<const N: usize>(pos: &mut Position<N>, attacker: Color, plies: u32, fast: bool) -> bool {
    let moves = pos.legal_moves();
    for &mv in &moves {
        let undo = pos.make(mv);
        let lost = match pos.result() {
            Some(result) => result == GameResult::Road(attacker),
            None => attack(pos, attacker, plies - 1, fast),
        };
        pos.unmake(mv, undo);
        if !lost {
            return false;
        }
    }
    true
}
