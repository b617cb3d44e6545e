//! `bash` and `sh`: a child shell (a new process in real bash): only
//! exported variables, the same VFS and descriptors. With `-i` it is
//! interactive (history, prompts, `--rcfile`), reading a `-c` string, a
//! script file or its standard input (see `crate::interp::interactive`).

use crate::interp::{ExecResult, Flow, Shell};

pub fn bash(shell: &mut Shell, args: &[String]) -> ExecResult {
    let name = args[0].clone();
    let mut child = shell.child_process();
    let mut command: Option<String> = None;
    let mut syntax_only = false;
    let mut from_stdin = false;
    let mut interactive = false;
    let mut rcfile: Option<String> = None;
    let mut norc = false;
    let mut noediting = false;
    let mut short_seen = false;
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        if command.is_some() || from_stdin {
            break;
        }
        // Long options come first: after a short one, bash reads `--x`
        // as the letters `-`, `x`, ... and refuses the first.
        if short_seen && arg.len() > 2 && arg.starts_with("--") {
            return Ok(shell.fail_command(
                &name,
                &format!("--: invalid option\nUsage:\t{name} [GNU long option] [option] ..."),
                2,
            ));
        }
        short_seen |= arg.len() > 1 && arg.starts_with(['-', '+']) && !arg.starts_with("--");
        match arg {
            // A lone `-` ends the options as `--` does.
            "--" | "-" => {
                i += 1;
                break;
            }
            "--version" => {
                let text = "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu) [goccia]\n";
                return match shell.write_stdout(text.as_bytes()) {
                    Ok(()) => Ok(0),
                    Err(error) => shell.io_status(&name, error),
                };
            }
            "--norc" => norc = true,
            "--rcfile" | "--init-file" => {
                i += 1;
                match args.get(i) {
                    Some(file) => rcfile = Some(file.clone()),
                    None => {
                        let message = format!("{arg}: option requires an argument");
                        return Ok(shell.fail_command(&name, &message, 2));
                    }
                }
            }
            "--noediting" => noediting = true,
            "--noprofile" | "--login" | "--posix" | "-l" => {}
            "--help" => {
                let text =
                    format!("Usage:\t{name} [option] ...\n\t{name} [option] script-file ...\n");
                return match shell.write_stdout(text.as_bytes()) {
                    Ok(()) => Ok(0),
                    Err(error) => shell.io_status(&name, error),
                };
            }
            "-c" => {
                i += 1;
                match args.get(i) {
                    Some(text) => command = Some(text.clone()),
                    None => {
                        return Ok(shell.fail_command(&name, "-c: option requires an argument", 2));
                    }
                }
            }
            "-o" | "+o" => {
                i += 1;
                let Some(option) = args.get(i) else {
                    return Ok(shell.fail_command(
                        &name,
                        &format!("{arg}: option requires an argument"),
                        2,
                    ));
                };
                if !child.set_option_by_name(option, arg == "-o") {
                    return Ok(shell.fail_command(
                        &name,
                        &format!("{option}: invalid option name"),
                        2,
                    ));
                }
            }
            "-O" | "+O" => {
                i += 1;
                if let Some(option) = args.get(i) {
                    child.set_shopt_by_name(option, arg == "-O");
                }
            }
            _ if arg.starts_with("--") => {
                return Ok(shell.fail_command(
                    &name,
                    &format!(
                        "{arg}: invalid option\nUsage:\t{name} [GNU long option] [option] ..."
                    ),
                    2,
                ));
            }
            _ if (arg.starts_with('-') || arg.starts_with('+')) && arg.len() > 1 => {
                let on = arg.starts_with('-');
                for flag in arg[1..].chars() {
                    match flag {
                        'c' => {
                            i += 1;
                            match args.get(i) {
                                Some(text) => command = Some(text.clone()),
                                None => {
                                    return Ok(shell.fail_command(
                                        &name,
                                        "-c: option requires an argument",
                                        2,
                                    ));
                                }
                            }
                        }
                        's' => from_stdin = true,
                        'n' => syntax_only = on,
                        // Invocation flags of bash itself, not `set` options.
                        'i' => interactive = on,
                        'l' | 'r' => {}
                        other => match crate::interp::options::by_letter(other) {
                            Some(option) => {
                                child.set_option_by_name(option.name, on);
                            }
                            None => {
                                return Ok(shell.fail_command(&name, &format!("-{other}: invalid option\nUsage:\t{name} [GNU long option] [option] ..."), 2));
                            }
                        },
                    }
                }
            }
            _ => break,
        }
        i += 1;
    }
    let rest: Vec<String> = args[i.min(args.len())..].to_vec();
    let command_given = command.clone();
    let from_file = command.is_none() && !from_stdin && !rest.is_empty();
    let (arg0, source, positional) = if let Some(command) = command {
        let mut rest = rest.into_iter();
        let arg0 = rest.next().unwrap_or_else(|| name.clone());
        (arg0, command, rest.collect())
    } else if !from_stdin && !rest.is_empty() {
        let script = rest[0].clone();
        let path = match shell.cwd().resolve(&script) {
            Ok(path) => path,
            Err(_) => {
                return Ok(shell.fail_command(
                    &name,
                    &format!("{script}: No such file or directory"),
                    127,
                ));
            }
        };
        let data = shell.context().vfs.lock().read_file(&path);
        match data {
            Ok(bytes) if crate::interp::looks_binary(&bytes) => {
                let message = format!("{script}: cannot execute binary file");
                return Ok(shell.fail_command(&script, &message, 126));
            }
            Ok(bytes) => (
                script,
                crate::raw::decode(&bytes).into_owned(),
                rest[1..].to_vec(),
            ),
            Err(error) => {
                let status = if error.errno == goccia_vfs::Errno::IsDir {
                    126
                } else {
                    127
                };
                return Ok(shell.fail_command(
                    &name,
                    &format!("{script}: {}", error.errno.strerror()),
                    status,
                ));
            }
        }
    } else {
        // The script is stdin (read whole: the commands do not share it).
        let text = match crate::input::Source::stdin(crate::interp::ShellView::of(shell)).read_all()
        {
            Ok(text) => text,
            Err(error) => return shell.io_status(&name, error),
        };
        (name.clone(), crate::raw::decode_vec(text), rest)
    };
    if syntax_only {
        return match Shell::check_syntax(&source) {
            Ok(()) => Ok(0),
            Err(error) => {
                shell.write_stderr(
                    format!("{arg0}: line {}: {}\n", error.line, error.message).as_bytes(),
                );
                Ok(2)
            }
        };
    }
    child.set_positional(&arg0, positional);
    if from_file {
        child.set_script_source(&arg0);
    }
    child.runs_command_text = command_given.is_some();
    if interactive {
        child.start_interactive();
        if noediting {
            child.opts.set_named("emacs", false);
        }
        if !norc
            && let Some(file) = rcfile
            && let Some(status) = run_rcfile(&mut child, &file)?
        {
            return Ok(status);
        }
        if !from_file && command_given.is_none() {
            return child.run_interactive_session(&source).map_err(Flow::Stop);
        }
    }
    match child.run_script(&source) {
        Ok(status) => Ok(status),
        Err(stopped) => Err(Flow::Stop(stopped)),
    }
}

/// Runs an interactive shell's startup file (`--rcfile`): a syntax error
/// is reported under the file's name and the shell starts anyway; `exit`
/// there ends the shell (its status returned).
fn run_rcfile(child: &mut Shell, file: &str) -> Result<Option<i32>, Flow> {
    let Ok(path) = child.cwd().resolve(file) else {
        return Ok(None);
    };
    let Ok(bytes) = child.context().vfs.lock().read_file(&path) else {
        return Ok(None);
    };
    let text = crate::raw::decode(&bytes).into_owned();
    let arg0 = std::mem::replace(&mut child.arg0, file.to_string());
    let result = crate::builtins::flow::run_text(child, &text);
    child.arg0 = arg0;
    match result {
        Err(Flow::Exit(status)) => Ok(Some(status)),
        Err(Flow::Stop(stop)) => Err(Flow::Stop(stop)),
        _ => Ok(None),
    }
}
