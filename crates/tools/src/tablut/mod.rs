//! What `cairn tablut` does: analyse a position, count the move tree, play a person in the
//! terminal, and play the engine against itself at two time controls. The subcommands'
//! arguments are in [`args`]; the command line (in the binary) parses them and calls these, and
//! input and output are passed in, so that tests can drive a whole terminal game.

pub mod args;
pub mod tune;

use cairn_search::rng::Rng;
use cairn_search::score::Score;
use cairn_search::{
    self as search, Limits, SearchConfig, SearchInfo, SearchResult, TranspositionTable,
};
use cairn_tablut::board::{Position, Side};
use cairn_tablut::eval::TERMS;
use cairn_tablut::game::{Status, TablutGame};
use cairn_tablut::notation;
use cairn_tablut::search::WeightedPosition;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A score as Tablut players read it: `+1.25` (guards, the side to move's view), `win in 3`,
/// `loss in 4`.
pub fn score_text(score: Score) -> String {
    match score.proven() {
        Some((true, plies, _)) => format!("win in {plies}"),
        Some((false, plies, _)) => format!("loss in {plies}"),
        None => format!("{:+.2}", score.0 as f64 / 100.0),
    }
}

/// How hard the engine thinks: a fixed depth, or else milliseconds a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Search to this depth (no clock).
    pub depth: Option<u32>,
    /// Milliseconds a move, when there is no depth.
    pub movetime_ms: u64,
    /// Search threads.
    pub threads: usize,
    /// Table size, MiB.
    pub hash_mb: usize,
    /// The evaluation's weights.
    pub weights: &'static [i32; TERMS],
}

impl Effort {
    fn limits(&self) -> Limits {
        match self.depth {
            Some(depth) => Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(self.movetime_ms),
                ..Limits::default()
            },
        }
    }
}

/// Searches the current position of `game`, calling `report` for each finished iteration.
pub fn think(
    game: &TablutGame,
    effort: &Effort,
    tt: &TranspositionTable,
    report: &(dyn Fn(&SearchInfo) + Sync),
) -> SearchResult<cairn_tablut::Move> {
    let config = SearchConfig {
        threads: effort.threads.max(1),
        multipv: 1,
        move_overhead_ms: 0,
        ..SearchConfig::default()
    };
    let stop = AtomicBool::new(false);
    search::search(
        &WeightedPosition {
            pos: game.position().clone(),
            weights: effort.weights,
        },
        game.hashes(),
        &effort.limits(),
        &config,
        tt,
        &stop,
        report,
    )
}

/// `cairn tablut analyze`: the position, one line per finished iteration, the best move and
/// its line.
pub fn analyze(game: &TablutGame, effort: &Effort, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", game.position())?;
    writeln!(
        out,
        "position {}",
        notation::write_position(game.position())
    )?;
    if game.status() != Status::Ongoing {
        writeln!(out, "{}", game.status())?;
        return Ok(());
    }
    let tt = TranspositionTable::new(effort.hash_mb);
    let lines = std::sync::Mutex::new(Vec::new());
    let result = think(game, effort, &tt, &|info| {
        lines.lock().expect("not poisoned").push(format!(
            "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
            info.depth,
            info.seldepth,
            score_text(info.score),
            info.nodes,
            info.nps,
            info.time_ms,
            info.pv.join(" ")
        ))
    });
    for line in lines.into_inner().expect("not poisoned") {
        writeln!(out, "{line}")?;
    }
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    match result.best {
        Some(best) => writeln!(
            out,
            "bestmove {best} score {} depth {} nodes {} pv {}",
            score_text(result.score),
            result.depth,
            result.nodes,
            pv.join(" ")
        ),
        None => writeln!(out, "no legal move"),
    }
}

/// `cairn tablut perft`: one line per depth, `perft <depth> <leaves> <ms> ms <nps> nps`, counted
/// by [`TablutGame::perft`] (a repetition of the game's earlier positions ends a line too).
pub fn perft(game: &TablutGame, depth: u32, out: &mut dyn Write) -> io::Result<()> {
    for d in 1..=depth {
        let started = Instant::now();
        let leaves = game.perft(d);
        let elapsed = started.elapsed();
        writeln!(
            out,
            "perft {d} {leaves} {} ms {} nps",
            elapsed.as_millis(),
            search::nodes_per_second(leaves, elapsed)
        )?;
    }
    Ok(())
}

