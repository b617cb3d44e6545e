//! Several `goccia serve` processes over one real PostgreSQL (docs/server.md):
//! grants minted on one server resolve on another, revocation and
//! expiry are seen everywhere on the next request, submits to one
//! workspace are fenced across servers, a session resumes elsewhere from
//! its last snapshot, a server killed mid-submit leaves no lock and no
//! half-written file, and a store that cannot be used stops the server
//! from starting. Needs `GOCCIA_TEST_POSTGRES` (set by `.ci/run`); without
//! it each test says it was skipped.

#[path = "../../server/tests/support/mod.rs"]
mod http;
#[path = "postgres/support.rs"]
mod support;

use std::sync::{Arc, Barrier};

use serde_json::json;
use support::*;

/// Opens a session on `server` over all of workspace `w` at `/w`.
fn open(server: &Served, capabilities: &[&str]) -> Session {
    server.client.open(capabilities)
}

#[test]
fn a_token_minted_on_one_server_resolves_on_another_and_revocation_is_seen_everywhere() {
    let Some(url) = postgres_url("grants across servers") else {
        return;
    };
    let database = Database::create(&url);
    let site = Site::new();
    let a = site.serve(&database.url, "A");
    let b = site.serve(&database.url, "B");
    let session = open(&a, &["read", "shell", "diff"]);
    // B resolves the token: it renews it, reads the workspace with it, and
    // says where the session is for calls that need the session itself.
    let renewed = b.client.post_json(
        &session.path("/renew"),
        Some(&session.token),
        json!({"ttlSeconds": 9000}),
    );
    renewed.ok();
    assert_eq!(
        b.client
            .get("/v1/workspaces/w/root", Some(&session.token))
            .ok()["root"],
        session.root
    );
    let elsewhere = shell(&b.client, &session, "echo hi");
    elsewhere.code(409, "SESSION_ELSEWHERE");
    assert!(
        elsewhere.text.contains("held by server `A`"),
        "{}",
        elsewhere.text
    );
    // A forged or foreign token is refused on both.
    for server in [&a, &b] {
        server
            .client
            .post_json(
                &session.path("/shell"),
                Some("gst_forged"),
                json!({"command": "true"}),
            )
            .code(401, "TOKEN_INVALID");
    }
    // The renewal made on B is what A sees.
    let on_a = shell(&a.client, &session, "echo on-a");
    assert_eq!(on_a.ok()["stdout"], "on-a\n");
    site.advance(7_300);
    shell(&a.client, &session, "true").ok();
    // Revoked on B: refused on A on the very next request.
    assert_eq!(
        b.client.delete(&session.path(""), &session.token).status,
        204
    );
    shell(&a.client, &session, "true").code(401, "TOKEN_REVOKED");
    b.client
        .post(&session.path("/resume"), Some(&session.token), "")
        .code(401, "TOKEN_REVOKED");
    // Only hashes are stored.
    let mut client = database.client();
    let rows = client
        .query("SELECT token_hash FROM goccia_grants", &[])
        .unwrap();
    assert_eq!(rows.len(), 1);
    let stored: String = rows[0].get(0);
    assert_ne!(stored, session.token);
    assert!(!stored.contains(&session.token[4..]));
}

#[test]
fn expiry_on_the_shared_clock_is_seen_by_both_servers() {
    let Some(url) = postgres_url("expiry across servers") else {
        return;
    };
    let database = Database::create(&url);
    let site = Site::new();
    let a = site.serve(&database.url, "A");
    let b = site.serve(&database.url, "B");
    let session = a.client.open_with(json!({
        "workspace": "w", "seeds": [{"from": ".", "to": "/w"}],
        "capabilities": ["shell"], "ttlSeconds": 60,
    }));
    shell(&a.client, &session, "true").ok();
    site.advance(61);
    shell(&a.client, &session, "true").code(401, "TOKEN_EXPIRED");
    b.client
        .post(&session.path("/resume"), Some(&session.token), "")
        .code(401, "TOKEN_EXPIRED");
    b.client
        .post_json(&session.path("/renew"), Some(&session.token), json!({}))
        .code(401, "TOKEN_EXPIRED");
}

