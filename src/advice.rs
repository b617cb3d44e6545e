//! The library's own words for raising a limit: the builder method that
//! sets it. Surfaces with options of their own install theirs with
//! [`SandboxBuilder::advice`](crate::SandboxBuilder::advice).

use goccia_core::{Advice, LimitKind, Setting};

/// `raise it with Limits::timeout`, and so on for every setting.
pub(crate) fn library() -> Advice {
    Advice::new(|setting| {
        let text = match setting {
            Setting::Limit(kind) => format!("raise it with Limits::{}", limit_method(kind)),
            Setting::FetchMaxBytes => "raise it with NetPolicyBuilder::max_body_bytes".into(),
            Setting::AllowHost => "allow it with NetPolicyBuilder::allow".into(),
            Setting::DenyPrivateRanges => "the network policy refuses private ranges".into(),
        };
        Some(text)
    })
}

/// The [`Limits`](crate::Limits) builder method of each limit.
fn limit_method(kind: LimitKind) -> &'static str {
    match kind {
        LimitKind::Deadline => "timeout",
        LimitKind::Memory | LimitKind::HostMemory => "max_memory",
        LimitKind::Stack => "stack_size",
        LimitKind::FsBytes => "fs_quota_bytes",
        LimitKind::FsNodes => "fs_node_limit",
        LimitKind::Output => "max_output",
        LimitKind::Depth => "max_depth",
        LimitKind::ShellCommands => "max_commands",
        LimitKind::LoopIterations => "max_loop_iterations",
        LimitKind::FunctionDepth => "max_function_depth",
        LimitKind::ShellStages => "max_concurrent_stages",
        LimitKind::ShellValue => "max_value_bytes",
        LimitKind::Snapshots => "max_snapshots",
    }
}
