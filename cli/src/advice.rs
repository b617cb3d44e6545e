//! The command line's words: the spec's settings named as flags.

use goccia::{Advice, SkipReason, Spelling};

/// `raise it with --timeout`, and so on for every setting.
pub fn flags() -> Advice {
    goccia::spec::advice_for(Spelling::Flag)
}

/// A write-back skip reason in the command line's words.
pub fn skip_reason(reason: &SkipReason) -> String {
    match reason {
        SkipReason::NotMapped => "not under a --copy-rw mapping".to_string(),
        other => other.to_string(),
    }
}
