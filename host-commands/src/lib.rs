//! Host commands under confinement (docs/host-commands.md): the real programs the
//! host named (`git`, `python3`, `node`, ...), run by bubblewrap over a
//! copy of the sandbox's VFS materialized on the host, with what they
//! change read back into the VFS like any write — so it shows in the diff,
//! counts against the quotas, and reaches the host only by write-back.
//!
//! - [`programs`]: which programs, found where (the system directories).
//! - [`probe`]: bubblewrap found and working, and what it enforces;
//!   probed once and cached, fail-closed.
//! - [`scratch`]: the VFS on the host, kept in step, read back (what to
//!   read back named by [`watch`], the kernel's events).
//! - [`jail`]: bubblewrap's command line for the policy in force.
//! - [`spawn`]: running it: limits, the shell's descriptors, the deadline.
//! - [`inside`]: the launcher inside the jail that adds Landlock.
//! - [`runner`]: [`HostRunner`], the shell's host commands.

#![warn(missing_docs)]

pub mod inside;
pub mod jail;
pub mod probe;
pub mod programs;
pub mod runner;
pub mod scratch;
pub mod spawn;
pub mod watch;

pub use inside::run_inside_if_requested;
pub use probe::Backend;
pub use programs::{Program, ProgramError};
pub use runner::{HostRunner, HostSettings};
pub use scratch::remove_all_scratch;
