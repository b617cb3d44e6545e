//! `goccia mcp` driven by the official MCP SDKs as real clients: Python
//! (`mcp` on PyPI, in target/mcp-venv) and TypeScript
//! (`@modelcontextprotocol/sdk`, in cli/tests/mcp/node/node_modules). Both
//! are installed by `.ci/run`; a test whose client is missing fails and
//! says how to install it. The drivers (cli/tests/mcp/) only make the
//! calls and print what came back; the assertions are here.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::common::{Project, binary};

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn python() -> PathBuf {
    let python = std::env::var_os("GOCCIA_TEST_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/mcp-venv/bin/python"));
    assert!(
        python.exists(),
        "the MCP Python SDK is not installed at {}: run .ci/run, or python3 -m venv target/mcp-venv && target/mcp-venv/bin/pip install -r cli/tests/mcp/python/requirements.txt",
        python.display()
    );
    python
}

fn node_driver() -> PathBuf {
    let dir = workspace_root().join("cli/tests/mcp/node");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "the MCP TypeScript SDK is not installed: run .ci/run, or npm ci --prefix cli/tests/mcp/node"
    );
    dir.join("client.mjs")
}

#[derive(Clone, Copy)]
pub(crate) enum Sdk {
    Python,
    /// `@modelcontextprotocol/sdk` 1.x: the handshake era only.
    TypeScript,
    /// `@modelcontextprotocol/client` 2.x: both eras (`mode` in the config).
    TypeScript2,
}

/// Runs a driver with `config`; its JSON report.
pub(crate) fn drive(sdk: Sdk, config: Value) -> Value {
    let mut command = match sdk {
        Sdk::Python => {
            let mut command = Command::new(python());
            command.arg(workspace_root().join("cli/tests/mcp/python/client.py"));
            command
        }
        Sdk::TypeScript => {
            let mut command = Command::new("node");
            command.arg(node_driver());
            command
        }
        Sdk::TypeScript2 => {
            let mut command = Command::new("node");
            command.arg(node_driver().with_file_name("client2.mjs"));
            command
        }
    };
    let output = command
        .arg(config.to_string())
        .output()
        .expect("the client driver starts");
    assert!(
        output.status.success(),
        "the driver failed: {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    serde_json::from_slice(&output.stdout).expect("the driver prints JSON")
}

/// A stdio config: `goccia mcp <args>` and `calls`.
pub(crate) fn stdio(args: &[&str], calls: Value) -> Value {
    let mut argv = vec!["mcp".to_string()];
    argv.extend(args.iter().map(|arg| arg.to_string()));
    json!({"command": binary(), "args": argv, "calls": calls})
}

pub(crate) fn call_text(report: &Value, index: usize) -> &str {
    report["calls"][index]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("call {index} has no text: {report}"))
}

fn is_error(report: &Value, index: usize) -> bool {
    report["calls"][index]["isError"].as_bool().unwrap()
}

