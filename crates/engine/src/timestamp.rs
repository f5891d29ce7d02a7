//! Timestamps in UTC for logs and file names ([`utc_timestamp`]), computed from [`SystemTime`]
//! alone (no calendar crate). Used by the TEI transcript, the match runner and the playtak
//! client.

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` in UTC as `YYYY-MM-DDTHH:MM:SS.mmmZ` (times before 1970 are written as 1970).
pub fn utc_timestamp(time: SystemTime) -> String {
    let millis = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let (secs, ms) = (millis / 1000, millis % 1000);
    let (days, day_secs) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_date(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{ms:03}Z",
        day_secs / 3600,
        day_secs / 60 % 60,
        day_secs % 60
    )
}

/// The Gregorian (year, month, day) of the day `days` after 1970-01-01.
///
/// Counts in 400-year eras from 0000-03-01, so that the leap day falls at the end of each
/// March-based year; then shifts the months back to January-based.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // 719_468 days from 0000-03-01 to 1970-01-01; an era is 146_097 days.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let march_month = (5 * day_of_year + 2) / 153; // 0 = March ... 11 = February
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let month = if march_month < 10 {
        march_month + 3
    } else {
        march_month - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

/// Today's date as `YYYY.MM.DD` (UTC), the PTN `Date` tag.
pub fn today() -> String {
    let stamp = utc_timestamp(SystemTime::now());
    stamp.get(..10).unwrap_or_default().replace('-', ".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(millis: u64) -> String {
        utc_timestamp(UNIX_EPOCH + Duration::from_millis(millis))
    }

    #[test]
    fn known_instants() {
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        // 2000-02-29 (a leap day in a year divisible by 400), one ms before midnight.
        assert_eq!(at(951_868_799_999), "2000-02-29T23:59:59.999Z");
        assert_eq!(at(951_868_800_000), "2000-03-01T00:00:00.000Z");
        assert_eq!(at(4_107_542_400_000), "2100-03-01T00:00:00.000Z");
        assert_eq!(
            utc_timestamp(UNIX_EPOCH - Duration::from_secs(5)),
            "1970-01-01T00:00:00.000Z"
        );
    }

    /// Walks day by day over 600 years with a plain calendar and compares every date.
    #[test]
    fn every_day_matches_a_simple_calendar() {
        let leap = |y: u64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let (mut year, mut month, mut day) = (1970, 1, 1);
        for days in 0..600 * 366 {
            assert_eq!(civil_date(days), (year, month, day), "day {days}");
            let length = match month {
                2 if leap(year) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            day += 1;
            if day > length {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
    }
}
