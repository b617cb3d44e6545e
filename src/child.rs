//! Child sandboxes from the host side: a fresh VFS seeded only from the
//! parent's paths and inline files, with the parent's engine. What the
//! `runScript(path, {sandbox: true})` guests use, for harnesses that fan
//! out sub-tasks themselves.

use bytes::Bytes;
use goccia_vfs::{SeedSpec, VfsPath};
use std::sync::Arc;

use crate::Sandbox;
use crate::error::ChildSeedError;

/// What a child sandbox is seeded with.
///
/// ```
/// # use goccia::ChildSeed;
/// let seeds = [
///     ChildSeed::path("/src"),                  // /src of the parent at /src
///     ChildSeed::path_to("/tests", "/t"),       // /tests of the parent at /t
///     ChildSeed::file("/task.txt", "fix the build"),
/// ];
/// # let _ = seeds;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildSeed(SeedSpec);

impl ChildSeed {
    /// The parent's file or folder at `path`, at the same path in the
    /// child. Shared, not copied: O(1) whatever its size.
    pub fn path(path: &str) -> Self {
        ChildSeed(SeedSpec::Parent {
            from: path.to_string(),
            to: None,
        })
    }

    /// The parent's file or folder at `from`, at `to` in the child.
    pub fn path_to(from: &str, to: &str) -> Self {
        ChildSeed(SeedSpec::Parent {
            from: from.to_string(),
            to: Some(to.to_string()),
        })
    }

    /// `(to, from)` for a parent path seeded somewhere else.
    fn parent_path(&self) -> Option<(VfsPath, VfsPath)> {
        let SeedSpec::Parent { from, to: Some(to) } = &self.0 else {
            return None;
        };
        let (from, to) = (VfsPath::parse(from).ok()?, VfsPath::parse(to).ok()?);
        (from != to).then_some((to, from))
    }

    /// A file with `content` at exactly `path` in the child.
    pub fn file(path: &str, content: impl Into<Bytes>) -> Self {
        ChildSeed(SeedSpec::Inline {
            path: path.to_string(),
            content: content.into(),
        })
    }
}

impl Sandbox {
    /// A child sandbox: a fresh VFS holding only what `seeds` name, taken
    /// from this sandbox's current tree; the same limits, mode, network
    /// policy and audit trail; no write-back mappings (its changes reach
    /// the host only through [`Sandbox::apply`] on a sandbox that has
    /// them). Its quota is what it was seeded with plus what this sandbox
    /// may still write; its baseline is its seeded state.
    ///
    /// ```
    /// # use goccia::{ChildSeed, Sandbox};
    /// let parent = Sandbox::builder()
    ///     .file("/src/a.txt", "a\n")
    ///     .file("/secret.txt", "not for the child")
    ///     .build()?;
    /// let child = parent.child(&[ChildSeed::path("/src")])?;
    /// assert!(child.read("/secret.txt").is_err());
    /// child.run_shell("echo b >> /src/a.txt")?;
    /// assert_eq!(&parent.read("/src/a.txt")?[..], b"a\n"); // untouched
    /// parent.merge(&child)?;                                 // until merged
    /// assert_eq!(&parent.read("/src/a.txt")?[..], b"a\nb\n");
    ///
    /// let error = parent.child(&[ChildSeed::path("/missing")]).unwrap_err();
    /// assert_eq!(error.index, 0);
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn child(&self, seeds: &[ChildSeed]) -> Result<Sandbox, ChildSeedError> {
        let specs: Vec<SeedSpec> = seeds.iter().map(|seed| seed.0.clone()).collect();
        let vfs = goccia_vfs::seed::seed_child(&self.shared_vfs().lock(), &specs)?;
        self.engine().audit.record(
            "child",
            "spawn",
            "(host)",
            Some(format!("host-made child sandbox, {} seeds", seeds.len())),
        );
        let mut child = Sandbox::new(vfs, Vec::new(), self.engine().clone());
        child.set_isolation(self.isolation().clone(), true);
        child.host = self.host.clone();
        child.parent_paths = seeds.iter().filter_map(ChildSeed::parent_path).collect();
        child.spec = Arc::new(crate::SandboxSpec {
            seeds: Vec::new(),
            ..(*self.spec).clone()
        });
        Ok(child)
    }
}
