//! The interpreter compiles and runs without the utilities: a table of
//! its builtins alone runs scripts, and a table can add a utility written
//! as the utilities crate writes them, over a [`ShellView`].

use std::sync::Arc;
use std::time::Duration;

use goccia_core::{Audit, Limits, Watch};
use goccia_interp::io::{CaptureWriter, Fd};
use goccia_interp::{CommandKind, CommandTable, Context, ExecResult, Hooks, Shell, ShellView};
use goccia_vfs::{Quota, Vfs};
use parking_lot::Mutex;

/// A utility as the utilities crate writes one: it sees a view.
fn shout(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let line = format!(
        "{} in {}\n",
        args[1..].join(" ").to_uppercase(),
        shell.cwd()
    );
    match shell.write_stdout(line.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("shout", error),
    }
}

goccia_interp::commands! {
    /// One utility, for the test.
    static SHOUT = {
        Utility "shout" => View(shout),
    }
}

/// Runs `script` in a shell whose commands are `table`'s: its stdout,
/// stderr and status.
fn run(table: &'static CommandTable, script: &str) -> (String, String, i32) {
    let vfs = Arc::new(Mutex::new(Vfs::new(Quota {
        max_bytes: 1 << 20,
        max_nodes: 1000,
    })));
    let context = Context::build(
        vfs,
        Watch::new(Duration::from_secs(10)),
        Limits::default(),
        table,
        Audit::default(),
        Hooks::default(),
    );
    let (stdout, stderr) = (CaptureWriter::new(1 << 20), CaptureWriter::new(1 << 20));
    let script = script.to_string();
    let status = std::thread::Builder::new()
        .stack_size(goccia_interp::THREAD_STACK)
        .spawn({
            let (stdout, stderr) = (stdout.clone(), stderr.clone());
            move || {
                let mut shell = Shell::new(
                    context,
                    Fd::null_input(),
                    Fd::writer(stdout),
                    Fd::writer(stderr),
                );
                shell.run_script(&script)
            }
        })
        .unwrap()
        .join()
        .unwrap()
        .unwrap();
    let text = |capture: CaptureWriter| String::from_utf8_lossy(&capture.take()).into_owned();
    (text(stdout), text(stderr), status)
}

#[test]
fn the_interpreter_runs_with_its_builtins_alone() {
    static BUILTINS_ONLY: CommandTable = CommandTable {
        parts: &[&goccia_interp::BUILTINS],
    };
    let (stdout, stderr, status) = run(&BUILTINS_ONLY, "cd /tmp; echo \"$PWD\"; cat x");
    assert_eq!(stdout, "/tmp\n");
    assert!(stderr.contains("cat: command not found"), "{stderr}");
    assert_eq!(status, 127);
    assert_eq!(BUILTINS_ONLY.kind("cd"), Some(CommandKind::Builtin));
    assert_eq!(BUILTINS_ONLY.kind("cat"), None);
}

#[test]
fn a_table_adds_utilities_that_see_a_view() {
    static WITH_SHOUT: CommandTable = CommandTable {
        parts: &[&goccia_interp::BUILTINS, &SHOUT],
    };
    let (stdout, _, status) = run(&WITH_SHOUT, "cd /tmp && shout hi there | cat; shout x");
    // `cat` is not in this table: the pipe's last stage fails.
    assert_eq!(stdout, "X in /tmp\n");
    assert_eq!(status, 0);
    assert_eq!(WITH_SHOUT.kind("shout"), Some(CommandKind::Utility));
    assert!(WITH_SHOUT.names().any(|name| name == "shout"));
}
