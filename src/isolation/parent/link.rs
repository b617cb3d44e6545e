//! The parent's side of one worker: spawning it, checking what it says
//! held, and running calls through it while keeping every host authority
//! here — the tree and its baseline, `fetch` under the allow-list, the
//! approver, output accounting, the deadline, and the last word on what a
//! call changed. A worker that breaks the protocol, says something no
//! honest worker says, or dies is killed and the call is an isolation
//! crash; nothing it sent is kept.

use std::sync::{Arc, OnceLock, mpsc};
use std::time::{Duration, Instant};

use goccia_confine::{Enforcement, Layer, LayerStatus, Report};
use goccia_core::{Output, Overflow, Setting, Stream, Watch};
use goccia_vfs::policy::{Decision, EscalationRequest, PolicyMode, WritePolicy};
use goccia_vfs::replica::{Step, delta};
use goccia_vfs::{Quota, SharedVfs, Vfs};
use goccia_vm::Engine;
use goccia_vm::fetch::{FetchContext, FetchError, FetchRequest};
use parking_lot::Mutex;

use super::pipes::{reader, tail, writer};
use super::spawn::{self, WorkerProcess};
use crate::isolation::steps::{Assembler, send_steps};
use crate::isolation::wire::{
    Call, Down, FrameError, Init, PROTOCOL, Reply, Up, WireEscalation, WireFetchError, WirePolicy,
    WireRequest, Work,
};
use crate::isolation::{Confinement, WorkerProgram};

/// How long a worker has to stop by itself after its deadline or a
/// cancellation before it is killed.
pub const GRACE: Duration = Duration::from_millis(250);

/// How long a new worker has to say `Hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// Output a worker may send past the budget it was given: truncate mode's
/// marker line.
const MARKER_SLACK: u64 = 128;

/// Why a call through a worker did not come back with an answer.
#[derive(Debug, Clone)]
pub(crate) enum LinkError {
    /// Confinement cannot be had: nothing ran.
    Unavailable(String),
    /// The worker died or broke the protocol.
    Crash(String),
    /// The worker outran the deadline by the grace and was killed.
    Killed,
}

/// The first verdict of this process, reused by every later worker: a
/// refusal is not retried, and a later worker must hold every layer the
/// first one held.
static VERDICT: OnceLock<Result<Vec<Layer>, String>> = OnceLock::new();

/// One live worker.
pub(crate) struct Link {
    /// Killed, and reaped off the caller's path, when the link is dropped.
    child: WorkerProcess,
    down: mpsc::Sender<Down>,
    up: mpsc::Receiver<Result<Up, FrameError>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// What confinement held, as checked here.
    pub(crate) confinement: Confinement,
    /// The worker's tree as this side knows it: the next call sends only
    /// what differs from it.
    mirror: Vfs,
    /// Set once the link is unusable (a kill, a crash).
    dead: Option<String>,
    /// This side of the socket a worker sends host commands' pipe ends
    /// over (only when the sandbox has host commands).
    host_socket: Option<std::os::fd::OwnedFd>,
}

/// A worker whose process is started and confining itself, not yet heard
/// from: what [`Link::start`] gives, and [`Starting::ready`] finishes. In
/// between, the caller does its own work (seeding the tree, reading the
/// script) while the worker starts.
pub(crate) struct Starting {
    link: Link,
}

/// What a call needs of its sandbox.
pub(crate) struct CallContext<'a> {
    /// The tree the call runs on (and that its changes land in).
    pub vfs: &'a SharedVfs,
    /// The network policy, audit trail and advice.
    pub engine: &'a Engine,
    /// Where its output goes.
    pub output: &'a Output,
    /// Its deadline and cancellation.
    pub watch: &'a Watch,
    /// The sandbox's host commands, run here for the worker.
    pub host: Option<&'a Arc<goccia_host_commands::HostRunner>>,
}

