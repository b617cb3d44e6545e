//! The seam between the guest's `goccia` module and the runner that can
//! start another runtime: `runScript` asks a [`Nest`] (implemented by the
//! VM crate, which sits above this one) to run an entry, shared or in a
//! child sandbox, and gets a [`ScriptResult`] back.

use std::sync::Arc;
use std::time::Duration;

use goccia_core::FailureKind;
use goccia_shell::Shell;
pub use goccia_vfs::DiffFormat;
use goccia_vfs::SeedSpec;
use parking_lot::Mutex;
use thiserror::Error;

/// The one shell all `$` of a sandbox share (created on first use).
pub type SharedShell = Arc<Mutex<Option<Shell>>>;

/// A child sandbox: its seeds (parent VFS paths or inline files) and
/// whether its changes come back.
#[derive(Clone, Debug, Default)]
pub struct ChildSpec {
    pub seeds: Vec<SeedSpec>,
    pub diff: Option<DiffFormat>,
}

/// What `runScript` (or the shell's `goccia`) asks for.
#[derive(Clone, Debug)]
pub struct ScriptRequest {
    pub entry: String,
    /// `None`: shared mode, on the caller's VFS and shell.
    pub child: Option<ChildSpec>,
    /// A deadline of its own, capped by the caller's remaining time.
    pub timeout: Option<Duration>,
}

/// How a nested run ended, as `runScript` returns it.
#[derive(Clone, Debug, Default)]
pub struct ScriptResult {
    pub exit_code: i32,
    pub failure_kind: Option<FailureKind>,
    /// The failure's message, `None` on success.
    pub error: Option<String>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// The entry's default export as JSON text, when it has one.
    pub result_json: Option<String>,
    /// With a diff asked for: the diff in its format, and the change list
    /// as the JSON diff document's `changes` array.
    pub diff: Option<String>,
    pub changes_json: Option<String>,
}

impl ScriptResult {
    pub fn ok(&self) -> bool {
        self.exit_code == 0
    }

    /// A child that failed before it could run (a seed naming a missing
    /// parent path, a bad entry path).
    pub fn failed(kind: FailureKind, message: String) -> Self {
        ScriptResult {
            exit_code: kind.exit_code(),
            failure_kind: Some(kind),
            error: Some(message),
            ..ScriptResult::default()
        }
    }
}

/// Why a nested run was refused outright (the caller's error, catchable).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum NestError {
    #[error("nesting depth limit of {max} exceeded (raise it with --max-depth)")]
    Depth { max: u32 },
}

/// Runs nested scripts for the runtime at `depth`.
pub trait Nest: Send + Sync {
    /// Runs `request` below a caller whose own state is `parent`.
    fn run_script(
        &self,
        parent: &ParentState,
        request: ScriptRequest,
    ) -> Result<ScriptResult, NestError>;

    /// The shell's `goccia` builtin at this depth.
    fn launcher(&self) -> Arc<dyn goccia_shell::ScriptLauncher>;
}

/// What a nested run inherits from its caller.
#[derive(Clone)]
pub struct ParentState {
    pub vfs: goccia_vfs::SharedVfs,
    pub watch: goccia_core::Watch,
    pub budget: Arc<goccia_core::OutputBudget>,
    pub shell: SharedShell,
}
