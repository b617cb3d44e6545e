//! The shared store: PostgreSQL, the database several servers already
//! share (docs/server.md). Its blob table is the server's own
//! (`goccia_blobs`), so a server keeps a session's snapshots with the same
//! code and the same deduplication as a library's `save`. Saves take an
//! advisory lock shared and `gc` takes it exclusive: a collection never
//! runs between a save's check of what is stored and its record.

use std::collections::BTreeSet;
use std::time::Duration;

use bytes::Bytes;
use goccia_vfs::image::Contents;
use parking_lot::Mutex;
use postgres::{Client, NoTls, Transaction};

use crate::record::now_ms;
use crate::{FORMAT_VERSION, GcReport, NewSnapshot, Saved, SavedId, SnapshotRecord};
use crate::{SnapshotStore, StoreError};

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS goccia_blobs (
        hash text PRIMARY KEY,
        content bytea NOT NULL
    );
    CREATE TABLE IF NOT EXISTS goccia_manifests (hash text PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS goccia_manifest_refs (
        manifest text NOT NULL,
        hash text NOT NULL,
        PRIMARY KEY (manifest, hash)
    );
    CREATE TABLE IF NOT EXISTS goccia_saved_snapshots (
        seq bigserial,
        id text PRIMARY KEY,
        baseline text NOT NULL,
        changes text NOT NULL,
        shell text,
        record text NOT NULL,
        saved_at bigint NOT NULL
    );";

/// The advisory lock every save takes shared and `gc` takes exclusive,
/// and set-up takes to create the tables once.
const LOCK_KEY: i64 = 0x676f_6363_6961_0002;

/// The manifests saved snapshots name.
const ROOT_MANIFESTS: &str = "SELECT baseline FROM goccia_saved_snapshots
     UNION SELECT changes FROM goccia_saved_snapshots";

/// Rows per statement when storing contents, and their bytes.
const BATCH: usize = 500;
const BATCH_BYTES: usize = 8 << 20;

/// How long connecting may take before the store is unavailable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A snapshot store in a PostgreSQL database.
pub struct PostgresStore {
    url: String,
    shown: String,
    client: Mutex<Client>,
}

impl PostgresStore {
    /// Connects to `url`, sets the store's tables up if missing, and
    /// checks its format.
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let shown = redact(url);
        let mut client = connect(url, &shown)?;
        let failed = |error: postgres::Error| StoreError::Unavailable {
            store: shown.clone(),
            reason: error.to_string(),
        };
        let mut transaction = client.transaction().map_err(failed)?;
        transaction
            .execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK_KEY])
            .map_err(failed)?;
        transaction
            .batch_execute(
                "CREATE TABLE IF NOT EXISTS goccia_store_format (version integer NOT NULL)",
            )
            .map_err(failed)?;
        let found: Option<i32> = transaction
            .query_one("SELECT max(version) FROM goccia_store_format", &[])
            .map_err(failed)?
            .get(0);
        match found {
            Some(found) if found as u32 > FORMAT_VERSION => {
                return Err(StoreError::UnknownFormat {
                    store: shown,
                    found: found as u32,
                    supported: FORMAT_VERSION,
                });
            }
            Some(_) => {}
            None => {
                transaction
                    .execute(
                        "INSERT INTO goccia_store_format (version) VALUES ($1)",
                        &[&(FORMAT_VERSION as i32)],
                    )
                    .map_err(failed)?;
            }
        }
        transaction.batch_execute(SCHEMA).map_err(failed)?;
        transaction.commit().map_err(failed)?;
        Ok(PostgresStore {
            url: url.to_string(),
            shown,
            client: Mutex::new(client),
        })
    }

    fn failed(&self, error: postgres::Error) -> StoreError {
        StoreError::Unavailable {
            store: self.shown.clone(),
            reason: error.to_string(),
        }
    }

    /// The client, connected again if the last connection was lost.
    fn client(&self) -> Result<parking_lot::MutexGuard<'_, Client>, StoreError> {
        let mut client = self.client.lock();
        if client.is_closed() {
            *client = connect(&self.url, &self.shown)?;
        }
        Ok(client)
    }

    fn record_of(&self, record: &str, id: String, saved_at: i64) -> Result<Saved, StoreError> {
        Ok(Saved {
            id: id.parse()?,
            record: SnapshotRecord::from_json(record, &self.shown)?,
            saved_at_ms: saved_at as u64,
        })
    }
}

