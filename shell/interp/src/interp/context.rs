//! What every shell of one sandbox shares ([`Context`]): the VFS, the
//! deadline, the limits and their counters, the command table and the
//! nested-script launcher.

use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, AtomicU64, Ordering};

use goccia_core::host_memory::{MemoryCeiling, Meter, Metered};
use goccia_core::{Audit, LimitKind, Limits, Stop, Watch};
use goccia_vfs::SharedVfs;

use ref_cast::RefCast;

use super::{ExecResult, Flow, Shell};

/// A utility's view of the shell running it: its operations are in
/// `view.rs`; the type is declared here, beside [`CommandFn`], which names
/// it, so that the table does not depend on what a view can do.
#[derive(RefCast)]
#[repr(transparent)]
pub struct ShellView(pub(super) Shell);

/// A command: a function from the shell and its arguments (`args[0]` is
/// its name) to a status. Builtins take the whole shell; utilities the
/// view of it they may use ([`ShellView`]).
#[derive(Clone, Copy, Debug)]
pub enum CommandFn {
    /// A builtin (interpreter state: `cd`, `set`, `read`, ...).
    Shell(fn(&mut Shell, &[String]) -> ExecResult),
    /// A utility (`cat`, `grep`, ...).
    View(fn(&mut ShellView, &[String]) -> ExecResult),
}

impl CommandFn {
    /// Runs the command in `shell` with `args`.
    pub fn call(self, shell: &mut Shell, args: &[String]) -> ExecResult {
        match self {
            CommandFn::Shell(run) => run(shell, args),
            CommandFn::View(run) => run(ShellView::of(shell), args),
        }
    }
}

/// How `type` describes a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandKind {
    /// A shell builtin (`cd`, `echo`, ...).
    Builtin,
    /// A utility (`cat`, `grep`, ...): reported as a file in `/usr/bin`.
    Utility,
}

/// One crate's commands by name: the builtins ([`crate::BUILTINS`]) or
/// the utilities (`goccia-utilities`). Written with [`crate::commands!`].
#[derive(Debug)]
pub struct Commands {
    /// The command called `name`, and its kind.
    pub lookup: fn(&str) -> Option<(CommandFn, CommandKind)>,
    /// Every command name, in the order written.
    pub names: &'static [&'static str],
}

/// Declares a static [`Commands`]: one line per command, its kind, its
/// name and how it is called (`Shell(f)` for a builtin taking the whole
/// shell, `View(f)` for a utility taking a [`ShellView`]):
///
/// ```text
/// goccia_interp::commands! {
///     /// Every utility.
///     pub static UTILITIES = {
///         Utility "cat" => View(text::cat),
///     }
/// }
/// ```
#[macro_export]
macro_rules! commands {
    ($(#[$meta:meta])* $vis:vis static $table:ident = {
        $($kind:ident $name:literal => $access:ident($function:path),)*
    }) => {
        $(#[$meta])*
        $vis static $table: $crate::interp::context::Commands = {
            fn lookup(
                name: &str,
            ) -> Option<($crate::CommandFn, $crate::CommandKind)> {
                match name {
                    $($name => Some((
                        $crate::CommandFn::$access($function),
                        $crate::CommandKind::$kind,
                    )),)*
                    _ => None,
                }
            }
            $crate::interp::context::Commands {
                lookup,
                names: &[$($name),*],
            }
        };
    };
}

/// The commands a shell runs by name. The interpreter knows them only
/// through this table (the whole one is `goccia-shell`'s `TABLE`), so it
/// never imports the utilities, which are built on it: this crate
/// compiles, and its shells run, with its builtins alone.
#[derive(Debug)]
pub struct CommandTable {
    /// The tables looked in, first to last.
    pub parts: &'static [&'static Commands],
}

impl CommandTable {
    /// The command called `name`, and its kind.
    pub fn lookup(&self, name: &str) -> Option<(CommandFn, CommandKind)> {
        self.parts.iter().find_map(|part| (part.lookup)(name))
    }

    /// The command called `name`.
    pub fn get(&self, name: &str) -> Option<CommandFn> {
        self.lookup(name).map(|(run, _)| run)
    }

    /// How `type` describes `name`, if it is a command.
    pub fn kind(&self, name: &str) -> Option<CommandKind> {
        self.lookup(name).map(|(_, kind)| kind)
    }

    /// Every command name.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.parts
            .iter()
            .flat_map(|part| part.names.iter().copied())
    }
}

