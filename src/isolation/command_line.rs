//! How a worker is started: the argument that makes a goccia binary one,
//! and the address-space limit it is given (the parent computes it, the
//! worker applies it before reading anything).

use goccia_core::Limits;

/// The argument that makes a goccia binary a worker.
pub const WORKER_ARG: &str = "__goccia-worker";

/// The limits a worker for `limits` runs under: its address space is the
/// memory limit plus what its threads reserve for their stacks (virtual,
/// mostly untouched) plus a margin for the runtime itself.
pub(crate) fn address_space(limits: &Limits) -> u64 {
    const SHELL_THREADS: u64 = 256 << 20;
    const STAGE: u64 = 64 << 20;
    const RUNTIME: u64 = 1 << 30;
    let stages = limits.max_concurrent_stages as u64 * STAGE;
    let jq = limits.max_memory.clamp(64 << 20, 1 << 30);
    let scripts = (u64::from(limits.max_depth) + 2) * (limits.stack_size + (8 << 20));
    limits
        .max_memory
        .saturating_add(SHELL_THREADS * 2)
        .saturating_add(stages)
        .saturating_add(jq)
        .saturating_add(scripts)
        .saturating_add(RUNTIME)
}
