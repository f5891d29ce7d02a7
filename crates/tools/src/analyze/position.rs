//! One position: its search (or, with `--solve`, the tinue prover's verdict) and its report, as
//! text or JSON, with the PTN Ninja link of the principal variation on request.

use super::json::{self, GameOverJson, PositionJson, TinueJson};
use super::search::{config, limits, run_search, table};
use super::{link, text, AnalyzeArgs, DEFAULT_MOVETIME_MS};
use cairn_search::SearchInfo;
use cairn_tak::board::{Position, TakGame};
use cairn_tak::eval::evaluate;
use cairn_tak::notation::tps;
use cairn_tak::tinue::{self, TinueLimits};
use std::sync::atomic::AtomicBool;

/// Analyses the position `at` has reached and prints the report (text or JSON).
pub(super) fn report<const N: usize>(args: &AnalyzeArgs, at: &TakGame<N>) -> Result<(), String> {
    let pos = at.position();
    let tps_text = tps::to_tps(pos);
    let static_eval = evaluate(pos);
    if let Some(result) = pos.result() {
        if args.json {
            return json::print(&GameOverJson::new::<N>(&tps_text, result));
        }
        text::print_game_over(pos, &tps_text, result);
        return Ok(());
    }
    if !args.json {
        text::print_header(pos, &tps_text, static_eval);
    }
    if args.solve {
        return solve(args, pos, &tps_text);
    }
    let tt = table(args)?;
    let several = args.multipv > 1;
    let done = run_search(
        at,
        &limits(args, DEFAULT_MOVETIME_MS),
        &config(args, args.multipv as usize),
        &tt,
        &|info: &SearchInfo| text::print_progress(info, several),
    );
    let link = args
        .link
        .then(|| link::position_link(pos, &tps_text, &done))
        .transpose()?;
    if args.json {
        return json::print(&PositionJson::new(
            pos,
            &tps_text,
            static_eval,
            &done,
            link.as_deref(),
        ));
    }
    text::print_search(pos, &done, link.as_deref());
    Ok(())
}

/// `--solve`: runs the tinue prover on the position and prints what it found.
fn solve<const N: usize>(
    args: &AnalyzeArgs,
    pos: &Position<N>,
    tps_text: &str,
) -> Result<(), String> {
    let budget = limits(args, DEFAULT_MOVETIME_MS);
    let tinue_limits = TinueLimits::from_search_limits(&budget, 0, args.hash as usize);
    let result = tinue::solve(pos, &tinue_limits, &AtomicBool::new(false));
    let line: Vec<String> = result
        .proof()
        .map(|(_, pv)| pv.iter().map(|m| m.ptn::<N>().to_string()).collect())
        .unwrap_or_default();
    if args.json {
        return json::print(&TinueJson::new(pos, tps_text, &result, &line));
    }
    text::print_tinue(pos.side_to_move(), &result, &line);
    Ok(())
}
