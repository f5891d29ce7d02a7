//! Tablut: the rules checked against an independent brute-force implementation (a 9×9 array,
//! written from the seed text without the crate's bitboards), hand-made positions for every
//! capture and winning rule, the board's symmetries, notation errors, the search's tactics and
//! the terminal game.

use crate::common::cairn;
use cairn_search::rng::Rng;
use cairn_search::{search_to_depth, TranspositionTable};
use cairn_tablut::notation::{parse_move, parse_position, parse_square, write_position};
use cairn_tablut::search::WeightedPosition;
use cairn_tablut::{eval, Ending, Move, Position, Side, Status, TablutGame};
use cairn_tools::tablut::{self as tools, Effort};

/// The independent implementation: a grid of characters, `board[rank][file]`.
mod naive {
    #[derive(Clone, PartialEq, Eq, Debug)]
    pub struct Board {
        pub cells: [[u8; 9]; 9],
        pub black_to_move: bool,
        pub over: bool,
    }

    const THRONE: (i32, i32) = (4, 4);

    impl Board {
        /// From the one-line format, parsed here again.
        pub fn parse(text: &str) -> Board {
            let (rows, side) = text.split_once(' ').unwrap();
            let mut cells = [[b'.'; 9]; 9];
            for (i, row) in rows.split('/').enumerate() {
                let rank = 8 - i;
                let mut file = 0;
                for c in row.bytes() {
                    if c.is_ascii_digit() {
                        file += (c - b'0') as usize;
                    } else {
                        cells[rank][file] = c;
                        file += 1;
                    }
                }
            }
            let mut board = Board {
                cells,
                black_to_move: side == "b",
                over: false,
            };
            let (kr, kf) = board.king();
            board.over = kr == 0 || kr == 8 || kf == 0 || kf == 8;
            board
        }

        pub fn write(&self) -> String {
            let mut rows = Vec::new();
            for rank in (0..9).rev() {
                let mut row = String::new();
                let mut empty = 0;
                for file in 0..9 {
                    let c = self.cells[rank][file];
                    if c == b'.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c as char);
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                rows.push(row);
            }
            format!(
                "{} {}",
                rows.join("/"),
                if self.black_to_move { "b" } else { "w" }
            )
        }

        fn get(&self, r: i32, f: i32) -> Option<u8> {
            ((0..9).contains(&r) && (0..9).contains(&f)).then(|| self.cells[r as usize][f as usize])
        }

        fn king(&self) -> (i32, i32) {
            for r in 0..9 {
                for f in 0..9 {
                    if self.cells[r][f] == b'K' {
                        return (r as i32, f as i32);
                    }
                }
            }
            panic!("no king");
        }

        /// Every legal move as ((rank, file), (rank, file)).
        pub fn moves(&self) -> Vec<((i32, i32), (i32, i32))> {
            let mut out = Vec::new();
            if self.over {
                return out;
            }
            for r in 0..9 {
                for f in 0..9 {
                    let c = self.cells[r as usize][f as usize];
                    let mine = if self.black_to_move {
                        c == b'B'
                    } else {
                        c == b'W' || c == b'K'
                    };
                    if !mine {
                        continue;
                    }
                    for (dr, df) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let (mut tr, mut tf) = (r + dr, f + df);
                        while self.get(tr, tf) == Some(b'.') {
                            if (tr, tf) != THRONE || c == b'K' {
                                out.push(((r, f), (tr, tf)));
                            }
                            tr += dr;
                            tf += df;
                        }
                    }
                }
            }
            out
        }

        /// Whether the square is hostile to a piece of the given colour (b'B' or b'W').
        fn hostile(&self, r: i32, f: i32, victim: u8) -> bool {
            let Some(c) = self.get(r, f) else {
                return false;
            };
            let throne = (r, f) == THRONE;
            if victim == b'B' {
                c == b'W' || c == b'K' || (throne && c == b'.')
            } else {
                if c == b'B' || (throne && c == b'.') {
                    return true;
                }
                if throne && c == b'K' {
                    let around = [(3, 4), (5, 4), (4, 3), (4, 5)]
                        .iter()
                        .filter(|&&(rr, ff)| self.cells[rr][ff] == b'B')
                        .count();
                    return around >= 3;
                }
                false
            }
        }

