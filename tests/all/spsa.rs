//! The search's run-time constants (`Tunables`, `CAIRN_TUNE`) and SPSA over them
//! (`cairn tune spsa`).

use cairn_search::params::Tunables;
use cairn_search::{self as search, Limits, SearchConfig, TranspositionTable};
use cairn_tak::board::{Komi, Position};
use cairn_tak::notation::tps;
use cairn_tools::tune::spsa::{self, SpsaSettings};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[test]
fn tunables_read_back_what_they_write() {
    let t = Tunables::DEFAULT;
    assert_eq!(Tunables::from_values(&t.values()), t);
    assert_eq!(Tunables::parse(&t.to_env()), Ok(t));
    assert_eq!(Tunables::parse(""), Ok(t));
    let changed = Tunables::parse(" rfp_margin = 91 , lmr_base=0.45").unwrap();
    assert_eq!(changed.rfp_margin, 91);
    assert_eq!(changed.lmr_base, 0.45);
    assert_eq!(changed.futility_base, t.futility_base);
    // Integers are tuned as reals and rounded.
    assert_eq!(Tunables::parse("lmp_base=7.6").unwrap().lmp_base, 8);
    assert_eq!(Tunables::SPECS.len(), t.values().len());
    for (spec, value) in Tunables::SPECS.iter().zip(t.values()) {
        assert!(
            (spec.min..=spec.max).contains(&value) && spec.step > 0.0,
            "{}: {value} outside {}..{} or no step",
            spec.name,
            spec.min,
            spec.max
        );
    }
}

#[test]
fn bad_tunables_are_named() {
    assert_eq!(
        Tunables::parse("rfp_margn=90"),
        Err("`rfp_margn` is not a tunable".into())
    );
    assert_eq!(
        Tunables::parse("rfp_margin=ninety"),
        Err("rfp_margin: `ninety` is not a number".into())
    );
    assert_eq!(
        Tunables::parse("rfp_margin=900"),
        Err("rfp_margin: 900 is out of range (30 to 200)".into())
    );
    assert_eq!(
        Tunables::parse("rfp_margin"),
        Err("`rfp_margin`: expected name=value".into())
    );
    assert_eq!(
        Tunables::parse("lmr_base=NaN"),
        Err("lmr_base: `NaN` is not a number".into())
    );
}

/// Nodes of a fixed-depth one-thread search of a 6x6 middlegame with `tunables`.
fn nodes_with(tunables: Tunables) -> u64 {
    let pos: Position<6> =
        tps::parse("2,x,1,x3/x,2,2,1,x2/x,1,21C,12C,1,x/x2,2,1,x2/x,2,x,1,x2/x6 1 10").unwrap();
    let config = SearchConfig {
        tunables,
        ..SearchConfig::default()
    };
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let found = search::search(
        &pos,
        &cairn_search::repetition::PositionHashes::new(pos.hash()),
        &limits,
        &config,
        &TranspositionTable::new(4),
        &AtomicBool::new(false),
        &|_| {},
    );
    found.nodes
}

#[test]
fn the_search_reads_its_tunables() {
    let base = nodes_with(Tunables::DEFAULT);
    assert_eq!(nodes_with(Tunables::DEFAULT), base, "deterministic");
    // Pruning less searches more.
    let wide = Tunables {
        rfp_max_depth: 2,
        futility_max_depth: 1,
        lmp_max_depth: 1,
        ..Tunables::DEFAULT
    };
    assert!(nodes_with(wide) > base, "{} vs {base}", nodes_with(wide));
    let reduced = Tunables {
        lmr_base: 1.5,
        ..Tunables::DEFAULT
    };
    assert!(
        nodes_with(reduced) < base,
        "{} vs {base}",
        nodes_with(reduced)
    );
}

fn settings(pairs: usize, seed: u64) -> SpsaSettings {
    SpsaSettings {
        pairs,
        nodes: 400,
        komi: Komi::ZERO,
        seed,
        max_plies: 120,
        rate: 0.05,
        frozen: vec![5],
    }
}

