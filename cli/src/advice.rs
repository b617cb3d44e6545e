//! The command line's words: the spec's settings named as flags.

use goccia::{Advice, SkipReason, Spelling};

/// `raise it with --timeout`, and so on for every setting.
pub fn flags() -> Advice {
    goccia::spec::advice_for(Spelling::Flag)
}

/// MCP's words: the server's settings are its flags, but a call's own
/// deadline is the tool's `timeoutMs` argument, which the model can change.
pub fn for_mcp() -> Advice {
    let flags = flags();
    let json = goccia::spec::advice_for(Spelling::Json);
    Advice::new(move |setting| match setting {
        goccia::Setting::CallTimeout => json.text(setting),
        other => flags.text(other),
    })
}

/// A write-back skip reason in the command line's words.
pub fn skip_reason(reason: &SkipReason) -> String {
    match reason {
        SkipReason::NotMapped => "not under a --copy-rw mapping".to_string(),
        other => other.to_string(),
    }
}
