//! The server's configuration (a documented builder, every default
//! stated) and the state its handlers share.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use goccia::{Audit, Limits, PolicyMode};

use crate::clock::{Clock, SystemClock};
use crate::sessions::Sessions;
use crate::store::{Store, StoreConfig, StoreError};
use crate::workspace::Workspace;

/// How a server is set up.
///
/// Defaults: no workspace, the store in memory (no `--state`, no
/// `--store`), the library's default [`Limits`] and policy `full` as the
/// ceiling of every session, the system clock, no audit trail, request
/// bodies up to 16 MiB, request headers within 10 s, sessions in this
/// process (no isolation), and a server id of the host's name and the
/// process id.
#[derive(Clone)]
pub struct ServerConfig {
    pub(crate) admin_token: String,
    pub(crate) workspaces: Vec<(String, PathBuf)>,
    pub(crate) store: StoreConfig,
    pub(crate) server_id: String,
    /// The ceiling of every session's spec (and its defaults).
    pub(crate) spec: goccia::SandboxSpec,
    /// The worker program under `isolation: process`.
    pub(crate) worker: Option<goccia::isolation::WorkerProgram>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) audit: Audit,
    pub(crate) max_body_bytes: usize,
    pub(crate) header_read_timeout: std::time::Duration,
    /// Whether `/console` is served (docs/console.md).
    pub(crate) console: bool,
}

/// The largest request body by default.
pub const DEFAULT_MAX_BODY: usize = 16 << 20;

impl ServerConfig {
    /// A server whose sessions are opened with `admin_token`.
    pub fn new(admin_token: impl Into<String>) -> Self {
        ServerConfig {
            admin_token: admin_token.into(),
            workspaces: Vec::new(),
            store: StoreConfig::Memory,
            server_id: default_server_id(),
            spec: goccia::SandboxSpec::default(),
            worker: None,
            clock: Arc::new(SystemClock),
            audit: Audit::default(),
            max_body_bytes: DEFAULT_MAX_BODY,
            header_read_timeout: crate::connections::HEADER_READ_TIMEOUT,
            console: false,
        }
    }

    /// Serves the web console at `/console` (docs/console.md): the live
    /// sessions, their timelines and diffs, and — under `approve:
    /// console` — the escalation requests waiting for a person. Off by
    /// default.
    pub fn console(mut self, on: bool) -> Self {
        self.console = on;
        self
    }

    /// Serves the host folder `dir` as workspace `name` (repeatable).
    pub fn workspace(mut self, name: impl Into<String>, dir: impl Into<PathBuf>) -> Self {
        self.workspaces.push((name.into(), dir.into()));
        self
    }

    /// Keeps grants, open sessions' specs, persisted snapshots and change
    /// logs in this SQLite file, so they survive a restart.
    pub fn state(mut self, path: impl Into<PathBuf>) -> Self {
        self.store = StoreConfig::Sqlite(path.into());
        self
    }

    /// Where grants, sessions, snapshots and change logs live (a
    /// PostgreSQL store is shared by every server that names it).
    pub fn store(mut self, store: StoreConfig) -> Self {
        self.store = store;
        self
    }

    /// This server's name among those sharing a store: the owner recorded
    /// for the sessions it holds. A server restarted under the same id
    /// takes its sessions back.
    pub fn server_id(mut self, id: impl Into<String>) -> Self {
        self.server_id = id.into();
        self
    }

    /// The spec every session starts from and may only narrow (docs/spec.md,
    /// "The server"): its limits, policy, network, host commands and
    /// isolation are the most a session may have. Its `auditLog` is the
    /// server's; its seeds are not used (sessions seed from workspaces).
    pub fn spec(mut self, spec: goccia::SandboxSpec) -> Self {
        self.spec = spec;
        self
    }

    /// The most any session may have (each may ask for less): the spec's
    /// limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.spec.limits = goccia::LimitsSpec::from(&limits);
        self
    }

    /// The widest write policy any session may have.
    pub fn policy(mut self, policy: PolicyMode) -> Self {
        self.spec.policy = policy;
        self
    }

    /// The clock grants expire on.
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Where refusals and sandbox decisions are recorded.
    pub fn audit(mut self, audit: Audit) -> Self {
        self.audit = audit;
        self
    }

    /// The worker program when the spec's isolation is `process`
    /// (default: this very program).
    pub fn worker(mut self, worker: goccia::isolation::WorkerProgram) -> Self {
        self.worker = Some(worker);
        self
    }

    /// How long a client may take to send a request's headers before its
    /// connection is closed (default 10 s).
    pub fn header_read_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }

    /// The largest request body accepted (larger: 413).
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }
}

