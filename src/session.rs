//! A shell session on a sandbox: one shell whose state (cwd, variables,
//! functions) persists from one command line to the next, each line with
//! its own deadline. The shell lives on a worker thread with the stack its
//! parser and interpreter need (they recurse, and deeply nested hostile
//! scripts must not overflow the caller's thread); every call is a message
//! to that thread.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Instant;

use goccia_core::{
    Advice, Audit, CancelToken, Capture, Limits, Output, OutputBudget, Stop, Stream, Watch,
};
use goccia_shell::io::{BytesReader, Fd, HostWriter};
use goccia_shell::{LineStatus, Shell};
use goccia_vm::{Failure, Nester};

use crate::call::{Call, Stdin};
use crate::error::RunError;
use crate::{Sandbox, ShellRun};

/// A shell over a sandbox's VFS, for callers that stream its output, feed
/// it stdin, run it line by line (an interactive terminal) or cancel it.
/// [`Sandbox::run_shell`] is the simpler face. It runs on a thread of its
/// own (with a deep stack), ended when the session drops; the EXIT trap
/// runs only on [`ShellSession::finish`].
///
/// ```
/// # use goccia::{Output, OutputBudget, Sandbox, ShellSession, Stdin};
/// let sandbox = Sandbox::builder().build()?;
/// let (output, stdout, _stderr) = Output::captured(OutputBudget::new(1 << 20));
/// let mut session = sandbox.shell_session(&output, Stdin::Empty)?;
/// assert!(ShellSession::is_incomplete("if true; then"));
/// let (run, exited) = session.run_line("trap 'echo bye' EXIT; mkdir /w; cd /w");
/// assert_eq!((run.exit_code, exited), (0, false));
/// assert_eq!(session.cwd(), "/w");
/// assert_eq!(session.finish().exit_code, 0);
/// assert_eq!(stdout.take(), b"bye\n");
/// # Ok::<(), goccia::Error>(())
/// ```
pub struct ShellSession {
    cancel: CancelToken,
    /// Where the shell lives, chosen once when the session opens.
    backend: SessionBackend,
}

/// Where a session's shell lives: the sandbox's [`Backend`] made concrete.
///
/// [`Backend`]: crate::isolation::Backend
pub(crate) enum SessionBackend {
    /// On a thread of this process, reached by jobs.
    Local(LocalSession),
    /// In the worker of a process-isolated sandbox (boxed: it is large,
    /// and most sessions are local).
    Worker(Box<crate::isolation::remote::RemoteSession>),
}

/// A session on a thread of this process: the queue its thread takes
/// jobs from, and its state, which a caller on a deep-stack thread
/// ([`crate::deep_stack`]) borrows to run a job in place while the
/// session's thread is idle. Handing a job over wakes that thread, and on
/// a virtual machine the wake-up (and the one back) costs more than a
/// short command (bench/README.md, issue 46).
#[derive(Clone)]
pub(crate) struct LocalSession {
    jobs: mpsc::Sender<Job>,
    resident: Arc<Resident>,
}

/// What the session's thread and in-place callers share.
struct Resident {
    state: parking_lot::Mutex<SessionState>,
    /// Jobs handed to the thread and not yet finished there (counted down
    /// under the lock): a job runs in place only at zero, so never before
    /// one handed over earlier.
    pending: AtomicUsize,
    /// Set when a job run in place panicked: the state may be half
    /// changed, so the session is over, as when its thread dies.
    broken: AtomicBool,
}

/// The session's thread is gone (or its state broke): the job was dropped,
/// and answered as a panic if it carried an answer.
pub(crate) struct Gone;

impl LocalSession {
    /// Runs `job` in place when this is a deep-stack thread and the session
    /// is idle, else hands it to the session's thread.
    pub(crate) fn post(&self, job: Job) -> Result<(), Gone> {
        let resident = &self.resident;
        if resident.broken.load(Ordering::SeqCst) {
            return Err(Gone);
        }
        if let Some(mut state) = self.idle_here() {
            // A panic unwinds through the job, whose answer says so.
            let _ = self.run_holding(&mut state, job);
            return Ok(());
        }
        resident.pending.fetch_add(1, Ordering::SeqCst);
        self.jobs.send(job).map_err(|_| Gone)
    }

