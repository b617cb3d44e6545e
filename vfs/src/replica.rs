//! Keeping a replica of a tree in step with it: another process holding
//! the same VFS (an isolated worker, docs/isolation.md) receives only what
//! changed since the tree both sides last agreed on.
//!
//! [`delta`] walks two snapshots by node identity, like the diff does, but
//! carries everything a replica needs to become identical — modes and
//! modification times included, which the diff (content only) leaves out.
//! [`Vfs::replay`] applies the steps past the write policy (the host's
//! authority decides what may be replayed; see its caller) and checks the
//! quota once, on the result.

use std::sync::Arc;

use bytes::Bytes;

use crate::error::{Errno, FsError, FsResult, QuotaKind};
use crate::fs::{Snapshot, Vfs};
use crate::node::{DirNode, FileNode, Meta, Node};
use crate::path::VfsPath;

/// One step that brings a replica closer to the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Remove the file or folder (and everything under it) at `path`.
    Remove {
        /// Where.
        path: VfsPath,
    },
    /// Create an empty folder at `path` (its entries follow as steps).
    Dir {
        /// Where.
        path: VfsPath,
        /// Its mode and time.
        meta: Meta,
    },
    /// Put a file at `path`, replacing a file there.
    File {
        /// Where.
        path: VfsPath,
        /// Its mode and time.
        meta: Meta,
        /// Its content.
        data: Bytes,
    },
    /// Put a symbolic link at `path`, replacing what is there.
    Link {
        /// Where.
        path: VfsPath,
        /// Its mode and time.
        meta: Meta,
        /// What it points at.
        target: String,
    },
    /// Set the mode and time of what is at `path` (a folder after its
    /// entries changed, or a file whose content did not).
    Meta {
        /// Where.
        path: VfsPath,
        /// The mode and time it has in the tree.
        meta: Meta,
    },
}

impl Step {
    /// The path the step is about.
    pub fn path(&self) -> &VfsPath {
        match self {
            Step::Remove { path }
            | Step::Dir { path, .. }
            | Step::File { path, .. }
            | Step::Link { path, .. }
            | Step::Meta { path, .. } => path,
        }
    }
}

/// The steps that turn a replica holding `old` into one holding `new`, in
/// an order [`Vfs::replay`] can apply: a folder's removals and creations
/// before its entries' steps, its own mode and time after them (writing
/// an entry moves a folder's time). O(changed): subtrees both sides share
/// are skipped by identity.
pub fn delta(old: &Snapshot, new: &Snapshot) -> Vec<Step> {
    let mut steps = Vec::new();
    dirs(&VfsPath::root(), old.root(), new.root(), &mut steps);
    steps
}

fn dirs(path: &VfsPath, old: &Arc<DirNode>, new: &Arc<DirNode>, steps: &mut Vec<Step>) {
    if Arc::ptr_eq(old, new) {
        return;
    }
    for item in old.entries.diff(&new.entries) {
        match item {
            imbl::ordmap::DiffItem::Add(name, entry) => added(&path.join(name), &entry.0, steps),
            imbl::ordmap::DiffItem::Remove(name, _) => steps.push(Step::Remove {
                path: path.join(name),
            }),
            imbl::ordmap::DiffItem::Update {
                old: (name, before),
                new: (_, after),
            } => updated(&path.join(name), &before.0, &after.0, steps),
        }
    }
    if old.meta() != new.meta() || !old.entries.is_empty() || !new.entries.is_empty() {
        // Replaying the entries moved the folder's time: put it back.
        steps.push(Step::Meta {
            path: path.clone(),
            meta: new.meta(),
        });
    }
}

fn added(path: &VfsPath, node: &Node, steps: &mut Vec<Step>) {
    match node {
        Node::Link(link) => steps.push(Step::Link {
            path: path.clone(),
            meta: link.meta(),
            target: link.target().to_string(),
        }),
        Node::File(file) => steps.push(Step::File {
            path: path.clone(),
            meta: file.meta(),
            data: file.data().clone(),
        }),
        Node::Dir(dir) => {
            steps.push(Step::Dir {
                path: path.clone(),
                meta: dir.meta(),
            });
            for (name, child) in dir.iter() {
                added(&path.join(name), child, steps);
            }
            if !dir.is_empty() {
                steps.push(Step::Meta {
                    path: path.clone(),
                    meta: dir.meta(),
                });
            }
        }
    }
}

