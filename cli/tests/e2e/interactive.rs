//! The interactive `goccia shell` through a real pseudo-terminal: prompt
//! with the cwd, completion, multi-line input, Ctrl-C cancelling the
//! running command (not the session), `exit` and the diff on exit.

use std::process::Command;

use rexpect::session::{PtySession, spawn_command};

use crate::common::*;

fn session(project: &Project, extra: &[&str]) -> PtySession {
    let mut command = Command::new(binary());
    command
        .args(["shell", "--seed", "app=/app"])
        .args(extra)
        .current_dir(project.path())
        .env("TERM", "xterm");
    spawn_command(command, Some(10_000)).expect("start goccia shell in a pty")
}

fn project() -> Project {
    Project::with("app/notes.txt", "one\ntwo\n")
}

#[test]
fn prompt_follows_the_cwd_and_commands_run() {
    let project = project();
    let mut shell = session(&project, &[]);
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_line("cd /app").unwrap();
    shell.exp_string("goccia:/app$ ").unwrap();
    shell.send_line("wc -l < notes.txt").unwrap();
    shell.exp_string("2").unwrap();
    shell.exp_string("goccia:/app$ ").unwrap();
    shell.send_line("exit 7").unwrap();
    shell.exp_eof().unwrap();
    match shell.process().wait().unwrap() {
        rexpect::process::WaitStatus::Exited(_, code) => assert_eq!(code, 7),
        other => panic!("goccia did not exit normally: {other:?}"),
    }
}

#[test]
fn tab_completes_vfs_paths_and_commands() {
    let project = project();
    let mut shell = session(&project, &[]);
    shell.exp_string("goccia:/$ ").unwrap();
    // `ech<Tab>` completes to `echo `, `/app/no<Tab>` to the file.
    shell.send("ech\tx; wc -l /app/no\t").unwrap();
    shell.send_line("").unwrap();
    shell.exp_string("2 /app/notes.txt").unwrap();
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_control('d').unwrap();
    shell.exp_eof().unwrap();
}

#[test]
fn an_unfinished_construct_reads_more_lines() {
    let project = project();
    let mut shell = session(&project, &[]);
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_line("for x in a b; do").unwrap();
    shell.exp_string("> ").unwrap();
    shell.send_line("echo \"item-$x\"; done").unwrap();
    shell.exp_string("item-a").unwrap();
    shell.exp_string("item-b").unwrap();
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_control('d').unwrap();
    shell.exp_eof().unwrap();
}

#[test]
fn ctrl_c_cancels_the_command_and_the_session_goes_on() {
    let project = project();
    let mut shell = session(&project, &[]);
    shell.exp_string("goccia:/$ ").unwrap();
    shell
        .send_line("echo before; sleep 100; echo never")
        .unwrap();
    shell.exp_string("before").unwrap();
    // The terminal leaves raw mode as the command starts; a Ctrl-C that
    // lands before that is a key, not a signal, so it is sent again until
    // the session reports the cancellation (bounded: 10 tries, 1 s each).
    interrupt_until_cancelled(&mut shell);
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_line("echo \"after $?\"").unwrap();
    shell.exp_string("after 130").unwrap();
    shell.send_line("exit").unwrap();
    shell.exp_eof().unwrap();
}

#[test]
fn errors_do_not_end_the_session_and_the_diff_prints_on_exit() {
    let project = project();
    let mut shell = session(&project, &["--diff"]);
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_line("if then").unwrap();
    shell.exp_string("syntax error").unwrap();
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_line("echo added > /app/new.txt").unwrap();
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_line("exit").unwrap();
    shell.exp_string("\"path\": \"/app/new.txt\"").unwrap();
    shell.exp_eof().unwrap();
}

fn interrupt_until_cancelled(shell: &mut PtySession) {
    for _ in 0..10 {
        shell.send_control('c').unwrap();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(1);
        let mut seen = String::new();
        while std::time::Instant::now() < until {
            match shell.try_read() {
                Some(c) => seen.push(c),
                None => std::thread::yield_now(),
            }
            if seen.contains("^C") {
                return;
            }
        }
    }
    panic!("Ctrl-C never cancelled the command");
}
