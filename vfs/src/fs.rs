//! The filesystem a sandbox sees: operations, quotas and snapshots.
//!
//! Every operation validates first (existence, types, quota) and mutates
//! only when it cannot fail, so a refused write leaves the tree exactly as
//! it was. Batch operations (seeding) stage on a clone, which is O(1).
//!
//! This module holds the tree, snapshots, the write policy, quota accounting
//! and reading; `write` holds the operations that change the tree and
//! `links` symbolic links and path resolution.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;

use crate::error::{Errno, FsError, FsResult, QuotaKind};
use crate::node::{DirNode, Meta, Name, Node, NodeType, Usage};
use crate::path::{MAX_DEPTH, VfsPath};

/// Default permission bits of new files and directories.
pub const FILE_MODE: u32 = 0o644;
/// The mode of a new directory.
pub const DIR_MODE: u32 = 0o755;

/// Size and node quotas, checked before anything changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// Bytes of file content.
    pub max_bytes: u64,
    /// Files and directories, `/` excluded.
    pub max_nodes: u64,
}

impl Quota {
    /// No limit (children and tests).
    pub const UNLIMITED: Quota = Quota {
        max_bytes: u64::MAX,
        max_nodes: u64::MAX,
    };
}

/// What `stat` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    /// File or directory.
    pub node_type: NodeType,
    /// File length in bytes; 0 for directories.
    pub size: u64,
    /// Permission bits.
    pub mode: u32,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: i64,
    /// Entries of a directory (0 for files).
    pub entries: u64,
}

/// One entry of a directory listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    /// The entry's name.
    pub name: Name,
    /// File or directory.
    pub node_type: NodeType,
}

/// An immutable view of a whole tree, taken in O(1). Baselines and child
/// seeds are snapshots.
#[derive(Clone, Debug)]
pub struct Snapshot {
    root: Arc<DirNode>,
}

impl Snapshot {
    /// A tree holding nothing, not even `/tmp`: what an empty host folder
    /// holds, for keeping one in step with a tree ([`crate::replica`]).
    pub fn empty() -> Snapshot {
        Snapshot {
            root: Arc::new(DirNode::new(Meta {
                mode: DIR_MODE,
                mtime_ns: 0,
            })),
        }
    }

    /// The root directory.
    pub fn root(&self) -> &Arc<DirNode> {
        &self.root
    }

    /// What the tree holds, as the quota counts it.
    pub fn usage(&self) -> Usage {
        self.root.usage()
    }

    /// Whether `other` is this very tree (taken from the same state, not
    /// merely equal): O(1), for caching what was computed from a tree.
    pub fn same_tree(&self, other: &Snapshot) -> bool {
        Arc::ptr_eq(&self.root, &other.root)
    }

    /// The node at `path`, or why there is none.
    pub fn lookup(&self, path: &VfsPath) -> FsResult<Node> {
        lookup_in(&self.root, path)
    }
}

/// Modification times: wall-clock nanoseconds, made strictly increasing so
/// that two writes in the same instant still order (`-nt`, `find -newer`).
#[derive(Clone, Copy, Debug)]
struct Clock {
    last: i64,
}

impl Clock {
    fn tick(&mut self) -> i64 {
        let wall = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as i64)
            .unwrap_or(0);
        self.last = wall.max(self.last + 1);
        self.last
    }
}

/// A virtual filesystem: files and directories only.
#[derive(Clone, Debug)]
pub struct Vfs {
    root: Arc<DirNode>,
    quota: Quota,
    clock: Clock,
    /// For a child sandbox, what left the tree while something else (the
    /// parent, the child's baseline) still holds it: it stays charged, so
    /// deleting seeded data never makes room (`None`: removals refund).
    held_elsewhere: Option<Usage>,
    /// The write policy guest writes are checked against (`None`: not a
    /// sandbox's tree, no fence). A thread's [`crate::policy::Scope`]
    /// replaces it for that thread's calls. The host's own writes go
    /// through [`Vfs::unfenced`].
    policy: Option<crate::policy::WritePolicy>,
    /// Set while the host writes past the fence.
    unfenced: bool,
}

fn lookup_in(root: &Arc<DirNode>, path: &VfsPath) -> FsResult<Node> {
    let mut node = Node::Dir(root.clone());
    for name in path.components() {
        let Node::Dir(dir) = &node else {
            return Err(FsError::new(Errno::NotDir, path));
        };
        node = dir
            .get(name)
            .cloned()
            .ok_or_else(|| FsError::new(Errno::NoEnt, path))?;
    }
    Ok(node)
}

