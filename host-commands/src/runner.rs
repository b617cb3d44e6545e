//! [`HostRunner`]: the shell's host commands (docs/host-commands.md). A command is
//! [`HostRunner::invoke`]d — the backend (probed once), the sandbox's
//! scratch tree brought in step with its tree, the jail for the policy in
//! force, the program run with the given streams, and what it changed read
//! back as edits — and then [`conclude`]d where the shell is: the edits
//! taken into the VFS under the same policy, all or nothing, and the
//! status. In-process both happen in the shell's [`HostCommands::run`]; an
//! isolated worker concludes what its parent invoked.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Weak};
use std::time::Instant;

use goccia_core::{Audit, LimitKind, Stop, Watch};
use goccia_shell::{ExecResult, Flow, HostCommands, Shell};
use goccia_vfs::policy::{PolicyMode, WritePolicy, escalation_hint};
use goccia_vfs::{FsError, QuotaKind, SharedVfs, Snapshot, Vfs, VfsPath};
use parking_lot::Mutex;

use goccia_gateway::proxy::Gateway;

use crate::jail::{Jail, View};
use crate::probe::{Backend, backend};
use crate::programs::Program;
use crate::scratch::{Edit, QuotaGuard, Scratch};
/// Where a command's standard streams come from (defined beside the
/// spawn that consumes them).
pub use crate::spawn::Streams;
use crate::spawn::{Bounds, Ended, run};

/// Everything host commands are set up with.
#[derive(Clone, Debug)]
pub struct HostSettings {
    /// The programs, by name.
    pub programs: Vec<Program>,
    /// `RLIMIT_AS` of every process a command starts (default 1 GiB).
    pub memory: u64,
    /// Processes a command may run at once (default 256).
    pub processes: u64,
    /// The bubblewrap program (default `bwrap`, looked up in the system
    /// directories).
    pub bwrap: PathBuf,
    /// The goccia binary, bound inside to add Landlock (none: Landlock is
    /// reported missing).
    pub launcher: Option<PathBuf>,
    /// The sandbox's gateway: with a rule in it, commands reach it as
    /// their HTTP proxy (docs/network.md); without, they have no network.
    pub gateway: Option<Arc<Gateway>>,
}

impl HostSettings {
    /// The defaults for `programs`: 1 GiB, 256 processes, `bwrap`, this
    /// program as the launcher.
    pub fn new(programs: Vec<Program>) -> Self {
        HostSettings {
            programs,
            memory: 1 << 30,
            processes: 256,
            bwrap: PathBuf::from("bwrap"),
            launcher: std::env::current_exe().ok(),
            gateway: None,
        }
    }
}

/// One scratch tree per sandbox (a sandbox and each of its children),
/// by the identity of its VFS.
type Scratches = HashMap<usize, (Weak<parking_lot::Mutex<Vfs>>, Arc<Mutex<Option<Scratch>>>)>;

/// The host commands of a sandbox (and of the runs it nests).
pub struct HostRunner {
    settings: HostSettings,
    scratches: Mutex<Scratches>,
    /// The certificate bundle the jails trust, written when first needed
    /// (removed with the runner).
    bundle: Mutex<Option<tempfile::TempPath>>,
}

impl std::fmt::Debug for HostRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostRunner")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

/// One command to run.
pub struct Invocation<'a> {
    /// The name and its arguments.
    pub words: &'a [String],
    /// The shell's working directory.
    pub cwd: &'a VfsPath,
    /// The variables the shell exports.
    pub env: &'a [(String, String)],
    /// The policy the command runs under (an escalation's, or the
    /// sandbox's own).
    pub policy: &'a WritePolicy,
    /// The sandbox's tree as the command starts.
    pub tree: Snapshot,
    /// The sandbox (its VFS): the scratch tree is kept per sandbox.
    pub sandbox: &'a SharedVfs,
    /// Bytes of file content the sandbox may still take.
    pub room: u64,
    /// Its streams.
    pub streams: Streams,
    /// Its deadline and cancellation.
    pub watch: &'a Watch,
    /// Where `spawn` and `exit` are recorded.
    pub audit: &'a Audit,
}

/// How an invoked command went.
#[derive(Debug)]
pub enum Invoked {
    /// It ran: its status, what it changed, what to tell the user.
    Ran {
        /// Its exit status.
        status: i32,
        /// What it changed under the writable paths, to take.
        edits: Vec<Edit>,
        /// Lines for stderr (what was not kept).
        notes: Vec<String>,
        /// Its stderr said "Read-only file system".
        read_only_refusal: bool,
    },
    /// The deadline, a cancellation, the output budget or the quota
    /// stopped it; everything it started was killed.
    Stopped(Stop),
    /// It could not run: a status (126) and why.
    Failed {
        /// The status.
        status: i32,
        /// The line for stderr.
        message: String,
    },
}

