//! A shell session on a sandbox: one [`Shell`] whose state (cwd,
//! variables, functions) persists from one command line to the next, each
//! line with its own deadline.

use std::sync::{Arc, mpsc};
use std::time::Instant;

use goccia_core::{
    CancelToken, Capture, FailureKind, LimitKind, Limits, Output, OutputBudget, Stream, Watch,
};
use goccia_shell::io::{Fd, HostWriter, StopReason};
use goccia_shell::{Context, LineStatus, Shell, ShellLimits, Stopped};
use goccia_vm::Failure;

use crate::error::RunError;
use crate::{Run, Sandbox};

/// Stack for the thread a shell runs on: its parser and interpreter
/// recurse, and nested constructs must not overflow the caller's thread.
const SHELL_STACK: usize = 256 << 20;

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
    /// `timeout`, `resource-limit`, or `script-error` for a cancellation.
    pub kind: FailureKind,
    /// What stopped it, for the user (names the option that raises it).
    pub message: String,
    /// Ctrl-C (or the embedder's cancel token) rather than a limit.
    pub cancelled: bool,
}

/// A shell over a sandbox's VFS, for callers that stream its output,
/// feed it stdin, run it line by line (an interactive terminal) or cancel
/// it. [`Sandbox::run_shell`] is the simpler face. Parsing and running
/// recurse: give the thread it runs on a large stack for untrusted,
/// deeply nested scripts (`run_shell` does).
///
/// ```
/// # use goccia::{Fd, Output, OutputBudget, Sandbox, ShellSession};
/// let sandbox = Sandbox::builder().build()?;
/// let (output, stdout, _stderr) = Output::captured(OutputBudget::new(1 << 20));
/// let mut session = sandbox.shell_session(&output, Fd::null_input());
/// assert!(ShellSession::is_incomplete("if true; then"));
/// let (run, exited) = session.run_line("trap 'echo bye' EXIT; mkdir /w; cd /w");
/// assert_eq!((run.exit_code, exited), (0, false));
/// assert_eq!(session.cwd(), "/w");
/// assert_eq!(session.finish().exit_code, 0);
/// assert_eq!(stdout.take(), b"bye\n");
/// # Ok::<(), goccia::Error>(())
/// ```
pub struct ShellSession {
    shell: Shell,
    audit: goccia_core::Audit,
    limits: Limits,
    shell_limits: ShellLimits,
    cancel: CancelToken,
}

/// The session [`Sandbox::run_shell`] keeps between calls, with the
/// captures its output goes to.
/// The session lives on a worker thread with the shell's stack, started
/// once: spawning a thread with a 256 MiB stack per call cost ~95 µs.
pub(crate) struct PersistentShell {
    requests: mpsc::Sender<String>,
    replies: mpsc::Receiver<ShellRun>,
    stdout: Capture,
    stderr: Capture,
    budget: Arc<OutputBudget>,
}

