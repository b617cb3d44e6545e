//! Sandbox calls through a worker: a script run, and shell sessions whose
//! shell lives in the worker. Each call is one [`Link::call`]; what comes
//! back is turned into the same [`Run`] and [`ShellRun`] values an
//! in-process call gives, and a worker that failed the call is reported
//! as an isolation crash (or a timeout, when it outran its deadline and
//! was killed).

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use goccia_core::{CancelToken, FailureKind, Output, Stop, Watch};
use goccia_vfs::SharedVfs;
use goccia_vm::{Engine, Failure};
use parking_lot::Mutex;

use super::link::{CallContext, Link, LinkError, Starting};
use crate::call::{Call, Stdin};
use crate::error::RunError;
use crate::isolation::wire::{Down, Reply, WireRun, WireStdin, Work};
use crate::isolation::{Confinement, WorkerProgram};
use crate::run::{Run, ShellRun};

/// A sandbox's worker: started when the sandbox is built (ready by its
/// first call), started again by the call after a crash (its sessions are
/// then gone), ended with the sandbox.
pub(crate) struct Remote {
    /// `Isolation::Process` of the program the worker runs.
    isolation: crate::isolation::Isolation,
    program: WorkerProgram,
    slot: Mutex<Option<Link>>,
    /// A worker started ahead of the first call, not yet heard from.
    starting: Mutex<Option<Starting>>,
    /// Counts the workers started, so a session knows whether the worker
    /// it was opened on is still the one running.
    generation: AtomicU64,
    next_session: AtomicU32,
    /// What the last worker's confinement held.
    confinement: Mutex<Option<Confinement>>,
    /// Whether the tree charges what it removed but others hold (a child).
    held: bool,
}

impl Remote {
    pub(crate) fn new(program: WorkerProgram, held: bool) -> Arc<Remote> {
        Arc::new(Remote {
            isolation: crate::isolation::Isolation::Process(program.clone()),
            program,
            slot: Mutex::new(None),
            starting: Mutex::new(None),
            generation: AtomicU64::new(0),
            next_session: AtomicU32::new(1),
            confinement: Mutex::new(None),
            held,
        })
    }

    /// `Isolation::Process` of the worker's program.
    pub(crate) fn isolation(&self) -> &crate::isolation::Isolation {
        &self.isolation
    }

    /// What confinement held for this sandbox's worker (none started yet:
    /// `None`).
    pub(crate) fn confinement(&self) -> Option<Confinement> {
        self.confinement.lock().clone()
    }

    /// Starts the worker now, for a sandbox with `limits` (and host
    /// commands when `host_commands`), so it confines itself while the
    /// sandbox is being seeded; its first call finishes what this began.
    /// A worker that cannot be started is not remembered: the first call
    /// tries again and reports why.
    pub(crate) fn start(&self, limits: &goccia_core::Limits, host_commands: bool) {
        let mut starting = self.starting.lock();
        if starting.is_none() && self.slot.lock().is_none() {
            *starting = Link::start(&self.program, limits, host_commands).ok();
        }
    }

    /// Runs `work` through the worker (started if there is none) and
    /// returns the worker generation that ran it.
    fn call(
        &self,
        sandbox: &SandboxParts,
        output: &Output,
        watch: &Watch,
        work: Work,
    ) -> Result<(Reply, u64), LinkError> {
        let mut slot = self.slot.lock();
        if slot.is_none() {
            let policy = sandbox.vfs.lock().policy();
            let started = match self.starting.lock().take() {
                Some(started) => started,
                None => {
                    // A test hook misbehaves in the sandbox's first worker
                    // only, so the tests can see what replaces it.
                    let mut program = self.program.clone();
                    if self.generation.load(Ordering::SeqCst) > 0 {
                        program.hook = None;
                    }
                    Link::start(&program, &sandbox.engine.limits, sandbox.host.is_some())?
                }
            };
            let link = started.ready(
                &sandbox.engine,
                policy.as_ref(),
                self.held,
                sandbox.host.as_ref(),
            )?;
            let confinement = link.confinement.clone();
            sandbox.engine.audit.record(
                "isolation",
                "confine",
                confinement.enforcement,
                Some(confinement.layers.join(", ")),
            );
            *self.confinement.lock() = Some(confinement);
            self.generation.fetch_add(1, Ordering::SeqCst);
            *slot = Some(link);
        }
        let link = slot.as_mut().expect("started above");
        let policy = sandbox.vfs.lock().policy();
        let context = CallContext {
            vfs: &sandbox.vfs,
            engine: &sandbox.engine,
            output,
            watch,
            host: sandbox.host.as_ref(),
        };
        let result = link.call(&context, policy.as_ref(), work);
        if result.is_err() {
            // A worker that failed a call is never used again.
            *slot = None;
        }
        result.map(|reply| (reply, self.generation.load(Ordering::SeqCst)))
    }
}

