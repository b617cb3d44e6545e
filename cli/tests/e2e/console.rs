//! `goccia serve --console` through the real binary and a real HTTP
//! client, below the page (docs/console.md): who may read it, the event
//! stream, and escalation requests that wait for a person — approved,
//! denied, cancelled at the call's deadline, or answered with a forged
//! id. The page itself is driven in a real browser by
//! cli/tests/console/console.test.mjs.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::Duration;

use crate::common::*;
use crate::serve::{Served, http, open, workspace_server};

/// A console server over `ws/` whose sessions are read-only and whose
/// escalation requests go to the console.
fn console_server(project: &Project) -> (Served, String) {
    workspace_server(
        project,
        &["--console", "--policy", "read-only", "--approve", "console"],
    )
}

/// The events of `/console/api/events`, each `(name, data)`, as they
/// arrive.
fn events(address: &str, token: &str) -> mpsc::Receiver<(String, serde_json::Value)> {
    let mut stream = TcpStream::connect(address.trim_start_matches("http://")).unwrap();
    write!(
        stream,
        "GET /console/api/events HTTP/1.1\r\nHost: goccia\r\nAuthorization: Bearer {token}\r\n\r\n"
    )
    .unwrap();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut name = String::new();
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            if let Some(event) = line.strip_prefix("event: ") {
                name = event.to_string();
            } else if let Some(data) = line.strip_prefix("data: ") {
                let data = serde_json::from_str(data).unwrap_or(serde_json::Value::Null);
                if sender.send((name.clone(), data)).is_err() {
                    return;
                }
            }
        }
    });
    receiver
}

/// The next event named `name` (others are skipped).
fn next(events: &mpsc::Receiver<(String, serde_json::Value)>, name: &str) -> serde_json::Value {
    loop {
        let (event, data) = events
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no `{name}` event"));
        if event == name {
            return data;
        }
    }
}

/// Runs `command` in session `id` on another thread; its envelope.
fn shell_later(
    address: &str,
    id: &str,
    token: &str,
    command: &str,
    timeout_ms: Option<u64>,
) -> std::thread::JoinHandle<(u16, serde_json::Value)> {
    let (address, id, token) = (address.to_string(), id.to_string(), token.to_string());
    let mut body = serde_json::json!({ "command": command });
    if let Some(ms) = timeout_ms {
        body["timeoutMs"] = ms.into();
    }
    std::thread::spawn(move || {
        http(
            &address,
            "POST",
            &format!("/v1/sandboxes/{id}/shell"),
            &token,
            &body.to_string(),
        )
    })
}

/// The operator's decision on request `escalation`; the status.
fn decide(served: &Served, admin: &str, escalation: &str, decision: &str) -> u16 {
    let body = serde_json::json!({ "decision": decision }).to_string();
    let path = format!("/console/api/escalations/{escalation}");
    http(&served.address, "POST", &path, admin, &body).0
}

const ESCALATE: &str =
    "escalate --mode workspace-write --justification 'write the report' -- touch /w/report.txt";

#[test]
fn the_console_is_off_unless_asked_for() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = workspace_server(&project, &[]);
    let (status, _) = http(&served.address, "GET", "/console", &admin, "");
    assert_eq!(status, 404);
    let (status, _) = http(&served.address, "GET", "/console/api/state", &admin, "");
    assert_eq!(status, 404);
    served.terminate();
}

