//! What `run` and `shell` do around the guest: set up the sandbox from the
//! flags, then print or save the diff, write back, and with `--json` print
//! the library's envelope.

use std::io::Write;
use std::sync::Arc;

use goccia::{
    Audit, Capture, Envelope, FailureKind, Output, OutputBudget, Run, Sandbox, SandboxBuilder,
    SetupError, WriteBackOutcome, WriteBackSummary,
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
pub fn prepare(args: &SandboxArgs, seeds: Vec<SeedFlag>) -> Result<Prepared, i32> {
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
    let audit = audit(args).map_err(usage)?;
    let builder = sandbox_builder(args, seeds, audit);
    let builder = match isolation(args) {
        Ok(isolation) => builder.isolation(isolation),
        Err(error) => return Err(usage(error)),
    };
    let limits = args.limits();
    let sandbox = builder
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

/// The builder the flags describe: seeds in command-line order, limits,
/// network, policy and approver, with `audit` as its trail.
pub fn sandbox_builder(args: &SandboxArgs, seeds: Vec<SeedFlag>, audit: Audit) -> SandboxBuilder {
    let limits = args.limits();
    let mut builder = SandboxBuilder::new()
        .limits(limits.clone())
        .mode(args.mode.into())
        .network(args.network())
        .audit(audit)
        .advice(advice::flags())
        .gitignore(args.gitignore)
        .symlinks(args.symlinks)
        .policy(args.policy);
    for path in &args.writable {
        builder = builder.writable(path.clone());
    }
    match args.approve.as_str() {
        "always" => {
            builder =
                builder.approver(|_: &goccia::EscalationRequest| goccia::Decision::AllowedOnce)
        }
        "prompt" => builder = builder.approver(super::approve::ask_on_terminal),
        _ => {}
    }
    for pattern in &args.exclude {
        builder = builder.exclude(pattern.clone());
    }
    for spec in &args.host_command {
        builder = match spec.split_once('=') {
            Some((name, path)) => builder.host_command(name, Some(std::path::Path::new(path))),
            None => builder.host_command(spec, None),
        };
    }
    builder = builder.host_command_memory(args.host_command_memory);
    for (name, value) in &args.env {
        builder = builder.env(name.clone(), value.clone());
    }
    for seed in seeds {
        builder = match seed {
            SeedFlag::Seed { host, target } => builder.seed(host, target.as_deref()),
            SeedFlag::CopyRw { host, target } => builder.copy_rw(host, target.as_deref()),
            SeedFlag::Config(path) => builder.seed_config(path),
        };
    }
    builder
}

/// `--isolate`: this very binary is the worker (with a test build's
/// overrides, see `WorkerProgram::test_overrides`).
fn isolation(args: &SandboxArgs) -> Result<goccia::isolation::Isolation, String> {
    super::isolate::isolation_named(&args.isolate)
}

/// A build error in the CLI's words (limits named by their flags).
pub fn setup_error(error: &SetupError) -> String {
    let advice = match (error, error.limit()) {
        // The message states the valid range, which may be below.
        (SetupError::Limits(_), Some(kind)) => advice::set_limit(kind),
        (_, Some(kind)) => advice::flags().for_limit(kind),
        _ => String::new(),
    };
    format!("{error}{advice}")
}

/// The audit trail: on with `--audit-log` (also written to the file, a
/// line per event, appended) or `--json` (for the envelope).
pub fn audit(args: &SandboxArgs) -> Result<Audit, String> {
    match &args.audit_log {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|error| format!("--audit-log {}: {error}", path.display()))?;
            Ok(Audit::new(Some(Box::new(file))))
        }
        None if args.json => Ok(Audit::new(None)),
        None => Ok(Audit::default()),
    }
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
            .with_output_truncated(budget.truncated())
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
