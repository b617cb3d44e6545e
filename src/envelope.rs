//! The `--json` envelope (docs/limits.md): one object describing a finished
//! run, its output, diff and write-back. A serializable type of the
//! library, so every surface (CLI, server, MCP, Python) reports a run the
//! same way.

use serde::Serialize;

use goccia_core::{AuditEvent, FailureKind};
use goccia_vfs::write_back::{WriteBackError, WriteBackReport};

use crate::{Run, Sandbox, WriteBackOutcome};

/// `{ok, exitCode, failureKind, stdout, stderr, error, diff, writeBack,
/// events, stats}`.
///
/// ```
/// # use goccia::{Envelope, Sandbox};
/// let sandbox = Sandbox::builder().file("/m.js", "console.log('hi')").build()?;
/// let run = sandbox.run_script("/m.js")?;
/// let envelope = Envelope::new(&sandbox, &run).with_output(&run.stdout, &run.stderr);
/// let json = serde_json::to_value(&envelope).unwrap();
/// assert_eq!(json["ok"], true);
/// assert_eq!(json["stdout"], "hi\n");
/// assert_eq!(json["failureKind"], serde_json::Value::Null);
/// assert_eq!(json["writeBack"], serde_json::Value::Null);
/// # Ok::<(), goccia::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// `exitCode == 0`.
    pub ok: bool,
    /// The process-style exit code (docs/limits.md).
    pub exit_code: i32,
    /// `null` on success ([`Run::failure_kind`]).
    pub failure_kind: Option<FailureKind>,
    /// A script's default export as JSON (`null` for the shell, a failed
    /// run, or an export that is not JSON-like).
    pub result: Option<serde_json::Value>,
    /// The guest's stdout (invalid UTF-8 replaced).
    pub stdout: String,
    /// The guest's stderr.
    pub stderr: String,
    /// The failure's one-line message, or a write-back refusal's.
    pub error: Option<String>,
    /// The diff, when one was asked for.
    pub diff: Option<String>,
    /// What write-back did; `null` without write-back mappings.
    pub write_back: Option<WriteBackSummary>,
    /// The audit events of the run (empty unless auditing is on).
    pub events: Vec<AuditEvent>,
    /// Host links the seeds left out (`--symlinks skip`).
    pub seed_skipped: Vec<String>,
    /// The write policy the run was under.
    pub policy: PolicySummary,
    /// Where the guest ran: `{mode, enforcement, layers, missing}`
    /// (docs/isolation.md).
    pub isolation: crate::isolation::Confinement,
    /// The host commands and their confinement (docs/host-commands.md); `null`
    /// without host commands.
    pub host_commands: Option<crate::host_commands::HostCommandsSummary>,
    /// Figures of the run.
    pub stats: Stats,
}

/// `{mode, writableRoots}`: the write policy as the envelope shows it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicySummary {
    /// `read-only`, `workspace-write` or `full`.
    pub mode: &'static str,
    /// What `workspace-write` may change, sorted.
    pub writable_roots: Vec<String>,
}

/// Figures of a run.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Wall time of the run.
    pub duration_ms: f64,
    /// QuickJS heap in use at the end (scripts only).
    pub memory_bytes: Option<u64>,
    /// Bytes of file content in the VFS.
    pub fs_bytes: u64,
    /// Files and folders in the VFS.
    pub fs_nodes: u64,
    /// Bytes of output charged to the budget.
    pub output_bytes: u64,
    /// True when `--output-overflow truncate` dropped output from the
    /// middle.
    pub output_truncated: bool,
}

/// What write-back did, as the envelope shows it.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum WriteBackSummary {
    /// The run failed, so nothing was written: `{"skipped": "the run failed"}`.
    NotAttempted {
        /// Why.
        skipped: &'static str,
    },
    /// Written: each file, each skipped change, the summary line.
    Done {
        /// `{path, hostPath}` per written file.
        written: Vec<WrittenFile>,
        /// `{path, reason}` per skipped change.
        skipped: Vec<SkippedChange>,
        /// `write-back: N written, M skipped`.
        summary: String,
    },
    /// Refused (a planted symlink, an escape): `{"error": "..."}`.
    Refused {
        /// The refusal.
        error: String,
    },
}

/// A written file in [`WriteBackSummary::Done`].
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WrittenFile {
    /// Its sandbox path.
    pub path: String,
    /// Where it landed.
    pub host_path: String,
}

/// A skipped change in [`WriteBackSummary::Done`].
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedChange {
    /// Its sandbox path.
    pub path: String,
    /// Where it would have gone on the host; `null` under no mapping.
    pub host_path: Option<String>,
    /// Why it was skipped.
    pub reason: String,
}

