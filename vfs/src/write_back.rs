//! Write-back (docs/vfs.md): after a successful run, the host writes the
//! run's changes to the host paths it marked with `--copy-rw`. The guest
//! never holds a write capability; this runs after it has stopped.
//!
//! Rules: only paths under a mapping (the longest wins; the host path must
//! stay under the mapping's root); deletions are never applied; new files
//! are written with their parent folders; every target is resolved and
//! checked before any is written; a symlink at a target or on the way to
//! it refuses the whole write-back; each file goes to an exclusively
//! created temporary beside it and is renamed over the target. The write
//! phase walks directories by descriptor with `O_NOFOLLOW`, so a symlink
//! planted between the check and the write is refused, never followed.

use std::fs;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, CWD, Mode, OFlags};
use thiserror::Error;

use crate::change::{Change, ChangeKind};
use crate::node::{FileNode, Node, NodeType};
use crate::path::VfsPath;
use crate::shown::{shown, shown_path};

/// A `--copy-rw` input: where it came from and where it landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyRwMapping {
    /// Absolute host path (symlinked ancestors allowed, as when seeding).
    pub host_root: PathBuf,
    /// Where the seed landed in the sandbox.
    pub sandbox_root: VfsPath,
    /// A file mapping covers exactly its own path.
    pub node_type: NodeType,
    /// Sandbox paths the seed left out (excluded, skipped links): never
    /// written back, even if the run created them.
    pub left_out: Vec<VfsPath>,
}

/// Why a change was not written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// The path is under no write-back mapping.
    NotMapped,
    /// Deletions are never applied.
    Deletion,
    /// Folders are created only as parents of written files.
    Directory,
    /// A symbolic link: write-back never creates a host link (docs/vfs.md).
    Symlink,
    /// The seed left this host path out (an exclude, an ignore file, a
    /// skipped link): the host's copy is not the sandbox's to replace.
    LeftOut,
    /// The host has a directory where the run left a file, or a file where
    /// one of its parent folders should be: writing would delete host data.
    HostTypeConflict(PathBuf),
    /// A path with a `.git` or `.goccia` component: never written back,
    /// under any policy (a repository's hooks and configuration, goccia's
    /// own change log and lock; docs/security.md).
    Protected,
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::NotMapped => f.write_str("not under a write-back mapping"),
            SkipReason::Deletion => f.write_str("deletions are never applied"),
            SkipReason::LeftOut => f.write_str("the seed left this path out"),
            SkipReason::Directory => {
                f.write_str("directories are only created as parents of written files")
            }
            SkipReason::Symlink => f.write_str("symbolic links are never written to the host"),
            SkipReason::Protected => {
                f.write_str("paths inside .git and .goccia are never written back")
            }
            SkipReason::HostTypeConflict(path) => write!(
                f,
                "{} is in the way on the host (writing would delete it)",
                shown_path(path)
            ),
        }
    }
}

/// A file write-back wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Its path in the sandbox.
    pub sandbox_path: VfsPath,
    /// Where it landed on the host.
    pub host_path: PathBuf,
}

/// A change write-back did not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its path in the sandbox.
    pub sandbox_path: VfsPath,
    /// Where it would have gone on the host (`None` under no mapping), so
    /// a report can name written and skipped files alike.
    pub host_path: Option<PathBuf>,
    /// Why it was skipped.
    pub reason: SkipReason,
}

/// What write-back did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WriteBackReport {
    /// Files written, in order.
    pub written: Vec<Written>,
    /// Changes skipped, in order.
    pub skipped: Vec<Skipped>,
}

impl WriteBackReport {
    /// The stderr report: one line per path and the summary line.
    pub fn render(&self) -> String {
        self.render_with(|reason| reason.to_string())
    }

