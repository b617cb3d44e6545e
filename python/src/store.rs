//! `goccia.SnapshotStore`: where durable snapshots are saved
//! (docs/snapshots.md) — the path of an SQLite file or a PostgreSQL URL.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;

/// A snapshot store, opened (and set up if new) once.
#[pyclass(module = "goccia", frozen)]
pub struct SnapshotStore {
    pub(crate) inner: Arc<dyn goccia::store::SnapshotStore>,
}

/// A saved snapshot's id from Python text.
pub(crate) fn saved_id(text: &str) -> PyResult<goccia::store::SavedId> {
    text.parse().map_err(errors::store)
}

#[pymethods]
impl SnapshotStore {
    /// Opens the store at `location`: `postgres://...`, or a path
    /// (`sqlite:` optional). A store of a later format is refused.
    #[new]
    fn new(py: Python<'_>, location: &str) -> PyResult<Self> {
        let inner = py
            .detach(|| goccia::store::open(location))
            .map_err(errors::store)?;
        Ok(SnapshotStore {
            inner: Arc::from(inner),
        })
    }

    /// The store, its password hidden.
    #[getter]
    fn location(&self) -> String {
        self.inner.describe()
    }

    /// Every saved snapshot, oldest first, as a dict: `id`, `parent`,
    /// `label`, `taken_at` and `saved_at` (seconds since the epoch),
    /// `bytes`, `has_shell_state`.
    fn list<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let inner = self.inner.clone();
        let saved = py.detach(move || inner.list()).map_err(errors::store)?;
        saved
            .into_iter()
            .map(|saved| {
                let dict = PyDict::new(py);
                dict.set_item("id", saved.id.as_str())?;
                dict.set_item(
                    "parent",
                    saved
                        .record
                        .parent
                        .as_ref()
                        .map(|id| id.as_str().to_string()),
                )?;
                dict.set_item("label", saved.record.label)?;
                dict.set_item("taken_at", saved.record.taken_at_ms as f64 / 1000.0)?;
                dict.set_item("saved_at", saved.saved_at_ms as f64 / 1000.0)?;
                dict.set_item("bytes", saved.record.bytes)?;
                dict.set_item("has_shell_state", saved.record.shell.is_some())?;
                Ok(dict)
            })
            .collect()
    }

    /// Removes a saved snapshot (its blobs go at the next `gc`); whether
    /// there was one.
    fn drop(&self, py: Python<'_>, saved_id: &str) -> PyResult<bool> {
        let id = crate::store::saved_id(saved_id)?;
        let inner = self.inner.clone();
        py.detach(move || inner.remove(&id)).map_err(errors::store)
    }

    /// Removes every blob no saved snapshot names: `{"blobs", "bytes"}`
    /// freed.
    fn gc<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let inner = self.inner.clone();
        let report = py.detach(move || inner.gc()).map_err(errors::store)?;
        let dict = PyDict::new(py);
        dict.set_item("blobs", report.blobs)?;
        dict.set_item("bytes", report.bytes)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!("SnapshotStore({:?})", self.inner.describe())
    }
}