pub(crate) fn tool_names(report: &Value) -> Vec<String> {
    let mut names: Vec<String> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

pub(crate) const TOOLS: [&str; 11] = [
    "close_sandbox",
    "diff",
    "edit_file",
    "list",
    "open_sandbox",
    "read_file",
    "restore",
    "run_script",
    "shell",
    "snapshot",
    "write_file",
];

#[test]
fn python_lists_the_tools_with_their_schemas() {
    let report = drive(Sdk::Python, stdio(&[], json!([])));
    assert_eq!(report["protocolVersion"], "2025-11-25");
    assert_eq!(tool_names(&report), TOOLS);
    let tools = report["tools"].as_array().unwrap();
    let tool = |name: &str| tools.iter().find(|tool| tool["name"] == name).unwrap();
    for tool in tools {
        assert!(tool["description"].as_str().unwrap().len() > 40, "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
    assert_eq!(tool("shell")["inputSchema"]["required"], json!(["command"]));
    assert_eq!(
        tool("edit_file")["inputSchema"]["required"],
        json!(["path", "oldText", "newText"])
    );
    assert_eq!(
        tool("restore")["inputSchema"]["required"],
        json!(["snapshotId"])
    );
    assert!(
        tool("shell")["description"]
            .as_str()
            .unwrap()
            .contains("never the host")
    );
}

/// The session of the issue: write a module, a pipeline over it, a script
/// importing it, edits, and the unified diff applied with `git apply` to a
/// copy of the seeded folder.
fn editing_session(sdk: Sdk) {
    let project = Project::with("notes.txt", "one\n");
    let seed = format!("{}=/work", project.path().display());
    let calls = json!([
        ["write_file", {"path": "/work/lib.js", "content":
            "export const words = [\"b\", \"a\", \"b\"];\nexport function count(w) { return words.filter((x) => x === w).length; }\n"}],
        ["shell", {"command": "grep -o '\"[a-z]\"' /work/lib.js | sort | uniq -c | sort -rn | head -1; echo two >> notes.txt"}],
        ["run_script", {"code": "import { count } from \"/work/lib.js\"; console.log(count(\"b\")); export default { b: count(\"b\") };"}],
        ["edit_file", {"path": "/work/lib.js", "oldText": "[\"b\", \"a\", \"b\"]", "newText": "[\"b\", \"a\", \"b\", \"b\"]"}],
        ["edit_file", {"path": "/work/lib.js", "oldText": "\"b\"", "newText": "\"c\""}],
        ["edit_file", {"path": "/work/lib.js", "oldText": "not there", "newText": "x"}],
        ["run_script", {"code": "import { count } from \"/work/lib.js\"; console.log(count(\"b\"));"}],
        ["read_file", {"path": "/work/lib.js", "offset": 2, "limit": 1}],
        ["list", {"path": "/work"}],
        ["diff", {}],
        ["diff", {"format": "json"}],
        ["run_script", {}],
        ["read_file", {"path": "/work/missing.txt"}],
    ]);
    let report = drive(sdk, {
        let mut config = stdio(&["--seed", &seed], calls);
        // The shell starts in /; the session keeps a cd.
        config["calls"]
            .as_array_mut()
            .unwrap()
            .insert(0, json!(["shell", {"command": "cd /work"}]));
        config
    });
    assert_eq!(call_text(&report, 1), "wrote 111 bytes to /work/lib.js");
    assert_eq!(
        call_text(&report, 2),
        "exit code: 0\n<stdout>\n      2 \"b\"\n</stdout>\n<stderr></stderr>\n"
    );
    assert!(
        call_text(&report, 3)
            .starts_with("exit code: 0\nresult: {\"b\":2}\n<stdout>\n2\n</stdout>"),
        "{}",
        call_text(&report, 3)
    );
    assert_eq!(
        call_text(&report, 4),
        "replaced 1 occurrence in /work/lib.js"
    );
    assert!(is_error(&report, 5));
    assert!(
        call_text(&report, 5)
            .starts_with("oldText occurs 3 times in /work/lib.js: nothing changed"),
        "{}",
        call_text(&report, 5)
    );
    assert!(is_error(&report, 6));
    assert!(call_text(&report, 6).starts_with("oldText was not found in /work/lib.js"));
    assert!(call_text(&report, 7).contains("<stdout>\n3\n</stdout>"));
    assert_eq!(
        call_text(&report, 8),
        "export function count(w) { return words.filter((x) => x === w).length; }\n"
    );
    assert_eq!(
        call_text(&report, 9),
        "lib.js  (116 bytes)\nnotes.txt  (8 bytes)\n"
    );
    // Nothing reached the host.
    assert_eq!(project.read("notes.txt"), "one\n");
    assert!(!project.exists("lib.js"));
    // The patch applies to a copy of the seeded folder with git apply.
    let patch = call_text(&report, 10);
    let copy = Project::with("notes.txt", "one\n");
    copy.write("change.patch", patch);
    let applied = Command::new("git")
        .args(["apply", "-p2", "change.patch"])
        .current_dir(copy.path())
        .output()
        .unwrap();
    assert!(
        applied.status.success(),
        "{patch}\n{}",
        String::from_utf8_lossy(&applied.stderr)
    );
    assert_eq!(copy.read("notes.txt"), "one\ntwo\n");
    assert!(copy.read("lib.js").contains("[\"b\", \"a\", \"b\", \"b\"]"));
    let changes: Value = serde_json::from_str(call_text(&report, 11)).unwrap();
    assert_eq!(
        changes["changes"].as_array().map(Vec::len),
        Some(2),
        "{changes}"
    );
    assert!(is_error(&report, 12));
    assert!(call_text(&report, 12).contains("exactly one of `path`"));
    assert!(is_error(&report, 13));
    assert!(call_text(&report, 13).contains("/work/missing.txt"));
}

#[test]
fn python_session_edits_and_its_diff_applies_with_git() {
    editing_session(Sdk::Python);
}

#[test]
fn typescript_session_edits_and_its_diff_applies_with_git() {
    editing_session(Sdk::TypeScript);
}

#[test]
fn a_flooding_command_is_truncated_to_the_default_32k() {
    let report = drive(
        Sdk::Python,
        stdio(
            &[],
            json!([["shell", {"command": "yes | head -c 2000000"}], ["shell", {"command": "echo after"}]]),
        ),
    );
    let text = call_text(&report, 0);
    assert!(
        text.starts_with("exit code: 0\noutput truncated"),
        "{}",
        &text[..200]
    );
    // 2,000,000 bytes, 32,768 kept: a result a model's context can hold.
    assert!(
        text.contains("[goccia: 1967232 bytes of output omitted]"),
        "{}",
        &text[..300]
    );
    assert!(text.len() < 34_000, "{}", text.len());
    assert_eq!(
        call_text(&report, 1),
        "exit code: 0\n<stdout>\nafter\n</stdout>\n<stderr></stderr>\n"
    );
}

#[test]
fn denials_carry_the_hint_and_escalation_is_asked_by_elicitation() {
    escalation_session(Sdk::Python, "legacy");
}

/// Denials, hints and escalations answered allow, deny, allow, cancel:
/// in the handshake era by elicitation callbacks, in the 2026-07-28
/// revision (`mode` "auto") by `input_required` results the SDK answers
/// with the same callback and retries. The same results either way.
pub(crate) fn escalation_session(sdk: Sdk, mode: &str) {
    let mut config = stdio(
        &["--policy", "read-only"],
        json!([
            ["shell", {"command": "echo x > /f"}],
            ["shell", {"command": "escalate --mode full --justification 'the task writes /f' -- sh -c 'echo x > /f'; cat /f"}],
            ["shell", {"command": "escalate --mode full --justification again -- touch /g"}],
            ["write_file", {"path": "/h", "content": "h"}],
            ["write_file", {"path": "/h", "content": "h", "sandboxPermissions": "full", "justification": "asked"}],
            ["write_file", {"path": "/h", "content": "h", "sandboxPermissions": "full", "justification": "once more"}],
            ["write_file", {"path": "/h", "content": "h", "sandboxPermissions": "read-only", "justification": "x"}],
            ["list", {}],
        ]),
    );
    config["elicitation"] = json!(["allow", "deny", "allow", "cancel"]);
    config["mode"] = json!(mode);
    let report = drive(sdk, config);
    let hint =
        "[sandbox: escalation available — retry this exact command once with sandboxPermissions";
    let denied = call_text(&report, 0);
    assert!(denied.starts_with("exit code: 1\n"));
    assert!(
        denied.contains("/f: [sandbox: file access denied under read-only mode] ")
            && denied.contains(hint),
        "{denied}"
    );
    assert!(call_text(&report, 1).contains("<stdout>\nx\n</stdout>"));
    assert!(
        call_text(&report, 2).contains("the user rejected escalating this command to \"full\"")
    );
    assert!(is_error(&report, 3));
    assert!(call_text(&report, 3).contains("retry this exact operation once"));
    assert_eq!(call_text(&report, 4), "wrote 1 bytes to /h");
    assert_eq!(
        call_text(&report, 5),
        "ERR_ESCALATION_CANCELLED: the user cancelled escalating this operation to \"full\""
    );
    assert!(call_text(&report, 6).starts_with("ERR_ESCALATION_NOT_WIDER"));
    assert_eq!(call_text(&report, 7), "f  (2 bytes)\nh  (1 bytes)\ntmp/\n");
    let questions = report["questions"].as_array().unwrap();
    assert_eq!(questions.len(), 4, "{questions:?}");
    assert!(questions[0].as_str().unwrap().contains("sh -c echo x > /f"));
    assert!(
        questions[0]
            .as_str()
            .unwrap()
            .contains("the task writes /f")
    );
    assert!(questions[2].as_str().unwrap().contains("writeFile /h"));
}

#[test]
fn typescript_answers_an_escalation_through_elicitation() {
    let mut config = stdio(
        &["--policy", "read-only"],
        json!([["shell", {"command": "escalate --mode workspace-write --justification tmp -- touch /tmp/t; ls /tmp"}]]),
    );
    config["elicitation"] = json!(["allow"]);
    let report = drive(Sdk::TypeScript, config);
    assert_eq!(
        call_text(&report, 0),
        "exit code: 0\n<stdout>\nt\n</stdout>\n<stderr></stderr>\n"
    );
    assert_eq!(report["questions"].as_array().unwrap().len(), 1);
}

#[test]
fn without_elicitation_or_approver_escalation_is_unavailable() {
    let calls = json!([
        ["shell", {"command": "echo x > /f"}],
        ["shell", {"command": "escalate --mode full --justification why -- touch /g"}],
    ]);
    // A client that did not declare elicitation.
    let report = drive(
        Sdk::Python,
        stdio(&["--policy", "read-only"], calls.clone()),
    );
    assert!(
        call_text(&report, 1)
            .contains("no approver is available to escalate this command to \"full\"")
    );
    // No approver at all: the denial has no hint.
    let report = drive(
        Sdk::Python,
        stdio(&["--policy", "read-only", "--approve", "never"], calls),
    );
    assert!(!call_text(&report, 0).contains("escalation available"));
    assert!(call_text(&report, 1).contains("no approver is available"));
}

#[test]
fn write_back_is_offered_only_when_enabled() {
    let project = Project::with("a.txt", "a\n");
    let copy_rw = format!("{}=/w", project.path().display());
    let seed = format!("{}=/w", project.path().display());
    // --copy-rw alone: the host did not allow write-back.
    let report = drive(Sdk::Python, stdio(&["--copy-rw", &copy_rw], json!([])));
    assert_eq!(tool_names(&report), TOOLS);
    // --allow-write-back with only --seed is refused before serving.
    refused(
        &["--seed", &seed, "--allow-write-back"],
        "needs a --copy-rw folder",
    );
    let report = drive(
        Sdk::Python,
        stdio(&["--copy-rw", &copy_rw, "--allow-write-back"], json!([])),
    );
    assert!(tool_names(&report).contains(&"write_back".to_string()));
}

#[test]
fn write_back_writes_the_changes_when_enabled() {
    let project = Project::with("a.txt", "a\n");
    let copy_rw = format!("{}=/w", project.path().display());
    let report = drive(
        Sdk::Python,
        stdio(
            &["--copy-rw", &copy_rw, "--allow-write-back"],
            json!([
                ["shell", {"command": "echo b >> /w/a.txt; echo new > /w/new.txt"}],
                ["write_back", {}],
                ["diff", {}],
                ["write_back", {}],
            ]),
        ),
    );
    assert!(tool_names(&report).contains(&"write_back".to_string()));
    assert!(
        call_text(&report, 1).contains("new.txt"),
        "{}",
        call_text(&report, 1)
    );
    assert_eq!(project.read("a.txt"), "a\nb\n");
    assert_eq!(project.read("new.txt"), "new\n");
    assert_eq!(
        call_text(&report, 2),
        "no changes since the sandbox was seeded"
    );
    assert_eq!(call_text(&report, 3), "nothing to write back: no changes\n");
}

/// `goccia mcp <args>` that must refuse to start: exit 2 and the message.
fn refused(args: &[&str], expected: &str) {
    let project = Project::new();
    let run = project.goccia(&[&["mcp"], args].concat());
    assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
}

#[test]
fn bad_options_are_refused_before_serving() {
    let empty = tempfile::NamedTempFile::new().unwrap();
    let empty = empty.path().to_str().unwrap().to_string();
    refused(
        &["--allow-write-back"],
        "--allow-write-back needs a --copy-rw folder",
    );
    refused(&["--http", "127.0.0.1:0"], "--http requires --token-file");
    refused(
        &["--token-file", &empty],
        "--token-file only applies with --http",
    );
    refused(
        &["--http", "127.0.0.1:0", "--token-file", &empty],
        "the file is empty",
    );
    refused(
        &["--http", "10.1.2.3:80", "--token-file", "/nonexistent"],
        "/nonexistent",
    );
    refused(&["--json"], "--json has no meaning for goccia mcp");
    refused(
        &["--approve", "prompt"],
        "--approve prompt is not available for goccia mcp: use client, never or always",
    );
    refused(&["--seed", "/nonexistent/dir"], "/nonexistent/dir");
}

#[test]
fn a_client_that_leaves_before_the_handshake_ends_the_server_quietly() {
    let run = Project::new().goccia(&["mcp"]);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
}

#[test]
fn malformed_lines_get_protocol_errors_and_the_server_keeps_serving() {
    let mut child = Command::new(binary())
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = || -> Value { serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap() };
    let mut send = |line: &str| {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#,
    );
    assert_eq!(next()["result"]["protocolVersion"], "2025-06-18");
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send("{not json");
    let answer = next();
    assert_eq!(
        (answer["error"]["code"].as_i64(), &answer["id"]),
        (Some(-32700), &Value::Null)
    );
    send(r#"{"id":9,"method":"tools/list"}"#);
    let answer = next();
    assert_eq!(
        (answer["error"]["code"].as_i64(), &answer["id"]),
        (Some(-32600), &json!(9))
    );
    send(r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#);
    assert_eq!(next()["error"]["code"], -32601);
    send(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}"#,
    );
    assert_eq!(next()["error"]["code"], -32602);
    send(
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"shell","arguments":{"command":5}}}"#,
    );
    let answer = next();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    send(
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"shell","arguments":{"command":"echo still serving"}}}"#,
    );
    let answer = next();
    assert_eq!(answer["id"], 5);
    assert!(
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("still serving")
    );
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}

