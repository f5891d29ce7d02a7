//! The JSON documents of `cairn analyze --json`, as serde types written by `serde_json`: a
//! finished game's position, one searched position with its lines, a tinue verdict, and one
//! reviewed game (one object with one entry per ply and the players' summaries). Scores are objects (`{"cp":45}` or
//! `{"win":true,"plies":3,"kind":"road"}`) and winning chances are numbers of percent to 0.1.

use super::annotate::{PlyNote, Review};
use super::review::{white_view, PlayerSummary};
use super::search::{for_white, Searched};
use super::text::color_name;
use crate::chance::{win_chance, Mark};
use cairn_search::score::Score;
use cairn_tak::board::{Color, GameResult, Komi, Position};
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::PtnGame;
use cairn_tak::tinue::TinueResult;
use serde::{Serialize, Serializer};

/// Prints one document as one line of JSON on stdout.
pub(super) fn print(doc: &impl Serialize) -> Result<(), String> {
    let line = serde_json::to_string(doc).map_err(|e| format!("writing the JSON: {e}"))?;
    println!("{line}");
    Ok(())
}

/// A score: `{"cp":45}` for an evaluation (centiflats, for the side named), or
/// `{"win":true,"plies":3,"kind":"road"}` for a proven result.
#[derive(Serialize, Debug, PartialEq)]
#[serde(untagged)]
pub(super) enum ScoreJson {
    /// An evaluation.
    Eval {
        /// In centiflats.
        cp: i32,
    },
    /// A proven result.
    Proven {
        /// A win (else a loss).
        win: bool,
        /// Plies to the end.
        plies: u32,
        /// `road` or `flats`.
        kind: &'static str,
    },
}

impl From<Score> for ScoreJson {
    fn from(score: Score) -> Self {
        match score.proven() {
            Some((win, plies, kind)) => ScoreJson::Proven {
                win,
                plies,
                kind: kind.name(),
            },
            None => ScoreJson::Eval { cp: score.0 },
        }
    }
}

/// A winning chance in percent, rounded to 0.1 the way the text report writes it.
fn tenths(chance: f64) -> f64 {
    format!("{chance:.1}").parse().unwrap_or(chance)
}

/// The side to move: `white` or `black`.
fn side_name(color: Color) -> String {
    color_name(color).to_lowercase()
}

/// A komi in flats: a whole one as an integer (`2`), a half one as a decimal (`2.5`).
struct KomiJson(Komi);

impl Serialize for KomiJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let halves = self.0.halves();
        if halves % 2 == 0 {
            serializer.serialize_i8(halves / 2)
        } else {
            serializer.serialize_f64(self.0.flats())
        }
    }
}

/// A score from the side to move's view and White's, with both winning chances.
#[derive(Serialize)]
struct Judged {
    /// For the side to move.
    score: ScoreJson,
    /// For White.
    score_white: ScoreJson,
    /// The side to move's winning chance, percent.
    win_pct: f64,
    /// White's winning chance, percent.
    win_pct_white: f64,
}

impl Judged {
    /// `score`, for the side to move of `pos`, from both sides.
    fn new<const N: usize>(pos: &Position<N>, score: Score) -> Judged {
        let white = for_white(pos, score);
        Judged {
            score: score.into(),
            score_white: white.into(),
            win_pct: tenths(win_chance(score)),
            win_pct_white: tenths(win_chance(white)),
        }
    }
}

/// A position whose game is over: no search, the result.
#[derive(Serialize)]
pub(super) struct GameOverJson<'a> {
    /// Board size.
    size: usize,
    /// The position.
    tps: &'a str,
    /// The result in PTN (`R-0`, `0-F`, `1/2-1/2`).
    result: &'static str,
}

impl<'a> GameOverJson<'a> {
    /// The document of `tps`, a position of size `N` whose game ended with `result`.
    pub(super) fn new<const N: usize>(tps: &'a str, result: GameResult) -> Self {
        GameOverJson {
            size: N,
            tps,
            result: result.ptn(),
        }
    }
}

