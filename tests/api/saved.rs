//! Durable snapshots (docs/snapshots.md): a snapshot saved to SQLite or
//! PostgreSQL opens in another process with its files, its diff and its
//! shell session; blobs are stored once; a store of a later format, a
//! missing id and a quota too small are refused with errors that say so.

use std::process::Command;

use goccia::store::SavedId;
use goccia::{Error, Limits, Sandbox};

use super::snapshots::{SHOW, STATE};

/// What `SHOW` prints after `STATE`.
const SHOWN: &str = "plain=1 exported=two words counted=6\nlist=b c map=v\nhello there\nlisted\npipefail on\nnullglob on\ntrap -- 'echo trapped' SIGUSR1\n/work/b c:/work/a:/work:\n/work/b c\n";

/// A sandbox with one of each kind of shell state, a seed and a change,
/// saved to `location`; the id.
fn save_one(location: &str) -> SavedId {
    let store = goccia::store::open(location).unwrap();
    let sandbox = Sandbox::builder()
        .file("/work/seed.txt", "seeded\n")
        .build()
        .unwrap();
    sandbox.run_shell(STATE).unwrap();
    sandbox
        .run_shell("echo changed >> /work/seed.txt; echo new > /work/new.txt")
        .unwrap();
    let id = sandbox.snapshot_labeled(Some("before review")).unwrap();
    sandbox.save(store.as_ref(), id).unwrap()
}

/// Opens `id` from `location` in a new process (this test binary again,
/// running only [`opened_in_a_child_process`]) and returns what it printed.
fn open_elsewhere(location: &str, id: &SavedId) -> String {
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "saved::opened_in_a_child_process", "--nocapture"])
        .env("GOCCIA_TEST_SAVED_STORE", location)
        .env("GOCCIA_TEST_SAVED_ID", id.as_str())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let start = stdout.find("<<<").expect("the child printed its report") + 3;
    let end = stdout.find(">>>").unwrap();
    stdout[start..end].to_string()
}

/// The other process's half: with the variables set by [`open_elsewhere`],
/// opens the saved snapshot and prints its state, files and diff between
/// markers. Run alone (without them) it has nothing to open.
#[test]
fn opened_in_a_child_process() {
    let (Ok(location), Ok(id)) = (
        std::env::var("GOCCIA_TEST_SAVED_STORE"),
        std::env::var("GOCCIA_TEST_SAVED_ID"),
    ) else {
        return;
    };
    let store = goccia::store::open(&location).unwrap();
    let sandbox = Sandbox::open(store.as_ref(), &id.parse().unwrap()).unwrap();
    let shown = sandbox.run_shell(SHOW).unwrap().stdout_text().to_string();
    let files = sandbox
        .run_shell("cat /work/seed.txt /work/new.txt")
        .unwrap()
        .stdout_text()
        .to_string();
    let changes: Vec<String> = sandbox
        .changes()
        .iter()
        .map(|change| format!("{:?} {}", change.kind, change.path))
        .collect();
    println!("<<<{shown}{files}{}>>>", changes.join(","));
}

fn expected_elsewhere() -> String {
    format!(
        "{SHOWN}seeded\nchanged\nnew\nMkdir /work/a,Mkdir /work/b c,Create /work/new.txt,Modify /work/seed.txt"
    )
}

#[test]
fn a_snapshot_saved_to_sqlite_opens_in_another_process() {
    let folder = tempfile::tempdir().unwrap();
    let location = folder.path().join("snapshots.db");
    let location = location.to_str().unwrap();
    let id = save_one(location);
    assert_eq!(open_elsewhere(location, &id), expected_elsewhere());
    let store = goccia::store::open(location).unwrap();
    let listed = store.list().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].record.label.as_deref(), Some("before review"));
}

