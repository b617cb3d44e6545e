//! `curl` and `wget` (issue 19 item 5) against the real curl 7.88 and
//! GNU wget 1.21 on the machine: each command line runs under real bash
//! and under `goccia shell --allow-host` against one loopback server, and
//! stdout and the exit status must match. Then what the policy adds: a
//! host not allowed is refused with curl's and wget's failure codes, and
//! a body over the cap is refused too.

use std::process::Command;

use crate::common::*;
use crate::fetch::Server;

/// Runs `script` (with `URL` standing for the server) under real bash in
/// an empty folder, and under goccia; returns both (stdout, status).
fn both(server: &Server, script: &str) -> ((String, i32), (String, i32)) {
    let script = script.replace("URL", &server.url(""));
    let real = tempfile::tempdir().unwrap();
    let output = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(real.path())
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", real.path())
        .env("LC_ALL", "C.UTF-8")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash runs");
    let expected = (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code().unwrap_or(-1),
    );
    let project = Project::new();
    let run = project.goccia(&[
        "shell",
        "--allow-host",
        &server.allow(),
        "-c",
        &format!("mkdir -p /w && cd /w && {script}"),
    ]);
    (expected, (run.stdout, run.code))
}

const CASES: &[&str] = &[
    "curl -s URL/hello",
    "curl -s -o out.txt -w '%{http_code}\\n' URL/hello; cat out.txt",
    "curl -s -o /dev/null -w '%{http_code}' URL/missing",
    "curl -s URL/missing; echo \" st $?\"",
    "curl -sf URL/missing; echo \"st $?\"",
    "curl -s --fail-with-body URL/missing; echo \" st $?\"",
    "curl -s URL/redirect; echo \"st $?\"; curl -sL URL/redirect",
    "curl -s -o /dev/null -w '%{http_code} %{redirect_url}\\n' URL/redirect",
    "curl -s -X POST -d payload -H 'X-Custom: c' URL/echo",
    "curl -s -d a=1 -d b=2 URL/echo; echo; curl -s --data-urlencode 'q=a b&c' URL/echo",
    "printf 'x\\ny\\n' > f; curl -s -d @f URL/echo; echo; curl -s --data-binary @f URL/echo",
    "curl -s -G -d q=1 -w ' %{url_effective}' URL/hello",
    "curl -sI URL/hello | head -1 | tr -d '\\r'",
    "curl -s -w '%{content_type} %{size_download}\\n' -o /dev/null URL/json",
    "curl -sO URL/hello; cat hello; curl -s -o a -o b URL/hello URL/json; cat a b",
    "curl -sL -X PUT -d up URL/redirect-post",
    "curl -s URL/json | jq -r '.a[1]'",
    "wget -q -O - URL/hello",
    "wget -q URL/hello; cat hello; wget -q URL/hello; ls",
    "wget -q URL/missing; echo \"st $?\"",
    "wget -qO- --post-data x=1 URL/echo",
    "wget -q -O got URL/redirect; cat got",
];

#[test]
fn curl_and_wget_behave_as_the_real_tools() {
    let server = Server::start();
    let mut failures = Vec::new();
    for case in CASES {
        let (expected, got) = both(&server, case);
        if expected != got {
            failures.push(format!(
                "--- {case}\n--- real (status {})\n{}\n--- goccia (status {})\n{}",
                expected.1, expected.0, got.1, got.0
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn a_host_the_policy_does_not_allow_is_refused_with_the_tools_codes() {
    let server = Server::start();
    let project = Project::new();
    // No --allow-host: curl's "could not connect" (7), wget's network
    // failure (4); the message names the refusal.
    let run = project.goccia(&["shell", "-c", &format!("curl -sS {}", server.url("/hello"))]);
    assert_eq!(run.code, 7, "{}", run.stderr);
    assert!(
        run.stderr.contains("fetch refused: host '127.0.0.1'"),
        "{}",
        run.stderr
    );
    let run = project.goccia(&["shell", "-c", &format!("wget -q {}", server.url("/hello"))]);
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(
        run.stderr.contains("failed: fetch refused"),
        "{}",
        run.stderr
    );
    // A redirect to a host not allowed is refused on that hop.
    let run = project.goccia(&[
        "shell",
        "--allow-host",
        &server.allow(),
        "-c",
        &format!("curl -sSL {}", server.url("/redirect-away")),
    ]);
    assert_eq!(run.code, 7, "{}", run.stderr);
    assert!(run.stderr.contains("after a redirect"), "{}", run.stderr);
    // The body cap: curl's 63.
    let run = project.goccia(&[
        "shell",
        "--allow-host",
        &server.allow(),
        "--fetch-max-bytes",
        "1k",
        "-c",
        &format!("curl -sS {} > /dev/null", server.url("/big")),
    ]);
    assert_eq!(run.code, 63, "{}", run.stderr);
    // Under read-only, -o is denied by the policy, with the shell's marker.
    let run = project.goccia(&[
        "shell",
        "--policy",
        "read-only",
        "--allow-host",
        &server.allow(),
        "-c",
        &format!("curl -s -o /tmp/x {}", server.url("/hello")),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("curl: /tmp/x: [sandbox: file access denied"),
        "{}",
        run.stderr
    );
    let run = project.goccia(&[
        "shell",
        "--policy",
        "read-only",
        "--allow-host",
        &server.allow(),
        "-c",
        &format!("cd /tmp && wget -q {}", server.url("/hello")),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("wget: hello: [sandbox: file access denied"),
        "{}",
        run.stderr
    );
}
