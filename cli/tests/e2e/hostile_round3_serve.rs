//! Hostile input, third round (issue 41), on the server: each class the
//! red team found, tried through `goccia serve` and its HTTP API as an
//! agent holding a session token would.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::*;
use crate::serve::{Served, http, workspace_server as server};

/// A session seeded with all of `ws/` at `/w`: its id, token and root.
fn session(served: &Served, admin: &str, request: Value) -> (String, String, String) {
    let mut body = json!({"workspace": "w", "seeds": [{"from": ".", "to": "/w"}]});
    for (key, value) in request.as_object().unwrap() {
        body[key] = value.clone();
    }
    let (status, opened) = http(
        &served.address,
        "POST",
        "/v1/sandboxes",
        admin,
        &body.to_string(),
    );
    assert_eq!(status, 201, "{opened}");
    (
        opened["sandboxId"].as_str().unwrap().to_string(),
        opened["token"].as_str().unwrap().to_string(),
        opened["root"].as_str().unwrap().to_string(),
    )
}

fn shell(served: &Served, id: &str, token: &str, command: &str) -> (u16, Value) {
    http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/shell"),
        token,
        &json!({ "command": command }).to_string(),
    )
}

fn submit(served: &Served, id: &str, token: &str, root: &str) -> (u16, Value) {
    http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/submit"),
        token,
        &json!({
            "expectedRoot": root,
            "authorship": {"vendor": "v", "model": "m", "tool": "t", "suggestionType": "agent",
                           "inputTokens": 1, "outputTokens": 1, "session": "s"},
        })
        .to_string(),
    )
}

// ----- 2, 3. submits never write .git or .goccia; the log survives -----

