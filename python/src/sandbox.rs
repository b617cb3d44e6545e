//! `goccia.Sandbox`: the library's sandbox for Python. Runs release the
//! GIL (several sandboxes run in parallel threads); the asyncio variants
//! run on a thread of their own and settle a future on the caller's loop.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use goccia::{CallOptions, DiffFormat, Output, OutputBudget};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::errors;
use crate::options::{CancelToken, Limits, seed};
use crate::pending::Pending;
use crate::values::{Change, Entry, MergeReport, Run, WriteBackReport};

/// A sandbox: a virtual filesystem seeded from the host, with a bash-language
/// shell and a JavaScript runtime working on it. Nothing reaches the host
/// until `write_back()`.
///
/// `Sandbox(seeds=[("host dir", "/vfs")], copy_rw=[...], files={"/a": "text"},
/// limits=Limits(...), policy="workspace-write", writable=["/out"], env={...},
/// allow_hosts=["example.com"], exclude=["*.log"], gitignore=True,
/// audit_log="audit.jsonl")`; usable as a context manager.
#[pyclass(frozen, module = "goccia")]
pub struct Sandbox {
    pub inner: Arc<goccia::Sandbox>,
}

/// Calls `callback(stream, data)` for each chunk of output, holding the GIL
/// only for the call. An exception in the callback is reported as
/// unraisable; the run goes on.
struct Callback {
    callback: Py<PyAny>,
    stream: &'static str,
}

impl Write for Callback {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Python::attach(|py| {
            if let Err(error) = self
                .callback
                .call1(py, (self.stream, PyBytes::new(py, buf)))
            {
                error.write_unraisable(py, Some(self.callback.bind(py)));
            }
        });
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Per-call options as Python gives them.
fn call_options(
    sandbox: &goccia::Sandbox,
    py: Python<'_>,
    timeout: Option<f64>,
    cancel: Option<&CancelToken>,
    stdin: Option<&Bound<'_, PyAny>>,
    on_output: Option<Py<PyAny>>,
) -> PyResult<CallOptions> {
    let mut options = CallOptions::new();
    if let Some(timeout) = timeout {
        let timeout = Duration::try_from_secs_f64(timeout).map_err(|_| {
            PyValueError::new_err(format!(
                "timeout must be a number of seconds >= 0, not {timeout}"
            ))
        })?;
        options = options.timeout(timeout);
    }
    if let Some(cancel) = cancel {
        options = options.cancel(&cancel.inner);
    }
    if let Some(stdin) = stdin {
        options = options.stdin(bytes_of(stdin, "stdin")?);
    }
    if let Some(callback) = on_output {
        let budget = OutputBudget::for_limits(sandbox.limits());
        let output = Output::to_writers(
            Callback {
                callback: callback.clone_ref(py),
                stream: "stdout",
            },
            Callback {
                callback,
                stream: "stderr",
            },
            budget,
        );
        options = options.stream(&output);
    }
    Ok(options)
}

/// `str` (as UTF-8) or `bytes`.
fn bytes_of(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<u8>> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(text.into_bytes());
    }
    value
        .extract::<Vec<u8>>()
        .map_err(|_| PyTypeError::new_err(format!("{name} is str or bytes")))
}

fn format_of(name: &str) -> PyResult<DiffFormat> {
    DiffFormat::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "format must be \"json\" or \"unified\", not {name:?}"
        ))
    })
}

/// What a run call runs.
#[derive(Clone, Copy)]
enum Kind {
    Shell,
    Script,
    Code,
}

impl Kind {
    fn parse(name: &str) -> PyResult<Kind> {
        match name {
            "shell" => Ok(Kind::Shell),
            "script" => Ok(Kind::Script),
            "code" => Ok(Kind::Code),
            _ => Err(PyValueError::new_err(format!("unknown run kind {name:?}"))),
        }
    }

    fn call(
        self,
        sandbox: &goccia::Sandbox,
        source: &str,
        options: &CallOptions,
    ) -> Result<goccia::Run, goccia::RunError> {
        match self {
            Kind::Shell => sandbox.run_shell_opts(source, options),
            Kind::Script => sandbox.run_script_opts(source, options),
            Kind::Code => sandbox.run_code_opts(source, options),
        }
    }
}

