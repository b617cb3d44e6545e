//! Why guest work must stop now: the one vocabulary every layer uses, from
//! a shell builtin deep in a pipeline to the facade that reports the run.
//!
//! A stop is either a cancellation by the host or a limit, named by its
//! [`LimitKind`]. Lower layers only say *which* limit; [`Stop::describe`]
//! adds its configured value, and the surface (CLI, API, server) adds the
//! advice on how to raise it (see [`Advice`](crate::Advice)).
//!
//! Inside the shell a stop travels through `std::io::Error`s (a command
//! that writes to a full output budget gets an I/O error):
//! [`Stop::into_io`] and [`Stop::in_io`] carry it there and back without
//! losing the kind.

use std::fmt;
use std::io;

use crate::limits::Limits;
use crate::outcome::{FailureKind, LimitKind};

/// Why guest work must stop now. Uncatchable by the guest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Stop {
    /// The host cancelled the work (Ctrl-C, an embedder's cancel token).
    Cancelled,
    /// A limit was reached: the deadline, the output cap, a shell limit,
    /// the host-memory ceiling.
    Limit(LimitKind),
}

impl Stop {
    /// The deadline passed.
    pub const DEADLINE: Stop = Stop::Limit(LimitKind::Deadline);

    /// The failure kind of a run this stop ended (docs/limits.md).
    pub const fn failure_kind(self) -> FailureKind {
        match self {
            // A cancelled run is not the guest's fault, but it is not a
            // limit either: the CLI reports it as exit 130 (SIGINT).
            Stop::Cancelled => FailureKind::Cancelled,
            Stop::Limit(kind) => kind.failure_kind(),
        }
    }

    /// The limit this stop names, if it is one.
    pub const fn limit(self) -> Option<LimitKind> {
        match self {
            Stop::Cancelled => None,
            Stop::Limit(kind) => Some(kind),
        }
    }

    /// What stopped the work, with the limit's configured value
    /// (`the run's deadline of 200 ms passed`, `command limit of 10 exceeded`).
    /// No advice: the surface adds how to raise it.
    pub fn describe(self, limits: &Limits) -> String {
        let kind = match self {
            Stop::Cancelled => return "cancelled".to_string(),
            Stop::Limit(kind) => kind,
        };
        let value = limits.value_of(kind);
        match kind {
            LimitKind::Deadline => format!("the run's deadline of {value} ms passed"),
            LimitKind::Output => format!("output limit exceeded: more than {value} bytes"),
            LimitKind::Memory => format!("memory limit of {value} bytes exceeded"),
            LimitKind::Stack => format!("stack limit of {value} bytes exceeded"),
            LimitKind::FsBytes => format!("file system quota of {value} bytes exceeded"),
            LimitKind::FsNodes => format!("file system limit of {value} files exceeded"),
            LimitKind::Depth => format!("nesting depth limit of {value} exceeded"),
            LimitKind::ShellCommands => format!("command limit of {value} exceeded"),
            LimitKind::LoopIterations => format!("loop iteration limit of {value} exceeded"),
            LimitKind::FunctionDepth => {
                format!("maximum function nesting level exceeded ({value})")
            }
            LimitKind::ShellStages => {
                format!("more than {value} pipeline stages running at once")
            }
            LimitKind::ShellValue => format!(
                "a value (a variable, or the words of one brace expansion) would take more than {value} bytes (the shell's limit on one value)"
            ),
            LimitKind::HostMemory => format!(
                "the shell's work took more than {value} bytes of host memory besides the files it wrote"
            ),
            LimitKind::Snapshots => format!("snapshot limit of {value} exceeded"),
        }
    }

    /// As an I/O error, for code that reports through `io::Result`.
    pub fn into_io(self) -> io::Error {
        io::Error::other(self)
    }

    /// The stop carried by `error`, if it carries one.
    pub fn in_io(error: &io::Error) -> Option<Stop> {
        error.get_ref()?.downcast_ref::<Stop>().copied()
    }
}

/// Short, value-free text (`deadline passed`), for logs and I/O errors.
impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Cancelled => f.write_str("cancelled"),
            Stop::Limit(LimitKind::Deadline) => f.write_str("deadline passed"),
            Stop::Limit(kind) => write!(f, "{} limit exceeded", kind.name()),
        }
    }
}

impl std::error::Error for Stop {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_survives_the_trip_through_an_io_error() {
        let error = Stop::Limit(LimitKind::Output).into_io();
        assert_eq!(Stop::in_io(&error), Some(Stop::Limit(LimitKind::Output)));
        assert_eq!(Stop::in_io(&io::Error::other("other")), None);
    }

    #[test]
    fn descriptions_name_the_value_and_no_option() {
        let limits = Limits::default().max_depth(3);
        let text = Stop::Limit(LimitKind::Depth).describe(&limits);
        assert_eq!(text, "nesting depth limit of 3 exceeded");
        assert_eq!(
            Stop::DEADLINE.describe(&Limits::default()),
            "the run's deadline of 30000 ms passed"
        );
        for kind in LimitKind::ALL {
            let text = Stop::Limit(kind).describe(&limits);
            assert!(!text.contains("--"), "{text}");
        }
    }

    #[test]
    fn failure_kinds_follow_the_limit() {
        assert_eq!(Stop::DEADLINE.failure_kind(), FailureKind::Timeout);
        assert_eq!(
            Stop::Limit(LimitKind::ShellCommands).failure_kind(),
            FailureKind::ResourceLimit
        );
        assert_eq!(Stop::Cancelled.failure_kind(), FailureKind::Cancelled);
    }
}