impl Link {
    /// Starts a worker process for a sandbox with `limits` (and a socket
    /// for host commands when `host_commands`), without waiting for it.
    pub(crate) fn start(
        program: &WorkerProgram,
        limits: &goccia_core::Limits,
        host_commands: bool,
    ) -> Result<Starting, LinkError> {
        if let Some(Err(reason)) = VERDICT.get() {
            return Err(LinkError::Unavailable(reason.clone()));
        }
        let address_space = crate::isolation::command_line::address_space(limits);
        let mut args = program.args.clone();
        args.push(crate::isolation::command_line::WORKER_ARG.into());
        args.extend([
            "--address-space".into(),
            address_space.to_string().into(),
            "--open-files".into(),
            "64".into(),
        ]);
        if !program.leave_out.is_empty() {
            let names: Vec<&str> = program.leave_out.iter().map(|l| l.name()).collect();
            args.extend(["--leave-out".into(), names.join(",").into()]);
        }
        if let Some(hook) = &program.hook {
            args.extend(["--hook".into(), hook.into()]);
        }
        // Host commands: the worker's end of a socket pair at descriptor 3.
        let host_socket = match host_commands {
            true => Some(crate::isolation::fds::socketpair().map_err(|error| {
                LinkError::Unavailable(format!("cannot make the host-command socket: {error}"))
            })?),
            false => None,
        };
        let spawned = spawn::spawn(
            program,
            &args,
            host_socket.as_ref().map(|(_, theirs)| theirs),
        );
        // Their end now lives in the worker only.
        let host_socket = host_socket.map(|(ours, _theirs)| ours);
        let (child, pipes) = spawned.map_err(|error| {
            LinkError::Unavailable(format!(
                "cannot start the worker {}: {error}",
                program.program.display()
            ))
        })?;
        Ok(Starting {
            link: Link {
                child,
                down: writer(pipes.stdin),
                up: reader(pipes.stdout),
                stderr: tail(pipes.stderr),
                confinement: Confinement::default(),
                mirror: Vfs::new(Quota::UNLIMITED),
                dead: None,
                host_socket,
            },
        })
    }
}

impl Starting {
    /// Sends the worker the sandbox's settings (it reads them only once
    /// confined), waits for its `Hello`, and checks what held.
    pub(crate) fn ready(
        self,
        engine: &Engine,
        policy: Option<&WritePolicy>,
        held: bool,
        host: Option<&Arc<goccia_host_commands::HostRunner>>,
    ) -> Result<Link, LinkError> {
        let mut link = self.link;
        let advice = Setting::ALL
            .iter()
            .map(|setting| engine.advice.text(*setting))
            .collect();
        let init = Init {
            limits: engine.limits.clone(),
            bytecode: engine.mode == goccia_vm::ExecMode::Bytecode,
            policy: policy.map(|policy| WirePolicy {
                mode: policy.mode(),
                roots: policy
                    .writable_roots()
                    .iter()
                    .map(|root| root.as_str().to_string())
                    .collect(),
                approver: policy.approver().is_some(),
            }),
            env: engine.env.clone(),
            cwd: engine.cwd.as_ref().map(|cwd| cwd.as_str().to_string()),
            audit: engine.audit.is_on(),
            advice,
            held: held.then_some((0, 0)),
            host_commands: host
                .map(|runner| goccia_shell::HostCommands::names(runner.as_ref()))
                .unwrap_or_default(),
        };
        link.send(Down::Init(Box::new(init)))?;
        let hello = match link.up.recv_timeout(HELLO_TIMEOUT) {
            Ok(Ok(Up::Hello(hello))) => hello,
            Ok(Ok(_)) => {
                return Err(LinkError::Crash(
                    "the worker's first frame is not Hello".into(),
                ));
            }
            Ok(Err(error)) => return Err(LinkError::Crash(error.to_string())),
            Err(_) => return Err(LinkError::Crash(link.why_gone("before saying Hello"))),
        };
        if hello.protocol != PROTOCOL {
            return Err(LinkError::Crash(format!(
                "the worker speaks protocol {}, not {PROTOCOL}",
                hello.protocol
            )));
        }
        let mut report = Report::default();
        for (name, reason) in hello.layers {
            let layer = Layer::parse(&name)
                .ok_or_else(|| LinkError::Crash(format!("the worker names no layer {name:?}")))?;
            let status = match reason {
                None => LayerStatus::Enforced,
                Some(reason) => LayerStatus::Unavailable { reason },
            };
            report.set(layer, status);
        }
        let verdict = link.check(&report);
        let first = VERDICT.get_or_init(|| verdict.clone().map(|()| enforced_layers(&report)));
        verdict.map_err(LinkError::Unavailable)?;
        if let Ok(first) = first
            && let Some(missing) = first.iter().find(|layer| !report.enforced(**layer))
        {
            return Err(LinkError::Unavailable(format!(
                "{missing} held for this process's first worker but not for this one"
            )));
        }
        link.confinement = Confinement::from_report(&report);
        Ok(link)
    }
}

