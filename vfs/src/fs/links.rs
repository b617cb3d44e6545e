//! Symbolic links (docs/vfs.md): creating and reading them, and resolving
//! paths through them. A link's target names a VFS path — absolute from
//! the VFS's `/`, or relative to the link's folder — and is resolved here,
//! never by the host. Every operation of [`Vfs`] resolves its path first:
//! the links on the way are followed, and the last name's too unless the
//! operation is about the link itself (`lstat`, `unlink`, `rename`,
//! `readlink`, creating one). A loop, or more than [`MAX_LINK_HOPS`]
//! links in one resolution, is `ELOOP`.
//!
//! Paths are normalized when parsed (`a/link/..` is `a`, as the shell's
//! logical `cd` sees it); `..` inside a link's target is resolved from the
//! link's folder.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{MAX_DEPTH, Vfs, lookup_in};
use crate::error::{Errno, FsError, FsResult, QuotaKind};
use crate::node::{DirNode, LinkNode, Meta, Node, Usage};
use crate::path::VfsPath;

/// Links one resolution follows before `ELOOP` (Linux's limit).
pub const MAX_LINK_HOPS: usize = 40;

/// The mode `ls -l` shows for a link (links have no permissions of their
/// own).
pub const LINK_MODE: u32 = 0o777;

/// The longest name a resolution accepts (as a path's).
const NAME_MAX: usize = 255;

impl Vfs {
    /// `path` with the symbolic links on the way followed (the last name's
    /// too when `follow_last`): a path that holds no link before its last
    /// name. A missing last name is kept, for creating it; a missing
    /// folder on the way is `ENOENT`, a file on the way `ENOTDIR`.
    pub fn resolve(&self, path: &VfsPath, follow_last: bool) -> FsResult<VfsPath> {
        if !self.link_on_the_way(path, follow_last) {
            return Ok(path.clone());
        }
        let (at, missing) = self.walk_links(path, follow_last)?;
        match missing.as_slice() {
            [] => Ok(at),
            [last] => Ok(at.join(last)),
            _ => Err(FsError::new(Errno::NoEnt, path)),
        }
    }

    /// The existing part of `path` with every link followed, and the names
    /// below it that do not exist (`mkdir -p` through links).
    pub fn resolve_existing(&self, path: &VfsPath) -> FsResult<(VfsPath, Vec<String>)> {
        if !self.link_on_the_way(path, true) {
            // No link: the existing prefix is found by plain lookups.
            let mut at = VfsPath::root();
            let names: Vec<&str> = path.components().collect();
            for (index, name) in names.iter().enumerate() {
                let next = at.join(name);
                match lookup_in(&self.root, &next) {
                    Ok(Node::Dir(_)) => at = next,
                    Ok(_) if index + 1 == names.len() => return Ok((next, Vec::new())),
                    Ok(_) => return Err(FsError::new(Errno::NotDir, path)),
                    Err(_) => {
                        let missing = names[index..].iter().map(|n| n.to_string()).collect();
                        return Ok((at, missing));
                    }
                }
            }
            return Ok((at, Vec::new()));
        }
        self.walk_links(path, true)
    }

    /// Whether resolving `path` meets a link (a quick walk, no allocation).
    fn link_on_the_way(&self, path: &VfsPath, follow_last: bool) -> bool {
        let mut dir: &Arc<DirNode> = &self.root;
        let mut names = path.components().peekable();
        while let Some(name) = names.next() {
            match dir.get(name) {
                Some(Node::Dir(child)) => dir = child,
                Some(Node::Link(_)) => return follow_last || names.peek().is_some(),
                _ => return false,
            }
        }
        false
    }

