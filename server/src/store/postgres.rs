//! `--store postgres://...` (docs/server.md): one PostgreSQL database shared
//! by several servers. Grants are rows read on every request (validity is
//! never cached); a workspace's submit fence is a session-level advisory
//! lock on a connection of its own, so a server that dies lets it go with
//! its connection; snapshots are manifests and contents in a
//! content-addressed `bytea` table. The schema is versioned
//! (`goccia_schema`) and migrated at start-up under an advisory lock, so
//! servers starting together migrate once.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use super::{Fence, SessionRecord, SnapshotRecord, Store, StoreError, redact};
use crate::grants::{Capability, Grant};
use crate::provenance::{ChangeLog, ChangeRecord};
use crate::workspace::Workspace;

/// The schema this build writes.
pub const SCHEMA_VERSION: u32 = 2;

/// Each migration brings the database from the version before it to its
/// own, in one transaction.
const MIGRATIONS: [(u32, &str); 2] = [
    (
        1,
        "CREATE TABLE goccia_grants (
         token_hash text PRIMARY KEY,
         sandbox_id text NOT NULL,
         capabilities text NOT NULL,
         expires_at bigint NOT NULL,
         revoked boolean NOT NULL DEFAULT false
     );
     CREATE INDEX goccia_grants_by_sandbox ON goccia_grants (sandbox_id);
     CREATE TABLE goccia_sessions (
         sandbox_id text PRIMARY KEY,
         spec text NOT NULL,
         owner text NOT NULL
     );
     CREATE TABLE goccia_snapshots (
         sandbox_id text NOT NULL,
         number bigint NOT NULL,
         baseline text NOT NULL,
         changes text NOT NULL,
         PRIMARY KEY (sandbox_id, number)
     );
     CREATE TABLE IF NOT EXISTS goccia_blobs (
         hash text PRIMARY KEY,
         content bytea NOT NULL
     );
     CREATE TABLE goccia_changes (
         seq bigserial PRIMARY KEY,
         workspace text NOT NULL,
         record text NOT NULL
     );
     CREATE INDEX goccia_changes_by_workspace ON goccia_changes (workspace, seq);",
    ),
    (
        // Snapshots become the library's saved snapshots (docs/snapshots.md)
        // in this database: `saved` names one; rows of version 1 are
        // adopted at start-up (`adopt_legacy_snapshots`).
        2,
        "ALTER TABLE goccia_snapshots ADD COLUMN saved text;",
    ),
];

/// The advisory-lock key migrations run under.
const MIGRATION_KEY: i64 = 0x676f_6363_6961_0001;

/// How long a request waits for a connection, or for a new one to open,
/// before it fails with 503.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A PostgreSQL database holding the state of several servers.
pub struct PostgresStore {
    pool: Pool,
    shown: String,
    /// The saved snapshots, in the same database (a blocking client: it is
    /// called on blocking threads only).
    saved: Arc<goccia::store::PostgresStore>,
}

/// The advisory-lock key of a workspace: the first 8 bytes of a hash of
/// its name (servers name a workspace the same way).
fn workspace_key(name: &str) -> i64 {
    let hash = blake3::hash(format!("goccia-workspace:{name}").as_bytes());
    i64::from_le_bytes(hash.as_bytes()[..8].try_into().expect("8 bytes"))
}