impl Sandbox {
    /// Runs `kind` with the GIL released.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        py: Python<'_>,
        kind: Kind,
        source: &str,
        timeout: Option<f64>,
        cancel: Option<&CancelToken>,
        stdin: Option<&Bound<'_, PyAny>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Run> {
        let options = call_options(&self.inner, py, timeout, cancel, stdin, on_output)?;
        let sandbox = &self.inner;
        let mut run = py
            .detach(|| kind.call(sandbox, source, &options))
            .map_err(errors::run)?;
        let stdout = std::mem::take(&mut run.stdout);
        let stderr = std::mem::take(&mut run.stderr);
        Run::new(py, run, stdout, stderr)
    }
}

#[pymethods]
impl Sandbox {
    #[new]
    #[pyo3(signature = (*, seeds=None, copy_rw=None, files=None, seed_config=None, limits=None, policy=None, writable=None, env=None, allow_hosts=None, deny_private_ranges=false, exclude=None, gitignore=false, audit_log=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        seeds: Option<Vec<Bound<'_, PyAny>>>,
        copy_rw: Option<Vec<Bound<'_, PyAny>>>,
        files: Option<HashMap<String, Bound<'_, PyAny>>>,
        seed_config: Option<Vec<String>>,
        limits: Option<PyRef<'_, Limits>>,
        policy: Option<&str>,
        writable: Option<Vec<String>>,
        env: Option<HashMap<String, String>>,
        allow_hosts: Option<Vec<String>>,
        deny_private_ranges: bool,
        exclude: Option<Vec<String>>,
        gitignore: bool,
        audit_log: Option<String>,
    ) -> PyResult<Self> {
        let mut builder = goccia::Sandbox::builder().gitignore(gitignore);
        if let Some(limits) = limits {
            builder = builder.limits(limits.inner.clone());
        }
        for value in seeds.unwrap_or_default() {
            let (host, target) = seed(&value)?;
            builder = builder.seed(host, target.as_deref());
        }
        for value in copy_rw.unwrap_or_default() {
            let (host, target) = seed(&value)?;
            builder = builder.copy_rw(host, target.as_deref());
        }
        for path in seed_config.unwrap_or_default() {
            builder = builder.seed_config(path);
        }
        let mut files: Vec<_> = files.unwrap_or_default().into_iter().collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, content) in files {
            builder = builder.file(&path, bytes_of(&content, "a file's content")?);
        }
        if let Some(name) = policy {
            let mode = goccia::PolicyMode::parse(name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "policy must be \"read-only\", \"workspace-write\" or \"full\", not {name:?}"
                ))
            })?;
            builder = builder.policy(mode);
        }
        for path in writable.unwrap_or_default() {
            builder = builder.writable(path);
        }
        let mut env: Vec<_> = env.unwrap_or_default().into_iter().collect();
        env.sort();
        for (name, value) in env {
            builder = builder.env(name, value);
        }
        let mut network = goccia::NetPolicy::builder().private_ranges_refused(deny_private_ranges);
        for host in allow_hosts.unwrap_or_default() {
            let allowed = goccia::AllowedHost::parse(&host)
                .map_err(|error| PyValueError::new_err(format!("allow_hosts: {error}")))?;
            network = network.allow(allowed);
        }
        builder = builder.network(network.build());
        for pattern in exclude.unwrap_or_default() {
            builder = builder.exclude(pattern);
        }
        if let Some(path) = audit_log {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|error| PyValueError::new_err(format!("audit_log {path}: {error}")))?;
            builder = builder.audit(goccia::Audit::new(Some(Box::new(file))));
        }
        // Seeding reads the host: other Python threads go on meanwhile.
        let sandbox = py.detach(|| builder.build()).map_err(errors::setup)?;
        Ok(Sandbox {
            inner: Arc::new(sandbox),
        })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        false
    }

    /// Runs a bash command line in the sandbox's session (cwd, variables
    /// and functions persist between calls).
    #[pyo3(signature = (command, *, timeout=None, cancel=None, stdin=None, on_output=None))]
    fn run_shell(
        &self,
        py: Python<'_>,
        command: &str,
        timeout: Option<f64>,
        cancel: Option<PyRef<'_, CancelToken>>,
        stdin: Option<Bound<'_, PyAny>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Run> {
        self.run(
            py,
            Kind::Shell,
            command,
            timeout,
            cancel.as_deref(),
            stdin.as_ref(),
            on_output,
        )
    }

    /// Runs a JS module of the VFS (such as "/main.js").
    #[pyo3(signature = (entry, *, timeout=None, cancel=None, on_output=None))]
    fn run_script(
        &self,
        py: Python<'_>,
        entry: &str,
        timeout: Option<f64>,
        cancel: Option<PyRef<'_, CancelToken>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Run> {
        self.run(
            py,
            Kind::Script,
            entry,
            timeout,
            cancel.as_deref(),
            None,
            on_output,
        )
    }

    /// Runs JS source as the entry module (never written to the VFS).
    #[pyo3(signature = (source, *, timeout=None, cancel=None, on_output=None))]
    fn run_code(
        &self,
        py: Python<'_>,
        source: &str,
        timeout: Option<f64>,
        cancel: Option<PyRef<'_, CancelToken>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Run> {
        self.run(
            py,
            Kind::Code,
            source,
            timeout,
            cancel.as_deref(),
            None,
            on_output,
        )
    }

    /// Starts a run on a worker thread (kept for the next one) and returns
    /// its `Pending`: `wait` gives the outcome if it comes within a few
    /// microseconds, else `done(run, error)` is called on the worker when
    /// it ends (the asyncio variants are built on the two).
    #[pyo3(signature = (kind, source, timeout, cancel, stdin, done))]
    #[allow(clippy::too_many_arguments)]
    fn _spawn(
        &self,
        py: Python<'_>,
        kind: &str,
        source: String,
        timeout: Option<f64>,
        cancel: Option<PyRef<'_, CancelToken>>,
        stdin: Option<Bound<'_, PyAny>>,
        done: Py<PyAny>,
    ) -> PyResult<Pending> {
        let kind = Kind::parse(kind)?;
        let options = call_options(
            &self.inner,
            py,
            timeout,
            cancel.as_deref(),
            stdin.as_ref(),
            None,
        )?;
        let sandbox = self.inner.clone();
        let pending = Pending::new(done);
        let shared = pending.shared.clone();
        crate::pool::submit(Box::new(move || {
            shared.settle(kind.call(&sandbox, &source, &options));
        }))
        .map_err(|error| errors::run(goccia::RunError::Thread(error)))?;
        Ok(pending)
    }

    /// `await sandbox.arun_shell(...)`: `run_shell` without blocking the
    /// event loop; cancelling the task cancels the run.
    #[pyo3(signature = (command, *, timeout=None, cancel=None, stdin=None))]
    fn arun_shell<'py>(
        slf: &Bound<'py, Self>,
        command: String,
        timeout: Option<f64>,
        cancel: Option<Py<CancelToken>>,
        stdin: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let helper = slf.py().import("goccia._aio")?.getattr("arun")?;
        helper.call1((slf, "shell", command, timeout, cancel, stdin))
    }

    /// `await sandbox.arun_script(entry)`.
    #[pyo3(signature = (entry, *, timeout=None, cancel=None))]
    fn arun_script<'py>(
        slf: &Bound<'py, Self>,
        entry: String,
        timeout: Option<f64>,
        cancel: Option<Py<CancelToken>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let helper = slf.py().import("goccia._aio")?.getattr("arun")?;
        helper.call1((slf, "script", entry, timeout, cancel, slf.py().None()))
    }

    /// `await sandbox.arun_code(source)`.
    #[pyo3(signature = (source, *, timeout=None, cancel=None))]
    fn arun_code<'py>(
        slf: &Bound<'py, Self>,
        source: String,
        timeout: Option<f64>,
        cancel: Option<Py<CancelToken>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let helper = slf.py().import("goccia._aio")?.getattr("arun")?;
        helper.call1((slf, "code", source, timeout, cancel, slf.py().None()))
    }

    /// A file's content.
    fn read<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.inner.read(path).map_err(errors::access)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes a file as the host (not subject to the write policy; it shows
    /// in the diff unless `rebaseline()` follows).
    fn write(&self, path: &str, content: &Bound<'_, PyAny>) -> PyResult<()> {
        let content = bytes_of(content, "content")?;
        self.inner.write(path, content).map_err(errors::access)
    }

    /// Removes a file or a folder with everything in it.
    fn remove(&self, path: &str) -> PyResult<()> {
        self.inner.remove(path).map_err(errors::access)
    }

    /// A folder's entries, sorted by name.
    #[pyo3(signature = (path="/"))]
    fn list(&self, path: &str) -> PyResult<Vec<Entry>> {
        let entries = self.inner.list(path).map_err(errors::access)?;
        Ok(entries
            .into_iter()
            .map(|entry| Entry {
                name: entry.name,
                r#type: entry.node_type.as_str().to_string(),
            })
            .collect())
    }

    /// Changes since the baseline, in apply order.
    fn changes(&self, py: Python<'_>) -> PyResult<Vec<Py<Change>>> {
        self.inner
            .changes()
            .into_iter()
            .map(|change| Py::new(py, Change { inner: change }))
            .collect()
    }

    /// The diff as text: "json" (one object per change) or "unified" (a
    /// patch; with `root`, paths relative to that VFS folder).
    #[pyo3(signature = (format="json", root=None))]
    fn diff(&self, format: &str, root: Option<&str>) -> PyResult<String> {
        let format = format_of(format)?;
        match root {
            Some(root) => self.inner.diff_rooted(format, root).map_err(errors::access),
            None => Ok(self.inner.diff(format)),
        }
    }

    /// A child sandbox seeded from this one in O(1): each seed is a VFS
    /// path ("/src") or a (from, to) pair.
    fn child(&self, seeds: Vec<Bound<'_, PyAny>>) -> PyResult<Sandbox> {
        let mut specs = Vec::new();
        for value in seeds {
            if let Ok((from, to)) = value.extract::<(String, String)>() {
                specs.push(goccia::ChildSeed::path_to(&from, &to));
            } else if let Ok(path) = value.extract::<String>() {
                specs.push(goccia::ChildSeed::path(&path));
            } else {
                return Err(PyTypeError::new_err(
                    "a child seed is a VFS path or a (from, to) pair of VFS paths",
                ));
            }
        }
        let child = self.inner.child(&specs).map_err(errors::child_seed)?;
        Ok(Sandbox {
            inner: Arc::new(child),
        })
    }

    /// Applies changes (a child's `changes()`) with the merge rules of the
    /// contract; the report says what happened per path.
    fn apply(&self, py: Python<'_>, changes: &Bound<'_, PyList>) -> PyResult<MergeReport> {
        let mut list = Vec::with_capacity(changes.len());
        for item in changes.iter() {
            let change = item
                .cast::<Change>()
                .map_err(|_| PyTypeError::new_err("apply takes a list of goccia.Change"))?;
            list.push(change.get().inner.clone());
        }
        let report = py
            .detach(|| self.inner.apply(&list))
            .map_err(errors::apply)?;
        MergeReport::new(py, report)
    }

    /// Merges a child's changes, mapping its `(from, to)` seeds back.
    fn merge(&self, py: Python<'_>, child: &Sandbox) -> PyResult<MergeReport> {
        let report = py
            .detach(|| self.inner.merge(&child.inner))
            .map_err(errors::apply)?;
        MergeReport::new(py, report)
    }

    /// Applies a unified patch; the paths it changed.
    fn apply_patch(&self, patch: &str) -> PyResult<Vec<String>> {
        let patched = self
            .inner
            .apply_patch(patch)
            .map_err(|error| errors::ApplyError::new_err(error.to_string()))?;
        Ok(patched.iter().map(|file| file.path.to_string()).collect())
    }

    /// Remembers the tree (shared, not copied); the id restores it.
    /// Bounded: `SnapshotLimitError` past `Limits.max_snapshots` or when
    /// what snapshots keep would pass the fs quota.
    fn snapshot(&self) -> PyResult<usize> {
        self.inner
            .snapshot()
            .map(|id| id.index())
            .map_err(errors::snapshot_limit)
    }

    /// Puts the tree back exactly as it was at `snapshot_id`.
    fn restore(&self, snapshot_id: usize) -> PyResult<()> {
        self.inner
            .restore(goccia::SnapshotId::from_index(snapshot_id))
            .map_err(errors::unknown_snapshot)
    }

    /// Back to the baseline: no changes.
    fn reset(&self) {
        self.inner.reset();
    }

    /// The tree as it is becomes the baseline.
    fn rebaseline(&self) {
        self.inner.rebaseline();
    }

    /// Writes the changes back to the `copy_rw` seeds (every rule of the
    /// contract's §6); the report lists what was written and skipped.
    fn write_back(&self, py: Python<'_>) -> PyResult<WriteBackReport> {
        let report = py
            .detach(|| self.inner.write_back())
            .map_err(errors::write_back)?;
        Ok(WriteBackReport::new(report))
    }

    /// The sandbox's limits.
    #[getter]
    fn limits(&self) -> Limits {
        Limits {
            inner: self.inner.limits().clone(),
        }
    }

    /// The write policy's mode.
    #[getter]
    fn policy(&self) -> String {
        self.inner.policy().mode().to_string()
    }

    fn __repr__(&self) -> String {
        format!("Sandbox(policy={:?})", self.policy())
    }
}
