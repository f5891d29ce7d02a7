//! The network evaluation (crates/tak/src/eval/nnue.rs, trained by crates/tools/src/tune/network.rs): its inputs, its file, its quantisation, and training it
//! on data the tests make (random games labelled by the linear evaluation).

use crate::common::{mixed_positions, random_positions, Rng, Scratch};
use cairn_search::score::Score;
use cairn_tak::board::{Color, Position};
use cairn_tak::eval::nnue::{active, Active, Layout, NetError, Network, DEPTH, PLANES};
use cairn_tak::eval::SHIPPED_K;
use cairn_tak::notation::tps;
use cairn_tools::tune::network::{best_scale, Model, NetData, SplitLoss, TrainConfig};

/// Random positions of size `N`: playouts (every ply) and random boards with tall stacks.
fn positions<const N: usize>(seed: u64) -> Vec<Position<N>> {
    let mut out = mixed_positions::<N>(seed, 6, 120, 60, &mut Rng::new(seed));
    for (i, pos) in out.iter_mut().enumerate() {
        pos.set_half_komi((i % 9) as i8 - 4);
    }
    out
}

fn inputs<const N: usize>(pos: &Position<N>, me: Color) -> Vec<u16> {
    let mut a = Active::new();
    active(pos, me, &mut a);
    let mut v = a.to_vec();
    v.sort_unstable();
    v
}

fn check_inputs<const N: usize>() {
    let layout = Layout::of(N);
    for pos in positions::<N>(N as u64) {
        for me in Color::ALL {
            let v = inputs(&pos, me);
            assert!(v.iter().all(|&i| (i as usize) < layout.inputs), "{N}x{N}");
            let mut unique = v.clone();
            unique.dedup();
            assert_eq!(unique.len(), v.len(), "an input twice in {N}x{N}");
            let under: usize = pos
                .occupied()
                .into_iter()
                .map(|sq| (pos.height(sq) - 1).min(DEPTH))
                .sum();
            // A top piece and the pieces under it per stack, four reserves and the komi.
            assert_eq!(v.len(), pos.occupied().count() as usize + under + 5);
            // Exactly one top piece per occupied square.
            let tops = v
                .iter()
                .filter(|&&i| (i as usize) < layout.reserves && (i as usize) % PLANES < 6)
                .count();
            assert_eq!(tops, pos.occupied().count() as usize);
        }
    }
}

/// Every input of every size is inside the layout, once, and as many as the position has.
#[test]
fn inputs_fit_the_layout_on_every_size() {
    check_inputs::<3>();
    check_inputs::<4>();
    check_inputs::<5>();
    check_inputs::<6>();
    check_inputs::<7>();
    check_inputs::<8>();
    assert_eq!(
        Layout::of(6).inputs,
        36 * PLANES + 2 * 31 + 2 * 2 + 21,
        "6x6: squares, reserves of 30 stones and 1 capstone, komi"
    );
}

/// The inputs are relative to the perspective: White's view of a position is Black's view of
/// the colour-swapped position (komi negated, so "in my favour" stays the same).
#[test]
fn perspectives_swap_with_the_colours() {
    for pos in positions::<6>(21) {
        if pos.is_opening() {
            continue;
        }
        let swapped = pos.color_swapped();
        assert_eq!(inputs(&pos, Color::White), inputs(&swapped, Color::Black));
        assert_eq!(inputs(&pos, Color::Black), inputs(&swapped, Color::White));
        assert_ne!(
            inputs(&pos, Color::White),
            inputs(&pos, Color::Black),
            "the two perspectives of a position differ"
        );
    }
}

/// A network survives its file; a damaged file is refused with the reason.
#[test]
fn network_files_round_trip_and_damage_is_refused() {
    for size in [3, 6, 8] {
        let net = Model::new(Layout::of(size), 5, size == 6).to_network();
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert_eq!(net.size(), size);
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length { .. })
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Network::from_bytes(&longer),
            Err(NetError::Length { .. })
        ));
        let mut other = bytes.clone();
        other[0] = b'X';
        assert_eq!(Network::from_bytes(&other), Err(NetError::NotANetwork));
        let mut wrong_size = bytes.clone();
        wrong_size[12..16].copy_from_slice(&9u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&wrong_size),
            Err(NetError::Shape(_))
        ));
    }
    assert_eq!(Network::from_bytes(b""), Err(NetError::NotANetwork));
}

