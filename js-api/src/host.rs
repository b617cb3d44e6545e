//! What the host functions of one guest run share: the sandbox's VFS, its
//! output, its deadline, and a record of which limit (if any) stopped it.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use goccia_core::{Output, Stop, Watch};
use goccia_vfs::SharedVfs;
use rquickjs::{Ctx, JsLifetime, Object};

/// What stopped a run, by evidence. Set by host calls and the interrupt
/// handler; read when the run ends to classify the failure. It records
/// stops as they are ([`Stop`]): no kind is translated or dropped.
#[derive(Debug, Default)]
pub struct Tripwire {
    /// The first stop that ends the run (uncatchable).
    stop: parking_lot::Mutex<Option<Stop>>,
    /// A quota refusal reached the guest (an ENOSPC it may catch).
    fs_quota: AtomicBool,
    /// The heap limit was reached (an out-of-memory it may catch).
    memory: AtomicBool,
    /// `process.exit(code)` was called: the run ends with `code`.
    exit: parking_lot::Mutex<Option<i32>>,
    /// `process.exitCode`: the code of a run that ends on its own.
    exit_code: parking_lot::Mutex<Option<i32>>,
}

impl Tripwire {
    /// Records a stop that ends the run; the first one recorded wins.
    pub fn stop(&self, stop: Stop) {
        self.stop.lock().get_or_insert(stop);
    }

    /// The stop that ends the run, if one was recorded.
    pub fn fatal(&self) -> Option<Stop> {
        *self.stop.lock()
    }

    /// Notes that a quota refusal reached the guest.
    pub fn note_fs_quota(&self) {
        self.fs_quota.store(true, Ordering::SeqCst);
    }

    /// Notes that the heap limit was reached.
    pub fn note_memory(&self) {
        self.memory.store(true, Ordering::SeqCst);
    }

    /// Records `process.exit(code)`; the first call wins.
    pub fn exit(&self, code: i32) {
        self.exit.lock().get_or_insert(code);
    }

    /// The code `process.exit` asked for, if it was called.
    pub fn exit_requested(&self) -> Option<i32> {
        *self.exit.lock()
    }

    /// Sets (or clears) `process.exitCode`.
    pub fn set_exit_code(&self, code: Option<i32>) {
        *self.exit_code.lock() = code;
    }

    /// `process.exitCode`, if set.
    pub fn exit_code(&self) -> Option<i32> {
        *self.exit_code.lock()
    }

    /// Whether a quota refusal reached the guest.
    pub fn fs_quota_hit(&self) -> bool {
        self.fs_quota.load(Ordering::SeqCst)
    }

    /// Whether the heap limit was reached.
    pub fn memory_hit(&self) -> bool {
        self.memory.load(Ordering::SeqCst)
    }
}

/// The host programs a sandbox's shells may run, if any (docs/host-commands.md):
/// shared by every shell of the sandbox and of the runs it nests.
#[derive(Clone, Default)]
pub struct HostPrograms(pub Option<Arc<dyn goccia_shell::HostCommands>>);

impl std::fmt::Debug for HostPrograms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(programs) => write!(f, "HostPrograms({:?})", programs.names()),
            None => f.write_str("HostPrograms(none)"),
        }
    }
}

/// Two sets are equal when they are the same one.
impl PartialEq for HostPrograms {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Everything the host functions of one JS runtime need.
pub struct Host {
    /// The sandbox's VFS.
    pub vfs: SharedVfs,
    /// Where the guest's output goes.
    pub output: Output,
    /// The run's deadline.
    pub watch: Watch,
    /// What stopped the run, by evidence.
    pub tripwire: Arc<Tripwire>,
    /// The shell all `$` of this sandbox share.
    pub shell: crate::nest::SharedShell,
    /// Runs `runScript` and the shell's `goccia` builtin.
    pub nest: Arc<dyn crate::nest::Nest>,
    /// What `fetch` may reach.
    pub network: goccia_core::NetPolicy,
    /// Where `fetch` goes instead of the network, if anywhere.
    pub relay: crate::fetch::FetchRelay,
    /// The host programs its shells may run (docs/host-commands.md).
    pub programs: HostPrograms,
    /// Where refusals and other decisions are recorded.
    pub audit: goccia_core::Audit,
    /// The run's limits (and those of the `$` shell).
    pub limits: goccia_core::Limits,
    /// The surface's words for raising a limit, appended to messages.
    pub advice: goccia_core::Advice,
    /// Exported variables every shell of the run starts with (and
    /// `process.env`).
    pub env: Vec<(String, String)>,
    /// The run's entry (`process.argv[1]`).
    pub entry: String,
    /// What `process.stdin` reads (none: it ends at once).
    pub stdin: Option<goccia_shell::io::SharedReader>,
}

impl Host {
    /// The working directory of the sandbox's shell session: relative
    /// paths (the `fs` module's) resolve from it, as in the shell.
    pub fn cwd(&self) -> goccia_vfs::VfsPath {
        self.shell
            .lock()
            .as_ref()
            .map_or_else(goccia_vfs::VfsPath::root, |shell| shell.cwd().clone())
    }

    /// Checks the deadline and cancellation; records what stopped the run.
    pub fn check(&self) -> Result<(), Stop> {
        if let Some(stop) = self.tripwire.fatal() {
            return Err(stop);
        }
        self.watch
            .check()
            .inspect_err(|stop| self.tripwire.stop(*stop))
    }

    /// Records `stop` as the run's own and hands it back (to throw).
    pub fn stopped(&self, stop: Stop) -> Stop {
        self.tripwire.stop(stop);
        self.tripwire.fatal().unwrap_or(stop)
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
