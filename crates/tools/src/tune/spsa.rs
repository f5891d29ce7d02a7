//! SPSA over the search's tunable constants ([`Tunables`]): `cairn tune spsa --state FILE`.
//!
//! Simultaneous perturbation stochastic approximation, as chess engines' testing frameworks run
//! it. Each iteration takes the current values `θ`, flips a coin `Δᵢ = ±1` per constant, and plays
//! a pair of games between `θ + cΔ` and `θ − cΔ` from one random opening, each side White once.
//! With `r` the first side's points minus the second's (−2 to 2), every constant moves by
//! `a · r · Δᵢ / c`: toward the side that scored. Only the score of the pair is needed, so all
//! constants learn from every game.
//!
//! The gains follow the usual schedule over the run's `n` pairs, per constant, from its end
//! perturbation `c_end` ([`cairn_search::params::Spec::step`]) and one end rate `r_end`:
//! `c_k = c_end · (n / k)^0.101` and `a_k = r_end · c_end² · ((A + n) / (A + k))^0.602` with
//! `A = n / 10`. Values stay within each constant's range.
//!
//! Games are played in-process at a fixed node budget per move, one thread per game pair, each
//! side with its own transposition table, cleared for each game. Openings are two random
//! placements, and a random third ply every other pair. A game that outlasts the ply limit is a
//! draw.
//!
//! **The state file** is the whole record: a header (settings, the constants' names, their
//! starting values), then one line per finished pair, `k <TAB> r <TAB> θ after it`. A run that
//! is stopped resumes from its last line when started again with the same settings; so a long
//! run can span sessions. With several threads the pairs overlap (each reads `θ` when it starts
//! and updates the newest `θ` when it ends), so only a one-thread run is reproducible.

use cairn_search::params::{Spec, Tunables};
use cairn_search::rng::Rng;
use cairn_search::{self as search, Limits, SearchConfig, TranspositionTable};
use cairn_tak::board::{Color, GameResult, Komi, Move, Position, TakGame};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// The exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;
/// The exponent of the gain's decay.
const ALPHA: f64 = 0.602;

/// How to run SPSA.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaSettings {
    /// Game pairs in the whole run.
    pub pairs: usize,
    /// Nodes searched per move.
    pub nodes: u64,
    /// The komi.
    pub komi: Komi,
    /// Seed of the openings and perturbations.
    pub seed: u64,
    /// Plies after which a game is stopped as a draw.
    pub max_plies: u32,
    /// The end rate `r_end` (`a_end / c_end²`).
    pub rate: f64,
    /// Indices (in [`Tunables::SPECS`]) of constants left at their starting values.
    pub frozen: Vec<usize>,
}

/// Where a run stands: the values now, the pairs finished and their total score.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// The current values, in [`Tunables::SPECS`] order.
    pub theta: Vec<f64>,
    /// Pairs finished.
    pub done: usize,
    /// The sum of the pairs' `r` (the `+` side's points minus the `−` side's).
    pub score: f64,
}

/// The perturbation and the gain of pair `k` (from 1) of `n` for one constant.
fn schedule(spec: &Spec, rate: f64, k: usize, n: usize) -> (f64, f64) {
    let (k, n) = (k as f64, n.max(1) as f64);
    let big_a = n / 10.0;
    let c = spec.step * (n / k).powf(GAMMA);
    let a = rate * spec.step * spec.step * ((big_a + n) / (big_a + k)).powf(ALPHA);
    (c, a)
}