#[test]
fn a_submit_never_writes_git_or_goccia_and_a_damaged_log_is_read_past() {
    let project = Project::with("ws/a.txt", "a\n");
    project.write("ws/.git/config", "[core]\n\tbare = false\n");
    let (served, admin) = server(&project, &[]);
    let (id, token, root) = session(
        &served,
        &admin,
        json!({"capabilities": ["shell", "submit"]}),
    );
    let (status, ran) = shell(
        &served,
        &id,
        &token,
        "printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > /w/.git/config && mkdir -p /w/.goccia /w/sub/.git && echo forged > /w/.goccia/changes.jsonl && echo mine > /w/.goccia/lock && echo hook > /w/sub/.git/HEAD && echo b > /w/a.txt",
    );
    assert_eq!((status, &ran["exitCode"]), (200, &json!(0)), "{ran}");
    let (status, landed) = submit(&served, &id, &token, &root);
    assert_eq!(status, 200, "{landed}");
    assert_eq!(landed["written"], json!(["a.txt"]), "{landed}");
    let skipped: Vec<&str> = landed["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["reason"] == "paths inside .git and .goccia are never written back")
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    // Skipped files are named as written ones are: relative to the
    // workspace, with the sandbox path beside.
    for path in [
        ".git/config",
        ".goccia/changes.jsonl",
        ".goccia/lock",
        "sub/.git/HEAD",
    ] {
        assert!(skipped.contains(&path), "{path} skipped: {landed}");
    }
    assert!(
        landed["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["sandboxPath"] == "/w/.git/config"),
        "{landed}"
    );
    assert_eq!(project.read("ws/.git/config"), "[core]\n\tbare = false\n");
    assert!(!project.exists("ws/sub/.git"));
    assert_eq!(project.read("ws/a.txt"), "b\n");
    let log = project.read("ws/.goccia/changes.jsonl");
    assert!(!log.contains("forged"), "{log}");
    assert_eq!(log.lines().count(), 1);

    // A damaged line (whoever wrote it) is skipped and named.
    std::fs::OpenOptions::new()
        .append(true)
        .open(project.join("ws/.goccia/changes.jsonl"))
        .unwrap()
        .write_all(b"{\"not\": \"a record\"}\n\xff\xfe\n")
        .unwrap();
    let (status, changes) = http(
        &served.address,
        "GET",
        "/v1/changes?workspace=w",
        &admin,
        "",
    );
    assert_eq!(status, 200, "{changes}");
    assert_eq!(changes["changes"].as_array().unwrap().len(), 1);
    let damaged: Vec<u64> = changes["damaged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["line"].as_u64().unwrap())
        .collect();
    assert_eq!(damaged, [2, 3], "{changes}");
    served.terminate();
    let log = project.goccia(&["log", "ws"]);
    log.assert_ok().stderr_has("line 2 is not a change record");
    assert!(log.stdout.starts_with(landed["changeId"].as_str().unwrap()));
}

// ----- 4. a session's replies carry its own events -----

#[test]
fn a_sessions_replies_carry_only_its_own_events() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = server(&project, &["--audit-log", "audit.jsonl"]);
    let (a, a_token, _) = session(
        &served,
        &admin,
        json!({"capabilities": ["shell"], "policy": "read-only"}),
    );
    let (b, b_token, _) = session(
        &served,
        &admin,
        json!({"capabilities": ["shell"], "policy": "read-only"}),
    );
    let (_, ran) = shell(&served, &a, &a_token, "echo x > /w/secret-of-a");
    let events = ran["events"].as_array().unwrap();
    assert!(
        events.iter().any(|e| e["subject"] == "/w/secret-of-a"),
        "{ran}"
    );
    let (_, ran) = shell(&served, &b, &b_token, "echo y > /w/of-b");
    let text = ran["events"].to_string();
    assert!(!text.contains("secret-of-a"), "{text}");
    assert!(text.contains("/w/of-b"), "{text}");
    // A later call of A carries that call's events only.
    let (_, ran) = shell(&served, &a, &a_token, "true");
    assert_eq!(ran["events"], json!([]), "{ran}");
    // The server's log has them all.
    served.terminate();
    let log = project.read("audit.jsonl");
    assert!(
        log.contains("secret-of-a") && log.contains("/w/of-b"),
        "{log}"
    );
}

// ----- 5. seeds through links -----

#[test]
fn a_seed_through_a_link_inside_the_workspace_is_refused() {
    let project = Project::with("ws/a.txt", "a\n");
    project.write("outside/canary.txt", "canary\n");
    std::os::unix::fs::symlink(project.join("outside"), project.join("ws/link")).unwrap();
    let (served, admin) = server(&project, &[]);
    for from in ["link/canary.txt", "link", "link/."] {
        let (status, refused) = http(
            &served.address,
            "POST",
            "/v1/sandboxes",
            &admin,
            &json!({"workspace": "w", "seeds": [{"from": from, "to": "/c"}], "capabilities": ["shell", "submit"]})
                .to_string(),
        );
        assert_eq!(status, 400, "{from}: {refused}");
        assert!(
            refused["message"]
                .as_str()
                .unwrap()
                .contains("passes through a symbolic link"),
            "{refused}"
        );
    }
    assert_eq!(project.read("outside/canary.txt"), "canary\n");
}

// ----- 6. per-call timeouts capped -----

#[test]
fn a_call_cannot_outlast_the_servers_timeout() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = server(&project, &["--timeout", "1000"]);
    let (id, token, _) = session(&served, &admin, json!({"capabilities": ["shell", "run"]}));
    let started = Instant::now();
    let (status, ran) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/shell"),
        &token,
        r#"{"command": "sleep 20; echo late", "timeoutMs": 1000000000}"#,
    );
    assert_eq!(status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(ran["exitCode"], 4, "{ran}");
    assert!(ran["error"].as_str().unwrap().contains("1000 ms"), "{ran}");
    let started = Instant::now();
    let (_, ran) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/run"),
        &token,
        r#"{"code": "for (;;) {}", "timeoutMs": 40000}"#,
    );
    assert_eq!(ran["exitCode"], 4, "{ran}");
    assert!(started.elapsed() < Duration::from_secs(6));
}

// ----- 7. snapshots bounded -----

