//! `goccia` for Python: the library's `Sandbox` behind a Python class.
//! Nothing of the sandbox lives here — each method converts its
//! arguments, releases the GIL, calls the library, and converts back.
//!
//! - `errors`: the exception hierarchy mirroring the library's errors.
//! - `options`: `Limits`, `CancelToken`, seeds as Python gives them.
//! - `values`: `Run`, `Change`, `MergeReport`, `WriteBackReport`, `Entry`.
//! - `sandbox`: `Sandbox` and its calls (sync and asyncio).
//! - `pending`: how the outcome of an asyncio call (run on a thread of
//!   `goccia::background`) reaches the caller.

use pyo3::prelude::*;

mod errors;
mod options;
mod pending;
mod sandbox;
mod spec;
mod store;
mod tracing;
mod values;

#[pymodule]
fn _goccia(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<options::Limits>()?;
    m.add_class::<options::CancelToken>()?;
    m.add_class::<values::Run>()?;
    m.add_class::<values::Change>()?;
    m.add_class::<values::Entry>()?;
    m.add_class::<values::Conflict>()?;
    m.add_class::<values::MergeReport>()?;
    m.add_class::<values::WriteBackReport>()?;
    m.add_class::<sandbox::Sandbox>()?;
    m.add_class::<store::SnapshotStore>()?;
    m.add_function(pyo3::wrap_pyfunction!(tracing::start_tracing, m)?)?;
    m.add_function(pyo3::wrap_pyfunction!(tracing::stop_tracing, m)?)?;
    m.add_class::<pending::Pending>()?;
    Ok(())
}
