//! What the host functions of one guest run share: the sandbox's VFS, its
//! output, its deadline, and a record of which limit (if any) stopped it.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use goccia_core::{LimitKind, Output, Stop, Watch};
use goccia_vfs::SharedVfs;
use rquickjs::{Ctx, JsLifetime, Object};

/// The limits a run hit, by evidence. Set by host calls and the interrupt
/// handler; read when the run ends to classify the failure.
#[derive(Debug, Default)]
pub struct Tripwire {
    deadline: AtomicBool,
    cancelled: AtomicBool,
    output: AtomicBool,
    fs_quota: AtomicBool,
    memory: AtomicBool,
    /// A shell limit (commands, loops, function depth, stages, value size,
    /// host memory) hit by a `$` command: it ends the whole run.
    shell: parking_lot::Mutex<Option<LimitKind>>,
}

impl Tripwire {
    pub fn trip(&self, limit: LimitKind) {
        let flag = match limit {
            LimitKind::Deadline => &self.deadline,
            LimitKind::Output => &self.output,
            LimitKind::FsBytes | LimitKind::FsNodes => &self.fs_quota,
            LimitKind::Memory => &self.memory,
            LimitKind::ShellCommands
            | LimitKind::LoopIterations
            | LimitKind::FunctionDepth
            | LimitKind::ShellStages
            | LimitKind::ShellValue
            | LimitKind::HostMemory => {
                self.shell.lock().get_or_insert(limit);
                return;
            }
            // Catchable, so not a stop of the run: a stack overflow is a
            // `RangeError`, nesting too deep an `ERR_DEPTH` to the caller.
            // (No `_` arm: a new limit kind must say which it is.)
            LimitKind::Stack | LimitKind::Depth => return,
        };
        flag.store(true, Ordering::SeqCst);
    }

    pub fn trip_cancelled(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }

    /// A limit that must end the run at once (uncatchable): the deadline,
    /// a cancellation, or the output cap.
    pub fn fatal(&self) -> Option<Stopped> {
        if self.deadline.load(Ordering::SeqCst) {
            Some(Stopped::Limit(LimitKind::Deadline))
        } else if self.cancelled.load(Ordering::SeqCst) {
            Some(Stopped::Cancelled)
        } else if self.output.load(Ordering::SeqCst) {
            Some(Stopped::Limit(LimitKind::Output))
        } else {
            self.shell.lock().map(Stopped::Limit)
        }
    }

    pub fn fs_quota_hit(&self) -> bool {
        self.fs_quota.load(Ordering::SeqCst)
    }

    pub fn memory_hit(&self) -> bool {
        self.memory.load(Ordering::SeqCst)
    }
}

/// Why a run was stopped from outside the guest's control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    Limit(LimitKind),
    Cancelled,
}

/// Everything the host functions of one JS runtime need.
pub struct Host {
    pub vfs: SharedVfs,
    pub output: Output,
    pub watch: Watch,
    pub tripwire: Arc<Tripwire>,
    /// The shell all `$` of this sandbox share.
    pub shell: crate::nest::SharedShell,
    /// Runs `runScript` and the shell's `goccia` builtin.
    pub nest: Arc<dyn crate::nest::Nest>,
    /// What `fetch` may reach.
    pub network: goccia_core::NetPolicy,
    /// Where refusals and other decisions are recorded.
    pub audit: goccia_core::Audit,
    /// `--max-memory`, which also bounds the host memory of `$` commands.
    pub max_memory: u64,
}

impl Host {
    /// Checks the deadline and cancellation; records what stopped the run.
    pub fn check(&self) -> Result<(), Stopped> {
        if let Some(stopped) = self.tripwire.fatal() {
            return Err(stopped);
        }
        match self.watch.check() {
            Ok(()) => Ok(()),
            Err(Stop::Deadline) => {
                self.tripwire.trip(LimitKind::Deadline);
                Err(Stopped::Limit(LimitKind::Deadline))
            }
            Err(Stop::Cancelled) => {
                self.tripwire.trip_cancelled();
                Err(Stopped::Cancelled)
            }
        }
    }
}

/// The host, reachable from module definitions through the runtime's
/// userdata.
#[derive(Clone)]
pub struct HostRef(pub Rc<Host>);

unsafe impl<'js> JsLifetime<'js> for HostRef {
    type Changed<'to> = HostRef;
}

/// Internals the globals prelude returned (timers, `defer`, `inspect`),
/// for the built-in modules and the event loop. Never reachable from guest
/// code.
#[derive(Clone)]
pub struct Internals<'js>(pub Object<'js>);

unsafe impl<'js> JsLifetime<'js> for Internals<'js> {
    type Changed<'to> = Internals<'to>;
}

/// The host of the current runtime.
pub fn host_of(ctx: &Ctx<'_>) -> Rc<Host> {
    ctx.userdata::<HostRef>()
        .expect("the host is installed before any guest code runs")
        .0
        .clone()
}
