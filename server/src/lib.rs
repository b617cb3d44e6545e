//! goccia's sandbox server (docs/server.md): persistent sandboxes over an
//! HTTP/1.1 JSON API, opened with the admin token and used with a token
//! grant (capabilities, TTL on the server's clock); fenced submits that
//! write a session's changes back to its workspace only if the workspace
//! is still what the caller last saw; and a change log recording who made
//! each change. A surface over the `goccia` library: it holds no sandbox
//! logic of its own.
//!
//! - [`ServerConfig`]: workspaces, state file, the ceiling of every
//!   session's limits and policy, the clock, the audit trail.
//! - [`Server`]: the router, serving on TCP or a Unix socket, evicting
//!   expired sessions.
//! - [`grants`]: tokens and capabilities; [`access`]: resolving a
//!   request's token against the store.
//! - [`workspace`]: roots (a merkle tree over every file's path and
//!   bytes) and the cross-process lock.
//! - [`connections`]: accepting connections, each bounded in how long its
//!   headers may take and in how many may be open at once.
//! - `console`: the web page at `/console` (`--console`), what it shows
//!   and the escalation requests it answers.
//! - [`provenance`]: the change log's records.
//! - [`store`]: where grants, sessions, snapshots and change logs live
//!   (memory, an SQLite file, or PostgreSQL shared by several servers),
//!   and the fence that serializes submits.
//! - [`clock`]: the injectable clock.

#![warn(missing_docs)]

pub mod access;
mod api;
pub mod clock;
pub mod connections;
mod console;
pub mod grants;
mod metrics;
pub mod provenance;
mod server;
mod sessions;
pub mod store;
pub mod workspace;

use std::future::Future;
use std::sync::Arc;

pub use server::{DEFAULT_MAX_BODY, ServerConfig, ServerError};
pub use sessions::{SeedRequest, SessionSpec};

/// The OpenAPI document of the API (served at `GET /v1/openapi.json`).
pub const OPENAPI: &str = include_str!("openapi.json");

/// A configured server (a handle: clones share the state).
#[derive(Clone)]
pub struct Server {
    shared: Arc<server::Shared>,
}

impl Server {
    /// Checks `config` (workspace folders exist, names are plain, the state
    /// file opens) and sets up the shared state, for a store in memory or
    /// in an SQLite file; a PostgreSQL store needs [`Server::open`].
    pub fn new(config: ServerConfig) -> Result<Server, ServerError> {
        let checked = server::Checked::new(config)?;
        let store: Arc<dyn store::Store> = match checked.store() {
            store::StoreConfig::Memory => Arc::new(store::MemoryStore::default()),
            store::StoreConfig::Sqlite(path) => Arc::new(store::SqliteStore::open(path)?),
            store::StoreConfig::Postgres(_) => return Err(ServerError::NeedsOpen),
        };
        Ok(Server {
            shared: Arc::new(checked.with_store(store)),
        })
    }

    /// [`Server::new`] for every store: checks `config`, then opens the
    /// store (a database is reached and migrated; one that cannot be is an
    /// error naming it — never a fallback to memory).
    pub async fn open(config: ServerConfig) -> Result<Server, ServerError> {
        let checked = server::Checked::new(config)?;
        let store = store::open(checked.store()).await?;
        Ok(Server {
            shared: Arc::new(checked.with_store(store)),
        })
    }

    /// The store in use, for messages (`memory`, `sqlite:<path>`, a URL
    /// without its password) and its schema version.
    pub fn store(&self) -> (String, Option<u32>) {
        (
            self.shared.store.describe(),
            self.shared.store.schema_version(),
        )
    }

    /// The API as an axum router (for tests, or to mount elsewhere).
    pub fn router(&self) -> axum::Router {
        let console = if self.shared.console.is_some() {
            console::routes()
        } else {
            axum::Router::new()
        };
        api::router(self.shared.clone(), console)
    }

    /// Drops the sessions whose grant expired or was revoked, or that
    /// another server sharing the store took over; returns how many.
    /// [`Server::serve`] runs it every few seconds. A store that does not
    /// answer evicts nothing.
    pub async fn evict_expired(&self) -> usize {
        let now = self.shared.now();
        let mut evicted = 0;
        for id in self.shared.sessions.ids() {
            let Ok(grant) = self.shared.store.live_grant(&id).await else {
                continue;
            };
            let live = grant
                .is_some_and(|grant| grant.expires_at > now && !self.shared.moved_away(&grant));
            if !live && self.shared.forget(&id).is_some() {
                evicted += 1;
            }
        }
        evicted
    }

    /// How many sessions are open in this process.
    pub fn open_sessions(&self) -> usize {
        self.shared.sessions.count()
    }

    /// Serves on `listener` until `shutdown` completes; calls in flight
    /// finish first (each is bounded by its deadline).
    pub async fn serve<L>(
        &self,
        listener: L,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()>
    where
        L: axum::serve::Listener,
        L::Addr: std::fmt::Debug,
    {
        let router = self.router();
        let evictor = self.clone();
        let eviction = tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
            loop {
                tick.tick().await;
                evictor.evict_expired().await;
            }
        });
        let timeout = self.shared.config.header_read_timeout;
        // Pages' event streams never end by themselves: they are ended
        // first, so requests in flight can finish and the server stop.
        let console = self.shared.console.clone();
        let shutdown = async move {
            shutdown.await;
            if let Some(console) = console {
                console.close();
            }
        };
        let served = connections::serve(listener, router, timeout, shutdown).await;
        eviction.abort();
        served
    }
}