impl PostgresStore {
    /// Connects to `url`, checks it answers, and migrates its schema.
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let shown = redact(url);
        let mut config: tokio_postgres::Config = url.parse().map_err(|error| {
            StoreError::Config(format!("{shown} is not a PostgreSQL URL: {error}"))
        })?;
        config.connect_timeout(CONNECT_TIMEOUT);
        config.application_name("goccia");
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(16)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(CONNECT_TIMEOUT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|error| StoreError::Config(format!("{shown}: {error}")))?;
        Self::migrate(&pool, &shown).await?;
        let owned = url.to_string();
        let saved =
            tokio::task::spawn_blocking(move || goccia::store::PostgresStore::connect(&owned))
                .await
                .map_err(|error| StoreError::Config(error.to_string()))?
                .map_err(|error| StoreError::Unavailable {
                    store: shown.clone(),
                    reason: error.to_string(),
                })?;
        let store = PostgresStore {
            pool,
            shown,
            saved: Arc::new(saved),
        };
        store.adopt_legacy_snapshots().await?;
        Ok(store)
    }

    /// Saves each snapshot a build before durable snapshots stored (two
    /// manifests in `goccia_blobs`) as a saved snapshot, so that nothing it
    /// kept is lost and `gc` knows what each names.
    async fn adopt_legacy_snapshots(&self) -> Result<(), StoreError> {
        let client = self.client().await?;
        let legacy = client
            .query(
                "SELECT sandbox_id, number, baseline, changes FROM goccia_snapshots
                 WHERE saved IS NULL",
                &[],
            )
            .await
            .map_err(|e| self.failed(e))?;
        for row in legacy {
            let (sandbox_id, number): (String, i64) = (row.get(0), row.get(1));
            let (baseline, changes): (String, String) = (row.get(2), row.get(3));
            let saved = self.saved.clone();
            let id = tokio::task::spawn_blocking(move || {
                goccia::store::adopt(saved.as_ref(), &baseline, &changes)
            })
            .await
            .map_err(|e| self.failed(e))?
            .map_err(|e| self.failed(e))?;
            client
                .execute(
                    "UPDATE goccia_snapshots SET saved = $3 WHERE sandbox_id = $1 AND number = $2",
                    &[&sandbox_id, &number, &id.as_str()],
                )
                .await
                .map_err(|e| self.failed(e))?;
        }
        Ok(())
    }

    fn failed(&self, error: impl std::fmt::Display) -> StoreError {
        StoreError::Unavailable {
            store: self.shown.clone(),
            reason: error.to_string(),
        }
    }

    async fn client(&self) -> Result<Object, StoreError> {
        self.pool.get().await.map_err(|error| self.failed(error))
    }

    /// Brings the schema to [`SCHEMA_VERSION`]; refuses a newer one.
    async fn migrate(pool: &Pool, shown: &str) -> Result<(), StoreError> {
        let failed = |error: String| StoreError::Unavailable {
            store: shown.to_string(),
            reason: error,
        };
        let mut client = pool.get().await.map_err(|e| failed(e.to_string()))?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_KEY])
            .await
            .map_err(|e| failed(e.to_string()))?;
        let result = Self::migrate_locked(&mut client, shown).await;
        // A failed unlock closes the connection instead, which unlocks.
        if client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_KEY])
            .await
            .is_err()
        {
            drop(Object::take(client));
        }
        result
    }

    async fn migrate_locked(client: &mut Object, shown: &str) -> Result<(), StoreError> {
        let failed = |error: String| StoreError::Unavailable {
            store: shown.to_string(),
            reason: error,
        };
        client
            .batch_execute(
                "CREATE TABLE IF NOT EXISTS goccia_schema (
                     version integer PRIMARY KEY,
                     applied_at timestamptz NOT NULL DEFAULT now()
                 )",
            )
            .await
            .map_err(|e| failed(e.to_string()))?;
        let current: i32 = client
            .query_one("SELECT coalesce(max(version), 0) FROM goccia_schema", &[])
            .await
            .map_err(|e| failed(e.to_string()))?
            .get(0);
        let current = current as u32;
        if current > SCHEMA_VERSION {
            return Err(StoreError::Config(format!(
                "{}: the schema is version {current}, newer than this build's {SCHEMA_VERSION}",
                shown
            )));
        }
        for (version, sql) in MIGRATIONS {
            if version <= current {
                continue;
            }
            let transaction = client
                .transaction()
                .await
                .map_err(|e| failed(e.to_string()))?;
            transaction
                .batch_execute(sql)
                .await
                .map_err(|e| failed(format!("migrating to schema {version}: {e}")))?;
            transaction
                .execute(
                    "INSERT INTO goccia_schema (version) VALUES ($1)",
                    &[&(version as i32)],
                )
                .await
                .map_err(|e| failed(e.to_string()))?;
            transaction
                .commit()
                .await
                .map_err(|e| failed(e.to_string()))?;
        }
        Ok(())
    }

    /// The schema version the database is at now.
    pub async fn database_schema_version(&self) -> Result<u32, StoreError> {
        let client = self.client().await?;
        let version: i32 = client
            .query_one("SELECT coalesce(max(version), 0) FROM goccia_schema", &[])
            .await
            .map_err(|e| self.failed(e))?
            .get(0);
        Ok(version as u32)
    }
}

