//! Mirrors `e2e/shell.rs`: command lines on a persistent session.

use goccia::{DiffFormat, Sandbox};

#[test]
fn the_session_keeps_cwd_variables_and_functions() {
    let sandbox = Sandbox::builder().file("/w/x", "").build().unwrap();
    sandbox
        .run_shell("cd /w; N=7; twice() { echo $(( $1 * 2 )); }")
        .unwrap();
    let run = sandbox.run_shell("twice $N; ls").unwrap();
    assert_eq!(run.stdout_text(), "14\nx\n");
}

#[test]
fn the_last_status_and_exit_are_the_exit_code() {
    let sandbox = Sandbox::builder().build().unwrap();
    assert_eq!(sandbox.run_shell("false").unwrap().exit_code, 1);
    assert_eq!(
        sandbox
            .run_shell("exit 7; echo unreached")
            .unwrap()
            .exit_code,
        7
    );
    let after = sandbox.run_shell("echo after exit").unwrap();
    assert_eq!(
        (after.exit_code, after.stdout_text().as_ref()),
        (0, "after exit\n")
    );
}

#[test]
fn a_syntax_error_is_status_2_naming_the_line() {
    let run = Sandbox::builder()
        .build()
        .unwrap()
        .run_shell("echo ok\nif then")
        .unwrap();
    assert_eq!(run.exit_code, 2);
    assert!(
        run.stderr_text().contains("line 2"),
        "{}",
        run.stderr_text()
    );
}

#[test]
fn the_host_is_not_reachable_from_the_shell() {
    let sandbox = Sandbox::builder().build().unwrap();
    let run = sandbox
        .run_shell("cat /etc/passwd; ls /proc; curl http://example.com")
        .unwrap();
    assert_ne!(run.exit_code, 0);
    assert_eq!(run.stdout_text(), "");
}

#[test]
fn shell_and_scripts_share_the_vfs_and_the_diff() {
    let sandbox = Sandbox::builder()
        .file(
            "/js.js",
            "import fs from 'fs'; fs.appendFileSync('/log', 'js\\n')",
        )
        .build()
        .unwrap();
    sandbox.run_shell("echo sh > /log").unwrap();
    sandbox.run_script("/js.js").unwrap();
    assert_eq!(
        sandbox.run_shell("cat /log").unwrap().stdout_text(),
        "sh\njs\n"
    );
    assert!(sandbox.diff(DiffFormat::Unified).contains("+sh\n+js\n"));
}

#[test]
fn the_goccia_builtin_runs_entries_from_the_shell() {
    let sandbox = Sandbox::builder()
        .file(
            "/hi.js",
            "import fs from 'fs'; fs.writeFileSync('/made', 'm'); console.log('hi')",
        )
        .build()
        .unwrap();
    let run = sandbox
        .run_shell("goccia --sandbox --seed /hi.js --diff /hi.js | grep -c made; goccia /hi.js")
        .unwrap();
    assert_eq!(run.stdout_text(), "1\nhi\n");
    assert!(
        sandbox.read("/made").is_ok(),
        "shared mode writes the same VFS"
    );
}
