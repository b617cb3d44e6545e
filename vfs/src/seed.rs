//! Populating a VFS before a guest runs (docs/vfs.md): from host paths,
//! from another sandbox's snapshot, or from inline bytes.
//!
//! Seeds are copies taken once (baselines), never live mounts. A seed is
//! applied as a unit: it is staged on an O(1) clone of the tree and only
//! committed when all of it succeeded.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::UNIX_EPOCH;

use bytes::Bytes;
use thiserror::Error;

use crate::error::{Errno, FsError};
use crate::fs::{DIR_MODE, FILE_MODE, Snapshot, Vfs};
use crate::node::{DirNode, FileNode, LinkNode, Meta, Name, Node, NodeType};
use crate::path::{PathError, VfsPath};
use crate::seed_config::SeedSpec;
use crate::seed_filter::{HostFilter, HostWalk};

/// Where a seed lands. A file seeded to a target that is `/`, ends in `/`
/// or is an existing directory keeps its name inside it; otherwise it is
/// written at exactly the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedTarget {
    path: VfsPath,
    names_directory: bool,
}

impl SeedTarget {
    /// A target as given (`/w`, `/w/` for "inside the folder /w").
    pub fn parse(raw: &str) -> Result<Self, SeedError> {
        let path = VfsPath::parse(raw).map_err(|source| SeedError::BadTarget {
            raw: raw.to_string(),
            source,
        })?;
        Ok(SeedTarget {
            names_directory: raw.ends_with('/') || path.is_root(),
            path,
        })
    }

    /// `/`.
    pub fn root() -> Self {
        SeedTarget {
            path: VfsPath::root(),
            names_directory: true,
        }
    }

    /// The target path.
    pub fn path(&self) -> &VfsPath {
        &self.path
    }

    /// The exact path a *file* named `file_name` lands at.
    fn file_destination(&self, vfs: &Vfs, file_name: &str) -> VfsPath {
        if self.names_directory || vfs.is_dir(&self.path) {
            self.path.join(file_name)
        } else {
            self.path.clone()
        }
    }
}