        pub fn play(&self, from: (i32, i32), to: (i32, i32)) -> Board {
            let mut b = self.clone();
            let piece = b.cells[from.0 as usize][from.1 as usize];
            b.cells[from.0 as usize][from.1 as usize] = b'.';
            b.cells[to.0 as usize][to.1 as usize] = piece;
            if piece == b'K' && (to.0 == 0 || to.0 == 8 || to.1 == 0 || to.1 == 8) {
                b.over = true;
            }
            for (dr, df) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nr, nf) = (to.0 + dr, to.1 + df);
                let Some(n) = b.get(nr, nf) else { continue };
                if self.black_to_move && n == b'K' {
                    let near_throne = (nr - 4).abs() + (nf - 4).abs() <= 1;
                    let captured = if near_throne {
                        [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().all(|&(a, c)| {
                            let (sr, sf) = (nr + a, nf + c);
                            b.get(sr, sf) == Some(b'B')
                                || ((sr, sf) == THRONE && b.get(sr, sf) == Some(b'.'))
                        })
                    } else {
                        b.get(nr + dr, nf + df) == Some(b'B')
                    };
                    if captured {
                        b.over = true;
                    }
                    continue;
                }
                let enemy = if self.black_to_move { b'W' } else { b'B' };
                if n == enemy && b.hostile(nr + dr, nf + df, enemy) {
                    b.cells[nr as usize][nf as usize] = b'.';
                }
            }
            b.black_to_move = !b.black_to_move;
            b
        }

        /// Perft by the board alone: a game that is over has nothing below it, and so does a
        /// side with no move; repetitions are not looked at.
        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.moves()
                .into_iter()
                .map(|(from, to)| self.play(from, to).perft(depth - 1))
                .sum()
        }

        /// Perft by the whole seed text, with the boards of the game before this one in
        /// `earlier` (oldest first): a board that repeats an earlier one with the same side to
        /// move ends the game, as the end of [`Board::perft`]'s lines does.
        pub fn perft_in_game(&self, earlier: &mut Vec<Board>, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let repeated = earlier
                .iter()
                .any(|b| b.cells == self.cells && b.black_to_move == self.black_to_move);
            if repeated {
                return 0;
            }
            earlier.push(self.clone());
            let total = self
                .moves()
                .into_iter()
                .map(|(from, to)| self.play(from, to).perft_in_game(earlier, depth - 1))
                .sum();
            earlier.pop();
            total
        }
    }
}

fn sq(name: &str) -> u8 {
    parse_square(name).unwrap()
}

fn squares(names: &str) -> u128 {
    names.split_whitespace().fold(0, |b, n| b | 1u128 << sq(n))
}

/// A position from lists of squares.
fn pos(black: &str, white: &str, king: &str, side: Side) -> Position {
    Position::from_parts(squares(black), squares(white), sq(king), side).unwrap()
}

fn mv(pos: &Position, text: &str) -> Move {
    parse_move(pos, text).unwrap_or_else(|e| panic!("{text} in {pos:?}: {e}"))
}

/// Plays `text` on a copy of `pos` and returns it.
fn after(pos: &Position, text: &str) -> Position {
    let mut next = pos.clone();
    let m = mv(pos, text);
    next.make(m);
    next
}

/// Positions reached by random play from the start (every ply, up to `plies`).
fn random_games(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
            out.push(pos.clone());
        }
    }
    out
}