impl WriteBackSummary {
    /// The summary of a write-back attempt; `None` when the sandbox has no
    /// mappings.
    pub fn of(outcome: &Result<WriteBackOutcome, WriteBackError>) -> Option<Self> {
        match outcome {
            Ok(WriteBackOutcome::NoMappings) => None,
            Ok(WriteBackOutcome::Skipped { .. }) => Some(WriteBackSummary::NotAttempted {
                skipped: "the run failed",
            }),
            Ok(WriteBackOutcome::Written(report)) => Some(Self::done(report)),
            Err(error) => Some(WriteBackSummary::Refused {
                error: error.to_string(),
            }),
        }
    }

    /// The summary of a write-back that ran (what a binding's `writeBack`
    /// answers).
    pub fn done(report: &WriteBackReport) -> Self {
        WriteBackSummary::Done {
            written: report
                .written
                .iter()
                .map(|w| WrittenFile {
                    path: w.sandbox_path.to_string(),
                    host_path: w.host_path.display().to_string(),
                })
                .collect(),
            skipped: report
                .skipped
                .iter()
                .map(|s| SkippedChange {
                    path: s.sandbox_path.to_string(),
                    host_path: s.host_path.as_ref().map(|p| p.display().to_string()),
                    reason: s.reason.to_string(),
                })
                .collect(),
            summary: report.summary(),
        }
    }
}

impl Envelope {
    /// The envelope of `run` in `sandbox` (its stats and audit events),
    /// with empty output, no diff and no write-back yet.
    pub fn new(sandbox: &Sandbox, run: &Run) -> Self {
        let exit = run.exit_code;
        let usage = sandbox.usage();
        Envelope {
            ok: run.ok(),
            exit_code: exit,
            failure_kind: run.failure_kind(),
            result: run.result.clone(),
            stdout: String::new(),
            stderr: String::new(),
            error: run.failure.as_ref().map(|failure| failure.message.clone()),
            diff: None,
            write_back: None,
            events: sandbox.engine().audit.events(),
            seed_skipped: sandbox
                .seed_skipped()
                .iter()
                .map(|path| path.display().to_string())
                .collect(),
            policy: {
                let policy = sandbox.policy();
                PolicySummary {
                    mode: policy.mode().as_str(),
                    writable_roots: policy
                        .writable_roots()
                        .iter()
                        .map(|root| root.to_string())
                        .collect(),
                }
            },
            isolation: sandbox.confinement(),
            host_commands: sandbox.host_commands(),
            stats: Stats {
                output_truncated: run.output_truncated,
                duration_ms: run.duration.as_secs_f64() * 1000.0,
                memory_bytes: run.memory_used,
                fs_bytes: usage.bytes,
                fs_nodes: usage.nodes,
                output_bytes: (run.stdout.len() + run.stderr.len()) as u64,
            },
        }
    }

    /// The envelope of one call of a sandbox that answers many (a server's
    /// session, a binding's sandbox): the run's own output, and only the
    /// audit events recorded since `mark` (`Audit::mark` taken before the
    /// call).
    pub fn of_call(sandbox: &Sandbox, run: &Run, mark: usize) -> Self {
        let mut envelope = Envelope::new(sandbox, run).with_output(&run.stdout, &run.stderr);
        envelope.events = sandbox.engine().audit.events_since(mark);
        envelope
    }

    /// With the guest's output (when it was captured elsewhere than the
    /// [`Run`]).
    pub fn with_output(mut self, stdout: &[u8], stderr: &[u8]) -> Self {
        self.stdout = String::from_utf8_lossy(stdout).into_owned();
        self.stderr = String::from_utf8_lossy(stderr).into_owned();
        self
    }

    /// With the bytes charged to the output budget.
    pub fn with_output_bytes(mut self, bytes: u64) -> Self {
        self.stats.output_bytes = bytes;
        self
    }

    /// With the diff text.
    pub fn with_diff(mut self, diff: Option<String>) -> Self {
        self.diff = diff;
        self
    }

    /// With what write-back did. A refusal fails the run: the envelope's
    /// error is the refusal when the run itself had none.
    pub fn with_write_back(mut self, summary: Option<WriteBackSummary>) -> Self {
        if let (None, Some(WriteBackSummary::Refused { error })) = (&self.error, &summary) {
            self.error = Some(error.clone());
        }
        self.write_back = summary;
        self
    }

    /// With the final exit code (a lost diff or a refused write-back fails
    /// a run after it ended).
    pub fn with_exit_code(mut self, exit_code: i32) -> Self {
        self.ok = exit_code == 0;
        if exit_code != 0 && self.failure_kind.is_none() {
            self.failure_kind = Some(FailureKind::ScriptError);
        }
        self.exit_code = exit_code;
        self
    }
}
