//! Dates and times: `strftime` formatting in a zone, and the date forms
//! `date -d` and `touch -d`/`-t` read (shared by `date`, `touch`, `ls`,
//! `stat`, `find -printf`, awk's `strftime` and `printf %(...)T`).
//!
//! - [`zone`]: the zone `TZ` names, and wall clocks in it.

mod zone;

use zone::Local;
pub use zone::Zone;

use chrono::{
    DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, TimeZone, Timelike, Utc, Weekday,
};

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
/// The months' names in English (`%B`; `%b` is their first three letters).
pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The instant `seconds` (and `nanos`) after the epoch.
pub fn at(seconds: i64, nanos: u32) -> DateTime<Utc> {
    Utc.timestamp_opt(seconds, nanos)
        .single()
        .unwrap_or_default()
}

/// GNU `date`'s formatting (`%Y`, `%-d`, `%_H`, `%N`, ...) of a moment
/// given in seconds, on `zone`'s clock.
pub fn strftime_at(format: &str, seconds: i64, zone: &Zone) -> String {
    strftime(format, at(seconds, 0), zone)
}

/// GNU `date`'s formatting of `time` on `zone`'s clock.
pub fn strftime(format: &str, time: DateTime<Utc>, zone: &Zone) -> String {
    format_local(format, &zone.local(time))
}

fn format_local(format: &str, local: &Local) -> String {
    let time = local.wall;
    let mut out = String::new();
    let chars: Vec<char> = format.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' || i + 1 >= chars.len() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        i += 1;
        let mut pad: Option<char> = None;
        if matches!(chars[i], '-' | '_' | '0' | '^' | '#') {
            pad = Some(chars[i]);
            i += 1;
        }
        let Some(&spec) = chars.get(i) else { break };
        i += 1;
        let num = |value: i64, width: usize, default_pad: char| -> String {
            match pad.unwrap_or(default_pad) {
                '-' => value.to_string(),
                '_' => crate::pad::left_pad(&value.to_string(), width, ' '),
                _ => crate::pad::left_pad(&value.to_string(), width, '0'),
            }
        };
        let text = match spec {
            'Y' => time.year().to_string(),
            'C' => num((time.year() / 100) as i64, 2, '0'),
            'y' => num((time.year() % 100) as i64, 2, '0'),
            'm' => num(time.month() as i64, 2, '0'),
            'd' => num(time.day() as i64, 2, '0'),
            'e' => num(time.day() as i64, 2, '_'),
            'H' => num(time.hour() as i64, 2, '0'),
            'k' => num(time.hour() as i64, 2, '_'),
            'I' => num(((time.hour() + 11) % 12 + 1) as i64, 2, '0'),
            'l' => num(((time.hour() + 11) % 12 + 1) as i64, 2, '_'),
            'M' => num(time.minute() as i64, 2, '0'),
            'S' => num(time.second() as i64, 2, '0'),
            'N' => format!("{:09}", time.nanosecond()),
            'j' => num(time.ordinal() as i64, 3, '0'),
            'a' => DAYS[time.weekday().num_days_from_monday() as usize][..3].to_string(),
            'A' => DAYS[time.weekday().num_days_from_monday() as usize].to_string(),
            'b' | 'h' => MONTHS[time.month0() as usize][..3].to_string(),
            'B' => MONTHS[time.month0() as usize].to_string(),
            'p' => if time.hour() < 12 { "AM" } else { "PM" }.to_string(),
            'P' => if time.hour() < 12 { "am" } else { "pm" }.to_string(),
            'u' => time.weekday().number_from_monday().to_string(),
            'w' => time.weekday().num_days_from_sunday().to_string(),
            'U' => num(
                ((time.ordinal0() + 7 - time.weekday().num_days_from_sunday()) / 7) as i64,
                2,
                '0',
            ),
            'W' => num(
                ((time.ordinal0() + 7 - time.weekday().num_days_from_monday()) / 7) as i64,
                2,
                '0',
            ),
            'V' => num(time.iso_week().week() as i64, 2, '0'),
            'G' => time.iso_week().year().to_string(),
            's' => local.timestamp.to_string(),
            'Z' => local.abbreviation.clone(),
            'z' => offset_text(local.east_seconds, ""),
            'D' => format_local("%m/%d/%y", local),
            'F' => format_local("%Y-%m-%d", local),
            'T' => format_local("%H:%M:%S", local),
            'R' => format_local("%H:%M", local),
            'r' => format_local("%I:%M:%S %p", local),
            'c' => format_local("%a %b %e %H:%M:%S %Y", local),
            'x' => format_local("%m/%d/%y", local),
            'X' => format_local("%H:%M:%S", local),
            'n' => "\n".to_string(),
            't' => "\t".to_string(),
            '%' => "%".to_string(),
            ':' if chars.get(i) == Some(&'z') => {
                i += 1;
                offset_text(local.east_seconds, ":")
            }
            other => format!("%{other}"),
        };
        out.push_str(&if pad == Some('^') {
            text.to_uppercase()
        } else {
            text
        });
    }
    out
}

