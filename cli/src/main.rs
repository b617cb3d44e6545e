//! The `goccia` command line: a thin layer over the library. It uses only
//! `goccia::`'s public API: flags become a builder, the library runs,
//! reports and writes back; these modules word the output.

/// Counts the process's Rust allocations, so the shell's work (a `jq`
/// value, awk arrays) is held to `--max-memory` above what the VFS may
/// hold; see `goccia::host_memory`.
#[global_allocator]
static ALLOCATOR: goccia::host_memory::Counting = goccia::host_memory::Counting;

fn main() {
    // A worker of `--isolate process` confines itself before anything
    // else starts (no thread, no argument parsing of the user's).
    if let Some(code) = goccia::isolation::run_worker_if_requested() {
        std::process::exit(code);
    }
    let code = dispatch();
    // `exit` runs no destructor: the host folders of host commands go here.
    goccia::remove_scratch_trees();
    std::process::exit(code);
}

/// For `run` and `shell`: a termination signal (and, unless a handler of
/// its own takes Ctrl-C, an interrupt) removes the host folders of host
/// commands before the process ends, with the exit code a shell reports
/// for a death by that signal (128 + its number). `serve` and `mcp`
/// finish their calls on SIGTERM and return through `main`.
fn end_cleanly_on_signals(interrupt_too: bool) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = vec![SIGTERM, SIGHUP];
    if interrupt_too {
        signals.push(SIGINT);
    }
    let Ok(mut signals) = signal_hook::iterator::Signals::new(signals) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            goccia::remove_scratch_trees();
            std::process::exit(128 + signal);
        }
    });
}

/// For `run`, a short life on one JS thread: every thread allocates from
/// the main heap. A thread's own glibc arena grows a page at a time, each
/// an `mprotect` (some 70 calls and 50 page faults in a cold hello world,
/// ~5% of it); the servers keep per-thread arenas, which their many
/// threads need. Called before any thread starts.
fn one_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; no thread other
    // than this one exists yet.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// For `serve` and `mcp --http`: a future that ends at SIGTERM or SIGINT.
/// The handlers are installed by this call, before the server says it is
/// listening, not at the future's first poll: a signal that came between
/// the two would otherwise end the process by its default action, with
/// calls cut short and no "server stopped". Call it inside the runtime.
fn stop_requested() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => {}
            _ = interrupt.recv() => {}
        }
    })
}

mod advice;
mod approve;
mod args;
mod interactive;
mod isolate;
mod mcp;
mod prepare_and_report;
mod run;
mod serve;
mod shell;
mod spec;
mod spec_args;

use clap::FromArgMatches;

use args::{Cli, Command, seed_order};

/// Parses the process arguments and runs the command; returns the exit
/// code. Usage errors exit 2 before anything runs.
fn dispatch() -> i32 {
    let matches = args::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let (_, sub) = matches.subcommand().expect("a subcommand is required");
    // Kept until the command returns: dropping it sends what is left.
    let _tracing = match &cli.globals.otlp {
        Some(url) => match goccia::telemetry::Tracing::start(url, "goccia") {
            Ok(tracing) => Some(tracing),
            Err(error) => {
                eprintln!("goccia: --otlp: {error}");
                return 2;
            }
        },
        None => None,
    };
    match cli.command {
        Command::Run(args) => {
            one_heap();
            end_cleanly_on_signals(true);
            let seeds = seed_order(sub, &args.sandbox);
            run::run(args, seeds, sub)
        }
        Command::Shell(args) => {
            end_cleanly_on_signals(!shell::is_interactive(&args));
            let seeds = seed_order(sub, &args.sandbox);
            shell::shell(args, seeds, sub)
        }
        Command::Mcp(args) => {
            let seeds = seed_order(sub, &args.sandbox);
            mcp::mcp(args, seeds, sub)
        }
        Command::Serve(args) => serve::serve(args, sub),
        Command::Spec(args) => {
            let seeds = seed_order(sub, &args);
            spec::print(&args, seeds, sub)
        }
        Command::Log(args) => serve::log(args),
    }
}