fn updated(path: &VfsPath, before: &Node, after: &Node, steps: &mut Vec<Step>) {
    match (before, after) {
        (Node::File(a), Node::File(b)) => {
            if Arc::ptr_eq(a, b) {
            } else if !a.same_content(b) {
                steps.push(Step::File {
                    path: path.clone(),
                    meta: b.meta(),
                    data: b.data().clone(),
                });
            } else if a.meta() != b.meta() {
                steps.push(Step::Meta {
                    path: path.clone(),
                    meta: b.meta(),
                });
            }
        }
        (Node::Dir(a), Node::Dir(b)) => dirs(path, a, b, steps),
        // A link is put again whole when its target or time changed.
        (Node::Link(a), Node::Link(b)) => {
            if !Arc::ptr_eq(a, b) && (a.target() != b.target() || a.meta() != b.meta()) {
                added(path, after, steps);
            }
        }
        _ => {
            steps.push(Step::Remove { path: path.clone() });
            added(path, after, steps);
        }
    }
}

impl Vfs {
    /// Applies `steps` (from [`delta`]) as the host: past the write policy,
    /// all or nothing. The quota is checked on the result (the tree's own
    /// usage), so a replica that kept within it on its side is taken
    /// whatever each side's sharing of removed nodes was; a step that does
    /// not fit the tree (a file where its folder should be) is `EINVAL`.
    pub fn replay(&mut self, steps: &[Step]) -> FsResult<()> {
        let quota = self.quota();
        self.all_or_nothing(|vfs| {
            vfs.unfenced(|vfs| {
                for step in steps {
                    vfs.replay_step(step)?;
                }
                Ok::<(), FsError>(())
            })?;
            let usage = vfs.usage();
            if usage.bytes > quota.max_bytes {
                return Err(FsError::quota(QuotaKind::Bytes, &VfsPath::root()));
            }
            if usage.nodes > quota.max_nodes {
                return Err(FsError::quota(QuotaKind::Nodes, &VfsPath::root()));
            }
            Ok(())
        })
    }

    fn replay_step(&mut self, step: &Step) -> FsResult<()> {
        // The quota is checked once, on the result: each step is placed
        // under an unlimited one.
        let quota = self.quota();
        self.set_quota(crate::fs::Quota::UNLIMITED);
        let result = match step {
            Step::Remove { path } if path.is_root() => Err(FsError::new(Errno::Inval, path)),
            Step::Remove { path } => self.remove_all(path),
            Step::Dir { path, meta } => {
                if path.is_root() {
                    return Err(FsError::new(Errno::Inval, path));
                }
                let dir = DirNode::new(*meta);
                self.graft_new(path, Node::Dir(Arc::new(dir)))
            }
            Step::File { path, meta, data } => {
                if self.is_dir(path) {
                    Err(FsError::new(Errno::Inval, path))
                } else {
                    let file = FileNode::new(data.clone(), *meta);
                    self.graft(path, Node::File(Arc::new(file)))
                }
            }
            Step::Link { path, meta, target } => {
                let link = crate::node::LinkNode::new(target.as_str(), *meta);
                self.graft(path, Node::Link(Arc::new(link)))
            }
            Step::Meta { path, meta } => self
                .set_mode(path, meta.mode)
                .and_then(|()| self.set_mtime(path, Some(meta.mtime_ns))),
        };
        self.set_quota(quota);
        result
    }

