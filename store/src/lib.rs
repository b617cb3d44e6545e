//! Durable snapshots (docs/snapshots.md): a sandbox's snapshot saved to a
//! store and opened again in another process or on another machine.
//!
//! A saved snapshot is a small [`SnapshotRecord`] naming blobs by their
//! BLAKE3 hash: the manifest that builds the baseline, the manifest that
//! turns it into the snapshot's tree, and the script that puts the shell
//! session back. Every content is a blob too, stored once however many
//! snapshots name it; a record's id is the hash of the record itself, so
//! saving the same snapshot twice gives the same id.
//!
//! - [`SnapshotStore`]: what a store does, and its two kinds —
//!   [`SqliteStore`] (a file, the default that needs no server) and
//!   [`PostgresStore`] (shared by several processes and servers; its blob
//!   table is the server's).
//! - [`open`]: a store from a location (`postgres://...`, or a path).
//! - [`load`]: a saved snapshot with everything it names, each blob
//!   checked against its hash.
//! - [`FORMAT_VERSION`]: written in every store; a store of a later,
//!   unknown format is refused, never guessed at.

mod postgres;
mod record;
mod sqlite;

use bytes::Bytes;
use goccia_vfs::image::{Contents, Manifest};

pub use postgres::{PostgresStore, redact};
pub use record::{GcReport, ManifestBlob, NewSnapshot, Saved, SavedId, SnapshotRecord};
pub use sqlite::SqliteStore;

/// The store format this build writes and reads. A store keeps the
/// version that made it; one newer than this is refused
/// ([`StoreError::UnknownFormat`]).
pub const FORMAT_VERSION: u32 = 1;

/// Why a store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The location names no store this build can open.
    #[error(
        "`{0}` is not a snapshot store: give postgres://user@host:port/database or the path of an SQLite file"
    )]
    Location(String),
    /// The store did not answer, or answered with an error.
    #[error("the snapshot store {store} failed: {reason}")]
    Unavailable {
        /// The store, without a password.
        store: String,
        /// What went wrong.
        reason: String,
    },
    /// The store was written by a later build.
    #[error(
        "the snapshot store {store} has format version {found}; this build reads up to version {supported} — open it with a newer goccia"
    )]
    UnknownFormat {
        /// The store.
        store: String,
        /// The version it holds.
        found: u32,
        /// [`FORMAT_VERSION`].
        supported: u32,
    },
    /// The store holds something that cannot be read or does not match
    /// its hash.
    #[error("the snapshot store {store} holds data that cannot be used: {reason}")]
    Corrupt {
        /// The store.
        store: String,
        /// What is wrong.
        reason: String,
    },
    /// No saved snapshot has this id.
    #[error("the snapshot store {store} holds no snapshot {id}")]
    NotFound {
        /// The store.
        store: String,
        /// The id asked for.
        id: String,
    },
    /// The text is not a saved snapshot's id.
    #[error("`{0}` is not a saved snapshot's id (64 hexadecimal digits)")]
    BadId(String),
}

/// A store of saved snapshots. Each call is one transaction: a record is
/// never visible before every blob it names, and [`gc`](Self::gc) never
/// removes a blob a concurrent [`save`](Self::save) is about to name.
pub trait SnapshotStore: Send + Sync {
    /// The store, for messages (a URL without its password, or
    /// `sqlite:<path>`).
    fn describe(&self) -> String;
    /// Writes what the store lacks of `snapshot` — a manifest it already
    /// holds is skipped with every content it names — and its record.
    fn save(&self, snapshot: &NewSnapshot) -> Result<SavedId, StoreError>;
    /// The saved snapshot `id`, if there is one.
    fn saved(&self, id: &SavedId) -> Result<Option<Saved>, StoreError>;
    /// A manifest's bytes and every content it names (unchecked).
    fn manifest(&self, hash: &str) -> Result<Option<(Bytes, Contents)>, StoreError>;
    /// One blob (unchecked).
    fn blob(&self, hash: &str) -> Result<Option<Bytes>, StoreError>;
    /// Every saved snapshot, oldest first.
    fn list(&self) -> Result<Vec<Saved>, StoreError>;
    /// Removes a saved snapshot's record (its blobs go at the next
    /// [`gc`](Self::gc)); whether there was one.
    fn remove(&self, id: &SavedId) -> Result<bool, StoreError>;
    /// Removes every blob no saved snapshot names, and says what it freed.
    fn gc(&self) -> Result<GcReport, StoreError>;
}

