//! Traces (docs/telemetry.md) received by a test OTLP/HTTP receiver: one
//! span per shell command with its exit code and never its arguments, the
//! library call around them, and a server request continuing the caller's
//! W3C `traceparent`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::common::{Project, binary, isolated};
use super::serve::{http, workspace_server};

/// An OTLP/HTTP receiver on a loopback port: every body POSTed to it, as
/// JSON (goccia exports JSON).
struct Receiver {
    url: String,
    bodies: Arc<Mutex<Vec<Value>>>,
}

impl Receiver {
    fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let kept = bodies.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = kept.clone();
                std::thread::spawn(move || answer(stream, &kept));
            }
        });
        Receiver { url, bodies }
    }

    /// Every span received: (name, its object).
    fn spans(&self) -> Vec<Value> {
        let mut spans = Vec::new();
        for body in self.bodies.lock().unwrap().iter() {
            for resource in body["resourceSpans"].as_array().into_iter().flatten() {
                for scope in resource["scopeSpans"].as_array().into_iter().flatten() {
                    spans.extend(scope["spans"].as_array().into_iter().flatten().cloned());
                }
            }
        }
        spans
    }

    fn raw(&self) -> String {
        self.bodies
            .lock()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect()
    }
}

/// Answers each request on one connection (keep-alive) with `200 {}`.
fn answer(stream: TcpStream, kept: &Mutex<Vec<Value>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut length = 0;
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        if let Ok(value) = serde_json::from_slice(&body) {
            kept.lock().unwrap().push(value);
        }
        let _ = writer.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        );
    }
}

fn attribute<'a>(span: &'a Value, key: &str) -> Option<&'a Value> {
    span["attributes"]
        .as_array()?
        .iter()
        .find(|attribute| attribute["key"] == key)
        .map(|attribute| &attribute["value"])
}

fn named<'a>(spans: &'a [Value], name: &str) -> Vec<&'a Value> {
    spans.iter().filter(|span| span["name"] == name).collect()
}

