//! The server through real HTTP on loopback, with a clock the tests move:
//! grants and their refusals, capabilities, TTLs, restarts, fenced
//! submits under contention, provenance, malformed requests.

mod support;

use std::sync::{Arc, Barrier};

use goccia::Named;
use goccia_server::clock::ManualClock;
use serde_json::json;
use support::*;

/// What each session endpoint needs, as (method, path suffix, body,
/// capability).
const NEEDS: &[(&str, &str, &str, &str)] = &[
    ("POST", "/run", r#"{"code":"1"}"#, "run"),
    ("POST", "/shell", r#"{"command":"true"}"#, "shell"),
    ("GET", "/files/w/README", "", "read"),
    ("PUT", "/files/w/new.txt", "x", "write"),
    ("DELETE", "/files/w/README", "", "write"),
    ("GET", "/diff", "", "diff"),
    // Snapshots spend the quota: `write`, never `read` alone.
    ("POST", "/snapshots", "", "write"),
    ("POST", "/restore", r#"{"snapshotId":0}"#, "write"),
    ("GET", "/snapshots", "", "read"),
    (
        "POST",
        "/fork",
        r#"{"count":1,"capabilities":["fork"]}"#,
        "fork",
    ),
    (
        "POST",
        "/submit",
        r#"{"expectedRoot":"x","authorship":{"vendor":"v","model":"m","tool":"t","suggestionType":"agent","inputTokens":0,"outputTokens":0,"session":"s"}}"#,
        "submit",
    ),
];

fn call(client: &Client, method: &str, path: &str, token: &str, body: &str) -> Answer {
    match method {
        "GET" => client.get(path, Some(token)),
        "PUT" => client.put(path, token, body.as_bytes()),
        "DELETE" => client.delete(path, token),
        _ => client.post(path, Some(token), body),
    }
}

#[test]
fn every_capability_missing_in_turn_is_refused_naming_it() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let all = [
        "read", "write", "run", "shell", "diff", "submit", "child", "fork",
    ];
    for (method, suffix, body, needed) in NEEDS {
        let without: Vec<&str> = all.iter().copied().filter(|c| c != needed).collect();
        let session = client.open(&without);
        let answer = call(&client, method, &session.path(suffix), &session.token, body);
        answer.code(403, "CAPABILITY_DENIED");
        assert!(
            answer.body["message"]
                .as_str()
                .unwrap()
                .contains(&format!("`{needed}`")),
            "{method} {suffix}: {}",
            answer.text
        );
        // With it, the same call is not refused for a capability.
        let session = client.open(&[needed]);
        let answer = call(&client, method, &session.path(suffix), &session.token, body);
        assert_ne!(
            answer.body["error"], "CAPABILITY_DENIED",
            "{method} {suffix}"
        );
        assert_ne!(answer.status, 401, "{method} {suffix}: {}", answer.text);
    }
}

#[test]
fn forged_foreign_expired_and_revoked_tokens_are_refused_with_their_codes() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let audit = goccia::Audit::new(None);
    let server = Running::start(config(dir.path(), &clock).audit(audit.clone()));
    let client = Client::new(&server.base);
    let mine = client.open(&["shell"]);
    let other = client.open(&["shell"]);
    let path = mine.path("/shell");
    let body = r#"{"command":"echo hi"}"#;
    assert_eq!(
        client.post(&path, Some(&mine.token), body).ok()["stdout"],
        "hi\n"
    );
    client.post(&path, None, body).code(401, "TOKEN_INVALID");
    client
        .post(
            &path,
            Some("gst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            body,
        )
        .code(401, "TOKEN_INVALID");
    client
        .post(&path, Some(ADMIN), body)
        .code(401, "TOKEN_INVALID");
    client
        .post(&path, Some(&other.token), body)
        .code(403, "WRONG_SANDBOX");
    clock.advance(7_200);
    client
        .post(&path, Some(&mine.token), body)
        .code(401, "TOKEN_EXPIRED");
    let fresh = client.open(&["shell"]);
    assert_eq!(client.delete(&fresh.path(""), &fresh.token).status, 204);
    client
        .post(&fresh.path("/shell"), Some(&fresh.token), body)
        .code(401, "TOKEN_REVOKED");
    let refusals: Vec<String> = audit
        .events()
        .into_iter()
        .filter(|e| e.kind == "server" && e.decision == "deny")
        .map(|e| e.reason.unwrap_or_default())
        .collect();
    for code in [
        "TOKEN_INVALID",
        "WRONG_SANDBOX",
        "TOKEN_EXPIRED",
        "TOKEN_REVOKED",
    ] {
        assert!(
            refusals.iter().any(|r| r.starts_with(code)),
            "{code} audited: {refusals:?}"
        );
    }
}

#[test]
fn ttls_are_bounded_default_to_two_hours_and_renew_never_shortens() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    for ttl in [0u64, 30 * 86_400 + 1] {
        client
            .post_json(
                "/v1/sandboxes",
                Some(ADMIN),
                json!({"workspace": "w", "seeds": [], "capabilities": ["read"], "ttlSeconds": ttl}),
            )
            .code(400, "TTL_OUT_OF_RANGE");
    }
    client
        .post_json(
            "/v1/sandboxes",
            Some(ADMIN),
            json!({"workspace": "w", "seeds": [], "capabilities": []}),
        )
        .code(400, "BAD_REQUEST");
    for ttl in [1, 30 * 86_400] {
        client.open_with(
            json!({"workspace": "w", "seeds": [], "capabilities": ["read"], "ttlSeconds": ttl}),
        );
    }
    let session = client.open(&["read"]);
    assert_eq!(session.expires_at, "2026-12-01T12:00:00Z");
    let renewed = client.post_json(
        &session.path("/renew"),
        Some(&session.token),
        json!({"ttlSeconds": 60}),
    );
    assert_eq!(
        renewed.ok()["expiresAt"],
        "2026-12-01T12:00:00Z",
        "never shortens"
    );
    let renewed = client.post_json(
        &session.path("/renew"),
        Some(&session.token),
        json!({"ttlSeconds": 86_400}),
    );
    assert_eq!(renewed.ok()["expiresAt"], "2026-12-02T10:00:00Z");
    // No body is the default TTL (two hours), as `{}` is; a body that is
    // not JSON is still refused.
    for empty in ["", "{}"] {
        let renewed = client.post(&session.path("/renew"), Some(&session.token), empty);
        assert_eq!(
            renewed.ok()["expiresAt"],
            "2026-12-02T10:00:00Z",
            "{empty:?}"
        );
    }
    client
        .post(&session.path("/renew"), Some(&session.token), "ttl")
        .code(400, "BAD_REQUEST");
    clock.advance(80_000);
    client
        .get(&session.path("/files/w/README"), Some(&session.token))
        .ok();
    clock.advance(10_000);
    client
        .get(&session.path("/files/w/README"), Some(&session.token))
        .code(401, "TOKEN_EXPIRED");
}

#[test]
fn a_restart_with_state_keeps_grants_and_the_last_snapshot_and_one_without_drops_them() {
    let dir = workspace();
    let state = tempfile::tempdir().unwrap();
    let clock = ManualClock::at(START);
    let with_state = || config(dir.path(), &clock).state(state_file(state.path()));
    let server = Running::start(with_state());
    let client = Client::new(&server.base);
    let session = client.open(&["shell", "read", "write"]);
    shell(&client, &session, "echo changed > /w/README").ok();
    server.stop();

    let server = Running::start(with_state());
    let client = Client::new(&server.base);
    let answer = shell(&client, &session, "cat /w/README");
    // The grant survived; with no snapshot stored, the session was seeded
    // again from the workspace.
    assert_eq!(answer.ok()["stdout"], "readme\n");
    shell(&client, &session, "echo kept > /w/README").ok();
    let taken = client.post(&session.path("/snapshots"), Some(&session.token), "");
    assert_eq!(taken.ok()["snapshotId"], 0);
    shell(&client, &session, "echo after-the-snapshot > /w/README").ok();
    server.stop();

    // Now it comes back from its last stored snapshot, numbers going on.
    let server = Running::start(with_state());
    let client = Client::new(&server.base);
    let answer = shell(&client, &session, "cat /w/README");
    assert_eq!(answer.ok()["stdout"], "kept\n");
    let taken = client.post(&session.path("/snapshots"), Some(&session.token), "");
    assert_eq!(taken.ok()["snapshotId"], 1);
    server.stop();

    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    shell(&client, &session, "true").code(401, "TOKEN_INVALID");
}

#[test]
fn two_sessions_submitting_at_once_land_one_and_refuse_the_other_as_stale() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Arc::new(Client::new(&server.base));
    let sessions: Vec<Session> = (0..2).map(|_| client.open(&["shell", "submit"])).collect();
    assert_eq!(sessions[0].root, sessions[1].root);
    for (index, session) in sessions.iter().enumerate() {
        shell(
            &client,
            session,
            &format!("echo {index} > /w/from-{index}.txt"),
        )
        .ok();
    }
    let barrier = Arc::new(Barrier::new(2));
    let answers: Vec<Answer> = std::thread::scope(|scope| {
        let handles: Vec<_> = sessions
            .iter()
            .map(|session| {
                let (client, barrier) = (client.clone(), barrier.clone());
                scope.spawn(move || {
                    barrier.wait();
                    submit(&client, session, &session.root)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let landed: Vec<&Answer> = answers.iter().filter(|a| a.status == 200).collect();
    let stale: Vec<&Answer> = answers.iter().filter(|a| a.status == 409).collect();
    assert_eq!((landed.len(), stale.len()), (1, 1), "{answers:?}");
    stale[0].code(409, "VIEW_STALE");
    assert_eq!(stale[0].body["currentRoot"], landed[0].body["root"]);
    let loser = if answers[0].status == 409 {
        &sessions[0]
    } else {
        &sessions[1]
    };
    let loser_index = if answers[0].status == 409 { 0 } else { 1 };
    assert!(
        !dir.path().join(format!("from-{loser_index}.txt")).exists(),
        "nothing written"
    );
    // Re-synced on the root the refusal named, it lands.
    let current = stale[0].body["currentRoot"].as_str().unwrap();
    let second = submit(&client, loser, current);
    let body = second.ok();
    assert!(dir.path().join(format!("from-{loser_index}.txt")).exists());
    let root = client.get("/v1/workspaces/w/root", Some(ADMIN));
    assert_eq!(root.ok()["root"], body["root"]);
}

#[test]
fn a_host_edit_between_open_and_submit_makes_the_submit_stale() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let session = client.open(&["shell", "submit"]);
    shell(&client, &session, "echo mine > /w/src/a.txt").ok();
    std::fs::write(dir.path().join("README"), "edited on the host\n").unwrap();
    submit(&client, &session, &session.root).code(409, "VIEW_STALE");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/a.txt")).unwrap(),
        "a\n"
    );
    // `.git` and `.goccia` are not part of the root.
    let fresh = client.open(&["shell", "submit"]);
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join(".git/index"), "x").unwrap();
    shell(&client, &fresh, "echo mine > /w/src/a.txt").ok();
    submit(&client, &fresh, &fresh.root).ok();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/a.txt")).unwrap(),
        "mine\n"
    );
}

#[test]
fn landed_submits_are_recorded_with_authorship_turn_and_hashes() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let session = client.open(&["shell", "submit"]);
    shell(
        &client,
        &session,
        "echo b > /w/src/b.txt; echo A > /w/src/a.txt",
    )
    .ok();
    let landed = client
        .post_json(
            &session.path("/submit"),
            Some(&session.token),
            json!({
                "expectedRoot": session.root,
                "authorship": authorship(),
                "turn": {"tokens": 165, "steps": 3, "transcript": "user: fix a; agent: edited a, added b"},
                "message": "fix a, add b",
            }),
        );
    let landed = landed.ok().clone();
    let log = client.get("/v1/changes?workspace=w", Some(&session.token));
    let records = log.ok()["changes"].as_array().unwrap().clone();
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!(record["changeId"], landed["changeId"]);
    assert_eq!(record["sandboxId"], session.id);
    assert_eq!(record["baseRoot"], session.root);
    assert_eq!(record["root"], landed["root"]);
    assert_eq!(record["time"], "2026-12-01T10:00:00Z");
    assert_eq!(record["authorship"], authorship());
    assert_eq!(record["turn"]["steps"], 3);
    assert_eq!(record["message"], "fix a, add b");
    let files = record["files"].as_array().unwrap();
    let a = files.iter().find(|f| f["path"] == "src/a.txt").unwrap();
    assert_eq!(a["kind"], "modify");
    assert_eq!(
        a["oldHash"],
        format!("blake3:{}", blake3::hash(b"a\n").to_hex())
    );
    assert_eq!(
        a["newHash"],
        format!("blake3:{}", blake3::hash(b"A\n").to_hex())
    );
    let b = files.iter().find(|f| f["path"] == "src/b.txt").unwrap();
    assert_eq!(
        (b["kind"].as_str(), &b["oldHash"]),
        (Some("create"), &json!(null))
    );
    // The log is the workspace's file, one JSON line per record.
    let text = std::fs::read_to_string(dir.path().join(".goccia/changes.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 1);
    // A second submit from the same session carries only what is new.
    shell(&client, &session, "echo c > /w/c.txt").ok();
    let second = submit(&client, &session, landed["root"].as_str().unwrap());
    assert_eq!(second.ok()["written"], json!(["c.txt"]));
}

#[test]
fn a_hundred_concurrent_clients_lose_no_record() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Arc::new(Client::new(&server.base));
    let errors: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..100)
            .map(|index| {
                let client = client.clone();
                scope.spawn(move || -> Result<(), String> {
                    let session = client.open(&["shell", "submit"]);
                    let run = shell(
                        &client,
                        &session,
                        &format!("echo {index} > /w/out-{index}.txt"),
                    );
                    if run.status != 200 || run.body["stdout"] != "" {
                        return Err(format!("shell {index}: {}", run.text));
                    }
                    let mut expected = session.root.clone();
                    for _ in 0..200 {
                        let answer = submit(&client, &session, &expected);
                        match answer.status {
                            200 => return Ok(()),
                            409 => {
                                expected = answer.body["currentRoot"].as_str().unwrap().to_string()
                            }
                            _ => return Err(format!("submit {index}: {}", answer.text)),
                        }
                    }
                    Err(format!("submit {index} never landed"))
                })
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().unwrap().err())
            .collect()
    });
    assert!(errors.is_empty(), "{errors:?}");
    let records = client.get("/v1/changes?workspace=w", Some(ADMIN));
    assert_eq!(records.ok()["changes"].as_array().unwrap().len(), 100);
    for index in 0..100 {
        assert_eq!(
            std::fs::read_to_string(dir.path().join(format!("out-{index}.txt"))).unwrap(),
            format!("{index}\n")
        );
    }
}

