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
    /// The trail this one also reports to (a server's, whose sink is the
    /// `--audit-log` file); its own events stay its own.
    parent: Option<Audit>,
    /// Events recorded so far, including those no longer kept.
    recorded: usize,
    /// The number of the first kept event (a rolling trail drops old
    /// ones).
    first_kept: usize,
    /// Keep the latest [`KEPT_EVENTS`] rather than the first: a session's
    /// trail lives across many calls and each call reads its own.
    rolling: bool,
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
/// (an isolated worker's, docs/isolation.md) and must not take any other.
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
                parent: None,
                recorded: 0,
                first_kept: 0,
                rolling: false,
            }))),
        }
    }

    /// A trail of its own for one session of a server (off when this one
    /// is off): it keeps only the events recorded through it, so one
    /// session's replies never carry another's (docs/security.md), and
    /// reports each to this trail too (whose sink is the server's log). It
    /// keeps the latest 10,000 events; [`Audit::mark`] and
    /// [`Audit::events_since`] give one call's.
    pub fn scoped(&self) -> Audit {
        if self.inner.is_none() {
            return Audit::default();
        }
        Audit {
            inner: Some(Arc::new(Mutex::new(Trail {
                events: Vec::new(),
                sink: None,
                parent: Some(self.clone()),
                recorded: 0,
                first_kept: 0,
                rolling: true,
            }))),
        }
    }

    /// How many events were recorded so far: a mark for
    /// [`Audit::events_since`].
    pub fn mark(&self) -> usize {
        self.inner.as_ref().map_or(0, |inner| inner.lock().recorded)
    }

    /// The events recorded after `mark` that are still kept.
    pub fn events_since(&self, mark: usize) -> Vec<AuditEvent> {
        let Some(inner) = &self.inner else {
            return Vec::new();
        };
        let trail = inner.lock();
        let skip = mark
            .saturating_sub(trail.first_kept)
            .min(trail.events.len());
        trail.events[skip..].to_vec()
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
        if self.inner.is_none() {
            return;
        }
        let event = AuditEvent {
            schema_version: SCHEMA_VERSION,
            kind,
            decision,
            subject: subject.into(),
            reason,
            time: now_rfc3339(),
        };
        self.keep(event);
    }

    /// Writes `event` to the sink, keeps it, and hands it to the parent
    /// trail (outside this trail's lock: the parent takes its own).
    fn keep(&self, event: AuditEvent) {
        let Some(inner) = &self.inner else {
            return;
        };
        let forward = {
            let mut trail = inner.lock();
            if let Some(sink) = trail.sink.as_mut()
                && let Ok(mut line) = serde_json::to_string(&event)
            {
                line.push('\n');
                // The log is the host's; a failing sink must not stop the
                // guest.
                let _ = sink.write_all(line.as_bytes());
                let _ = sink.flush();
            }
            trail.recorded += 1;
            if trail.rolling && trail.events.len() >= KEPT_EVENTS {
                // Drop the older half at once: amortised O(1) per event.
                trail.events.drain(..KEPT_EVENTS / 2);
                trail.first_kept += KEPT_EVENTS / 2;
            }
            let forward = trail.parent.clone().map(|parent| (parent, event.clone()));
            if trail.events.len() < KEPT_EVENTS {
                trail.events.push(event);
            }
            forward
        };
        if let Some((parent, event)) = forward {
            parent.keep(event);
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
    fn a_scoped_trail_keeps_its_own_events_and_reports_them_up() {
        let sink = Shared::default();
        let server = Audit::new(Some(Box::new(sink.clone())));
        let (one, two) = (server.scoped(), server.scoped());
        one.record("fs", "deny", "/one", None);
        let mark = one.mark();
        two.record("fs", "deny", "/two", None);
        one.record("fetch", "deny", "https://one/", None);
        assert_eq!(one.events().len(), 2);
        assert_eq!(two.events().len(), 1);
        assert_eq!(two.events()[0].subject, "/two");
        let since: Vec<String> = one
            .events_since(mark)
            .into_iter()
            .map(|e| e.subject)
            .collect();
        assert_eq!(since, ["https://one/"]);
        let text = String::from_utf8(sink.0.lock().clone()).unwrap();
        assert_eq!(
            text.lines().count(),
            3,
            "every event reaches the server's log"
        );
        assert!(!Audit::default().scoped().is_on());
        // A long-lived session keeps its latest events.
        for n in 0..KEPT_EVENTS + 10 {
            two.record("fs", "deny", n.to_string(), None);
        }
        let mark = two.mark();
        two.record("fs", "deny", "last", None);
        assert_eq!(two.events_since(mark).len(), 1);
        assert_eq!(two.events_since(mark)[0].subject, "last");
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
