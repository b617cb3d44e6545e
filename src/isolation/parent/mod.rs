//! The parent's half of process isolation: starting a worker, talking to
//! it, and turning what it answers into the same values an in-process call
//! gives. Nothing here runs in the worker.
//!
//! - `link`: one worker, spawned, checked, and called.
//! - `spawn`: starting the worker process (`posix_spawn`).
//! - `pipes`: the threads behind the worker's three pipes.
//! - `remote`: sandbox calls and shell sessions through a link.

pub(crate) mod link;
mod pipes;
pub(crate) mod remote;
mod spawn;