/// Walks to the directory `names` below `dir`, copying each node on the way
/// only if it is shared, applies `edit` there and fixes the aggregate usage
/// of every directory on the way back up. Callers validate first: the path
/// must name an existing directory.
fn edit_dir<R>(dir: &mut Arc<DirNode>, names: &[&str], edit: impl FnOnce(&mut DirNode) -> R) -> R {
    let node = Arc::make_mut(dir);
    match names.split_first() {
        None => edit(node),
        Some((name, rest)) => {
            let entry = node
                .entries
                .get_mut(*name)
                .expect("edit_dir: path validated by caller");
            let Node::Dir(child) = &mut entry.0 else {
                unreachable!("edit_dir: path validated by caller")
            };
            let (usage_before, height_before) = (child.usage, child.height());
            let result = edit_dir(child, rest, edit);
            let (usage_after, height_after) = (child.usage, child.height());
            node.usage = node.usage.minus(usage_before).plus(usage_after);
            node.reach_changed(height_before + 1, height_after + 1);
            result
        }
    }
}

impl Vfs {
    /// A new filesystem holding `/` and an empty `/tmp` (docs/vfs.md).
    pub fn new(quota: Quota) -> Self {
        let mut vfs = Vfs {
            root: Arc::new(DirNode::new(Meta {
                mode: DIR_MODE,
                mtime_ns: 0,
            })),
            quota: Quota::UNLIMITED,
            clock: Clock { last: 0 },
            held_elsewhere: None,
            policy: None,
            unfenced: false,
        };
        let now = vfs.clock.tick();
        Arc::make_mut(&mut vfs.root).meta.mtime_ns = now;
        let tmp = VfsPath::parse("/tmp").expect("valid");
        vfs.mkdir(&tmp).expect("a fresh tree has room for /tmp");
        // World-writable with the sticky bit, as on a Unix host.
        vfs.set_mode(&tmp, 0o1777).expect("/tmp was just made");
        vfs.quota = quota;
        vfs
    }

    /// A filesystem whose tree is `snapshot` (O(1)).
    pub fn from_snapshot(snapshot: &Snapshot, quota: Quota) -> Self {
        Vfs {
            root: snapshot.root.clone(),
            quota,
            clock: Clock { last: 0 },
            held_elsewhere: None,
            policy: None,
            unfenced: false,
        }
    }