    /// Runs `work` here and now when this is a deep-stack thread and the
    /// session is idle (what [`LocalSession::post`] does with a job it
    /// runs in place), without boxing it or answering through a channel.
    /// `None`, with `work` not run, when the session is busy, broken, or
    /// this thread's stack is not deep; `Some(Err)` when `work` panicked,
    /// which ends the session.
    pub(crate) fn run_in_place<R>(
        &self,
        work: impl FnOnce(&mut SessionState) -> R,
    ) -> Option<std::thread::Result<R>> {
        if self.resident.broken.load(Ordering::SeqCst) {
            return None;
        }
        let mut state = self.idle_here()?;
        Some(self.run_holding(&mut state, work))
    }

    /// The session's state, when a job may run in place: this is a
    /// deep-stack thread, and nothing is running or handed over.
    fn idle_here(&self) -> Option<parking_lot::MutexGuard<'_, SessionState>> {
        if !crate::deep_stack::is_current() {
            return None;
        }
        let state = self.resident.state.try_lock()?;
        (self.resident.pending.load(Ordering::SeqCst) == 0).then_some(state)
    }

    /// Runs `work` on the state [`LocalSession::idle_here`] gave; a panic
    /// breaks the session (its state may be half changed).
    fn run_holding<R>(
        &self,
        state: &mut SessionState,
        work: impl FnOnce(&mut SessionState) -> R,
    ) -> std::thread::Result<R> {
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(state)));
        if ran.is_err() {
            self.resident.broken.store(true, Ordering::SeqCst);
        }
        ran
    }
}

/// How long a caller waits on the CPU for its job's answer before it
/// sleeps (see [`wait_for`]).
const SPIN_FOR_REPLY: std::time::Duration = std::time::Duration::from_micros(50);

/// How long the session's thread waits on the CPU for its next job before
/// it sleeps: a caller making calls back to back (a harness loop, a
/// Python client) hands each one over without a wake-up.
const SPIN_FOR_JOB: std::time::Duration = std::time::Duration::from_micros(100);

/// A job's answer, or `None` when its thread is gone. A short command
/// answers within microseconds: waiting for it on the CPU for a moment
/// saves the futex sleep and wake-up, which cost more than the command
/// itself. Longer jobs block.
pub(crate) fn wait_for<R>(reply: &mpsc::Receiver<R>) -> Option<R> {
    let spin_until = Instant::now() + SPIN_FOR_REPLY;
    while Instant::now() < spin_until {
        match reply.try_recv() {
            Ok(answer) => return Some(answer),
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
            Err(mpsc::TryRecvError::Disconnected) => return None,
        }
    }
    reply.recv().ok()
}

/// The next job, or `None` when the session was dropped.
fn next_job(queue: &mpsc::Receiver<Job>) -> Option<Job> {
    let spin_until = Instant::now() + SPIN_FOR_JOB;
    while Instant::now() < spin_until {
        match queue.try_recv() {
            Ok(job) => return Some(job),
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
            Err(mpsc::TryRecvError::Disconnected) => return None,
        }
    }
    queue.recv().ok()
}

/// Work for the session's thread.
pub(crate) type Job = Box<dyn FnOnce(&mut SessionState) + Send>;

/// What the session's thread owns.
pub(crate) struct SessionState {
    /// The sandbox's session state: adopted before each run, updated
    /// after it, so `$` in scripts and every session see one shell.
    shared: crate::sandbox::SessionState,
    shell: Shell,
    audit: Audit,
    limits: Limits,
    /// The budget of the sink output goes to now (a stop states it).
    output_limit: u64,
    advice: Advice,
    cancel: CancelToken,
}

impl Sandbox {
    /// The folder the shell session's next command runs in: its `cd`s so
    /// far, else the spec's `cwd`, else `/` (what a surface resolves a
    /// relative path the model gives against, as the shell would). A
    /// session in a worker (process isolation) is not read across: there
    /// it is the spec's `cwd`, else `/`.
    pub fn shell_cwd(&self) -> String {
        self.replay_pending_shell_state();
        if let Some(shell) = &*self.session_state.lock() {
            return shell.cwd().to_string();
        }
        self.engine()
            .cwd
            .as_ref()
            .map_or_else(|| "/".to_string(), |cwd| cwd.to_string())
    }