/// Why a seed could not be applied. Nothing of that seed landed.
#[derive(Debug, Error)]
pub enum SeedError {
    /// The host path does not exist.
    #[error("seed path does not exist: {}", .0.display())]
    Missing(PathBuf),
    /// The host path is, or contains, a symbolic link.
    #[error("seed path is a symlink (not supported): {}", .0.display())]
    Symlink(PathBuf),
    /// A write-back (`--copy-rw`) path that passes through a symbolic
    /// link: write-back would follow it out of the folder named.
    #[error("copy-rw path passes through a symbolic link: {} (write-back would follow it; name the folder it points to instead)", .link.display())]
    LinkOnWritePath {
        /// The path as given.
        path: PathBuf,
        /// The component that is a link.
        link: PathBuf,
    },
    /// An exclude pattern that is not valid gitignore syntax.
    #[error("invalid exclude pattern `{pattern}`: {reason}")]
    BadExclude {
        /// The pattern.
        pattern: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A device, socket or pipe.
    #[error("seed path is neither a file nor a directory: {}", .0.display())]
    Special(PathBuf),
    /// A name the VFS cannot hold.
    #[error("seed path name is not valid UTF-8: {}", .0.display())]
    NonUtf8Name(PathBuf),
    /// The host refused to read it.
    #[error("cannot read seed path {}: {source}", path.display())]
    Io {
        /// The host path.
        path: PathBuf,
        /// The host's error.
        source: io::Error,
    },
    /// The sandbox target is not a valid path.
    #[error("invalid sandbox path `{raw}`: {source}")]
    BadTarget {
        /// The target as given.
        raw: String,
        /// What is wrong with it.
        source: PathError,
    },
    /// A child's seed names a path its parent does not have.
    #[error("seed path does not exist in the parent sandbox: {0}")]
    MissingInParent(VfsPath),
    /// A host folder nested deeper than the VFS allows.
    #[error("seed path is deeper than {} levels below its target: {}", crate::path::MAX_DEPTH, .0.display())]
    TooDeep(PathBuf),
    /// A seed of the wrong kind for where it is used (a host path for a
    /// child sandbox, a parent path where there is no parent).
    #[error("{0}")]
    WrongSource(&'static str),
    /// The seed does not fit: a file in the way of a folder, a quota.
    #[error("cannot seed {what} at {}: {}", error.path, seed_failure(error))]
    Conflict {
        /// What was being seeded.
        what: String,
        /// Why the VFS refused.
        error: FsError,
    },
}

fn seed_failure(error: &FsError) -> String {
    match (error.errno, error.quota) {
        (_, Some(kind)) => format!(
            "the sandbox filesystem quota is exhausted ({})",
            match kind {
                crate::error::QuotaKind::Bytes => "bytes",
                crate::error::QuotaKind::Nodes => "files and directories",
            }
        ),
        (Errno::NotDir, _) => "a file is in the way of a directory".to_string(),
        (Errno::IsDir, _) => "a directory is in the way of a file".to_string(),
        (errno, _) => errno.strerror().to_lowercase(),
    }
}

impl SeedError {
    /// The quota that refused the seed, if one did.
    pub fn quota(&self) -> Option<crate::error::QuotaKind> {
        match self {
            SeedError::Conflict { error, .. } => error.quota,
            _ => None,
        }
    }
}

/// Where a seed landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeded {
    /// The path in the sandbox.
    pub path: VfsPath,
    /// A file or a folder.
    pub node_type: NodeType,
}

/// Where the `from` of seed entries is read.
#[derive(Clone, Copy, Debug)]
pub enum SeedSource<'a> {
    /// Host paths, relative to `folder` (a seed config's), filtered.
    Host {
        /// What relative host paths are relative to.
        folder: &'a Path,
        /// What host seeds leave out.
        filter: &'a HostFilter,
    },
    /// Paths of a parent sandbox, as of this snapshot.
    Parent(&'a Snapshot),
}

/// A seed entry of a list that could not be applied; the entries before
/// it landed, nothing of it did.
#[derive(Debug, Error)]
#[error("seed entry {index}: {source}")]
pub struct SeedEntryError {
    /// Position of the entry in the list.
    pub index: usize,
    /// Why it failed.
    pub source: SeedError,
}

/// Applies `specs` in order, reading `from` paths in `source`.
pub fn seed_all(
    vfs: &mut Vfs,
    specs: &[SeedSpec],
    source: SeedSource<'_>,
) -> Result<(), SeedEntryError> {
    for (index, spec) in specs.iter().enumerate() {
        seed_one(vfs, spec, source).map_err(|source| SeedEntryError { index, source })?;
    }
    Ok(())
}

/// Applies one seed entry.
pub fn seed_one(
    vfs: &mut Vfs,
    spec: &SeedSpec,
    source: SeedSource<'_>,
) -> Result<Seeded, SeedError> {
    match (spec, source) {
        (SeedSpec::Host { from, to }, SeedSource::Host { folder, filter }) => {
            let target = SeedTarget::parse(to.as_deref().unwrap_or("/"))?;
            seed_host_filtered(vfs, &folder.join(from), &target, filter)
        }
        (SeedSpec::Parent { from, to }, SeedSource::Parent(snapshot)) => {
            let from_path = VfsPath::parse(from).map_err(|source| SeedError::BadTarget {
                raw: from.clone(),
                source,
            })?;
            let target = SeedTarget::parse(to.as_deref().unwrap_or(from))?;
            seed_snapshot(vfs, snapshot, &from_path, &target)
        }
        (SeedSpec::Inline { path, content }, _) => {
            let path = VfsPath::parse(path).map_err(|source| SeedError::BadTarget {
                raw: path.clone(),
                source,
            })?;
            seed_bytes(vfs, &path, content.clone())
        }
        (SeedSpec::Host { .. }, SeedSource::Parent(_)) => Err(SeedError::WrongSource(
            "a child sandbox is seeded from its parent's paths, never the host's",
        )),
        (SeedSpec::Parent { .. }, SeedSource::Host { .. }) => Err(SeedError::WrongSource(
            "a parent path can only seed a child sandbox",
        )),
    }
}

/// A child sandbox's VFS: seeded from `parent`'s current tree (each folder
/// shared, O(1) whatever its size) and inline files. Its quota lets it
/// hold what it was seeded with plus what `parent` may still write.
pub fn seed_child(parent: &Vfs, specs: &[SeedSpec]) -> Result<Vfs, SeedEntryError> {
    let snapshot = parent.snapshot();
    let remaining = parent.remaining();
    let mut vfs = Vfs::new(crate::fs::Quota::UNLIMITED);
    seed_all(&mut vfs, specs, SeedSource::Parent(&snapshot))?;
    let seeded = vfs.usage();
    vfs.set_quota(crate::fs::Quota {
        max_bytes: seeded.bytes.saturating_add(remaining.max_bytes),
        max_nodes: seeded.nodes.saturating_add(remaining.max_nodes),
    });
    // What the parent holds is charged once: deleting a seed in the child
    // does not make room for more (the parent, or the child's baseline,
    // still holds it).
    vfs.charge_what_others_hold();
    // The child is fenced as its parent's calls are now (a narrowing is
    // the caller's to apply).
    vfs.set_policy(parent.policy());
    Ok(vfs)
}

/// Copies a host file or folder into the VFS. Symlinks anywhere in what is
/// copied (the named path itself, or inside a folder, dangling or not) are
/// refused; symlinked *ancestors* of the named path are followed.
pub fn seed_host(vfs: &mut Vfs, host: &Path, target: &SeedTarget) -> Result<Seeded, SeedError> {
    seed_host_filtered(vfs, host, target, &HostFilter::default())
}

/// [`seed_host`], leaving out what `filter` says. A named path that is
/// itself a link is refused whatever the link policy (name its target).
pub fn seed_host_filtered(
    vfs: &mut Vfs,
    host: &Path,
    target: &SeedTarget,
    filter: &HostFilter,
) -> Result<Seeded, SeedError> {
    let mut walk = filter.walk(host)?;
    let remaining = vfs.remaining();
    let mut budget = HostBudget {
        bytes: remaining.max_bytes,
        // A seeded folder's own node is not stored (its contents merge
        // into the target); the merge checks the quota exactly.
        nodes: remaining.max_nodes.saturating_add(1),
        target: target.path().clone(),
    };
    let levels = crate::path::MAX_DEPTH.saturating_sub(target.path().depth());
    if fs::symlink_metadata(host)
        .map_err(io_error(host))?
        .file_type()
        .is_symlink()
    {
        return Err(SeedError::Symlink(host.to_path_buf()));
    }
    let node = read_host_node(host, &mut budget, levels, &mut walk)?
        .expect("the named path is not a link");
    let name = match node.node_type() {
        NodeType::File | NodeType::Symlink => Some(host_file_name(host)?),
        NodeType::Directory => None,
    };
    place(
        vfs,
        node,
        name.as_deref(),
        target,
        &host.display().to_string(),
    )
}

/// Copies a path of another sandbox (a child's parent) into this VFS. O(1)
/// whatever the size of the copied subtree.
pub fn seed_snapshot(
    vfs: &mut Vfs,
    source: &Snapshot,
    from: &VfsPath,
    target: &SeedTarget,
) -> Result<Seeded, SeedError> {
    let node = source
        .lookup(from)
        .map_err(|_| SeedError::MissingInParent(from.clone()))?;
    let name = from.file_name().map(str::to_string);
    place(vfs, node, name.as_deref(), target, from.as_str())
}

/// Writes an inline file at exactly `path`, creating missing parents.
pub fn seed_bytes(vfs: &mut Vfs, path: &VfsPath, content: Bytes) -> Result<Seeded, SeedError> {
    let conflict = |error| SeedError::Conflict {
        what: "inline file".to_string(),
        error,
    };
    let mut staged = vfs.clone();
    if let Some(parent) = path.parent() {
        staged.mkdir_all(&parent).map_err(conflict)?;
    }
    staged.write_file(path, content).map_err(conflict)?;
    *vfs = staged;
    Ok(Seeded {
        path: path.clone(),
        node_type: NodeType::File,
    })
}

fn place(
    vfs: &mut Vfs,
    node: Node,
    file_name: Option<&str>,
    target: &SeedTarget,
    what: &str,
) -> Result<Seeded, SeedError> {
    let conflict = |error| SeedError::Conflict {
        what: what.to_string(),
        error,
    };
    let mut staged = vfs.clone();
    let destination = match (&node, file_name) {
        (Node::File(_), Some(name)) => target.file_destination(&staged, name),
        _ => target.path.clone(),
    };
    let node_type = node.node_type();
    merge(&mut staged, &destination, node).map_err(conflict)?;
    *vfs = staged;
    Ok(Seeded {
        path: destination,
        node_type,
    })
}

/// Puts `node` at `path`: a directory merges into an existing directory,
/// anything else replaces a node of the same type.
fn merge(vfs: &mut Vfs, path: &VfsPath, node: Node) -> Result<(), FsError> {
    match (vfs.lookup_link(path), node) {
        (Ok(Node::Dir(_)), Node::Dir(incoming)) => {
            for (name, child) in incoming.iter() {
                merge(vfs, &path.join(name), child.clone())?;
            }
            Ok(())
        }
        (Ok(Node::Dir(_)), _) => Err(FsError::new(Errno::IsDir, path)),
        (Ok(Node::File(_) | Node::Link(_)), Node::Dir(_)) => Err(FsError::new(Errno::NotDir, path)),
        (Ok(Node::File(_) | Node::Link(_)), file) => vfs.graft(path, file),
        (Err(_), node) => {
            if let Some(parent) = path.parent() {
                vfs.mkdir_all(&parent)?;
            }
            vfs.graft(path, node)
        }
    }
}

fn host_file_name(host: &Path) -> Result<String, SeedError> {
    let name = host
        .file_name()
        .ok_or_else(|| SeedError::Special(host.to_path_buf()))?;
    name.to_str()
        .map(str::to_string)
        .ok_or_else(|| SeedError::NonUtf8Name(host.to_path_buf()))
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> SeedError + '_ {
    move |source| {
        if source.kind() == io::ErrorKind::NotFound {
            SeedError::Missing(path.to_path_buf())
        } else {
            SeedError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    }
}

fn meta_of(metadata: &fs::Metadata, default_mode: u32) -> Meta {
    #[cfg(unix)]
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        metadata.permissions().mode() & 0o7777
    };
    #[cfg(not(unix))]
    let mode = default_mode;
    let _ = default_mode;
    let mtime_ns = metadata
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0);
    Meta { mode, mtime_ns }
}

