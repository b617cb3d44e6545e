//! `--policy`, `--writable` and `--approve` through the binary (docs/policy.md):
//! denials on stderr and in `--json`, write-back of what the policy
//! allowed, the terminal approver through a real pseudo-terminal, and
//! `unavailable` when there is no terminal.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use rexpect::session::spawn_command;

use crate::common::*;

const WW_DENIED: &str = "[sandbox: file access denied under workspace-write mode]";

fn project() -> Project {
    let project = Project::with("w/src/a.txt", "a\n");
    project.write("w/.git/HEAD", "ref: refs/heads/main\n");
    project.write("ro/notes.txt", "n\n");
    project
}

#[test]
fn workspace_write_fences_the_copy_rw_target_and_writes_back_what_it_allowed() {
    let project = project();
    let run = project.goccia(&[
        "shell",
        "--policy",
        "workspace-write",
        "--copy-rw",
        "w=/w",
        "--seed",
        "ro=/ro",
        "--json",
        "-c",
        "echo b > /w/src/b.txt; echo x > /w/.git/HEAD; echo y > /ro/notes.txt; rm -r /w; echo done",
    ]);
    let json = run.json();
    assert_eq!(json["exitCode"], 0, "{json}");
    assert_eq!(json["stdout"], "done\n");
    let stderr = json["stderr"].as_str().unwrap();
    for line in [
        format!("bash: line 1: /w/.git/HEAD: {WW_DENIED}"),
        format!("bash: line 1: /ro/notes.txt: {WW_DENIED}"),
        format!("rm: /w: {WW_DENIED}"),
    ] {
        assert!(stderr.contains(&line), "{line} in {stderr}");
    }
    // Without an approver there is no hint.
    assert!(!stderr.contains("escalation available"));
    assert_eq!(json["policy"]["mode"], "workspace-write");
    assert_eq!(
        json["policy"]["writableRoots"],
        serde_json::json!(["/tmp", "/w"])
    );
    assert_eq!(project.read("w/src/b.txt"), "b\n");
    assert_eq!(project.read("w/.git/HEAD"), "ref: refs/heads/main\n");
    assert_eq!(project.read("ro/notes.txt"), "n\n");
    let denials = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "policy" && e["decision"] == "deny")
        .count();
    assert_eq!(denials, 3, "{}", json["events"]);
}

#[test]
fn read_only_run_denies_js_writes_with_the_node_shaped_error() {
    let project = project();
    project.write(
        "main.js",
        "import fs from 'fs';\n\
         try { fs.writeFileSync('/w/x', '1'); } catch (e) { console.log(e.code, e.errno, e.syscall, e.path, e.policy); console.log(e.message); }",
    );
    project
        .goccia(&[
            "run",
            "--policy",
            "read-only",
            "--seed",
            "main.js=/main.js",
            "--writable",
            "/w",
            "/main.js",
        ])
        .assert_ok()
        .stdout_is(
            "FS_SANDBOX_DENIED -13 open /w/x read-only\n\
             FS_SANDBOX_DENIED: [sandbox: file access denied under read-only mode], open '/w/x'\n",
        );
}

#[test]
fn approve_always_grants_one_call_and_shows_the_hint() {
    let project = project();
    let run = project.goccia(&[
        "shell",
        "--policy",
        "read-only",
        "--approve",
        "always",
        "-c",
        "touch /a; escalate --mode full --justification 'need /b' -- touch /b && ls /b; touch /b2",
    ]);
    run.assert_code(1).stdout_is("/b\n");
    run.stderr_has("touch: /a: [sandbox: file access denied under read-only mode] [sandbox: escalation available — retry this exact command once with sandboxPermissions (the narrowest wider mode that suffices) and a justification]");
    run.stderr_has("touch: /b2: [sandbox");
}

#[test]
fn bad_policy_flags_are_usage_errors_naming_the_value() {
    let project = project();
    for (args, needle) in [
        (vec!["--policy", "danger"], "danger"),
        (vec!["--approve", "sometimes"], "sometimes"),
        (
            vec!["--writable", "w"],
            "--writable: `w` is not an absolute sandbox path",
        ),
    ] {
        let mut all = vec!["shell"];
        all.extend(args);
        all.extend(["-c", "true"]);
        project.goccia(&all).assert_code(2).stderr_has(needle);
    }
}

#[test]
fn prompt_without_a_terminal_is_unavailable() {
    let project = project();
    // A new session has no controlling terminal.
    let mut command = Command::new(binary());
    command
        .args([
            "shell",
            "--policy",
            "read-only",
            "--approve",
            "prompt",
            "-c",
            "escalate --mode full --justification j -- touch /x",
        ])
        .current_dir(project.path())
        .stdin(Stdio::null());
    // SAFETY: setsid is async-signal-safe and touches no shared state.
    unsafe {
        command.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let output = command.output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "escalate: no approver is available to escalate this command to \"full\"\n"
    );
}

/// Runs one escalation under `--approve prompt` in the interactive shell
/// in a pseudo-terminal, answers `key`, and returns what the shell printed
/// after the answer.
fn answer_prompt(key: char) -> String {
    let project = project();
    let mut command = Command::new(binary());
    command
        .args(["shell", "--policy", "read-only", "--approve", "prompt"])
        .current_dir(project.path())
        .env("TERM", "xterm");
    let mut session = spawn_command(command, Some(10_000)).unwrap();
    session.exp_string("goccia:/$ ").unwrap();
    session
        .send_line("escalate --mode full --justification 'write the report' -- touch /report; echo \"status $?\"; ls /")
        .unwrap();
    session
        .exp_string("escalate this command to \"full\" (now \"read-only\")?")
        .unwrap();
    session.exp_string("touch /report").unwrap();
    session
        .exp_string("justification: write the report")
        .unwrap();
    session.exp_string("Ctrl-C cancels: ").unwrap();
    if key == '\x03' {
        session.send_control('c').unwrap();
    } else {
        session.send(&key.to_string()).unwrap();
    }
    session.flush().unwrap();
    let after = session.exp_string("goccia:/$ ").unwrap();
    session.send_control('d').unwrap();
    session.exp_eof().unwrap();
    after
}

#[test]
fn the_terminal_prompt_grants_rejects_and_cancels() {
    let out = answer_prompt('y');
    assert!(out.contains("yes, once"), "{out}");
    assert!(out.contains("status 0"), "{out}");
    assert!(out.contains("report"), "{out}");

    let out = answer_prompt('n');
    assert!(
        out.contains("the user rejected escalating this command to \"full\""),
        "{out}"
    );
    assert!(out.contains("status 1"), "{out}");
    assert!(!out.contains("report"), "{out}");

    let out = answer_prompt('\x03');
    assert!(
        out.contains("the user cancelled escalating this command to \"full\""),
        "{out}"
    );
    assert!(out.contains("status 1"), "{out}");
}
