//! Workspaces: host folders sessions are seeded from and submit to. Each
//! has a root — a blake3 merkle root over its files' paths and contents —
//! that a submit must expect, and a lock held across processes while a
//! submit checks the root and writes.
//!
//! Computing the root walks the folder's metadata and rehashes only the
//! files whose (size, mtime, inode) changed since the last walk, so a
//! 10,000-file workspace is not read whole on every submit. `.git/` and
//! `.goccia/` are not part of the root (git's own bookkeeping, and the
//! change log and the lock file, change without the work changing).

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use parking_lot::Mutex;

/// Names left out of the root.
const NOT_IN_ROOT: [&str; 2] = [".git", ".goccia"];

/// What a file looked like when it was last hashed.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Seen {
    size: u64,
    mtime_ns: i128,
    inode: u64,
    hash: [u8; 32],
}

/// One workspace: a name, a host folder, and the hashes seen so far.
pub struct Workspace {
    /// Its name in requests.
    pub name: String,
    /// The host folder.
    pub dir: PathBuf,
    seen: Mutex<HashMap<PathBuf, Seen>>,
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

impl Workspace {
    /// The workspace `name` at `dir`.
    pub fn new(name: impl Into<String>, dir: impl Into<PathBuf>) -> Self {
        Workspace {
            name: name.into(),
            dir: dir.into(),
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// The root now: `blake3:` and the hex of a binary merkle tree whose
    /// leaves are blake3(path, NUL, content hash) of every regular file in
    /// path order (the empty tree's root is the hash of nothing).
    pub fn root(&self) -> Result<String, WorkspaceError> {
        let mut files = Vec::new();
        walk(&self.dir, &self.dir, &mut files)?;
        files.sort();
        let mut seen = self.seen.lock();
        let mut leaves = Vec::with_capacity(files.len());
        let mut still_there = HashMap::with_capacity(files.len());
        for relative in files {
            let path = self.dir.join(&relative);
            let metadata = std::fs::symlink_metadata(&path).map_err(|source| WorkspaceError {
                path: path.clone(),
                source,
            })?;
            let now = Seen {
                size: metadata.len(),
                mtime_ns: i128::from(metadata.mtime()) * 1_000_000_000
                    + i128::from(metadata.mtime_nsec()),
                inode: metadata.ino(),
                hash: [0; 32],
            };
            let hash = match seen.get(&relative) {
                Some(before)
                    if (before.size, before.mtime_ns, before.inode)
                        == (now.size, now.mtime_ns, now.inode) =>
                {
                    before.hash
                }
                _ => hash_file(&path)?,
            };
            let mut leaf = blake3::Hasher::new();
            leaf.update(relative.to_string_lossy().as_bytes());
            leaf.update(&[0]);
            leaf.update(&hash);
            leaves.push(*leaf.finalize().as_bytes());
            still_there.insert(relative, Seen { hash, ..now });
        }
        *seen = still_there;
        Ok(format!("blake3:{}", hex(&merkle(leaves))))
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
}

/// Holds a workspace's lock; released when dropped (the file closes).
pub struct WorkspaceLock {
    _file: File,
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), WorkspaceError> {
    let entries = std::fs::read_dir(dir).map_err(|source| WorkspaceError {
        path: dir.to_path_buf(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| WorkspaceError {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|source| WorkspaceError {
            path: path.clone(),
            source,
        })?;
        if dir == root
            && NOT_IN_ROOT
                .iter()
                .any(|name| entry.file_name() == std::ffi::OsStr::new(name))
        {
            continue;
        }
        if kind.is_dir() {
            walk(root, &path, out)?;
        } else if kind.is_file() {
            out.push(path.strip_prefix(root).expect("below root").to_path_buf());
        }
    }
    Ok(())
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
}
