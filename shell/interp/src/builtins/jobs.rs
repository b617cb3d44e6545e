//! The job builtins over the shell's table of background jobs
//! ([`crate::interp::jobs`]): `wait`, `jobs` and `kill`.

use super::common::{builtin_error, write_out, write_out_then};
use crate::interp::jobs::Lookup;
use crate::interp::{ExecResult, Shell};
use crate::pad::right_pad;
use crate::signals;

/// `wait [-fn] [-p var] [id ...]`: the status of the last id (127 for one
/// that is no child, 1 for one that is no id at all); with no id, collects
/// every job and answers 0; `-n` collects the job that finished first.
pub fn wait(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut next_only = false;
    let mut pid_variable = None;
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "--" => {
                index += 1;
                break;
            }
            "-n" => next_only = true,
            "-f" => {}
            "-p" => {
                index += 1;
                match args.get(index) {
                    Some(name) => pid_variable = Some(name.clone()),
                    None => {
                        return builtin_error(shell, "wait", "-p: option requires an argument", 2);
                    }
                }
            }
            _ if arg.starts_with('-') && arg.len() > 1 && arg.parse::<i64>().is_err() => {
                let message =
                    format!("{arg}: invalid option\nwait: usage: wait [-fn] [-p var] [id ...]");
                return builtin_error(shell, "wait", &message, 2);
            }
            _ => break,
        }
        index += 1;
    }
    let ids = &args[index..];
    if next_only {
        return wait_next(shell, ids, pid_variable.as_deref());
    }
    if ids.is_empty() {
        shell.jobs.collect_all();
        return Ok(0);
    }
    let mut status = 0;
    for id in ids {
        status = match shell.jobs.lookup(id) {
            Lookup::Active(index) => {
                let pid = shell.jobs.active()[index].pid;
                set_pid_variable(shell, pid_variable.as_deref(), pid);
                shell.jobs.collect(index)
            }
            Lookup::Collected(status) => status,
            other => lookup_error(shell, "wait", id, other),
        };
    }
    Ok(status)
}

/// `wait -n`: the job (among `ids`, when given) that finished first.
fn wait_next(shell: &mut Shell, ids: &[String], pid_variable: Option<&str>) -> ExecResult {
    let candidates: Vec<usize> = if ids.is_empty() {
        (0..shell.jobs.active().len()).collect()
    } else {
        let mut chosen = Vec::new();
        for id in ids {
            match shell.jobs.lookup(id) {
                Lookup::Active(index) => chosen.push(index),
                Lookup::Collected(_) => {}
                other => {
                    lookup_error(shell, "wait", id, other);
                }
            }
        }
        chosen
    };
    match shell.jobs.first_finished(&candidates) {
        Some(index) => {
            let pid = shell.jobs.active()[index].pid;
            set_pid_variable(shell, pid_variable, pid);
            Ok(shell.jobs.collect(index))
        }
        None => Ok(127),
    }
}

fn set_pid_variable(shell: &mut Shell, name: Option<&str>, pid: u64) {
    if let Some(name) = name
        && let Err(message) = shell.set_var(name, pid.to_string())
    {
        shell.fail("wait", &message, 1);
    }
}

/// Reports what a job spec or id failed to name; bash's status for it.
fn lookup_error(shell: &mut Shell, builtin: &str, id: &str, lookup: Lookup) -> i32 {
    match lookup {
        Lookup::NoSuchJob => shell.fail(builtin, &format!("{id}: no such job"), 127),
        Lookup::NotAChild => shell.fail(
            builtin,
            &format!("pid {id} is not a child of this shell"),
            127,
        ),
        _ => shell.fail(builtin, &format!("`{id}': not a pid or valid job spec"), 1),
    }
}