#[test]
fn concurrent_submits_from_two_servers_land_exactly_once() {
    let Some(url) = postgres_url("fenced submits across servers") else {
        return;
    };
    let database = Database::create(&url);
    let site = Site::new();
    let a = Arc::new(site.serve(&database.url, "A"));
    let b = Arc::new(site.serve(&database.url, "B"));
    for round in 0..6 {
        let on_a = open(&a, &["shell", "submit"]);
        let on_b = open(&b, &["shell", "submit"]);
        assert_eq!(on_a.root, on_b.root, "both see one workspace");
        shell(&a.client, &on_a, &format!("echo a{round} > /w/from-a.txt")).ok();
        shell(&b.client, &on_b, &format!("echo b{round} > /w/from-b.txt")).ok();
        let barrier = Arc::new(Barrier::new(2));
        let threads: Vec<_> = [(a.clone(), on_a.clone()), (b.clone(), on_b.clone())]
            .into_iter()
            .map(|(server, session)| {
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    barrier.wait();
                    submit(&server.client, &session, &session.root)
                })
            })
            .collect();
        let answers: Vec<Answer> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let landed: Vec<&Answer> = answers.iter().filter(|a| a.status == 200).collect();
        let stale: Vec<&Answer> = answers.iter().filter(|a| a.status == 409).collect();
        assert_eq!(
            (landed.len(), stale.len()),
            (1, 1),
            "round {round}: {answers:?}"
        );
        assert_eq!(stale[0].body["error"], "VIEW_STALE");
        assert_eq!(stale[0].body["currentRoot"], landed[0].body["root"]);
        let winner = if answers[0].status == 200 { "a" } else { "b" };
        let file = site.workspace.join(format!("from-{winner}.txt"));
        assert_eq!(
            std::fs::read_to_string(file).unwrap(),
            format!("{winner}{round}\n")
        );
    }
    // One change record per round, in the shared log, readable from both.
    for server in [&a, &b] {
        let log = server.client.get("/v1/changes?workspace=w", Some(ADMIN));
        assert_eq!(log.ok()["changes"].as_array().unwrap().len(), 6);
    }
}