/// The evaluation through the thread's cache of accumulators (only the squares that changed
/// since the last evaluation redone) is exactly the from-scratch one: along random games (one
/// move apart), between unrelated boards, and when the network or the size changes.
#[test]
fn cached_evaluation_equals_a_fresh_one() {
    let a = Model::new(Layout::of(6), 1, false).to_network();
    let b = Model::new(Layout::of(6), 2, true).to_network();
    let c = Model::new(Layout::of(5), 3, false).to_network();
    let six = positions::<6>(31);
    let five = positions::<5>(32);
    let mut distinct = std::collections::HashSet::new();
    for (i, pos) in six.iter().enumerate() {
        let net = if i % 7 == 0 { &b } else { &a };
        let score = net.evaluate(pos);
        assert_eq!(score, net.centiflats(net.logit(pos)), "position {i}");
        distinct.insert(score);
        if i % 5 == 0 {
            let other = &five[i % five.len()];
            assert_eq!(c.evaluate(other), c.centiflats(c.logit(other)));
        }
    }
    assert!(
        distinct.len() > six.len() / 4,
        "the network tells positions apart"
    );
}

/// A residual network's correction scaled by `s` is `s` times the correction: the evaluation
/// moves from the linear one toward the network's by that share (to a centiflat of rounding),
/// and the scaled network survives its file.
#[test]
fn a_scaled_correction_is_that_share_of_the_correction() {
    let net = Model::new(Layout::of(6), 7, true).to_network();
    let half = net.clone().with_residual_scale(0.5);
    let mut moved = 0;
    for pos in positions::<6>(33) {
        let linear = cairn_tak::eval::evaluate_with(&pos, cairn_tak::eval::params::WEIGHTS[6]).0;
        let (whole, part) = (net.evaluate(&pos).0, half.evaluate(&pos).0);
        let expected = linear as f64 + 0.5 * (whole - linear) as f64;
        assert!(
            (part as f64 - expected).abs() <= 1.0,
            "{part} vs {expected}"
        );
        moved += (whole != linear) as usize;
    }
    assert!(
        moved > 20,
        "the correction is not zero ({moved} positions moved)"
    );
    let back = Network::from_bytes(&half.to_bytes()).expect("readable");
    assert_eq!(back, half);
    assert_ne!(back, net);
}

/// Random games of 6x6 labelled with the linear evaluation's expected score.
fn teacher_data(seed: u64) -> NetData {
    let mut data = NetData::default();
    for pos in random_positions::<6>(seed, 40, 90) {
        if pos.is_over() {
            continue;
        }
        let score = cairn_tak::eval::evaluate(&pos).0.clamp(-3000, 3000) as f32;
        data.push(&pos, 0.5, score).unwrap();
    }
    data.blend(0.0, SHIPPED_K);
    data
}

/// Training lowers the loss on positions it never saw, and the quantised network predicts as
/// the float model does.
#[test]
fn training_learns_a_teacher_and_quantising_keeps_it() {
    let train = teacher_data(1);
    let valid = teacher_data(2);
    assert!(train.len() > 1000 && valid.len() > 1000);
    let mut model = Model::new(Layout::of(6), 3, false);
    let (before, before_q) = model.loss(&valid);
    assert!((before - before_q).abs() < 2e-3, "{before} vs {before_q}");
    let config = TrainConfig {
        epochs: 8,
        batch: 64,
        rate: 0.003,
        decay: 0.85,
        seed: 3,
        sibling_weight: 1.0,
    };
    let (after, after_q) = model.train(&train, &valid, &config);
    assert!(
        after < 0.6 * before,
        "validation loss {before:.5} -> {after:.5}"
    );
    assert!((after - after_q).abs() < 2e-3, "{after} vs {after_q}");
    // The network's evaluation of a position is its logit in centiflats.
    let net = model.to_network();
    // Scoring the finished network gives the quantised loss training reported (no siblings
    // here: every position has a result).
    let scored = valid.split_loss(Some(&net), SHIPPED_K);
    assert_eq!((scored.n_games, scored.n_siblings), (valid.len(), 0));
    assert!(
        (scored.games - after_q).abs() < 1e-9,
        "{scored:?} vs {after_q}"
    );
    // A fine-tune starts from the network itself: quantised again it is the same network,
    // with the same loss (up to the order the parallel sum adds in).
    let start = Model::from_network(&net);
    assert!(start.to_network() == net);
    let again = start.loss(&valid).1;
    assert!((again - after_q).abs() < 1e-9, "{again} vs {after_q}");
    let pos = random_positions::<6>(9, 1, 30).pop().expect("a position");
    let cp = net.evaluate(&pos).0 as f32;
    assert!((cp - net.logit(&pos) / SHIPPED_K as f32).abs() <= 1.0);
    assert_eq!(net.evaluate(&pos), net.centiflats(net.logit(&pos)));
}

