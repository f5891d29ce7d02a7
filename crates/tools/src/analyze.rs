//! `cairn analyze`: analysis from the command line.
//!
//! Two jobs:
//! - **One position** (`--tps`, `--moves`, `--size`, or `--ptn FILE --ply K`): prints an ASCII
//!   diagram, the material, the static evaluation, then searches and prints the evaluation, the
//!   best move and the principal variation. Each finished iteration is a progress line on stderr.
//!   `--json` prints one JSON object instead of the text report.
//! - **A whole game** (`--game FILE.ptn`): searches every position of the game once and writes
//!   the game back as PTN with an `{eval/depth}` comment after each ply, from the mover's point of
//!   view, as match runners write them, and the mover's winning chance. A ply is judged by the
//!   winning chance it loses against the best move found ([`crate::chance`]): `??` from
//!   `--blunder` percentage points (15 by default), `?` from two thirds of that and `?!` from one
//!   third, with the better move in the comment. `--json` prints one JSON object per ply instead;
//!   `--plot` also draws the game's evaluation graph ([`crate::plot::eval_svg`]) and `--link`
//!   prints a PTN Ninja link of the annotated game ([`crate::ninja`]) instead of its PTN.
//!
//! - **Tinue** (`--solve`): the tinue prover instead of the search: does the side to move force a
//!   road, in how many plies, and the proof's main line.
//!
//! Proven results are written `+R3` / `-R3` (road win / loss in 3 plies) and `+F3` / `-F3` (flat
//! win / loss). Plain evaluations are in flats (`+0.45`), positive for the side named, each with
//! the side's winning chance (`56.5%`; a proven result is `100%` or `0%`). With `--link`, one
//! position's report also gives a PTN Ninja link of the position with the principal variation as
//! its moves.
//!
//! The analysis runs the search directly on a table of its own rather than through the TEI
//! [`Engine`](cairn_engine::engine::Engine) facade: it needs the typed position (diagram, static
//! evaluation, game-over checks) and a table shared across the plies of a game.

use crate::chance::{percent, win_chance, Mark, Thresholds};
use crate::plot::{eval_svg, move_x, EvalGraph, EvalPoint};
use cairn_search::score::Score;
use cairn_search::{self as search, Limits, SearchConfig, SearchInfo, TranspositionTable};
use cairn_tak::board::{Color, GameResult, Komi, Move, Position, TakGame};
use cairn_tak::eval::evaluate;
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::{parse_file, play_line, replay, tps, PtnGame, PtnMove, Tps};
use cairn_tak::tinue::{self, TinueLimits, TinueOutcome};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

/// Default search time for one position, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 3000;
/// Default search time per position when annotating a game, ms.
pub const DEFAULT_GAME_MOVETIME_MS: u64 = 500;

/// Arguments of `cairn analyze`, as the command line gives them (with its defaults applied).
#[derive(Debug, Clone)]
pub struct AnalyzeArgs {
    /// The position as TPS (its size is the board size).
    pub tps: Option<String>,
    /// Plies to play first (after `tps`, or from the empty board), in PTN, separated by spaces.
    pub moves: Option<String>,
    /// Board size of the empty board, when neither `tps` nor a PTN file is given (default 6).
    pub size: Option<u8>,
    /// A PTN file: analyse the position after `ply` plies of its game.
    pub ptn: Option<PathBuf>,
    /// With `ptn`: how many plies of the game to play first (default: all of them).
    pub ply: Option<usize>,
    /// A PTN file: annotate every ply of its game and write it back as PTN.
    pub game: Option<PathBuf>,
    /// With `game`: write the annotated PTN to this file instead of stdout.
    pub out: Option<PathBuf>,
    /// Which game of the PTN file, 1-based.
    pub index: u32,
    /// Komi in flats (see [`Komi`]); a PTN file's Komi tag is the default.
    pub komi: Option<f64>,
    /// Search time per position, ms (default [`DEFAULT_MOVETIME_MS`], or
    /// [`DEFAULT_GAME_MOVETIME_MS`] with `game`).
    pub movetime: Option<u64>,
    /// Search depth (with no `movetime`, the search stops only at this depth).
    pub depth: Option<u32>,
    /// Search nodes (with no `movetime`, the search stops only at this count).
    pub nodes: Option<u64>,
    /// Search threads (default: one per core of the machine).
    pub threads: Option<u16>,
    /// Transposition table size, MiB.
    pub hash: u32,
    /// Lines to show for one position.
    pub multipv: u16,
    /// With `game`: the loss in winning chance against the best move, in percentage points, that
    /// makes a ply a blunder (`??`); two thirds of it make a mistake (`?`), one third an
    /// inaccuracy (`?!`).
    pub blunder: f64,
    /// With `game`: also draw the evaluation graph to this SVG file.
    pub plot: Option<PathBuf>,
    /// Print a PTN Ninja link: of the annotated game with `game` (instead of its PTN), of the
    /// position and its principal variation otherwise.
    pub link: bool,
    /// Machine-readable output: one JSON object (one per ply with `game`).
    pub json: bool,
    /// Run the tinue prover instead of the search, with `movetime`, `nodes` and `depth` (longest
    /// proof in plies) as its budget.
    pub solve: bool,
}

