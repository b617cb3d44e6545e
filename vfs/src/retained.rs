//! What snapshots keep alive: the bytes of file content a set of kept
//! trees (a sandbox's snapshots) hold that the trees in use (the live
//! tree, the baseline) do not. Snapshots share structure with the live
//! tree, so this is what a snapshot really costs, and what the fs quota
//! counts for them (docs/security.md, "Snapshots").
//!
//! Files are counted once each, by identity: a file two snapshots share is
//! one file. The walk skips every folder the trees in use share (the same
//! node), so its cost is what changed since the snapshots were taken, not
//! the size of the tree.

use std::collections::HashSet;
use std::sync::Arc;

use crate::fs::Snapshot;
use crate::node::{DirNode, FileNode, Node};

/// Bytes of file content `kept` holds that neither `live` nor `baseline`
/// holds at the same path. A file moved within the live tree counts as
/// kept (the count errs on the side of more).
pub fn retained_bytes(kept: &[Snapshot], live: &Snapshot, baseline: &Snapshot) -> u64 {
    let mut walk = Walk::default();
    for tree in kept {
        walk.dir(tree.root(), Some(live.root()), Some(baseline.root()));
    }
    walk.bytes
}

#[derive(Default)]
struct Walk {
    files: HashSet<*const FileNode>,
    dirs: HashSet<*const DirNode>,
    bytes: u64,
}

impl Walk {
    fn dir(
        &mut self,
        dir: &Arc<DirNode>,
        live: Option<&Arc<DirNode>>,
        base: Option<&Arc<DirNode>>,
    ) {
        let shared = |other: Option<&Arc<DirNode>>| other.is_some_and(|o| Arc::ptr_eq(o, dir));
        if shared(live) || shared(base) || !self.dirs.insert(Arc::as_ptr(dir)) {
            return;
        }
        for (name, node) in dir.iter() {
            let in_live = live.and_then(|l| l.get(name));
            let in_base = base.and_then(|b| b.get(name));
            match node {
                Node::File(file) => {
                    let held = |other: Option<&Node>| other.is_some_and(|o| o.ptr_eq(node));
                    if !held(in_live) && !held(in_base) && self.files.insert(Arc::as_ptr(file)) {
                        self.bytes += file.len();
                    }
                }
                Node::Dir(child) => self.dir(child, as_dir(in_live), as_dir(in_base)),
                Node::Link(_) => {}
            }
        }
    }
}

fn as_dir(node: Option<&Node>) -> Option<&Arc<DirNode>> {
    match node {
        Some(Node::Dir(dir)) => Some(dir),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::{Quota, Vfs};
    use crate::path::VfsPath;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn only_what_the_live_tree_and_the_baseline_let_go_counts_once() {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.mkdir_all(&p("/seed")).unwrap();
        vfs.mkdir_all(&p("/work")).unwrap();
        vfs.write_file(&p("/seed/a"), vec![0u8; 100]).unwrap();
        let baseline = vfs.snapshot();
        vfs.write_file(&p("/work/x"), vec![1u8; 1000]).unwrap();
        let first = vfs.snapshot();
        let second = vfs.snapshot();
        assert_eq!(
            retained_bytes(std::slice::from_ref(&first), &vfs.snapshot(), &baseline),
            0
        );
        // Overwritten and deleted: the snapshots keep the old 1000 bytes,
        // once however many snapshots share them.
        vfs.write_file(&p("/work/x"), vec![2u8; 10]).unwrap();
        let kept = [first.clone(), second.clone()];
        assert_eq!(retained_bytes(&kept, &vfs.snapshot(), &baseline), 1000);
        // The baseline's file is held anyway.
        vfs.remove_all(&p("/seed")).unwrap();
        assert_eq!(retained_bytes(&kept, &vfs.snapshot(), &baseline), 1000);
        // A folder replaced by a file keeps everything below it.
        vfs.remove_all(&p("/work")).unwrap();
        vfs.write_file(&p("/work"), "now a file").unwrap();
        let third = {
            let mut other = Vfs::from_snapshot(&first, Quota::UNLIMITED);
            other.write_file(&p("/work/y"), vec![3u8; 5]).unwrap();
            other.snapshot()
        };
        assert_eq!(
            retained_bytes(&[first, second, third], &vfs.snapshot(), &baseline),
            1005
        );
    }
}
