//! goccia's QuickJS runner.
//!
//! - [`runner`]: one entry module on a fresh runtime and thread, with the
//!   limits of [`goccia_core::Limits`] and an event loop over virtual time.
//! - [`loader`]: module resolution and loading over the VFS only.
//! - [`failure`]: classifying and describing how a run failed.

pub mod failure;
mod goccia_module;
pub mod loader;
pub mod runner;

pub use failure::Failure;
pub use runner::{RunOutcome, RunRequest, run};
