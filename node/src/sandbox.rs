//! `NativeSandbox`: a sandbox built from a spec in JSON (docs/spec.md, the
//! JSON spelling), and its host-side calls. Runs are in `calls`.

use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi_derive::napi;
use parking_lot::Mutex;

use crate::errors::{closed, coded, to_js};
use crate::store::{Blocking, blocking};
use crate::values::{self, NativeChange};

/// One sandbox. `close()` lets its tree and shell go; a run in flight
/// keeps what it needs until it ends.
#[napi]
pub struct NativeSandbox {
    inner: Mutex<Option<Arc<goccia::Sandbox>>>,
}

impl NativeSandbox {
    fn wrap(sandbox: goccia::Sandbox) -> NativeSandbox {
        NativeSandbox {
            inner: Mutex::new(Some(Arc::new(sandbox))),
        }
    }

    /// The sandbox, unless it was closed.
    pub(crate) fn sandbox(&self) -> napi::Result<Arc<goccia::Sandbox>> {
        self.inner.lock().clone().ok_or_else(closed)
    }
}

/// The spec `json` names, its relative host paths read from the current
/// folder (as Python and the command line read them).
fn spec_of(json: &str) -> napi::Result<goccia::SandboxSpec> {
    let mut spec = goccia::SandboxSpec::from_json(json)
        .map_err(|error| to_js(goccia::SetupError::Spec(error)))?;
    let here = std::env::current_dir()
        .map_err(|error| coded("ERR_GOCCIA_SETUP", format!("the current folder: {error}")))?;
    spec.resolve_host_paths(&here);
    Ok(spec)
}

#[napi]
impl NativeSandbox {
    /// Builds a sandbox from a spec in JSON; seeding reads the host.
    #[napi(constructor)]
    pub fn new(spec_json: String) -> napi::Result<Self> {
        let spec = spec_of(&spec_json)?;
        let mut extras = goccia::Extras {
            advice: Some(goccia::spec::advice_for(goccia::Spelling::Json)),
            // Each call's answer carries the events it caused.
            keep_events: true,
            ..Default::default()
        };
        if spec.isolation == goccia::IsolationMode::Process {
            extras.worker = Some(goccia::isolation::WorkerProgram::installed().ok_or_else(|| {
                coded(
                    "ERR_GOCCIA_SPEC",
                    "isolation: \"process\" runs guests in the goccia command, which is not on PATH (set GOCCIA_WORKER to it)",
                )
            })?);
        }
        let sandbox = goccia::SandboxBuilder::from_spec(spec)
            .extras(extras)
            .build()
            .map_err(to_js)?;
        Ok(Self::wrap(sandbox))
    }

    /// The spec a sandbox with `spec_json` would be built from, validated,
    /// with host paths made absolute (JSON).
    #[napi]
    pub fn resolve_spec(spec_json: String) -> napi::Result<String> {
        let spec = spec_of(&spec_json)?;
        spec.validate()
            .map_err(|error| to_js(goccia::SetupError::Spec(error)))?;
        Ok(spec.to_json())
    }

    /// What this sandbox was built from (JSON).
    #[napi]
    pub fn spec(&self) -> napi::Result<String> {
        Ok(self.sandbox()?.spec().to_json())
    }

    /// A file's bytes.
    #[napi]
    pub fn read_file(&self, path: String) -> napi::Result<Buffer> {
        let bytes = self.sandbox()?.read(&path).map_err(to_js)?;
        Ok(bytes.to_vec().into())
    }

    /// Writes a file as the host (no policy applies), creating its folders.
    #[napi]
    pub fn write_file(&self, path: String, data: Buffer) -> napi::Result<()> {
        self.sandbox()?.write(&path, data.to_vec()).map_err(to_js)
    }

    /// Writes a file as guest code would (checked against the policy).
    #[napi]
    pub fn write_as_guest(&self, path: String, data: Buffer) -> napi::Result<()> {
        self.sandbox()?
            .write_as_guest(&path, data.to_vec())
            .map_err(to_js)
    }