/// One searched position.
#[derive(Serialize)]
pub(super) struct PositionJson<'a> {
    /// Board size.
    size: usize,
    /// The position.
    tps: &'a str,
    /// `white` or `black`.
    side_to_move: String,
    /// Komi in flats.
    komi: KomiJson,
    /// The static evaluation, for the side to move.
    #[serde(rename = "static")]
    static_eval: ScoreJson,
    /// The depth reached.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// The search's time, ms.
    time_ms: u64,
    /// Nodes per second.
    nps: u64,
    /// The search's score.
    #[serde(flatten)]
    judged: Judged,
    /// The best move in PTN.
    best: String,
    /// The last line of each MultiPV index, best first.
    lines: Vec<LineJson<'a>>,
    /// The PTN Ninja link, with `--link`.
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<&'a str>,
}

impl<'a> PositionJson<'a> {
    /// The document of the search `done` of `pos` (written `tps`, statically `static_eval`), with
    /// its `link` if any.
    pub(super) fn new<const N: usize>(
        pos: &Position<N>,
        tps: &'a str,
        static_eval: Score,
        done: &'a Searched,
        link: Option<&'a str>,
    ) -> Self {
        PositionJson {
            size: N,
            tps,
            side_to_move: side_name(pos.side_to_move()),
            komi: KomiJson(pos.komi()),
            static_eval: static_eval.into(),
            depth: done.result.depth,
            nodes: done.result.nodes,
            time_ms: (done.secs * 1000.0) as u64,
            nps: done.nps(),
            judged: Judged::new(pos, done.result.score),
            best: done.best::<N>(),
            lines: done
                .lines
                .iter()
                .map(|line| LineJson {
                    multipv: line.multipv,
                    depth: line.depth,
                    judged: Judged::new(pos, line.score),
                    pv: &line.pv,
                })
                .collect(),
            link,
        }
    }
}

/// One line of a MultiPV search.
#[derive(Serialize)]
struct LineJson<'a> {
    /// Its index, 1 = best.
    multipv: usize,
    /// Its depth.
    depth: u32,
    /// Its score.
    #[serde(flatten)]
    judged: Judged,
    /// Its moves in PTN.
    pv: &'a [String],
}

/// The tinue prover's verdict on a position.
#[derive(Serialize)]
pub(super) struct TinueJson<'a> {
    /// Board size.
    size: usize,
    /// The position.
    tps: &'a str,
    /// `white` or `black`: the attacker.
    side_to_move: String,
    /// `proven`, `disproven` or `unknown`.
    tinue: &'static str,
    /// The plies to the road when proven, else `null`.
    plies: Option<u32>,
    /// The proof's line in PTN (empty when not proven).
    pv: &'a [String],
    /// Nodes searched.
    nodes: u64,
    /// Time taken, ms.
    time_ms: u64,
}

impl<'a> TinueJson<'a> {
    /// The document of `result`, the prover's verdict on `pos` (written `tps`) with its `line`.
    pub(super) fn new<const N: usize>(
        pos: &Position<N>,
        tps: &'a str,
        result: &TinueResult,
        line: &'a [String],
    ) -> Self {
        TinueJson {
            size: N,
            tps,
            side_to_move: side_name(pos.side_to_move()),
            tinue: result.kind(),
            plies: result.proof().map(|(plies, _)| plies),
            pv: line,
            nodes: result.nodes,
            time_ms: result.time_ms,
        }
    }
}

/// A reviewed game: its players, result and book, one object per ply, and the summary of each
/// player. Every score and chance is White's, except `drop_pct`, which is the mover's loss.
#[derive(Serialize)]
pub(super) struct GameJson<'a> {
    /// White's name (`?` when the file has none).
    white: &'a str,
    /// Black's name.
    black: &'a str,
    /// The result in PTN, `*` when unfinished.
    result: &'a str,
    /// Board size.
    size: usize,
    /// Komi in flats.
    komi: KomiJson,
    /// The point of view of every score: `white`.
    view: &'static str,
    /// The book plies before the first judged one.
    book_plies: usize,
    /// The position before the first judged ply, White's view.
    opening_eval: Option<ScoreJson>,
    /// Every ply of the game.
    plies: Vec<PlyJson<'a>>,
    /// Per player.
    summary: SummaryJson<'a>,
}