impl Sandbox {
    /// Runs a shell command line (a whole script: `;`, pipelines,
    /// functions, `exit`) in this sandbox's shell session: its working
    /// directory, variables and functions persist from one call to the
    /// next, like lines typed into one terminal. Output is captured in the
    /// [`Run`], up to `max_output` per call; the deadline is per call. The
    /// session runs on one worker thread (with the stack deep scripts
    /// need), started by the first call and ended when the sandbox drops.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().file("/p/a.txt", "x").build()?;
    /// sandbox.run_shell("cd /p; greet() { echo \"hi $1\"; }")?;
    /// let run = sandbox.run_shell("greet there; ls; exit 3")?;
    /// assert_eq!(run.stdout_text(), "hi there\na.txt\n");
    /// assert_eq!(run.exit_code, 3);
    /// assert_eq!(sandbox.run_shell("pwd")?.stdout_text(), "/p\n");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn run_shell(&self, command_line: &str) -> Result<Run, RunError> {
        let mut slot = self.shell.lock();
        if slot.is_none() {
            *slot = Some(self.persistent_shell()?);
        }
        let shell = slot.as_mut().expect("opened above");
        shell.budget.reset();
        let started = Instant::now();
        // A worker that panicked has dropped its ends: the session is gone.
        shell
            .requests
            .send(command_line.to_string())
            .map_err(|_| RunError::Panicked)?;
        let ran = shell.replies.recv().map_err(|_| RunError::Panicked)?;
        let mut run = ran.into_run(started);
        run.stdout = shell.stdout.take();
        run.stderr = shell.stderr.take();
        Ok(run)
    }

    fn persistent_shell(&self) -> Result<PersistentShell, RunError> {
        let budget = OutputBudget::new(self.limits().max_output);
        let (output, stdout, stderr) = Output::captured(budget.clone());
        let mut session = self.shell_session(&output, Fd::null_input());
        let (requests, lines) = mpsc::channel::<String>();
        let (answers, replies) = mpsc::channel();
        // The worker ends when the sandbox (and with it `requests`) drops.
        std::thread::Builder::new()
            .name("goccia-session".into())
            .stack_size(SHELL_STACK)
            .spawn(move || {
                for line in lines {
                    if answers.send(session.run_script(&line)).is_err() {
                        break;
                    }
                }
            })
            .map_err(RunError::Thread)?;
        Ok(PersistentShell {
            requests,
            replies,
            stdout,
            stderr,
            budget,
        })
    }

    /// Opens a shell on this sandbox's VFS: output goes to `output` (and is
    /// charged to its budget), commands read `stdin`.
    pub fn shell_session(&self, output: &Output, stdin: Fd) -> ShellSession {
        let limits = self.limits().clone();
        let shell_limits = ShellLimits::with_host_memory(limits.max_memory);
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
    ///
    /// ```
    /// # use goccia::{Fd, Output, OutputBudget, Sandbox};
    /// let sandbox = Sandbox::builder().file("/s.sh", "echo \"$0 got $# args: $*\"").build()?;
    /// let (output, stdout, _) = Output::captured(OutputBudget::new(1 << 20));
    /// let mut session = sandbox.shell_session(&output, Fd::null_input());
    /// session.set_positional("/s.sh", vec!["a".into(), "b".into()]);
    /// let source = String::from_utf8(sandbox.read("/s.sh")?.to_vec()).unwrap();
    /// assert_eq!(session.run_script_file("/s.sh", &source).exit_code, 0);
    /// assert_eq!(stdout.take(), b"/s.sh got 2 args: a b\n");
    /// assert!(session.known_commands().iter().any(|c| c == "grep"));
    /// # Ok::<(), goccia::Error>(())
    /// ```
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

    /// The token that cancels the running command (Ctrl-C), from any
    /// thread; the run ends with status 130.
    ///
    /// ```
    /// # use goccia::{Fd, Output, OutputBudget, Sandbox};
    /// let sandbox = Sandbox::builder().build()?;
    /// let output = Output::captured(OutputBudget::new(1 << 20)).0;
    /// let mut session = sandbox.shell_session(&output, Fd::null_input());
    /// let cancel = session.cancel_token();
    /// let canceller = std::thread::spawn(move || {
    ///     std::thread::sleep(std::time::Duration::from_millis(50));
    ///     cancel.cancel();
    /// });
    /// let run = session.run_script("while true; do :; done");
    /// canceller.join().unwrap();
    /// assert_eq!(run.exit_code, 130);
    /// assert!(run.stopped.unwrap().cancelled);
    /// # Ok::<(), goccia::Error>(())
    /// ```
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

impl ShellRun {
    /// As a [`Run`] that started at `started` (its output went elsewhere).
    pub fn into_run(self, started: Instant) -> Run {
        Run {
            exit_code: self.exit_code,
            failure: self.stopped.map(ShellStop::into_failure),
            stdout: Vec::new(),
            stderr: Vec::new(),
            result: None,
            duration: started.elapsed(),
            memory_used: None,
        }
    }
}

impl ShellStop {
    /// As a run's failure (a cancellation is a script error, exit 130).
    pub fn into_failure(self) -> Failure {
        let report = match self.cancelled {
            true => String::new(),
            false => format!("goccia: shell stopped: {}\n", self.message),
        };
        Failure {
            kind: self.kind,
            message: self.message,
            report,
        }
    }
}

/// Runs `work` on a thread with the stack the shell needs, so a deeply
/// nested script cannot overflow the caller's thread.
pub(crate) fn on_shell_stack<R: Send>(work: impl FnOnce() -> R + Send) -> Result<R, RunError> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("goccia-shell".into())
            .stack_size(SHELL_STACK)
            .spawn_scoped(scope, work)
            .map_err(RunError::Thread)?;
        worker.join().map_err(|_| RunError::Panicked)
    })
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