    /// `path` as the shell session would read it: an absolute path as it
    /// is, a relative one joined to [`Sandbox::shell_cwd`].
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().file("/w/a.txt", "x").build()?;
    /// assert_eq!(sandbox.shell_path("a.txt"), "/a.txt");
    /// sandbox.run_shell("cd /w")?;
    /// assert_eq!(sandbox.shell_path("a.txt"), "/w/a.txt");
    /// assert_eq!(sandbox.shell_path("/etc/x"), "/etc/x");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn shell_path(&self, path: &str) -> String {
        if path.starts_with('/') {
            return path.to_string();
        }
        let cwd = self.shell_cwd();
        format!("{}/{path}", cwd.trim_end_matches('/'))
    }

    /// Opens a shell on this sandbox's VFS: output goes to `output` (and is
    /// charged to its budget), commands read `stdin`. The session's thread
    /// starts now.
    pub fn shell_session(&self, output: &Output, stdin: Stdin) -> Result<ShellSession, RunError> {
        if let crate::isolation::Backend::Worker(remote) = &self.backend {
            let session =
                crate::isolation::remote::RemoteSession::open(remote, self.parts(), output, stdin)?;
            return Ok(ShellSession {
                cancel: CancelToken::new(),
                backend: SessionBackend::Worker(Box::new(session)),
            });
        }
        let engine = self.engine();
        let limits = engine.limits.clone();
        let cancel = CancelToken::new();
        let watch = Watch::with_cancel(limits.timeout, cancel.clone());
        let launcher = Arc::new(Nester::root(engine.clone()));
        let network = goccia_vm::fetch::ShellNetwork {
            policy: engine.network.clone(),
            audit: engine.audit.clone(),
            advice: engine.advice.clone(),
            relay: engine.relay.clone(),
        };
        let context = goccia_shell::context_with_hooks(
            self.shared_vfs(),
            watch,
            limits.clone(),
            engine.audit.clone(),
            goccia_shell::Hooks {
                launcher: Some(launcher),
                host: engine.programs.0.clone(),
                network: Some(Arc::new(network)),
            },
        );
        let writer = |stream| {
            Fd::writer(HostWriter {
                output: output.clone(),
                stream,
            })
        };
        let mut shell = Shell::new(
            context,
            stdin.into_fd(&limits),
            writer(Stream::Stdout),
            writer(Stream::Stderr),
        );
        for (name, value) in &engine.env {
            shell.export(name, value);
        }
        if let Some(cwd) = &engine.cwd {
            shell.set_cwd(cwd.clone());
        }
        let state = SessionState {
            shared: self.session_state.clone(),
            shell,
            audit: engine.audit.clone(),
            limits,
            output_limit: output.budget().limit(),
            advice: engine.advice.clone(),
            cancel: cancel.clone(),
        };
        let (jobs, queue) = mpsc::channel::<Job>();
        let resident = Arc::new(Resident {
            state: parking_lot::Mutex::new(state),
            pending: AtomicUsize::new(0),
            broken: AtomicBool::new(false),
        });
        let thread_resident = resident.clone();
        std::thread::Builder::new()
            .name("goccia-shell".into())
            .stack_size(goccia_shell::THREAD_STACK)
            .spawn(move || {
                let resident = thread_resident;
                while let Some(job) = next_job(&queue) {
                    let mut state = resident.state.lock();
                    if resident.broken.load(Ordering::SeqCst) {
                        // Dropped: its answer says the session is gone.
                        break;
                    }
                    job(&mut state);
                    resident.pending.fetch_sub(1, Ordering::SeqCst);
                }
            })
            .map_err(RunError::Thread)?;
        Ok(ShellSession {
            cancel,
            backend: SessionBackend::Local(LocalSession { jobs, resident }),
        })
    }
}