#[test]
fn a_session_snapshotted_on_one_server_resumes_on_another_with_its_files_and_diff() {
    let Some(url) = postgres_url("resume across servers") else {
        return;
    };
    let database = Database::create(&url);
    let site = Site::new();
    let a = site.serve(&database.url, "A");
    let b = site.serve(&database.url, "B");
    let session = open(&a, &["read", "write", "shell", "diff", "submit"]);
    shell(&a.client, &session, "echo first > /w/new.txt").ok();
    let first = a
        .client
        .post(&session.path("/snapshots"), Some(&session.token), "");
    assert_eq!(first.ok()["snapshotId"], 0);
    shell(
        &a.client,
        &session,
        "echo edited >> /w/src/a.txt; mkdir -p /w/deep/er; printf '\\x00\\xff' > /w/deep/er/bin; rm /w/README; chmod 755 /w/new.txt",
    )
    .ok();
    let second = a
        .client
        .post(&session.path("/snapshots"), Some(&session.token), "");
    assert_eq!(second.ok()["snapshotId"], 1);
    let diff_json = a
        .client
        .get(&session.path("/diff?format=json"), Some(&session.token));
    let diff_unified = a
        .client
        .get(&session.path("/diff?format=unified"), Some(&session.token));
    // After the last snapshot: not persisted, so not carried over.
    shell(&a.client, &session, "echo lost > /w/after.txt").ok();

    let resumed = b
        .client
        .post(&session.path("/resume"), Some(&session.token), "");
    assert_eq!(resumed.ok()["snapshotId"], 1, "{}", resumed.text);
    assert_eq!(resumed.body["server"], "B");
    assert_eq!(
        b.client
            .get(&session.path("/diff?format=json"), Some(&session.token))
            .text,
        diff_json.text
    );
    assert_eq!(
        b.client
            .get(&session.path("/diff?format=unified"), Some(&session.token))
            .text,
        diff_unified.text
    );
    let listing = shell(
        &b.client,
        &session,
        "stat -c '%a %n' /w/new.txt; od -An -tx1 /w/deep/er/bin; test -e /w/after.txt || echo no-after",
    );
    assert_eq!(listing.ok()["stdout"], "755 /w/new.txt\n 00 ff\nno-after\n");
    // A has let go of it.
    shell(&a.client, &session, "true").code(409, "SESSION_ELSEWHERE");
    // A snapshot taken on A comes back on B from the store.
    b.client
        .post_json(
            &session.path("/restore"),
            Some(&session.token),
            json!({"snapshotId": 0}),
        )
        .ok();
    let restored = shell(&b.client, &session, "cat /w/new.txt /w/README");
    assert_eq!(restored.ok()["stdout"], "first\nreadme\n");
    let third = b
        .client
        .post(&session.path("/snapshots"), Some(&session.token), "");
    assert_eq!(third.ok()["snapshotId"], 2, "numbers go on");
    b.client
        .post_json(
            &session.path("/restore"),
            Some(&session.token),
            json!({"snapshotId": 7}),
        )
        .code(404, "SNAPSHOT_NOT_FOUND");
    // And it submits from B to the workspace it was seeded from.
    let landed = submit(&b.client, &session, &session.root);
    landed.ok();
    assert_eq!(
        std::fs::read_to_string(site.workspace.join("new.txt")).unwrap(),
        "first\n"
    );
    // Every content is stored once however many snapshots name it.
    let mut client = database.client();
    let duplicates: i64 = client
        .query_one(
            "SELECT count(*) - count(DISTINCT content) FROM goccia_blobs",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(duplicates, 0);
}

#[test]
fn a_server_killed_mid_submit_leaves_no_lock_and_no_half_written_file() {
    let Some(url) = postgres_url("a server killed mid-submit") else {
        return;
    };
    let database = Database::create(&url);
    let site = Site::new();
    let mut a = site.serve_with(
        &database.url,
        "A",
        &[("GOCCIA_TEST_WRITE_BACK_PAUSE_MS", "60000")],
    );
    let b = site.serve(&database.url, "B");
    let session = open(&a, &["shell", "submit"]);
    shell(
        &a.client,
        &session,
        "echo new-a > /w/src/a.txt; echo new-b > /w/b.txt",
    )
    .ok();
    let client = Client::new(&a.client.base);
    let (expected, caller) = (session.root.clone(), session.clone());
    let submitting = std::thread::spawn(move || {
        client.post_json(
            &caller.path("/submit"),
            Some(&caller.token),
            json!({"expectedRoot": expected, "authorship": authorship()}),
        )
    });
    // Wait until A has written a temporary and holds the fence.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while files_named(&site.workspace, ".goccia-write-back-").is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "A never started writing"
        );
        std::thread::yield_now();
    }
    let mut client = database.client();
    let held: i64 = client
        .query_one(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(held, 1, "A holds the fence while it writes");
    a.kill();
    let _ = submitting.join();
    // Every file is whole: the old content (the rename never happened).
    assert_eq!(
        std::fs::read_to_string(site.workspace.join("src/a.txt")).unwrap(),
        "a\n"
    );
    assert!(!site.workspace.join("b.txt").exists());
    // The lock died with A's connection: B submits at once, sweeping the
    // temporary A left, and the log has B's change only.
    let on_b = open(&b, &["shell", "submit"]);
    shell(&b.client, &on_b, "echo from-b > /w/c.txt").ok();
    let root = b.client.get("/v1/workspaces/w/root", Some(ADMIN)).ok()["root"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(root, session.root, "a temporary is not part of the root");
    submit(&b.client, &on_b, &root).ok();
    assert!(files_named(&site.workspace, ".goccia-write-back-").is_empty());
    let log = b.client.get("/v1/changes?workspace=w", Some(ADMIN));
    assert_eq!(log.ok()["changes"].as_array().unwrap().len(), 1);
    let held: i64 = client
        .query_one(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(held, 0);
}

#[test]
fn a_store_that_cannot_be_used_stops_the_server_from_starting() {
    let Some(url) = postgres_url("store failures at start") else {
        return;
    };
    let site = Site::new();
    // Nothing listens on port 1.
    let unreachable = with_database(&url.replace("5432", "1"), "x");
    let unreachable = if unreachable.contains(":1/") {
        unreachable
    } else {
        "postgres://postgres@127.0.0.1:1/x".to_string()
    };
    let (status, stderr) = serve_fails(&site, &unreachable);
    assert_eq!(status, 69, "{stderr}");
    assert!(
        stderr.contains("the store postgres://") && stderr.contains(":1/x failed"),
        "{stderr}"
    );
    let (status, stderr) = serve_fails(&site, "postgres://u:hunter2@127.0.0.1:1/x");
    assert_eq!(status, 69, "{stderr}");
    assert!(
        stderr.contains("u:***@") && !stderr.contains("hunter2"),
        "{stderr}"
    );
    let (status, stderr) = serve_fails(&site, "mysql://127.0.0.1/x");
    assert_eq!(status, 2, "{stderr}");
    assert!(
        stderr.contains("--store: `mysql://127.0.0.1/x` is not a store"),
        "{stderr}"
    );
    // A database whose schema a newer build wrote.
    let database = Database::create(&url);
    drop(site.serve(&database.url, "A"));
    database
        .client()
        .execute("INSERT INTO goccia_schema (version) VALUES (99)", &[])
        .unwrap();
    let (status, stderr) = serve_fails(&site, &database.url);
    assert_eq!(status, 2, "{stderr}");
    assert!(
        stderr.contains("version 99, newer than this build's 2"),
        "{stderr}"
    );
}

#[test]
fn servers_starting_together_migrate_once_and_report_the_schema_version() {
    let Some(url) = postgres_url("migrations") else {
        return;
    };
    let database = Database::create(&url);
    let site = Site::new();
    let servers: Vec<Served> = std::thread::scope(|scope| {
        let started: Vec<_> = ["A", "B", "C"]
            .into_iter()
            .map(|id| scope.spawn(|| site.serve(&database.url, id)))
            .collect();
        started.into_iter().map(|t| t.join().unwrap()).collect()
    });
    for server in &servers {
        let line = server
            .said
            .iter()
            .find(|line| line.starts_with("goccia: store "))
            .expect("the store line");
        assert!(line.ends_with("(schema version 2)"), "{line}");
        assert!(line.contains(&database.name), "{line}");
    }
    let versions: Vec<i32> = database
        .client()
        .query("SELECT version FROM goccia_schema", &[])
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(versions, [1, 2]);
}