/// Runs `cairn analyze`; `Err` is the one-line message for the user.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    komi(args)?;
    if !(args.blunder > 0.0 && args.blunder <= 100.0) {
        return Err(format!(
            "--blunder {}: must be above 0 and at most 100 (percentage points)",
            args.blunder
        ));
    }
    if let Some(path) = &args.game {
        if args.json && args.link {
            return Err(
                "--link with --game prints a link instead of the PTN; not with --json".into(),
            );
        }
        let (game, size) = load_game(path, args.index)?;
        return cairn_tak::with_size!(size, |N| annotate::<N>(args, path, &game),
            else Err(format!("{}: unsupported board size {size}", path.display())));
    }
    if let Some(path) = &args.ptn {
        let (game, size) = load_game(path, args.index)?;
        return cairn_tak::with_size!(size, |N| analyse_ptn::<N>(args, path, &game),
            else Err(format!("{}: unsupported board size {size}", path.display())));
    }
    let size = match &args.tps {
        Some(text) => {
            text.parse::<Tps>()
                .map_err(|e| format!("--tps \"{text}\": {e}"))?
                .size
        }
        None => args.size.unwrap_or(6) as usize,
    };
    cairn_tak::with_size!(size, |N| analyse_text::<N>(args),
        else Err(format!("--tps: unsupported board size {size}")))
}

/// The `--komi` given, if any.
fn komi(args: &AnalyzeArgs) -> Result<Option<Komi>, String> {
    args.komi
        .map(|flats| Komi::from_flats(flats).map_err(|e| format!("--komi {flats}: {e}")))
        .transpose()
}

/// Reads game number `index` (1-based) of a PTN file, and its board size.
fn load_game(path: &Path, index: u32) -> Result<(PtnGame, usize), String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let mut games = parse_file(&text).map_err(|e| format!("{name}: {e}"))?;
    let count = games.len();
    if count == 0 {
        return Err(format!("{name}: no game found"));
    }
    if index as usize > count {
        return Err(format!(
            "{name}: --index {index}, but the file has {count} game{}",
            if count == 1 { "" } else { "s" }
        ));
    }
    let game = games.swap_remove(index as usize - 1);
    let size = game.size().map_err(|e| format!("{name}: {e}"))?;
    Ok((game, size))
}

/// `--tps` / `--moves` / `--size`.
fn analyse_text<const N: usize>(args: &AnalyzeArgs) -> Result<(), String> {
    let mut position = match &args.tps {
        Some(text) => tps::parse::<N>(text).map_err(|e| format!("--tps \"{text}\": {e}"))?,
        None => Position::<N>::start(),
    };
    position.set_komi(komi(args)?.unwrap_or_default());
    let mut game = TakGame::new(position.clone());
    play_line(
        &mut position,
        args.moves.as_deref().unwrap_or(""),
        |_, mv| game.play(mv),
    )
    .map_err(|e| format!("--moves {e}"))?;
    report_position(args, &game)
}