fn connect(url: &str, shown: &str) -> Result<Client, StoreError> {
    let unavailable = |reason: String| StoreError::Unavailable {
        store: shown.to_string(),
        reason,
    };
    let mut config: postgres::Config = url
        .parse()
        .map_err(|error: postgres::Error| unavailable(error.to_string()))?;
    config.connect_timeout(CONNECT_TIMEOUT);
    config
        .connect(NoTls)
        .map_err(|error| unavailable(error.to_string()))
}

/// Stores each content once, in batches.
fn put_contents(
    transaction: &mut Transaction<'_>,
    contents: &Contents,
) -> Result<(), postgres::Error> {
    let mut hashes: Vec<&str> = Vec::new();
    let mut bodies: Vec<&[u8]> = Vec::new();
    let mut bytes = 0;
    let mut items = contents.iter().peekable();
    while let Some((hash, content)) = items.next() {
        hashes.push(hash);
        bodies.push(content);
        bytes += content.len();
        if hashes.len() >= BATCH || bytes >= BATCH_BYTES || items.peek().is_none() {
            transaction.execute(
                "INSERT INTO goccia_blobs (hash, content)
                 SELECT * FROM UNNEST($1::text[], $2::bytea[])
                 ON CONFLICT (hash) DO NOTHING",
                &[&hashes, &bodies],
            )?;
            hashes.clear();
            bodies.clear();
            bytes = 0;
        }
    }
    Ok(())
}

impl SnapshotStore for PostgresStore {
    fn describe(&self) -> String {
        self.shown.clone()
    }

    fn save(&self, snapshot: &NewSnapshot) -> Result<SavedId, StoreError> {
        let id = snapshot.record.id();
        let mut client = self.client()?;
        let write = |client: &mut Client| -> Result<(), postgres::Error> {
            let mut transaction = client.transaction()?;
            transaction.execute("SELECT pg_advisory_xact_lock_shared($1)", &[&LOCK_KEY])?;
            let exists = transaction
                .query_opt(
                    "SELECT 1 FROM goccia_saved_snapshots WHERE id = $1",
                    &[&id.as_str()],
                )?
                .is_some();
            if exists {
                return transaction.commit();
            }
            let mut done = BTreeSet::new();
            for manifest in &snapshot.manifests {
                let known = transaction
                    .query_opt(
                        "SELECT 1 FROM goccia_manifests WHERE hash = $1",
                        &[&manifest.hash],
                    )?
                    .is_some();
                if known || !done.insert(manifest.hash.as_str()) {
                    continue;
                }
                put_contents(&mut transaction, &manifest.contents)?;
                let named: Vec<&str> = manifest.contents.keys().map(String::as_str).collect();
                for chunk in named.chunks(BATCH * 10) {
                    transaction.execute(
                        "INSERT INTO goccia_manifest_refs (manifest, hash)
                         SELECT $1, UNNEST($2::text[]) ON CONFLICT DO NOTHING",
                        &[&manifest.hash, &chunk],
                    )?;
                }
                transaction.execute(
                    "INSERT INTO goccia_blobs (hash, content) VALUES ($1, $2)
                     ON CONFLICT (hash) DO NOTHING",
                    &[&manifest.hash, &manifest.json.as_ref()],
                )?;
                transaction.execute(
                    "INSERT INTO goccia_manifests (hash) VALUES ($1) ON CONFLICT DO NOTHING",
                    &[&manifest.hash],
                )?;
            }
            if let (Some(hash), Some(script)) = (&snapshot.record.shell, &snapshot.shell) {
                transaction.execute(
                    "INSERT INTO goccia_blobs (hash, content) VALUES ($1, $2)
                     ON CONFLICT (hash) DO NOTHING",
                    &[hash, &script.as_ref()],
                )?;
            }
            transaction.execute(
                "INSERT INTO goccia_saved_snapshots (id, baseline, changes, shell, record, saved_at)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
                &[
                    &id.as_str(),
                    &snapshot.record.baseline,
                    &snapshot.record.changes,
                    &snapshot.record.shell,
                    &snapshot.record.to_json(),
                    &(now_ms() as i64),
                ],
            )?;
            transaction.commit()
        };
        write(&mut client).map_err(|e| self.failed(e))?;
        Ok(id)
    }

