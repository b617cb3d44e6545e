//! `goccia shell` (docs/cli.md, docs/limits.md, docs/shell.md) through the real binary: the three
//! non-interactive modes, exit codes, limits, diff, write-back, --json.

use crate::common::*;

fn project() -> Project {
    let project = Project::new();
    project.write("app/notes.txt", "one\ntwo\nthree\n");
    project.write(
        "app/run.sh",
        "echo \"script $0 got $1 $2\"\nwc -l < /app/notes.txt\nexit 4\n",
    );
    project
}

#[test]
fn command_line_runs_with_positional_parameters() {
    project()
        .goccia(&[
            "shell",
            "-c",
            "cd /app && grep -c o notes.txt; echo \"$0|$1|$2\"",
            "--seed",
            "app=/app",
            "name",
            "a b",
        ])
        .assert_ok()
        .stdout_is("2\nname|a b|\n");
}

#[test]
fn the_last_status_is_the_exit_code() {
    project().goccia(&["shell", "-c", "false"]).assert_code(1);
    project()
        .goccia(&["shell", "-c", "exit 42"])
        .assert_code(42);
    project()
        .goccia(&["shell", "-c", "nosuchcommand"])
        .assert_code(127)
        .stderr_has("nosuchcommand: command not found");
}

#[test]
fn a_syntax_error_names_the_line_and_exits_2() {
    project()
        .goccia(&["shell", "-c", "echo ok\nif true; then\nfi"])
        .assert_code(2)
        .stdout_is("ok\n")
        .stderr_has("line 3: syntax error near unexpected token `fi'");
}

#[test]
fn a_script_path_runs_from_the_vfs() {
    let project = project();
    project
        .goccia(&["shell", "--seed", "app=/app", "/app/run.sh", "arg", "-x"])
        .assert_code(4)
        .stdout_is("script /app/run.sh got arg -x\n3\n");
    project
        .goccia(&["shell", "--seed", "app=/app", "/app/missing.sh"])
        .assert_code(127)
        .stderr_has("/app/missing.sh: No such file or directory");
}

#[test]
fn without_a_terminal_stdin_is_the_script() {
    let project = project();
    goccia_with_stdin(
        project.path(),
        &["shell", "--seed", "app=/app"],
        "cd /app\nfor f in *; do echo \"$f\"; done\n",
    )
    .assert_ok()
    .stdout_is("notes.txt\nrun.sh\n");
}

#[test]
fn piped_stdin_reaches_commands_of_a_command_line() {
    goccia_with_stdin(project().path(), &["shell", "-c", "tr a-z A-Z"], "hello\n")
        .assert_ok()
        .stdout_is("HELLO\n");
}

#[test]
fn the_host_is_not_reachable() {
    let project = project();
    let run = project.goccia(&["shell", "-c", "cat /etc/passwd; ls /; echo $HOME"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "tmp\n/\n", "only the VFS is visible");
    run.stderr_has("/etc/passwd: No such file or directory");
}

#[test]
fn limits_end_the_shell_with_their_codes() {
    let project = project();
    project
        .goccia(&["shell", "-c", "while :; do :; done", "--timeout", "200"])
        .assert_code(4)
        .stderr_has("the run's deadline of 200 ms passed");
    project
        .goccia(&["shell", "-c", "yes", "--max-output", "1k"])
        .assert_code(3)
        .stderr_has("output limit exceeded");
    project
        .goccia(&["shell", "-c", "yes > /f", "--fs-quota-bytes", "64k"])
        .assert_code(1)
        .stderr_has("No space left on device");
    project
        .goccia(&["shell", "-c", "f() { f; }; f"])
        .assert_code(3)
        .stderr_has("maximum function nesting level exceeded");
}

#[test]
fn the_diff_follows_the_output() {
    let run = project().goccia(&[
        "shell",
        "-c",
        "echo new >> /app/notes.txt; rm /app/run.sh; echo done",
        "--seed",
        "app=/app",
        "--diff",
        "--diff-format",
        "unified",
    ]);
    run.assert_ok();
    assert!(
        run.stdout
            .starts_with("done\ndiff --git a/app/notes.txt b/app/notes.txt\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("+new\n"));
    assert!(run.stdout.contains("deleted file mode 100644"));
}

#[test]
fn copy_rw_writes_back_after_a_successful_shell_run_only() {
    let project = project();
    project
        .goccia(&[
            "shell",
            "-c",
            "sed -i s/two/TWO/ /app/notes.txt; exit 1",
            "--copy-rw",
            "app=/app",
        ])
        .assert_code(1)
        .stderr_has("write-back skipped");
    assert_eq!(project.read("app/notes.txt"), "one\ntwo\nthree\n");
    project
        .goccia(&[
            "shell",
            "-c",
            "sed -i s/two/TWO/ /app/notes.txt",
            "--copy-rw",
            "app=/app",
        ])
        .assert_ok()
        .stderr_has("write-back: 1 written, 0 skipped");
    assert_eq!(project.read("app/notes.txt"), "one\nTWO\nthree\n");
}

#[test]
fn json_envelope_describes_the_run() {
    let run = project().goccia(&["shell", "-c", "echo out; echo err >&2; exit 5", "--json"]);
    run.assert_code(5);
    let envelope = run.json();
    assert_eq!(envelope["ok"], false);
    assert_eq!(envelope["exitCode"], 5);
    assert_eq!(envelope["failureKind"], "script-error");
    assert_eq!(envelope["stdout"], "out\n");
    assert_eq!(envelope["stderr"], "err\n");
}

#[test]
fn usage_errors_exit_2_and_run_nothing() {
    let project = project();
    project
        .goccia(&["shell", "-c", "echo ran", "--seed", "missing"])
        .assert_code(2)
        .stdout_is("")
        .stderr_has("seed path does not exist");
    project.goccia(&["shell", "--bogus"]).assert_code(2);
}

#[test]
fn a_builtin_error_names_the_line_as_bash_does() {
    // A shell that is not interactive prefixes `NAME: line N:`: the
    // script's path for a file, `bash` for `-c` text.
    let project = project();
    project.write("app/err.sh", "echo start\ncd /nope\n");
    project
        .goccia(&["shell", "--seed", "app=/app", "/app/err.sh"])
        .assert_code(1)
        .stdout_is("start\n")
        .stderr_has("/app/err.sh: line 2: cd: /nope: No such file or directory");
    project
        .goccia(&["shell", "-c", "echo start\ncd /nope"])
        .assert_code(1)
        .stderr_has("bash: line 2: cd: /nope: No such file or directory");
}