impl Link {
    /// The verdict on a worker's report, checked from outside where the
    /// kernel shows it: `no_new_privs` and seccomp in `/proc/<pid>/status`.
    fn check(&self, report: &Report) -> Result<(), String> {
        if let Enforcement::Unavailable(reason) = report.enforcement() {
            return Err(reason);
        }
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .map_err(|error| format!("cannot read the worker's status: {error}"))?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .map(str::trim)
                .unwrap_or("")
                .to_string()
        };
        if field("NoNewPrivs:") != "1" {
            return Err(
                "the worker says no_new_privs holds, but the kernel says it does not".into(),
            );
        }
        if field("Seccomp:") != "2" {
            return Err(
                "the worker says its seccomp filter holds, but the kernel says it does not".into(),
            );
        }
        Ok(())
    }

    fn send(&mut self, message: Down) -> Result<(), LinkError> {
        if self.down.send(message).is_err() {
            return Err(self.crash("stopped reading"));
        }
        Ok(())
    }

    /// Ends the worker and says why, with the end of what it printed on
    /// stderr and how it exited.
    fn crash(&mut self, what: &str) -> LinkError {
        let why = self.why_gone(what);
        self.dead = Some(why.clone());
        LinkError::Crash(why)
    }

    fn why_gone(&mut self, what: &str) -> String {
        self.child.kill();
        let exit = match self.child.wait() {
            Ok(status) => {
                use std::os::unix::process::ExitStatusExt;
                match (status.code(), status.signal()) {
                    (Some(code), _) => format!("exited with status {code}"),
                    (None, Some(signal)) => format!("was killed by signal {signal}"),
                    _ => "ended".to_string(),
                }
            }
            Err(error) => format!("could not be waited for: {error}"),
        };
        let stderr = String::from_utf8_lossy(&self.stderr.lock())
            .trim()
            .to_string();
        let last = stderr.lines().last().unwrap_or("").to_string();
        match last.is_empty() {
            true => format!("the worker {what} and {exit}"),
            false => format!("the worker {what} and {exit} ({})", crate::shown(&last)),
        }
    }

    /// Runs `work` in the worker: sends the tree's changes since the last
    /// call, then the call, and serves the worker's requests until it is
    /// done; the changes it reports are checked against `policy` and
    /// applied to the tree.
    pub(crate) fn call(
        &mut self,
        context: &CallContext<'_>,
        policy: Option<&WritePolicy>,
        work: Work,
    ) -> Result<Reply, LinkError> {
        if let Some(why) = &self.dead {
            return Err(LinkError::Crash(why.clone()));
        }
        let current = context.vfs.lock().snapshot();
        let steps = delta(&self.mirror.snapshot(), &current);
        let down = self.down.clone();
        // Nothing changed since the last call: no steps frame at all.
        let sent = if steps.is_empty() {
            Ok(())
        } else {
            send_steps(&steps, |steps, last| {
                down.send(Down::Steps { steps, last })
                    .map_err(|_| std::io::Error::other("closed"))
            })
        };
        if sent.is_err() {
            return Err(self.crash("stopped reading"));
        }
        self.mirror
            .replay(&steps)
            .expect("the mirror takes what the tree holds");
        let budget = context.output.budget();
        let output_limit = budget.remaining();
        self.send(Down::Call(Box::new(Call {
            timeout_ms: context.watch.remaining().as_millis() as u64,
            allowed_ms: context.watch.allowed().as_millis() as u64,
            own_timeout: context.watch.source() == goccia_core::DeadlineSource::Call,
            output_limit,
            truncate: budget.overflow() == Overflow::Truncate,
            work,
        })))?;
        let limits = &context.engine.limits;
        let mut assembler = Assembler::new(
            limits.fs_quota_bytes,
            limits.fs_node_limit.saturating_mul(4),
        );
        let mut steps: Option<Vec<Step>> = None;
        let mut open_batch = false;
        let mut relayed = 0u64;
        let mut widest = policy.map(WritePolicy::mode);
        let mut kill_at = context.watch.deadline() + GRACE;
        let mut cancel_sent: Option<Instant> = None;
        let mut host_tree = Assembler::new(
            limits.fs_quota_bytes,
            limits.fs_node_limit.saturating_mul(4),
        );
        let mut host_tree_done: Option<Vec<Step>> = None;
        let mut host_runs: std::collections::HashMap<u64, goccia_core::CancelToken> =
            std::collections::HashMap::new();
        let reply = loop {
            let now = Instant::now();
            if now >= kill_at {
                self.child.kill();
                let _ = self.child.wait();
                self.dead = Some("killed at the deadline".into());
                return Err(LinkError::Killed);
            }
            if context.watch.cancel_token().is_cancelled()
                && cancel_sent.is_none_or(|at| now - at >= Duration::from_millis(20))
            {
                if cancel_sent.is_none() {
                    kill_at = kill_at.min(now + GRACE);
                    for token in host_runs.values() {
                        token.cancel();
                    }
                }
                cancel_sent = Some(now);
                self.send(Down::Cancel)?;
            }
            let wait = (kill_at - now).min(Duration::from_millis(5));
            let message = match self.up.recv_timeout(wait) {
                Ok(Ok(message)) => message,
                Ok(Err(error)) => return Err(self.crash(&format!("sent {error}"))),
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(self.crash("closed its pipe"));
                }
            };
            match message {
                Up::Output { stderr, bytes } => {
                    relayed += bytes.len() as u64;
                    if relayed > output_limit.saturating_add(MARKER_SLACK) {
                        return Err(self.crash("sent more output than its budget"));
                    }
                    let stream = if stderr {
                        Stream::Stderr
                    } else {
                        Stream::Stdout
                    };
                    // A sink that refuses (a closed host pipe) is the
                    // host's concern, as in-process.
                    let _ = context.output.relay(stream, &bytes);
                }
                Up::Audit(line) => {
                    if !record_audit(context.engine, &line) {
                        return Err(self.crash("sent a malformed audit event"));
                    }
                }
                Up::Fetch { id, request } => {
                    let answer = relay_fetch(context, request);
                    self.send(Down::Fetched { id, answer })?;
                }
                Up::Escalate { id, request } => {
                    let Some(decision) = decide(policy, &request) else {
                        return Err(self.crash("sent a malformed escalation request"));
                    };
                    if decision == Decision::AllowedOnce {
                        widest = widest.map(|mode| wider(mode, request.requested));
                    }
                    let decision = decision_name(decision).to_string();
                    self.send(Down::Decided { id, decision })?;
                }
                Up::Steps { steps: batch, last } => {
                    if steps.is_some() {
                        return Err(self.crash("sent steps after its last batch"));
                    }
                    open_batch = true;
                    for step in batch {
                        if let Err(error) = assembler.push(step) {
                            return Err(self.crash(&format!("sent {error}")));
                        }
                    }
                    if last {
                        open_batch = false;
                        let batch = std::mem::replace(&mut assembler, Assembler::new(0, 0));
                        match batch.finish() {
                            Ok(done) => steps = Some(done),
                            Err(error) => return Err(self.crash(&format!("sent {error}"))),
                        }
                    }
                }
                Up::HostTree { steps: batch, last } => {
                    for step in batch {
                        if let Err(error) = host_tree.push(step) {
                            return Err(self.crash(&format!("sent {error}")));
                        }
                    }
                    if last {
                        let batch = std::mem::replace(
                            &mut host_tree,
                            Assembler::new(
                                limits.fs_quota_bytes,
                                limits.fs_node_limit.saturating_mul(4),
                            ),
                        );
                        match batch.finish() {
                            Ok(done) => host_tree_done = Some(done),
                            Err(error) => return Err(self.crash(&format!("sent {error}"))),
                        }
                    }
                }
                Up::HostRun(run) => {
                    let Some(steps) = host_tree_done.take() else {
                        return Err(self.crash("asked for a host command before its tree"));
                    };
                    let granted = widest.unwrap_or(PolicyMode::Full);
                    match self.start_host_run(context, policy, granted, *run, steps) {
                        Ok((id, token)) => {
                            host_runs.insert(id, token);
                        }
                        Err(why) => return Err(self.crash(&why)),
                    }
                }
                Up::HostKill { id } => {
                    if let Some(token) = host_runs.get(&id) {
                        token.cancel();
                    }
                }
                Up::Done(reply) => break reply,
                Up::Hello(_) => return Err(self.crash("said Hello twice")),
            }
        };
        if open_batch {
            return Err(self.crash("ended a call inside a batch of changes"));
        }
        let steps = steps.unwrap_or_default();
        if let (Some(policy), Some(mode)) = (policy, widest)
            && let Some(path) = forbidden(&self.mirror, &policy.with_mode(mode), &steps)
        {
            return Err(self.crash(&format!(
                "changed {}, which the write policy does not allow",
                crate::shown(path.as_str())
            )));
        }
        if let Err(error) = context.vfs.lock().replay(&steps) {
            return Err(self.crash(&format!("sent changes that do not apply ({error})")));
        }
        if let Err(error) = self.mirror.replay(&steps) {
            return Err(self.crash(&format!("sent changes that do not apply ({error})")));
        }
        Ok(reply)
    }

    /// Starts a host command the worker's shell asked for, on a thread of
    /// its own (the worker's frames keep being served meanwhile): checks the
    /// request, takes the program's pipe ends from the socket, builds the
    /// worker's tree from what the call started with and `steps`, and runs
    /// it through the sandbox's runner; the answer goes down as
    /// `HostEdits` and `HostDone`. The token cancels it.
    fn start_host_run(
        &mut self,
        context: &CallContext<'_>,
        policy: Option<&WritePolicy>,
        granted: PolicyMode,
        run: crate::isolation::wire::WireHostRun,
        steps: Vec<Step>,
    ) -> Result<(u64, goccia_core::CancelToken), String> {
        use goccia_shell::HostCommands;
        let runner = context
            .host
            .cloned()
            .ok_or("asked for a host command the sandbox does not have")?;
        if run.words.first().is_none_or(|name| !runner.has(name)) {
            return Err("asked for a host command the sandbox does not have".into());
        }
        let mode = run.mode;
        if mode.is_strictly_wider_than(granted) {
            return Err(
                "asked to run a host command under a wider policy than it was granted".into(),
            );
        }
        let cwd = goccia_vfs::VfsPath::parse(&run.cwd).map_err(|_| "named an invalid cwd")?;
        let socket = self
            .host_socket
            .as_ref()
            .ok_or("has no host-command socket")?;
        let (id, [stdin, stdout, stderr]) =
            crate::isolation::fds::receive(std::os::fd::AsRawFd::as_raw_fd(socket))
                .map_err(|error| format!("sent no pipe ends with its host command ({error})"))?;
        if id != run.id {
            return Err("sent pipe ends of another host command".into());
        }
        let mut tree = self.mirror.clone();
        tree.replay(&steps)
            .map_err(|error| format!("sent a host command's tree that does not apply ({error})"))?;
        let policy = match policy {
            Some(policy) => policy.with_mode(mode),
            None => WritePolicy::new(mode, [], []),
        };
        let token = goccia_core::CancelToken::new();
        let watch = Watch::with_cancel(context.watch.remaining(), token.clone());
        let sandbox = context.vfs.clone();
        let audit = context.engine.audit.clone();
        let room = run.room.min(context.engine.limits.fs_quota_bytes);
        let tree = tree.snapshot();
        let down = self.down.clone();
        std::thread::Builder::new()
            .name("goccia-host-commands-relay".into())
            .spawn(move || {
                let invoked = runner.invoke(goccia_host_commands::runner::Invocation {
                    words: &run.words,
                    cwd: &cwd,
                    env: &run.env,
                    policy: &policy,
                    tree,
                    sandbox: &sandbox,
                    room,
                    streams: goccia_host_commands::runner::Streams::Fds {
                        stdin,
                        stdout,
                        stderr,
                    },
                    watch: &watch,
                    audit: &audit,
                });
                let outcome = match invoked {
                    goccia_host_commands::runner::Invoked::Ran {
                        status,
                        edits,
                        notes,
                        read_only_refusal,
                    } => {
                        let steps: Vec<Step> =
                            edits.iter().map(crate::isolation::steps::step_of).collect();
                        let _ = send_steps(&steps, |steps, last| {
                            down.send(Down::HostEdits { id, steps, last })
                                .map_err(|_| std::io::Error::other("closed"))
                        });
                        crate::isolation::wire::WireInvoked::Ran {
                            status,
                            notes,
                            read_only_refusal,
                        }
                    }
                    goccia_host_commands::runner::Invoked::Stopped(stop) => {
                        crate::isolation::wire::WireInvoked::Stopped(stop)
                    }
                    goccia_host_commands::runner::Invoked::Failed { status, message } => {
                        crate::isolation::wire::WireInvoked::Failed { status, message }
                    }
                };
                let _ = down.send(Down::HostDone { id, outcome });
            })
            .map_err(|error| {
                format!("could not be given a thread for its host command ({error})")
            })?;
        Ok((id, token))
    }

    /// A session's stdin bytes (`None`: its end), sent as they come.
    pub(crate) fn stdin_sender(&self) -> mpsc::Sender<Down> {
        self.down.clone()
    }
}