/// What a call needs of the sandbox, owned so a session can outlive the
/// borrow it was opened from.
#[derive(Clone)]
pub(crate) struct SandboxParts {
    pub(crate) vfs: SharedVfs,
    pub(crate) engine: Engine,
    pub(crate) host: Option<Arc<goccia_host_commands::HostRunner>>,
}

/// The failure of a call whose worker crashed or was killed.
fn lost(error: LinkError, sandbox: &SandboxParts, watch: &Watch) -> Failure {
    match error {
        LinkError::Crash(why) => {
            sandbox
                .engine
                .audit
                .record("isolation", "refuse", "worker", Some(why.clone()));
            Failure::new(
                FailureKind::IsolationCrash,
                format!("isolation crash: {why}; nothing it reported was kept"),
            )
        }
        LinkError::Killed => {
            let mut failure = Failure::stopped(
                Stop::DEADLINE,
                &sandbox.engine.limits,
                &sandbox.engine.advice,
                watch,
            );
            failure.message.push_str(
                " (the isolated worker did not stop within 250 ms and was killed; nothing it reported was kept)",
            );
            failure.report = format!("goccia: {}\n", failure.message);
            failure
        }
        LinkError::Unavailable(why) => {
            Failure::new(FailureKind::Usage, format!("sandbox unavailable: {why}"))
        }
    }
}

fn failure_of(wire: &WireRun) -> Option<Failure> {
    wire.failure.clone()
}

fn shell_run(wire: &WireRun, output: &Output) -> ShellRun {
    if wire.truncated {
        output.budget().note_truncated();
    }
    ShellRun {
        exit_code: wire.exit_code,
        stop: wire.stop,
        failure: failure_of(wire),
    }
}

fn failed_shell_run(failure: Failure) -> ShellRun {
    ShellRun {
        exit_code: failure.kind.exit_code(),
        stop: None,
        failure: Some(failure),
    }
}

/// A script run through the worker.
pub(crate) fn run_script(
    remote: &Remote,
    parts: &SandboxParts,
    entry: &str,
    inline: Option<String>,
    output: &Output,
    watch: Watch,
) -> Result<Run, RunError> {
    let started = Instant::now();
    let work = Work::Script {
        entry: entry.to_string(),
        inline,
    };
    let result = remote.call(parts, output, &watch, work);
    output.budget().finish();
    let (exit_code, failure, result, memory_used) = match result {
        Ok((Reply::Run(wire), _)) => {
            if wire.truncated {
                output.budget().note_truncated();
            }
            let result = wire
                .result
                .as_deref()
                .and_then(|text| serde_json::from_str(text).ok());
            (wire.exit_code, failure_of(&wire), result, wire.memory_used)
        }
        Ok((Reply::Refused(why), _)) => {
            let failure = Failure::new(FailureKind::HostError, why);
            (failure.kind.exit_code(), Some(failure), None, None)
        }
        Ok(_) => {
            let failure = lost(
                LinkError::Crash("answered a script with something else".into()),
                parts,
                &watch,
            );
            (failure.kind.exit_code(), Some(failure), None, None)
        }
        Err(LinkError::Unavailable(why)) => return Err(RunError::SandboxUnavailable(why)),
        Err(error) => {
            let failure = lost(error, parts, &watch);
            (failure.kind.exit_code(), Some(failure), None, None)
        }
    };
    Ok(Run {
        exit_code,
        result: result.filter(|_| failure.is_none()),
        failure,
        stdout: Vec::new(),
        stderr: Vec::new(),
        duration: started.elapsed(),
        memory_used,
        output_truncated: output.budget().truncated(),
    })
}