/// `jobs [-lnprs] [spec ...]`: every job not yet collected, finished
/// (goccia's jobs end before the next command starts). Jobs reported as
/// finished leave the table, as in bash; `wait` still knows their ids.
pub fn jobs(shell: &mut Shell, args: &[String]) -> ExecResult {
    let (mut pids_only, mut long, mut running_only) = (false, false, false);
    let mut specs = Vec::new();
    for arg in &args[1..] {
        match arg.strip_prefix('-').filter(|flags| !flags.is_empty()) {
            Some(flags) => {
                for flag in flags.chars() {
                    match flag {
                        'p' => pids_only = true,
                        'l' => long = true,
                        'r' | 's' => running_only = true,
                        'n' => {}
                        other => {
                            let message = format!(
                                "-{other}: invalid option\njobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]"
                            );
                            return builtin_error(shell, "jobs", &message, 2);
                        }
                    }
                }
            }
            None => specs.push(arg.clone()),
        }
    }
    let mut chosen = Vec::new();
    let mut status = 0;
    if specs.is_empty() {
        chosen.extend(0..shell.jobs.active().len());
    }
    for spec in &specs {
        match shell.jobs.lookup(spec) {
            Lookup::Active(index) => chosen.push(index),
            _ => status = shell.fail("jobs", &format!("{spec}: no such job"), 1),
        }
    }
    if running_only {
        return Ok(status);
    }
    let count = shell.jobs.active().len();
    let mut text = String::new();
    for &index in &chosen {
        let job = &shell.jobs.active()[index];
        if pids_only {
            text.push_str(&format!("{}\n", job.pid));
            continue;
        }
        let mark = if index + 1 == count {
            '+'
        } else if index + 2 == count {
            '-'
        } else {
            ' '
        };
        let state = match job.status {
            0 => "Done".to_string(),
            code => format!("Exit {code}"),
        };
        let pid = if long {
            format!(" {}", job.pid)
        } else {
            " ".to_string()
        };
        let state = right_pad(&state, 24, ' ');
        text.push_str(&format!(
            "[{}]{mark}{pid} {state}{}\n",
            job.number, job.command
        ));
    }
    if !pids_only {
        chosen.sort_unstable();
        for index in chosen.into_iter().rev() {
            shell.jobs.collect(index);
        }
    }
    write_out_then(shell, "jobs", &text, status)
}

/// `kill [-s sig | -n num | -sig] id ...` and `kill -l|-L [sig ...]`.
/// A job goccia ran to its end and `wait` has not collected is still
/// there to signal (as a finished process that was not reaped is), and
/// the signal changes nothing; a signal to the shell itself (`$$`) runs
/// its trap or takes the signal's default action.
pub fn kill(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut index = 1;
    let mut signal = "TERM".to_string();
    match args.get(1).map(String::as_str) {
        Some("-l" | "-L") => return list_signals(shell, &args[2..]),
        Some("-s" | "-n") => {
            match args.get(2) {
                Some(name) => signal = name.clone(),
                None => {
                    let message = format!("{}: option requires an argument", args[1]);
                    return builtin_error(shell, "kill", &message, 2);
                }
            }
            index = 3;
        }
        Some("--") => index = 2,
        Some(arg) if arg.starts_with('-') && arg.len() > 1 => {
            signal = arg[1..].to_string();
            index = 2;
        }
        _ => {}
    }
    let Some(number) = signals::number(&signal) else {
        return builtin_error(
            shell,
            "kill",
            &format!("{signal}: invalid signal specification"),
            1,
        );
    };
    let targets = &args[index..];
    if targets.is_empty() {
        return builtin_error(
            shell,
            "kill",
            "usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
            2,
        );
    }
    let mut status = 0;
    let mut to_self = false;
    for target in targets {
        let pid = target.parse::<u64>().ok();
        let own = pid == Some(shell.bashpid);
        let waiting = pid.filter(|pid| shell.waiting_shells.contains(pid));
        match shell.jobs.lookup(target) {
            Lookup::Active(_) => {}
            _ if own => to_self = true,
            // A shell this one runs inside takes it when this one ends.
            _ if let Some(pid) = waiting => {
                if number != 0 {
                    shell.context().processes.post_signal(pid, number);
                }
            }
            Lookup::NoSuchJob => status = shell.fail("kill", &format!("{target}: no such job"), 1),
            Lookup::Invalid => {
                let message = format!("{target}: arguments must be process or job IDs");
                status = shell.fail("kill", &message, 1);
            }
            Lookup::Collected(_) | Lookup::NotAChild => {
                status = shell.fail("kill", &format!("({target}) - No such process"), 1);
            }
        }
    }
    if to_self && number != 0 {
        super::trap::deliver_to_self(shell, number)?;
    }
    Ok(status)
}

/// `kill -l`: the table; with arguments, each number (an exit status
/// above 128 counts as its signal) as a name and each name as a number.
fn list_signals(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.is_empty() {
        return write_out(shell, "kill", &signals::table());
    }
    let mut text = String::new();
    let mut status = 0;
    for arg in args {
        let answer = match arg.parse::<u32>() {
            Ok(0) => Some("EXIT".to_string()),
            Ok(number) => {
                let number = if number > 128 { number - 128 } else { number };
                signals::name(number)
            }
            Err(_) => signals::number(arg).map(|n| n.to_string()),
        };
        match answer {
            Some(answer) => {
                text.push_str(&answer);
                text.push('\n');
            }
            None => {
                status = shell.fail("kill", &format!("{arg}: invalid signal specification"), 1);
            }
        }
    }
    write_out_then(shell, "kill", &text, status)
}