/// `--ptn FILE [--ply K]`.
fn analyse_ptn<const N: usize>(
    args: &AnalyzeArgs,
    path: &Path,
    game: &PtnGame,
) -> Result<(), String> {
    let name = path.display();
    let done = replay::<N>(game).map_err(|e| format!("{name}: {e}"))?;
    let plies = args.ply.unwrap_or(done.moves.len());
    if plies > done.moves.len() {
        return Err(format!(
            "{name}: --ply {plies}, but the game has {} plies",
            done.moves.len()
        ));
    }
    let mut start = done.start;
    if let Some(komi) = komi(args)? {
        start.set_komi(komi);
    }
    let mut at = TakGame::new(start);
    for &mv in &done.moves[..plies] {
        at.play(mv);
    }
    report_position(args, &at)
}

/// The search limits: the user's, or the default time.
fn limits(args: &AnalyzeArgs, default_ms: u64) -> Limits {
    let movetime = match (args.movetime, args.depth, args.nodes) {
        (Some(ms), _, _) => Some(ms),
        (None, None, None) => Some(default_ms),
        _ => None,
    };
    Limits {
        movetime,
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    }
}

/// The outcome of one search, with its last reported lines.
struct Searched {
    result: search::SearchResult<Move>,
    /// The last finished line per MultiPV index (index 0 = best).
    lines: Vec<SearchInfo>,
    secs: f64,
}

/// Searches one position, echoing each finished iteration to `progress`.
fn run_search<const N: usize>(
    at: &TakGame<N>,
    limits: &Limits,
    config: &SearchConfig,
    tt: &TranspositionTable,
    progress: &(dyn Fn(&SearchInfo) + Sync),
) -> Searched {
    let lines: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let report = |info: &SearchInfo| {
        progress(info);
        let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
        let k = info.multipv.max(1) - 1;
        if lines.len() <= k {
            lines.resize(k + 1, info.clone());
        }
        lines[k] = info.clone();
    };
    let result = search::search(
        at.position(),
        at.hashes(),
        limits,
        config,
        tt,
        &stop,
        &report,
    );
    Searched {
        result,
        lines: lines.into_inner().unwrap_or_else(|e| e.into_inner()),
        secs: started.elapsed().as_secs_f64(),
    }
}

fn table(args: &AnalyzeArgs) -> Result<TranspositionTable, String> {
    TranspositionTable::try_new(args.hash as usize)
        .map_err(|e| format!("--hash {}: {e}", args.hash))
}

/// The machine's cores, as the default thread count of an analysis.
fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn config(args: &AnalyzeArgs, multipv: usize) -> SearchConfig {
    SearchConfig {
        threads: args.threads.map_or_else(every_core, usize::from),
        multipv,
        move_overhead_ms: 0,
        ..SearchConfig::default()
    }
}

/// A score from the side to move's view, turned to White's.
fn for_white<const N: usize>(pos: &Position<N>, score: Score) -> Score {
    if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A score in words, from the side to move's view.
fn score_words<const N: usize>(pos: &Position<N>, score: Score) -> String {
    let me = pos.side_to_move();
    match score.proven() {
        Some((win, plies, kind)) => {
            let winner = if win { me } else { !me };
            let how = kind.name();
            let unit = if plies == 1 { "ply" } else { "plies" };
            format!(
                "{} wins on {how} in {plies} {unit} (100%)",
                color_name(winner)
            )
        }
        None => format!(
            "{} for {} to move ({} for White); {}'s winning chance {}",
            Score::short(score),
            color_name(me),
            Score::short(for_white(pos, score)),
            color_name(me),
            percent(win_chance(score))
        ),
    }
}

/// A winning chance as a JSON number of percent, to 0.1.
fn json_pct(chance: f64) -> String {
    format!("{:.1}", chance)
}

/// A game result in words.
fn result_words(result: GameResult) -> String {
    match result {
        GameResult::Road(c) => format!("{} wins on road", color_name(c)),
        GameResult::Flats(c) => format!("{} wins on flats", color_name(c)),
        GameResult::Draw => "draw".to_string(),
    }
}

/// Minimal JSON string quoting.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| json_str(s)).collect();
    format!("[{}]", quoted.join(","))
}

