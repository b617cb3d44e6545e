//! How a run ended: the failure kinds and exit codes of docs/limits.md.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a run failed. Each kind has one exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// The host cancelled the call (a cancel token, Ctrl-C) (130).
    Cancelled,
    /// The isolated worker running the guest died, was killed by a
    /// signal, or broke the protocol; nothing it said was trusted (70).
    IsolationCrash,
}

impl FailureKind {
    /// The process exit code of this kind (docs/limits.md).
    pub const fn exit_code(self) -> i32 {
        match self {
            FailureKind::ScriptError => 1,
            FailureKind::Usage => 2,
            FailureKind::ResourceLimit => 3,
            FailureKind::Timeout => 4,
            FailureKind::HostError => 70,
            FailureKind::Cancelled => 130,
            FailureKind::IsolationCrash => 70,
        }
    }

    /// The name in `--json`'s `failureKind` (`resource-limit`).
    pub const fn as_str(self) -> &'static str {
        match self {
            FailureKind::ScriptError => "script-error",
            FailureKind::Usage => "usage",
            FailureKind::ResourceLimit => "resource-limit",
            FailureKind::Timeout => "timeout",
            FailureKind::HostError => "host-error",
            FailureKind::Cancelled => "cancelled",
            FailureKind::IsolationCrash => "isolation-crash",
        }
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which limit a guest ran into. Every limit is a field of
/// [`Limits`](crate::Limits); [`Limits::value_of`](crate::Limits::value_of)
/// gives its configured value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitKind {
    /// The wall-clock deadline (`Limits::timeout`).
    Deadline,
    /// The QuickJS heap (`Limits::max_memory`).
    Memory,
    /// The JS stack (`Limits::stack_size`); catchable.
    Stack,
    /// Bytes of file content in the VFS (`Limits::fs_quota_bytes`).
    FsBytes,
    /// Files and directories in the VFS (`Limits::fs_node_limit`).
    FsNodes,
    /// stdout + stderr (`Limits::max_output`).
    Output,
    /// Nesting of `runScript` / `goccia` (`Limits::max_depth`); catchable.
    Depth,
    /// Simple commands per shell run (`Limits::max_commands`).
    ShellCommands,
    /// Loop iterations per shell run (`Limits::max_loop_iterations`).
    LoopIterations,
    /// Nested shell function calls (`Limits::max_function_depth`).
    FunctionDepth,
    /// Pipeline stages running at once, each a thread like a process
    /// (`Limits::max_concurrent_stages`).
    ShellStages,
    /// The size of one shell value (`Limits::max_value_bytes`).
    ShellValue,
    /// Host memory taken by the shell's work outside the QuickJS heap
    /// (`Limits::max_memory` again, as an allowance).
    HostMemory,
    /// Snapshots a sandbox holds (`Limits::max_snapshots`).
    Snapshots,
}

impl LimitKind {
    /// Every kind, for tables and tests.
    pub const ALL: [LimitKind; 14] = [
        LimitKind::Deadline,
        LimitKind::Memory,
        LimitKind::Stack,
        LimitKind::FsBytes,
        LimitKind::FsNodes,
        LimitKind::Output,
        LimitKind::Depth,
        LimitKind::ShellCommands,
        LimitKind::LoopIterations,
        LimitKind::FunctionDepth,
        LimitKind::ShellStages,
        LimitKind::ShellValue,
        LimitKind::HostMemory,
        LimitKind::Snapshots,
    ];

    /// The failure kind of a run this limit ended.
    pub const fn failure_kind(self) -> FailureKind {
        match self {
            LimitKind::Deadline => FailureKind::Timeout,
            LimitKind::Stack => FailureKind::ScriptError,
            _ => FailureKind::ResourceLimit,
        }
    }

    /// A short name for messages (`output`, `command`, `host memory`).
    pub const fn name(self) -> &'static str {
        match self {
            LimitKind::Deadline => "deadline",
            LimitKind::Memory => "memory",
            LimitKind::Stack => "stack",
            LimitKind::FsBytes => "file system quota",
            LimitKind::FsNodes => "file system node",
            LimitKind::Output => "output",
            LimitKind::Depth => "nesting depth",
            LimitKind::ShellCommands => "command",
            LimitKind::LoopIterations => "loop iteration",
            LimitKind::FunctionDepth => "function depth",
            LimitKind::ShellStages => "pipeline stage",
            LimitKind::ShellValue => "value size",
            LimitKind::HostMemory => "host memory",
            LimitKind::Snapshots => "snapshot",
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