    /// Removes a file or folder as the host.
    #[napi]
    pub fn remove(&self, path: String) -> napi::Result<()> {
        self.sandbox()?.remove(&path).map_err(to_js)
    }

    /// `[{path, type}]` under `path` (every level when `recursive`).
    #[napi(ts_return_type = "Array<{ path: string; type: string }>")]
    pub fn list(&self, path: String, recursive: bool) -> napi::Result<serde_json::Value> {
        values::listing(&*self.sandbox()?, &path, recursive)
    }

    /// Changes since the baseline, in apply order.
    #[napi]
    pub fn changes(&self) -> napi::Result<Vec<NativeChange>> {
        Ok(self
            .sandbox()?
            .changes()
            .into_iter()
            .map(NativeChange::from)
            .collect())
    }

    /// The diff: `unified` (a patch; with `root`, paths relative to that
    /// folder) or `json`.
    #[napi]
    pub fn diff(&self, format: String, root: Option<String>) -> napi::Result<String> {
        let sandbox = self.sandbox()?;
        let format = goccia::DiffFormat::parse(&format).ok_or_else(|| {
            coded(
                "ERR_INVALID_ARG_VALUE",
                format!("format: `{format}` is not one of unified, json"),
            )
        })?;
        match root {
            Some(root) => sandbox.diff_rooted(format, &root).map_err(to_js),
            None => Ok(sandbox.diff(format)),
        }
    }

    /// A child seeded from this sandbox in O(1): `[{from, to?}]` of VFS
    /// paths, or `[{path, text}]` files (JSON); `options_json`, its own
    /// `{limits, policy, env}`, each no wider than this sandbox's.
    #[napi]
    pub fn child(
        &self,
        seeds_json: String,
        options_json: Option<String>,
    ) -> napi::Result<NativeSandbox> {
        let sandbox = self.sandbox()?;
        let seeds = values::child_seeds(&seeds_json)?;
        let options = match options_json {
            Some(json) => values::child_options(&sandbox, &json)?,
            None => goccia::ChildOptions::new(),
        };
        let child = sandbox.child_with(&seeds, &options).map_err(to_js)?;
        Ok(Self::wrap(child))
    }

    /// Applies changes (another sandbox's `changes()`) with the merge rules;
    /// the merge report.
    #[napi(ts_return_type = "import('./index').MergeReport")]
    pub fn apply(&self, changes: Vec<&NativeChange>) -> napi::Result<serde_json::Value> {
        let changes: Vec<goccia::Change> = changes
            .into_iter()
            .map(|change| change.inner.clone())
            .collect();
        let report = self.sandbox()?.apply(&changes).map_err(to_js)?;
        Ok(values::merge_report(report))
    }

    /// Merges a child's changes, its `{from, to}` seeds mapped back.
    #[napi(ts_return_type = "import('./index').MergeReport")]
    pub fn merge(&self, child: &NativeSandbox) -> napi::Result<serde_json::Value> {
        let report = self.sandbox()?.merge(&*child.sandbox()?).map_err(to_js)?;
        Ok(values::merge_report(report))
    }

    /// Remembers the tree and the shell session's state, with an optional
    /// label; the number restores it.
    #[napi]
    pub fn snapshot(&self, label: Option<String>) -> napi::Result<u32> {
        let id = self
            .sandbox()?
            .snapshot_labeled(label.as_deref())
            .map_err(to_js)?;
        Ok(id.index() as u32)
    }

    /// Every snapshot: `{id, parent, label, takenAt, bytes, hasShellState}`.
    #[napi(ts_return_type = "import('./index').SnapshotInfo[]")]
    pub fn snapshots(&self) -> napi::Result<serde_json::Value> {
        let list = self.sandbox()?.snapshots();
        Ok(serde_json::Value::Array(
            list.into_iter()
                .map(|info| {
                    serde_json::json!({
                        "id": info.id.index(),
                        "parent": info.parent.map(|id| id.index()),
                        "label": info.label,
                        "takenAt": info
                            .taken_at
                            .duration_since(std::time::UNIX_EPOCH)
                            .map(|since| since.as_millis() as u64)
                            .unwrap_or(0),
                        "bytes": info.bytes,
                        "hasShellState": info.has_shell_state,
                    })
                })
                .collect(),
        ))
    }