/// The header lines of a state file for `settings` at board size `size`.
fn header(size: usize, settings: &SpsaSettings, start: &[f64]) -> Vec<String> {
    let frozen: Vec<&str> = settings
        .frozen
        .iter()
        .map(|&i| Tunables::SPECS[i].name)
        .collect();
    vec![
        format!(
            "# cairn spsa: size {size}, half komi {}, {} nodes per move, {} pairs, seed {}, \
             rate {}, ply limit {}, frozen [{}]",
            settings.komi.halves(),
            settings.nodes,
            settings.pairs,
            settings.seed,
            settings.rate,
            settings.max_plies,
            frozen.join(" ")
        ),
        format!(
            "# names: {}",
            Tunables::SPECS
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        format!("# start: {}", join(start)),
    ]
}

/// Values as the state file holds them: exactly (Rust's shortest form that reads back the same).
fn join(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_values(text: &str, what: &str) -> Result<Vec<f64>, String> {
    let values = text
        .split_whitespace()
        .map(|v| {
            v.parse::<f64>()
                .map_err(|_| format!("{what}: `{v}` is not a number"))
        })
        .collect::<Result<Vec<f64>, String>>()?;
    if values.len() != Tunables::SPECS.len() {
        return Err(format!(
            "{what}: {} values for {} constants",
            values.len(),
            Tunables::SPECS.len()
        ));
    }
    Ok(values)
}

/// `text` up to its last newline. A run stopped while writing leaves its last line without
/// its newline: that line is dropped (its pair is played again), every complete line counts.
fn whole_lines(text: &str) -> &str {
    &text[..text.rfind('\n').map_or(0, |i| i + 1)]
}

/// Reads a state file written for the same size and settings: where its run stands.
pub fn resume(text: &str, size: usize, settings: &SpsaSettings) -> Result<SpsaState, String> {
    let mut lines = whole_lines(text).lines().enumerate();
    let mut expected = header(size, settings, &[]).into_iter();
    for what in ["settings", "names"] {
        let want = expected.next().expect("three header lines");
        match lines.next() {
            Some((_, got)) if got == want => {}
            Some((_, got)) => {
                return Err(format!(
                    "line {}: its {what} are `{got}`, this run's `{want}`: start a new file \
                     for other settings",
                    if what == "settings" { 1 } else { 2 }
                ))
            }
            None => return Err(format!("the {what} line is missing")),
        }
    }
    let start = match lines.next() {
        Some((_, line)) => match line.strip_prefix("# start: ") {
            Some(rest) => parse_values(rest, "line 3")?,
            None => return Err("line 3: expected `# start: ...`".into()),
        },
        None => return Err("the start line is missing".into()),
    };
    let mut state = SpsaState {
        theta: start,
        done: 0,
        score: 0.0,
    };
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("line {}", i + 1);
        let mut fields = line.split('\t');
        let (Some(_), Some(r), Some(theta), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("{at}: expected k<TAB>r<TAB>values"));
        };
        let r: f64 = r
            .parse()
            .map_err(|_| format!("{at}: `{r}` is not a score"))?;
        state.theta = parse_values(theta, &at)?;
        state.done += 1;
        state.score += r;
    }
    Ok(state)
}

/// The random opening of pair `k`: two placements, and every other pair a third ply.
fn opening<const N: usize>(start: &Position<N>, rng: &mut Rng) -> Vec<Move> {
    let mut pos = start.clone();
    let plies = 2 + rng.below(2);
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        pos.make(mv);
        moves.push(mv);
    }
    moves
}

/// Plays one game from `opening` with `white` and `black` searching `nodes` a move, each with
/// its own table: White's points (1, ½ or 0; ½ for a game stopped at the ply limit).
fn play_game<const N: usize>(
    start: &Position<N>,
    opening: &[Move],
    sides: [&SearchConfig; 2],
    tables: &mut [TranspositionTable; 2],
    settings: &SpsaSettings,
) -> f64 {
    let mut game = TakGame::new(start.clone());
    for &mv in opening {
        game.play(mv);
    }
    for tt in tables.iter_mut() {
        tt.clear();
    }
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    loop {
        let pos = game.position();
        if let Some(result) = pos.result() {
            return match result {
                GameResult::Road(c) | GameResult::Flats(c) => (c == Color::White) as u8 as f64,
                _ => 0.5,
            };
        }
        if pos.ply() >= settings.max_plies {
            return 0.5;
        }
        let side = pos.side_to_move().index();
        stop.store(false, Relaxed);
        let found = search::search(
            pos,
            game.hashes(),
            &limits,
            sides[side],
            &tables[side],
            &stop,
            &|_| {},
        );
        let mv = found.best.unwrap_or_else(|| pos.legal_moves()[0]);
        game.play(mv);
    }
}

/// The perturbations of pair `k`: `θ + c_kΔ` and `θ − c_kΔ` (within range), `Δ`, and `c_k`.
fn perturb(
    theta: &[f64],
    settings: &SpsaSettings,
    k: usize,
    rng: &mut Rng,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut plus = theta.to_vec();
    let mut minus = theta.to_vec();
    let mut delta = vec![0.0; theta.len()];
    for (i, spec) in Tunables::SPECS.iter().enumerate() {
        if settings.frozen.contains(&i) {
            continue;
        }
        delta[i] = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let (c, _) = schedule(spec, settings.rate, k, settings.pairs);
        plus[i] = (theta[i] + c * delta[i]).clamp(spec.min, spec.max);
        minus[i] = (theta[i] - c * delta[i]).clamp(spec.min, spec.max);
    }
    (plus, minus, delta)
}

