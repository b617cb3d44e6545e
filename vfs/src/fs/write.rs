//! Writing to the tree: files (replace, append, create-new), folders,
//! removal, rename, grafting a subtree, copies and metadata. Each checks
//! the write policy, the quota and the depth limit before it changes
//! anything (see the parent module), so a refused write leaves the tree as
//! it was.

use std::sync::Arc;

use bytes::Bytes;

use super::{DIR_MODE, FILE_MODE, Vfs, edit_dir, lookup_in};
use crate::error::{Errno, FsError, FsResult};
use crate::node::{DirNode, FileNode, LinkNode, Meta, Name, Node, Usage};
use crate::path::VfsPath;

impl Vfs {
    /// Replaces (or creates) a file's content.
    pub fn write_file(&mut self, path: &VfsPath, data: impl Into<Bytes>) -> FsResult<()> {
        self.put_file(path, data.into(), false, false)
    }

    /// Appends to a file, creating it when missing.
    pub fn append_file(&mut self, path: &VfsPath, data: impl Into<Bytes>) -> FsResult<()> {
        self.put_file(path, data.into(), true, false)
    }

    /// Creates a file that must not exist yet (`EEXIST` otherwise).
    pub fn create_new(&mut self, path: &VfsPath, data: impl Into<Bytes>) -> FsResult<()> {
        self.put_file(path, data.into(), false, true)
    }

    fn put_file(
        &mut self,
        path: &VfsPath,
        data: Bytes,
        append: bool,
        exclusive: bool,
    ) -> FsResult<()> {
        // Through a link to what it names (creating a dangling link's
        // target), except for an exclusive create, which a link refuses.
        let path = &self.resolve(path, !exclusive)?;
        Self::check_depth(path, 0)?;
        self.allow(path)?;
        let (parent, dir) = self.parent_dir(path)?;
        let name = path.file_name().expect("not root");
        let existing = dir.get(name);
        let (content, mode, removed) = match existing {
            Some(Node::Dir(_)) => return Err(FsError::new(Errno::IsDir, path)),
            Some(Node::File(_) | Node::Link(_)) if exclusive => {
                return Err(FsError::new(Errno::Exist, path));
            }
            Some(Node::Link(_)) => unreachable!("resolved through links"),
            Some(Node::File(old)) if append => {
                let (mode, removed) = (old.meta().mode, Node::File(old.clone()).footprint());
                let added = Usage {
                    bytes: old.data().len() as u64 + data.len() as u64,
                    nodes: 1,
                };
                self.check_quota(removed, added, path)?;
                // Our handle on the directory would make the edit copy it,
                // and the file with it.
                drop(dir);
                let content = self.append_content(&parent, name, &data);
                let mtime_ns = self.clock.tick();
                let file = FileNode::new(content, Meta { mode, mtime_ns });
                self.place(&parent, name, Node::File(Arc::new(file)));
                return Ok(());
            }
            Some(Node::File(old)) => (data, old.meta().mode, Node::File(old.clone()).footprint()),
            None => (data, FILE_MODE, Usage::default()),
        };
        let added = Usage {
            bytes: content.len() as u64,
            nodes: 1,
        };
        self.check_quota(removed, added, path)?;
        drop(dir);
        let mtime_ns = self.clock.tick();
        let file = FileNode::new(content, Meta { mode, mtime_ns });
        self.place(&parent, name, Node::File(Arc::new(file)));
        Ok(())
    }

    /// The content of file `parent/name` followed by `data`. The file is
    /// taken out of the tree first, so that when nothing else holds its
    /// bytes (no snapshot, no reader) they grow in place with amortized
    /// doubling: appending n bytes in small pieces costs O(n), where
    /// copying the whole file each time cost O(n^2) (200 MB written through
    /// a redirection took minutes). The caller places the result.
    fn append_content(&mut self, parent: &VfsPath, name: &str, data: &[u8]) -> Bytes {
        let Some(Node::File(file)) = self.unplace(parent, name) else {
            unreachable!("append_content: the caller found a file here")
        };
        let old = match Arc::try_unwrap(file) {
            Ok(file) => file.into_data(),
            Err(shared) => {
                let data = shared.data().clone();
                self.release(Some(Node::File(shared)));
                data
            }
        };
        match old.try_into_mut() {
            Ok(mut unique) => {
                unique.extend_from_slice(data);
                unique.freeze()
            }
            Err(shared) => {
                let mut joined = Vec::with_capacity(shared.len() + data.len());
                joined.extend_from_slice(&shared);
                joined.extend_from_slice(data);
                Bytes::from(joined)
            }
        }
    }

    /// Creates one directory; its parent must exist.
    pub fn mkdir(&mut self, path: &VfsPath) -> FsResult<()> {
        let (path, parent) = &self.free_slot(path)?;
        let name = path.file_name().expect("not root");
        self.check_quota(Usage::default(), Usage { bytes: 0, nodes: 1 }, path)?;
        let mtime_ns = self.clock.tick();
        let node = Node::Dir(Arc::new(DirNode::new(Meta {
            mode: DIR_MODE,
            mtime_ns,
        })));
        self.place(parent, name, node);
        Ok(())
    }

