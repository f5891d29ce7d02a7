//! Fuzz inputs: a corpus of valid inputs from random legal games, generators that follow each
//! grammar loosely (plausible text with wrong counts, sizes, stacks, numbers and keywords), and
//! mutators that break valid text the way files and pipes break it (flipped bits, bytes
//! inserted and deleted, tokens spliced, truncation, duplication).
//!
//! Everything is drawn from a seeded [`Rng`], so an input is fixed by its seed.

use cairn_engine::tei::command::GO_KEYS;
use cairn_search::rng::Rng;
use cairn_tak::board::{Move, Position};
use cairn_tak::notation::tps;

/// One random legal game, kept in the forms the targets read.
#[derive(Clone, Debug)]
pub struct CorpusGame {
    /// Board size.
    pub size: usize,
    /// TPS of the position the game starts from (the empty board or a position part-way).
    pub start: String,
    /// The plies from `start`, in canonical PTN.
    pub moves: Vec<String>,
    /// TPS of the final position.
    pub end: String,
    /// The final position's legal moves, sorted.
    pub legal: Vec<Move>,
}

/// Valid inputs to mutate, and positions to check moves against.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// Random legal games of every size.
    pub games: Vec<CorpusGame>,
}

impl Corpus {
    /// `per_size` random legal games of each size from 3 to 8, from `seed`.
    pub fn new(seed: u64, per_size: usize) -> Corpus {
        let mut rng = Rng::new(seed ^ 0xC0A9_0500);
        let mut games = Vec::new();
        for i in 0..6 * per_size {
            let size = 3 + i % 6;
            games.push(
                cairn_tak::with_size!(size, |N| random_game::<N>(&mut rng), else unreachable!()),
            );
        }
        Corpus { games }
    }

    /// A random game.
    pub fn game(&self, rng: &mut Rng) -> &CorpusGame {
        &self.games[rng.below(self.games.len())]
    }

    /// A random game of `size` (3..=8).
    pub fn game_of_size(&self, rng: &mut Rng, size: usize) -> &CorpusGame {
        let per_size = self.games.len() / 6;
        &self.games[(size - 3) + 6 * rng.below(per_size)]
    }

    /// A random valid text for `kind`, from the corpus.
    pub fn sample(&self, rng: &mut Rng, kind: Kind) -> String {
        let game = self.game(rng);
        match kind {
            Kind::Tps => {
                let text = if rng.chance(2) {
                    &game.end
                } else {
                    &game.start
                };
                if rng.chance(3) {
                    cairn_tak::with_size!(game.size, |N| tps::parse::<N>(text)
                        .map(|p| tps::to_tps_uncompressed(&p))
                        .unwrap_or_else(|_| text.clone()), else text.clone())
                } else {
                    text.clone()
                }
            }
            Kind::Move => match game.moves.len() {
                0 => "a1".to_string(),
                n => game.moves[rng.below(n)].clone(),
            },
            Kind::PtnFile => ptn_file_of(rng, game),
            Kind::TeiLine => position_line(rng, game),
        }
    }
}

/// Which grammar an input is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A TPS position.
    Tps,
    /// One PTN move.
    Move,
    /// A PTN file.
    PtnFile,
    /// One TEI command line.
    TeiLine,
}

fn random_game<const N: usize>(rng: &mut Rng) -> CorpusGame {
    let mut pos = Position::<N>::start();
    let length = rng.below(3 * N * N);
    // Some games start part-way, as puzzles and `position tps` do.
    let from = if rng.chance(3) {
        rng.below(length + 1)
    } else {
        0
    };
    let mut start = tps::to_tps(&pos);
    let mut moves = Vec::new();
    for ply in 0..length {
        if ply == from {
            start = tps::to_tps(&pos);
            moves.clear();
        }
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.result().is_some() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        moves.push(mv.ptn::<N>().to_string());
        pos.make(mv);
    }
    let mut legal: Vec<Move> = pos.legal_moves().to_vec();
    legal.sort();
    CorpusGame {
        size: N,
        start,
        moves,
        end: tps::to_tps(&pos),
        legal,
    }
}

/// Picks one of `items`.
fn pick<'a, T: ?Sized>(rng: &mut Rng, items: &[&'a T]) -> &'a T {
    items[rng.below(items.len())]
}

