//! Starting a worker process with `posix_spawn`: its three pipes at 0–2,
//! the host-command socket (when there is one) at 3, nothing else open, an
//! empty environment, `/` as its folder and a process group of its own.
//!
//! Why not `std::process::Command`: putting the socket at descriptor 3 and
//! closing everything above it needs a `pre_exec` hook, and with one the
//! standard library forks. A fork copies the page tables of this process,
//! which by then maps the binary, the heaps and the threads' stacks; glibc's
//! `posix_spawn` starts the child on this process's memory (`CLONE_VFORK`)
//! and does the descriptor work from a list (`adddup2`, `addclosefrom_np`).
//! Measured in bench/README.md ("The worker's start").

use std::ffi::CString;
use std::io::{self, PipeReader, PipeWriter};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::{OnceLock, mpsc};

use crate::isolation::WorkerProgram;

/// The descriptor a worker finds its host-command socket at.
pub(crate) use crate::isolation::fds::WORKER_SOCKET;

/// A started worker process: killed, and reaped off the caller's path,
/// when dropped.
pub(crate) struct WorkerProcess {
    pid: libc::pid_t,
    /// Set once `wait` has reaped it (nothing left to kill or reap).
    status: Option<ExitStatus>,
}

/// This side of a new worker's pipes.
pub(crate) struct WorkerPipes {
    pub stdin: PipeWriter,
    pub stdout: PipeReader,
    pub stderr: PipeReader,
}

/// Starts `program` with `args` as a worker (`socket`: the descriptor its
/// host-command socket is put at 3 from).
///
/// The process is started from one thread kept for that: a worker asks
/// the kernel to kill it when the thread that started it ends
/// (`PR_SET_PDEATHSIG` follows the thread, not the process), and the
/// thread that builds or first calls a sandbox may be a pool's, retired
/// while the sandbox lives on.
pub(crate) fn spawn(
    program: &WorkerProgram,
    args: &[std::ffi::OsString],
    socket: Option<&OwnedFd>,
) -> io::Result<(WorkerProcess, WorkerPipes)> {
    let program = program.clone();
    let args = args.to_vec();
    // The caller waits for the answer, so the descriptor stays open.
    let socket = socket.map(|socket| socket.as_raw_fd());
    let (answer, answered) = mpsc::sync_channel(1);
    let job: SpawnJob = Box::new(move || {
        // SAFETY: the caller holds the socket open until this answers.
        let socket = socket.map(|raw| unsafe { std::os::fd::BorrowedFd::borrow_raw(raw) });
        let _ = answer.send(spawn_here(&program, &args, socket));
    });
    match spawner().send(job) {
        Ok(()) => answered
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the thread that starts workers is gone"))),
        Err(_) => Err(io::Error::other("no thread to start workers from")),
    }
}

type SpawnJob = Box<dyn FnOnce() + Send>;

/// The thread workers are started from, for the life of the process.
fn spawner() -> &'static mpsc::Sender<SpawnJob> {
    static SPAWNER: OnceLock<mpsc::Sender<SpawnJob>> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (sender, jobs) = mpsc::channel::<SpawnJob>();
        // A failure to start the thread drops `jobs`: every send then
        // fails and says so.
        let _ = std::thread::Builder::new()
            .name("goccia-isolation-spawner".into())
            .spawn(move || {
                while let Ok(job) = jobs.recv() {
                    job();
                }
            });
        sender
    })
}

