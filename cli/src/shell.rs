//! `goccia shell`: the virtual shell over a seeded sandbox. `-c` runs a
//! command line, a path runs a script from the VFS, otherwise stdin is the
//! script, or with a terminal on stdin an interactive session.

use std::io::IsTerminal;
use std::time::Instant;

use goccia::{FailureKind, ShellRun, ShellSession, Stdin};

use super::args::{SeedFlag, ShellArgs};
use super::interactive;
use super::prepare_and_report::{Prepared, conclude, prepare};

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
pub fn shell(args: ShellArgs, seeds: Vec<SeedFlag>, matches: &clap::ArgMatches) -> i32 {
    let prepared = match prepare(&args.sandbox, seeds, matches) {
        Ok(prepared) => prepared,
        Err(exit) => return exit,
    };
    let started = Instant::now();
    let run = match run_mode(&prepared, mode(&args)) {
        Ok(run) => run,
        Err(exit) => return exit,
    };
    let run = run.into_run(started);
    if let Some(failure) = &run.failure {
        eprint!("{}", failure.report);
    }
    conclude(prepared, &args.sandbox, run)
}

/// Whether the shell will be interactive (its own Ctrl-C handler).
pub fn is_interactive(args: &ShellArgs) -> bool {
    matches!(mode(args), Mode::Interactive)
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

/// Runs the mode's session; the exit code of a failure to start one.
fn run_mode(prepared: &Prepared, mode: Mode) -> Result<ShellRun, i32> {
    let sandbox = &prepared.sandbox;
    let session = |stdin| -> Result<ShellSession, i32> {
        sandbox
            .shell_session(&prepared.output, stdin)
            .map_err(|error| {
                eprintln!("goccia: {error}");
                match error {
                    // Isolation asked for and not to be had: nothing ran.
                    goccia::RunError::SandboxUnavailable(_) => FailureKind::Usage.exit_code(),
                    _ => FailureKind::HostError.exit_code(),
                }
            })
    };
    Ok(match mode {
        Mode::Interactive => interactive::run(session(Stdin::Empty)?, sandbox.clone()),
        Mode::Stdin => {
            let mut source = String::new();
            if let Err(error) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut source) {
                eprintln!("goccia: cannot read the script from stdin: {error}");
                return Ok(ended(FailureKind::Usage.exit_code()));
            }
            session(Stdin::Empty)?.run_script(&source)
        }
        Mode::CommandLine { source, arg0, args } => {
            let mut session = session(host_stdin())?;
            session.set_positional(arg0.as_deref().unwrap_or("bash"), args);
            session.run_script(&source)
        }
        Mode::Script { path, args } => {
            let source = match sandbox.read(&path) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(error) => {
                    eprintln!("goccia: {error}");
                    return Ok(ended(127));
                }
            };
            let mut session = session(host_stdin())?;
            session.set_positional(&path, args);
            session.run_script_file(&path, &source)
        }
    })
}

/// A run that ended before the shell started, with `exit_code`.
fn ended(exit_code: i32) -> ShellRun {
    ShellRun {
        exit_code,
        stop: None,
        failure: None,
    }
}

/// The process's stdin as the shell's. A character device that is not a
/// terminal (`/dev/null`, as harnesses pass) holds nothing: the shell gets
/// no stdin, as a real process would see nothing to read (so `rg` with no
/// path searches the working folder, as ripgrep does).
fn host_stdin() -> Stdin {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    let device = rustix::fs::fstat(&stdin).is_ok_and(|stat| {
        rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::CharacterDevice
    });
    if device && !stdin.is_terminal() {
        return Stdin::Empty;
    }
    Stdin::Reader(Box::new(stdin))
}
