//! [`Sandbox`]: a VFS seeded by the host, the baseline it was seeded to,
//! and the host's write-back mappings. Scripts and command lines run in it
//! one after another; the host reads, writes and diffs it in between.

use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use goccia_core::{Limits, Output, OutputBudget, Watch};
use goccia_vfs::write_back::{CopyRwMapping, WriteBackReport, write_back};
use goccia_vfs::{Change, DiffFormat, FsError, NodeType, SharedVfs, Snapshot, Vfs, VfsPath};
use goccia_vm::{Engine, ExecMode, RunRequest};
use parking_lot::Mutex;

use crate::Run;
use crate::error::{AccessError, ApplyError, RunError, WriteBackError};
use crate::session::PersistentShell;
use goccia_vfs::{MergeReport, PatchError, PatchOptions, PatchedFile};

/// What [`Sandbox::write_back_after`] did.
#[derive(Debug)]
pub enum WriteBackOutcome {
    /// No seed was marked `copy_rw`: there is nothing to write back.
    NoMappings,
    /// The run failed, so nothing was written.
    Skipped {
        /// The failed run's exit code.
        exit_code: i32,
    },
    /// Written; the report says what landed and what was skipped.
    Written(WriteBackReport),
}

/// One entry of [`Sandbox::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file or folder name (no path).
    pub name: String,
    /// File or directory.
    pub node_type: NodeType,
}

/// A seeded sandbox: a session in which scripts and shell command lines
/// run one after another on the same VFS (and, for [`Sandbox::run_shell`],
/// the same shell state). `Send + Sync`; runs from several threads are
/// serialised on the VFS, not on the sandbox.
///
/// ```
/// # use goccia::{DiffFormat, Sandbox};
/// let sandbox = Sandbox::builder()
///     .file("/src/a.txt", "one\n")
///     .file("/edit.js", r#"
///         import fs from "fs";
///         fs.appendFileSync("/src/a.txt", "two\n");
///     "#)
///     .build()?;
/// assert!(sandbox.run_script("/edit.js")?.success());
/// assert_eq!(sandbox.run_shell("wc -l < /src/a.txt")?.stdout_text(), "2\n");
/// assert!(sandbox.diff(DiffFormat::Unified).contains("+two"));
/// # Ok::<(), goccia::Error>(())
/// ```
pub struct Sandbox {
    pub(crate) vfs: SharedVfs,
    /// What the diff compares against (moved only by `rebaseline`).
    pub(crate) baseline: Mutex<Snapshot>,
    /// What `snapshot` remembered, by id.
    pub(crate) snapshots: Mutex<Vec<crate::snapshot_store::Taken>>,
    /// The snapshot the state came from: the last taken or restored.
    pub(crate) last_snapshot: Mutex<Option<crate::SnapshotId>>,
    /// The saved snapshot this sandbox was opened from (docs/snapshots.md).
    pub(crate) opened_from: Mutex<Option<goccia_store::SavedId>>,
    /// Shell state to put back before the next call (a fork's, a restored
    /// or an opened snapshot's): put back lazily, so that making a fork
    /// opens no session.
    pub(crate) pending_shell_state: Mutex<Option<String>>,
    /// The baseline's manifest as the last `save` computed it.
    pub(crate) baseline_manifest: Mutex<Option<(Snapshot, Arc<goccia_store::ManifestBlob>)>>,
    /// For a child: each seed's path here and where it came from in the
    /// parent, when they differ (see [`Sandbox::merge`]).
    pub(crate) parent_paths: Vec<(VfsPath, VfsPath)>,
    /// Host links the seeds left out (`SymlinkPolicy::Skip`).
    pub(crate) seed_skipped: Vec<std::path::PathBuf>,
    copy_rw: Vec<CopyRwMapping>,
    engine: Engine,
    /// The session `run_shell` uses, opened by its first call.
    pub(crate) shell: Mutex<Option<PersistentShell>>,
    /// The one shell session's state (cwd, variables, functions) as the
    /// `$` of every script runs it and every shell session adopts it
    /// (docs/calls.md: one session per sandbox).
    pub(crate) session_state: SessionState,
    /// Where guest code runs (docs/isolation.md).
    pub(crate) backend: crate::isolation::Backend,
    /// The host commands its shells may run (docs/host-commands.md).
    pub(crate) host: Option<Arc<goccia_host_commands::HostRunner>>,
    /// What it was built from (a child: its parent's, without seeds).
    pub(crate) spec: Arc<crate::SandboxSpec>,
}