#[test]
fn a_snapshot_saved_to_postgres_opens_in_another_process() {
    let Some(location) = postgres_database("goccia_saved_api") else {
        eprintln!("GOCCIA_TEST_POSTGRES is not set: the PostgreSQL store is not tested here");
        return;
    };
    let id = save_one(&location);
    assert_eq!(open_elsewhere(&location, &id), expected_elsewhere());
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
fn saves_after_a_change_write_the_change_and_gc_frees_what_nothing_names() {
    let folder = tempfile::tempdir().unwrap();
    let store = goccia::store::open(folder.path().join("s.db").to_str().unwrap()).unwrap();
    let sandbox = Sandbox::builder()
        .file("/big.bin", vec![7u8; 100_000])
        .file("/small.txt", "1")
        .build()
        .unwrap();
    let first = sandbox
        .save(store.as_ref(), sandbox.snapshot().unwrap())
        .unwrap();
    sandbox.write("/small.txt", "2").unwrap();
    let second_local = sandbox.snapshot().unwrap();
    let second = sandbox.save(store.as_ref(), second_local).unwrap();
    assert_eq!(
        sandbox.save(store.as_ref(), second_local).unwrap(),
        second,
        "saving again gives the same id"
    );
    let records = store.list().unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].record.parent.as_ref(), Some(&first));
    assert_eq!(
        records[0].record.baseline, records[1].record.baseline,
        "one baseline manifest for both"
    );
    // Dropping the second frees its changes manifest and the content "2"
    // only; the 100,000 bytes both name stay.
    assert!(store.remove(&second).unwrap());
    let freed = store.gc().unwrap();
    assert_eq!(freed.blobs, 2, "{freed:?}");
    assert!(freed.bytes < 1_000, "{freed:?}");
    let reopened = Sandbox::open(store.as_ref(), &first).unwrap();
    assert_eq!(reopened.read("/big.bin").unwrap().len(), 100_000);
    assert_eq!(&reopened.read("/small.txt").unwrap()[..], b"1");
    // Nothing saved names anything any more: all goes.
    assert!(store.remove(&first).unwrap());
    let freed = store.gc().unwrap();
    assert!(freed.bytes > 100_000, "{freed:?}");
    let error = Error::from(Sandbox::open(store.as_ref(), &first).unwrap_err());
    assert_eq!(error.code(), "ERR_GOCCIA_UNKNOWN_SNAPSHOT");
    assert!(error.to_string().contains("holds no snapshot"), "{error}");
}

#[test]
fn a_store_of_a_later_format_and_a_quota_too_small_are_refused() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("s.db");
    let location = path.to_str().unwrap();
    let id = {
        let store = goccia::store::open(location).unwrap();
        let sandbox = Sandbox::builder()
            .file("/data", vec![1u8; 50_000])
            .build()
            .unwrap();
        sandbox
            .save(store.as_ref(), sandbox.snapshot().unwrap())
            .unwrap()
    };
    {
        let store = goccia::store::open(location).unwrap();
        let small = Sandbox::builder()
            .limits(Limits::default().fs_quota_bytes(10_000))
            .file("/mine", "kept")
            .build()
            .unwrap();
        let error = Error::from(small.load_saved(store.as_ref(), &id).unwrap_err());
        assert_eq!(error.code(), "ERR_GOCCIA_SNAPSHOT_LOAD");
        assert!(
            error.to_string().contains("cannot be opened here"),
            "{error}"
        );
        assert_eq!(
            &small.read("/mine").unwrap()[..],
            b"kept",
            "nothing changed"
        );
    }
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("UPDATE goccia_store_format SET version = 2", [])
        .unwrap();
    let error = Error::from(goccia::store::open(location).err().unwrap());
    assert_eq!(error.code(), "ERR_GOCCIA_STORE_FORMAT");
    assert!(
        error
            .to_string()
            .contains("has format version 2; this build reads up to version 1"),
        "{error}"
    );
}

#[test]
fn forks_are_cheap_until_used_and_keep_their_saved_origin() {
    let folder = tempfile::tempdir().unwrap();
    let store = goccia::store::open(folder.path().join("s.db").to_str().unwrap()).unwrap();
    let sandbox = Sandbox::builder().build().unwrap();
    sandbox.run_shell("cd /tmp; STEP=1").unwrap();
    let local = sandbox.snapshot().unwrap();
    let saved = sandbox.save(store.as_ref(), local).unwrap();
    let forks = sandbox.fork(Some(local), 2).unwrap();
    // A fork's snapshot before any call holds the state it was given.
    let fork_snapshot = forks[0].snapshot().unwrap();
    forks[1].run_shell("STEP=2").unwrap();
    assert_eq!(
        forks[0].run_shell("pwd; echo $STEP").unwrap().stdout_text(),
        "/tmp\n1\n"
    );
    assert_eq!(
        forks[1].run_shell("echo $STEP").unwrap().stdout_text(),
        "2\n"
    );
    let child = forks[0].save(store.as_ref(), fork_snapshot).unwrap();
    let records = store.list().unwrap();
    let record = &records.iter().find(|s| s.id == child).unwrap().record;
    assert_eq!(record.parent.as_ref(), Some(&saved));
    assert!(record.shell.is_some());
}
