//! Utilities about processes: those that run other commands (`timeout`,
//! `nohup`, `xargs`, `time`) and `ps`, which lists the session's.

mod ps;
mod time;

pub use ps::ps;
pub use time::time;

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

/// Splits xargs input: blanks separate items, quotes and backslashes
/// group.
fn xargs_items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut has = false;
    let mut chars = text.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    has = true;
                }
                '\\' => {
                    if let Some(next) = chars.next() {
                        current.push(next);
                        has = true;
                    }
                }
                // GNU xargs splits at blanks and newlines only: a `\r` (a
                // file name from a CRLF list) is part of the item.
                ' ' | '\t' | '\n' => {
                    if has || !current.is_empty() {
                        items.push(std::mem::take(&mut current));
                        has = false;
                    }
                }
                c => current.push(c),
            },
        }
    }
    if has || !current.is_empty() {
        items.push(current);
    }
    items
}

/// `xargs`'s options one to an argument, as GNU's getopt reads them:
/// clustered flags split (`-r0` is `-r -0`), a value given in the same
/// word kept there (`-n1`), `-i[R]` as `-I R` (default `{}`) and `-l[N]`
/// as `-L N` (default 1). Reading stops at the command.
fn xargs_options(args: &[String]) -> Vec<String> {
    let mut out = vec![args[0].clone()];
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if !arg.starts_with('-') || arg == "-" || arg.starts_with("--") {
            if arg.starts_with("--") && arg != "--" {
                out.push(arg.clone());
                index += 1;
                continue;
            }
            out.extend_from_slice(&args[index..]);
            return out;
        }
        let letters = &arg[1..];
        for (at, letter) in letters.char_indices() {
            let rest = &letters[at + letter.len_utf8()..];
            match letter {
                '0' | 't' | 'r' | 'x' | 'p' => out.push(format!("-{letter}")),
                'n' | 'L' | 'I' | 'd' | 'P' | 's' | 'E' => {
                    out.push(format!("-{letter}"));
                    if rest.is_empty() {
                        index += 1;
                        if let Some(value) = args.get(index) {
                            out.push(value.clone());
                        }
                    } else {
                        out.push(rest.to_string());
                    }
                    break;
                }
                'i' => {
                    out.push("-I".to_string());
                    out.push(if rest.is_empty() { "{}" } else { rest }.to_string());
                    break;
                }
                // `-e[EOF]`: `-E EOF`, none given turning it off.
                'e' => {
                    out.push("-E".to_string());
                    out.push(rest.to_string());
                    break;
                }
                'l' => {
                    out.push("-L".to_string());
                    out.push(if rest.is_empty() { "1" } else { rest }.to_string());
                    break;
                }
                // Unknown: the whole word, for the error to name.
                _ => {
                    out.push(format!("-{}", &letters[at..]));
                    break;
                }
            }
        }
        index += 1;
    }
    out
}

/// The input of `xargs -L`: its logical lines (a line ending in a blank
/// goes on to the next), each as its items; blank lines are none.
fn xargs_lines(text: &str) -> Vec<Vec<String>> {
    let mut lines = Vec::new();
    let mut logical = String::new();
    for line in text.split('\n') {
        logical.push_str(line);
        if line.ends_with([' ', '\t']) {
            logical.push(' ');
            continue;
        }
        let items = xargs_items(&logical);
        if !items.is_empty() {
            lines.push(items);
        }
        logical.clear();
    }
    let items = xargs_items(&logical);
    if !items.is_empty() {
        lines.push(items);
    }
    lines
}

/// `xargs` input up to the first blank-separated word equal to `end`.
fn before_end_of_input(input: &str, end: &str) -> String {
    let mut kept = String::new();
    for line in input.split_inclusive('\n') {
        let words: Vec<&str> = line
            .split([' ', '\t', '\n'])
            .filter(|word| !word.is_empty())
            .collect();
        if let Some(at) = words.iter().position(|word| *word == end) {
            if at > 0 {
                kept.push_str(&words[..at].join(" "));
                kept.push('\n');
            }
            return kept;
        }
        kept.push_str(line);
    }
    kept
}

/// A word of `xargs -t`'s trace: bare when the shell would read it back
/// as is, else quoted (GNU quotes what needs it).
fn traced(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:@%,+=^-".contains(c));
    if plain {
        word.to_string()
    } else {
        if word.chars().any(goccia_interp::printf::needs_ansi_c) {
            goccia_interp::printf::ansi_c_quote(word)
        } else {
            format!("'{}'", word.replace('\'', "'\\''"))
        }
    }
}