/// A sandbox's shell session state, shared by its `$` and its sessions.
pub(crate) type SessionState = Arc<Mutex<Option<goccia_shell::Shell>>>;

/// The name an inline entry runs under (`run_code`, `goccia run -e`).
const INLINE_ENTRY: &str = "/[inline].js";

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("usage", &self.usage())
            .field("copy_rw", &self.copy_rw.len())
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// A sandbox over a seeded `vfs`, its baseline taken now.
    pub(crate) fn new(vfs: Vfs, copy_rw: Vec<CopyRwMapping>, engine: Engine) -> Sandbox {
        Sandbox {
            baseline: Mutex::new(vfs.snapshot()),
            snapshots: Mutex::new(Vec::new()),
            last_snapshot: Mutex::new(None),
            opened_from: Mutex::new(None),
            pending_shell_state: Mutex::new(None),
            baseline_manifest: Mutex::new(None),
            parent_paths: Vec::new(),
            seed_skipped: Vec::new(),
            session_state: SessionState::default(),
            vfs: Arc::new(Mutex::new(vfs)),
            copy_rw,
            engine,
            shell: Mutex::new(None),
            backend: crate::isolation::Backend::Local,
            host: None,
            spec: Arc::default(),
        }
    }

    /// Runs this sandbox's guest code as `isolation` says.
    pub(crate) fn set_isolation(&mut self, isolation: crate::isolation::Isolation, held: bool) {
        self.backend = crate::isolation::Backend::new(isolation, held);
    }

    /// Where guest code runs.
    pub fn isolation(&self) -> &crate::isolation::Isolation {
        self.backend.isolation()
    }

    /// What confinement the sandbox's runs had: in-process, or the
    /// layers its worker's confinement held (docs/isolation.md). Before the
    /// first isolated call, the layers are not known yet (empty).
    pub fn confinement(&self) -> crate::isolation::Confinement {
        match &self.backend {
            crate::isolation::Backend::Local => crate::isolation::Confinement::none(),
            crate::isolation::Backend::Worker(remote) => {
                remote
                    .confinement()
                    .unwrap_or(crate::isolation::Confinement {
                        mode: "process",
                        enforcement: "not started",
                        ..Default::default()
                    })
            }
        }
    }

    /// Host links the seeds left out (with [`SymlinkPolicy::Skip`](crate::SymlinkPolicy)),
    /// in the order met.
    pub fn seed_skipped(&self) -> &[std::path::PathBuf] {
        &self.seed_skipped
    }

    /// The write policy guest code runs under (docs/policy.md): its mode
    /// and writable roots.
    ///
    /// ```
    /// # use goccia::{PolicyMode, Sandbox};
    /// let sandbox = Sandbox::builder().policy(PolicyMode::ReadOnly).build()?;
    /// assert_eq!(sandbox.policy().mode(), PolicyMode::ReadOnly);
    /// assert_eq!(sandbox.policy().writable_roots()[0].as_str(), "/tmp");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn policy(&self) -> goccia_vfs::WritePolicy {
        self.vfs.lock().policy().unwrap_or_default()
    }

    /// The spec this sandbox was built from (docs/spec.md): seeds with
    /// their host paths, limits, policy and every other setting, as each
    /// surface shows a caller asking how its sandbox is set up. A child
    /// has its parent's, with no seeds (it is seeded from the parent).
    ///
    /// ```
    /// # use goccia::{PolicyMode, Sandbox, SandboxSpec};
    /// let spec = SandboxSpec { policy: PolicyMode::ReadOnly, ..SandboxSpec::default() };
    /// let sandbox = spec.build()?;
    /// assert_eq!(sandbox.spec(), &spec);
    /// assert_eq!(sandbox.child(&[])?.spec().policy, PolicyMode::ReadOnly);
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn spec(&self) -> &crate::SandboxSpec {
        &self.spec
    }

    /// The limits every run gets.
    ///
    /// ```
    /// # use goccia::{Limits, Sandbox};
    /// let sandbox = Sandbox::builder().build()?;
    /// assert_eq!(sandbox.limits(), &Limits::default());
    /// assert_eq!(sandbox.limits().max_depth, Limits::DEFAULT_MAX_DEPTH);
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn limits(&self) -> &Limits {
        &self.engine.limits
    }

    /// How guest modules execute.
    ///
    /// ```
    /// # use goccia::{ExecMode, Sandbox};
    /// assert_eq!(Sandbox::builder().build()?.mode(), ExecMode::Interpreted);
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn mode(&self) -> ExecMode {
        self.engine.mode
    }

    /// Limits, mode, network policy and audit trail, as nested runs and
    /// [`Sandbox::child`] inherit them.
    ///
    /// ```
    /// # use goccia::{Limits, Sandbox};
    /// let parent = Sandbox::builder().limits(Limits::default().max_depth(2)).build()?;
    /// let child = parent.child(&[])?;
    /// assert_eq!(child.engine().limits.max_depth, 2);
    /// assert!(!child.engine().network.allows("example.com", 443));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Runs the JS module at `entry` (a VFS path) on a fresh runtime with
    /// this sandbox's limits; its output is captured in the [`Run`]. A
    /// throw, a limit or the deadline is a failed `Run`, not an `Err`.
    ///
    /// ```
    /// # use goccia::{FailureKind, Sandbox, Limits};
    /// # use std::time::Duration;
    /// let sandbox = Sandbox::builder()
    ///     .limits(Limits::default().timeout(Duration::from_millis(200)))
    ///     .file("/spin.js", "while (true) {}")
    ///     .build()?;
    /// let run = sandbox.run_script("/spin.js")?;
    /// assert_eq!((run.exit_code, run.failure_kind()), (4, Some(FailureKind::Timeout)));
    /// assert!(sandbox.run_script("/nul\0.js").is_err()); // not a valid path
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn run_script(&self, entry: &str) -> Result<Run, RunError> {
        self.run_script_with(entry, &crate::CallOptions::new())
    }

    fn run_entry(
        &self,
        entry: &str,
        inline_source: Option<Arc<str>>,
        output: &Output,
        watch: Watch,
        process_exits_after: bool,
    ) -> Result<Run, RunError> {
        let entry = VfsPath::parse(entry).map_err(|source| RunError::Entry {
            raw: entry.to_string(),
            source,
        })?;
        if let crate::isolation::Backend::Worker(remote) = &self.backend {
            let inline = inline_source.map(|source| source.to_string());
            let parts = self.parts();
            return crate::isolation::remote::run_script(
                remote,
                &parts,
                entry.as_str(),
                inline,
                output,
                watch,
            );
        }
        let started = Instant::now();
        let mut request = RunRequest::new(
            entry,
            self.vfs.clone(),
            output.clone(),
            watch,
            self.engine.clone(),
        );
        request.inline_source = inline_source;
        request.leave_heap_to_exit = process_exits_after;
        request.shell = Some(self.session_state.clone());
        let outcome = goccia_vm::run(&request);
        // Truncate mode held the last half back: it lands now.
        output.budget().finish();
        Ok(Run {
            exit_code: outcome.exit_code(),
            result: outcome.result.filter(|_| outcome.failure.is_none()),
            failure: outcome.failure,
            stdout: Vec::new(),
            stderr: Vec::new(),
            duration: started.elapsed(),
            memory_used: Some(outcome.memory_used),
            output_truncated: output.budget().truncated(),
        })
    }

    /// Runs JS `source` as the entry module: it is never written to the VFS
    /// (nor seen in the diff); relative imports resolve from `/`. Output is
    /// captured in the `Run`.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().file("/lib.js", "export const x = 41;").build()?;
    /// let run = sandbox.run_code("import { x } from './lib.js'; console.log(x + 1);")?;
    /// assert_eq!(run.stdout_text(), "42\n");
    /// assert!(sandbox.changes().is_empty());
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn run_code(&self, source: &str) -> Result<Run, RunError> {
        self.run_code_with(source, &crate::CallOptions::new())
    }

    /// A file's content, read from the host side.
    ///
    /// ```
    /// # use goccia::{AccessError, Sandbox};
    /// let sandbox = Sandbox::builder().file("/a.txt", "A").build()?;
    /// assert_eq!(&sandbox.read("/a.txt")?[..], b"A");
    /// let missing = sandbox.read("/b.txt").unwrap_err();
    /// assert_eq!(missing.to_string(), "/b.txt: No such file or directory");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn read(&self, path: &str) -> Result<Bytes, AccessError> {
        let vfs_path = parse(path)?;
        let result = self.vfs.lock().read_file(&vfs_path);
        result.map_err(|error| fs_error(path, error))
    }

    /// Writes a file from the host side, creating its parent folders. It
    /// is a change like any the guest makes: it shows in the diff and, under
    /// a `copy_rw` root, is written back.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().build()?;
    /// sandbox.write("/task/input.txt", "3 1 2")?;
    /// let run = sandbox.run_shell("tr ' ' '\\n' < /task/input.txt | sort -n | head -1")?;
    /// assert_eq!(run.stdout_text(), "1\n");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn write(&self, path: &str, content: impl Into<Bytes>) -> Result<(), AccessError> {
        let vfs_path = parse(path)?;
        let content = content.into();
        // The host's own write: past any write policy, which fences guests.
        self.vfs.lock().unfenced(|vfs| {
            if let Some(parent) = vfs_path.parent() {
                vfs.mkdir_all(&parent)
                    .map_err(|error| fs_error(path, error))?;
            }
            vfs.write_file(&vfs_path, content)
                .map_err(|error| fs_error(path, error))
        })
    }

    /// [`Sandbox::write`] as guest code would do it: under the sandbox's
    /// write policy (a surface acting for the agent, such as the server's
    /// files API, uses it). A refusal is [`AccessError::Denied`] and
    /// changes nothing.
    ///
    /// ```
    /// # use goccia::{AccessError, PolicyMode, Sandbox};
    /// let sandbox = Sandbox::builder().policy(PolicyMode::WorkspaceWrite).writable("/out").build()?;
    /// sandbox.write_as_guest("/out/a.txt", "ok")?;
    /// assert!(matches!(sandbox.write_as_guest("/etc.txt", "no"), Err(AccessError::Denied { .. })));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn write_as_guest(&self, path: &str, content: impl Into<Bytes>) -> Result<(), AccessError> {
        let vfs_path = parse(path)?;
        let content = content.into();
        // One change: the folders it creates and the file, or nothing.
        self.vfs
            .lock()
            .all_or_nothing(|vfs| {
                if let Some(parent) = vfs_path.parent() {
                    vfs.mkdir_all(&parent)?;
                }
                vfs.write_file(&vfs_path, content)
            })
            .map_err(|error| fs_error(path, error))
    }

    /// [`Sandbox::remove`] under the sandbox's write policy, checked for
    /// the whole tree (a folder holding a protected `.git` is refused
    /// whole under `workspace-write`).
    ///
    /// ```
    /// # use goccia::{AccessError, PolicyMode, Sandbox};
    /// let sandbox = Sandbox::builder()
    ///     .policy(PolicyMode::WorkspaceWrite).writable("/w")
    ///     .file("/w/repo/.git/HEAD", "ref").file("/w/repo/a.txt", "a")
    ///     .build()?;
    /// assert!(matches!(sandbox.remove_fenced("/w/repo"), Err(AccessError::Denied { .. })));
    /// sandbox.remove_fenced("/w/repo/a.txt")?;
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn remove_fenced(&self, path: &str) -> Result<(), AccessError> {
        let vfs_path = parse(path)?;
        self.vfs
            .lock()
            .remove_all(&vfs_path)
            .map_err(|error| fs_error(path, error))
    }

    /// Removes a file, or a folder with everything in it, from the host
    /// side (a change like any other: it shows in the diff).
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().file("/d/a.txt", "a").build()?;
    /// sandbox.remove("/d")?;
    /// assert!(sandbox.read("/d/a.txt").unwrap_err().is_not_found());
    /// assert!(sandbox.remove("/d").unwrap_err().is_not_found());
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn remove(&self, path: &str) -> Result<(), AccessError> {
        let vfs_path = parse(path)?;
        self.vfs
            .lock()
            .unfenced(|vfs| vfs.remove_all(&vfs_path))
            .map_err(|error| fs_error(path, error))
    }

    /// A folder's entries, sorted by name.
    ///
    /// ```
    /// # use goccia::{NodeType, Sandbox};
    /// let sandbox = Sandbox::builder().file("/p/b.txt", "").file("/p/a/x", "").build()?;
    /// let names: Vec<_> = sandbox.list("/p")?.into_iter()
    ///     .map(|entry| (entry.name, entry.node_type)).collect();
    /// assert_eq!(names, [("a".into(), NodeType::Directory), ("b.txt".into(), NodeType::File)]);
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn list(&self, path: &str) -> Result<Vec<Entry>, AccessError> {
        let vfs_path = parse(path)?;
        let entries = self.vfs.lock().read_dir(&vfs_path);
        let mut entries: Vec<Entry> = entries
            .map_err(|error| fs_error(path, error))?
            .into_iter()
            .map(|entry| Entry {
                name: entry.name.to_string(),
                node_type: entry.node_type,
            })
            .collect();
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// Changes since the baseline, in apply order. O(changed): folders the
    /// runs did not touch are skipped by identity.
    ///
    /// ```
    /// # use goccia::{ChangeKind, Sandbox};
    /// let sandbox = Sandbox::builder().file("/a", "1").file("/b", "2").build()?;
    /// sandbox.run_shell("echo 3 > /a; rm /b; mkdir /c")?;
    /// let changes: Vec<_> = sandbox.changes().iter()
    ///     .map(|change| (change.kind, change.path.to_string())).collect();
    /// assert_eq!(changes, [
    ///     (ChangeKind::Modify, "/a".to_string()),
    ///     (ChangeKind::Mkdir, "/c".to_string()),
    ///     (ChangeKind::Delete, "/b".to_string()),
    /// ]);
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn changes(&self) -> Vec<Change> {
        let baseline = self.baseline.lock().clone();
        goccia_vfs::diff(&baseline, &self.vfs.lock().snapshot())
    }

    /// The changes since the baseline as text.
    ///
    /// ```
    /// # use goccia::{DiffFormat, Sandbox};
    /// let sandbox = Sandbox::builder().file("/a.txt", "old\n").build()?;
    /// let empty: serde_json::Value = serde_json::from_str(&sandbox.diff(DiffFormat::Json)).unwrap();
    /// assert_eq!(empty, serde_json::json!({"version": 1, "changes": []}));
    /// sandbox.write("/a.txt", "new\n")?;
    /// let patch = sandbox.diff(DiffFormat::Unified);
    /// assert!(patch.starts_with("diff --git a/a.txt b/a.txt"));
    /// assert!(patch.contains("-old\n+new\n"));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn diff(&self, format: DiffFormat) -> String {
        let _span = tracing::info_span!("goccia.diff").entered();
        format.render(&self.changes())
    }

    /// [`Sandbox::diff`], with a unified patch's paths relative to the
    /// sandbox folder `root` (so a tree seeded at `/work` gives a patch that
    /// plain `git apply` takes in the host folder seeded there). Changes
    /// outside `root` are left out of the patch; the JSON form keeps
    /// sandbox paths and every change.
    ///
    /// ```
    /// # use goccia::{DiffFormat, Sandbox};
    /// let sandbox = Sandbox::builder().file("/work/src/a.rs", "old\n").build()?;
    /// sandbox.write("/work/src/a.rs", "new\n")?;
    /// let patch = sandbox.diff_rooted(DiffFormat::Unified, "/work")?;
    /// assert!(patch.starts_with("diff --git a/src/a.rs b/src/a.rs"));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn diff_rooted(&self, format: DiffFormat, root: &str) -> Result<String, AccessError> {
        let root = VfsPath::parse(root).map_err(|source| AccessError::Path {
            raw: root.to_string(),
            source,
        })?;
        let changes = self.changes();
        Ok(match format {
            DiffFormat::Unified => format.render(&goccia_vfs::change::rerooted(&changes, &root)),
            DiffFormat::Json => format.render(&changes),
        })
    }

    /// Merges changes taken elsewhere (a child's, another sandbox's) into
    /// this VFS, path by path (docs/vfs.md): a folder that exists or a
    /// result this tree already holds is a no-op; a change made against
    /// what this tree still holds is applied; a text file edited here too is
    /// merged line-wise when the edits touch different lines; anything else
    /// is a conflict in the report, with both sides' hunks, and nothing of
    /// that path changes. Only a quota refusal is an error (nothing applied).
    ///
    /// ```
    /// # use goccia::{ChildSeed, Sandbox};
    /// let parent = Sandbox::builder().file("/a.txt", "1\n2\n3\n").build()?;
    /// let child = parent.child(&[ChildSeed::path("/a.txt")])?;
    /// child.write("/a.txt", "1\n2\nthree\n")?;
    /// parent.write("/a.txt", "one\n2\n3\n")?; // the parent moved on meanwhile
    /// let report = parent.apply(&child.changes())?;
    /// assert_eq!(report.merged.len(), 1);
    /// assert_eq!(&parent.read("/a.txt")?[..], b"one\n2\nthree\n");
    ///
    /// let rival = parent.child(&[ChildSeed::path("/a.txt")])?;
    /// rival.write("/a.txt", "uno\n2\nthree\n")?;
    /// parent.write("/a.txt", "ONE\n2\nthree\n")?;
    /// let report = parent.apply(&rival.changes())?;
    /// assert_eq!(report.conflicts[0].path.as_str(), "/a.txt");
    /// assert!(report.conflicts[0].theirs.contains("+uno"));
    /// assert_eq!(&parent.read("/a.txt")?[..], b"ONE\n2\nthree\n");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn apply(&self, changes: &[Change]) -> Result<MergeReport, ApplyError> {
        self.vfs
            .lock()
            .unfenced(|vfs| goccia_vfs::merge::merge_changes(vfs, changes, VfsPath::clone))
    }

    /// Applies a unified patch (git's form, paths `a/...`/`b/...` from `/`,
    /// as [`Sandbox::diff`] writes it, or `diff -u` output one level deep),
    /// all or nothing; the files it changed. Binary patches are refused.
    ///
    /// ```
    /// # use goccia::{DiffFormat, Sandbox};
    /// let worker = Sandbox::builder().file("/a.txt", "1\n").build()?;
    /// worker.write("/a.txt", "2\n")?;
    /// let patch = worker.diff(DiffFormat::Unified);
    /// let other = Sandbox::builder().file("/a.txt", "1\n").build()?;
    /// assert_eq!(other.apply_patch(&patch)?.len(), 1);
    /// assert_eq!(&other.read("/a.txt")?[..], b"2\n");
    /// assert!(other.apply_patch(&patch).is_err()); // no longer fits: nothing changes
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn apply_patch(&self, patch: &str) -> Result<Vec<PatchedFile>, PatchError> {
        self.vfs
            .lock()
            .unfenced(|vfs| goccia_vfs::apply_patch(vfs, patch, &PatchOptions::default()))
    }

    /// Merges a child's changes (as [`Sandbox::apply`] does), mapping each
    /// path back to where it came from: a child seeded with
    /// [`ChildSeed::path_to`](crate::ChildSeed::path_to)`(from, to)` edits
    /// under `to`, and the merge lands under `from`.
    ///
    /// ```
    /// # use goccia::{ChildSeed, Sandbox};
    /// let parent = Sandbox::builder().file("/repo/src/a.rs", "old\n").build()?;
    /// let child = parent.child(&[ChildSeed::path_to("/repo", "/work")])?;
    /// child.run_shell("echo new > /work/src/a.rs")?;
    /// parent.merge(&child)?;
    /// assert_eq!(&parent.read("/repo/src/a.rs")?[..], b"new\n");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn merge(&self, child: &Sandbox) -> Result<MergeReport, ApplyError> {
        let changes = child.changes();
        self.vfs.lock().unfenced(|vfs| {
            goccia_vfs::merge::merge_changes(vfs, &changes, |path| child.path_in_parent(path))
        })
    }

    /// Where a path of this (child) sandbox came from in its parent: the
    /// longest seeded `to` it is under, replaced by its `from`.
    fn path_in_parent(&self, path: &VfsPath) -> VfsPath {
        self.parent_paths
            .iter()
            .filter_map(|(to, from)| Some((to, from, path.strip_prefix(to)?)))
            .max_by_key(|(to, _, _)| to.depth())
            .map_or_else(|| path.clone(), |(_, from, rest)| from.join_relative(rest))
    }

    /// Writes the changes under the `copy_rw` mappings back to the host,
    /// file by file atomically, never deleting, refusing symlinks and
    /// paths outside the mapped roots. Call it only after a successful run
    /// ([`Run::success`]): the host decides, never the guest.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let host = tempfile::tempdir()?;
    /// std::fs::write(host.path().join("old.txt"), "keep me")?;
    /// let sandbox = Sandbox::builder().copy_rw(host.path(), Some("/w")).build()?;
    /// let run = sandbox.run_shell("rm /w/old.txt; echo new > /w/new.txt")?;
    /// assert!(run.success());
    /// let report = sandbox.write_back()?;
    /// assert_eq!(report.summary(), "write-back: 1 written, 1 skipped");
    /// assert!(host.path().join("old.txt").exists()); // never deleted
    /// assert!(host.path().join("new.txt").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_back(&self) -> Result<WriteBackReport, WriteBackError> {
        let report = write_back(&self.copy_rw, &self.changes());
        self.audit_write_back(&report);
        report
    }

    /// The CLI's rule as one call: write back only if `run` succeeded (a
    /// failed run writes nothing, and the skip is audited), and only if
    /// some seed was marked `copy_rw`.
    ///
    /// ```
    /// # use goccia::{Sandbox, WriteBackOutcome};
    /// let host = tempfile::tempdir()?;
    /// let sandbox = Sandbox::builder().copy_rw(host.path(), None).build()?;
    /// let run = sandbox.run_shell("echo half > /half.txt; false")?;
    /// let outcome = sandbox.write_back_after(&run)?;
    /// assert!(matches!(outcome, WriteBackOutcome::Skipped { exit_code: 1 }));
    /// assert!(!host.path().join("half.txt").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_back_after(&self, run: &Run) -> Result<WriteBackOutcome, WriteBackError> {
        if !self.has_copy_rw() {
            return Ok(WriteBackOutcome::NoMappings);
        }
        if !run.success() {
            let exit_code = run.exit_code.max(1);
            let reason = format!("the run failed (exit {exit_code})");
            let audit = &self.engine.audit;
            audit.record("write-back", "skip", "write-back", Some(reason));
            return Ok(WriteBackOutcome::Skipped { exit_code });
        }
        self.write_back().map(WriteBackOutcome::Written)
    }

    /// True when some seed was marked for write-back.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let host = tempfile::tempdir()?;
    /// assert!(!Sandbox::builder().seed(host.path(), None).build()?.has_copy_rw());
    /// assert!(Sandbox::builder().copy_rw(host.path(), None).build()?.has_copy_rw());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_copy_rw(&self) -> bool {
        !self.copy_rw.is_empty()
    }

    /// Bytes and nodes the VFS holds (what the quota counts).
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().file("/d/f.txt", "12345").build()?;
    /// let usage = sandbox.usage();
    /// assert_eq!((usage.bytes, usage.nodes), (5, 3)); // /tmp, /d, /d/f.txt
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn usage(&self) -> goccia_vfs::Usage {
        self.vfs.lock().usage()
    }

    /// What a call through the worker needs of this sandbox.
    pub(crate) fn parts(&self) -> crate::isolation::remote::SandboxParts {
        crate::isolation::remote::SandboxParts {
            vfs: self.vfs.clone(),
            engine: self.engine().clone(),
            host: self.host.clone(),
        }
    }

    pub(crate) fn shared_vfs(&self) -> SharedVfs {
        self.vfs.clone()
    }

    fn audit_write_back(&self, result: &Result<WriteBackReport, WriteBackError>) {
        let audit = &self.engine.audit;
        let report = match result {
            Ok(report) => report,
            Err(error) => {
                audit.record("write-back", "deny", "write-back", Some(error.to_string()));
                return;
            }
        };
        for written in &report.written {
            let subject = format!(
                "{} -> {}",
                written.sandbox_path,
                written.host_path.display()
            );
            audit.record("write-back", "write", subject, None);
        }
        for skipped in &report.skipped {
            audit.record(
                "write-back",
                "skip",
                skipped.sandbox_path.to_string(),
                Some(skipped.reason.to_string()),
            );
        }
    }
}

