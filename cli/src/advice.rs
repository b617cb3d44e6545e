//! The command line's words: the spec's settings named as flags.

use goccia::{Advice, LimitKind, SkipReason, Spelling};

/// `raise it with --timeout`, and so on for every setting.
pub fn flags() -> Advice {
    goccia::spec::advice_for(Spelling::Flag)
}

/// ` (set it with --stack-size)`: for a limit given out of its range.
pub fn set_limit(kind: LimitKind) -> String {
    let json = goccia::spec::limits::json_name_of(kind);
    format!(
        " (set it with {})",
        goccia::spec::setting_name(&format!("limits.{json}"), Spelling::Flag)
    )
}

/// A write-back skip reason in the command line's words.
pub fn skip_reason(reason: &SkipReason) -> String {
    match reason {
        SkipReason::NotMapped => "not under a --copy-rw mapping".to_string(),
        other => other.to_string(),
    }
}
