//! The isolated worker (docs/isolation.md): a goccia process that confines
//! itself before it reads anything, says what held, and then runs calls
//! for its parent on a replica of the sandbox's tree. It holds no host
//! authority: `fetch` and escalations are asked of the parent, output and
//! audit events go to it as frames, and what a call changed goes back as
//! tree steps the parent checks before it takes them.
//!
//! The main thread reads frames; calls run one at a time on an executor
//! thread, so a cancellation, stdin bytes or an answer can arrive while a
//! call is running.
//!
//! - `out`: its frames to the parent, from any thread.
//! - `relay`: host commands its shell runs, asked of the parent.
//! - `hooks`: test-only misbehaviour (feature `test-hooks`).

mod hooks;
mod out;
mod relay;

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use bytes::Bytes;
use goccia_confine::{Enforcement, Layer, LayerStatus, Plan, confine_current_process};
use goccia_core::{Advice, Audit, CancelToken, Output, OutputBudget, Overflow, Setting, Watch};
use goccia_vfs::policy::{Approver, Decision, EscalationRequest, WritePolicy};
use goccia_vfs::replica::delta;
use goccia_vfs::{Quota, Vfs, VfsPath};
use goccia_vm::fetch::{FetchError, FetchRelay, FetchRequest, FetchResponse, Relay};
use goccia_vm::{Engine, ExecMode};
use parking_lot::Mutex;

use crate::isolation::steps::{Assembler, send_steps};
use crate::isolation::wire::{
    Call, Down, Hello, Init, PROTOCOL, Reply, Up, WireEscalation, WireFetchError, WireRequest,
    WireRun, WireStdin, Work, read_frame,
};
use crate::{CallOptions, Run, Sandbox, ShellRun, ShellSession, Stdin};
use out::FrameOut;

/// The worker's options, from its command line (the parent's choice,
/// before confinement: nothing of the guest can reach them).
struct Args {
    plan: Plan,
    hook: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut plan = Plan::default();
    let mut hook = None;
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let mut value = || rest.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--address-space" => {
                plan.address_space = Some(value()?.parse().map_err(|_| "a number of bytes")?)
            }
            "--open-files" => plan.open_files = value()?.parse().map_err(|_| "a number")?,
            "--leave-out" => {
                for name in value()?.split(',').filter(|name| !name.is_empty()) {
                    let layer = Layer::parse(name).ok_or_else(|| format!("no layer {name}"))?;
                    plan.leave_out.push(layer);
                }
            }
            "--hook" if cfg!(feature = "test-hooks") => hook = Some(value()?.clone()),
            other => return Err(format!("unknown worker option {other}")),
        }
    }
    Ok(Args { plan, hook })
}

/// Runs the worker: confines this process, answers `Hello`, then serves
/// calls until the parent closes the pipe. Returns the process's exit
/// code (0 when the parent ended it, 2 when confinement could not be had,
/// 3 for a protocol error).
pub fn main(args: &[String]) -> i32 {
    // A worker outliving its parent would be a process nobody watches.
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
    let args = match parse_args(args) {
        Ok(args) => args,
        Err(error) => {
            eprintln!("goccia worker: {error}");
            return 2;
        }
    };
    let report = confine_current_process(&args.plan);
    // SAFETY: descriptor 1 is the pipe to the parent, open for the
    // process's life; nothing else in a worker writes to it.
    let stdout = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(1) };
    let out = FrameOut(Arc::new(Mutex::new(stdout)));
    let layers = report
        .layers
        .iter()
        .map(|(layer, status)| {
            let reason = match status {
                LayerStatus::Enforced => None,
                LayerStatus::Unavailable { reason } => Some(reason.clone()),
            };
            (layer.name().to_string(), reason)
        })
        .collect();
    let hello = Up::Hello(Hello {
        protocol: PROTOCOL,
        layers,
    });
    if out.send(&hello).is_err() {
        return 3;
    }
    if let Enforcement::Unavailable(_) = report.enforcement() {
        return 2;
    }
    let mut input = io::stdin().lock();
    let init = match read_frame::<_, Down>(&mut input) {
        Ok(Some(Down::Init(init))) => init,
        Ok(None) => return 0,
        _ => {
            eprintln!("goccia worker: the first frame is not Init");
            return 3;
        }
    };
    match serve(*init, out, args.hook, &mut input) {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("goccia worker: {error}");
            3
        }
    }
}