/// Moves `theta` by pair `k`'s result `r` along `delta`.
fn update(theta: &mut [f64], settings: &SpsaSettings, k: usize, r: f64, delta: &[f64]) {
    for (i, spec) in Tunables::SPECS.iter().enumerate() {
        if delta[i] == 0.0 {
            continue;
        }
        let (c, a) = schedule(spec, settings.rate, k, settings.pairs);
        theta[i] = (theta[i] + a * r * delta[i] / c).clamp(spec.min, spec.max);
    }
}

/// Runs (or resumes) SPSA at board size `N`, appending to the state file at `path`, on rayon's
/// threads, with progress on stderr: the state at the end.
pub fn run<const N: usize>(settings: &SpsaSettings, path: &Path) -> Result<SpsaState, String> {
    let name = path.display();
    let state = if path.exists() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let state = resume(&text, N, settings).map_err(|e| format!("{name}: {e}"))?;
        // Cut a partial last line off before appending to the file.
        let whole = whole_lines(&text);
        if whole.len() < text.len() {
            std::fs::write(path, whole).map_err(|e| format!("{name}: {e}"))?;
        }
        state
    } else {
        let theta = Tunables::current().values();
        let mut file = std::fs::File::create(path).map_err(|e| format!("{name}: {e}"))?;
        for line in header(N, settings, &theta) {
            writeln!(file, "{line}").map_err(|e| format!("{name}: {e}"))?;
        }
        SpsaState {
            theta,
            done: 0,
            score: 0.0,
        }
    };
    if state.done >= settings.pairs {
        return Ok(state);
    }
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{name}: {e}"))?;
    let mut start = Position::<N>::start();
    start.set_komi(settings.komi);
    let first = state.done;
    let next = AtomicUsize::new(first + 1);
    let shared = Mutex::new((state, file, Ok::<(), String>(())));
    let started = Instant::now();
    let threads = rayon::current_num_threads()
        .min(settings.pairs - first)
        .max(1);
    rayon::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|_| {
                let mut tables = [TranspositionTable::new(16), TranspositionTable::new(16)];
                loop {
                    let k = next.fetch_add(1, Relaxed);
                    if k > settings.pairs {
                        break;
                    }
                    let mut rng = Rng::new(settings.seed ^ (k as u64).wrapping_mul(0x9E37_79B9));
                    let theta = shared.lock().expect("spsa lock").0.theta.clone();
                    let (plus, minus, delta) = perturb(&theta, settings, k, &mut rng);
                    let config = |values: &[f64]| SearchConfig {
                        tunables: Tunables::from_values(values),
                        ..SearchConfig::default()
                    };
                    let (plus, minus) = (config(&plus), config(&minus));
                    let moves = opening(&start, &mut rng);
                    let first_game =
                        play_game(&start, &moves, [&plus, &minus], &mut tables, settings);
                    let second = play_game(&start, &moves, [&minus, &plus], &mut tables, settings);
                    // The `+` side's points (`first_game + 1 − second`) minus the `−` side's.
                    let r = 2.0 * (first_game - second);
                    let mut guard = shared.lock().expect("spsa lock");
                    let (state, file, status) = &mut *guard;
                    update(&mut state.theta, settings, k, r, &delta);
                    state.done += 1;
                    state.score += r;
                    if status.is_ok() {
                        // One write per line, so a stopped run leaves at most one partial line.
                        let line = format!("{k}\t{r}\t{}\n", join(&state.theta));
                        *status = file
                            .write_all(line.as_bytes())
                            .map_err(|e| format!("{name}: {e}"));
                    }
                    let run = state.done - first;
                    if run % 10 == 0 || state.done == settings.pairs {
                        let rate = run as f64 * 60.0 / started.elapsed().as_secs_f64().max(1e-9);
                        eprintln!(
                            "spsa: {}/{} pairs, {rate:.1} pairs/min; {}",
                            state.done,
                            settings.pairs,
                            describe(&state.theta)
                        );
                    }
                }
            });
        }
    });
    let (state, _, status) = shared.into_inner().expect("spsa lock");
    status.map(|()| state)
}

/// `name=value` for every constant, at the precision it is used with.
pub fn describe(theta: &[f64]) -> String {
    Tunables::SPECS
        .iter()
        .zip(theta)
        .map(|(s, v)| format!("{}={v:.2}", s.name))
        .collect::<Vec<_>>()
        .join(" ")
}
