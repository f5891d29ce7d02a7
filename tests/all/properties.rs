//! Randomised properties of the rules core, over seeded random playouts on every size:
//! - `unmake` restores the position exactly and the incremental hash equals a fresh one;
//! - bulk counting, generation and the legality check agree, with no duplicate moves;
//! - road-in-one detection agrees with trying every move;
//! - perft, road-in-one and results are unchanged by the 8 board symmetries and colour swap.

use crate::common;

use crate::common::{perft_rows, random_positions, Rng};
use cairn_tak::board::{Color, GameResult, Move, Position};
use cairn_tak::movegen::perft;
use cairn_tak::notation::tps;

fn for_all_sizes(f: &dyn Fn(usize)) {
    for size in 3..=8 {
        f(size);
    }
}

fn make_unmake<const N: usize>(seed: u64) {
    let mut rng = Rng::new(seed);
    for pos in common::mixed_positions::<N>(seed, 30, 150, 300, &mut rng) {
        assert_eq!(pos.hash(), pos.compute_hash(), "{pos:?}");
        let mut work = pos.clone();
        for mv in pos.legal_moves() {
            let undo = work.make(mv);
            assert_eq!(
                work.hash(),
                work.compute_hash(),
                "after {} in {pos:?}",
                mv.ptn::<N>()
            );
            assert_eq!(work.ply(), pos.ply() + 1);
            work.unmake(mv, undo);
            assert_eq!(work, pos, "unmake {} in {pos:?}", mv.ptn::<N>());
        }
    }
}

#[test]
fn unmake_restores_and_hash_is_incremental() {
    for_all_sizes(
        &|size| cairn_tak::with_size!(size, |N| make_unmake::<N>(size as u64), else unreachable!()),
    );
}

fn generation_agrees<const N: usize>(seed: u64) {
    let mut rng = Rng::new(seed ^ 0xABCD);
    let mut positions = 0;
    for pos in common::mixed_positions::<N>(seed, 30, 150, 500, &mut rng) {
        positions += 1;
        let mut moves: Vec<Move> = pos.legal_moves().into_vec();
        assert_eq!(pos.count_moves(), moves.len() as u64, "{pos:?}");
        for &mv in &moves {
            assert_eq!(pos.check_legal(mv), Ok(()), "{} in {pos:?}", mv.ptn::<N>());
        }
        moves.sort();
        let before = moves.len();
        moves.dedup();
        assert_eq!(before, moves.len(), "duplicate moves in {pos:?}");
        // Random packed moves, and generated moves with a mutated field, are legal exactly
        // when generation lists them.
        for i in 0..64 {
            let bits = if i % 2 == 0 || moves.is_empty() {
                rng.next_u64() as u32 & 0x3ffff
            } else {
                moves[rng.below(moves.len())].bits() ^ (1 << rng.below(18))
            };
            if let Some(mv) = Move::from_bits(bits) {
                let listed = moves.binary_search(&mv).is_ok();
                assert_eq!(pos.is_legal(mv), listed, "{mv:?} in {pos:?}");
            }
        }
    }
    assert!(positions > 100);
}

#[test]
fn count_generate_and_check_agree() {
    for_all_sizes(
        &|size| cairn_tak::with_size!(size, |N| generation_agrees::<N>(100 + size as u64), else unreachable!()),
    );
}

fn road_in_one<const N: usize>(seed: u64) -> (usize, usize) {
    let (mut wins, mut spread_wins) = (0, 0);
    let mut rng = Rng::new(seed);
    for pos in common::mixed_positions::<N>(seed, 60, 200, 3000, &mut rng) {
        if pos.is_over() {
            continue;
        }
        let me = pos.side_to_move();
        let mut work = pos.clone();
        let brute = pos.legal_moves().into_iter().any(|mv| {
            let undo = work.make(mv);
            let wins = work.has_road(me);
            work.unmake(mv, undo);
            wins
        });
        let found = pos.winning_move();
        assert_eq!(found.is_some(), brute, "road in one in {pos:?}");
        if let Some(mv) = found {
            wins += 1;
            spread_wins += !mv.is_placement() as usize;
            assert!(pos.is_legal(mv));
            work.make(mv);
            assert_eq!(
                work.result(),
                Some(GameResult::Road(me)),
                "{}",
                mv.ptn::<N>()
            );
        }
    }
    (wins, spread_wins)
}