/// The material and komi of a position, in words.
fn material<const N: usize>(pos: &Position<N>) -> String {
    let side = |c: Color| {
        format!(
            "{} {} flats, {} stones + {} caps in hand",
            color_name(c),
            pos.flats(c).count(),
            pos.stones_left(c),
            pos.caps_left(c)
        )
    };
    format!(
        "{}; {}; komi {}",
        side(Color::White),
        side(Color::Black),
        pos.komi()
    )
}

/// Analyses one position and prints the report (text or JSON).
fn report_position<const N: usize>(args: &AnalyzeArgs, at: &TakGame<N>) -> Result<(), String> {
    let pos = at.position();
    let tps_text = tps::to_tps(pos);
    let static_eval = evaluate(pos);
    if let Some(result) = pos.result() {
        if args.json {
            println!(
                "{{\"size\":{N},\"tps\":{},\"result\":{}}}",
                json_str(&tps_text),
                json_str(result.ptn())
            );
        } else {
            print!("{pos}");
            println!("TPS       {tps_text}");
            println!("Game over {} ({})", result_words(result), result.ptn());
        }
        return Ok(());
    }
    if !args.json {
        print!("{pos}");
        println!("TPS       {tps_text}");
        println!("Material  {}", material(pos));
        println!("Static    {}", score_words(pos, static_eval));
    }
    if args.solve {
        return report_tinue(args, pos, &tps_text);
    }
    let tt = table(args)?;
    let progress = |info: &SearchInfo| {
        let line = if args.multipv > 1 {
            format!(" line {}", info.multipv)
        } else {
            String::new()
        };
        eprintln!(
            "depth {:>2}{line} score {:>6} nodes {:>10} nps {:>8} time {:>6} ms pv {}",
            info.depth,
            Score::short(info.score),
            info.nodes,
            info.nps,
            info.time_ms,
            info.pv.join(" ")
        );
    };
    let limits = limits(args, DEFAULT_MOVETIME_MS);
    let done = run_search(
        at,
        &limits,
        &config(args, args.multipv as usize),
        &tt,
        &progress,
    );
    let best = done
        .result
        .best
        .map(|m| m.ptn::<N>().to_string())
        .unwrap_or_default();
    let nps = (done.result.nodes as f64 / done.secs.max(1e-9)) as u64;
    let link = args
        .link
        .then(|| position_link(pos, &tps_text, &done))
        .transpose()?;
    let link_json = link
        .as_ref()
        .map_or(String::new(), |l| format!(",\"link\":{}", json_str(l)));
    if args.json {
        let lines: Vec<String> = done
            .lines
            .iter()
            .map(|l| {
                format!(
                    "{{\"multipv\":{},\"depth\":{},\"score\":{},\"score_white\":{},\
                     \"win_pct\":{},\"win_pct_white\":{},\"pv\":{}}}",
                    l.multipv,
                    l.depth,
                    Score::json(l.score),
                    Score::json(for_white(pos, l.score)),
                    json_pct(win_chance(l.score)),
                    json_pct(win_chance(for_white(pos, l.score))),
                    json_list(&l.pv)
                )
            })
            .collect();
        println!(
            "{{\"size\":{N},\"tps\":{},\"side_to_move\":{},\"komi\":{},\"static\":{},\
             \"depth\":{},\"nodes\":{},\"time_ms\":{},\"nps\":{nps},\"score\":{},\
             \"score_white\":{},\"win_pct\":{},\"win_pct_white\":{},\"best\":{},\
             \"lines\":[{}]{link_json}}}",
            json_str(&tps_text),
            json_str(&color_name(pos.side_to_move()).to_lowercase()),
            pos.komi(),
            Score::json(static_eval),
            done.result.depth,
            done.result.nodes,
            (done.secs * 1000.0) as u64,
            Score::json(done.result.score),
            Score::json(for_white(pos, done.result.score)),
            json_pct(win_chance(done.result.score)),
            json_pct(win_chance(for_white(pos, done.result.score))),
            json_str(&best),
            lines.join(",")
        );
        return Ok(());
    }
    println!(
        "Search    depth {}, {} nodes in {:.2} s ({} nps)",
        done.result.depth, done.result.nodes, done.secs, nps
    );
    println!("Eval      {}", score_words(pos, done.result.score));
    println!("Best move {best}");
    for line in &done.lines {
        let label = if done.lines.len() > 1 {
            format!("PV {:<6}", line.multipv)
        } else {
            "PV       ".to_string()
        };
        println!(
            "{label} {} {} {}",
            Score::short(line.score),
            percent(win_chance(line.score)),
            line.pv.join(" ")
        );
    }
    if let Some(link) = link {
        println!("Link      {link}");
    }
    Ok(())
}

