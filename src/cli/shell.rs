//! `goccia shell`: the virtual shell over a seeded sandbox. `-c` runs a
//! command line, a path runs a script from the VFS, otherwise stdin is the
//! script, or with a terminal on stdin an interactive session.

use std::io::IsTerminal;
use std::time::Instant;

use goccia_core::{FailureKind, Watch};
use goccia_shell::io::{Fd, pipe};

use super::args::{SeedFlag, ShellArgs};
use super::interactive;
use super::report::{Prepared, conclude, prepare};
use crate::ShellRun;
use crate::session::on_shell_stack;

/// What the shell is to run.
enum Mode {
    CommandLine {
        source: String,
        arg0: Option<String>,
        args: Vec<String>,
    },
    Script {
        path: String,
        args: Vec<String>,
    },
    Stdin,
    Interactive,
}

/// Runs the command; returns the process exit code.
pub fn shell(args: ShellArgs, seeds: Vec<SeedFlag>) -> i32 {
    let prepared = match prepare(&args.sandbox, seeds) {
        Ok(prepared) => prepared,
        Err(exit) => return exit,
    };
    let mode = mode(&args);
    let started = Instant::now();
    let run = match on_shell_stack(|| run_mode(&prepared, mode)) {
        Ok(run) => run,
        Err(error) => {
            eprintln!("goccia: {error}");
            return FailureKind::HostError.exit_code();
        }
    };
    let run = run.into_run(started);
    if let Some(failure) = &run.failure {
        eprint!("{}", failure.report);
    }
    conclude(prepared, &args.sandbox, run)
}

fn mode(args: &ShellArgs) -> Mode {
    if let Some(source) = &args.command {
        let mut rest = args.args.iter().cloned();
        return Mode::CommandLine {
            source: source.clone(),
            arg0: rest.next(),
            args: rest.collect(),
        };
    }
    match args.args.split_first() {
        Some((path, rest)) => Mode::Script {
            path: path.clone(),
            args: rest.to_vec(),
        },
        None if std::io::stdin().is_terminal() => Mode::Interactive,
        None => Mode::Stdin,
    }
}

fn run_mode(prepared: &Prepared, mode: Mode) -> ShellRun {
    let sandbox = &prepared.sandbox;
    match mode {
        Mode::Interactive => {
            let session = sandbox.shell_session(&prepared.output, Fd::null_input());
            interactive::run(session, sandbox)
        }
        Mode::Stdin => {
            let mut source = String::new();
            if let Err(error) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut source) {
                eprintln!("goccia: cannot read the script from stdin: {error}");
                return usage_failure();
            }
            let mut session = sandbox.shell_session(&prepared.output, Fd::null_input());
            session.run_script(&source)
        }
        Mode::CommandLine { source, arg0, args } => {
            let mut session = sandbox.shell_session(&prepared.output, host_stdin(sandbox));
            session.set_positional(arg0.as_deref().unwrap_or("bash"), args);
            session.run_script(&source)
        }
        Mode::Script { path, args } => {
            let source = match sandbox.read(&path) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(error) => {
                    eprintln!("goccia: {error}");
                    return ShellRun {
                        exit_code: 127,
                        stopped: None,
                    };
                }
            };
            let mut session = sandbox.shell_session(&prepared.output, host_stdin(sandbox));
            session.set_positional(&path, args);
            session.run_script_file(&path, &source)
        }
    }
}

fn usage_failure() -> ShellRun {
    ShellRun {
        exit_code: FailureKind::Usage.exit_code(),
        stopped: None,
    }
}

/// The process's stdin as the shell's: pumped through a pipe so a command
/// waiting on it still stops at the deadline.
fn host_stdin(sandbox: &crate::Sandbox) -> Fd {
    let (mut writer, reader) = pipe(&Watch::new(sandbox.limits().timeout));
    // The pump ends with stdin or when the shell stops reading; a pump
    // blocked on a silent stdin ends with the process.
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut std::io::stdin().lock(), &mut writer);
    });
    Fd::reader(reader)
}