impl ShellSession {
    /// Runs `job` on the session's thread; `None` if that thread is gone
    /// (a shell panic, a goccia bug) — or the shell lives in a worker,
    /// whose calls never come here.
    fn call<R: Send + 'static>(
        &self,
        job: impl FnOnce(&mut SessionState) -> R + Send + 'static,
    ) -> Option<R> {
        let (answer, reply) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |state| {
            let _ = answer.send(job(state));
        });
        let SessionBackend::Local(local) = &self.backend else {
            return None;
        };
        local.post(job).ok()?;
        wait_for(&reply)
    }

    /// A run that ended because the session's thread is gone.
    fn lost() -> ShellRun {
        let failure = Failure::new(
            goccia_core::FailureKind::HostError,
            "internal error: the shell panicked",
        );
        ShellRun {
            exit_code: failure.kind.exit_code(),
            stop: None,
            failure: Some(failure),
        }
    }

    /// Runs a whole script (a `-c` command line, a script file's text): a
    /// syntax error ends it with status 2, `exit` ends it.
    pub fn run_script(&mut self, source: &str) -> ShellRun {
        if let SessionBackend::Worker(remote) = &self.backend {
            return remote.run_script(source, &self.cancel);
        }
        self.try_run_script(source).unwrap_or_else(|_| Self::lost())
    }

    /// Runs `source` as [`ShellSession::run_script`] does, under `call`'s
    /// deadline, stdin and sinks (the session's own come back after).
    pub(crate) fn try_run_call(&mut self, source: &str, call: Call) -> Result<ShellRun, RunError> {
        if let SessionBackend::Worker(remote) = &self.backend {
            return remote.try_run_call(source, call);
        }
        let source = source.to_string();
        self.call(move |state| state.run_call(&source, call))
            .ok_or(RunError::Panicked)
    }

    /// [`ShellSession::run_script`], or `Panicked` when the session's
    /// thread is gone.
    pub(crate) fn try_run_script(&mut self, source: &str) -> Result<ShellRun, RunError> {
        let source = source.to_string();
        self.call(move |state| {
            state.begin();
            let result = state.shell.run_script(&source);
            state.conclude(result)
        })
        .ok_or(RunError::Panicked)
    }

    /// Runs `source` as the script file `path` (`BASH_SOURCE`; set `$0`
    /// with [`ShellSession::set_positional`]).
    ///
    /// ```
    /// # use goccia::{Output, OutputBudget, Sandbox, Stdin};
    /// let sandbox = Sandbox::builder().file("/s.sh", "echo \"$0 got $# args: $*\"").build()?;
    /// let (output, stdout, _) = Output::captured(OutputBudget::new(1 << 20));
    /// let mut session = sandbox.shell_session(&output, Stdin::Empty)?;
    /// session.set_positional("/s.sh", vec!["a".into(), "b".into()]);
    /// let source = String::from_utf8(sandbox.read("/s.sh")?.to_vec()).unwrap();
    /// assert_eq!(session.run_script_file("/s.sh", &source).exit_code, 0);
    /// assert_eq!(stdout.take(), b"/s.sh got 2 args: a b\n");
    /// assert!(session.known_commands().iter().any(|c| c == "grep"));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn run_script_file(&mut self, path: &str, source: &str) -> ShellRun {
        if let SessionBackend::Worker(remote) = &self.backend {
            remote.set_script_source(path);
            return remote.run_script(source, &self.cancel);
        }
        let path = path.to_string();
        self.call(move |state| state.shell.set_script_source(&path));
        self.run_script(source)
    }

    /// From now on the session writes to `output` (an isolated worker
    /// gives each call the sinks of its caller).
    pub(crate) fn set_sinks(&mut self, output: &Output) {
        let output = output.clone();
        self.call(move |state| {
            state.output_limit = output.budget().limit();
            for (fd, stream) in [(1, Stream::Stdout), (2, Stream::Stderr)] {
                let writer = HostWriter {
                    output: output.clone(),
                    stream,
                };
                state.shell.fds_mut().set(fd, Fd::writer(writer));
            }
        });
    }

    /// Names the script the session runs (`BASH_SOURCE`).
    pub(crate) fn set_script_source(&mut self, path: &str) {
        let path = path.to_string();
        self.call(move |state| state.shell.set_script_source(&path));
    }

    /// Sets `$0` and the positional parameters (`$1`, ...).
    pub fn set_positional(&mut self, arg0: &str, args: Vec<String>) {
        if let SessionBackend::Worker(remote) = &self.backend {
            return remote.set_positional(arg0, args);
        }
        let arg0 = arg0.to_string();
        self.call(move |state| state.shell.set_positional(&arg0, args));
    }

    /// Runs one interactive command line; errors do not end the session.
    /// The flag says the line ran `exit` (the session should end).
    pub fn run_line(&mut self, line: &str) -> (ShellRun, bool) {
        if let SessionBackend::Worker(remote) = &self.backend {
            return remote.run_line(line, &self.cancel);
        }
        let line = line.to_string();
        self.call(move |state| {
            state.shell.set_interactive(true);
            state.begin();
            match state.shell.run_line(&line) {
                Ok(LineStatus { status, exited }) => {
                    state.publish();
                    (ShellRun::finished(status), exited)
                }
                Err(stop) => (state.conclude(Err(stop)), false),
            }
        })
        .unwrap_or_else(|| (Self::lost(), true))
    }

    /// Ends the session (runs the EXIT trap); the final status.
    pub fn finish(&mut self) -> ShellRun {
        if let SessionBackend::Worker(remote) = &self.backend {
            return remote.finish(&self.cancel);
        }
        self.call(|state| {
            state.begin();
            let result = state.shell.finish_session();
            state.conclude(result)
        })
        .unwrap_or_else(Self::lost)
    }

    /// The token that cancels the running command (Ctrl-C), from any
    /// thread; the run ends with status 130.
    ///
    /// ```
    /// # use goccia::{Output, OutputBudget, Sandbox, Stdin};
    /// let sandbox = Sandbox::builder().build()?;
    /// let output = Output::captured(OutputBudget::new(1 << 20)).0;
    /// let mut session = sandbox.shell_session(&output, Stdin::Empty)?;
    /// let cancel = session.cancel_token();
    /// let canceller = std::thread::spawn(move || {
    ///     std::thread::sleep(std::time::Duration::from_millis(50));
    ///     cancel.cancel();
    /// });
    /// let run = session.run_script("while true; do :; done");
    /// canceller.join().unwrap();
    /// assert_eq!(run.exit_code, 130);
    /// assert!(run.cancelled());
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn cancel_token(&self) -> CancelToken {
        self.cancel.clone()
    }

    /// The shell's working directory.
    pub fn cwd(&self) -> String {
        if let SessionBackend::Worker(remote) = &self.backend {
            return remote.cwd();
        }
        self.call(|state| state.shell.cwd().to_string())
            .unwrap_or_else(|| "/".to_string())
    }

    /// Command names the shell knows (builtins, utilities, functions,
    /// aliases), for completion.
    pub fn known_commands(&self) -> Vec<String> {
        if let SessionBackend::Worker(remote) = &self.backend {
            return remote.known_commands();
        }
        self.call(|state| state.shell.known_commands())
            .unwrap_or_default()
    }

    /// Where the session's shell lives.
    pub(crate) fn backend(&self) -> &SessionBackend {
        &self.backend
    }

    /// Whether the session's worker crashed (the session died with it).
    pub(crate) fn is_stale(&self) -> bool {
        matches!(&self.backend, SessionBackend::Worker(remote) if remote.is_stale())
    }

    /// Whether `source` is an unfinished construct (`if` without `fi`, an
    /// open quote): an interactive session reads another line.
    pub fn is_incomplete(source: &str) -> bool {
        matches!(Shell::check_syntax(source), Err(error) if error.incomplete)
    }
}