/// A `goccia mcp --http` server on a free port; killed with SIGTERM on drop.
pub(crate) struct HttpServer {
    child: std::process::Child,
    pub(crate) url: String,
    address: String,
    _token_file: tempfile::NamedTempFile,
}

impl HttpServer {
    pub(crate) fn start(token: &str) -> Self {
        Self::start_with(token, &[])
    }

    fn start_with(token: &str, extra: &[&str]) -> Self {
        Self::start_with_tokens(&[token], extra)
    }

    /// A server whose token file holds `tokens`, one per line.
    pub(crate) fn start_with_tokens(tokens: &[&str], extra: &[&str]) -> Self {
        let mut token_file = tempfile::NamedTempFile::new().unwrap();
        for token in tokens {
            writeln!(token_file, "{token}").unwrap();
        }
        let mut child = Command::new(binary())
            .args(["mcp", "--http", "127.0.0.1:0", "--token-file"])
            .arg(token_file.path())
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let url = line
            .trim()
            .strip_prefix("goccia: MCP listening on ")
            .unwrap_or_else(|| panic!("{line}"))
            .to_string();
        let address = url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_string();
        HttpServer {
            child,
            url,
            address,
            _token_file: token_file,
        }
    }

    /// A raw POST of an `initialize` to /mcp with these extra header
    /// lines; the whole response.
    fn post(&self, headers: &str) -> String {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;
        self.post_body(headers, body)
    }

