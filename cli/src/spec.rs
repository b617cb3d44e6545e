//! `goccia spec [flags]`: the effective sandbox spec, as JSON, that the
//! flags (and `--spec`) describe — what `run` or `shell` with the same
//! flags would build, and what `--spec` reads back.

use clap::ArgMatches;

use super::args::{SandboxArgs, SeedFlag};
use super::prepare_and_report::sandbox_spec;

/// Prints the spec; 2 with the problem when the flags describe none.
pub fn print(args: &SandboxArgs, seeds: Vec<SeedFlag>, matches: &ArgMatches) -> i32 {
    match sandbox_spec(args, seeds, matches) {
        Ok(mut spec) => {
            // Host paths absolute, so `--spec` reads the file back from
            // anywhere.
            if let Ok(here) = std::env::current_dir() {
                spec.resolve_host_paths(&here);
            }
            println!("{}", spec.to_json());
            0
        }
        Err(message) => {
            eprintln!("goccia: {message}");
            2
        }
    }
}