#[test]
fn malformed_and_oversize_requests_are_named_refusals() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock).max_body_bytes(1024));
    let client = Client::new(&server.base);
    let session = client.open(&["shell", "write", "read"]);
    let path = session.path("/shell");
    let token = Some(session.token.as_str());
    let bad = client.post(&path, token, "{\"command\": ");
    bad.code(400, "BAD_REQUEST");
    assert!(
        bad.body["message"].as_str().unwrap().contains("EOF"),
        "{}",
        bad.text
    );
    let unknown = client.post(&path, token, r#"{"command":"true","bogus":1}"#);
    unknown.code(400, "BAD_REQUEST");
    assert!(unknown.body["message"].as_str().unwrap().contains("bogus"));
    let big = format!(r#"{{"command":"echo {}"}}"#, "x".repeat(4096));
    client.post(&path, token, &big).code(413, "BODY_TOO_LARGE");
    client
        .put(
            &session.path("/files/w/big"),
            &session.token,
            &vec![b'x'; 4096],
        )
        .code(413, "BODY_TOO_LARGE");
    client.get("/v1/nowhere", None).code(404, "NOT_FOUND");
    client
        .post(
            "/v1/sandboxes",
            Some(ADMIN),
            r#"{"workspace":"nope","seeds":[],"capabilities":["read"]}"#,
        )
        .code(404, "WORKSPACE_NOT_FOUND");
    client
        .post(
            "/v1/sandboxes",
            Some(ADMIN),
            r#"{"workspace":"w","seeds":[{"from":"../etc","to":"/x"}],"capabilities":["read"]}"#,
        )
        .code(400, "BAD_SESSION");
    client
        .post(
            "/v1/sandboxes",
            Some(ADMIN),
            r#"{"workspace":"w","seeds":[],"capabilities":["fly"]}"#,
        )
        .code(400, "BAD_REQUEST");
    client
        .post(
            "/v1/sandboxes",
            Some("not-the-admin"),
            r#"{"workspace":"w","seeds":[],"capabilities":["read"]}"#,
        )
        .code(401, "TOKEN_INVALID");
    client
        .post_json(&session.path("/run"), token, json!({"code": "1"}))
        .code(403, "CAPABILITY_DENIED");
    // The session still works after all of that.
    assert_eq!(
        shell(&client, &session, "echo fine").ok()["stdout"],
        "fine\n"
    );
}

#[test]
fn files_snapshots_diff_and_policy_through_the_api() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server =
        Running::start(config(dir.path(), &clock).policy(goccia::PolicyMode::WorkspaceWrite));
    let client = Client::new(&server.base);
    client
        .post_json(
            "/v1/sandboxes",
            Some(ADMIN),
            json!({"workspace": "w", "seeds": [], "capabilities": ["read"], "policy": "full"}),
        )
        .code(400, "BAD_SESSION");
    let session = client.open(&["read", "write", "diff", "shell", "run"]);
    let token = session.token.as_str();
    assert_eq!(
        client
            .get(&session.path("/files/w/README"), Some(token))
            .text,
        "readme\n"
    );
    client
        .get(&session.path("/files/w/missing"), Some(token))
        .code(404, "FILE_NOT_FOUND");
    let snapshot = client.post(&session.path("/snapshots"), Some(token), "");
    assert_eq!(snapshot.status, 201);
    assert_eq!(
        client
            .put(&session.path("/files/w/new.txt"), token, b"new\n")
            .status,
        204
    );
    client
        .put(&session.path("/files/etc.txt"), token, b"x")
        .code(403, "POLICY_DENIED");
    let run = shell(&client, &session, "echo x > /outside.txt");
    assert_eq!(run.ok()["exitCode"], 1);
    assert_eq!(run.body["policy"]["mode"], "workspace-write");
    let diff = client.get(&session.path("/diff?format=unified"), Some(token));
    assert!(diff.text.contains("+++ b/w/new.txt"), "{}", diff.text);
    client
        .get(&session.path("/diff?format=xml"), Some(token))
        .code(400, "BAD_REQUEST");
    assert_eq!(
        client
            .post_json(
                &session.path("/restore"),
                Some(token),
                json!({"snapshotId": snapshot.body["snapshotId"]})
            )
            .status,
        204
    );
    client
        .get(&session.path("/files/w/new.txt"), Some(token))
        .code(404, "FILE_NOT_FOUND");
    client
        .post_json(
            &session.path("/restore"),
            Some(token),
            json!({"snapshotId": 9}),
        )
        .code(404, "SNAPSHOT_NOT_FOUND");
    let js = client.post_json(
        &session.path("/run"),
        Some(token),
        json!({"code": "console.log(6*7)"}),
    );
    assert_eq!(js.ok()["stdout"], "42\n");
    // Without `child`, nesting is refused inside runs.
    let nested = shell(
        &client,
        &session,
        "echo 'console.log(1)' > /tmp/c.js; goccia /tmp/c.js",
    );
    assert_ne!(nested.ok()["exitCode"], 0);
    assert_eq!(
        client
            .delete(&session.path("/files/w/README"), token)
            .status,
        204
    );
    client
        .delete(&session.path("/files/w/README"), token)
        .code(404, "FILE_NOT_FOUND");
}