fn parse(path: &str) -> Result<VfsPath, AccessError> {
    VfsPath::parse(path).map_err(|source| AccessError::Path {
        raw: path.to_string(),
        source,
    })
}

fn fs_error(path: &str, error: FsError) -> AccessError {
    match error.denied {
        Some(denied) => AccessError::Denied {
            path: path.to_string(),
            mode: denied.mode,
        },
        None => AccessError::Fs {
            path: path.to_string(),
            reason: error.errno.strerror(),
            errno: error.errno.code(),
        },
    }
}

impl Sandbox {
    /// [`Sandbox::run_script`] with per-call controls ([`CallOptions`]:
    /// this call's deadline, a cancel token, output streamed to a sink as
    /// produced). The one way a script runs; `run_script(entry)` is
    /// `run_script_with(entry, &CallOptions::new())`.
    ///
    /// ```
    /// # use goccia::{CallOptions, Output, OutputBudget, Sandbox};
    /// let sandbox = Sandbox::builder().file("/main.js", "console.log('hi')").build()?;
    /// let (output, stdout, _stderr) = Output::captured(OutputBudget::new(1 << 20));
    /// let run = sandbox.run_script_with("/main.js", &CallOptions::new().stream(&output))?;
    /// assert_eq!((run.exit_code, stdout.take()), (0, b"hi\n".to_vec()));
    /// assert!(run.stdout.is_empty()); // it went to the sink
    /// # Ok::<(), goccia::Error>(())
    /// ```
    ///
    /// [`CallOptions`]: crate::CallOptions
    pub fn run_script_with(
        &self,
        entry: &str,
        options: &crate::CallOptions,
    ) -> Result<Run, RunError> {
        let span = crate::run::call_span("script");
        let _entered = span.enter();
        let ran = self.run_with_options(options, |output, watch| {
            self.run_entry(entry, None, output, watch, options.process_exits_after)
        });
        crate::run::record_run(&span, &ran);
        ran
    }

