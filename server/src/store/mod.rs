//! Where a server keeps what must outlive a request: grants, the specs of
//! open sessions and which server holds each, persisted snapshots, the
//! change logs, and the fence that serializes submits to a workspace.
//! Three implementations of one [`Store`] trait:
//!
//! - [`MemoryStore`]: gone with the process; change logs in each
//!   workspace's `.goccia/changes.jsonl`; the fence is a `flock`.
//! - [`SqliteStore`] (`--state <file>`): survives a restart of one server.
//! - [`PostgresStore`] (`--store postgres://...`, docs/server.md): shared
//!   by several servers; the fence is an advisory lock.
//!
//! A session's snapshots are durable snapshots of the library's store
//! (docs/snapshots.md) in the same file or database: one blob table and
//! one saving code for a server and an embedder; the server keeps which
//! saved snapshot each of a session's snapshot numbers is.
//!
//! A store that fails is [`StoreError`]; the API answers 503 for it and
//! never falls back to another store.

mod memory;
mod postgres;
pub mod snapshots;
mod sqlite;

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use goccia::store::SnapshotStore;

use crate::grants::Grant;
use crate::provenance::{ChangeLog, ChangeRecord};
use crate::workspace::Workspace;

pub use memory::MemoryStore;
pub use postgres::{PostgresStore, SCHEMA_VERSION as POSTGRES_SCHEMA_VERSION};
pub use sqlite::SqliteStore;

/// Which store a server uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreConfig {
    /// In memory (the default).
    Memory,
    /// An SQLite file (`--state`).
    Sqlite(PathBuf),
    /// A PostgreSQL database (`--store postgres://...`).
    Postgres(String),
}

impl StoreConfig {
    /// The store `text` names: `postgres://...` or `postgresql://...`; for
    /// anything else the error says what is accepted.
    pub fn parse_url(text: &str) -> Result<StoreConfig, StoreError> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(StoreConfig::Postgres(text.to_string()))
        } else {
            Err(StoreError::Config(format!(
                "`{}` is not a store this server knows: give postgres://user@host:port/database",
                redact(text)
            )))
        }
    }
}

/// A store failed or could not be reached.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The store cannot be used as configured.
    #[error("{0}")]
    Config(String),
    /// The store did not answer, or answered with an error.
    #[error("the store {store} failed: {reason}")]
    Unavailable {
        /// The store, without secrets.
        store: String,
        /// What went wrong.
        reason: String,
    },
    /// The store holds something this server cannot read.
    #[error("the store {store} holds data this server cannot read: {reason}")]
    Corrupt {
        /// The store, without secrets.
        store: String,
        /// What could not be read.
        reason: String,
    },
}

pub use goccia::store::redact;

/// A PostgreSQL URL naming database `database` instead of its own (tests
/// and benchmarks make a database of their own from a server's URL).
pub fn with_database(url: &str, database: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((head, query)) => (head, format!("?{query}")),
        None => (url, String::new()),
    };
    let scheme_end = head.find("://").map_or(0, |i| i + 3);
    let base = match head[scheme_end..].find('/') {
        Some(slash) => &head[..scheme_end + slash],
        None => head,
    };
    format!("{base}/{database}{query}")
}

/// What a store keeps of an open session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRecord {
    /// `sb_...`.
    pub sandbox_id: String,
    /// Its [`SessionSpec`](crate::SessionSpec) as JSON.
    pub spec: String,
    /// The server that holds it now (shared stores; empty otherwise).
    pub owner: String,
}

/// A persisted snapshot: its number in the session and the saved
/// snapshot that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotRecord {
    /// The `snapshotId` the API showed.
    pub number: u64,
    /// The saved snapshot's id in [`Store::snapshot_store`].
    pub saved: String,
}

/// Holds a workspace's submit lock; the change record of a landed submit
/// is appended while it is held. Dropped without [`Fence::release`] (a
/// failure, a panic), the lock is still let go: a local fence closes its
/// lock file, a PostgreSQL fence closes its connection.
#[async_trait]
pub trait Fence: Send {
    /// Appends a record to the workspace's change log.
    async fn append_change(&mut self, record: &ChangeRecord) -> Result<(), StoreError>;
    /// Lets the lock go.
    async fn release(self: Box<Self>) -> Result<(), StoreError>;
}

