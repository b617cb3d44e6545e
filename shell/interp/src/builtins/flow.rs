//! Builtins that steer the running shell: `:`/`true`/`false`, `exit`,
//! `return`, `break`, `continue`, `shift`, `eval`, `source`, `exec`,
//! `trap`, `kill`, `times`, `caller` and `goccia`.

use crate::builtins::common::builtin_error;
use crate::builtins::common::flag_letters;
use crate::builtins::common::usage_error;
use crate::builtins::common::write_out;
use crate::interp::{EchoedInput, ExecResult, Flow, Shell};
use crate::parse::Parser;
use crate::vars::Value;

pub fn colon(_: &mut Shell, _: &[String]) -> ExecResult {
    Ok(0)
}

pub fn false_(_: &mut Shell, _: &[String]) -> ExecResult {
    Ok(1)
}

fn status_arg(shell: &mut Shell, name: &str, arg: Option<&String>) -> Result<i32, i32> {
    match arg {
        None => Ok(shell.last_status()),
        Some(text) => match text.trim().parse::<i64>() {
            Ok(n) => Ok((n & 0xff) as i32),
            Err(_) => Err(shell.fail(name, &format!("{text}: numeric argument required"), 2)),
        },
    }
}

/// bash's answer to `break 1 2`, `shift 1 2`, `exit 1 2`: the error
/// abandons the command being run up to the shell's reader (not only
/// `eval`'s), as [`Flow::Discard`] says.
fn too_many_arguments(shell: &mut Shell, name: &str) -> Flow {
    shell.fail(name, "too many arguments", 1);
    Flow::Discard(match shell.last_status() {
        0 => 1,
        status => status,
    })
}

pub fn exit(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() > 2 {
        return Err(too_many_arguments(shell, "exit"));
    }
    shell.exit_requested = true;
    match status_arg(shell, "exit", args.get(1)) {
        Ok(status) => Err(Flow::Exit(status)),
        Err(status) => Err(Flow::Exit(status)),
    }
}

pub fn return_(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() > 2 {
        return Err(too_many_arguments(shell, "return"));
    }
    if shell.func_stack.is_empty() {
        return builtin_error(
            shell,
            "return",
            "can only `return' from a function or sourced script",
            2,
        );
    }
    match status_arg(shell, "return", args.get(1)) {
        Ok(status) => Err(Flow::Return(status)),
        Err(status) => Err(Flow::Return(status)),
    }
}

/// How many loops `break N` / `continue N` leaves, and the status the
/// loops end with. As bash does, a count below 1 is reported and ends
/// every loop with status 1, and one that is no number ends the shell
/// (status 128 with the last status's bits, bash's `throw_to_top_level`).
fn loop_count(shell: &mut Shell, name: &str, args: &[String]) -> Result<(usize, i32), Flow> {
    if args.len() > 2 {
        return Err(too_many_arguments(shell, name));
    }
    match args.get(1) {
        None => Ok((1, 0)),
        Some(text) => match text.parse::<i64>() {
            Ok(n) if n >= 1 => Ok((n as usize, 0)),
            Ok(_) => {
                shell.fail(name, &format!("{text}: loop count out of range"), 1);
                Ok((shell.loop_depth, 1))
            }
            Err(_) => {
                shell.fail(name, &format!("{text}: numeric argument required"), 1);
                Err(Flow::Exit(128 | shell.last_status()))
            }
        },
    }
}

/// `break` and `continue` outside a loop are reported and do nothing.
fn outside_loop(shell: &mut Shell, name: &str) -> ExecResult {
    builtin_error(
        shell,
        name,
        "only meaningful in a `for', `while', or `until' loop",
        0,
    )
}

pub fn break_(shell: &mut Shell, args: &[String]) -> ExecResult {
    if shell.loop_depth == 0 {
        return outside_loop(shell, "break");
    }
    let (levels, status) = loop_count(shell, "break", args)?;
    Err(Flow::Break {
        levels: levels.min(shell.loop_depth),
        status,
    })
}