    /// Grafts a node where nothing is yet.
    fn graft_new(&mut self, path: &VfsPath, node: Node) -> FsResult<()> {
        if self.exists(path) {
            return Err(FsError::new(Errno::Inval, path));
        }
        self.graft(path, node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Quota;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    /// Every path with its type, mode, time and content.
    fn listing(snapshot: &Snapshot) -> Vec<String> {
        let mut out = Vec::new();
        let mut work = vec![(VfsPath::root(), Node::Dir(snapshot.root().clone()))];
        while let Some((path, node)) = work.pop() {
            let meta = node.meta();
            match &node {
                Node::File(file) => out.push(format!(
                    "{path} f {:o} {} {:?}",
                    meta.mode,
                    meta.mtime_ns,
                    file.data()
                )),
                Node::Link(link) => out.push(format!(
                    "{path} l {:o} {} {}",
                    meta.mode,
                    meta.mtime_ns,
                    link.target()
                )),
                Node::Dir(dir) => {
                    out.push(format!("{path} d {:o} {}", meta.mode, meta.mtime_ns));
                    for (name, child) in dir.iter() {
                        work.push((path.join(name), child.clone()));
                    }
                }
            }
        }
        out.sort();
        out
    }

    fn replica_of(vfs: &Vfs) -> Vfs {
        let mut replica = Vfs::new(Quota::UNLIMITED);
        let empty = replica.snapshot();
        replica.replay(&delta(&empty, &vfs.snapshot())).unwrap();
        replica
    }

    #[test]
    fn a_replica_becomes_identical_times_and_modes_included() {
        let mut tree = Vfs::new(Quota::UNLIMITED);
        tree.mkdir_all(&p("/a/b/c")).unwrap();
        tree.write_file(&p("/a/b/c/f.txt"), "one").unwrap();
        tree.write_file(&p("/a/g"), "two").unwrap();
        tree.set_mode(&p("/a/g"), 0o755).unwrap();
        tree.mkdir(&p("/empty")).unwrap();
        let mut replica = replica_of(&tree);
        assert_eq!(listing(&replica.snapshot()), listing(&tree.snapshot()));

        let before = tree.snapshot();
        tree.write_file(&p("/a/b/c/f.txt"), "changed").unwrap();
        tree.remove_all(&p("/a/b")).unwrap();
        tree.mkdir(&p("/a/b")).unwrap();
        tree.write_file(&p("/a/b/new"), "n").unwrap();
        tree.set_mode(&p("/a/g"), 0o600).unwrap();
        tree.remove_file(&p("/a/g")).unwrap();
        tree.mkdir(&p("/a/g")).unwrap();
        tree.set_mtime(&p("/empty"), Some(42)).unwrap();
        tree.write_file(&p("/x"), "x").unwrap();
        tree.remove_dir(&p("/empty")).unwrap();
        tree.write_file(&p("/empty"), "now a file").unwrap();
        let steps = delta(&before, &tree.snapshot());
        replica.replay(&steps).unwrap();
        assert_eq!(listing(&replica.snapshot()), listing(&tree.snapshot()));
    }

    #[test]
    fn only_what_changed_is_sent() {
        let mut tree = Vfs::new(Quota::UNLIMITED);
        tree.mkdir(&p("/d")).unwrap();
        for n in 0..1000 {
            tree.write_file(&p(&format!("/d/{n}")), "x").unwrap();
        }
        let before = tree.snapshot();
        tree.write_file(&p("/d/500"), "y").unwrap();
        let steps = delta(&before, &tree.snapshot());
        let files = steps
            .iter()
            .filter(|s| matches!(s, Step::File { .. }))
            .count();
        assert_eq!(files, 1);
        assert!(steps.len() <= 3, "{steps:?}");
        assert!(delta(&tree.snapshot(), &tree.snapshot()).is_empty());
    }

    #[test]
    fn a_meta_only_change_is_a_meta_step() {
        let mut tree = Vfs::new(Quota::UNLIMITED);
        tree.write_file(&p("/f"), "same").unwrap();
        let before = tree.snapshot();
        tree.set_mode(&p("/f"), 0o700).unwrap();
        let steps = delta(&before, &tree.snapshot());
        assert!(steps.contains(&Step::Meta {
            path: p("/f"),
            meta: tree.lookup(&p("/f")).unwrap().meta(),
        }));
        assert!(!steps.iter().any(|s| matches!(s, Step::File { .. })));
    }

    #[test]
    fn replay_is_all_or_nothing_and_checks_the_quota_on_the_result() {
        let mut tree = Vfs::new(Quota::UNLIMITED);
        tree.write_file(&p("/big"), vec![0u8; 100]).unwrap();
        let mut small = Vfs::new(Quota {
            max_bytes: 50,
            max_nodes: 100,
        });
        let empty = small.snapshot();
        let error = small.replay(&delta(&empty, &tree.snapshot())).unwrap_err();
        assert_eq!(error.errno, Errno::NoSpc);
        assert!(!small.exists(&p("/big")));
        // Steps that do not fit the tree change nothing.
        let steps = [
            Step::File {
                path: p("/ok"),
                meta: Meta {
                    mode: 0o644,
                    mtime_ns: 1,
                },
                data: Bytes::from_static(b"ok"),
            },
            Step::Dir {
                path: p("/ok"),
                meta: Meta {
                    mode: 0o755,
                    mtime_ns: 1,
                },
            },
        ];
        assert_eq!(small.replay(&steps).unwrap_err().errno, Errno::Inval);
        assert!(!small.exists(&p("/ok")));
        let root = [Step::Remove {
            path: VfsPath::root(),
        }];
        assert_eq!(small.replay(&root).unwrap_err().errno, Errno::Inval);
    }

    #[test]
    fn replay_passes_the_write_policy() {
        let mut replica = Vfs::new(Quota::UNLIMITED);
        replica.set_policy(Some(crate::policy::WritePolicy::new(
            crate::policy::PolicyMode::ReadOnly,
            [],
            [],
        )));
        let mut tree = Vfs::new(Quota::UNLIMITED);
        tree.write_file(&p("/f"), "f").unwrap();
        let empty = Vfs::new(Quota::UNLIMITED).snapshot();
        replica.replay(&delta(&empty, &tree.snapshot())).unwrap();
        assert!(replica.write_file(&p("/g"), "g").is_err());
    }
}