fn spawn_here(
    program: &WorkerProgram,
    args: &[std::ffi::OsString],
    socket: Option<std::os::fd::BorrowedFd<'_>>,
) -> io::Result<(WorkerProcess, WorkerPipes)> {
    let (stdin_theirs, stdin) = io::pipe()?;
    let (stdout, stdout_theirs) = io::pipe()?;
    let (stderr, stderr_theirs) = io::pipe()?;
    // Each end the child gets must sit above the numbers it is put at, or
    // one `dup2` would overwrite the source of a later one (a parent
    // started with its stdin closed makes pipes at 0).
    let stdin_theirs = above_worker_numbers(stdin_theirs.into())?;
    let stdout_theirs = above_worker_numbers(stdout_theirs.into())?;
    let stderr_theirs = above_worker_numbers(stderr_theirs.into())?;
    let socket = match socket {
        Some(socket) => Some(above_worker_numbers(socket.try_clone_to_owned()?)?),
        None => None,
    };
    // The worker starts in `/`: a relative program is found from here.
    let program_path = match program.program.is_relative() {
        true => std::env::current_dir()?.join(&program.program),
        false => program.program.clone(),
    };
    let path = CString::new(program_path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in its path"))?;
    let argv: Vec<CString> = std::iter::once(Ok(path.clone()))
        .chain(args.iter().map(|arg| CString::new(arg.as_bytes())))
        .collect::<Result<_, _>>()
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in an argument"))?;
    let mut argv_pointers: Vec<*mut libc::c_char> =
        argv.iter().map(|arg| arg.as_ptr().cast_mut()).collect();
    argv_pointers.push(std::ptr::null_mut());
    let envp: [*mut libc::c_char; 1] = [std::ptr::null_mut()];
    let mut actions = FileActions::new()?;
    actions.dup2(stdin_theirs.as_raw_fd(), 0)?;
    actions.dup2(stdout_theirs.as_raw_fd(), 1)?;
    actions.dup2(stderr_theirs.as_raw_fd(), 2)?;
    let first_closed = match &socket {
        Some(socket) => {
            actions.dup2(socket.as_raw_fd(), WORKER_SOCKET)?;
            WORKER_SOCKET + 1
        }
        None => WORKER_SOCKET,
    };
    // Nothing goccia's own parent left open crosses (docs/security.md).
    actions.close_from(first_closed)?;
    actions.chdir(c"/")?;
    let attributes = Attributes::new()?;
    let mut pid: libc::pid_t = 0;
    // SAFETY: every pointer is valid for the call: the path and the
    // NUL-terminated argv and envp arrays outlive it, and the actions and
    // attributes were initialised above.
    let error = unsafe {
        libc::posix_spawn(
            &mut pid,
            path.as_ptr(),
            &actions.0,
            &attributes.0,
            argv_pointers.as_ptr(),
            envp.as_ptr(),
        )
    };
    if error != 0 {
        return Err(io::Error::from_raw_os_error(error));
    }
    Ok((
        WorkerProcess { pid, status: None },
        WorkerPipes {
            stdin,
            stdout,
            stderr,
        },
    ))
}

impl WorkerProcess {
    /// Its process id.
    pub(crate) fn id(&self) -> u32 {
        self.pid as u32
    }

    /// Sends it SIGKILL (nothing once it has been reaped).
    pub(crate) fn kill(&mut self) {
        if self.status.is_none() {
            // SAFETY: kill with a pid this process started and has not
            // reaped, so the number cannot have been reused.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
        }
    }

    /// Waits for it to end and says how it did.
    pub(crate) fn wait(&mut self) -> io::Result<ExitStatus> {
        if let Some(status) = self.status {
            return Ok(status);
        }
        let status = reap(self.pid)?;
        self.status = Some(status);
        Ok(status)
    }
}

impl Drop for WorkerProcess {
    /// Kills it and leaves the reaping to a thread of its own: a caller
    /// (a process about to exit, a call that gave up on the worker) does
    /// not wait for the kernel to take down its namespaces.
    fn drop(&mut self) {
        if self.status.is_some() {
            return;
        }
        self.kill();
        let pid = self.pid;
        if reaper().send(pid).is_err() {
            let _ = reap(pid);
        }
    }
}

fn reap(pid: libc::pid_t) -> io::Result<ExitStatus> {
    let mut status = 0;
    loop {
        // SAFETY: waitpid on a child of this process, into a local.
        let got = unsafe { libc::waitpid(pid, &mut status, 0) };
        if got == pid {
            return Ok(ExitStatus::from_raw(status));
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// The one thread that reaps killed workers, started by the first drop.
fn reaper() -> &'static mpsc::Sender<libc::pid_t> {
    static REAPER: OnceLock<mpsc::Sender<libc::pid_t>> = OnceLock::new();
    REAPER.get_or_init(|| {
        let (sender, pids) = mpsc::channel::<libc::pid_t>();
        // No thread to be had drops `pids`: every send then fails and the
        // dropper reaps in place.
        let _ = std::thread::Builder::new()
            .name("goccia-isolation-reaper".into())
            .spawn(move || {
                while let Ok(pid) = pids.recv() {
                    let _ = reap(pid);
                }
            });
        sender
    })
}

/// `posix_spawn_file_actions_t`, destroyed when dropped.
struct FileActions(libc::posix_spawn_file_actions_t);

impl FileActions {
    fn new() -> io::Result<FileActions> {
        // SAFETY: zeroed storage that init then fills.
        let mut actions: libc::posix_spawn_file_actions_t = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to that storage.
        check(unsafe { libc::posix_spawn_file_actions_init(&mut actions) })?;
        Ok(FileActions(actions))
    }

    fn dup2(&mut self, from: RawFd, to: RawFd) -> io::Result<()> {
        // SAFETY: initialised actions; the descriptors are plain numbers.
        check(unsafe { libc::posix_spawn_file_actions_adddup2(&mut self.0, from, to) })
    }

    fn close_from(&mut self, first: RawFd) -> io::Result<()> {
        // SAFETY: as above (glibc 2.34's closefrom action).
        check(unsafe { libc::posix_spawn_file_actions_addclosefrom_np(&mut self.0, first) })
    }

    fn chdir(&mut self, folder: &std::ffi::CStr) -> io::Result<()> {
        // SAFETY: as above; glibc copies the path.
        check(unsafe { libc::posix_spawn_file_actions_addchdir_np(&mut self.0, folder.as_ptr()) })
    }
}

impl Drop for FileActions {
    fn drop(&mut self) {
        // SAFETY: initialised in `new`.
        unsafe { libc::posix_spawn_file_actions_destroy(&mut self.0) };
    }
}

/// `posix_spawnattr_t`: a process group of its own (a Ctrl-C at the
/// terminal is the parent's to handle: it cancels the call), no blocked
/// signals, and SIGPIPE back to its default, as `Command` gives a child.
struct Attributes(libc::posix_spawnattr_t);

impl Attributes {
    fn new() -> io::Result<Attributes> {
        // SAFETY: zeroed storage that init then fills; the signal sets are
        // locals filled by sigemptyset/sigaddset before use.
        unsafe {
            let mut attributes: libc::posix_spawnattr_t = std::mem::zeroed();
            check(libc::posix_spawnattr_init(&mut attributes))?;
            let mut attributes = Attributes(attributes);
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            let mut pipe: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut pipe);
            libc::sigaddset(&mut pipe, libc::SIGPIPE);
            check(libc::posix_spawnattr_setpgroup(&mut attributes.0, 0))?;
            check(libc::posix_spawnattr_setsigmask(&mut attributes.0, &none))?;
            check(libc::posix_spawnattr_setsigdefault(
                &mut attributes.0,
                &pipe,
            ))?;
            let flags = libc::POSIX_SPAWN_SETPGROUP
                | libc::POSIX_SPAWN_SETSIGMASK
                | libc::POSIX_SPAWN_SETSIGDEF;
            check(libc::posix_spawnattr_setflags(
                &mut attributes.0,
                flags as _,
            ))?;
            Ok(attributes)
        }
    }
}

impl Drop for Attributes {
    fn drop(&mut self) {
        // SAFETY: initialised in `new`.
        unsafe { libc::posix_spawnattr_destroy(&mut self.0) };
    }
}

/// `fd`, or a copy of it numbered above the descriptors a worker is
/// given (0–3), close-on-exec.
fn above_worker_numbers(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > WORKER_SOCKET {
        return Ok(fd);
    }
    // SAFETY: fcntl duplicating a descriptor this function owns.
    let copy = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, WORKER_SOCKET + 1) };
    if copy < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a new descriptor nothing else owns.
    Ok(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(copy) })
}

fn check(code: libc::c_int) -> io::Result<()> {
    match code {
        0 => Ok(()),
        error => Err(io::Error::from_raw_os_error(error)),
    }
}