/// Runs `goccia <path>` for the shell builtin (implemented by the VM,
/// which sits above the shell).
pub trait ScriptLauncher: Send + Sync {
    /// Runs the builtin with its arguments (after `goccia`); returns the
    /// exit status. Output goes to `stdout`/`stderr`.
    fn launch(&self, shell: &mut Shell, args: &[String]) -> ExecResult;
}

/// Host programs the host lets a sandbox's shells run (docs/host-commands.md), by
/// name: implemented above the shell, which only asks whether a name is
/// one and hands the command over with the shell (its cwd, exported
/// variables, descriptors and deadline). A host command takes precedence
/// over a builtin or utility of the same name; a function still wins.
pub trait HostCommands: Send + Sync {
    /// Whether `name` is a host command.
    fn has(&self, name: &str) -> bool;
    /// Every host command's name.
    fn names(&self) -> Vec<String>;
    /// Runs `words` (`words[0]` is the name); the status, or a stop.
    fn run(&self, shell: &mut Shell, words: &[String]) -> ExecResult;
}

/// What a sandbox's shells reach beyond the VFS, each implemented above
/// the shell: the `goccia` builtin, host programs, the network. `None`:
/// not available (the command says so).
#[derive(Clone, Default)]
pub struct Hooks {
    /// Runs the `goccia` builtin, when the sandbox can nest.
    pub launcher: Option<Arc<dyn ScriptLauncher>>,
    /// The host programs its shells may run.
    pub host: Option<Arc<dyn HostCommands>>,
    /// The network, under the sandbox's policy (`curl`, `wget`).
    pub network: Option<Arc<dyn crate::network::Network>>,
}

/// What every shell of one sandbox shares. Built by [`Context::build`]
/// with a command table; `goccia-shell`'s `context` and
/// `context_with_hooks` supply the whole one.
pub struct Context {
    /// The sandbox's VFS.
    pub vfs: SharedVfs,
    /// The sandbox's deadline (a shell may narrow its own, `timeout`).
    pub watch: Watch,
    /// The limits every shell of the sandbox is held to.
    pub limits: Limits,
    /// Runs the `goccia` builtin, when the sandbox can nest.
    pub launcher: Option<Arc<dyn ScriptLauncher>>,
    /// The commands shells run by name.
    pub table: &'static CommandTable,
    /// Where policy denials (and escalations) are recorded.
    pub audit: Audit,
    /// The host programs its shells may run, if any.
    pub host: Option<Arc<dyn HostCommands>>,
    /// The network, if the sandbox has one.
    pub network: Option<Arc<dyn crate::network::Network>>,
    commands: AtomicU64,
    iterations: AtomicU64,
    next_pid: AtomicU64,
    /// Pipeline stages running now.
    stages: AtomicU64,
    /// The utilities running now (`ps`).
    pub processes: Arc<super::Processes>,
    /// Arithmetic expressions already parsed (loops evaluate the same ones).
    pub(crate) arith_parsed: crate::arith::Parsed,
    /// What this sandbox's shell work allocated (its threads enter it).
    meter: Arc<Meter>,
    /// The meter's bytes allowed for the shell's own work (see
    /// [`Limits::max_memory`]), file contents the VFS gained aside.
    memory_ceiling: AtomicIsize,
    /// The VFS's bytes of content when the run started: what it gains
    /// since is the fs quota's to bound, not the memory limit's.
    vfs_bytes_at_start: AtomicU64,
    /// What the VFS had gained when last seen (kept for a check that finds
    /// the VFS locked).
    vfs_gained: AtomicU64,
}

impl Context {
    /// A context running the commands of `table`.
    pub fn build(
        vfs: SharedVfs,
        watch: Watch,
        limits: Limits,
        table: &'static CommandTable,
        audit: Audit,
        hooks: Hooks,
    ) -> Arc<Self> {
        let context = Context {
            vfs,
            watch,
            limits,
            launcher: hooks.launcher,
            table,
            audit,
            host: hooks.host,
            network: hooks.network,
            commands: AtomicU64::new(0),
            iterations: AtomicU64::new(0),
            next_pid: AtomicU64::new(1000),
            stages: AtomicU64::new(0),
            processes: Arc::default(),
            arith_parsed: Default::default(),
            meter: Meter::new(),
            memory_ceiling: AtomicIsize::new(isize::MAX),
            vfs_bytes_at_start: AtomicU64::new(0),
            vfs_gained: AtomicU64::new(0),
        };
        context.reset_memory_ceiling();
        Arc::new(context)
    }

    /// Charges this thread's allocations to this sandbox until the guard
    /// drops: every thread doing the shell's work enters it.
    pub fn metered(&self) -> Metered {
        Meter::enter(&self.meter)
    }

