#![doc = include_str!("../docs/guide.md")]
#![warn(missing_docs)]

mod builder;
mod child;
pub mod cli;
mod error;
mod run;
mod sandbox;
mod session;

pub use builder::SandboxBuilder;
pub use child::ChildSeed;
pub use error::{
    AccessError, ApplyError, ChildSeedError, Error, RunError, SetupError, WriteBackError,
};
pub use run::Run;
pub use sandbox::{Entry, Sandbox, WriteBackOutcome};
pub use session::{ShellRun, ShellSession, ShellStop};

pub use goccia_core::host_memory;
pub use goccia_core::{
    AllowedHost, Audit, AuditEvent, CancelToken, Capture, FailureKind, Limits, NetPolicy, Output,
    OutputBudget,
};
pub use goccia_shell::io::Fd;
pub use goccia_vfs::write_back::{Skipped, WriteBackReport, Written};
pub use goccia_vfs::{Change, ChangeKind, DiffFormat, NodeType, Usage};
pub use goccia_vm::{Engine, ExecMode, Failure};

/// The README's Rust examples, compiled by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
