//! `--state <file.sqlite>`: grants, the specs of open sessions and the
//! change logs survive a restart. Only token hashes are stored.

use std::path::Path;

use parking_lot::Mutex;
use rusqlite::{Connection, OptionalExtension, params};

use crate::grants::{Capability, Grant, GrantStore, StoreError};

/// An SQLite file holding the server's state.
pub struct SqliteStore {
    connection: Mutex<Connection>,
}

fn failed(error: impl std::fmt::Display) -> StoreError {
    StoreError(error.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the state file at `path`.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let connection = Connection::open(path).map_err(failed)?;
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 PRAGMA busy_timeout = 5000;
                 CREATE TABLE IF NOT EXISTS grants (
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
            )
            .map_err(failed)?;
        Ok(SqliteStore {
            connection: Mutex::new(connection),
        })
    }

    /// Remembers an open session's spec (to seed it again after a restart).
    pub fn put_session(&self, sandbox_id: &str, spec: &str) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "INSERT OR REPLACE INTO sessions (sandbox_id, spec) VALUES (?1, ?2)",
                params![sandbox_id, spec],
            )
            .map(drop)
            .map_err(failed)
    }

    /// A session's spec, if it is open.
    pub fn session(&self, sandbox_id: &str) -> Result<Option<String>, StoreError> {
        self.connection
            .lock()
            .query_row(
                "SELECT spec FROM sessions WHERE sandbox_id = ?1",
                params![sandbox_id],
                |row| row.get(0),
            )
            .optional()
            .map_err(failed)
    }

    /// Forgets a closed session.
    pub fn drop_session(&self, sandbox_id: &str) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "DELETE FROM sessions WHERE sandbox_id = ?1",
                params![sandbox_id],
            )
            .map(drop)
            .map_err(failed)
    }

    /// Appends a change record (JSON) to a workspace's log.
    pub fn append_change(&self, workspace: &str, record: &str) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "INSERT INTO changes (workspace, record) VALUES (?1, ?2)",
                params![workspace, record],
            )
            .map(drop)
            .map_err(failed)
    }

    /// A workspace's change records (JSON), oldest first.
    pub fn changes(&self, workspace: &str) -> Result<Vec<String>, StoreError> {
        let connection = self.connection.lock();
        let mut statement = connection
            .prepare("SELECT record FROM changes WHERE workspace = ?1 ORDER BY seq")
            .map_err(failed)?;
        let rows = statement
            .query_map(params![workspace], |row| row.get(0))
            .map_err(failed)?;
        rows.collect::<Result<Vec<String>, _>>().map_err(failed)
    }
}

fn capabilities_text(capabilities: &[Capability]) -> String {
    capabilities
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

fn capabilities_of(text: &str) -> Vec<Capability> {
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
    })
}

const GRANT_COLUMNS: &str = "token_hash, sandbox_id, capabilities, expires_at, revoked";

impl GrantStore for SqliteStore {
    fn insert(&self, grant: &Grant) -> Result<(), StoreError> {
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
            .map_err(failed)
    }

    fn by_hash(&self, token_hash: &str) -> Result<Option<Grant>, StoreError> {
        self.connection
            .lock()
            .query_row(
                &format!("SELECT {GRANT_COLUMNS} FROM grants WHERE token_hash = ?1"),
                params![token_hash],
                grant_of,
            )
            .optional()
            .map_err(failed)
    }

    fn by_sandbox(&self, sandbox_id: &str) -> Result<Option<Grant>, StoreError> {
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
            .map_err(failed)
    }

    fn set_expiry(&self, sandbox_id: &str, expires_at: u64) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "UPDATE grants SET expires_at = ?2 WHERE sandbox_id = ?1 AND revoked = 0",
                params![sandbox_id, expires_at as i64],
            )
            .map(drop)
            .map_err(failed)
    }

    fn revoke(&self, sandbox_id: &str) -> Result<(), StoreError> {
        self.connection
            .lock()
            .execute(
                "UPDATE grants SET revoked = 1 WHERE sandbox_id = ?1",
                params![sandbox_id],
            )
            .map(drop)
            .map_err(failed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grants::{mint_token, token_hash};

    #[test]
    fn grants_sessions_and_changes_survive_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        let token = mint_token();
        {
            let store = SqliteStore::open(&path).unwrap();
            store
                .insert(&Grant {
                    sandbox_id: "sb_1".into(),
                    token_hash: token_hash(&token),
                    capabilities: vec![Capability::Read, Capability::Submit],
                    expires_at: 500,
                    revoked: false,
                })
                .unwrap();
            store.set_expiry("sb_1", 900).unwrap();
            store.put_session("sb_1", "{\"workspace\":\"w\"}").unwrap();
            store.append_change("w", "{\"changeId\":1}").unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        let grant = store.by_hash(&token_hash(&token)).unwrap().unwrap();
        assert_eq!(grant.capabilities, [Capability::Read, Capability::Submit]);
        assert_eq!(grant.expires_at, 900);
        assert_eq!(store.by_sandbox("sb_1").unwrap(), Some(grant));
        assert_eq!(
            store.session("sb_1").unwrap().unwrap(),
            "{\"workspace\":\"w\"}"
        );
        assert_eq!(store.changes("w").unwrap(), ["{\"changeId\":1}"]);
        store.revoke("sb_1").unwrap();
        assert!(store.by_hash(&token_hash(&token)).unwrap().unwrap().revoked);
        assert_eq!(store.by_sandbox("sb_1").unwrap(), None);
        // The token itself is nowhere in the file.
        let bytes = std::fs::read(&path).unwrap();
        assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()));
    }
}
