//! goccia's QuickJS runner.
//!
//! - [`runner`]: one entry module on a fresh runtime and thread, with the
//!   limits of [`goccia_core::Limits`] and an event loop over virtual time.
//! - `js_thread`: answering before freeing a run's heap
//!   ([`wait_for_teardowns`]).
//! - [`loader`]: module resolution and loading over the VFS only.
//! - [`failure`]: classifying and describing how a run failed.
//! - `nested`, `launcher`: `runScript` and the shell's `goccia` builtin,
//!   shared or in child sandboxes, through one [`Nester`] and one depth
//!   check.
//! - `engine`: what a run and every run it nests share ([`Engine`]).
//! - `bytecode`: `--mode bytecode` and its cache ([`ExecMode`]).
//! - `spare`: the next top-level run's context, made between runs
//!   ([`spares_served`]).

#![warn(missing_docs)]

mod bytecode;
mod commonjs;
mod engine;
pub mod failure;
pub mod heap;
mod js_thread;
mod launcher;
pub mod loader;
mod nested;
pub mod runner;
mod spare;

pub use bytecode::{ExecMode, cache_stats};
pub use engine::Engine;
pub use failure::Failure;
pub use goccia_js_api::HostPrograms;
pub use heap::HeapBudget;
pub use js_thread::wait_for_teardowns;
pub use nested::Nester;
pub use runner::{RunOutcome, RunRequest, run};
pub use spare::spares_served;

/// `fetch` as the host performs it (docs/limits.md), and the relay through
/// which an isolated worker asks its parent to.
pub mod fetch {
    pub use goccia_js_api::fetch::{
        FetchContext, FetchError, FetchRelay, FetchRequest, FetchResponse, Relay, ShellNetwork,
        Url, fetch,
    };
}
