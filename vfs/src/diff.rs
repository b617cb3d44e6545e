//! What changed between two snapshots, in O(changed): subtrees and map
//! chunks shared by both sides are skipped by pointer, file contents are
//! compared only where the node objects differ.

use std::sync::Arc;

use crate::change::{Change, ChangeKind};
use crate::fs::Snapshot;
use crate::node::{DirNode, Node};
use crate::path::VfsPath;

/// The changes that turn `old` into `new`: creates, mkdirs, modifies and
/// replaces in depth-first path order (parents before children), then
/// deletes, deepest first. Applying them in order to `old` yields `new`.
pub fn diff(old: &Snapshot, new: &Snapshot) -> Vec<Change> {
    let mut upserts = Vec::new();
    let mut deletes = Vec::new();
    diff_dirs(
        &VfsPath::root(),
        old.root(),
        new.root(),
        &mut upserts,
        &mut deletes,
    );
    deletes.sort_by(|a: &Change, b: &Change| {
        b.path
            .depth()
            .cmp(&a.path.depth())
            .then_with(|| a.path.cmp(&b.path))
    });
    upserts.extend(deletes);
    upserts
}

fn diff_dirs(
    path: &VfsPath,
    old: &Arc<DirNode>,
    new: &Arc<DirNode>,
    upserts: &mut Vec<Change>,
    deletes: &mut Vec<Change>,
) {
    if Arc::ptr_eq(old, new) {
        return;
    }
    for item in old.entries.diff(&new.entries) {
        match item {
            imbl::ordmap::DiffItem::Add(name, entry) => added(&path.join(name), &entry.0, upserts),
            imbl::ordmap::DiffItem::Remove(name, entry) => {
                removed(&path.join(name), &entry.0, deletes)
            }
            imbl::ordmap::DiffItem::Update {
                old: (name, before),
                new: (_, after),
            } => updated(&path.join(name), &before.0, &after.0, upserts, deletes),
        }
    }
}

fn added(path: &VfsPath, node: &Node, upserts: &mut Vec<Change>) {
    match node {
        Node::File(_) | Node::Link(_) => upserts.push(Change {
            kind: ChangeKind::Create,
            path: path.clone(),
            old: None,
            new: Some(node.clone()),
        }),
        Node::Dir(dir) => {
            upserts.push(Change {
                kind: ChangeKind::Mkdir,
                path: path.clone(),
                old: None,
                new: Some(node.clone()),
            });
            added_children(path, dir, upserts);
        }
    }
}

fn added_children(path: &VfsPath, dir: &DirNode, upserts: &mut Vec<Change>) {
    for (name, child) in dir.iter() {
        added(&path.join(name), child, upserts);
    }
}

fn removed(path: &VfsPath, node: &Node, deletes: &mut Vec<Change>) {
    if let Node::Dir(dir) = node {
        for (name, child) in dir.iter() {
            removed(&path.join(name), child, deletes);
        }
    }
    deletes.push(Change {
        kind: ChangeKind::Delete,
        path: path.clone(),
        old: Some(node.clone()),
        new: None,
    });
}

fn updated(
    path: &VfsPath,
    before: &Node,
    after: &Node,
    upserts: &mut Vec<Change>,
    deletes: &mut Vec<Change>,
) {
    match (before, after) {
        (Node::File(a), Node::File(b)) => {
            if !a.same_content(b) {
                upserts.push(Change {
                    kind: ChangeKind::Modify,
                    path: path.clone(),
                    old: Some(before.clone()),
                    new: Some(after.clone()),
                });
            }
        }
        (Node::Dir(a), Node::Dir(b)) => diff_dirs(path, a, b, upserts, deletes),
        (Node::Link(a), Node::Link(b)) => {
            if a.target() != b.target() {
                upserts.push(Change {
                    kind: ChangeKind::Modify,
                    path: path.clone(),
                    old: Some(before.clone()),
                    new: Some(after.clone()),
                });
            }
        }
        _ => {
            upserts.push(Change {
                kind: ChangeKind::Replace,
                path: path.clone(),
                old: Some(before.clone()),
                new: Some(after.clone()),
            });
            if let Node::Dir(dir) = after {
                added_children(path, dir, upserts);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::{Quota, Vfs};

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    fn summary(changes: &[Change]) -> Vec<String> {
        changes
            .iter()
            .map(|c| format!("{} {} {}", c.kind.as_str(), c.path, c.node_type().as_str()))
            .collect()
    }

    #[test]
    fn lists_every_kind_in_apply_order() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.mkdir_all(&p("/old/deep")).unwrap();
        fs.write_file(&p("/old/deep/f"), "x").unwrap();
        fs.write_file(&p("/keep"), "same").unwrap();
        fs.write_file(&p("/edit"), "before").unwrap();
        fs.write_file(&p("/swap"), "file").unwrap();
        let base = fs.snapshot();

        fs.remove_all(&p("/old")).unwrap();
        fs.write_file(&p("/keep"), "same").unwrap(); // rewritten, same content
        fs.write_file(&p("/edit"), "after").unwrap();
        fs.remove_file(&p("/swap")).unwrap();
        fs.mkdir(&p("/swap")).unwrap();
        fs.write_file(&p("/swap/inner"), "i").unwrap();
        fs.mkdir_all(&p("/new/dir")).unwrap();
        fs.write_file(&p("/new/dir/a"), "a").unwrap();
        fs.write_file(&p("/A.txt"), "upper").unwrap();
        fs.write_file(&p("/a.txt"), "lower").unwrap();

        let changes = diff(&base, &fs.snapshot());
        assert_eq!(
            summary(&changes),
            [
                "create /A.txt file",
                "create /a.txt file",
                "modify /edit file",
                "mkdir /new directory",
                "mkdir /new/dir directory",
                "create /new/dir/a file",
                "replace /swap directory",
                "create /swap/inner file",
                "delete /old/deep/f file",
                "delete /old/deep directory",
                "delete /old directory",
            ]
        );
    }

    #[test]
    fn identical_snapshots_have_no_changes() {
        let fs = Vfs::new(Quota::UNLIMITED);
        assert!(diff(&fs.snapshot(), &fs.snapshot()).is_empty());
    }
}