/// `+0900`, `-0330` (`%z`), or with `:` between (`%:z`).
fn offset_text(east_seconds: i32, separator: &str) -> String {
    let sign = if east_seconds < 0 { '-' } else { '+' };
    let minutes = east_seconds.unsigned_abs() / 60;
    format!("{sign}{:02}{separator}{:02}", minutes / 60, minutes % 60)
}

/// The current time.
pub fn now() -> DateTime<Utc> {
    Utc::now()
}

/// Parses GNU-style date strings: `@1700000000`, `2024-01-15`,
/// `2024-01-15 10:30[:45]`, RFC 2822, `now`, `today`, `yesterday`,
/// `tomorrow`, and relative items (`3 days ago`, `+2 hours`, `next week`).
/// A date without a zone of its own is on `zone`'s clock.
pub fn parse_date(text: &str, zone: &Zone) -> Option<i64> {
    parse_datetime(text, zone).map(|t| t.timestamp())
}

/// [`parse_date`] to the nanosecond.
pub fn parse_datetime(text: &str, zone: &Zone) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Some(epoch) = text.strip_prefix('@') {
        let value: f64 = epoch.parse().ok()?;
        return Some(at(value.floor() as i64, ((value.fract()) * 1e9) as u32));
    }
    if let Ok(time) = DateTime::parse_from_rfc2822(text) {
        return Some(time.with_timezone(&Utc));
    }
    if let Ok(time) = DateTime::parse_from_rfc3339(text) {
        return Some(time.with_timezone(&Utc));
    }
    let lower = text.to_lowercase();
    // The arithmetic is on the wall clock (`tomorrow` is the same hour).
    let mut base = zone.local(now()).wall;
    let mut rest = lower.as_str();
    let mut absolute = false;
    // An absolute date (and time) first, then relative items.
    for (pattern, len) in [
        ("%Y-%m-%d %H:%M:%S", 19),
        ("%Y-%m-%dt%H:%M:%S", 19),
        ("%Y-%m-%d %H:%M", 16),
        ("%Y/%m/%d %H:%M:%S", 19),
    ] {
        if rest.is_char_boundary(len)
            && let Ok(naive) = NaiveDateTime::parse_from_str(&rest[..len], pattern)
        {
            base = naive;
            rest = &rest[len..];
            // Seconds may carry a fraction (`10:09:08.5`, GNU date's).
            if len == 19
                && let Some(fraction) = rest.strip_prefix('.')
            {
                let digits = fraction.len()
                    - fraction
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .len();
                let nanos: String = fraction[..digits]
                    .chars()
                    .chain("000000000".chars())
                    .take(9)
                    .collect();
                base += Duration::nanoseconds(nanos.parse().unwrap_or(0));
                rest = &fraction[digits..];
            }
            rest = rest.trim_start();
            absolute = true;
            break;
        }
    }
    if !absolute && rest.len() >= 10 && rest.is_char_boundary(10) {
        for pattern in ["%Y-%m-%d", "%Y/%m/%d", "%m/%d/%Y"] {
            if let Ok(date) = NaiveDate::parse_from_str(&rest[..10], pattern) {
                base = date.and_hms_opt(0, 0, 0)?;
                rest = rest[10..].trim_start();
                if let Some(time) = parse_clock(rest) {
                    base += time.0;
                    rest = time.1;
                }
                break;
            }
        }
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut i = 0;
    // A lone `+`/`-` signs the next amount (`2024-02-28 + 2 days`).
    let mut sign = 1;
    while i < words.len() {
        let word = words[i];
        match word {
            "+" => {
                sign = 1;
                i += 1;
                continue;
            }
            "-" => {
                sign = -1;
                i += 1;
                continue;
            }
            "now" => {}
            "today" => base = midnight(base),
            "yesterday" => base -= Duration::days(1),
            "tomorrow" => base += Duration::days(1),
            "ago" => {}
            "next" | "last" => {
                let unit = words.get(i + 1)?;
                let sign = if word == "next" { 1 } else { -1 };
                if let Some(day) = weekday(unit) {
                    let current = base.weekday().num_days_from_monday() as i64;
                    let target = day.num_days_from_monday() as i64;
                    let mut delta = (target - current).rem_euclid(7);
                    if sign > 0 && delta == 0 {
                        delta = 7;
                    }
                    if sign < 0 {
                        delta = -((current - target).rem_euclid(7));
                        if delta == 0 {
                            delta = -7;
                        }
                    }
                    base += Duration::days(delta);
                } else {
                    base = add_unit(base, sign, unit)?;
                }
                i += 1;
            }
            _ => {
                let (amount, unit_index) = match word.parse::<i64>() {
                    Ok(n) => (n * std::mem::replace(&mut sign, 1), i + 1),
                    Err(_) => {
                        if let Some(day) = weekday(word) {
                            let current = base.weekday().num_days_from_monday() as i64;
                            let delta = (day.num_days_from_monday() as i64 - current).rem_euclid(7);
                            base = midnight(base + Duration::days(delta));
                            i += 1;
                            continue;
                        }
                        if let Some((time, _)) = parse_clock(word) {
                            base = midnight(base) + time;
                            i += 1;
                            continue;
                        }
                        if unit_seconds(word).is_some() {
                            (1, i)
                        } else {
                            return None;
                        }
                    }
                };
                let unit = words.get(unit_index)?;
                let ago = words.get(unit_index + 1) == Some(&"ago");
                base = add_unit(base, if ago { -amount } else { amount }, unit)?;
                i = unit_index + usize::from(ago);
            }
        }
        i += 1;
    }
    Some(zone.to_utc(base))
}

