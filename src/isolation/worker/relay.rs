//! A worker's host commands (docs/host-commands.md, under docs/isolation.md): the worker cannot
//! start a process, so its shell asks the parent, which runs the program
//! in its jail over the worker's current tree. The worker makes three
//! pipes and sends the program's ends over the host-command socket; its
//! own threads pump them to and from the shell's descriptors; the parent
//! answers with what the program changed, which the worker takes into its
//! tree under the policy as an in-process host command would.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use goccia_core::Stop;
use goccia_host_commands::runner::{Invoked, conclude, policy_in_force};
use goccia_shell::{ExecResult, Flow, HostCommands, Shell};
use goccia_vfs::Snapshot;
use goccia_vfs::replica::delta;
use parking_lot::Mutex;

use super::out::FrameOut;
use crate::isolation::fds;
use crate::isolation::steps::{Assembler, send_steps};
use crate::isolation::wire::{Up, WireHostRun, WireInvoked, WireStep};

/// What the parent says about one host command.
pub(crate) enum HostMessage {
    /// Part of what it changed.
    Edits(Vec<WireStep>, bool),
    /// It ended.
    Done(WireInvoked),
}

/// Answers by run id.
pub(crate) type HostAnswers = Mutex<HashMap<u64, mpsc::Sender<HostMessage>>>;

/// The shell's host commands in a worker: relayed to the parent.
pub(crate) struct RemoteHost {
    pub(crate) names: Vec<String>,
    pub(crate) out: FrameOut,
    pub(crate) answers: Arc<HostAnswers>,
    /// The tree as the running call started: the parent knows it.
    pub(crate) call_start: Arc<Mutex<Snapshot>>,
    pub(crate) next: std::sync::atomic::AtomicU64,
    /// Limits for what comes back.
    pub(crate) max_bytes: u64,
    pub(crate) max_steps: u64,
}

impl HostCommands for RemoteHost {
    fn has(&self, name: &str) -> bool {
        self.names.iter().any(|known| known == name)
    }

    fn names(&self) -> Vec<String> {
        self.names.clone()
    }

    fn run(&self, shell: &mut Shell, words: &[String]) -> ExecResult {
        let name = words[0].clone();
        let vfs = shell.context().vfs.clone();
        let policy = policy_in_force(&vfs);
        match self.relay(shell, words) {
            Ok(invoked) => conclude(shell, &name, &policy, invoked),
            Err(RelayError::Stopped(stop)) => Err(Flow::Stop(stop)),
            Err(RelayError::Broken(why)) => {
                shell.write_stderr(format!("{name}: sandbox unavailable: {why}\n").as_bytes());
                Ok(126)
            }
        }
    }
}

enum RelayError {
    Stopped(Stop),
    Broken(String),
}

impl RemoteHost {
    fn relay(&self, shell: &mut Shell, words: &[String]) -> Result<Invoked, RelayError> {
        let broken = |what: &str| RelayError::Broken(what.to_string());
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (sender, answers) = mpsc::channel();
        self.answers.lock().insert(id, sender);
        let _forget = Forget(&self.answers, id);
        let vfs = shell.context().vfs.clone();
        let policy = policy_in_force(&vfs);
        let now = vfs.lock().snapshot();
        let room = vfs.lock().remaining().max_bytes;
        let start = self.call_start.lock().clone();
        send_steps(&delta(&start, &now), |steps, last| {
            self.out.send(&Up::HostTree { steps, last })
        })
        .map_err(|_| broken("the parent is gone"))?;
        let pipe = || fds::pipe().map_err(|error| RelayError::Broken(error.to_string()));
        let (stdin_read, stdin_write) = pipe()?;
        let (stdout_read, stdout_write) = pipe()?;
        let (stderr_read, stderr_write) = pipe()?;
        fds::send(
            fds::WORKER_SOCKET,
            id,
            [&stdin_read, &stdout_write, &stderr_write],
        )
        .map_err(|error| RelayError::Broken(format!("cannot hand over its streams: {error}")))?;
        drop((stdin_read, stdout_write, stderr_write));
        let run = WireHostRun {
            id,
            words: words.to_vec(),
            cwd: shell.cwd().as_str().to_string(),
            env: shell.exported(),
            mode: policy.mode(),
            room,
        };
        self.out
            .send(&Up::HostRun(Box::new(run)))
            .map_err(|_| broken("the parent is gone"))?;
        let stop: Arc<parking_lot::Mutex<Option<Stop>>> = Arc::default();
        let read_only = Arc::new(AtomicBool::new(false));
        let fds_table = shell.fds();
        if let Some(reader) = fds_table.input(0) {
            let pipe = std::fs::File::from(stdin_write);
            std::thread::spawn(move || goccia_host_commands::spawn::feed(reader, pipe));
        }
        let mut pumps = Vec::new();
        for (reader, writer, flag) in [
            (stdout_read, fds_table.output(1), None),
            (stderr_read, fds_table.output(2), Some(read_only.clone())),
        ] {
            let pipe = std::fs::File::from(reader);
            let stop = stop.clone();
            pumps.push(std::thread::spawn(move || match writer {
                Some(writer) => goccia_host_commands::spawn::drain(pipe, writer, stop, flag),
                None => drop(pipe),
            }));
        }
        let mut assembler = Assembler::new(self.max_bytes, self.max_steps);
        let mut edits = Vec::new();
        let watch = shell.watch().clone();
        let mut killed_at: Option<Instant> = None;
        let outcome = loop {
            let stopped = watch.check().err().or(*stop.lock());
            if let Some(stopped) = stopped
                && killed_at.is_none()
            {
                let _ = self.out.send(&Up::HostKill { id });
                killed_at = Some(Instant::now());
                stop.lock().get_or_insert(stopped);
            }
            if killed_at.is_some_and(|at| at.elapsed() > Duration::from_secs(2)) {
                return Err(RelayError::Stopped(stop.lock().unwrap_or(Stop::DEADLINE)));
            }
            match answers.recv_timeout(Duration::from_millis(10)) {
                Ok(HostMessage::Edits(steps, last)) => {
                    for step in steps {
                        assembler
                            .push(step)
                            .map_err(|why| RelayError::Broken(format!("the parent sent {why}")))?;
                    }
                    if last {
                        let done = std::mem::replace(&mut assembler, Assembler::new(0, 0));
                        let steps = done
                            .finish()
                            .map_err(|why| RelayError::Broken(format!("the parent sent {why}")))?;
                        edits = steps
                            .into_iter()
                            .map(crate::isolation::steps::edit_of)
                            .collect();
                    }
                }
                Ok(HostMessage::Done(outcome)) => break outcome,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(broken("the parent is gone"));
                }
            }
        };
        for pump in pumps {
            let _ = pump.join();
        }
        if let Some(stopped) = *stop.lock() {
            return Err(RelayError::Stopped(stopped));
        }
        Ok(match outcome {
            WireInvoked::Ran {
                status,
                notes,
                read_only_refusal,
            } => Invoked::Ran {
                status,
                edits,
                notes,
                read_only_refusal: read_only_refusal || read_only.load(Ordering::Relaxed),
            },
            WireInvoked::Stopped(stop) => Invoked::Stopped(stop),
            WireInvoked::Failed { status, message } => Invoked::Failed { status, message },
        })
    }
}

/// Forgets a run's answer channel when the relay ends.
struct Forget<'a>(&'a HostAnswers, u64);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        self.0.lock().remove(&self.1);
    }
}