impl Drop for ShellSession {
    fn drop(&mut self) {
        // Nothing can be running (calls borrow the session); this only
        // makes sure a pump or a stray wait ends promptly.
        self.cancel.cancel();
    }
}

impl SessionState {
    /// Runs `source` as a whole script under `call`'s deadline, stdin and
    /// sinks; the session's own come back after.
    pub(crate) fn run_call(&mut self, source: &str, call: Call) -> ShellRun {
        let _entered = call.span.entered();
        self.begin_with(call.watch);
        let saved = [0, 1, 2].map(|fd| self.shell.fds().get(fd).cloned());
        if let Some(bytes) = call.stdin {
            self.shell
                .fds_mut()
                .set(0, Fd::reader(BytesReader::new(bytes)));
        }
        let session_output_limit = self.output_limit;
        if let Some(output) = &call.output {
            self.output_limit = output.budget().limit();
            for (fd, stream) in [(1, Stream::Stdout), (2, Stream::Stderr)] {
                let writer = HostWriter {
                    output: output.clone(),
                    stream,
                };
                self.shell.fds_mut().set(fd, Fd::writer(writer));
            }
        }
        let result = self.shell.run_script_in(source, call.cwd, &call.env);
        for (fd, saved) in saved.into_iter().enumerate() {
            if let Some(saved) = saved {
                self.shell.fds_mut().set(fd, saved);
            }
        }
        let ran = self.conclude(result);
        self.output_limit = session_output_limit;
        ran
    }

    /// A new run: its own deadline (and cancellation) and fresh budgets.
    fn begin(&mut self) {
        self.cancel.reset();
        let watch = Watch::with_cancel(self.limits.timeout, self.cancel.clone());
        self.begin_with(watch);
    }

    /// Starts a run under `watch`, from the sandbox's session state.
    fn begin_with(&mut self, watch: Watch) {
        if let Some(shared) = &*self.shared.lock() {
            self.shell.adopt(shared);
        }
        self.shell.begin_run(watch);
    }