    /// Fixes the host-memory ceiling for a run starting now: what this
    /// sandbox's work holds, plus `max_memory`. File contents the VFS
    /// gains during the run are allocated by that work too, but they are
    /// the fs quota's to bound: the check takes them off (with the slack
    /// of growing them), so `max_memory` bounds what the shell holds
    /// besides its files (docs/limits.md).
    fn reset_memory_ceiling(&self) {
        let allowance = usize::try_from(self.limits.max_memory).unwrap_or(usize::MAX);
        let ceiling = MemoryCeiling::above_now(&self.meter, allowance);
        self.memory_ceiling.store(ceiling.bytes, Ordering::Relaxed);
        self.vfs_bytes_at_start
            .store(self.vfs.lock().usage().bytes, Ordering::Relaxed);
        self.vfs_gained.store(0, Ordering::Relaxed);
    }

    /// The bytes of content the VFS gained since the run started (the
    /// last figure seen when another thread holds the VFS).
    fn vfs_gained(&self) -> u64 {
        match self.vfs.try_lock() {
            Some(vfs) => {
                let gained = vfs
                    .usage()
                    .bytes
                    .saturating_sub(self.vfs_bytes_at_start.load(Ordering::Relaxed));
                self.vfs_gained.store(gained, Ordering::Relaxed);
                gained
            }
            None => self.vfs_gained.load(Ordering::Relaxed),
        }
    }

    /// True once this sandbox's work holds more than this run's ceiling.
    pub fn memory_exceeded(&self) -> bool {
        self.memory_exceeded_by(0)
    }

    /// True once this sandbox's work, plus `uncounted` bytes the allocator
    /// does not see (a thread's stack), holds more than this run's ceiling.
    pub fn memory_exceeded_by(&self, uncounted: usize) -> bool {
        let bytes = self.memory_ceiling.load(Ordering::Relaxed);
        let ceiling = MemoryCeiling { bytes };
        // Only a meter past the ceiling asks what the files took: their
        // bytes, and as much again for growing them (a file appended to
        // keeps spare capacity, and moves when it outgrows it).
        ceiling.exceeded_by(&self.meter, uncounted)
            && MemoryCeiling {
                bytes: bytes.saturating_add(
                    isize::try_from(self.vfs_gained().saturating_mul(2)).unwrap_or(isize::MAX),
                ),
            }
            .exceeded_by(&self.meter, uncounted)
    }

    /// Forgets the commands and loop iterations counted so far: a new run
    /// (an interactive command line) starts with the whole budget.
    pub fn reset_budgets(&self) {
        self.commands.store(0, Ordering::Relaxed);
        self.iterations.store(0, Ordering::Relaxed);
        self.reset_memory_ceiling();
    }

    /// Reserves `count` running pipeline stages, or says the limit is hit.
    pub(crate) fn reserve_stages(self: &Arc<Self>, count: usize) -> Result<StageReservation, Flow> {
        let count = count as u64;
        let running = self.stages.fetch_add(count, Ordering::SeqCst) + count;
        if running > self.limits.max_concurrent_stages as u64 {
            self.stages.fetch_sub(count, Ordering::SeqCst);
            return Err(Flow::Stop(Stop::Limit(LimitKind::ShellStages)));
        }
        Ok(StageReservation {
            context: self.clone(),
            count,
        })
    }

    /// Counts one command against the limit.
    pub(crate) fn count_command(&self) -> Result<(), Stop> {
        let count = self.commands.fetch_add(1, Ordering::Relaxed) + 1;
        if count > self.limits.max_commands {
            return Err(Stop::Limit(LimitKind::ShellCommands));
        }
        Ok(())
    }

    /// Counts one loop iteration against the limit.
    pub(crate) fn count_iteration(&self) -> Result<(), Stop> {
        let count = self.iterations.fetch_add(1, Ordering::Relaxed) + 1;
        if count > self.limits.max_loop_iterations {
            return Err(Stop::Limit(LimitKind::LoopIterations));
        }
        Ok(())
    }

    /// The hooks this context was built with (for a nested context).
    pub fn hooks(&self) -> Hooks {
        Hooks {
            launcher: self.launcher.clone(),
            host: self.host.clone(),
            network: self.network.clone(),
        }
    }

    pub(crate) fn new_pid(&self) -> u64 {
        self.next_pid.fetch_add(1, Ordering::Relaxed)
    }
}

/// Running pipeline stages, released when dropped.
pub(crate) struct StageReservation {
    context: Arc<Context>,
    count: u64,
}

impl Drop for StageReservation {
    fn drop(&mut self) {
        self.context.stages.fetch_sub(self.count, Ordering::SeqCst);
    }
}