/// Feeds a session's stdin from a host stream, as frames.
fn pump(mut reader: Box<dyn Read + Send>, sender: std::sync::mpsc::Sender<Down>, session: u32) {
    std::thread::spawn(move || {
        let mut buffer = vec![0u8; 64 << 10];
        loop {
            match reader.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let bytes = buffer[..n].to_vec();
                    if sender.send(Down::Stdin { session, bytes }).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = sender.send(Down::StdinEnd { session });
    });
}

/// A shell session living in the worker.
pub(crate) struct RemoteSession {
    remote: Arc<Remote>,
    parts: SandboxParts,
    output: Output,
    id: u32,
    generation: u64,
}

impl RemoteSession {
    /// Opens a shell session in the worker (started if there is none).
    pub(crate) fn open(
        remote: &Arc<Remote>,
        parts: SandboxParts,
        output: &Output,
        stdin: Stdin,
    ) -> Result<RemoteSession, RunError> {
        let id = remote.next_session.fetch_add(1, Ordering::Relaxed);
        let (wire_stdin, reader) = match stdin {
            Stdin::Empty => (WireStdin::Empty, None),
            Stdin::Bytes(bytes) => (WireStdin::Bytes(bytes.to_vec()), None),
            Stdin::Reader(reader) => (WireStdin::Stream, Some(reader)),
        };
        let watch = Watch::new(parts.engine.limits.timeout);
        let work = Work::Open {
            session: id,
            stdin: wire_stdin,
        };
        let generation = match remote.call(&parts, output, &watch, work) {
            Ok((Reply::Unit, generation)) => generation,
            Ok((Reply::Refused(why), _)) => {
                return Err(RunError::Thread(std::io::Error::other(why)));
            }
            Ok(_) => return Err(RunError::Panicked),
            Err(LinkError::Unavailable(why)) => return Err(RunError::SandboxUnavailable(why)),
            Err(error) => {
                let message = lost(error, &parts, &watch).message;
                return Err(RunError::Thread(std::io::Error::other(message)));
            }
        };
        if let Some(reader) = reader {
            let sender = remote
                .slot
                .lock()
                .as_ref()
                .map(Link::stdin_sender)
                .ok_or(RunError::Panicked)?;
            pump(reader, sender, id);
        }
        Ok(RemoteSession {
            remote: remote.clone(),
            parts,
            output: output.clone(),
            id,
            generation,
        })
    }

    /// Whether the worker this session lived in is gone.
    pub(crate) fn is_stale(&self) -> bool {
        self.remote.generation.load(Ordering::SeqCst) != self.generation
            || self.remote.slot.lock().is_none()
    }

    /// One call in this session; `None` when the worker it was opened on is
    /// gone (a crash started another: the session did not survive it).
    fn call(&self, work: Work, output: &Output, watch: &Watch) -> Result<Reply, Failure> {
        if self.remote.generation.load(Ordering::SeqCst) != self.generation {
            return Err(Failure::new(
                FailureKind::IsolationCrash,
                "isolation crash: the worker this shell session lived in is gone",
            ));
        }
        match self.remote.call(&self.parts, output, watch, work) {
            Ok((reply, generation)) if generation == self.generation => Ok(reply),
            Ok(_) => Err(Failure::new(
                FailureKind::IsolationCrash,
                "isolation crash: the worker this shell session lived in is gone",
            )),
            Err(error) => Err(lost(error, &self.parts, watch)),
        }
    }

    /// The session's own deadline for a run, from `cancel` (reset first,
    /// as an in-process session does at the start of each run).
    fn session_watch(&self, cancel: &CancelToken) -> Watch {
        cancel.reset();
        Watch::with_cancel(self.parts.engine.limits.timeout, cancel.clone())
    }

    fn run(&self, work: Work, output: &Output, watch: &Watch) -> ShellRun {
        match self.call(work, output, watch) {
            Ok(Reply::Run(wire)) => shell_run(&wire, output),
            Ok(Reply::Refused(_)) | Ok(_) => failed_shell_run(Failure::new(
                FailureKind::HostError,
                "internal error: the shell panicked",
            )),
            Err(failure) => failed_shell_run(failure),
        }
    }

    pub(crate) fn run_script(&self, source: &str, cancel: &CancelToken) -> ShellRun {
        let watch = self.session_watch(cancel);
        let work = Work::RunScript {
            session: self.id,
            source: source.to_string(),
            stdin: None,
            own_deadline: false,
            cwd: None,
            env: Vec::new(),
        };
        self.run(work, &self.output, &watch)
    }

    pub(crate) fn try_run_call(&self, source: &str, call: Call) -> Result<ShellRun, RunError> {
        let output = call.output.clone().unwrap_or_else(|| self.output.clone());
        let work = Work::RunScript {
            session: self.id,
            source: source.to_string(),
            stdin: call.stdin.map(|bytes| bytes.to_vec()),
            own_deadline: true,
            cwd: call.cwd.map(|cwd| cwd.to_string()),
            env: call.env,
        };
        match self.call(work, &output, &call.watch) {
            Ok(Reply::Run(wire)) => Ok(shell_run(&wire, &output)),
            Ok(_) => Err(RunError::Panicked),
            Err(failure) if failure.kind == FailureKind::IsolationCrash => {
                Ok(failed_shell_run(failure))
            }
            Err(failure) => Ok(ShellRun {
                exit_code: failure.kind.exit_code(),
                stop: (failure.kind == FailureKind::Timeout).then_some(Stop::DEADLINE),
                failure: Some(failure),
            }),
        }
    }

    pub(crate) fn set_script_source(&self, path: &str) {
        let work = Work::ScriptSource {
            session: self.id,
            path: path.to_string(),
        };
        let _ = self.call(work, &self.output, &self.quick_watch());
    }

    pub(crate) fn set_positional(&self, arg0: &str, args: Vec<String>) {
        let work = Work::Positional {
            session: self.id,
            arg0: arg0.to_string(),
            args,
        };
        let _ = self.call(work, &self.output, &self.quick_watch());
    }

    pub(crate) fn run_line(&self, line: &str, cancel: &CancelToken) -> (ShellRun, bool) {
        let watch = self.session_watch(cancel);
        let work = Work::Line {
            session: self.id,
            line: line.to_string(),
        };
        match self.call(work, &self.output, &watch) {
            Ok(Reply::Line { run, exited }) => (shell_run(&run, &self.output), exited),
            Ok(_) => (
                failed_shell_run(Failure::new(
                    FailureKind::HostError,
                    "internal error: the shell panicked",
                )),
                true,
            ),
            Err(failure) => (failed_shell_run(failure), true),
        }
    }

    pub(crate) fn finish(&self, cancel: &CancelToken) -> ShellRun {
        let watch = self.session_watch(cancel);
        self.run(Work::Finish { session: self.id }, &self.output, &watch)
    }

    pub(crate) fn cwd(&self) -> String {
        match self.call(
            Work::Cwd { session: self.id },
            &self.output,
            &self.quick_watch(),
        ) {
            Ok(Reply::Text(cwd)) => cwd,
            _ => "/".to_string(),
        }
    }

    pub(crate) fn known_commands(&self) -> Vec<String> {
        match self.call(
            Work::Commands { session: self.id },
            &self.output,
            &self.quick_watch(),
        ) {
            Ok(Reply::Names(names)) => names,
            _ => Vec::new(),
        }
    }

    /// The deadline of a call that runs no guest code.
    fn quick_watch(&self) -> Watch {
        Watch::new(self.parts.engine.limits.timeout)
    }
}

impl Drop for RemoteSession {
    fn drop(&mut self) {
        // The worker forgets the session, unless another call holds the
        // worker (it then ends with the sandbox).
        if self.remote.generation.load(Ordering::SeqCst) != self.generation {
            return;
        }
        let Some(mut slot) = self.remote.slot.try_lock() else {
            return;
        };
        if let Some(link) = slot.as_mut() {
            let context = CallContext {
                vfs: &self.parts.vfs,
                engine: &self.parts.engine,
                output: &self.output,
                watch: &Watch::new(std::time::Duration::from_secs(5)),
                host: self.parts.host.as_ref(),
            };
            let policy = self.parts.vfs.lock().policy();
            if link
                .call(&context, policy.as_ref(), Work::Close { session: self.id })
                .is_err()
            {
                *slot = None;
            }
        }
    }
}
