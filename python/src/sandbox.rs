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

/// A Python callable deciding escalation requests: called with a dict
/// (`requested_mode`, `current_mode`, `justification`, `subject`,
/// `detail`), it answers `True` or `"allow"` (once), `False` or
/// `"reject"`, `"cancel"`; anything else, or an exception, is
/// `unavailable`.
struct PyApprover {
    callback: Py<PyAny>,
}

impl goccia::Approver for PyApprover {
    fn decide(&self, request: &goccia::EscalationRequest) -> goccia::Decision {
        Python::attach(|py| {
            let asked = pyo3::types::PyDict::new(py);
            let _ = asked.set_item("requested_mode", request.requested_mode.to_string());
            let _ = asked.set_item("current_mode", request.current_mode.to_string());
            let _ = asked.set_item("justification", &request.justification);
            let _ = asked.set_item("subject", request.subject.as_str());
            let _ = asked.set_item("detail", &request.detail);
            let answer = match self.callback.call1(py, (asked,)) {
                Ok(answer) => answer,
                Err(error) => {
                    error.write_unraisable(py, Some(self.callback.bind(py)));
                    return goccia::Decision::Unavailable;
                }
            };
            let answer = answer.bind(py);
            if let Ok(flag) = answer.extract::<bool>() {
                return if flag {
                    goccia::Decision::AllowedOnce
                } else {
                    goccia::Decision::Rejected
                };
            }
            match answer.extract::<String>().as_deref() {
                Ok("allow") => goccia::Decision::AllowedOnce,
                Ok("reject") => goccia::Decision::Rejected,
                Ok("cancel") => goccia::Decision::Cancelled,
                _ => goccia::Decision::Unavailable,
            }
        })
    }
}

/// The worker program for `isolation="process"`: the `goccia` command
/// on `PATH` (the Python process is no goccia binary).
fn worker_program() -> PyResult<goccia::isolation::WorkerProgram> {
    goccia::isolation::WorkerProgram::installed().ok_or_else(|| {
        PyValueError::new_err(
            "isolation: \"process\" runs guests in the goccia command, which is not on PATH (set GOCCIA_WORKER to it)",
        )
    })
}

/// A shell call's own working folder and variables (`cwd=`, `env=`).
#[derive(Default)]
struct Scope {
    cwd: Option<String>,
    env: Option<HashMap<String, String>>,
}

/// Per-call options as Python gives them.
fn call_options(
    sandbox: &goccia::Sandbox,
    py: Python<'_>,
    timeout: Option<&Bound<'_, PyAny>>,
    cancel: Option<&CancelToken>,
    stdin: Option<&Bound<'_, PyAny>>,
    on_output: Option<Py<PyAny>>,
    scope: Scope,
) -> PyResult<CallOptions> {
    let mut options = CallOptions::new();
    if let Some(cwd) = &scope.cwd {
        options = options.cwd(cwd);
    }
    let mut variables: Vec<(String, String)> = scope.env.into_iter().flatten().collect();
    variables.sort();
    for (name, value) in &variables {
        options = options.env(name, value);
    }
    if let Some(timeout) = timeout.filter(|timeout| !timeout.is_none()) {
        let millis =
            crate::spec::milliseconds(timeout, "timeout").map_err(PyValueError::new_err)?;
        options = options
            .requested_timeout(Duration::from_millis(millis), None)
            .map_err(|error| PyValueError::new_err(error.spelled(goccia::Spelling::Python)))?;
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
            Kind::Shell => sandbox.run_shell_with(source, options),
            Kind::Script => sandbox.run_script_with(source, options),
            Kind::Code => sandbox.run_code_with(source, options),
        }
    }
}

/// The keywords `Sandbox(...)` and `Sandbox.resolve_spec(...)` share that
/// are not spelled as their spec field (seeds as pairs, limits as a
/// `Limits`, network settings flat); every other keyword is its field in
/// snake_case.
struct Keywords<'a, 'py> {
    seeds: Option<Vec<Bound<'py, PyAny>>>,
    copy_rw: Option<Vec<Bound<'py, PyAny>>>,
    files: Option<HashMap<String, Bound<'py, PyAny>>>,
    seed_config: Option<Vec<String>>,
    limits: Option<Bound<'py, PyAny>>,
    allow_hosts: Option<Vec<String>>,
    deny_private_ranges: Option<bool>,
    fetch_max_bytes: Option<Bound<'py, PyAny>>,
    settings: Option<&'a Bound<'py, pyo3::types::PyDict>>,
}