#[test]
fn each_shell_command_is_a_span_with_its_exit_code_and_no_arguments() {
    let receiver = Receiver::start();
    let output = std::process::Command::new(binary())
        .args(["--otlp", &receiver.url, "run", "-e"])
        .arg("import { $ } from \"goccia\"; await $`echo secret-file-contents > /f; cat /f; ls /missing`.nothrow();")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let spans = receiver.spans();
    let commands = named(&spans, "goccia.shell.command");
    let raw = receiver.raw();
    assert!(!raw.contains("secret-file-contents"), "{raw}");
    assert!(!raw.contains("/missing"), "{raw}");
    if isolated() {
        // A confined worker sends nothing (docs/telemetry.md): its
        // commands have no spans; the call around them has.
        assert!(commands.is_empty(), "{spans:?}");
        assert_eq!(named(&spans, "goccia.call").len(), 1, "{spans:?}");
        return;
    }
    let shown: Vec<(String, i64)> = commands
        .iter()
        .map(|span| {
            (
                attribute(span, "process.command").unwrap()["stringValue"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                attribute(span, "process.exit.code").unwrap()["intValue"]
                    .as_str()
                    .and_then(|text| text.parse().ok())
                    .or_else(|| attribute(span, "process.exit.code").unwrap()["intValue"].as_i64())
                    .unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("echo".to_string(), 0),
            ("cat".to_string(), 0),
            ("ls".to_string(), 2)
        ],
        "{spans:?}"
    );
    // Every command is a child of the library call that ran it.
    let call = named(&spans, "goccia.call")
        .into_iter()
        .find(|span| attribute(span, "goccia.call.kind").unwrap()["stringValue"] == "code")
        .expect("the run's call span");
    for command in &commands {
        assert_eq!(command["traceId"], call["traceId"]);
    }
    assert!(named(&spans, "goccia.seed").len() == 1, "{spans:?}");
    // Only goccia's own spans, and only the attributes they name.
    for span in &spans {
        assert!(
            span["name"].as_str().unwrap().starts_with("goccia."),
            "{span}"
        );
        assert!(attribute(span, "code.file.path").is_none(), "{span}");
        assert!(
            span["events"].as_array().is_none_or(Vec::is_empty),
            "{span}"
        );
    }
}

#[test]
fn a_server_request_continues_the_callers_trace() {
    let receiver = Receiver::start();
    let project = Project::new();
    project.write("ws/a.txt", "a\n");
    let (server, admin) = workspace_server(&project, &["--otlp", &receiver.url]);
    let (status, opened) = http(
        &server.address,
        "POST",
        "/v1/sandboxes",
        &admin,
        &json!({"workspace": "w", "seeds": [{"from": ".", "to": "/w"}], "capabilities": ["shell"]})
            .to_string(),
    );
    assert_eq!(status, 201, "{opened}");
    let id = opened["sandboxId"].as_str().unwrap();
    let token = opened["token"].as_str().unwrap();
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let parent = "00f067aa0ba902b7";
    let body = json!({"command": "cat /w/a.txt; false"}).to_string();
    let mut stream = TcpStream::connect(server.address.trim_start_matches("http://")).unwrap();
    write!(
        stream,
        "POST /v1/sandboxes/{id}/shell HTTP/1.1\r\nHost: goccia\r\nAuthorization: Bearer {token}\r\ntraceparent: 00-{trace}-{parent}-01\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // SIGTERM: the server finishes and sends what it has not sent yet.
    assert_eq!(server.terminate(), 0);
    let spans = receiver.spans();
    let request = named(&spans, "goccia.request")
        .into_iter()
        .find(|span| span["traceId"] == trace)
        .unwrap_or_else(|| panic!("no request span in the caller's trace: {spans:?}"));
    assert_eq!(request["parentSpanId"], parent);
    let in_trace: Vec<&Value> = spans
        .iter()
        .filter(|span| span["traceId"] == trace)
        .collect();
    let names: Vec<&str> = in_trace
        .iter()
        .map(|span| span["name"].as_str().unwrap())
        .collect();
    for expected in ["goccia.store", "goccia.call"] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }
    let commands: Vec<&&Value> = in_trace
        .iter()
        .filter(|span| span["name"] == "goccia.shell.command")
        .collect();
    // A confined worker sends nothing (docs/telemetry.md).
    assert_eq!(
        commands.len(),
        if isolated() { 0 } else { 2 },
        "{commands:?}"
    );
}

#[test]
fn saving_and_loading_a_snapshot_are_store_spans() {
    let receiver = Receiver::start();
    let project = Project::new();
    project.write("ws/a.txt", "a\n");
    // A server with a state file keeps its sessions' snapshots there.
    let (server, admin) = workspace_server(
        &project,
        &["--otlp", &receiver.url, "--state", "state.sqlite"],
    );
    let (status, opened) = http(
        &server.address,
        "POST",
        "/v1/sandboxes",
        &admin,
        &json!({"workspace": "w", "seeds": [{"from": ".", "to": "/w"}], "capabilities": ["shell", "write"]})
            .to_string(),
    );
    assert_eq!(status, 201, "{opened}");
    let id = opened["sandboxId"].as_str().unwrap();
    let token = opened["token"].as_str().unwrap();
    let (status, saved) = http(
        &server.address,
        "POST",
        &format!("/v1/sandboxes/{id}/snapshots"),
        token,
        &json!({"label": "first"}).to_string(),
    );
    assert_eq!(status, 201, "{saved}");
    assert_eq!(server.terminate(), 0);
    // After a restart the snapshot is in the store only: restoring it
    // loads it.
    let (server, _) = workspace_server(
        &project,
        &["--otlp", &receiver.url, "--state", "state.sqlite"],
    );
    let (status, restored) = http(
        &server.address,
        "POST",
        &format!("/v1/sandboxes/{id}/restore"),
        token,
        &json!({"snapshotId": saved["snapshotId"]}).to_string(),
    );
    assert_eq!(status, 204, "{restored}");
    assert_eq!(server.terminate(), 0);
    let spans = receiver.spans();
    let operations: Vec<&Value> = named(&spans, "goccia.store")
        .into_iter()
        .filter_map(|span| attribute(span, "db.operation.name"))
        .collect();
    for operation in ["save", "load"] {
        assert!(
            operations.contains(&&json!({ "stringValue": operation })),
            "no store span for {operation}: {operations:?}"
        );
    }
}

#[test]
fn an_mcp_call_continues_the_trace_its_meta_names() {
    let receiver = Receiver::start();
    let mut child = std::process::Command::new(binary())
        .args(["--otlp", &receiver.url, "mcp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let trace = "0af7651916cd43dd8448eb211c80319c";
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
        "traceparent": format!("00-{trace}-b7ad6b7169203331-01"),
    });
    let mut call = |id: u64, name: &str, arguments: Value| -> Value {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": meta}});
        writeln!(stdin, "{line}").unwrap();
        serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap()
    };
    let opened = call(1, "open_sandbox", json!({}));
    let text = opened["result"]["content"][0]["text"].as_str().unwrap();
    let handle: Value = serde_json::from_str(text).unwrap();
    let ran = call(
        2,
        "shell",
        json!({"command": "true", "sandbox": handle["sandbox"]}),
    );
    assert_eq!(ran["result"]["isError"], false, "{ran}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let spans = receiver.spans();
    let tool = named(&spans, "goccia.mcp.tool")
        .into_iter()
        .find(|span| span["traceId"] == trace)
        .unwrap_or_else(|| panic!("no tool span in the client's trace: {spans:?}"));
    assert_eq!(tool["parentSpanId"], "b7ad6b7169203331");
    // A confined worker sends nothing (docs/telemetry.md).
    assert_eq!(
        spans
            .iter()
            .any(|span| span["traceId"] == trace && span["name"] == "goccia.shell.command"),
        !isolated(),
        "{spans:?}"
    );
    // rmcp's own spans and events (whole requests at debug level) stay out.
    assert!(
        !receiver.raw().contains("received request"),
        "{}",
        receiver.raw()
    );
}

#[test]
fn an_otlp_url_that_is_not_http_stops_the_command_before_it_runs() {
    for command in [&["run", "-e", "1"][..], &["mcp"][..]] {
        let output = std::process::Command::new(binary())
            .args(["--otlp", "localhost:4318"])
            .args(command)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("--otlp: `localhost:4318` is not an OTLP/HTTP URL"),
            "{stderr}"
        );
    }
}
