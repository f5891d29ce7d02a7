//! `cairn match` from its arguments to its output: the outputs checked before the first game,
//! the match, then the result on stdout (the summary, the pairs and the SPRT as text, or one
//! JSON document with `--json`) and the picture (`--plot`).

use super::{run, GameResult, Interrupt, MatchArgs, MatchConfig, MatchOutcome};
use crate::output::OutputFile;
use crate::report::{counted, summary_line, two_decimals, PairsJson, SprtJson, TallyJson};

/// Runs `cairn match`; `Err` is the one-line message for the user. A match stopped by a failed
/// write of its PTN, or by Ctrl-C or SIGTERM, still prints its result over the games it kept,
/// then fails with a message that says why it stopped.
pub fn main(args: &MatchArgs) -> Result<(), String> {
    let config = args.config()?;
    // Checked before the first game (the PTN file is opened by `run`, also before it).
    let plot = OutputFile::create_if("--plot", args.plot.as_deref())?;
    let outcome = run(&config, &Interrupt::on_signals()?)?;
    if args.json {
        let json = serde_json::to_string_pretty(&MatchJson::new(&config, &outcome))
            .map_err(|e| format!("--json: {e}"))?;
        println!("{json}");
    } else {
        print!("{}", text(&config, &outcome));
    }
    if let Some(plot) = plot {
        if outcome.games.is_empty() {
            return Err(format!(
                "--plot {}: no game was played, nothing drawn",
                plot.path().display()
            ));
        }
        let report = crate::report::MatchReport::from_ptn(&outcome.games.concat())
            .map_err(|e| format!("--plot: the match's games: {e}"))?;
        plot.commit(crate::plot::match_svg(&report.graph())?)?;
    }
    match outcome.stopped() {
        Some(why) => Err(why),
        None => Ok(()),
    }
}

/// The text result: the summary line, the pairs and the SPRT.
fn text(config: &MatchConfig, outcome: &MatchOutcome) -> String {
    let names = [&*config.engines[0].name, &*config.engines[1].name];
    let mut out = format!(
        "{}, forfeits {}/{}\n",
        summary_line(names, &outcome.tally),
        outcome.forfeits[0],
        outcome.forfeits[1]
    );
    let p = outcome.pairs;
    if p.pairs() > 0 {
        let [c0, c1, c2, c3, c4] = p.counts;
        out += &format!(
            "pairs (0, 1/2, 1, 3/2, 2 points): {c0} {c1} {c2} {c3} {c4} ({}), elo {:.1}\n",
            counted(p.pairs().into(), "pair"),
            p.elo()
        );
    }
    if let Some((llr, state)) = config.sprt.map(|t| p.sprt(&t)) {
        out += &format!(
            "sprt: llr {} over the pairs, {state:?}\n",
            two_decimals(llr)
        );
    }
    out
}

/// `cairn match --json`: the match as one document.
#[derive(serde::Serialize, Debug)]
pub struct MatchJson {
    /// The summary line of the text output.
    pub title: String,
    /// The two engines; results are from the first one's point of view.
    pub engines: [EngineJson; 2],
    /// How the games were played.
    pub settings: SettingsJson,
    /// The first engine's wins, losses and draws, with its Elo and 95 % interval.
    pub score: TallyJson,
    /// Games lost by forfeit (crash, time, illegal move), per engine.
    pub forfeits: [u32; 2],
    /// The finished pairs (one opening, colours swapped), if any.
    pub pairs: Option<PairsJson>,
    /// The SPRT over the pairs, when one was run.
    pub sprt: Option<SprtJson>,
    /// Every game, in the order they finished.
    pub games: Vec<GameResult>,
    /// Why the match stopped before its last game, if it did: a failed write or an interrupt.
    pub stopped: Option<String>,
}

/// An engine of the match.
#[derive(serde::Serialize, Debug)]
pub struct EngineJson {
    /// Its name.
    pub name: String,
    /// Its program.
    pub cmd: String,
    /// The program's arguments.
    pub args: Vec<String>,
    /// The `setoption` values sent after the handshake, by name.
    pub options: std::collections::BTreeMap<String, String>,
}

/// The settings of a match.
#[derive(serde::Serialize, Debug)]
pub struct SettingsJson {
    /// Board size.
    pub size: usize,
    /// Komi in flats.
    pub komi: f64,
    /// The clock, `base+increment` in seconds (`null` in a match by nodes).
    pub tc: Option<String>,
    /// Nodes per move, in a match by nodes.
    pub nodes: Option<u64>,
    /// Plies after which a game is stopped unfinished.
    pub max_plies: u32,
    /// Games scheduled (whole pairs).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The book's opening of the first pair (1-based), when there is a book.
    pub book_start: Option<usize>,
}

impl MatchJson {
    /// The document of a played match.
    pub fn new(config: &MatchConfig, outcome: &MatchOutcome) -> MatchJson {
        let s = &config.settings;
        let p = outcome.pairs;
        let names = [&*config.engines[0].name, &*config.engines[1].name];
        MatchJson {
            title: summary_line(names, &outcome.tally),
            engines: config.engines.clone().map(|e| EngineJson {
                name: e.name,
                cmd: e.cmd,
                args: e.args,
                options: e.options.into_iter().collect(),
            }),
            settings: SettingsJson {
                size: config.size,
                komi: s.komi.flats(),
                tc: s.nodes.is_none().then(|| s.tc.to_string()),
                nodes: s.nodes,
                max_plies: s.max_plies,
                games: config.games.div_ceil(2).max(1) * 2,
                concurrency: config.concurrency,
                book_start: config.book.is_some().then_some(config.book_start + 1),
            },
            score: (&outcome.tally).into(),
            forfeits: outcome.forfeits,
            pairs: (p.pairs() > 0).then(|| PairsJson {
                counts: p.counts,
                pairs: p.pairs(),
                elo: p.elo().into(),
            }),
            sprt: config.sprt.map(|t| SprtJson::new(&t, &p)),
            games: outcome.results.clone(),
            stopped: outcome.stopped(),
        }
    }
}
