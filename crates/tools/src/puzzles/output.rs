//! The reports: each tinue as a [`Puzzle`] (its PTN game and PTN Ninja link), the text report,
//! the JSON document and the summary.

use super::find::{Find, Verdict};
use crate::ninja;
use cairn_tak::notation::ptn_game::PtnPly;
use cairn_tak::notation::{PtnGame, PtnMove};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One tinue found in a game, with where it comes from.
#[derive(Clone, Debug, Serialize)]
pub struct Puzzle {
    /// `unique` (a puzzle), `several` or `unsure`.
    pub verdict: Verdict,
    /// The PTN file, as given.
    pub file: String,
    /// 1-based index of the game in the file.
    pub game: usize,
    /// White's name in the game, if it has one.
    pub white: Option<String>,
    /// Black's name in the game, if it has one.
    pub black: Option<String>,
    /// Plies of the game played before the position.
    pub ply: usize,
    /// Board size.
    pub size: usize,
    /// Komi in flats.
    pub komi: f64,
    /// `white` or `black`: the side to move, who forces the road.
    pub side: String,
    /// The position.
    pub tps: String,
    /// Plies to the road (3, 5, 7, ...).
    pub plies: u32,
    /// The proof's line, the winning first move first.
    pub solution: Vec<String>,
    /// First moves proven to win (more than one when `several`).
    pub winning_moves: Vec<String>,
    /// First moves neither proven nor disproven (when `unsure`).
    pub unsure_moves: Vec<String>,
    /// The move the game went on with (none if the game stops there).
    pub played: Option<String>,
    /// Whether the game's move was a proven winning first move.
    pub found: bool,
    /// The puzzle as a PTN game.
    pub ptn: String,
    /// The PTN Ninja link of [`Puzzle::ptn`].
    pub link: String,
}

impl Puzzle {
    /// The puzzle of `find`, from game `game` (1-based) of `file`, of board size `size`.
    pub fn new(find: Find, file: &str, game: usize, source: &PtnGame, size: usize) -> Puzzle {
        let player = |tag: &str| source.tag(tag).map(str::to_string);
        let side = find.side.to_string();
        let mut puzzle = Puzzle {
            verdict: find.verdict,
            file: file.to_string(),
            game,
            white: player("Player1"),
            black: player("Player2"),
            ply: find.ply,
            size,
            komi: find.half_komi as f64 / 2.0,
            side,
            tps: find.tps,
            plies: find.plies,
            solution: find.solution,
            winning_moves: find.winning_moves,
            unsure_moves: find.unsure_moves,
            played: find.played,
            found: find.found,
            ptn: String::new(),
            link: String::new(),
        };
        let game = puzzle.game_ptn(find.solution_reaches_road);
        puzzle.ptn = game.to_ptn();
        let name = format!("tinue in {}: {}", puzzle.plies, puzzle.source());
        puzzle.link = ninja::link(&game, Some(&name), Some((0, false)));
        puzzle
    }

    /// The players, `White vs Black` (`?` for a missing name).
    pub fn players(&self) -> String {
        let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_string());
        format!("{} vs {}", name(&self.white), name(&self.black))
    }

    /// Where the position comes from: file, game, players and ply.
    pub fn source(&self) -> String {
        format!(
            "{}, game {} ({}), after ply {}",
            self.file,
            self.game,
            self.players(),
            self.ply
        )
    }

    /// The comment before the solution: the length, the side and what the player did.
    pub fn comment(&self) -> String {
        let side = if self.side == "white" {
            "White"
        } else {
            "Black"
        };
        let what = match (&self.played, self.found) {
            (Some(mv), true) => format!("the player found it ({mv})"),
            (Some(mv), false) => format!("the player missed it ({mv})"),
            (None, _) => "the game stopped here".to_string(),
        };
        format!(
            "{side} to move forces a road in {} plies; {what}",
            self.plies
        )
    }

    /// The puzzle as a PTN game: the position as its TPS, the solution as its moves (with the
    /// road's result when `reaches_road`), the source in tags and the comment.
    fn game_ptn(&self, reaches_road: bool) -> PtnGame {
        let mut tags = vec![
            ("Size".to_string(), self.size.to_string()),
            ("Komi".to_string(), format!("{}", self.komi)),
            ("TPS".to_string(), self.tps.clone()),
        ];
        for (tag, value) in [("Player1", &self.white), ("Player2", &self.black)] {
            if let Some(value) = value {
                tags.push((tag.to_string(), value.clone()));
            }
        }
        tags.extend([
            ("Source".to_string(), self.file.clone()),
            ("SourceGame".to_string(), self.game.to_string()),
            ("SourcePly".to_string(), self.ply.to_string()),
            ("Tinue".to_string(), self.plies.to_string()),
            (
                "Found".to_string(),
                if self.found { "yes" } else { "no" }.to_string(),
            ),
        ]);
        let plies = self
            .solution
            .iter()
            .filter_map(|text| text.parse::<PtnMove>().ok())
            .map(|mv| PtnPly::new(mv, Vec::new()))
            .collect();
        let result = reaches_road.then(|| if self.side == "white" { "R-0" } else { "0-R" });
        PtnGame {
            tags,
            comments: vec![self.comment()],
            plies,
            result: result.map(str::to_string),
        }
    }
}