#[test]
fn snapshots_count_against_the_quota_and_need_write() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = server(&project, &["--fs-quota-bytes", "1m"]);
    let (id, token, _) = session(&served, &admin, json!({"capabilities": ["shell", "write"]}));
    let snapshot = |token: &str| {
        http(
            &served.address,
            "POST",
            &format!("/v1/sandboxes/{id}/snapshots"),
            token,
            "",
        )
    };
    shell(&served, &id, &token, "head -c 600000 /dev/zero > /w/big");
    assert_eq!(snapshot(&token).0, 201);
    // Rewritten: the snapshot keeps the old 600 kB beside the new.
    shell(&served, &id, &token, "head -c 600000 /dev/urandom > /w/big");
    let (status, refused) = snapshot(&token);
    assert_eq!(
        (status, &refused["error"]),
        (409, &json!("SNAPSHOT_LIMIT")),
        "{refused}"
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("file system quota"),
        "{refused}"
    );
    // The count: 64 at most.
    shell(&served, &id, &token, "rm /w/big");
    let mut taken = 1;
    let refused = loop {
        let (status, answer) = snapshot(&token);
        if status != 201 {
            break answer;
        }
        taken += 1;
        assert!(taken <= 64, "more than 64 snapshots were taken");
    };
    assert_eq!(taken, 64);
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("snapshot limit of 64"),
        "{refused}"
    );
    // `read` alone cannot take one.
    let (other, reader, _) = session(&served, &admin, json!({"capabilities": ["read"]}));
    let (status, refused) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{other}/snapshots"),
        &reader,
        "",
    );
    assert_eq!(
        (status, &refused["error"]),
        (403, &json!("CAPABILITY_DENIED")),
        "{refused}"
    );
}

// ----- 9. the fence never overwrites newer work -----

#[test]
fn a_resubmit_never_overwrites_work_that_landed_meanwhile() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = server(&project, &[]);
    let caps = json!({"capabilities": ["shell", "submit"]});
    let (a, a_token, root) = session(&served, &admin, caps.clone());
    let (b, b_token, _) = session(&served, &admin, caps);
    shell(&served, &b, &b_token, "echo from-b > /w/a.txt");
    let (status, landed) = submit(&served, &b, &b_token, &root);
    assert_eq!(status, 200, "{landed}");
    shell(
        &served,
        &a,
        &a_token,
        "echo from-a > /w/a.txt; echo new > /w/n.txt",
    );
    let (status, stale) = submit(&served, &a, &a_token, &root);
    assert_eq!((status, &stale["error"]), (409, &json!("VIEW_STALE")));
    // Resubmitting with the root the 409 named: a.txt is not what A saw.
    let current = stale["currentRoot"].as_str().unwrap();
    let (status, stale) = submit(&served, &a, &a_token, current);
    assert_eq!(
        (status, &stale["error"]),
        (409, &json!("VIEW_STALE")),
        "{stale}"
    );
    assert_eq!(stale["files"], json!(["a.txt"]), "{stale}");
    assert_eq!(project.read("ws/a.txt"), "from-b\n");
    assert!(!project.exists("ws/n.txt"), "nothing was written");
}

#[test]
fn a_same_size_edit_with_its_time_put_back_moves_the_root() {
    let project = Project::with("ws/a.txt", "aaaa\n");
    let (served, admin) = server(&project, &[]);
    let (id, token, root) = session(
        &served,
        &admin,
        json!({"capabilities": ["shell", "submit"]}),
    );
    let (_, before) = http(&served.address, "GET", "/v1/workspaces/w/root", &admin, "");
    assert_eq!(before["root"], json!(root));
    let path = project.join("ws/a.txt");
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, "zzzz\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    shell(&served, &id, &token, "echo x > /w/x.txt");
    let (status, stale) = submit(&served, &id, &token, &root);
    assert_eq!(
        (status, &stale["error"]),
        (409, &json!("VIEW_STALE")),
        "{stale}"
    );
    assert_ne!(stale["currentRoot"], json!(root));
    assert!(!project.exists("ws/x.txt"));
}