/// Answers the worker waits for, by request id (a late answer to a request
/// that gave up is dropped).
#[derive(Default)]
struct Answers {
    fetches: Mutex<HashMap<u64, mpsc::Sender<Result<FetchResponse, WireFetchError>>>>,
    decisions: Mutex<HashMap<u64, mpsc::Sender<String>>>,
    hosts: Arc<self::relay::HostAnswers>,
    next: AtomicU64,
}

fn serve(
    init: Init,
    out: FrameOut,
    hook: Option<String>,
    input: &mut dyn Read,
) -> Result<(), String> {
    let answers = Arc::new(Answers::default());
    let call_start = Arc::new(Mutex::new(goccia_vfs::Snapshot::empty()));
    let sandbox = Arc::new(build(&init, &out, &answers, &call_start));
    let current = Arc::new(Mutex::new(CancelToken::new()));
    let stdins: Arc<Mutex<HashMap<u32, mpsc::Sender<Vec<u8>>>>> = Arc::default();
    let (calls, queue) = mpsc::channel::<Box<Call>>();
    let executor = Executor {
        call_start,
        sandbox: sandbox.clone(),
        out: out.clone(),
        current: current.clone(),
        stdins: stdins.clone(),
        sessions: HashMap::new(),
        hook: hook.clone(),
    };
    std::thread::Builder::new()
        .name("goccia-worker".into())
        .spawn(move || executor.run(queue))
        .map_err(|error| format!("cannot start the executor: {error}"))?;
    let limits = init.limits;
    let mut batch: Option<Assembler> = None;
    loop {
        let frame = match read_frame::<_, Down>(input) {
            Ok(Some(frame)) => frame,
            Ok(None) => return Ok(()),
            Err(error) => return Err(error.to_string()),
        };
        match frame {
            Down::Steps { steps, last } => {
                let assembler = batch.get_or_insert_with(|| {
                    Assembler::new(
                        limits.fs_quota_bytes,
                        limits.fs_node_limit.saturating_mul(4),
                    )
                });
                for step in steps {
                    assembler.push(step)?;
                }
                if last {
                    let steps = batch.take().expect("present").finish()?;
                    sandbox
                        .vfs
                        .lock()
                        .replay(&steps)
                        .map_err(|error| format!("the tree steps do not apply: {error}"))?;
                }
            }
            Down::Call(call) => calls
                .send(call)
                .map_err(|_| "the executor is gone".to_string())?,
            Down::Cancel if hook.as_deref() != Some("stall") => current.lock().cancel(),
            Down::Cancel => {}
            Down::Stdin { session, bytes } => {
                if let Some(sender) = stdins.lock().get(&session) {
                    let _ = sender.send(bytes);
                }
            }
            Down::StdinEnd { session } => {
                stdins.lock().remove(&session);
            }
            Down::Fetched { id, answer } => {
                if let Some(waiter) = answers.fetches.lock().remove(&id) {
                    let _ = waiter.send(answer);
                }
            }
            Down::HostEdits { id, steps, last } => {
                if let Some(waiter) = answers.hosts.lock().get(&id) {
                    let _ = waiter.send(self::relay::HostMessage::Edits(steps, last));
                }
            }
            Down::HostDone { id, outcome } => {
                if let Some(waiter) = answers.hosts.lock().get(&id) {
                    let _ = waiter.send(self::relay::HostMessage::Done(outcome));
                }
            }
            Down::Decided { id, decision } => {
                if let Some(waiter) = answers.decisions.lock().remove(&id) {
                    let _ = waiter.send(decision);
                }
            }
            Down::Init(_) => return Err("a second Init".to_string()),
        }
    }
}

