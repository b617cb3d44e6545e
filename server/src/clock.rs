//! The server's clock, as a trait: grants expire on it, so tests move it
//! instead of sleeping.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch, as the server sees them.
pub trait Clock: Send + Sync {
    /// Now, in whole seconds since 1970-01-01 UTC.
    fn now(&self) -> u64;
}

/// The system's wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs())
    }
}

/// A clock that stands still until moved (tests).
#[derive(Clone, Debug)]
pub struct ManualClock(Arc<AtomicU64>);

impl ManualClock {
    /// A clock showing `now`.
    pub fn at(now: u64) -> Self {
        ManualClock(Arc::new(AtomicU64::new(now)))
    }

    /// Moves it forward by `seconds`.
    pub fn advance(&self, seconds: u64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A clock read from a file holding seconds since the epoch, moved by
/// rewriting the file (tests of servers in other processes). Unreadable:
/// the system's clock.
#[derive(Clone, Debug)]
pub struct FileClock(std::path::PathBuf);

impl Clock for FileClock {
    fn now(&self) -> u64 {
        std::fs::read_to_string(&self.0)
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or_else(|| SystemClock.now())
    }
}

/// In a build with the `test-hooks` feature, the clock the environment
/// names (`GOCCIA_TEST_CLOCK_FILE`); never in a release build.
pub fn from_test_environment() -> Option<Arc<dyn Clock>> {
    #[cfg(feature = "test-hooks")]
    if let Some(path) = std::env::var_os("GOCCIA_TEST_CLOCK_FILE") {
        return Some(Arc::new(FileClock(path.into())));
    }
    None
}

/// `seconds` since the epoch as RFC 3339 UTC (`2026-12-01T10:00:00Z`).
pub fn rfc3339(seconds: u64) -> String {
    let days = seconds / 86_400;
    let rest = seconds % 86_400;
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// Days since 1970-01-01 to a (year, month, day) of the proleptic
/// Gregorian calendar (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_119_200), "2026-12-01T10:00:00Z");
        let clock = ManualClock::at(10);
        clock.advance(5);
        assert_eq!(clock.now(), 15);
    }
}
