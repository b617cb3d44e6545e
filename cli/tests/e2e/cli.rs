//! `goccia run`: output streams, exit codes, usage errors, `--json`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::*;

#[test]
fn hello_world_goes_to_stdout_and_warnings_to_stderr() {
    let run = js(
        "console.log('hello'); console.info('info'); console.debug('debug'); console.warn('warn'); console.error('error');",
    );
    run.assert_ok().stdout_is("hello\ninfo\ndebug\n");
    assert_eq!(run.stderr, "warn\nerror\n");
}

#[test]
fn missing_entry_exits_1_naming_it() {
    let project = Project::with("other.js", "");
    let run = project.goccia(&["run", "/main.js", "--seed", "."]);
    run.assert_code(1).stderr_has("entry not found: /main.js");
    assert_eq!(run.stdout, "");
}

#[test]
fn an_entry_that_is_a_directory_is_not_found() {
    Project::new()
        .goccia(&["run", "/tmp"])
        .assert_code(1)
        .stderr_has("entry not found: /tmp");
}

#[test]
fn usage_errors_exit_2_and_run_nothing() {
    let project = Project::with("main.js", "console.log('ran')");
    for args in [
        vec!["run"],
        vec!["run", "/main.js", "--seed", ".", "--no-such-flag"],
        vec!["run", "/main.js", "--seed", ".", "--max-memory", "lots"],
        vec!["run", "/main.js", "--seed", ".", "--max-memory", "0"],
        vec!["run", "/main.js", "--seed", ".", "--diff-format", "yaml"],
        vec!["run", "/main.js", "--seed", ".", "--timeout", "-5"],
        vec![
            "run",
            "/main.js",
            "--seed",
            ".",
            "--diff-output",
            "missing-dir/diff.json",
        ],
        vec!["frobnicate"],
    ] {
        let run = project.goccia(&args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(!run.stdout.contains("ran"), "{args:?} ran the guest");
        assert!(!run.stderr.is_empty(), "{args:?} explained nothing");
    }
}

#[test]
fn options_accept_both_spellings() {
    let project = Project::with("main.js", "console.log('x'.repeat(10))");
    project
        .goccia(&["run", "/main.js", "--seed=.", "--max-output=5"])
        .assert_code(3);
    project
        .goccia(&["run", "/main.js", "--seed", ".", "--max-output", "5"])
        .assert_code(3);
    project
        .goccia(&["run", "/main.js", "--seed", ".", "--max-output", "1k"])
        .assert_ok();
}

#[test]
fn help_and_version_print_and_exit_0() {
    let project = Project::new();
    let help = project.goccia(&["--help"]);
    help.assert_ok();
    assert!(help.stdout.contains("run"));
    let run_help = project.goccia(&["run", "--help"]);
    run_help.assert_ok();
    // Help wraps lines: compare with whitespace collapsed.
    let flat = run_help
        .stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for default in [
        "[default: 30000]",
        "[default: 512m]",
        "[default: 1g]",
        "[default: 1000000]",
        "[default: 64m]",
        "[default: 32]",
        "[default: 1m]",
    ] {
        assert!(
            flat.contains(default),
            "--help lacks {default}:\n{}",
            run_help.stdout
        );
    }
    let version = project.goccia(&["--version"]);
    version.assert_ok();
    assert!(version.stdout.starts_with("goccia "));
}

#[test]
fn an_uncaught_error_exits_1_with_its_stack() {
    let run = js("function fail() { throw new Error('boom'); }\nfail();");
    run.assert_code(1)
        .stderr_has("uncaught Error: boom")
        .stderr_has("at fail (/main.js:1");
    assert_eq!(run.stdout, "");
}

#[test]
fn a_thrown_non_error_is_shown_as_a_value() {
    js("throw { reason: 'no' };")
        .assert_code(1)
        .stderr_has("uncaught { reason: 'no' }");
}

#[test]
fn a_syntax_error_exits_1_naming_the_place() {
    js("let x = ;")
        .assert_code(1)
        .stderr_has("SyntaxError")
        .stderr_has("/main.js:1");
}

#[test]
fn an_unhandled_rejection_exits_1() {
    js("Promise.reject(new TypeError('nope')); setTimeout(() => console.log('later'), 5);")
        .assert_code(1)
        .stderr_has("uncaught (in promise) TypeError: nope");
}

#[test]
fn a_rejection_handled_later_in_the_same_turn_is_fine() {
    js("const p = Promise.reject(new Error('x')); await null; p.catch(() => console.log('handled'));")
        .assert_ok()
        .stdout_is("handled\n");
}

#[test]
fn json_replaces_stdout_with_one_object() {
    let project = Project::new();
    let run = run_js(
        &project,
        "import fs from 'fs'; console.log('out'); console.error('err'); fs.writeFileSync('/a.txt', 'a');",
        &["--json", "--diff"],
    );
    run.assert_ok();
    let json = run.json();
    assert_eq!(json["ok"], true);
    assert_eq!(json["exitCode"], 0);
    assert_eq!(json["failureKind"], serde_json::Value::Null);
    assert_eq!(json["stdout"], "out\n");
    assert_eq!(json["stderr"], "err\n");
    assert_eq!(json["error"], serde_json::Value::Null);
    let diff: serde_json::Value = serde_json::from_str(json["diff"].as_str().unwrap()).unwrap();
    assert_eq!(diff["changes"][0]["path"], "/a.txt");
    assert_eq!(json["writeBack"], serde_json::Value::Null);
    assert!(json["stats"]["durationMs"].as_f64().unwrap() > 0.0);
    assert_eq!(json["stats"]["outputBytes"], 8);
    assert!(json["stats"]["fsNodes"].as_u64().unwrap() >= 3);
}

#[test]
fn json_reports_failures() {
    let project = Project::new();
    let json = run_js(&project, "throw new RangeError('bad')", &["--json"])
        .assert_code(1)
        .json();
    assert_eq!(json["ok"], false);
    assert_eq!(json["exitCode"], 1);
    assert_eq!(json["failureKind"], "script-error");
    assert_eq!(json["error"], "RangeError: bad");
    let json = run_js(&project, "while (true) {}", &["--json", "--timeout", "100"])
        .assert_code(4)
        .json();
    assert_eq!(json["failureKind"], "timeout");
}

/// Console output is written as it is produced, not at the end of the run:
/// the first line arrives while the guest is still running.
#[test]
fn console_output_streams_while_the_guest_runs() {
    let project = Project::with("main.js", "console.log('ready'); while (true) {}");
    let mut child = Command::new(binary())
        .args(["run", "/main.js", "--seed", ".", "--timeout", "20000"])
        .current_dir(project.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "ready\n");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the guest should still be running"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Inline code (docs/calls.md): `run -e` and `run -` run source that never
/// appears in the VFS or the diff; `--env` is the only way variables get in.
#[test]
fn inline_entries_and_explicit_environment() {
    let project = Project::new();
    project
        .goccia(&[
            "run",
            "-e",
            "import { $ } from 'goccia'; console.log(await $`echo $NAME`.text());",
            "--env",
            "NAME=goccia",
            "--diff",
        ])
        .assert_ok()
        .stdout_is("goccia\n\n{\n  \"version\": 1,\n  \"changes\": []\n}\n");
    let run = goccia_with_stdin(
        project.path(),
        &["run", "-", "--json"],
        "import fs from 'fs'; fs.writeFileSync('/made.txt', 'x'); console.log(fs.readdirSync('/'));",
    );
    let json = run.json();
    assert_eq!(json["exitCode"], 0, "{}", run.stderr);
    assert_eq!(json["stdout"], "[ 'made.txt', 'tmp' ]\n");
    project
        .goccia(&["run", "-e", "throw new Error('boom')"])
        .assert_code(1)
        .stderr_has("uncaught Error: boom");
    project.goccia(&["run"]).assert_code(2);
    project.goccia(&["run", "/a.js", "-e", "1"]).assert_code(2);
    project
        .goccia(&["shell", "-c", "echo \"$A\"", "--env", "A=1", "--env", "A=2"])
        .assert_ok()
        .stdout_is("2\n");
    project
        .goccia(&["shell", "-c", "true", "--env", "1X=2"])
        .assert_code(2)
        .stderr_has("--env: `1X` is not a variable name");
    project
        .goccia(&["shell", "-c", "true", "--env", "NOEQ"])
        .assert_code(2)
        .stderr_has("is not NAME=VALUE");
    // The host's environment is never read.
    let run = std::process::Command::new(binary())
        .args(["shell", "-c", "echo \"[$GOCCIA_HOST_SECRET]\""])
        .env("GOCCIA_HOST_SECRET", "leaked")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&run.stdout), "[]\n");
}