pub fn continue_(shell: &mut Shell, args: &[String]) -> ExecResult {
    if shell.loop_depth == 0 {
        return outside_loop(shell, "continue");
    }
    let (levels, status) = loop_count(shell, "continue", args)?;
    if status != 0 {
        // Out of range: every loop ends, as for `break`.
        return Err(Flow::Break {
            levels: shell.loop_depth,
            status,
        });
    }
    Err(Flow::Continue {
        levels: levels.min(shell.loop_depth),
        status,
    })
}

pub fn shift(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() > 2 {
        return Err(too_many_arguments(shell, "shift"));
    }
    let count = match args.get(1) {
        None => 1,
        Some(text) => match text.parse::<usize>() {
            Ok(n) => n,
            Err(_) => {
                return builtin_error(
                    shell,
                    "shift",
                    &format!("{text}: numeric argument required"),
                    1,
                );
            }
        },
    };
    if count > shell.positional.len() {
        return Ok(1);
    }
    let rest = shell.positional[count..].to_vec();
    shell.positional = std::sync::Arc::new(rest);
    Ok(0)
}

pub fn eval(shell: &mut Shell, args: &[String]) -> ExecResult {
    // No options, but `--` ends them and `-x` is a usage error.
    let first = match flag_letters(shell, "eval", args, "", "eval [arg ...]") {
        Ok((_, first)) => first,
        Err(status) => return Ok(status),
    };
    let source = args[first..].join(" ");
    let line = shell.line;
    run_text_from(shell, &source, line)
}

/// Runs source text in this shell (`eval`, `source`): a syntax error is
/// status 2 for that text, not the end of the shell.
pub(crate) fn run_text(shell: &mut Shell, source: &str) -> ExecResult {
    run_text_from(shell, source, 1)
}

/// [`run_text`] with the text's lines numbered from `first_line`.
fn run_text_from(shell: &mut Shell, source: &str, first_line: usize) -> ExecResult {
    let mut parser = Parser::new(source);
    parser.set_first_line(first_line);
    parser.set_watch(shell.watch().clone());
    let mut status = 0;
    let mut echoed = EchoedInput::default();
    loop {
        shell.give_aliases(&mut parser);
        parser.set_extglob(shell.opts.extglob);
        let next = parser.next_command();
        echoed.reach(shell, source, parser.offset());
        match next {
            Ok(Some(list)) => {
                // An error that abandons a line abandons this text's line:
                // the next one runs (bash's `eval` and `source`).
                status = match shell.run_list(&list) {
                    Ok(status) | Err(Flow::Abandon(status)) => status,
                    Err(other) => return Err(other),
                };
                shell.status = status;
            }
            Ok(None) => return Ok(status),
            Err(error) => {
                if let Some(stop) = error.stop {
                    return Err(Flow::Stop(stop));
                }
                shell.report_syntax_error(&error);
                return Ok(if error.discard { 1 } else { 2 });
            }
        }
    }
}

