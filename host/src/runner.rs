//! [`HostRunner`]: the shell's host commands (contract §14). For each
//! command: the backend (probed once), the sandbox's scratch tree brought
//! in step with the VFS, the jail for the policy in force, the program
//! run with the shell's descriptors, and what it changed read back into
//! the VFS under that same policy, all or nothing.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Weak};
use std::time::Instant;

use goccia_core::{LimitKind, Stop};
use goccia_shell::{ExecResult, Flow, HostCommands, Shell};
use goccia_vfs::policy::{PolicyMode, WritePolicy, escalation_hint};
use goccia_vfs::{FsError, QuotaKind, SharedVfs, Vfs};
use parking_lot::Mutex;

use crate::jail::{Jail, View};
use crate::probe::{Backend, backend};
use crate::programs::Program;
use crate::scratch::{Edit, Scratch};
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
        }
    }
}

/// One scratch tree per VFS (a sandbox and each of its children).
type Scratches = HashMap<usize, (Weak<parking_lot::Mutex<Vfs>>, Arc<Mutex<Option<Scratch>>>)>;

/// The host commands of a sandbox (and of the runs it nests).
pub struct HostRunner {
    settings: HostSettings,
    scratches: Mutex<Scratches>,
}

impl std::fmt::Debug for HostRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostRunner")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl HostRunner {
    /// Host commands as `settings` say.
    pub fn new(settings: HostSettings) -> Arc<HostRunner> {
        Arc::new(HostRunner {
            settings,
            scratches: Mutex::new(HashMap::new()),
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
        let name = words[0].clone();
        let Some(program) = self.program(&name).cloned() else {
            return Ok(127);
        };
        let backend = match self.backend() {
            Ok(backend) => backend,
            Err(why) => {
                shell.write_stderr(format!("{name}: sandbox unavailable: {why}\n").as_bytes());
                return Ok(126);
            }
        };
        let context = shell.context().clone();
        let vfs = context.vfs.clone();
        // The policy this command runs under: an escalation's, else the
        // sandbox's own.
        let policy = goccia_vfs::policy::current_scope()
            .or_else(|| vfs.lock().policy())
            .unwrap_or_else(|| WritePolicy::new(PolicyMode::Full, [], []));
        let slot = self.scratch_for(&vfs);
        let tree = vfs.lock().snapshot();
        let (root, view, identity) = {
            let mut slot = slot.lock();
            if slot.is_none() {
                match Scratch::new(crate::spawn::Identity::fresh()) {
                    Ok(scratch) => *slot = Some(scratch),
                    Err(error) => return Ok(unprepared(shell, &name, &error)),
                }
            }
            let scratch = slot.as_mut().expect("made above");
            if let Err(error) = scratch.sync(&tree) {
                let _ = scratch.reset();
                return Ok(unprepared(shell, &name, &error));
            }
            (
                scratch.root().to_path_buf(),
                View::of(&tree, &policy),
                scratch.identity(),
            )
        };
        let env = shell.exported();
        let jail = Jail {
            bwrap: &backend.bwrap,
            scratch: &root,
            view: &view,
            cwd: shell.cwd(),
            env: &env,
            program: &program.path,
            launcher: backend.launcher.as_deref(),
        };
        let argv = jail.argv(&words[1..]);
        context.audit.record(
            "host-command",
            "spawn",
            words.join(" "),
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
        };
        let fds = shell.fds();
        let (stdin, stdout, stderr) = (fds.input(0), fds.output(1), fds.output(2));
        let ended = run(
            &argv,
            identity,
            stdin,
            stdout,
            stderr,
            shell.watch(),
            bounds,
        );
        let (status, read_only_refusal) = match ended {
            Ok(Ended::Exited {
                status,
                read_only_refusal,
            }) => (status, read_only_refusal),
            Ok(Ended::Stopped(stop)) => {
                context.audit.record(
                    "host-command",
                    "exit",
                    name.clone(),
                    Some(format!(
                        "killed ({stop:?}) after {}",
                        crate::spawn::since(started)
                    )),
                );
                return Err(Flow::Stop(stop));
            }
            Err(error) => {
                shell.write_stderr(
                    format!("{name}: sandbox unavailable: cannot start bwrap: {error}\n")
                        .as_bytes(),
                );
                return Ok(126);
            }
        };
        let taken = self.read_back(&slot, &vfs, &view, &policy, shell, &name);
        context.audit.record(
            "host-command",
            "exit",
            name.clone(),
            Some(format!(
                "status {status}, {}, {} files read back",
                crate::spawn::since(started),
                taken.as_ref().map_or(0, |n| *n)
            )),
        );
        match taken {
            Ok(_) => {}
            Err(ReadBackFailure::Stopped(stop)) => return Err(Flow::Stop(stop)),
            Err(ReadBackFailure::Refused(status)) => return Ok(status),
        }
        if status != 0 && read_only_refusal && policy.mode() != PolicyMode::Full {
            // The jail's own dialect said a write was refused: say why in
            // the policy's words.
            let denial = policy.denial();
            let mut line = format!("{name}: {}", denial.marker());
            if policy.approver().is_some() {
                line.push(' ');
                line.push_str(&escalation_hint(goccia_vfs::policy::Subject::Command));
            }
            line.push('\n');
            shell.write_stderr(line.as_bytes());
        }
        Ok(status)
    }
}

/// Why what a command changed was not taken.
enum ReadBackFailure {
    /// Over the quota: the run ends (exit 3).
    Stopped(Stop),
    /// Refused by the policy, or unreadable: the command's status.
    Refused(i32),
}

impl HostRunner {
    /// Takes what the command changed under the writable paths into the
    /// VFS, all or nothing; the number of files taken.
    fn read_back(
        &self,
        slot: &Mutex<Option<Scratch>>,
        vfs: &SharedVfs,
        view: &View,
        policy: &WritePolicy,
        shell: &mut Shell,
        name: &str,
    ) -> Result<usize, ReadBackFailure> {
        if view.writable.is_empty() {
            return Ok(0);
        }
        let mut slot = slot.lock();
        let Some(scratch) = slot.as_mut() else {
            return Ok(0);
        };
        let remaining = vfs.lock().remaining().max_bytes;
        let found = match scratch.read_back(&view.writable, remaining) {
            Ok(found) => found,
            Err(error) if error.kind() == std::io::ErrorKind::StorageFull => {
                let _ = scratch.reset();
                return Err(ReadBackFailure::Stopped(Stop::Limit(LimitKind::FsBytes)));
            }
            Err(error) => {
                let _ = scratch.reset();
                shell.write_stderr(
                    format!("{name}: cannot read back what it changed: {error}\n").as_bytes(),
                );
                return Err(ReadBackFailure::Refused(1));
            }
        };
        for (path, what) in &found.skipped {
            shell.write_stderr(
                format!(
                    "{name}: {}: {what} is not kept (the sandbox holds files and folders only)\n",
                    goccia_vfs::shown(path.as_str())
                )
                .as_bytes(),
            );
        }
        if found.edits.is_empty() {
            return Ok(0);
        }
        let _scope = goccia_vfs::policy::Scope::enter(policy.clone());
        let applied = vfs.lock().all_or_nothing(|vfs| apply(vfs, &found.edits));
        match applied {
            Ok(()) => {
                let tree = vfs.lock().snapshot();
                let _ = scratch.taken(&found.edits, &tree);
                Ok(found
                    .edits
                    .iter()
                    .filter(|edit| matches!(edit, Edit::Write { .. }))
                    .count())
            }
            Err(error) => {
                // The host folder holds what the VFS does not: written
                // again from the VFS before the next command.
                let _ = scratch.reset();
                if let Some(kind) = error.quota {
                    let limit = match kind {
                        QuotaKind::Bytes => LimitKind::FsBytes,
                        QuotaKind::Nodes => LimitKind::FsNodes,
                    };
                    return Err(ReadBackFailure::Stopped(Stop::Limit(limit)));
                }
                let message = match &error.denied {
                    Some(denied) => denied.shell_message(name, error.path.as_str()),
                    None => format!("{name}: {}: {}", error.path, error.errno.strerror()),
                };
                shell.write_stderr(format!("{message}\n").as_bytes());
                Err(ReadBackFailure::Refused(1))
            }
        }
    }
}

fn apply(vfs: &mut Vfs, edits: &[Edit]) -> Result<(), FsError> {
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
        }
    }
    Ok(())
}

fn unprepared(shell: &mut Shell, name: &str, error: &std::io::Error) -> i32 {
    shell.write_stderr(format!("{name}: cannot prepare the sandbox's files: {error}\n").as_bytes());
    126
}