/// The server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A workspace folder is missing or not a folder.
    #[error("workspace `{name}`: {} is not a folder", .dir.display())]
    Workspace {
        /// Its name.
        name: String,
        /// Its folder.
        dir: PathBuf,
    },
    /// Two workspaces with one name, or a name that is not a plain word.
    #[error("workspace name `{0}` is used twice or is not made of letters, digits, `-`, `_`")]
    WorkspaceName(String),
    /// The admin token is too short to be a secret.
    #[error("the admin token must be at least 16 characters")]
    AdminToken,
    /// The store could not be opened or reached.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// A PostgreSQL store is reached asynchronously: use `Server::open`.
    #[error("a PostgreSQL store is opened with Server::open, not Server::new")]
    NeedsOpen,
}

/// The host's name and this process's id.
fn default_server_id() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .unwrap_or_else(|_| "localhost".to_string());
    format!("{host}:{}", std::process::id())
}

/// What every handler shares.
pub(crate) struct Shared {
    pub config: ServerConfig,
    pub workspaces: HashMap<String, Arc<Workspace>>,
    pub store: Arc<dyn Store>,
    pub sessions: Sessions,
    pub metrics: crate::metrics::Metrics,
    /// The console's state, when it is on.
    pub console: Option<Arc<crate::console::hub::Console>>,
}

/// A checked configuration: the admin token and the workspaces, before
/// any store is opened.
pub(crate) struct Checked {
    config: ServerConfig,
    workspaces: HashMap<String, Arc<Workspace>>,
}

impl Checked {
    /// Checks the admin token and every workspace (plain names, folders
    /// that exist).
    pub fn new(config: ServerConfig) -> Result<Checked, ServerError> {
        if config.admin_token.len() < 16 {
            return Err(ServerError::AdminToken);
        }
        let mut workspaces = HashMap::new();
        for (name, dir) in &config.workspaces {
            let plain = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            if !plain || workspaces.contains_key(name) {
                return Err(ServerError::WorkspaceName(name.clone()));
            }
            // Absolute and resolved: write-back reports resolved host paths,
            // and the change log names them relative to this folder.
            let resolved = std::fs::canonicalize(dir)
                .ok()
                .filter(|dir| dir.is_dir())
                .ok_or_else(|| ServerError::Workspace {
                    name: name.clone(),
                    dir: dir.clone(),
                })?;
            workspaces.insert(
                name.clone(),
                Arc::new(Workspace::new(name.clone(), resolved)),
            );
        }
        Ok(Checked { config, workspaces })
    }

    /// The store it names.
    pub fn store(&self) -> &StoreConfig {
        &self.config.store
    }

    /// The state every handler shares, around `store`.
    pub fn with_store(self, store: Arc<dyn Store>) -> Shared {
        let console = self.config.console.then(Default::default);
        Shared {
            console,
            config: self.config,
            workspaces: self.workspaces,
            store,
            sessions: Sessions::default(),
            metrics: crate::metrics::Metrics::default(),
        }
    }
}

impl Shared {
    pub fn now(&self) -> u64 {
        self.config.clock.now()
    }

    /// Drops session `id` from this server (closed, expired, or held
    /// elsewhere now).
    pub fn forget(&self, id: &str) -> Option<Arc<crate::sessions::Session>> {
        if let Some(console) = &self.console {
            console.closed(id);
        }
        self.sessions.remove(id)
    }

    /// This server's id among those sharing the store.
    pub fn server_id(&self) -> &str {
        &self.config.server_id
    }

    /// Whether the session of `grant` is held by another server sharing
    /// the store (so this server's copy, if any, is stale).
    pub fn moved_away(&self, grant: &crate::grants::Grant) -> bool {
        self.store.shared()
            && grant
                .owner
                .as_deref()
                .is_some_and(|owner| !owner.is_empty() && owner != self.config.server_id)
    }
}
