//! Resolving a request's token against the store, each time (docs/server.md):
//! nothing about a grant's validity is cached, so a revocation or a
//! renewal made through any server sharing the store is seen on the next
//! request.

use crate::grants::{Capability, Grant, Refusal, token_hash};
use crate::store::{Store, StoreError};

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
    use crate::grants::mint_token;
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
