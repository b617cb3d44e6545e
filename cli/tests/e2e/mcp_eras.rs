//! `goccia mcp` in both protocol eras (docs/mcp.md): the 2026-07-28
//! revision without sessions, where sandboxes are named by handles, beside
//! the initialize handshake of 2025-11-25. The official Python SDK 2.3
//! negotiates the new era on its own ("auto"), the TypeScript SDK 2.x
//! when switched on; raw JSON-RPC covers what the SDKs never send: calls without a handle, forged handles, closed
//! handles, another token's handles.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::common::binary;
use super::mcp::{HttpServer, Sdk, TOOLS, call_text, drive, escalation_session, stdio, tool_names};

#[test]
fn python_in_auto_mode_speaks_the_new_era_through_a_handle() {
    let mut config = stdio(
        &[],
        json!([
            ["shell", {"command": "cd /tmp; STEP=kept; echo hi > note.txt"}],
            ["shell", {"command": "pwd; echo $STEP"}],
            ["read_file", {"path": "/tmp/note.txt"}],
            ["snapshot", {"label": "one"}],
            ["shell", {"command": "echo changed > /tmp/note.txt"}],
            ["restore", {"snapshotId": 0}],
            ["read_file", {"path": "/tmp/note.txt"}],
        ]),
    );
    config["mode"] = json!("auto");
    let report = drive(Sdk::Python, config);
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
    assert_eq!(tool_names(&report), TOOLS);
    let opened = report["opened"]["text"].as_str().unwrap();
    let handle: Value = serde_json::from_str(opened).unwrap();
    assert!(handle["sandbox"].as_str().unwrap().starts_with("sbx_"));
    // The handle keeps the sandbox and its shell between requests.
    assert!(call_text(&report, 1).contains("/tmp\nkept\n"), "{report}");
    assert_eq!(call_text(&report, 2), "hi\n");
    assert_eq!(call_text(&report, 6), "hi\n");
    // Every tool names the sandbox in its schema.
    for tool in report["tools"].as_array().unwrap() {
        if tool["name"] != "open_sandbox" {
            assert!(
                tool["inputSchema"]["properties"]["sandbox"].is_object(),
                "{tool}"
            );
        }
    }
}

#[test]
fn the_old_era_still_works_without_a_handle() {
    let report = drive(
        Sdk::Python,
        stdio(&[], json!([["shell", {"command": "echo session"}]])),
    );
    assert_eq!(report["protocolVersion"], "2025-11-25");
    assert!(call_text(&report, 0).contains("session"));
}

/// A raw stdio client of the new era: each request carries the version
/// in `_meta`.
struct Raw {
    /// What the client declares in every request's `_meta`.
    capabilities: Value,
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
    next_id: u64,
}

impl Raw {
    /// A client that can be asked (it declares form elicitation).
    fn start(extra: &[&str]) -> Raw {
        Raw::declaring(extra, json!({"elicitation": {"form": {}}}))
    }

    fn declaring(extra: &[&str], capabilities: Value) -> Raw {
        let mut child = Command::new(binary())
            .arg("mcp")
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        Raw {
            capabilities,
            child,
            stdin,
            lines,
            next_id: 0,
        }
    }

    fn request(&mut self, method: &str, mut params: Value) -> Value {
        self.next_id += 1;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
        });
        let line =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        serde_json::from_str(&self.lines.next().unwrap().unwrap()).unwrap()
    }

    fn call(&mut self, name: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": name, "arguments": arguments}))
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn text_of(answer: &Value) -> &str {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

#[test]
fn handles_are_required_unguessable_and_gone_once_closed() {
    let mut raw = Raw::start(&[]);
    let discovered = raw.request("server/discover", json!({}));
    assert!(
        discovered["result"]["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2026-07-28")),
        "{discovered}"
    );
    // No handle: refused, saying what to do.
    let answer = raw.call("shell", json!({"command": "echo hi"}));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("open_sandbox")
    );
    // A forged handle, and one of the right shape never given: the same
    // answer.
    for forged in ["sbx_00000000000000000000000000000000", "../../etc", "x"] {
        let answer = raw.call("shell", json!({"command": "echo hi", "sandbox": forged}));
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no open sandbox of yours")
        );
    }
    let opened = raw.call("open_sandbox", json!({}));
    let handle: Value = serde_json::from_str(text_of(&opened)).unwrap();
    let handle = handle["sandbox"].as_str().unwrap().to_string();
    let other: Value = serde_json::from_str(text_of(&raw.call("open_sandbox", json!({})))).unwrap();
    assert_ne!(
        other["sandbox"],
        json!(handle),
        "each open is a new sandbox"
    );
    let answer = raw.call(
        "shell",
        json!({"command": "echo one > /f; cat /f", "sandbox": handle}),
    );
    assert!(text_of(&answer).contains("one"), "{answer}");
    // Sandboxes of two handles are apart.
    let answer = raw.call(
        "read_file",
        json!({"path": "/f", "sandbox": other["sandbox"]}),
    );
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let closed = raw.call("close_sandbox", json!({"sandbox": handle}));
    assert!(text_of(&closed).starts_with("closed "), "{closed}");
    let answer = raw.call("shell", json!({"command": "cat /f", "sandbox": handle}));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let again = raw.call("close_sandbox", json!({"sandbox": handle}));
    assert_eq!(again["error"]["code"], -32602, "{again}");
}

