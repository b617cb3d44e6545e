//! Which host programs a sandbox may run, and where they are: a name the
//! shell knows it by and a host path, found once at start-up. Only the
//! host's system directories are visible inside the confinement, so a
//! name is looked up in the `PATH` entries under them (a shim under a home
//! directory, such as pyenv's, would not run there); a path named
//! explicitly elsewhere is bound into the confinement by itself.

use std::path::{Path, PathBuf};

use thiserror::Error;

/// The host's system directories, read-only inside the confinement.
pub const SYSTEM_DIRS: [&str; 6] = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"];

/// Where a name is looked up when `PATH` names none of the system
/// directories.
const SYSTEM_PATH: [&str; 6] = [
    "/usr/local/sbin",
    "/usr/local/bin",
    "/usr/sbin",
    "/usr/bin",
    "/sbin",
    "/bin",
];

/// `PATH` inside the confinement.
pub const JAIL_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// A host program the shell may run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The name the shell runs it by.
    pub name: String,
    /// Where it is on the host (canonical).
    pub path: PathBuf,
}

/// Why a host command could not be set up.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ProgramError {
    /// Not a command name.
    #[error("host command `{0}`: not a command name (no `/`, `=` or spaces, not empty)")]
    BadName(String),
    /// Not found where it could run.
    #[error(
        "host command `{name}`: no executable `{name}` in the system directories of PATH ({searched}); name its path with `{name}=/path/to/{name}`"
    )]
    NotFound {
        /// The name.
        name: String,
        /// Where it was looked for.
        searched: String,
    },
    /// The path given is not an executable file.
    #[error("host command `{name}`: {path} is not an executable file")]
    NotExecutable {
        /// The name.
        name: String,
        /// The path given.
        path: String,
    },
}

impl Program {
    /// `name` at `path`, or looked up in `search_path` (the host's `PATH`)
    /// among the system directories.
    pub fn resolve(
        name: &str,
        path: Option<&Path>,
        search_path: Option<&str>,
    ) -> Result<Program, ProgramError> {
        if name.is_empty() || name.contains(['/', '=', ' ', '\t', '\n']) {
            return Err(ProgramError::BadName(name.to_string()));
        }
        let found = match path {
            Some(path) => executable(path).ok_or_else(|| ProgramError::NotExecutable {
                name: name.to_string(),
                path: path.display().to_string(),
            })?,
            None => {
                let dirs = search_dirs(search_path);
                dirs.iter()
                    .find_map(|dir| executable(&Path::new(dir).join(name)))
                    .ok_or_else(|| ProgramError::NotFound {
                        name: name.to_string(),
                        searched: dirs.join(":"),
                    })?
            }
        };
        Ok(Program {
            name: name.to_string(),
            path: found,
        })
    }

    /// Whether it lies inside the system directories (else it is bound in
    /// by itself).
    pub fn in_system_dirs(&self) -> bool {
        in_system_dirs(&self.path)
    }
}

/// Whether `path` is inside one of [`SYSTEM_DIRS`].
pub fn in_system_dirs(path: &Path) -> bool {
    SYSTEM_DIRS.iter().any(|dir| path.starts_with(dir))
}

/// The `PATH` entries under the system directories, in order, else the
/// system's own.
fn search_dirs(search_path: Option<&str>) -> Vec<String> {
    let dirs: Vec<String> = search_path
        .unwrap_or("")
        .split(':')
        .filter(|dir| dir.starts_with('/'))
        .filter(|dir| {
            let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| PathBuf::from(dir));
            in_system_dirs(&canonical)
        })
        .map(str::to_string)
        .collect();
    if dirs.is_empty() {
        SYSTEM_PATH.iter().map(|dir| dir.to_string()).collect()
    } else {
        dirs
    }
}

/// The canonical path of `path` if it is an executable regular file.
fn executable(path: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let canonical = std::fs::canonicalize(path).ok()?;
    let meta = std::fs::metadata(&canonical).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_in_the_system_dirs_only() {
        let shim = tempfile::tempdir().unwrap();
        let fake = shim.path().join("sh");
        std::fs::write(&fake, "#!/bin/false\n").unwrap();
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let path = format!("{}:/usr/bin:/bin", shim.path().display());
        let sh = Program::resolve("sh", None, Some(&path)).unwrap();
        assert!(sh.in_system_dirs(), "{sh:?}");
        let missing = Program::resolve("no-such-tool", None, Some(&path)).unwrap_err();
        assert!(
            missing.to_string().contains("no executable `no-such-tool`"),
            "{missing}"
        );
        assert!(matches!(
            Program::resolve("a/b", None, None),
            Err(ProgramError::BadName(_))
        ));
        assert!(matches!(
            Program::resolve("", None, None),
            Err(ProgramError::BadName(_))
        ));
        let explicit = Program::resolve("tool", Some(&fake), None).unwrap();
        assert!(!explicit.in_system_dirs());
        let plain = shim.path().join("plain");
        std::fs::write(&plain, "data").unwrap();
        std::fs::set_permissions(&plain, std::os::unix::fs::PermissionsExt::from_mode(0o644))
            .unwrap();
        let not_exec = Program::resolve("tool", Some(&plain), None);
        assert!(matches!(not_exec, Err(ProgramError::NotExecutable { .. })));
    }
}