/// Augmented data stores each position once and reads it under the 8 symmetries: it is the
/// 8 turned positions written out, sample for sample, to a network and to training alike.
#[test]
fn augmented_data_is_the_eight_turned_positions() {
    check_augmentation::<5>(21);
    check_augmentation::<6>(22);
}

fn check_augmentation<const N: usize>(seed: u64) {
    let live: Vec<Position<N>> = random_positions::<N>(seed, 12, 70)
        .into_iter()
        .filter(|pos| !pos.is_over() && !pos.is_opening())
        .collect();
    assert!(live.len() > 300, "{}", live.len());
    // Results of every kind, a sibling (`*`) every fourth line, and a score the search might give.
    let line = |pos: &Position<N>, i: usize, score: i32| {
        let result = ["F-0", "0-R", "1/2-1/2", "*"][i % 4];
        format!("{}\t{result}\t4\t{score}\n", tps::to_tps(pos))
    };
    let score = |pos: &Position<N>, i: usize| {
        (cairn_tak::eval::evaluate(pos).0 + 37 * (i as i32 % 11) - 180).clamp(-3000, 3000)
    };
    let stored: String = live
        .iter()
        .enumerate()
        .map(|(i, pos)| line(pos, i, score(pos, i)))
        .collect();
    let written: String = live
        .iter()
        .enumerate()
        .flat_map(|(i, pos)| (0..8).map(move |s| line(&pos.transformed(s), i, score(pos, i))))
        .collect();
    let read = |text: &str, augment: bool| {
        let (mut data, rest) = NetData::read::<N>(text, 0.0, augment).expect("the data reads");
        assert!(rest.is_empty());
        data.blend(0.5, SHIPPED_K);
        data
    };
    let (augmented, turned, plain) = (
        read(&stored, true),
        read(&written, false),
        read(&stored, false),
    );
    assert_eq!(augmented.len(), 8 * live.len());
    assert_eq!(turned.len(), augmented.len());
    // The quantised network sums whole numbers: each sample's prediction is exact, so the
    // losses agree but for the order of the sum.
    let net = Model::new(Layout::of(N), seed, true).to_network();
    let (a, t, p) = (
        augmented.split_loss(Some(&net), SHIPPED_K),
        turned.split_loss(Some(&net), SHIPPED_K),
        plain.split_loss(Some(&net), SHIPPED_K),
    );
    assert_eq!((a.n_games, a.n_siblings), (t.n_games, t.n_siblings));
    assert!(
        (a.games - t.games).abs() < 1e-12 && (a.siblings - t.siblings).abs() < 1e-12,
        "{a:?} vs {t:?}"
    );
    // An untrained network is not symmetric, so the symmetries are not the stored position.
    assert!((a.games - p.games).abs() > 1e-6, "{a:?} vs {p:?}");
    let config = TrainConfig {
        epochs: 2,
        batch: 64,
        rate: 0.003,
        decay: 0.8,
        seed: 5,
        sibling_weight: 2.0,
    };
    let mut from_augmented = Model::new(Layout::of(N), 4, true);
    let mut from_turned = Model::new(Layout::of(N), 4, true);
    let a = from_augmented.train(&augmented, &plain, &config);
    let t = from_turned.train(&turned, &plain, &config);
    // The same samples in the same order: only float sums in another order differ.
    assert!((a.0 - t.0).abs() < 1e-6, "{a:?} vs {t:?}");
    // Data of another size or augmentation is not joined.
    let mut joined = read(&stored, true);
    assert!(joined.append(read(&stored, false)).is_err());
    assert!(joined.append(read(&stored, true)).is_ok());
    assert_eq!(joined.len(), 16 * live.len());
}

