//! A session's persisted snapshots: each is a saved snapshot of the
//! store's snapshot store (docs/snapshots.md) — the same blobs, the same
//! saving code as an embedder's `save` — and the store records which
//! saved snapshot each of the session's numbers is. The snapshot store's
//! client blocks, so saving and loading run on blocking threads.

use std::sync::Arc;

use goccia::store::{SavedId, SnapshotStore};
use goccia::{Sandbox, SnapshotId};

use super::{SnapshotRecord, Store, StoreError};

fn failed(store: &dyn Store, reason: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable {
        store: store.describe(),
        reason: reason.to_string(),
    }
}

/// Saves `snapshot` of `sandbox` as number `number` of `sandbox_id`, when
/// the store persists snapshots; its saved id.
pub async fn persist(
    store: &dyn Store,
    sandbox_id: &str,
    number: u64,
    sandbox: Arc<Sandbox>,
    snapshot: SnapshotId,
) -> Result<Option<SavedId>, StoreError> {
    let Some(saved_store) = store.snapshot_store() else {
        return Ok(None);
    };
    let saved = tokio::task::spawn_blocking(move || sandbox.save(saved_store.as_ref(), snapshot))
        .await
        .map_err(|error| failed(store, error))?
        .map_err(|error| failed(store, error))?;
    let record = SnapshotRecord {
        number,
        saved: saved.to_string(),
    };
    store.put_snapshot(sandbox_id, &record).await?;
    Ok(Some(saved))
}

/// Number `number` of `sandbox_id` (its latest for `None`) and the saved
/// snapshot that holds it, with the store to load it from; `None` if
/// there is none.
pub async fn find(
    store: &dyn Store,
    sandbox_id: &str,
    number: Option<u64>,
) -> Result<Option<(u64, SavedId, Arc<dyn SnapshotStore>)>, StoreError> {
    let Some(saved_store) = store.snapshot_store() else {
        return Ok(None);
    };
    let Some(record) = store.snapshot(sandbox_id, number).await? else {
        return Ok(None);
    };
    let saved = record.saved.parse().map_err(|error| StoreError::Corrupt {
        store: store.describe(),
        reason: format!("snapshot {} of `{sandbox_id}`: {error}", record.number),
    })?;
    Ok(Some((record.number, saved, saved_store)))
}
