//! `cairn tune`: the logistic fit on synthetic data, self-play data files, and bad input.

use crate::common::Rng;
use cairn_tak::board::Komi;
use cairn_tak::notation::tps;
use cairn_tools::tune::selfplay::{self, Settings, Summary};
use cairn_tools::tune::texel::{self, Dataset, Trainer, INPUTS};

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Random sparse feature rows and a known model: targets are its exact predictions.
fn synthetic(seed: u64, rows: usize, k: f64) -> (Dataset, [f64; INPUTS]) {
    let mut rng = Rng::new(seed);
    let mut truth = [0f64; INPUTS];
    for w in truth.iter_mut().take(12) {
        *w = rng.below(201) as f64 - 100.0;
    }
    let mut data = Dataset::default();
    for _ in 0..rows {
        let mut row = [0f32; INPUTS];
        for x in row.iter_mut().take(12) {
            *x = rng.below(7) as f32 - 3.0;
        }
        let e: f64 = row.iter().zip(&truth).map(|(&x, &w)| x as f64 * w).sum();
        data.targets.push(sigmoid(k * e) as f32);
        data.rows.push(row);
    }
    (data, truth)
}

/// With the true weights, the fitted scale is the one that made the targets.
#[test]
fn logistic_fit_recovers_k() {
    for k in [0.003, 0.01, 0.05] {
        let (data, truth) = synthetic(7, 3000, k);
        let fitted = texel::fit_k(&data, &truth);
        assert!((fitted / k - 1.0).abs() < 0.01, "K {k} fitted as {fitted}");
    }
}

/// Training from zero weights lowers the loss round after round and moves toward the truth.
#[test]
fn training_lowers_the_loss() {
    let k = 0.01;
    let (data, truth) = synthetic(11, 3000, k);
    let mut trainer = Trainer::new([0.0; INPUTS], k, 2.0);
    let distance = |w: &[f64; INPUTS]| -> f64 {
        w.iter()
            .zip(&truth)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let mut last = texel::loss(&data, &trainer.w, k);
    let first_distance = distance(&trainer.w);
    for _ in 0..4 {
        trainer.run(&data, 100);
        let now = texel::loss(&data, &trainer.w, k);
        assert!(now < last, "loss went from {last} to {now}");
        last = now;
    }
    assert!(last < 1e-3, "loss {last}");
    assert!(distance(&trainer.w) < first_distance / 4.0);
    // Inputs that never occur keep their weights.
    assert!(trainer.w[12..].iter().all(|&w| w == 0.0));
}

/// A tiny self-play run writes a data file whose every position parses back, with a summary
/// that counts them, and the tuner reads all of it.
#[test]
fn generated_data_parses() {
    let settings = Settings {
        games: 3,
        nodes: 300,
        komi: Komi::ZERO,
        seed: 5,
        max_plies: 200,
        shard: selfplay::Shard::WHOLE,
        siblings: 0,
    };
    let mut out = Vec::new();
    let summary = selfplay::generate::<4>(&settings, &mut out, &|_| {}).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(summary.games, 3);
    assert_eq!(summary.white + summary.black + summary.draws, 3);
    assert_eq!(summary.roads + summary.flats + summary.unfinished, 3);
    let data_lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(data_lines.len(), summary.positions);
    assert!(summary.positions > 3);
    for line in &data_lines {
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(fields.len() == 3 || fields.len() == 4, "{line}");
        let pos = tps::parse::<4>(fields[0]).unwrap();
        assert_eq!(tps::to_tps(&pos), fields[0]);
        assert!(!pos.is_over() && pos.winning_move().is_none(), "{line}");
        assert!(
            ["R-0", "0-R", "F-0", "0-F", "1/2-1/2"].contains(&fields[1]),
            "{line}"
        );
        assert_eq!(fields[2], "0");
    }
    let data = texel::parse_data::<4>(&text).unwrap();
    assert_eq!(data.len(), summary.positions);
    assert_eq!(data.summary, Some(summary.clone()));
    assert_eq!(
        data.origin.as_deref(),
        Some("size 4, half komi 0, 3 games, 300 nodes per move, seed 5, at most 200 plies")
    );
    assert_eq!(Summary::parse(&summary.comment()), Some(summary));
}

const BAD: &str = "# comment\nx6/x6/x6/x6/x6/x5,1 2 1\tR-0\t4\nx6/x6/x6/x6/x6/x5,1 2 1\tW\t4\n# games=1 positions=2\n";

/// A malformed data line is refused, naming its line number and what is wrong.
#[test]
fn malformed_data_names_the_line() {
    let err = texel::parse_data::<6>(BAD).unwrap_err();
    assert!(err.starts_with("line 3: result `W`"), "{err}");
    let cases = [
        ("x6/x6/x6/x6/x6/x5,1 2 1\t0-F", "line 1: expected"),
        ("x6/x6/x6/x6/x6/x5,9 2 1\t0-F\t4", "line 1: TPS"),
        ("x5/x5/x5/x5/x5 1 1\t0-F\t4", "line 1: TPS"),
        (
            "\n\nx6/x6/x6/x6/x6/x6 1 1\t0-F\tfour",
            "line 3: half komi `four`",
        ),
    ];
    for (text, start) in cases {
        let err = texel::parse_data::<6>(text).unwrap_err();
        assert!(err.starts_with(start), "{text:?}: {err}");
    }
    // The CLI: one line on stderr naming the file and the line, non-zero exit.
    let path = std::env::temp_dir().join(format!("cairn-tune-bad-{}.txt", std::process::id()));
    std::fs::write(&path, BAD).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["tune", "texel", "--size", "6", "--data"])
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("line 3: result `W`"), "{stderr}");
}