/// The first step whose path `policy` does not let the guest change:
/// every removal, folder and file, and a mode change (not a folder's time,
/// which moves when its entries change).
fn forbidden<'a>(
    tree: &Vfs,
    policy: &WritePolicy,
    steps: &'a [Step],
) -> Option<&'a goccia_vfs::VfsPath> {
    if policy.mode() == PolicyMode::Full {
        return None;
    }
    steps
        .iter()
        .filter(|step| match step {
            Step::Meta { path, meta } => tree
                .lookup(path)
                .map(|node| node.meta().mode != meta.mode)
                .unwrap_or(true),
            _ => true,
        })
        .map(Step::path)
        .find(|path| policy.check(path).is_err())
}

fn wider(a: PolicyMode, b: PolicyMode) -> PolicyMode {
    if b.is_strictly_wider_than(a) { b } else { a }
}

fn decision_name(decision: Decision) -> &'static str {
    match decision {
        Decision::AllowedOnce => "allowed-once",
        Decision::Rejected => "rejected",
        Decision::Cancelled => "cancelled",
        Decision::Unavailable => "unavailable",
    }
}

/// The parent's approver's word on a worker's request (`None`: the request
/// is malformed). Without an approver the answer is `unavailable`.
fn decide(policy: Option<&WritePolicy>, request: &WireEscalation) -> Option<Decision> {
    let (requested, current, subject) = (request.requested, request.current, request.subject);
    if !requested.is_strictly_wider_than(current) || request.justification.trim().is_empty() {
        return None;
    }
    let Some(approver) = policy.and_then(WritePolicy::approver) else {
        return Some(Decision::Unavailable);
    };
    Some(approver.decide(&EscalationRequest {
        requested_mode: requested,
        current_mode: current,
        justification: request.justification.clone(),
        subject,
        detail: request.detail.clone(),
    }))
}

