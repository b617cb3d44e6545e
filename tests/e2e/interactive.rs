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
    shell.send_control('c').unwrap();
    shell.exp_string("^C").unwrap();
    shell.exp_string("goccia:/$ ").unwrap();
    shell.send_line("echo \"after $?\"").unwrap();
    shell.exp_string("after 130").unwrap();
    shell.send_control('d').unwrap();
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