#[test]
fn a_client_holds_a_bounded_number_of_handles() {
    let mut raw = Raw::start(&[]);
    for _ in 0..16 {
        let opened = raw.call("open_sandbox", json!({}));
        assert_eq!(opened["result"]["isError"], false, "{opened}");
    }
    let refused = raw.call("open_sandbox", json!({}));
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(text_of(&refused).contains("16 open sandboxes"), "{refused}");
}

#[test]
fn over_http_a_handle_is_its_tokens_alone() {
    let server = HttpServer::start_with_tokens(&["token-of-alice", "token-of-bob"], &[]);
    let mut alice = json!({"url": server.url, "token": "token-of-alice", "mode": "2026-07-28", "calls": [
        ["shell", {"command": "echo alice > /mine; cat /mine"}],
    ]});
    let report = drive(Sdk::Python, alice.take());
    assert!(call_text(&report, 0).contains("alice"), "{report}");
    let opened: Value = serde_json::from_str(report["opened"]["text"].as_str().unwrap()).unwrap();
    let handle = opened["sandbox"].as_str().unwrap();
    // Alice's handle lives on between her requests...
    let report = drive(
        Sdk::Python,
        json!({"url": server.url, "token": "token-of-alice", "mode": "2026-07-28", "calls": [
            ["read_file", {"path": "/mine", "sandbox": handle}],
        ]}),
    );
    assert_eq!(call_text(&report, 0), "alice\n", "{report}");
    // ...and is refused to Bob, as a forged one would be.
    let report = drive(
        Sdk::Python,
        json!({"url": server.url, "token": "token-of-bob", "mode": "2026-07-28", "calls": [
            ["read_file", {"path": "/mine", "sandbox": handle}],
        ]}),
    );
    let error = report["calls"][0]["protocolError"]
        .as_str()
        .unwrap_or_default();
    assert!(error.contains("no open sandbox of yours"), "{report}");
    let status = server.stop();
    assert!(status.success(), "{status}");
}

#[test]
fn in_the_new_era_escalation_is_an_input_required_result() {
    escalation_session(Sdk::Python, "auto");
}

#[test]
fn typescript_2_in_both_eras_asks_and_edits() {
    escalation_session(Sdk::TypeScript2, "auto");
    escalation_session(Sdk::TypeScript2, "legacy");
    let mut config = stdio(
        &[],
        json!([
            ["shell", {"command": "cd /tmp; STEP=kept"}],
            ["shell", {"command": "pwd; echo $STEP"}],
        ]),
    );
    config["mode"] = json!("auto");
    let report = drive(Sdk::TypeScript2, config);
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report}");
    assert!(call_text(&report, 1).contains("/tmp\nkept\n"), "{report}");
}

#[test]
fn a_client_that_declared_no_elicitation_is_never_asked() {
    let mut raw = Raw::declaring(&["--policy", "read-only"], json!({}));
    let opened: Value =
        serde_json::from_str(text_of(&raw.call("open_sandbox", json!({})))).unwrap();
    let handle = opened["sandbox"].as_str().unwrap().to_string();
    let answer = raw.call(
        "shell",
        json!({"command": "escalate --mode full --justification why -- touch /g; ls /", "sandbox": handle}),
    );
    assert_ne!(answer["result"]["resultType"], "input_required", "{answer}");
    assert!(
        text_of(&answer).contains("escalate: no approver is available"),
        "{answer}"
    );
    // Its calls on one handle still run one at a time, and in order.
    let checked = raw.call(
        "shell",
        json!({"command": "test -e /g && echo present || echo absent", "sandbox": handle}),
    );
    assert!(text_of(&checked).contains("absent"), "{checked}");
}

