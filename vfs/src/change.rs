//! The change type every diff format and every merge works on: what
//! happened at one path, with the nodes on both sides (shared, not
//! copied). The formats ([`crate::changes`], [`crate::patch`]) and the
//! diff algorithm ([`crate::diff`](mod@crate::diff)) sit above it.

use crate::node::{Node, NodeType};
use crate::path::VfsPath;

/// Kind of a change (docs/vfs.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    /// A new file.
    Create,
    /// A new directory.
    Mkdir,
    /// A file whose content changed.
    Modify,
    /// A path whose type changed (file ↔ directory). Applying it removes the
    /// old node (and everything under it) and puts the new one in place;
    /// a new directory's contents follow as their own changes.
    Replace,
    /// A removed file or directory.
    Delete,
}

impl ChangeKind {
    /// The name in the JSON diff (`create`, `mkdir`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Create => "create",
            ChangeKind::Mkdir => "mkdir",
            ChangeKind::Modify => "modify",
            ChangeKind::Replace => "replace",
            ChangeKind::Delete => "delete",
        }
    }
}

/// One change. `old`/`new` are the nodes on each side (shared, not copied).
#[derive(Clone, Debug)]
pub struct Change {
    /// What happened to the path.
    pub kind: ChangeKind,
    /// The path.
    pub path: VfsPath,
    /// The node before (none for creates).
    pub old: Option<Node>,
    /// The node after (none for deletes).
    pub new: Option<Node>,
}

/// The changes at or below `root`, with paths made relative to it (as if
/// `root` were `/`): a unified patch of them applies in the host folder
/// that maps to `root` with plain `git apply`. Changes elsewhere, and a
/// change of `root` itself, are left out.
pub fn rerooted(changes: &[Change], root: &VfsPath) -> Vec<Change> {
    if root.is_root() {
        return changes.to_vec();
    }
    changes
        .iter()
        .filter_map(|change| {
            let below = change.path.strip_prefix(root)?;
            if below.is_empty() {
                return None;
            }
            Some(Change {
                path: VfsPath::root().join_relative(below),
                ..change.clone()
            })
        })
        .collect()
}

impl Change {
    /// The type of the node after the change (before it, for deletes).
    pub fn node_type(&self) -> NodeType {
        self.new
            .as_ref()
            .or(self.old.as_ref())
            .map(Node::node_type)
            .expect("a change has a node on at least one side")
    }
}
