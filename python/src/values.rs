//! What the library returns, as Python objects: read-only attributes,
//! `repr`s that show what matters, contents as `bytes`.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// JSON (a script's export) as Python values, through the `json` module.
pub fn json_to_py(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (value.to_string(),))?.unbind())
}

/// One finished run. `ok` is true for exit code 0; a failed run is a `Run`
/// too, never an exception.
#[pyclass(frozen, module = "goccia")]
pub struct Run {
    /// 0, the script's or last command's status, or the failure's code.
    #[pyo3(get)]
    pub exit_code: i32,
    /// `None`, or one of the kinds of docs/limits.md: "script-error", "timeout",
    /// "memory-limit", "output-limit", "cancelled", ...
    #[pyo3(get)]
    pub failure_kind: Option<String>,
    /// The failure's one-line message.
    #[pyo3(get)]
    pub failure_message: Option<String>,
    /// What the CLI would print on stderr for the failure (stack trace).
    #[pyo3(get)]
    pub failure_report: Option<String>,
    /// The output as written; the `stdout`, `stderr`, `stdout_bytes` and
    /// `stderr_bytes` attributes are made from it when asked for, so a
    /// call whose output is not read pays for no Python objects.
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    /// A script's default export as Python values (JSON-like), or None.
    #[pyo3(get)]
    pub result: Py<PyAny>,
    /// Wall time in seconds.
    #[pyo3(get)]
    pub duration: f64,
    /// Whether the run succeeded: `goccia::Run::ok`, the one definition
    /// every surface reports (exit code 0).
    #[pyo3(get)]
    pub ok: bool,
    /// Whether output past `max_output` was cut (`output_overflow="truncate"`).
    #[pyo3(get)]
    pub output_truncated: bool,
}

impl Run {
    pub fn new(
        py: Python<'_>,
        run: goccia::Run,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    ) -> PyResult<Run> {
        let result = match &run.result {
            Some(value) => json_to_py(py, value)?,
            None => py.None(),
        };
        let failure = run.failure.as_ref();
        Ok(Run {
            exit_code: run.exit_code,
            failure_kind: run.failure_kind().map(|kind| kind.as_str().to_string()),
            failure_message: failure.map(|failure| failure.message.clone()),
            failure_report: failure.map(|failure| failure.report.clone()),
            stdout,
            stderr,
            result,
            duration: run.duration.as_secs_f64(),
            ok: run.ok(),
            output_truncated: run.output_truncated,
        })
    }
}

#[pymethods]
impl Run {
    /// stdout as text (invalid UTF-8 replaced); `stdout_bytes` is exact.
    #[getter]
    fn stdout(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.stdout)
    }

    /// stderr as text (invalid UTF-8 replaced); `stderr_bytes` is exact.
    #[getter]
    fn stderr(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.stderr)
    }

    #[getter]
    fn stdout_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.stdout)
    }

    #[getter]
    fn stderr_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.stderr)
    }

    fn __repr__(&self) -> String {
        format!(
            "Run(exit_code={}, failure_kind={:?}, stdout={:?}, stderr={:?})",
            self.exit_code,
            self.failure_kind,
            abbreviated(&self.stdout()),
            abbreviated(&self.stderr())
        )
    }
}

fn abbreviated(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// One change since the baseline: what happened at a path, with both
/// sides' sizes, hashes and contents (files only). Pass a list of them to
/// `Sandbox.apply`.
#[pyclass(frozen, module = "goccia")]
pub struct Change {
    pub inner: goccia::Change,
}

fn file(node: &Option<goccia::Node>) -> Option<&std::sync::Arc<goccia::FileNode>> {
    node.as_ref().and_then(goccia::Node::as_file)
}

#[pymethods]
impl Change {
    /// "create", "mkdir", "modify", "replace" or "delete".
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }
    /// The VFS path.
    #[getter]
    fn path(&self) -> String {
        self.inner.path.to_string()
    }
    /// "file" or "directory".
    #[getter]
    fn r#type(&self) -> &'static str {
        self.inner.node_type().as_str()
    }
    #[getter]
    fn old_size(&self) -> Option<u64> {
        file(&self.inner.old).map(|file| file.len())
    }
    #[getter]
    fn new_size(&self) -> Option<u64> {
        file(&self.inner.new).map(|file| file.len())
    }
    /// `blake3:<hex>` of the content before, for files.
    #[getter]
    fn old_hash(&self) -> Option<String> {
        file(&self.inner.old).map(|file| format!("blake3:{}", file.hash().to_hex()))
    }
    #[getter]
    fn new_hash(&self) -> Option<String> {
        file(&self.inner.new).map(|file| format!("blake3:{}", file.hash().to_hex()))
    }
    #[getter]
    fn old_content<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        file(&self.inner.old).map(|file| PyBytes::new(py, file.data()))
    }
    #[getter]
    fn new_content<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        file(&self.inner.new).map(|file| PyBytes::new(py, file.data()))
    }

    fn __repr__(&self) -> String {
        format!("Change({} {})", self.inner.kind.as_str(), self.inner.path)
    }
}

