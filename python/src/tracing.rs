//! `goccia.start_tracing(url)` / `goccia.stop_tracing()`: the process's
//! spans sent to an OpenTelemetry collector over OTLP/HTTP
//! (docs/telemetry.md), as `--otlp` does for the command line.

use pyo3::prelude::*;
use std::sync::Mutex;

use crate::errors;

/// The exporter while tracing runs.
static TRACING: Mutex<Option<goccia::telemetry::Tracing>> = Mutex::new(None);

/// Sends this process's spans (calls, shell commands, host commands,
/// fetches) to the OTLP/HTTP collector at `url`, such as
/// `http://127.0.0.1:4318`. Once per process.
#[pyfunction]
pub fn start_tracing(url: &str) -> PyResult<()> {
    let mut slot = TRACING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if slot.is_some() {
        return Err(errors::spec(
            "tracing already runs in this process".to_string(),
            None,
        ));
    }
    let tracing = goccia::telemetry::Tracing::start(url, "goccia-python")
        .map_err(|error| errors::spec(error.to_string(), None))?;
    *slot = Some(tracing);
    Ok(())
}

/// Sends the spans not sent yet and stops (what `atexit` calls).
#[pyfunction]
pub fn stop_tracing(py: Python<'_>) {
    let tracing = TRACING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    py.detach(move || drop(tracing));
}