impl HostRunner {
    /// The host file of the bundle the jails trust (the system's roots,
    /// the CA files and the sandbox's authority), written once.
    fn bundle_for(&self, gateway: &Gateway) -> Result<PathBuf, String> {
        let mut slot = self.bundle.lock();
        if let Some(path) = slot.as_ref() {
            return Ok(path.to_path_buf());
        }
        let pem = gateway.jail_bundle()?;
        let mut file = tempfile::Builder::new()
            .prefix("goccia-ca-")
            .suffix(".pem")
            .tempfile()
            .map_err(|error| error.to_string())?;
        std::io::Write::write_all(&mut file, &pem).map_err(|error| error.to_string())?;
        // Readable by the jail's own user (a sandbox id when goccia is root).
        std::fs::set_permissions(
            file.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o644),
        )
        .map_err(|error| error.to_string())?;
        let path = file.into_temp_path();
        let found = path.to_path_buf();
        *slot = Some(path);
        Ok(found)
    }

    /// Host commands as `settings` say.
    pub fn new(settings: HostSettings) -> Arc<HostRunner> {
        Arc::new(HostRunner {
            settings,
            scratches: Mutex::new(HashMap::new()),
            bundle: Mutex::new(None),
        })
    }

    /// The programs.
    pub fn programs(&self) -> &[Program] {
        &self.settings.programs
    }

    /// The backend and what it enforces, or why there is none (probed on
    /// the first call, then remembered).
    pub fn backend(&self) -> Result<Backend, String> {
        backend(&self.settings.bwrap, self.settings.launcher.as_deref())
    }

    /// The scratch tree of `vfs`, made on first use.
    fn scratch_for(&self, vfs: &SharedVfs) -> Arc<Mutex<Option<Scratch>>> {
        let mut scratches = self.scratches.lock();
        scratches.retain(|_, (weak, _)| weak.strong_count() > 0);
        let key = Arc::as_ptr(vfs) as usize;
        scratches
            .entry(key)
            .or_insert_with(|| (Arc::downgrade(vfs), Arc::new(Mutex::new(None))))
            .1
            .clone()
    }

    fn program(&self, name: &str) -> Option<&Program> {
        self.settings.programs.iter().find(|p| p.name == name)
    }

    /// Runs one command and reads back what it changed (nothing is taken
    /// into the VFS here: see [`conclude`]).
    pub fn invoke(&self, invocation: Invocation<'_>) -> Invoked {
        let name = invocation.words[0].clone();
        let Some(program) = self.program(&name).cloned() else {
            return Invoked::Failed {
                status: 127,
                message: format!("{name}: command not found"),
            };
        };
        let backend = match self.backend() {
            Ok(backend) => backend,
            Err(why) => {
                return Invoked::Failed {
                    status: 126,
                    message: format!("{name}: sandbox unavailable: {why}"),
                };
            }
        };
        let unprepared = |error: std::io::Error| Invoked::Failed {
            status: 126,
            message: format!("{name}: cannot prepare the sandbox's files: {error}"),
        };
        let policy = invocation.policy;
        let tree = &invocation.tree;
        let slot = self.scratch_for(invocation.sandbox);
        let (root, view, identity) = {
            let mut slot = slot.lock();
            if slot.is_none() {
                match Scratch::new(crate::spawn::Identity::fresh()) {
                    Ok(scratch) => *slot = Some(scratch),
                    Err(error) => return unprepared(error),
                }
            }
            let scratch = slot.as_mut().expect("made above");
            if let Err(error) = scratch.sync(tree) {
                let _ = scratch.reset();
                return unprepared(error);
            }
            (
                scratch.root().to_path_buf(),
                View::of(tree, policy),
                scratch.identity(),
            )
        };
        let gateway = self.settings.gateway.as_ref().filter(|g| g.is_open());
        let bundle = match gateway.map(|gateway| self.bundle_for(gateway)).transpose() {
            Ok(bundle) => bundle,
            Err(why) => {
                return Invoked::Failed {
                    status: 126,
                    message: format!("{name}: cannot prepare the sandbox's network: {why}"),
                };
            }
        };
        let network = match gateway.map(|gateway| {
            goccia_gateway::jail_net::Handover::new()
                .map(|handover| crate::spawn::JailNetwork { gateway, handover })
        }) {
            Some(Err(error)) => {
                return Invoked::Failed {
                    status: 126,
                    message: format!("{name}: cannot prepare the sandbox's network: {error}"),
                };
            }
            Some(Ok(network)) => Some(network),
            None => None,
        };
        let jail = Jail {
            gateway_bundle: bundle.as_deref(),
            bwrap: &backend.bwrap,
            scratch: &root,
            view: &view,
            cwd: invocation.cwd,
            env: invocation.env,
            program: &program.path,
            launcher: backend.launcher.as_deref(),
            tmp_bytes: invocation.room,
        };
        let argv = jail.argv(&invocation.words[1..]);
        invocation.audit.record(
            "host-command",
            "spawn",
            invocation.words.join(" "),
            Some(format!(
                "policy {}, enforcement {} ({})",
                policy.mode(),
                backend.enforcement,
                backend.layers.join(", ")
            )),
        );
        let started = Instant::now();
        let bounds = Bounds {
            memory: self.settings.memory,
            processes: self.settings.processes,
            // One byte past the room: a file that reaches it fails the
            // read-back on the quota (exit 3, as any write past the quota
            // does), and none can grow further (EFBIG). The quota guard may
            // also stop the command first, between the kernel's short write
            // and the command's EFBIG: exit 3 either way.
            file_size: Some(invocation.room.saturating_add(1)),
        };
        let mut quota = {
            let slot = slot.lock();
            let scratch = slot.as_ref().expect("made above");
            QuotaGuard::new(scratch, &view.writable, tree, invocation.room)
        };
        let mut guard = || quota.over().then_some(Stop::Limit(LimitKind::FsBytes));
        // The program's name only: its arguments may hold a file's
        // contents (docs/telemetry.md).
        let span = tracing::info_span!(
            "goccia.host_command",
            process.command = %name,
            process.exit.code = tracing::field::Empty,
        );
        let _entered = span.enter();
        let ended = run(
            &argv,
            identity,
            invocation.streams,
            invocation.watch,
            bounds,
            Some(&mut guard),
            network,
        );
        let exit = |reason: String| {
            invocation
                .audit
                .record("host-command", "exit", name.clone(), Some(reason))
        };
        let (status, read_only_refusal) = match ended {
            Ok(Ended::Exited {
                status,
                read_only_refusal,
            }) => {
                span.record("process.exit.code", status);
                (status, read_only_refusal)
            }
            Ok(Ended::Stopped(stop)) => {
                exit(format!(
                    "killed ({stop:?}) after {}",
                    crate::spawn::since(started)
                ));
                // What it wrote before it was stopped is not the sandbox's:
                // the next command starts from the tree, not from that.
                if let Some(scratch) = slot.lock().as_mut() {
                    let _ = scratch.reset();
                }
                return Invoked::Stopped(stop);
            }
            Err(error) => {
                return Invoked::Failed {
                    status: 126,
                    message: format!("{name}: sandbox unavailable: cannot start bwrap: {error}"),
                };
            }
        };
        let read = read_back(&slot, tree, &view, invocation.room, &name);
        let files = match &read {
            Ok((edits, _)) => edits
                .iter()
                .filter(|edit| matches!(edit, Edit::Write { .. }))
                .count(),
            Err(_) => 0,
        };
        exit(format!(
            "status {status}, {}, {files} files read back",
            crate::spawn::since(started)
        ));
        match read {
            Ok((edits, notes)) => Invoked::Ran {
                status,
                edits,
                notes,
                read_only_refusal,
            },
            Err(invoked) => invoked,
        }
    }
}

