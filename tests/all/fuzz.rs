//! The fuzz harness (`cairn fuzz`): a short run of every target, the checks it makes, and the
//! bugs it found, each pinned by a test of its own.
//!
//! The full run (10^7 inputs, see docs/development.md) is `cairn fuzz --inputs 10000000`.

use cairn_search::{Limits, TimeManager};
use cairn_tools::fuzz::{self, generate::Corpus, FuzzArgs, Target, Verdict};
use std::time::Duration;

#[test]
fn a_short_run_of_every_target_finds_nothing() {
    let config = FuzzArgs {
        inputs: 25_000,
        seed: 11,
        threads: 2,
        targets: Vec::new(),
        timeout: 60,
    };
    assert_eq!(config.targets(), Target::ALL, "no --target: all of them");
    let report = fuzz::run(&config, |_| {});
    let failures: Vec<String> = report.failures.iter().map(|f| f.to_string()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(report.failed(), 0);
    assert_eq!(report.inputs(), 25_000);
    assert_eq!(report.targets.len(), 5);
    for target in &report.targets {
        assert_eq!(target.inputs, 5_000, "{target}");
        // The inputs reach both sides of every reader: some are read, most are refused.
        assert!(target.accepted >= 250, "{target}");
        assert!(target.rejected >= 250, "{target}");
    }
}

#[test]
fn an_input_depends_only_on_seed_target_and_number() {
    let corpus = Corpus::new(5, 4);
    for target in Target::ALL {
        let a: Vec<String> = (0..50)
            .map(|i| fuzz::input(target, 5, i, &corpus))
            .collect();
        let b: Vec<String> = (0..50)
            .map(|i| fuzz::input(target, 5, i, &corpus))
            .collect();
        let other: Vec<String> = (0..50)
            .map(|i| fuzz::input(target, 6, i, &corpus))
            .collect();
        assert_eq!(a, b, "{target}");
        assert_ne!(a, other, "{target}");
        if target == Target::TeiSession {
            assert!(
                a.iter().all(|line| !line.contains('\n')),
                "one line per input"
            );
        }
    }
}

#[test]
fn the_checks_accept_valid_and_refuse_bad_input() {
    let corpus = Corpus::new(1, 2);
    let cases = [
        (
            Target::Tps,
            "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26",
            Verdict::Accepted,
        ),
        (Target::Tps, "x5/x5/x5/x5/x5 1 1", Verdict::Accepted),
        (Target::Tps, "x5/x5/x5/x5/x4 1 1", Verdict::Rejected),
        (Target::Tps, "x3/x3/x3 1 0", Verdict::Rejected),
        (
            Target::Tps,
            "111111111111111111111/x2/x3 1 1",
            Verdict::Rejected,
        ),
        (Target::Move, "3a1+111", Verdict::Accepted),
        (Target::Move, "Ch8'!", Verdict::Accepted),
        (Target::Move, "9a1>", Verdict::Rejected),
        (Target::Move, "3a1+13", Verdict::Rejected),
        (
            Target::PtnFile,
            "[Size \"3\"]\n\n1. a1 c3 2. b2 {hm} R-0\n",
            Verdict::Accepted,
        ),
        (Target::PtnFile, "[Size \"3\"\n", Verdict::Rejected),
        (Target::PtnFile, "1. a1 {never closed", Verdict::Rejected),
        // A lone move number is a game of its own (puzzle files start so) that writes nothing.
        (Target::PtnFile, "\n41.", Verdict::Accepted),
        (
            Target::TeiCommand,
            "go wtime -5 depth 99999999999",
            Verdict::Accepted,
        ),
        (
            Target::TeiCommand,
            "go depth 99999999999",
            Verdict::Rejected,
        ),
        (
            Target::TeiCommand,
            "setoption name Hash value 1e30",
            Verdict::Accepted,
        ),
    ];
    for (target, text, verdict) in cases {
        assert_eq!(
            fuzz::check(target, text, &corpus),
            Ok(verdict),
            "{target} {text:?}"
        );
    }
    assert!(fuzz::check(Target::TeiSession, "isready", &corpus).is_err());
}

// -------------------------------------------------------------------------------------------
// Bugs the fuzzer found

/// The clock arithmetic of the time manager overflowed on huge clocks, which `go` passes on as
/// sent: `go wtime 9223372036854775807` killed the search thread in a build with overflow
/// checks (the session then played its fallback move), and in release the product wrapped, so
/// that `go wtime 922337203685477700` planned 17 ms.
#[test]
fn huge_clocks_neither_overflow_nor_wrap() {
    let year = Duration::from_secs(365 * 24 * 3600);
    for wtime in [
        922_337_203_685_477_700,
        i64::MAX as u64,
        u64::MAX / 3,
        u64::MAX,
    ] {
        for winc in [None, Some(0), Some(u64::MAX)] {
            for movestogo in [None, Some(1), Some(u64::MAX)] {
                let limits = Limits {
                    wtime: Some(wtime),
                    winc,
                    movestogo,
                    ..Limits::default()
                };
                let time = TimeManager::new(&limits, true, 30, 40);
                let (soft, hard) = (time.soft().unwrap(), time.hard().unwrap());
                assert!(soft > year, "wtime {wtime} winc {winc:?}: soft {soft:?}");
                assert!(hard >= soft, "wtime {wtime} winc {winc:?}: hard {hard:?}");
            }
        }
    }
}