/// One entry of a folder listing.
#[pyclass(frozen, get_all, module = "goccia")]
pub struct Entry {
    pub name: String,
    /// "file" or "directory".
    pub r#type: String,
}

#[pymethods]
impl Entry {
    fn __repr__(&self) -> String {
        format!("Entry({:?}, {:?})", self.name, self.r#type)
    }
}

/// A path `apply` could not merge: nothing of it was applied.
#[pyclass(frozen, get_all, module = "goccia")]
pub struct Conflict {
    pub path: String,
    pub reason: String,
    /// The target's edit since the base, as a unified hunk.
    pub ours: String,
    /// The incoming edit since the base.
    pub theirs: String,
}

#[pymethods]
impl Conflict {
    fn __repr__(&self) -> String {
        format!("Conflict({:?}: {})", self.path, self.reason)
    }
}

/// What `apply` did, per path (docs/vfs.md).
#[pyclass(frozen, get_all, module = "goccia")]
pub struct MergeReport {
    pub applied: Vec<String>,
    pub merged: Vec<String>,
    pub already_present: Vec<String>,
    pub conflicts: Vec<Py<Conflict>>,
}

impl MergeReport {
    pub fn new(py: Python<'_>, report: goccia::MergeReport) -> PyResult<Self> {
        let paths = |paths: Vec<goccia::VfsPath>| paths.iter().map(ToString::to_string).collect();
        Ok(MergeReport {
            applied: paths(report.applied),
            merged: paths(report.merged),
            already_present: paths(report.already_present),
            conflicts: report
                .conflicts
                .into_iter()
                .map(|conflict| {
                    Py::new(
                        py,
                        Conflict {
                            path: conflict.path.to_string(),
                            reason: conflict.reason,
                            ours: conflict.ours,
                            theirs: conflict.theirs,
                        },
                    )
                })
                .collect::<PyResult<_>>()?,
        })
    }
}

#[pymethods]
impl MergeReport {
    /// True when nothing conflicted.
    #[getter]
    fn clean(&self) -> bool {
        self.conflicts.is_empty()
    }

    fn __repr__(&self) -> String {
        format!(
            "MergeReport(applied={:?}, merged={:?}, already_present={:?}, conflicts={})",
            self.applied,
            self.merged,
            self.already_present,
            self.conflicts.len()
        )
    }
}

/// What `write_back` did: files written (VFS path, host path) and changes
/// skipped (VFS path, reason).
#[pyclass(frozen, get_all, module = "goccia")]
pub struct WriteBackReport {
    pub written: Vec<(String, String)>,
    pub skipped: Vec<(String, String)>,
    /// The report as the CLI prints it.
    pub text: String,
}

impl WriteBackReport {
    pub fn new(report: goccia::WriteBackReport) -> Self {
        WriteBackReport {
            text: report.render(),
            written: report
                .written
                .iter()
                .map(|written| {
                    (
                        written.sandbox_path.to_string(),
                        written.host_path.display().to_string(),
                    )
                })
                .collect(),
            skipped: report
                .skipped
                .iter()
                .map(|skipped| (skipped.sandbox_path.to_string(), skipped.reason.to_string()))
                .collect(),
        }
    }
}

#[pymethods]
impl WriteBackReport {
    fn __repr__(&self) -> String {
        format!(
            "WriteBackReport(written={}, skipped={})",
            self.written.len(),
            self.skipped.len()
        )
    }
}
