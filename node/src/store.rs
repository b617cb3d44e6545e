//! `NativeStore`: where durable snapshots are saved (docs/snapshots.md) —
//! the path of an SQLite file or a PostgreSQL URL.

use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, ToNapiValue, TypeName};
use napi::{Env, Task};
use napi_derive::napi;

use crate::errors::to_js;

/// Store I/O (a database round trip, a file's transaction) run on libuv's
/// pool, its answer settling a promise: the event loop never waits on a
/// store.
pub struct Blocking<T> {
    work: Option<Box<dyn FnOnce() -> napi::Result<T> + Send>>,
}

/// `work` as a promise.
pub(crate) fn blocking<T>(
    work: impl FnOnce() -> napi::Result<T> + Send + 'static,
) -> AsyncTask<Blocking<T>>
where
    T: Send + ToNapiValue + TypeName + 'static,
{
    AsyncTask::new(Blocking {
        work: Some(Box::new(work)),
    })
}

impl<T: Send + ToNapiValue + TypeName + 'static> Task for Blocking<T> {
    type Output = T;
    type JsValue = T;

    fn compute(&mut self) -> napi::Result<T> {
        match self.work.take() {
            Some(work) => work(),
            None => Err(napi::Error::from_reason("the task already ran")),
        }
    }

    fn resolve(&mut self, _: Env, output: T) -> napi::Result<T> {
        Ok(output)
    }
}

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

    /// Every saved snapshot, oldest first, as JSON text (parsed by the
    /// JavaScript half).
    #[napi(ts_return_type = "Promise<string>")]
    pub fn list(&self) -> AsyncTask<Blocking<String>> {
        let inner = self.inner.clone();
        blocking(move || list(inner.as_ref()).map(|list| list.to_string()))
    }

    /// Removes a saved snapshot (its blobs go at the next `gc`); whether
    /// there was one.
    #[napi(ts_return_type = "Promise<boolean>")]
    pub fn drop(&self, saved_id: String) -> napi::Result<AsyncTask<Blocking<bool>>> {
        let id = crate::store::saved_id(&saved_id)?;
        let inner = self.inner.clone();
        Ok(blocking(move || inner.remove(&id).map_err(to_js)))
    }

    /// Removes every blob no saved snapshot names: `{blobs, bytes}` freed,
    /// as JSON text.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn gc(&self) -> AsyncTask<Blocking<String>> {
        let inner = self.inner.clone();
        blocking(move || {
            let report = inner.gc().map_err(to_js)?;
            Ok(serde_json::json!({"blobs": report.blobs, "bytes": report.bytes}).to_string())
        })
    }
}

/// The list as JavaScript values.
fn list(store: &dyn goccia::store::SnapshotStore) -> napi::Result<serde_json::Value> {
    let saved = store.list().map_err(to_js)?;
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