#[test]
fn road_in_one_matches_brute_force() {
    for_all_sizes(&|size| {
        let (wins, spread_wins) = cairn_tak::with_size!(size, |N| road_in_one::<N>(200 + size as u64), else unreachable!());
        // Enough winning positions, some winnable only by a spread, for the check to mean something.
        assert!(
            wins >= 100 && spread_wins >= 20,
            "size {size}: {wins} wins, {spread_wins} by spreads"
        );
    });
}

fn symmetric<const N: usize>(pos: &Position<N>, depth: u32) {
    let mut base = pos.clone();
    let expected = perft(&mut base, depth);
    let wins = pos.can_win_in_one();
    let result = pos.result();
    // In the opening a colour swap changes how many swap plies remain, so it is skipped there.
    for swap in [false, true]
        .into_iter()
        .filter(|&s| !s || !pos.is_opening())
    {
        let coloured = if swap {
            pos.color_swapped()
        } else {
            pos.clone()
        };
        for symmetry in 0..8 {
            let mut t = coloured.transformed(symmetry);
            assert_eq!(t.hash(), t.compute_hash());
            assert_eq!(
                perft(&mut t, depth),
                expected,
                "{pos:?} sym {symmetry} swap {swap}"
            );
            assert_eq!(
                t.can_win_in_one(),
                wins,
                "{pos:?} sym {symmetry} swap {swap}"
            );
            let swapped = result.map(|r| match r {
                GameResult::Road(c) if swap => GameResult::Road(!c),
                GameResult::Flats(c) if swap => GameResult::Flats(!c),
                r => r,
            });
            assert_eq!(t.result(), swapped, "{pos:?} sym {symmetry} swap {swap}");
        }
    }
}

#[test]
fn symmetries_and_color_swap_preserve_perft() {
    for row in perft_rows("perft.tsv") {
        let depth = row
            .counts
            .iter()
            .take_while(|&&n| n < 300_000)
            .count()
            .max(1) as u32;
        cairn_tak::with_size!(row.size, |N| {
            symmetric(&tps::parse::<N>(&row.tps).unwrap(), depth)
        }, else unreachable!());
    }
    for_all_sizes(&|size| {
        cairn_tak::with_size!(size, |N| {
            for (i, pos) in random_positions::<N>(300 + size as u64, 6, 120).iter().enumerate() {
                if i % 7 == 0 {
                    symmetric(pos, 2);
                }
            }
        }, else unreachable!())
    });
}

/// Colour swap keeps the opening state and flips the side to move.
#[test]
fn color_swap_flips_the_side_to_move() {
    let pos = tps::parse::<5>("x4,1/x5/x5/x5/2,x4 1 2").unwrap();
    let swapped = pos.color_swapped();
    assert_eq!(swapped.side_to_move(), Color::Black);
    assert_eq!(tps::to_tps(&swapped), "x4,2/x5/x5/x5/1,x4 2 2");
    assert_eq!(swapped.color_swapped(), pos);
}

fn eval_symmetric<const N: usize>(seed: u64) {
    // The colour term (White or Black to move, for komi) is the one part that may differ
    // between a position and its colour swap: it is left out here, and checked alone below.
    let mut weights = *cairn_tak::eval::params::WEIGHTS[N];
    weights.0[cairn_tak::eval::feature::WHITE] = [0, 0];
    let colour_blind = |pos: &Position<N>| cairn_tak::eval::evaluate_with(pos, &weights);
    let mut rng = Rng::new(seed);
    for pos in common::mixed_positions::<N>(seed, 10, 120, 200, &mut rng) {
        if pos.is_opening() {
            continue;
        }
        let score = cairn_tak::eval::evaluate_linear(&pos);
        let swapped = pos.color_swapped();
        assert_eq!(colour_blind(&swapped), colour_blind(&pos), "{pos:?}");
        let colour = |p: &Position<N>| cairn_tak::eval::evaluate_linear(p).0 - colour_blind(p).0;
        // Opposite, up to the rounding of each evaluation's phase blend (1 each way).
        let (mine, theirs) = (colour(&pos), colour(&swapped));
        assert!((mine + theirs).abs() <= 2, "{mine} {theirs} {pos:?}");
        for symmetry in 1..8 {
            assert_eq!(
                cairn_tak::eval::evaluate_linear(&pos.transformed(symmetry)),
                score,
                "{pos:?}"
            );
        }
    }
}

