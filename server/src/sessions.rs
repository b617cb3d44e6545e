//! Sessions: persistent sandboxes seeded from a workspace, one per grant.
//! What a session was opened with (its spec) is kept so that, with
//! `--state`, a session whose grant survived a restart is seeded again on
//! its first request (its VFS does not survive: it restarts from the
//! workspace as it is then).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use goccia::{Limits, PolicyMode, Sandbox, SnapshotId};
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

/// Limits a session asks for (each at most the server's own).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LimitsRequest {
    /// The deadline of each call, in ms.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub timeout_ms: Option<u64>,
    /// The JS heap (and the shell's memory allowance), in bytes.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_memory: Option<u64>,
    /// Output per call, in bytes.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_output: Option<u64>,
    /// Bytes of file content in the VFS.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub fs_quota_bytes: Option<u64>,
}

/// Everything a session was opened with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionSpec {
    /// The workspace's name.
    pub workspace: String,
    /// Its seeds.
    pub seeds: Vec<SeedRequest>,
    /// Its write policy mode.
    pub policy: PolicyMode,
    /// Its limits as asked.
    pub limits: LimitsRequest,
    /// Whether it may nest (`child` capability).
    pub nesting: bool,
    /// How the seeds are taken (§10's seeding options) and what else the
    /// sandbox starts with.
    #[serde(default)]
    pub seeding: SeedingRequest,
}

/// The seeding options of contract §10 for a session, and its extra
/// writable roots and environment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeedingRequest {
    /// Gitignore-style patterns left out of the seeds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// Honour `.gitignore`, `.ignore`, `.git/info/exclude`; leave `.git/` out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gitignore: bool,
    /// `refuse` (default), `skip` or `keep` for links inside seeded folders.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub symlinks: Option<String>,
    /// Exported variables every shell of the session starts with.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub env: std::collections::BTreeMap<String, String>,
    /// Writable roots for `workspace-write`, besides the seeds' targets and
    /// `/tmp`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writable: Vec<String>,
}

/// Why a session could not be opened as asked.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// `symlinks` is not one of the three names.
    #[error("symlinks must be refuse, skip or keep, not `{0}`")]
    Symlinks(String),
    /// A seed's `from` is absolute or climbs out with `..`.
    #[error("seed `{0}`: `from` must be a path inside the workspace (relative, no `..`)")]
    Seed(String),
    /// A limit above the server's.
    #[error("limit `{name}` of {asked} is above the server's {allowed}")]
    Limit {
        /// The field.
        name: &'static str,
        /// What was asked.
        asked: u64,
        /// The server's.
        allowed: u64,
    },
    /// A policy wider than the server's.
    #[error("policy \"{asked}\" is wider than the server's \"{allowed}\"")]
    Policy {
        /// What was asked.
        asked: PolicyMode,
        /// The server's.
        allowed: PolicyMode,
    },
    /// Building the sandbox failed (a seed missing, over the quota, ...).
    #[error("{0}")]
    Setup(#[from] goccia::SetupError),
}

impl SessionSpec {
    /// The limits the session runs with: the server's, narrowed as asked.
    pub fn limits(&self, server: &Limits) -> Result<Limits, SpecError> {
        let narrow = |name, asked: Option<u64>, allowed: u64| match asked {
            Some(asked) if asked > allowed => Err(SpecError::Limit {
                name,
                asked,
                allowed,
            }),
            Some(asked) => Ok(asked),
            None => Ok(allowed),
        };
        let server_timeout = server.timeout.as_millis() as u64;
        let mut limits = server.clone();
        limits.timeout =
            Duration::from_millis(narrow("timeoutMs", self.limits.timeout_ms, server_timeout)?);
        limits.max_memory = narrow("maxMemory", self.limits.max_memory, server.max_memory)?;
        limits.max_output = narrow("maxOutput", self.limits.max_output, server.max_output)?;
        limits.fs_quota_bytes = narrow(
            "fsQuotaBytes",
            self.limits.fs_quota_bytes,
            server.fs_quota_bytes,
        )?;
        if !self.nesting {
            limits.max_depth = 0;
        }
        Ok(limits)
    }

    /// Builds the session's sandbox: each seed `copy_rw` from the
    /// workspace, the policy and limits checked against the server's.
    pub fn build(
        &self,
        workspace: &Workspace,
        server_limits: &Limits,
        server_policy: PolicyMode,
        audit: &goccia::Audit,
        isolation: &goccia::isolation::Isolation,
    ) -> Result<Sandbox, SpecError> {
        if self.policy > server_policy {
            return Err(SpecError::Policy {
                asked: self.policy,
                allowed: server_policy,
            });
        }
        let limits = self.limits(server_limits)?;
        let seeding = &self.seeding;
        let mut builder = Sandbox::builder()
            .limits(limits)
            .policy(self.policy)
            .audit(audit.clone())
            .isolation(isolation.clone())
            .gitignore(seeding.gitignore);
        if let Some(name) = &seeding.symlinks {
            let policy = name
                .parse::<goccia::SymlinkPolicy>()
                .map_err(|_| SpecError::Symlinks(name.clone()))?;
            builder = builder.symlinks(policy);
        }
        for pattern in &seeding.exclude {
            builder = builder.exclude(pattern.clone());
        }
        for (name, value) in &seeding.env {
            builder = builder.env(name.clone(), value.clone());
        }
        for root in &seeding.writable {
            builder = builder.writable(root.clone());
        }
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
            builder = builder.copy_rw(workspace.dir.join(relative), Some(&seed.to));
        }
        Ok(builder.build()?)
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
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    format!("sb_{}", crate::workspace::hex(&bytes))
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
