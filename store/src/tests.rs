//! The store's calls against both backends: SQLite always, PostgreSQL
//! when `GOCCIA_TEST_POSTGRES` names a server (in a database of its own).

use bytes::Bytes;
use goccia_vfs::image::{Contents, Manifest, ManifestStep};

use crate::record::hash_hex;
use crate::{
    GcReport, ManifestBlob, NewSnapshot, PostgresStore, SnapshotStore, SqliteStore, StoreError,
};

/// A manifest of one file per content, and its blob.
fn manifest_of(files: &[(&str, &str)]) -> ManifestBlob {
    let mut contents = Contents::new();
    let steps = files
        .iter()
        .map(|(path, content)| {
            let hash = hash_hex(content.as_bytes());
            contents.insert(hash.clone(), Bytes::from(content.to_string()));
            ManifestStep::File {
                path: path.to_string(),
                mode: 0o644,
                mtime: 0,
                hash,
                size: content.len() as u64,
            }
        })
        .collect();
    let manifest = Manifest {
        version: goccia_vfs::image::MANIFEST_VERSION,
        steps,
    };
    ManifestBlob::new(manifest.to_json(), contents)
}

fn snapshot(changes: &[(&str, &str)], label: &str) -> NewSnapshot {
    NewSnapshot::new(
        manifest_of(&[("/a", "shared one"), ("/b", "shared two")]),
        manifest_of(changes),
        Some(format!("cd /work # {label}\n")),
        Some(label.to_string()),
        None,
        1,
        20,
    )
}

fn saves_loads_deduplicates_and_collects(store: &dyn SnapshotStore) {
    let first = store.save(&snapshot(&[("/c", "first")], "one")).unwrap();
    assert_eq!(
        store.save(&snapshot(&[("/c", "first")], "one")).unwrap(),
        first,
        "the same snapshot saved twice is one"
    );
    let second = store.save(&snapshot(&[("/c", "second")], "two")).unwrap();
    assert_ne!(first, second);

    let loaded = crate::load(store, &first).unwrap();
    assert_eq!(loaded.record.label.as_deref(), Some("one"));
    assert_eq!(loaded.shell.as_deref(), Some("cd /work # one\n"));
    assert_eq!(loaded.baseline.steps.len(), 2);
    assert_eq!(loaded.contents.len(), 3);
    assert_eq!(
        store
            .list()
            .unwrap()
            .iter()
            .map(|s| &s.id)
            .collect::<Vec<_>>(),
        vec![&first, &second]
    );

    assert_eq!(store.gc().unwrap(), GcReport::default(), "all is named");
    assert!(store.remove(&first).unwrap());
    assert!(!store.remove(&first).unwrap());
    // What only the first named: its changes manifest, its content and its
    // shell script. The shared baseline and its contents stay.
    let changes = manifest_of(&[("/c", "first")]);
    let freed = store.gc().unwrap();
    assert_eq!(freed.blobs, 3);
    assert_eq!(
        freed.bytes,
        (changes.json.len() + "first".len() + "cd /work # one\n".len()) as u64
    );
    let kept = crate::load(store, &second).unwrap();
    assert_eq!(kept.contents.len(), 3);
    assert!(matches!(
        crate::load(store, &first),
        Err(StoreError::NotFound { .. })
    ));

    // Saved again after the collection, the first is whole again.
    let again = store.save(&snapshot(&[("/c", "first")], "one")).unwrap();
    assert_eq!(again, first);
    assert_eq!(crate::load(store, &first).unwrap().contents.len(), 3);
}

#[test]
fn sqlite_saves_loads_deduplicates_and_collects() {
    let folder = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&folder.path().join("snapshots.db")).unwrap();
    saves_loads_deduplicates_and_collects(&store);
}

#[test]
fn an_sqlite_store_of_a_later_format_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("snapshots.db");
    drop(SqliteStore::open(&path).unwrap());
    let connection = rusqlite::Connection::open(&path).unwrap();
    connection
        .execute("UPDATE goccia_store_format SET version = 99", [])
        .unwrap();
    let error = SqliteStore::open(&path).err().unwrap();
    assert!(matches!(
        error,
        StoreError::UnknownFormat {
            found: 99,
            supported: 1,
            ..
        }
    ));
    assert!(
        error
            .to_string()
            .contains("has format version 99; this build reads up to version 1"),
        "{error}"
    );
}

#[test]
fn a_manifest_that_does_not_match_its_hash_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("snapshots.db");
    let store = SqliteStore::open(&path).unwrap();
    let new = snapshot(&[("/c", "x")], "x");
    let id = store.save(&new).unwrap();
    let connection = rusqlite::Connection::open(&path).unwrap();
    connection
        .execute(
            "UPDATE goccia_blobs SET content = x'7b7d' WHERE hash = ?1",
            [&new.record.changes],
        )
        .unwrap();
    let error = crate::load(&store, &id).unwrap_err();
    assert!(
        error.to_string().contains("does not match its hash"),
        "{error}"
    );
}

#[test]
fn ids_and_locations_are_checked() {
    assert!(matches!(
        "abc".parse::<crate::SavedId>(),
        Err(StoreError::BadId(_))
    ));
    assert!(matches!(
        crate::open("sqlite:"),
        Err(StoreError::Location(_))
    ));
    assert_eq!(
        crate::redact("postgres://me:hunter2@db:5432/x"),
        "postgres://me:***@db:5432/x"
    );
}

/// A database of its own on the test server, made empty.
fn postgres_database(name: &str) -> Option<String> {
    let url = std::env::var("GOCCIA_TEST_POSTGRES").ok()?;
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let (head, _) = url.rsplit_once('/').unwrap();
    Some(format!("{head}/{name}"))
}

#[test]
fn postgres_saves_loads_deduplicates_collects_and_checks_its_format() {
    let Some(url) = postgres_database("goccia_store_unit") else {
        eprintln!("GOCCIA_TEST_POSTGRES is not set: the PostgreSQL store is not tested here");
        return;
    };
    let store = PostgresStore::connect(&url).unwrap();
    saves_loads_deduplicates_and_collects(&store);
    drop(store);
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .execute("UPDATE goccia_store_format SET version = 7", &[])
        .unwrap();
    let error = PostgresStore::connect(&url).err().unwrap();
    assert!(
        matches!(error, StoreError::UnknownFormat { found: 7, .. }),
        "{error}"
    );
}