/// Tokens that tend to find edge cases in any of the grammars.
const INTERESTING: &[&str] = &[
    "",
    " ",
    "  ",
    "\t",
    "\r",
    "x",
    "x0",
    "x9",
    "x12",
    "x99999999999999999999",
    "/",
    "//",
    ",",
    ",,",
    "1",
    "2",
    "12",
    "21S",
    "1C",
    "S",
    "C",
    "0",
    "-1",
    "+",
    "-",
    "<",
    ">",
    "*",
    "'",
    "!",
    "?",
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    "moves",
    "tps",
    "startpos",
    "\u{feff}",
    "é",
    "ẞ",
    "\u{0}",
    "9",
    "10",
    "99999999999",
    "4294967296",
    "18446744073709551616",
    "-9223372036854775809",
    "1e30",
    "NaN",
    "inf",
    "0.5",
    "--",
    "1.",
    "1...",
    "R-0",
    "0-F",
    "1/2-1/2",
    "value",
    "name",
    "infinite",
    "solved",
    "size",
    "halfkomi",
    "komi",
];

/// Big, negative, malformed and boundary numbers.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "-5",
    "2",
    "3",
    "8",
    "9",
    "30",
    "64",
    "126",
    "127",
    "128",
    "255",
    "256",
    "1000",
    "65535",
    "65536",
    "65537",
    "4294967295",
    "4294967296",
    "99999999999",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e30",
    "1.5",
    "-0",
    "+3",
    "0x10",
    "",
    "x",
    "NaN",
    "٣",
];

/// A random number from [`NUMBERS`] or a small one.
fn number(rng: &mut Rng) -> String {
    if rng.chance(2) {
        rng.below(12).to_string()
    } else {
        pick(rng, NUMBERS).to_string()
    }
}

