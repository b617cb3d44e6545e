//! `run_shell`: a command line in the sandbox's one shell session
//! (docs/calls.md), waited for (`run_shell_with`) or answered through a
//! callback (`run_shell_then`, for surfaces whose callers do not wait on a
//! thread, such as Node's promises). Both post the same job to the
//! session's thread, which runs the call and finishes its `Run` there, so
//! calls of one sandbox are ordered by that thread alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use goccia_core::{Capture, Output, OutputBudget};

use crate::call::{Call, CallOptions, Stdin};
use crate::error::RunError;
use crate::session::{Job, PersistentShell, SessionBackend, SessionState};
use crate::{Run, Sandbox};

/// What a finished call needs to become a [`Run`].
struct Finish {
    stdout: Capture,
    stderr: Capture,
    budget: Arc<OutputBudget>,
    /// The caller's sink, when the call streamed.
    streamed: Option<Output>,
}

impl Finish {
    /// Runs `source` under `call` on a local session's state and makes
    /// its `Run` (what a job does on the session's thread, and what a
    /// call run in place does).
    fn run_on(self, state: &mut SessionState, source: &str, call: Call) -> Run {
        self.budget.reset();
        let started = Instant::now();
        let ran = state.run_call(source, call);
        self.run(ran, started)
    }

    fn run(self, ran: crate::ShellRun, started: Instant) -> Run {
        let mut run = ran.into_run(started);
        // Truncate mode held the last half back: it lands now, in the
        // caller's sink when the call streamed.
        let budget = match &self.streamed {
            Some(output) => output.budget().clone(),
            None => self.budget,
        };
        budget.finish();
        run.output_truncated = budget.truncated();
        run.stdout = self.stdout.take();
        run.stderr = self.stderr.take();
        run
    }
}

/// A call's answer, given exactly once: a job dropped without answering
/// (its thread panicked, or was gone, or never started) answers
/// `Panicked`, and marks its session dead.
struct Answer<F: FnOnce(Result<Run, RunError>)> {
    done: Option<F>,
    /// The session the job ran in, if it ran in one.
    alive: Option<Arc<AtomicBool>>,
}

impl<F: FnOnce(Result<Run, RunError>)> Answer<F> {
    fn give(mut self, result: Result<Run, RunError>) {
        if let Some(done) = self.done.take() {
            done(result);
        }
    }
}

