//! Sessions: persistent sandboxes seeded from a workspace, one per grant.
//! What a session was opened with is kept (its workspace, its seeds and
//! its own [`SandboxSpec`], within the server's) so that, with `--state`,
//! a session whose grant survived a restart is built again on its first
//! request.

use std::collections::HashMap;
use std::sync::Arc;

use goccia::{Extras, Sandbox, SandboxBuilder, SandboxSpec, SeedSpec, SnapshotId};
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};

use crate::workspace::Workspace;

/// A seed of a session: `from` relative to the workspace folder (`.` for
/// all of it), `to` a VFS path. Submits write back to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedRequest {
    /// Relative to the workspace folder; no `..`.
    pub from: String,
    /// Where it lands in the VFS.
    pub to: String,
}

/// Everything a session was opened with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSpec {
    /// The workspace's name.
    pub workspace: String,
    /// Its seeds.
    pub seeds: Vec<SeedRequest>,
    /// Whether it may nest (`child` capability).
    pub nesting: bool,
    /// Its own settings: the server's spec with what the request asked
    /// for merged in (and found within it). `None` for a session stored
    /// by a build before the spec: it gets the server's.
    #[serde(default)]
    pub sandbox: Option<SandboxSpec>,
}

/// Why a session could not be opened as asked.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// A seed's `from` is absolute or climbs out with `..`.
    #[error("seed `{0}`: `from` must be a path inside the workspace (relative, no `..`)")]
    Seed(String),
    /// A setting the server's own spec does not allow.
    #[error("{0}")]
    Wider(#[from] goccia::Widening),
    /// A setting no sandbox could be built with.
    #[error("{0}")]
    Invalid(#[from] goccia::SpecError),
    /// Building the sandbox failed (a seed missing, over the quota, ...).
    #[error("{0}")]
    Setup(#[from] goccia::SetupError),
}

/// The session's settings: the server's spec (`ceiling`) with `asked` (a
/// request's JSON object, spelled as a spec is) merged over it — objects
/// field by field, anything else replaced — checked to stay within it.
pub fn merged_spec(
    ceiling: &SandboxSpec,
    asked: serde_json::Map<String, serde_json::Value>,
) -> Result<SandboxSpec, SpecError> {
    let mut value = serde_json::to_value(ceiling).expect("a spec is plain data");
    merge(&mut value, serde_json::Value::Object(asked));
    let spec = SandboxSpec::from_value(value)?;
    spec.validate()?;
    spec.within(ceiling)?;
    Ok(spec)
}

/// `patch` over `base`: objects merge key by key, anything else replaces.
fn merge(base: &mut serde_json::Value, patch: serde_json::Value) {
    match (base, patch) {
        (serde_json::Value::Object(base), serde_json::Value::Object(patch)) => {
            for (key, value) in patch {
                merge(base.entry(key).or_insert(serde_json::Value::Null), value);
            }
        }
        (base, patch) => *base = patch,
    }
}

impl SessionSpec {
    /// Builds the session's sandbox: its spec (checked again against the
    /// server's, which may have narrowed since), each seed written back
    /// to its workspace path, no nesting without `child`, events into
    /// `audit` (the server's trail, scoped to the session).
    pub fn build(
        &self,
        workspace: &Workspace,
        ceiling: &SandboxSpec,
        extras: Extras,
    ) -> Result<Sandbox, SpecError> {
        let mut spec = self.sandbox.clone().unwrap_or_else(|| ceiling.clone());
        spec.within(ceiling)?;
        spec.seeds.clear();
        for seed in &self.seeds {
            let relative = std::path::Path::new(&seed.from);
            let inside = !relative.is_absolute()
                && relative.components().all(|c| {
                    matches!(
                        c,
                        std::path::Component::Normal(_) | std::path::Component::CurDir
                    )
                });
            if !inside {
                return Err(SpecError::Seed(seed.from.clone()));
            }
            spec.seeds.push(SeedSpec::Host {
                from: workspace.dir.join(relative),
                to: Some(seed.to.clone()),
                copy_rw: true,
            });
        }
        if !self.nesting {
            spec.limits.max_depth = 0;
        }
        // The server's log, through `extras`: a session has none of its own.
        spec.audit_log = None;
        Ok(SandboxBuilder::from_spec(spec).extras(extras).build()?)
    }
}

/// One open session.
pub struct Session {
    /// Its id (`sb_...`).
    pub id: String,
    /// What it was opened with.
    pub spec: SessionSpec,
    /// Its sandbox.
    pub sandbox: Arc<Sandbox>,
    /// Snapshots taken through the API.
    pub snapshots: Mutex<SnapshotTable>,
}

/// A session's snapshots by the number the API showed. Numbers go on
/// across servers: a session resumed from snapshot `n` numbers its next
/// one `n + 1`, and the earlier ones are loaded from the store when asked.
#[derive(Default)]
pub struct SnapshotTable {
    here: HashMap<u64, SnapshotId>,
    next: u64,
}

impl SnapshotTable {
    /// A table whose numbers continue after `last`, which is `snapshot`.
    pub fn resumed(last: u64, snapshot: SnapshotId) -> SnapshotTable {
        SnapshotTable {
            here: HashMap::from([(last, snapshot)]),
            next: last + 1,
        }
    }

    /// Records `snapshot` under the next number, and returns it.
    pub fn push(&mut self, snapshot: SnapshotId) -> u64 {
        let number = self.next;
        self.here.insert(number, snapshot);
        self.next += 1;
        number
    }

    /// The snapshot numbered `number`, if taken in this process.
    pub fn get(&self, number: u64) -> Option<SnapshotId> {
        self.here.get(&number).copied()
    }

    /// The snapshots taken in this process, by number, in order.
    pub fn numbered(&self) -> Vec<(u64, SnapshotId)> {
        let mut numbered: Vec<(u64, SnapshotId)> = self
            .here
            .iter()
            .map(|(number, id)| (*number, *id))
            .collect();
        numbered.sort_by_key(|(number, _)| *number);
        numbered
    }

    /// The number the next snapshot gets (every number below it was
    /// given, here or before a resume).
    pub fn next(&self) -> u64 {
        self.next
    }

    /// Whether `number` was ever given (here or before a resume).
    pub fn given(&self, number: u64) -> bool {
        number < self.next
    }
}

/// The open sessions.
#[derive(Default)]
pub struct Sessions {
    open: Mutex<HashMap<String, Arc<Session>>>,
}

impl Sessions {
    /// The session `id`, if open in this process.
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        self.open.lock().get(id).cloned()
    }

    /// Adds a session.
    pub fn insert(&self, session: Arc<Session>) {
        self.open.lock().insert(session.id.clone(), session);
    }

    /// Adds `session` unless one with its id got there first; returns the
    /// one held.
    pub fn insert_or_get(&self, session: Arc<Session>) -> Arc<Session> {
        self.open
            .lock()
            .entry(session.id.clone())
            .or_insert(session)
            .clone()
    }

    /// Drops a session (closing, or evicting an expired one).
    pub fn remove(&self, id: &str) -> Option<Arc<Session>> {
        self.open.lock().remove(id)
    }

    /// Every open session.
    pub fn all(&self) -> Vec<Arc<Session>> {
        self.open.lock().values().cloned().collect()
    }

    /// The ids of every open session.
    pub fn ids(&self) -> Vec<String> {
        self.open.lock().keys().cloned().collect()
    }

    /// How many are open.
    pub fn count(&self) -> usize {
        self.open.lock().len()
    }
}

/// A fresh session id: `sb_` and 16 random bytes, hex.
pub fn new_id() -> String {
    random_id("sb_")
}

/// `prefix` and 16 random bytes, hex: an id nobody can guess.
pub fn random_id(prefix: &str) -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    format!("{prefix}{}", crate::workspace::hex(&bytes))
}

/// An optional field that, when present, must hold a value: `null` is
/// refused (naming the expected type) rather than taken as absent, so the
/// API accepts exactly what its OpenAPI document describes.
pub(crate) fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}