    /// `count` sandboxes holding snapshot `id`'s tree and shell state (the
    /// state as it is now, without an id), the tree shared.
    #[napi]
    pub fn fork(&self, id: Option<u32>, count: u32) -> napi::Result<Vec<NativeSandbox>> {
        let forks = self
            .sandbox()?
            .fork(
                id.map(|id| goccia::SnapshotId::from_index(id as usize)),
                count as usize,
            )
            .map_err(to_js)?;
        Ok(forks.into_iter().map(Self::wrap).collect())
    }

    /// Writes snapshot `id` (files, baseline, shell state) to `store`;
    /// the saved id. Only what the store lacks is written, off the
    /// JavaScript thread.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn save(
        &self,
        store: &crate::store::NativeStore,
        id: u32,
    ) -> napi::Result<AsyncTask<Blocking<String>>> {
        let sandbox = self.sandbox()?;
        let target = store.inner.clone();
        Ok(blocking(move || {
            sandbox
                .save(target.as_ref(), goccia::SnapshotId::from_index(id as usize))
                .map(|saved| saved.to_string())
                .map_err(to_js)
        }))
    }

    /// Replaces the files, baseline and shell session with saved snapshot
    /// `savedId` of `store`; the sandbox's settings stay. All or nothing.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn load_saved(
        &self,
        store: &crate::store::NativeStore,
        saved_id: String,
    ) -> napi::Result<AsyncTask<Blocking<()>>> {
        let id = crate::store::saved_id(&saved_id)?;
        let sandbox = self.sandbox()?;
        let source = store.inner.clone();
        Ok(blocking(move || {
            sandbox.load_saved(source.as_ref(), &id).map_err(to_js)
        }))
    }

    /// A sandbox with the default settings holding saved snapshot
    /// `savedId` of `store`.
    #[napi(ts_return_type = "Promise<NativeSandbox>")]
    pub fn open(
        store: &crate::store::NativeStore,
        saved_id: String,
    ) -> napi::Result<AsyncTask<Blocking<NativeSandbox>>> {
        let id = crate::store::saved_id(&saved_id)?;
        let source = store.inner.clone();
        Ok(blocking(move || {
            goccia::Sandbox::open(source.as_ref(), &id)
                .map(Self::wrap)
                .map_err(to_js)
        }))
    }

    /// Puts the tree back as it was at snapshot `id`.
    #[napi]
    pub fn restore(&self, id: u32) -> napi::Result<()> {
        self.sandbox()?
            .restore(goccia::SnapshotId::from_index(id as usize))
            .map_err(to_js)
    }

    /// Back to the baseline.
    #[napi]
    pub fn reset(&self) -> napi::Result<()> {
        self.sandbox()?.reset();
        Ok(())
    }

    /// The tree as it is becomes the baseline.
    #[napi]
    pub fn rebaseline(&self) -> napi::Result<()> {
        self.sandbox()?.rebaseline();
        Ok(())
    }

    /// Writes the changes back to the `copyRw` seeds; what was written and
    /// skipped.
    #[napi(ts_return_type = "import('./index').WriteBackReport")]
    pub fn write_back(&self) -> napi::Result<serde_json::Value> {
        let report = self.sandbox()?.write_back().map_err(to_js)?;
        Ok(values::write_back_report(&report))
    }

    /// Lets the sandbox go; later calls fail with `ERR_GOCCIA_CLOSED`.
    #[napi]
    pub fn close(&self) {
        self.inner.lock().take();
    }

    /// Whether `close()` was called.
    #[napi(getter)]
    pub fn closed(&self) -> bool {
        self.inner.lock().is_none()
    }
}
