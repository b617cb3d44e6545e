//! `goccia run`: seed, run the entry, report the diff, write back.

use std::io::Write;

use goccia_core::{FailureKind, Output, OutputBudget};
use goccia_vfs::write_back::WriteBackReport;
use serde_json::{Value, json};

use super::args::{RunArgs, SeedFlag};
use crate::{Sandbox, SandboxBuilder};

/// Runs the command; returns the process exit code.
pub fn run(args: RunArgs, seeds: Vec<SeedFlag>) -> i32 {
    let sandbox_args = &args.sandbox;
    let limits = sandbox_args.limits();
    if let Some(path) = &sandbox_args.diff_output
        && let Some(problem) = unwritable(path)
    {
        eprintln!("goccia: --diff-output {}: {problem}", path.display());
        return FailureKind::Usage.exit_code();
    }
    let sandbox = match build(limits.clone(), seeds) {
        Ok(sandbox) => sandbox,
        Err(error) => {
            eprintln!("goccia: {error}");
            return FailureKind::Usage.exit_code();
        }
    };
    let budget = OutputBudget::new(limits.max_output);
    let (output, captured) = if sandbox_args.json {
        let (output, out, err) = Output::captured(budget.clone());
        (output, Some((out, err)))
    } else {
        (Output::process(budget.clone()), None)
    };
    let script = match sandbox.run_script(&args.entry, &output) {
        Ok(script) => script,
        Err(error) => {
            eprintln!("goccia: {error}");
            return FailureKind::Usage.exit_code();
        }
    };
    let outcome = &script.outcome;
    let mut exit = outcome.exit_code();
    if let Some(failure) = &outcome.failure {
        eprint!("{}", failure.report);
    }

    let diff = sandbox_args
        .wants_diff()
        .then(|| sandbox.diff(sandbox_args.diff_format.into()));
    if let Some(text) = &diff {
        match &sandbox_args.diff_output {
            Some(path) => {
                if let Err(error) = std::fs::write(path, text) {
                    eprintln!(
                        "goccia: cannot write --diff-output {}: {error}",
                        path.display()
                    );
                    exit = exit.max(FailureKind::ScriptError.exit_code());
                }
            }
            None if !sandbox_args.json => {
                let mut stdout = std::io::stdout().lock();
                let _ = stdout.write_all(text.as_bytes());
                let _ = stdout.flush();
            }
            None => {}
        }
    }

    let write_back = if !sandbox.has_copy_rw() {
        Value::Null
    } else if exit != 0 {
        eprintln!("goccia: write-back skipped: the run failed (exit {exit}); nothing was written");
        json!({ "skipped": "the run failed" })
    } else {
        match sandbox.write_back() {
            Ok(report) => {
                eprint!("{}", report.render());
                report_json(&report)
            }
            Err(error) => {
                eprintln!("goccia: {error}");
                exit = FailureKind::ScriptError.exit_code();
                json!({ "error": error.to_string() })
            }
        }
    };

    if let Some((out, err)) = captured {
        let failure_kind = if exit == 0 {
            None
        } else {
            outcome
                .failure
                .as_ref()
                .map(|f| f.kind)
                .or(Some(FailureKind::ScriptError))
        };
        let error = match (&outcome.failure, &write_back) {
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
            "stats": {
                "durationMs": script.duration.as_secs_f64() * 1000.0,
                "memoryBytes": outcome.memory_used,
                "fsBytes": usage.bytes,
                "fsNodes": usage.nodes,
                "outputBytes": budget.used(),
            },
        });
        println!("{envelope}");
    }
    exit
}

fn build(limits: goccia_core::Limits, seeds: Vec<SeedFlag>) -> Result<Sandbox, crate::SetupError> {
    let mut builder = SandboxBuilder::new().limits(limits);
    for seed in seeds {
        builder = match seed {
            SeedFlag::Seed { host, target } => builder.seed(host, target.as_deref()),
            SeedFlag::CopyRw { host, target } => builder.copy_rw(host, target.as_deref()),
            SeedFlag::Config(path) => builder.seed_config(path),
        };
    }
    builder.build()
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
