//! Where a command name leads on `$PATH`, one answer for `type`,
//! `command -v`, `which` and running the command.
//!
//! goccia's utilities are no files, yet bash scripts ask where `grep`
//! lives and put their own `grep` earlier on `PATH`. So each utility (and
//! each builtin that also ships as a program, as `pwd` does) is taken to
//! live in the system folders `/usr/bin` and `/bin` (one folder on a
//! merged-`/usr` system such as Debian), where it wins over a file the
//! VFS holds at that path. An executable VFS file in a folder earlier on
//! `PATH` shadows the utility, as a real one would. A utility still runs
//! when `PATH` names no system folder (scripts that trim `PATH` keep
//! working); `type` then reports it in `/usr/bin`.
//!
//! As bash does, the shell remembers where it found each command it ran
//! (`hash`): a program put earlier on `PATH` later is not seen until
//! `hash -r` or a change of `PATH`, and a remembered file that went away
//! is `No such file or directory`, not searched for again.

use goccia_vfs::{Node, VfsPath};

use super::hash_table::{HashTable, PathHit};
use super::{CommandKind, Shell};

/// The folders goccia's utilities live in.
const SYSTEM_FOLDERS: &[&str] = &["/usr/bin", "/bin"];

/// Builtins that also exist as programs (`type -a echo` lists both).
const ALSO_PROGRAMS: &[&str] = &[
    "echo", "printf", "test", "[", "true", "false", "kill", "pwd", "sleep", "env",
];

impl Shell {
    /// The hash table, emptied first if `PATH` changed since it was
    /// filled.
    ///
    /// Assigning `PATH` empties it too (see `set_var`); comparing catches
    /// the changes that are no assignment (`unset`, a temporary binding
    /// ending, `command -p`). Compared in place: this runs per command.
    pub(crate) fn hash_table(&mut self) -> &mut HashTable {
        let current = self
            .vars
            .get_raw("PATH")
            .and_then(|var| var.value.as_ref()?.scalar())
            .unwrap_or("");
        if !self.hashed.is_for(current) {
            let current = current.to_string();
            self.hashed.start_over(current);
        }
        &mut self.hashed
    }

    /// Where running `name` leads: the remembered place (counting the
    /// run), else the `PATH` search, remembered from now on.
    pub(crate) fn hashed_command_path(&mut self, name: &str) -> Option<PathHit> {
        if let Some(hit) = self.hash_table().count_run(name) {
            return Some(hit);
        }
        let hit = self.command_path(name)?;
        self.hash_table().insert(name, hit.clone());
        self.hash_table().count_run(name);
        Some(hit)
    }

    /// `path` with every link followed (`pwd -P`, `cd -P`), or `path`
    /// itself when it does not resolve.
    pub(crate) fn physical(&self, path: &VfsPath) -> VfsPath {
        self.ctx
            .vfs
            .lock()
            .canonical(path)
            .unwrap_or_else(|_| path.clone())
    }

    /// Whether `name` is a program of goccia's own (a utility, a builtin
    /// that also ships as a program, or a host command the sandbox lets
    /// through).
    pub(crate) fn is_system_program(&self, name: &str) -> bool {
        self.ctx.table.kind(name) == Some(CommandKind::Utility)
            || ALSO_PROGRAMS.contains(&name)
            || self.ctx.host.as_ref().is_some_and(|host| host.has(name))
    }

    /// The folders of `PATH`, each as written (empty is `.`) and as
    /// resolved against the working folder.
    fn path_folders(&mut self) -> Vec<(String, VfsPath)> {
        let path_var = self.get_var("PATH").unwrap_or_default();
        path_var
            .split(':')
            .filter_map(|folder| {
                let shown = if folder.is_empty() { "." } else { folder };
                let resolved = self.cwd.resolve(shown).ok()?;
                Some((shown.trim_end_matches('/').to_string(), resolved))
            })
            .collect()
    }

