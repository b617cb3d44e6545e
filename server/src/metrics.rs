//! `GET /metrics` (docs/server.md, "Metrics"): the server's counters in
//! the Prometheus text format, behind the admin token. What is counted as
//! it happens — calls by kind and failure kind with their latency, host
//! commands, submits by outcome, store calls' latency — lives here;
//! what is a state — open sessions, the bytes their files hold — is read
//! when scraped.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// A call's kind and how it ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CallLabels {
    /// `run` or `shell`.
    kind: &'static str,
    /// The failure kind (`script-error`, `timeout`, `memory`, ...) or `none`.
    failure: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabel {
    /// `landed`, `stale` (VIEW_STALE) or `refused`.
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabel {
    /// `grant` (a token resolved), `snapshot` (one persisted).
    operation: &'static str,
}

/// Latency buckets from 100 µs to about 50 s, in seconds.
fn latency() -> Histogram {
    Histogram::new(exponential_buckets(0.0001, 2.5, 15))
}

/// The server's metrics.
pub(crate) struct Metrics {
    registry: Registry,
    calls: Family<CallLabels, Counter>,
    call_seconds: Family<KindLabel, Histogram, fn() -> Histogram>,
    host_commands: Counter,
    submits: Family<OutcomeLabel, Counter>,
    store_seconds: Family<OperationLabel, Histogram, fn() -> Histogram>,
    open_sessions: Gauge,
    vfs_bytes: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("goccia");
        let calls = Family::<CallLabels, Counter>::default();
        registry.register(
            "calls",
            "Calls (POST .../run and .../shell) by kind and failure kind",
            calls.clone(),
        );
        let call_seconds =
            Family::<KindLabel, Histogram, fn() -> Histogram>::new_with_constructor(latency);
        registry.register(
            "call_duration_seconds",
            "How long calls took, by kind",
            call_seconds.clone(),
        );
        let host_commands = Counter::default();
        registry.register(
            "host_commands",
            "Host commands run by sessions' shells",
            host_commands.clone(),
        );
        let submits = Family::<OutcomeLabel, Counter>::default();
        registry.register(
            "submits",
            "Submits by outcome: landed, stale (VIEW_STALE), refused",
            submits.clone(),
        );
        let store_seconds =
            Family::<OperationLabel, Histogram, fn() -> Histogram>::new_with_constructor(latency);
        registry.register(
            "store_duration_seconds",
            "How long store calls took, by operation",
            store_seconds.clone(),
        );
        let open_sessions = Gauge::default();
        registry.register(
            "open_sessions",
            "Sessions open on this server",
            open_sessions.clone(),
        );
        let vfs_bytes = Gauge::default();
        registry.register(
            "vfs_bytes",
            "Bytes of file content the open sessions' sandboxes hold",
            vfs_bytes.clone(),
        );
        Metrics {
            registry,
            calls,
            call_seconds,
            host_commands,
            submits,
            store_seconds,
            open_sessions,
            vfs_bytes,
        }
    }
}

impl Metrics {
    /// One call of `kind` that ended with `envelope`, after `took`.
    pub(crate) fn call(&self, kind: &'static str, envelope: &goccia::Envelope, took: Duration) {
        let failure = envelope
            .failure_kind
            .map_or_else(|| "none".to_string(), |kind| kind.as_str().to_string());
        self.calls
            .get_or_create(&CallLabels { kind, failure })
            .inc();
        self.call_seconds
            .get_or_create(&KindLabel { kind })
            .observe(took.as_secs_f64());
        let commands = envelope
            .events
            .iter()
            .filter(|event| event.kind == "host-command" && event.decision == "exit")
            .count();
        self.host_commands.inc_by(commands as u64);
    }

    /// A submit that ended `outcome`.
    pub(crate) fn submit(&self, outcome: &'static str) {
        self.submits.get_or_create(&OutcomeLabel { outcome }).inc();
    }

    /// A store call of `operation` that took `took`.
    pub(crate) fn store(&self, operation: &'static str, took: Duration) {
        self.store_seconds
            .get_or_create(&OperationLabel { operation })
            .observe(took.as_secs_f64());
    }

    /// The text a scrape gets, with the states read now.
    pub(crate) fn render(&self, open_sessions: usize, vfs_bytes: u64) -> String {
        self.open_sessions.set(open_sessions as i64);
        self.vfs_bytes.set(vfs_bytes as i64);
        let mut text = String::new();
        encode(&mut text, &self.registry).expect("writing to a String cannot fail");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_every_metric_with_its_labels() {
        let metrics = Metrics::default();
        metrics.submit("stale");
        metrics.store("grant", Duration::from_micros(300));
        let text = metrics.render(3, 1024);
        for line in [
            "goccia_open_sessions 3",
            "goccia_vfs_bytes 1024",
            "goccia_submits_total{outcome=\"stale\"} 1",
            "goccia_store_duration_seconds_count{operation=\"grant\"} 1",
            "# EOF",
        ] {
            assert!(text.contains(line), "{line} in\n{text}");
        }
    }
}
