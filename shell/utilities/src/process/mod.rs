//! Utilities about processes: those that run other commands (`timeout`,
//! `nohup`, `xargs`, `time`) and `ps`, which lists the session's.

mod ps;
mod time;
mod xargs;

pub use ps::ps;
pub use time::time;
pub use xargs::xargs;

use goccia_core::Stop;
use goccia_interp::interp::{ChildShell, ExecResult, Flow, ShellView};

/// Whether `name` is something a utility can run: a host command, a
/// builtin or utility, or an executable file (by path or in `$PATH`).
/// Functions are not: a utility runs programs, as coreutils' do.
fn runnable(shell: &mut ShellView, name: &str) -> bool {
    let context = shell.context();
    if context.host.as_ref().is_some_and(|host| host.has(name)) || context.table.get(name).is_some()
    {
        return true;
    }
    if name.contains('/') {
        let Ok(path) = shell.cwd().resolve(name) else {
            return false;
        };
        return shell.context().vfs.lock().lookup(&path).is_ok();
    }
    shell.find_in_path(name).is_some()
}

/// Runs `command` for `utility` (`timeout`, `nohup`) in a child process;
/// a name nothing answers to is reported as coreutils reports it (127).
fn run_child(
    shell: &mut ShellView,
    utility: &str,
    command: &[String],
    child: ChildShell,
) -> ExecResult {
    let mut child = child;
    if !runnable(shell, &command[0]) {
        let message = format!(
            "failed to run command '{}': No such file or directory",
            command[0]
        );
        return Ok(shell.fail_command(utility, &message, 127));
    }
    match child.dispatch_command(command) {
        Ok(status) => Ok(status),
        Err(Flow::Exit(status))
        | Err(Flow::Return(status))
        | Err(Flow::Abandon(status))
        | Err(Flow::Discard(status)) => Ok(status),
        Err(other) => Err(other),
    }
}

/// `nohup`: runs the command. A sandbox has no terminal and no hangup
/// signal, so there is nothing to ignore and no `nohup.out`: the output
/// goes where the command's would.
pub fn nohup(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut command = &args[1..];
    if command.first().is_some_and(|arg| arg == "--") {
        command = &command[1..];
    }
    match command.first().map(String::as_str) {
        None => Ok(shell.fail_command(
            "nohup",
            "missing operand\nTry 'nohup --help' for more information.",
            125,
        )),
        Some(option) if option.starts_with('-') && option.len() > 1 => {
            let message =
                format!("unrecognized option '{option}'\nTry 'nohup --help' for more information.");
            Ok(shell.fail_command("nohup", &message, 125))
        }
        Some(_) => {
            let child = shell.child_process();
            run_child(shell, "nohup", command, child)
        }
    }
}

pub fn timeout(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut index = 1;
    let mut preserve = false;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "--preserve-status" => preserve = true,
            "--foreground" | "-v" | "--verbose" => {}
            "-s" | "-k" | "--signal" | "--kill-after" => index += 1,
            _ if arg.starts_with("--signal=")
                || arg.starts_with("--kill-after=")
                || (arg.starts_with("-s") && arg.len() > 2)
                || (arg.starts_with("-k") && arg.len() > 2) => {}
            _ => break,
        }
        index += 1;
    }
    let Some(duration_text) = args.get(index) else {
        return Ok(shell.fail_command(
            "timeout",
            "missing operand\nTry 'timeout --help' for more information.",
            125,
        ));
    };
    let Some(duration) = crate::system::parse_duration(duration_text) else {
        return Ok(shell.fail_command("timeout", &format!("invalid time interval '{duration_text}'\nTry 'timeout --help' for more information."), 125));
    };
    let command = &args[index + 1..];
    if command.is_empty() {
        return Ok(shell.fail_command(
            "timeout",
            "missing operand\nTry 'timeout --help' for more information.",
            125,
        ));
    }
    let mut child = shell.child_process();
    let limit = if duration.is_zero() {
        None
    } else {
        Some(duration)
    };
    child.set_watch(shell.watch().narrowed(limit));
    match run_child(shell, "timeout", command, child) {
        Err(Flow::Stop(Stop::DEADLINE)) if shell.watch().check().is_ok() => {
            Ok(if preserve { 137 } else { 124 })
        }
        other => other,
    }
}