/// Random text: raw bytes made into text, printable ASCII, or characters of `alphabet`.
pub fn random_text(rng: &mut Rng, alphabet: &str) -> String {
    let len = if rng.chance(20) {
        rng.below(600)
    } else {
        rng.below(40)
    };
    match rng.below(4) {
        0 => {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        1 => (0..len)
            .map(|_| (b' ' + rng.below(95) as u8) as char)
            .collect(),
        _ => {
            let chars: Vec<char> = alphabet.chars().collect();
            (0..len).map(|_| chars[rng.below(chars.len())]).collect()
        }
    }
}

/// Breaks `text` with 1 to 4 mutations; `donor` gives tokens to splice in.
pub fn mutate(rng: &mut Rng, text: &str, donor: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(10) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => bytes.insert(at, rng.next_u64() as u8),
            2 => {
                let token = pick(rng, INTERESTING).as_bytes().to_vec();
                bytes.splice(at..at, token);
            }
            3 => {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            4 => {
                let end = (at + 1 + rng.below(16)).min(bytes.len());
                let copy = bytes[at.min(end)..end].to_vec();
                bytes.splice(at..at, copy);
            }
            5 => bytes.truncate(at),
            6 | 7 => {
                // Swap in a token of the donor, or swap two tokens.
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut tokens: Vec<&str> = text.split(' ').collect();
                let donors: Vec<&str> = donor.split(' ').collect();
                let i = rng.below(tokens.len());
                if rng.chance(2) {
                    tokens[i] = donors[rng.below(donors.len())];
                } else {
                    let j = rng.below(tokens.len());
                    tokens.swap(i, j);
                }
                bytes = tokens.join(" ").into_bytes();
            }
            8 => {
                // A run of digits becomes another number.
                let start = bytes.iter().position(|b| b.is_ascii_digit());
                if let Some(start) = start {
                    let len = bytes[start..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let n = number(rng).into_bytes();
                    bytes.splice(start..start + len, n);
                }
            }
            _ if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] = bytes[i].to_ascii_uppercase() ^ (rng.below(2) as u8 * 0x20);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A TPS that is plausible but often wrong: sizes 0 to 12, rows of the wrong length, bad or tall
/// stacks, bad players and move numbers.
pub fn tps_text(rng: &mut Rng) -> String {
    // At most one flaw, in about half of them, so that many are valid and reach the rules.
    let flaw = rng.below(16);
    let size = if flaw == 0 {
        rng.below(13)
    } else {
        3 + rng.below(6)
    };
    let rows = if flaw == 1 {
        (size + rng.below(3)).saturating_sub(1)
    } else {
        size
    };
    let bad_row = if flaw == 2 {
        rng.below(rows.max(1))
    } else {
        usize::MAX
    };
    let mut board = Vec::new();
    for row in 0..rows {
        let squares = if row == bad_row {
            (size + rng.below(3)).saturating_sub(1)
        } else {
            size
        };
        let mut cells: Vec<String> = Vec::new();
        let mut i = 0;
        while i < squares {
            if rng.chance(2) {
                let run = 1 + rng.below(squares - i);
                cells.push(match run {
                    1 if rng.chance(2) => "x".to_string(),
                    _ if flaw == 3 && rng.chance(4) => format!("x{}", number(rng)),
                    _ => format!("x{run}"),
                });
                i += run;
            } else {
                cells.push(stack_text(rng, flaw == 4));
                i += 1;
            }
        }
        board.push(cells.join(","));
    }
    let player = if flaw == 5 {
        number(rng)
    } else {
        (1 + rng.below(2)).to_string()
    };
    let move_number = if flaw == 6 {
        number(rng)
    } else {
        (1 + rng.below(40)).to_string()
    };
    let separator = pick(rng, &[" ", " ", " ", "\t", "  "]);
    let mut fields = vec![board.join("/"), player, move_number];
    if flaw == 7 {
        fields.truncate(rng.below(3));
    }
    if flaw == 8 {
        fields.push(number(rng));
    }
    fields.join(separator)
}

/// A stack: mostly 1s and 2s with an optional top, sometimes very tall or with a stray letter.
fn stack_text(rng: &mut Rng, flawed: bool) -> String {
    let height = if flawed && rng.chance(4) {
        rng.below(120)
    } else {
        1 + rng.below(4)
    };
    let mut text: String = (0..height)
        .map(|_| if rng.chance(2) { '1' } else { '2' })
        .collect();
    match rng.below(12) {
        0 => text.push('S'),
        1 => text.push('C'),
        2 if flawed => {
            let i = rng.below(text.len() + 1);
            text.insert(
                i,
                pick(rng, &["S", "C", "3", "0", "x", "F", " "])
                    .chars()
                    .next()
                    .unwrap(),
            );
        }
        _ => {}
    }
    text
}

/// A PTN move that is plausible but often wrong: bad counts, squares, directions and drops.
pub fn move_text(rng: &mut Rng) -> String {
    let mut text = String::new();
    let count = 1 + rng.below(8);
    match rng.below(12) {
        0..=3 => text.push_str(&count.to_string()),
        4 => text.push_str(pick(rng, &["0", "9", "10", "00"])),
        5..=6 => text.push(pick(rng, &["F", "S", "C"]).chars().next().unwrap()),
        7 if rng.chance(3) => text.push(pick(rng, &["f", "X", "s", "c"]).chars().next().unwrap()),
        _ => {}
    }
    let file = if rng.chance(20) {
        pick(rng, &["i", "j", "z", "A", "", "é"])
    } else {
        ["a", "b", "c", "d", "e", "f", "g", "h"][rng.below(8)]
    };
    text.push_str(file);
    let rank = if rng.chance(20) {
        pick(rng, &["0", "9", "10", "", "a"]).to_string()
    } else {
        (1 + rng.below(8)).to_string()
    };
    text.push_str(&rank);
    if rng.chance(2) {
        text.push_str(if rng.chance(20) {
            pick(rng, &["^", "=", "v", "++"])
        } else {
            ["+", "-", "<", ">"][rng.below(4)]
        });
        match rng.below(3) {
            0 => {}
            1 => {
                // Drops that add up to the count.
                let mut left = count;
                while left > 0 {
                    let d = 1 + rng.below(left);
                    text.push_str(&d.to_string());
                    left -= d;
                }
            }
            _ => {
                for _ in 0..1 + rng.below(9) {
                    text.push_str(&rng.below(10).to_string());
                }
            }
        }
    }
    if rng.chance(8) {
        text.push('*');
    }
    if rng.chance(8) {
        for _ in 0..1 + rng.below(3) {
            text.push_str(pick(rng, &["'", "\"", "!", "?"]));
        }
    }
    text
}

/// A whole PTN file of a corpus game, with tags, numbering, comments and a result.
fn ptn_file_of(rng: &mut Rng, game: &CorpusGame) -> String {
    let mut text = format!("[Size \"{}\"]\n", game.size);
    if game.start != empty_tps(game.size) {
        text.push_str(&format!("[TPS \"{}\"]\n", game.start));
    }
    if rng.chance(2) {
        text.push_str(&format!(
            "[Komi \"{}\"]\n",
            pick(rng, &["0", "2", "2.5", "-1"])
        ));
    }
    text.push('\n');
    let first_ply = game
        .start
        .parse::<cairn_tak::notation::Tps>()
        .map_or(0, |t| t.ply() as usize);
    for (i, mv) in game.moves.iter().enumerate() {
        let ply = first_ply + i;
        if ply % 2 == 0 {
            text.push_str(&format!("\n{}. ", ply / 2 + 1));
        } else if i == 0 {
            text.push_str(&format!("{}. -- ", ply / 2 + 1));
        }
        text.push_str(mv);
        text.push(' ');
        if rng.chance(10) {
            text.push_str("{a comment} ");
        }
    }
    if rng.chance(2) {
        text.push_str(pick(rng, &["R-0", "0-R", "F-0", "1/2-1/2", "*"]));
    }
    text.push('\n');
    text
}

fn empty_tps(size: usize) -> String {
    let row = format!("x{size}");
    format!("{} 1 1", vec![row; size].join("/"))
}

/// A PTN file that is plausible but often wrong: broken tags, odd tag values, unterminated
/// comments, move numbers in every style, bad moves and results, several games.
pub fn ptn_file_text(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut text = String::new();
    if rng.chance(10) {
        text.push('\u{feff}');
    }
    let newline = if rng.chance(4) { "\r\n" } else { "\n" };
    let games = if rng.chance(5) { 1 + rng.below(4) } else { 1 };
    for _ in 0..games {
        let game = corpus.game(rng);
        for _ in 0..rng.below(5) {
            text.push_str(&tag_text(rng, game));
            text.push_str(newline);
        }
        text.push_str(newline);
        let first = if rng.chance(4) { 1 + rng.below(30) } else { 1 };
        let mut number = first;
        let moves: Vec<String> = if rng.chance(2) {
            game.moves.clone()
        } else {
            (0..rng.below(12)).map(|_| move_text(rng)).collect()
        };
        for (i, mv) in moves.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&match rng.below(8) {
                    0 => format!("{number}..."),
                    1 => format!("{number}.{mv}"),
                    2 => String::new(),
                    _ => format!("{number}. "),
                });
                number += 1;
            }
            if rng.chance(30) {
                text.push_str("-- ");
            }
            if !text.ends_with(mv.as_str()) {
                text.push_str(mv);
            }
            text.push(' ');
            match rng.below(20) {
                0 => text.push_str("{comment {nested?} "),
                1 => text.push_str("{unterminated"),
                2 => text.push_str(newline),
                _ => {}
            }
        }
        if rng.chance(2) {
            text.push_str(pick(
                rng,
                &[
                    "R-0", "0-R", "F-0", "0-F", "1-0", "0-1", "1/2-1/2", "0-0", "*", "2-0", "R-R",
                    "1/2", "R-0 R-0", "R-0 a1",
                ],
            ));
        }
        text.push_str(newline);
    }
    text
}