    /// [`Sandbox::run_code`] with per-call controls (the one way inline
    /// code runs).
    pub fn run_code_with(
        &self,
        source: &str,
        options: &crate::CallOptions,
    ) -> Result<Run, RunError> {
        let span = crate::run::call_span("code");
        let _entered = span.enter();
        let ran = self.run_with_options(options, |output, watch| {
            self.run_entry(
                INLINE_ENTRY,
                Some(source.into()),
                output,
                watch,
                options.process_exits_after,
            )
        });
        crate::run::record_run(&span, &ran);
        ran
    }

    fn run_with_options(
        &self,
        options: &crate::CallOptions,
        run: impl FnOnce(&Output, Watch) -> Result<Run, RunError>,
    ) -> Result<Run, RunError> {
        if options.cwd.is_some() {
            return Err(RunError::ShellOnly("cwd"));
        }
        if !options.env.is_empty() {
            return Err(RunError::ShellOnly("env"));
        }
        // A script's `$` is the sandbox's shell session.
        self.replay_pending_shell_state();
        let watch = options.watch(self.limits().timeout);
        match &options.output {
            Some(output) => run(output, watch),
            None => {
                let (output, stdout, stderr) =
                    Output::captured(OutputBudget::for_limits(self.limits()));
                let mut ran = run(&output, watch)?;
                ran.stdout = stdout.take();
                ran.stderr = stderr.take();
                Ok(ran)
            }
        }
    }
}
