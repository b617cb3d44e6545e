//! Workspaces: host folders sessions are seeded from and submit to. Each
//! has a root — a blake3 merkle root over its files' paths and contents —
//! that a submit must expect, and a lock held across processes while a
//! submit checks the root and writes.
//!
//! Computing the root reads every byte of every file, every time: no size,
//! mtime or inode shortcut, since an edit can keep all three (a same-size
//! rewrite with its mtime put back) and the root is what a fence trusts
//! (docs/security.md). The walk and the hashing are shared among up to
//! four threads. `.git/` and `.goccia/` are not part of the root (git's own
//! bookkeeping, and the change log and the lock file, change without the
//! work changing); a submit never writes there.

use std::fs::File;
use std::path::{Path, PathBuf};

use parking_lot::Mutex;

/// Names left out of the root.
const NOT_IN_ROOT: [&str; 2] = [".git", ".goccia"];

/// Whether `name` is a write-back temporary (the library writes each file
/// to `.goccia-write-back-<n>-<m>.tmp` beside it, then renames it): not
/// part of the workspace, and left behind only by a writer that died.
fn is_write_back_temporary(name: &std::ffi::OsStr) -> bool {
    name.to_str()
        .is_some_and(|name| name.starts_with(".goccia-write-back-") && name.ends_with(".tmp"))
}

/// The files of the last walk, in path order, with their leaves.
#[derive(Default)]
struct Listing {
    files: Vec<(PathBuf, [u8; 32])>,
}

/// One workspace: a name, a host folder and the last listing.
pub struct Workspace {
    /// Its name in requests.
    pub name: String,
    /// The host folder.
    pub dir: PathBuf,
    listing: Mutex<Listing>,
}

/// Reading the workspace failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the workspace at {}: {source}", .path.display())]
pub struct WorkspaceError {
    /// Where.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

/// A regular file found by the walk: its path below the root and the
/// leaf of its content (read relative to its folder, not by a full path).
struct Found {
    relative: PathBuf,
    /// `None` for a write-back temporary: left out of the root.
    leaf: Option<[u8; 32]>,
}

impl Workspace {
    /// The workspace `name` at `dir`, resolved once (the host named it;
    /// a link in that name is the host's choice), so that what sessions
    /// name below it may hold no link at all.
    pub fn new(name: impl Into<String>, dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        Workspace {
            name: name.into(),
            dir: std::fs::canonicalize(&dir).unwrap_or(dir),
            listing: Mutex::new(Listing::default()),
        }
    }

    /// The root now: `blake3:` and the hex of a binary merkle tree whose
    /// leaves are blake3(path, NUL, content hash) of every regular file in
    /// path order (the empty tree's root is the hash of nothing). Reads
    /// every file.
    pub fn root(&self) -> Result<String, WorkspaceError> {
        self.root_of_walk(false)
    }

    /// [`Workspace::root`], removing the write-back temporaries it finds:
    /// for the holder of the fence, when no writer can be alive (one that
    /// held it before died between writing a temporary and renaming it).
    pub fn root_sweeping(&self) -> Result<String, WorkspaceError> {
        self.root_of_walk(true)
    }

    fn root_of_walk(&self, sweep: bool) -> Result<String, WorkspaceError> {
        let mut listed = Vec::new();
        for found in walk_parallel(&self.dir)? {
            match found.leaf {
                Some(leaf) => listed.push((found.relative, leaf)),
                None if sweep => {
                    let path = self.dir.join(&found.relative);
                    std::fs::remove_file(&path)
                        .or_else(|error| match error.kind() {
                            std::io::ErrorKind::NotFound => Ok(()),
                            _ => Err(error),
                        })
                        .map_err(failed(path))?;
                }
                None => {}
            }
        }
        let root = root_of(&listed);
        self.listing.lock().files = listed;
        Ok(root)
    }

    /// The root after the files at `written` (host paths below the folder)
    /// were written, from the last listing: only those files are read
    /// again. For the moment right after a write-back, under the lock, so
    /// the rest of the folder is as the last [`Workspace::root`] saw it.
    pub fn root_after_writing(&self, written: &[PathBuf]) -> Result<String, WorkspaceError> {
        let mut listing = self.listing.lock();
        for host in written {
            let Ok(relative) = host.strip_prefix(&self.dir) else {
                continue;
            };
            let leaf = leaf_of(relative, host)?;
            match listing
                .files
                .binary_search_by(|(path, _)| path.as_path().cmp(relative))
            {
                Ok(at) => listing.files[at].1 = leaf,
                Err(at) => listing.files.insert(at, (relative.to_path_buf(), leaf)),
            }
        }
        Ok(root_of(&listing.files))
    }

