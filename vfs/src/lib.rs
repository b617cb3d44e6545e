//! goccia's virtual filesystem: everything a sandbox can see, and nothing
//! else. No JavaScript here.
//!
//! - [`path`]: sandbox path normalisation (docs/vfs.md).
//! - [`node`]: files (shared immutable bytes) and directories (persistent
//!   maps) behind `Arc`: structure is shared, so snapshots are O(1).
//! - [`fs`]: the filesystem operations, with quotas checked before any
//!   change.
//! - [`seed`], [`seed_config`]: populating a tree from the host, from
//!   another sandbox, or inline; [`seed_filter`]: what host seeds leave
//!   out (excludes, ignore files, links).
//! - [`change`]: the change type (what happened at one path).
//! - [`diff`](mod@diff): what changed between two snapshots, in O(changed).
//! - [`changes`]: the JSON diff format, and applying changes.
//! - [`patch`]: the unified (git) patch format.
//! - [`apply_patch`](mod@apply_patch): applying a unified patch, all or
//!   nothing.
//! - [`merge`]: merging another tree's changes path by path (three-way for
//!   text edited on both sides), with a report.
//! - [`format`](mod@format): the choice between the two ([`DiffFormat`]).
//! - [`policy`]: the write policy (mode, writable roots, protected names),
//!   the escalation ladder and the denial and outcome texts of docs/policy.md.
//! - [`image`]: trees as manifests of steps and contents by hash, to
//!   store a tree and rebuild it elsewhere.
//! - [`retained`]: what snapshots keep alive that the live tree and the
//!   baseline no longer hold (counted against the quota).
//! - [`replica`]: keeping a replica of a tree (another process's) in step
//!   with it, modes and times included.
//! - [`write_back`]: writing changes back to host paths the host named.
//! - [`shown`](mod@shown): names as reports for the host show them (one
//!   line each, whatever the guest named its files).

#![warn(missing_docs)]

pub mod apply_patch;
pub mod change;
pub mod changes;
pub mod diff;
pub mod error;
pub mod format;
pub mod fs;
pub mod image;
pub mod merge;
pub mod node;
pub mod patch;
pub mod path;
pub mod policy;
pub mod replica;
pub mod retained;
pub mod seed;
pub mod seed_config;
pub mod seed_filter;
pub mod shown;
pub mod write_back;

pub use apply_patch::{PatchError, PatchOptions, PatchedFile, apply_patch};
pub use change::{Change, ChangeKind};
pub use changes::{ChangeRecord, DiffDocument};
pub use diff::diff;
pub use error::{Errno, FsError, FsResult, QuotaKind};
pub use format::DiffFormat;
pub use fs::{DirEntry, Quota, Snapshot, Stat, Vfs};
pub use merge::{Conflict, MergeReport};
pub use node::{Node, NodeType, Usage};
pub use path::{PathError, VfsPath};
pub use policy::{PolicyMode, WritePolicy};
pub use seed::{SeedEntryError, SeedError, SeedSource, SeedTarget, Seeded};
pub use seed_config::{SeedShapes, SeedSpec};
pub use seed_filter::{HostFilter, SymlinkPolicy};
pub use shown::{shown, shown_path};

/// A VFS shared by everything one sandbox runs (JS, `$`, shared-mode
/// `runScript`, shell pipelines on their own threads).
pub type SharedVfs = std::sync::Arc<parking_lot::Mutex<Vfs>>;
