//! The TEI options: their declarations (`option name ... type spin ...`) and `setoption`.
//!
//! Every option is a spin with a default, a minimum and a maximum (racetrack panics on a spin
//! declaration without all three). Names are matched case-insensitively; a value that is not an
//! integer or is out of range is refused and the old value stays.

use crate::engine::Options;
use cairn_tak::board::Komi;
use cairn_tak::notation::quote;
use std::ops::RangeInclusive;

/// The half-komis Cairn accepts: those of a [`Komi`].
pub const HALF_KOMI_RANGE: RangeInclusive<i8> = Komi::MIN.halves()..=Komi::MAX.halves();

pub use cairn_tak::board::SIZES;

/// A declared spin option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpinOption {
    /// The name, as declared.
    pub name: &'static str,
    /// The default value (the engine's default).
    pub default: i64,
    /// The smallest accepted value.
    pub min: i64,
    /// The largest accepted value.
    pub max: i64,
}

/// Which engine option a declaration sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    HalfKomi,
    Hash,
    Threads,
    MultiPv,
    MoveOverhead,
    Contempt,
    Level,
    Seed,
}

const FIELDS: [(Field, &str, i64, i64); 8] = [
    (
        Field::HalfKomi,
        "HalfKomi",
        *HALF_KOMI_RANGE.start() as i64,
        *HALF_KOMI_RANGE.end() as i64,
    ),
    (Field::Hash, "Hash", 1, 65536),
    (Field::Threads, "Threads", 1, 1024),
    (Field::MultiPv, "MultiPV", 1, 64),
    (Field::MoveOverhead, "MoveOverhead", 0, 5000),
    // Centiflats in Tak: up to a flat either way.
    (Field::Contempt, "Contempt", -100, 100),
    // Playing strength, weakest to full (crate::level).
    (
        Field::Level,
        "Level",
        crate::level::WEAKEST as i64,
        crate::level::FULL as i64,
    ),
    // The seed of a weaker level's choices.
    (Field::Seed, "Seed", 0, i32::MAX as i64),
];

fn get(options: &Options, field: Field) -> i64 {
    match field {
        Field::HalfKomi => options.komi.halves() as i64,
        Field::Hash => options.hash_mb as i64,
        Field::Threads => options.threads as i64,
        Field::MultiPv => options.multipv as i64,
        Field::MoveOverhead => options.move_overhead_ms as i64,
        Field::Contempt => options.contempt as i64,
        Field::Level => options.level as i64,
        Field::Seed => options.seed as i64,
    }
}

fn put(options: &mut Options, field: Field, value: i64) {
    // The value was range-checked against the declaration, so the casts cannot wrap.
    match field {
        Field::HalfKomi => {
            if let Ok(komi) = Komi::from_halves(value) {
                options.komi = komi;
            }
        }
        Field::Hash => options.hash_mb = value as usize,
        Field::Threads => options.threads = value as usize,
        Field::MultiPv => options.multipv = value as usize,
        Field::MoveOverhead => options.move_overhead_ms = value as u64,
        Field::Contempt => options.contempt = value as i32,
        Field::Level => options.level = value as u8,
        Field::Seed => options.seed = value as u64,
    }
}

/// The declared options, in the order `tei` lists them, with the engine's defaults.
pub fn declarations() -> Vec<SpinOption> {
    let defaults = Options::default();
    FIELDS
        .iter()
        .map(|&(field, name, min, max)| SpinOption {
            name,
            default: get(&defaults, field),
            min,
            max,
        })
        .collect()
}

