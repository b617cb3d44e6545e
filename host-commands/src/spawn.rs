//! Running the jail: limits and an unprivileged identity set in the child
//! before bubblewrap starts (address space, processes, no core; `nobody`
//! when goccia is root), the shell's descriptors pumped to and from the
//! program, and the
//! deadline: when it passes (or the call is cancelled) bubblewrap is
//! killed, which kills the namespace's first process and with it every
//! process in the namespace.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use std::os::fd::OwnedFd;

use goccia_core::{Stop, Watch};
use goccia_gateway::jail_net::{ChildSide, Handover};
use goccia_gateway::proxy::Gateway;
use goccia_shell::io::{SharedReader, SharedWriter};
use parking_lot::Mutex;

/// How a command's standard streams are given.
pub enum Streams {
    /// The shell's descriptors, pumped here.
    Shell {
        /// Descriptor 0, if open for reading.
        stdin: Option<SharedReader>,
        /// Descriptor 1, if open for writing.
        stdout: Option<SharedWriter>,
        /// Descriptor 2, if open for writing.
        stderr: Option<SharedWriter>,
    },
    /// Pipe ends the caller made and pumps itself (an isolated worker's).
    Fds {
        /// The program's stdin.
        stdin: OwnedFd,
        /// The program's stdout.
        stdout: OwnedFd,
        /// The program's stderr.
        stderr: OwnedFd,
    },
}

/// What a command may take.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// `RLIMIT_AS` of every process, in bytes.
    pub memory: u64,
    /// Processes at once.
    pub processes: u64,
    /// `RLIMIT_FSIZE`: the largest file any process may write, in bytes
    /// (the room the sandbox's fs quota has left; `None`: unbounded, for
    /// the probe).
    pub file_size: Option<u64>,
}

/// How a command ended.
#[derive(Debug)]
pub enum Ended {
    /// It exited (a signal's death is 128 + the signal, as in bash).
    Exited {
        /// The status.
        status: i32,
        /// Its stderr said "Read-only file system": a write the jail's
        /// mounts refused.
        read_only_refusal: bool,
    },
    /// The deadline, a cancellation or the output budget stopped it; it
    /// was killed with everything it started.
    Stopped(Stop),
}

/// Who host commands run as: goccia's own user, or — when goccia runs as
/// root — a user id of their own, unused on the host and drawn at random
/// per sandbox, so that `RLIMIT_NPROC` binds the jail (it never binds
/// root), one sandbox's processes never count against another's, and the
/// host's permissions stand behind the mounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The user and group id the jail starts as (`None`: goccia's own).
    pub drop_to: Option<(libc::uid_t, libc::gid_t)>,
}

/// The range sandbox user ids are drawn from (above what systems assign).
const SANDBOX_IDS: std::ops::Range<u32> = 0x7000_0000..0x7fff_0000;

impl Identity {
    /// A fresh identity for one sandbox's host commands.
    pub fn fresh() -> Identity {
        // SAFETY: geteuid takes nothing.
        let root = unsafe { libc::geteuid() } == 0;
        let id = || {
            use std::hash::{BuildHasher, Hasher};
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u32(std::process::id());
            let span = SANDBOX_IDS.end - SANDBOX_IDS.start;
            SANDBOX_IDS.start + (hasher.finish() % u64::from(span)) as u32
        };
        Identity {
            drop_to: root.then(|| {
                let id = id();
                (id, id)
            }),
        }
    }

    /// The user id whose processes `RLIMIT_NPROC` counts.
    pub fn uid(&self) -> libc::uid_t {
        // SAFETY: getuid takes nothing.
        self.drop_to
            .map_or_else(|| unsafe { libc::getuid() }, |(uid, _)| uid)
    }