#[test]
fn nothing_is_shown_without_the_admin_token() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = console_server(&project);
    let (id, session_token) = open(&served.address, &admin);
    // The page itself holds no data: it asks for the token.
    let (status, page) = http(&served.address, "GET", "/console", "", "");
    assert_eq!(status, 200);
    assert!(!page.to_string().contains(&id));
    for path in [
        "/console/api/state".to_string(),
        "/console/api/events".to_string(),
        format!("/console/api/sessions/{id}"),
        format!("/console/api/sessions/{id}/diff"),
    ] {
        for token in ["", "not-the-admin-token-at-all", session_token.as_str()] {
            let (status, body) = http(&served.address, "GET", &path, token, "");
            assert_eq!(status, 401, "{path} with `{token}`: {body}");
            assert_eq!(body["error"], "TOKEN_INVALID");
        }
    }
    // A session's own token cannot answer for the operator either.
    let (status, _) = http(
        &served.address,
        "POST",
        "/console/api/escalations/esc_0",
        &session_token,
        r#"{"decision":"approve"}"#,
    );
    assert_eq!(status, 401);
    let (status, state) = http(&served.address, "GET", "/console/api/state", &admin, "");
    assert_eq!(status, 200);
    assert_eq!(state["sessions"][0]["id"], id.as_str());
    assert_eq!(state["sessions"][0]["workspace"], "w");
    served.terminate();
}

#[test]
fn the_page_loads_nothing_from_elsewhere_and_cannot_be_framed() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, _) = console_server(&project);
    let mut stream = TcpStream::connect(served.address.trim_start_matches("http://")).unwrap();
    write!(
        stream,
        "GET /console HTTP/1.1\r\nHost: goccia\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    let headers = answer
        .split("\r\n\r\n")
        .next()
        .unwrap()
        .to_ascii_lowercase();
    assert!(
        headers.contains("content-security-policy: default-src 'none'; script-src 'self';"),
        "{headers}"
    );
    assert!(headers.contains("frame-ancestors 'none'"), "{headers}");
    assert!(headers.contains("x-frame-options: deny"), "{headers}");
    // Every asset is the server's own: no absolute URL in the page.
    let page = answer.split("\r\n\r\n").nth(1).unwrap();
    assert!(!page.contains("http://") && !page.contains("https://"));
    served.terminate();
}

#[test]
fn calls_arrive_as_events_and_in_the_timeline() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = console_server(&project);
    let stream = events(&served.address, &admin);
    next(&stream, "ready");
    let (id, token) = open(&served.address, &admin);
    let opened = next(&stream, "session");
    assert_eq!(opened["id"], id.as_str());
    assert_eq!(
        opened["capabilities"],
        serde_json::json!(["shell", "submit"])
    );
    let (status, _) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/shell"),
        &token,
        r#"{"command":"echo hello; exit 3"}"#,
    );
    assert_eq!(status, 200);
    let call = next(&stream, "call");
    assert_eq!(call["session"], id.as_str());
    assert_eq!(call["command"], "echo hello; exit 3");
    assert_eq!(call["exitCode"], 3);
    assert_eq!(call["excerpt"], "hello\n");
    let (status, detail) = http(
        &served.address,
        "GET",
        &format!("/console/api/sessions/{id}"),
        &admin,
        "",
    );
    assert_eq!(status, 200);
    assert_eq!(detail["timeline"][0]["exitCode"], 3);
    assert_eq!(detail["session"]["calls"], 1);
    for path in [
        "/console/api/sessions/sb_nosuch",
        "/console/api/sessions/sb_nosuch/diff",
    ] {
        let (status, body) = http(&served.address, "GET", path, &admin, "");
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["error"], "SANDBOX_NOT_FOUND");
    }
    let (status, _) = http(
        &served.address,
        "DELETE",
        &format!("/v1/sandboxes/{id}"),
        &token,
        "",
    );
    assert_eq!(status, 204);
    assert_eq!(next(&stream, "session-closed")["id"], id.as_str());
    served.terminate();
}

