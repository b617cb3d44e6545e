//! Shared vocabulary of the goccia sandbox layers.
//!
//! Every layer that lets a guest spend something (time, output, memory,
//! nesting) takes its limits from here, so that a JS program, a shell
//! command run through `$` and a child sandbox all draw from the same
//! budgets.
//!
//! - [`limits`]: the configured limits, their documented defaults and the
//!   `k`/`m`/`g` size syntax.
//! - [`stop`]: why guest work must stop now (a cancellation or a limit):
//!   the one vocabulary from the shell to the facade.
//! - [`advice`]: the words a surface (CLI, API, server) gives for raising
//!   a limit or changing a setting; lower layers never name options.
//! - [`watch`]: the deadline and cancellation a running guest is checked
//!   against at every host call.
//! - [`output`]: stdout/stderr sinks with the shared `--max-output` budget.
//! - [`outcome`]: failure kinds and the exit codes of docs/limits.md.
//! - [`net`]: the network policy the gateway holds every way out to, and
//!   the secrets it sets on the way (docs/network.md).
//! - [`audit`]: the trail of security-relevant decisions (`--audit-log`).
//! - [`host_memory`]: a counting global allocator and the ceiling the shell
//!   holds its work to.
//! - [`names`]: settings whose values are names, read alike on every
//!   surface.

#![warn(missing_docs)]

pub mod advice;
pub mod audit;
pub mod deadline;
pub mod host_memory;
pub mod limits;
pub mod names;
pub mod net;
pub mod outcome;
pub mod output;
pub mod stop;

pub use advice::{Advice, Setting};
pub use audit::{Audit, AuditEvent};
pub use deadline::{CancelToken, DeadlineSource, Watch};
pub use limits::{Limits, LimitsError, Overflow, ParseSizeError, parse_size};
pub use names::{Named, UnknownName};
pub use net::{AllowedHost, NetPolicy, Secret, SecretHeader, Secrets};
pub use outcome::{FailureKind, LimitKind};
pub use output::{Capture, Output, OutputBudget, Stream};
pub use stop::Stop;