/// Everything a server keeps outside a request.
#[async_trait]
pub trait Store: Send + Sync {
    /// The store for messages: `memory`, `sqlite:<path>`, or the URL with
    /// its password hidden.
    fn describe(&self) -> String;
    /// The version of the store's schema, for stores that have one.
    fn schema_version(&self) -> Option<u32>;
    /// Whether several servers may share it (then each session has an
    /// owner, and a server holds only the sessions it owns).
    fn shared(&self) -> bool;
    /// Where session snapshots are saved, if they are persisted.
    fn snapshot_store(&self) -> Option<Arc<dyn SnapshotStore>>;

    /// Adds a grant (its session has no live one).
    async fn insert_grant(&self, grant: &Grant) -> Result<(), StoreError>;
    /// The grant a token hash names, with its session's owner.
    async fn grant_by_hash(&self, token_hash: &str) -> Result<Option<Grant>, StoreError>;
    /// The live grant of a session.
    async fn live_grant(&self, sandbox_id: &str) -> Result<Option<Grant>, StoreError>;
    /// Moves a session's expiry.
    async fn set_expiry(&self, sandbox_id: &str, expires_at: u64) -> Result<(), StoreError>;
    /// Revokes a session's grant.
    async fn revoke(&self, sandbox_id: &str) -> Result<(), StoreError>;

    /// Remembers an open session (replacing what was kept of it).
    async fn put_session(&self, session: &SessionRecord) -> Result<(), StoreError>;
    /// An open session, if kept.
    async fn session(&self, sandbox_id: &str) -> Result<Option<SessionRecord>, StoreError>;
    /// Makes `owner` the server holding a session.
    async fn set_owner(&self, sandbox_id: &str, owner: &str) -> Result<(), StoreError>;
    /// Forgets a closed session and its snapshots.
    async fn drop_session(&self, sandbox_id: &str) -> Result<(), StoreError>;

    /// Records a persisted snapshot (its blobs are stored already).
    async fn put_snapshot(
        &self,
        sandbox_id: &str,
        snapshot: &SnapshotRecord,
    ) -> Result<(), StoreError>;
    /// Snapshot `number` of a session, or its latest.
    async fn snapshot(
        &self,
        sandbox_id: &str,
        number: Option<u64>,
    ) -> Result<Option<SnapshotRecord>, StoreError>;

    /// Takes `workspace`'s submit lock, waiting for another holder.
    async fn fence(&self, workspace: &Arc<Workspace>) -> Result<Box<dyn Fence>, StoreError>;
    /// A workspace's change log, oldest first.
    async fn changes(&self, workspace: &Workspace) -> Result<ChangeLog, StoreError>;
}

/// Opens the store `config` names: a database is reached and its schema
/// brought to this build's version before the server starts.
pub async fn open(config: &StoreConfig) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match config {
        StoreConfig::Memory => Arc::new(MemoryStore::default()),
        StoreConfig::Sqlite(path) => Arc::new(SqliteStore::open(path)?),
        StoreConfig::Postgres(url) => Arc::new(PostgresStore::connect(url).await?),
    })
}

/// The local fence: the workspace's `flock`, taken on a blocking thread.
pub(crate) async fn local_lock(
    store: &str,
    workspace: &Arc<Workspace>,
) -> Result<crate::workspace::WorkspaceLock, StoreError> {
    let workspace = workspace.clone();
    let failed = |reason: String| StoreError::Unavailable {
        store: store.to_string(),
        reason,
    };
    tokio::task::spawn_blocking(move || workspace.lock())
        .await
        .map_err(|error| failed(error.to_string()))?
        .map_err(|error| failed(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_names_another_database() {
        assert_eq!(
            with_database("postgres://u@h:5432/test?sslmode=disable", "t1"),
            "postgres://u@h:5432/t1?sslmode=disable"
        );
        assert_eq!(with_database("postgres://u@h", "t1"), "postgres://u@h/t1");
    }

    #[test]
    fn urls_are_shown_without_their_password() {
        assert_eq!(
            redact("postgres://u:secret@db:5432/x?sslmode=disable"),
            "postgres://u:***@db:5432/x?sslmode=disable"
        );
        assert_eq!(redact("postgres://u@db/x"), "postgres://u@db/x");
        assert_eq!(redact("postgres://db/x"), "postgres://db/x");
        let error = StoreConfig::parse_url("mysql://u:pw@h/x").unwrap_err();
        assert!(error.to_string().contains("mysql://u:***@h/x"), "{error}");
        assert!(!error.to_string().contains("pw"));
    }
}
