//! Typed errors of the embedding API: one enum per operation, so a caller
//! matches only what that operation can do, and [`Error`] when it just
//! wants `?`.

use std::path::PathBuf;

use goccia_store::StoreError;
use goccia_vfs::SeedError;
use thiserror::Error;

pub use goccia_core::LimitsError;
pub use goccia_vfs::changes::ApplyError;
pub use goccia_vfs::write_back::WriteBackError;

/// Why [`Sandbox::child`](crate::Sandbox::child) could not seed a child:
/// the entry's index and the problem (a path the parent lacks, a target
/// that is not a path). Nothing was created.
pub type ChildSeedError = goccia_vfs::SeedEntryError;

/// Why [`Sandbox::child_with`](crate::Sandbox::child_with) made no child.
#[derive(Debug, Error)]
pub enum ChildError {
    /// A seed could not be taken from the parent.
    #[error(transparent)]
    Seed(#[from] ChildSeedError),
    /// An option asks for more than the parent has (a child only narrows).
    #[error("{0} (a child only narrows its parent)")]
    Wider(crate::spec::Widening),
    /// A limit out of range.
    #[error(transparent)]
    Limits(#[from] LimitsError),
    /// The working folder asked for is not one of the child's.
    #[error("cwd `{path}`: {reason}")]
    Cwd {
        /// As given.
        path: String,
        /// Why it cannot be the child's working folder.
        reason: String,
    },
}

/// Why [`SandboxBuilder::build`](crate::SandboxBuilder::build) could not
/// set up a sandbox. Nothing ran and nothing on the host changed.
///
/// ```
/// # use goccia::{Sandbox, SetupError};
/// let error = Sandbox::builder().file("/a\0", "").build(); // NUL in a name
/// assert!(matches!(error, Err(SetupError::Spec(_))));
/// assert_eq!(error.unwrap_err().to_string(), "seeds[0]: `/a\0`: path contains a NUL byte");
/// ```
#[derive(Debug, Error)]
pub enum SetupError {
    /// A limit no run could work with (a heap too small for the JS
    /// globals, a stack too small or too large).
    #[error("{0}")]
    Limits(#[from] LimitsError),
    /// A `--seed`/`--copy-rw` host path is missing, is or contains a
    /// symlink, or does not fit the quota.
    #[error("{0}")]
    Seed(#[from] SeedError),
    /// A `--seed-config` file could not be read.
    #[error("cannot read seed config {}: {source}", .path.display())]
    ConfigUnreadable {
        /// The config file.
        path: PathBuf,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// A `--seed-config` file is not valid (the problem names the entry).
    #[error("seed config {}: {problem}", .path.display())]
    Config {
        /// The config file.
        path: PathBuf,
        /// What is wrong, naming the entry (`entry 2: ...`).
        problem: String,
    },
    /// A host command that cannot be set up (not a name, not found where
    /// it could run, not executable).
    #[error("{0}")]
    HostCommand(#[from] goccia_host_commands::ProgramError),
    /// A setting of the spec no sandbox could be built with, named by its
    /// JSON path ([`SpecError::spelled`](crate::SpecError::spelled) names
    /// it as a surface spells it).
    #[error("{0}")]
    Spec(#[from] crate::spec::SpecError),
}

impl SetupError {
    /// The limit that refused the setup, if one did (a seed over the fs
    /// quota, a limit out of range), for a surface to advise on.
    ///
    /// ```
    /// # use goccia::{LimitKind, Limits, Sandbox};
    /// let error = Sandbox::builder()
    ///     .limits(Limits::default().fs_node_limit(1))
    ///     .file("/a/b.txt", "")
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(error.limit(), Some(LimitKind::FsNodes));
    /// ```
    pub fn limit(&self) -> Option<goccia_core::LimitKind> {
        use goccia_core::LimitKind;
        use goccia_vfs::QuotaKind;
        let quota = match self {
            SetupError::Limits(LimitsError::OutOfRange { kind, .. }) => return Some(*kind),
            SetupError::Spec(error) => {
                return error
                    .setting
                    .strip_prefix("limits.")
                    .and_then(crate::spec::limits::limit_named)
                    .and_then(|limit| limit.kind);
            }
            SetupError::Seed(error) => error.quota(),
            _ => None,
        };
        quota.map(|kind| match kind {
            QuotaKind::Bytes => LimitKind::FsBytes,
            QuotaKind::Nodes => LimitKind::FsNodes,
        })
    }
}

/// Why the host could not read, write or list a sandbox path.
///
/// ```
/// # use goccia::{AccessError, Sandbox};
/// let sandbox = Sandbox::builder().file("/f", "").build()?;
/// assert!(matches!(sandbox.list("/f"), Err(AccessError::Fs { .. })));   // not a folder
/// assert!(matches!(sandbox.read("/\0"), Err(AccessError::Path { .. }))); // not a path
/// # Ok::<(), goccia::Error>(())
/// ```
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AccessError {
    /// The path is not a valid sandbox path (relative, NUL, too long...).
    #[error("invalid sandbox path `{raw}`: {source}")]
    Path {
        /// The path as given.
        raw: String,
        /// What is wrong with it.
        source: goccia_vfs::PathError,
    },
    /// The filesystem refused: missing, not a directory, over quota...
    #[error("{path}: {reason}")]
    Fs {
        /// The path as given.
        path: String,
        /// The error, as `strerror` words (`No such file or directory`).
        reason: &'static str,
        /// Its errno name (`ENOENT`).
        errno: &'static str,
    },
    /// The write policy refused (only the `*_fenced` calls are checked).
    #[error("{path}: [sandbox: file access denied under {mode} mode]")]
    Denied {
        /// The path as given.
        path: String,
        /// The mode that refused.
        mode: goccia_vfs::PolicyMode,
    },
    /// An escalation was asked badly or not granted
    /// ([`Sandbox::with_escalation`](crate::Sandbox::with_escalation)).
    #[error("{0}")]
    Escalation(goccia_vfs::policy::EscalationError),
}

impl AccessError {
    /// Whether the path does not exist (`ENOENT`).
    pub fn is_not_found(&self) -> bool {
        matches!(self, AccessError::Fs { reason, .. } if *reason == goccia_vfs::Errno::NoEnt.strerror())
    }
}

/// Why a script or command line could not be started. Failures *of* the
/// run (a throw, a limit, a timeout) are not errors: they are in
/// [`Run::failure`](crate::Run::failure).
///
/// ```
/// # use goccia::{RunError, Sandbox};
/// let sandbox = Sandbox::builder().build()?;
/// assert!(matches!(sandbox.run_script("/x\0.js"), Err(RunError::Entry { .. })));
/// assert!(sandbox.run_script("/missing.js")?.failure.is_some()); // started, then failed
/// # Ok::<(), goccia::Error>(())
/// ```
#[derive(Debug, Error)]
pub enum RunError {
    /// The entry is not a valid sandbox path.
    #[error("invalid entry path `{raw}`: {source}")]
    Entry {
        /// The entry as given.
        raw: String,
        /// What is wrong with it.
        source: goccia_vfs::PathError,
    },
    /// The host could not start the thread the shell runs on.
    #[error("cannot start the shell: {0}")]
    Thread(std::io::Error),
    /// A call's working folder is not a folder of the VFS.
    #[error("cwd `{path}`: {reason}")]
    Cwd {
        /// The path as given.
        path: String,
        /// Why (`No such file or directory`, `Not a directory`).
        reason: &'static str,
        /// Its errno name (`ENOENT`, `ENOTDIR`).
        errno: &'static str,
    },
    /// A shell-only option given to a script call.
    #[error(
        "{0} applies to shell calls only (a script runs in the session's working folder and environment)"
    )]
    ShellOnly(&'static str),
    /// The shell panicked: a goccia bug, reported instead of unwinding
    /// into the caller.
    #[error("internal error: the shell panicked")]
    Panicked,
    /// Process isolation was asked for and cannot be had (docs/isolation.md):
    /// nothing ran, and nothing runs unconfined instead.
    #[error("sandbox unavailable: {0}")]
    SandboxUnavailable(String),
}

/// A snapshot this sandbox never took.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("no snapshot {index} in this sandbox (it has taken {taken})")]
pub struct UnknownSnapshot {
    /// The index of the id asked for ([`SnapshotId::index`](crate::SnapshotId::index)).
    pub index: usize,
    /// How many snapshots this sandbox has taken.
    pub taken: usize,
}

/// A snapshot refused by a limit (docs/security.md, "Snapshots"): the
/// sandbox holds as many as it may, or what its snapshots keep that the
/// tree no longer holds would pass the fs quota. Nothing was taken.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SnapshotLimitError {
    /// [`Limits::max_snapshots`](crate::Limits::max_snapshots) reached.
    #[error("snapshot limit of {limit} reached: this sandbox holds {limit} snapshots")]
    Count {
        /// The limit.
        limit: u64,
    },
    /// What snapshots keep plus the live tree would pass
    /// [`Limits::fs_quota_bytes`](crate::Limits::fs_quota_bytes).
    #[error(
        "file system quota of {quota} bytes reached by snapshots: they keep {retained} bytes the files no longer hold, beside the {live} bytes the files hold"
    )]
    Quota {
        /// Bytes only snapshots keep.
        retained: u64,
        /// Bytes the tree holds.
        live: u64,
        /// The quota.
        quota: u64,
    },
}

/// Why an image could not be loaded into a sandbox.
#[derive(Debug, thiserror::Error)]
pub enum LoadImageError {
    /// A manifest is malformed or names content that is missing or wrong.
    #[error(transparent)]
    Image(#[from] goccia_vfs::image::ImageError),
    /// The trees do not fit this sandbox (its quota, or steps that do not
    /// apply to the tree they build).
    #[error("the image does not fit this sandbox: {0}")]
    Tree(goccia_vfs::FsError),
}

/// Why a snapshot could not be saved to a store or opened from one
/// (docs/snapshots.md).
#[derive(Debug, Error)]
pub enum SavedSnapshotError {
    /// The store failed, holds no such snapshot, or is of a later format.
    #[error(transparent)]
    Store(#[from] goccia_store::StoreError),
    /// The snapshot to save was never taken here.
    #[error(transparent)]
    Unknown(#[from] UnknownSnapshot),
    /// The saved trees do not fit this sandbox (its quota), or are
    /// malformed.
    #[error("saved snapshot {id} cannot be opened here: {source}")]
    Load {
        /// The saved snapshot.
        id: String,
        /// Why.
        source: LoadImageError,
    },
    /// The sandbox to open it in could not be built.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// Why `fork` made no sandbox.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ForkError {
    /// The snapshot to fork was never taken here.
    #[error(transparent)]
    Unknown(#[from] UnknownSnapshot),
    /// More forks than one call may make: as many as the sandbox may hold
    /// snapshots ([`Limits::max_snapshots`](crate::Limits::max_snapshots)).
    #[error("fork limit of {limit} reached: {asked} forks were asked for in one call")]
    Count {
        /// How many were asked for.
        asked: usize,
        /// The limit.
        limit: u64,
    },
}

impl SnapshotLimitError {
    /// The limit that refused it, for a surface to advise on.
    pub fn limit(&self) -> crate::LimitKind {
        match self {
            SnapshotLimitError::Count { .. } => crate::LimitKind::Snapshots,
            SnapshotLimitError::Quota { .. } => crate::LimitKind::FsBytes,
        }
    }
}

impl Error {
    /// A stable name for what went wrong, for surfaces whose errors carry
    /// a code (Node's `error.code`; docs/calls.md lists them): the write
    /// policy's and escalation's codes as guest code sees them
    /// (`FS_SANDBOX_DENIED`, `ERR_ESCALATION_REJECTED`, ...), an errno name
    /// for a file system refusal (`ENOENT`), else `ERR_GOCCIA_<KIND>`.
    ///
    /// ```
    /// # use goccia::{Error, Sandbox};
    /// let sandbox = Sandbox::builder().build()?;
    /// assert_eq!(Error::from(sandbox.read("/missing").unwrap_err()).code(), "ENOENT");
    /// assert_eq!(Error::from(sandbox.restore(goccia::SnapshotId::from_index(9)).unwrap_err()).code(), "ERR_GOCCIA_UNKNOWN_SNAPSHOT");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            Error::Setup(SetupError::Spec(_) | SetupError::Limits(_)) => "ERR_GOCCIA_SPEC",
            Error::Setup(SetupError::HostCommand(_)) => "ERR_GOCCIA_HOST_COMMAND",
            Error::Setup(_) => "ERR_GOCCIA_SETUP",
            Error::Access(AccessError::Path { .. }) => "ERR_GOCCIA_INVALID_PATH",
            Error::Access(AccessError::Fs { errno, .. }) => errno,
            Error::Access(AccessError::Denied { .. }) => "FS_SANDBOX_DENIED",
            Error::Access(AccessError::Escalation(error)) => error.code,
            Error::Run(RunError::Entry { .. }) => "ERR_GOCCIA_INVALID_PATH",
            Error::Run(RunError::Cwd { errno, .. }) => errno,
            Error::Run(RunError::ShellOnly(_)) => "ERR_GOCCIA_SPEC",
            Error::Run(_) => "ERR_GOCCIA_RUN",
            Error::Child(_) | Error::ChildOptions(ChildError::Seed(_)) => "ERR_GOCCIA_CHILD_SEED",
            Error::ChildOptions(_) => "ERR_GOCCIA_SPEC",
            Error::Apply(_) => "ERR_GOCCIA_APPLY",
            Error::WriteBack(_) => "ERR_GOCCIA_WRITE_BACK",
            Error::Patch(_) => "ERR_GOCCIA_PATCH",
            Error::Snapshot(_) => "ERR_GOCCIA_UNKNOWN_SNAPSHOT",
            Error::SnapshotLimit(_) => "ERR_GOCCIA_SNAPSHOT_LIMIT",
            Error::Saved(SavedSnapshotError::Store(StoreError::NotFound { .. }))
            | Error::Saved(SavedSnapshotError::Unknown(_)) => "ERR_GOCCIA_UNKNOWN_SNAPSHOT",
            Error::Saved(SavedSnapshotError::Store(StoreError::UnknownFormat { .. })) => {
                "ERR_GOCCIA_STORE_FORMAT"
            }
            Error::Saved(SavedSnapshotError::Store(StoreError::BadId(_))) => "ERR_GOCCIA_SPEC",
            Error::Saved(SavedSnapshotError::Store(_)) => "ERR_GOCCIA_STORE",
            Error::Saved(SavedSnapshotError::Load { .. }) => "ERR_GOCCIA_SNAPSHOT_LOAD",
            Error::Saved(SavedSnapshotError::Setup(_)) => "ERR_GOCCIA_SETUP",
            Error::Fork(ForkError::Unknown(_)) => "ERR_GOCCIA_UNKNOWN_SNAPSHOT",
            Error::Fork(ForkError::Count { .. }) => "ERR_GOCCIA_SNAPSHOT_LIMIT",
        }
    }
}

/// Any error of the embedding API, for callers that only propagate.
///
/// ```
/// fn task() -> Result<String, goccia::Error> {
///     let sandbox = goccia::Sandbox::builder().file("/in", "x").build()?; // SetupError
///     sandbox.run_shell("tr x y < /in > /out")?;                          // RunError
///     let out = sandbox.read("/out")?;                                     // AccessError
///     Ok(String::from_utf8_lossy(&out).into_owned())
/// }
/// assert_eq!(task().unwrap(), "y");
/// ```
#[derive(Debug, Error)]
pub enum Error {
    /// From [`SandboxBuilder::build`](crate::SandboxBuilder::build).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// From [`Sandbox::read`](crate::Sandbox::read) and its kin.
    #[error(transparent)]
    Access(#[from] AccessError),
    /// From [`Sandbox::run_script`](crate::Sandbox::run_script) and
    /// [`Sandbox::run_shell`](crate::Sandbox::run_shell).
    #[error(transparent)]
    Run(#[from] RunError),
    /// From [`Sandbox::child`](crate::Sandbox::child).
    #[error(transparent)]
    Child(#[from] ChildSeedError),
    /// From [`Sandbox::child_with`](crate::Sandbox::child_with).
    #[error(transparent)]
    ChildOptions(#[from] ChildError),
    /// From [`Sandbox::apply`](crate::Sandbox::apply).
    #[error(transparent)]
    Apply(#[from] ApplyError),
    /// From [`Sandbox::write_back`](crate::Sandbox::write_back).
    #[error(transparent)]
    WriteBack(#[from] WriteBackError),
    /// From [`Sandbox::apply_patch`](crate::Sandbox::apply_patch).
    #[error(transparent)]
    Patch(#[from] crate::PatchError),
    /// From [`Sandbox::restore`](crate::Sandbox::restore).
    #[error(transparent)]
    Snapshot(#[from] UnknownSnapshot),
    /// From [`Sandbox::snapshot`](crate::Sandbox::snapshot).
    #[error(transparent)]
    SnapshotLimit(#[from] SnapshotLimitError),
    /// From [`Sandbox::save`](crate::Sandbox::save) and
    /// [`Sandbox::open`](crate::Sandbox::open).
    #[error(transparent)]
    Saved(#[from] SavedSnapshotError),
    /// From [`Sandbox::fork`](crate::Sandbox::fork).
    #[error(transparent)]
    Fork(#[from] ForkError),
}

/// A store's own error (opening one, listing, `gc`) as the library's.
impl From<StoreError> for Error {
    fn from(error: StoreError) -> Error {
        Error::Saved(SavedSnapshotError::Store(error))
    }
}