    /// Takes the workspace's lock (`.goccia/lock`, an exclusive `flock`,
    /// so it holds against other processes too) until the guard drops.
    /// Blocks while another holder has it.
    pub fn lock(&self) -> Result<WorkspaceLock, WorkspaceError> {
        let dir = self.dir.join(".goccia");
        let at = |source| WorkspaceError {
            path: dir.clone(),
            source,
        };
        std::fs::create_dir_all(&dir).map_err(at)?;
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("lock"))
            .map_err(at)?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
            .map_err(|errno| at(errno.into()))?;
        Ok(WorkspaceLock { _file: file })
    }

    /// [`Workspace::lock`] if nobody holds it now, else `None`.
    pub fn try_lock(&self) -> Result<Option<WorkspaceLock>, WorkspaceError> {
        let dir = self.dir.join(".goccia");
        let at = |source| WorkspaceError {
            path: dir.clone(),
            source,
        };
        std::fs::create_dir_all(&dir).map_err(at)?;
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("lock"))
            .map_err(at)?;
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(Some(WorkspaceLock { _file: file })),
            Err(rustix::io::Errno::WOULDBLOCK) => Ok(None),
            Err(errno) => Err(at(errno.into())),
        }
    }
}

/// Holds a workspace's lock; released when dropped (the file closes).
pub struct WorkspaceLock {
    _file: File,
}

fn root_of(listed: &[(PathBuf, [u8; 32])]) -> String {
    let leaves = listed.iter().map(|(_, leaf)| *leaf).collect();
    format!("blake3:{}", hex(&merkle(leaves)))
}

fn failed(path: PathBuf) -> impl FnOnce(std::io::Error) -> WorkspaceError {
    move |source| WorkspaceError { path, source }
}

/// A folder's entries sorted by name.
fn sorted_entries(dir: &Path) -> Result<Vec<std::fs::DirEntry>, WorkspaceError> {
    let mut entries = std::fs::read_dir(dir)
        .map_err(failed(dir.to_path_buf()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(failed(dir.to_path_buf()))?;
    entries.sort_by_cached_key(|entry| entry.file_name());
    Ok(entries)
}

/// What walking one top-level entry found.
type Walked = Result<Vec<Found>, WorkspaceError>;

/// Every regular file below `root` in path order (each folder's names
/// sorted, depth first: the order of sorting the paths component by
/// component). The top-level entries are shared among up to four threads
/// (the walk is bound by `stat` calls); their results are joined in order.
fn walk_parallel(root: &Path) -> Result<Vec<Found>, WorkspaceError> {
    let entries: Vec<_> = sorted_entries(root)?
        .into_iter()
        .filter(|entry| {
            !NOT_IN_ROOT
                .iter()
                .any(|left_out| entry.file_name() == std::ffi::OsStr::new(left_out))
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Walked>>> = entries.iter().map(|_| Mutex::new(None)).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4)
        .min(entries.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(entry) = entries.get(index) else {
                        break;
                    };
                    let mut found = Vec::new();
                    let result = visit(entry, Path::new(""), &mut found).map(|()| found);
                    *slots[index].lock() = Some(result);
                }
            });
        }
    });
    let mut files = Vec::new();
    for slot in slots {
        files.extend(slot.into_inner().expect("every entry was visited")?);
    }
    Ok(files)
}

/// One entry of a folder: a file is listed with its leaf, a folder
/// walked.
fn visit(
    entry: &std::fs::DirEntry,
    relative: &Path,
    out: &mut Vec<Found>,
) -> Result<(), WorkspaceError> {
    let kind = entry.file_type().map_err(failed(entry.path()))?;
    let below = relative.join(entry.file_name());
    if kind.is_dir() {
        for child in sorted_entries(&entry.path())? {
            visit(&child, &below, out)?;
        }
    } else if kind.is_file() {
        let leaf = if is_write_back_temporary(&entry.file_name()) {
            None
        } else {
            Some(leaf_of(&below, &entry.path())?)
        };
        out.push(Found {
            relative: below,
            leaf,
        });
    }
    Ok(())
}

/// A file's leaf: blake3(path, NUL, blake3(content)).
fn leaf_of(relative: &Path, host: &Path) -> Result<[u8; 32], WorkspaceError> {
    let hash = hash_file(host)?;
    let mut leaf = blake3::Hasher::new();
    leaf.update(relative.to_string_lossy().as_bytes());
    leaf.update(&[0]);
    leaf.update(&hash);
    Ok(*leaf.finalize().as_bytes())
}