/// The store `location` names: `postgres://` or `postgresql://` URLs are
/// PostgreSQL, `sqlite:<path>` or any other text is the path of an SQLite
/// file (made if missing). Either is set up on first use.
pub fn open(location: &str) -> Result<Box<dyn SnapshotStore>, StoreError> {
    if location.starts_with("postgres://") || location.starts_with("postgresql://") {
        return Ok(Box::new(PostgresStore::connect(location)?));
    }
    let path = location.strip_prefix("sqlite:").unwrap_or(location);
    if path.is_empty() {
        return Err(StoreError::Location(location.to_string()));
    }
    Ok(Box::new(SqliteStore::open(std::path::Path::new(path))?))
}

/// A saved snapshot read back with everything it names.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// Its id.
    pub id: SavedId,
    /// Its record.
    pub record: SnapshotRecord,
    /// Builds the baseline.
    pub baseline: Manifest,
    /// Turns the baseline into the snapshot's tree.
    pub changes: Manifest,
    /// Every content the manifests name.
    pub contents: Contents,
    /// The script that puts the shell session back, if it was saved.
    pub shell: Option<String>,
}

/// Saved snapshot `id` of `store` with its manifests, contents and shell
/// state. Manifests and the shell script are checked against their
/// hashes here; contents when the tree is built from them.
pub fn load(store: &dyn SnapshotStore, id: &SavedId) -> Result<Loaded, StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        store: store.describe(),
        reason,
    };
    let saved = store.saved(id)?.ok_or_else(|| StoreError::NotFound {
        store: store.describe(),
        id: id.to_string(),
    })?;
    let mut contents = Contents::new();
    let mut manifest = |hash: &str| -> Result<Manifest, StoreError> {
        let (bytes, named) = store
            .manifest(hash)?
            .ok_or_else(|| corrupt(format!("the manifest {hash} of snapshot {id} is missing")))?;
        if record::hash_hex(&bytes) != hash {
            return Err(corrupt(format!(
                "the manifest stored as {hash} does not match its hash"
            )));
        }
        contents.extend(named);
        Manifest::from_json(&bytes).map_err(|error| corrupt(error.to_string()))
    };
    let baseline = manifest(&saved.record.baseline)?;
    let changes = manifest(&saved.record.changes)?;
    let shell = match &saved.record.shell {
        None => None,
        Some(hash) => {
            let bytes = store.blob(hash)?.ok_or_else(|| {
                corrupt(format!(
                    "the shell state {hash} of snapshot {id} is missing"
                ))
            })?;
            if record::hash_hex(&bytes) != *hash {
                return Err(corrupt(format!(
                    "the shell state stored as {hash} does not match its hash"
                )));
            }
            Some(
                String::from_utf8(bytes.to_vec())
                    .map_err(|_| corrupt(format!("the shell state {hash} is not UTF-8")))?,
            )
        }
    };
    Ok(Loaded {
        id: saved.id,
        record: saved.record,
        baseline,
        changes,
        contents,
        shell,
    })
}

/// Saves a tree kept before durable snapshots existed (a server's session
/// snapshot of an earlier build: two manifests whose contents are blobs
/// of this store already) as a saved snapshot, so that `gc` knows what
/// it names. Its id.
pub fn adopt(
    store: &dyn SnapshotStore,
    baseline: &str,
    changes: &str,
) -> Result<SavedId, StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        store: store.describe(),
        reason,
    };
    let mut bytes = 0;
    let mut blob_of = |hash: &str| -> Result<ManifestBlob, StoreError> {
        let json = store
            .blob(hash)?
            .ok_or_else(|| corrupt(format!("the manifest {hash} is missing")))?;
        let manifest = Manifest::from_json(&json).map_err(|error| corrupt(error.to_string()))?;
        let mut contents = Contents::new();
        for content in manifest.hashes() {
            let data = store
                .blob(&content)?
                .ok_or_else(|| corrupt(format!("the content {content} is missing")))?;
            bytes += data.len() as u64;
            contents.insert(content, data);
        }
        Ok(ManifestBlob::new(json.to_vec(), contents))
    };
    let baseline = blob_of(baseline)?;
    let changes = blob_of(changes)?;
    store.save(&NewSnapshot::new(
        baseline, changes, None, None, None, 0, bytes,
    ))
}

#[cfg(test)]
mod tests;
