//! Snapshots and forks through real HTTP (docs/server.md, "Snapshots and
//! forks"): labels and the list, shell state kept across a restart, forks
//! with grants of their own bounded by the parent's capabilities, and the
//! refusals an attacker's requests meet.

mod support;

use goccia_server::clock::ManualClock;
use serde_json::json;
use support::*;

fn fork_session(answer: &Answer, index: usize) -> Session {
    let fork = &answer.body["forks"][index];
    Session {
        id: fork["sandboxId"].as_str().unwrap().to_string(),
        token: fork["token"].as_str().unwrap().to_string(),
        root: String::new(),
        expires_at: fork["expiresAt"].as_str().unwrap().to_string(),
    }
}

#[test]
fn snapshots_are_listed_with_their_labels_and_keep_the_shell_across_a_restart() {
    let dir = workspace();
    let state = tempfile::tempdir().unwrap();
    let clock = ManualClock::at(START);
    let with_state = || config(dir.path(), &clock).state(state_file(state.path()));
    let server = Running::start(with_state());
    let client = Client::new(&server.base);
    let session = client.open(&["shell", "read", "write"]);
    shell(
        &client,
        &session,
        "cd /w; export STAGE=one; greet() { echo hi; }",
    )
    .ok();
    let first = client.post_json(
        &session.path("/snapshots"),
        Some(&session.token),
        json!({"label": "first"}),
    );
    assert_eq!(first.ok()["snapshotId"], 0);
    shell(&client, &session, "STAGE=two; echo more > /w/more.txt").ok();
    let second = client.post(&session.path("/snapshots"), Some(&session.token), "");
    assert_eq!(second.ok()["snapshotId"], 1);
    let listed = client.get(&session.path("/snapshots"), Some(&session.token));
    let snapshots = listed.ok()["snapshots"].as_array().unwrap().clone();
    assert_eq!(snapshots.len(), 2);
    assert_eq!(snapshots[0]["label"], "first");
    assert_eq!(snapshots[0]["parent"], serde_json::Value::Null);
    assert_eq!(snapshots[0]["hasShellState"], true);
    assert_eq!(snapshots[1]["parent"], 0);
    assert_eq!(snapshots[1]["label"], serde_json::Value::Null);
    server.stop();

    // Brought back from snapshot 1: its files and its shell.
    let server = Running::start(with_state());
    let client = Client::new(&server.base);
    let answer = shell(&client, &session, "pwd; echo $STAGE; greet; cat more.txt");
    assert_eq!(answer.ok()["stdout"], "/w\ntwo\nhi\nmore\n");
    // Snapshot 0 was taken before the restart: restored from the store.
    client
        .post_json(
            &session.path("/restore"),
            Some(&session.token),
            json!({"snapshotId": 0}),
        )
        .ok();
    let answer = shell(&client, &session, "echo $STAGE");
    assert_eq!(answer.ok()["stdout"], "one\n");
    assert_eq!(
        shell(
            &client,
            &session,
            "test -e /w/more.txt && echo there || echo gone"
        )
        .ok()["stdout"],
        "gone\n"
    );
    let listed = client.get(&session.path("/snapshots"), Some(&session.token));
    let snapshots = listed.ok()["snapshots"].as_array().unwrap().clone();
    assert_eq!(snapshots.len(), 2, "{snapshots:?}");
    assert_eq!(snapshots[0]["label"], "first");
    // A label past its bound is refused, naming it.
    let long = client.post_json(
        &session.path("/snapshots"),
        Some(&session.token),
        json!({"label": "x".repeat(201)}),
    );
    long.code(400, "BAD_REQUEST");
    assert!(long.text.contains("label"), "{}", long.text);
    server.stop();
}