fn grant_of(row: &tokio_postgres::Row) -> Grant {
    let capabilities: String = row.get(2);
    let expires_at: i64 = row.get(3);
    Grant {
        token_hash: row.get(0),
        sandbox_id: row.get(1),
        capabilities: Capability::ALL
            .into_iter()
            .filter(|c| capabilities.split(',').any(|name| name == c.as_str()))
            .collect(),
        expires_at: expires_at.max(0) as u64,
        revoked: row.get(4),
        owner: row.get(5),
    }
}

fn capabilities_text(capabilities: &[Capability]) -> String {
    capabilities
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// A connection holding a workspace's advisory lock.
struct PostgresFence {
    client: Option<Object>,
    key: i64,
    shown: String,
    /// The workspace whose log the records go to.
    workspace: String,
}

impl PostgresFence {
    fn failed(&self, error: impl std::fmt::Display) -> StoreError {
        StoreError::Unavailable {
            store: self.shown.clone(),
            reason: error.to_string(),
        }
    }
}

#[async_trait]
impl Fence for PostgresFence {
    async fn append_change(&mut self, record: &ChangeRecord) -> Result<(), StoreError> {
        let line = serde_json::to_string(record).map_err(|e| self.failed(e))?;
        let client = self.client.as_ref().expect("held until released");
        client
            .execute(
                "INSERT INTO goccia_changes (workspace, record) VALUES ($1, $2)",
                &[&self.workspace, &line],
            )
            .await
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn release(mut self: Box<Self>) -> Result<(), StoreError> {
        let client = self.client.take().expect("released once");
        match client
            .execute("SELECT pg_advisory_unlock($1)", &[&self.key])
            .await
        {
            Ok(_) => Ok(()),
            Err(error) => {
                drop(Object::take(client));
                Err(self.failed(error))
            }
        }
    }
}

impl Drop for PostgresFence {
    fn drop(&mut self) {
        // Not released (an error or a panic on the way): close the
        // connection, which lets the lock go, rather than pool it locked.
        if let Some(client) = self.client.take() {
            drop(Object::take(client));
        }
    }
}

const GRANT_SELECT: &str = "SELECT g.token_hash, g.sandbox_id, g.capabilities, g.expires_at,
        g.revoked, s.owner
     FROM goccia_grants g LEFT JOIN goccia_sessions s ON s.sandbox_id = g.sandbox_id";

#[async_trait]
impl Store for PostgresStore {
    fn describe(&self) -> String {
        self.shown.clone()
    }

    fn schema_version(&self) -> Option<u32> {
        Some(SCHEMA_VERSION)
    }

    fn shared(&self) -> bool {
        true
    }

    fn snapshot_store(&self) -> Option<Arc<dyn goccia::store::SnapshotStore>> {
        Some(self.saved.clone())
    }

    async fn insert_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO goccia_grants (token_hash, sandbox_id, capabilities, expires_at, revoked)
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &grant.token_hash,
                    &grant.sandbox_id,
                    &capabilities_text(&grant.capabilities),
                    &(grant.expires_at as i64),
                    &grant.revoked,
                ],
            )
            .await
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn grant_by_hash(&self, token_hash: &str) -> Result<Option<Grant>, StoreError> {
        let client = self.client().await?;
        let statement = client
            .prepare_cached(&format!("{GRANT_SELECT} WHERE g.token_hash = $1"))
            .await
            .map_err(|e| self.failed(e))?;
        let row = client
            .query_opt(&statement, &[&token_hash])
            .await
            .map_err(|e| self.failed(e))?;
        Ok(row.as_ref().map(grant_of))
    }

    async fn live_grant(&self, sandbox_id: &str) -> Result<Option<Grant>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!("{GRANT_SELECT} WHERE g.sandbox_id = $1 AND NOT g.revoked"),
                &[&sandbox_id],
            )
            .await
            .map_err(|e| self.failed(e))?;
        Ok(row.as_ref().map(grant_of))
    }

    async fn set_expiry(&self, sandbox_id: &str, expires_at: u64) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE goccia_grants SET expires_at = $2 WHERE sandbox_id = $1 AND NOT revoked",
                &[&sandbox_id, &(expires_at as i64)],
            )
            .await
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn revoke(&self, sandbox_id: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE goccia_grants SET revoked = true WHERE sandbox_id = $1",
                &[&sandbox_id],
            )
            .await
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO goccia_sessions (sandbox_id, spec, owner) VALUES ($1, $2, $3)
                 ON CONFLICT (sandbox_id) DO UPDATE SET spec = $2, owner = $3",
                &[&session.sandbox_id, &session.spec, &session.owner],
            )
            .await
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn session(&self, sandbox_id: &str) -> Result<Option<SessionRecord>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT spec, owner FROM goccia_sessions WHERE sandbox_id = $1",
                &[&sandbox_id],
            )
            .await
            .map_err(|e| self.failed(e))?;
        Ok(row.map(|row| SessionRecord {
            sandbox_id: sandbox_id.to_string(),
            spec: row.get(0),
            owner: row.get(1),
        }))
    }

    async fn set_owner(&self, sandbox_id: &str, owner: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE goccia_sessions SET owner = $2 WHERE sandbox_id = $1",
                &[&sandbox_id, &owner],
            )
            .await
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn drop_session(&self, sandbox_id: &str) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let transaction = client.transaction().await.map_err(|e| self.failed(e))?;
        for table in ["goccia_sessions", "goccia_snapshots"] {
            transaction
                .execute(
                    &format!("DELETE FROM {table} WHERE sandbox_id = $1"),
                    &[&sandbox_id],
                )
                .await
                .map_err(|e| self.failed(e))?;
        }
        transaction.commit().await.map_err(|e| self.failed(e))
    }

    async fn put_snapshot(
        &self,
        sandbox_id: &str,
        snapshot: &SnapshotRecord,
    ) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO goccia_snapshots (sandbox_id, number, baseline, changes, saved)
                 VALUES ($1, $2, '', '', $3)
                 ON CONFLICT (sandbox_id, number) DO UPDATE SET saved = $3",
                &[&sandbox_id, &(snapshot.number as i64), &snapshot.saved],
            )
            .await
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn snapshot(
        &self,
        sandbox_id: &str,
        number: Option<u64>,
    ) -> Result<Option<SnapshotRecord>, StoreError> {
        let client = self.client().await?;
        let row = match number {
            Some(number) => {
                client
                    .query_opt(
                        "SELECT number, saved FROM goccia_snapshots
                         WHERE sandbox_id = $1 AND number = $2",
                        &[&sandbox_id, &(number as i64)],
                    )
                    .await
            }
            None => {
                client
                    .query_opt(
                        "SELECT number, saved FROM goccia_snapshots
                         WHERE sandbox_id = $1 ORDER BY number DESC LIMIT 1",
                        &[&sandbox_id],
                    )
                    .await
            }
        }
        .map_err(|e| self.failed(e))?;
        Ok(row.map(|row| SnapshotRecord {
            number: row.get::<_, i64>(0) as u64,
            saved: row.get(1),
        }))
    }

    async fn fence(&self, workspace: &Arc<Workspace>) -> Result<Box<dyn Fence>, StoreError> {
        let client = self.client().await?;
        let key = workspace_key(&workspace.name);
        let fence = PostgresFence {
            client: Some(client),
            key,
            shown: self.shown.clone(),
            workspace: workspace.name.clone(),
        };
        fence
            .client
            .as_ref()
            .expect("just taken")
            .execute("SELECT pg_advisory_lock($1)", &[&key])
            .await
            .map_err(|e| fence.failed(e))?;
        Ok(Box::new(fence))
    }

    async fn changes(&self, workspace: &Workspace) -> Result<ChangeLog, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT record FROM goccia_changes WHERE workspace = $1 ORDER BY seq",
                &[&workspace.name],
            )
            .await
            .map_err(|e| self.failed(e))?;
        Ok(ChangeLog::from_lines(rows.iter().map(|row| row.get(0))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_keys_are_stable_and_distinct() {
        assert_eq!(workspace_key("w"), workspace_key("w"));
        assert_ne!(workspace_key("w"), workspace_key("v"));
    }
}
