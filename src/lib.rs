#![doc = include_str!("../docs/guide.md")]
#![warn(missing_docs)]

pub mod background;
mod builder;
mod call;
mod child;
pub mod deep_stack;
mod envelope;
mod error;
mod escalation;
mod host_commands;
mod image;
pub mod isolation;
mod run;
mod sandbox;
mod saved;
mod session;
mod shell_call;
mod shell_state;
mod snapshot_store;
mod snapshots;
pub mod spec;

pub use builder::SandboxBuilder;
pub use call::{CALL_TIMEOUT, CallOptions, Stdin};
pub use child::{ChildOptions, ChildSeed};
pub use envelope::{Envelope, PolicySummary, SkippedChange, Stats, WriteBackSummary, WrittenFile};
pub use error::{
    AccessError, ApplyError, ChildError, ChildSeedError, Error, ForkError, LimitsError,
    LoadImageError, RunError, SavedSnapshotError, SetupError, SnapshotLimitError, UnknownSnapshot,
    WriteBackError,
};
pub use host_commands::{HostCommandsSummary, remove_scratch_trees};
pub use image::Image;
pub use run::{Run, ShellRun};
pub use sandbox::{Entry, Sandbox, WriteBackOutcome};
pub use session::ShellSession;
pub use snapshot_store::{SnapshotId, SnapshotInfo};
pub use spec::{
    Approve, Extras, HostCommandSpec, IsolationMode, LimitsSpec, NetworkSpec, SandboxSpec,
    SecretSource, SeedSpec, SpecError, Spelling, Widening,
};

/// Durable snapshots' stores (docs/snapshots.md): SQLite or PostgreSQL.
pub use goccia_store as store;
/// Traces over OTLP (docs/telemetry.md).
pub use goccia_telemetry as telemetry;

pub use goccia_core::host_memory;
pub use goccia_core::net::{AllowHostError, NetPolicyBuilder};
pub use goccia_core::{
    Advice, AllowedHost, Audit, AuditEvent, CancelToken, Capture, FailureKind, LimitKind, Limits,
    Named, NetPolicy, Output, OutputBudget, Overflow, ParseSizeError, Setting, Stop, Stream,
    UnknownName, parse_size,
};
pub use goccia_vfs::image::{Contents, ImageError, Manifest, ManifestStep};
pub use goccia_vfs::node::{DirNode, FileNode};
pub use goccia_vfs::policy::{
    Approver, Decision, EscalationError, EscalationRequest, PolicyMode, Subject, WritePolicy,
};
pub use goccia_vfs::write_back::{SkipReason, Skipped, WriteBackReport, Written};
pub use goccia_vfs::{
    Change, ChangeKind, Conflict, DiffFormat, MergeReport, Node, NodeType, PatchError, PatchedFile,
    PathError, SeedError, SymlinkPolicy, Usage, VfsPath,
};
pub use goccia_vfs::{shown, shown_path};
pub use goccia_vm::{Engine, ExecMode, Failure};

/// The README's Rust examples, compiled by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
