//! The change type every diff format and every merge works on: what
//! happened at one path, with the nodes on both sides (shared, not
//! copied). The formats ([`crate::changes`], [`crate::patch`]) and the
//! diff algorithm ([`crate::diff`](mod@crate::diff)) sit above it.

use crate::node::{Node, NodeType};
use crate::path::VfsPath;

/// Kind of a change (contract §6).
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