#[test]
fn a_truncated_calls_envelope_says_so() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let session = client.open_with(json!({
        "workspace": "w", "seeds": [], "capabilities": ["shell"],
        "limits": {"maxOutput": 1000, "outputOverflow": "truncate"},
    }));
    let flood = shell(&client, &session, "seq 1 5000");
    assert_eq!(flood.ok()["stats"]["outputTruncated"], json!(true));
    assert_eq!(flood.ok()["ok"], json!(true));
    let quiet = shell(&client, &session, "echo hi");
    assert_eq!(quiet.ok()["stats"]["outputTruncated"], json!(false));
}

#[test]
fn the_openapi_document_lists_every_route() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let document = client.get("/v1/openapi.json", None);
    let paths = document.ok()["paths"].as_object().unwrap().clone();
    for path in [
        "/v1/sandboxes",
        "/v1/sandboxes/{id}",
        "/v1/sandboxes/{id}/run",
        "/v1/sandboxes/{id}/shell",
        "/v1/sandboxes/{id}/files/{path}",
        "/v1/sandboxes/{id}/diff",
        "/v1/sandboxes/{id}/snapshots",
        "/v1/sandboxes/{id}/restore",
        "/v1/sandboxes/{id}/fork",
        "/v1/sandboxes/{id}/renew",
        "/v1/sandboxes/{id}/resume",
        "/v1/sandboxes/{id}/submit",
        "/v1/workspaces/{name}/root",
        "/v1/changes",
        "/v1/openapi.json",
    ] {
        assert!(paths.contains_key(path), "{path} is documented");
    }
    assert_eq!(paths.len(), 15, "and nothing else");
    assert!(paths["/v1/sandboxes/{id}"].get("get").is_some());
    // The session body documents every setting of the spec (and only
    // those, besides the session's own fields), with every limit.
    let body = &paths["/v1/sandboxes"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        ["properties"];
    let mut documented: Vec<&String> = body.as_object().unwrap().keys().collect();
    documented.sort();
    let spec = serde_json::to_value(goccia::SandboxSpec::default()).unwrap();
    let session_fields = ["capabilities", "ttlSeconds", "workspace"].map(String::from);
    let mut fields: Vec<&String> = spec.as_object().unwrap().keys().collect();
    fields.extend(&session_fields);
    fields.sort();
    fields.dedup();
    assert_eq!(documented, fields);
    let mut limits: Vec<&String> = body["limits"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    limits.sort();
    let mut known: Vec<&String> = spec["limits"].as_object().unwrap().keys().collect();
    known.sort();
    assert_eq!(limits, known);
    for (field, names) in [
        ("policy", goccia::PolicyMode::NAMES),
        ("symlinks", goccia::SymlinkPolicy::NAMES),
        ("approve", goccia::Approve::NAMES),
        ("isolation", goccia::IsolationMode::NAMES),
        ("mode", goccia::ExecMode::NAMES),
    ] {
        let schema = match body[field].get("$ref") {
            Some(_) => &document.ok()["components"]["schemas"]["Policy"],
            None => &body[field],
        };
        assert_eq!(schema["enum"], json!(names), "{field}");
    }
}

#[test]
fn sessions_take_the_seeding_options_env_and_writable_roots() {
    let dir = workspace();
    std::fs::create_dir_all(dir.path().join("node_modules/x")).unwrap();
    std::fs::write(dir.path().join("node_modules/x/i.js"), "x").unwrap();
    std::fs::write(dir.path().join(".gitignore"), "*.log\n").unwrap();
    std::fs::write(dir.path().join("debug.log"), "noise").unwrap();
    std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
    std::fs::write(dir.path().join("repo/.git/HEAD"), "ref").unwrap();
    std::fs::write(dir.path().join("repo/a.txt"), "a").unwrap();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let session = client.open_with(json!({
        "workspace": "w",
        "seeds": [{"from": ".", "to": "/w"}],
        "capabilities": ["shell", "write"],
        "policy": "workspace-write",
        "exclude": ["node_modules/"],
        "gitignore": true,
        "env": [{"name": "GREETING", "value": "hi"}],
        "writable": ["/scratch"],
    }));
    let run = shell(
        &client,
        &session,
        "ls /w | tr '\\n' ' '; echo; echo $GREETING; mkdir -p /scratch/x && echo made; touch /elsewhere",
    );
    let body = run.ok();
    assert_eq!(
        body["stdout"], "README repo src \nhi\nmade\n",
        "{}",
        run.text
    );
    assert!(
        body["stderr"]
            .as_str()
            .unwrap()
            .contains("/elsewhere: [sandbox")
    );
    // `gitignore` left `.git/` out of the seed.
    let listed = shell(&client, &session, "ls -a /w/repo");
    assert_eq!(listed.ok()["stdout"], ".\n..\na.txt\n");
    // A removal through the files API is checked as a whole tree: with
    // `.git` seeded, the repository holds a protected name.
    let whole = client.open_with(json!({
        "workspace": "w",
        "seeds": [{"from": "repo", "to": "/repo"}],
        "capabilities": ["write"],
        "policy": "workspace-write",
    }));
    client
        .delete(&whole.path("/files/repo"), &whole.token)
        .code(403, "POLICY_DENIED");
    assert_eq!(
        client
            .delete(&whole.path("/files/repo/a.txt"), &whole.token)
            .status,
        204
    );
    client
        .post_json(
            "/v1/sandboxes",
            Some(ADMIN),
            json!({"workspace": "w", "seeds": [], "capabilities": ["read"], "symlinks": "sideways"}),
        )
        .code(400, "BAD_SESSION");
    client
        .post_json(
            "/v1/sandboxes",
            Some(ADMIN),
            json!({"workspace": "w", "seeds": [], "capabilities": ["read"], "env": [{"name": "1X", "value": ""}]}),
        )
        .code(400, "BAD_SESSION");
}

#[test]
fn expired_and_closed_sessions_are_evicted() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let short = client.open_with(
        json!({"workspace": "w", "seeds": [], "capabilities": ["read", "write"], "ttlSeconds": 60}),
    );
    let long = client.open(&["read", "write"]);
    let closed = client.open(&["read"]);
    assert_eq!(client.delete(&closed.path(""), &closed.token).status, 204);
    assert_eq!(server.server.open_sessions(), 2);
    clock.advance(61);
    let evicted = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(server.server.evict_expired());
    assert_eq!(evicted, 1);
    assert_eq!(server.server.open_sessions(), 1);
    client
        .post(&short.path("/snapshots"), Some(&short.token), "")
        .code(401, "TOKEN_EXPIRED");
    assert_eq!(
        client
            .post(&long.path("/snapshots"), Some(&long.token), "")
            .status,
        201
    );
}