/// The PTN Ninja link of a position with the principal variation as its moves: the game starts
/// from the position's TPS, and its first ply carries the evaluation.
fn position_link<const N: usize>(
    pos: &Position<N>,
    tps_text: &str,
    done: &Searched,
) -> Result<String, String> {
    let komi = pos.half_komi() as f64 / 2.0;
    let mut game = PtnGame {
        tags: vec![
            ("Size".to_string(), N.to_string()),
            ("Komi".to_string(), format!("{komi}")),
            ("TPS".to_string(), tps_text.to_string()),
        ],
        ..PtnGame::default()
    };
    let pv = done.lines.first().map(|l| l.pv.as_slice()).unwrap_or(&[]);
    for (i, text) in pv.iter().enumerate() {
        let mv: PtnMove = text
            .parse()
            .map_err(|e| format!("the principal variation: {e}"))?;
        let comments = if i == 0 {
            let score = done.result.score;
            vec![format!(
                "{}/{} {}",
                Score::short(score),
                done.result.depth,
                percent(win_chance(score))
            )]
        } else {
            Vec::new()
        };
        game.plies.push(PtnPly::new(mv, comments));
    }
    let name = format!("cairn analyze: {}", Score::short(done.result.score));
    Ok(crate::ninja::link(
        &game.to_ptn(),
        Some(&name),
        Some((0, false)),
    ))
}

/// `--solve`: runs the tinue prover on the position and prints what it found.
fn report_tinue<const N: usize>(
    args: &AnalyzeArgs,
    pos: &Position<N>,
    tps_text: &str,
) -> Result<(), String> {
    let budget = limits(args, DEFAULT_MOVETIME_MS);
    let tinue_limits = TinueLimits::from_search_limits(&budget, 0, args.hash as usize);
    let result = tinue::solve(pos, &tinue_limits, &AtomicBool::new(false));
    let me = color_name(pos.side_to_move());
    let line: Vec<String> = result
        .proof()
        .map(|(_, pv)| pv.iter().map(|m| m.ptn::<N>().to_string()).collect())
        .unwrap_or_default();
    if args.json {
        let plies = result
            .proof()
            .map_or("null".to_string(), |(p, _)| p.to_string());
        println!(
            "{{\"size\":{N},\"tps\":{},\"side_to_move\":{},\"tinue\":{},\"plies\":{plies},\
             \"pv\":{},\"nodes\":{},\"time_ms\":{}}}",
            json_str(tps_text),
            json_str(&me.to_lowercase()),
            json_str(result.kind()),
            json_list(&line),
            result.nodes,
            result.time_ms
        );
        return Ok(());
    }
    let cost = format!("{} nodes in {} ms", result.nodes, result.time_ms);
    match result.proof() {
        Some((plies, _)) => {
            println!("Tinue     {me} forces a road in {plies} plies ({cost})");
            println!("PV        {}", line.join(" "));
        }
        None => println!(
            "Tinue     no forced road for {me}: {} ({cost})",
            match result.outcome {
                TinueOutcome::Disproven => "disproven within the depth limit",
                _ => "not decided within the budget",
            }
        ),
    }
    Ok(())
}

/// One annotated ply of a game.
struct PlyNote {
    /// The mover.
    mover: Color,
    /// The played move's value for the mover.
    played: Score,
    /// The depth behind `played` (0 when the move ended the game).
    depth: u32,
    /// The best move found before the ply and its value, when it was not the move played.
    best: Option<(String, Score)>,
    /// The winning chance lost against the best move, in percentage points.
    drop: f64,
    /// What the drop makes of the move.
    mark: Option<Mark>,
}

impl PlyNote {
    /// The mover's winning chance after the move, in percent.
    fn chance(&self) -> f64 {
        win_chance(self.played)
    }