/// One tag pair, usually well-formed.
fn tag_text(rng: &mut Rng, game: &CorpusGame) -> String {
    let (name, value) = match rng.below(8) {
        0 => ("Size", number(rng)),
        1 => ("Size", game.size.to_string()),
        2 => (
            "TPS",
            if rng.chance(2) {
                game.start.clone()
            } else {
                tps_text(rng)
            },
        ),
        3 => (
            "Komi",
            pick(
                rng,
                &[
                    "0", "2", "2.5", "-1.5", "1e30", "NaN", "inf", "-inf", "0.25", "63.5", "64",
                    "-0", "", "x",
                ],
            )
            .to_string(),
        ),
        4 => (
            pick(rng, &["Flats", "Caps", "flats1", "Caps2", "Opening"]),
            pick(
                rng,
                &["swap", "no-swap", "0", "1", "21", "30", "99999999999"],
            )
            .to_string(),
        ),
        5 => ("Player1", "a \\\"quoted\\\" name\\\\".to_string()),
        6 => (pick(rng, &["Date", "Result", "Site", "x_1"]), number(rng)),
        _ => ("Event", random_text(rng, "abc \"\\]")),
    };
    match rng.below(16) {
        0 => format!("[{name} {value}]"),
        1 => format!("[ \"{value}\"]"),
        2 => format!("[{name} \"{value}"),
        3 => format!("[{name} \"{value}\""),
        4 => format!("[{name} \"\\x{value}\"]"),
        _ => format!("[{name} \"{value}\"]"),
    }
}