/// The worker's sandbox: an empty tree (the first steps fill it), the
/// parent's limits, policy and environment, and the relays for what only
/// the parent may do.
fn build(
    init: &Init,
    out: &FrameOut,
    answers: &Arc<Answers>,
    call_start: &Arc<Mutex<goccia_vfs::Snapshot>>,
) -> Sandbox {
    let limits = init.limits.clone();
    let mut vfs = Vfs::new(Quota {
        max_bytes: limits.fs_quota_bytes,
        max_nodes: limits.fs_node_limit,
    });
    if init.held.is_some() {
        vfs.charge_what_others_hold();
    }
    if let Some(wire) = &init.policy {
        let mode = wire.mode;
        let roots = wire
            .roots
            .iter()
            .filter_map(|root| VfsPath::parse(root).ok());
        let mut policy = WritePolicy::new(mode, [], roots);
        if wire.approver {
            policy = policy.with_approver(Arc::new(RemoteApprover {
                out: out.clone(),
                answers: answers.clone(),
            }));
        }
        vfs.set_policy(Some(policy));
    }
    let advice_table = init.advice.clone();
    let advice = Advice::new(move |setting| {
        let index = Setting::ALL.iter().position(|s| *s == setting)?;
        advice_table.get(index).cloned().flatten()
    });
    let audit = if init.audit {
        Audit::new(Some(Box::new(AuditLines {
            out: out.clone(),
            line: Vec::new(),
        })))
    } else {
        Audit::default()
    };
    let engine = Engine {
        limits,
        mode: if init.bytecode {
            ExecMode::Bytecode
        } else {
            ExecMode::Interpreted
        },
        network: goccia_core::NetPolicy::default(),
        relay: FetchRelay(Some(Arc::new(RemoteFetch {
            out: out.clone(),
            answers: answers.clone(),
        }))),
        audit,
        advice,
        env: init.env.clone(),
        // The parent checked it; a path that does not parse starts at `/`.
        cwd: init.cwd.as_deref().and_then(|cwd| VfsPath::parse(cwd).ok()),
        programs: if init.host_commands.is_empty() {
            Default::default()
        } else {
            goccia_vm::HostPrograms(Some(Arc::new(self::relay::RemoteHost {
                names: init.host_commands.clone(),
                out: out.clone(),
                answers: answers.hosts.clone(),
                call_start: call_start.clone(),
                next: AtomicU64::new(1),
                max_bytes: init.limits.fs_quota_bytes,
                max_steps: init.limits.fs_node_limit.saturating_mul(4),
            })))
        },
    };
    Sandbox::new(vfs, Vec::new(), engine)
}

/// Runs calls one after another.
struct Executor {
    /// The tree as the running call started (host commands send the
    /// parent what changed since).
    call_start: Arc<Mutex<goccia_vfs::Snapshot>>,
    sandbox: Arc<Sandbox>,
    out: FrameOut,
    /// What a `Cancel` frame cancels: the running call's token.
    current: Arc<Mutex<CancelToken>>,
    stdins: Arc<Mutex<HashMap<u32, mpsc::Sender<Vec<u8>>>>>,
    sessions: HashMap<u32, ShellSession>,
    hook: Option<String>,
}

impl Executor {
    fn run(mut self, queue: mpsc::Receiver<Box<Call>>) {
        while let Ok(call) = queue.recv() {
            // A hook waits for the first call that runs guest code.
            let guest = matches!(
                call.work,
                Work::Script { .. } | Work::RunScript { .. } | Work::Line { .. }
            );
            let hook = if guest { self.hook.take() } else { None };
            if let Some(hook) = &hook {
                self::hooks::on_call(hook, &self.out);
            }
            let before = self.sandbox.vfs.lock().snapshot();
            *self.call_start.lock() = before.clone();
            let reply = self.execute(*call);
            if let Some(hook) = &hook {
                self::hooks::before_done(hook);
            }
            let after = self.sandbox.vfs.lock().snapshot();
            let steps = delta(&before, &after);
            // No steps frame when nothing changed: `Done` ends the call.
            let sent = if steps.is_empty() {
                Ok(())
            } else {
                send_steps(&steps, |steps, last| {
                    self.out.send(&Up::Steps { steps, last })
                })
            }
            .and_then(|()| self.out.send(&Up::Done(reply)));
            if sent.is_err() {
                // The parent is gone: nothing to do but end.
                std::process::exit(0);
            }
        }
    }

    /// A fresh token for the call, the one a `Cancel` frame cancels.
    fn cancellable(&self) -> CancelToken {
        let token = CancelToken::new();
        *self.current.lock() = token.clone();
        token
    }