/// Random legal positions: the king off the edge, a random number of pieces of each side.
fn random_boards(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let king = loop {
            let s = rng.below(81) as u8;
            let (f, r) = (s % 9, s / 9);
            if (1..8).contains(&f) && (1..8).contains(&r) {
                break s;
            }
        };
        let (mut black, mut white) = (0u128, 0u128);
        for _ in 0..rng.below(17) {
            black |= 1 << rng.below(81);
        }
        for _ in 0..rng.below(9) {
            white |= 1 << rng.below(81);
        }
        // Near the throne often, where the special rules apply.
        for s in [31u8, 39, 41, 49, 30, 32, 48, 50, 22, 58, 38, 42] {
            if rng.chance(3) {
                black |= 1 << s;
            }
        }
        let taken = 1u128 << king | 1 << 40;
        black &= !taken;
        white &= !taken & !black;
        let side = if rng.chance(2) {
            Side::White
        } else {
            Side::Black
        };
        if let Ok(p) = Position::from_parts(black, white, king, side) {
            out.push(p);
        }
    }
    out
}

#[test]
fn every_move_matches_the_brute_force_rules() {
    let mut rng = Rng::new(5);
    let mut checked = 0;
    let mut captures = 0;
    let mut wins = 0;
    let starts: Vec<Position> = std::iter::once(Position::start())
        .chain(random_boards(11, 300))
        .collect();
    for start in starts {
        let mut pos = start;
        for _ in 0..60 {
            if pos.winner().is_some() {
                // A captured king stays on the board: the text cannot say the game is over.
                break;
            }
            let naive = naive::Board::parse(&write_position(&pos));
            assert_eq!(naive.write(), write_position(&pos));
            let mut ours: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            let mut theirs: Vec<String> = naive
                .moves()
                .iter()
                .map(|&((fr, ff), (tr, tf))| {
                    Move::new((fr * 9 + ff) as u8, (tr * 9 + tf) as u8).to_string()
                })
                .collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "moves of {pos:?}");
            if ours.is_empty() {
                break;
            }
            // Every move, not only the one played, leads to the same position and result.
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                let undo = child.make(m);
                let (fr, ff) = ((m.from / 9) as i32, (m.from % 9) as i32);
                let (tr, tf) = ((m.to / 9) as i32, (m.to % 9) as i32);
                let expected = naive.play((fr, ff), (tr, tf));
                assert_eq!(write_position(&child), expected.write(), "{m} in {pos:?}");
                assert_eq!(child.winner().is_some(), expected.over, "{m} in {pos:?}");
                captures += undo.captures();
                wins += child.winner().is_some() as u32;
                child.unmake(m, undo);
                assert_eq!(child, pos, "unmake of {m}");
                checked += 1;
            }
            let moves = pos.legal_moves();
            pos.make(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 100_000, "{checked} moves");
    assert!(
        captures > 1000 && wins > 1000,
        "{captures} captures, {wins} wins"
    );
}

#[test]
fn perft_matches_the_brute_force_count() {
    // Three plies bring back no position, so the count by the board alone is the whole count.
    let start = naive::Board::parse(&write_position(&Position::start()));
    let game = TablutGame::new(Position::start());
    for depth in 1..=3 {
        assert_eq!(
            game.perft(depth),
            start.perft(depth),
            "start, depth {depth}"
        );
    }
    let mut positions = random_games(3, 6, 40);
    positions.extend(random_boards(4, 40));
    for p in positions.into_iter().step_by(3) {
        let naive = naive::Board::parse(&write_position(&p));
        assert_eq!(TablutGame::new(p.clone()).perft(2), naive.perft(2), "{p:?}");
    }
}

/// A sparse position to count by hand: a Muscovite on b2, a guard on h8 and the king on the
/// throne, Black to move. No piece stands on another's lines, no move made below can capture
/// (a capture needs a piece of the capturing side, or the empty throne, already beside the
/// victim), and each piece moves like a rook over an empty board: 8 squares along its rank and
/// 8 along its file, 16 moves; the king's 16 include his 4 escapes (e9, e1, a5 and i5).
const SPARSE: &str = "9/7W1/9/9/4K4/9/9/1B7/9 b";