/// The linear evaluation is the same under the 8 board symmetries and under colour swap (from
/// the side to move's point of view, with komi negated). (A network is trained on the
/// symmetries but is not exactly symmetric.)
#[test]
fn evaluation_is_symmetric() {
    for_all_sizes(
        &|size| cairn_tak::with_size!(size, |N| eval_symmetric::<N>(400 + size as u64), else unreachable!()),
    );
}

fn flat_win_in_one<const N: usize>(seed: u64) -> usize {
    let mut found = 0;
    for pos in random_positions::<N>(seed, 200, 400) {
        if pos.is_over() || pos.winning_move().is_some() {
            continue;
        }
        let me = pos.side_to_move();
        let brute = pos.legal_moves().into_iter().any(|mv| {
            let mut child = pos.clone();
            child.make(mv);
            mv.is_placement() && child.result() == Some(GameResult::Flats(me))
        });
        let claimed = pos.flat_win_in_one();
        assert_eq!(claimed.is_some(), brute, "{pos:?}");
        if let Some(mv) = claimed {
            found += 1;
            let mut child = pos.clone();
            child.make(mv);
            assert_eq!(child.result(), Some(GameResult::Flats(me)), "{pos:?}");
        }
    }
    found
}

/// A placement that ends the game on flats in the mover's favour is found exactly when one
/// exists (positions without a road in one).
#[test]
fn flat_win_in_one_matches_brute_force() {
    let found: usize = (3..=5)
        .map(
            |size| cairn_tak::with_size!(size, |N| flat_win_in_one::<N>(500 + size as u64), else 0),
        )
        .sum();
    assert!(found >= 20, "only {found} flat wins in one seen");
}

fn defences_complete<const N: usize>(seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut seen = 0;
    for pos in common::mixed_positions::<N>(seed, 40, 200, 3000, &mut rng) {
        let me = pos.side_to_move();
        if pos.is_over() || pos.winning_move().is_some() {
            continue;
        }
        let Some((squares, guard, relevant)) = pos.placement_defence_squares() else {
            continue;
        };
        assert_eq!(squares, pos.completing_placements(!me));
        seen += 1;
        let stops = |mv: Move| {
            let mut child = pos.clone();
            child.make(mv);
            match child.result() {
                Some(r) => r.winner() != Some(!me),
                None => child.winning_move().is_none(),
            }
        };
        let brute: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| stops(m))
            .collect();
        // The candidates: placements on guard squares, spreads that cover a relevant square.
        let candidate = |mv: Move| {
            if mv.is_placement() {
                return guard.contains(mv.square());
            }
            let mut at = mv.square();
            (0..mv.distance()).any(|_| {
                at = at
                    .step::<N>(mv.direction())
                    .expect("legal spreads stay on the board");
                relevant.contains(at)
            })
        };
        for mv in brute {
            assert!(
                candidate(mv),
                "{} stops the threat but is not tried in {pos:?}",
                mv.ptn::<N>()
            );
        }
    }
    seen
}

/// Every move that stops all of the opponent's road-in-one threats is among the candidate
/// defences against its placement threats that the tinue prover tries
/// (`placement_defence_squares`), so "no defence" there is a proven loss.
#[test]
fn threat_defences_are_complete() {
    for_all_sizes(&|size| {
        let seen =
            cairn_tak::with_size!(size, |N| defences_complete::<N>(600 + size as u64), else 0);
        assert!(seen > 50, "size {size}: only {seen} threatened positions");
    });
}

