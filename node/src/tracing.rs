//! `startTracing(url)` / `stopTracing()`: the process's spans sent to an
//! OpenTelemetry collector over OTLP/HTTP (docs/telemetry.md), as `--otlp`
//! does for the command line.

use std::sync::Mutex;

use napi_derive::napi;

use crate::errors::coded;

/// The exporter while tracing runs.
static TRACING: Mutex<Option<goccia::telemetry::Tracing>> = Mutex::new(None);

/// Sends this process's spans to the OTLP/HTTP collector at `url`. Once
/// per process.
#[napi]
pub fn start_tracing(url: String) -> napi::Result<()> {
    let mut slot = TRACING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if slot.is_some() {
        return Err(coded(
            "ERR_GOCCIA_SPEC",
            "tracing already runs in this process",
        ));
    }
    let tracing = goccia::telemetry::Tracing::start(&url, "goccia-node")
        .map_err(|error| coded("ERR_GOCCIA_SPEC", error))?;
    *slot = Some(tracing);
    Ok(())
}

/// Sends the spans not sent yet and stops.
#[napi]
pub fn stop_tracing() {
    let tracing = TRACING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    drop(tracing);
}