/// The penalty holds the weights near where they started: the stronger it is, the closer.
#[test]
fn penalty_keeps_weights_near_the_start() {
    let k = 0.01;
    let (data, _) = synthetic(13, 2000, k);
    let moved = |l2: f64| {
        let mut trainer = Trainer::new([0.0; INPUTS], k, 2.0);
        trainer.l2 = l2;
        trainer.run(&data, 300);
        trainer.w.iter().map(|w| w * w).sum::<f64>().sqrt()
    };
    let (free, held, pinned) = (moved(0.0), moved(1e-6), moved(1e-3));
    assert!(free > held && held > pinned, "{free} {held} {pinned}");
    assert!(pinned < free / 10.0, "{free} {pinned}");
}

/// Frozen inputs keep their starting weights while the others are fitted.
#[test]
fn frozen_inputs_keep_their_weights() {
    let k = 0.01;
    let (data, _) = synthetic(17, 1000, k);
    let mut trainer = Trainer::new([5.0; INPUTS], k, 2.0);
    trainer.frozen[0] = true;
    trainer.frozen[3] = true;
    trainer.run(&data, 50);
    assert_eq!((trainer.w[0], trainer.w[3]), (5.0, 5.0));
    assert!(trainer.w[1] != 5.0 && trainer.w[2] != 5.0);
}

/// The data lines of a generated run (comments dropped).
fn data_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn generate_text<const N: usize>(games: usize, seed: u64, shard: selfplay::Shard) -> String {
    let settings = Settings {
        games,
        nodes: 200,
        komi: Komi::from_halves(2).unwrap(),
        seed,
        max_plies: 120,
        shard,
        siblings: 0,
    };
    let mut out = Vec::new();
    selfplay::generate::<N>(&settings, &mut out, &|_| {}).unwrap();
    String::from_utf8(out).unwrap()
}