    /// Limits, the jail's own network (when it has the gateway) and the
    /// identity applied to `command` in the child, before bubblewrap
    /// starts: only async-signal-safe calls after the fork.
    pub fn prepare(self, command: &mut Command, bounds: Bounds, network: Option<ChildSide>) {
        let memory = bounds.memory as libc::rlim_t;
        let file_size = bounds.file_size.map(|bytes| bytes as libc::rlim_t);
        // A sandbox's own id runs nothing else; goccia's own user may.
        let already = if self.drop_to.is_some() {
            0
        } else {
            processes_of(self.uid())
        };
        let nproc = (already + bounds.processes) as libc::rlim_t;
        let drop_to = self.drop_to;
        let ceiling = goccia_confine::descriptors::descriptor_ceiling();
        // SAFETY: setrlimit, setgroups, setgid, setuid and fcntl on values
        // prepared before the fork.
        unsafe {
            command.pre_exec(move || {
                let limit = |resource, value| {
                    let limit = libc::rlimit {
                        rlim_cur: value,
                        rlim_max: value,
                    };
                    libc::setrlimit(resource, &limit)
                };
                limit(libc::RLIMIT_AS, memory);
                limit(libc::RLIMIT_CORE, 0);
                limit(libc::RLIMIT_NPROC, nproc);
                if let Some(bytes) = file_size {
                    limit(libc::RLIMIT_FSIZE, bytes);
                }
                // Only the standard streams cross into the jail: nothing
                // goccia's own parent left open (docs/security.md).
                goccia_confine::descriptors::close_on_exec_from(3, ceiling)?;
                // Its own network namespace, made while still able to
                // (before the identity drops): loopback and the proxy's
                // socket only (docs/network.md).
                if let Some(network) = network {
                    network.enter()?;
                }
                if let Some((uid, gid)) = drop_to
                    && (libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setgid(gid) != 0
                        || libc::setuid(uid) != 0)
                {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

/// A check made while the command runs (every [`GUARD_EVERY`] at most):
/// `Some(stop)` kills it with that stop. The runner's guard measures what
/// the command wrote against the fs quota.
pub type Guard<'a> = &'a mut (dyn FnMut() -> Option<Stop> + Send);

/// How often a [`Guard`] is asked, at most.
pub const GUARD_EVERY: Duration = Duration::from_millis(50);

/// The gateway a command's jail reaches, and the ends its proxy socket
/// comes back over (docs/network.md).
pub struct JailNetwork<'a> {
    /// The sandbox's gateway.
    pub gateway: &'a Arc<Gateway>,
    /// Carries the listening socket out of the child.
    pub handover: Handover,
}

/// Runs `argv` (bubblewrap's command line) with the shell's descriptors,
/// under `bounds`, `watch` and `guard`; with `network`, in a network
/// namespace whose only way out is the gateway.
pub fn run(
    argv: &[OsString],
    identity: Identity,
    streams: Streams,
    watch: &Watch,
    bounds: Bounds,
    guard: Option<Guard<'_>>,
    network: Option<JailNetwork<'_>>,
) -> io::Result<Ended> {
    let (stdin, stdout, stderr, fds) = match streams {
        Streams::Shell {
            stdin,
            stdout,
            stderr,
        } => (stdin, stdout, stderr, None),
        Streams::Fds {
            stdin,
            stdout,
            stderr,
        } => (None, None, None, Some((stdin, stdout, stderr))),
    };
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .env_clear()
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(if stdout.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(if stderr.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    if let Some((input, output, error)) = fds {
        // The caller's pipe ends, pumped by the caller.
        command.stdin(input).stdout(output).stderr(error);
    }
    identity.prepare(
        &mut command,
        bounds,
        network
            .as_ref()
            .map(|network| network.handover.child_side()),
    );
    let mut child = command.spawn()?;
    // The proxy serves until this call returns (dropping it stops it).
    let _serving = match network {
        Some(JailNetwork { gateway, handover }) => match handover.receive() {
            Ok(listener) => Some(gateway.serve(listener, watch.clone())),
            Err(error) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(error);
            }
        },
        None => None,
    };
    let stop: Arc<Mutex<Option<Stop>>> = Arc::default();
    let read_only = Arc::new(AtomicBool::new(false));
    let mut pumps = Vec::new();
    if let (Some(reader), Some(pipe)) = (stdin, child.stdin.take()) {
        // Not joined: it may sit in a read of the shell's stdin after the
        // program ended; it ends with that read.
        std::thread::spawn(move || feed(reader, pipe));
    }
    if let (Some(writer), Some(pipe)) = (stdout, child.stdout.take()) {
        let stop = stop.clone();
        pumps.push(std::thread::spawn(move || drain(pipe, writer, stop, None)));
    }
    if let (Some(writer), Some(pipe)) = (stderr, child.stderr.take()) {
        let (stop, read_only) = (stop.clone(), read_only.clone());
        pumps.push(std::thread::spawn(move || {
            drain(pipe, writer, stop, Some(read_only))
        }));
    }
    let status = wait(&mut child, watch, &stop, guard);
    for pump in pumps {
        let _ = pump.join();
    }
    if let Some(stopped) = *stop.lock() {
        return Ok(Ended::Stopped(stopped));
    }
    let status = status?;
    let status = match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(signal)) => 128 + signal,
        _ => 1,
    };
    Ok(Ended::Exited {
        status,
        read_only_refusal: read_only.load(Ordering::Relaxed),
    })
}

/// Waits for the child, killing it (and so its namespace) when the
/// deadline passes, the call is cancelled or a pump records a stop.
fn wait(
    child: &mut Child,
    watch: &Watch,
    stop: &Mutex<Option<Stop>>,
    mut guard: Option<Guard<'_>>,
) -> io::Result<std::process::ExitStatus> {
    // SAFETY: pidfd_open on our own child's pid.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id(), 0) } as libc::c_int;
    let mut guarded = Instant::now();
    loop {
        if let Some(guard) = guard.as_mut()
            && guarded.elapsed() >= GUARD_EVERY
        {
            guarded = Instant::now();
            if let Some(stopped) = guard() {
                stop.lock().get_or_insert(stopped);
            }
        }
        if let Some(status) = child.try_wait()? {
            if pidfd >= 0 {
                // SAFETY: the descriptor opened above.
                unsafe { libc::close(pidfd) };
            }
            return Ok(status);
        }
        let stopped = match watch.check() {
            Err(stopped) => Some(stopped),
            Ok(()) => *stop.lock(),
        };
        if let Some(stopped) = stopped {
            stop.lock().get_or_insert(stopped);
            let _ = child.kill();
            let status = child.wait();
            if pidfd >= 0 {
                // SAFETY: as above.
                unsafe { libc::close(pidfd) };
            }
            return status;
        }
        let wait = watch.remaining().min(Duration::from_millis(20));
        if pidfd >= 0 {
            let mut poll = libc::pollfd {
                fd: pidfd,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one pollfd for the descriptor above.
            unsafe { libc::poll(&mut poll, 1, wait.as_millis().max(1) as libc::c_int) };
        } else {
            std::thread::sleep(wait.min(Duration::from_millis(2)));
        }
    }
}

/// The shell's stdin to the program, until either side ends.
pub fn feed(reader: SharedReader, mut pipe: impl Write) {
    loop {
        let chunk = {
            let mut reader = reader.lock();
            match reader.fill_buf() {
                Ok([]) | Err(_) => return,
                Ok(bytes) => {
                    let chunk = bytes.to_vec();
                    reader.consume(chunk.len());
                    chunk
                }
            }
        };
        if pipe.write_all(&chunk).is_err() {
            return;
        }
    }
}

/// The program's output to the shell's descriptor; a stop a write reports
/// (the output budget) is recorded for the waiter, which kills the program;
/// `read_only` is set when the stream says "Read-only file system".
pub fn drain(
    mut pipe: impl Read,
    writer: SharedWriter,
    stop: Arc<Mutex<Option<Stop>>>,
    read_only: Option<Arc<AtomicBool>>,
) {
    let mut buffer = vec![0u8; 64 << 10];
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let n = match pipe.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if let Some(flag) = &read_only {
            tail.extend_from_slice(&buffer[..n]);
            if contains(&tail, b"Read-only file system") {
                flag.store(true, Ordering::Relaxed);
            }
            let keep = tail.len().saturating_sub(32);
            tail.drain(..keep);
        }
        if let Err(error) = writer.lock().write_all(&buffer[..n]) {
            if let Some(stopped) = Stop::in_io(&error) {
                stop.lock().get_or_insert(stopped);
            }
            // A reader that left (`| head`): the program gets EPIPE or
            // SIGPIPE once this end closes, as in a real pipeline.
            return;
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

/// How many processes `uid` runs now (`RLIMIT_NPROC` counts them all).
fn processes_of(uid: libc::uid_t) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|entry| {
            std::os::unix::fs::MetadataExt::uid(&match entry.metadata() {
                Ok(meta) => meta,
                Err(_) => return false,
            }) == uid
        })
        .count() as u64
}

/// How long a run took, for the audit trail.
pub fn since(started: Instant) -> String {
    format!("{} ms", started.elapsed().as_millis())
}
