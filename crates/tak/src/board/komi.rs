//! Komi: the flats added to Black's count when a game ends on flats, in half flats. The one
//! place where its range is set and where it is read from text or from flats; every protocol,
//! tool and file format takes it from here.

use std::fmt;
use std::str::FromStr;

/// What a komi in half flats must be, in words: `an integer from -10 to 10`.
pub const HALF_KOMI_TEXT: &str = "an integer from -10 to 10";

/// A komi in half flats, in Black's favour (negative for White), within [`Komi::MIN`] and
/// [`Komi::MAX`]: −5 to 5 flats in steps of 0.5.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Komi(i8);

/// A komi out of range or not a multiple of half a flat: holds what was given, and says what a
/// komi must be (the caller names the option or tag it came from).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KomiError(pub String);

impl fmt::Display for KomiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "must be {}", Komi::RANGE_TEXT)
    }
}

impl std::error::Error for KomiError {}

impl Komi {
    /// No komi.
    pub const ZERO: Komi = Komi(0);
    /// The largest komi for White: −5 flats.
    pub const MIN: Komi = Komi(-10);
    /// The largest komi for Black: 5 flats.
    pub const MAX: Komi = Komi(10);
    /// What a komi must be, in words (for messages and help texts).
    pub const RANGE_TEXT: &'static str = "a multiple of 0.5 from -5 to 5";

    /// The komi of `halves` half flats.
    pub fn from_halves(halves: i64) -> Result<Komi, KomiError> {
        i8::try_from(halves)
            .ok()
            .filter(|h| (Komi::MIN.0..=Komi::MAX.0).contains(h))
            .map(Komi)
            .ok_or_else(|| KomiError(format!("{halves} half flats")))
    }

    /// The komi of `flats` flats (a multiple of 0.5).
    pub fn from_flats(flats: f64) -> Result<Komi, KomiError> {
        let halves = flats * 2.0;
        if halves.fract() != 0.0 || !(Komi::MIN.0 as f64..=Komi::MAX.0 as f64).contains(&halves) {
            return Err(KomiError(flats.to_string()));
        }
        Ok(Komi(halves as i8))
    }

    /// The komi in half flats.
    pub const fn halves(self) -> i8 {
        self.0
    }

    /// The same komi for the other colour (within the range, as the range is symmetric).
    pub const fn for_other_side(self) -> Komi {
        Komi(-self.0)
    }

    /// The komi in flats.
    pub fn flats(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

/// A komi in flats as people and files write it: `2`, `2.5`, `-1.5`, `+2`, `2.50` (surrounding
/// spaces ignored); no exponents, no other fractions. Every `--komi` option reads its value so.
impl FromStr for Komi {
    type Err = KomiError;

    fn from_str(text: &str) -> Result<Komi, KomiError> {
        let bad = || KomiError(text.to_string());
        let trimmed = text.trim();
        let (negative, digits) = match trimmed.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() || whole.len() > 3 || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        if !fraction.bytes().all(|b| b.is_ascii_digit())
            || (digits.contains('.') && fraction.is_empty())
        {
            return Err(bad());
        }
        let half = match fraction.trim_end_matches('0') {
            "" => 0,
            "5" => 1,
            _ => return Err(bad()),
        };
        let magnitude = 2 * whole.parse::<i64>().map_err(|_| bad())? + half;
        Komi::from_halves(if negative { -magnitude } else { magnitude }).map_err(|_| bad())
    }
}

/// In flats: `2`, `2.5`, `-1.5`.
impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.flats())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_and_written_in_flats() {
        for (text, halves) in [
            ("2", 4),
            ("2.5", 5),
            ("-1.5", -3),
            ("+2", 4),
            ("2.50", 5),
            ("0.0", 0),
            (" 5 ", 10),
            ("-5", -10),
            ("-0.5", -1),
            ("2.0", 4),
            ("5", 10),
        ] {
            let komi: Komi = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(komi.halves(), halves, "{text}");
            assert_eq!(komi.to_string().parse(), Ok(komi), "{text}");
        }
        for bad in [
            "", "-", "5.5", "-5.5", "-6", "2.3", "2.", ".5", "1e0", "1e1", "2,5", "two", "NaN",
            "--1", "1000", "1000000", "0.25",
        ] {
            assert_eq!(
                bad.parse::<Komi>(),
                Err(KomiError(bad.to_string())),
                "{bad}"
            );
        }
        assert_eq!(Komi::from_str("2.5").unwrap().to_string(), "2.5");
        assert_eq!(
            "6".parse::<Komi>().unwrap_err().to_string(),
            "must be a multiple of 0.5 from -5 to 5"
        );
    }

    #[test]
    fn the_texts_say_the_range() {
        let halves = format!(
            "an integer from {} to {}",
            Komi::MIN.halves(),
            Komi::MAX.halves()
        );
        assert_eq!(HALF_KOMI_TEXT, halves);
        let flats = format!("a multiple of 0.5 from {} to {}", Komi::MIN, Komi::MAX);
        assert_eq!(Komi::RANGE_TEXT, flats);
    }

    #[test]
    fn from_flats_and_halves_check_the_range() {
        assert_eq!(Komi::from_flats(2.5).map(Komi::halves), Ok(5));
        assert_eq!(Komi::from_flats(-5.0), Ok(Komi::MIN));
        assert!(Komi::from_flats(5.5).is_err());
        assert!(Komi::from_flats(0.3).is_err());
        assert!(Komi::from_flats(f64::NAN).is_err());
        assert_eq!(Komi::from_halves(10), Ok(Komi::MAX));
        assert!(Komi::from_halves(11).is_err());
        assert!(Komi::from_halves(-300).is_err());
        assert_eq!(Komi::from_halves(-3).unwrap().flats(), -1.5);
    }
}