pub fn source(shell: &mut Shell, args: &[String]) -> ExecResult {
    let usage = format!("{} filename [arguments]", args[0]);
    let first = match flag_letters(shell, &args[0], args, "", &usage) {
        Ok((_, first)) => first,
        Err(status) => return Ok(status),
    };
    let Some(file) = args.get(first) else {
        shell.fail(&args[0], "filename argument required", 2);
        return Ok(usage_error(shell, &args[0], &usage));
    };
    // A name without `/` is looked for on PATH first, then in the working
    // folder (bash's `sourcepath`, on by default).
    let found = if shell.opts.is_shopt_set("sourcepath") {
        shell.file_in_path(file)
    } else {
        None
    };
    // Opened as commands open their input: `/dev/null`, `/dev/stdin` and
    // a process substitution's `/dev/fd/N` are readable too.
    let operand = found.as_deref().unwrap_or(file);
    let text = match crate::input::open_quiet(crate::interp::ShellView::of(shell), operand) {
        Ok(mut source) => match source.read_all() {
            Ok(bytes) => crate::raw::decode_vec(bytes),
            Err(error) => return shell.io_status(file, error),
        },
        Err("Is a directory") => {
            let message = format!("{file}: is a directory");
            return builtin_error(shell, &args[0], &message, 1);
        }
        Err(reason) => return builtin_error(shell, file, reason, 1),
    };
    let saved = (args.len() > first + 1).then(|| {
        std::mem::replace(
            &mut shell.positional,
            std::sync::Arc::new(args[first + 1..].to_vec()),
        )
    });
    shell.func_stack.push(crate::interp::Call {
        name: "source".to_string(),
        line: shell.line,
    });
    shell.sources.push(file.clone());
    let hidden = shell.hide_traced_traps(false);
    let mut result = match run_text(shell, &text) {
        Err(Flow::Return(status)) => Ok(status),
        other => other,
    };
    shell.restore_traced_traps(hidden);
    if result.is_ok()
        && let Err(flow) = shell.run_return_trap()
    {
        result = Err(flow);
    }
    shell.sources.pop();
    shell.func_stack.pop();
    if let Some(saved) = saved {
        shell.positional = saved;
    }
    result
}

pub fn times(shell: &mut Shell, _: &[String]) -> ExecResult {
    write_out(shell, "times", "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
}

/// `caller [N]`: where the running function (or frame `N` up) was called
/// from, read off `$BASH_LINENO`, `$FUNCNAME` and `$BASH_SOURCE` as bash
/// does: `LINE FILE` without `N` (`NULL` for no file), `LINE FUNCTION
/// FILE` with it, status 1 past the outermost frame (and outside any,
/// before the operand is looked at).
pub fn caller(shell: &mut Shell, args: &[String]) -> ExecResult {
    const USAGE: &str = "caller [expr]";
    let element = |shell: &Shell, name: &str, index: usize| -> Option<String> {
        match shell.dynamic_array(name)? {
            Value::Indexed(map) => map.get(&(index as i64)).cloned(),
            _ => None,
        }
    };
    let first = match flag_letters(shell, "caller", args, "", USAGE) {
        Ok((_, first)) => first,
        Err(status) => return Ok(status),
    };
    let Some(line) = element(shell, "BASH_LINENO", 0) else {
        return Ok(1);
    };
    let text = match args.get(first) {
        None => {
            let file = element(shell, "BASH_SOURCE", 1).unwrap_or_else(|| "NULL".to_string());
            format!("{line} {file}\n")
        }
        Some(frame) => {
            let Ok(frame) = frame.parse::<usize>() else {
                shell.fail("caller", &format!("{frame}: invalid number"), 2);
                return Ok(usage_error(shell, "caller", USAGE));
            };
            let found = (
                element(shell, "BASH_LINENO", frame),
                element(shell, "FUNCNAME", frame + 1),
                element(shell, "BASH_SOURCE", frame + 1),
            );
            let (Some(line), Some(function), Some(file)) = found else {
                return Ok(1);
            };
            format!("{line} {function} {file}\n")
        }
    };
    write_out(shell, "caller", &text)
}

pub fn exec(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut index = 1;
    while args
        .get(index)
        .is_some_and(|a| a.starts_with('-') && a.len() > 1)
    {
        index += 1;
    }
    if index >= args.len() {
        return Ok(0);
    }
    let status = shell.dispatch_command(&args[index..])?;
    Err(Flow::Exit(status))
}

/// `goccia [options] <path>`: runs a JS entry, shared or in a child
/// sandbox, through the launcher the sandbox installed.
pub fn goccia(shell: &mut Shell, args: &[String]) -> ExecResult {
    shell.run_nested(args)
}
