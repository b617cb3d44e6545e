//! Filesystem errors, named by their POSIX codes so that every layer above
//! (the JS `fs` module, shell commands) can report them the way users know.

use thiserror::Error;

use crate::path::{PathError, VfsPath};

/// POSIX error codes the VFS produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Errno {
    /// No such file or directory.
    NoEnt,
    /// File exists.
    Exist,
    /// Not a directory.
    NotDir,
    /// Is a directory.
    IsDir,
    /// Directory not empty.
    NotEmpty,
    /// Invalid argument.
    Inval,
    /// No space left on device (a quota).
    NoSpc,
    /// Permission denied.
    Acces,
    /// File name too long.
    NameTooLong,
    /// Device or resource busy.
    Busy,
    /// Too many levels of symbolic links (a loop, or more than 40).
    Loop,
    /// Deeper than the VFS allows ([`crate::path::MAX_DEPTH`]): reported
    /// as `ENAMETOOLONG`, the nearest POSIX code, with a text naming the
    /// limit.
    TooDeep,
}

impl Errno {
    /// `ENOENT`, `EEXIST`, ...
    pub const fn code(self) -> &'static str {
        match self {
            Errno::NoEnt => "ENOENT",
            Errno::Exist => "EEXIST",
            Errno::NotDir => "ENOTDIR",
            Errno::IsDir => "EISDIR",
            Errno::NotEmpty => "ENOTEMPTY",
            Errno::Inval => "EINVAL",
            Errno::NoSpc => "ENOSPC",
            Errno::Acces => "EACCES",
            Errno::NameTooLong => "ENAMETOOLONG",
            Errno::Busy => "EBUSY",
            Errno::Loop => "ELOOP",
            Errno::TooDeep => "ENAMETOOLONG",
        }
    }

    /// Linux errno value (Node reports it negated).
    pub const fn number(self) -> i32 {
        match self {
            Errno::NoEnt => 2,
            Errno::Exist => 17,
            Errno::NotDir => 20,
            Errno::IsDir => 21,
            Errno::NotEmpty => 39,
            Errno::Inval => 22,
            Errno::NoSpc => 28,
            Errno::Acces => 13,
            Errno::NameTooLong => 36,
            Errno::Busy => 16,
            Errno::Loop => 40,
            Errno::TooDeep => 36,
        }
    }

    /// The strerror-style text Node and GNU tools print.
    pub const fn description(self) -> &'static str {
        match self {
            Errno::NoEnt => "no such file or directory",
            Errno::Exist => "file already exists",
            Errno::NotDir => "not a directory",
            Errno::IsDir => "illegal operation on a directory",
            Errno::NotEmpty => "directory not empty",
            Errno::Inval => "invalid argument",
            Errno::NoSpc => "no space left on device",
            Errno::Acces => "permission denied",
            Errno::NameTooLong => "name too long",
            Errno::Busy => "resource busy or locked",
            Errno::Loop => "too many symbolic links encountered",
            Errno::TooDeep => "path deeper than 256 levels (the sandbox's depth limit)",
        }
    }

    /// The C library's `strerror` text, as coreutils print it.
    pub const fn strerror(self) -> &'static str {
        match self {
            Errno::NoEnt => "No such file or directory",
            Errno::Exist => "File exists",
            Errno::NotDir => "Not a directory",
            Errno::IsDir => "Is a directory",
            Errno::NotEmpty => "Directory not empty",
            Errno::Inval => "Invalid argument",
            Errno::NoSpc => "No space left on device",
            Errno::Acces => "Permission denied",
            Errno::NameTooLong => "File name too long",
            Errno::Busy => "Device or resource busy",
            Errno::Loop => "Too many levels of symbolic links",
            Errno::TooDeep => "Path deeper than 256 levels (the sandbox's depth limit)",
        }
    }
}

/// Which quota a write ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuotaKind {
    /// File content bytes.
    Bytes,
    /// Files and directories.
    Nodes,
}

/// A failed filesystem operation. `path` is the path the failure is about
/// (for two-path operations, the one that was wrong).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{}: {}, '{}'", errno.code(), description(self), path)]
pub struct FsError {
    /// The error number.
    pub errno: Errno,
    /// The path the failure is about.
    pub path: VfsPath,
    /// Set when the error is a quota refusal (`errno` is then `NoSpc`).
    pub quota: Option<QuotaKind>,
    /// Set when the write policy refused (`errno` is then `Acces`): the
    /// mode that did.
    pub denied: Option<crate::policy::Denied>,
}

fn description(error: &FsError) -> String {
    match error.denied {
        Some(denied) => denied.marker(),
        None => error.errno.description().to_string(),
    }
}

impl FsError {
    /// An error with `errno` about `path`.
    pub fn new(errno: Errno, path: &VfsPath) -> Self {
        FsError {
            errno,
            path: path.clone(),
            quota: None,
            denied: None,
        }
    }

    /// A write the policy refused (`EACCES`).
    pub fn denied(denied: crate::policy::Denied, path: &VfsPath) -> Self {
        FsError {
            errno: Errno::Acces,
            path: path.clone(),
            quota: None,
            denied: Some(denied),
        }
    }

    /// What a command says went wrong: the policy's denial (marker, and
    /// the hint when there is an approver) or the errno's `strerror` text.
    pub fn reason(&self) -> String {
        match self.denied {
            Some(denied) => denied.reason(crate::policy::Subject::Command),
            None => self.errno.strerror().to_string(),
        }
    }

    /// A quota refusal (`ENOSPC`) about `path`.
    pub fn quota(kind: QuotaKind, path: &VfsPath) -> Self {
        FsError {
            errno: Errno::NoSpc,
            path: path.clone(),
            quota: Some(kind),
            denied: None,
        }
    }
}

impl From<&PathError> for Errno {
    fn from(error: &PathError) -> Self {
        match error {
            PathError::Nul => Errno::Inval,
            PathError::NameTooLong | PathError::PathTooLong => Errno::NameTooLong,
            PathError::TooDeep => Errno::TooDeep,
            PathError::Empty => Errno::NoEnt,
        }
    }
}

/// A filesystem operation's result.
pub type FsResult<T> = Result<T, FsError>;
