//! How a run ended: the failure kinds and exit codes of contract §4.

use std::fmt;

use serde::Serialize;

/// Why a run failed. Each kind has one exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// Uncaught error, syntax error, missing entry, refused write-back (1).
    ScriptError,
    /// Bad option, bad seed, bad seed config; nothing ran (2).
    Usage,
    /// Memory, fs quota, output cap, nesting depth (3).
    ResourceLimit,
    /// The deadline passed (4).
    Timeout,
    /// An internal fault, never caused by guest input (70).
    HostError,
}

impl FailureKind {
    pub const fn exit_code(self) -> i32 {
        match self {
            FailureKind::ScriptError => 1,
            FailureKind::Usage => 2,
            FailureKind::ResourceLimit => 3,
            FailureKind::Timeout => 4,
            FailureKind::HostError => 70,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            FailureKind::ScriptError => "script-error",
            FailureKind::Usage => "usage",
            FailureKind::ResourceLimit => "resource-limit",
            FailureKind::Timeout => "timeout",
            FailureKind::HostError => "host-error",
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which limit a guest ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitKind {
    Deadline,
    Memory,
    Stack,
    FsBytes,
    FsNodes,
    Output,
    Depth,
    ShellCommands,
    LoopIterations,
    FunctionDepth,
    /// Pipeline stages running at once (each is a thread, like a process).
    ShellStages,
    /// The size of one shell variable's value.
    ShellValue,
    /// Host memory taken by the shell's work (outside the QuickJS heap).
    HostMemory,
}

impl LimitKind {
    pub const fn failure_kind(self) -> FailureKind {
        match self {
            LimitKind::Deadline => FailureKind::Timeout,
            LimitKind::Stack => FailureKind::ScriptError,
            _ => FailureKind::ResourceLimit,
        }
    }

    /// The option that raises this limit, for error messages.
    pub const fn option(self) -> &'static str {
        match self {
            LimitKind::Deadline => "--timeout",
            LimitKind::Memory => "--max-memory",
            LimitKind::Stack => "--stack-size",
            LimitKind::FsBytes => "--fs-quota-bytes",
            LimitKind::FsNodes => "--fs-node-limit",
            LimitKind::Output => "--max-output",
            LimitKind::Depth => "--max-depth",
            LimitKind::ShellCommands => "the shell command limit",
            LimitKind::LoopIterations => "the shell loop iteration limit",
            LimitKind::FunctionDepth => "the shell function depth limit",
            LimitKind::ShellStages => "the shell's limit on pipeline stages running at once",
            LimitKind::ShellValue => "the shell's limit on the size of a variable",
            LimitKind::HostMemory => "--max-memory",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_contract() {
        assert_eq!(FailureKind::ScriptError.exit_code(), 1);
        assert_eq!(FailureKind::Usage.exit_code(), 2);
        assert_eq!(FailureKind::ResourceLimit.exit_code(), 3);
        assert_eq!(FailureKind::Timeout.exit_code(), 4);
        assert_eq!(FailureKind::HostError.exit_code(), 70);
        assert_eq!(LimitKind::Output.failure_kind(), FailureKind::ResourceLimit);
        assert_eq!(LimitKind::Deadline.failure_kind(), FailureKind::Timeout);
    }
}