fn hash_file(path: &Path) -> Result<[u8; 32], WorkspaceError> {
    let mut hasher = blake3::Hasher::new();
    File::open(path)
        .and_then(|file| hasher.update_reader(file).map(drop))
        .map_err(|source| WorkspaceError {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(*hasher.finalize().as_bytes())
}

/// The root of a binary tree over `leaves` (an odd one out is carried up).
fn merkle(mut level: Vec<[u8; 32]>) -> [u8; 32] {
    if level.is_empty() {
        return *blake3::hash(b"").as_bytes();
    }
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [left, right] => {
                    let mut node = blake3::Hasher::new();
                    node.update(left);
                    node.update(right);
                    *node.finalize().as_bytes()
                }
                [single] => *single,
                _ => unreachable!("chunks of two"),
            })
            .collect();
    }
    level[0]
}

/// Lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_follows_paths_and_contents_but_not_git_or_goccia() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.txt"), "a").unwrap();
        std::fs::write(dir.path().join("b.txt"), "b").unwrap();
        let workspace = Workspace::new("w", dir.path());
        let first = workspace.root().unwrap();
        assert!(first.starts_with("blake3:") && first.len() == 7 + 64);
        assert_eq!(workspace.root().unwrap(), first, "stable");
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join(".git/HEAD"), "x").unwrap();
        drop(workspace.lock().unwrap());
        assert_eq!(
            workspace.root().unwrap(),
            first,
            ".git and .goccia are left out"
        );
        std::fs::write(dir.path().join("src/a.txt"), "A").unwrap();
        let edited = workspace.root().unwrap();
        assert_ne!(edited, first);
        // A fresh cache computes the same root (the cache changes nothing).
        assert_eq!(Workspace::new("w", dir.path()).root().unwrap(), edited);
        std::fs::rename(dir.path().join("b.txt"), dir.path().join("c.txt")).unwrap();
        assert_ne!(workspace.root().unwrap(), edited, "a rename changes it");
    }

    /// The root by the definition, without the walk's shortcuts: every
    /// file's path sorted as a whole, each leaf hashed from scratch.
    fn reference_root(dir: &Path) -> String {
        fn all(dir: &Path, root: &Path, out: &mut Vec<PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                let relative = path.strip_prefix(root).unwrap().to_path_buf();
                if NOT_IN_ROOT.iter().any(|n| relative == Path::new(n)) {
                    continue;
                }
                if path.is_dir() {
                    all(&path, root, out);
                } else {
                    out.push(relative);
                }
            }
        }
        let mut files = Vec::new();
        all(dir, dir, &mut files);
        files.sort();
        let leaves = files
            .iter()
            .map(|relative| {
                let content = blake3::hash(&std::fs::read(dir.join(relative)).unwrap());
                let mut leaf = blake3::Hasher::new();
                leaf.update(relative.to_string_lossy().as_bytes());
                leaf.update(&[0]);
                leaf.update(content.as_bytes());
                *leaf.finalize().as_bytes()
            })
            .collect();
        format!("blake3:{}", hex(&merkle(leaves)))
    }

    #[test]
    fn the_lock_excludes_every_other_opener() {
        let dir = tempfile::tempdir().unwrap();
        // Two handles on one folder stand for two processes: `flock` locks
        // belong to the open file, not to the process.
        let (one, two) = (
            Workspace::new("w", dir.path()),
            Workspace::new("w", dir.path()),
        );
        let held = one.lock().unwrap();
        assert!(two.try_lock().unwrap().is_none(), "held elsewhere");
        drop(held);
        let taken = two.try_lock().unwrap();
        assert!(taken.is_some());
        assert!(one.try_lock().unwrap().is_none());
    }

    #[test]
    fn the_walk_and_the_update_after_writing_match_the_definition() {
        let dir = tempfile::tempdir().unwrap();
        // Names whose byte order and component order differ (`a-b` sorts
        // before `a/` as strings, after it as components).
        for name in ["a/x", "a-b", "a.txt", "a/b/c", "b", "Z", "a/ä", "a b/q"] {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, name).unwrap();
        }
        let workspace = Workspace::new("w", dir.path());
        assert_eq!(workspace.root().unwrap(), reference_root(dir.path()));
        let written = [dir.path().join("a/b/c"), dir.path().join("a/new")];
        std::fs::write(&written[0], "changed").unwrap();
        std::fs::write(&written[1], "new").unwrap();
        let updated = workspace.root_after_writing(&written).unwrap();
        assert_eq!(updated, reference_root(dir.path()));
        assert_eq!(workspace.root().unwrap(), updated);
    }
}