    /// Hands this session's state to the sandbox's other users.
    fn publish(&self) {
        let mut shared = self.shared.lock();
        match &mut *shared {
            // Into the copy handed over last time, keeping its buffers.
            Some(published) => published.clone_from(&self.shell),
            None => *shared = Some(self.shell.clone()),
        }
    }

    /// The run's outcome; the session's state goes to the sandbox's other
    /// users with `$?` as the next command sees it (130 after a
    /// cancellation, the limit's code after a stop).
    fn conclude(&mut self, result: Result<i32, Stop>) -> ShellRun {
        let stop = match result {
            Ok(status) => {
                self.publish();
                return ShellRun::finished(status);
            }
            Err(stop) => stop,
        };
        let applied = Limits {
            max_output: self.output_limit,
            ..self.limits.clone()
        };
        let mut failure = Failure::stopped(stop, &applied, &self.advice, self.shell.watch());
        let exit_code = if stop == Stop::Cancelled {
            // The terminal already shows ^C: nothing more to report.
            failure.report.clear();
            130
        } else {
            self.audit
                .record("limit", "hit", "shell", Some(failure.message.clone()));
            failure.kind.exit_code()
        };
        self.shell.set_last_status(exit_code);
        self.publish();
        ShellRun {
            exit_code,
            stop: Some(stop),
            failure: Some(failure),
        }
    }
}

/// The session [`Sandbox::run_shell`] keeps between calls, with the
/// captures its output goes to.
pub(crate) struct PersistentShell {
    pub(crate) session: ShellSession,
    pub(crate) stdout: Capture,
    pub(crate) stderr: Capture,
    pub(crate) budget: Arc<OutputBudget>,
    /// Cleared when a call's job died with the session's thread (a shell
    /// panic): the next call opens another session.
    pub(crate) alive: Arc<std::sync::atomic::AtomicBool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session of an unisolated sandbox (kept open by the caller) and
    /// its local backend.
    fn local_session() -> (Sandbox, ShellSession, LocalSession) {
        let sandbox = Sandbox::builder().build().unwrap();
        let (output, _, _) = Output::captured(OutputBudget::new(1 << 20));
        let session = sandbox.shell_session(&output, Stdin::Empty).unwrap();
        let SessionBackend::Local(local) = session.backend() else {
            panic!("an unisolated sandbox's session is local");
        };
        let local = local.clone();
        (sandbox, session, local)
    }

    /// A job that panics while it runs in place leaves the state possibly
    /// half changed: the session is over, as when its thread dies, and
    /// what is posted after it is refused (and answered as lost).
    #[test]
    fn a_panic_in_place_ends_the_session_as_its_threads_death_would() {
        let (_sandbox, _session, local) = local_session();
        let (first, then, asked) = crate::deep_stack::spawn("caller", move || {
            let fine = local.post(Box::new(|_| {})).is_ok();
            let panicked = local.post(Box::new(|_| panic!("a shell bug"))).is_ok();
            let (answer, reply) = mpsc::sync_channel::<()>(1);
            let after = local.post(Box::new(move |_| {
                let _ = answer.send(());
            }));
            (fine && panicked, after.is_err(), reply.recv().is_err())
        })
        .unwrap()
        .join()
        .unwrap();
        assert!(first, "the jobs before and at the panic ran in place");
        assert!(then, "a job after the panic is refused");
        assert!(asked, "and dropped: its answer never comes");
    }

    /// Work run in place without a job: it answers directly, only where a
    /// job would run in place, and a panic in it ends the session too.
    #[test]
    fn work_in_place_answers_directly_and_a_panic_in_it_ends_the_session() {
        let (_sandbox, _session, local) = local_session();
        assert!(
            local.run_in_place(|_| ()).is_none(),
            "an ordinary thread's stack is not deep enough: the work is not run"
        );
        let (answered, panicked, after, refused) = crate::deep_stack::spawn("caller", move || {
            let answered = local.run_in_place(|state| state.shell.cwd().to_string());
            let panicked = local.run_in_place(|_| panic!("a shell bug"));
            let after = local.run_in_place(|_| ());
            let refused = local.post(Box::new(|_| {})).is_err();
            (
                answered,
                panicked.map(|ran| ran.is_err()),
                after.is_none(),
                refused,
            )
        })
        .unwrap()
        .join()
        .unwrap();
        assert_eq!(answered.map(Result::unwrap).as_deref(), Some("/"));
        assert_eq!(panicked, Some(true), "the panic comes back as an error");
        assert!(after, "nothing runs in place after it");
        assert!(refused, "and no job is taken either");
    }
}