    /// Creates `path` and any missing parents, through links on the way.
    /// Returns the first directory created (`None` when all existed), as
    /// Node's `mkdir -p` does.
    pub fn mkdir_all(&mut self, path: &VfsPath) -> FsResult<Option<VfsPath>> {
        Self::check_depth(path, 0)?;
        let (existing, missing) = self.resolve_existing(path)?;
        if missing.is_empty() {
            return match lookup_in(&self.root, &existing) {
                Ok(Node::Dir(_)) => Ok(None),
                _ => Err(FsError::new(Errno::Exist, path)),
            };
        }
        if !matches!(lookup_in(&self.root, &existing), Ok(Node::Dir(_))) {
            return Err(FsError::new(Errno::NotDir, path));
        }
        let target = existing.join_relative(missing.iter().map(String::as_str));
        Self::check_depth(&target, 0)?;
        // Every directory to create is checked by the fence first.
        let mut at = existing.clone();
        for name in &missing {
            at = at.join(name);
            self.allow(&at)?;
        }
        self.check_quota(
            Usage::default(),
            Usage {
                bytes: 0,
                nodes: missing.len() as u64,
            },
            path,
        )?;
        let mut current = existing;
        let mut first_created = None;
        for name in &missing {
            current = current.join(name);
            self.mkdir(&current)?;
            first_created.get_or_insert_with(|| current.clone());
        }
        Ok(first_created)
    }

    /// `unlink`: removes a file.
    pub fn remove_file(&mut self, path: &VfsPath) -> FsResult<()> {
        let path = &self.resolve(path, false)?;
        self.allow(path)?;
        let (parent, dir) = self.parent_dir(path)?;
        let name = path.file_name().expect("not root");
        match dir.get(name) {
            None => Err(FsError::new(Errno::NoEnt, path)),
            Some(Node::Dir(_)) => Err(FsError::new(Errno::IsDir, path)),
            Some(Node::File(_) | Node::Link(_)) => {
                drop(dir);
                self.remove_entry(&parent, name);
                Ok(())
            }
        }
    }

    /// `rmdir`: removes an empty directory.
    pub fn remove_dir(&mut self, path: &VfsPath) -> FsResult<()> {
        if path.is_root() {
            return Err(FsError::new(Errno::Busy, path));
        }
        let path = &self.resolve(path, false)?;
        self.allow(path)?;
        let (parent, dir) = self.parent_dir(path)?;
        let name = path.file_name().expect("not root");
        match dir.get(name) {
            None => Err(FsError::new(Errno::NoEnt, path)),
            Some(Node::File(_) | Node::Link(_)) => Err(FsError::new(Errno::NotDir, path)),
            Some(Node::Dir(d)) if !d.is_empty() => Err(FsError::new(Errno::NotEmpty, path)),
            Some(Node::Dir(_)) => {
                drop(dir);
                self.remove_entry(&parent, name);
                Ok(())
            }
        }
    }

    /// Removes a file or a whole directory tree (O(1) whatever its size).
    pub fn remove_all(&mut self, path: &VfsPath) -> FsResult<()> {
        if path.is_root() {
            return Err(FsError::new(Errno::Busy, path));
        }
        let path = &self.resolve(path, false)?;
        let (parent, dir) = self.parent_dir(path)?;
        let name = path.file_name().expect("not root");
        let Some(node) = dir.get(name) else {
            return Err(FsError::new(Errno::NoEnt, path));
        };
        self.allow_subtree(path, Some(node))?;
        drop(dir);
        self.remove_entry(&parent, name);
        Ok(())
    }

    /// POSIX `rename`: replaces a file target, or an empty directory target
    /// with a directory; never moves a directory into itself.
    pub fn rename(&mut self, from: &VfsPath, to: &VfsPath) -> FsResult<()> {
        if from.is_root() {
            return Err(FsError::new(Errno::Busy, from));
        }
        if to.is_root() {
            return Err(FsError::new(Errno::Busy, to));
        }
        // A link is moved as it is; links on the way are followed.
        let (from, to) = (&self.resolve(from, false)?, &self.resolve(to, false)?);
        let node = lookup_in(&self.root, from)?;
        let (to_parent, to_dir) = self.parent_dir(to)?;
        if from == to {
            return Ok(());
        }
        if to.starts_with(from) {
            return Err(FsError::new(Errno::Inval, to));
        }
        let to_name = to.file_name().expect("not root");
        Self::check_depth(to, node.height())?;
        // Both ends, and what moves with the source.
        self.allow_subtree(from, Some(&node))?;
        self.allow_subtree(to, Some(&node))?;
        self.allow_subtree(to, to_dir.get(to_name))?;
        match (&node, to_dir.get(to_name)) {
            (Node::Dir(_), Some(Node::File(_) | Node::Link(_))) => {
                return Err(FsError::new(Errno::NotDir, to));
            }
            (Node::Dir(_), Some(Node::Dir(d))) if !d.is_empty() => {
                return Err(FsError::new(Errno::NotEmpty, to));
            }
            (Node::File(_) | Node::Link(_), Some(Node::Dir(_))) => {
                return Err(FsError::new(Errno::IsDir, to));
            }
            _ => {}
        }
        drop(to_dir);
        let from_parent = from.parent().expect("not root");
        // Moved, not released.
        self.unplace(&from_parent, from.file_name().expect("not root"));
        self.place(&to_parent, to_name, node);
        Ok(())
    }

