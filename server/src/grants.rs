//! Token grants (docs/server.md): a session's token is `gst_` + 32 random
//! bytes (URL-safe base64), shown once and stored only as its blake3 hash,
//! with a non-empty set of capabilities and an expiry on the server's
//! clock. Every request is resolved against the store, each time.

use std::fmt;

use base64::Engine;
use serde::{Deserialize, Serialize};

/// What a token may do in its session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Capability {
    /// Read files and snapshot.
    Read,
    /// Write and delete files, restore snapshots.
    Write,
    /// Run JS (`POST .../run`).
    Run,
    /// Run shell command lines (`POST .../shell`).
    Shell,
    /// Read the diff.
    Diff,
    /// Submit the session's changes to the workspace.
    Submit,
    /// Nest: `runScript` and the shell's `goccia` inside runs.
    Child,
    /// Fork the session into new sessions with capabilities of its own
    /// (`POST .../fork`, docs/server.md).
    Fork,
}

impl Capability {
    /// Every capability.
    pub const ALL: [Capability; 8] = [
        Capability::Read,
        Capability::Write,
        Capability::Run,
        Capability::Shell,
        Capability::Diff,
        Capability::Submit,
        Capability::Child,
        Capability::Fork,
    ];

    /// Its name in requests.
    pub const fn as_str(self) -> &'static str {
        match self {
            Capability::Read => "read",
            Capability::Write => "write",
            Capability::Run => "run",
            Capability::Shell => "shell",
            Capability::Diff => "diff",
            Capability::Submit => "submit",
            Capability::Child => "child",
            Capability::Fork => "fork",
        }
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The shortest and longest TTL a grant may have, and the default.
pub const MIN_TTL: u64 = 1;
/// 30 days.
pub const MAX_TTL: u64 = 30 * 86_400;
/// Two hours.
pub const DEFAULT_TTL: u64 = 7_200;

/// A fresh token: `gst_` and 32 random bytes as URL-safe base64.
pub fn mint_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    format!(
        "gst_{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    )
}

/// A fresh admin token: `gat_` and 32 random bytes as URL-safe base64 (a
/// prefix of its own, so a log or a leak tells the two kinds apart).
pub fn mint_admin_token() -> String {
    let session = mint_token();
    format!("gat_{}", &session["gst_".len()..])
}

/// What the store keeps of a token: its blake3 hash, hex.
pub fn token_hash(token: &str) -> String {
    blake3::hash(token.as_bytes()).to_hex().to_string()
}

/// One session's grant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// The session it opens.
    pub sandbox_id: String,
    /// The token's blake3 hash (the token itself is never kept).
    pub token_hash: String,
    /// What it allows, sorted.
    pub capabilities: Vec<Capability>,
    /// Seconds since the epoch when it stops working.
    pub expires_at: u64,
    /// Closed: never works again.
    pub revoked: bool,
    /// The server holding the session now, read with the grant from a
    /// store shared by several servers (`None` for a store of one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// Why a request's token does not let it through.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No token, or one the store does not know.
    #[error("the token is not one this server issued")]
    Invalid,
    /// Past its expiry.
    #[error("the token expired at {0}")]
    Expired(String),
    /// Its session was closed.
    #[error("the token was revoked when its sandbox was closed")]
    Revoked,
    /// A live token of another session.
    #[error("the token belongs to another sandbox")]
    WrongSandbox,
    /// The grant lacks what the request needs.
    #[error("the token lacks the `{0}` capability")]
    CapabilityDenied(Capability),
}

impl Refusal {
    /// The error code the API answers with.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Invalid => "TOKEN_INVALID",
            Refusal::Expired(_) => "TOKEN_EXPIRED",
            Refusal::Revoked => "TOKEN_REVOKED",
            Refusal::WrongSandbox => "WRONG_SANDBOX",
            Refusal::CapabilityDenied(_) => "CAPABILITY_DENIED",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_url_safe_and_stored_only_as_hashes() {
        let (a, b) = (mint_token(), mint_token());
        assert_ne!(a, b);
        assert!(a.starts_with("gst_") && a.len() == 4 + 43, "{a}");
        let admin = mint_admin_token();
        assert!(
            admin.starts_with("gat_") && admin.len() == 4 + 43,
            "{admin}"
        );
        assert!(
            a[4..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
    }
}
