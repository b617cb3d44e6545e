//! Traces (docs/telemetry.md): goccia's spans — a call, each shell
//! command, host command and fetch, seeding, diffs, a server's requests,
//! submits and store calls — sent over OTLP/HTTP to a collector.
//!
//! The library and the surfaces only create `tracing` spans; nothing is
//! recorded (and a disabled span costs a branch) until a surface starts
//! [`Tracing`], which installs the OpenTelemetry layer as the process's
//! subscriber. No span carries file contents or secret values: a shell
//! command is named by its command word, a fetch by its method and host.
//!
//! - [`Tracing::start`]: the exporter (`--otlp <url>`); dropping it sends
//!   what is left.
//! - [`continue_trace`]: makes a span the child of a W3C `traceparent`
//!   (an HTTP header, an MCP request's `_meta`).
//!
//! The spans themselves are made where the work is (their names and
//! attributes are listed in docs/telemetry.md).

use std::collections::HashMap;
use std::time::Duration;

use bytes::Bytes;
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt;

/// How long the batch waits before it sends: short, so that a collector
/// sees a request's spans while the server runs.
const SCHEDULED_DELAY: Duration = Duration::from_millis(200);

/// How long one export may take.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(5);

/// Why tracing could not start.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    /// The URL is not an `http://` or `https://` URL.
    #[error("`{0}` is not an OTLP/HTTP URL: give the collector's, such as http://127.0.0.1:4318")]
    Url(String),
    /// The exporter could not be made.
    #[error("the OTLP exporter for {url} could not be made: {reason}")]
    Exporter {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// Something else already receives this process's spans.
    #[error("tracing is already set up in this process")]
    AlreadySet,
}

/// The process's trace exporter; dropping it sends the spans not sent yet.
pub struct Tracing {
    provider: SdkTracerProvider,
}

impl std::fmt::Debug for Tracing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tracing")
    }
}

impl Tracing {
    /// Sends this process's spans to the OTLP/HTTP collector at `url` (its
    /// base, `http://host:4318`, or the full `.../v1/traces`) as `service`.
    pub fn start(url: &str, service: &str) -> Result<Tracing, TelemetryError> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(TelemetryError::Url(url.to_string()));
        }
        let endpoint = if url.trim_end_matches('/').ends_with("/v1/traces") {
            url.to_string()
        } else {
            format!("{}/v1/traces", url.trim_end_matches('/'))
        };
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(UreqClient::new())
            .with_protocol(Protocol::HttpJson)
            .with_endpoint(endpoint)
            .with_timeout(EXPORT_TIMEOUT)
            .build()
            .map_err(|error| TelemetryError::Exporter {
                url: url.to_string(),
                reason: error.to_string(),
            })?;
        let processor = BatchSpanProcessor::builder(exporter)
            .with_batch_config(
                BatchConfigBuilder::default()
                    .with_scheduled_delay(SCHEDULED_DELAY)
                    .build(),
            )
            .build();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(processor)
            .with_resource(
                Resource::builder_empty()
                    .with_service_name(service.to_string())
                    .build(),
            )
            .build();
        let tracer = provider.tracer("goccia");
        // goccia's own spans only: a dependency's spans and events (rmcp
        // logs whole requests at debug level) could carry what a span
        // must never hold (docs/telemetry.md). And only the attributes the
        // spans name: no source locations, thread names, targets or
        // busy/idle timings, each a cost on every span.
        let layer = tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_level(false)
            .with_tracked_inactivity(false)
            // Parents come from `tracing`'s own span stack; no other
            // OpenTelemetry instrumentation reads the current context, so
            // entering a span need not activate one.
            .with_context_activation(false)
            .with_filter(tracing_subscriber::filter::filter_fn(|metadata| {
                metadata.is_span() && metadata.name().starts_with("goccia.")
            }));
        let subscriber = tracing_subscriber::registry().with(layer);
        tracing::subscriber::set_global_default(subscriber)
            .map_err(|_| TelemetryError::AlreadySet)?;
        Ok(Tracing { provider })
    }
}

impl Drop for Tracing {
    fn drop(&mut self) {
        let _ = self.provider.shutdown();
    }
}

/// Makes `span` the child of the trace a W3C `traceparent` names; a
/// malformed one is ignored (the span starts a trace of its own).
pub fn continue_trace(span: &tracing::Span, traceparent: &str) {
    let carrier = HashMap::from([("traceparent".to_string(), traceparent.to_string())]);
    let context = TraceContextPropagator::new().extract(&carrier);
    let _ = span.set_parent(context);
}

/// The exporter's HTTP client: ureq, blocking, on the batch processor's
/// thread (no async runtime needed).
#[derive(Debug)]
struct UreqClient {
    agent: ureq::Agent,
}

impl UreqClient {
    fn new() -> UreqClient {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(EXPORT_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        UreqClient { agent }
    }
}

#[async_trait::async_trait]
impl opentelemetry_http::HttpClient for UreqClient {
    async fn send_bytes(
        &self,
        request: opentelemetry_http::Request<Bytes>,
    ) -> Result<opentelemetry_http::Response<Bytes>, opentelemetry_http::HttpError> {
        let (parts, body) = request.into_parts();
        let request = opentelemetry_http::Request::from_parts(parts, body.to_vec());
        let mut response = self.agent.run(request)?;
        let status = response.status();
        let body = response.body_mut().read_to_vec()?;
        Ok(opentelemetry_http::Response::builder()
            .status(status)
            .body(Bytes::from(body))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_that_is_not_http_is_refused_naming_it() {
        let error = Tracing::start("localhost:4318", "test").unwrap_err();
        assert_eq!(
            error.to_string(),
            "`localhost:4318` is not an OTLP/HTTP URL: give the collector's, such as http://127.0.0.1:4318"
        );
    }
}