/// Keywords that fill the spec's `network` object: `secrets=` (name to
/// `"@file"`, `"env:VAR"` or `{"value": ...}`), `secret_headers=`,
/// `ca_files=`.
const NETWORK_KEYWORDS: &[&str] = &["secrets", "secret_headers", "ca_files"];

impl Keywords<'_, '_> {
    /// The spec's fields (JSON spelling) these keywords set.
    fn fields(self) -> PyResult<serde_json::Map<String, serde_json::Value>> {
        use serde_json::{Map, Value, json};
        let mut fields = Map::new();
        let mut network = Map::new();
        for (key, value) in self.settings.into_iter().flatten() {
            let key: String = key.extract()?;
            let json = crate::spec::to_json(&value, &key)?;
            // The gateway's keywords sit in the spec's `network` object
            // (docs/network.md).
            if NETWORK_KEYWORDS.contains(&key.as_str()) {
                network.insert(crate::spec::camel(&key), json);
            } else {
                fields.insert(crate::spec::camel(&key), json);
            }
        }
        let mut seeded = Vec::new();
        for value in self.seeds.unwrap_or_default() {
            let (host, target) = seed(&value)?;
            seeded.push(json!({"from": host, "to": target}));
        }
        for value in self.copy_rw.unwrap_or_default() {
            let (host, target) = seed(&value)?;
            seeded.push(json!({"from": host, "to": target, "copyRw": true}));
        }
        for path in self.seed_config.unwrap_or_default() {
            seeded.push(json!({"config": path}));
        }
        let mut files: Vec<_> = self.files.unwrap_or_default().into_iter().collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (path, content) in files {
            let bytes = bytes_of(&content, "a file's content")?;
            seeded.push(match String::from_utf8(bytes) {
                Ok(text) => json!({"path": path, "text": text}),
                Err(error) => {
                    use base64::Engine;
                    let encoded =
                        base64::engine::general_purpose::STANDARD.encode(error.into_bytes());
                    json!({"path": path, "base64": encoded})
                }
            });
        }
        if !seeded.is_empty() {
            fields.insert("seeds".into(), Value::Array(seeded));
        }
        if let Some(limits) = self.limits {
            let limits = match limits.extract::<PyRef<'_, Limits>>() {
                Ok(limits) => limits.inner.clone(),
                // A dict of keywords, as `Limits(**limits)` takes them.
                Err(_) => Limits::from_keywords(limits.cast::<pyo3::types::PyDict>().ok())?.inner,
            };
            fields.insert(
                "limits".into(),
                serde_json::to_value(limits).expect("plain data"),
            );
        }
        if let Some(hosts) = self.allow_hosts {
            network.insert("allowHost".into(), json!(hosts));
        }
        if let Some(deny) = self.deny_private_ranges {
            network.insert("denyPrivateRanges".into(), json!(deny));
        }
        if let Some(bytes) = self.fetch_max_bytes {
            network.insert(
                "fetchMaxBytes".into(),
                crate::spec::to_json(&bytes, "fetch_max_bytes")?,
            );
        }
        if !network.is_empty() {
            fields.insert("network".into(), Value::Object(network));
        }
        Ok(fields)
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
        timeout: Option<&Bound<'_, PyAny>>,
        cancel: Option<&CancelToken>,
        stdin: Option<&Bound<'_, PyAny>>,
        on_output: Option<Py<PyAny>>,
        scope: Scope,
    ) -> PyResult<Run> {
        // A shell call that calls nothing back into Python runs on this
        // thread, on a deep stack lent for it, instead of being handed to
        // the session's thread and waited for (docs/python.md, "Threads").
        // Callbacks are excluded: CPython from 3.14 checks its frames
        // against the thread's own stack bounds.
        let lend = matches!(kind, Kind::Shell)
            && on_output.is_none()
            && self.inner.policy().approver().is_none();
        let options = call_options(&self.inner, py, timeout, cancel, stdin, on_output, scope)?;
        let sandbox = &self.inner;
        let mut run = py
            .detach(|| {
                if lend {
                    goccia::deep_stack::lend(|| kind.call(sandbox, source, &options))
                } else {
                    kind.call(sandbox, source, &options)
                }
            })
            .map_err(errors::run)?;
        let stdout = std::mem::take(&mut run.stdout);
        let stderr = std::mem::take(&mut run.stderr);
        Run::new(py, run, stdout, stderr)
    }
}

