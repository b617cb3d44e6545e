//! `goccia run`: seed, run the entry, report the diff, write back.

use goccia::FailureKind;

use super::args::{RunArgs, SeedFlag};
use super::report::{conclude, prepare};

/// Runs the command; returns the process exit code.
pub fn run(args: RunArgs, seeds: Vec<SeedFlag>) -> i32 {
    let prepared = match prepare(&args.sandbox, seeds) {
        Ok(prepared) => prepared,
        Err(exit) => return exit,
    };
    let run = match prepared
        .sandbox
        .run_script_with(&args.entry, &prepared.output)
    {
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