/// What reading the host may still take: the VFS's remaining quota (so a
/// huge or endless host file is refused from its metadata, or after one
/// byte past the quota, never read whole first).
struct HostBudget {
    bytes: u64,
    nodes: u64,
    /// The seed's target, for the quota error.
    target: VfsPath,
}

impl HostBudget {
    fn exhausted(&self, what: &Path, kind: crate::error::QuotaKind) -> SeedError {
        SeedError::Conflict {
            what: what.display().to_string(),
            error: FsError::quota(kind, &self.target),
        }
    }

    fn take_node(&mut self, what: &Path) -> Result<(), SeedError> {
        if self.nodes == 0 {
            return Err(self.exhausted(what, crate::error::QuotaKind::Nodes));
        }
        self.nodes -= 1;
        Ok(())
    }
}

/// Reads one host file, at most what the budget allows.
fn read_host_file(path: &Path, len: u64, budget: &mut HostBudget) -> Result<Vec<u8>, SeedError> {
    use std::io::Read;
    if len > budget.bytes {
        return Err(budget.exhausted(path, crate::error::QuotaKind::Bytes));
    }
    let file = fs::File::open(path).map_err(io_error(path))?;
    let mut data = Vec::with_capacity(len as usize);
    // One byte more than allowed tells a file that grew (or lied about its
    // size) from one that fits.
    file.take(budget.bytes.saturating_add(1))
        .read_to_end(&mut data)
        .map_err(io_error(path))?;
    if data.len() as u64 > budget.bytes {
        return Err(budget.exhausted(path, crate::error::QuotaKind::Bytes));
    }
    budget.bytes -= data.len() as u64;
    Ok(data)
}

