//! Process isolation (docs/isolation.md): with [`Isolation::Process`], a
//! sandbox's guest code — JS and the shell alike — runs in a child process
//! that confined itself before reading its first frame, while this process
//! keeps every host authority (the tree and its baseline, `fetch`, the
//! approver, output accounting, the deadline, write-back).
//!
//! The two halves stand apart, over what both speak:
//!
//! - `parent/`: the parent's side — `link` (one worker), `pipes`,
//!   `remote` (sandbox calls and shell sessions through a link).
//! - `worker/`: the worker's side ([`run_worker_if_requested`]) — writing
//!   through `out`, its host commands asked of the parent (`relay`), and
//!   test-only misbehaviour (`hooks`, feature `test-hooks`).
//! - shared: `wire` (the frames and messages), `steps` (tree deltas cut
//!   into frames and put back together), `fds` (pipe ends sent over a
//!   socket for host commands), `command_line` (how a worker is started).
//!
//! One worker serves one sandbox for as long as the sandbox lives (its
//! shell sessions live in it); a child sandbox made with
//! [`Sandbox::child`](crate::Sandbox::child) gets a worker of its own, and
//! the children a guest starts (`runScript` with a sandbox, `goccia`)
//! run inside the same worker, under its confinement.

mod command_line;
mod fds;
mod parent;
mod steps;
pub(crate) mod wire;
pub(crate) mod worker;

pub(crate) use parent::remote;

use std::ffi::OsString;
use std::path::PathBuf;

use goccia_confine::{Layer, LayerStatus, Report};
use serde::Serialize;

pub use command_line::WORKER_ARG;

/// Where a sandbox's guest code runs, chosen once when it is built: every
/// call that runs guest code (a script, a shell session, the sandbox's
/// confinement report) asks this one value, never a pair of settings.
pub(crate) enum Backend {
    /// On threads of this process.
    Local,
    /// In the sandbox's confined worker process.
    Worker(std::sync::Arc<remote::Remote>),
}

impl Backend {
    /// The backend `isolation` asks for (`held`: a child's tree charges
    /// what it removed but its parent holds).
    pub(crate) fn new(isolation: Isolation, held: bool) -> Backend {
        match isolation {
            Isolation::None => Backend::Local,
            Isolation::Process(program) => Backend::Worker(remote::Remote::new(program, held)),
        }
    }

    /// Starts a worker's process ahead of the first call (nothing for an
    /// in-process backend).
    pub(crate) fn start(&self, limits: &goccia_core::Limits, host_commands: bool) {
        if let Backend::Worker(remote) = self {
            remote.start(limits, host_commands);
        }
    }

    /// The isolation it was chosen for.
    pub(crate) fn isolation(&self) -> &Isolation {
        static IN_PROCESS: Isolation = Isolation::None;
        match self {
            Backend::Local => &IN_PROCESS,
            Backend::Worker(remote) => remote.isolation(),
        }
    }
}

/// Where a sandbox's guest code runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Isolation {
    /// In this process (the default): fast, and as safe as QuickJS and
    /// the shell are.
    #[default]
    None,
    /// In a confined child process started from this program: a memory
    /// safety bug reached by guest code is contained by the kernel.
    Process(WorkerProgram),
}

impl Isolation {
    /// `none` or `process`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Isolation::None => "none",
            Isolation::Process(_) => "process",
        }
    }

    /// Process isolation with this very program as the worker (it must
    /// call [`run_worker_if_requested`] first thing in `main`, as the
    /// `goccia` binary does).
    pub fn process() -> std::io::Result<Isolation> {
        Ok(Isolation::Process(WorkerProgram::current_exe()?))
    }
}

/// The program a worker runs: a binary that calls
/// [`run_worker_if_requested`] at the start of `main` (the `goccia`
/// binary is one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerProgram {
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<OsString>,
    pub(crate) leave_out: Vec<Layer>,
    pub(crate) hook: Option<String>,
}

impl WorkerProgram {
    /// `program`, started as `program __goccia-worker ...`.
    pub fn new(program: impl Into<PathBuf>) -> Self {
        WorkerProgram {
            program: program.into(),
            args: Vec::new(),
            leave_out: Vec::new(),
            hook: None,
        }
    }

