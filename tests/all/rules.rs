//! The rules of Tak, scenario by scenario: reserves, the opening swap, roads (double road,
//! suicide, walls, capstones), flat ends with komi, the capstone crush, carry limits and stacks
//! far taller than 64 pieces.

use cairn_tak::board::{Color, GameResult, Position, Role, Square};
use cairn_tak::movegen::{perft, IllegalMove};
use cairn_tak::notation::{parse_move, tps, MoveError};

fn play<const N: usize>(pos: &mut Position<N>, moves: &str) {
    for text in moves.split_whitespace() {
        assert_eq!(pos.result(), None, "game over before {text}");
        let mv = parse_move(pos, text).unwrap_or_else(|e| panic!("{e}"));
        pos.make(mv);
    }
}

fn illegal<const N: usize>(pos: &Position<N>, text: &str) -> IllegalMove {
    match parse_move(pos, text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

#[test]
fn reserves_per_size() {
    assert_eq!((Position::<3>::STONES, Position::<3>::CAPSTONES), (10, 0));
    assert_eq!((Position::<4>::STONES, Position::<4>::CAPSTONES), (15, 0));
    assert_eq!((Position::<5>::STONES, Position::<5>::CAPSTONES), (21, 1));
    assert_eq!((Position::<6>::STONES, Position::<6>::CAPSTONES), (30, 1));
    assert_eq!((Position::<7>::STONES, Position::<7>::CAPSTONES), (40, 2));
    assert_eq!((Position::<8>::STONES, Position::<8>::CAPSTONES), (50, 2));
}

#[test]
fn opening_swap_follows_the_move_number() {
    let mut pos = Position::<5>::start();
    assert_eq!(illegal(&pos, "Sa1"), IllegalMove::OpeningFlatOnly);
    assert_eq!(illegal(&pos, "Ca1"), IllegalMove::OpeningFlatOnly);
    play(&mut pos, "a1");
    assert_eq!(pos.top(Square(0)), Some((Color::Black, Role::Flat)));
    assert_eq!(pos.stones_left(Color::Black), 20);
    assert_eq!(illegal(&pos, "a1>"), IllegalMove::OpeningFlatOnly);
    play(&mut pos, "e5");
    assert_eq!(pos.top(Square(24)), Some((Color::White, Role::Flat)));
    play(&mut pos, "Cc3");
    assert_eq!(pos.top(Square(12)), Some((Color::White, Role::Cap)));
    // Stones on the board but move number 1: still the opening (spec vector 14).
    let pos = tps::parse::<5>("x4,1/x5/x5/x5/2,x4 1 1").unwrap();
    assert!(pos.is_opening());
    assert_eq!(pos.count_moves(), 23);
    assert!(pos
        .legal_moves()
        .iter()
        .all(|m| m.role() == Some(Role::Flat)));
}

#[test]
fn double_road_is_won_by_the_mover() {
    // Spec vector 16: the last move completes both roads; White moved, White wins.
    let mut pos = Position::<5>::start();
    play(&mut pos, "a4 a5 b5 b4 c5 c4 1c5- d4 d5 e4 e5 c3");
    assert_eq!(pos.result(), None);
    play(&mut pos, "1c4+");
    assert!(pos.has_road(Color::White) && pos.has_road(Color::Black));
    assert_eq!(pos.result(), Some(GameResult::Road(Color::White)));
    assert_eq!(perft(&mut pos, 1), 0, "a finished game counts 0");
}

#[test]
fn suicide_road_loses() {
    // Spec vector 17: Black's `e4-` completes only White's road.
    let mut pos = Position::<5>::start();
    play(
        &mut pos,
        "a5 a1 Cc3 Cd3 c2 c4 b3 c1 b2 d2 b4 e3 b5 a5> b1 c5 a5 2b5- a4 Sa3 b5 a3+ d4 d1 c3+ \
         3b4- e4 d3+ c3 4b3> b3 5c3< c3 c1< a1> d2< 3b1+12 d3 5b3>113 2d4- b4 2a4> 2b2>11 d3> \
         2c4- c4 d4 4e3+13 a3 3b4- 3c3+12",
    );
    assert_eq!(pos.side_to_move(), Color::Black);
    play(&mut pos, "e4-");
    assert!(!pos.has_road(Color::Black));
    assert_eq!(pos.result(), Some(GameResult::Road(Color::White)));
}

#[test]
fn walls_break_roads_and_capstones_complete_them() {
    assert!(
        tps::parse::<3>("x3/1,1C,1/x3 2 3").is_err(),
        "3x3 has no capstones"
    );
    let with_cap = tps::parse::<5>("x5/x5/1,1,1C,1,1/x5/x5 2 3").unwrap();
    assert!(with_cap.has_road(Color::White));
    assert_eq!(with_cap.result(), Some(GameResult::Road(Color::White)));
    let with_wall = tps::parse::<5>("x5/x5/1,1,1S,1,1/x5/x5 2 3").unwrap();
    assert!(!with_wall.has_road(Color::White));
    assert_eq!(with_wall.result(), None);
    // A stack counts for its top piece only.
    let covered = tps::parse::<3>("x3/1,12,1/x3 2 3").unwrap();
    assert!(!covered.has_road(Color::White));
}

#[test]
fn flat_end_counts_top_flats_with_komi() {
    // Board full: White 5 flats, Black 4, one black wall that does not score.
    let full = "1,2,1/2,1,2S/1,2,1 2 6";
    let mut pos = tps::parse::<3>(full).unwrap();
    assert_eq!(pos.result(), Some(GameResult::Flats(Color::White)));
    assert!(pos.count_moves() > 0, "spreads exist, but the game is over");
    assert_eq!(perft(&mut pos, 2), 0);
    // Margin 5 - 3 = 2 flats = 4 half flats: komi 4 draws, 5 wins for Black, 3 for White.
    for (komi, result) in [
        (3, GameResult::Flats(Color::White)),
        (4, GameResult::Draw),
        (5, GameResult::Flats(Color::Black)),
    ] {
        pos.set_half_komi(komi);
        assert_eq!(pos.result(), Some(result), "half komi {komi}");
    }
    // Board not full, no road: the game goes on.
    let open = tps::parse::<3>("1,2,1/2,x,2S/1,2,1 2 6").unwrap();
    assert_eq!(open.result(), None);
}

#[test]
fn out_of_pieces_needs_stones_and_capstones() {
    // 5x5: White has placed all 21 stones (flats), but still has a capstone: not over.
    let mut pos =
        tps::parse::<5>("111,111,111,x2/2,x4/111,111,111,x2/2,x4/111,x,2,2,x 2 12").unwrap();
    assert_eq!(pos.stones_left(Color::White), 0);
    assert_eq!(pos.caps_left(Color::White), 1);
    assert_eq!(pos.result(), None);
    play(&mut pos, "b4");
    assert_eq!(pos.result(), None);
    play(&mut pos, "Cd4");
    assert_eq!(pos.caps_left(Color::White), 0);
    assert!(pos.is_flat_end());
    assert!(pos.result().is_some());
}

#[test]
fn capstone_flattens_a_wall_only_alone_on_the_last_step() {
    // White cap on c3 with a white flat under it (c3 = 1 then C), black wall on d3, e3 empty.
    let pos = tps::parse::<5>("x5/x5/x2,11C,2S,x/x5/x5 1 5").unwrap();
    let mut work = pos.clone();
    let mv = parse_move(&work, "c3>").unwrap();
    let undo = work.make(mv);
    assert!(undo.crushed());
    assert_eq!(work.top(Square(13)), Some((Color::White, Role::Cap)));
    assert_eq!(work.height(Square(13)), 2);
    work.unmake(mv, undo);
    assert_eq!(work, pos);
    assert_eq!(work.top(Square(13)), Some((Color::Black, Role::Wall)));
    // Two pieces onto the wall: blocked. A flat cannot flatten either.
    assert_eq!(
        illegal(&pos, "2c3>"),
        IllegalMove::Blocked(Square(13).name::<5>(), Role::Wall)
    );
    // Dropping a flat on the wall is blocked whatever comes after.
    assert!(matches!(illegal(&pos, "2c3>11"), IllegalMove::Blocked(..)));
    let own_wall = tps::parse::<5>("x5/x5/x,1C,x,1S,x/x5/x5 1 5").unwrap();
    assert!(
        parse_move(&own_wall, "b3>").is_ok(),
        "stops before the wall"
    );
    assert!(
        parse_move(&own_wall, "d3<").is_ok(),
        "a wall moves onto an empty square"
    );
    let mut far = tps::parse::<5>("x5/x5/x,221C,x,1S,x/x5/x5 1 5").unwrap();
    let mv = parse_move(&far, "3b3>21").unwrap();
    assert!(
        far.make(mv).crushed(),
        "3b3>21 drops 2 on c3 and the cap alone on d3"
    );
    assert_eq!(
        far.top(Square::new::<5>(3, 2)),
        Some((Color::White, Role::Cap))
    );
    // Capstones block everything, walls included.
    let caps = tps::parse::<5>("x5/x5/x,1C,2C,1S,x/x5/x5 1 5").unwrap();
    assert!(matches!(
        illegal(&caps, "b3>"),
        IllegalMove::Blocked(_, Role::Cap)
    ));
    assert!(matches!(
        illegal(&caps, "d3<"),
        IllegalMove::Blocked(_, Role::Cap)
    ));
}

#[test]
fn carry_limit_is_the_board_size() {
    let pos = tps::parse::<3>("x3/x,2121,x/x3 1 5").unwrap();
    assert!(parse_move(&pos, "3b2>").is_ok());
    assert!(matches!(
        parse_move(&pos, "4b2>"),
        Err(MoveError::CarryLimit { .. })
    ));
    let short = tps::parse::<5>("x5/x5/x2,12,x2/x5/x5 1 5").unwrap();
    assert!(matches!(
        illegal(&short, "c3>"),
        IllegalMove::NotYourStack(_)
    ));
    let mine = tps::parse::<5>("x5/x5/x2,21,x2/x5/x5 1 5").unwrap();
    assert!(matches!(
        illegal(&mine, "3c3>"),
        IllegalMove::StackTooShort {
            count: 3,
            height: 2
        }
    ));
    assert!(parse_move(&mine, "2c3>11").is_ok());
    let near_edge = tps::parse::<5>("x5/x5/x3,21,x/x5/x5 1 5").unwrap();
    assert_eq!(illegal(&near_edge, "2d3>11"), IllegalMove::PastEdge);
}

#[test]
fn stacks_far_taller_than_64() {
    // 8x8: every stone of both players in one 100-high stack on d4, White's capstone beside it.
    let stack: String = "12".repeat(50);
    let text = format!("x8/x8/x8/x3,1C,x4/x3,{stack},x4/x8/x8/x8 1 60");
    let pos = tps::parse::<8>(&text).unwrap();
    assert_eq!(pos.height(Square::new::<8>(3, 3)), 100);
    assert_eq!(pos.stones_left(Color::White), 0);
    assert_eq!(pos.stones_left(Color::Black), 0);
    assert_eq!(tps::to_tps(&pos), text);
    let mut work = pos.clone();
    // The capstone climbs on top: 101 pieces.
    let mv = parse_move(&work, "d5-").unwrap();
    let undo = work.make(mv);
    assert_eq!(work.height(Square::new::<8>(3, 3)), 101);
    assert_eq!(work.hash(), work.compute_hash());
    assert_eq!(
        work.top(Square::new::<8>(3, 3)),
        Some((Color::White, Role::Cap))
    );
    // Every spread of the tall stack makes and unmakes exactly.
    for mv in work.legal_moves() {
        let mut child = work.clone();
        let u = child.make(mv);
        assert_eq!(child.hash(), child.compute_hash());
        child.unmake(mv, u);
        assert_eq!(child, work);
    }
    work.unmake(mv, undo);
    assert_eq!(work, pos);
    // Perft through positions with the 100+ stack agrees between bulk counting and generation.
    let mut a = pos.clone();
    let bulk = perft(&mut a, 3);
    let mut generated = 0;
    for m1 in pos.legal_moves() {
        let mut p1 = pos.clone();
        p1.make(m1);
        if p1.is_over() {
            continue;
        }
        for m2 in p1.legal_moves() {
            let mut p2 = p1.clone();
            p2.make(m2);
            if !p2.is_over() {
                generated += p2.legal_moves().len() as u64;
            }
        }
    }
    assert_eq!(bulk, generated);
}
