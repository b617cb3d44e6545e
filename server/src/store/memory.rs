//! The default store: grants and session specs in memory, gone with the
//! process; change logs in each workspace's `.goccia/changes.jsonl`;
//! snapshots are not persisted (they live in the session).

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use parking_lot::Mutex;

use super::{Fence, SessionRecord, SnapshotRecord, Store, StoreError, local_lock};
use crate::grants::Grant;
use crate::provenance::{self, ChangeLog, ChangeRecord};
use crate::workspace::{Workspace, WorkspaceLock};

/// Grants and sessions in memory.
#[derive(Default)]
pub struct MemoryStore {
    grants: Mutex<HashMap<String, Grant>>,
    sessions: Mutex<HashMap<String, SessionRecord>>,
}

fn failed(reason: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable {
        store: "memory".to_string(),
        reason: reason.to_string(),
    }
}

/// The flock, and the workspace's log file.
struct FileFence {
    _lock: WorkspaceLock,
    workspace: Arc<Workspace>,
}

#[async_trait]
impl Fence for FileFence {
    async fn append_change(&mut self, record: &ChangeRecord) -> Result<(), StoreError> {
        provenance::append_line(&provenance::log_file(&self.workspace.dir), record).map_err(failed)
    }

    async fn release(self: Box<Self>) -> Result<(), StoreError> {
        Ok(())
    }
}

#[async_trait]
impl Store for MemoryStore {
    fn describe(&self) -> String {
        "memory".to_string()
    }

    fn schema_version(&self) -> Option<u32> {
        None
    }

    fn shared(&self) -> bool {
        false
    }

    fn snapshot_store(&self) -> Option<Arc<dyn goccia::store::SnapshotStore>> {
        None
    }

    async fn insert_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        self.grants
            .lock()
            .insert(grant.token_hash.clone(), grant.clone());
        Ok(())
    }

    async fn grant_by_hash(&self, token_hash: &str) -> Result<Option<Grant>, StoreError> {
        Ok(self.grants.lock().get(token_hash).cloned())
    }

    async fn live_grant(&self, sandbox_id: &str) -> Result<Option<Grant>, StoreError> {
        Ok(self
            .grants
            .lock()
            .values()
            .find(|grant| grant.sandbox_id == sandbox_id && !grant.revoked)
            .cloned())
    }

    async fn set_expiry(&self, sandbox_id: &str, expires_at: u64) -> Result<(), StoreError> {
        for grant in self.grants.lock().values_mut() {
            if grant.sandbox_id == sandbox_id && !grant.revoked {
                grant.expires_at = expires_at;
            }
        }
        Ok(())
    }

    async fn revoke(&self, sandbox_id: &str) -> Result<(), StoreError> {
        for grant in self.grants.lock().values_mut() {
            if grant.sandbox_id == sandbox_id {
                grant.revoked = true;
            }
        }
        Ok(())
    }

    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        self.sessions
            .lock()
            .insert(session.sandbox_id.clone(), session.clone());
        Ok(())
    }

    async fn session(&self, sandbox_id: &str) -> Result<Option<SessionRecord>, StoreError> {
        Ok(self.sessions.lock().get(sandbox_id).cloned())
    }

    async fn set_owner(&self, sandbox_id: &str, owner: &str) -> Result<(), StoreError> {
        if let Some(session) = self.sessions.lock().get_mut(sandbox_id) {
            session.owner = owner.to_string();
        }
        Ok(())
    }

    async fn drop_session(&self, sandbox_id: &str) -> Result<(), StoreError> {
        self.sessions.lock().remove(sandbox_id);
        Ok(())
    }

    async fn put_snapshot(&self, _: &str, _: &SnapshotRecord) -> Result<(), StoreError> {
        Ok(())
    }

    async fn snapshot(
        &self,
        _: &str,
        _: Option<u64>,
    ) -> Result<Option<SnapshotRecord>, StoreError> {
        Ok(None)
    }

    async fn fence(&self, workspace: &Arc<Workspace>) -> Result<Box<dyn Fence>, StoreError> {
        let lock = local_lock("memory", workspace).await?;
        Ok(Box::new(FileFence {
            _lock: lock,
            workspace: workspace.clone(),
        }))
    }

    async fn changes(&self, workspace: &Workspace) -> Result<ChangeLog, StoreError> {
        provenance::read_lines(&provenance::log_file(&workspace.dir)).map_err(failed)
    }
}
