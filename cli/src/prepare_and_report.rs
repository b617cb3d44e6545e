//! What `run` and `shell` do around the guest: set up the sandbox from the
//! flags, then print or save the diff, write back, and with `--json` print
//! the library's envelope.

use std::io::Write;
use std::sync::Arc;

use clap::ArgMatches;
use goccia::{
    Capture, Envelope, Extras, FailureKind, Output, OutputBudget, Run, Sandbox, SandboxBuilder,
    SandboxSpec, SeedSpec, SetupError, WriteBackOutcome, WriteBackSummary,
};

use super::advice;
use super::args::{SandboxArgs, SeedFlag};

/// A seeded sandbox and where its output goes.
pub struct Prepared {
    pub sandbox: Arc<Sandbox>,
    pub output: Output,
    pub budget: Arc<OutputBudget>,
    /// With `--json`: the guest's stdout and stderr, kept for the envelope.
    pub captured: Option<(Capture, Capture)>,
}

/// The sandbox the flags describe, or the exit code of a usage error
/// (reported; nothing ran).
pub fn prepare(
    args: &SandboxArgs,
    seeds: Vec<SeedFlag>,
    matches: &ArgMatches,
) -> Result<Prepared, i32> {
    let usage = |message: String| {
        eprintln!("goccia: {message}");
        FailureKind::Usage.exit_code()
    };
    if let Some(root) = &args.diff_root {
        if !root.starts_with('/') {
            return Err(usage(format!(
                "--diff-root {root}: not an absolute sandbox path (such as /work)"
            )));
        }
        if let Err(error) = goccia::VfsPath::parse(root) {
            return Err(usage(format!("--diff-root {root}: {error}")));
        }
    }
    if let Some(path) = &args.diff_output
        && let Some(problem) = unwritable(path)
    {
        return Err(usage(format!(
            "--diff-output {}: {problem}",
            path.display()
        )));
    }
    let spec = sandbox_spec(args, seeds, matches).map_err(usage)?;
    let extras = extras(&spec, args.json).map_err(usage)?;
    let limits = spec.limits.to_limits();
    let sandbox = SandboxBuilder::from_spec(spec)
        .extras(extras)
        .build()
        .map_err(|error| usage(setup_error(&error)))?;
    for link in sandbox.seed_skipped() {
        eprintln!(
            "goccia: seed skipped the symlink {}",
            goccia::shown_path(link)
        );
    }
    let budget = OutputBudget::for_limits(&limits);
    let (output, captured) = if args.json {
        let (output, out, err) = Output::captured(budget.clone());
        (output, Some((out, err)))
    } else {
        (Output::process(budget.clone()), None)
    };
    Ok(Prepared {
        sandbox: Arc::new(sandbox),
        output,
        budget,
        captured,
    })
}

/// The spec the flags describe: `--spec`'s file and the flags given over
/// it, then the seeding flags in command-line order.
pub fn sandbox_spec(
    args: &SandboxArgs,
    seeds: Vec<SeedFlag>,
    matches: &ArgMatches,
) -> Result<SandboxSpec, String> {
    let mut spec = args.spec.to_spec(matches)?;
    spec.seeds.extend(seeds.into_iter().map(|seed| match seed {
        SeedFlag::Seed { host, target } => SeedSpec::Host {
            from: host.into(),
            to: target,
            copy_rw: false,
        },
        SeedFlag::CopyRw { host, target } => SeedSpec::Host {
            from: host.into(),
            to: target,
            copy_rw: true,
        },
        SeedFlag::Config(config) => SeedSpec::Config { config },
    }));
    spec.validate()
        .map_err(|error| error.spelled(goccia::Spelling::Flag))?;
    Ok(spec)
}

/// What the command line gives the build besides the spec: the terminal
/// as approver for `--approve prompt`, events kept for `--json`, advice in
/// flags, and this program as the worker.
pub fn extras(spec: &SandboxSpec, json: bool) -> Result<Extras, String> {
    let approver: Option<Arc<dyn goccia::Approver>> = match spec.approve {
        goccia::Approve::Prompt => Some(Arc::new(super::approve::ask_on_terminal)),
        _ => None,
    };
    let worker = match spec.isolation {
        goccia::IsolationMode::Process => Some(super::isolate::worker_program()?),
        goccia::IsolationMode::None => None,
    };
    Ok(Extras {
        approver,
        keep_events: json,
        advice: Some(advice::flags()),
        worker,
        ..Extras::default()
    })
}

/// A build error in the CLI's words (limits and settings named by their
/// flags).
pub fn setup_error(error: &SetupError) -> String {
    error.spelled(goccia::Spelling::Flag)
}

/// Diff, write-back and envelope; returns the process exit code.
pub fn conclude(prepared: Prepared, args: &SandboxArgs, mut run: Run) -> i32 {
    let Prepared {
        sandbox,
        budget,
        captured,
        ..
    } = prepared;
    // What truncate mode held back lands before the diff.
    budget.finish();
    let diff = args.wants_diff().then(|| match &args.diff_root {
        Some(root) => sandbox
            .diff_rooted(args.diff_format, root)
            .expect("--diff-root was checked before the run"),
        None => sandbox.diff(args.diff_format),
    });
    if let Some(text) = &diff {
        match &args.diff_output {
            Some(path) => {
                if let Err(error) = std::fs::write(path, text) {
                    eprintln!(
                        "goccia: cannot write --diff-output {}: {error}",
                        path.display()
                    );
                    // A lost diff is a failed run: nothing is written back.
                    run.exit_code = run.exit_code.max(FailureKind::ScriptError.exit_code());
                }
            }
            None if !args.json => {
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(text.as_bytes());
                let _ = stdout.flush();
            }
            None => {}
        }
    }
    let write_back = write_back(&sandbox, &mut run);
    let exit = run.exit_code;
    if let Some((out, err)) = captured {
        let envelope = Envelope::new(&sandbox, &run)
            .with_output(&out.take(), &err.take())
            .with_output_bytes(budget.used())
            .with_diff(diff)
            .with_write_back(write_back)
            .with_exit_code(exit);
        println!(
            "{}",
            serde_json::to_string(&envelope).expect("the envelope serialises")
        );
    }
    exit
}

/// Writes `--copy-rw` changes back after a successful run and reports on
/// stderr; the summary for the envelope. A refusal fails the run.
fn write_back(sandbox: &Sandbox, run: &mut Run) -> Option<WriteBackSummary> {
    let outcome = sandbox.write_back_after(run);
    match &outcome {
        Ok(WriteBackOutcome::NoMappings) => {}
        Ok(WriteBackOutcome::Skipped { exit_code }) => eprintln!(
            "goccia: write-back skipped: the run failed (exit {exit_code}); nothing was written"
        ),
        Ok(WriteBackOutcome::Written(report)) => {
            eprint!("{}", report.render_with(advice::skip_reason));
        }
        Err(error) => {
            eprintln!("goccia: {error}");
            run.exit_code = FailureKind::ScriptError.exit_code();
        }
    }
    WriteBackSummary::of(&outcome)
}

/// Why `path` cannot take the diff, checked before anything runs.
fn unwritable(path: &std::path::Path) -> Option<String> {
    if path.is_dir() {
        return Some("is a directory".to_string());
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty())?;
    (!parent.is_dir()).then(|| format!("folder {} does not exist", parent.display()))
}