    fn execute(&mut self, call: Call) -> Reply {
        let output = self.output(call.output_limit, call.truncate);
        let timeout = Duration::from_millis(call.timeout_ms);
        let stated = (
            Duration::from_millis(call.allowed_ms),
            if call.own_timeout {
                goccia_core::DeadlineSource::Call
            } else {
                goccia_core::DeadlineSource::Limit
            },
        );
        match call.work {
            Work::Script { entry, inline } => {
                let cancel = self.cancellable();
                let options = CallOptions::new()
                    .deadline(timeout, stated.0, stated.1)
                    .cancel(&cancel)
                    .stream(&output);
                let ran = match inline {
                    Some(source) => self.sandbox.run_code_with(&source, &options),
                    None => self.sandbox.run_script_with(&entry, &options),
                };
                match ran {
                    Ok(run) => Reply::Run(wire_run(&run, &output)),
                    Err(error) => Reply::Refused(error.to_string()),
                }
            }
            Work::Open { session, stdin } => {
                let stdin = match stdin {
                    WireStdin::Empty => Stdin::Empty,
                    WireStdin::Bytes(bytes) => Stdin::Bytes(Bytes::from(bytes)),
                    WireStdin::Stream => {
                        let (sender, receiver) = mpsc::channel();
                        self.stdins.lock().insert(session, sender);
                        Stdin::Reader(Box::new(ChannelReader {
                            receiver,
                            pending: Vec::new(),
                        }))
                    }
                };
                match self.sandbox.shell_session(&output, stdin) {
                    Ok(opened) => {
                        self.sessions.insert(session, opened);
                        Reply::Unit
                    }
                    Err(error) => Reply::Refused(error.to_string()),
                }
            }
            Work::Close { session } => {
                self.sessions.remove(&session);
                self.stdins.lock().remove(&session);
                Reply::Unit
            }
            work => self.session_call(work, output, timeout, stated),
        }
    }

    fn session_call(
        &mut self,
        work: Work,
        output: Output,
        timeout: Duration,
        stated: (Duration, goccia_core::DeadlineSource),
    ) -> Reply {
        let id = match &work {
            Work::RunScript { session, .. }
            | Work::ScriptSource { session, .. }
            | Work::Positional { session, .. }
            | Work::Line { session, .. }
            | Work::Finish { session }
            | Work::Cwd { session }
            | Work::Commands { session } => *session,
            _ => unreachable!("handled by execute"),
        };
        let call_token = self.cancellable();
        let current = self.current.clone();
        let Some(session) = self.sessions.get_mut(&id) else {
            return Reply::Refused("internal error: the shell panicked".to_string());
        };
        let use_session_token = |session: &ShellSession| {
            *current.lock() = session.cancel_token();
        };
        match work {
            Work::RunScript {
                source,
                stdin,
                own_deadline: true,
                cwd,
                env,
                ..
            } => {
                let cwd = match cwd.as_deref().map(VfsPath::parse).transpose() {
                    Ok(cwd) => cwd,
                    Err(error) => return Reply::Refused(format!("cwd: {error}")),
                };
                let call = crate::call::Call {
                    span: tracing::Span::current(),
                    watch: Watch::with_cancel(timeout, call_token).stated(stated.0, stated.1),
                    stdin: stdin.map(Bytes::from),
                    output: Some(output.clone()),
                    cwd,
                    env,
                };
                let reply = match session.try_run_call(&source, call) {
                    Ok(ran) => Reply::Run(wire_shell(&ran, &output)),
                    Err(error) => Reply::Refused(error.to_string()),
                };
                output.budget().finish();
                reply
            }
            Work::RunScript { source, .. } => {
                session.set_sinks(&output);
                use_session_token(session);
                let ran = session.run_script(&source);
                output.budget().finish();
                Reply::Run(wire_shell(&ran, &output))
            }
            Work::Line { line, .. } => {
                session.set_sinks(&output);
                use_session_token(session);
                let (ran, exited) = session.run_line(&line);
                output.budget().finish();
                Reply::Line {
                    run: wire_shell(&ran, &output),
                    exited,
                }
            }
            Work::Finish { .. } => {
                session.set_sinks(&output);
                use_session_token(session);
                let ran = session.finish();
                output.budget().finish();
                Reply::Run(wire_shell(&ran, &output))
            }
            Work::ScriptSource { path, .. } => {
                session.set_script_source(&path);
                Reply::Unit
            }
            Work::Positional { arg0, args, .. } => {
                session.set_positional(&arg0, args);
                Reply::Unit
            }
            Work::Cwd { .. } => Reply::Text(session.cwd()),
            Work::Commands { .. } => Reply::Names(session.known_commands()),
            _ => unreachable!("handled by execute"),
        }
    }

    /// The call's output: frames to the parent, under a budget of what the
    /// caller's budget has left.
    fn output(&self, limit: u64, truncate: bool) -> Output {
        let overflow = if truncate {
            Overflow::Truncate
        } else {
            Overflow::Fail
        };
        let writer = |stderr| FrameWriter {
            out: self.out.clone(),
            stderr,
        };
        Output::to_writers(
            writer(false),
            writer(true),
            OutputBudget::with_overflow(limit, overflow),
        )
    }
}