    /// [`WriteBackReport::render`], with the surface's words for each skip
    /// reason (a CLI names its `--copy-rw` flag).
    pub fn render_with(&self, reason: impl Fn(&SkipReason) -> String) -> String {
        let mut out = String::new();
        for written in &self.written {
            out.push_str(&format!(
                "write-back: wrote {} -> {}\n",
                shown(written.sandbox_path.as_str()),
                shown_path(&written.host_path)
            ));
        }
        for skipped in &self.skipped {
            out.push_str(&format!(
                "write-back: skipped {}: {}\n",
                shown(skipped.sandbox_path.as_str()),
                reason(&skipped.reason)
            ));
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// `write-back: N written, M skipped`.
    pub fn summary(&self) -> String {
        format!(
            "write-back: {} written, {} skipped",
            self.written.len(),
            self.skipped.len()
        )
    }
}

/// Why write-back stopped. What landed before is in the report.
#[derive(Debug, Error)]
pub enum WriteBackError {
    /// A symbolic link at a target or on the way to it.
    #[error("write-back refused: {} is a symlink (planted during the run?); {}", shown_path(.path), landed_text(.report, *.planned))]
    Symlink {
        /// The host path that is a link.
        path: PathBuf,
        /// What landed before the refusal (nothing when it was found while
        /// checking, before any write).
        report: WriteBackReport,
        /// Files that were to be written.
        planned: usize,
    },
    /// A target resolves outside its mapped host root.
    #[error("write-back refused: {} resolves outside its mapped root {}; nothing was written", shown_path(.path), shown_path(.root))]
    Escape {
        /// The resolved host path.
        path: PathBuf,
        /// The mapping's host root.
        root: PathBuf,
    },
    /// Files the host changed since the sandbox was seeded (or since its
    /// last write-back): writing would overwrite work the sandbox never
    /// saw. Checked for every file before any is written.
    #[error("write-back refused: changed on the host since the sandbox saw it: {}; nothing was written", .paths.iter().map(|p| shown_path(p)).collect::<Vec<_>>().join(", "))]
    Stale {
        /// The host paths whose content is neither what the sandbox's
        /// baseline held nor what the write would leave.
        paths: Vec<PathBuf>,
    },
    /// The host refused a write.
    #[error("write-back failed at {}: {source}; {}", shown_path(.path), landed_text(.report, *.planned))]
    Io {
        /// The host path.
        path: PathBuf,
        /// The host's error.
        source: io::Error,
        /// What landed before the failure.
        report: WriteBackReport,
        /// Files that were to be written.
        planned: usize,
    },
}

fn landed_text(report: &WriteBackReport, planned: usize) -> String {
    match report.written.len() {
        0 => "nothing was written".to_string(),
        landed => format!("{landed} of {planned} files landed before it"),
    }
}

/// A file to write, resolved and checked.
struct Planned<'a> {
    sandbox_path: VfsPath,
    host_path: PathBuf,
    /// The directory the walk starts from and the names below it (never
    /// followed). For a directory mapping the anchor is the mapped root and
    /// must not be a symlink either; for a file mapping it is the file's
    /// parent, an ancestor of the mapped path, followed as when seeding.
    anchor: PathBuf,
    anchor_is_mapped: bool,
    names: Vec<String>,
    file: &'a FileNode,
}

/// Every write a write-back will do, resolved and checked against the
/// host (no symlink anywhere on the way, no escape from a mapping root),
/// plus what it skips. Nothing has been written yet.
pub struct WriteBackPlan<'a> {
    items: Vec<Planned<'a>>,
    skipped: Vec<Skipped>,
}

impl WriteBackPlan<'_> {
    /// `(sandbox path, host path)` of each file to write, in order.
    pub fn targets(&self) -> impl Iterator<Item = (&VfsPath, &Path)> {
        self.items
            .iter()
            .map(|item| (&item.sandbox_path, item.host_path.as_path()))
    }

    /// What was skipped, whatever the outcome.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Writes every planned file: an exclusive temporary beside it, then a
    /// rename over it. Directories are walked by descriptor without
    /// following links, so a link planted since the plan is refused.
    pub fn execute(self) -> Result<WriteBackReport, WriteBackError> {
        let planned = self.items.len();
        let mut report = WriteBackReport {
            written: Vec::with_capacity(planned),
            skipped: self.skipped,
        };
        for item in self.items {
            match write_one(&item) {
                Ok(()) => report.written.push(Written {
                    sandbox_path: item.sandbox_path,
                    host_path: item.host_path,
                }),
                Err(WriteFailure::Symlink(path)) => {
                    return Err(WriteBackError::Symlink {
                        path,
                        report,
                        planned,
                    });
                }
                Err(WriteFailure::Io(source)) => {
                    return Err(WriteBackError::Io {
                        path: item.host_path,
                        source,
                        report,
                        planned,
                    });
                }
            }
        }
        Ok(report)
    }
}