    /// The executable programs `name` finds on `PATH`, in order; only the
    /// first unless `all`.
    pub(crate) fn path_hits(&mut self, name: &str, all: bool) -> Vec<PathHit> {
        // `.` and `..` are not names a folder holds as programs; bash says
        // `command not found` for them too.
        if name.is_empty() || name.contains('/') || name == "." || name == ".." {
            return Vec::new();
        }
        let system_program = self.is_system_program(name);
        let folders = self.path_folders();
        let vfs = self.ctx.vfs.lock();
        let mut hits = Vec::new();
        for (folder, resolved) in folders {
            let shown = format!("{folder}/{name}");
            let hit = if system_program && SYSTEM_FOLDERS.contains(&resolved.as_str()) {
                Some(PathHit { shown, file: None })
            } else {
                let candidate = resolved.join(name);
                match vfs.lookup(&candidate) {
                    Ok(Node::File(file)) if file.meta().mode & 0o111 != 0 => Some(PathHit {
                        shown,
                        file: Some(candidate),
                    }),
                    _ => None,
                }
            };
            if let Some(hit) = hit {
                hits.push(hit);
                if !all {
                    break;
                }
            }
        }
        hits
    }

    /// The names of the executable files in `PATH`'s folders of the VFS
    /// (what command completion offers beside goccia's own programs).
    pub(crate) fn path_programs(&mut self) -> Vec<String> {
        let folders = self.path_folders();
        let vfs = self.ctx.vfs.lock();
        let mut names = Vec::new();
        for (_, folder) in folders {
            for entry in vfs.read_dir(&folder).unwrap_or_default() {
                let executable = matches!(
                    vfs.lookup(&folder.join(&entry.name)),
                    Ok(Node::File(file)) if file.meta().mode & 0o111 != 0
                );
                if executable {
                    names.push(entry.name.to_string());
                }
            }
        }
        names
    }

    /// The program of goccia's a path such as `/usr/bin/env` or `/bin/ls`
    /// names (when the VFS holds no file there), by its bare name.
    pub(crate) fn system_program_at(&mut self, path: &str) -> Option<String> {
        let resolved = self.cwd.resolve(path).ok()?;
        let (folder, name) = resolved.as_str().rsplit_once('/')?;
        let folder = if folder.is_empty() { "/" } else { folder };
        let in_system_folder = SYSTEM_FOLDERS.contains(&folder);
        (in_system_folder && self.is_system_program(name) && !self.ctx.vfs.lock().exists(&resolved))
            .then(|| name.to_string())
    }

    /// The program running `name` starts: the first hit on `PATH`, else
    /// a utility in `/usr/bin` (see the module's note).
    pub(crate) fn command_path(&mut self, name: &str) -> Option<PathHit> {
        let first = self.path_hits(name, false).into_iter().next();
        first.or_else(|| {
            let runs_anyway = self.ctx.table.kind(name) == Some(CommandKind::Utility)
                || self.ctx.host.as_ref().is_some_and(|host| host.has(name));
            runs_anyway.then(|| PathHit {
                shown: format!("/usr/bin/{name}"),
                file: None,
            })
        })
    }

    /// The first regular file called `name` in a `PATH` folder, executable
    /// or not: what `source name` reads, and what bash's `type` and
    /// `command -v` report when nothing executable is found (running it
    /// then fails with `Permission denied`).
    pub(crate) fn file_in_path(&mut self, name: &str) -> Option<String> {
        if name.is_empty() || name.contains('/') {
            return None;
        }
        let folders = self.path_folders();
        let vfs = self.ctx.vfs.lock();
        folders
            .into_iter()
            .find(|(_, resolved)| vfs.is_file(&resolved.join(name)))
            .map(|(folder, _)| format!("{folder}/{name}"))
    }

    /// An executable file called `name` in a `$PATH` folder of the VFS
    /// (not one of goccia's utilities).
    pub(crate) fn find_in_path(&mut self, name: &str) -> Option<VfsPath> {
        self.path_hits(name, false)
            .into_iter()
            .next()
            .and_then(|hit| hit.file)
    }
}