#[pymethods]
impl Sandbox {
    #[new]
    #[pyo3(signature = (*, spec=None, seeds=None, copy_rw=None, files=None, seed_config=None, limits=None, approver=None, allow_hosts=None, deny_private_ranges=None, fetch_max_bytes=None, **settings))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        spec: Option<Bound<'_, PyAny>>,
        seeds: Option<Vec<Bound<'_, PyAny>>>,
        copy_rw: Option<Vec<Bound<'_, PyAny>>>,
        files: Option<HashMap<String, Bound<'_, PyAny>>>,
        seed_config: Option<Vec<String>>,
        limits: Option<Bound<'_, PyAny>>,
        approver: Option<Py<PyAny>>,
        allow_hosts: Option<Vec<String>>,
        deny_private_ranges: Option<bool>,
        fetch_max_bytes: Option<Bound<'_, PyAny>>,
        settings: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<Self> {
        let keywords = Keywords {
            seeds,
            copy_rw,
            files,
            seed_config,
            limits,
            allow_hosts,
            deny_private_ranges,
            fetch_max_bytes,
            settings,
        };
        let mut fields = keywords.fields()?;
        if approver.is_some() && !fields.contains_key("approve") {
            fields.insert("approve".into(), serde_json::json!("callback"));
        }
        // Not validated here: the build validates once, limits first.
        let spec = crate::spec::spec_from(spec.as_ref(), fields, false)?;
        let mut extras = goccia::Extras::default();
        if let Some(callback) = approver {
            extras.approver = Some(Arc::new(PyApprover { callback }));
        }
        if spec.isolation == goccia::IsolationMode::Process {
            extras.worker = Some(worker_program()?);
        }
        extras.advice = Some(goccia::spec::advice_for(goccia::Spelling::Python));
        // Seeding reads the host: other Python threads go on meanwhile.
        let sandbox = py
            .detach(|| {
                goccia::SandboxBuilder::from_spec(spec)
                    .extras(extras)
                    .build()
            })
            .map_err(errors::setup)?;
        Ok(Sandbox {
            inner: Arc::new(sandbox),
        })
    }

    /// The spec `Sandbox(...)` with the same keywords would be built from,
    /// validated, as a dict (what `spec=` takes; `goccia spec` prints the
    /// same for the CLI's flags).
    #[staticmethod]
    #[pyo3(signature = (*, spec=None, seeds=None, copy_rw=None, files=None, seed_config=None, limits=None, allow_hosts=None, deny_private_ranges=None, fetch_max_bytes=None, **settings))]
    #[allow(clippy::too_many_arguments)]
    fn resolve_spec(
        py: Python<'_>,
        spec: Option<Bound<'_, PyAny>>,
        seeds: Option<Vec<Bound<'_, PyAny>>>,
        copy_rw: Option<Vec<Bound<'_, PyAny>>>,
        files: Option<HashMap<String, Bound<'_, PyAny>>>,
        seed_config: Option<Vec<String>>,
        limits: Option<Bound<'_, PyAny>>,
        allow_hosts: Option<Vec<String>>,
        deny_private_ranges: Option<bool>,
        fetch_max_bytes: Option<Bound<'_, PyAny>>,
        settings: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let keywords = Keywords {
            seeds,
            copy_rw,
            files,
            seed_config,
            limits,
            allow_hosts,
            deny_private_ranges,
            fetch_max_bytes,
            settings,
        };
        let mut spec = crate::spec::spec_from(spec.as_ref(), keywords.fields()?, true)?;
        let here = std::env::current_dir()
            .map_err(|error| PyValueError::new_err(format!("the current folder: {error}")))?;
        spec.resolve_host_paths(&here);
        let json = py.import("json")?;
        Ok(json.call_method1("loads", (spec.to_json(),))?.unbind())
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        false
    }

