//! What `run` and `shell` do once the guest has finished: set up the
//! sandbox from the flags, print or save the diff, write back, and with
//! `--json` print the envelope.

use std::io::Write;
use std::sync::Arc;

use goccia_core::{Capture, FailureKind, Output, OutputBudget};
use goccia_vfs::write_back::WriteBackReport;
use serde_json::{Value, json};

use super::args::{SandboxArgs, SeedFlag};
use crate::{Audit, Run, Sandbox, SandboxBuilder, WriteBackOutcome};

/// A seeded sandbox and where its output goes, or the exit code of a
/// usage error (reported; nothing ran).
pub struct Prepared {
    pub sandbox: Sandbox,
    pub output: Output,
    pub budget: Arc<OutputBudget>,
    /// With `--json`: the guest's stdout and stderr, kept for the envelope.
    pub captured: Option<(Capture, Capture)>,
}

pub fn prepare(args: &SandboxArgs, seeds: Vec<SeedFlag>) -> Result<Prepared, i32> {
    let limits = args.limits();
    if let Some(path) = &args.diff_output
        && let Some(problem) = unwritable(path)
    {
        eprintln!("goccia: --diff-output {}: {problem}", path.display());
        return Err(FailureKind::Usage.exit_code());
    }
    let audit = match audit(args) {
        Ok(audit) => audit,
        Err(message) => {
            eprintln!("goccia: {message}");
            return Err(FailureKind::Usage.exit_code());
        }
    };
    let mut builder = SandboxBuilder::new()
        .limits(limits.clone())
        .mode(args.mode.into())
        .network(args.network())
        .audit(audit);
    for seed in seeds {
        builder = match seed {
            SeedFlag::Seed { host, target } => builder.seed(host, target.as_deref()),
            SeedFlag::CopyRw { host, target } => builder.copy_rw(host, target.as_deref()),
            SeedFlag::Config(path) => builder.seed_config(path),
        };
    }
    let sandbox = builder.build().map_err(|error| {
        eprintln!("goccia: {error}");
        FailureKind::Usage.exit_code()
    })?;
    let budget = OutputBudget::new(limits.max_output);
    let (output, captured) = if args.json {
        let (output, out, err) = Output::captured(budget.clone());
        (output, Some((out, err)))
    } else {
        (Output::process(budget.clone()), None)
    };
    Ok(Prepared {
        sandbox,
        output,
        budget,
        captured,
    })
}

/// The audit trail: on with `--audit-log` (also written to the file, a
/// line per event, appended) or `--json` (for the envelope).
fn audit(args: &SandboxArgs) -> Result<Audit, String> {
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
    let diff = args.wants_diff().then(|| sandbox.diff(args.diff_format));
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
        let failure_kind = match (&run.failure, exit) {
            (_, 0) => None,
            (Some(failure), _) => Some(failure.kind),
            (None, _) => Some(FailureKind::ScriptError),
        };
        let error = match (&run.failure, &write_back) {
            (Some(failure), _) => Value::String(failure.message.clone()),
            (None, Value::Object(map)) if map.contains_key("error") => map["error"].clone(),
            _ => Value::Null,
        };
        let usage = sandbox.usage();
        let envelope = json!({
            "ok": exit == 0,
            "exitCode": exit,
            "failureKind": failure_kind.map(|k| k.as_str()),
            "stdout": String::from_utf8_lossy(&out.take()),
            "stderr": String::from_utf8_lossy(&err.take()),
            "error": error,
            "diff": diff,
            "writeBack": write_back,
            "events": sandbox.engine().audit.events(),
            "stats": {
                "durationMs": run.duration.as_secs_f64() * 1000.0,
                "memoryBytes": run.memory_used,
                "fsBytes": usage.bytes,
                "fsNodes": usage.nodes,
                "outputBytes": budget.used(),
            },
        });
        println!("{envelope}");
    }
    exit
}

/// Writes `--copy-rw` changes back after a successful run; the report for
/// the envelope (`null` without `--copy-rw`). A refusal fails the run.
fn write_back(sandbox: &Sandbox, run: &mut Run) -> Value {
    match sandbox.write_back_after(run) {
        Ok(WriteBackOutcome::NoMappings) => Value::Null,
        Ok(WriteBackOutcome::Skipped { exit_code }) => {
            eprintln!(
                "goccia: write-back skipped: the run failed (exit {exit_code}); nothing was written"
            );
            json!({ "skipped": "the run failed" })
        }
        Ok(WriteBackOutcome::Written(report)) => {
            eprint!("{}", report.render());
            report_json(&report)
        }
        Err(error) => {
            eprintln!("goccia: {error}");
            run.exit_code = FailureKind::ScriptError.exit_code();
            json!({ "error": error.to_string() })
        }
    }
}

fn report_json(report: &WriteBackReport) -> Value {
    json!({
        "written": report.written.iter().map(|w| json!({
            "path": w.sandbox_path.to_string(),
            "hostPath": w.host_path.display().to_string(),
        })).collect::<Vec<_>>(),
        "skipped": report.skipped.iter().map(|s| json!({
            "path": s.sandbox_path.to_string(),
            "reason": s.reason.to_string(),
        })).collect::<Vec<_>>(),
        "summary": report.summary(),
    })
}

/// Why `path` cannot take the diff, checked before anything runs.
fn unwritable(path: &std::path::Path) -> Option<String> {
    if path.is_dir() {
        return Some("is a directory".to_string());
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty())?;
    (!parent.is_dir()).then(|| format!("folder {} does not exist", parent.display()))
}