#[test]
fn perft_by_hand_ends_a_line_at_a_repetition() {
    let sparse = TablutGame::new(parse_position(SPARSE).unwrap());
    // Depth 1: the Muscovite's 16 moves. Depth 2: after each of them White has 16 + 16 = 32,
    // less what the Muscovite now hides: on h2 it stops the guard short of h2 and h1, on b8 short
    // of b8 and a8; on e2 it stops the king short of e2 and e1, on b5 short of b5 and a5.
    // 16 * 32 - 4 * 2 = 504.
    assert_eq!(sparse.perft(1), 16);
    assert_eq!(sparse.perft(2), 504);

    // Against the moves before: after b2-b3 h8-h7 b3-b2, White's h7-h8 brings back the
    // position the game started from, with Black to move, and loses. Depth 1: White's 32 moves
    // (the guard's 16 from h7, the king's 16), the repetition among them. Depth 2: the 4
    // escapes and the repetition end their lines; after each of the other 27 Black has its 16,
    // less what the White piece now hides on its lines: the guard on b7 (b7 to b9, 3) or h2 (h2
    // and i2, 2), the king on e2 (e2 to i2, 5) or b5 (b5 to b9, 5). 27 * 16 - 15 = 417, where
    // the board alone (the repetition going on with Black's 16) gives 433.
    let mut game = sparse.clone();
    game.play_line("b2-b3 h8-h7 b3-b2").unwrap();
    assert_eq!(game.perft(1), 32);
    assert_eq!(game.perft(2), 417);
    let naive = naive::Board::parse(&write_position(game.position()));
    assert_eq!(naive.perft(2), 433);
    // The repeating move itself ends the game: nothing is below it.
    game.play_line("h7-h8").unwrap();
    assert_eq!(game.status(), Status::Won(Side::Black, Ending::Repetition));
    assert_eq!((game.perft(1), game.perft(2)), (0, 0));

    // Inside the tree: a line of four plies that brings back the root (Black y, White v, Black
    // back from y to b2, White back from v) leaves nothing below it at depth 5, where the board
    // alone counts the root's 16 moves. Such lines, by the Muscovite's square y:
    // - White's moves that do not end the game: 28 (the guard's 16, the king's 12), less what
    //   y hides (h2 or b8: two of the guard's; e2 or b5: one of the king's besides an escape);
    // - less the ones that block the Muscovite's way back, landing between y and b2: the king
    //   on e2 when y is f2, g2, h2 or i2, and on b5 when y is b6 to b9; the guard on h2 when y
    //   is i2, and on b8 when y is b9.
    // On rank 2, a2 c2 d2: 28 each; e2: 27; f2 g2: 27 each; h2: 26 - 1; i2: 28 - 2; 216 in all.
    // On file b, by symmetry of the counts: b1 b3 b4: 28; b5: 27; b6 b7: 27; b8: 25; b9: 26;
    // 216. So 432 lines, and the count at depth 5 is 432 * 16 = 6912 below the board's.
    let whole = sparse.perft(5);
    let start = naive::Board::parse(SPARSE);
    assert_eq!(start.perft(5) - whole, 6912);
    // At every depth the count is the one of the independent implementation, repetitions
    // included; below depth 5 no line is long enough to repeat.
    assert_eq!(whole, start.perft_in_game(&mut Vec::new(), 5));
    for depth in 1..5 {
        let expected = start.perft(depth);
        assert_eq!(sparse.perft(depth), expected, "depth {depth}");
        assert_eq!(start.perft_in_game(&mut Vec::new(), depth), expected);
    }
    // And with moves before, on random games (where captures cut the history short).
    let mut rng = Rng::new(12);
    for _ in 0..20 {
        let mut game = TablutGame::new(Position::start());
        let mut earlier = Vec::new();
        for _ in 0..rng.below(30) {
            let moves = game.position().legal_moves();
            if moves.is_empty() || game.status() != Status::Ongoing {
                break;
            }
            earlier.push(naive::Board::parse(&write_position(game.position())));
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        if game.status() != Status::Ongoing {
            continue;
        }
        let here = naive::Board::parse(&write_position(game.position()));
        for depth in 1..=2 {
            assert_eq!(
                game.perft(depth),
                here.perft_in_game(&mut earlier.clone(), depth),
                "{:?} depth {depth}",
                game.position()
            );
        }
    }
}

#[test]
fn symmetries_keep_moves_evaluation_and_threats() {
    let mut positions = random_games(8, 4, 60);
    positions.extend(random_boards(9, 60));
    for p in positions {
        let moves = TablutGame::new(p.clone()).perft(2);
        let score = eval::evaluate(&p);
        for s in 0..8 {
            let t = p.transformed(s);
            assert_eq!(
                TablutGame::new(t.clone()).perft(2),
                moves,
                "symmetry {s} of {p:?}"
            );
            assert_eq!(eval::evaluate(&t), score, "symmetry {s} of {p:?}");
            assert_eq!(t.king_escape().is_some(), p.king_escape().is_some());
            assert_eq!(t.king_capture().is_some(), p.king_capture().is_some());
            assert_eq!(t.king_free_lines(), p.king_free_lines());
        }
    }
    // The eight are distinct maps of the board.
    let images: std::collections::HashSet<u8> = (0..8)
        .map(|s| cairn_tablut::board::transform_square(sq("b3"), s))
        .collect();
    assert_eq!(images.len(), 8);
}

#[test]
fn custodial_captures() {
    // A Muscovite between two guards, the second arriving.
    let p = pos("d3", "c3 h3", "e7", Side::White);
    let q = after(&p, "h3-e3");
    assert_eq!(q.black(), 0);
    // On the edge too.
    let p = pos("a3", "a2 d4", "e7", Side::White);
    assert_eq!(after(&p, "d4-a4").black(), 0);
    // Up to three at once: a guard crosses the empty throne to e3, between three Muscovites
    // that each have a guard behind them.
    let p = pos("d3 f3 e2", "c3 g3 e1 e6", "c7", Side::White);
    let q = after(&p, "e6-e3");
    assert_eq!(q.black(), 0, "{q:?}");
    assert_eq!(q.white(), squares("c3 g3 e1 e3"));
}

#[test]
fn landing_between_two_enemies_is_safe() {
    let p = pos("c3 e3", "d1", "c7", Side::White);
    let q = after(&p, "d1-d3");
    assert_eq!(q.white(), squares("d3"));
    assert_eq!(q.black(), squares("c3 e3"));
}

#[test]
fn the_empty_throne_is_hostile_to_both_sides() {
    // The king away from the throne.
    let p = pos("d5", "c2", "c7", Side::White);
    assert_eq!(
        after(&p, "c2-c5").black(),
        0,
        "a Muscovite against the throne"
    );
    let p = pos("a3", "e4", "c7", Side::Black);
    assert_eq!(after(&p, "a3-e3").white(), 0, "a guard against the throne");
}

#[test]
fn the_king_is_armed() {
    // As the far piece...
    let p = pos("d7", "e8", "c7", Side::White);
    assert_eq!(after(&p, "e8-e7").black(), 0);
    // ...and as the piece that arrives.
    let p = pos("c7", "d7", "b4", Side::White);
    let q = after(&p, "b4-b7");
    assert_eq!(q.black(), 0);
    assert_eq!(q.winner(), None);
}

#[test]
fn the_occupied_throne_is_hostile_to_guards_only_with_three_muscovites_around_it() {
    let p = pos("f5 e4 e6 c1", "d5", "e5", Side::Black);
    assert_eq!(after(&p, "c1-c5").white(), 0, "three around the throne");
    let p = pos("f5 e4 c1", "d5", "e5", Side::Black);
    assert_eq!(
        after(&p, "c1-c5").white(),
        squares("d5"),
        "only two around it"
    );
}

#[test]
fn the_king_on_the_throne_needs_four_muscovites() {
    let p = pos("d5 f5 e4 a6", "", "e5", Side::Black);
    assert_eq!(after(&p, "a6-e6").winner(), Some(Side::Black));
    let p = pos("d5 e4 a6", "", "e5", Side::Black);
    assert_eq!(after(&p, "a6-e6").winner(), None, "three are not enough");
}

#[test]
fn the_king_beside_the_throne_needs_three_muscovites_and_the_empty_throne() {
    let p = pos("d4 f4 a3", "", "e4", Side::Black);
    assert_eq!(after(&p, "a3-e3").winner(), Some(Side::Black));
    // Two on opposite sides capture elsewhere, but not beside the throne.
    let p = pos("d4 f1", "", "e4", Side::Black);
    assert_eq!(after(&p, "f1-f4").winner(), None);
    // A guard on one side saves him.
    let p = pos("f4 a3", "d4", "e4", Side::Black);
    assert_eq!(after(&p, "a3-e3").winner(), None);
}

#[test]
fn elsewhere_the_king_falls_to_two() {
    let p = pos("b7 d9", "", "c7", Side::Black);
    assert_eq!(after(&p, "d9-d7").winner(), Some(Side::Black));
    let p = pos("c8 a6", "", "c7", Side::Black);
    assert_eq!(after(&p, "a6-c6").winner(), Some(Side::Black));
    // Only a Muscovite's arrival captures: the king may step between two.
    let p = pos("b6 d6", "", "c7", Side::White);
    assert_eq!(after(&p, "c7-c6").winner(), None);
}

#[test]
fn the_king_escapes_to_any_edge_square() {
    let p = pos("c4 d5", "", "c5", Side::White);
    let q = after(&p, "c5-a5");
    assert_eq!(q.winner(), Some(Side::White));
    assert_eq!(q.legal_moves(), vec![], "a won game has no moves");
    assert_eq!(p.king_escape().map(|m| m.to_string()), Some("c5-c9".into()));
}

#[test]
fn the_throne_may_be_crossed_when_empty_but_only_the_king_ends_there() {
    let empty = pos("e2", "", "c7", Side::Black);
    let moves: Vec<String> = empty.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(moves.contains(&"e2-e6".to_string()) && moves.contains(&"e2-e9".to_string()));
    assert!(!moves.contains(&"e2-e5".to_string()));
    assert!(empty.why_illegal(Move::new(sq("e2"), sq("e5"))).is_some());
    let occupied = pos("e2", "", "e5", Side::Black);
    assert!(!occupied.legal_moves().iter().any(|m| m.to == sq("e6")));
    let king = pos("a1", "", "e4", Side::White);
    assert!(king.is_legal(Move::new(sq("e4"), sq("e5"))));
}

#[test]
fn no_legal_move_loses() {
    let game = TablutGame::new(pos("a1", "a2 b1", "e7", Side::Black));
    assert_eq!(game.status(), Status::Won(Side::White, Ending::NoMoves));
}

#[test]
fn repeating_a_position_loses_for_the_player_who_repeats() {
    let mut game = TablutGame::new(pos("h8 b2", "", "d4", Side::White));
    for (i, m) in ["d4-d3", "h8-h7", "d3-d4"].iter().enumerate() {
        game.play(mv(game.position(), m)).unwrap();
        assert_eq!(game.status(), Status::Ongoing, "after move {}", i + 1);
    }
    game.play(mv(game.position(), "h7-h8")).unwrap();
    assert_eq!(game.status(), Status::Won(Side::White, Ending::Repetition));
    let err = game.play(mv(game.position(), "d4-d3")).unwrap_err();
    assert!(err.to_string().contains("over"), "{err}");
}

#[test]
fn notation_errors_are_specific() {
    let start = Position::start();
    for (text, expected) in [
        ("e5-e4", "not the side to move's"),
        ("c3-c4", "no piece"),
        ("e2-f3", "rank or a file"),
        ("e1-e3", "blocked"),
        ("d1-d9", "blocked"),
        ("x1-e2", "not a move"),
    ] {
        let err = parse_move(&start, text).unwrap_err().to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
    let mut game = TablutGame::new(start);
    let err = game.play_line("e2-c2 e3-b3 e1-e9").unwrap_err();
    assert!(err.starts_with("move 3:"), "{err}");
    assert!(parse_position("bad").is_err());
}

#[test]
fn the_search_takes_a_win_in_one_and_sees_a_loss_coming() {
    let tt = TranspositionTable::new(4);
    // White escapes at once.
    let p = pos("c4 d5 h2", "", "c5", Side::White);
    let result = search_to_depth(&WeightedPosition::new(p.clone()), 3, &tt);
    let best = result.best.unwrap();
    assert_eq!(after(&p, &best.to_string()).winner(), Some(Side::White));
    assert_eq!(
        result.score.proven().map(|(w, plies, _)| (w, plies)),
        Some((true, 1))
    );
    // Black captures the king at once.
    let p = pos("b7 d9 h2", "g2", "c7", Side::Black);
    let result = search_to_depth(&WeightedPosition::new(p.clone()), 3, &tt);
    assert_eq!(result.best.unwrap().to_string(), "d9-d7");
    // Black to move cannot stop two free lines: a loss in two.
    let p = pos("h2 h8", "", "c3", Side::Black);
    let result = search_to_depth(&WeightedPosition::new(p.clone()), 4, &tt);
    assert_eq!(
        result.score.proven().map(|(w, plies, _)| (w, plies)),
        Some((false, 2))
    );
}

/// The engine at a fixed shallow depth, one thread, a small table.
fn quick(depth: u32) -> Effort {
    Effort {
        depth: Some(depth),
        movetime_ms: 100,
        threads: 1,
        hash_mb: 1,
        weights: &cairn_tablut::eval::WEIGHTS,
    }
}

#[test]
fn a_terminal_game_can_be_played_from_typed_moves() {
    let effort = quick(2);
    let input = "help\nz9-z1\ne5-e4\nc5-c3\nquit\n";
    let mut out = Vec::new();
    let status = tools::play(
        TablutGame::new(Position::start()),
        Side::White,
        &effort,
        &mut input.as_bytes(),
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(status, Status::Ongoing);
    assert!(text.contains("Cairn plays "), "{text}");
    assert!(text.contains("Your legal moves: "), "{text}");
    assert!(text.contains("'z9-z1' is not a move"), "{text}");
    assert!(
        text.contains("e5-e4 is illegal: the way is blocked"),
        "{text}"
    );
    // The board is drawn after each move: the start, after Cairn's, after ours, after Cairn's.
    assert!(text.matches("a b c d e f g h i").count() >= 4, "{text}");
    assert!(text.contains("game left unfinished"), "{text}");
}

#[test]
fn a_captured_king_leaves_the_final_board() {
    // You play Black and close the king in between b3 and d3, away from the throne.
    let effort = quick(1);
    let start = parse_position("9/9/9/9/9/3B5/1BK6/9/9 b").unwrap();
    let mut out = Vec::new();
    let status = tools::play(
        TablutGame::new(start),
        Side::Black,
        &effort,
        &mut "d4-d3\n".as_bytes(),
        &mut out,
    )
    .unwrap();
    assert_eq!(status, Status::Won(Side::Black, Ending::Capture));
    let text = String::from_utf8(out).unwrap();
    let (first, last) = text.split_once("your move> ").unwrap();
    assert!(first.contains("3  . B K . . . . . ."), "{text}");
    assert!(
        !last.contains('K'),
        "the king is drawn after his capture:\n{last}"
    );
    assert!(last.contains("3  . B . B . . . . ."), "{last}");
    assert!(last.contains("Black (Muscovites) has won"), "{last}");
    assert!(last.contains("the king was captured"), "{last}");
}

#[test]
fn a_game_against_itself_ends_by_the_rules() {
    let effort = quick(2);
    let mut games = Vec::new();
    let score = tools::self_play(&effort, &effort, 1, 4, 300, 7, &mut games).unwrap();
    assert_eq!(score.games, 2);
    let text = String::from_utf8(games).unwrap();
    for line in text.lines() {
        // Replaying the moves reaches the stated end.
        let (head, moves) = line.split_once(": ").unwrap();
        let mut game = TablutGame::new(Position::start());
        game.play_line(moves.split(": ").last().unwrap()).unwrap();
        assert!(
            head.contains(if matches!(game.status(), Status::Won(Side::White, _)) {
                "1-0"
            } else {
                "0-1"
            }),
            "{line}"
        );
    }
}

#[test]
fn the_command_line_counts_analyses_and_explains_bad_input() {
    let out = cairn(&["tablut", "perft", "--moves", "e2-c2", "--depth", "3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut game = TablutGame::new(Position::start());
    game.play_line("e2-c2").unwrap();
    for (line, depth) in text.lines().zip(1..) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[..2], ["perft", &depth.to_string()], "{line}");
        assert_eq!(fields[2], game.perft(depth).to_string(), "{line}");
    }
    assert_eq!(text.lines().count(), 3);

    // Repetitions against --moves (counted by hand in perft_by_hand_ends_a_line_at_a_repetition).
    let line = "b2-b3 h8-h7 b3-b2";
    for (moves, counts) in [
        (line, ["32", "417"]),
        (&format!("{line} h7-h8"), ["0", "0"]),
    ] {
        let args = [
            "tablut",
            "perft",
            "--position",
            SPARSE,
            "--moves",
            moves,
            "--depth",
            "2",
        ];
        let out = cairn(&args);
        assert!(out.status.success(), "{moves}");
        let text = String::from_utf8(out.stdout).unwrap();
        let leaves: Vec<&str> = text
            .lines()
            .map(|l| l.split_whitespace().nth(2).unwrap())
            .collect();
        assert_eq!(leaves, counts, "{moves}: {text}");
    }

    let out = cairn(&["tablut", "analyze", "--depth", "4", "--moves", "e2-c2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let best = text.lines().last().unwrap();
    assert!(best.starts_with("bestmove "), "{text}");
    let played = best.split_whitespace().nth(1).unwrap();
    assert!(
        parse_move(&after(&Position::start(), "e2-c2"), played).is_ok(),
        "{best}"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("depth ")).count(), 4);

    for (args, expected) in [
        (
            &["tablut", "perft", "--depth", "2", "--moves", "e2-e5"][..],
            "move 1: e2-e5 is illegal",
        ),
        (&["tablut", "analyze", "--position", "9/9 b"], "--position"),
        (&["tablut", "perft", "--depth", "0"], "--depth"),
    ] {
        let out = cairn(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn tuning_fits_the_weights_to_self_play_and_repeats() {
    let config = cairn_tools::tablut::tune::TuneArgs {
        games: 12,
        nodes: 300,
        random_plies: 4,
        seed: 3,
        max_plies: 300,
        steps: 300,
        rate: 1.0,
        lambda: 0.5,
        weights: Some(cairn_tablut::eval::HAND_WEIGHTS),
    };
    let report = cairn_tools::tablut::tune::run(&config).unwrap();
    assert!(report.games >= 10, "{report:?}");
    assert!(report.train > 100 && report.valid > 0, "{report:?}");
    assert!(report.white_wins <= report.games);
    assert!(
        report.fitted_loss[0] < report.start_loss[0],
        "the fit lowers the training loss: {report:?}"
    );
    let again = cairn_tools::tablut::tune::run(&config).unwrap();
    assert_eq!(
        again.weights, report.weights,
        "the same seed gives the same fit"
    );
}
