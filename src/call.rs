//! Per-call controls (docs/calls.md): a deadline for this call, a
//! cancellation another thread can trigger, stdin bytes for the shell, and
//! a sink that receives output as it is produced.

use std::time::Duration;

use std::io::Read;

use bytes::Bytes;
use goccia_core::{CancelToken, DeadlineSource, Limits, Output, Watch};
use goccia_shell::io::{BytesReader, Fd, pipe};

use crate::SpecError;

/// The setting a call's own timeout is named by in a [`SpecError`]
/// (`timeoutMs` in JSON, `timeout=` in Python, `CallOptions::timeout` in
/// Rust) — a call's, not the sandbox's `limits.timeoutMs`.
pub const CALL_TIMEOUT: &str = "call.timeoutMs";

/// How one `run_script`/`run_shell` call runs. The defaults are the
/// sandbox's: its timeout, no cancellation, empty stdin, output captured
/// in the [`Run`](crate::Run).
///
/// ```
/// # use std::time::Duration;
/// # use goccia::{CallOptions, CancelToken, FailureKind, Sandbox};
/// let sandbox = Sandbox::builder().build()?;
/// let cancel = CancelToken::new();
/// let canceller = {
///     let cancel = cancel.clone();
///     std::thread::spawn(move || {
///         std::thread::sleep(Duration::from_millis(50));
///         cancel.cancel();
///     })
/// };
/// let run = sandbox.run_shell_with("while :; do :; done", &CallOptions::new().cancel(&cancel))?;
/// canceller.join().unwrap();
/// assert_eq!((run.exit_code, run.failure_kind()), (130, Some(FailureKind::Cancelled)));
/// let run = sandbox.run_shell_with("tr a-z A-Z", &CallOptions::new().stdin("hi\n"))?;
/// assert_eq!(run.stdout_text(), "HI\n");
/// # Ok::<(), goccia::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct CallOptions {
    pub(crate) timeout: Option<Duration>,
    /// What a message states of the deadline, when not `timeout` set by
    /// the call (a capped timeout is the limit's; a worker's call, what its
    /// parent's call was given).
    pub(crate) stated: Option<(Duration, DeadlineSource)>,
    pub(crate) cancel: Option<CancelToken>,
    pub(crate) stdin: Option<Bytes>,
    pub(crate) output: Option<Output>,
    pub(crate) cwd: Option<String>,
    pub(crate) env: Vec<(String, String)>,
    pub(crate) process_exits_after: bool,
}

impl std::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("timeout", &self.timeout)
            .field("cancel", &self.cancel.is_some())
            .field("stdin", &self.stdin.as_ref().map(Bytes::len))
            .field("stream", &self.output.is_some())
            .field("cwd", &self.cwd)
            .field("env", &self.env.len())
            .field("process_exits_after", &self.process_exits_after)
            .finish()
    }
}

impl CallOptions {
    /// The sandbox's defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// This call's deadline instead of the sandbox's timeout.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How long this call may take: its own timeout (capped already, if it
    /// was asked for with a ceiling), else `sandbox_timeout`.
    pub fn timeout_or(&self, sandbox_timeout: Duration) -> Duration {
        self.timeout.unwrap_or(sandbox_timeout)
    }

    /// This call's deadline as a surface's caller asked for it, checked: a
    /// zero deadline (which could never let the call run) is refused,
    /// naming the call's timeout ([`CALL_TIMEOUT`]; spell it with
    /// [`SpecError::spelled`]). With a `ceiling` the deadline is capped as
    /// [`CallOptions::timeout_within`] does.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use goccia::{CallOptions, Spelling};
    /// let error = CallOptions::new().requested_timeout(Duration::ZERO, None).unwrap_err();
    /// assert_eq!(error.spelled(Spelling::Json), "timeoutMs: must be at least 1 ms");
    /// assert_eq!(error.spelled(Spelling::Python), "timeout=: must be at least 1 ms");
    /// assert!(CallOptions::new().requested_timeout(Duration::from_millis(5), None).is_ok());
    /// ```
    pub fn requested_timeout(
        self,
        requested: Duration,
        ceiling: Option<Duration>,
    ) -> Result<Self, SpecError> {
        if requested.is_zero() {
            return Err(SpecError::new(CALL_TIMEOUT, "must be at least 1 ms"));
        }
        Ok(match ceiling {
            Some(ceiling) => self.timeout_within(requested, ceiling),
            None => self.timeout(requested),
        })
    }

    /// This call's deadline, but never past `ceiling`: for a surface whose
    /// callers are not the host (a server's sessions, an MCP client), so a
    /// call cannot outlast the limit the host set (docs/security.md). Capped,
    /// a stop names the limit, not the call's timeout.
    pub fn timeout_within(mut self, requested: Duration, ceiling: Duration) -> Self {
        if requested > ceiling {
            self.stated = Some((ceiling, DeadlineSource::Limit));
        }
        self.timeout(requested.min(ceiling))
    }