/// Shards 1/3, 2/3, 3/3 of a run, concatenated, hold exactly the run's data lines in order, and
/// their summaries add up to the run's.
#[test]
fn shards_concatenate_to_the_whole_run() {
    let whole = generate_text::<4>(7, 9, selfplay::Shard::WHOLE);
    let mut joined = String::new();
    for i in 1..=3 {
        let shard = selfplay::Shard::parse(&format!("{i}/3")).unwrap();
        let text = generate_text::<4>(7, 9, shard);
        assert!(
            text.starts_with(&format!(
                "# cairn tune data: size 4, half komi 2, 7 games, 200 nodes per move, seed 9, \
                 at most 120 plies, shard {i}/3\n# engine: cairn "
            )),
            "{text}"
        );
        joined.push_str(&text);
    }
    assert_eq!(data_lines(&joined), data_lines(&whole));
    let (a, b) = (
        texel::parse_data::<4>(&joined).unwrap(),
        texel::parse_data::<4>(&whole).unwrap(),
    );
    assert_eq!(a.summary, b.summary);
    assert_eq!(a.summary.unwrap().games, 7);
    assert_eq!(a.origin, b.origin);
    // Files appended one by one, as `--data` reads them: each run is named once, in order,
    // however many of its shards follow another run's.
    let origin = |seed: u64| {
        format!("size 4, half komi 2, 7 games, 200 nodes per move, seed {seed}, at most 120 plies")
    };
    let mut files = texel::parse_data::<4>(&whole).unwrap();
    for (seed, i) in [(10, 1), (10, 2), (9, 3), (10, 3)] {
        let shard = selfplay::Shard::parse(&format!("{i}/3")).unwrap();
        files.append(texel::parse_data::<4>(&generate_text::<4>(7, seed, shard)).unwrap());
    }
    assert_eq!(files.origin, Some(format!("{}; {}", origin(9), origin(10))));
    // The game ranges of the shards cover every game once.
    for (games, count) in [(7, 3), (10, 4), (1, 2), (1000, 7)] {
        let mut next = 0;
        for index in 0..count {
            let range = selfplay::Shard { index, count }.games(games);
            assert_eq!(range.start, next);
            next = range.end;
        }
        assert_eq!(next, games);
    }
}