/// Resolves and checks every change against `mappings` before anything is
/// written.
pub fn plan<'a>(
    mappings: &[CopyRwMapping],
    changes: &'a [Change],
) -> Result<WriteBackPlan<'a>, WriteBackError> {
    let mut plan = WriteBackPlan {
        items: Vec::new(),
        skipped: Vec::new(),
    };
    let mut stale = Vec::new();
    for change in changes {
        let Some(mapping) = mapping_for(mappings, &change.path) else {
            plan.skipped.push(Skipped {
                sandbox_path: change.path.clone(),
                host_path: None,
                reason: SkipReason::NotMapped,
            });
            continue;
        };
        let skip = |reason| Skipped {
            sandbox_path: change.path.clone(),
            host_path: Some(lexical_host_path(mapping, &change.path)),
            reason,
        };
        if mapping
            .left_out
            .iter()
            .any(|left_out| change.path.starts_with(left_out))
        {
            plan.skipped.push(skip(SkipReason::LeftOut));
            continue;
        }
        if is_protected(&change.path) {
            plan.skipped.push(skip(SkipReason::Protected));
            continue;
        }
        let file = match (change.kind, change.new.as_ref()) {
            (ChangeKind::Delete, _) => {
                plan.skipped.push(skip(SkipReason::Deletion));
                continue;
            }
            (_, Some(Node::File(file))) => file,
            (_, Some(Node::Link(_))) => {
                plan.skipped.push(skip(SkipReason::Symlink));
                continue;
            }
            _ => {
                plan.skipped.push(skip(SkipReason::Directory));
                continue;
            }
        };
        let planned = resolve(mapping, &change.path, file)?;
        // The host side too: a mapping of a `.git` folder (or of
        // `.git/config`) would write inside one under another name.
        let protected_on_host = planned.host_path.components().any(|component| {
            component
                .as_os_str()
                .to_str()
                .is_some_and(|name| crate::policy::PROTECTED_NAMES.contains(&name))
        });
        if protected_on_host {
            plan.skipped.push(skip(SkipReason::Protected));
            continue;
        }
        match host_conflict(&planned)? {
            Some(conflict) => plan
                .skipped
                .push(skip(SkipReason::HostTypeConflict(conflict))),
            None => {
                if !host_holds_what_was_seen(&planned, change.old.as_ref()) {
                    stale.push(planned.host_path.clone());
                }
                plan.items.push(planned)
            }
        }
    }
    if !stale.is_empty() {
        return Err(WriteBackError::Stale { paths: stale });
    }
    Ok(plan)
}

/// Whether the host still holds at `item`'s target what the sandbox's
/// baseline saw there (the same bytes, or nothing when the baseline had
/// nothing) — or already holds what the write would leave (a write-back
/// repeated after a partial one). Anything else is work the sandbox never
/// saw, which the write would lose.
fn host_holds_what_was_seen(item: &Planned<'_>, seen: Option<&Node>) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let opened = fs::File::options()
        .read(true)
        .custom_flags(libc_nofollow())
        .open(&item.host_path);
    let host_hash = match opened {
        Ok(file) => {
            let mut hasher = blake3::Hasher::new();
            match hasher.update_reader(file) {
                Ok(_) => Some(hasher.finalize()),
                Err(_) => return false,
            }
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(_) => return false,
    };
    let seen_hash = match seen {
        Some(Node::File(file)) => Some(file.hash()),
        _ => None,
    };
    host_hash == seen_hash || host_hash == Some(item.file.hash())
}

/// `O_NOFOLLOW`: the chain was checked for links already; a link planted
/// at the target since is not followed while reading it either.
fn libc_nofollow() -> i32 {
    OFlags::NOFOLLOW.bits() as i32
}

/// Writes `changes` back through `mappings`: [`plan`], then
/// [`WriteBackPlan::execute`].
pub fn write_back(
    mappings: &[CopyRwMapping],
    changes: &[Change],
) -> Result<WriteBackReport, WriteBackError> {
    plan(mappings, changes)?.execute()
}

/// Whether `path` has a component write-back never writes (`.git`,
/// `.goccia`).
fn is_protected(path: &VfsPath) -> bool {
    path.components()
        .any(|name| crate::policy::PROTECTED_NAMES.contains(&name))
}

/// The longest mapping covering `path`. `/tmp` is the guest's scratch
/// space: a mapping of `/` does not reach into it, only one naming `/tmp`
/// or a path below it does.
fn mapping_for<'m>(mappings: &'m [CopyRwMapping], path: &VfsPath) -> Option<&'m CopyRwMapping> {
    let tmp = VfsPath::parse("/tmp").expect("valid");
    mappings
        .iter()
        .filter(|m| match m.node_type {
            NodeType::File | NodeType::Symlink => m.sandbox_root == *path,
            NodeType::Directory => path.starts_with(&m.sandbox_root),
        })
        .filter(|m| !path.starts_with(&tmp) || m.sandbox_root.starts_with(&tmp))
        .max_by_key(|m| m.sandbox_root.depth())
}

