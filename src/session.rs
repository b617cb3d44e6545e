//! A shell session on a sandbox: one [`Shell`] whose state (cwd,
//! variables, functions) persists from one command line to the next, each
//! line with its own deadline.

use std::sync::Arc;

use goccia_core::{CancelToken, FailureKind, LimitKind, Limits, Output, Stream, Watch};
use goccia_shell::io::{Fd, HostWriter, StopReason};
use goccia_shell::{Context, LineStatus, Shell, ShellLimits, Stopped};

use crate::Sandbox;

/// How a shell run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellRun {
    /// The last command's status, or the code of the limit that stopped it.
    pub exit_code: i32,
    /// Set when a limit, the deadline or a cancellation stopped the run.
    pub stopped: Option<ShellStop>,
}

/// Why a shell run was stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellStop {
    pub kind: FailureKind,
    /// What stopped it, for the user (names the option that raises it).
    pub message: String,
    /// Ctrl-C (or the embedder's cancel token) rather than a limit.
    pub cancelled: bool,
}

/// A shell over a sandbox's VFS.
pub struct ShellSession {
    shell: Shell,
    audit: goccia_core::Audit,
    limits: Limits,
    shell_limits: ShellLimits,
    cancel: CancelToken,
}

impl Sandbox {
    /// Opens a shell on this sandbox's VFS: output goes to `output` (and is
    /// charged to its budget), commands read `stdin`.
    pub fn shell_session(&self, output: &Output, stdin: Fd) -> ShellSession {
        let limits = self.limits().clone();
        let shell_limits = ShellLimits::default();
        let cancel = CancelToken::new();
        let watch = Watch::with_cancel(limits.timeout, cancel.clone());
        let launcher = Arc::new(goccia_vm::Launcher {
            engine: self.engine().clone(),
            depth: 0,
        });
        let context =
            Context::with_launcher(self.shared_vfs(), watch, shell_limits.clone(), launcher);
        let writer = |stream| {
            Fd::writer(HostWriter {
                output: output.clone(),
                stream,
            })
        };
        let shell = Shell::new(
            context,
            stdin,
            writer(Stream::Stdout),
            writer(Stream::Stderr),
        );
        ShellSession {
            shell,
            audit: self.engine().audit.clone(),
            limits,
            shell_limits,
            cancel,
        }
    }
}

impl ShellSession {
    /// Runs a whole script (a `-c` command line, a script file's text): a
    /// syntax error ends it with status 2, `exit` ends it.
    pub fn run_script(&mut self, source: &str) -> ShellRun {
        self.begin();
        let result = self.shell.run_script(source);
        self.conclude(result)
    }

    /// Runs `source` as the script file `path` (`BASH_SOURCE`; set `$0`
    /// with [`ShellSession::set_positional`]).
    pub fn run_script_file(&mut self, path: &str, source: &str) -> ShellRun {
        self.shell.set_script_source(path);
        self.run_script(source)
    }

    /// Sets `$0` and the positional parameters (`$1`, ...).
    pub fn set_positional(&mut self, arg0: &str, args: Vec<String>) {
        self.shell.set_positional(arg0, args);
    }

    /// Runs one interactive command line; errors do not end the session.
    /// The flag says the line ran `exit` (the session should end).
    pub fn run_line(&mut self, line: &str) -> (ShellRun, bool) {
        self.shell.set_interactive(true);
        self.begin();
        match self.shell.run_line(line) {
            Ok(LineStatus { status, exited }) => (
                ShellRun {
                    exit_code: status,
                    stopped: None,
                },
                exited,
            ),
            Err(stopped) => {
                let run = self.conclude(Err(stopped));
                // `$?` after an interrupted line is 130 (or the limit's code).
                self.shell.set_last_status(run.exit_code);
                (run, false)
            }
        }
    }

    /// Ends the session (runs the EXIT trap); the final status.
    pub fn finish(&mut self) -> ShellRun {
        self.begin();
        let result = self.shell.finish_session();
        self.conclude(result)
    }

    /// The token that cancels the running command (Ctrl-C).
    pub fn cancel_token(&self) -> CancelToken {
        self.cancel.clone()
    }

    /// The shell's working directory.
    pub fn cwd(&self) -> String {
        self.shell.cwd().to_string()
    }

    /// Command names the shell knows (builtins, utilities, functions,
    /// aliases), for completion.
    pub fn known_commands(&self) -> Vec<String> {
        self.shell.known_commands()
    }

    /// Whether `source` is an unfinished construct (`if` without `fi`, an
    /// open quote): an interactive session reads another line.
    pub fn is_incomplete(source: &str) -> bool {
        matches!(Shell::check_syntax(source), Err(error) if error.incomplete)
    }

    fn begin(&mut self) {
        self.cancel.reset();
        let watch = Watch::with_cancel(self.limits.timeout, self.cancel.clone());
        self.shell.begin_run(watch);
    }

    fn conclude(&self, result: Result<i32, Stopped>) -> ShellRun {
        match result {
            Ok(status) => ShellRun {
                exit_code: status,
                stopped: None,
            },
            Err(stopped) => {
                let stop = describe_stop(stopped, &self.shell_limits);
                if !stop.cancelled {
                    self.audit
                        .record("limit", "hit", "shell", Some(stop.message.clone()));
                }
                ShellRun {
                    exit_code: if stop.cancelled {
                        130
                    } else {
                        stop.kind.exit_code()
                    },
                    stopped: Some(stop),
                }
            }
        }
    }
}

fn describe_stop(stopped: Stopped, limits: &ShellLimits) -> ShellStop {
    let kind = match stopped {
        Stopped::Io(StopReason::Deadline) => FailureKind::Timeout,
        Stopped::Io(StopReason::OutputLimit) => FailureKind::ResourceLimit,
        Stopped::Io(StopReason::Cancelled) => FailureKind::ScriptError,
        Stopped::Limit(kind) => match kind {
            LimitKind::Deadline => FailureKind::Timeout,
            other => other.failure_kind(),
        },
    };
    ShellStop {
        kind,
        message: stopped.describe(limits),
        cancelled: stopped == Stopped::Io(StopReason::Cancelled),
    }
}