/// How many sessions' shell threads this process runs.
fn shell_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "goccia-shell")
        .count()
}

#[test]
fn one_slow_session_does_not_stall_another() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Arc::new(Client::new(&server.base));
    let (slow, quick) = (client.open(&["shell"]), client.open(&["shell"]));
    let before = shell_threads();
    let slow_call = {
        let client = client.clone();
        std::thread::spawn(move || shell(&client, &slow, "sleep 3; echo slow"))
    };
    // A session's shell thread starts with its first call: once one more
    // exists, the slow call is in flight (other tests of this binary may
    // start theirs too; the slow call's three seconds cover that).
    while shell_threads() <= before {
        std::thread::yield_now();
    }
    let quick_answer = shell(&client, &quick, "echo quick");
    assert_eq!(quick_answer.ok()["stdout"], "quick\n");
    assert!(
        !slow_call.is_finished(),
        "the quick call did not wait for the slow one"
    );
    assert_eq!(slow_call.join().unwrap().ok()["stdout"], "slow\n");
}

#[test]
fn a_shell_call_takes_its_own_cwd_and_env_for_that_call() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let session = client.open(&["shell"]);
    let token = Some(session.token.as_str());
    let path = session.path("/shell");
    client.post(&path, token, r#"{"command":"cd /tmp"}"#).ok();
    let run = client.post(
        &path,
        token,
        r#"{"command":"pwd; echo $ONLY","cwd":"/w","env":{"ONLY":"call"}}"#,
    );
    assert_eq!(run.ok()["stdout"], "/w\ncall\n", "{}", run.text);
    let after = client.post(&path, token, r#"{"command":"pwd; echo \"[$ONLY]\""}"#);
    assert_eq!(after.ok()["stdout"], "/tmp\n[]\n", "{}", after.text);
    let missing = client.post(&path, token, r#"{"command":"true","cwd":"/nope"}"#);
    missing.code(400, "BAD_REQUEST");
    assert!(
        missing.body["message"]
            .as_str()
            .unwrap()
            .contains("cwd `/nope`: No such file or directory"),
        "{}",
        missing.text
    );
    client
        .post(&path, token, r#"{"command":"true","env":{"A":1}}"#)
        .code(400, "BAD_REQUEST");
}