/// `path`'s place under `mapping` on the host, by name only (what a report
/// shows; writing resolves it with every check).
fn lexical_host_path(mapping: &CopyRwMapping, path: &VfsPath) -> PathBuf {
    match mapping.node_type {
        NodeType::Directory => {
            let relative = path
                .strip_prefix(&mapping.sandbox_root)
                .expect("mapping covers path");
            relative
                .iter()
                .fold(mapping.host_root.clone(), |host, name| host.join(name))
        }
        NodeType::File | NodeType::Symlink => mapping.host_root.clone(),
    }
}

fn resolve<'a>(
    mapping: &CopyRwMapping,
    path: &VfsPath,
    file: &'a FileNode,
) -> Result<Planned<'a>, WriteBackError> {
    let relative = path
        .strip_prefix(&mapping.sandbox_root)
        .expect("mapping covers path");
    let anchor_is_mapped = mapping.node_type == NodeType::Directory;
    let (anchor, names) = match mapping.node_type {
        NodeType::Directory => (
            mapping.host_root.clone(),
            relative.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        ),
        NodeType::File | NodeType::Symlink => {
            let parent = mapping
                .host_root
                .parent()
                .unwrap_or(Path::new("/"))
                .to_path_buf();
            let name = mapping
                .host_root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (parent, vec![name])
        }
    };
    let host_path = names.iter().fold(anchor.clone(), |p, name| p.join(name));
    let escapes = names
        .iter()
        .any(|n| n.is_empty() || n == "." || n == ".." || n.contains('/') || n.contains('\0'));
    if escapes || !host_path.starts_with(&mapping.host_root) {
        return Err(WriteBackError::Escape {
            path: host_path,
            root: mapping.host_root.clone(),
        });
    }
    Ok(Planned {
        sandbox_path: path.clone(),
        host_path,
        anchor,
        anchor_is_mapped,
        names,
        file,
    })
}

/// Checks the host chain of a planned write without following anything:
/// a symlink refuses the write-back, a type conflict skips this file.
fn host_conflict(item: &Planned<'_>) -> Result<Option<PathBuf>, WriteBackError> {
    let mut current = item.anchor.clone();
    let mut checks = vec![current.clone()];
    for name in &item.names {
        current = current.join(name);
        checks.push(current.clone());
    }
    let last = checks.len() - 1;
    for (index, path) in checks.iter().enumerate() {
        if index == 0 && !item.anchor_is_mapped {
            continue;
        }
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(WriteBackError::Symlink {
                    path: path.clone(),
                    report: WriteBackReport::default(),
                    planned: 0,
                });
            }
            Ok(meta) if index == last && meta.is_dir() => return Ok(Some(path.clone())),
            Ok(meta) if index < last && !meta.is_dir() => return Ok(Some(path.clone())),
            Ok(_) => {}
            Err(_) => break, // missing from here down: created by the write
        }
    }
    Ok(None)
}

enum WriteFailure {
    Symlink(PathBuf),
    Io(io::Error),
}