#[test]
fn a_session_restored_after_a_restart_cannot_resubmit_over_a_host_edit() {
    let project = Project::with("ws/a.txt", "a\n");
    let state = ["--state", "state.sqlite"];
    let (served, admin) = server(&project, &state);
    let (id, token, root) = session(
        &served,
        &admin,
        json!({"capabilities": ["shell", "submit", "write"]}),
    );
    shell(&served, &id, &token, "echo v1 > /w/new.txt");
    let (status, _) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/snapshots"),
        &token,
        "",
    );
    assert_eq!(status, 201);
    let (status, landed) = submit(&served, &id, &token, &root);
    assert_eq!(status, 200, "{landed}");
    std::fs::write(project.join("ws/new.txt"), "the host's edit\n").unwrap();
    served.terminate();
    // Back from the snapshot taken before the submit: its baseline lacks
    // new.txt, its tree has v1.
    let (served, admin) = server(&project, &state);
    let (status, ran) = shell(&served, &id, &token, "cat /w/new.txt");
    assert_eq!((status, &ran["stdout"]), (200, &json!("v1\n")), "{ran}");
    let (_, current) = http(&served.address, "GET", "/v1/workspaces/w/root", &admin, "");
    let (status, stale) = submit(&served, &id, &token, current["root"].as_str().unwrap());
    assert_eq!(
        (status, &stale["error"]),
        (409, &json!("VIEW_STALE")),
        "{stale}"
    );
    assert_eq!(stale["files"], json!(["new.txt"]));
    assert_eq!(project.read("ws/new.txt"), "the host's edit\n");
    served.terminate();
}

// ----- 11. sessions in the worker -----

#[test]
fn serve_can_run_its_sessions_in_the_worker() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = server(&project, &["--isolate", "process"]);
    let (id, token, _) = session(&served, &admin, json!({"capabilities": ["shell", "run"]}));
    let (status, ran) = shell(&served, &id, &token, "cat /w/a.txt");
    assert_eq!((status, &ran["stdout"]), (200, &json!("a\n")), "{ran}");
    assert_eq!(ran["isolation"]["mode"], "process", "{ran}");
    let (_, ran) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/run"),
        &token,
        r#"{"code": "const a = new Uint8Array(4e8); a.sort(); for (;;) {}", "timeoutMs": 500}"#,
    );
    assert_eq!(ran["exitCode"], 4, "{ran}");
}

// ----- 14. the state file -----

#[test]
fn the_state_file_is_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let project = Project::with("ws/a.txt", "a\n");
    let (served, _) = server(&project, &["--state", "state.sqlite"]);
    let mode = std::fs::metadata(project.join("state.sqlite"))
        .unwrap()
        .permissions()
        .mode();
    served.terminate();
    assert_eq!(mode & 0o777, 0o600);
}

// ----- soft spots: idle connections -----

#[test]
fn idle_connections_are_closed_and_do_not_pile_up() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = server(&project, &["--header-read-timeout", "500"]);
    let address = served.address.trim_start_matches("http://").to_string();
    // Connections that say nothing, past the cap on open ones.
    let mut idle: Vec<std::net::TcpStream> = (0..1500)
        .filter_map(|_| std::net::TcpStream::connect(&address).ok())
        .collect();
    assert!(idle.len() > 1000, "only {} connected", idle.len());
    // Each is closed within the timeout (or at once, past the cap).
    let started = Instant::now();
    for stream in &mut idle {
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut byte = [0u8; 1];
        let read = stream.read(&mut byte);
        assert!(
            matches!(read, Ok(0))
                || matches!(&read, Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset),
            "an idle connection stayed open: {read:?}"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(10));
    let (status, _) = http(&served.address, "GET", "/v1/workspaces/w/root", &admin, "");
    assert_eq!(status, 200, "the server still answers");
    served.terminate();
}
