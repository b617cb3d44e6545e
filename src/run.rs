//! [`Run`]: how one script or command line ended, the same shape for JS
//! and the shell.

use std::borrow::Cow;
use std::time::Duration;

use std::time::Instant;

use goccia_core::{FailureKind, Stop};
use goccia_vm::Failure;

/// A finished [`Sandbox::run_script`](crate::Sandbox::run_script) or
/// [`Sandbox::run_shell`](crate::Sandbox::run_shell).
///
/// ```
/// # use goccia::{FailureKind, Sandbox};
/// let sandbox = Sandbox::builder()
///     .file("/ok.js", "console.log('fine'); export default {answer: 42}")
///     .file("/bad.js", "throw new Error('boom')")
///     .build()?;
/// let ok = sandbox.run_script("/ok.js")?;
/// assert!(ok.success());
/// assert_eq!(ok.result, Some(serde_json::json!({"answer": 42})));
///
/// let bad = sandbox.run_script("/bad.js")?;
/// assert_eq!(bad.exit_code, 1);
/// assert_eq!(bad.failure_kind(), Some(FailureKind::ScriptError));
/// assert!(bad.failure.unwrap().message.contains("boom"));
/// # Ok::<(), goccia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The process-style status: 0 success, the script's or last
    /// command's status, or the code of the failure kind (docs/limits.md).
    pub exit_code: i32,
    /// Set when the run failed: what kind, a one-line message, and the
    /// report the CLI prints on stderr.
    pub failure: Option<Failure>,
    /// What the guest printed on stdout (empty when the run wrote to an
    /// [`Output`](crate::Output) of the caller's).
    pub stdout: Vec<u8>,
    /// What the guest printed on stderr (same).
    pub stderr: Vec<u8>,
    /// A script's default export as JSON, when it has a JSON-like one and
    /// the run succeeded. Always `None` for the shell.
    pub result: Option<serde_json::Value>,
    /// Wall time of the run.
    pub duration: Duration,
    /// QuickJS heap in use when a script ended; `None` for the shell.
    pub memory_used: Option<u64>,
    /// Whether output past the limit was cut (`outputOverflow: truncate`:
    /// the middle replaced by one line), in the `Run`'s own streams or the
    /// caller's sink.
    pub output_truncated: bool,
}

impl Run {
    /// Whether the run succeeded: exit code 0 (a run that failed always
    /// has a non-zero code). The one definition every surface reports as
    /// `ok` (docs/calls.md); the only state after which
    /// [`Sandbox::write_back`](crate::Sandbox::write_back) should be called.
    pub fn ok(&self) -> bool {
        debug_assert!(self.exit_code != 0 || self.failure.is_none());
        self.exit_code == 0
    }

    /// [`Run::ok`].
    pub fn success(&self) -> bool {
        self.ok()
    }

    /// What kind of failure the run was, `None` when it succeeded: the
    /// failure's kind, or `ScriptError` for a guest that ended with a
    /// non-zero status of its own (`exit 3`, `process.exitCode = 1`). The
    /// one definition every surface reports as `failureKind`
    /// (docs/calls.md).
    pub fn failure_kind(&self) -> Option<FailureKind> {
        match (&self.failure, self.exit_code) {
            (Some(failure), _) => Some(failure.kind),
            (None, 0) => None,
            (None, _) => Some(FailureKind::ScriptError),
        }
    }

    /// stdout as text (invalid UTF-8 replaced).
    pub fn stdout_text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.stdout)
    }

    /// stderr as text (invalid UTF-8 replaced).
    pub fn stderr_text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.stderr)
    }
}

/// How a shell run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellRun {
    /// The last command's status, or the code of what stopped it (130 for
    /// a cancellation, the failure kind's code for a limit).
    pub exit_code: i32,
    /// What stopped the run before its end, if anything did.
    pub stop: Option<Stop>,
    /// The failure a stop made of the run (what, the limit's value, the
    /// sandbox's advice).
    pub failure: Option<Failure>,
}

impl ShellRun {
    pub(crate) fn finished(status: i32) -> Self {
        ShellRun {
            exit_code: status,
            stop: None,
            failure: None,
        }
    }

    /// True when a cancellation (Ctrl-C, a cancel token) stopped it.
    pub fn cancelled(&self) -> bool {
        self.stop == Some(Stop::Cancelled)
    }

    /// As a [`Run`] that started at `started` (its output went elsewhere).
    pub fn into_run(self, started: Instant) -> Run {
        Run {
            exit_code: self.exit_code,
            failure: self.failure,
            stdout: Vec::new(),
            stderr: Vec::new(),
            result: None,
            duration: started.elapsed(),
            memory_used: None,
            output_truncated: false,
        }
    }
}

/// The span of one library call of `kind` (`shell`, `script`, `code`);
/// its exit code and failure kind are recorded when it ends.
pub(crate) fn call_span(kind: &'static str) -> tracing::Span {
    tracing::info_span!(
        "goccia.call",
        goccia.call.kind = kind,
        process.exit.code = tracing::field::Empty,
        goccia.failure.kind = tracing::field::Empty,
    )
}

/// What a call's span says of how it ended.
pub(crate) fn record_run(span: &tracing::Span, ran: &Result<Run, crate::RunError>) {
    if let Ok(run) = ran {
        span.record("process.exit.code", run.exit_code);
        if let Some(kind) = run.failure_kind() {
            span.record("goccia.failure.kind", kind.as_str());
        }
    }
}
