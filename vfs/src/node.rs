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
    /// A symbolic link (docs/vfs.md).
    Symlink,
}

impl NodeType {
    /// `file`, `directory` or `symlink`.
    pub const fn as_str(self) -> &'static str {
        match self {
            NodeType::File => "file",
            NodeType::Directory => "directory",
            NodeType::Symlink => "symlink",
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
    /// The file's content, owned.
    pub fn into_data(self) -> Bytes {
        self.data
    }

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

/// A symbolic link: the text it holds, which names a VFS path (absolute,
/// or relative to the link's folder). The VFS resolves it; the host never
/// does.
#[derive(Debug)]
pub struct LinkNode {
    target: Arc<str>,
    meta: Meta,
}

impl LinkNode {
    /// A link holding `target`.
    pub fn new(target: impl Into<Arc<str>>, meta: Meta) -> Self {
        LinkNode {
            target: target.into(),
            meta,
        }
    }

    /// The text it holds.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// Mode and times.
    pub fn meta(&self) -> Meta {
        self.meta
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
    /// Levels below this directory (0 when empty, 1 when it holds only
    /// files), kept exact so the depth limit is checked in O(1).
    height: u32,
    /// Entries whose subtree reaches `height` (recomputing the height is
    /// needed only when the last of them goes).
    tallest: u32,
}

impl DirNode {
    /// An empty directory.
    pub fn new(meta: Meta) -> Self {
        DirNode {
            entries: OrdMap::new(),
            meta,
            usage: Usage::default(),
            height: 0,
            tallest: 0,
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

    /// Levels below this directory: 0 when empty, 1 when it holds only
    /// files or empty folders, and so on.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Puts `node` under `name`; the entry it replaced, if any.
    pub(crate) fn insert(&mut self, name: Name, node: Node) -> Option<Node> {
        // A replaced entry is forgotten before the new one counts, so a
        // recomputed height never counts the new entry twice.
        let replaced = if self.entries.contains_key(&name) {
            self.remove(&name)
        } else {
            None
        };
        self.usage = self.usage.plus(node.footprint());
        self.count_reach(node.height() + 1);
        self.entries.insert(name, Entry(node));
        replaced
    }

    pub(crate) fn remove(&mut self, name: &str) -> Option<Node> {
        let old = self.entries.remove(name)?.0;
        self.usage = self.usage.minus(old.footprint());
        self.forget_reach(old.height() + 1);
        Some(old)
    }

    /// An entry's subtree changed in place, from reaching `before` levels
    /// to reaching `after`.
    pub(crate) fn reach_changed(&mut self, before: u32, after: u32) {
        if before == after {
            return;
        }
        self.count_reach(after);
        self.forget_reach(before);
    }

    /// An entry now reaches `reach` levels.
    fn count_reach(&mut self, reach: u32) {
        match reach.cmp(&self.height) {
            std::cmp::Ordering::Greater => {
                self.height = reach;
                self.tallest = 1;
            }
            std::cmp::Ordering::Equal => self.tallest += 1,
            std::cmp::Ordering::Less => {}
        }
    }

    /// An entry reaching `reach` levels left: the height drops once none of
    /// the tallest is left (recomputed from the entries' own heights).
    fn forget_reach(&mut self, reach: u32) {
        if reach != self.height {
            return;
        }
        self.tallest -= 1;
        if self.tallest == 0 {
            self.height = 0;
            let reaches: Vec<u32> = self.entries.values().map(|e| e.0.height() + 1).collect();
            for reach in reaches {
                self.count_reach(reach);
            }
        }
    }
}

/// A file, a directory or a symbolic link.
#[derive(Clone, Debug)]
pub enum Node {
    /// A file.
    File(Arc<FileNode>),
    /// A directory.
    Dir(Arc<DirNode>),
    /// A symbolic link.
    Link(Arc<LinkNode>),
}

impl Node {
    /// What kind of node it is.
    pub fn node_type(&self) -> NodeType {
        match self {
            Node::File(_) => NodeType::File,
            Node::Dir(_) => NodeType::Directory,
            Node::Link(_) => NodeType::Symlink,
        }
    }

    /// Mode and times.
    pub fn meta(&self) -> Meta {
        match self {
            Node::File(file) => file.meta,
            Node::Dir(dir) => dir.meta,
            Node::Link(link) => link.meta,
        }
    }

    /// Levels below this node (0 for a file, a link or an empty folder).
    pub fn height(&self) -> u32 {
        match self {
            Node::File(_) | Node::Link(_) => 0,
            Node::Dir(dir) => dir.height,
        }
    }

    /// Usage this node adds to its parent: itself plus everything below (a
    /// link's bytes are its target's text).
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
            Node::Link(link) => Usage {
                bytes: link.target.len() as u64,
                nodes: 1,
            },
        }
    }

    /// Same node object (shared, hence identical subtree).
    pub fn ptr_eq(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::File(a), Node::File(b)) => Arc::ptr_eq(a, b),
            (Node::Dir(a), Node::Dir(b)) => Arc::ptr_eq(a, b),
            (Node::Link(a), Node::Link(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The file, if it is one.
    pub fn as_file(&self) -> Option<&Arc<FileNode>> {
        match self {
            Node::File(file) => Some(file),
            _ => None,
        }
    }

    /// The directory, if it is one.
    pub fn as_dir(&self) -> Option<&Arc<DirNode>> {
        match self {
            Node::Dir(dir) => Some(dir),
            _ => None,
        }
    }

    /// The link, if it is one.
    pub fn as_link(&self) -> Option<&Arc<LinkNode>> {
        match self {
            Node::Link(link) => Some(link),
            _ => None,
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
