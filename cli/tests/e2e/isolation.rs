//! `--isolate process` (docs/isolation.md) from the outside: what the envelope
//! and the audit trail say, what the kernel says of a running worker, what
//! a worker cannot do after confinement (raw system calls through a
//! test-only hook), and a parent that trusts nothing a misbehaving worker
//! says (hooks that crash, flood, stall, send oversize or malformed
//! frames, or forge changes). The rest of the suite runs in both modes
//! (`GOCCIA_ISOLATE=process`, see `.ci/run`).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

const ISOLATED: &[&str] = &["--isolate", "process"];

/// `goccia <args> --isolate process` with a worker hook set.
fn with_hook(project: &Project, hook: &str, args: &[&str]) -> Run {
    let output = Command::new(binary())
        .args(args)
        .args(ISOLATED)
        .env("GOCCIA_TEST_WORKER_HOOK", hook)
        .current_dir(project.path())
        .stdin(Stdio::null())
        .output()
        .expect("run goccia");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The pids of the processes whose parent is `parent`.
fn children_of(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: the comm may hold spaces; split after ')'.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let ppid: u32 = after.split(' ').nth(1).unwrap().parse().unwrap();
        if ppid == parent {
            found.push(pid);
        }
    }
    found
}

/// Waits for `goccia` (started as `child`) to have a worker; its pid.
fn worker_of(child: &Child) -> u32 {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(10) {
        if let Some(pid) = children_of(child.id()).into_iter().next() {
            return pid;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no worker appeared");
}

fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|stat| stat.contains(") Z "))
            .unwrap_or(true)
}