fn midnight(time: NaiveDateTime) -> NaiveDateTime {
    time.date().and_hms_opt(0, 0, 0).unwrap_or_default()
}

fn parse_clock(text: &str) -> Option<(Duration, &str)> {
    let word = text.split_whitespace().next()?;
    let parts: Vec<&str> = word.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let hours: i64 = parts[0].parse().ok()?;
    let minutes: i64 = parts[1].parse().ok()?;
    let seconds: i64 = parts.get(2).map_or(Some(0), |s| s.parse().ok())?;
    Some((
        Duration::seconds(hours * 3600 + minutes * 60 + seconds),
        text[word.len()..].trim_start(),
    ))
}

fn weekday(word: &str) -> Option<Weekday> {
    Some(match word.trim_end_matches(',') {
        "monday" | "mon" => Weekday::Mon,
        "tuesday" | "tue" => Weekday::Tue,
        "wednesday" | "wed" => Weekday::Wed,
        "thursday" | "thu" => Weekday::Thu,
        "friday" | "fri" => Weekday::Fri,
        "saturday" | "sat" => Weekday::Sat,
        "sunday" | "sun" => Weekday::Sun,
        _ => return None,
    })
}

fn unit_seconds(unit: &str) -> Option<i64> {
    Some(match unit.trim_end_matches('s') {
        "sec" | "second" => 1,
        "min" | "minute" => 60,
        "hour" => 3600,
        "day" => 86400,
        "week" | "fortnight" if unit.starts_with("fort") => 14 * 86400,
        "week" => 7 * 86400,
        _ => return None,
    })
}

fn add_unit(base: NaiveDateTime, amount: i64, unit: &str) -> Option<NaiveDateTime> {
    let unit = unit.trim_end_matches(',');
    let months = match unit.trim_end_matches('s') {
        "month" => amount,
        "year" => amount.checked_mul(12)?,
        _ => return Some(base + Duration::seconds(amount * unit_seconds(unit)?)),
    };
    // As GNU's `mktime`: the month moves and the day stays, rolling into
    // the next month when that one is shorter (Jan 31 + 1 month is
    // Mar 2 in a leap year, Feb 29 + 1 year is Mar 1).
    let total = i64::from(base.year()) * 12 + i64::from(base.month0()) + months;
    let (year, month) = (
        i32::try_from(total.div_euclid(12)).ok()?,
        total.rem_euclid(12) as u32 + 1,
    );
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let date = first.checked_add_signed(Duration::days(i64::from(base.day()) - 1))?;
    Some(date.and_time(base.time()))
}

