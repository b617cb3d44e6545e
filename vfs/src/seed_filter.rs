//! What of a host tree a seed leaves out (docs/vfs.md, seeding real
//! repositories): `--exclude` patterns (gitignore syntax, relative to the
//! seed's root), the tree's own `.gitignore`, `.ignore` and
//! `.git/info/exclude` (with `.git/` itself left out), and symbolic links
//! (refused, skipped and listed, or kept). Matching is the `ignore` crate's
//! (ripgrep's); a directory left out is not read at all.

use std::path::{Path, PathBuf};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use parking_lot::Mutex;

use crate::seed::SeedError;

/// What to do with a symbolic link inside a seeded folder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SymlinkPolicy {
    /// The seed fails, naming the link (the default).
    #[default]
    Refuse,
    /// The link is left out and listed in [`HostFilter::skipped`].
    Skip,
    /// The link is copied as a VFS link holding the same target text
    /// (resolved inside the VFS only, never on the host).
    Keep,
}

goccia_core::named!(SymlinkPolicy {
    "refuse" => SymlinkPolicy::Refuse,
    "skip" => SymlinkPolicy::Skip,
    "keep" => SymlinkPolicy::Keep,
});

/// What host seeds leave out. The default leaves out nothing and refuses
/// links, as seeding always did. A clone has the same settings and nothing
/// recorded yet.
#[derive(Debug, Default)]
pub struct HostFilter {
    excludes: Vec<String>,
    gitignore: bool,
    symlinks: SymlinkPolicy,
    skipped: Mutex<Vec<PathBuf>>,
    /// Every host path left out (excluded or a skipped link).
    left_out: Mutex<Vec<PathBuf>>,
}

impl Clone for HostFilter {
    fn clone(&self) -> Self {
        HostFilter {
            excludes: self.excludes.clone(),
            gitignore: self.gitignore,
            symlinks: self.symlinks,
            ..HostFilter::default()
        }
    }
}

impl HostFilter {
    /// Leaves out what `pattern` matches (gitignore syntax, relative to
    /// each seed's root: `node_modules/`, `*.log`, `/build`).
    pub fn exclude(mut self, pattern: impl Into<String>) -> Self {
        self.excludes.push(pattern.into());
        self
    }

    /// Honours the tree's `.gitignore`, `.ignore` and `.git/info/exclude`,
    /// and leaves out `.git/`.
    pub fn gitignore(mut self, on: bool) -> Self {
        self.gitignore = on;
        self
    }

    /// What to do with links inside seeded folders.
    pub fn symlinks(mut self, policy: SymlinkPolicy) -> Self {
        self.symlinks = policy;
        self
    }

    /// The links left out so far (with [`SymlinkPolicy::Skip`]).
    pub fn skipped(&self) -> Vec<PathBuf> {
        self.skipped.lock().clone()
    }

    /// Takes the host paths left out since the last call (excluded, or
    /// skipped links): write-back never writes to them.
    pub fn take_left_out(&self) -> Vec<PathBuf> {
        std::mem::take(&mut self.left_out.lock())
    }

    /// The walk of one seed rooted at `root`.
    pub(crate) fn walk(&self, root: &Path) -> Result<HostWalk<'_>, SeedError> {
        let exclude = if self.excludes.is_empty() {
            None
        } else {
            let mut builder = GitignoreBuilder::new(root);
            for pattern in &self.excludes {
                builder
                    .add_line(None, pattern)
                    .map_err(|error| SeedError::BadExclude {
                        pattern: pattern.clone(),
                        reason: error.to_string(),
                    })?;
            }
            Some(builder.build().map_err(|error| SeedError::BadExclude {
                pattern: self.excludes.join(" "),
                reason: error.to_string(),
            })?)
        };
        let mut walk = HostWalk {
            filter: self,
            exclude,
            layers: Vec::new(),
        };
        if self.gitignore {
            let info = root.join(".git/info/exclude");
            if info.is_file() {
                let mut builder = GitignoreBuilder::new(root);
                // A malformed line is skipped, as git does.
                let _ = builder.add(info);
                if let Ok(matcher) = builder.build() {
                    walk.layers.push(matcher);
                }
            }
        }
        Ok(walk)
    }
}

/// One seed's walk: the exclude patterns and the ignore files of the
/// folders entered so far.
pub(crate) struct HostWalk<'a> {
    filter: &'a HostFilter,
    exclude: Option<Gitignore>,
    layers: Vec<Gitignore>,
}

impl HostWalk<'_> {
    /// Reads `dir`'s ignore files (with `--gitignore`); true when it added
    /// a layer, which [`HostWalk::leave`] then removes.
    pub(crate) fn enter(&mut self, dir: &Path) -> bool {
        if !self.filter.gitignore {
            return false;
        }
        let files: Vec<PathBuf> = [".gitignore", ".ignore"]
            .iter()
            .map(|name| dir.join(name))
            .filter(|path| path.is_file())
            .collect();
        if files.is_empty() {
            return false;
        }
        let mut builder = GitignoreBuilder::new(dir);
        for file in files {
            let _ = builder.add(file);
        }
        match builder.build() {
            Ok(matcher) => {
                self.layers.push(matcher);
                true
            }
            Err(_) => false,
        }
    }

    /// Leaves a folder whose [`HostWalk::enter`] added a layer.
    pub(crate) fn leave(&mut self) {
        self.layers.pop();
    }

    /// Whether `path` is left out (and if so, remembered).
    pub(crate) fn excluded(&self, path: &Path, is_dir: bool) -> bool {
        let excluded = self.matches(path, is_dir);
        if excluded {
            self.filter.left_out.lock().push(path.to_path_buf());
        }
        excluded
    }

    fn matches(&self, path: &Path, is_dir: bool) -> bool {
        if let Some(exclude) = &self.exclude
            && exclude.matched(path, is_dir).is_ignore()
        {
            return true;
        }
        if !self.filter.gitignore {
            return false;
        }
        if is_dir && path.file_name().is_some_and(|name| name == ".git") {
            return true;
        }
        // The deepest folder with an opinion decides, as git's do.
        for layer in self.layers.iter().rev() {
            match layer.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }

    /// A link inside a seeded folder: `Ok(None)` when it is skipped,
    /// `Ok(Some(target))` when it is kept as a VFS link holding the host
    /// link's text (read, never followed).
    pub(crate) fn link(&self, path: &Path) -> Result<Option<String>, SeedError> {
        match self.filter.symlinks {
            SymlinkPolicy::Refuse => Err(SeedError::Symlink(path.to_path_buf())),
            SymlinkPolicy::Skip => {
                self.filter.skipped.lock().push(path.to_path_buf());
                self.filter.left_out.lock().push(path.to_path_buf());
                Ok(None)
            }
            SymlinkPolicy::Keep => {
                let target = std::fs::read_link(path).map_err(|source| SeedError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
                target
                    .into_os_string()
                    .into_string()
                    .map(Some)
                    .map_err(|_| SeedError::NonUtf8Name(path.to_path_buf()))
            }
        }
    }
}
