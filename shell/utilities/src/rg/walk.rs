//! Which files rg searches: every path it was given, and below each
//! folder the files ripgrep's walker would yield — hidden names skipped
//! (unless `--hidden`), `.rgignore`, `.ignore` and, inside a git
//! repository, `.gitignore` and `.git/info/exclude` honoured (those of the
//! folders above a search root too), `-g` globs and `-t`/`-T` types
//! applied, in ripgrep's precedence. The matching is the `ignore` crate's
//! own (gitignore rules, overrides, the file-type table); only the walk is
//! over the VFS instead of the host's disk. Files come in path order, as
//! `rg --sort path` gives them.

use std::path::{Path, PathBuf};

use goccia_vfs::{NodeType, VfsPath};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::types::Types;

use goccia_interp::interp::ShellView;

/// A file to search.
pub struct Subject {
    /// As rg names it (relative as given; no `./` for the implicit `.`).
    pub shown: String,
    /// Where it is; `None` for standard input.
    pub path: Option<VfsPath>,
    /// Named on the command line (searched whatever the filters say;
    /// binary content is reported rather than skipped).
    pub explicit: bool,
}

/// What decides whether a walked entry is searched.
pub struct Filters {
    pub hidden: bool,
    pub no_ignore: bool,
    pub no_ignore_vcs: bool,
    pub types: Types,
    pub overrides: Override,
    pub max_depth: Option<usize>,
}

/// The ignore files of one folder.
#[derive(Default)]
struct Level {
    rgignore: Option<Gitignore>,
    ignore: Option<Gitignore>,
    gitignore: Option<Gitignore>,
    exclude: Option<Gitignore>,
    /// The folder holds `.git`: the repository's root.
    has_git: bool,
}

fn std_path(path: &VfsPath) -> PathBuf {
    PathBuf::from(path.as_str())
}

/// A gitignore matcher for `dir` from the VFS file `name` in it, if any.
fn ignore_file(shell: &ShellView, dir: &VfsPath, file: &VfsPath) -> Option<Gitignore> {
    let data = shell.context().vfs.lock().read_file(file).ok()?;
    let mut builder = GitignoreBuilder::new(std_path(dir));
    let from = std_path(file);
    for line in String::from_utf8_lossy(&data).lines() {
        // A line the gitignore syntax cannot take is left out, as ripgrep
        // does (it reports it and goes on).
        let _ = builder.add_line(Some(from.clone()), line);
    }
    builder.build().ok().filter(|matcher| !matcher.is_empty())
}

impl Filters {
    fn level(&self, shell: &ShellView, dir: &VfsPath) -> Level {
        let vfs_has = |name: &str| shell.context().vfs.lock().exists(&dir.join(name));
        let has_git = vfs_has(".git");
        if self.no_ignore {
            return Level {
                has_git,
                ..Level::default()
            };
        }
        Level {
            rgignore: ignore_file(shell, dir, &dir.join(".rgignore")),
            ignore: ignore_file(shell, dir, &dir.join(".ignore")),
            gitignore: if self.no_ignore_vcs {
                None
            } else {
                ignore_file(shell, dir, &dir.join(".gitignore"))
            },
            exclude: if self.no_ignore_vcs || !has_git {
                None
            } else {
                ignore_file(shell, dir, &dir.join_relative([".git", "info", "exclude"]))
            },
            has_git,
        }
    }

    /// Whether the walked entry `path` is left out, given the ignore files
    /// of the folders above it (`levels`, outermost first).
    fn ignored(&self, levels: &[Level], path: &VfsPath, name: &str, is_dir: bool) -> bool {
        let std = std_path(path);
        // Overrides (`-g`) decide first, either way.
        let decided = self.overrides.matched(&std, is_dir);
        if decided.is_ignore() {
            return true;
        }
        if decided.is_whitelist() {
            return false;
        }
        let mut whitelisted = false;
        match ignore_match(levels, &std, is_dir) {
            Some(true) => return true,
            Some(false) => whitelisted = true,
            None => {}
        }
        let typed = self.types.matched(&std, is_dir);
        if typed.is_ignore() {
            return true;
        }
        whitelisted |= typed.is_whitelist();
        !whitelisted && !self.hidden && name.starts_with('.')
    }
}

/// ripgrep's precedence among ignore files: for each kind the deepest
/// folder's match wins, and `.rgignore` beats `.ignore` beats
/// `.gitignore` beats `.git/info/exclude`; git's files count only inside
/// a repository, and not above its root. `Some(true)`: ignored;
/// `Some(false)`: whitelisted by a `!` rule.
fn ignore_match(levels: &[Level], path: &Path, is_dir: bool) -> Option<bool> {
    let in_repo = levels.iter().any(|level| level.has_git);
    let (mut rg, mut plain, mut git, mut exclude) = (None, None, None, None);
    let mut saw_git = false;
    for level in levels.iter().rev() {
        let test = |matcher: &Option<Gitignore>| {
            let matcher = matcher.as_ref()?;
            let found = matcher.matched(path, is_dir);
            if found.is_ignore() {
                Some(true)
            } else if found.is_whitelist() {
                Some(false)
            } else {
                None
            }
        };
        rg = rg.or_else(|| test(&level.rgignore));
        plain = plain.or_else(|| test(&level.ignore));
        if in_repo && !saw_git {
            git = git.or_else(|| test(&level.gitignore));
            exclude = exclude.or_else(|| test(&level.exclude));
        }
        saw_git |= level.has_git;
    }
    rg.or(plain).or(git).or(exclude)
}

/// Walks `root` (a folder, shown as `shown`) and adds what rg searches.
pub fn walk(
    shell: &mut ShellView,
    filters: &Filters,
    root: &VfsPath,
    shown: &str,
    out: &mut Vec<Subject>,
) {
    // The ignore files of the folders above the root apply too.
    let mut levels: Vec<Level> = Vec::new();
    let mut ancestors: Vec<VfsPath> = Vec::new();
    let mut at = root.parent();
    while let Some(dir) = at {
        at = dir.parent();
        ancestors.push(dir);
    }
    for dir in ancestors.into_iter().rev() {
        levels.push(filters.level(shell, &dir));
    }
    levels.push(filters.level(shell, root));
    descend(shell, filters, root, shown, 1, &mut levels, out);
}

fn descend(
    shell: &mut ShellView,
    filters: &Filters,
    dir: &VfsPath,
    shown: &str,
    depth: usize,
    levels: &mut Vec<Level>,
    out: &mut Vec<Subject>,
) {
    if filters.max_depth.is_some_and(|max| depth > max) || shell.check_stop().is_err() {
        return;
    }
    let Ok(entries) = shell.context().vfs.lock().read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = dir.join(&entry.name);
        let is_dir = entry.node_type == NodeType::Directory;
        if filters.ignored(levels, &path, &entry.name, is_dir) {
            continue;
        }
        let child_shown = if shown.is_empty() {
            entry.name.to_string()
        } else if shown.ends_with('/') {
            format!("{shown}{}", entry.name)
        } else {
            format!("{shown}/{}", entry.name)
        };
        if is_dir {
            levels.push(filters.level(shell, &path));
            descend(shell, filters, &path, &child_shown, depth + 1, levels, out);
            levels.pop();
        } else {
            out.push(Subject {
                shown: child_shown,
                path: Some(path),
                explicit: false,
            });
        }
    }
}