/// Siblings: a run with them plays the very games of the run without (its other lines are
/// those lines, in order); each sibling follows its game position, is one legal move away from
/// it, carries a score and the result `*`, and is fitted to its score alone.
#[test]
fn siblings_leave_the_games_alone() {
    let run = |siblings: u32| {
        let settings = Settings {
            games: 4,
            nodes: 200,
            komi: Komi::from_halves(2).unwrap(),
            seed: 11,
            max_plies: 120,
            shard: selfplay::Shard::WHOLE,
            siblings,
        };
        let mut out = Vec::new();
        let summary = selfplay::generate::<4>(&settings, &mut out, &|_| {}).unwrap();
        (summary, String::from_utf8(out).unwrap())
    };
    let (plain_summary, plain) = run(0);
    let (summary, text) = run(60);
    assert!(text.starts_with(
        "# cairn tune data: size 4, half komi 2, 4 games, 200 nodes per move, seed 11, \
         at most 120 plies, siblings 60%\n"
    ));
    let lines = data_lines(&text);
    let is_sibling = |l: &String| l.split('\t').nth(1) == Some("*");
    let own: Vec<String> = lines.iter().filter(|l| !is_sibling(l)).cloned().collect();
    assert_eq!(own, data_lines(&plain));
    let count = lines.iter().filter(|l| is_sibling(l)).count();
    assert!(count > 0 && count < own.len(), "{count} of {}", own.len());
    assert_eq!(summary.siblings, count);
    assert_eq!(summary.positions, lines.len());
    assert_eq!(plain_summary.siblings, 0);
    assert_eq!((summary.games, summary.white), (4, plain_summary.white));
    assert_eq!(Summary::parse(&summary.comment()), Some(summary.clone()));
    for (i, line) in lines.iter().enumerate().filter(|(_, l)| is_sibling(l)) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 4, "{line}");
        let score: i32 = fields[3].parse().unwrap();
        assert!(score.abs() <= selfplay::SCORE_CLAMP, "{line}");
        let pos = tps::parse::<4>(fields[0]).unwrap();
        assert!(!pos.is_over() && pos.winning_move().is_none(), "{line}");
        assert!(i > 0 && !is_sibling(&lines[i - 1]), "{line}");
        let parent = tps::parse::<4>(lines[i - 1].split('\t').next().unwrap()).unwrap();
        let reached = parent.legal_moves().into_iter().any(|mv| {
            let mut next = parent.clone();
            next.make(mv);
            tps::to_tps(&next) == fields[0]
        });
        assert!(reached, "{line} is not a move away from {}", lines[i - 1]);
    }
    // The tuner reads them with no result: the loss before the blend leaves them out, and any
    // blend fits them to their score.
    let mut data = texel::parse_data::<4>(&text).unwrap();
    assert_eq!(data.len(), lines.len());
    let unknown = data.results.iter().filter(|r| r.is_nan()).count();
    assert_eq!(unknown, count);
    let w = texel::to_model(cairn_tak::eval::params::WEIGHTS[4]);
    let before = texel::loss(&data, &w, 0.002);
    let games_only = texel::parse_data::<4>(&plain).unwrap();
    assert!((before - texel::loss(&games_only, &w, 0.002)).abs() < 1e-12);
    let k = 0.003;
    data.blend(0.9, k);
    for i in 0..data.len() {
        if data.results[i].is_nan() {
            let want = sigmoid(k * data.scores[i] as f64);
            assert!((data.targets[i] as f64 - want).abs() < 1e-6);
        }
    }
    assert!(texel::loss(&data, &w, k).is_finite());
    // `*` needs a score.
    let err = texel::parse_data::<4>("x4/x4/x4/x3,1 2 1\t*\t0\n").unwrap_err();
    assert!(err.starts_with("line 1: result `*`"), "{err}");
}

/// Searched positions carry the search's score; the blend mixes it into the targets.
#[test]
fn scores_are_recorded_and_blended() {
    let text = generate_text::<5>(2, 3, selfplay::Shard::WHOLE);
    let mut data = texel::parse_data::<5>(&text).unwrap();
    let scored = data.scored();
    assert!(scored > data.len() / 2, "{scored} of {}", data.len());
    for line in data_lines(&text) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(fields.len() == 3 || fields.len() == 4, "{line}");
        if let Some(s) = fields.get(3) {
            let s: i32 = s.parse().unwrap();
            assert!(s.abs() <= selfplay::SCORE_CLAMP, "{line}");
        }
    }
    let k = 0.01;
    data.blend(0.0, k);
    for i in 0..data.len() {
        let (t, r, s) = (data.targets[i], data.results[i], data.scores[i]);
        if s.is_nan() {
            assert_eq!(t, r);
        } else {
            assert!((t as f64 - sigmoid(k * s as f64)).abs() < 1e-6);
        }
    }
    data.blend(0.25, k);
    let i = (0..data.len()).find(|&i| !data.scores[i].is_nan()).unwrap();
    let want = 0.25 * data.results[i] as f64 + 0.75 * sigmoid(k * data.scores[i] as f64);
    assert!((data.targets[i] as f64 - want).abs() < 1e-6);
    data.blend(1.0, k);
    assert_eq!(data.targets, data.results);
    // A score out of range is refused with its line.
    let bad = "x5/x5/x5/x5/x4,1 2 1\tR-0\t0\t99999\n";
    let err = texel::parse_data::<5>(bad).unwrap_err();
    assert!(err.starts_with("line 1: score `99999`"), "{err}");
}

