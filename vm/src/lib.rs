//! goccia's QuickJS runner.
//!
//! - [`runner`]: one entry module on a fresh runtime and thread, with the
//!   limits of [`goccia_core::Limits`] and an event loop over virtual time.
//! - [`loader`]: module resolution and loading over the VFS only.
//! - [`failure`]: classifying and describing how a run failed.
//! - `nested`, `launcher`: `runScript` and the shell's `goccia` builtin,
//!   shared or in child sandboxes ([`Nester`], [`Launcher`]).

mod bytecode;
mod engine;
pub mod failure;
mod launcher;
pub mod loader;
mod nested;
pub mod runner;

pub use bytecode::{ExecMode, cache_stats};
pub use engine::Engine;
pub use failure::Failure;
pub use launcher::Launcher;
pub use nested::{ChildSeedError, Nester, seed_child};
pub use runner::{RunOutcome, RunRequest, run};
