//! goccia: a sandboxed JavaScript runtime and virtual shell for AI agents.
//!
//! Build a [`Sandbox`] with [`SandboxBuilder`] (seeds from host paths,
//! inline files, `--copy-rw` mappings, limits), run scripts in it, look at
//! what they changed with [`Sandbox::diff`], and keep the changes with
//! [`Sandbox::write_back`]. The `goccia` binary is [`cli`] over this API.

pub mod cli;
mod sandbox;
mod session;

pub use goccia_core::{
    AllowedHost, Audit, AuditEvent, FailureKind, Limits, NetPolicy, Output, OutputBudget,
};
pub use goccia_shell::io::Fd;
pub use goccia_vm::{Engine, ExecMode, Failure, RunOutcome};
pub use sandbox::{AccessError, DiffFormat, Sandbox, SandboxBuilder, ScriptRun, SetupError};
pub use session::{ShellRun, ShellSession, ShellStop};