    /// Puts a node (a file or a whole subtree, typically from a snapshot)
    /// at `path`, replacing what is there. O(1) in the subtree's size; the
    /// quota is checked against the subtree's recorded usage.
    pub fn graft(&mut self, path: &VfsPath, node: Node) -> FsResult<()> {
        Self::check_depth(path, node.height())?;
        if path.is_root() {
            let Node::Dir(dir) = node else {
                return Err(FsError::new(Errno::IsDir, path));
            };
            let old_root = Node::Dir(self.root.clone());
            self.allow_subtree(path, Some(&old_root))?;
            self.allow_subtree(path, Some(&Node::Dir(dir.clone())))?;
            self.check_quota(self.usage(), dir.usage(), path)?;
            let old = std::mem::replace(&mut self.root, dir);
            self.release(Some(Node::Dir(old)));
            return Ok(());
        }
        let path = &self.resolve(path, false)?;
        let (parent, dir) = self.parent_dir(path)?;
        let name = path.file_name().expect("not root");
        self.allow_subtree(path, Some(&node))?;
        self.allow_subtree(path, dir.get(name))?;
        let removed = dir.get(name).map(Node::footprint).unwrap_or_default();
        self.check_quota(removed, node.footprint(), path)?;
        drop(dir);
        self.place(&parent, name, node);
        Ok(())
    }

    /// Copies a file or directory tree to `to` (O(1): the copy shares
    /// structure with the original). `to` is replaced if it exists; the
    /// top-level copy gets a fresh modification time.
    pub fn copy(&mut self, from: &VfsPath, to: &VfsPath) -> FsResult<()> {
        let (from, to) = (&self.resolve(from, true)?, &self.resolve(to, false)?);
        let node = lookup_in(&self.root, from)?;
        if to.starts_with(from) && from != to && matches!(node, Node::Dir(_)) {
            return Err(FsError::new(Errno::Inval, to));
        }
        let now = self.clock.tick();
        let node = match node {
            Node::File(file) => Node::File(Arc::new(file.with_meta(Meta {
                mtime_ns: now,
                ..file.meta()
            }))),
            dir => dir,
        };
        self.graft(to, node)
    }

    /// Sets permission bits.
    pub fn set_mode(&mut self, path: &VfsPath, mode: u32) -> FsResult<()> {
        self.set_meta(path, true, |meta| meta.mode = mode & 0o7777)
    }

    /// Sets the modification time (`None`: now).
    pub fn set_mtime(&mut self, path: &VfsPath, mtime_ns: Option<i64>) -> FsResult<()> {
        let time = mtime_ns.unwrap_or_else(|| self.clock.tick());
        self.set_meta(path, true, |meta| meta.mtime_ns = time)
    }

    /// Sets the modification time of `path` itself: a link's own, not its
    /// target's (`touch -h`).
    pub fn set_link_mtime(&mut self, path: &VfsPath, mtime_ns: Option<i64>) -> FsResult<()> {
        let time = mtime_ns.unwrap_or_else(|| self.clock.tick());
        self.set_meta(path, false, |meta| meta.mtime_ns = time)
    }

    fn set_meta(
        &mut self,
        path: &VfsPath,
        follow_last: bool,
        change: impl FnOnce(&mut Meta),
    ) -> FsResult<()> {
        let path = &self.resolve(path, follow_last)?;
        let node = lookup_in(&self.root, path)?;
        self.allow(path)?;
        if path.is_root() {
            change(&mut Arc::make_mut(&mut self.root).meta);
            return Ok(());
        }
        let parent = path.parent().expect("not root");
        let name = path.file_name().expect("not root");
        let node = match node {
            Node::File(file) => {
                let mut meta = file.meta();
                change(&mut meta);
                Node::File(Arc::new(file.with_meta(meta)))
            }
            Node::Dir(mut dir) => {
                change(&mut Arc::make_mut(&mut dir).meta);
                Node::Dir(dir)
            }
            Node::Link(link) => {
                let mut meta = link.meta();
                change(&mut meta);
                Node::Link(Arc::new(LinkNode::new(link.target(), meta)))
            }
        };
        edit_dir(&mut self.root, &Self::names(&parent), |dir| {
            dir.insert(Name::from(name), node);
        });
        Ok(())
    }
}
