//! The command line's words for raising a limit: its flags.

use goccia::{Advice, LimitKind, Setting, SkipReason};

/// `raise it with --timeout`, and so on; the shell's own limits have no
/// flag, so their messages say only what was hit.
pub fn flags() -> Advice {
    Advice::new(|setting| {
        let text = match setting {
            Setting::Limit(kind) => format!("raise it with {}", limit_flag(kind)?),
            Setting::FetchMaxBytes => "raise it with --fetch-max-bytes".to_string(),
            Setting::AllowHost => "allow it with --allow-host".to_string(),
            Setting::DenyPrivateRanges => "--deny-private-ranges".to_string(),
        };
        Some(text)
    })
}

/// ` (set it with --stack-size)`: for a limit given out of its range.
pub fn set_limit(kind: LimitKind) -> String {
    limit_flag(kind)
        .map(|flag| format!(" (set it with {flag})"))
        .unwrap_or_default()
}

fn limit_flag(kind: LimitKind) -> Option<&'static str> {
    Some(match kind {
        LimitKind::Deadline => "--timeout",
        LimitKind::Memory | LimitKind::HostMemory => "--max-memory",
        LimitKind::Stack => "--stack-size",
        LimitKind::FsBytes => "--fs-quota-bytes",
        LimitKind::FsNodes => "--fs-node-limit",
        LimitKind::Output => "--max-output",
        LimitKind::Depth => "--max-depth",
        LimitKind::Snapshots => "--max-snapshots",
        LimitKind::ShellCommands
        | LimitKind::LoopIterations
        | LimitKind::FunctionDepth
        | LimitKind::ShellStages
        | LimitKind::ShellValue => return None,
    })
}

/// A write-back skip reason in the command line's words.
pub fn skip_reason(reason: &SkipReason) -> String {
    match reason {
        SkipReason::NotMapped => "not under a --copy-rw mapping".to_string(),
        other => other.to_string(),
    }
}
