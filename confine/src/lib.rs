//! Confining the current process before it reads untrusted input
//! (docs/isolation.md): the layers an isolated goccia worker puts between guest
//! code and the host, each applied and then checked by what it should
//! now refuse, with a report of which held.
//!
//! - [`report`]: the layers, what became of each, and the verdict
//!   (`full`, `partial`, or unavailable and why).
//! - [`apply`](mod@apply): applying them in order to the calling process
//!   (which must still be single-threaded): namespaces, rlimits,
//!   `no_new_privs`, Landlock, seccomp.
//! - [`syscalls`]: the seccomp allow-list — what the runtime needs on
//!   descriptors it already holds, and nothing that opens, connects,
//!   executes or creates a process.
//! - [`check`]: the functional checks run after each layer.
//! - [`descriptors`]: starting a child with only the descriptors it is
//!   meant to have (none of goccia's own, whoever opened them).
//!
//! Lower layers say what happened; the surface words the advice. Off
//! Linux every layer is unavailable, so confinement fails closed.

#![warn(missing_docs)]

pub mod apply;
pub mod check;
pub mod descriptors;
pub mod report;
pub mod syscalls;

pub use apply::{Plan, confine_current_process};
pub use report::{Enforcement, Layer, LayerStatus, Report};
