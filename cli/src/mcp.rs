//! `goccia mcp`: the MCP server (docs/mcp.md) over stdio, or streamable
//! HTTP with a bearer token. The server is `goccia-mcp`; this module
//! turns the sandbox flags into its session factory and words what goes
//! wrong before anything is served.

use std::sync::Arc;

use clap::ArgMatches;
use goccia::{Approver, EscalationRequest};
use goccia_mcp::{Approval, McpConfig};

use super::args::{McpArgs, SeedFlag};
use super::prepare_and_report::{extras, sandbox_spec, setup_error};

fn usage(message: String) -> i32 {
    eprintln!("goccia: {message}");
    2
}

/// Flags that shape a run's report on the command line, which an MCP
/// session has no use for: refused rather than silently ignored.
fn report_flag(matches: &ArgMatches) -> Option<&'static str> {
    let given = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    [
        ("json", "--json"),
        ("diff", "--diff"),
        ("diff_format", "--diff-format"),
        ("diff_output", "--diff-output"),
        ("diff_root", "--diff-root"),
    ]
    .into_iter()
    .find(|(id, _)| given(id))
    .map(|(_, flag)| flag)
}

/// Runs the command; returns the process exit code.
pub fn mcp(args: McpArgs, seeds: Vec<SeedFlag>, matches: &ArgMatches) -> i32 {
    if let Some(flag) = report_flag(matches) {
        return usage(format!(
            "{flag} has no meaning for goccia mcp (the diff tool answers in either format)"
        ));
    }
    let spec = match sandbox_spec(&args.sandbox, seeds, matches) {
        Ok(spec) => spec,
        Err(message) => return usage(message),
    };
    if matches!(
        spec.approve,
        goccia::Approve::Prompt | goccia::Approve::Callback | goccia::Approve::Console
    ) {
        return usage(format!(
            "--approve {} is not available for goccia mcp: use client, never or always",
            spec.approve
        ));
    }
    if args.allow_write_back && args.sandbox.copy_rw.is_empty() {
        return usage("--allow-write-back needs a --copy-rw folder to write back to".to_string());
    }
    let token = match (&args.http, &args.token_file) {
        (Some(_), None) => {
            return usage(
                "--http requires --token-file (the bearer token clients must send)".into(),
            );
        }
        (None, Some(_)) => {
            return usage("--token-file only applies with --http".into());
        }
        // One token per line, each a caller of its own (docs/mcp.md).
        (Some(_), Some(path)) => match std::fs::read_to_string(path) {
            Ok(text) if !text.trim().is_empty() => Some(
                text.lines()
                    .map(str::trim)
                    .filter(|line| !line.is_empty())
                    .map(str::to_string)
                    .collect::<Vec<_>>(),
            ),
            Ok(_) => {
                return usage(format!(
                    "--token-file {}: the file is empty",
                    path.display()
                ));
            }
            Err(error) => return usage(format!("--token-file {}: {error}", path.display())),
        },
        (None, None) => None,
    };
    // One trail for the server (its --audit-log); each session records
    // into a scoped trail of its own that reports to it.
    let audit = match &spec.audit_log {
        Some(path) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(file) => goccia::Audit::new(Some(Box::new(file))),
            Err(error) => return usage(format!("--audit-log {}: {error}", path.display())),
        },
        None => goccia::Audit::default(),
    };
    let approval = match spec.approve {
        goccia::Approve::Client => Approval::Client,
        _ => Approval::Sandbox,
    };
    let base = match extras(&spec, false) {
        Ok(extras) => extras,
        Err(message) => return usage(message),
    };
    let factory = move |approver: Option<Arc<dyn Approver>>| {
        let mut extras = base.clone();
        extras.audit = Some(audit.scoped());
        extras.advice = Some(super::advice::for_mcp());
        if let Some(approver) = approver {
            extras.approver = Some(Arc::new(move |request: &EscalationRequest| {
                approver.decide(request)
            }));
        }
        goccia::SandboxBuilder::from_spec(spec.clone())
            .extras(extras)
            .build()
    };
    let config = McpConfig::new(factory)
        .write_back(args.allow_write_back)
        .approval(approval)
        .handle_idle_ttl(std::time::Duration::from_secs(args.handle_idle_ttl));
    // (--http without --token-file was refused above.)
    let (Some(address), Some(token)) = (args.http, token) else {
        // Stdio: the server's own runtime (goccia_mcp::run_stdio).
        return match goccia_mcp::run_stdio(config) {
            Ok(()) => 0,
            Err(error) => failed(error),
        };
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("goccia: cannot start the MCP server's runtime: {error}");
            return 70;
        }
    };
    let served = runtime.block_on(async move {
        let loopback = address
            .parse::<std::net::SocketAddr>()
            .ok()
            .filter(|address| address.ip().is_loopback());
        let Some(bind) = loopback else {
            return Err(usage(format!(
                "--http {address}: not a loopback address such as 127.0.0.1:8765"
            )));
        };
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .map_err(|error| usage(format!("--http {address}: {error}")))?;
        let stop = crate::stop_requested().map_err(|error| {
            eprintln!("goccia: cannot watch for SIGTERM: {error}");
            70
        })?;
        let bound = listener.local_addr().map_or(bind, |a| a);
        eprintln!("goccia: MCP listening on http://{bound}/mcp");
        goccia_mcp::serve_http(config, listener, token, stop)
            .await
            .map_err(failed)
    });
    // Blocking threads may still hold a finished session's sandbox.
    runtime.shutdown_background();
    match served {
        Ok(()) => 0,
        Err(exit) => exit,
    }
}

/// A server that stopped on an error: a sandbox the flags cannot make is
/// a usage error (exit 2), anything else internal (70).
fn failed(error: goccia_mcp::McpError) -> i32 {
    match error {
        goccia_mcp::McpError::Setup(error) => usage(setup_error(&error)),
        error => {
            eprintln!("goccia: the MCP server failed: {error}");
            70
        }
    }
}