impl<'a> GameJson<'a> {
    /// The document of `review`, the review of `game` from `start`.
    pub(super) fn new<const N: usize>(
        game: &'a PtnGame,
        start: &Position<N>,
        review: &'a Review,
    ) -> Self {
        let [white, black] = &review.players;
        GameJson {
            white: &white.name,
            black: &black.name,
            result: &review.result,
            size: N,
            komi: KomiJson(start.komi()),
            view: "white",
            book_plies: review.book,
            opening_eval: review.opening.map(ScoreJson::from),
            plies: review
                .notes
                .iter()
                .zip(&game.plies)
                .enumerate()
                .map(|(i, (note, ply))| PlyJson::new(i + 1, ply, note))
                .collect(),
            summary: SummaryJson {
                white: PlayerJson::new(white),
                black: PlayerJson::new(black),
            },
        }
    }
}

/// One ply of a reviewed game; the evaluation fields are `null` on a book ply.
#[derive(Serialize)]
pub(super) struct PlyJson<'a> {
    /// 1-based ply number in the game.
    ply: usize,
    /// The move played, in PTN.
    #[serde(rename = "move")]
    mv: String,
    /// `white` or `black`.
    mover: String,
    /// An opening-book ply, not judged.
    book: bool,
    /// Its value, White's view.
    eval_white: Option<ScoreJson>,
    /// The depth behind `eval_white` (0 when the move ended the game).
    depth: Option<u32>,
    /// Whether `eval_white` is the tinue prover's proof.
    tinue: bool,
    /// White's winning chance after it, percent.
    win_pct_white: Option<f64>,
    /// The better move found, if it was not the one played.
    best: Option<&'a str>,
    /// Its value, White's view.
    best_eval_white: Option<ScoreJson>,
    /// White's winning chance after it, percent.
    best_win_pct_white: Option<f64>,
    /// The winning chance the mover lost against it, percentage points.
    drop_pct: Option<f64>,
    /// The move lets the opponent force a win from a position that was not lost.
    walks_into_loss: bool,
    /// `??`, `?`, `?!` or empty.
    flag: &'static str,
}

impl<'a> PlyJson<'a> {
    /// The document of `ply`, number `number` of the game, judged by `note`.
    pub(super) fn new(number: usize, ply: &PtnPly, note: &'a PlyNote) -> Self {
        let eval = note.eval.as_ref();
        let white = |s: Score| white_view(note.mover, s);
        let best = eval.and_then(|e| e.best.as_ref());
        PlyJson {
            ply: number,
            mv: ply.mv.to_string(),
            mover: side_name(note.mover),
            book: eval.is_none(),
            eval_white: eval.map(|e| white(e.played).into()),
            depth: eval.map(|e| e.depth),
            tinue: eval.is_some_and(|e| e.by_prover),
            win_pct_white: note.white_chance().map(tenths),
            best: best.map(|(m, _)| m.as_str()),
            best_eval_white: best.map(|&(_, s)| white(s).into()),
            best_win_pct_white: best.map(|&(_, s)| tenths(win_chance(white(s)))),
            drop_pct: eval.map(|e| tenths(e.drop)),
            walks_into_loss: eval.is_some_and(|e| e.walks_into_loss),
            flag: note.mark.map_or("", Mark::ptn),
        }
    }
}

/// Both players' summaries.
#[derive(Serialize)]
struct SummaryJson<'a> {
    white: PlayerJson<'a>,
    black: PlayerJson<'a>,
}

