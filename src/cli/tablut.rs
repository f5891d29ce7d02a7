//! `cairn tablut`: runs one of Tablut's subcommands ([`cairn_tools::tablut::args`]) and prints
//! what it gives.

use cairn_tablut::eval::NAMES;
use cairn_tools::tablut::args::{SelfplayArgs, TablutCommand};
use cairn_tools::tablut::{self as tools, tune::TuneArgs};
use std::io::Write;

/// Runs one Tablut subcommand.
pub fn run(command: &TablutCommand) -> Result<(), String> {
    let stdout = std::io::stdout();
    let io = |e: std::io::Error| format!("output: {e}");
    match command {
        TablutCommand::Analyze(args) => {
            let game = args.start.game()?;
            tools::analyze(&game, &args.think.effort(), &mut stdout.lock()).map_err(io)
        }
        TablutCommand::Perft(args) => {
            let game = args.start.game()?;
            tools::perft(&game, args.depth, &mut stdout.lock()).map_err(io)
        }
        TablutCommand::Play(args) => {
            let game = args.start.game()?;
            let stdin = std::io::stdin();
            tools::play(
                game,
                args.side.into(),
                &args.think.effort(),
                &mut stdin.lock(),
                &mut stdout.lock(),
            )
            .map(|_| ())
            .map_err(io)
        }
        TablutCommand::Tune(args) => tune(args),
        TablutCommand::Selfplay(args) => self_play(args),
    }
}

fn self_play(args: &SelfplayArgs) -> Result<(), String> {
    let mut out: Box<dyn Write> = match &args.games_out {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .map_err(|e| format!("--games-out {}: {e}", path.display()))?,
        ),
        None => Box::new(std::io::sink()),
    };
    let [first, second] = args.efforts();
    let score = tools::self_play(
        &first,
        &second,
        args.pairs,
        args.random_plies,
        args.max_plies,
        args.seed,
        &mut out,
    )
    .map_err(|e| format!("--games-out: {e}"))?;
    let wins = |s: [u32; 2]| s[0] + s[1];
    println!(
        "first ({} ms) {} - {} second ({} ms) in {} games; first won {} as Black, {} as White; second won {} as Black, {} as White",
        args.first_ms,
        wins(score.first),
        wins(score.second),
        args.second_ms,
        score.games,
        score.first[0],
        score.first[1],
        score.second[0],
        score.second[1]
    );
    Ok(())
}

fn tune(args: &TuneArgs) -> Result<(), String> {
    let report = tools::tune::run(args)?;
    println!(
        "{} games finished ({} won by White), {} training and {} validation positions",
        report.games, report.white_wins, report.train, report.valid
    );
    println!(
        "k {} (best for the starting weights: {:.5}); loss train/valid: start {:.5}/{:.5}, fitted {:.5}/{:.5}",
        report.k,
        report.k_start,
        report.start_loss[0],
        report.start_loss[1],
        report.fitted_loss[0],
        report.fitted_loss[1]
    );
    let start = args.start_weights();
    for ((name, old), new) in NAMES.iter().zip(start).zip(report.weights) {
        println!("{name:>16}: {old:>6} -> {new:>6}");
    }
    let list: Vec<String> = report.weights.iter().map(|w| w.to_string()).collect();
    println!("pub const WEIGHTS: [i32; TERMS] = [{}];", list.join(", "));
    Ok(())
}