#[test]
fn an_approved_request_runs_and_a_denied_one_does_not() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = console_server(&project);
    let stream = events(&served.address, &admin);
    next(&stream, "ready");
    let (id, token) = open(&served.address, &admin);

    let call = shell_later(&served.address, &id, &token, ESCALATE, None);
    let asked = next(&stream, "escalation");
    assert_eq!(asked["session"], id.as_str());
    assert_eq!(asked["requestedMode"], "workspace-write");
    assert_eq!(asked["justification"], "write the report");
    let (_, state) = http(&served.address, "GET", "/console/api/state", &admin, "");
    assert_eq!(state["escalations"][0]["id"], asked["id"]);
    // A forged id, or a decision that is neither word, decides nothing.
    let (status, body) = http(
        &served.address,
        "POST",
        "/console/api/escalations/esc_00000000000000000000000000000000",
        &admin,
        r#"{"decision":"approve"}"#,
    );
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"], "ESCALATION_NOT_WAITING");
    let escalation = asked["id"].as_str().unwrap().to_string();
    assert_eq!(decide(&served, &admin, &escalation, "yes"), 400);
    assert_eq!(decide(&served, &admin, &escalation, "approve"), 204);
    let ended = next(&stream, "escalation-ended");
    assert_eq!(ended["decision"], "approved");
    let (status, envelope) = call.join().unwrap();
    assert_eq!(status, 200);
    assert_eq!(envelope["exitCode"], 0, "{envelope}");
    // Deciding it again changes nothing.
    assert_eq!(decide(&served, &admin, &escalation, "deny"), 404);

    let denied = "escalate --mode workspace-write --justification 'again' -- touch /w/second.txt";
    let call = shell_later(&served.address, &id, &token, denied, None);
    let asked = next(&stream, "escalation");
    let escalation = asked["id"].as_str().unwrap().to_string();
    assert_eq!(decide(&served, &admin, &escalation, "deny"), 204);
    let (_, envelope) = call.join().unwrap();
    assert_eq!(envelope["exitCode"], 1, "{envelope}");
    assert!(
        envelope["stderr"].as_str().unwrap().contains("rejected"),
        "{envelope}"
    );
    let (_, listing) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/shell"),
        &token,
        r#"{"command":"ls /w"}"#,
    );
    assert_eq!(listing["stdout"], "a.txt\nreport.txt\n");
    served.terminate();
}

#[test]
fn a_request_nobody_answers_is_cancelled_at_the_calls_deadline() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = console_server(&project);
    let stream = events(&served.address, &admin);
    next(&stream, "ready");
    let (id, token) = open(&served.address, &admin);
    let call = shell_later(&served.address, &id, &token, ESCALATE, Some(800));
    let asked = next(&stream, "escalation");
    assert!(asked["waitMs"].as_u64().unwrap() <= 800, "{asked}");
    assert_eq!(next(&stream, "escalation-ended")["decision"], "cancelled");
    let (_, envelope) = call.join().unwrap();
    assert_ne!(envelope["exitCode"], 0, "{envelope}");
    assert!(
        envelope["stderr"].as_str().unwrap().contains("cancelled"),
        "{envelope}"
    );
    let (_, state) = http(&served.address, "GET", "/console/api/state", &admin, "");
    assert_eq!(state["escalations"], serde_json::json!([]));
    served.terminate();
}

#[test]
fn approve_console_needs_the_console_and_a_session_cannot_ask_for_it() {
    let project = Project::with("ws/a.txt", "a\n");
    let output = project.goccia(&[
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--workspace",
        "w=ws",
        "--approve",
        "console",
    ]);
    output
        .assert_code(2)
        .stderr_has("--approve console sends requests to the web console: add --console");
    // A server whose approver is nobody: a session may not pick the
    // console for itself.
    let (served, admin) = workspace_server(&project, &["--console"]);
    let (status, body) = http(
        &served.address,
        "POST",
        "/v1/sandboxes",
        &admin,
        r#"{"workspace":"w","seeds":[{"from":".","to":"/w"}],"capabilities":["shell"],"approve":"console"}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("approve"),
        "{body}"
    );
    served.terminate();
}

#[test]
fn an_open_event_stream_does_not_hold_up_shutdown() {
    let project = Project::with("ws/a.txt", "a\n");
    let (served, admin) = console_server(&project);
    let stream = events(&served.address, &admin);
    next(&stream, "ready");
    assert_eq!(served.terminate(), 0);
}
