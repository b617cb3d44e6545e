//! `goccia run`: seed, run the entry, report the diff, write back.

use goccia_core::FailureKind;

use super::args::{RunArgs, SeedFlag};
use super::report::{Finished, conclude, prepare};

/// Runs the command; returns the process exit code.
pub fn run(args: RunArgs, seeds: Vec<SeedFlag>) -> i32 {
    let prepared = match prepare(&args.sandbox, seeds) {
        Ok(prepared) => prepared,
        Err(exit) => return exit,
    };
    let script = match prepared.sandbox.run_script(&args.entry, &prepared.output) {
        Ok(script) => script,
        Err(error) => {
            eprintln!("goccia: {error}");
            return FailureKind::Usage.exit_code();
        }
    };
    let outcome = &script.outcome;
    if let Some(failure) = &outcome.failure {
        eprint!("{}", failure.report);
    }
    let finished = Finished {
        exit: outcome.exit_code(),
        failure: outcome
            .failure
            .as_ref()
            .map(|f| (f.kind, f.message.clone())),
        duration: script.duration,
        memory_bytes: Some(outcome.memory_used),
    };
    conclude(prepared, &args.sandbox, finished)
}
