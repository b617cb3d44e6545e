//! The `goccia` command line: a thin layer over the library. It uses only
//! `goccia::`'s public API: flags become a builder, the library runs,
//! reports and writes back; this module words the output.

mod advice;
mod approve;
mod args;
mod interactive;
mod report;
mod run;
mod shell;

use clap::{CommandFactory, FromArgMatches};

use args::{Cli, Command, seed_order};

/// Parses the process arguments and runs the command; returns the exit
/// code. Usage errors exit 2 before anything runs.
pub fn main() -> i32 {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let (_, sub) = matches.subcommand().expect("a subcommand is required");
    match cli.command {
        Command::Run(args) => {
            let seeds = seed_order(sub, &args.sandbox);
            run::run(args, seeds)
        }
        Command::Shell(args) => {
            let seeds = seed_order(sub, &args.sandbox);
            shell::shell(args, seeds)
        }
    }
}
