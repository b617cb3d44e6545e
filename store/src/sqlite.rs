//! The embedded store: one SQLite file, safe to share between processes
//! on one machine (SQLite's own locking; every save and `gc` is one
//! immediate transaction).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use goccia_vfs::image::Contents;
use parking_lot::Mutex;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use crate::record::now_ms;
use crate::{FORMAT_VERSION, GcReport, NewSnapshot, Saved, SavedId, SnapshotRecord};
use crate::{SnapshotStore, StoreError};

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS goccia_blobs (
        hash TEXT PRIMARY KEY,
        content BLOB NOT NULL
    );
    CREATE TABLE IF NOT EXISTS goccia_manifests (hash TEXT PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS goccia_manifest_refs (
        manifest TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (manifest, hash)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS goccia_saved_snapshots (
        id TEXT PRIMARY KEY,
        baseline TEXT NOT NULL,
        changes TEXT NOT NULL,
        shell TEXT,
        record TEXT NOT NULL,
        saved_at INTEGER NOT NULL
    );";

/// The manifests saved snapshots name (what keeps their contents alive).
const ROOT_MANIFESTS: &str = "SELECT baseline FROM goccia_saved_snapshots
     UNION SELECT changes FROM goccia_saved_snapshots";

/// A snapshot store in an SQLite file.
pub struct SqliteStore {
    path: PathBuf,
    connection: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (making it if missing) the store at `path`, and checks its
    /// format.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let shown = format!("sqlite:{}", path.display());
        let failed = |error: rusqlite::Error| StoreError::Unavailable {
            store: shown.clone(),
            reason: error.to_string(),
        };
        let mut connection = Connection::open(path).map_err(failed)?;
        connection
            .execute_batch("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;")
            .map_err(failed)?;
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        transaction
            .execute_batch(
                "CREATE TABLE IF NOT EXISTS goccia_store_format (version INTEGER NOT NULL)",
            )
            .map_err(failed)?;
        let found: Option<u32> = transaction
            .query_row("SELECT max(version) FROM goccia_store_format", [], |row| {
                row.get(0)
            })
            .map_err(failed)?;
        match found {
            Some(found) if found > FORMAT_VERSION => {
                return Err(StoreError::UnknownFormat {
                    store: shown,
                    found,
                    supported: FORMAT_VERSION,
                });
            }
            Some(_) => {}
            None => {
                transaction
                    .execute(
                        "INSERT INTO goccia_store_format (version) VALUES (?1)",
                        [FORMAT_VERSION],
                    )
                    .map_err(failed)?;
            }
        }
        transaction.execute_batch(SCHEMA).map_err(failed)?;
        transaction.commit().map_err(failed)?;
        Ok(SqliteStore {
            path: path.to_path_buf(),
            connection: Mutex::new(connection),
        })
    }

    fn failed(&self, error: rusqlite::Error) -> StoreError {
        StoreError::Unavailable {
            store: self.describe(),
            reason: error.to_string(),
        }
    }
}

impl SnapshotStore for SqliteStore {
    fn describe(&self) -> String {
        format!("sqlite:{}", self.path.display())
    }

    fn save(&self, snapshot: &NewSnapshot) -> Result<SavedId, StoreError> {
        let id = snapshot.record.id();
        let mut connection = self.connection.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.failed(e))?;
        {
            let run = |sql: &str, values: &[&dyn rusqlite::ToSql]| -> Result<usize, StoreError> {
                transaction
                    .prepare_cached(sql)
                    .and_then(|mut statement| statement.execute(values))
                    .map_err(|e| self.failed(e))
            };
            let exists = |sql: &str, key: &str| -> Result<bool, StoreError> {
                transaction
                    .prepare_cached(sql)
                    .and_then(|mut statement| statement.exists([key]))
                    .map_err(|e| self.failed(e))
            };
            if exists(
                "SELECT 1 FROM goccia_saved_snapshots WHERE id = ?1",
                id.as_str(),
            )? {
                return Ok(id);
            }
            let mut done = BTreeSet::new();
            for manifest in &snapshot.manifests {
                let known = exists(
                    "SELECT 1 FROM goccia_manifests WHERE hash = ?1",
                    &manifest.hash,
                )?;
                if known || !done.insert(manifest.hash.as_str()) {
                    continue;
                }
                for (hash, content) in &manifest.contents {
                    run(
                        "INSERT OR IGNORE INTO goccia_blobs (hash, content) VALUES (?1, ?2)",
                        &[hash, &content.as_ref()],
                    )?;
                    run(
                        "INSERT OR IGNORE INTO goccia_manifest_refs (manifest, hash) VALUES (?1, ?2)",
                        &[&manifest.hash, hash],
                    )?;
                }
                run(
                    "INSERT OR IGNORE INTO goccia_blobs (hash, content) VALUES (?1, ?2)",
                    &[&manifest.hash, &manifest.json.as_ref()],
                )?;
                run(
                    "INSERT OR IGNORE INTO goccia_manifests (hash) VALUES (?1)",
                    &[&manifest.hash],
                )?;
            }
            if let (Some(hash), Some(script)) = (&snapshot.record.shell, &snapshot.shell) {
                run(
                    "INSERT OR IGNORE INTO goccia_blobs (hash, content) VALUES (?1, ?2)",
                    &[hash, &script.as_ref()],
                )?;
            }
            let record = snapshot.record.to_json();
            run(
                "INSERT INTO goccia_saved_snapshots (id, baseline, changes, shell, record, saved_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                &[
                    &id.as_str(),
                    &snapshot.record.baseline,
                    &snapshot.record.changes,
                    &snapshot.record.shell,
                    &record,
                    &(now_ms() as i64),
                ],
            )?;
        }
        transaction.commit().map_err(|e| self.failed(e))?;
        Ok(id)
    }

    fn saved(&self, id: &SavedId) -> Result<Option<Saved>, StoreError> {
        let connection = self.connection.lock();
        let row = connection
            .prepare_cached("SELECT record, saved_at FROM goccia_saved_snapshots WHERE id = ?1")
            .and_then(|mut statement| {
                statement
                    .query_row([id.as_str()], |row| {
                        Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
                    })
                    .optional()
            })
            .map_err(|e| self.failed(e))?;
        row.map(|(record, saved_at)| {
            Ok(Saved {
                id: id.clone(),
                record: SnapshotRecord::from_json(&record, &self.describe())?,
                saved_at_ms: saved_at as u64,
            })
        })
        .transpose()
    }

    fn manifest(&self, hash: &str) -> Result<Option<(Bytes, Contents)>, StoreError> {
        let connection = self.connection.lock();
        let Some(json) = blob(&connection, hash).map_err(|e| self.failed(e))? else {
            return Ok(None);
        };
        let mut contents = Contents::new();
        let mut statement = connection
            .prepare_cached(
                "SELECT b.hash, b.content FROM goccia_manifest_refs r
                 JOIN goccia_blobs b ON b.hash = r.hash WHERE r.manifest = ?1",
            )
            .map_err(|e| self.failed(e))?;
        let rows = statement
            .query_map([hash], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, Vec<u8>>(1)?))
            })
            .map_err(|e| self.failed(e))?;
        for row in rows {
            let (hash, content) = row.map_err(|e| self.failed(e))?;
            contents.insert(hash, Bytes::from(content));
        }
        Ok(Some((json, contents)))
    }

    fn blob(&self, hash: &str) -> Result<Option<Bytes>, StoreError> {
        blob(&self.connection.lock(), hash).map_err(|e| self.failed(e))
    }

    fn list(&self) -> Result<Vec<Saved>, StoreError> {
        let connection = self.connection.lock();
        let mut statement = connection
            .prepare_cached(
                "SELECT id, record, saved_at FROM goccia_saved_snapshots ORDER BY saved_at, rowid",
            )
            .map_err(|e| self.failed(e))?;
        let rows = statement
            .query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, i64>(2)?,
                ))
            })
            .map_err(|e| self.failed(e))?;
        let mut saved = Vec::new();
        for row in rows {
            let (id, record, saved_at) = row.map_err(|e| self.failed(e))?;
            saved.push(Saved {
                id: id.parse()?,
                record: SnapshotRecord::from_json(&record, &self.describe())?,
                saved_at_ms: saved_at as u64,
            });
        }
        Ok(saved)
    }

    fn remove(&self, id: &SavedId) -> Result<bool, StoreError> {
        let connection = self.connection.lock();
        let removed = connection
            .execute(
                "DELETE FROM goccia_saved_snapshots WHERE id = ?1",
                [id.as_str()],
            )
            .map_err(|e| self.failed(e))?;
        Ok(removed > 0)
    }

    fn gc(&self) -> Result<GcReport, StoreError> {
        let mut connection = self.connection.lock();
        let transaction = connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.failed(e))?;
        let live = format!(
            "SELECT hash FROM goccia_manifest_refs WHERE manifest IN ({ROOT_MANIFESTS})
             UNION {ROOT_MANIFESTS}
             UNION SELECT shell FROM goccia_saved_snapshots WHERE shell IS NOT NULL"
        );
        let report = transaction
            .query_row(
                &format!(
                    "SELECT count(*), coalesce(sum(length(content)), 0) FROM goccia_blobs
                     WHERE hash NOT IN ({live})"
                ),
                [],
                |row| {
                    Ok(GcReport {
                        blobs: row.get::<_, i64>(0)? as u64,
                        bytes: row.get::<_, i64>(1)? as u64,
                    })
                },
            )
            .map_err(|e| self.failed(e))?;
        transaction
            .execute_batch(&format!(
                "DELETE FROM goccia_blobs WHERE hash NOT IN ({live});
                 DELETE FROM goccia_manifest_refs WHERE manifest NOT IN ({ROOT_MANIFESTS});
                 DELETE FROM goccia_manifests WHERE hash NOT IN ({ROOT_MANIFESTS});"
            ))
            .map_err(|e| self.failed(e))?;
        transaction.commit().map_err(|e| self.failed(e))?;
        Ok(report)
    }
}

fn blob(connection: &Connection, hash: &str) -> rusqlite::Result<Option<Bytes>> {
    connection
        .prepare_cached("SELECT content FROM goccia_blobs WHERE hash = ?1")?
        .query_row([hash], |row| row.get::<_, Vec<u8>>(0))
        .optional()
        .map(|content| content.map(Bytes::from))
}