impl From<rustix::io::Errno> for WriteFailure {
    fn from(errno: rustix::io::Errno) -> Self {
        WriteFailure::Io(errno.into())
    }
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

fn write_one(item: &Planned<'_>) -> Result<(), WriteFailure> {
    let nofollow_dir = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::RDONLY;
    let anchor_flags = if item.anchor_is_mapped {
        nofollow_dir
    } else {
        nofollow_dir - OFlags::NOFOLLOW
    };
    let symlink_at = |path: &Path| WriteFailure::Symlink(path.to_path_buf());
    let mut dir: OwnedFd = match rustix::fs::openat(CWD, &item.anchor, anchor_flags, Mode::empty())
    {
        Ok(fd) => fd,
        Err(rustix::io::Errno::LOOP) | Err(rustix::io::Errno::NOTDIR)
            if is_symlink(&item.anchor) =>
        {
            return Err(symlink_at(&item.anchor));
        }
        Err(rustix::io::Errno::NOENT) => {
            fs::create_dir_all(&item.anchor).map_err(WriteFailure::Io)?;
            rustix::fs::openat(CWD, &item.anchor, anchor_flags, Mode::empty())?
        }
        Err(errno) => return Err(errno.into()),
    };
    let mut path = item.anchor.clone();
    let (last, parents) = item.names.split_last().expect("a target has a name");
    for name in parents {
        path = path.join(name);
        dir = match rustix::fs::openat(&dir, name.as_str(), nofollow_dir, Mode::empty()) {
            Ok(fd) => fd,
            Err(rustix::io::Errno::NOENT) => {
                rustix::fs::mkdirat(&dir, name.as_str(), Mode::from_raw_mode(0o777))?;
                rustix::fs::openat(&dir, name.as_str(), nofollow_dir, Mode::empty())?
            }
            Err(rustix::io::Errno::LOOP) => return Err(symlink_at(&path)),
            Err(errno) => return Err(errno.into()),
        };
    }
    let target = path.join(last);
    let existing_mode = match rustix::fs::statat(&dir, last.as_str(), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat)
            if rustix::fs::FileType::from_raw_mode(stat.st_mode)
                == rustix::fs::FileType::Symlink =>
        {
            return Err(symlink_at(&target));
        }
        Ok(stat) => Some(Mode::from_raw_mode(stat.st_mode & 0o7777)),
        Err(rustix::io::Errno::NOENT) => None,
        Err(errno) => return Err(errno.into()),
    };
    // Short whatever the target's name, so a 255-byte name still fits.
    let temp = format!(
        ".goccia-write-back-{}-{}.tmp",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let file = rustix::fs::openat(
        &dir,
        temp.as_str(),
        OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o666),
    )?;
    let written = fill(&file, item.file.data(), existing_mode)
        .inspect(|()| pause_before_rename())
        .and_then(|()| rustix::fs::renameat(&dir, temp.as_str(), &dir, last.as_str()));
    if let Err(errno) = written {
        let _ = rustix::fs::unlinkat(&dir, temp.as_str(), AtFlags::empty());
        return Err(errno.into());
    }
    Ok(())
}