    fn saved(&self, id: &SavedId) -> Result<Option<Saved>, StoreError> {
        let row = self
            .client()?
            .query_opt(
                "SELECT record, saved_at FROM goccia_saved_snapshots WHERE id = $1",
                &[&id.as_str()],
            )
            .map_err(|e| self.failed(e))?;
        row.map(|row| self.record_of(row.get(0), id.to_string(), row.get(1)))
            .transpose()
    }

    fn manifest(&self, hash: &str) -> Result<Option<(Bytes, Contents)>, StoreError> {
        let mut client = self.client()?;
        let Some(row) = client
            .query_opt("SELECT content FROM goccia_blobs WHERE hash = $1", &[&hash])
            .map_err(|e| self.failed(e))?
        else {
            return Ok(None);
        };
        let json = Bytes::from(row.get::<_, Vec<u8>>(0));
        let rows = client
            .query(
                "SELECT b.hash, b.content FROM goccia_manifest_refs r
                 JOIN goccia_blobs b ON b.hash = r.hash WHERE r.manifest = $1",
                &[&hash],
            )
            .map_err(|e| self.failed(e))?;
        let contents = rows
            .into_iter()
            .map(|row| (row.get(0), Bytes::from(row.get::<_, Vec<u8>>(1))))
            .collect();
        Ok(Some((json, contents)))
    }

    fn blob(&self, hash: &str) -> Result<Option<Bytes>, StoreError> {
        let row = self
            .client()?
            .query_opt("SELECT content FROM goccia_blobs WHERE hash = $1", &[&hash])
            .map_err(|e| self.failed(e))?;
        Ok(row.map(|row| Bytes::from(row.get::<_, Vec<u8>>(0))))
    }

    fn list(&self) -> Result<Vec<Saved>, StoreError> {
        let rows = self
            .client()?
            .query(
                "SELECT id, record, saved_at FROM goccia_saved_snapshots ORDER BY seq",
                &[],
            )
            .map_err(|e| self.failed(e))?;
        rows.into_iter()
            .map(|row| self.record_of(row.get(1), row.get(0), row.get(2)))
            .collect()
    }

    fn remove(&self, id: &SavedId) -> Result<bool, StoreError> {
        let removed = self
            .client()?
            .execute(
                "DELETE FROM goccia_saved_snapshots WHERE id = $1",
                &[&id.as_str()],
            )
            .map_err(|e| self.failed(e))?;
        Ok(removed > 0)
    }

    fn gc(&self) -> Result<GcReport, StoreError> {
        let mut client = self.client()?;
        let live = format!(
            "SELECT hash FROM goccia_manifest_refs WHERE manifest IN ({ROOT_MANIFESTS})
             UNION {ROOT_MANIFESTS}
             UNION SELECT shell FROM goccia_saved_snapshots WHERE shell IS NOT NULL"
        );
        let collect = |client: &mut Client| -> Result<GcReport, postgres::Error> {
            let mut transaction = client.transaction()?;
            transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK_KEY])?;
            let row = transaction.query_one(
                &format!(
                    "WITH gone AS (DELETE FROM goccia_blobs WHERE hash NOT IN ({live})
                                   RETURNING octet_length(content) AS size)
                     SELECT count(*), coalesce(sum(size), 0)::bigint FROM gone"
                ),
                &[],
            )?;
            transaction.batch_execute(&format!(
                "DELETE FROM goccia_manifest_refs WHERE manifest NOT IN ({ROOT_MANIFESTS});
                 DELETE FROM goccia_manifests WHERE hash NOT IN ({ROOT_MANIFESTS});"
            ))?;
            transaction.commit()?;
            Ok(GcReport {
                blobs: row.get::<_, i64>(0) as u64,
                bytes: row.get::<_, i64>(1) as u64,
            })
        };
        collect(&mut client).map_err(|e| self.failed(e))
    }
}

/// A URL with its password replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _password)) => format!("{scheme}://{name}:***@{host}{tail}"),
            None => format!("{scheme}://{user}@{host}{tail}"),
        },
        None => url.to_string(),
    }
}