/// One player's summary, the numbers as the text summary rounds them.
#[derive(Serialize)]
struct PlayerJson<'a> {
    /// The name.
    player: &'a str,
    /// The moves judged.
    moves: usize,
    /// `?!` count.
    inaccuracies: usize,
    /// `?` count.
    mistakes: usize,
    /// `??` count.
    blunders: usize,
    /// The mean winning chance lost per move, percentage points (`null` with no move judged).
    average_loss_pct: Option<f64>,
    /// The accuracy, percent (`null` with no move judged).
    accuracy_pct: Option<f64>,
}

impl<'a> PlayerJson<'a> {
    fn new(p: &'a PlayerSummary) -> Self {
        let [inaccuracies, mistakes, blunders] = p.marks;
        PlayerJson {
            player: &p.name,
            moves: p.moves,
            inaccuracies,
            mistakes,
            blunders,
            average_loss_pct: p.average_loss.map(tenths),
            accuracy_pct: p.accuracy.map(tenths),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairn_search::score::WinKind;

    fn json(doc: &impl Serialize) -> String {
        serde_json::to_string(doc).unwrap()
    }

    #[test]
    fn scores_are_centiflats_or_proven_results() {
        assert_eq!(json(&ScoreJson::from(Score(-45))), r#"{"cp":-45}"#);
        let road = Score::win_in(3, WinKind::Outright);
        assert_eq!(
            json(&ScoreJson::from(road)),
            r#"{"win":true,"plies":3,"kind":"road"}"#
        );
        let flats = Score::loss_in(2, WinKind::Count);
        assert_eq!(
            json(&ScoreJson::from(flats)),
            r#"{"win":false,"plies":2,"kind":"flats"}"#
        );
    }

    #[test]
    fn komi_is_whole_or_half_flats() {
        let komi = |halves| json(&KomiJson(Komi::from_halves(halves).unwrap()));
        assert_eq!(komi(0), "0");
        assert_eq!(komi(4), "2");
        assert_eq!(komi(5), "2.5");
        assert_eq!(komi(-3), "-1.5");
        assert_eq!(komi(-10), "-5");
    }

    #[test]
    fn chances_keep_one_decimal() {
        assert_eq!(json(&tenths(56.54)), "56.5");
        assert_eq!(json(&tenths(56.56)), "56.6");
        assert_eq!(json(&tenths(100.0)), "100.0");
        assert_eq!(json(&tenths(0.0)), "0.0");
    }

    #[test]
    fn a_marked_ply_names_the_better_move_from_whites_view() {
        use super::super::review::PlyEval;
        let note = PlyNote {
            mover: Color::Black,
            eval: Some(PlyEval {
                played: Score::loss_in(2, WinKind::Outright),
                depth: 3,
                by_prover: false,
                best: Some(("a2+".to_string(), Score::win_in(1, WinKind::Outright))),
                drop: 100.0,
                walks_into_loss: true,
            }),
            mark: Some(Mark::Blunder),
        };
        let ply = PtnPly::new("c2".parse().unwrap(), Vec::new());
        assert_eq!(
            json(&PlyJson::new(6, &ply, &note)),
            r#"{"ply":6,"move":"c2","mover":"black","book":false,"#.to_string()
                + r#""eval_white":{"win":true,"plies":2,"kind":"road"},"depth":3,"tinue":false,"#
                + r#""win_pct_white":100.0,"best":"a2+","#
                + r#""best_eval_white":{"win":false,"plies":1,"kind":"road"},"#
                + r#""best_win_pct_white":0.0,"drop_pct":100.0,"walks_into_loss":true,"#
                + r#""flag":"??"}"#
        );
        let book = PlyNote {
            mover: Color::White,
            eval: None,
            mark: None,
        };
        let ply = PtnPly::new("a1".parse().unwrap(), Vec::new());
        let doc = json(&PlyJson::new(1, &ply, &book));
        assert!(doc.contains(r#""book":true,"eval_white":null,"#), "{doc}");
        assert!(
            doc.ends_with(r#""drop_pct":null,"walks_into_loss":false,"flag":""}"#),
            "{doc}"
        );
    }
}
