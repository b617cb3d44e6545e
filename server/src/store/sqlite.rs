//! `--state <file.sqlite>`: grants, the specs of open sessions, persisted
//! snapshots and the change logs survive a restart of one server. Only
//! token hashes are stored. The schema's version is SQLite's
//! `user_version`; migrations run at open, in order, each in a
//! transaction (a file written by an older build is brought forward).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use parking_lot::Mutex;
use rusqlite::{Connection, OptionalExtension, params};

use super::{Fence, SessionRecord, SnapshotRecord, Store, StoreError, local_lock};
use crate::grants::{Capability, Grant};
use crate::provenance::{ChangeLog, ChangeRecord};
use crate::workspace::{Workspace, WorkspaceLock};

/// The schema this build writes.
pub const SCHEMA_VERSION: u32 = 3;

/// Each migration brings the file from the version before it to its own.
/// Version 1 is the schema of the first server (made with `IF NOT EXISTS`
/// and no version), so files it wrote take version 2 alone.
const MIGRATIONS: [(u32, &str); 3] = [
    (
        1,
        "CREATE TABLE IF NOT EXISTS grants (
             token_hash TEXT PRIMARY KEY,
             sandbox_id TEXT NOT NULL,
             capabilities TEXT NOT NULL,
             expires_at INTEGER NOT NULL,
             revoked INTEGER NOT NULL DEFAULT 0
         );
         CREATE INDEX IF NOT EXISTS grants_by_sandbox ON grants (sandbox_id);
         CREATE TABLE IF NOT EXISTS sessions (
             sandbox_id TEXT PRIMARY KEY,
             spec TEXT NOT NULL
         );
         CREATE TABLE IF NOT EXISTS changes (
             workspace TEXT NOT NULL,
             seq INTEGER PRIMARY KEY AUTOINCREMENT,
             record TEXT NOT NULL
         );",
    ),
    (
        2,
        "ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT '';
         CREATE TABLE snapshots (
             sandbox_id TEXT NOT NULL,
             number INTEGER NOT NULL,
             baseline TEXT NOT NULL,
             changes TEXT NOT NULL,
             PRIMARY KEY (sandbox_id, number)
         );
         CREATE TABLE blobs (
             hash TEXT PRIMARY KEY,
             content BLOB NOT NULL
         );",
    ),
    (
        // Snapshots become the library's saved snapshots (docs/snapshots.md)
        // in this file: `saved` names one; rows of version 2 are adopted
        // when the file is opened (`adopt_legacy_snapshots`).
        3,
        "ALTER TABLE snapshots ADD COLUMN saved TEXT;",
    ),
];

/// An SQLite file holding the server's state.
pub struct SqliteStore {
    path: PathBuf,
    /// Shared with the fences, which append change records through it.
    connection: Arc<Mutex<Connection>>,
    /// The saved snapshots, in the same file.
    saved: Arc<goccia::store::SqliteStore>,
}

/// Moves what a build before durable snapshots stored (its `blobs` table,
/// snapshot rows naming two manifests) into the snapshot store, so that
/// nothing it kept is lost and `gc` knows what each snapshot names.
fn adopt_legacy_snapshots(
    connection: &Connection,
    saved: &goccia::store::SqliteStore,
) -> Result<(), String> {
    let legacy: Vec<(String, i64, String, String)> = connection
        .prepare("SELECT sandbox_id, number, baseline, changes FROM snapshots WHERE saved IS NULL")
        .and_then(|mut statement| {
            statement
                .query_map([], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
                })?
                .collect()
        })
        .map_err(|e| e.to_string())?;
    if legacy.is_empty() {
        return Ok(());
    }
    connection
        .execute_batch(
            "INSERT OR IGNORE INTO goccia_blobs (hash, content) SELECT hash, content FROM blobs",
        )
        .map_err(|e| e.to_string())?;
    for (sandbox_id, number, baseline, changes) in legacy {
        let id = goccia::store::adopt(saved, &baseline, &changes).map_err(|e| e.to_string())?;
        connection
            .execute(
                "UPDATE snapshots SET saved = ?3 WHERE sandbox_id = ?1 AND number = ?2",
                params![sandbox_id, number, id.as_str()],
            )
            .map_err(|e| e.to_string())?;
    }
    connection
        .execute_batch("DELETE FROM blobs")
        .map_err(|e| e.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the state file at `path` and migrates it.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let store = |reason: String| StoreError::Unavailable {
            store: format!("sqlite:{}", path.display()),
            reason,
        };
        // Created owner-only before SQLite opens it (its WAL and shared
        // memory files take the database file's mode): grants' hashes,
        // sessions and change logs are the host's (docs/security.md).
        {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::File::options()
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .open(path)
                .map_err(|e| store(e.to_string()))?;
        }
        let mut connection = Connection::open(path).map_err(|e| store(e.to_string()))?;
        connection
            .execute_batch("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;")
            .map_err(|e| store(e.to_string()))?;
        let version: u32 = connection
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(|e| store(e.to_string()))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::Config(format!(
                "sqlite:{}: the schema is version {version}, newer than this build's {SCHEMA_VERSION}",
                path.display()
            )));
        }
        for (target, sql) in MIGRATIONS {
            if target <= version {
                continue;
            }
            let transaction = connection.transaction().map_err(|e| store(e.to_string()))?;
            transaction
                .execute_batch(sql)
                .and_then(|()| transaction.pragma_update(None, "user_version", target))
                .and_then(|()| transaction.commit())
                .map_err(|e| store(format!("migrating to schema {target}: {e}")))?;
        }
        let saved =
            Arc::new(goccia::store::SqliteStore::open(path).map_err(|e| store(e.to_string()))?);
        adopt_legacy_snapshots(&connection, saved.as_ref()).map_err(store)?;
        Ok(SqliteStore {
            path: path.to_path_buf(),
            connection: Arc::new(Mutex::new(connection)),
            saved,
        })
    }

    fn failed(&self, error: impl std::fmt::Display) -> StoreError {
        StoreError::Unavailable {
            store: self.describe(),
            reason: error.to_string(),
        }
    }
}

