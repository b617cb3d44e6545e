//! Time zones as `TZ` names them, read the way glibc reads them: a name in
//! the IANA database (`Asia/Tokyo`, `Portugal`, `EST5EDT`; bundled, so the
//! same on every host), else a POSIX rule (`UTC+3`, `<+03>-3`,
//! `CET-1CEST,M3.5.0,M10.5.0/3`), else UTC under the name's leading
//! letters (`Foo/Bar` is UTC called `Foo`). Unset or empty is UTC: the
//! sandbox's clock has no zone of its own.

use chrono::{DateTime, Duration, NaiveDateTime, TimeZone, Utc};
use jiff::tz::TimeZone as JiffZone;

/// A time zone, resolved once from a `TZ` value.
#[derive(Clone, Debug)]
pub enum Zone {
    /// UTC, under this abbreviation (`%Z`).
    Utc(String),
    /// A zone of the database or a POSIX rule.
    Rules(JiffZone),
}

/// A moment as the zone shows it: the wall clock, its offset east of UTC
/// and the abbreviation in use.
#[derive(Clone, Debug)]
pub(crate) struct Local {
    pub(crate) wall: NaiveDateTime,
    pub(crate) east_seconds: i32,
    pub(crate) abbreviation: String,
    pub(crate) timestamp: i64,
}

impl Default for Zone {
    fn default() -> Self {
        Zone::Utc("UTC".to_string())
    }
}

impl Zone {
    /// The zone a `TZ` value names (`None`: `TZ` not in the environment).
    pub(crate) fn from_tz(tz: Option<&str>) -> Zone {
        let Some(tz) = tz else {
            return Zone::default();
        };
        let name = tz.strip_prefix(':').unwrap_or(tz);
        if name.is_empty() {
            return Zone::default();
        }
        if let Ok(zone) = JiffZone::get(name) {
            return Zone::Rules(zone);
        }
        if let Ok(zone) = JiffZone::posix(name) {
            return Zone::Rules(zone);
        }
        // glibc: UTC, called by the leading letters when there are at
        // least three of them.
        let letters: String = name
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        Zone::Utc(if letters.len() >= 3 {
            letters
        } else {
            String::new()
        })
    }

    /// `time` on this zone's wall clock.
    pub(crate) fn local(&self, time: DateTime<Utc>) -> Local {
        let timestamp = time.timestamp();
        let (east_seconds, abbreviation) = match self {
            Zone::Utc(name) => (0, name.clone()),
            Zone::Rules(zone) => match jiff::Timestamp::from_second(timestamp) {
                Ok(instant) => {
                    let info = zone.to_offset_info(instant);
                    (info.offset().seconds(), info.abbreviation().to_string())
                }
                Err(_) => (0, "UTC".to_string()),
            },
        };
        Local {
            wall: time.naive_utc() + Duration::seconds(i64::from(east_seconds)),
            east_seconds,
            abbreviation,
            timestamp,
        }
    }

    /// The moment this zone's wall clock shows `wall`; of two (a clock
    /// set back) the earlier, for a time skipped (a clock set forward)
    /// the one the offset before the gap gives, as `mktime` does.
    pub(crate) fn to_utc(&self, wall: NaiveDateTime) -> DateTime<Utc> {
        let Zone::Rules(zone) = self else {
            return Utc.from_utc_datetime(&wall);
        };
        let civil = jiff::civil::DateTime::new(
            i16::try_from(chrono::Datelike::year(&wall)).unwrap_or(1970),
            chrono::Datelike::month(&wall) as i8,
            chrono::Datelike::day(&wall) as i8,
            chrono::Timelike::hour(&wall) as i8,
            chrono::Timelike::minute(&wall) as i8,
            chrono::Timelike::second(&wall) as i8,
            0,
        );
        match civil.and_then(|civil| zone.to_ambiguous_timestamp(civil).compatible()) {
            Ok(instant) => {
                let seconds = instant.as_second();
                Utc.timestamp_opt(seconds, chrono::Timelike::nanosecond(&wall))
                    .single()
                    .unwrap_or_default()
            }
            Err(_) => Utc.from_utc_datetime(&wall),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(tz: &str, seconds: i64) -> (String, i32, String) {
        let local = Zone::from_tz(Some(tz)).local(Utc.timestamp_opt(seconds, 0).unwrap());
        (
            local.wall.format("%F %T").to_string(),
            local.east_seconds,
            local.abbreviation,
        )
    }

    #[test]
    fn names_rules_and_unknowns_read_as_glibc_reads_them() {
        // The figures are GNU date's for @1557978599 under each TZ.
        let at = 1_557_978_599;
        let cases = [
            ("Asia/Tokyo", "2019-05-16 12:49:59", 9 * 3600, "JST"),
            (":Europe/Lisbon", "2019-05-16 04:49:59", 3600, "WEST"),
            ("Portugal", "2019-05-16 04:49:59", 3600, "WEST"),
            ("EST5EDT", "2019-05-15 23:49:59", -4 * 3600, "EDT"),
            ("UTC+3", "2019-05-16 00:49:59", -3 * 3600, "UTC"),
            ("<+03>-3", "2019-05-16 06:49:59", 3 * 3600, "+03"),
            ("ABC-5:30", "2019-05-16 09:19:59", 5 * 3600 + 1800, "ABC"),
            (
                "CET-1CEST,M3.5.0,M10.5.0/3",
                "2019-05-16 05:49:59",
                7200,
                "CEST",
            ),
            ("Foo/Bar", "2019-05-16 03:49:59", 0, "Foo"),
            ("ab", "2019-05-16 03:49:59", 0, ""),
            ("", "2019-05-16 03:49:59", 0, "UTC"),
        ];
        for (tz, wall, east, abbreviation) in cases {
            assert_eq!(
                shown(tz, at),
                (wall.to_string(), east, abbreviation.to_string()),
                "TZ={tz}"
            );
        }
    }

    #[test]
    fn wall_clocks_go_back_to_their_moment() {
        let zone = Zone::from_tz(Some("America/New_York"));
        let wall = NaiveDateTime::parse_from_str("2019-05-15 23:49:59", "%F %T").unwrap();
        assert_eq!(zone.to_utc(wall).timestamp(), 1_557_978_599);
        // 02:30 on 2019-03-10 did not happen there: the offset before.
        let skipped = NaiveDateTime::parse_from_str("2019-03-10 02:30:00", "%F %T").unwrap();
        assert_eq!(zone.to_utc(skipped).timestamp(), 1_552_203_000);
    }
}
