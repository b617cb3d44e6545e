//! Tree nodes. Files hold shared immutable bytes; directories hold a
//! persistent ordered map. Both sit behind `Arc`, so cloning any subtree is
//! O(1) and a write after a snapshot copies only the path it touches (and
//! O(log n) of each directory map on that path).

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use imbl::OrdMap;

/// A directory entry's name (one path component).
pub type Name = Arc<str>;

/// Kind of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeType {
    /// A file.
    File,
    /// A directory.
    Directory,
}

impl NodeType {
    /// `file` or `directory`.
    pub const fn as_str(self) -> &'static str {
        match self {
            NodeType::File => "file",
            NodeType::Directory => "directory",
        }
    }
}

/// Metadata the VFS keeps. Diffs and write-back carry content only; modes
/// and times exist for the guest's `stat`, `ls -l`, `test -x`, `find -newer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Permission bits (`0o644`, `0o755`).
    pub mode: u32,
    /// Modification time, nanoseconds since the Unix epoch.
    pub mtime_ns: i64,
}

/// Bytes and nodes held by a subtree (the subtree's root excluded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bytes of file content.
    pub bytes: u64,
    /// Files and directories.
    pub nodes: u64,
}

impl Usage {
    /// The sum of two usages.
    pub fn plus(self, other: Usage) -> Usage {
        Usage {
            bytes: self.bytes + other.bytes,
            nodes: self.nodes + other.nodes,
        }
    }
    /// The difference (saturating at zero).
    pub fn minus(self, other: Usage) -> Usage {
        Usage {
            bytes: self.bytes - other.bytes,
            nodes: self.nodes - other.nodes,
        }
    }
}

/// A file: content plus its lazily computed BLAKE3 hash.
#[derive(Debug)]
pub struct FileNode {
    data: Bytes,
    meta: Meta,
    hash: OnceLock<blake3::Hash>,
}

impl FileNode {
    /// A file holding `data`.
    pub fn new(data: Bytes, meta: Meta) -> Self {
        FileNode {
            data,
            meta,
            hash: OnceLock::new(),
        }
    }

    /// The content.
    pub fn data(&self) -> &Bytes {
        &self.data
    }

    /// Mode and times.
    pub fn meta(&self) -> Meta {
        self.meta
    }

    /// The size in bytes.
    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// BLAKE3 of the content, computed once per node.
    pub fn hash(&self) -> blake3::Hash {
        *self.hash.get_or_init(|| blake3::hash(&self.data))
    }

    /// Same content (cheap when the bytes are shared).
    pub fn same_content(&self, other: &FileNode) -> bool {
        if self.data.len() != other.data.len() {
            return false;
        }
        if self.data.as_ptr() == other.data.as_ptr() {
            return true;
        }
        match (self.hash.get(), other.hash.get()) {
            (Some(a), Some(b)) => a == b,
            _ => self.data == other.data,
        }
    }

    pub(crate) fn with_meta(&self, meta: Meta) -> FileNode {
        FileNode {
            data: self.data.clone(),
            meta,
            hash: self.hash.clone(),
        }
    }
}

/// A directory: a persistent map of entries plus the aggregate usage of
/// everything under it (kept up to date by every write, so quota checks and
/// `du` of any subtree are O(1)).
#[derive(Clone, Debug)]
pub struct DirNode {
    pub(crate) entries: OrdMap<Name, Entry>,
    pub(crate) meta: Meta,
    pub(crate) usage: Usage,
}

impl DirNode {
    /// An empty directory.
    pub fn new(meta: Meta) -> Self {
        DirNode {
            entries: OrdMap::new(),
            meta,
            usage: Usage::default(),
        }
    }

    /// Mode and times.
    pub fn meta(&self) -> Meta {
        self.meta
    }

    /// Usage of everything below this directory.
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// The entry called `name`.
    pub fn get(&self, name: &str) -> Option<&Node> {
        self.entries.get(name).map(|entry| &entry.0)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in name (byte) order.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &Node)> {
        self.entries.iter().map(|(name, entry)| (name, &entry.0))
    }

    pub(crate) fn insert(&mut self, name: Name, node: Node) {
        let added = node.footprint();
        if let Some(old) = self.entries.insert(name, Entry(node)) {
            self.usage = self.usage.minus(old.0.footprint());
        }
        self.usage = self.usage.plus(added);
    }

    pub(crate) fn remove(&mut self, name: &str) -> Option<Node> {
        let old = self.entries.remove(name)?.0;
        self.usage = self.usage.minus(old.footprint());
        Some(old)
    }
}

/// A file or a directory.
#[derive(Clone, Debug)]
pub enum Node {
    /// A file.
    File(Arc<FileNode>),
    /// A directory.
    Dir(Arc<DirNode>),
}

impl Node {
    /// File or directory.
    pub fn node_type(&self) -> NodeType {
        match self {
            Node::File(_) => NodeType::File,
            Node::Dir(_) => NodeType::Directory,
        }
    }

    /// Mode and times.
    pub fn meta(&self) -> Meta {
        match self {
            Node::File(file) => file.meta,
            Node::Dir(dir) => dir.meta,
        }
    }

    /// Usage this node adds to its parent: itself plus everything below.
    pub fn footprint(&self) -> Usage {
        match self {
            Node::File(file) => Usage {
                bytes: file.len(),
                nodes: 1,
            },
            Node::Dir(dir) => Usage {
                bytes: dir.usage.bytes,
                nodes: dir.usage.nodes + 1,
            },
        }
    }

    /// Same node object (shared, hence identical subtree).
    pub fn ptr_eq(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::File(a), Node::File(b)) => Arc::ptr_eq(a, b),
            (Node::Dir(a), Node::Dir(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The file, if it is one.
    pub fn as_file(&self) -> Option<&Arc<FileNode>> {
        match self {
            Node::File(file) => Some(file),
            Node::Dir(_) => None,
        }
    }

    /// The directory, if it is one.
    pub fn as_dir(&self) -> Option<&Arc<DirNode>> {
        match self {
            Node::Dir(dir) => Some(dir),
            Node::File(_) => None,
        }
    }
}

/// A map value compared by identity: `imbl`'s diff then reports exactly the
/// entries whose node object changed, and skips shared map chunks unvisited.
#[derive(Clone, Debug)]
pub(crate) struct Entry(pub(crate) Node);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr_eq(&other.0)
    }
}