    /// White's winning chance after the move, in percent.
    fn white_chance(&self) -> f64 {
        match self.mover {
            Color::White => self.chance(),
            Color::Black => 100.0 - self.chance(),
        }
    }

    /// The PTN comment: `eval/depth chance`, and the better move where the ply is marked.
    fn comment(&self) -> String {
        let mut comment = format!(
            "{}/{} {}",
            Score::short(self.played),
            self.depth,
            percent(self.chance())
        );
        if let (Some(_), Some((best, score))) = (self.mark, &self.best) {
            let _ = write!(
                comment,
                " best {best} {} {}",
                Score::short(*score),
                percent(win_chance(*score))
            );
        }
        comment
    }
}

/// The search before each ply of a game and after its last one: (score for the side to move,
/// depth, best move); `None` where the game is over.
type PlySearch = Option<(Score, u32, Option<Move>)>;

/// `--game FILE`: searches every position of the game once, then writes the annotated game.
fn annotate<const N: usize>(args: &AnalyzeArgs, path: &Path, game: &PtnGame) -> Result<(), String> {
    let name = path.display();
    let done = replay::<N>(game).map_err(|e| format!("{name}: {e}"))?;
    let mut start = done.start.clone();
    if let Some(komi) = komi(args)? {
        start.set_komi(komi);
    }
    let searches = search_plies(args, &start, &done.moves)?;
    let notes = ply_notes(
        &start,
        &done.moves,
        &searches,
        Thresholds::with_blunder(args.blunder),
    );
    if let Some(plot) = &args.plot {
        let svg = eval_svg(&eval_graph(game, &start, &notes, done.result))?;
        std::fs::write(plot, svg).map_err(|e| format!("--plot {}: {e}", plot.display()))?;
    }
    if args.json {
        print_json_notes(game, &notes);
        return Ok(());
    }
    write_annotated(args, game, &notes)
}

/// Searches the position before every ply of a game and after its last one.
fn search_plies<const N: usize>(
    args: &AnalyzeArgs,
    start: &Position<N>,
    moves: &[Move],
) -> Result<Vec<PlySearch>, String> {
    let tt = table(args)?;
    let limits = limits(args, DEFAULT_GAME_MOVETIME_MS);
    let config = config(args, 1);
    let total = moves.len();
    let started = Instant::now();
    let mut at = TakGame::new(start.clone());
    let mut searches = Vec::with_capacity(total + 1);
    for i in 0..=total {
        if at.position().result().is_none() {
            let s = run_search(&at, &limits, &config, &tt, &|_| {});
            searches.push(Some((s.result.score, s.result.depth, s.result.best)));
            eprintln!(
                "analyze: ply {i}/{total}, depth {}, {} nodes, {:.1} s",
                s.result.depth,
                s.result.nodes,
                started.elapsed().as_secs_f64()
            );
        } else {
            searches.push(None);
        }
        if let Some(&mv) = moves.get(i) {
            at.play(mv);
        }
    }
    Ok(searches)
}

/// The notes of every ply from the searches around it, replaying the game for its results.
fn ply_notes<const N: usize>(
    start: &Position<N>,
    moves: &[Move],
    searches: &[PlySearch],
    thresholds: Thresholds,
) -> Vec<PlyNote> {
    let mut pos = start.clone();
    let mut notes = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let mover = pos.side_to_move();
        let (before, _, best) = searches[i].expect("a ply is only played before the game ends");
        pos.make(mv);
        let (played, depth) = match (pos.result(), searches[i + 1]) {
            (Some(result), _) => (cairn_tak::adapter::result_score(result, mover, 1), 0),
            (None, Some((after, depth, _))) => (-after, depth),
            (None, None) => unreachable!("a search exists wherever the game goes on"),
        };
        let played = match played.proven() {
            // One ply further from the position before the move.
            Some((win, plies, kind)) if depth > 0 => {
                if win {
                    Score::win_in(plies + 1, kind)
                } else {
                    Score::loss_in(plies + 1, kind)
                }
            }
            _ => played,
        };
        let best_other = best.filter(|&b| b != mv);
        let drop = match best_other {
            Some(_) => (win_chance(before) - win_chance(played)).max(0.0),
            None => 0.0,
        };
        notes.push(PlyNote {
            mover,
            played,
            depth,
            best: best_other.map(|b| (b.ptn::<N>().to_string(), before)),
            drop,
            mark: thresholds.mark(drop),
        });
    }
    notes
}