/// A residual network learns what the linear evaluation misses: here a teacher that values
/// each flat on top 2 flats more than the linear evaluation does, give or take a noise.
#[test]
fn a_residual_network_corrects_the_linear_evaluation() {
    let data = |seed: u64| {
        let mut data = NetData::default();
        for pos in random_positions::<6>(seed, 40, 90) {
            if pos.is_over() {
                continue;
            }
            let me = pos.side_to_move();
            let lead = pos.flats(me).count() as i32 - pos.flats(!me).count() as i32;
            // The linear evaluation's own terms (not a built-in network's), the flats' bonus,
            // and a part the inputs cannot explain (from the position's hash), so that a fit
            // has to choose which positions to fit best.
            let unexplained = (pos.hash() % 301) as i32 - 150;
            let score = cairn_tak::eval::evaluate_linear(&pos).0 + 200 * lead + unexplained;
            // Every third position is a sibling: no result, fitted to its score alone.
            let result = if pos.ply() % 3 == 0 { f32::NAN } else { 0.5 };
            data.push(&pos, result, score.clamp(-3000, 3000) as f32)
                .unwrap();
        }
        data.blend(0.0, SHIPPED_K);
        data
    };
    let (train, valid) = (data(5), data(6));
    let mut model = Model::new(Layout::of(6), 7, true);
    let (before, _) = model.loss(&valid);
    let grid: Vec<f32> = (1..=20).map(|i| i as f32 * 0.05).collect();
    let best_of = |model: &Model| {
        let linear = model.scaled_losses(&valid, &[0.0])[0];
        best_scale(&grid, &model.scaled_losses(&valid, &grid), &linear)
    };
    // An untrained correction is noise: little of it is worth keeping.
    assert!(best_of(&model) <= 0.25, "{}", best_of(&model));
    let config = TrainConfig {
        epochs: 8,
        batch: 64,
        rate: 0.003,
        decay: 0.85,
        seed: 7,
        sibling_weight: 1.0,
    };
    let (after, after_q) = model.train(&train, &valid, &config);
    let linear = valid.linear_loss(SHIPPED_K);
    assert!(
        after < 0.5 * linear,
        "residual {after:.5}, linear {linear:.5}"
    );
    assert!(after < 0.5 * before, "{before:.5} -> {after:.5}");
    assert!((after - after_q).abs() < 2e-3);
    // The losses split by kind: scale 0 is the linear evaluation, scale 1 the model; both
    // kinds are there, and their weighted mean is the whole set's loss.
    let split = model.scaled_losses(&valid, &[0.0, 1.0]);
    let mean = |l: &SplitLoss| {
        (l.games * l.n_games as f64 + l.siblings * l.n_siblings as f64)
            / (l.n_games + l.n_siblings) as f64
    };
    assert!(split[0].n_siblings > 100 && split[0].n_games > split[0].n_siblings);
    assert_eq!(split[0].n_games + split[0].n_siblings, valid.len());
    assert!(
        (mean(&split[0]) - linear).abs() < 1e-6,
        "{split:?} vs {linear}"
    );
    assert!(
        (mean(&split[1]) - after).abs() < 1e-6,
        "{split:?} vs {after}"
    );
    assert!(split[1].relative_to(&split[0]) < 1.0);
    // A finished network scores as the model does: the linear evaluation exactly, the
    // quantised correction within its rounding.
    let linear_split = valid.split_loss(None, SHIPPED_K);
    assert_eq!(
        (linear_split.n_games, linear_split.n_siblings),
        (split[0].n_games, split[0].n_siblings)
    );
    assert!((linear_split.games - split[0].games).abs() < 1e-9);
    assert!((linear_split.siblings - split[0].siblings).abs() < 1e-9);
    let net_split = valid.split_loss(Some(&model.to_network()), SHIPPED_K);
    assert!(
        (net_split.games - split[1].games).abs() < 2e-3,
        "{net_split:?}"
    );
    assert!(
        (net_split.siblings - split[1].siblings).abs() < 2e-3,
        "{net_split:?}"
    );
    // The teacher is exactly the linear evaluation plus the correction it learnt: most of it is
    // worth keeping.
    assert!(best_of(&model) >= 0.75, "{}", best_of(&model));
    let net = model.to_network();
    assert!(net.is_residual());
    let pos = random_positions::<6>(9, 1, 30).pop().expect("a position");
    assert_eq!(net.evaluate(&pos), net.centiflats(net.logit(&pos)));
    assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    // Weighing the siblings' errors 8 times as much, from the same start and sample order,
    // fits the siblings better and the game positions worse on the training data.
    let train_split = |weight: f32| {
        let mut model = Model::new(Layout::of(6), 7, true);
        model.train(
            &train,
            &valid,
            &TrainConfig {
                sibling_weight: weight,
                ..config.clone()
            },
        );
        model.scaled_losses(&train, &[1.0])[0]
    };
    let (even, weighted) = (train_split(1.0), train_split(8.0));
    assert!(
        weighted.siblings < even.siblings,
        "{even:?} vs {weighted:?}"
    );
    assert!(weighted.games > even.games, "{even:?} vs {weighted:?}");
}