/// What the command changed under the writable paths, as edits; the
/// scratch tree then counts as holding `tree` with them (a caller that does
/// not take them gets them undone on disk by the next sync).
fn read_back(
    slot: &Mutex<Option<Scratch>>,
    tree: &Snapshot,
    view: &View,
    room: u64,
    name: &str,
) -> Result<(Vec<Edit>, Vec<String>), Invoked> {
    if view.writable.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut slot = slot.lock();
    let Some(scratch) = slot.as_mut() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let found = match scratch.read_back(&view.writable, room) {
        Ok(found) => found,
        Err(error) if error.kind() == std::io::ErrorKind::StorageFull => {
            let _ = scratch.reset();
            return Err(Invoked::Stopped(Stop::Limit(LimitKind::FsBytes)));
        }
        Err(error) => {
            let _ = scratch.reset();
            return Err(Invoked::Failed {
                status: 1,
                message: format!("{name}: cannot read back what it changed: {error}"),
            });
        }
    };
    let notes = found
        .skipped
        .iter()
        .map(|(path, what)| {
            format!(
                "{name}: {}: {what} is not kept (the sandbox holds files, folders and links only)",
                goccia_vfs::shown(path.as_str())
            )
        })
        .collect();
    if !found.edits.is_empty() {
        // What the host folder now holds: the tree with the edits.
        let mut after = Vfs::from_snapshot(tree, goccia_vfs::Quota::UNLIMITED);
        if apply(&mut after, &found.edits).is_ok() {
            let _ = scratch.taken(&found.edits, &after.snapshot());
        } else {
            let _ = scratch.reset();
        }
    }
    Ok((found.edits, notes))
}

