//! What a store holds of one snapshot, and what is handed to it to save.

use std::fmt;
use std::str::FromStr;

use bytes::Bytes;
use goccia_vfs::image::Contents;
use serde::{Deserialize, Serialize};

use crate::StoreError;

/// BLAKE3 of `bytes`, hex.
pub(crate) fn hash_hex(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// A saved snapshot's id: the BLAKE3 hash of its record, 64 hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SavedId(String);

impl SavedId {
    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SavedId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for SavedId {
    type Err = StoreError;

    fn from_str(text: &str) -> Result<SavedId, StoreError> {
        let hex = text.len() == 64
            && text
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte));
        if hex {
            Ok(SavedId(text.to_string()))
        } else {
            Err(StoreError::BadId(text.chars().take(80).collect()))
        }
    }
}

impl TryFrom<String> for SavedId {
    type Error = StoreError;

    fn try_from(text: String) -> Result<SavedId, StoreError> {
        text.parse()
    }
}

impl From<SavedId> for String {
    fn from(id: SavedId) -> String {
        id.0
    }
}

/// A saved snapshot as the store keeps it: the blobs it names and what
/// was said of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SnapshotRecord {
    /// Hash of the manifest that builds the baseline (what the diff
    /// compares against).
    pub baseline: String,
    /// Hash of the manifest that turns the baseline into the tree.
    pub changes: String,
    /// Hash of the script that puts the shell session back, if the
    /// snapshot holds the session's state.
    pub shell: Option<String>,
    /// What the caller called it.
    pub label: Option<String>,
    /// The saved snapshot its state came from, when that one was saved
    /// (or opened) too.
    pub parent: Option<SavedId>,
    /// When it was taken, ms since the epoch.
    pub taken_at_ms: u64,
    /// The bytes of file content its tree holds.
    pub bytes: u64,
}

impl SnapshotRecord {
    /// The record as stored (and hashed for its id).
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record serializes")
    }

    /// Its id: what saving it gives.
    pub fn id(&self) -> SavedId {
        SavedId(hash_hex(self.to_json().as_bytes()))
    }

    /// A record read back from the store.
    pub(crate) fn from_json(text: &str, store: &str) -> Result<SnapshotRecord, StoreError> {
        serde_json::from_str(text).map_err(|error| StoreError::Corrupt {
            store: store.to_string(),
            reason: format!("a snapshot record cannot be read: {error}"),
        })
    }
}

/// A manifest handed to [`SnapshotStore::save`](crate::SnapshotStore::save):
/// its JSON, its hash and every content it names.
#[derive(Clone, Debug)]
pub struct ManifestBlob {
    /// BLAKE3 of `json`.
    pub hash: String,
    /// The manifest.
    pub json: Bytes,
    /// The contents it names, by hash.
    pub contents: Contents,
}

impl ManifestBlob {
    /// The blob of `json`, naming `contents`.
    pub fn new(json: Vec<u8>, contents: Contents) -> ManifestBlob {
        ManifestBlob {
            hash: hash_hex(&json),
            json: json.into(),
            contents,
        }
    }
}

/// Everything [`SnapshotStore::save`](crate::SnapshotStore::save) writes.
#[derive(Clone, Debug)]
pub struct NewSnapshot {
    /// The record; its `baseline`, `changes` and `shell` name the blobs
    /// below.
    pub record: SnapshotRecord,
    /// The baseline's manifest and the changes' (the same one twice when
    /// nothing changed is fine).
    pub manifests: Vec<ManifestBlob>,
    /// The shell script `record.shell` names.
    pub shell: Option<Bytes>,
}

impl NewSnapshot {
    /// A snapshot to save from its two manifests and shell script; the
    /// record names their hashes.
    pub fn new(
        baseline: ManifestBlob,
        changes: ManifestBlob,
        shell: Option<String>,
        label: Option<String>,
        parent: Option<SavedId>,
        taken_at_ms: u64,
        bytes: u64,
    ) -> NewSnapshot {
        let shell = shell.map(|script| Bytes::from(script.into_bytes()));
        NewSnapshot {
            record: SnapshotRecord {
                baseline: baseline.hash.clone(),
                changes: changes.hash.clone(),
                shell: shell.as_deref().map(hash_hex),
                label,
                parent,
                taken_at_ms,
                bytes,
            },
            manifests: vec![baseline, changes],
            shell,
        }
    }
}

/// A saved snapshot: its id, its record and when it was saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Its id.
    pub id: SavedId,
    /// Its record.
    pub record: SnapshotRecord,
    /// When it was first saved, ms since the epoch.
    pub saved_at_ms: u64,
}

/// What [`SnapshotStore::gc`](crate::SnapshotStore::gc) removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GcReport {
    /// Blobs removed.
    pub blobs: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Now, ms since the epoch.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}