    /// Runs a bash command line in the sandbox's session (cwd, variables
    /// and functions persist between calls); `cwd=` and `env=` are this
    /// call's own working folder and variables, for this call alone.
    #[pyo3(signature = (command, *, timeout=None, cancel=None, stdin=None, on_output=None, cwd=None, env=None))]
    #[allow(clippy::too_many_arguments)]
    fn run_shell(
        &self,
        py: Python<'_>,
        command: &str,
        timeout: Option<Bound<'_, PyAny>>,
        cancel: Option<PyRef<'_, CancelToken>>,
        stdin: Option<Bound<'_, PyAny>>,
        on_output: Option<Py<PyAny>>,
        cwd: Option<String>,
        env: Option<HashMap<String, String>>,
    ) -> PyResult<Run> {
        self.run(
            py,
            Kind::Shell,
            command,
            timeout.as_ref(),
            cancel.as_deref(),
            stdin.as_ref(),
            on_output,
            Scope { cwd, env },
        )
    }

    /// Runs a JS module of the VFS (such as "/main.js").
    #[pyo3(signature = (entry, *, timeout=None, cancel=None, on_output=None))]
    fn run_script(
        &self,
        py: Python<'_>,
        entry: &str,
        timeout: Option<Bound<'_, PyAny>>,
        cancel: Option<PyRef<'_, CancelToken>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Run> {
        self.run(
            py,
            Kind::Script,
            entry,
            timeout.as_ref(),
            cancel.as_deref(),
            None,
            on_output,
            Scope::default(),
        )
    }

    /// Runs JS source as the entry module (never written to the VFS).
    #[pyo3(signature = (source, *, timeout=None, cancel=None, on_output=None))]
    fn run_code(
        &self,
        py: Python<'_>,
        source: &str,
        timeout: Option<Bound<'_, PyAny>>,
        cancel: Option<PyRef<'_, CancelToken>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Run> {
        self.run(
            py,
            Kind::Code,
            source,
            timeout.as_ref(),
            cancel.as_deref(),
            None,
            on_output,
            Scope::default(),
        )
    }

    /// Starts a run on a worker thread (kept for the next one) and returns
    /// its `Pending`: `wait` gives the outcome if it comes within a few
    /// microseconds, else `done(run, error)` is called on the worker when
    /// it ends (the asyncio variants are built on the two).
    #[pyo3(signature = (kind, source, timeout, cancel, stdin, on_output, cwd, env, done))]
    #[allow(clippy::too_many_arguments)]
    fn _spawn(
        &self,
        py: Python<'_>,
        kind: &str,
        source: String,
        timeout: Option<Bound<'_, PyAny>>,
        cancel: Option<PyRef<'_, CancelToken>>,
        stdin: Option<Bound<'_, PyAny>>,
        on_output: Option<Py<PyAny>>,
        cwd: Option<String>,
        env: Option<HashMap<String, String>>,
        done: Py<PyAny>,
    ) -> PyResult<Pending> {
        let kind = Kind::parse(kind)?;
        let options = call_options(
            &self.inner,
            py,
            timeout.as_ref(),
            cancel.as_deref(),
            stdin.as_ref(),
            on_output,
            Scope { cwd, env },
        )?;
        let sandbox = self.inner.clone();
        let pending = Pending::new(done);
        let shared = pending.shared.clone();
        goccia::background::submit(Box::new(move || {
            shared.settle(kind.call(&sandbox, &source, &options));
        }))
        .map_err(|error| errors::run(goccia::RunError::Thread(error)))?;
        Ok(pending)
    }