/// Importing PTN games: positions of the games whose end the rules confirm, with their result
/// and komi; other sizes and games lost on time are counted and skipped.
#[test]
fn ptn_games_import_as_data() {
    use cairn_tak::board::Position;
    use cairn_tak::notation::ptn_game;
    use cairn_tools::tune::import::{import_ptn, ImportStats};
    let komi = std::fs::read_to_string("tests/data/ptn/komi_5x5.ptn").unwrap();
    let timeout = "[Size \"5\"]\n[Result \"1-0\"]\n\n1. a1 e5 2. c3 c2 1-0\n";
    let three = "[Size \"3\"]\n[Result \"0-R\"]\n\n1. a1 c3 2. b2 a2 0-R\n";
    let text = format!("{komi}\n{timeout}\n{three}");
    let mut out = Vec::new();
    let mut stats = ImportStats::default();
    import_ptn::<5>(&text, "test", None, &mut out, &mut stats).unwrap();
    assert_eq!(
        stats,
        ImportStats {
            games: 5,
            used: 3,
            other_size: 1,
            no_result: 1,
            bad: 0,
            positions: stats.positions,
            scored: 0,
            summary: stats.summary.clone(),
        }
    );
    let lines = String::from_utf8(out).unwrap();
    assert_eq!(lines.lines().count(), stats.positions);
    assert_eq!(
        (stats.summary.games, stats.summary.positions),
        (3, stats.positions)
    );
    // Every line is a position of its game, labelled with the game's own result and komi.
    let games = ptn_game::parse_file(&komi).unwrap();
    let mut expected = Vec::new();
    for game in &games {
        let played = ptn_game::replay::<5>(game).unwrap();
        let label = game.result.clone().unwrap();
        let mut pos: Position<5> = played.start.clone();
        for &mv in &played.moves {
            if pos.ply() >= 2 && pos.winning_move().is_none() && pos.flat_win_in_one().is_none() {
                expected.push(format!(
                    "{}\t{label}\t{}",
                    tps::to_tps(&pos),
                    pos.half_komi()
                ));
            }
            pos.make(mv);
        }
    }
    assert_eq!(lines.lines().collect::<Vec<_>>(), expected);
    assert!(expected.len() > 60);
    // The lines read back as data.
    assert_eq!(
        texel::parse_data::<5>(&lines).unwrap().len(),
        expected.len()
    );
    // Not PTN at all: an error naming the source.
    let err =
        import_ptn::<5>("1. a1 {", "file.ptn", None, &mut Vec::new(), &mut stats).unwrap_err();
    assert!(err.starts_with("file.ptn: "), "{err}");
}

/// A teacher's comments become the score column of the positions it moved from: Tiltak's
/// expected scores through the logit at K, Cairn's flats as centiflats, always for the side to
/// move; the other player's comments and comments without a number give no score.
#[test]
fn teacher_comments_become_scores() {
    use cairn_tools::tune::import::{import_ptn, ImportStats, Teacher, TeacherUnits};
    let game = "[Player1 \"cairn\"]\n[Player2 \"bin/tiltak-tei\"]\n[Size \"5\"]\n\
                [Result \"R-0\"]\n\n1. a1 e5 2. e4 {+3.00/5 0.1s} a2 {+0.50/9 0.10s} \
                3. e3 a3 {-0.20/9 0.1s} 4. e2 a4 {book} 5. e1 R-0\n";
    let scores = |teacher: &Teacher| {
        let mut out = Vec::new();
        let mut stats = ImportStats::default();
        import_ptn::<5>(game, "t", Some(teacher), &mut out, &mut stats).unwrap();
        let lines = String::from_utf8(out).unwrap();
        let scores: Vec<Option<String>> = lines
            .lines()
            .map(|l| l.split('\t').nth(3).map(str::to_string))
            .collect();
        assert_eq!(stats.scored, scores.iter().flatten().count());
        scores
    };
    let tiltak = Teacher {
        name: "tiltak".to_string(),
        units: TeacherUnits::Expectation,
        k: 0.0026,
    };
    // Positions before e4, a2, e3, a3, e2, a4 (the one before e1 is a win in one: not kept).
    // +0.50 is p = 0.75, ln 3 / 0.0026 = 422.5 for White, so -423 for Black to move; -0.20 is
    // p = 0.4, ln(2/3) / 0.0026 = -155.9 for White, so 156 for Black.
    let s = |v: &str| Some(v.to_string());
    assert_eq!(
        scores(&tiltak),
        [None, s("-423"), None, s("156"), None, None]
    );
    let cairn = Teacher {
        name: "cairn".to_string(),
        units: TeacherUnits::Flats,
        k: 0.0026,
    };
    assert_eq!(scores(&cairn), [s("300"), None, None, None, None, None]);
    // The lines read back as data, scores and all.
    let mut out = Vec::new();
    import_ptn::<5>(
        game,
        "t",
        Some(&tiltak),
        &mut out,
        &mut ImportStats::default(),
    )
    .unwrap();
    let data = texel::parse_data::<5>(&String::from_utf8(out).unwrap()).unwrap();
    assert_eq!((data.len(), data.scored()), (6, 2));
}

