//! The database stopped and started again under load (docs/server.md): a
//! server answers 503 `STORE_UNAVAILABLE` while PostgreSQL is down, serves
//! again once it is back without being restarted itself, and nothing it
//! acknowledged is lost. It stops the machine's PostgreSQL cluster, so it
//! is a test binary of its own (cargo runs test binaries one at a time)
//! and always starts the cluster again, even when it fails.
//!
//! Needs `GOCCIA_TEST_POSTGRES` and `pg_ctlcluster` (Debian's PostgreSQL);
//! `.ci/run` also sets `GOCCIA_TEST_POSTGRES_RESTART=1`, which makes a
//! missing `pg_ctlcluster` a failure instead of a skip.

#[path = "../../server/tests/support/mod.rs"]
mod http;
#[path = "postgres/support.rs"]
mod support;

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde_json::json;
use support::*;

/// The machine's cluster (`<version> <name>`), stopped and started with
/// `pg_ctlcluster`; started again when dropped.
struct Cluster {
    version: String,
}

impl Cluster {
    fn find() -> Option<Cluster> {
        let version = std::fs::read_dir("/etc/postgresql")
            .ok()?
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .find(|name| name.chars().all(|c| c.is_ascii_digit()))?;
        Command::new("pg_ctlcluster").arg("--help").output().ok()?;
        Some(Cluster { version })
    }

    fn control(&self, action: &str) {
        let status = Command::new("pg_ctlcluster")
            .args(["--skip-systemctl-redirect", &self.version, "main", action])
            .args(if action == "stop" {
                &["-m", "fast"][..]
            } else {
                &[][..]
            })
            .status()
            .unwrap();
        assert!(status.success(), "pg_ctlcluster {action}: {status}");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("pg_ctlcluster")
            .args(["--skip-systemctl-redirect", &self.version, "main", "start"])
            .status();
    }
}

/// What the load saw: every answer's status and error code, and each
/// acknowledged snapshot with the file's content at that moment.
#[derive(Default)]
struct Seen {
    answers: Vec<(u16, String)>,
    snapshots: Vec<(u64, String)>,
}

impl Seen {
    fn count(&self, status: u16) -> usize {
        self.answers.iter().filter(|(s, _)| *s == status).count()
    }
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::yield_now();
    }
}

#[test]
fn requests_fail_with_503_while_the_database_is_down_and_recover_without_losing_what_was_acknowledged()
 {
    let Some(url) = postgres_url("the database restarted under load") else {
        return;
    };
    let Some(cluster) = Cluster::find() else {
        assert!(
            std::env::var_os("GOCCIA_TEST_POSTGRES_RESTART").is_none(),
            "GOCCIA_TEST_POSTGRES_RESTART is set but pg_ctlcluster or /etc/postgresql is missing"
        );
        eprintln!("SKIPPED the database restarted under load: pg_ctlcluster is not available");
        return;
    };
    let database = Database::create(&url);
    let site = Site::new();
    let a = site.serve(&database.url, "A");
    let session = a.client.open(&["read", "write", "shell", "submit"]);
    let seen = Arc::new(Mutex::new(Seen::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let load = {
        let (seen, stop, session) = (seen.clone(), stop.clone(), session.clone());
        let client = Client::new(&a.client.base);
        std::thread::spawn(move || {
            let mut content = String::new();
            let mut line = 0;
            while !stop.load(Ordering::SeqCst) {
                line += 1;
                let appended = shell(&client, &session, &format!("echo {line} >> /w/log.txt"));
                if appended.status == 200 {
                    content.push_str(&format!("{line}\n"));
                }
                let taken = client.post(&session.path("/snapshots"), Some(&session.token), "");
                let mut seen = seen.lock();
                for answer in [&appended, &taken] {
                    let code = answer.body["error"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string();
                    seen.answers.push((answer.status, code));
                }
                if taken.status == 201 {
                    let number = taken.body["snapshotId"].as_u64().unwrap();
                    seen.snapshots.push((number, content.clone()));
                }
            }
        })
    };
    wait_until("the load is served", || seen.lock().count(201) >= 5);
    cluster.control("stop");
    wait_until("requests fail for want of the store", || {
        seen.lock().count(503) >= 10
    });
    let before_restart = seen.lock().answers.len();
    cluster.control("start");
    wait_until("requests are served again", || {
        let seen = seen.lock();
        seen.answers[before_restart..]
            .iter()
            .filter(|(status, _)| *status == 201)
            .count()
            >= 5
    });
    stop.store(true, Ordering::SeqCst);
    load.join().unwrap();

    let seen = seen.lock();
    let unexpected: Vec<_> = seen
        .answers
        .iter()
        .filter(|(status, code)| {
            let served = matches!(status, 200 | 201);
            let unavailable = *status == 503 && code == "STORE_UNAVAILABLE";
            !(served || unavailable)
        })
        .collect();
    assert!(
        unexpected.is_empty(),
        "only 503 STORE_UNAVAILABLE while down: {unexpected:?}"
    );
    eprintln!(
        "{} answers: {} served, {} 503; {} snapshots acknowledged",
        seen.answers.len(),
        seen.count(200) + seen.count(201),
        seen.count(503),
        seen.snapshots.len()
    );

    // Nothing acknowledged is lost: another server takes the session over
    // from the store, and every acknowledged snapshot comes back exactly.
    let b = site.serve(&database.url, "B");
    let resumed = b
        .client
        .post(&session.path("/resume"), Some(&session.token), "");
    let (last, _) = seen.snapshots.last().unwrap();
    assert_eq!(resumed.ok()["snapshotId"], *last);
    for (number, content) in seen.snapshots.iter() {
        b.client
            .post_json(
                &session.path("/restore"),
                Some(&session.token),
                json!({"snapshotId": number}),
            )
            .ok();
        let read = shell(&b.client, &session, "cat /w/log.txt");
        assert_eq!(read.ok()["stdout"], content.as_str(), "snapshot {number}");
    }
}