    /// The tree as it is now, O(1) (structure is shared).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            root: self.root.clone(),
        }
    }

    /// Puts the tree back to `snapshot`, O(1); the quota stays.
    pub fn restore(&mut self, snapshot: &Snapshot) {
        self.root = snapshot.root.clone();
    }

    /// The quota.
    pub fn quota(&self) -> Quota {
        self.quota
    }

    /// Changes the quota (what is held already stays).
    pub fn set_quota(&mut self, quota: Quota) {
        self.quota = quota;
    }

    /// Fences every write from now on with `policy` (`None` lifts it).
    pub fn set_policy(&mut self, policy: Option<crate::policy::WritePolicy>) {
        self.policy = policy;
    }

    /// The policy this thread's writes are checked against now: its scope
    /// (an escalated call, a narrowed child) or the tree's own. `None`:
    /// the tree is not fenced.
    pub fn policy(&self) -> Option<crate::policy::WritePolicy> {
        self.policy.as_ref()?;
        crate::policy::current_scope().or_else(|| self.policy.clone())
    }

    /// Runs the host's own writes (seeding, merging, restoring) past the
    /// fence, which applies again afterwards.
    pub fn unfenced<R>(&mut self, write: impl FnOnce(&mut Vfs) -> R) -> R {
        let outer = std::mem::replace(&mut self.unfenced, true);
        let result = write(self);
        self.unfenced = outer;
        result
    }

    /// Runs a compound change (`cp -r` into a tree, extracting an archive)
    /// all or nothing: on a copy of the tree (O(1), structure is shared)
    /// that replaces this one only if every step succeeded.
    pub fn all_or_nothing<R, E>(
        &mut self,
        change: impl FnOnce(&mut Vfs) -> Result<R, E>,
    ) -> Result<R, E> {
        let mut scratch = self.clone();
        let result = change(&mut scratch)?;
        *self = scratch;
        Ok(result)
    }

    /// Whether a write to `path` is allowed now (no change is made).
    pub fn check_write(&self, path: &VfsPath) -> FsResult<()> {
        self.allow(path)
    }

    /// Refuses a write to `path` the policy in force does not allow.
    fn allow(&self, path: &VfsPath) -> FsResult<()> {
        let Some(own) = &self.policy else {
            return Ok(());
        };
        if self.unfenced {
            return Ok(());
        }
        crate::policy::with_scope(|scoped| {
            scoped
                .unwrap_or(own)
                .check(path)
                .map_err(|denied| FsError::denied(denied, path))
        })
    }

    /// Refuses changing every path of `node` at `path` (a removal, a move,
    /// a replacement) when any of them is denied: the path itself, and,
    /// under `workspace-write`, a protected name anywhere below it.
    fn allow_subtree(&self, path: &VfsPath, node: Option<&Node>) -> FsResult<()> {
        self.allow(path)?;
        let Some(Node::Dir(dir)) = node else {
            return Ok(());
        };
        let Some(policy) = self.policy() else {
            return Ok(());
        };
        if self.unfenced || policy.mode() != crate::policy::PolicyMode::WorkspaceWrite {
            return Ok(());
        }
        let mut work = vec![(path.clone(), dir.clone())];
        while let Some((at, dir)) = work.pop() {
            for (name, child) in dir.iter() {
                let below = at.join(name);
                if crate::policy::PROTECTED_NAMES.contains(&name.as_ref()) {
                    return Err(FsError::denied(policy.denial(), &below));
                }
                if let Node::Dir(child) = child {
                    work.push((below, child.clone()));
                }
            }
        }
        Ok(())
    }

    /// From now on, what is removed or overwritten while something else
    /// still holds it (a snapshot, the tree it was seeded from) stays
    /// charged against the quota: a child sandbox's quota is its seeds plus
    /// what its parent may still write, and deleting a seed frees nothing.
    pub fn charge_what_others_hold(&mut self) {
        self.held_elsewhere.get_or_insert_with(Usage::default);
    }

    /// What counts against the quota: the tree's usage, plus (for a child)
    /// what it removed that is still held elsewhere.
    pub fn charged(&self) -> Usage {
        let usage = self.usage();
        match self.held_elsewhere {
            Some(held) => usage.plus(held),
            None => usage,
        }
    }

    /// Takes note of `node`, just taken out of the tree (the caller holds
    /// the only handle it took): the parts of it that something else still
    /// holds stay charged. Costs what the tree alone held of it.
    fn release(&mut self, node: Option<Node>) {
        let (Some(held), Some(node)) = (&mut self.held_elsewhere, node) else {
            return;
        };
        let mut work = vec![&node];
        while let Some(node) = work.pop() {
            let shared = match node {
                Node::File(file) => Arc::strong_count(file) > 1,
                Node::Dir(dir) => Arc::strong_count(dir) > 1,
                Node::Link(link) => Arc::strong_count(link) > 1,
            };
            if shared {
                *held = held.plus(node.footprint());
            } else if let Node::Dir(dir) = node {
                work.extend(dir.iter().map(|(_, child)| child));
            }
        }
    }

    /// Bytes and nodes held (`/` itself not counted).
    pub fn usage(&self) -> Usage {
        self.root.usage()
    }

    /// What the quota still allows.
    pub fn remaining(&self) -> Quota {
        let usage = self.charged();
        Quota {
            max_bytes: self.quota.max_bytes.saturating_sub(usage.bytes),
            max_nodes: self.quota.max_nodes.saturating_sub(usage.nodes),
        }
    }

    // ----- reading -----

    /// The node at `path`, links followed (see [`Vfs::lookup_link`]).
    pub fn lookup(&self, path: &VfsPath) -> FsResult<Node> {
        lookup_in(&self.root, &self.resolve(path, true)?)
    }

    /// Whether `path` exists.
    pub fn exists(&self, path: &VfsPath) -> bool {
        self.lookup(path).is_ok()
    }

    /// Whether `path` is a directory.
    pub fn is_dir(&self, path: &VfsPath) -> bool {
        matches!(self.lookup(path), Ok(Node::Dir(_)))
    }

    /// Whether `path` is a file.
    pub fn is_file(&self, path: &VfsPath) -> bool {
        matches!(self.lookup(path), Ok(Node::File(_)))
    }

    /// What `path` is, links followed.
    pub fn stat(&self, path: &VfsPath) -> FsResult<Stat> {
        Ok(Self::stat_of(&self.lookup(path)?))
    }

    /// What `path` itself is, a link not followed (`lstat`).
    pub fn lstat(&self, path: &VfsPath) -> FsResult<Stat> {
        Ok(Self::stat_of(&self.lookup_link(path)?))
    }

    fn stat_of(node: &Node) -> Stat {
        let meta = node.meta();
        match node {
            Node::File(file) => Stat {
                node_type: NodeType::File,
                size: file.len(),
                mode: meta.mode,
                mtime_ns: meta.mtime_ns,
                entries: 0,
            },
            Node::Dir(dir) => Stat {
                node_type: NodeType::Directory,
                size: 0,
                mode: meta.mode,
                mtime_ns: meta.mtime_ns,
                entries: dir.len() as u64,
            },
            Node::Link(link) => Stat {
                node_type: NodeType::Symlink,
                size: link.target().len() as u64,
                mode: meta.mode,
                mtime_ns: meta.mtime_ns,
                entries: 0,
            },
        }
    }

    /// A file's content (shared, not copied).
    pub fn read_file(&self, path: &VfsPath) -> FsResult<Bytes> {
        match self.lookup(path)? {
            Node::File(file) => Ok(file.data().clone()),
            Node::Dir(_) => Err(FsError::new(Errno::IsDir, path)),
            Node::Link(_) => unreachable!("lookup follows links"),
        }
    }

    /// Entries of a directory in name order.
    pub fn read_dir(&self, path: &VfsPath) -> FsResult<Vec<DirEntry>> {
        match self.lookup(path)? {
            Node::Dir(dir) => Ok(dir
                .iter()
                .map(|(name, node)| DirEntry {
                    name: name.clone(),
                    node_type: node.node_type(),
                })
                .collect()),
            _ => Err(FsError::new(Errno::NotDir, path)),
        }
    }

    // ----- validation helpers -----

    /// The parent directory of `path` and `path`'s name; `path` is not `/`
    /// and was resolved (no link before its last name).
    fn parent_dir(&self, path: &VfsPath) -> FsResult<(VfsPath, Arc<DirNode>)> {
        let parent = path
            .parent()
            .ok_or_else(|| FsError::new(Errno::Busy, path))?;
        match lookup_in(&self.root, &parent) {
            Ok(Node::Dir(dir)) => Ok((parent, dir)),
            Ok(_) => Err(FsError::new(Errno::NotDir, path)),
            Err(error) => Err(FsError::new(error.errno, path)),
        }
    }

    /// Where a new entry at `path` goes (`mkdir`, `symlink`): the path
    /// with links on the way resolved, and its parent folder. Checks the
    /// depth limit and the write policy; `EEXIST` when anything, a link
    /// included, is there already (or `path` is the root).
    fn free_slot(&self, path: &VfsPath) -> FsResult<(VfsPath, VfsPath)> {
        if path.is_root() {
            return Err(FsError::new(Errno::Exist, path));
        }
        let path = self.resolve(path, false)?;
        Self::check_depth(&path, 0)?;
        self.allow(&path)?;
        let (parent, dir) = self.parent_dir(&path)?;
        if dir.get(path.file_name().expect("not root")).is_some() {
            return Err(FsError::new(Errno::Exist, &path));
        }
        Ok((path, parent))
    }

    /// Refuses growth past the quota; shrinking is always allowed (a child
    /// whose quota is its parent's remainder can still delete).
    fn check_quota(&self, removed: Usage, added: Usage, path: &VfsPath) -> FsResult<()> {
        let usage = self.charged();
        if added.bytes > removed.bytes
            && usage.bytes - removed.bytes + added.bytes > self.quota.max_bytes
        {
            return Err(FsError::quota(QuotaKind::Bytes, path));
        }
        if added.nodes > removed.nodes
            && usage.nodes - removed.nodes + added.nodes > self.quota.max_nodes
        {
            return Err(FsError::quota(QuotaKind::Nodes, path));
        }
        Ok(())
    }

    /// Refuses a node at `path` whose deepest descendant would be deeper
    /// than [`MAX_DEPTH`] (a rename or copy of a deep subtree, a path
    /// joined by a walk).
    fn check_depth(path: &VfsPath, node_height: u32) -> FsResult<()> {
        if path.depth() + node_height as usize > MAX_DEPTH {
            return Err(FsError::new(Errno::TooDeep, path));
        }
        Ok(())
    }

    fn names(path: &VfsPath) -> Vec<&str> {
        path.components().collect()
    }

    /// Puts `node` at `path` in its (validated) parent directory.
    /// Puts `node` at `parent/name`; what it replaced is released.
    /// Callers drop their handles on the directory first, or the edit
    /// copies it and the replaced node looks shared.
    fn place(&mut self, parent: &VfsPath, name: &str, node: Node) {
        let now = self.clock.tick();
        let replaced = edit_dir(&mut self.root, &Self::names(parent), |dir| {
            dir.meta.mtime_ns = now;
            dir.insert(Name::from(name), node)
        });
        self.release(replaced);
    }

    /// Takes `parent/name` out of the tree and releases it.
    fn remove_entry(&mut self, parent: &VfsPath, name: &str) {
        let removed = self.unplace(parent, name);
        self.release(removed);
    }

    fn unplace(&mut self, parent: &VfsPath, name: &str) -> Option<Node> {
        let now = self.clock.tick();
        edit_dir(&mut self.root, &Self::names(parent), |dir| {
            dir.meta.mtime_ns = now;
            dir.remove(name)
        })
    }
}

mod links;
mod write;
pub use links::{LINK_MODE, MAX_LINK_HOPS};

#[cfg(test)]
mod tests;