/// Over random positions whose opponent holds no road in one: how many moves keep it so, and
/// how many moves the search does not vouch for ([`SearchGame::adds_no_threat`] false) give it
/// one. Panics if a vouched-for move gives the opponent a road in one.
fn placements_add_no_threat<const N: usize>(seed: u64) -> (usize, usize) {
    use cairn_search::SearchGame;
    let mut rng = Rng::new(seed);
    let (mut vouched, mut threats_made) = (0, 0);
    for pos in common::mixed_positions::<N>(seed, 40, 200, 1500, &mut rng) {
        let me = pos.side_to_move();
        if pos.is_over() || pos.winning_move_for(!me).is_some() {
            continue;
        }
        for mv in pos.legal_moves() {
            let mut child = pos.clone();
            child.make(mv);
            let threat = child.result().is_none() && child.winning_move().is_some();
            if pos.adds_no_threat(mv) {
                vouched += 1;
                assert!(
                    !threat,
                    "{} gives a road in one after {pos:?}",
                    mv.ptn::<N>()
                );
            } else {
                threats_made += threat as usize;
            }
        }
    }
    (vouched, threats_made)
}

/// The search skips the road-in-one check after a move that cannot give the opponent a road
/// it did not have: checked against the full check after every such move.
#[test]
fn placements_give_the_opponent_no_road() {
    for_all_sizes(&|size| {
        let (vouched, threats_made) = cairn_tak::with_size!(
            size,
            |N| placements_add_no_threat::<N>(900 + size as u64),
            else (0, 0)
        );
        // Many moves vouched for, and some of the others do give a road in one: the property
        // is not empty.
        assert!(
            vouched > 1000 && threats_made > 10,
            "size {size}: {vouched} vouched, {threats_made} threats made by the rest"
        );
    });
}

/// Over random positions: how many spreads were scored. Panics unless every move's ordering
/// score is what making it shows (a spread: `ORDER_SPREAD_FLAT` per flat gained on top, own
/// flats on top minus the opponent's, plus `ORDER_CRUSH` if a wall was flattened; a placement:
/// its kind's score), and unless the scores of all moves at once
/// ([`SearchGame::quiet_orders`]) are the same, in the generator's order and shuffled.
fn ordering_scores<const N: usize>(seed: u64) -> usize {
    use cairn_search::SearchGame;
    use cairn_tak::adapter::{
        ORDER_CAP, ORDER_CRUSH, ORDER_FLAT, ORDER_SPREAD, ORDER_SPREAD_FLAT, ORDER_WALL,
    };
    use cairn_tak::board::Role;
    let mut rng = Rng::new(seed);
    let mut spreads = 0;
    for pos in common::mixed_positions::<N>(seed, 30, 200, 600, &mut rng) {
        let me = pos.side_to_move();
        let lead = |p: &Position<N>| p.flats(me).count() as i32 - p.flats(!me).count() as i32;
        let mut moves: Vec<Move> = pos.legal_moves().into_vec();
        for &mv in &moves {
            let mut child = pos.clone();
            child.make(mv);
            let expected = match mv.role() {
                Some(Role::Flat) => ORDER_FLAT,
                Some(Role::Wall) => ORDER_WALL,
                Some(Role::Cap) => ORDER_CAP,
                None => {
                    spreads += 1;
                    let crushed = child.walls().count() < pos.walls().count();
                    ORDER_SPREAD
                        + ORDER_SPREAD_FLAT * (lead(&child) - lead(&pos))
                        + if crushed { ORDER_CRUSH } else { 0 }
                }
            };
            assert_eq!(
                pos.quiet_order(mv),
                expected,
                "{} in {pos:?}",
                mv.ptn::<N>()
            );
        }
        for round in 0..2 {
            if round == 1 {
                for i in (1..moves.len()).rev() {
                    moves.swap(i, rng.below(i + 1));
                }
            }
            let mut batch = vec![i32::MIN; moves.len()];
            pos.quiet_orders(&moves, &mut batch);
            for (&mv, &score) in moves.iter().zip(&batch) {
                assert_eq!(score, pos.quiet_order(mv), "{} in {pos:?}", mv.ptn::<N>());
            }
        }
    }
    spreads
}

/// Move ordering scores spreads by the flats they gain, and scoring all the moves of a node at
/// once gives the same scores as one by one.
#[test]
fn ordering_scores_are_the_flats_gained() {
    for_all_sizes(&|size| {
        let spreads =
            cairn_tak::with_size!(size, |N| ordering_scores::<N>(1100 + size as u64), else 0);
        assert!(spreads > 5000, "size {size}: only {spreads} spreads scored");
    });
}
