//! The outcome of a run started for asyncio. Waking an event loop from
//! another thread costs more than a short command: so the caller first
//! waits a few microseconds with the GIL released (`wait`), and only a run
//! that takes longer is handed to the loop by the `done` callback.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors;
use crate::values::Run;

type Outcome = Result<goccia::Run, goccia::RunError>;

struct State {
    /// The outcome, held for a caller still waiting.
    outcome: Option<Outcome>,
    /// A caller is (or is about to be) in `wait`.
    waiting: bool,
    /// Called with the outcome when nobody waits for it.
    done: Option<Py<PyAny>>,
}

pub struct Shared {
    state: Mutex<State>,
    ready: Condvar,
}

impl Shared {
    /// The run ended: hand the outcome to the waiting caller, or to `done`.
    pub fn settle(&self, outcome: Outcome) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        if state.waiting {
            state.outcome = Some(outcome);
            self.ready.notify_one();
            return;
        }
        let done = state.done.take();
        drop(state);
        if let Some(done) = done {
            Python::attach(|py| {
                let (run, error) = objects(py, outcome);
                if let Err(error) = done.call1(py, (run, error)) {
                    error.write_unraisable(py, Some(done.bind(py)));
                }
            });
        }
    }
}

/// `(run, None)` or `(None, exception)`.
fn objects(py: Python<'_>, outcome: Outcome) -> (Py<PyAny>, Py<PyAny>) {
    let converted = outcome.map_err(errors::run).and_then(|mut run| {
        let stdout = std::mem::take(&mut run.stdout);
        let stderr = std::mem::take(&mut run.stderr);
        Run::new(py, run, stdout, stderr).and_then(|run| Py::new(py, run))
    });
    match converted {
        Ok(run) => (run.into_any(), py.None()),
        Err(error) => (py.None(), error.into_value(py).into_any()),
    }
}

/// A run started by `Sandbox._spawn`.
#[pyclass(frozen, module = "goccia")]
pub struct Pending {
    pub shared: Arc<Shared>,
}

impl Pending {
    pub fn new(done: Py<PyAny>) -> Self {
        Pending {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    outcome: None,
                    waiting: true,
                    done: Some(done),
                }),
                ready: Condvar::new(),
            }),
        }
    }
}

#[pymethods]
impl Pending {
    /// Waits up to `micros` (GIL released) for the run: `(run, error)` if it
    /// ended, else `None` — then `done` will be called when it does.
    fn wait(&self, py: Python<'_>, micros: u64) -> Option<(Py<PyAny>, Py<PyAny>)> {
        let shared = &self.shared;
        let outcome = py.detach(|| {
            let state = shared
                .state
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            let (mut state, _) = shared
                .ready
                .wait_timeout_while(state, Duration::from_micros(micros), |state| {
                    state.outcome.is_none()
                })
                .unwrap_or_else(|poison| poison.into_inner());
            state.waiting = false;
            state.outcome.take()
        })?;
        Some(objects(py, outcome))
    }
}