    /// `await sandbox.arun_shell(...)`: `run_shell` without blocking the
    /// event loop; cancelling the task cancels the run. `on_output` is
    /// called on the run's thread (not the loop's) as output is produced.
    #[pyo3(signature = (command, *, timeout=None, cancel=None, stdin=None, on_output=None, cwd=None, env=None))]
    #[allow(clippy::too_many_arguments)]
    fn arun_shell<'py>(
        slf: &Bound<'py, Self>,
        command: String,
        timeout: Option<Bound<'py, PyAny>>,
        cancel: Option<Py<CancelToken>>,
        stdin: Option<Bound<'py, PyAny>>,
        on_output: Option<Py<PyAny>>,
        cwd: Option<String>,
        env: Option<HashMap<String, String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let helper = slf.py().import("goccia._aio")?.getattr("arun")?;
        helper.call1((
            slf, "shell", command, timeout, cancel, stdin, on_output, cwd, env,
        ))
    }

    /// `await sandbox.arun_script(entry)`.
    #[pyo3(signature = (entry, *, timeout=None, cancel=None, on_output=None))]
    fn arun_script<'py>(
        slf: &Bound<'py, Self>,
        entry: String,
        timeout: Option<Bound<'py, PyAny>>,
        cancel: Option<Py<CancelToken>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let helper = slf.py().import("goccia._aio")?.getattr("arun")?;
        let none = slf.py().None();
        helper.call1((slf, "script", entry, timeout, cancel, none, on_output))
    }

    /// `await sandbox.arun_code(source)`.
    #[pyo3(signature = (source, *, timeout=None, cancel=None, on_output=None))]
    fn arun_code<'py>(
        slf: &Bound<'py, Self>,
        source: String,
        timeout: Option<Bound<'py, PyAny>>,
        cancel: Option<Py<CancelToken>>,
        on_output: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let helper = slf.py().import("goccia._aio")?.getattr("arun")?;
        let none = slf.py().None();
        helper.call1((slf, "code", source, timeout, cancel, none, on_output))
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
    /// path ("/src") or a (from, to) pair. Its own `limits` (a dict of
    /// `Limits` keywords over this sandbox's, or a `Limits`), `policy` and
    /// `env`, each no wider than this sandbox's (else `SpecError`), and the
    /// folder its shell session starts in (`cwd`, one it was seeded with).
    #[pyo3(signature = (seeds, *, limits=None, policy=None, env=None, cwd=None))]
    fn child(
        &self,
        py: Python<'_>,
        seeds: Vec<Bound<'_, PyAny>>,
        limits: Option<Bound<'_, PyAny>>,
        policy: Option<&str>,
        env: Option<HashMap<String, String>>,
        cwd: Option<&str>,
    ) -> PyResult<Sandbox> {
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
        let mut options = goccia::ChildOptions::new();
        if let Some(limits) = limits {
            let spec = match limits.cast::<crate::options::Limits>() {
                Ok(given) => given.get().inner.clone(),
                Err(_) => {
                    let keywords = limits.cast::<pyo3::types::PyDict>().map_err(|_| {
                        PyTypeError::new_err("limits= is a dict of Limits keywords or a Limits")
                    })?;
                    let parent = goccia::LimitsSpec::from(self.inner.limits());
                    crate::options::Limits::over(&parent, Some(keywords))?.inner
                }
            };
            options = options.limits(spec.to_limits());
        }
        if let Some(policy) = policy {
            let mode = policy
                .parse::<goccia::PolicyMode>()
                .map_err(|error| errors::spec(format!("policy=: {error}"), None))?;
            options = options.policy(mode);
        }
        for (name, value) in env.into_iter().flatten() {
            options = options.env(&name, &value);
        }
        if let Some(cwd) = cwd {
            options = options.cwd(cwd);
        }
        let child = py
            .detach(|| self.inner.child_with(&specs, &options))
            .map_err(errors::child)?;
        Ok(Sandbox {
            inner: Arc::new(child),
        })
    }

    /// Applies changes (a child's `changes()`) with the merge rules of
    /// docs/vfs.md; the report says what happened per path.
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

    /// Remembers the tree (shared, not copied) and the shell session's
    /// state, with an optional `label`; the id restores it. Bounded:
    /// `SnapshotLimitError` past `Limits.max_snapshots` or when what
    /// snapshots keep would pass the fs quota.
    #[pyo3(signature = (label=None))]
    fn snapshot(&self, py: Python<'_>, label: Option<&str>) -> PyResult<usize> {
        py.detach(|| self.inner.snapshot_labeled(label))
            .map(|id| id.index())
            .map_err(errors::snapshot_limit)
    }

    /// Puts the tree and the shell session back as they were at
    /// `snapshot_id`.
    fn restore(&self, py: Python<'_>, snapshot_id: usize) -> PyResult<()> {
        py.detach(|| {
            self.inner
                .restore(goccia::SnapshotId::from_index(snapshot_id))
        })
        .map_err(errors::unknown_snapshot)
    }

    /// Every snapshot as a dict: `id`, `parent`, `label`, `taken_at`
    /// (seconds since the epoch), `bytes`, `has_shell_state`.
    fn snapshots<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        self.inner
            .snapshots()
            .into_iter()
            .map(|info| {
                let dict = pyo3::types::PyDict::new(py);
                dict.set_item("id", info.id.index())?;
                dict.set_item("parent", info.parent.map(|id| id.index()))?;
                dict.set_item("label", info.label)?;
                let since = info
                    .taken_at
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|since| since.as_secs_f64())
                    .unwrap_or(0.0);
                dict.set_item("taken_at", since)?;
                dict.set_item("bytes", info.bytes)?;
                dict.set_item("has_shell_state", info.has_shell_state)?;
                Ok(dict)
            })
            .collect()
    }

    /// `count` sandboxes holding snapshot `snapshot_id`'s tree and shell
    /// state (the state as it is now when `None`), the tree shared.
    #[pyo3(signature = (snapshot_id=None, count=1))]
    fn fork(
        &self,
        py: Python<'_>,
        snapshot_id: Option<usize>,
        count: usize,
    ) -> PyResult<Vec<Sandbox>> {
        let forks = py
            .detach(|| {
                self.inner
                    .fork(snapshot_id.map(goccia::SnapshotId::from_index), count)
            })
            .map_err(errors::fork)?;
        Ok(forks
            .into_iter()
            .map(|fork| Sandbox {
                inner: Arc::new(fork),
            })
            .collect())
    }

    /// Writes snapshot `snapshot_id` — files, baseline and shell state —
    /// to `store`; the saved id (`Sandbox.open` takes it, here or in
    /// another process). Only what the store lacks is written.
    fn save(
        &self,
        py: Python<'_>,
        store: &crate::store::SnapshotStore,
        snapshot_id: usize,
    ) -> PyResult<String> {
        let target = store.inner.clone();
        py.detach(|| {
            self.inner
                .save(target.as_ref(), goccia::SnapshotId::from_index(snapshot_id))
        })
        .map(|id| id.to_string())
        .map_err(errors::saved)
    }

    /// Replaces this sandbox's files, baseline and shell session with
    /// saved snapshot `saved_id` of `store`; its own settings stay (the
    /// files must fit its quota). All or nothing.
    fn load_saved(
        &self,
        py: Python<'_>,
        store: &crate::store::SnapshotStore,
        saved_id: &str,
    ) -> PyResult<()> {
        let id = crate::store::saved_id(saved_id)?;
        let source = store.inner.clone();
        py.detach(|| self.inner.load_saved(source.as_ref(), &id))
            .map_err(errors::saved)
    }

    /// A sandbox with the default settings holding saved snapshot
    /// `saved_id` of `store` (`Sandbox(...).load_saved(...)` for others).
    #[staticmethod]
    fn open(
        py: Python<'_>,
        store: &crate::store::SnapshotStore,
        saved_id: &str,
    ) -> PyResult<Sandbox> {
        let id = crate::store::saved_id(saved_id)?;
        let source = store.inner.clone();
        let sandbox = py
            .detach(|| goccia::Sandbox::open(source.as_ref(), &id))
            .map_err(errors::saved)?;
        Ok(Sandbox {
            inner: Arc::new(sandbox),
        })
    }

    /// Back to the baseline: no changes.
    fn reset(&self) {
        self.inner.reset();
    }

    /// The tree as it is becomes the baseline.
    fn rebaseline(&self) {
        self.inner.rebaseline();
    }

    /// Writes the changes back to the `copy_rw` seeds (every rule of
    /// docs/vfs.md, "Write-back"); the report lists what was written and skipped.
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
            inner: goccia::LimitsSpec::from(self.inner.limits()),
        }
    }

    /// The spec this sandbox was built from, as a dict (what `spec=`
    /// takes; a child has its parent's, without seeds).
    #[getter]
    fn spec(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let json = py.import("json")?;
        Ok(json
            .call_method1("loads", (self.inner.spec().to_json(),))?
            .unbind())
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