    /// Enforces `remaining` while stating `allowed`, set by `source` (a
    /// worker running what is left of its parent's call).
    pub(crate) fn deadline(
        mut self,
        remaining: Duration,
        allowed: Duration,
        source: DeadlineSource,
    ) -> Self {
        self.timeout = Some(remaining);
        self.stated = Some((allowed, source));
        self
    }

    /// Ends the call when `token` is cancelled (from any thread): exit
    /// 130, failure kind [`FailureKind::Cancelled`](crate::FailureKind).
    pub fn cancel(mut self, token: &CancelToken) -> Self {
        self.cancel = Some(token.clone());
        self
    }

    /// What the shell's commands read as standard input (the shell only;
    /// scripts have no stdin).
    pub fn stdin(mut self, bytes: impl Into<Bytes>) -> Self {
        self.stdin = Some(bytes.into());
        self
    }

    /// The shell call runs in `path` (a folder of the VFS; a missing one
    /// is [`RunError::Cwd`](crate::RunError::Cwd) and nothing runs), for
    /// this call alone: afterwards the session's working folder is what it
    /// was. The shell only: a script given one is refused.
    ///
    /// ```
    /// # use goccia::{CallOptions, Sandbox};
    /// let sandbox = Sandbox::builder().file("/p/a.txt", "x").build()?;
    /// let options = CallOptions::new().cwd("/p").env("GREETING", "hi");
    /// let run = sandbox.run_shell_with("echo $GREETING; ls; pwd", &options)?;
    /// assert_eq!(run.stdout_text(), "hi\na.txt\n/p\n");
    /// // The session's own folder and variables are as they were.
    /// assert_eq!(sandbox.run_shell("pwd; echo \"[$GREETING]\"")?.stdout_text(), "/\n[]\n");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn cwd(mut self, path: &str) -> Self {
        self.cwd = Some(path.to_string());
        self
    }

    /// A variable bound for this shell call alone, exported, as `NAME=value
    /// command` binds one (the shell only).
    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    /// The process exits right after this call has been reported (a
    /// one-shot command line): a script's JS heap is then left to the OS
    /// rather than freed object by object (about a tenth of a cold hello
    /// world). Only for the last call a process makes: the heap is never
    /// given back to the sandbox. No effect on shell calls or in a worker.
    pub fn process_exits_after(mut self) -> Self {
        self.process_exits_after = true;
        self
    }

    /// Streams stdout and stderr to `output` as they are produced (charged
    /// to its budget); the `Run`'s own `stdout`/`stderr` stay empty.
    pub fn stream(mut self, output: &Output) -> Self {
        self.output = Some(output.clone());
        self
    }

    /// The call's deadline and cancellation; a stop states the call's own
    /// timeout when it had one.
    pub(crate) fn watch(&self, sandbox_timeout: Duration) -> Watch {
        let watch = Watch::with_cancel(
            self.timeout.unwrap_or(sandbox_timeout),
            self.cancel.clone().unwrap_or_default(),
        );
        match (self.stated, self.timeout) {
            (Some((allowed, source)), _) => watch.stated(allowed, source),
            (None, Some(timeout)) => watch.stated(timeout, DeadlineSource::Call),
            (None, None) => watch,
        }
    }
}

/// What a shell session reads as its standard input.
pub enum Stdin {
    /// Nothing: reads see end of input at once.
    Empty,
    /// These bytes, then end of input.
    Bytes(Bytes),
    /// A host stream (the process's stdin), pumped through a pipe so that
    /// a command waiting on it still stops at the deadline.
    Reader(Box<dyn Read + Send>),
}

impl std::fmt::Debug for Stdin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stdin::Empty => f.write_str("Stdin::Empty"),
            Stdin::Bytes(bytes) => write!(f, "Stdin::Bytes({} bytes)", bytes.len()),
            Stdin::Reader(_) => f.write_str("Stdin::Reader(..)"),
        }
    }
}

impl Stdin {
    pub(crate) fn into_fd(self, limits: &Limits) -> Fd {
        match self {
            Stdin::Empty => Fd::null_input(),
            Stdin::Bytes(bytes) => Fd::reader(BytesReader::new(bytes)),
            Stdin::Reader(mut reader) => {
                let (mut writer, reader_end) = pipe(&Watch::new(limits.timeout));
                // The pump ends with its stream or when the shell stops
                // reading; one blocked on a silent stream ends with the
                // process.
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut reader, &mut writer);
                });
                Fd::reader(reader_end)
            }
        }
    }
}

/// One call's deadline, stdin, sinks, working folder and variables.
pub(crate) struct Call {
    /// The caller's span: the session's thread runs the call inside it, so
    /// its commands are that call's children (docs/telemetry.md).
    pub(crate) span: tracing::Span,
    pub(crate) watch: Watch,
    pub(crate) stdin: Option<Bytes>,
    pub(crate) output: Option<Output>,
    pub(crate) cwd: Option<goccia_vfs::VfsPath>,
    pub(crate) env: Vec<(String, String)>,
}