/// In a build with the `test-hooks` feature, waits
/// `GOCCIA_TEST_WRITE_BACK_PAUSE_MS` between writing a temporary and
/// renaming it, so a test can kill a writer there; never in a release
/// build.
fn pause_before_rename() {
    #[cfg(feature = "test-hooks")]
    if let Some(ms) = std::env::var("GOCCIA_TEST_WRITE_BACK_PAUSE_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

fn fill(file: &OwnedFd, data: &[u8], mode: Option<Mode>) -> rustix::io::Result<()> {
    let mut rest = data;
    while !rest.is_empty() {
        let n = rustix::io::write(file.as_fd(), rest)?;
        rest = &rest[n..];
    }
    if let Some(mode) = mode {
        rustix::fs::fchmod(file, mode)?;
    }
    rustix::fs::fsync(file)
}

fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::fs::{Quota, Vfs};
    use crate::seed::{SeedTarget, seed_host};
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    struct Fixture {
        host: tempfile::TempDir,
        vfs: Vfs,
        mappings: Vec<CopyRwMapping>,
        base: crate::fs::Snapshot,
    }

    /// Host `proj/` (a.txt, sub/b.txt) copied rw to `/work`; `other.txt`
    /// copied rw to `/other.txt`.
    fn fixture() -> Fixture {
        let host = tempfile::tempdir().unwrap();
        let root = host.path();
        fs::create_dir_all(root.join("proj/sub")).unwrap();
        fs::write(root.join("proj/a.txt"), "a").unwrap();
        fs::write(root.join("proj/sub/b.txt"), "b").unwrap();
        fs::write(root.join("other.txt"), "o").unwrap();
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        let mut mappings = Vec::new();
        for (from, to) in [("proj", "/work"), ("other.txt", "/")] {
            let seeded =
                seed_host(&mut vfs, &root.join(from), &SeedTarget::parse(to).unwrap()).unwrap();
            mappings.push(CopyRwMapping {
                left_out: Vec::new(),
                host_root: root.join(from),
                sandbox_root: seeded.path,
                node_type: seeded.node_type,
            });
        }
        let base = vfs.snapshot();
        Fixture {
            host,
            vfs,
            mappings,
            base,
        }
    }

    impl Fixture {
        fn write_back(&self) -> Result<WriteBackReport, WriteBackError> {
            write_back(&self.mappings, &diff(&self.base, &self.vfs.snapshot()))
        }
        fn host(&self, rel: &str) -> PathBuf {
            self.host.path().join(rel)
        }
        fn read(&self, rel: &str) -> String {
            fs::read_to_string(self.host(rel)).unwrap()
        }
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_mapped_changes_and_skips_the_rest() {
        let mut fx = fixture();
        fx.vfs.write_file(&p("/work/a.txt"), "A!").unwrap();
        fx.vfs.mkdir_all(&p("/work/new/deeper")).unwrap();
        fx.vfs
            .write_file(&p("/work/new/deeper/c.txt"), "c")
            .unwrap();
        fx.vfs.remove_file(&p("/work/sub/b.txt")).unwrap();
        fx.vfs.write_file(&p("/other.txt"), "O").unwrap();
        fx.vfs.write_file(&p("/loose.txt"), "x").unwrap();
        let report = fx.write_back().unwrap();
        assert_eq!(fx.read("proj/a.txt"), "A!");
        assert_eq!(fx.read("proj/new/deeper/c.txt"), "c");
        assert_eq!(fx.read("other.txt"), "O");
        assert_eq!(
            fx.read("proj/sub/b.txt"),
            "b",
            "deletions are never applied"
        );
        assert!(!fx.host("loose.txt").exists());
        assert_eq!(report.written.len(), 3);
        let skipped: Vec<(String, String)> = report
            .skipped
            .iter()
            .map(|s| (s.sandbox_path.to_string(), s.reason.to_string()))
            .collect();
        assert!(skipped.contains(&("/loose.txt".into(), "not under a write-back mapping".into())));
        assert!(skipped.contains(&(
            "/work/sub/b.txt".into(),
            "deletions are never applied".into()
        )));
        assert!(skipped.iter().any(|(p, _)| p == "/work/new"));
        assert!(report.render().ends_with(&format!(
            "write-back: 3 written, {} skipped\n",
            report.skipped.len()
        )));
        assert_eq!(
            names_in(&fx.host("proj")),
            ["a.txt", "new", "sub"],
            "no temporaries left"
        );
    }

    #[test]
    fn the_longest_mapping_wins_and_file_mappings_cover_only_themselves() {
        let mut fx = fixture();
        let inner = fx.host.path().join("inner-host");
        fs::create_dir(&inner).unwrap();
        // As if seeded from there too: it holds what the baseline saw.
        fs::write(inner.join("b.txt"), "b").unwrap();
        fx.mappings.push(CopyRwMapping {
            left_out: Vec::new(),
            host_root: inner.clone(),
            sandbox_root: p("/work/sub"),
            node_type: NodeType::Directory,
        });
        fx.vfs.write_file(&p("/work/sub/b.txt"), "B").unwrap();
        fx.vfs.write_file(&p("/other.txt.bak"), "x").unwrap();
        let report = fx.write_back().unwrap();
        assert_eq!(fs::read_to_string(inner.join("b.txt")).unwrap(), "B");
        assert_eq!(fx.read("proj/sub/b.txt"), "b");
        assert_eq!(report.skipped[0].sandbox_path, p("/other.txt.bak"));
    }

    #[test]
    fn tmp_is_scratch_unless_mapped_explicitly() {
        let host = tempfile::tempdir().unwrap();
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        let base = vfs.snapshot();
        vfs.write_file(&p("/tmp/scratch"), "s").unwrap();
        vfs.write_file(&p("/kept"), "k").unwrap();
        let root_mapping = CopyRwMapping {
            left_out: Vec::new(),
            host_root: host.path().to_path_buf(),
            sandbox_root: VfsPath::root(),
            node_type: NodeType::Directory,
        };
        let report = write_back(&[root_mapping], &diff(&base, &vfs.snapshot())).unwrap();
        assert_eq!(report.written.len(), 1);
        assert!(!host.path().join("tmp").exists());
    }

    #[test]
    fn a_symlink_at_a_target_refuses_everything() {
        let mut fx = fixture();
        fx.vfs.write_file(&p("/work/a.txt"), "A").unwrap();
        fx.vfs.write_file(&p("/work/sub/b.txt"), "B").unwrap();
        let secret = fx.host("secret");
        fs::write(&secret, "secret").unwrap();
        fs::remove_file(fx.host("proj/sub/b.txt")).unwrap();
        symlink(&secret, fx.host("proj/sub/b.txt")).unwrap();
        let error = fx.write_back().unwrap_err();
        assert!(
            matches!(error, WriteBackError::Symlink { ref path, .. } if path.ends_with("sub/b.txt")),
            "{error}"
        );
        assert_eq!(fx.read("secret"), "secret");
        assert_eq!(
            fx.read("proj/a.txt"),
            "a",
            "checked before anything is written"
        );
    }

    #[test]
    fn a_symlink_on_the_way_refuses_everything() {
        let mut fx = fixture();
        fx.vfs.write_file(&p("/work/sub/new.txt"), "n").unwrap();
        let elsewhere = fx.host("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        fs::rename(fx.host("proj/sub"), fx.host("moved")).unwrap();
        symlink(&elsewhere, fx.host("proj/sub")).unwrap();
        assert!(matches!(
            fx.write_back(),
            Err(WriteBackError::Symlink { .. })
        ));
        assert!(names_in(&elsewhere).is_empty());

        // The mapped root itself swapped for a symlink.
        let mut fx = fixture();
        fx.vfs.write_file(&p("/work/a.txt"), "A").unwrap();
        fs::rename(fx.host("proj"), fx.host("proj-real")).unwrap();
        symlink(fx.host("proj-real"), fx.host("proj")).unwrap();
        assert!(matches!(
            fx.write_back(),
            Err(WriteBackError::Symlink { .. })
        ));
        assert_eq!(fx.read("proj-real/a.txt"), "a");
    }

    #[test]
    fn the_write_phase_refuses_a_symlink_planted_after_the_check() {
        let fx = fixture();
        let secret = fx.host("secret");
        fs::write(&secret, "secret").unwrap();
        let file = FileNode::new(
            bytes::Bytes::from("evil"),
            crate::node::Meta {
                mode: 0o644,
                mtime_ns: 0,
            },
        );
        let item = Planned {
            sandbox_path: p("/work/a.txt"),
            host_path: fx.host("proj/a.txt"),
            anchor: fx.host("proj"),
            anchor_is_mapped: true,
            names: vec!["a.txt".into()],
            file: &file,
        };
        fs::remove_file(fx.host("proj/a.txt")).unwrap();
        symlink(&secret, fx.host("proj/a.txt")).unwrap();
        assert!(matches!(write_one(&item), Err(WriteFailure::Symlink(_))));
        assert_eq!(fx.read("secret"), "secret");
        assert_eq!(names_in(&fx.host("proj")), ["a.txt", "sub"]);
    }

    #[test]
    fn a_failure_partway_reports_how_many_landed() {
        let mut fx = fixture();
        fx.vfs.write_file(&p("/work/a.txt"), "A").unwrap();
        fx.vfs.write_file(&p("/work/sub/b.txt"), "B").unwrap();
        let changes = diff(&fx.base, &fx.vfs.snapshot());
        let plan = plan(&fx.mappings, &changes).unwrap();
        assert_eq!(plan.targets().count(), 2);
        // The host changes between plan and write: a file where a folder was.
        fs::remove_dir_all(fx.host("proj/sub")).unwrap();
        fs::write(fx.host("proj/sub"), "in the way").unwrap();
        let error = plan.execute().unwrap_err();
        let WriteBackError::Io {
            ref report,
            planned,
            ..
        } = error
        else {
            panic!("{error}")
        };
        assert_eq!((report.written.len(), planned), (1, 2));
        assert!(
            error.to_string().ends_with("1 of 2 files landed before it"),
            "{error}"
        );
        assert_eq!(fx.read("proj/a.txt"), "A");
    }

    #[test]
    fn git_and_goccia_paths_are_never_written() {
        let mut fx = fixture();
        fx.vfs.mkdir_all(&p("/work/.git")).unwrap();
        fx.vfs
            .write_file(&p("/work/.git/config"), "[core]\n\tfsmonitor = evil\n")
            .unwrap();
        fx.vfs.mkdir_all(&p("/work/sub/.goccia")).unwrap();
        fx.vfs
            .write_file(&p("/work/sub/.goccia/changes.jsonl"), "forged\n")
            .unwrap();
        fx.vfs.write_file(&p("/work/a.txt"), "A").unwrap();
        let report = fx.write_back().unwrap();
        assert_eq!(report.written.len(), 1);
        assert!(!fx.host("proj/.git").exists());
        assert!(!fx.host("proj/sub/.goccia").exists());
        let protected: Vec<&str> = report
            .skipped
            .iter()
            .filter(|s| s.reason == SkipReason::Protected)
            .map(|s| s.sandbox_path.as_str())
            .collect();
        assert_eq!(
            protected,
            [
                "/work/.git",
                "/work/.git/config",
                "/work/sub/.goccia",
                "/work/sub/.goccia/changes.jsonl"
            ]
        );
        // A mapping of a .git folder itself writes nothing inside it.
        let git = fx.host("proj/.git");
        fs::create_dir(&git).unwrap();
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        let seeded = seed_host(&mut vfs, &git, &SeedTarget::parse("/g").unwrap()).unwrap();
        let base = vfs.snapshot();
        vfs.write_file(&p("/g/config"), "x").unwrap();
        let mapping = CopyRwMapping {
            left_out: Vec::new(),
            host_root: git.clone(),
            sandbox_root: seeded.path,
            node_type: seeded.node_type,
        };
        let report = write_back(&[mapping], &diff(&base, &vfs.snapshot())).unwrap();
        assert!(report.written.is_empty());
        assert!(!git.join("config").exists());
    }

    #[test]
    fn a_file_the_host_changed_since_the_baseline_refuses_everything() {
        let mut fx = fixture();
        fx.vfs.write_file(&p("/work/a.txt"), "sandbox's").unwrap();
        fx.vfs.write_file(&p("/work/new.txt"), "new").unwrap();
        fx.vfs.write_file(&p("/other.txt"), "O").unwrap();
        // Same size, new bytes: only the content tells.
        fs::write(fx.host("proj/a.txt"), "z").unwrap();
        fs::write(fx.host("proj/new.txt"), "the host's own").unwrap();
        let error = fx.write_back().unwrap_err();
        let WriteBackError::Stale { paths } = &error else {
            panic!("{error}")
        };
        assert_eq!(paths, &[fx.host("proj/a.txt"), fx.host("proj/new.txt")]);
        assert!(error.to_string().contains("nothing was written"), "{error}");
        assert_eq!(fx.read("other.txt"), "o", "checked before any write");
        assert_eq!(fx.read("proj/a.txt"), "z");
        // What the write would leave is no conflict (a repeated write-back).
        fs::write(fx.host("proj/a.txt"), "sandbox's").unwrap();
        fs::write(fx.host("proj/new.txt"), "new").unwrap();
        let report = fx.write_back().unwrap();
        assert_eq!(report.written.len(), 3);
    }

    #[test]
    fn long_names_get_short_temporaries() {
        let mut fx = fixture();
        let name = "n".repeat(250);
        fx.vfs
            .write_file(&p(&format!("/work/{name}")), "long")
            .unwrap();
        fx.write_back().unwrap();
        assert_eq!(fx.read(&format!("proj/{name}")), "long");
    }

    #[test]
    fn existing_modes_are_kept_and_type_conflicts_skipped() {
        let mut fx = fixture();
        fs::set_permissions(fx.host("proj/a.txt"), fs::Permissions::from_mode(0o755)).unwrap();
        fx.vfs.write_file(&p("/work/a.txt"), "#!/bin/sh\n").unwrap();
        fx.vfs.remove_all(&p("/work/sub")).unwrap();
        fx.vfs.write_file(&p("/work/sub"), "now a file").unwrap();
        let report = fx.write_back().unwrap();
        let mode = fs::metadata(fx.host("proj/a.txt"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert!(fx.host("proj/sub/b.txt").exists(), "nothing deleted");
        assert!(
            report
                .skipped
                .iter()
                .any(|s| matches!(s.reason, SkipReason::HostTypeConflict(_)))
        );
    }
}