fn wire_run(run: &Run, output: &Output) -> WireRun {
    WireRun {
        exit_code: run.exit_code,
        failure: run.failure.clone(),
        stop: None,
        result: run.result.as_ref().map(ToString::to_string),
        memory_used: run.memory_used,
        truncated: output.budget().truncated(),
    }
}

fn wire_shell(ran: &ShellRun, output: &Output) -> WireRun {
    WireRun {
        exit_code: ran.exit_code,
        failure: ran.failure.clone(),
        stop: ran.stop,
        result: None,
        memory_used: None,
        truncated: output.budget().truncated(),
    }
}

/// Guest output as frames.
struct FrameWriter {
    out: FrameOut,
    stderr: bool,
}

impl Write for FrameWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for piece in buf.chunks(crate::isolation::wire::CHUNK) {
            self.out.send(&Up::Output {
                stderr: self.stderr,
                bytes: piece.to_vec(),
            })?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The audit trail's JSON lines, each as a frame.
struct AuditLines {
    out: FrameOut,
    line: Vec<u8>,
}

impl Write for AuditLines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.line.extend_from_slice(buf);
        while let Some(end) = self.line.iter().position(|byte| *byte == b'\n') {
            let line: Vec<u8> = self.line.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]).into_owned();
            self.out.send(&Up::Audit(text))?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A session's stdin, fed by `Stdin` frames; ends when the parent says so.
struct ChannelReader {
    receiver: mpsc::Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pending.is_empty() {
            match self.receiver.recv() {
                Ok(bytes) => self.pending = bytes,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// `fetch` asked of the parent.
struct RemoteFetch {
    out: FrameOut,
    answers: Arc<Answers>,
}

impl Relay for RemoteFetch {
    fn fetch(&self, request: FetchRequest, watch: &Watch) -> Result<FetchResponse, FetchError> {
        let id = self.answers.next.fetch_add(1, Ordering::Relaxed);
        let (sender, receiver) = mpsc::channel();
        self.answers.fetches.lock().insert(id, sender);
        let wire = WireRequest {
            method: request.method,
            url: request.url.to_string(),
            headers: request.headers,
            body: request.body,
            follow_redirects: request.follow_redirects,
            keep_method: request.keep_method,
        };
        if self.out.send(&Up::Fetch { id, request: wire }).is_err() {
            return Err(FetchError::Failed("the parent is gone".to_string()));
        }
        loop {
            match receiver.recv_timeout(Duration::from_millis(10)) {
                Ok(answer) => return from_wire_fetch(answer),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(stop) = watch.check() {
                        self.answers.fetches.lock().remove(&id);
                        return Err(FetchError::Stopped(stop));
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(FetchError::Failed("the parent is gone".to_string()));
                }
            }
        }
    }
}

fn from_wire_fetch(
    answer: Result<FetchResponse, WireFetchError>,
) -> Result<FetchResponse, FetchError> {
    match answer {
        Ok(response) => Ok(response),
        Err(WireFetchError::Refused(message)) => Err(FetchError::Refused(message)),
        Err(WireFetchError::Failed(message)) => Err(FetchError::Failed(message)),
        Err(WireFetchError::TooLarge { limit, advice }) => {
            Err(FetchError::TooLarge { limit, advice })
        }
        Err(WireFetchError::Stopped(stop)) => Err(FetchError::Stopped(stop)),
    }
}

/// Escalations asked of the parent's approver.
struct RemoteApprover {
    out: FrameOut,
    answers: Arc<Answers>,
}

impl Approver for RemoteApprover {
    fn decide(&self, request: &EscalationRequest) -> Decision {
        let id = self.answers.next.fetch_add(1, Ordering::Relaxed);
        let (sender, receiver) = mpsc::channel();
        self.answers.decisions.lock().insert(id, sender);
        let wire = WireEscalation {
            requested: request.requested_mode,
            current: request.current_mode,
            justification: request.justification.clone(),
            subject: request.subject,
            detail: request.detail.clone(),
        };
        if self.out.send(&Up::Escalate { id, request: wire }).is_err() {
            return Decision::Unavailable;
        }
        match receiver.recv().as_deref() {
            Ok("allowed-once") => Decision::AllowedOnce,
            Ok("rejected") => Decision::Rejected,
            Ok("cancelled") => Decision::Cancelled,
            _ => Decision::Unavailable,
        }
    }
}