/// Takes `invoked` where the shell is: its notes and messages on stderr,
/// its edits into the shell's VFS under `policy` (all or nothing: past the
/// quota the run stops, a denial changes nothing and is reported), and the
/// policy's marker after a refused write the jail reported; its status.
pub fn conclude(
    shell: &mut Shell,
    name: &str,
    policy: &WritePolicy,
    invoked: Invoked,
) -> ExecResult {
    let (status, edits, notes, read_only_refusal) = match invoked {
        Invoked::Ran {
            status,
            edits,
            notes,
            read_only_refusal,
        } => (status, edits, notes, read_only_refusal),
        Invoked::Stopped(stop) => return Err(Flow::Stop(stop)),
        Invoked::Failed { status, message } => {
            shell.write_stderr(format!("{message}\n").as_bytes());
            return Ok(status);
        }
    };
    for note in notes {
        shell.write_stderr(format!("{note}\n").as_bytes());
    }
    if !edits.is_empty() {
        let vfs = shell.context().vfs.clone();
        let _scope = goccia_vfs::policy::Scope::enter(policy.clone());
        let applied = vfs.lock().all_or_nothing(|vfs| apply(vfs, &edits));
        if let Err(error) = applied {
            if let Some(kind) = error.quota {
                let limit = match kind {
                    QuotaKind::Bytes => LimitKind::FsBytes,
                    QuotaKind::Nodes => LimitKind::FsNodes,
                };
                return Err(Flow::Stop(Stop::Limit(limit)));
            }
            let message = match &error.denied {
                Some(denied) => denied.shell_message(name, error.path.as_str()),
                None => format!("{name}: {}: {}", error.path, error.errno.strerror()),
            };
            shell.write_stderr(format!("{message}\n").as_bytes());
            return Ok(1);
        }
    }
    if status != 0 && read_only_refusal && policy.mode() != PolicyMode::Full {
        // The jail's own dialect said a write was refused: say why in the
        // policy's words.
        let mut line = format!("{name}: {}", policy.denial().marker());
        if policy.approver().is_some() {
            line.push(' ');
            line.push_str(&escalation_hint(goccia_vfs::policy::Subject::Command));
        }
        line.push('\n');
        shell.write_stderr(line.as_bytes());
    }
    Ok(status)
}

/// The policy a shell command runs under now: an escalation's, else the
/// sandbox's own (full when the tree is not fenced).
pub fn policy_in_force(vfs: &SharedVfs) -> WritePolicy {
    goccia_vfs::policy::current_scope()
        .or_else(|| vfs.lock().policy())
        .unwrap_or_else(|| WritePolicy::new(PolicyMode::Full, [], []))
}

impl HostCommands for HostRunner {
    fn has(&self, name: &str) -> bool {
        self.program(name).is_some()
    }

    fn names(&self) -> Vec<String> {
        self.settings
            .programs
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    fn run(&self, shell: &mut Shell, words: &[String]) -> ExecResult {
        let vfs = shell.context().vfs.clone();
        let policy = policy_in_force(&vfs);
        let tree = vfs.lock().snapshot();
        let room = vfs.lock().remaining().max_bytes;
        let env = shell.exported();
        let cwd = shell.cwd().clone();
        let fds = shell.fds();
        let streams = Streams::Shell {
            stdin: fds.input(0),
            stdout: fds.output(1),
            stderr: fds.output(2),
        };
        let audit = shell.context().audit.clone();
        let watch = shell.watch().clone();
        let invoked = self.invoke(Invocation {
            words,
            cwd: &cwd,
            env: &env,
            policy: &policy,
            tree,
            sandbox: &vfs,
            room,
            streams,
            watch: &watch,
            audit: &audit,
        });
        conclude(shell, &words[0], &policy, invoked)
    }
}

/// Applies edits to a tree (under whatever policy the caller entered).
pub fn apply(vfs: &mut Vfs, edits: &[Edit]) -> Result<(), FsError> {
    for edit in edits {
        match edit {
            Edit::Remove { path } => vfs.remove_all(path)?,
            Edit::Mkdir { path, mode } => {
                vfs.mkdir(path)?;
                vfs.set_mode(path, *mode)?;
            }
            Edit::Write { path, data, mode } => {
                vfs.write_file(path, data.clone())?;
                vfs.set_mode(path, *mode)?;
            }
            Edit::Chmod { path, mode } => vfs.set_mode(path, *mode)?,
            Edit::Link { path, target } => vfs.symlink(path, target)?,
        }
    }
    Ok(())
}