fn state_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn one_thread<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn spsa_records_every_pair_and_resumes_where_it_stopped() {
    let path = state_file("spsa-resume.txt");
    let all = settings(6, 11);
    let state = one_thread(|| spsa::run::<4>(&all, &path)).unwrap();
    assert_eq!(state.done, 6);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3 + 6, "{text}");
    assert!(lines[0].starts_with("# cairn spsa: size 4, half komi 0, 400 nodes per move, 6 pairs"));
    assert!(lines[0].ends_with("frozen [rfp_margin]"), "{}", lines[0]);
    // Every value stays in range; the frozen one does not move; something else does.
    for (spec, value) in Tunables::SPECS.iter().zip(&state.theta) {
        assert!(
            (spec.min..=spec.max).contains(value),
            "{}: {value}",
            spec.name
        );
    }
    assert_eq!(state.theta[5], Tunables::DEFAULT.values()[5]);
    assert_ne!(state.theta, Tunables::DEFAULT.values());
    // The scores add up: each line's r is the `+` side's points minus the `−` side's.
    let total: f64 = lines[3..]
        .iter()
        .map(|l| l.split('\t').nth(1).unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(total, state.score);
    assert!(lines[3..].iter().all(|l| {
        let r: f64 = l.split('\t').nth(1).unwrap().parse().unwrap();
        (-2.0..=2.0).contains(&r)
    }));
    // Reading the file back gives the same state, and a finished run plays nothing more.
    assert_eq!(spsa::resume(&text, 4, &all), Ok(state.clone()));
    let again = one_thread(|| spsa::run::<4>(&all, &path)).unwrap();
    assert_eq!(again, state);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

    // A run cut after its third pair (and in the middle of writing its fourth) and resumed
    // ends exactly as the whole run did (one thread: the pairs run in order).
    let cut = state_file("spsa-cut.txt");
    let partial = &lines[3 + 3][..20];
    std::fs::write(&cut, lines[..3 + 3].join("\n") + "\n" + partial).unwrap();
    let text_cut = std::fs::read_to_string(&cut).unwrap();
    assert_eq!(spsa::resume(&text_cut, 4, &all).unwrap().done, 3);
    let resumed = one_thread(|| spsa::run::<4>(&all, &cut)).unwrap();
    assert_eq!(resumed, state);
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), text);
}

#[test]
fn spsa_refuses_a_state_file_of_other_settings() {
    let path = state_file("spsa-other.txt");
    one_thread(|| spsa::run::<4>(&settings(1, 3), &path)).unwrap();
    let err = one_thread(|| spsa::run::<4>(&settings(1, 4), &path)).unwrap_err();
    assert!(
        err.contains("spsa-other.txt: line 1: its settings are `# cairn spsa: size 4")
            && err.contains("seed 3")
            && err.contains("seed 4")
            && err.ends_with("start a new file for other settings"),
        "{err}"
    );
    let err = one_thread(|| spsa::run::<5>(&settings(1, 3), &path)).unwrap_err();
    assert!(err.contains("line 1"), "{err}");
    let text = std::fs::read_to_string(&path).unwrap();
    let broken = text
        .replace("\t0\t", "\tdraw\t")
        .replace("\t2\t", "\tdraw\t");
    let broken = broken
        .replace("\t-2\t", "\tdraw\t")
        .replace("\t1\t", "\tdraw\t");
    let broken = broken.replace("\t-1\t", "\tdraw\t");
    assert_eq!(
        spsa::resume(&broken, 4, &settings(1, 3)),
        Err("line 4: `draw` is not a score".into())
    );
}

/// A state file left empty, or cut inside its header, is refused as missing that line: a partial
/// line is never read (not even as a mismatched header).
#[test]
fn spsa_refuses_a_state_file_cut_inside_its_header() {
    let s = settings(1, 3);
    assert_eq!(
        spsa::resume("", 4, &s),
        Err("the settings line is missing".into())
    );
    assert_eq!(
        spsa::resume("# cairn spsa: size 4", 4, &s),
        Err("the settings line is missing".into())
    );
}
