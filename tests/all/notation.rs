//! Notation tests: TPS and PTN-move round trips (spec vectors, public positions, random playouts
//! on every size), the spec's move vectors, a table of malformed inputs with their exact errors,
//! and a seeded fuzz test that feeds random and mutated text to every parser.

use cairn_search::rng::Rng;
use cairn_tak::board::{Color, Direction, GameResult, Move, Position, Role, Square, SquareName};
use cairn_tak::movegen::IllegalMove;
use cairn_tak::notation::ptn_game::PtnErrorKind;
use cairn_tak::notation::tps::TpsStack;
use cairn_tak::notation::{
    parse_file, parse_move, replay_any, tps, MoveError, PtnError, PtnGame, PtnMove, PtnMoveError,
    ReplayError, Tps, TpsError,
};
use std::collections::HashSet;

// ---------------------------------------------------------------------------------------------
// Helpers

fn sq(name: &str) -> SquareName {
    let b = name.as_bytes();
    assert_eq!(b.len(), 2, "square name {name}");
    SquareName {
        file: b[0] - b'a',
        rank: b[1] - b'1',
    }
}

fn square<const N: usize>(name: &str) -> Square {
    let n = sq(name);
    Square::new::<N>(n.file as usize, n.rank as usize)
}

/// Plays `moves` (PTN, space separated) from `pos`, checking each one.
fn play<const N: usize>(mut pos: Position<N>, moves: &str) -> Position<N> {
    for text in moves.split_whitespace() {
        let mv = parse_move(&pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make(mv);
    }
    pos
}

/// One random game from the start; every position on the way (the start included).
/// Spreads are picked two times in three when there are any, so that stacks grow tall.
fn playout<const N: usize>(rng: &mut Rng, max_plies: usize) -> Vec<Position<N>> {
    let mut pos = Position::<N>::start();
    let mut seen = vec![pos.clone()];
    for _ in 0..max_plies {
        if pos.result().is_some() {
            break;
        }
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "no legal move in {pos:?}");
        let spreads: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_placement())
            .collect();
        let mv = if !spreads.is_empty() && !rng.chance(3) {
            spreads[rng.below(spreads.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.make(mv);
        seen.push(pos.clone());
    }
    seen
}

/// A TPS with every `xN` run written out as single `x`s.
fn expand(tps: &str) -> String {
    let mut fields = tps.split(' ');
    let board = fields.next().unwrap();
    let rest: Vec<&str> = fields.collect();
    let rows: Vec<String> = board
        .split('/')
        .map(|row| {
            let mut cells = Vec::new();
            for cell in row.split(',') {
                match cell.strip_prefix('x') {
                    Some("") => cells.push("x".to_string()),
                    Some(n) => cells.extend((0..n.parse::<usize>().unwrap()).map(|_| "x".into())),
                    None => cells.push(cell.to_string()),
                }
            }
            cells.join(",")
        })
        .collect();
    format!("{} {}", rows.join("/"), rest.join(" "))
}

/// The same TPS with its empty runs split at random (`x3` may become `x,x2`, `x1,x,x1`...) and
/// random whitespace between (and around) the fields.
fn remix(tps: &str, rng: &mut Rng) -> String {
    let fields: Vec<&str> = tps.split(' ').collect();
    let rows: Vec<String> = expand(tps)
        .split(' ')
        .next()
        .unwrap()
        .split('/')
        .map(|row| {
            let cells: Vec<&str> = row.split(',').collect();
            let mut out: Vec<String> = Vec::new();
            let mut i = 0;
            while i < cells.len() {
                if cells[i] != "x" {
                    out.push(cells[i].to_string());
                    i += 1;
                    continue;
                }
                let run = cells[i..].iter().take_while(|c| **c == "x").count();
                let mut left = run;
                while left > 0 {
                    let part = 1 + rng.below(left);
                    out.push(match (part, rng.below(2)) {
                        (1, 0) => "x".to_string(),
                        (n, _) => format!("x{n}"),
                    });
                    left -= part;
                }
                i += run;
            }
            out.join(",")
        })
        .collect();
    let spaces = [" ", "  ", "\t", " \t "];
    let pick = |rng: &mut Rng| spaces[rng.below(spaces.len())];
    let lead = if rng.chance(4) { pick(rng) } else { "" };
    let trail = if rng.chance(4) { pick(rng) } else { "" };
    let (gap1, gap2) = (pick(rng), pick(rng));
    format!(
        "{lead}{}{gap1}{}{gap2}{}{trail}",
        rows.join("/"),
        fields[1],
        fields[2]
    )
}

/// The long PTN form of a move: `F` on flats, the count and every drop written out.
fn long_form<const N: usize>(mv: Move) -> String {
    let name = mv.square().name::<N>();
    match mv.role() {
        Some(Role::Flat) => format!("F{name}"),
        Some(role) => format!("{}{name}", role.ptn_prefix()),
        None => {
            let drops: String = mv.drops().map(|d| d.to_string()).collect();
            format!("{}{name}{}{drops}", mv.count(), mv.direction().symbol())
        }
    }
}

/// Every placement and spread text that could name a move on an `N`×`N` board.
fn all_move_texts<const N: usize>() -> Vec<String> {
    let mut drop_lists: Vec<Vec<u32>> = Vec::new();
    for count in 1..=N as u32 {
        // Compositions of `count`: bit i of `cuts` splits after piece i + 1.
        for cuts in 0..1u32 << (count - 1) {
            let mut drops = Vec::new();
            let mut run = 1;
            for i in 0..count - 1 {
                if cuts >> i & 1 == 1 {
                    drops.push(run);
                    run = 1;
                } else {
                    run += 1;
                }
            }
            drops.push(run);
            drop_lists.push(drops);
        }
    }
    let mut texts = Vec::new();
    for file in 0..N {
        for rank in 0..N {
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            for prefix in ["", "S", "C"] {
                texts.push(format!("{prefix}{name}"));
            }
            for dir in ['+', '-', '<', '>'] {
                for drops in &drop_lists {
                    let count: u32 = drops.iter().sum();
                    let digits: String = drops.iter().map(|d| d.to_string()).collect();
                    texts.push(format!("{count}{name}{dir}{digits}"));
                }
            }
        }
    }
    texts
}

// ---------------------------------------------------------------------------------------------
// TPS

/// The TPS column of /work/shared/data/perft.tsv (public reference positions), copied as facts.
const PERFT_TPS: &[(usize, &str)] = &[
    (3, "x3/x3/x3 1 1"),
    (4, "x4/x4/x4/x4 1 1"),
    (5, "x5/x5/x5/x5/x5 1 1"),
    (6, "x6/x6/x6/x6/x6/x6 1 1"),
    (7, "x7/x7/x7/x7/x7/x7/x7 1 1"),
    (8, "x8/x8/x8/x8/x8/x8/x8/x8 1 1"),
    (5, "x5/x2,2S,x2/x2,121,x2/x5/x5 1 4"),
    (5, "x5/x5/x2,121212C,x2/1,x4/1,x4 2 7"),
    (6, "x6/x6/x6/x2,121212C,x3/1,x5/1,x5 2 7"),
    (5, "x2,2,x,2/x,12,x,12,x/212,x2,2121C,x/x,1,112221,1,1/x5 2 21"),
    (6, "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42"),
    (8, "x8/x8/x8/x8/x8/x8/x8/22221111,2,x6 1 9"),
    (6, "x,1,2,x3/2,221,2,x3/2C,x,21C,x3/2,1,1,1,x2/x,2,x4/x,2,x3,1 1 11"),
    (6, "1,1,2212S,x3/x2,1,x,1,x/2,211212C,11112,2,1S,22112S/221,x,221C,1,x,2/2,2,1,1,1,2/2,x,1,x2,2 2 35"),
    (6, "x,2,2,22S,2,111S/21S,22C,112,x,1112S,11S/x,2,112212,2,2S,2/x,2,121122,x,1112,211/21C,x,1,2S,21S,x/2S,x,212,1S,12S,1S 1 33"),
    (6, "x2,2,22,2C,1/21221S,1112,x,2211,1,2/x2,111S,x,11S,12S/11S,1S,2S,2,12S,1211C/x,12S,2,122S,x,212S/12,x2,1S,22222S,21121 2 31"),
    (6, "2,x,2,111S,2,12/2,122S,2122,1S,x,1/x,111,1,11S,x2/21122112C,x,212S,2S,2,1212S/1,112S,21221S,2S,x2/21,222,x,12S,x2 2 30"),
    (7, "1,x2,22S,1,x2/1,2S,122,1S,1,12,22/2,1,x,2,1221C,11S,21/x,1211S,221,1,12122S,121,1/2,122C,212111,1S,22,12,1/2S,2,x,12122,2,21,2S/x2,1S,1,2,1,2 2 41"),
    (7, "1,1,x5/x,12,1S,111,2S,211,2/12S,2,1C,21212S,212,21,2C/x,211S,122,2221,21,22,1/x,1,221,12,1,1,1112S/x,1,12222S,2,222,112121S,122/1,x,1,x,2,12,11S 2 41"),
    (8, "2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S/2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,111222111C,x,2S,1S,2S/2S,1S,2S,x,222111222C,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S/2S,1S,2S,1S,2S,1S,2S,1S/1S,2S,1S,2S,1S,2S,1S,2S 2 40"),
    (8, "x,1,1,1S,1S,1S,1S,1S/1,x,1,1,2S,2S,1C,1S/1,1,x,1,1,2C,2S,1S/1S,1,1,x,1,1,2S,1S/1S,2S,1,1,x,1,1,1S/1S,2S,2C,1,1,x,1,1/1S,1C,2S,2S,1,1,x,1/1S,1S,1S,1S,1S,1,1,x 2 50"),
    (3, "x3/x,111222111222111222,x/x3 2 10"),
    (4, "x4/x4/x2,1112221112221112221112221122,x/x4 2 15"),
    (5, "x5/x5/x2,111222111222111222111222111222111222111222C,x2/x5/x5 2 22"),
    (6, "x6/x6/x6/x3,111222111222111222111222111222111222111222111222111222111222C,x2/x6/x6 2 31"),
    (5, "x5/x5/2S,211C,2C,212S,x/x5/x5 1 7"),
    (6, "x6/x4,1S,x/x2,21111S,1C,22122C,x/x6/x6/x6 2 11"),
    (7, "x7/1C,1112S,x,112211C,2S,2C,1S/x7/x3,222C,x3/x3,2S,x3/x3,1S,x3/x7 1 10"),
    (8, "x,1S,1C,1S,x4/1,11,11111C,2S,2C,2S,2S,2S/x8/x8/x2,2C,x5/x2,1S,x5/x2,1S,x5/x2,1S,x5 1 14"),
];

/// Spec section 5 vectors 8 and 11-14 and the 6x6 endgame of vector 15.
const SPEC_TPS: &[(usize, &str)] = &[
    (5, "x5/x5/x5/x5/x5 1 1"),
    (5, "x4,1/x5/x5/x5/2,x4 1 2"),
    (5, "x2,1,x,1/x5/x5/x5/2,x4 2 2"),
    (5, "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26"),
    (5, "x4,1/x5/x5/x5/2,x4 1 1"),
    (6, "2,2,2,21,12,x/x4,2,x/x4,2C,x/1,2,12,122211C,x2/x2,1S,1,12,1/x3,2S,1,1 1 19"),
    (6, "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42"),
];

/// Round trips one canonical (compressed) TPS in every written form.
fn check_tps_forms<const N: usize>(text: &str, rng: &mut Rng) {
    let pos = tps::parse::<N>(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(tps::to_tps(&pos), text, "compressed writer");
    let long = expand(text);
    assert_eq!(tps::to_tps_uncompressed(&pos), long, "uncompressed writer");
    assert_eq!(tps::parse::<N>(&long).as_ref(), Ok(&pos), "{long}");
    for _ in 0..4 {
        let mixed = remix(text, rng);
        assert_eq!(tps::parse::<N>(&mixed).as_ref(), Ok(&pos), "{mixed:?}");
    }
    let syntax: Tps = text.parse().unwrap();
    assert_eq!(syntax.size, N);
    assert_eq!(syntax.ply(), pos.ply());
    assert_eq!(syntax.to_position::<N>().as_ref(), Ok(&pos));
    assert_eq!(pos.half_komi(), 0);
    assert_eq!(pos.hash(), pos.compute_hash());
    // Reserves follow from the board.
    let (stones, caps) = cairn_tak::board::reserves_for_size(N).unwrap();
    for color in Color::ALL {
        let mut on_board = [0u32; 2];
        for stack in syntax.squares.iter().flatten() {
            for (i, &c) in stack.colors.iter().enumerate() {
                if c == color {
                    on_board[(i + 1 == stack.colors.len() && stack.top == Role::Cap) as usize] += 1;
                }
            }
        }
        assert_eq!(pos.stones_left(color) as u32 + on_board[0], stones as u32);
        assert_eq!(pos.caps_left(color) as u32 + on_board[1], caps as u32);
    }
}

#[test]
fn tps_round_trips_public_and_spec_positions() {
    let mut rng = Rng::new(11);
    for &(size, text) in PERFT_TPS.iter().chain(SPEC_TPS) {
        cairn_tak::with_size!(size, |N| check_tps_forms::<N>(text, &mut rng), else unreachable!());
    }
}

#[test]
fn tps_spec_vectors_11_to_14() {
    // 11: both forms of the empty board are the start position, opening pending.
    let start = Position::<5>::start();
    for text in [
        "x5/x5/x5/x5/x5 1 1",
        "x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x 1 1",
        "x2,x3/x,x4/x1,x1,x1,x1,x1/x5/x3,x,x 1 1",
    ] {
        let pos = tps::parse::<5>(text).unwrap();
        assert_eq!(pos, start, "{text}");
        assert!(pos.is_opening());
    }
    assert_eq!(
        tps::to_tps_uncompressed(&start),
        "x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x 1 1"
    );

    // 12: after 1. a1 e5 the flats have swapped colours; then 2. c5.
    let pos = play(start.clone(), "a1 e5");
    assert_eq!(tps::to_tps(&pos), "x4,1/x5/x5/x5/2,x4 1 2");
    assert_eq!(pos.top(square::<5>("e5")), Some((Color::White, Role::Flat)));
    assert_eq!(pos.top(square::<5>("a1")), Some((Color::Black, Role::Flat)));
    let pos = play(pos, "c5");
    assert_eq!(tps::to_tps(&pos), "x2,1,x,1/x5/x5/x5/2,x4 2 2");

    // 13: Taktician's position, 50 plies in.
    let text = "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26";
    let syntax: Tps = text.parse().unwrap();
    assert_eq!(
        (
            syntax.size,
            syntax.to_move,
            syntax.move_number,
            syntax.ply()
        ),
        (5, Color::White, 26, 50)
    );
    let stack = |name: &str| syntax.squares[square::<5>(name).index()].clone();
    use Color::{Black as B, White as W};
    assert_eq!(
        stack("d5"),
        Some(TpsStack {
            colors: vec![W, B],
            top: Role::Flat
        })
    );
    assert_eq!(
        stack("e5"),
        Some(TpsStack {
            colors: vec![B],
            top: Role::Wall
        })
    );
    assert_eq!(
        stack("b1"),
        Some(TpsStack {
            colors: vec![B, W],
            top: Role::Wall
        })
    );
    assert_eq!(
        stack("d3"),
        Some(TpsStack {
            colors: vec![W, W, B, W],
            top: Role::Cap
        })
    );
    assert_eq!(stack("a5"), None);
    let pos = tps::parse::<5>(text).unwrap();
    assert_eq!(pos.ply(), 50);
    assert_eq!(
        pos.stack_colors(square::<5>("d3")).collect::<Vec<_>>(),
        vec![W, W, B, W]
    );
    assert_eq!(pos.top(square::<5>("d3")), Some((W, Role::Cap)));
    assert_eq!(pos.top(square::<5>("b1")), Some((W, Role::Wall)));
    assert_eq!(tps::to_tps(&pos), text);

    // 14: stones on the board but move 1: the move number drives the opening swap.
    let pos = tps::parse::<5>("x4,1/x5/x5/x5/2,x4 1 1").unwrap();
    assert!(pos.is_opening());
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 23);
    assert!(moves.iter().all(|m| m.role() == Some(Role::Flat)));
    let after = play(pos, "c3");
    assert_eq!(
        after.top(square::<5>("c3")),
        Some((Color::Black, Role::Flat))
    );
    assert_eq!(tps::to_tps(&after), "x4,1/x5/x2,2,x2/x5/2,x4 2 1");
}

/// Round trips every position of random playouts, and every legal move in them.
fn check_playouts<const N: usize>(seed: u64, games: usize, max_plies: usize) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let all_texts = all_move_texts::<N>();
    let (mut positions, mut moves_checked) = (0, 0);
    for game in 0..games {
        for (ply, pos) in playout::<N>(&mut rng, max_plies).iter().enumerate() {
            positions += 1;
            let text = tps::to_tps(pos);
            assert_eq!(tps::parse::<N>(&text).as_ref(), Ok(pos), "{text}");
            let long = tps::to_tps_uncompressed(pos);
            assert_eq!(long, expand(&text));
            assert!(!long.contains("x2"), "{long}");
            assert_eq!(tps::parse::<N>(&long).as_ref(), Ok(pos), "{long}");
            let mixed = remix(&text, &mut rng);
            assert_eq!(tps::parse::<N>(&mixed).as_ref(), Ok(pos), "{mixed:?}");
            assert_eq!(text.parse::<Tps>().unwrap().ply(), pos.ply());

            let legal = pos.legal_moves();
            for &mv in &legal {
                moves_checked += 1;
                let short = mv.ptn::<N>().to_string();
                let ptn = PtnMove::from_move::<N>(mv);
                assert_eq!(ptn.to_string(), short);
                assert_eq!(short.parse::<PtnMove>().as_ref(), Ok(&ptn), "{short}");
                assert_eq!(ptn.to_move::<N>(), Ok(mv), "{short}");
                assert_eq!(parse_move(pos, &short), Ok(mv), "{short} in {text}");
                let long = long_form::<N>(mv);
                assert_eq!(parse_move(pos, &long), Ok(mv), "{long} in {text}");
                let marked = match mv.role() {
                    None => format!("{short}*'"),
                    Some(_) => format!("{short}!?"),
                };
                assert_eq!(parse_move(pos, &marked), Ok(mv), "{marked}");
            }
            // Every text that names a move on this board parses to a legal move exactly when the
            // generator lists that move (sampled: the list has tens of thousands of texts).
            if ply % 32 == 5 && game % 2 == 0 {
                let legal: HashSet<Move> = legal.iter().copied().collect();
                let mut accepted = HashSet::new();
                for t in &all_texts {
                    match parse_move(pos, t) {
                        Ok(mv) => {
                            assert!(legal.contains(&mv), "{t} accepted but not generated");
                            accepted.insert(mv);
                        }
                        Err(MoveError::Syntax(e)) => panic!("{t} should be well formed: {e}"),
                        Err(_) => {}
                    }
                }
                assert_eq!(accepted, legal, "in {text}");
            }
        }
    }
    (positions, moves_checked)
}

#[test]
fn random_playouts_round_trip_tps_and_moves_on_every_size() {
    let mut total = (0, 0);
    for size in 3..=8usize {
        let (games, plies) = if size <= 5 { (60, 200) } else { (30, 160) };
        // Unoptimised builds run a quarter of the games.
        let games = if cfg!(debug_assertions) {
            games / 4
        } else {
            games
        };
        let counted = cairn_tak::with_size!(
            size,
            |N| check_playouts::<N>(1000 + size as u64, games, plies),
            else unreachable!()
        );
        total.0 += counted.0;
        total.1 += counted.1;
    }
    assert!(total.0 > 2_000, "{total:?}");
    eprintln!("round-tripped {} positions and {} moves", total.0, total.1);
}

// ---------------------------------------------------------------------------------------------
// PTN moves

fn place(name: &str, role: Role) -> PtnMove {
    PtnMove::Place {
        square: sq(name),
        role,
    }
}

fn spread_parts(m: &PtnMove) -> (SquareName, Direction, u8, Vec<u8>) {
    match m {
        PtnMove::Spread {
            square,
            dir,
            count,
            drops,
        } => (*square, *dir, *count, drops.to_vec()),
        other => panic!("not a spread: {other:?}"),
    }
}

#[test]
fn ptn_move_spec_vectors_1_to_6_and_10() {
    let parse = |t: &str| t.parse::<PtnMove>().unwrap_or_else(|e| panic!("{t}: {e}"));
    // 1, 2: placements.
    assert_eq!(parse("a1"), place("a1", Role::Flat));
    assert_eq!(parse("Fh7"), place("h7", Role::Flat));
    assert_eq!(parse("Fh7").to_string(), "h7");
    assert_eq!(parse("Sa4"), place("a4", Role::Wall));
    assert_eq!(parse("Ch7"), place("h7", Role::Cap));
    assert_eq!(parse("Sa4").to_string(), "Sa4");
    assert_eq!(parse("Ch7").to_string(), "Ch7");
    // 3: short and long forms of one spread.
    assert_eq!(parse("a1>"), parse("1a1>1"));
    assert_eq!(
        spread_parts(&parse("a1>")),
        (sq("a1"), Direction::East, 1, vec![1])
    );
    assert_eq!(parse("1a1>1").to_string(), "a1>");
    // 4: drops from the first square on.
    assert_eq!(
        spread_parts(&parse("3a1+111")),
        (sq("a1"), Direction::North, 3, vec![1, 1, 1])
    );
    assert_eq!(
        spread_parts(&parse("3c3>12")),
        (sq("c3"), Direction::East, 3, vec![1, 2])
    );
    assert_eq!(
        spread_parts(&parse("2a1>2")),
        (sq("a1"), Direction::East, 2, vec![2])
    );
    assert_eq!(parse("2a1>2"), parse("2a1>"));
    assert_eq!(parse("2a1>2").to_string(), "2a1>");
    assert_eq!(parse("5c5-5").to_string(), "5c5-");
    assert_eq!(parse("3c3>12").to_string(), "3c3>12");
    assert_eq!(parse("2c3<11").to_string(), "2c3<11");
    // 6: crush mark and annotations are dropped from the move.
    assert_eq!(parse("b1>*'"), parse("b1>"));
    assert_eq!(parse("b1>*'").to_string(), "b1>");
    assert_eq!(parse("3a1+111''!"), parse("3a1+111"));
    for suffix in [
        "'", "''", "\"", "!", "!!", "?", "??", "!?", "?!", "*", "*'", "*!?", "*''",
    ] {
        assert_eq!(parse(&format!("c3>{suffix}")), parse("c3>"), "{suffix}");
    }
    for suffix in ["'", "''", "\"", "!", "?!"] {
        assert_eq!(parse(&format!("Sd4{suffix}")), place("d4", Role::Wall));
    }
    // 10: Tiltak's bench game inputs, crush marks included.
    for (text, canonical) in [
        ("e3+*", "e3+"),
        ("4e4<31*", "4e4<31"),
        ("6e3+411*", "6e3+411"),
        ("e6<*", "e6<"),
        ("6a5>1113", "6a5>1113"),
        ("5e5<122", "5e5<122"),
        ("4e1<13", "4e1<13"),
    ] {
        let m = parse(text);
        assert!(matches!(m, PtnMove::Spread { .. }), "{text}");
        assert_eq!(m.to_string(), canonical);
        assert_eq!(
            m.to_move::<6>().map(|mv| mv.ptn::<6>().to_string()),
            Ok(canonical.into())
        );
    }
    let (square, dir, count, drops) = spread_parts(&parse("6e3+411*"));
    assert_eq!(
        (square, dir, count, drops),
        (sq("e3"), Direction::North, 6, vec![4, 1, 1])
    );
    let (square, dir, count, drops) = spread_parts(&parse("4e4<31*"));
    assert_eq!(
        (square, dir, count, drops),
        (sq("e4"), Direction::West, 4, vec![3, 1])
    );
}

#[test]
fn spec_vector_8_moves_in_context() {
    let text = "2,2,2,21,12,x/x4,2,x/x4,2C,x/1,2,12,122211C,x2/x2,1S,1,12,1/x3,2S,1,1 1 19";
    let pos = tps::parse::<6>(text).unwrap();
    // White has placed its only capstone (on d3), so `Ca1` is the one illegal move; every other
    // move is legal (worked out from the board, see the comments).
    let cases: &[(&str, Result<&str, IllegalMove>)] = &[
        ("a2", Ok("a2")),          // empty square
        ("c2+", Ok("c2+")),        // White wall onto c3's black flat
        ("d2>", Ok("d2>")),        // onto e2 (12, a flat)
        ("f2<", Ok("f2<")),        // onto e2 from the other side
        ("a3-", Ok("a3-")),        // onto the empty a2
        ("5d3<41", Ok("5d3<41")),  // 5 of the 6-stack: 4 on c3, the cap on b3's flat
        ("5d3-41*", Ok("5d3-41")), // 4 on d2, the cap alone flattens d1's wall
        ("6d3+", Ok("6d3+")),      // the whole stack (carry limit 6) onto the empty d4
        ("Sf6", Ok("Sf6")),        // empty square
        ("Ca1", Err(IllegalMove::NoCapstones)),
    ];
    for (input, expected) in cases {
        match (parse_move(&pos, input), expected) {
            (Ok(mv), Ok(canonical)) => {
                assert_eq!(mv.ptn::<6>().to_string(), *canonical, "{input}");
                assert!(pos.legal_moves().contains(&mv), "{input} not generated");
                let mut after = pos.clone();
                after.make(mv);
                assert_eq!(after.side_to_move(), Color::Black);
            }
            (Err(MoveError::Illegal { text, reason }), Err(why)) => {
                assert_eq!((text.as_str(), reason), (*input, *why));
            }
            (got, want) => panic!("{input}: got {got:?}, want {want:?}"),
        }
    }
    // The crush really flattens the wall under the capstone.
    let mut after = pos.clone();
    after.make(parse_move(&pos, "5d3-41*").unwrap());
    let d1 = square::<6>("d1");
    assert_eq!(after.top(d1), Some((Color::White, Role::Cap)));
    assert_eq!(
        after.stack_colors(d1).collect::<Vec<_>>(),
        vec![Color::Black, Color::White]
    );
    assert_eq!(
        tps::to_tps(&after),
        "2,2,2,21,12,x/x4,2,x/x4,2C,x/1,2,12,1,x2/x2,1S,12221,12,1/x3,21C,1,1 2 19"
    );
}

// ---------------------------------------------------------------------------------------------
// Malformed input tables

#[test]
fn malformed_tps_syntax() {
    use TpsError::*;
    let nine_rows = ["x8,x"; 9].join("/") + " 1 1";
    // Every case of a bad square is on a 5x5 board.
    let square = |row: usize, text: &str| Square {
        row,
        size: 5,
        text: text.to_string(),
        reason: "",
    };
    let cases: Vec<(&str, TpsError)> = vec![
        ("", FieldCount(0)),
        ("x5/x5/x5/x5/x5", FieldCount(1)),
        ("x5/x5/x5/x5/x5 1", FieldCount(2)),
        ("x5/x5/x5/x5/x5 1 1 1", FieldCount(4)),
        ("x5/x5/x5/x5/x5 1 1 !komi 4", FieldCount(5)),
        ("x5/x5/x5/x5/x5 0 1", Player("0".into())),
        ("x5/x5/x5/x5/x5 3 1", Player("3".into())),
        ("x5/x5/x5/x5/x5 w 1", Player("w".into())),
        ("x5/x5/x5/x5/x5 12 1", Player("12".into())),
        ("x5/x5/x5/x5/x5 1 0", MoveNumber("0".into())),
        ("x5/x5/x5/x5/x5 1 -1", MoveNumber("-1".into())),
        ("x5/x5/x5/x5/x5 1 +1", MoveNumber("+1".into())),
        ("x5/x5/x5/x5/x5 1 1.5", MoveNumber("1.5".into())),
        ("x5/x5/x5/x5/x5 1 a", MoveNumber("a".into())),
        (
            "x5/x5/x5/x5/x5 1 99999999999",
            MoveNumber("99999999999".into()),
        ),
        ("x5 1 1", UnsupportedSize(1)),
        ("x2/x2 1 1", UnsupportedSize(2)),
        (&nine_rows, UnsupportedSize(9)),
        ("x5/x5/x2,3,x2/x5/x5 1 1", square(3, "3")),
        ("x5/x5/x5/x5/12X,x4 1 1", square(5, "12X")),
        ("S1,x4/x5/x5/x5/x5 1 1", square(1, "S1")),
        ("1S2,x4/x5/x5/x5/x5 1 1", square(1, "1S2")),
        ("1CS,x4/x5/x5/x5/x5 1 1", square(1, "1CS")),
        ("S,x4/x5/x5/x5/x5 1 1", square(1, "S")),
        ("x5/x0,x5/x5/x5/x5 1 1", square(2, "x0")),
        ("x5/x5/x5/x9/x5 1 1", square(4, "x9")),
        ("x5/x5/x5/x5/xx,x3 1 1", square(5, "xx")),
        ("x5/x5/x5/x5/x-1,x5 1 1", square(5, "x-1")),
        ("X5/x5/x5/x5/x5 1 1", square(1, "X5")),
        ("x5/x5/x2,,x2/x5/x5 1 1", square(3, "")),
        ("x5/x5/x5/x5/ 1 1", square(5, "")),
        (
            "x6/x5/x5/x5/x5 1 1",
            RowLength {
                row: 1,
                found: 6,
                expected: 5,
            },
        ),
        (
            "x5/x4/x5/x5/x5 1 1",
            RowLength {
                row: 2,
                found: 4,
                expected: 5,
            },
        ),
        (
            "x5/x5/x5/x5/1,1,1,1,1,1 1 1",
            RowLength {
                row: 5,
                found: 6,
                expected: 5,
            },
        ),
        (
            "x3/x3/1,2 2 2",
            RowLength {
                row: 3,
                found: 2,
                expected: 3,
            },
        ),
        (
            "x8/x8/x8/x8/x8/x8/x8/x8,x8 1 1",
            RowLength {
                row: 8,
                found: 16,
                expected: 8,
            },
        ),
    ];
    for (input, expected) in cases {
        let got = input.parse::<Tps>();
        match (&got, &expected) {
            (
                Err(Square {
                    row,
                    size,
                    text,
                    reason,
                }),
                Square {
                    row: r,
                    size: n,
                    text: t,
                    ..
                },
            ) => {
                assert_eq!((row, size, text), (r, n, t), "{input:?}");
                assert!(!reason.is_empty());
            }
            _ => assert_eq!(got, Err(expected), "{input:?}"),
        }
        // Every size-specific parser agrees.
        assert!(tps::parse::<5>(input).is_err());
        assert!(tps::parse::<8>(input).is_err());
    }
    // A few reasons, where the wording is part of the contract.
    let reason = |input: &str| match input.parse::<Tps>() {
        Err(Square { reason, .. }) => reason,
        other => panic!("{input}: {other:?}"),
    };
    assert!(reason("x5/x5/x5/x5/S1,x4 1 1").contains("top"));
    assert!(reason("x5/x5/x5/x5/x9,x4 1 1").contains("x1 to x8"));
    // Display says what is wrong.
    let message = "x5/x5/x5/x5/x5 1 0".parse::<Tps>().unwrap_err().to_string();
    assert!(message.contains("move number"), "{message}");
}

#[test]
fn malformed_tps_against_the_rules() {
    use TpsError::*;
    let reserves = |color, kind, found, max| Reserves {
        color,
        kind,
        found,
        max,
    };
    assert_eq!(
        tps::parse::<3>("11111111111,x2/x3/x3 2 6"),
        Err(reserves(Color::White, "stones", 11, 10))
    );
    assert_eq!(
        tps::parse::<3>("x3/x,22222222222,x/x3 1 7"),
        Err(reserves(Color::Black, "stones", 11, 10))
    );
    assert_eq!(
        tps::parse::<4>("1C,x3/x4/x4/x4 2 2"),
        Err(reserves(Color::White, "capstones", 1, 0))
    );
    assert_eq!(
        tps::parse::<5>("1C,x,1C,x2/x5/x5/x5/x5 2 3"),
        Err(reserves(Color::White, "capstones", 2, 1))
    );
    assert_eq!(
        tps::parse::<6>("2C,x,2C,x3/x6/x6/x6/x6/x6 1 3"),
        Err(reserves(Color::Black, "capstones", 2, 1))
    );
    assert_eq!(
        tps::parse::<7>("12C,2C,2C,x4/x7/x7/x7/x7/x7/x7 1 4"),
        Err(reserves(Color::Black, "capstones", 3, 2))
    );
    // 22 White stones under a capstone on 5x5: one stone too many (the cap is not a stone).
    let over = format!("{}C,x4/x5/x5/x5/x5 2 12", "1".repeat(23));
    assert_eq!(
        tps::parse::<5>(&over),
        Err(reserves(Color::White, "stones", 22, 21))
    );
    // Exactly the whole reserve is fine, and leaves nothing to place.
    let full = format!("{}C,x4/x5/x5/x5/x5 2 12", "1".repeat(22));
    let pos = tps::parse::<5>(&full).unwrap();
    assert_eq!(
        (pos.stones_left(Color::White), pos.caps_left(Color::White)),
        (0, 0)
    );
    // White is out of pieces: the game is over, and a capstone does not score: 0 flats to 0.
    assert_eq!(pos.result(), Some(GameResult::Draw));
    let pos = tps::parse::<3>("1111111111,x2/x3/x3 2 6").unwrap();
    assert_eq!(pos.stones_left(Color::White), 0);
    // The TPS is for another size than the one asked for.
    assert_eq!(
        tps::parse::<6>("x5/x5/x5/x5/x5 1 1"),
        Err(WrongSize {
            found: 5,
            expected: 6
        })
    );
    assert_eq!(
        "x3/x3/x3 1 1".parse::<Tps>().unwrap().to_position::<8>(),
        Err(WrongSize {
            found: 3,
            expected: 8
        })
    );
}

#[test]
fn malformed_ptn_moves() {
    // (input, a word the reason must contain)
    let cases = [
        ("", "empty"),
        ("'", "empty"),
        ("*", "empty"),
        ("a11", "direction"),
        ("z3", "square"),
        ("14c4>", "square"),
        ("6a1", "direction"),
        ("6a1>2222", "add up"),
        ("a", "rank"),
        ("3a", "rank"),
        ("a1d", "direction"),
        ("5d4-22", "add up"),
        ("3c3>11", "add up"),
        ("a1+2", "add up"),
        ("Sa1>", "spread"),
        ("Fa1>", "spread"),
        ("Ca1+", "spread"),
        ("a1*", "spread"),
        ("Ca1*", "spread"),
        ("0a1>", "count"),
        ("9a1>", "count"),
        ("a9", "rank"),
        ("a0", "rank"),
        ("i1", "square"),
        ("A1", "square"),
        ("C", "square"),
        ("s a1", "square"),
        ("a1 ", "direction"),
        ("a1>0", "drops"),
        ("a1>x", "drops"),
        ("a1>1'x", "drops"),
        ("8a1>111111111", "drops"),
        ("a1é", "direction"),
        ("é1", "square"),
    ];
    for (input, word) in cases {
        match input.parse::<PtnMove>() {
            Err(PtnMoveError { text, reason }) => {
                assert_eq!(text, input);
                assert!(reason.contains(word), "{input:?}: reason `{reason}`");
            }
            Ok(m) => panic!("{input:?} parsed as {m:?}"),
        }
        // parse_move reports the same syntax error.
        let pos = Position::<5>::start();
        assert!(
            matches!(parse_move(&pos, input), Err(MoveError::Syntax(ref e)) if e.text == input),
            "{input:?}"
        );
    }
}

#[test]
fn moves_that_do_not_fit_the_board() {
    let start5 = Position::<5>::start();
    let off = |text: &str, size| MoveError::OffBoard {
        text: text.into(),
        size,
    };
    assert_eq!(parse_move(&start5, "f1"), Err(off("f1", 5)));
    assert_eq!(parse_move(&start5, "Fa6"), Err(off("a6", 5)));
    assert_eq!(parse_move(&Position::<3>::start(), "c4"), Err(off("c4", 3)));
    let pos = tps::parse::<5>("x5/x5/x5/x5/111,x4 1 5").unwrap();
    assert_eq!(parse_move(&pos, "a1<"), Err(off("a1<", 5)));
    assert_eq!(parse_move(&pos, "a1-"), Err(off("a1-", 5)));
    // Five drops can never fit on a 5x5 board, whatever the origin.
    assert_eq!(parse_move(&pos, "5a1>11111"), Err(off("5a1>11111", 5)));
    assert_eq!(
        parse_move(&pos, "6a1>"),
        Err(MoveError::CarryLimit {
            text: "6a1>".into(),
            size: 5
        })
    );
    assert_eq!(
        parse_move(&Position::<3>::start(), "4a1+"),
        Err(MoveError::CarryLimit {
            text: "4a1+".into(),
            size: 3
        })
    );
    // The error's text is the canonical move.
    assert_eq!(parse_move(&start5, "1f1>1'"), Err(off("f1>", 5)));
}

#[test]
fn illegal_moves_in_context() {
    let illegal = |text: &str, reason| {
        Err::<Move, _>(MoveError::Illegal {
            text: text.into(),
            reason,
        })
    };
    use IllegalMove::*;
    let start = Position::<5>::start();
    // Opening: flats only, on empty squares, no spreads.
    assert_eq!(parse_move(&start, "Sa1"), illegal("Sa1", OpeningFlatOnly));
    assert_eq!(parse_move(&start, "Ca1"), illegal("Ca1", OpeningFlatOnly));
    let one = play(start.clone(), "a1");
    assert_eq!(parse_move(&one, "Sb2"), illegal("Sb2", OpeningFlatOnly));
    assert_eq!(parse_move(&one, "a1>"), illegal("a1>", OpeningFlatOnly));
    assert_eq!(parse_move(&one, "a1"), illegal("a1", Occupied(sq("a1"))));
    // After 1. a1 e5.
    let two = play(start.clone(), "a1 e5");
    assert_eq!(parse_move(&two, "a1"), illegal("a1", Occupied(sq("a1"))));
    assert_eq!(parse_move(&two, "Se5"), illegal("Se5", Occupied(sq("e5"))));
    assert_eq!(
        parse_move(&two, "a1>"),
        illegal("a1>", NotYourStack(sq("a1")))
    );
    assert_eq!(
        parse_move(&two, "c3>"),
        illegal("c3>", EmptySquare(sq("c3")))
    );
    assert_eq!(
        parse_move(&two, "2e5<"),
        illegal(
            "2e5<",
            StackTooShort {
                count: 2,
                height: 1
            }
        )
    );
    assert!(parse_move(&two, "e5<").is_ok());
    assert!(parse_move(&two, "Sc3").is_ok());
    // Capstones: one per player on 5x5, none on 4x4 and 3x3.
    let caps = play(start.clone(), "a1 e5 Cc3 Cc2");
    assert_eq!(parse_move(&caps, "Cd4"), illegal("Cd4", NoCapstones));
    assert!(parse_move(&caps, "d4").is_ok());
    let four = play(Position::<4>::start(), "a1 d4");
    assert_eq!(parse_move(&four, "Cb2"), illegal("Cb2", NoCapstones));
    let three = play(Position::<3>::start(), "a1 c3");
    assert_eq!(parse_move(&three, "Cb2"), illegal("Cb2", NoCapstones));
    // No stones left (White has all 10 on a1).
    let empty_hand = tps::parse::<3>("x3/x3/1111111111,x2 1 8").unwrap();
    assert_eq!(parse_move(&empty_hand, "b2"), illegal("b2", NoStones));
    assert_eq!(parse_move(&empty_hand, "Sb2"), illegal("Sb2", NoStones));
    assert!(parse_move(&empty_hand, "3a1+12").is_ok());
    // Past the edge: 3 drops from c1 need f1.
    let tall = tps::parse::<5>("x5/x5/x5/x5/x2,111,x2 1 5").unwrap();
    assert_eq!(parse_move(&tall, "3c1>111"), illegal("3c1>111", PastEdge));
    assert_eq!(parse_move(&tall, "3c1<111"), illegal("3c1<111", PastEdge));
    assert!(parse_move(&tall, "3c1>12").is_ok());
    assert!(parse_move(&tall, "3c1+111").is_ok());
    // Carry limit checked by the rules (a move built past the text parser).
    let high = tps::parse::<3>("x3/x3/11111,x2 1 5").unwrap();
    let four_east = Move::spread(Square(0), Direction::East, 0b1000);
    assert_eq!(
        high.check_legal(four_east),
        Err(CarryLimit { count: 4, limit: 3 })
    );
    // Onto a capstone.
    let capped = tps::parse::<5>("x5/x5/x5/x5/1,2C,x3 1 3").unwrap();
    assert_eq!(
        parse_move(&capped, "a1>"),
        illegal("a1>", Blocked(sq("b1"), Role::Cap))
    );
    let caps_meet = tps::parse::<5>("x5/x5/x5/x5/1C,2C,x3 1 3").unwrap();
    assert_eq!(
        parse_move(&caps_meet, "a1>"),
        illegal("a1>", Blocked(sq("b1"), Role::Cap))
    );
    // Onto a wall: a flat, a wall, a capstone carrying more, a capstone not on the last step.
    let walled = tps::parse::<5>("x5/x5/x5/x5/1,2S,x3 1 3").unwrap();
    assert_eq!(
        parse_move(&walled, "a1>"),
        illegal("a1>", Blocked(sq("b1"), Role::Wall))
    );
    let walls = tps::parse::<5>("x5/x5/x5/x5/1S,2S,x3 1 3").unwrap();
    assert_eq!(
        parse_move(&walls, "a1>"),
        illegal("a1>", Blocked(sq("b1"), Role::Wall))
    );
    let hard_cap = tps::parse::<5>("x5/x5/x5/x5/11C,2S,x,2S,x 1 4").unwrap();
    assert_eq!(
        parse_move(&hard_cap, "2a1>"),
        illegal("2a1>", Blocked(sq("b1"), Role::Wall))
    );
    assert_eq!(
        parse_move(&hard_cap, "2a1>11"),
        illegal("2a1>11", Blocked(sq("b1"), Role::Wall))
    );
    assert!(parse_move(&hard_cap, "a1>*").is_ok());
    assert!(parse_move(&hard_cap, "a1>").is_ok());
    // A flat first, then the capstone alone onto the wall: legal, and the wall is flattened.
    let behind = tps::parse::<5>("x5/x5/x5/x5/11C,x,2S,x2 1 4").unwrap();
    let mut crushed = behind.clone();
    crushed.make(parse_move(&behind, "2a1>11*").unwrap());
    assert_eq!(tps::to_tps(&crushed), "x5/x5/x5/x5/x,1,21C,x2 2 4");
    assert_eq!(
        parse_move(&behind, "3a1>111"),
        illegal(
            "3a1>111",
            StackTooShort {
                count: 3,
                height: 2
            }
        )
    );
    // Display names the square and the reason.
    let message = parse_move(&walled, "a1>").unwrap_err().to_string();
    assert!(
        message.contains("a1>") && message.contains("b1"),
        "{message}"
    );
}

fn file_error(text: &str) -> PtnError {
    match parse_file(text) {
        Err(e) => e,
        Ok(games) => panic!("{text:?} parsed: {games:?}"),
    }
}

#[test]
fn malformed_ptn_files() {
    use PtnErrorKind::*;
    let at = |line, column, kind| PtnError { line, column, kind };
    assert_eq!(
        file_error("[Size \"5\"]\n\n1. a1 {oops e5\n2. c3 c4\n"),
        at(3, 7, UnterminatedComment)
    );
    assert_eq!(file_error("{"), at(1, 1, UnterminatedComment));
    // Tags.
    for (text, line, column, word) in [
        ("[Size 5]\n\n1. a1 e5\n", 1, 1, "quotes"),
        ("[Player1 \"x\"]\n  [Size 5]\n", 2, 3, "quotes"),
        ("[ \"5\"]\n", 1, 1, "name"),
        ("[\"5\"]\n", 1, 1, "name"),
        ("[Size \"5]\n1. a1\n", 1, 1, "never closed"),
        ("[Size \"5", 1, 1, "never closed"),
        ("[Size \"5\"\n", 1, 1, "]"),
        ("[Size \"5\" x]\n", 1, 1, "]"),
        ("[Size \"5\\n\"]\n", 1, 1, "escape"),
    ] {
        match file_error(text) {
            PtnError {
                line: l,
                column: c,
                kind: Tag(why),
            } => {
                assert_eq!((l, c), (line, column), "{text:?}");
                assert!(why.contains(word), "{text:?}: {why}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    // A bad move token: line and column of the ply itself (after any move number).
    let bad_move = |text: &str| match file_error(text) {
        PtnError {
            line,
            column,
            kind: Move { error: e, .. },
        } => (line, column, e.text),
        other => panic!("{text:?}: {other:?}"),
    };
    assert_eq!(
        bad_move("[Size \"5\"]\n\n1. a1 e5\n2. c3 z9\n"),
        (4, 7, "z9".into())
    );
    assert_eq!(
        bad_move("[Size \"5\"]\n\n1. a1 e5\n2.z9\n"),
        (4, 3, "z9".into())
    );
    assert_eq!(bad_move("1... 5d4-22"), (1, 6, "5d4-22".into()));
    assert_eq!(bad_move("1. a1 e5\r\n2. c3 a1d\r\n"), (2, 7, "a1d".into()));
    // Columns count characters, not bytes.
    assert_eq!(bad_move("{é€😀} z9"), (1, 7, "z9".into()));
    assert_eq!(
        bad_move("\u{feff}[Size \"5\"]\n1. Za1"),
        (2, 4, "Za1".into())
    );
    // Moves and results after the result.
    assert_eq!(
        file_error("[Size \"5\"]\n\n1. a1 e5 R-0 2. c3\n"),
        at(3, 17, AfterResult("c3".into()))
    );
    assert_eq!(
        file_error("[Size \"5\"]\n\n1. a1 e5 R-0 2.c3\n"),
        at(3, 14, AfterResult("2.c3".into()))
    );
    assert_eq!(
        file_error("1. a1 e5 R-0 0-R"),
        at(1, 14, AfterResult("0-R".into()))
    );
    assert_eq!(file_error("* *"), at(1, 3, AfterResult("*".into())));
    // Display starts with the place.
    let message = file_error("[Size \"5\"]\n\n1. a1 e5\n2. c3 z9\n").to_string();
    assert!(message.starts_with("line 4, column 7"), "{message}");
}

fn one_game(text: &str) -> PtnGame {
    let mut games = parse_file(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(games.len(), 1, "{text:?}");
    games.pop().unwrap()
}

#[test]
fn games_that_cannot_be_replayed() {
    let replay = |text: &str| replay_any(&one_game(text));
    let illegal = |ply, label: &str, line, text: &str, reason| {
        Err::<(String, Option<GameResult>), _>(ReplayError::Ply {
            ply,
            label: label.into(),
            line,
            error: MoveError::Illegal {
                text: text.into(),
                reason,
            },
        })
    };
    assert_eq!(
        replay("[Size \"5\"]\n\n1. a1 a1\n"),
        illegal(2, "1...", 3, "a1", IllegalMove::Occupied(sq("a1")))
    );
    assert_eq!(
        replay("[Size \"5\"]\n\n1. a1 e5\n2. c3 d3\n3. Sc3 c4\n"),
        illegal(5, "3.", 5, "Sc3", IllegalMove::Occupied(sq("c3")))
    );
    assert_eq!(
        replay("[Size \"6\"]\n1. Ca1"),
        illegal(1, "1.", 2, "Ca1", IllegalMove::OpeningFlatOnly)
    );
    // Labels follow a TPS start with Black to move.
    assert_eq!(
        replay("[TPS \"x4,2/x5/x5/x5/x5 2 1\"]\n1... e5"),
        illegal(1, "1...", 2, "e5", IllegalMove::Occupied(sq("e5")))
    );
    assert_eq!(
        replay("[TPS \"x4,2/x5/x5/x5/x5 2 7\"]\n7. -- a1 8. a1"),
        illegal(2, "8.", 2, "a1", IllegalMove::Occupied(sq("a1")))
    );
    // Moves that do not fit the board.
    assert_eq!(
        replay("[Size \"4\"]\n1. e5"),
        Err(ReplayError::Ply {
            ply: 1,
            label: "1.".into(),
            line: 2,
            error: MoveError::OffBoard {
                text: "e5".into(),
                size: 4
            }
        })
    );
    assert_eq!(
        replay("[TPS \"1111,x2/x3/x3 1 3\"]\n3. 4a3>"),
        Err(ReplayError::Ply {
            ply: 1,
            label: "3.".into(),
            line: 2,
            error: MoveError::CarryLimit {
                text: "4a3>".into(),
                size: 3
            }
        })
    );
    // Setup errors.
    assert_eq!(replay("1. a1 e5"), Err(ReplayError::Size(String::new())));
    assert_eq!(
        replay("[Size \"9\"]\n1. a1"),
        Err(ReplayError::Size("9".into()))
    );
    assert_eq!(replay("[Size \"2\"]"), Err(ReplayError::Size("2".into())));
    assert_eq!(
        replay("[Size \"five\"]"),
        Err(ReplayError::Size("five".into()))
    );
    assert_eq!(
        replay("[Size \"6\"]\n[TPS \"x5/x5/x5/x5/x5 1 1\"]"),
        Err(ReplayError::SizeMismatch { size: 6, tps: 5 })
    );
    assert_eq!(
        replay("[Size \"5\"]\n[Komi \"0.3\"]"),
        Err(ReplayError::Komi("0.3".into()))
    );
    assert_eq!(
        replay("[Size \"5\"]\n[Komi \"two\"]"),
        Err(ReplayError::Komi("two".into()))
    );
    assert_eq!(
        replay("[Size \"5\"]\n[Komi \"NaN\"]"),
        Err(ReplayError::Komi("NaN".into()))
    );
    assert_eq!(
        replay("[Size \"5\"]\n[TPS \"x5/x5 1 1\"]"),
        Err(ReplayError::Tps(TpsError::UnsupportedSize(2)))
    );
    assert_eq!(
        replay("[Size \"4\"]\n[TPS \"1C,x3/x4/x4/x4 2 2\"]"),
        Err(ReplayError::Tps(TpsError::Reserves {
            color: Color::White,
            kind: "capstones",
            found: 1,
            max: 0
        }))
    );
    assert_eq!(
        replay("[Size \"5\"]\n[Opening \"no-swap\"]\n1. a1"),
        Err(ReplayError::Variant {
            tag: "Opening".into(),
            value: "no-swap".into()
        })
    );
    assert_eq!(
        replay("[Size \"5\"]\n[Flats \"30\"]\n1. a1"),
        Err(ReplayError::Variant {
            tag: "Flats".into(),
            value: "30".into()
        })
    );
    // Standard values of those tags are fine.
    assert_eq!(
        replay("[Size \"5\"]\n[Flats \"21\"]\n[Caps \"1\"]\n[Opening \"swap\"]\n1. a1"),
        Ok(("x5/x5/x5/x5/2,x4 2 1".into(), None))
    );
    // A game continuing after a road.
    assert_eq!(
        replay("[Size \"3\"]\n1. c1 a3 2. b3 b1 3. c3"),
        Ok((
            "1,1,1/x3/x,2,2 2 3".into(),
            Some(GameResult::Road(Color::White))
        ))
    );
    assert_eq!(
        replay("[Size \"3\"]\n1. c1 a3 2. b3 b1\n3. c3 a1"),
        Err(ReplayError::AfterEnd {
            ply: 6,
            label: "3...".into(),
            line: 3,
            text: "a1".into(),
            result: GameResult::Road(Color::White)
        })
    );
}

#[test]
fn extreme_but_valid_inputs() {
    // A 100-piece stack (all of White's stones, all but one of Black's, Black's capstone on
    // top) on 8x8; the capstone carries the carry limit of 8 down the a-file.
    let tall = format!("{}C,x7/x8/x8/x8/x8/x8/x8/x8 2 60", "12".repeat(50));
    let pos = tps::parse::<8>(&tall).unwrap();
    assert_eq!(tps::to_tps(&pos), tall);
    assert_eq!(pos.height(square::<8>("a8")), 100);
    assert_eq!(
        (pos.stones_left(Color::White), pos.stones_left(Color::Black)),
        (0, 1)
    );
    let mut after = pos.clone();
    after.make(parse_move(&pos, "8a8-").unwrap());
    assert_eq!(
        tps::to_tps(&after),
        format!("{},x7/12121212C,x7/x8/x8/x8/x8/x8/x8 1 61", "12".repeat(46))
    );
    assert!(matches!(
        parse_move(&pos, "9a8-"),
        Err(MoveError::Syntax(_))
    ));
    // The largest move number accepted, and a game played on from it.
    let last = "x5/x5/x5/x5/x5 2 1073741824";
    assert_eq!(last.parse::<Tps>().unwrap().ply(), (1 << 31) - 1);
    assert_eq!(
        "x5/x5/x5/x5/x5 2 1073741825".parse::<Tps>(),
        Err(TpsError::MoveNumber("1073741825".into()))
    );
    // Too large is said so, however many digits; 0 is too small.
    for (tps, says) in [
        (
            "x5/x5/x5/x5/x5 2 1073741825",
            "move number `1073741825` is too large (at most 1073741824)",
        ),
        (
            "x5/x5/x5/x5/x5 1 99999999999999999999",
            "move number `99999999999999999999` is too large (at most 1073741824)",
        ),
        (
            "x5/x5/x5/x5/x5 1 0",
            "move number must be 1 or more, found `0`",
        ),
        (
            "x5/x5/x5/x5/x5 1 -3",
            "move number must be 1 or more, found `-3`",
        ),
    ] {
        assert_eq!(tps.parse::<Tps>().unwrap_err().to_string(), says, "{tps}");
    }
    let game = one_game(&format!("[TPS \"{last}\"]\n1073741824. -- a1 b1 c1 d1 e1"));
    assert_eq!(
        replay_any(&game),
        Ok(("x5/x5/x5/x5/2,1,2,1,2 1 1073741827".into(), None))
    );
    // Komi at the ends of its range (a Komi's: -5 to 5).
    for (komi, ok) in [
        ("5", true),
        ("-5", true),
        ("5.5", false),
        ("-63.5", false),
        ("1e300", false),
    ] {
        let game = one_game(&format!("[Size \"3\"]\n[Komi \"{komi}\"]\n1. a1"));
        assert_eq!(replay_any(&game).is_ok(), ok, "{komi}");
    }
}

// ---------------------------------------------------------------------------------------------
// Fuzz: random and mutated text for every parser

/// Pieces of text the mutator inserts, besides single characters.
const SNIPPETS: &[&str] = &[
    "x",
    "x8",
    "x9",
    "x0",
    "1",
    "2",
    "12",
    "S",
    "C",
    "1C",
    "2S",
    ",",
    "/",
    " ",
    " 1 1",
    " 2 ",
    "\n",
    "\r\n",
    "\t",
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "{c}",
    "[Size \"5\"]",
    "[Size \"3\"]",
    "[TPS \"",
    "[Komi \"2.5\"]",
    "[Komi \"-127\"]",
    "1.",
    "1...",
    "--",
    " -- ",
    "R-0",
    "0-R",
    "F-0",
    "1/2-1/2",
    "*",
    "'",
    "''",
    "!?",
    "+",
    "-",
    "<",
    ">",
    "8",
    "9",
    "0",
    "a1",
    "h8",
    "5d4-22",
    "6e3+411*",
    "3c3>12",
    "Ca1",
    "Sa1",
    "Fa1",
    "é",
    "€",
    "😀",
    "\u{feff}",
    "\u{0}",
    "\u{200b}",
    "\u{a0}",
    "ǅ",
    "١",
];

const FUZZ_CHARS: &[char] = &[
    'x', '1', '2', '3', '8', '9', '0', 'S', 'C', 'F', ',', '/', ' ', '\n', '\r', '\t', 'a', 'c',
    'e', 'h', 'z', '+', '-', '<', '>', '*', '\'', '"', '!', '?', '[', ']', '{', '}', '.', '\\',
    'é', '€', '😀', '\u{feff}', '\u{0}', '\u{7f}', '\u{85}', '\u{2028}', 'İ',
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let edits = [1, 1, 1, 2, 2, 3, 5][rng.below(7)];
    for _ in 0..edits {
        let len = chars.len();
        match rng.below(8) {
            0 => {
                let c = FUZZ_CHARS[rng.below(FUZZ_CHARS.len())];
                chars.insert(rng.below(len + 1), c);
            }
            1 => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                let at = rng.below(len + 1);
                chars.splice(at..at, s.chars());
            }
            2 if len > 0 => {
                chars.remove(rng.below(len));
            }
            3 if len > 1 => {
                let (i, j) = (rng.below(len), rng.below(len));
                chars.swap(i, j);
            }
            4 if len > 0 => {
                chars.truncate(rng.below(len));
            }
            5 if len > 0 => {
                let i = rng.below(len);
                chars[i] = FUZZ_CHARS[rng.below(FUZZ_CHARS.len())];
            }
            6 if len > 0 => {
                // Duplicate or delete a slice.
                let i = rng.below(len);
                let j = (i + 1 + rng.below(8)).min(len);
                if rng.chance(2) {
                    let copy: Vec<char> = chars[i..j].to_vec();
                    chars.splice(j..j, copy);
                } else {
                    chars.drain(i..j);
                }
            }
            _ => {
                // Random byte, turned into text the lossy way.
                let bytes = [rng.below(256) as u8, rng.below(256) as u8];
                let s = String::from_utf8_lossy(&bytes).into_owned();
                let at = rng.below(len + 1);
                chars.splice(at..at, s.chars());
            }
        }
    }
    chars.into_iter().collect()
}

fn random_text(rng: &mut Rng) -> String {
    let len = rng.below(40);
    (0..len)
        .map(|_| {
            if rng.chance(3) {
                SNIPPETS[rng.below(SNIPPETS.len())].to_string()
            } else {
                FUZZ_CHARS[rng.below(FUZZ_CHARS.len())].to_string()
            }
        })
        .collect()
}

/// A game with its plies' places cleared, for comparing a game with its rewritten form.
fn without_places(game: &PtnGame) -> PtnGame {
    let mut game = game.clone();
    for ply in &mut game.plies {
        ply.line = 0;
        ply.column = 0;
    }
    game
}

/// Positions (one per size) that `parse_move` is tried on.
struct Boards {
    b3: Position<3>,
    b4: Position<4>,
    b5: Position<5>,
    b6: Position<6>,
    b7: Position<7>,
    b8: Position<8>,
    start5: Position<5>,
}

fn tps_accepts<const N: usize>(s: &str) {
    if let Ok(pos) = tps::parse::<N>(s) {
        // Whatever is accepted is written back canonically and reads back the same.
        let text = tps::to_tps(&pos);
        assert_eq!(tps::parse::<N>(&text).as_ref(), Ok(&pos), "{s:?}");
        assert_eq!(s.parse::<Tps>().map(|t| t.size), Ok(N));
    }
}

fn exercise(s: &str, boards: &Boards, stats: &mut [usize; 4]) {
    if let Ok(t) = s.parse::<Tps>() {
        stats[0] += 1;
        assert!((3..=8).contains(&t.size));
        assert_eq!(t.squares.len(), t.size * t.size);
    }
    tps_accepts::<3>(s);
    tps_accepts::<4>(s);
    tps_accepts::<5>(s);
    tps_accepts::<6>(s);
    tps_accepts::<7>(s);
    tps_accepts::<8>(s);

    if let Ok(m) = s.parse::<PtnMove>() {
        stats[1] += 1;
        let canonical = m.to_string();
        assert_eq!(canonical.parse::<PtnMove>().as_ref(), Ok(&m), "{s:?}");
    }
    let _ = parse_move(&boards.b3, s);
    let _ = parse_move(&boards.b4, s);
    let _ = parse_move(&boards.b5, s);
    let _ = parse_move(&boards.b6, s);
    let _ = parse_move(&boards.b7, s);
    let _ = parse_move(&boards.b8, s);
    let _ = parse_move(&boards.start5, s);

    if let Ok(games) = parse_file(s) {
        stats[2] += 1;
        for game in &games {
            let replayed = replay_any(game);
            if replayed.is_ok() {
                stats[3] += 1;
            }
            // Writing the game back and reading it again gives the same game.
            let empty = game.tags.is_empty()
                && game.comments.is_empty()
                && game.plies.is_empty()
                && game.result.is_none();
            if empty {
                continue;
            }
            let text = game.to_ptn();
            let again = parse_file(&text).unwrap_or_else(|e| panic!("{s:?} -> {text:?}: {e}"));
            assert_eq!(again.len(), 1, "{s:?} -> {text:?}");
            assert_eq!(
                without_places(&again[0]),
                without_places(game),
                "{s:?} -> {text:?}"
            );
            assert_eq!(replay_any(&again[0]).ok(), replayed.ok(), "{text:?}");
        }
    }
}

/// Valid inputs to mutate: TPS strings, PTN moves and whole PTN files.
fn seeds_for_fuzz() -> [Vec<String>; 3] {
    let mut tps_seeds: Vec<String> = Vec::new();
    let mut move_seeds: Vec<String> = Vec::new();
    let mut file_seeds: Vec<String> = Vec::new();
    for &(_, t) in PERFT_TPS.iter().chain(SPEC_TPS) {
        tps_seeds.push(t.to_string());
        tps_seeds.push(expand(t));
    }
    for t in [
        "a1",
        "Fh7",
        "Sa4",
        "Ch7",
        "a1>",
        "1a1>1",
        "3a1+111",
        "3c3>12",
        "b1>*'",
        "3a1+111''!",
        "e3+*",
        "4e4<31*",
        "6e3+411*",
        "e6<*",
        "6a5>1113",
        "5e5<122",
        "4e1<13",
        "2a1>2",
    ] {
        move_seeds.push(t.to_string());
    }
    let mut rng = Rng::new(99);
    for pos in &playout::<5>(&mut rng, 40) {
        tps_seeds.push(tps::to_tps(pos));
        for mv in pos.legal_moves().iter().rev().take(3) {
            move_seeds.push(mv.ptn::<5>().to_string());
        }
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ptn");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptn"))
        .collect();
    files.sort();
    for path in files {
        file_seeds.push(std::fs::read_to_string(path).unwrap());
    }
    file_seeds.push(
        "[Size \"6\"]\n[TPS \"2,2,2,21,12,x/x4,2,x/x4,2C,x/1,2,12,122211C,x2/x2,1S,1,12,1/x3,2S,1,1 1 19\"]\n\n\
         19. 5d3-41* {crush} 6d3+ 20. Sf6 a2 *\n"
            .to_string(),
    );
    file_seeds.push("[Size \"3\"]\n1. c1 a3 2. b3 b1 3. c3 R-0\n".to_string());
    file_seeds.push("[Size \"4\"]\n\na1 d4 b2 c3 a1+ *".to_string());
    [tps_seeds, move_seeds, file_seeds]
}

#[test]
fn fuzz_every_parser_never_panics() {
    let iterations = if cfg!(debug_assertions) {
        20_000
    } else {
        300_000
    };
    let mut rng = Rng::new(0x7AC_2024);
    let mut boards_rng = Rng::new(5);
    let boards = Boards {
        b3: playout::<3>(&mut boards_rng, 6).pop().unwrap(),
        b4: playout::<4>(&mut boards_rng, 10).pop().unwrap(),
        b5: playout::<5>(&mut boards_rng, 16).pop().unwrap(),
        b6: playout::<6>(&mut boards_rng, 20).pop().unwrap(),
        b7: playout::<7>(&mut boards_rng, 24).pop().unwrap(),
        b8: playout::<8>(&mut boards_rng, 30).pop().unwrap(),
        start5: Position::<5>::start(),
    };
    let seeds = seeds_for_fuzz();
    let mut stats = [0usize; 4];
    // Hand-picked extremes first.
    let tall = format!("{}C,x7/x8/x8/x8/x8/x8/x8/x8 2 60", "12".repeat(50));
    let extremes = [
        "x5/x5/x5/x5/x5 2 1073741824".to_string(),
        "x5/x5/x5/x5/x5 2 1073741825".to_string(),
        "x5/x5/x5/x5/x5 1 4294967295".to_string(),
        "x5/x5/x5/x5/x5 1 18446744073709551616".to_string(),
        "[TPS \"x5/x5/x5/x5/x5 2 1073741824\"]\n1073741824. -- a1 b1 c1 d1 e1".to_string(),
        "[Size \"5\"]\n[Komi \"63.5\"]\n1. a1".to_string(),
        "[Size \"5\"]\n[Komi \"-63.5\"]\n1. a1".to_string(),
        "[Size \"5\"]\n[Komi \"64\"]\n1. a1".to_string(),
        "[Size \"5\"]\n[Komi \"1e300\"]\n1. a1".to_string(),
        "[Size \"5\"]\n[Komi \"-inf\"]\n1. a1".to_string(),
        "[Size \"18446744073709551621\"]\n1. a1".to_string(),
        "[Size \"-5\"]".to_string(),
        "[Size \" 5 \"]\n1. a1".to_string(),
        "99999999999999999999999. a1".to_string(),
        tall.clone(),
        format!("[TPS \"{tall}\"]\n60. -- 8a8-"),
        "x".repeat(10_000),
        "{".repeat(1000),
        "[".repeat(1000),
        "1.".repeat(5000),
        "a1 ".repeat(3000),
        "/".repeat(100) + " 1 1",
        ",".repeat(100) + " 1 1",
        "\u{feff}\u{feff}[Size \"5\"]".to_string(),
    ];
    for text in &extremes {
        exercise(text, &boards, &mut stats);
    }
    for i in 0..iterations {
        let text = if i % 5 == 0 {
            random_text(&mut rng)
        } else {
            let kind = &seeds[rng.below(3)];
            let seed = &kind[rng.below(kind.len())];
            let mut text = mutate(seed, &mut rng);
            if rng.chance(8) {
                text = mutate(&text, &mut rng);
            }
            text
        };
        exercise(&text, &boards, &mut stats);
    }
    // The mutations must leave enough valid input for the deeper checks to run.
    let [tps_ok, moves_ok, files_ok, replays_ok] = stats;
    eprintln!(
        "fuzz: {iterations} inputs; valid TPS {tps_ok}, moves {moves_ok}, files {files_ok}, \
         replayed games {replays_ok}"
    );
    assert!(tps_ok > iterations / 100, "{stats:?}");
    assert!(moves_ok > iterations / 100, "{stats:?}");
    assert!(files_ok > iterations / 10, "{stats:?}");
    assert!(replays_ok > iterations / 100, "{stats:?}");
}

/// Consecutive header-only games stay separate games, and a syntax error names its ply.
#[test]
fn header_only_games_and_ply_numbers() {
    let text = "[Size \"5\"]\n[TPS \"x5/x5/x5/x5/x5 1 2\"]\n\n[Size \"6\"]\n[TPS \"x6/x6/x6/x6/x6/x6 2 3\"]\n";
    let games = cairn_tak::notation::parse_file(text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("Size"), Some("6"));
    let err = cairn_tak::notation::parse_file("1. a1 e5\n2. c3 q9\n").unwrap_err();
    assert!(
        matches!(err.kind, PtnErrorKind::Move { ply: 4, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("ply 4"), "{err}");
    let empty_cell = "x2,,x2/x5/x5/x5/x5 1 2"
        .parse::<cairn_tak::notation::Tps>()
        .unwrap_err();
    assert!(
        empty_cell.to_string().contains("empty square"),
        "{empty_cell}"
    );
}

/// TPS errors name ranks as a player reads the board (the TPS's first row is the top rank),
/// count squares and pieces in the singular for one, and quote a bad square escaped.
#[test]
fn tps_errors_name_ranks_and_count_well() {
    for (tps, says) in [
        (
            "x6/x6/x6/x6/x6/x5 1 1",
            "rank 1 (the sixth row of the TPS) has 5 squares, expected 6",
        ),
        (
            "1/x6/x6/x6/x6/x6 1 1",
            "rank 6 (the first row of the TPS) has 1 square, expected 6",
        ),
        (
            "x4/x3,1Q/x4/x4 1 1",
            "rank 3 (the second row of the TPS): bad square `1Q`: expected x, xN, or a stack of \
             1s and 2s",
        ),
        (
            "x4/x4/x4/x9 1 1",
            "rank 1 (the fourth row of the TPS): bad square `x9`: an empty run must be x or x1 to \
             x8",
        ),
        (
            "x4/x4/x4/x3,\u{1b}[0m 1 1",
            "rank 1 (the fourth row of the TPS): bad square `\\x1b[0m`: expected x, xN, or a \
             stack of 1s and 2s",
        ),
    ] {
        assert_eq!(tps.parse::<Tps>().unwrap_err().to_string(), says, "{tps}");
    }
    let err = tps::parse::<4>("1C,x3/x4/x4/x4 2 2").unwrap_err();
    assert_eq!(
        err.to_string(),
        "white has 1 capstone on the board, but only 0 in the game"
    );
    let err = tps::parse::<5>("x5/x5/x5/x5/1C,1C,x3 1 3").unwrap_err();
    assert_eq!(
        err.to_string(),
        "white has 2 capstones on the board, but only 1 in the game"
    );
}