#[test]
fn the_envelope_and_the_audit_trail_say_what_held() {
    let project = Project::with("main.js", "console.log('hi')");
    let run = project.goccia(&[
        "run",
        "/main.js",
        "--seed",
        ".",
        "--json",
        "--isolate",
        "process",
    ]);
    run.assert_ok();
    let envelope = run.json();
    let isolation = &envelope["isolation"];
    assert_eq!(isolation["mode"], "process");
    assert_eq!(isolation["enforcement"], "full");
    let layers: Vec<&str> = isolation["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|layer| layer.as_str().unwrap())
        .collect();
    assert_eq!(
        layers,
        [
            "user-namespace",
            "network-namespace",
            "ipc-namespace",
            "rlimits",
            "no-new-privs",
            "landlock-filesystem",
            "landlock-network",
            "landlock-scope",
            "seccomp"
        ]
    );
    let events = envelope["events"].as_array().unwrap();
    assert_eq!(events[0]["kind"], "isolation");
    assert_eq!(events[0]["decision"], "confine");
    assert!(events[0]["reason"].as_str().unwrap().contains("seccomp"));

    let local = project.goccia(&[
        "run",
        "/main.js",
        "--seed",
        ".",
        "--json",
        "--isolate",
        "none",
    ]);
    assert_eq!(local.json()["isolation"]["mode"], "none");
    assert_eq!(local.json()["isolation"]["layers"], serde_json::json!([]));
}

#[test]
fn the_kernel_shows_no_new_privs_and_seccomp_on_a_running_worker() {
    let project = Project::new();
    let mut child = Command::new(binary())
        .args(["run", "-e", "while (true) {}", "--timeout", "20000"])
        .args(ISOLATED)
        .current_dir(project.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let worker = worker_of(&child);
    // The worker confines itself first thing: wait until the guest runs.
    let started = Instant::now();
    let status = loop {
        let status = std::fs::read_to_string(format!("/proc/{worker}/status")).unwrap();
        if status.contains("Seccomp:\t2") || started.elapsed() > Duration::from_secs(10) {
            break status;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(status.contains("NoNewPrivs:\t1"), "{status}");
    assert!(status.contains("Seccomp:\t2"), "{status}");
    // Its own user namespace: not the host's.
    let own = std::fs::read_link("/proc/self/ns/user").unwrap();
    let theirs = std::fs::read_link(format!("/proc/{worker}/ns/user")).unwrap();
    assert_ne!(own, theirs);
    let own = std::fs::read_link("/proc/self/ns/net").unwrap();
    let theirs = std::fs::read_link(format!("/proc/{worker}/ns/net")).unwrap();
    assert_ne!(own, theirs);
    // Killing goccia takes the worker with it (it dies with its parent).
    child.kill().unwrap();
    child.wait().unwrap();
    let started = Instant::now();
    while alive(worker) && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!alive(worker), "the worker outlived goccia");
}

#[test]
fn inside_the_worker_raw_system_calls_fail() {
    let project = Project::new();
    let run = with_hook(&project, "syscalls", &["shell", "-c", "echo after"]);
    run.assert_ok();
    let eperm = libc::EPERM;
    assert!(
        run.stdout.contains(&format!("open Err(Some({eperm}))")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("connect Some({eperm})")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("fork Some({eperm})")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("exec Some({eperm})")),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("after\n"));
}

#[test]
fn a_worker_that_crashes_mid_run_is_an_isolation_crash_and_nothing_is_written_back() {
    let project = Project::new();
    project.write("w/a.txt", "before\n");
    let run = with_hook(
        &project,
        "abort",
        &[
            "shell",
            "--copy-rw",
            "w=/w",
            "--json",
            "-c",
            "echo after > /w/a.txt; echo new > /w/n.txt",
        ],
    );
    run.assert_code(70);
    let envelope = run.json();
    assert_eq!(envelope["failureKind"], "isolation-crash");
    let error = envelope["error"].as_str().unwrap();
    assert!(error.contains("was killed by signal 6"), "{error}");
    assert!(error.contains("nothing it reported was kept"), "{error}");
    assert_eq!(project.read("w/a.txt"), "before\n");
    assert!(!project.exists("w/n.txt"));
    assert_eq!(envelope["writeBack"]["skipped"], "the run failed");
    let refused = envelope["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|event| event["kind"] == "isolation" && event["decision"] == "refuse");
    assert!(refused, "{envelope}");

    let at_start = with_hook(&project, "abort-at-start", &["run", "-e", "1"]);
    at_start.assert_code(70).stderr_has("isolation crash");
}

#[test]
fn a_worker_that_floods_frames_is_killed() {
    let project = Project::new();
    let started = Instant::now();
    let run = with_hook(&project, "flood", &["run", "-e", "1", "--max-output", "1m"]);
    run.assert_code(70)
        .stderr_has("sent more output than its budget");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_worker_that_stops_answering_is_killed_at_the_deadline_and_leaves_no_process() {
    let project = Project::new();
    let child = Command::new(binary())
        .args(["run", "-e", "1", "--timeout", "500"])
        .args(ISOLATED)
        .env("GOCCIA_TEST_WORKER_HOOK", "stall")
        .current_dir(project.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let worker = worker_of(&child);
    let started = Instant::now();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("did not stop within 250 ms and was killed"),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!alive(worker), "the stalled worker is still running");
}

#[test]
fn oversize_and_malformed_frames_end_the_run_as_a_crash() {
    let project = Project::new();
    with_hook(&project, "oversize", &["run", "-e", "1"])
        .assert_code(70)
        .stderr_has("over the 8388608-byte maximum");
    with_hook(&project, "garbage", &["run", "-e", "1"])
        .assert_code(70)
        .stderr_has("malformed frame");
}

#[test]
fn a_worker_that_forges_a_forbidden_change_is_refused_whole() {
    let project = Project::new();
    project.write("w/a.txt", "before\n");
    let run = with_hook(
        &project,
        "forge",
        &[
            "shell",
            "--copy-rw",
            "w=/w",
            "--policy",
            "workspace-write",
            "--diff",
            "-c",
            "echo after > /w/a.txt",
        ],
    );
    run.assert_code(70)
        .stderr_has("changed /forged.txt, which the write policy does not allow");
    // Neither the forged file nor the honest edit of that call landed.
    assert!(!run.stdout.contains("forged"));
    assert!(!run.stdout.contains("/w/a.txt"), "{}", run.stdout);
    assert_eq!(project.read("w/a.txt"), "before\n");
}

#[test]
fn without_seccomp_nothing_runs_and_without_a_namespace_enforcement_is_partial() {
    let project = Project::with(
        "made.js",
        "import fs from 'fs'; fs.writeFileSync('/x', 'x'); console.log('ran');",
    );
    let refused = Command::new(binary())
        .args(["run", "/made.js", "--seed", ".", "--json"])
        .args(ISOLATED)
        .env("GOCCIA_TEST_LEAVE_OUT", "seccomp")
        .current_dir(project.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("sandbox unavailable: seccomp: left out by the host"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&refused.stdout).contains("ran"));

    let shell = Command::new(binary())
        .args(["shell", "-c", "echo ran"])
        .args(ISOLATED)
        .env("GOCCIA_TEST_LEAVE_OUT", "no-new-privs")
        .output()
        .unwrap();
    assert_eq!(shell.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&shell.stderr).contains("sandbox unavailable: no-new-privs"));
    assert!(shell.stdout.is_empty());

    let partial = Command::new(binary())
        .args(["run", "/made.js", "--seed", ".", "--json"])
        .args(ISOLATED)
        .env("GOCCIA_TEST_LEAVE_OUT", "network-namespace")
        .current_dir(project.path())
        .output()
        .unwrap();
    assert_eq!(partial.status.code(), Some(0));
    let envelope: serde_json::Value = serde_json::from_slice(&partial.stdout).unwrap();
    assert_eq!(envelope["isolation"]["enforcement"], "partial");
    assert_eq!(
        envelope["isolation"]["missing"][0],
        serde_json::json!(["network-namespace", "left out by the host"])
    );
    assert_eq!(envelope["stdout"], "ran\n");
}

#[test]
fn fetch_goes_through_the_parent_and_obeys_the_allow_list() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = [0u8; 1024];
        let _ = stream.read(&mut request);
        let body = "from the host";
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
    });
    let project = Project::new();
    let code = format!(
        "const r = await fetch('http://127.0.0.1:{port}/'); console.log(r.status, await r.text());"
    );
    let allow = format!("127.0.0.1:{port}");
    project
        .goccia(&[
            "run",
            "-e",
            &code,
            "--allow-host",
            &allow,
            "--isolate",
            "process",
        ])
        .assert_ok()
        .stdout_is("200 from the host\n");
    server.join().unwrap();
    // Not on the list: refused by the parent, naming the host.
    project
        .goccia(&["run", "-e", &code, "--isolate", "process"])
        .assert_code(1)
        .stderr_has("127.0.0.1");
    // On the list but private, with --deny-private-ranges: refused too.
    project
        .goccia(&[
            "run",
            "-e",
            &code,
            "--allow-host",
            &allow,
            "--deny-private-ranges",
            "--isolate",
            "process",
        ])
        .assert_code(1)
        .stderr_has("127.0.0.1");
}