/// `--game --json`: one JSON object per ply.
fn print_json_notes(game: &PtnGame, notes: &[PlyNote]) {
    for (i, (note, ply)) in notes.iter().zip(&game.plies).enumerate() {
        let best = note.best.as_ref();
        println!(
            "{{\"ply\":{},\"move\":{},\"eval\":{},\"depth\":{},\"win_pct\":{},\
             \"win_pct_white\":{},\"best\":{},\"best_eval\":{},\"best_win_pct\":{},\
             \"drop_pct\":{},\"flag\":{}}}",
            i + 1,
            json_str(&ply.mv.to_string()),
            Score::json(note.played),
            note.depth,
            json_pct(note.chance()),
            json_pct(note.white_chance()),
            best.map_or("null".to_string(), |(m, _)| json_str(m)),
            best.map_or("null".to_string(), |&(_, s)| Score::json(s)),
            best.map_or("null".to_string(), |&(_, s)| json_pct(win_chance(s))),
            json_pct(note.drop),
            json_str(note.mark.map_or("", Mark::ptn))
        );
    }
}

/// Writes the annotated game: to `--out`, and as PTN or (`--link`) a PTN Ninja link on stdout.
fn write_annotated(args: &AnalyzeArgs, game: &PtnGame, notes: &[PlyNote]) -> Result<(), String> {
    let mut annotated = game.clone();
    for (note, ply) in notes.iter().zip(annotated.plies.iter_mut()) {
        if let Some(mark) = note.mark {
            // Our judgement replaces any `!`/`?` the file had; Tak marks (`'`, `"`) stay.
            ply.annotations.retain(|c| c == '\'' || c == '"');
            ply.annotations.push_str(mark.ptn());
        }
        ply.comments.push(note.comment());
    }
    let text = annotated.to_ptn();
    if let Some(out) = &args.out {
        std::fs::write(out, &text).map_err(|e| format!("--out {}: {e}", out.display()))?;
    }
    if args.link {
        // Open at the first blunder, before it is played; else at the start.
        let first_blunder = notes.iter().position(|n| n.mark == Some(Mark::Blunder));
        let name = format!("{} (cairn analyze)", players(game));
        println!(
            "{}",
            crate::ninja::link(&text, Some(&name), first_blunder.map(|i| (i, false)))
        );
    } else if args.out.is_none() {
        print!("{text}");
    }
    Ok(())
}

/// `White vs Black` from the player tags (`?` where a tag is missing).
fn players(game: &PtnGame) -> String {
    format!(
        "{} vs {}",
        game.tag("Player1").unwrap_or("?"),
        game.tag("Player2").unwrap_or("?")
    )
}

/// The evaluation graph of an annotated game: White's chance after each ply.
fn eval_graph<const N: usize>(
    game: &PtnGame,
    start: &Position<N>,
    notes: &[PlyNote],
    end: Option<GameResult>,
) -> EvalGraph {
    let result = game
        .result
        .clone()
        .or_else(|| end.map(|r| r.ptn().to_string()))
        .unwrap_or_else(|| "*".to_string());
    let marks = |m: Mark| notes.iter().filter(|n| n.mark == Some(m)).count();
    let counted = |m: Mark| {
        let n = marks(m);
        format!("{n} {}{}", m.name(), if n == 1 { "" } else { "s" })
    };
    let title = format!(
        "{}, {result}: White's winning chance ({}, {})",
        players(game),
        counted(Mark::Blunder),
        counted(Mark::Mistake)
    );
    let points = notes
        .iter()
        .enumerate()
        .map(|(i, note)| EvalPoint {
            x: move_x(start.ply() + i as u32),
            white: note.white_chance(),
            mark: note.mark,
            proven: note
                .played
                .proven()
                .map(|(win, _, kind)| (if win { note.mover } else { !note.mover }, kind)),
        })
        .collect();
    EvalGraph { title, points }
}
