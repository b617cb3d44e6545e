//! Child sandboxes from the host side: a fresh VFS seeded only from the
//! parent's paths and inline files, with the parent's engine. What the
//! `runScript(path, {sandbox: true})` guests use, for harnesses that fan
//! out sub-tasks themselves.

use bytes::Bytes;
use goccia_vfs::{SeedSpec, VfsPath};
use std::sync::Arc;

use crate::error::{ChildError, ChildSeedError};
use crate::{Limits, PolicyMode, Sandbox};

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

/// What a child may be given of its own besides its seeds: limits and a
/// write policy, each at most its parent's (a child only narrows), and
/// variables its shells start with. By default a child has its parent's
/// limits and policy, and starts with the parent's environment and the
/// variables its shell session has exported.
///
/// ```
/// # use goccia::{ChildOptions, ChildSeed, PolicyMode, Sandbox};
/// # use std::time::Duration;
/// let parent = Sandbox::builder().file("/src/a.txt", "a\n").build()?;
/// parent.run_shell("export STAGE=review")?;
/// let options = ChildOptions::new()
///     .limits(parent.limits().clone().timeout(Duration::from_secs(5)))
///     .policy(PolicyMode::ReadOnly)
///     .env("TASK", "lint");
/// let child = parent.child_with(&[ChildSeed::path("/src")], &options)?;
/// assert_eq!(child.limits().timeout, Duration::from_secs(5));
/// assert_eq!(child.run_shell("echo $STAGE $TASK")?.stdout_text(), "review lint\n");
/// assert_eq!(child.run_shell("echo x > /src/a.txt")?.exit_code, 1); // read-only
/// // Wider than the parent is refused, naming the setting.
/// let wider = ChildOptions::new().limits(parent.limits().clone().timeout(Duration::from_secs(60)));
/// let error = parent.child_with(&[], &wider).unwrap_err();
/// assert!(error.to_string().starts_with("limits.timeoutMs asks for 60000"), "{error}");
/// # Ok::<(), goccia::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ChildOptions {
    limits: Option<Limits>,
    policy: Option<PolicyMode>,
    env: Vec<(String, String)>,
    cwd: Option<String>,
}

impl ChildOptions {
    /// The parent's limits and policy, its environment.
    pub fn new() -> Self {
        Self::default()
    }

    /// The child's limits: none above its parent's (start from the
    /// parent's, `parent.limits().clone()`, and lower what you need).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// The child's write policy: no wider than its parent's (its writable
    /// roots are the parent's).
    pub fn policy(mut self, mode: PolicyMode) -> Self {
        self.policy = Some(mode);
        self
    }

    /// A variable the child's shells start with, exported (over the
    /// parent's of the same name).
    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    /// The folder the child's shell session starts in: an absolute path
    /// to a folder the child was seeded with (default `/`).
    pub fn cwd(mut self, path: &str) -> Self {
        self.cwd = Some(path.to_string());
        self
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
        self.child_with(seeds, &ChildOptions::new())
            .map_err(|error| match error {
                ChildError::Seed(error) => error,
                ChildError::Wider(_) | ChildError::Limits(_) | ChildError::Cwd { .. } => {
                    unreachable!("default options narrow nothing")
                }
            })
    }

    /// [`Sandbox::child`] with options of its own ([`ChildOptions`]):
    /// narrower limits and policy, more variables. A wider option is
    /// refused before anything is seeded, naming the setting.
    pub fn child_with(
        &self,
        seeds: &[ChildSeed],
        options: &ChildOptions,
    ) -> Result<Sandbox, ChildError> {
        let mut spec = crate::SandboxSpec {
            seeds: Vec::new(),
            ..(*self.spec).clone()
        };
        let mut engine = self.engine().clone();
        if let Some(limits) = &options.limits {
            limits.check()?;
            spec.limits = crate::LimitsSpec::from(limits);
            engine.limits = limits.clone();
        }
        if let Some(mode) = options.policy {
            spec.policy = mode;
        }
        spec.within(&self.spec).map_err(ChildError::Wider)?;
        // The parent's environment as its session has it now, then the
        // child's own.
        let exported = self
            .session_state
            .lock()
            .as_ref()
            .map(goccia_shell::Shell::exported)
            .unwrap_or_default();
        for (name, value) in exported.into_iter().chain(options.env.iter().cloned()) {
            engine.env.retain(|(known, _)| *known != name);
            engine.env.push((name, value));
        }
        let specs: Vec<SeedSpec> = seeds.iter().map(|seed| seed.0.clone()).collect();
        let mut vfs = goccia_vfs::seed::seed_child(&self.shared_vfs().lock(), &specs)?;
        if let Some(cwd) = &options.cwd {
            let refused = |reason: String| ChildError::Cwd {
                path: cwd.clone(),
                reason,
            };
            if !cwd.starts_with('/') {
                return Err(refused("not an absolute path".into()));
            }
            let path = VfsPath::parse(cwd).map_err(|error| refused(error.to_string()))?;
            if !vfs.is_dir(&path) {
                return Err(refused("not a folder the child was seeded with".into()));
            }
            engine.cwd = Some(path);
        }
        if let Some(limits) = &options.limits {
            let quota = vfs.quota();
            vfs.set_quota(goccia_vfs::fs::Quota {
                max_bytes: quota.max_bytes.min(limits.fs_quota_bytes),
                max_nodes: quota.max_nodes.min(limits.fs_node_limit),
            });
        }
        if let Some(mode) = options.policy {
            let narrowed = self
                .policy()
                .narrowed_to(mode)
                .expect("within() checked the policy is no wider");
            vfs.set_policy(Some(narrowed));
        }
        self.engine().audit.record(
            "child",
            "spawn",
            "(host)",
            Some(format!("host-made child sandbox, {} seeds", seeds.len())),
        );
        let mut child = Sandbox::new(vfs, Vec::new(), engine);
        child.set_isolation(self.isolation().clone(), true);
        child.host = self.host.clone();
        child.parent_paths = seeds.iter().filter_map(ChildSeed::parent_path).collect();
        child.spec = Arc::new(spec);
        Ok(child)
    }
}