/// The data lines (not comments or blank lines) of a data file.
fn data_line_count(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .expect("data file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count()
}

/// `cairn tune network` trains on a data file and writes a network the engine can read; bad
/// arguments are named.
#[test]
fn tune_nnue_writes_a_network() {
    let dir = Scratch::new("nnue");
    let data = dir.join("data.txt");
    let mut text = String::from("# made by the test\n");
    for pos in random_positions::<5>(4, 12, 60) {
        if pos.is_over() || pos.is_opening() {
            continue;
        }
        let result = ["R-0", "0-F", "1/2-1/2"][(pos.ply() % 3) as usize];
        text.push_str(&format!(
            "{}\t{result}\t4\t{}\n",
            cairn_tak::notation::tps::to_tps(&pos),
            cairn_tak::eval::evaluate(&pos).0.clamp(-3000, 3000)
        ));
    }
    // A data file ends with its summary (a fit refuses a part cut short).
    let lines = text.lines().count() - 1;
    text.push_str(&format!(
        "# games=1 draws=1 unfinished=1 positions={lines}\n"
    ));
    std::fs::write(&data, text).expect("write data");
    let net = dir.join("s5.nnue");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
            .arg("tune")
            .args(args)
            .output()
            .expect("run cairn")
    };
    let out = run(&[
        "network",
        "--size",
        "5",
        "--data",
        data.to_str().unwrap(),
        "--lambda",
        "0.5",
        "--epochs",
        "2",
        "--batch",
        "256",
        "--out",
        net.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("5x5 network: "), "{stdout}");
    assert!(stdout.contains("linear evaluation"), "{stdout}");
    let bytes = std::fs::read(&net).expect("network written");
    assert_eq!(Network::from_bytes(&bytes).expect("readable").size(), 5);

    let out = run(&["network", "--size", "5", "--out", net.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--data"));
    // --init: a fine-tune of that network, which must match the fit's kind and size.
    let tuned = dir.join("s5-tuned.nnue");
    let init = |from: &std::path::Path, extra: &[&str]| {
        let mut args = vec!["network", "--size", "5"];
        args.extend(["--data", data.to_str().unwrap()]);
        args.extend(["--epochs", "1", "--batch", "256"]);
        args.extend(extra);
        args.extend(["--init", from.to_str().unwrap()]);
        args.extend(["--out", tuned.to_str().unwrap()]);
        run(&args)
    };
    // At a step size far below the quantisation's, the first layer stays the network's.
    let out = init(&net, &["--learning-rate", "1e-9"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |path: &std::path::Path| {
        Network::from_bytes(&std::fs::read(path).expect("network written")).expect("readable")
    };
    assert_eq!(read(&tuned).size(), 5);
    assert_eq!(read(&tuned).float_weights().0, read(&net).float_weights().0);
    let out = init(&net, &["--learning-rate", "0.01"]);
    assert!(out.status.success());
    assert_ne!(read(&tuned).float_weights().0, read(&net).float_weights().0);
    let out = init(&net, &["--residual"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("a whole (not residual) network; train it without --residual"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = init(&data, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--init"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a Cairn network file"));
    // A network fit with one training option set.
    let fit_with = |flag: &str, value: &str| {
        let data = data.to_str().unwrap();
        run(&[
            "network",
            "--size",
            "5",
            "--data",
            data,
            flag,
            value,
            "--out",
            net.to_str().unwrap(),
        ])
    };
    let out = fit_with("--learning-rate", "0");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--learning-rate 0"));
    let out = fit_with("--sibling-weight", "0");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--sibling-weight 0: must be above 0 and at most 100"));
    let scaled = |scale: &str, residual: bool| {
        let mut args = vec!["network", "--size", "5", "--data", data.to_str().unwrap()];
        args.extend(["--epochs", "1", "--batch", "256", "--residual-scale", scale]);
        if residual {
            args.push("--residual");
        }
        args.extend(["--out", net.to_str().unwrap()]);
        run(&args)
    };
    let out = scaled("0.5", true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("correction scaled by 0.50"), "{stderr}");
    assert_eq!(stderr.matches("scale 0.50:").count(), 1, "{stderr}");
    assert_eq!(stderr.matches("<- written").count(), 1, "{stderr}");
    let out = scaled("0.33", true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("scale 0.33: games"), "{stderr}");
    assert!(stderr.contains("correction scaled by 0.33"), "{stderr}");
    let out = scaled("auto", true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("scale 0.00: games"), "{stderr}");
    assert_eq!(stderr.matches("<- written").count(), 1, "{stderr}");
    // --score-nets scores the written network beside the linear evaluation on every line.
    let score = |size: &str, nets: &str| {
        run(&[
            "score",
            "--size",
            size,
            "--data",
            data.to_str().unwrap(),
            "--lambda",
            "0.5",
            nets,
        ])
    };
    let lines = data_line_count(&data);
    let out = score("5", net.to_str().unwrap());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.starts_with(&format!(
            "5x5: {lines} game positions, 0 siblings (lambda 0.5"
        )),
        "{stdout}"
    );
    let rows: Vec<&str> = stdout.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        rows[0].starts_with("linear ") && rows[0].ends_with(" 1.0000"),
        "{stdout}"
    );
    assert!(rows[1].starts_with(net.to_str().unwrap()), "{stdout}");
    let out = score("6", net.to_str().unwrap());
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("a network for 5x5, not 6x6"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = score("5", data.to_str().unwrap());
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a Cairn network file"));
    let out = run(&["score", "--size", "5", net.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--data"));
    // Scoring reads every line: a --holdout that a fit would refuse does not matter here, but
    // --lambda still does.
    let with = |extra: &[&str]| {
        let mut args = vec!["score", "--size", "5", "--data", data.to_str().unwrap()];
        args.extend(extra);
        args.push(net.to_str().unwrap());
        run(&args)
    };
    let out = with(&["--holdout", "0.95", "--lambda", "0.5"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    same_table(&String::from_utf8_lossy(&out.stdout), &stdout);
    let out = with(&["--lambda", "1.5"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--lambda 1.5: must be from 0 to 1"));
    let out = scaled("0", true);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--residual-scale 0: must be above 0"));
    let out = scaled("half", true);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("or auto"));
    let out = scaled("0.5", false);
    assert!(
        !out.status.success(),
        "a scale without --residual is refused"
    );
}

/// Two `--score-nets` tables agree: the same rows and words, the losses equal to the printed
/// rounding (the parallel sums may add in another order).
fn same_table(a: &str, b: &str) {
    assert_eq!(a.lines().count(), b.lines().count(), "{a}\n{b}");
    let words = |t: &str| t.split_whitespace().count();
    assert_eq!(words(a), words(b), "{a}\n{b}");
    for (x, y) in a.split_whitespace().zip(b.split_whitespace()) {
        match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(x), Ok(y)) => assert!((x - y).abs() < 2e-6, "{a}\n{b}"),
            _ => assert_eq!(x, y, "{a}\n{b}"),
        }
    }
}

/// The positions of 20 random games of up to `plies` plies that are not over.
fn live_positions<const N: usize>(seed: u64, plies: usize) -> Vec<Position<N>> {
    random_positions::<N>(seed, 20, plies)
        .into_iter()
        .filter(|pos| !pos.is_over())
        .collect()
}

/// A network file kept in the tree reads as a residual network of size `N`, survives a round
/// trip through its format, and corrects the linear evaluation on most positions; returns it
/// and the positions it was checked on.
fn check_tree_network<const N: usize>(bytes: &[u8], seed: u64) -> (Network, Vec<Position<N>>) {
    let net = Network::from_bytes(bytes).expect("the network reads");
    assert_eq!(net.size(), N);
    assert!(net.is_residual());
    assert_eq!(net.to_bytes(), bytes);
    let positions = live_positions::<N>(seed, 40);
    let moved = positions
        .iter()
        .filter(|pos| net.evaluate(*pos) != cairn_tak::eval::evaluate_linear(*pos))
        .count();
    assert!(
        positions.len() > 100 && moved * 2 > positions.len(),
        "{N}x{N}: the correction changed {moved} of {} evaluations",
        positions.len()
    );
    (net, positions)
}

/// The candidates (`crates/tak/candidates/`), networks kept in the tree while their equal-time
/// SPRT runs over several sessions: each reads as a residual network of its size, survives its
/// format, corrects the linear evaluation on most positions, and is not built in.
#[test]
fn the_candidate_networks_read_and_are_not_built_in() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/tak/candidates");
    let mut sizes = Vec::new();
    // Git keeps no empty folder: without candidates the folder is gone.
    let entries = match std::fs::read_dir(&folder) {
        Ok(entries) => entries.collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => panic!("{}: {e}", folder.display()),
    };
    for entry in entries {
        let path = entry.expect("an entry").path();
        let bytes = std::fs::read(&path).expect("a network file");
        assert!(
            !cairn_tak::eval::nnue::BUILT_IN.contains(&bytes.as_slice()),
            "{} is built in: take it out of the candidates",
            path.display()
        );
        let net = Network::from_bytes(&bytes).expect("a network");
        // Seeds 21 to 24 for sizes 5 to 8.
        cairn_tak::with_size!(net.size(), |N| {
            check_tree_network::<N>(&bytes, 16 + N as u64);
        }, else unreachable!("a network's size is a board size"));
        sizes.push(net.size());
    }
    sizes.sort_unstable();
    // None at present (docs/networks.md).
    let expected: [usize; 0] = [];
    assert_eq!(sizes, expected, "the candidates the docs name");
}

/// `evaluate` gives what `expected` gives on every one of these positions: the built-in network
/// of their size, or the linear evaluation where the size has none.
fn evaluates_as<const N: usize>(
    positions: &[Position<N>],
    expected: impl Fn(&Position<N>) -> Score,
) {
    for pos in positions {
        assert_eq!(cairn_tak::eval::evaluate(pos), expected(pos), "{pos:?}");
    }
}

/// The tree's network `bytes` reads (`check_tree_network`), and `evaluate` gives what it gives.
fn evaluates_as_built_in<const N: usize>(bytes: &[u8], seed: u64) {
    let (net, positions) = check_tree_network::<N>(bytes, seed);
    evaluates_as(&positions, |pos| net.evaluate(pos));
}

/// The folder of built-in networks (`crates/tak/nets/`) holds exactly what is built in, and each
/// network reads; the built-in ones are what `evaluate` uses at their sizes (unless `CAIRN_NNUE`
/// names others), and a size without a built-in network (4×4) keeps the linear evaluation.
#[test]
fn the_networks_in_the_tree_read_and_the_built_in_ones_evaluate() {
    let s6: &[u8] = include_bytes!("../../crates/tak/nets/s6-r11.nnue");
    let s5: &[u8] = include_bytes!("../../crates/tak/nets/s5-r4.nnue");
    let s7: &[u8] = include_bytes!("../../crates/tak/nets/s7-r4.nnue");
    let s8: &[u8] = include_bytes!("../../crates/tak/nets/s8-r3.nnue");
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/tak/nets");
    let mut in_folder: Vec<Vec<u8>> = std::fs::read_dir(&folder)
        .expect("the networks folder")
        .map(|entry| std::fs::read(entry.expect("an entry").path()).expect("a network file"))
        .collect();
    in_folder.sort();
    let mut built_in: Vec<Vec<u8>> = cairn_tak::eval::nnue::BUILT_IN
        .iter()
        .map(|bytes| bytes.to_vec())
        .collect();
    built_in.sort();
    assert_eq!(
        in_folder.len(),
        built_in.len(),
        "{} holds a network that is not built in, or misses one that is",
        folder.display()
    );
    assert!(
        in_folder == built_in,
        "the folder's networks are the built-in ones"
    );
    for bytes in [s6, s5, s7, s8] {
        assert!(cairn_tak::eval::nnue::BUILT_IN.contains(&bytes));
    }
    assert!(
        std::env::var_os(cairn_tak::eval::nnue::ENV).is_none(),
        "run the tests without {}",
        cairn_tak::eval::nnue::ENV
    );
    evaluates_as_built_in::<6>(s6, 11);
    evaluates_as_built_in::<5>(s5, 12);
    evaluates_as_built_in::<7>(s7, 15);
    evaluates_as_built_in::<8>(s8, 14);
    let positions4 = live_positions::<4>(13, 20);
    assert!(positions4.len() > 100);
    evaluates_as(&positions4, cairn_tak::eval::evaluate_linear);
}