pub fn xargs(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let args = &xargs_options(args)[..];
    let mut max_args: Option<usize> = None;
    let mut max_lines: Option<usize> = None;
    let mut replace: Option<String> = None;
    let mut delimiter: Option<char> = None;
    let mut trace = false;
    let mut no_run_empty = false;
    let mut end_of_input: Option<String> = None;
    let mut slot_var: Option<String> = None;
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        let value = |index: &mut usize| -> Option<String> {
            *index += 1;
            args.get(*index).cloned()
        };
        match arg.as_str() {
            "-n" | "--max-args" => max_args = value(&mut index).and_then(|v| v.parse().ok()),
            "-L" | "--max-lines" => max_lines = value(&mut index).and_then(|v| v.parse().ok()),
            "-I" => replace = value(&mut index),
            "-d" | "--delimiter" => {
                delimiter = value(&mut index).map(|d| {
                    goccia_interp::escape::printf_format(&d)
                        .0
                        .chars()
                        .next()
                        .unwrap_or('\n')
                })
            }
            "-0" | "--null" => delimiter = Some('\0'),
            "-E" => end_of_input = value(&mut index).filter(|text| !text.is_empty()),
            _ if arg.starts_with("--eof=") => {
                end_of_input = Some(arg["--eof=".len()..].to_string()).filter(|t| !t.is_empty())
            }
            "-t" | "--verbose" => trace = true,
            "-r" | "--no-run-if-empty" => no_run_empty = true,
            "-P" | "-s" | "--max-procs" | "--max-chars" => {
                value(&mut index);
            }
            "-x" | "-p" => {}
            _ if arg.starts_with("-I") && arg.len() > 2 => replace = Some(arg[2..].to_string()),
            _ if arg.starts_with("-n") && arg.len() > 2 => max_args = arg[2..].parse().ok(),
            _ if arg.starts_with("-L") && arg.len() > 2 => max_lines = arg[2..].parse().ok(),
            _ if arg.starts_with("-P") && arg.len() > 2 => {}
            _ if arg.starts_with("--process-slot-var=") => {
                slot_var = Some(arg["--process-slot-var=".len()..].to_string())
            }
            _ if arg.starts_with("-d") && arg.len() > 2 => {
                delimiter = goccia_interp::escape::printf_format(&arg[2..])
                    .0
                    .chars()
                    .next()
            }
            _ if arg.starts_with('-') && arg.len() > 1 => {
                let named = if arg.starts_with("--") {
                    format!("unrecognized option '{arg}'")
                } else {
                    format!(
                        "invalid option -- '{}'",
                        arg[1..].chars().next().unwrap_or('-')
                    )
                };
                return Ok(shell.fail_command(
                    "xargs",
                    &format!("{named}\nTry 'xargs --help' for more information."),
                    1,
                ));
            }
            _ => break,
        }
        index += 1;
    }
    let command: Vec<String> = if index < args.len() {
        args[index..].to_vec()
    } else {
        vec!["echo".to_string()]
    };
    let mut input = String::new();
    if let Some(reader) = shell.fds().input(0) {
        let limit = shell.context().limits.max_buffered_input;
        let bytes = match goccia_interp::io::read_to_end_capped(&mut *reader.lock(), limit) {
            Ok(bytes) => bytes,
            Err(error) => return shell.io_status("xargs", error),
        };
        input = goccia_interp::raw::decode_vec(bytes);
    }
    // `-E EOF`: input ends at the first word that is EOF (a delimiter
    // given with -0 or -d turns it off, as in GNU xargs).
    if let Some(end) = end_of_input.as_deref() {
        if delimiter.is_none() {
            input = before_end_of_input(&input, end);
        } else {
            shell.write_stderr(
                b"xargs: warning: the -E option has no effect if -0 or -d is used.\n\n",
            );
        }
    }
    let items: Vec<String> = if replace.is_some() {
        let lines: Vec<String> = match delimiter {
            Some(d) => input.split(d).map(str::to_string).collect(),
            None => input
                .split('\n')
                .map(|l| l.trim_start_matches([' ', '\t']).to_string())
                .collect(),
        };
        lines.into_iter().filter(|l| !l.is_empty()).collect()
    } else {
        match delimiter {
            Some(d) => {
                let mut parts: Vec<String> = input.split(d).map(str::to_string).collect();
                if parts.last().is_some_and(String::is_empty) {
                    parts.pop();
                }
                if d != '\n' && parts.last().is_some_and(|p| p.ends_with('\n')) && d != '\0' {
                    let last = parts.pop().unwrap_or_default();
                    parts.push(last.trim_end_matches('\n').to_string());
                }
                parts
            }
            None => xargs_items(&input),
        }
    };
    let batches: Vec<Vec<String>> = if let Some(pattern) = &replace {
        items
            .iter()
            .map(|item| {
                command
                    .iter()
                    .map(|word| word.replace(pattern.as_str(), item))
                    .collect()
            })
            .collect()
    } else {
        // Each run takes up to `size` groups: lines with -L, else items.
        let (groups, size) = match (max_lines, max_args, delimiter) {
            (Some(lines), None, None) => (xargs_lines(&input), lines),
            _ => (
                items.into_iter().map(|item| vec![item]).collect(),
                max_args.or(max_lines).unwrap_or(usize::MAX),
            ),
        };
        if groups.is_empty() {
            // No input: the command runs once, unless -r.
            if no_run_empty {
                Vec::new()
            } else {
                vec![command.clone()]
            }
        } else {
            groups
                .chunks(size.max(1))
                .map(|chunk| {
                    let mut words = command.clone();
                    words.extend(chunk.iter().flatten().cloned());
                    words
                })
                .collect()
        }
    };
    let mut status = 0;
    for words in batches {
        if trace {
            let shown: Vec<String> = words.iter().map(|word| traced(word)).collect();
            shell.write_stderr(format!("{}\n", shown.join(" ")).as_bytes());
        }
        let mut child = shell.child_process();
        if let Some(name) = &slot_var {
            let _ = child.export(name, "0");
        }
        let result = match child.dispatch_command(&words) {
            Ok(code) => code,
            Err(Flow::Exit(code))
            | Err(Flow::Return(code))
            | Err(Flow::Abandon(code))
            | Err(Flow::Discard(code)) => code,
            Err(other) => return Err(other),
        };
        match result {
            0 => {}
            127 => return Ok(127),
            126 => return Ok(126),
            255 => return Ok(124),
            _ => status = 123,
        }
    }
    Ok(status)
}
