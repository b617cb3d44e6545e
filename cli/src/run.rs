//! `goccia run`: seed, run the entry, report the diff, write back.

use goccia::FailureKind;

use super::args::{RunArgs, SeedFlag};
use super::prepare_and_report::{conclude, prepare};

/// Runs the command; returns the process exit code.
pub fn run(args: RunArgs, seeds: Vec<SeedFlag>, matches: &clap::ArgMatches) -> i32 {
    let prepared = match prepare(&args.sandbox, seeds, matches) {
        Ok(prepared) => prepared,
        Err(exit) => return exit,
    };
    let inline = match (&args.eval, args.entry.as_deref()) {
        (Some(source), _) => Some(source.clone()),
        (None, Some("-")) => {
            let mut source = String::new();
            if let Err(error) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut source) {
                eprintln!("goccia: cannot read the entry from stdin: {error}");
                return FailureKind::Usage.exit_code();
            }
            Some(source)
        }
        _ => None,
    };
    // `run` makes one call, then reports and exits.
    let options = goccia::CallOptions::new()
        .stream(&prepared.output)
        .process_exits_after();
    let ran = match (&inline, &args.entry) {
        (Some(source), _) => prepared.sandbox.run_code_with(source, &options),
        (None, Some(entry)) => prepared.sandbox.run_script_with(entry, &options),
        (None, None) => unreachable!("clap requires an entry or -e"),
    };
    let run = match ran {
        Ok(script) => script,
        Err(error) => {
            eprintln!("goccia: {error}");
            return FailureKind::Usage.exit_code();
        }
    };
    if let Some(failure) = &run.failure {
        eprint!("{}", failure.report);
    }
    conclude(prepared, &args.sandbox, run)
}
