//! Running the jail: limits set in the child before bubblewrap starts
//! (address space, processes, no core; as root, a pids cgroup of its
//! own), the shell's descriptors pumped to and from the program, and the
//! deadline: when it passes (or the call is cancelled) bubblewrap is
//! killed, which kills the namespace's first process and with it every
//! process in the namespace.

use std::ffi::{CString, OsString};
use std::io::{self, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use goccia_core::{Stop, Watch};
use goccia_shell::io::{SharedReader, SharedWriter};
use parking_lot::Mutex;

/// What a command may take.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// `RLIMIT_AS` of every process, in bytes.
    pub memory: u64,
    /// Processes at once.
    pub processes: u64,
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

/// Whether the process count can be bounded here: `RLIMIT_NPROC` binds
/// every user but root; root gets a pids cgroup when one can be made.
pub fn processes_bounded() -> bool {
    // SAFETY: geteuid takes nothing.
    let root = unsafe { libc::geteuid() } == 0;
    !root || PidsCgroup::create(1).is_some()
}

/// A pids cgroup (v1 or v2) holding one command's processes.
struct PidsCgroup {
    dir: std::path::PathBuf,
    procs: CString,
}

impl PidsCgroup {
    fn create(max: u64) -> Option<PidsCgroup> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = format!("goccia-{}-{n}", std::process::id());
        for base in [
            "/sys/fs/cgroup/pids",
            "/sys/fs/cgroup/unified",
            "/sys/fs/cgroup",
        ] {
            let base = std::path::Path::new(base);
            if !base.join("cgroup.procs").exists() {
                continue;
            }
            let dir = base.join(&name);
            if std::fs::create_dir(&dir).is_err() {
                continue;
            }
            if std::fs::write(dir.join("pids.max"), max.to_string()).is_err() {
                let _ = std::fs::remove_dir(&dir);
                continue;
            }
            let procs =
                CString::new(dir.join("cgroup.procs").as_os_str().as_encoded_bytes()).ok()?;
            return Some(PidsCgroup { dir, procs });
        }
        None
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        // Empty once the namespace is gone; a last process may take a
        // moment to be reaped.
        for _ in 0..50 {
            if std::fs::remove_dir(&self.dir).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Writes `pid` in decimal to `fd` with no allocation (after `fork`).
fn write_pid(fd: libc::c_int, pid: libc::pid_t) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut value = pid as u64;
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    // SAFETY: writing bytes of a stack buffer.
    unsafe { libc::write(fd, digits[at..].as_ptr().cast(), digits.len() - at) };
}

/// Runs `argv` (bubblewrap's command line) with the shell's descriptors,
/// under `bounds` and `watch`.
pub fn run(
    argv: &[OsString],
    stdin: Option<SharedReader>,
    stdout: Option<SharedWriter>,
    stderr: Option<SharedWriter>,
    watch: &Watch,
    bounds: Bounds,
) -> io::Result<Ended> {
    // SAFETY: geteuid takes nothing.
    let root = unsafe { libc::geteuid() } == 0;
    let cgroup = if root {
        PidsCgroup::create(bounds.processes)
    } else {
        None
    };
    let nproc = if root {
        libc::RLIM_INFINITY
    } else {
        (own_processes() + bounds.processes) as libc::rlim_t
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
    let memory = bounds.memory as libc::rlim_t;
    let procs = cgroup.as_ref().map(|cgroup| cgroup.procs.clone());
    // SAFETY: only async-signal-safe calls (setrlimit, open, write, close)
    // on values prepared before the fork.
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
            if nproc != libc::RLIM_INFINITY {
                limit(libc::RLIMIT_NPROC, nproc);
            }
            if let Some(procs) = &procs {
                let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                write_pid(fd, libc::getpid());
                libc::close(fd);
            }
            Ok(())
        });
    }
    let mut child = command.spawn()?;
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
    let status = wait(&mut child, watch, &stop);
    for pump in pumps {
        let _ = pump.join();
    }
    drop(cgroup);
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
) -> io::Result<std::process::ExitStatus> {
    // SAFETY: pidfd_open on our own child's pid.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id(), 0) } as libc::c_int;
    loop {
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
fn feed(reader: SharedReader, mut pipe: std::process::ChildStdin) {
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
/// (the output budget) is recorded for the waiter, which kills the program.
fn drain(
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

/// How many processes this user runs now (`RLIMIT_NPROC` counts them all).
fn own_processes() -> u64 {
    // SAFETY: getuid takes nothing.
    let uid = unsafe { libc::getuid() };
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