/// `position` with a corpus game: its start and moves, sometimes with a bad move put in.
fn position_line(rng: &mut Rng, game: &CorpusGame) -> String {
    let mut moves = game.moves.clone();
    moves.truncate(rng.below(moves.len() + 1));
    if rng.chance(3) {
        let at = rng.below(moves.len() + 1);
        moves.insert(at, move_text(rng));
    }
    let start = if game.start == empty_tps(game.size) && rng.chance(2) {
        "startpos".to_string()
    } else {
        format!("tps {}", game.start)
    };
    if moves.is_empty() && rng.chance(2) {
        format!("position {start}")
    } else {
        format!("position {start} moves {}", moves.join(" "))
    }
}

/// A keyword in a random letter case now and then.
fn keyword(rng: &mut Rng, word: &str) -> String {
    if rng.chance(10) {
        word.chars()
            .map(|c| {
                if rng.chance(2) {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    } else {
        word.to_string()
    }
}

/// A TEI command line: every command and keyword, with absurd numbers, missing and repeated
/// arguments, and `position` lines with illegal or malformed moves.
pub fn tei_line(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut words: Vec<String> = Vec::new();
    match rng.below(16) {
        0 => {
            let word = pick(rng, &["tei", "isready", "stop", "quit", "uci"]);
            words.push(keyword(rng, word));
            if rng.chance(4) {
                words.push(number(rng));
            }
        }
        1..=2 => {
            words.push(keyword(rng, "setoption"));
            if !rng.chance(10) {
                words.push(keyword(rng, "name"));
            }
            words.push(
                pick(
                    rng,
                    &[
                        "HalfKomi",
                        "Hash",
                        "Threads",
                        "MultiPV",
                        "MoveOverhead",
                        "Contempt",
                        "hash",
                        "Move Overhead",
                        "Ponder",
                        "",
                        "value",
                    ],
                )
                .to_string(),
            );
            if !rng.chance(8) {
                words.push(keyword(rng, "value"));
            }
            let value = match rng.below(3) {
                0 => (1 + rng.below(3)).to_string(),
                _ => number(rng),
            };
            words.push(value);
        }
        3..=4 => {
            words.push(keyword(rng, "teinewgame"));
            if rng.chance(3) {
                words.push(if rng.chance(2) {
                    (3 + rng.below(6)).to_string()
                } else {
                    number(rng)
                });
            }
            for _ in 0..rng.below(3) {
                let key = pick(rng, &["size", "halfkomi", "komi", "flats"]);
                words.push(keyword(rng, key));
                if !rng.chance(12) {
                    words.push(match rng.below(3) {
                        0 => (3 + rng.below(6)).to_string(),
                        1 => pick(rng, &["2.5", "-1.5", "5.5", "0.25", "-10", "10", "11"])
                            .to_string(),
                        _ => number(rng),
                    });
                }
            }
        }
        5..=9 => {
            let game = corpus.game(rng);
            if rng.chance(2) {
                return position_line(rng, game);
            }
            words.push(keyword(rng, "position"));
            if rng.chance(3) {
                words.push(keyword(rng, "startpos"));
            } else {
                words.push(keyword(rng, "tps"));
                words.push(tps_text(rng));
            }
            if rng.chance(2) {
                words.push(keyword(rng, "moves"));
                for _ in 0..rng.below(6) {
                    words.push(move_text(rng));
                }
            }
        }
        _ => {
            words.push(keyword(rng, "go"));
            // Rare: without a proof, `go solved` ends with a search `stop` does not shorten.
            if rng.chance(60) {
                words.push(keyword(rng, "solved"));
            }
            for _ in 0..rng.below(4) {
                let key = match rng.below(10) {
                    0 => pick(rng, &["infinite", "ponder", "mate"]),
                    _ => GO_KEYS[rng.below(GO_KEYS.len())],
                };
                words.push(keyword(rng, key));
                if !matches!(key, "infinite" | "solved") && !rng.chance(12) {
                    words.push(match rng.below(3) {
                        0 => (1 + rng.below(300)).to_string(),
                        _ => number(rng),
                    });
                }
            }
        }
    }
    words.join(" ")
}