impl<F: FnOnce(Result<Run, RunError>)> Drop for Answer<F> {
    fn drop(&mut self) {
        if let Some(done) = self.done.take() {
            if let Some(alive) = &self.alive {
                alive.store(false, Ordering::Relaxed);
            }
            done(Err(RunError::Panicked));
        }
    }
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
        self.run_shell_with(command_line, &CallOptions::new())
    }

    /// [`Sandbox::run_shell`] with per-call controls: this call's
    /// deadline, a cancel token (exit 130, `FailureKind::Cancelled`),
    /// stdin bytes, and output streamed to a sink as produced. The one way
    /// a command line runs; `run_shell(line)` is
    /// `run_shell_with(line, &CallOptions::new())`.
    pub fn run_shell_with(
        &self,
        command_line: &str,
        options: &CallOptions,
    ) -> Result<Run, RunError> {
        self.replay_pending_shell_state();
        let span = crate::run::call_span("shell");
        let _entered = span.enter();
        let ran = self.run_shell_waiting(command_line, options);
        crate::run::record_run(&span, &ran);
        ran
    }

    /// [`Sandbox::run_shell_with`] inside its span.
    fn run_shell_waiting(
        &self,
        command_line: &str,
        options: &CallOptions,
    ) -> Result<Run, RunError> {
        if let Some(ran) = self.run_shell_in_place(command_line, options) {
            return ran;
        }
        let (answer, reply) = mpsc::sync_channel(1);
        match self.post_shell_call(command_line, options, move |result| {
            let _ = answer.send(result);
        }) {
            Posted::Local => crate::session::wait_for(&reply).unwrap_or(Err(RunError::Panicked)),
            Posted::Worker(mut slot, _) => {
                // A session in a worker is called from here: its link
                // waits for the worker's answer.
                let shell = slot.as_mut().expect("opened");
                shell.budget.reset();
                let started = Instant::now();
                let finish = shell.finish(options);
                let call = self.call_of(options)?;
                match shell.session.try_run_call(command_line, call) {
                    Ok(ran) => Ok(finish.run(ran, started)),
                    Err(error) => {
                        // The session is gone; the next call starts anew.
                        *slot = None;
                        Err(error)
                    }
                }
            }
            Posted::Failed(error, _) => Err(error),
        }
    }

    /// The call run here and now, when it would run in place (an open,
    /// local, idle session, called from a deep-stack thread): what
    /// [`Sandbox::post_shell_call`] does then, without boxing the call into
    /// a job, copying its line, or answering through a channel. `None`:
    /// the call goes the usual way.
    fn run_shell_in_place(
        &self,
        command_line: &str,
        options: &CallOptions,
    ) -> Option<Result<Run, RunError>> {
        if !crate::deep_stack::is_current() {
            return None;
        }
        let (local, finish, alive) = {
            let slot = self.shell.lock();
            let shell = slot.as_ref()?;
            let SessionBackend::Local(local) = shell.session.backend() else {
                return None;
            };
            if !shell.alive.load(Ordering::Relaxed) {
                return None;
            }
            (local.clone(), shell.finish(options), shell.alive.clone())
        };
        let call = match self.call_of(options) {
            Ok(call) => call,
            Err(error) => return Some(Err(error)),
        };
        let ran = local.run_in_place(|state| finish.run_on(state, command_line, call))?;
        Some(ran.map_err(|_| {
            // As a job's dropped answer does: the next call opens another.
            alive.store(false, Ordering::Relaxed);
            RunError::Panicked
        }))
    }

    /// [`Sandbox::run_shell_with`], answered through `done` instead of
    /// waited for: the call goes to the session's own thread and `done`
    /// runs there when it ends (for an isolated sandbox, on a thread of
    /// [`background`](crate::background)). For a surface whose callers do
    /// not wait on a thread (Node's promises): no thread of the caller's
    /// blocks, and no thread is woken but the session's.
    ///
    /// ```
    /// # use std::sync::{Arc, mpsc};
    /// # use goccia::{CallOptions, Sandbox};
    /// let sandbox = Arc::new(Sandbox::builder().build()?);
    /// let (answer, reply) = mpsc::channel();
    /// sandbox.run_shell_then("echo hi", &CallOptions::new(), move |run| answer.send(run).unwrap());
    /// assert_eq!(reply.recv().unwrap()?.stdout_text(), "hi\n");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn run_shell_then(
        self: &Arc<Self>,
        command_line: &str,
        options: &CallOptions,
        done: impl FnOnce(Result<Run, RunError>) + Send + 'static,
    ) {
        // Waited for here: putting a fork's state back is the cost of its
        // first call.
        self.replay_pending_shell_state();
        let span = crate::run::call_span("shell");
        let _entered = span.enter();
        let ended = span.clone();
        let done = move |ran: Result<Run, RunError>| {
            crate::run::record_run(&ended, &ran);
            // The call's span ends before the caller hears of it: a caller
            // that then exits (a tool server whose client left) has it to
            // export, and its parent, which stays open while a child does.
            drop(ended);
            done(ran)
        };
        match self.post_shell_call(command_line, options, done) {
            Posted::Local => {}
            Posted::Worker(slot, done) => {
                drop(slot);
                let sandbox = self.clone();
                let line = command_line.to_string();
                let options = options.clone();
                // A task that cannot start (no thread could be made) is
                // dropped, and its answer with it: it answers then.
                let answer = Answer {
                    done: Some(done),
                    alive: None,
                };
                let _ = crate::background::submit(Box::new(move || {
                    answer.give(sandbox.run_shell_with(&line, &options));
                }));
            }
            Posted::Failed(error, done) => done(Err(error)),
        }
    }

    /// The call's deadline, stdin and sink.
    fn call_of(&self, options: &CallOptions) -> Result<Call, RunError> {
        let cwd = match &options.cwd {
            None => None,
            Some(path) => {
                let cwd_error = |errno: goccia_vfs::Errno| RunError::Cwd {
                    path: path.clone(),
                    reason: errno.strerror(),
                    errno: errno.code(),
                };
                let parsed = goccia_vfs::VfsPath::parse(path)
                    .map_err(|_| cwd_error(goccia_vfs::Errno::Inval))?;
                let vfs = self.shared_vfs();
                let vfs = vfs.lock();
                match vfs.lookup(&parsed) {
                    Err(error) => return Err(cwd_error(error.errno)),
                    Ok(_) if !vfs.is_dir(&parsed) => {
                        return Err(cwd_error(goccia_vfs::Errno::NotDir));
                    }
                    Ok(_) => Some(parsed),
                }
            }
        };
        Ok(Call {
            span: tracing::Span::current(),
            watch: options.watch(self.limits().timeout),
            stdin: options.stdin.clone(),
            output: options.output.clone(),
            cwd,
            env: options.env.clone(),
        })
    }

    /// Opens the session if there is none (or it died), then, for a local
    /// session, posts the call to its thread (`done` answers it there);
    /// a session in a worker comes back still locked, for the caller to
    /// call through its link.
    fn post_shell_call<F: FnOnce(Result<Run, RunError>) + Send + 'static>(
        &self,
        command_line: &str,
        options: &CallOptions,
        done: F,
    ) -> Posted<'_, F> {
        let mut slot = self.shell.lock();
        if slot
            .as_ref()
            .is_some_and(|shell| shell.session.is_stale() || !shell.alive.load(Ordering::Relaxed))
        {
            // Its thread or its worker died, and the session with it: this
            // call opens another.
            *slot = None;
        }
        if slot.is_none() {
            let budget = OutputBudget::for_limits(self.limits());
            let (output, stdout, stderr) = Output::captured(budget.clone());
            let session = match self.shell_session(&output, Stdin::Empty) {
                Ok(session) => session,
                Err(error) => return Posted::Failed(error, done),
            };
            *slot = Some(PersistentShell {
                session,
                stdout,
                stderr,
                budget,
                alive: Arc::new(AtomicBool::new(true)),
            });
        }
        let shell = slot.as_mut().expect("opened above");
        let SessionBackend::Local(local) = shell.session.backend() else {
            return Posted::Worker(slot, done);
        };
        let finish = shell.finish(options);
        let call = match self.call_of(options) {
            Ok(call) => call,
            Err(error) => return Posted::Failed(error, done),
        };
        let answer = Answer {
            done: Some(done),
            alive: Some(shell.alive.clone()),
        };
        let source = command_line.to_string();
        let job: Job = Box::new(move |state| {
            answer.give(Ok(finish.run_on(state, &source, call)));
        });
        // A job run in place holds the session's state, not this slot:
        // other callers post behind it meanwhile.
        let local = local.clone();
        drop(slot);
        // A thread that is gone dropped the job, whose answer said
        // `Panicked` and marked the session dead: the next call starts anew.
        let _ = local.post(job);
        Posted::Local
    }
}

impl PersistentShell {
    fn finish(&self, options: &CallOptions) -> Finish {
        Finish {
            stdout: self.stdout.clone(),
            stderr: self.stderr.clone(),
            budget: self.budget.clone(),
            streamed: options.output.clone(),
        }
    }
}

/// Where a shell call went.
enum Posted<'a, F> {
    /// To the session's thread, which answers it.
    Local,
    /// Nowhere yet: the session lives in a worker, called through its link
    /// by the holder of this lock; the answer is the caller's to give.
    Worker(parking_lot::MutexGuard<'a, Option<PersistentShell>>, F),
    /// Refused before it ran (the session could not be opened, the call's
    /// options are wrong); the answer is the caller's to give.
    Failed(RunError, F),
}