/// A game left out, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// The PTN file.
    pub file: String,
    /// 1-based index of the game in the file.
    pub game: usize,
    /// The error.
    pub error: String,
}

/// Counts of one tinue length.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct LengthCount {
    /// Puzzles (a unique winning first move).
    pub unique: usize,
    /// Tinues with several proven winning first moves.
    pub several: usize,
    /// Tinues with undecided other first moves.
    pub unsure: usize,
}

/// The run's totals.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Games read (scanned or skipped).
    pub games: usize,
    /// Games skipped for bad input.
    pub skipped: usize,
    /// Positions given to the prover.
    pub positions: u64,
    /// Positions with a road in one (no puzzles).
    pub road_in_one: u64,
    /// Tinue positions that continue the same player's tinue of two plies before.
    pub continuations: u64,
    /// Positions the prover could not decide within the budget.
    pub undecided: u64,
    /// Tinues of 3 plies or more reported (unique, several and unsure).
    pub tinues: usize,
    /// Puzzles: a unique winning first move.
    pub unique: usize,
    /// Tinues with several proven winning first moves.
    pub several: usize,
    /// Tinues with some other first move undecided.
    pub unsure: usize,
    /// The counts by tinue length in plies.
    pub by_length: BTreeMap<u32, LengthCount>,
    /// Puzzles whose player found the winning move.
    pub found: usize,
    /// Puzzles whose player missed it.
    pub missed: usize,
    /// Prover nodes spent.
    pub nodes: u64,
    /// Wall time, seconds.
    pub seconds: f64,
}

impl Summary {
    /// Counts a reported tinue.
    pub fn count(&mut self, puzzle: &Puzzle) {
        self.tinues += 1;
        let length = self.by_length.entry(puzzle.plies).or_default();
        match puzzle.verdict {
            Verdict::Unique => {
                self.unique += 1;
                length.unique += 1;
                if puzzle.found {
                    self.found += 1;
                } else {
                    self.missed += 1;
                }
            }
            Verdict::Several => {
                self.several += 1;
                length.several += 1;
            }
            Verdict::Unsure => {
                self.unsure += 1;
                length.unsure += 1;
            }
        }
    }

    /// The summary's text lines.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "games: {} read from {} files, {} skipped",
            self.games, self.files, self.skipped
        );
        let _ = writeln!(
            out,
            "positions: {} tried, {} road in one, {} continuations, {} undecided",
            self.positions, self.road_in_one, self.continuations, self.undecided
        );
        let _ = writeln!(
            out,
            "tinues: {} (unique {}, several {}, unsure {})",
            self.tinues, self.unique, self.several, self.unsure
        );
        for (plies, n) in &self.by_length {
            let _ = writeln!(
                out,
                "tinue in {plies}: unique {}, several {}, unsure {}",
                n.unique, n.several, n.unsure
            );
        }
        let _ = writeln!(
            out,
            "puzzles: {}, found by the player {}, missed {}",
            self.unique, self.found, self.missed
        );
        let _ = writeln!(out, "prover: {} nodes, {:.1} s", self.nodes, self.seconds);
        out
    }
}

/// Everything a run found: the `--json` document.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The totals.
    pub summary: Summary,
    /// The puzzles: tinues with a unique winning first move.
    pub puzzles: Vec<Puzzle>,
    /// Tinues with several proven winning first moves.
    pub several: Vec<Puzzle>,
    /// Tinues with some other first move neither proven nor disproven.
    pub unsure: Vec<Puzzle>,
    /// Games left out for bad input.
    pub skipped: Vec<Skipped>,
}

impl Report {
    /// The puzzle collection: every puzzle's PTN game, one after the other.
    pub fn collection(&self) -> String {
        self.puzzles
            .iter()
            .map(|p| p.ptn.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The text report: each puzzle, each tinue with several or unsure first moves, each
    /// skipped game, then the summary.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (kind, list) in [
            ("puzzle", &self.puzzles),
            ("several", &self.several),
            ("unsure", &self.unsure),
        ] {
            for (i, p) in list.iter().enumerate() {
                let side = if p.side == "white" { "White" } else { "Black" };
                let what = match (&p.played, p.found) {
                    (Some(mv), true) => format!("found ({mv})"),
                    (Some(mv), false) => format!("missed ({mv})"),
                    (None, _) => "not played".to_string(),
                };
                let _ = writeln!(
                    out,
                    "{kind} {}: tinue in {}, {side} to move, {what}",
                    i + 1,
                    p.plies
                );
                let _ = writeln!(out, "  source: {}", p.source());
                let _ = writeln!(out, "  tps: {}", p.tps);
                let _ = writeln!(out, "  solution: {}", p.solution.join(" "));
                match p.verdict {
                    Verdict::Unique => {}
                    Verdict::Several => {
                        let _ = writeln!(out, "  winning moves: {}", p.winning_moves.join(" "));
                    }
                    Verdict::Unsure => {
                        let _ = writeln!(out, "  unsure moves: {}", p.unsure_moves.join(" "));
                    }
                }
                let _ = writeln!(out, "  link: {}", p.link);
            }
        }
        for s in &self.skipped {
            let _ = writeln!(out, "skipped: {}: game {}: {}", s.file, s.game, s.error);
        }
        out.push_str(&self.summary.text());
        out
    }
}
