//! [`Run`]: how one script or command line ended, the same shape for JS
//! and the shell.

use std::borrow::Cow;
use std::time::Duration;

use goccia_core::FailureKind;
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
    /// command's status, or the code of the failure kind (contract §4).
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
}

impl Run {
    /// Exit status 0 and no failure: the only state after which
    /// [`Sandbox::write_back`](crate::Sandbox::write_back) should be called.
    pub fn success(&self) -> bool {
        self.exit_code == 0 && self.failure.is_none()
    }

    /// The failure's kind, if the run failed.
    pub fn failure_kind(&self) -> Option<FailureKind> {
        self.failure.as_ref().map(|failure| failure.kind)
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
