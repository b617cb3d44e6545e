//! The audit trail (`--audit-log`): one event per security-relevant
//! decision — fetch allowed or refused, a path or quota refusal, a limit
//! hit, a child spawned and how it ended, each write-back write or
//! refusal. Events are kept for the `--json` envelope and, with a sink,
//! written as JSON lines as they happen (so a crash loses none).

use std::io::Write;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;
use serde::Serialize;

/// The version of the event shape.
pub const SCHEMA_VERSION: u32 = 1;

/// One decision, as recorded and as written to the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditEvent {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `fetch`, `fs`, `limit`, `child`, `write-back`.
    pub kind: &'static str,
    /// `allow`, `deny`, `spawn`, `exit`, `write`, `skip`, `hit`.
    pub decision: &'static str,
    /// What it is about: a URL, a path, a limit, an entry.
    pub subject: String,
    /// Why, when there is more to say (a refusal's reason).
    pub reason: Option<String>,
    /// UTC, RFC 3339 with milliseconds.
    pub time: String,
}

/// Where events go. Cheap to clone; a default `Audit` records nothing.
#[derive(Clone, Default)]
pub struct Audit {
    inner: Option<Arc<Mutex<Trail>>>,
}

struct Trail {
    events: Vec<AuditEvent>,
    sink: Option<Box<dyn Write + Send>>,
}

impl std::fmt::Debug for Audit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.inner.is_some() {
            "Audit(on)"
        } else {
            "Audit(off)"
        })
    }
}

impl PartialEq for Audit {
    fn eq(&self, other: &Self) -> bool {
        match (&self.inner, &other.inner) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

/// Every event kind goccia records, for readers that get events as text
/// (an isolated worker's, contract §13) and must not take any other.
pub const KINDS: [&str; 9] = [
    "fetch",
    "fs",
    "policy",
    "limit",
    "child",
    "write-back",
    "escalation",
    "isolation",
    "host-command",
];

/// Every decision goccia records (see [`KINDS`]).
pub const DECISIONS: [&str; 11] = [
    "allow", "deny", "spawn", "exit", "write", "skip", "hit", "request", "decision", "confine",
    "refuse",
];

/// The recorded name equal to `text` among `names`, if any.
pub fn known(names: &'static [&'static str], text: &str) -> Option<&'static str> {
    names.iter().copied().find(|name| *name == text)
}

/// At most this many events are kept in memory for the envelope (the
/// sink gets them all); a guest looping over refusals cannot grow it.
const KEPT_EVENTS: usize = 10_000;

impl Audit {
    /// Records events in memory and, given a sink, writes each as a line.
    pub fn new(sink: Option<Box<dyn Write + Send>>) -> Self {
        Audit {
            inner: Some(Arc::new(Mutex::new(Trail {
                events: Vec::new(),
                sink,
            }))),
        }
    }

    /// True when events are recorded at all.
    pub fn is_on(&self) -> bool {
        self.inner.is_some()
    }

    /// Records one decision (nothing when the audit is off).
    pub fn record(
        &self,
        kind: &'static str,
        decision: &'static str,
        subject: impl Into<String>,
        reason: Option<String>,
    ) {
        let Some(inner) = &self.inner else {
            return;
        };
        let event = AuditEvent {
            schema_version: SCHEMA_VERSION,
            kind,
            decision,
            subject: subject.into(),
            reason,
            time: now_rfc3339(),
        };
        let mut trail = inner.lock();
        if let Some(sink) = trail.sink.as_mut()
            && let Ok(mut line) = serde_json::to_string(&event)
        {
            line.push('\n');
            // The log is the host's; a failing sink must not stop the guest.
            let _ = sink.write_all(line.as_bytes());
            let _ = sink.flush();
        }
        if trail.events.len() < KEPT_EVENTS {
            trail.events.push(event);
        }
    }

    /// The events so far (at most the first 10,000).
    pub fn events(&self) -> Vec<AuditEvent> {
        self.inner
            .as_ref()
            .map(|inner| inner.lock().events.clone())
            .unwrap_or_default()
    }
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn now_rfc3339() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = since.as_secs() as i64;
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn events_are_kept_and_written_as_json_lines() {
        let sink = Shared::default();
        let audit = Audit::new(Some(Box::new(sink.clone())));
        audit.record("fetch", "deny", "https://x/", Some("not allowed".into()));
        audit.record("child", "spawn", "/c.js", None);
        assert_eq!(audit.events().len(), 2);
        let text = String::from_utf8(sink.0.lock().clone()).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["schemaVersion"], 1);
        assert_eq!(lines[0]["kind"], "fetch");
        assert_eq!(lines[0]["decision"], "deny");
        assert_eq!(lines[1]["reason"], serde_json::Value::Null);
        assert!(lines[0]["time"].as_str().unwrap().ends_with('Z'));
        Audit::default().record("fetch", "deny", "x", None);
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