/// The machine's memory in MiB, where the system says (Linux); `None` elsewhere.
fn machine_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Applies `setoption name <name> value <value>` to `options`. Returns the option's declared
/// name and the new value; on error `options` is unchanged and the message says why.
pub fn set(
    options: &mut Options,
    name: &str,
    value: Option<&str>,
) -> Result<(&'static str, i64), String> {
    let Some(&(field, declared, min, max)) = FIELDS
        .iter()
        .find(|(_, declared, ..)| declared.eq_ignore_ascii_case(name.trim()))
    else {
        let known: Vec<&str> = FIELDS.iter().map(|f| f.1).collect();
        return Err(format!(
            "unknown option {} (options: {})",
            quote(name),
            known.join(", ")
        ));
    };
    let Some(text) = value.map(str::trim) else {
        return Err(format!("option {declared}: missing `value <integer>`"));
    };
    let value: i64 = text
        .parse()
        .map_err(|_| format!("option {declared}: {} is not an integer", quote(text)))?;
    if !(min..=max).contains(&value) {
        return Err(format!(
            "option {declared}: {value} is out of range {min} to {max}"
        ));
    }
    if field == Field::Hash {
        if let Some(total) = machine_memory_mb() {
            if value as u64 > total / 2 {
                return Err(format!(
                    "option Hash: {value} MB is more than half of this machine's {total} MB"
                ));
            }
        }
    }
    put(options, field, value);
    Ok((declared, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_complete_spins_around_the_defaults() {
        let decl = declarations();
        let names: Vec<&str> = decl.iter().map(|d| d.name).collect();
        assert_eq!(
            names,
            [
                "HalfKomi",
                "Hash",
                "Threads",
                "MultiPV",
                "MoveOverhead",
                "Contempt",
                "Level",
                "Seed"
            ]
        );
        for d in &decl {
            assert!(d.min <= d.default && d.default <= d.max, "{d:?}");
        }
        assert_eq!(
            decl[0],
            SpinOption {
                name: "HalfKomi",
                default: 0,
                min: -10,
                max: 10
            }
        );
        assert_eq!((decl[1].default, decl[1].min, decl[1].max), (64, 1, 65536));
        assert_eq!((decl[4].default, decl[4].min, decl[4].max), (30, 0, 5000));
        assert_eq!((decl[5].default, decl[5].min, decl[5].max), (0, -100, 100));
    }

    #[test]
    fn set_matches_names_case_insensitively() {
        let mut o = Options::default();
        assert_eq!(set(&mut o, "halfkomi", Some("4")), Ok(("HalfKomi", 4)));
        assert_eq!(o.komi.halves(), 4);
        assert_eq!(set(&mut o, "MULTIPV", Some(" 3 ")), Ok(("MultiPV", 3)));
        assert_eq!(o.multipv, 3);
        assert_eq!(set(&mut o, "Threads", Some("2")), Ok(("Threads", 2)));
        assert_eq!(o.threads, 2);
        assert_eq!(
            set(&mut o, "moveoverhead", Some("0")),
            Ok(("MoveOverhead", 0))
        );
        assert_eq!(o.move_overhead_ms, 0);
        assert_eq!(set(&mut o, "Hash", Some("1")), Ok(("Hash", 1)));
        assert_eq!(o.hash_mb, 1);
        assert_eq!(set(&mut o, "HalfKomi", Some("-10")), Ok(("HalfKomi", -10)));
        assert_eq!(o.komi, Komi::MIN);
        assert_eq!(set(&mut o, "contempt", Some("-25")), Ok(("Contempt", -25)));
        assert_eq!(o.contempt, -25);
    }

    #[test]
    fn bad_values_keep_the_old_one() {
        let mut o = Options::default();
        let before = o.clone();
        for (name, value) in [
            ("HalfKomi", Some("11")),
            ("HalfKomi", Some("-11")),
            ("HalfKomi", Some("2.5")),
            ("HalfKomi", Some("")),
            ("HalfKomi", None),
            ("Hash", Some("0")),
            ("Hash", Some("65537")),
            ("Threads", Some("0")),
            ("Threads", Some("many")),
            ("MultiPV", Some("65")),
            ("MoveOverhead", Some("-1")),
            ("Contempt", Some("101")),
            ("Contempt", Some("-101")),
            ("Ponder", Some("true")),
            ("Hash", Some("99999999999999999999999")),
        ] {
            let e = set(&mut o, name, value).unwrap_err();
            assert!(e.contains(name) || e.contains("missing"), "{e}");
            assert_eq!(o, before, "{name} {value:?}");
        }
    }
}