/// `touch -t [[CC]YY]MMDDhhmm[.ss]`, on `zone`'s clock.
pub fn parse_touch_stamp(text: &str, zone: &Zone) -> Option<i64> {
    let (main, seconds) = match text.split_once('.') {
        Some((main, seconds)) => (main, seconds.parse::<u32>().ok()?),
        None => (text, 0),
    };
    let year_digits = main.len().checked_sub(8)?;
    let (year, rest) = main.split_at(year_digits);
    let year: i32 = match year.len() {
        0 => zone.local(now()).wall.year(),
        2 => 2000 + year.parse::<i32>().ok()?,
        4 => year.parse().ok()?,
        _ => return None,
    };
    let field = |i: usize| rest.get(i..i + 2)?.parse::<u32>().ok();
    let date = NaiveDate::from_ymd_opt(year, field(0)?, field(2)?)?;
    Some(
        zone.to_utc(date.and_hms_opt(field(4)?, field(6)?, seconds)?)
            .timestamp(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strftime_utc(format: &str, seconds: i64) -> String {
        strftime_at(format, seconds, &Zone::default())
    }

    fn parse_date(text: &str) -> Option<i64> {
        super::parse_date(text, &Zone::default())
    }

    fn parse_touch_stamp(text: &str) -> Option<i64> {
        super::parse_touch_stamp(text, &Zone::default())
    }

    #[test]
    fn formats_like_gnu_date() {
        assert_eq!(strftime_utc("%Y-%m-%d %H:%M:%S", 0), "1970-01-01 00:00:00");
        assert_eq!(
            strftime_utc("%a %b %e %j %-d %_m", 86400 * 40),
            "Tue Feb 10 041 10  2"
        );
        assert_eq!(strftime_utc("%s %Z %%", 5), "5 UTC %");
    }

    #[test]
    fn zones_move_the_clock_and_name_the_offset() {
        let tokyo = Zone::from_tz(Some("Asia/Tokyo"));
        assert_eq!(
            strftime_at("%F %T %Z %z %:z %s", 0, &tokyo),
            "1970-01-01 09:00:00 JST +0900 +09:00 0"
        );
        let newfoundland = Zone::from_tz(Some("America/St_Johns"));
        assert_eq!(strftime_at("%z", 0, &newfoundland), "-0330");
        // A date without a zone is on the zone's clock.
        assert_eq!(super::parse_date("1970-01-01 09:00:00", &tokyo), Some(0));
        assert_eq!(super::parse_touch_stamp("197001010900", &tokyo), Some(0));
    }

    #[test]
    fn parses_dates() {
        assert_eq!(parse_date("@86400"), Some(86400));
        assert_eq!(parse_date("1970-01-02"), Some(86400));
        assert_eq!(parse_date("1970-01-02 01:00:00"), Some(90000));
        assert_eq!(parse_date("1970-01-02 1 day"), Some(86400 * 2));
        assert_eq!(parse_date("1970-01-05 2 days ago"), Some(86400 * 2));
        assert_eq!(parse_date("Thu, 01 Jan 1970 00:01:00 +0000"), Some(60));
        assert!(parse_date("yesterday").is_some());
        assert!(parse_date("nonsense words").is_none());
        assert_eq!(parse_touch_stamp("197001020000"), Some(86400));
    }

    #[test]
    fn months_and_years_roll_a_day_the_month_lacks_as_gnu() {
        let day = |text: &str| strftime_utc("%F", parse_date(text).expect(text));
        assert_eq!(day("2024-01-31 + 1 month"), "2024-03-02");
        assert_eq!(day("2023-01-31 + 1 month"), "2023-03-03");
        assert_eq!(day("2024-02-29 + 1 year"), "2025-03-01");
        assert_eq!(day("2024-03-31 - 1 month"), "2024-03-02");
        assert_eq!(day("2024-05-15 + 13 months"), "2025-06-15");
        assert_eq!(day("2024-12-31 1 month ago"), "2024-12-01");
    }
}
