//! Playing strength levels (`Level`, `Seed`; `crates/engine/src/level.rs`): a weaker level plays
//! legal moves at every size and komi, replays a game move for move with the same seed, varies
//! with another seed, never walks into a road it could stop, and is offered over TEI.

use cairn_engine::engine::{Engine, Options, SearchEvent, Start};
use cairn_engine::level::{FULL, WEAKEST};
use cairn_search::Limits;
use cairn_tak::board::{GameResult, Komi};
use std::sync::{Arc, Mutex};

/// Searches `engine`'s position within `limits` and returns the move it reports, in PTN.
fn best_move(engine: &mut Engine, limits: Limits) -> String {
    let played = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&played);
    engine.search_blocking(
        limits,
        Arc::new(move |event| {
            if let SearchEvent::BestMove(mv) = event {
                *sink.lock().unwrap() = mv;
            }
        }),
    );
    let mv = played.lock().unwrap().clone();
    assert!(!mv.is_empty(), "no best move");
    mv
}

/// Plays a game of `size` from the empty board between two levels, each with its own seed,
/// for at most `plies` plies: the moves and the result, if the game ended.
fn play(
    size: usize,
    komi: Komi,
    levels: [u8; 2],
    seeds: [u64; 2],
    plies: usize,
) -> (Vec<String>, Option<GameResult>) {
    let mut engines = [0, 1].map(|side| {
        let mut engine = Engine::with_options(Options {
            level: levels[side],
            seed: seeds[side],
            komi,
            hash_mb: 4,
            ..Options::default()
        });
        engine.new_game(size).unwrap();
        engine
    });
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..plies {
        let engine = &mut engines[ply % 2];
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        engine.set_position(&Start::StartPos, &texts).unwrap();
        if let Some(result) = engine.result() {
            return (moves, Some(result));
        }
        // The move must be legal where it is played: the next set_position replays it.
        moves.push(best_move(engine, Limits::default()));
    }
    let engine = &mut engines[0];
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.set_position(&Start::StartPos, &texts).unwrap();
    (moves, engine.result())
}

#[test]
fn the_same_seed_replays_the_same_game_and_another_seed_varies_it() {
    let first = play(5, Komi::ZERO, [2, 4], [7, 8], 24);
    let again = play(5, Komi::ZERO, [2, 4], [7, 8], 24);
    assert_eq!(first, again);
    let other = play(5, Komi::ZERO, [2, 4], [9, 10], 24);
    assert_ne!(
        first.0, other.0,
        "a hot level picks differently with another seed"
    );
}

#[test]
fn every_level_plays_legal_moves_at_every_size_and_komi() {
    for size in 3..=8 {
        for (level, komi) in [(WEAKEST, 0), (3, 4), (5, -2), (7, 1)] {
            let komi = Komi::from_halves(komi).unwrap();
            let (moves, _) = play(size, komi, [level, level], [1, 2], 6);
            assert!(!moves.is_empty(), "size {size} level {level}");
        }
    }
}

#[test]
fn a_beginner_still_stops_a_road_in_one() {
    // White has a5-d5 and threatens e5; Black to move must block it whatever the seed.
    for seed in 0..16 {
        let mut engine = Engine::with_options(Options {
            level: WEAKEST,
            seed,
            hash_mb: 4,
            ..Options::default()
        });
        engine.new_game(5).unwrap();
        let tps = Start::Tps("1,1,1,1,x/x5/x5/x,2,2,x2/x5 2 5".to_string());
        engine.set_position(&tps, &[]).unwrap();
        let best = best_move(&mut engine, Limits::default());
        assert!(best.ends_with("e5"), "seed {seed}: {best}");
    }
}

#[test]
fn full_strength_is_the_default_and_the_weakest_level_loses_to_it() {
    assert_eq!(Options::default().level, FULL);
    // Depth-limited searches are not needed here: the weakest level looks one ply ahead, while
    // the default engine is held to four plies by the test's limits (no clock).
    let (moves, result) = play_with_full_depth(4);
    assert!(
        matches!(result, Some(r) if r.winner() == Some(cairn_tak::board::Color::White)),
        "{moves:?} {result:?}"
    );
}

/// The weakest level as Black against the default engine at `depth` plies as White, on 5×5.
fn play_with_full_depth(depth: u32) -> (Vec<String>, Option<GameResult>) {
    let mut strong = Engine::with_options(Options {
        hash_mb: 4,
        ..Options::default()
    });
    let mut weak = Engine::with_options(Options {
        level: WEAKEST,
        seed: 3,
        hash_mb: 4,
        ..Options::default()
    });
    strong.new_game(5).unwrap();
    weak.new_game(5).unwrap();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..200 {
        let engine = if ply % 2 == 0 { &mut strong } else { &mut weak };
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        engine.set_position(&Start::StartPos, &texts).unwrap();
        if let Some(result) = engine.result() {
            return (moves, Some(result));
        }
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        moves.push(best_move(engine, limits));
    }
    (moves, None)
}