/// Performs a worker's `fetch` here, under this side's policy, deadline
/// and audit trail.
fn relay_fetch(
    context: &CallContext<'_>,
    request: WireRequest,
) -> Result<goccia_vm::fetch::FetchResponse, WireFetchError> {
    let url = url_of(&request.url).map_err(WireFetchError::Failed)?;
    let fetch_context = FetchContext {
        policy: &context.engine.network,
        audit: &context.engine.audit,
        watch: context.watch,
        advice: &context.engine.advice,
    };
    let request = FetchRequest {
        method: request.method,
        url,
        headers: request.headers,
        body: request.body,
        follow_redirects: request.follow_redirects,
        keep_method: request.keep_method,
    };
    match goccia_vm::fetch::fetch(&fetch_context, request) {
        Ok(response) => Ok(response),
        Err(FetchError::Refused(message)) => Err(WireFetchError::Refused(message)),
        Err(FetchError::Failed(message)) => Err(WireFetchError::Failed(message)),
        Err(FetchError::TooLarge { limit, advice }) => {
            Err(WireFetchError::TooLarge { limit, advice })
        }
        Err(FetchError::Stopped(stop)) => Err(WireFetchError::Stopped(stop)),
    }
}

fn url_of(text: &str) -> Result<goccia_vm::fetch::Url, String> {
    goccia_vm::fetch::Url::parse(text).map_err(|error| format!("invalid URL: {error}"))
}

/// Records a worker's audit line in this side's trail, if it is one goccia
/// writes (known kind and decision, a subject); false otherwise.
fn record_audit(engine: &Engine, line: &str) -> bool {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
        return false;
    };
    let text = |key: &str| value.get(key).and_then(serde_json::Value::as_str);
    let kind =
        text("kind").and_then(|kind| goccia_core::audit::known(&goccia_core::audit::KINDS, kind));
    let decision = text("decision")
        .and_then(|decision| goccia_core::audit::known(&goccia_core::audit::DECISIONS, decision));
    let (Some(kind), Some(decision), Some(subject)) = (kind, decision, text("subject")) else {
        return false;
    };
    engine
        .audit
        .record(kind, decision, subject, text("reason").map(str::to_string));
    true
}

fn enforced_layers(report: &Report) -> Vec<Layer> {
    Layer::ALL
        .into_iter()
        .filter(|layer| report.enforced(*layer))
        .collect()
}