fn capabilities_text(capabilities: &[Capability]) -> String {
    capabilities
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn capabilities_of(text: &str) -> Vec<Capability> {
    Capability::ALL
        .into_iter()
        .filter(|c| text.split(',').any(|name| name == c.as_str()))
        .collect()
}

fn grant_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Grant> {
    Ok(Grant {
        token_hash: row.get(0)?,
        sandbox_id: row.get(1)?,
        capabilities: capabilities_of(&row.get::<_, String>(2)?),
        expires_at: row.get::<_, i64>(3)? as u64,
        revoked: row.get::<_, i64>(4)? != 0,
        owner: None,
    })
}

const GRANT_COLUMNS: &str = "token_hash, sandbox_id, capabilities, expires_at, revoked";

/// The flock, and the change table.
struct SqliteFence {
    _lock: WorkspaceLock,
    connection: Arc<Mutex<Connection>>,
    store: String,
    workspace: String,
}

#[async_trait]
impl Fence for SqliteFence {
    async fn append_change(&mut self, record: &ChangeRecord) -> Result<(), StoreError> {
        let failed = |reason: String| StoreError::Unavailable {
            store: self.store.clone(),
            reason,
        };
        let line = serde_json::to_string(record).map_err(|e| failed(e.to_string()))?;
        self.connection
            .lock()
            .execute(
                "INSERT INTO changes (workspace, record) VALUES (?1, ?2)",
                params![self.workspace, line],
            )
            .map(drop)
            .map_err(|e| failed(e.to_string()))
    }

    async fn release(self: Box<Self>) -> Result<(), StoreError> {
        Ok(())
    }
}

#[async_trait]
impl Store for SqliteStore {
    fn describe(&self) -> String {
        format!("sqlite:{}", self.path.display())
    }

    fn schema_version(&self) -> Option<u32> {
        Some(SCHEMA_VERSION)
    }

    fn shared(&self) -> bool {
        false
    }

    fn snapshot_store(&self) -> Option<Arc<dyn goccia::store::SnapshotStore>> {
        Some(self.saved.clone())
    }

    async fn insert_grant(&self, grant: &Grant) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "INSERT INTO grants (token_hash, sandbox_id, capabilities, expires_at, revoked)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    grant.token_hash,
                    grant.sandbox_id,
                    capabilities_text(&grant.capabilities),
                    grant.expires_at as i64,
                    grant.revoked as i64
                ],
            )
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn grant_by_hash(&self, token_hash: &str) -> Result<Option<Grant>, StoreError> {
        self.connection
            .lock()
            .query_row(
                &format!("SELECT {GRANT_COLUMNS} FROM grants WHERE token_hash = ?1"),
                params![token_hash],
                grant_of,
            )
            .optional()
            .map_err(|e| self.failed(e))
    }

    async fn live_grant(&self, sandbox_id: &str) -> Result<Option<Grant>, StoreError> {
        self.connection
            .lock()
            .query_row(
                &format!(
                    "SELECT {GRANT_COLUMNS} FROM grants WHERE sandbox_id = ?1 AND revoked = 0"
                ),
                params![sandbox_id],
                grant_of,
            )
            .optional()
            .map_err(|e| self.failed(e))
    }

    async fn set_expiry(&self, sandbox_id: &str, expires_at: u64) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "UPDATE grants SET expires_at = ?2 WHERE sandbox_id = ?1 AND revoked = 0",
                params![sandbox_id, expires_at as i64],
            )
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn revoke(&self, sandbox_id: &str) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "UPDATE grants SET revoked = 1 WHERE sandbox_id = ?1",
                params![sandbox_id],
            )
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "INSERT OR REPLACE INTO sessions (sandbox_id, spec, owner) VALUES (?1, ?2, ?3)",
                params![session.sandbox_id, session.spec, session.owner],
            )
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn session(&self, sandbox_id: &str) -> Result<Option<SessionRecord>, StoreError> {
        self.connection
            .lock()
            .query_row(
                "SELECT spec, owner FROM sessions WHERE sandbox_id = ?1",
                params![sandbox_id],
                |row| {
                    Ok(SessionRecord {
                        sandbox_id: sandbox_id.to_string(),
                        spec: row.get(0)?,
                        owner: row.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.failed(e))
    }

    async fn set_owner(&self, sandbox_id: &str, owner: &str) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "UPDATE sessions SET owner = ?2 WHERE sandbox_id = ?1",
                params![sandbox_id, owner],
            )
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn drop_session(&self, sandbox_id: &str) -> Result<(), StoreError> {
        let mut connection = self.connection.lock();
        let transaction = connection.transaction().map_err(|e| self.failed(e))?;
        transaction
            .execute(
                "DELETE FROM sessions WHERE sandbox_id = ?1",
                params![sandbox_id],
            )
            .and_then(|_| {
                transaction.execute(
                    "DELETE FROM snapshots WHERE sandbox_id = ?1",
                    params![sandbox_id],
                )
            })
            .map_err(|e| self.failed(e))?;
        transaction.commit().map_err(|e| self.failed(e))
    }

    async fn put_snapshot(
        &self,
        sandbox_id: &str,
        snapshot: &SnapshotRecord,
    ) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "INSERT OR REPLACE INTO snapshots (sandbox_id, number, baseline, changes, saved)
                 VALUES (?1, ?2, '', '', ?3)",
                params![sandbox_id, snapshot.number as i64, snapshot.saved],
            )
            .map(drop)
            .map_err(|e| self.failed(e))
    }

    async fn snapshot(
        &self,
        sandbox_id: &str,
        number: Option<u64>,
    ) -> Result<Option<SnapshotRecord>, StoreError> {
        let row = |row: &rusqlite::Row<'_>| {
            Ok(SnapshotRecord {
                number: row.get::<_, i64>(0)? as u64,
                saved: row.get(1)?,
            })
        };
        let connection = self.connection.lock();
        match number {
            Some(number) => connection.query_row(
                "SELECT number, saved FROM snapshots
                 WHERE sandbox_id = ?1 AND number = ?2",
                params![sandbox_id, number as i64],
                row,
            ),
            None => connection.query_row(
                "SELECT number, saved FROM snapshots
                 WHERE sandbox_id = ?1 ORDER BY number DESC LIMIT 1",
                params![sandbox_id],
                row,
            ),
        }
        .optional()
        .map_err(|e| self.failed(e))
    }

    async fn fence(&self, workspace: &Arc<Workspace>) -> Result<Box<dyn Fence>, StoreError> {
        let lock = local_lock(&self.describe(), workspace).await?;
        Ok(Box::new(SqliteFence {
            _lock: lock,
            connection: self.connection.clone(),
            store: self.describe(),
            workspace: workspace.name.clone(),
        }))
    }

    async fn changes(&self, workspace: &Workspace) -> Result<ChangeLog, StoreError> {
        let lines: Vec<String> = {
            let connection = self.connection.lock();
            let mut statement = connection
                .prepare("SELECT record FROM changes WHERE workspace = ?1 ORDER BY seq")
                .map_err(|e| self.failed(e))?;
            let rows = statement
                .query_map(params![workspace.name], |row| row.get(0))
                .map_err(|e| self.failed(e))?;
            rows.collect::<Result<_, _>>().map_err(|e| self.failed(e))?
        };
        Ok(ChangeLog::from_lines(lines.iter().map(String::as_str)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grants::{mint_token, token_hash};

    #[tokio::test]
    async fn a_snapshot_an_earlier_build_stored_is_adopted_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        let sandbox = goccia::Sandbox::builder()
            .file("/a.txt", "seeded\n")
            .build()
            .unwrap();
        sandbox.write("/a.txt", "changed\n").unwrap();
        let image = sandbox.image();
        {
            // A file as version 2 left it: manifests and contents in `blobs`.
            let connection = Connection::open(&path).unwrap();
            for (_, sql) in &MIGRATIONS[..2] {
                connection.execute_batch(sql).unwrap();
            }
            connection.pragma_update(None, "user_version", 2).unwrap();
            let mut blobs = image.contents.clone();
            let manifests = [image.baseline.to_json(), image.changes.to_json()];
            let hashes: Vec<String> = manifests
                .iter()
                .map(|json| blake3::hash(json).to_hex().to_string())
                .collect();
            for (hash, json) in hashes.iter().zip(manifests) {
                blobs.insert(hash.clone(), json.into());
            }
            for (hash, content) in &blobs {
                connection
                    .execute(
                        "INSERT INTO blobs (hash, content) VALUES (?1, ?2)",
                        params![hash, &content[..]],
                    )
                    .unwrap();
            }
            connection
                .execute(
                    "INSERT INTO snapshots (sandbox_id, number, baseline, changes)
                     VALUES ('sb_1', 4, ?1, ?2)",
                    params![hashes[0], hashes[1]],
                )
                .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let record = store.snapshot("sb_1", None).await.unwrap().unwrap();
        assert_eq!(record.number, 4);
        let reopened = goccia::Sandbox::builder().build().unwrap();
        reopened
            .load_saved(
                store.snapshot_store().unwrap().as_ref(),
                &record.saved.parse().unwrap(),
            )
            .unwrap();
        assert_eq!(&reopened.read("/a.txt").unwrap()[..], b"changed\n");
        assert_eq!(reopened.changes().len(), 1);
        // Adopted once: opening again finds nothing left to move.
        drop(store);
        let again = SqliteStore::open(&path).unwrap();
        assert_eq!(again.snapshot("sb_1", None).await.unwrap(), Some(record));
    }

    #[tokio::test]
    async fn grants_sessions_snapshots_and_blobs_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        let token = mint_token();
        {
            let store = SqliteStore::open(&path).unwrap();
            store
                .insert_grant(&Grant {
                    sandbox_id: "sb_1".into(),
                    token_hash: token_hash(&token),
                    capabilities: vec![Capability::Read, Capability::Submit],
                    expires_at: 500,
                    revoked: false,
                    owner: None,
                })
                .await
                .unwrap();
            store.set_expiry("sb_1", 900).await.unwrap();
            store
                .put_session(&SessionRecord {
                    sandbox_id: "sb_1".into(),
                    spec: "{\"workspace\":\"w\"}".into(),
                    owner: "a".into(),
                })
                .await
                .unwrap();
            for number in [0, 1] {
                let record = SnapshotRecord {
                    number,
                    saved: format!("s{number}"),
                };
                store.put_snapshot("sb_1", &record).await.unwrap();
            }
        }
        let store = SqliteStore::open(&path).unwrap();
        let grant = store
            .grant_by_hash(&token_hash(&token))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(grant.capabilities, [Capability::Read, Capability::Submit]);
        assert_eq!(grant.expires_at, 900);
        assert_eq!(store.live_grant("sb_1").await.unwrap(), Some(grant));
        let session = store.session("sb_1").await.unwrap().unwrap();
        assert_eq!(
            (session.spec.as_str(), session.owner.as_str()),
            ("{\"workspace\":\"w\"}", "a")
        );
        let latest = store.snapshot("sb_1", None).await.unwrap().unwrap();
        assert_eq!(latest.saved, "s1");
        assert_eq!(
            store
                .snapshot("sb_1", Some(0))
                .await
                .unwrap()
                .unwrap()
                .saved,
            "s0"
        );
        store.drop_session("sb_1").await.unwrap();
        assert_eq!(store.snapshot("sb_1", None).await.unwrap(), None);
        store.revoke("sb_1").await.unwrap();
        assert!(
            store
                .grant_by_hash(&token_hash(&token))
                .await
                .unwrap()
                .unwrap()
                .revoked
        );
        assert_eq!(store.live_grant("sb_1").await.unwrap(), None);
        // The token itself is nowhere in the file.
        drop(store);
        let bytes = std::fs::read(&path).unwrap();
        assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()));
    }

    #[test]
    fn a_file_of_the_first_schema_is_migrated_and_a_newer_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        {
            let connection = Connection::open(&path).unwrap();
            connection.execute_batch(MIGRATIONS[0].1).unwrap();
            connection
                .execute(
                    "INSERT INTO sessions (sandbox_id, spec) VALUES ('sb_old', '{}')",
                    [],
                )
                .unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let session = runtime.block_on(store.session("sb_old")).unwrap().unwrap();
        assert_eq!(session.owner, "");
        drop(store);
        let connection = Connection::open(&path).unwrap();
        connection.pragma_update(None, "user_version", 99).unwrap();
        drop(connection);
        let error = SqliteStore::open(&path).err().unwrap();
        assert!(
            error
                .to_string()
                .contains("version 99, newer than this build's 3"),
            "{error}"
        );
    }
}
