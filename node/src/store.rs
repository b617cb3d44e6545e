//! `NativeStore`: where durable snapshots are saved (docs/snapshots.md) —
//! the path of an SQLite file or a PostgreSQL URL.

use std::sync::Arc;

use napi_derive::napi;

use crate::errors::to_js;

/// A snapshot store, opened (and set up if new) once.
#[napi]
pub struct NativeStore {
    pub(crate) inner: Arc<dyn goccia::store::SnapshotStore>,
}

/// A saved snapshot's id from JavaScript text.
pub(crate) fn saved_id(text: &str) -> napi::Result<goccia::store::SavedId> {
    text.parse()
        .map_err(|error: goccia::store::StoreError| to_js(error))
}

#[napi]
impl NativeStore {
    /// Opens the store at `location`: `postgres://...`, or a path.
    #[napi(constructor)]
    pub fn new(location: String) -> napi::Result<Self> {
        let inner = goccia::store::open(&location).map_err(to_js)?;
        Ok(NativeStore {
            inner: Arc::from(inner),
        })
    }

    /// The store, its password hidden.
    #[napi(getter)]
    pub fn location(&self) -> String {
        self.inner.describe()
    }

    /// Every saved snapshot, oldest first.
    #[napi(ts_return_type = "import('./index').SavedSnapshotInfo[]")]
    pub fn list(&self) -> napi::Result<serde_json::Value> {
        let saved = self.inner.list().map_err(to_js)?;
        Ok(serde_json::Value::Array(
            saved
                .into_iter()
                .map(|saved| {
                    serde_json::json!({
                        "id": saved.id.as_str(),
                        "parent": saved.record.parent.as_ref().map(|id| id.as_str().to_string()),
                        "label": saved.record.label,
                        "takenAt": saved.record.taken_at_ms,
                        "savedAt": saved.saved_at_ms,
                        "bytes": saved.record.bytes,
                        "hasShellState": saved.record.shell.is_some(),
                    })
                })
                .collect(),
        ))
    }

    /// Removes a saved snapshot (its blobs go at the next `gc`); whether
    /// there was one.
    #[napi]
    pub fn drop(&self, saved_id: String) -> napi::Result<bool> {
        let id = crate::store::saved_id(&saved_id)?;
        self.inner.remove(&id).map_err(to_js)
    }

    /// Removes every blob no saved snapshot names: `{blobs, bytes}` freed.
    #[napi(ts_return_type = "{ blobs: number; bytes: number }")]
    pub fn gc(&self) -> napi::Result<serde_json::Value> {
        let report = self.inner.gc().map_err(to_js)?;
        Ok(serde_json::json!({"blobs": report.blobs, "bytes": report.bytes}))
    }
}