#[test]
fn forks_get_grants_of_their_own_within_the_parents_capabilities() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let parent = client.open(&["shell", "read", "write", "fork"]);
    shell(&client, &parent, "cd /w; STAGE=forked").ok();
    let answer = client.post_json(
        &parent.path("/fork"),
        Some(&parent.token),
        json!({"count": 2, "capabilities": ["shell", "read"]}),
    );
    assert_eq!(answer.status, 201, "{}", answer.text);
    let (one, two) = (fork_session(&answer, 0), fork_session(&answer, 1));
    assert_ne!(one.id, two.id);
    assert_ne!(one.token, parent.token);
    assert_eq!(
        shell(&client, &one, "pwd; echo $STAGE; echo one > /w/mine.txt").ok()["stdout"],
        "/w\nforked\n"
    );
    // Each fork and the parent go their own ways.
    let seen = "test -e /w/mine.txt && echo there || echo absent";
    assert_eq!(shell(&client, &two, seen).ok()["stdout"], "absent\n");
    assert_eq!(shell(&client, &parent, seen).ok()["stdout"], "absent\n");
    assert_eq!(shell(&client, &one, seen).ok()["stdout"], "there\n");
    // A fork holds only what it was given: no `write`, no `fork`.
    client
        .put(&one.path("/files/w/x.txt"), &one.token, b"x")
        .code(403, "CAPABILITY_DENIED");
    client
        .post_json(
            &one.path("/fork"),
            Some(&one.token),
            json!({"count": 1, "capabilities": ["read"]}),
        )
        .code(403, "CAPABILITY_DENIED");
    // A fork's token opens the fork only.
    shell(
        &client,
        &Session {
            token: one.token.clone(),
            ..parent.clone()
        },
        "true",
    )
    .code(403, "WRONG_SANDBOX");
    // Wider than the parent's grant: refused, naming the capability.
    let wider = client.post_json(
        &parent.path("/fork"),
        Some(&parent.token),
        json!({"count": 1, "capabilities": ["read", "submit"]}),
    );
    wider.code(403, "CAPABILITY_DENIED");
    assert!(wider.text.contains("`submit`"), "{}", wider.text);
    // The admin token forks too, still within the parent's grant.
    client
        .post_json(
            &parent.path("/fork"),
            Some(ADMIN),
            json!({"count": 1, "capabilities": ["child"]}),
        )
        .code(403, "CAPABILITY_DENIED");
    let by_admin = client.post_json(
        &parent.path("/fork"),
        Some(ADMIN),
        json!({"count": 1, "capabilities": ["write"]}),
    );
    assert_eq!(by_admin.status, 201, "{}", by_admin.text);
    // Bounds and unknown snapshots.
    for count in [0, 17] {
        client
            .post_json(
                &parent.path("/fork"),
                Some(&parent.token),
                json!({"count": count, "capabilities": ["read"]}),
            )
            .code(400, "BAD_REQUEST");
    }
    client
        .post_json(
            &parent.path("/fork"),
            Some(&parent.token),
            json!({"count": 1, "snapshotId": 5, "capabilities": ["read"]}),
        )
        .code(404, "SNAPSHOT_NOT_FOUND");
    client
        .post_json(
            &parent.path("/fork"),
            Some(&parent.token),
            json!({"count": 1, "capabilities": ["read"], "extra": 1}),
        )
        .code(400, "BAD_REQUEST");
    server.stop();
}

#[test]
fn a_fork_of_a_snapshot_survives_a_restart_as_forked() {
    let dir = workspace();
    let state = tempfile::tempdir().unwrap();
    let clock = ManualClock::at(START);
    let with_state = || config(dir.path(), &clock).state(state_file(state.path()));
    let server = Running::start(with_state());
    let client = Client::new(&server.base);
    let parent = client.open(&["shell", "read", "write", "fork"]);
    shell(&client, &parent, "echo at-snapshot > /w/README; V=snap").ok();
    let taken = client.post(&parent.path("/snapshots"), Some(&parent.token), "");
    assert_eq!(taken.ok()["snapshotId"], 0);
    shell(&client, &parent, "echo later > /w/README; V=later").ok();
    let answer = client.post_json(
        &parent.path("/fork"),
        Some(&parent.token),
        json!({"count": 1, "snapshotId": 0, "capabilities": ["shell"]}),
    );
    assert_eq!(answer.status, 201, "{}", answer.text);
    let fork = fork_session(&answer, 0);
    assert_eq!(
        shell(&client, &fork, "cat /w/README; echo $V").ok()["stdout"],
        "at-snapshot\nsnap\n"
    );
    shell(&client, &fork, "echo fork-edit >> /w/README").ok();
    server.stop();

    // After a restart the fork comes back as it was forked (its snapshot
    // 0); what it did after that was not snapshotted.
    let server = Running::start(with_state());
    let client = Client::new(&server.base);
    assert_eq!(
        shell(&client, &fork, "cat /w/README; echo $V").ok()["stdout"],
        "at-snapshot\nsnap\n"
    );
    server.stop();
}