/// `cairn tablut play`: a person (playing `human`) against the engine, in the terminal. The
/// board is drawn after every move; the person types moves in coordinates (`e3-e1`), `help`,
/// or `quit`; an unreadable or illegal move is explained and asked again. Returns how the game
/// stood at the end.
pub fn play(
    mut game: TablutGame,
    human: Side,
    effort: &Effort,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> io::Result<Status> {
    let tt = TranspositionTable::new(effort.hash_mb);
    writeln!(
        out,
        "You play {}. Moves are written from-to, such as e3-e1; type help or quit.",
        human.name()
    )?;
    loop {
        writeln!(out, "\n{}", game.position())?;
        let status = game.status();
        if status != Status::Ongoing {
            writeln!(out, "{status}")?;
            return Ok(status);
        }
        if game.position().side_to_move() != human {
            let result = think(&game, effort, &tt, &|_| {});
            let best = result.best.expect("a game that goes on has a move");
            writeln!(
                out,
                "Cairn plays {best} ({}, depth {})",
                score_text(result.score),
                result.depth
            )?;
            game.play(best).expect("the search plays legal moves");
            continue;
        }
        write!(out, "your move> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\nend of input: the game is left unfinished")?;
            return Ok(Status::Ongoing);
        }
        match line.trim() {
            "" => continue,
            "quit" | "exit" => {
                writeln!(out, "game left unfinished")?;
                return Ok(Status::Ongoing);
            }
            "help" => {
                let moves: Vec<String> = game
                    .position()
                    .legal_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                writeln!(
                    out,
                    "Pieces move like rooks; only the king may end on the throne (e5). \
                     Your legal moves: {}",
                    moves.join(" ")
                )?;
            }
            text => match notation::parse_move_text(text).and_then(|mv| {
                game.play(mv)?;
                Ok(mv)
            }) {
                Ok(_) => {}
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}

/// The result of [`self_play`]: games won by each engine, by the side it played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SelfPlayScore {
    /// Wins of the first engine as Black, and as White.
    pub first: [u32; 2],
    /// Wins of the second engine as Black, and as White.
    pub second: [u32; 2],
    /// Games played.
    pub games: u32,
}

/// Plays `pairs` pairs of games between the engine at `first` and at `second` effort: each pair
/// starts from the same opening (`random_plies` random moves from a seeded generator) with the
/// colours swapped. Every game ends by the rules (Tablut has no draw; a game that outlasts
/// `max_plies` after the opening counts as a loss for the side to move, with a warning). Progress goes to
/// stderr, and one line per game to `games_out`: the result and the moves.
pub fn self_play(
    first: &Effort,
    second: &Effort,
    pairs: u32,
    random_plies: u32,
    max_plies: u32,
    seed: u64,
    games_out: &mut dyn Write,
) -> io::Result<SelfPlayScore> {
    let mut rng = Rng::new(seed);
    let mut score = SelfPlayScore::default();
    let tts = [
        TranspositionTable::new(first.hash_mb),
        TranspositionTable::new(second.hash_mb),
    ];
    for pair in 0..pairs {
        let (opening, opening_moves) = random_opening(&mut rng, random_plies);
        for swap in [false, true] {
            // Engine 0 is `first`; it plays Black unless swapped.
            let black = swap as usize;
            let mut game = opening.clone();
            let mut moves = opening_moves.clone();
            let winner = loop {
                if let Status::Won(side, _) = game.status() {
                    break side;
                }
                if moves.len() as u32 >= random_plies + max_plies {
                    log::warn!("game {} reached {max_plies} plies", score.games + 1);
                    break game.position().side_to_move().other();
                }
                let engine = match game.position().side_to_move() {
                    Side::Black => black,
                    Side::White => 1 - black,
                };
                let effort = if engine == 0 { first } else { second };
                let result = think(&game, effort, &tts[engine], &|_| {});
                let mv = result.best.expect("a game that goes on has a move");
                game.play(mv).expect("the search plays legal moves");
                moves.push(mv.to_string());
            };
            let engine = if (winner == Side::Black) == (black == 0) {
                0
            } else {
                1
            };
            let tally = if engine == 0 {
                &mut score.first
            } else {
                &mut score.second
            };
            tally[winner.index()] += 1;
            score.games += 1;
            writeln!(
                games_out,
                "{} won by engine {} ({}): {}",
                match winner {
                    Side::Black => "0-1",
                    Side::White => "1-0",
                },
                engine + 1,
                game.status(),
                moves.join(" ")
            )?;
            let wins = |s: [u32; 2]| s[0] + s[1];
            eprintln!(
                "pair {}/{pairs}: engine 1 {} - {} engine 2 after {} games",
                pair + 1,
                wins(score.first),
                wins(score.second),
                score.games
            );
        }
    }
    Ok(score)
}

/// A game after `plies` random legal moves that do not end it, and those moves.
fn random_opening(rng: &mut Rng, plies: u32) -> (TablutGame, Vec<String>) {
    'retry: loop {
        let mut game = TablutGame::new(Position::start());
        let mut played = Vec::new();
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            let mv = moves[rng.below(moves.len())];
            game.play(mv).expect("a generated move is legal");
            played.push(mv.to_string());
            if game.status() != Status::Ongoing {
                continue 'retry;
            }
        }
        return (game, played);
    }
}
