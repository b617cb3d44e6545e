//! What a tool call does with its sandbox ([`Work`]) and where it runs.
//!
//! Most work is a blocking call into the library, run on this runtime
//! worker in place (`block_in_place`: no thread hop) or, for a call that
//! may be suspended on a question, on a thread of its own. A shell command
//! line — the call models make most — goes through
//! [`Sandbox::run_shell_then`]: on the stdio server's deep-stack worker
//! ([`crate::transport::run_stdio`]) an idle session runs it right there,
//! answered before the await (no thread woken); on the HTTP server's
//! workers it is posted to the sandbox's shell session and answered
//! through a channel that session's thread fills, so the worker goes back
//! to reading requests while it runs (bench/README.md, issue 46).

use std::sync::Arc;
use std::time::Duration;

use goccia::{CallOptions, Run, RunError, Sandbox};
use rmcp::ErrorData;
use rmcp::model::{CallToolResponse, CallToolResult};

use crate::render;
use crate::tools::{refused, text};

/// A tool call's work on its sandbox.
pub(crate) enum Work {
    /// A call into the library that blocks its thread until it ends.
    Blocking(Box<dyn FnOnce(&Sandbox) -> CallToolResult + Send>),
    /// A command line for the sandbox's shell session.
    Shell(ShellLine),
}

/// The `shell` tool's arguments, as the session runs them.
pub(crate) struct ShellLine {
    pub command: String,
    pub timeout_ms: Option<u64>,
    pub cwd: Option<String>,
    pub env: Option<std::collections::BTreeMap<String, String>>,
}

impl Work {
    /// Runs the work on this thread, which may block (a thread of its
    /// own: a suspendable call's).
    pub(crate) fn run_blocking(self, sandbox: &Sandbox, span: &tracing::Span) -> CallToolResult {
        let _entered = span.enter();
        match self {
            Work::Blocking(work) => work(sandbox),
            Work::Shell(line) => match line.options(sandbox) {
                Ok(options) => rendered(sandbox.run_shell_with(&line.command, &options)),
                Err(refusal) => refusal,
            },
        }
    }

    /// Runs the work and answers: a blocking call in place, a command line
    /// posted to the session without a thread here waiting for it.
    pub(crate) async fn answer(
        self,
        sandbox: Arc<Sandbox>,
        span: tracing::Span,
    ) -> Result<CallToolResponse, ErrorData> {
        match self {
            Work::Blocking(work) => {
                in_place(move || {
                    let _entered = span.enter();
                    work(&sandbox)
                })
                .await
            }
            Work::Shell(line) => {
                let (answer, answered) = tokio::sync::oneshot::channel();
                {
                    // The call's span is the tool span's child, opened as
                    // the call is posted (the guard never crosses an await).
                    let _entered = span.enter();
                    match line.options(&sandbox) {
                        Ok(options) => {
                            sandbox.run_shell_then(&line.command, &options, move |ran| {
                                let _ = answer.send(rendered(ran));
                            })
                        }
                        Err(refusal) => return Ok(CallToolResponse::from(refusal)),
                    }
                }
                // A session that died without answering dropped `answer`.
                answered.await.map(CallToolResponse::from).map_err(|_| {
                    ErrorData::internal_error("the sandbox's shell ended without answering", None)
                })
            }
        }
    }
}

impl ShellLine {
    /// The call's options: its deadline (never past the server's limit),
    /// working directory and variables.
    fn options(&self, sandbox: &Sandbox) -> Result<CallOptions, CallToolResult> {
        let mut options = call_options(sandbox, self.timeout_ms)?;
        if let Some(cwd) = &self.cwd {
            options = options.cwd(cwd);
        }
        for (name, value) in self.env.iter().flatten() {
            options = options.env(name, value);
        }
        Ok(options)
    }
}

/// A call's options with the client's `timeoutMs`, which never outlasts
/// the server's limit; a refusal naming it when it is not a deadline.
pub(crate) fn call_options(
    sandbox: &Sandbox,
    timeout_ms: Option<u64>,
) -> Result<CallOptions, CallToolResult> {
    match timeout_ms {
        Some(ms) => CallOptions::new()
            .requested_timeout(Duration::from_millis(ms), Some(sandbox.limits().timeout))
            .map_err(|error| refused(error.spelled(goccia::Spelling::Json))),
        None => Ok(CallOptions::new()),
    }
}

/// A run as the model is shown it (truncated per docs/calls.md), an error
/// result when the run was refused or could not start.
pub(crate) fn rendered(ran: Result<Run, RunError>) -> CallToolResult {
    match ran {
        Ok(run) => {
            let shown = render::run_text(&run);
            if render::is_refusal(&run) {
                refused(shown)
            } else {
                text(shown)
            }
        }
        Err(error) => refused(error.to_string()),
    }
}

/// Runs `work` on this worker thread when the runtime has others to take
/// its tasks (no thread hop per call), else on the blocking pool. A panic
/// in the library would unwind through the protocol's task and leave the
/// request unanswered: it becomes an error.
async fn in_place(
    work: impl FnOnce() -> CallToolResult + Send + 'static,
) -> Result<CallToolResponse, ErrorData> {
    if tokio::runtime::Handle::current().runtime_flavor()
        == tokio::runtime::RuntimeFlavor::MultiThread
    {
        return tokio::task::block_in_place(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        })
        .map(CallToolResponse::from)
        .map_err(|_| ErrorData::internal_error("the sandbox call panicked", None));
    }
    tokio::task::spawn_blocking(work)
        .await
        .map(CallToolResponse::from)
        .map_err(crate::tools::panicked)
}