/// Reads a host file or folder into a detached node, refusing special
/// files, folders nested more than `levels` deep, and more than the budget;
/// links as the walk's policy says (`None`: left out), and nothing the
/// walk excludes.
fn read_host_node(
    path: &Path,
    budget: &mut HostBudget,
    levels: usize,
    walk: &mut HostWalk<'_>,
) -> Result<Option<Node>, SeedError> {
    let metadata = fs::symlink_metadata(path).map_err(io_error(path))?;
    let file_type = metadata.file_type();
    if file_type.is_symlink() {
        let Some(target) = walk.link(path)? else {
            return Ok(None);
        };
        budget.take_node(path)?;
        if (target.len() as u64) > budget.bytes {
            return Err(budget.exhausted(path, crate::error::QuotaKind::Bytes));
        }
        budget.bytes -= target.len() as u64;
        let link = LinkNode::new(target, meta_of(&metadata, crate::fs::LINK_MODE));
        Ok(Some(Node::Link(Arc::new(link))))
    } else if file_type.is_file() {
        budget.take_node(path)?;
        let data = read_host_file(path, metadata.len(), budget)?;
        let file = FileNode::new(Bytes::from(data), meta_of(&metadata, FILE_MODE));
        Ok(Some(Node::File(Arc::new(file))))
    } else if file_type.is_dir() {
        if levels == 0 {
            return Err(SeedError::TooDeep(path.to_path_buf()));
        }
        budget.take_node(path)?;
        let mut dir = DirNode::new(meta_of(&metadata, DIR_MODE));
        let mut entries = fs::read_dir(path)
            .map_err(io_error(path))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(io_error(path))?;
        entries.sort_by_key(|entry| entry.file_name());
        let layered = walk.enter(path);
        for entry in entries {
            let child_path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if walk.excluded(&child_path, is_dir) {
                continue;
            }
            let name = entry
                .file_name()
                .into_string()
                .map_err(|_| SeedError::NonUtf8Name(child_path.clone()))?;
            if let Some(child) = read_host_node(&child_path, budget, levels - 1, walk)? {
                dir.insert(Name::from(name.as_str()), child);
            }
        }
        if layered {
            walk.leave();
        }
        Ok(Some(Node::Dir(Arc::new(dir))))
    } else {
        Err(SeedError::Special(path.to_path_buf()))
    }
}