    /// The slow walk: follows links, returns the deepest existing path
    /// reached and the names left below it that do not exist.
    fn walk_links(&self, path: &VfsPath, follow_last: bool) -> FsResult<(VfsPath, Vec<String>)> {
        let mut at = VfsPath::root();
        let mut dir = self.root.clone();
        let mut rest: VecDeque<String> = path.components().map(str::to_string).collect();
        let mut hops = 0;
        while let Some(name) = rest.pop_front() {
            if name == ".." {
                at = at.parent().unwrap_or_else(VfsPath::root);
                dir = match lookup_in(&self.root, &at) {
                    Ok(Node::Dir(dir)) => dir,
                    _ => return Err(FsError::new(Errno::NoEnt, path)),
                };
                continue;
            }
            if name.len() > NAME_MAX {
                return Err(FsError::new(Errno::NameTooLong, path));
            }
            let last = rest.is_empty();
            match dir.get(&name) {
                None => {
                    let mut missing = vec![name];
                    missing.extend(rest);
                    return Ok((at, missing));
                }
                Some(Node::Dir(child)) => {
                    at = at.join(&name);
                    dir = child.clone();
                }
                Some(Node::File(_)) if last => return Ok((at.join(&name), Vec::new())),
                Some(Node::File(_)) => return Err(FsError::new(Errno::NotDir, path)),
                Some(Node::Link(_)) if last && !follow_last => {
                    return Ok((at.join(&name), Vec::new()));
                }
                Some(Node::Link(link)) => {
                    hops += 1;
                    if hops > MAX_LINK_HOPS {
                        return Err(FsError::new(Errno::Loop, path));
                    }
                    let target = link.target().to_string();
                    if target.is_empty() {
                        return Err(FsError::new(Errno::NoEnt, path));
                    }
                    if target.starts_with('/') {
                        at = VfsPath::root();
                        dir = self.root.clone();
                    }
                    let mut names: VecDeque<String> = target
                        .split('/')
                        .filter(|name| !name.is_empty() && *name != ".")
                        .map(str::to_string)
                        .collect();
                    names.extend(rest);
                    rest = names;
                    if at.depth() + rest.len() > MAX_DEPTH + MAX_LINK_HOPS {
                        return Err(FsError::new(Errno::TooDeep, path));
                    }
                }
            }
        }
        Ok((at, Vec::new()))
    }

    /// The node at `path` itself, a link not followed (`lstat`).
    pub fn lookup_link(&self, path: &VfsPath) -> FsResult<Node> {
        lookup_in(&self.root, &self.resolve(path, false)?)
    }

    /// Creates a symbolic link at `path` holding `target` (`symlink`,
    /// `ln -s`): `EEXIST` if anything is there, a link included.
    pub fn symlink(&mut self, path: &VfsPath, target: &str) -> FsResult<()> {
        if target.is_empty() {
            return Err(FsError::new(Errno::NoEnt, path));
        }
        let (path, parent) = &self.free_slot(path)?;
        let name = path.file_name().expect("not root");
        let added = Usage {
            bytes: target.len() as u64,
            nodes: 1,
        };
        if added.bytes > self.quota.max_bytes {
            return Err(FsError::quota(QuotaKind::Bytes, path));
        }
        self.check_quota(Usage::default(), added, path)?;
        let mtime_ns = self.clock.tick();
        let link = LinkNode::new(
            target,
            Meta {
                mode: LINK_MODE,
                mtime_ns,
            },
        );
        self.place(parent, name, Node::Link(Arc::new(link)));
        Ok(())
    }

    /// The text of the link at `path` (`readlink`): `EINVAL` if it is not
    /// a link.
    pub fn read_link(&self, path: &VfsPath) -> FsResult<String> {
        match self.lookup_link(path)? {
            Node::Link(link) => Ok(link.target().to_string()),
            _ => Err(FsError::new(Errno::Inval, path)),
        }
    }

