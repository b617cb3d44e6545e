//! Persisted snapshots: a sandbox's [`Image`] stored as blobs (every
//! content once, by BLAKE3; each manifest is a blob too) plus one record
//! naming the two manifests, so any server sharing the store can rebuild
//! the session. Blobs go first and the record last: a record never names
//! what is not stored.

use goccia::{Contents, Image, Manifest};

use super::{SnapshotRecord, Store, StoreError};

/// A snapshot read back from the store, ready for
/// [`Sandbox::load_image`](goccia::Sandbox::load_image).
pub struct Loaded {
    /// Its number in the session.
    pub number: u64,
    /// Builds the baseline.
    pub baseline: Manifest,
    /// Turns the baseline into the snapshot's tree.
    pub changes: Manifest,
    /// Every content the manifests name.
    pub contents: Contents,
}

fn blob_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

fn unsupported(store: &dyn Store) -> StoreError {
    StoreError::Config(format!("the store {} keeps no snapshots", store.describe()))
}

/// Stores `image` as snapshot `number` of `sandbox_id`.
pub async fn persist(
    store: &dyn Store,
    sandbox_id: &str,
    number: u64,
    image: &Image,
) -> Result<(), StoreError> {
    let blobs = store.blobs().ok_or_else(|| unsupported(store))?;
    let mut contents = image.contents.clone();
    let baseline = image.baseline.to_json();
    let changes = image.changes.to_json();
    let record = SnapshotRecord {
        number,
        baseline: blob_hash(&baseline),
        changes: blob_hash(&changes),
    };
    contents.insert(record.baseline.clone(), baseline.into());
    contents.insert(record.changes.clone(), changes.into());
    // Only what the store lacks travels: a session's baseline contents go
    // once, however many snapshots name them.
    let hashes: Vec<String> = contents.keys().cloned().collect();
    let missing = blobs.missing(&hashes).await?;
    if !missing.is_empty() {
        let wanted: Contents = missing
            .into_iter()
            .filter_map(|hash| contents.remove_entry(&hash))
            .collect();
        blobs.put(&wanted).await?;
    }
    store.put_snapshot(sandbox_id, &record).await
}

/// Snapshot `number` of `sandbox_id` (its latest for `None`), with all it
/// names; `None` if there is none.
pub async fn load(
    store: &dyn Store,
    sandbox_id: &str,
    number: Option<u64>,
) -> Result<Option<Loaded>, StoreError> {
    let Some(blobs) = store.blobs() else {
        return Ok(None);
    };
    let Some(record) = store.snapshot(sandbox_id, number).await? else {
        return Ok(None);
    };
    let corrupt = |reason: String| StoreError::Corrupt {
        store: store.describe(),
        reason,
    };
    let manifests = blobs
        .get(&[record.baseline.clone(), record.changes.clone()])
        .await?;
    let manifest = |hash: &String| -> Result<Manifest, StoreError> {
        let bytes = manifests
            .get(hash)
            .ok_or_else(|| corrupt(format!("the manifest {hash} of a snapshot is missing")))?;
        if blob_hash(bytes) != *hash {
            return Err(corrupt(format!(
                "the manifest stored as {hash} does not match its hash"
            )));
        }
        Manifest::from_json(bytes).map_err(|error| corrupt(error.to_string()))
    };
    let baseline = manifest(&record.baseline)?;
    let changes = manifest(&record.changes)?;
    let mut hashes = baseline.hashes();
    hashes.extend(changes.hashes());
    hashes.sort();
    hashes.dedup();
    let contents = blobs.get(&hashes).await?;
    Ok(Some(Loaded {
        number: record.number,
        baseline,
        changes,
        contents,
    }))
}