#[test]
fn a_retry_is_believed_only_for_the_question_it_answers() {
    let mut raw = Raw::start(&["--policy", "read-only"]);
    let opened: Value =
        serde_json::from_str(text_of(&raw.call("open_sandbox", json!({})))).unwrap();
    let handle = opened["sandbox"].as_str().unwrap().to_string();
    let asking = json!({"command": "escalate --mode full --justification why -- touch /g; ls /", "sandbox": handle});
    let first = raw.call("shell", asking.clone());
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_string();
    let question = &first["result"]["inputRequests"]["escalation"];
    assert_eq!(question["method"], "elicitation/create", "{first}");
    assert!(
        question["params"]["message"]
            .as_str()
            .unwrap()
            .contains("why")
    );
    let yes = json!({"escalation": {"action": "accept", "content": {"allow": true}}});
    // A forged state, and the right state with another call's arguments:
    // nothing is granted, and the question still waits.
    let forged = raw.request(
        "tools/call",
        json!({"name": "shell", "arguments": asking,
        "requestState": "rs_00000000000000000000000000000000", "inputResponses": yes}),
    );
    assert_eq!(forged["error"]["code"], -32602, "{forged}");
    let other = json!({"command": "touch /elsewhere", "sandbox": handle});
    let moved = raw.request(
        "tools/call",
        json!({"name": "shell", "arguments": other,
        "requestState": state, "inputResponses": yes}),
    );
    assert_eq!(moved["error"]["code"], -32602, "{moved}");
    // The real retry: granted for this call.
    let granted = raw.request(
        "tools/call",
        json!({"name": "shell", "arguments": asking,
        "requestState": state, "inputResponses": yes}),
    );
    assert!(text_of(&granted).contains("g\n"), "{granted}");
    // The answer was for that request only: the next escalation asks again,
    // and a used state grants nothing.
    let reused = raw.request(
        "tools/call",
        json!({"name": "shell", "arguments": asking,
        "requestState": state, "inputResponses": yes}),
    );
    assert_eq!(reused["error"]["code"], -32602, "{reused}");
    let again = raw.call("shell", json!({"command": "escalate --mode full --justification twice -- touch /h", "sandbox": handle}));
    assert_eq!(again["result"]["resultType"], "input_required", "{again}");
    let no = json!({"escalation": {"action": "decline"}});
    let declined = raw.request("tools/call", json!({"name": "shell",
        "arguments": {"command": "escalate --mode full --justification twice -- touch /h", "sandbox": handle},
        "requestState": again["result"]["requestState"], "inputResponses": no}));
    assert!(text_of(&declined).contains("rejected"), "{declined}");
    let listed = raw.call("list", json!({"sandbox": handle}));
    assert!(!text_of(&listed).contains("h  ("), "{listed}");
}

#[test]
fn over_http_the_method_headers_must_agree_with_the_body() {
    let server = HttpServer::start("header-token");
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "open_sandbox", "arguments": {}, "_meta": meta}})
    .to_string();
    let common = "Authorization: Bearer header-token\r\nMCP-Protocol-Version: 2026-07-28\r\n";
    let agreeing = server.post_body(
        &format!("{common}Mcp-Method: tools/call\r\nMcp-Name: open_sandbox\r\n"),
        &body,
    );
    assert!(agreeing.starts_with("HTTP/1.1 200"), "{agreeing}");
    assert!(agreeing.contains("sbx_"), "{agreeing}");
    // A middlebox routes on the headers: one that says another method or
    // another tool than the body is refused, as is one that says nothing.
    for headers in [
        "Mcp-Method: tools/list\r\nMcp-Name: open_sandbox\r\n",
        "Mcp-Method: tools/call\r\nMcp-Name: shell\r\n",
        "",
    ] {
        let refused = server.post_body(&format!("{common}{headers}"), &body);
        assert!(refused.contains("-32020"), "{headers:?}: {refused}");
        assert!(!refused.contains("sbx_"), "{refused}");
    }
    let status = server.stop();
    assert!(status.success(), "{status}");
}

#[test]
fn a_handle_idle_ttl_of_zero_is_refused_before_serving() {
    let output = Command::new(binary())
        .args(["mcp", "--handle-idle-ttl", "0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("--handle-idle-ttl"),
        "{output:?}"
    );
}
