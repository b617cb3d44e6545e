//! Token grants (contract §15): a session's token is `gst_` + 32 random
//! bytes (URL-safe base64), shown once and stored only as its blake3 hash,
//! with a non-empty set of capabilities and an expiry on the server's
//! clock. Every request is resolved against the store, each time.

use std::fmt;

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::store::{Store, StoreError};

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
}

impl Capability {
    /// Every capability.
    pub const ALL: [Capability; 7] = [
        Capability::Read,
        Capability::Write,
        Capability::Run,
        Capability::Shell,
        Capability::Diff,
        Capability::Submit,
        Capability::Child,
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

/// Resolves `token` for a request on `sandbox_id` needing `capability`
/// (`None`: any live grant of the session), reading the store now.
pub async fn resolve(
    store: &dyn Store,
    now: u64,
    token: Option<&str>,
    sandbox_id: &str,
    capability: Option<Capability>,
) -> Result<Result<Grant, Refusal>, StoreError> {
    let Some(token) = token.filter(|token| token.starts_with("gst_")) else {
        return Ok(Err(Refusal::Invalid));
    };
    let Some(grant) = store.grant_by_hash(&token_hash(token)).await? else {
        return Ok(Err(Refusal::Invalid));
    };
    Ok(if grant.revoked {
        Err(Refusal::Revoked)
    } else if now >= grant.expires_at {
        Err(Refusal::Expired(crate::clock::rfc3339(grant.expires_at)))
    } else if grant.sandbox_id != sandbox_id {
        Err(Refusal::WrongSandbox)
    } else if let Some(missing) = capability.filter(|c| !grant.capabilities.contains(c)) {
        Err(Refusal::CapabilityDenied(missing))
    } else {
        Ok(grant)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    async fn grant(store: &MemoryStore, sandbox: &str, capabilities: &[Capability]) -> String {
        let token = mint_token();
        store
            .insert_grant(&Grant {
                sandbox_id: sandbox.into(),
                token_hash: token_hash(&token),
                capabilities: capabilities.to_vec(),
                expires_at: 100,
                revoked: false,
                owner: None,
            })
            .await
            .unwrap();
        token
    }

    #[test]
    fn tokens_are_random_url_safe_and_stored_only_as_hashes() {
        let (a, b) = (mint_token(), mint_token());
        assert_ne!(a, b);
        assert!(a.starts_with("gst_") && a.len() == 4 + 43, "{a}");
        assert!(
            a[4..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
    }

    #[tokio::test]
    async fn every_refusal_has_its_code() {
        let store = MemoryStore::default();
        let token = grant(&store, "s1", &[Capability::Read]).await;
        let other = grant(&store, "s2", &Capability::ALL).await;
        let check = async |token: Option<&str>, now, capability| {
            resolve(&store, now, token, "s1", capability)
                .await
                .unwrap()
                .map(|_| ())
                .map_err(|refusal| refusal.code())
        };
        assert_eq!(
            check(Some(&token), 50, Some(Capability::Read)).await,
            Ok(())
        );
        assert_eq!(check(None, 50, None).await, Err("TOKEN_INVALID"));
        assert_eq!(
            check(Some("gst_forged"), 50, None).await,
            Err("TOKEN_INVALID")
        );
        assert_eq!(check(Some(&token), 100, None).await, Err("TOKEN_EXPIRED"));
        assert_eq!(check(Some(&other), 50, None).await, Err("WRONG_SANDBOX"));
        assert_eq!(
            check(Some(&token), 50, Some(Capability::Write)).await,
            Err("CAPABILITY_DENIED")
        );
        store.revoke("s1").await.unwrap();
        assert_eq!(check(Some(&token), 50, None).await, Err("TOKEN_REVOKED"));
    }
}