    /// The running program itself.
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(WorkerProgram::new(std::env::current_exe()?))
    }

    /// The installed `goccia` command, for a process that is no goccia
    /// binary (Python, Node): `GOCCIA_WORKER` when set, else the first
    /// `goccia` on `PATH` (docs/isolation.md). `None` when neither names
    /// one; the surface words how to fix it.
    pub fn installed() -> Option<Self> {
        let found = std::env::var_os("GOCCIA_WORKER")
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("PATH").and_then(|path| {
                    std::env::split_paths(&path)
                        .map(|dir| dir.join("goccia"))
                        .find(|candidate| candidate.is_file())
                })
            })?;
        Some(WorkerProgram::new(found))
    }

    /// Leaves confinement layers out, by name (`seccomp`,
    /// `network-namespace`, ...): for tests of partial enforcement and of
    /// refusal only. Unknown names are an error naming them.
    #[cfg(feature = "test-hooks")]
    pub fn leave_out(mut self, names: &str) -> Result<Self, String> {
        for name in names.split(',').filter(|name| !name.is_empty()) {
            let layer = Layer::parse(name).ok_or_else(|| format!("no layer {name:?}"))?;
            self.leave_out.push(layer);
        }
        Ok(self)
    }

    /// Makes the worker misbehave as `hook` says when its first call
    /// starts (`abort`, `flood`, `stall`, `oversize`, `garbage`, `forge`,
    /// `syscalls`): for the tests of a parent that trusts nothing.
    #[cfg(feature = "test-hooks")]
    pub fn hook(mut self, hook: &str) -> Self {
        self.hook = Some(hook.to_string());
        self
    }
}

impl WorkerProgram {
    /// A test build's overrides (feature `test-hooks`): the
    /// worker hook named by `GOCCIA_TEST_WORKER_HOOK` and the layers named
    /// by `GOCCIA_TEST_LEAVE_OUT`. Without the feature it changes nothing
    /// and reads nothing.
    pub fn test_overrides(self) -> Result<Self, String> {
        #[cfg(feature = "test-hooks")]
        {
            let mut program = self;
            if let Ok(hook) = std::env::var("GOCCIA_TEST_WORKER_HOOK") {
                program = program.hook(&hook);
            }
            if let Ok(names) = std::env::var("GOCCIA_TEST_LEAVE_OUT") {
                program = program.leave_out(&names)?;
            }
            Ok(program)
        }
        #[cfg(not(feature = "test-hooks"))]
        Ok(self)
    }
}

/// If this process was started as a worker (`<program> __goccia-worker
/// ...`), runs it and returns its exit code; otherwise `None` at once.
/// Call it first thing in `main`, before any thread starts: a worker
/// confines itself while it still has one thread.
///
/// ```no_run
/// // first thing in `main`:
/// if let Some(code) = goccia::isolation::run_worker_if_requested() {
///     std::process::exit(code);
/// }
/// // ... the program itself
/// ```
pub fn run_worker_if_requested() -> Option<i32> {
    // The launcher a host command's jail starts (docs/host-commands.md) is this
    // binary too.
    if let Some(code) = goccia_host_commands::run_inside_if_requested() {
        return Some(code);
    }
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) != Some(WORKER_ARG) {
        return None;
    }
    Some(worker::main(&args[2..]))
}

/// What isolation a sandbox's runs had, as the `--json` envelope and the
/// audit trail show it: `{mode, enforcement, layers}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Confinement {
    /// `none` or `process`.
    pub mode: &'static str,
    /// `full`, `partial`, or `none` (in-process).
    pub enforcement: &'static str,
    /// The layers in force, in the order applied.
    pub layers: Vec<&'static str>,
    /// The layers not in force, each with why.
    pub missing: Vec<(&'static str, String)>,
}

impl Confinement {
    /// In-process: no confinement.
    pub fn none() -> Self {
        Confinement {
            mode: "none",
            enforcement: "none",
            layers: Vec::new(),
            missing: Vec::new(),
        }
    }

    pub(crate) fn from_report(report: &Report) -> Self {
        let missing = report
            .layers
            .iter()
            .filter_map(|(layer, status)| match status {
                LayerStatus::Enforced => None,
                LayerStatus::Unavailable { reason } => Some((layer.name(), reason.clone())),
            })
            .collect();
        Confinement {
            mode: "process",
            enforcement: report.enforcement().as_str(),
            layers: report.enforced_names(),
            missing,
        }
    }
}