/// `cairn tune ARGS` run in `dir` (the repository's top if `None`).
fn cairn_tune(args: &[&str], dir: Option<&std::path::Path>) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cairn"));
    command.arg("tune").args(args).env_remove("CAIRN_NNUE");
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    command.output().unwrap()
}

/// A fresh empty folder for a test.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cairn-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Bad `cairn tune` arguments are one line on stderr naming the argument, with a non-zero exit;
/// the old single-command form names the subcommand that replaced it.
#[test]
fn bad_tune_arguments_are_named() {
    for (args, needle) in [
        (&["generate", "--shard", "0/4"][..], "--shard"),
        (&["generate", "--shard", "5/4"][..], "--shard"),
        (&["generate", "--shard", "x"][..], "--shard"),
        (&["generate", "--siblings", "101"][..], "--siblings"),
        (&["generate", "--threads", "0"][..], "--threads"),
        (&["network", "--threads", "x"][..], "--threads"),
        (
            &["generate", "--komi", "0.3"][..],
            "invalid value '0.3' for '--komi <KOMI>': must be a multiple of 0.5 from -5 to 5",
        ),
        (
            &["generate", "--komi", "5.5"][..],
            "'5.5' for '--komi <KOMI>'",
        ),
        (&["generate", "--half-komi", "4"][..], "'--half-komi'"),
        (
            &["generate", "--out", "/nonexistent/cairn/x.txt"][..],
            "--out /nonexistent/cairn/x.txt: no directory /nonexistent/cairn",
        ),
        (
            &["import", "/nonexistent/cairn.ptn", "--out", "/tmp/x"][..],
            "/nonexistent/cairn.ptn",
        ),
        (&["import", "tests/data/ptn/komi_5x5.ptn"][..], "--out"),
        (
            &[
                "texel",
                "--data",
                "tests/data/ptn/komi_5x5.ptn",
                "--lambda",
                "2",
            ][..],
            "--lambda",
        ),
        (&["texel"][..], "--data"),
        (&["check"][..], "<FILES>"),
        (
            &["--generate", "--size", "4"][..],
            "`cairn tune --generate` is now `cairn tune generate ...`",
        ),
        (
            &["--data", "a.txt", "--nnue", "s6.nnue"][..],
            "`cairn tune --nnue` is now `cairn tune network --out FILE ...`",
        ),
    ] {
        let out = cairn_tune(args, None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// `cairn tune generate` without --out writes to the current directory, wherever that is, under
/// a name of the size and seed (and the shard, zero-padded so that shards sort in order); it
/// leaves nothing else there.
#[test]
fn generate_writes_to_the_current_directory_by_default() {
    let dir = scratch("tune-default-out");
    for args in [&[][..], &["--shard", "2/4"][..]] {
        let mut all = vec!["generate", "--size", "3", "--games", "4", "--nodes", "30"];
        all.extend(args);
        let out = cairn_tune(&all, Some(&dir));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["tune-s3-seed1-002of004.txt", "tune-s3-seed1.txt"]);
    let shard = std::fs::read_to_string(dir.join(&names[0])).unwrap();
    let games = shard.lines().last().and_then(Summary::parse).unwrap().games;
    assert_eq!(games, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--threads` sets how many games are played at once, not which: one thread and two write the
/// same data lines, the positions of the same games in the same order.
#[test]
fn generate_writes_the_same_games_on_any_number_of_threads() {
    let dir = scratch("tune-threads");
    let mut texts = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(format!("t{threads}.txt"));
        let args = [
            "generate",
            "--size",
            "4",
            "--games",
            "6",
            "--nodes",
            "200",
            "--siblings",
            "50",
            "--seed",
            "5",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
        ];
        let run = cairn_tune(&args, None);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        texts.push(data_lines(&std::fs::read_to_string(&out).unwrap()));
    }
    assert!(texts[0].len() > 30, "{} lines", texts[0].len());
    assert_eq!(texts[0], texts[1]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run that has nothing to write leaves an earlier file at its --out as it was, and no
/// temporary file beside it.
#[test]
fn a_failed_run_leaves_the_old_file_alone() {
    let dir = scratch("tune-keep");
    let old = dir.join("data.txt");
    std::fs::write(&old, "earlier data\n").unwrap();
    let out = cairn_tune(
        &[
            "import",
            "tests/data/ptn/komi_5x5.ptn",
            "--size",
            "6",
            "--out",
            old.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no 6x6 game"));
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "earlier data\n");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A sharded run as a set: whole, `check` passes and a fit takes it; with a shard cut short
/// (its summary gone), missing, or played by another engine (`CAIRN_NNUE` set), `check` says
/// so and fails, and a fit refuses it unless --allow-partial.
#[test]
fn check_and_fits_refuse_an_incomplete_set() {
    let dir = scratch("tune-set");
    let shard = |i: usize, nnue: Option<&str>| {
        let out = dir.join(format!("s4-{i:03}.txt"));
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cairn"));
        command
            .args([
                "tune", "generate", "--size", "4", "--games", "9", "--nodes", "60",
            ])
            .args(["--seed", "3", "--shard", &format!("{i}/3"), "--out"])
            .arg(&out)
            .env_remove("CAIRN_NNUE");
        if let Some(value) = nnue {
            command.env("CAIRN_NNUE", value);
        }
        let run = command.output().unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        out
    };
    let files: Vec<_> = (1..=3).map(|i| shard(i, None)).collect();
    let list = |files: &[std::path::PathBuf]| {
        files
            .iter()
            .map(|f| f.to_str().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let check = |files: &[std::path::PathBuf]| {
        let out = cairn_tune(&["check", &list(files)], None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let fit = |files: &[std::path::PathBuf], extra: &[&str]| {
        let data = list(files);
        let mut args = vec!["texel", "--size", "4", "--rounds", "1", "--steps", "2"];
        args.extend(["--data", &data]);
        args.extend(extra);
        let out = cairn_tune(&args, None);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let whole: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let positions: usize = whole.iter().map(|t| data_lines(t).len()).sum();
    let (code, report) = check(&files);
    assert_eq!(code, Some(0), "{report}");
    assert!(
        report.contains(&format!(
            "3 parts (3 whole), shards present 3 of 3, 9 games, {positions} positions"
        )),
        "{report}"
    );
    assert!(report.contains("engine: cairn "), "{report}");
    assert_eq!(fit(&files, &[]).0, Some(0));
    // The shards concatenated are one set too.
    let joined = dir.join("s4.txt");
    std::fs::write(&joined, whole.concat()).unwrap();
    assert_eq!(check(std::slice::from_ref(&joined)).0, Some(0));

    // A shard missing.
    let (code, report) = check(&files[..2]);
    assert_eq!(code, Some(1));
    assert!(report.contains("1 of 3 shards missing: 3/3"), "{report}");
    let (code, stderr) = fit(&files[..2], &[]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("1 of 3 shards missing: 3/3"), "{stderr}");
    assert!(stderr.contains("--allow-partial"), "{stderr}");

    // A shard cut short: whole lines, no summary (a cancelled task), alone or inside a join.
    let cut: String = whole[1]
        .lines()
        .filter(|l| !l.starts_with("# games="))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&files[1], &cut).unwrap();
    let (code, report) = check(&files);
    assert_eq!(code, Some(1));
    assert!(report.contains("s4-002.txt: "), "{report}");
    assert!(report.contains("no `# games=` summary"), "{report}");
    let (code, stderr) = fit(&files, &[]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("no `# games=` summary"), "{stderr}");
    assert_eq!(fit(&files, &["--allow-partial"]).0, Some(0));
    std::fs::write(&joined, [&*whole[0], &*cut, &*whole[2]].concat()).unwrap();
    let (code, report) = check(std::slice::from_ref(&joined));
    assert_eq!(code, Some(1));
    assert!(report.contains("(part at line "), "{report}");

    // A shard regenerated by another engine: same settings, another network.
    std::fs::write(&files[1], &whole[1]).unwrap();
    shard(3, Some("linear"));
    let (code, report) = check(&files);
    assert_eq!(code, Some(1));
    assert!(
        report.contains("another engine under the same settings"),
        "{report}"
    );
    assert!(report.contains("CAIRN_NNUE=linear"), "{report}");
    let (code, stderr) = fit(&files, &[]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("another engine"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cairn tune generate --komi` takes flats, and the data file records the komi in half
/// flats, in its header and on every line (the format `--data` reads).
#[test]
fn generate_takes_komi_in_flats_and_writes_half_flats() {
    let out_path = std::env::temp_dir().join(format!("cairn-komi-{}.txt", std::process::id()));
    let out = cairn_tune(
        &[
            "generate",
            "--size",
            "3",
            "--games",
            "2",
            "--nodes",
            "50",
            "--komi",
            "-1.5",
            "--out",
            out_path.to_str().unwrap(),
        ],
        None,
    );
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_file(&out_path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text.lines().next(),
        Some("# cairn tune data: size 3, half komi -3, 2 games, 50 nodes per move, seed 1, at most 400 plies")
    );
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!lines.is_empty());
    assert!(
        lines.iter().all(|l| l.split('\t').nth(2) == Some("-3")),
        "{text}"
    );
}

/// `cairn tune import` writes a header naming the files, then the positions and a summary,
/// and reports the games it used.
#[test]
fn import_from_the_command_line() {
    let out_path = std::env::temp_dir().join(format!("cairn-import-{}.txt", std::process::id()));
    let import = |size: &str| {
        cairn_tune(
            &[
                "import",
                "tests/data/ptn/komi_5x5.ptn",
                "--size",
                size,
                "--out",
                out_path.to_str().unwrap(),
            ],
            None,
        )
    };
    let out = import("5");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("3 games: 3 used, 0 of another size"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(
        text.lines().next(),
        Some("# cairn tune data: size 5, games imported from komi_5x5.ptn")
    );
    let data = texel::parse_data::<5>(&text).unwrap();
    assert_eq!(
        data.origin.as_deref(),
        Some("size 5, games imported from komi_5x5.ptn")
    );
    assert_eq!(data.len(), text.lines().count() - 2);
    assert_eq!(
        data.summary.as_ref().map(|s| (s.games, s.positions)),
        Some((3, data.len()))
    );
    // An imported file is a whole set for `check`.
    let check = cairn_tune(&["check", out_path.to_str().unwrap()], None);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // A size with no games in the files is an error, and the file stays.
    let out = import("6");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no 6x6 game"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), text);
    std::fs::remove_file(&out_path).unwrap();
}