    /// A raw POST of `body` to /mcp with these extra header lines; the
    /// whole response.
    pub(crate) fn post_body(&self, headers: &str, body: &str) -> String {
        let mut stream = std::net::TcpStream::connect(&self.address).unwrap();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    pub(crate) fn stop(mut self) -> std::process::ExitStatus {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        self.child.wait().unwrap()
    }
}

#[test]
fn streamable_http_serves_clients_with_the_token_only() {
    let server = HttpServer::start("s3cret-token");
    let unauthorized = server.post("");
    assert!(unauthorized.starts_with("HTTP/1.1 401"), "{unauthorized}");
    assert!(unauthorized.contains("TOKEN_INVALID"));
    assert!(
        server
            .post("Authorization: Bearer wrong\r\n")
            .starts_with("HTTP/1.1 401")
    );
    assert!(
        server
            .post("Authorization: Bearer s3cret-token\r\n")
            .starts_with("HTTP/1.1 200")
    );
    for sdk in [Sdk::Python, Sdk::TypeScript] {
        let report = drive(
            sdk,
            json!({"url": server.url, "token": "s3cret-token", "calls": [
                ["read_file", {"path": "/n"}],
                ["shell", {"command": "echo $((6 * 7)) > /n; cat /n"}],
                ["read_file", {"path": "/n"}],
            ]}),
        );
        assert_eq!(tool_names(&report), TOOLS);
        // Each MCP session has its own sandbox: the first session's file
        // is not in the second's.
        assert!(is_error(&report, 0), "{report}");
        assert!(call_text(&report, 1).contains("<stdout>\n42\n</stdout>"));
        assert_eq!(call_text(&report, 2), "42\n");
    }
    let status = server.stop();
    assert!(status.success(), "{status}");
}

/// As `serve`'s: SIGTERM sent as soon as the listening line is read is a
/// graceful stop (exit 0), never the signal's default action.
#[test]
fn sigterm_at_once_after_the_listening_line_is_a_graceful_stop() {
    for _ in 0..20 {
        let status = HttpServer::start("s3cret-token").stop();
        assert!(status.success(), "{status}");
    }
}

// ----- issue 41: hostile input on the MCP surface -----

#[test]
fn write_back_never_writes_git_or_goccia() {
    let project = Project::with("a.txt", "a\n");
    project.write(".git/config", "[core]\n");
    let copy_rw = format!("{}=/w", project.path().display());
    let report = drive(
        Sdk::Python,
        stdio(
            &["--copy-rw", &copy_rw, "--allow-write-back"],
            json!([
                ["shell", {"command": "printf '[core]\\n\\tfsmonitor = touch /tmp/p\\n' > /w/.git/config; mkdir -p /w/.goccia; echo forged > /w/.goccia/changes.jsonl; echo b > /w/a.txt"}],
                ["write_back", {}],
            ]),
        ),
    );
    let shown = call_text(&report, 1);
    assert!(
        shown.contains(
            "skipped /w/.git/config: paths inside .git and .goccia are never written back"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("skipped /w/.goccia/changes.jsonl"),
        "{shown}"
    );
    assert_eq!(project.read(".git/config"), "[core]\n");
    assert!(!project.exists(".goccia"));
    assert_eq!(project.read("a.txt"), "b\n");
}

#[test]
fn the_escalation_question_shows_the_guests_words_escaped() {
    let mut config = stdio(
        &["--policy", "read-only"],
        json!([["shell", {"command": "escalate --mode full --justification $'fine\\n\\nAllow it this once?\\n\\r\\e[2J' -- touch /g$'\\nx'"}]]),
    );
    config["elicitation"] = json!(["deny"]);
    let report = drive(Sdk::Python, config);
    let questions = report["questions"].as_array().unwrap();
    assert_eq!(questions.len(), 1, "{report}");
    let question = questions[0].as_str().unwrap();
    assert_eq!(
        question
            .lines()
            .filter(|line| line.trim() == "Allow it this once?")
            .count(),
        1,
        "only the real question stands on a line of its own: {question:?}"
    );
    assert!(
        !question.contains('\u{1b}') && !question.contains('\r'),
        "{question:?}"
    );
    assert!(
        question.contains("Its justification: fine\\n\\nAllow it this once?\\n\\r\\x{1b}[2J"),
        "{question:?}"
    );
    assert!(question.contains("touch /g\\nx"), "{question:?}");
}

#[test]
fn a_call_racing_the_initialized_notification_is_still_asked() {
    let server = HttpServer::start_with("early-token", &["--policy", "read-only"]);
    let port = server.address.rsplit(':').next().unwrap().to_string();
    let output = Command::new(python())
        .arg(workspace_root().join("cli/tests/mcp/python/early_call.py"))
        .args(["127.0.0.1", &port, "early-token"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("<stdout>\ng\ntmp\n</stdout>"), "{text}");
    assert!(!text.contains("no approver is available"), "{text}");
    server.stop();
}

#[test]
fn a_calls_timeout_cannot_outlast_the_servers() {
    let started = std::time::Instant::now();
    let report = drive(
        Sdk::Python,
        stdio(
            &["--timeout", "1000"],
            json!([["shell", {"command": "sleep 20; echo late", "timeoutMs": 1000000000}]]),
        ),
    );
    let text = call_text(&report, 0);
    assert!(text.starts_with("exit code: 4"), "{text}");
    assert!(!text.contains("late"), "{text}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// A deadline of nothing is refused, naming the argument, whether the
/// call is posted to the shell session (`shell`) or runs in place
/// (`run_script`); nothing runs.
#[test]
fn a_zero_timeout_is_refused_naming_timeout_ms() {
    let report = drive(
        Sdk::Python,
        stdio(
            &[],
            json!([
                ["shell", {"command": "echo ran > /r", "timeoutMs": 0}],
                ["run_script", {"code": "console.log('ran')", "timeoutMs": 0}],
                ["shell", {"command": "cat /r 2>&1; echo ok"}],
            ]),
        ),
    );
    for call in [0, 1] {
        assert!(is_error(&report, call), "{report}");
        let text = call_text(&report, call);
        assert!(
            text.contains("timeoutMs") && text.contains("at least 1 ms"),
            "{text}"
        );
    }
    let after = call_text(&report, 2);
    assert!(after.contains("No such file or directory"), "{after}");
    assert!(after.contains("ok"), "{after}");
}

/// One shape per value: `restore` takes the snapshot id as the number
/// `snapshot` gave (as the server's API does), or as its text.
#[test]
fn restore_takes_the_snapshot_id_as_a_number_or_its_text() {
    let project = Project::with("a.txt", "first\n");
    let report = drive(
        Sdk::Python,
        stdio(
            &["--seed", project.path().to_str().unwrap()],
            json!([
                ["snapshot", {}],
                ["write_file", {"path": "/a.txt", "content": "second\n"}],
                ["restore", {"snapshotId": 0}],
                ["read_file", {"path": "/a.txt"}],
                ["write_file", {"path": "/a.txt", "content": "third\n"}],
                ["restore", {"snapshotId": "0"}],
                ["read_file", {"path": "/a.txt"}],
                ["restore", {"snapshotId": "latest"}],
            ]),
        ),
    );
    assert!(call_text(&report, 0).contains('0'), "{report}");
    assert!(!is_error(&report, 2), "{report}");
    assert!(call_text(&report, 3).contains("first"), "{report}");
    assert!(!is_error(&report, 5), "{report}");
    assert!(call_text(&report, 6).contains("first"), "{report}");
    assert!(is_error(&report, 7));
    assert!(
        call_text(&report, 7).contains("snapshotId `latest`"),
        "{report}"
    );
}

#[test]
fn a_labeled_snapshot_restores_the_shell_session_too() {
    let report = drive(
        Sdk::Python,
        stdio(
            &[],
            json!([
                ["shell", {"command": "mkdir -p /w && cd /w && export STAGE=one"}],
                ["snapshot", {"label": "before the attempt"}],
                ["shell", {"command": "cd / && STAGE=two"}],
                ["restore", {"snapshotId": 0}],
                ["shell", {"command": "echo \"$(pwd) $STAGE\""}],
                ["snapshot", {"colour": "red"}],
            ]),
        ),
    );
    assert!(!is_error(&report, 1), "{report}");
    assert!(!is_error(&report, 3), "{report}");
    assert!(call_text(&report, 4).contains("/w one"), "{report}");
    // An argument it does not take is refused, naming it.
    assert!(is_error(&report, 5), "{report}");
}

#[test]
fn a_shell_call_takes_its_own_cwd_and_env_for_that_call() {
    let report = drive(
        Sdk::Python,
        stdio(
            &[],
            json!([
                ["shell", {"command": "mkdir -p /p && cd /tmp"}],
                ["shell", {"command": "pwd; echo $ONLY", "cwd": "/p", "env": {"ONLY": "call"}}],
                ["shell", {"command": "pwd; echo \"[$ONLY]\""}],
                ["shell", {"command": "true", "cwd": "/nope"}]
            ]),
        ),
    );
    assert_eq!(
        call_text(&report, 1),
        "exit code: 0\n<stdout>\n/p\ncall\n</stdout>\n<stderr></stderr>\n"
    );
    assert_eq!(
        call_text(&report, 2),
        "exit code: 0\n<stdout>\n/tmp\n[]\n</stdout>\n<stderr></stderr>\n"
    );
    assert!(is_error(&report, 3));
    assert!(
        call_text(&report, 3).contains("cwd `/nope`: No such file or directory"),
        "{}",
        call_text(&report, 3)
    );
}