/// Refuses a write-back path any of whose components is a symbolic link
/// — every component of an absolute path, every one below the working
/// directory of a relative one. Seeding follows links above a seed (the
/// docs/vfs.md allows symlinked ancestors), but write-back must not: a link
/// inside a workspace (`ws/link -> /elsewhere`) would turn a submit into a
/// write outside it (docs/security.md).
pub fn refuse_links_on_write_path(path: &Path) -> Result<(), SeedError> {
    let mut walked = PathBuf::new();
    for component in path.components() {
        walked.push(component);
        if !matches!(component, std::path::Component::Normal(_)) {
            continue;
        }
        match std::fs::symlink_metadata(&walked) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(SeedError::LinkOnWritePath {
                    path: path.to_path_buf(),
                    link: walked,
                });
            }
            Ok(_) => {}
            // Missing: seeding reports it in its own words.
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Quota;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    fn target(s: &str) -> SeedTarget {
        SeedTarget::parse(s).unwrap()
    }

    fn host_tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("proj/src")).unwrap();
        fs::create_dir_all(root.join("proj/empty")).unwrap();
        fs::write(root.join("proj/.hidden"), "h").unwrap();
        fs::write(root.join("proj/src/main.js"), "console.log(1)").unwrap();
        fs::write(root.join("one.txt"), "one").unwrap();
        dir
    }

    #[test]
    fn a_folder_copies_its_contents_with_dotfiles_and_empty_folders() {
        let host = host_tree();
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        let seeded = seed_host(&mut vfs, &host.path().join("proj"), &target("/work")).unwrap();
        assert_eq!(seeded.path, p("/work"));
        assert_eq!(vfs.read_file(&p("/work/.hidden")).unwrap(), "h");
        assert_eq!(
            vfs.read_file(&p("/work/src/main.js")).unwrap(),
            "console.log(1)"
        );
        assert!(vfs.is_dir(&p("/work/empty")));
        assert!(vfs.is_dir(&p("/tmp")), "merging keeps what is there");
    }

    #[test]
    fn a_file_keeps_its_name_inside_directory_targets() {
        let host = host_tree();
        let file = host.path().join("one.txt");
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        assert_eq!(
            seed_host(&mut vfs, &file, &SeedTarget::root())
                .unwrap()
                .path,
            p("/one.txt")
        );
        assert_eq!(
            seed_host(&mut vfs, &file, &target("/tmp")).unwrap().path,
            p("/tmp/one.txt")
        );
        assert_eq!(
            seed_host(&mut vfs, &file, &target("/new/")).unwrap().path,
            p("/new/one.txt")
        );
        assert_eq!(
            seed_host(&mut vfs, &file, &target("/x/renamed"))
                .unwrap()
                .path,
            p("/x/renamed")
        );
        assert_eq!(vfs.read_file(&p("/x/renamed")).unwrap(), "one");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_refused_wherever_they_are() {
        use std::os::unix::fs::symlink;
        let host = host_tree();
        let root = host.path();
        symlink(root.join("one.txt"), root.join("link")).unwrap();
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        let error = seed_host(&mut vfs, &root.join("link"), &SeedTarget::root()).unwrap_err();
        assert!(matches!(error, SeedError::Symlink(ref path) if path.ends_with("link")));

        symlink(root.join("nowhere"), root.join("proj/src/dangling")).unwrap();
        let error = seed_host(&mut vfs, &root.join("proj"), &SeedTarget::root()).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "seed path is a symlink (not supported): {}",
                root.join("proj/src/dangling").display()
            )
        );
        assert!(!vfs.exists(&p("/src")), "a refused seed changes nothing");

        // A symlinked ancestor of the named path is followed.
        symlink(root.join("proj/src"), root.join("srclink")).unwrap();
        fs::remove_file(root.join("proj/src/dangling")).unwrap();
        seed_host(&mut vfs, &root.join("srclink/main.js"), &SeedTarget::root()).unwrap();
        assert!(vfs.is_file(&p("/main.js")));
    }

    #[test]
    fn missing_paths_and_conflicts_are_named() {
        let host = host_tree();
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        let missing = host.path().join("nope");
        let error = seed_host(&mut vfs, &missing, &SeedTarget::root()).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("seed path does not exist: {}", missing.display())
        );

        vfs.write_file(&p("/work"), "a file").unwrap();
        let error = seed_host(&mut vfs, &host.path().join("proj"), &target("/work")).unwrap_err();
        assert!(
            error.to_string().contains("a file is in the way"),
            "{error}"
        );
        assert_eq!(vfs.read_file(&p("/work")).unwrap(), "a file");
    }

    #[test]
    fn seeding_counts_against_the_quota_and_is_all_or_nothing() {
        let host = host_tree();
        let mut vfs = Vfs::new(Quota {
            max_bytes: 1000,
            max_nodes: 4,
        });
        let error =
            seed_host(&mut vfs, &host.path().join("proj"), &SeedTarget::root()).unwrap_err();
        assert!(error.quota().is_some(), "{error}");
        assert_eq!(vfs.usage().nodes, 1, "nothing of a refused seed remains");
    }

    #[test]
    fn snapshot_seeds_share_structure() {
        let mut parent = Vfs::new(Quota::UNLIMITED);
        parent.mkdir_all(&p("/big/dir")).unwrap();
        parent.write_file(&p("/big/dir/f"), "data").unwrap();
        let snap = parent.snapshot();
        let mut child = Vfs::new(Quota::UNLIMITED);
        seed_snapshot(&mut child, &snap, &p("/big"), &target("/copy")).unwrap();
        let (Node::Dir(a), Node::Dir(b)) = (
            snap.lookup(&p("/big/dir")).unwrap(),
            child.lookup(&p("/copy/dir")).unwrap(),
        ) else {
            panic!("dirs")
        };
        assert!(
            Arc::ptr_eq(&a, &b),
            "the child holds the parent's node, not a copy"
        );
        let error = seed_snapshot(&mut child, &snap, &p("/nope"), &SeedTarget::root()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "seed path does not exist in the parent sandbox: /nope"
        );
        seed_snapshot(&mut child, &snap, &p("/big/dir/f"), &SeedTarget::root()).unwrap();
        assert_eq!(child.read_file(&p("/f")).unwrap(), "data");
    }

    #[test]
    fn a_child_cannot_make_room_by_deleting_its_seeds() {
        let mut parent = Vfs::new(Quota {
            max_bytes: 1000,
            max_nodes: 100,
        });
        parent.mkdir(&p("/big")).unwrap();
        parent.write_file(&p("/big/seed"), vec![b's'; 900]).unwrap();
        let seeds = [SeedSpec::Parent {
            from: "/big".into(),
            to: Some("/".into()),
        }];
        let mut child = seed_child(&parent, &seeds).unwrap();
        let baseline = child.snapshot();
        // Its quota: the 900 seeded bytes plus the parent's 100.
        assert_eq!(child.remaining().max_bytes, 100);
        // Overwriting or deleting the seed frees nothing: the parent (and
        // the baseline) still hold it.
        child.write_file(&p("/seed"), vec![b'n'; 50]).unwrap();
        assert_eq!(child.remaining().max_bytes, 50);
        child.remove_file(&p("/seed")).unwrap();
        assert_eq!(child.remaining().max_bytes, 100);
        let error = child.write_file(&p("/new"), vec![b'n'; 101]).unwrap_err();
        assert!(error.quota.is_some(), "{error}");
        // What the child wrote itself is its own to free.
        child.write_file(&p("/new"), vec![b'n'; 100]).unwrap();
        assert_eq!(child.remaining().max_bytes, 0);
        child.remove_file(&p("/new")).unwrap();
        assert_eq!(child.remaining().max_bytes, 100);
        child.mkdir_all(&p("/d/e")).unwrap();
        child.write_file(&p("/d/e/f"), vec![b'n'; 60]).unwrap();
        child.rename(&p("/d"), &p("/moved")).unwrap();
        child.remove_all(&p("/moved")).unwrap();
        assert_eq!(child.remaining().max_bytes, 100);
        drop(baseline);
        // A sandbox of its own refunds what it deletes.
        parent.remove_all(&p("/big")).unwrap();
        assert_eq!(parent.remaining().max_bytes, 1000);
    }

    #[test]
    fn bad_targets_are_reported() {
        assert!(matches!(
            SeedTarget::parse("/a\0"),
            Err(SeedError::BadTarget { .. })
        ));
    }
}