    /// The path of what `path` names, every link followed (`realpath`):
    /// `ENOENT` if it does not exist.
    pub fn canonical(&self, path: &VfsPath) -> FsResult<VfsPath> {
        let resolved = self.resolve(path, true)?;
        lookup_in(&self.root, &resolved)?;
        Ok(resolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Quota;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    fn tree() -> Vfs {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.mkdir_all(&p("/a/b")).unwrap();
        vfs.write_file(&p("/a/b/f"), "data").unwrap();
        vfs.symlink(&p("/abs"), "/a/b").unwrap();
        vfs.symlink(&p("/a/rel"), "b/f").unwrap();
        vfs.symlink(&p("/a/up"), "../a/b").unwrap();
        vfs.symlink(&p("/dangling"), "/nowhere/x").unwrap();
        vfs.symlink(&p("/loop1"), "/loop2").unwrap();
        vfs.symlink(&p("/loop2"), "/loop1").unwrap();
        vfs
    }

    #[test]
    fn links_resolve_inside_the_vfs_absolute_and_relative() {
        let vfs = tree();
        assert_eq!(&vfs.read_file(&p("/abs/f")).unwrap()[..], b"data");
        assert_eq!(&vfs.read_file(&p("/a/rel")).unwrap()[..], b"data");
        assert_eq!(&vfs.read_file(&p("/a/up/f")).unwrap()[..], b"data");
        assert_eq!(vfs.canonical(&p("/a/up/f")).unwrap(), p("/a/b/f"));
        assert_eq!(vfs.read_link(&p("/a/rel")).unwrap(), "b/f");
        assert_eq!(vfs.read_link(&p("/a/b/f")).unwrap_err().errno, Errno::Inval);
        assert!(vfs.is_dir(&p("/abs")));
        assert!(matches!(
            vfs.lookup_link(&p("/abs")).unwrap(),
            Node::Link(_)
        ));
        assert!(!vfs.exists(&p("/dangling")));
        assert!(matches!(
            vfs.lookup_link(&p("/dangling")).unwrap(),
            Node::Link(_)
        ));
        assert_eq!(vfs.read_file(&p("/loop1")).unwrap_err().errno, Errno::Loop);
        assert_eq!(
            vfs.read_file(&p("/a/b/f/x")).unwrap_err().errno,
            Errno::NotDir
        );
    }

    #[test]
    fn writes_go_through_links_and_link_operations_do_not() {
        let mut vfs = tree();
        vfs.write_file(&p("/a/rel"), "new").unwrap();
        assert_eq!(&vfs.read_file(&p("/a/b/f")).unwrap()[..], b"new");
        assert!(matches!(
            vfs.lookup_link(&p("/a/rel")).unwrap(),
            Node::Link(_)
        ));
        // Writing through a dangling link creates its target, when the
        // target's folder exists.
        vfs.symlink(&p("/a/later"), "b/made").unwrap();
        vfs.write_file(&p("/a/later"), "m").unwrap();
        assert_eq!(&vfs.read_file(&p("/a/b/made")).unwrap()[..], b"m");
        assert_eq!(
            vfs.write_file(&p("/dangling"), "x").unwrap_err().errno,
            Errno::NoEnt
        );
        assert_eq!(
            vfs.create_new(&p("/a/rel"), "x").unwrap_err().errno,
            Errno::Exist
        );
        assert_eq!(
            vfs.symlink(&p("/a/rel"), "y").unwrap_err().errno,
            Errno::Exist
        );
        assert_eq!(vfs.mkdir(&p("/abs")).unwrap_err().errno, Errno::Exist);
        vfs.mkdir_all(&p("/abs/new/deeper")).unwrap();
        assert!(vfs.is_dir(&p("/a/b/new/deeper")));
        // Removing or renaming a link leaves its target alone.
        vfs.rename(&p("/abs"), &p("/moved")).unwrap();
        assert!(vfs.is_dir(&p("/moved/new")));
        vfs.remove_file(&p("/moved")).unwrap();
        assert!(vfs.is_dir(&p("/a/b")));
        vfs.remove_all(&p("/a/up")).unwrap();
        assert!(vfs.is_file(&p("/a/b/f")));
        assert_eq!(
            vfs.remove_dir(&p("/a/rel")).unwrap_err().errno,
            Errno::NotDir
        );
    }

    #[test]
    fn a_link_counts_against_the_quota_and_its_target_text_is_kept() {
        let mut vfs = Vfs::new(Quota {
            max_bytes: 8,
            max_nodes: 100,
        });
        assert_eq!(
            vfs.symlink(&p("/l"), "/a/very/long/target")
                .unwrap_err()
                .errno,
            Errno::NoSpc
        );
        vfs.symlink(&p("/l"), "/t").unwrap();
        assert_eq!(vfs.usage().bytes, 2);
        assert_eq!(vfs.read_link(&p("/l")).unwrap(), "/t");
    }
}
