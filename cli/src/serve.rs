//! `goccia serve` (the sandbox server, docs/server.md) and `goccia log` (a
//! workspace's change log). The server is `goccia-server`; this module
//! turns flags into its configuration and words what goes wrong.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use goccia::{Audit, parse_size};
use goccia_server::store::{StoreConfig, StoreError};
use goccia_server::{Server, ServerConfig, ServerError};

fn size(text: &str) -> Result<u64, String> {
    parse_size(text).map_err(|e| e.to_string())
}

fn workspace(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, dir)) if !name.is_empty() && !dir.is_empty() => {
            Ok((name.to_string(), PathBuf::from(dir)))
        }
        _ => Err(format!("`{text}` is not NAME=HOST_DIR")),
    }
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen: unix:<path>, or 127.0.0.1:<port> (port 0 picks one;
    /// the address is printed on stderr).
    #[arg(long, value_name = "ADDRESS")]
    pub listen: String,
    /// A host folder sessions are seeded from and submit to (repeatable).
    #[arg(long, value_name = "NAME=HOST_DIR", value_parser = workspace, required = true)]
    pub workspace: Vec<(String, PathBuf)>,
    /// Keep grants, open sessions and change logs in this SQLite file
    /// (they survive a restart); without it they live in memory and the
    /// change log is .goccia/changes.jsonl in each workspace.
    #[arg(long, value_name = "FILE", conflicts_with = "store")]
    pub state: Option<PathBuf>,
    /// Keep grants, sessions, snapshots and change logs in a PostgreSQL
    /// database shared with other servers (postgres://user@host:port/db);
    /// its schema is migrated at start. Unreachable: the server does not
    /// start.
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
    /// This server's name among those sharing a --store (default: the
    /// host's name and the --listen address, so a restarted server takes
    /// its sessions back).
    #[arg(long = "server-id", value_name = "ID")]
    pub server_id: Option<String>,
    /// The admin token (opens sessions) is read from this file; a missing
    /// file is created holding a new token (mode 0600). Without the flag a
    /// new token is printed on stderr.
    #[arg(long = "admin-token-file", value_name = "FILE")]
    pub admin_token_file: Option<PathBuf>,
    /// The largest request body.
    #[arg(long = "max-body", value_name = "BYTES", value_parser = size, default_value = "16m")]
    pub max_body: u64,
    /// How long a client may take to send a request's headers before its
    /// connection is closed, in milliseconds.
    #[arg(long = "header-read-timeout", value_name = "MS", default_value_t = goccia_server::connections::HEADER_READ_TIMEOUT.as_millis() as u64)]
    pub header_read_timeout: u64,
    /// Serve the web console at /console (docs/console.md): live
    /// sessions, their calls and diffs, change logs, and escalation
    /// requests to approve or deny (with --approve console). It takes the
    /// admin token.
    #[arg(long)]
    pub console: bool,
    /// The server's spec: the defaults and the ceiling of every session
    /// (a session may ask only for narrower settings); --audit-log is the
    /// server's log of every session's decisions and every refusal.
    #[command(flatten)]
    pub spec: crate::spec_args::SpecArgs,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// The workspace folder (its .goccia/changes.jsonl: the log of a
    /// server without --state or --store).
    #[arg(value_name = "WORKSPACE_DIR", required_unless_present_any = ["state", "store"])]
    pub dir: Option<PathBuf>,
    /// Read the log a server kept in this SQLite file (its --state).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["store", "dir"], requires = "workspace")]
    pub state: Option<PathBuf>,
    /// Read the log servers keep in this PostgreSQL database (their --store).
    #[arg(
        long,
        value_name = "URL",
        conflicts_with = "dir",
        requires = "workspace"
    )]
    pub store: Option<String>,
    /// With --state or --store: the workspace's name (as the server's
    /// --workspace NAME=DIR gave it).
    #[arg(long, value_name = "NAME")]
    pub workspace: Option<String>,
}

fn usage(message: String) -> i32 {
    eprintln!("goccia: {message}");
    2
}

/// The admin token: from the file (created with a new token if missing),
/// or new and printed.
fn admin_token(file: Option<&Path>) -> Result<String, String> {
    let Some(path) = file else {
        let token = goccia_server::grants::mint_admin_token();
        eprintln!("goccia: admin token: {token}");
        return Ok(token);
    };
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text.trim().to_string()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            use std::io::Write;
            use std::os::unix::fs::OpenOptionsExt;
            let token = goccia_server::grants::mint_admin_token();
            let mut file = std::fs::File::options()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path)
                .map_err(|error| format!("--admin-token-file {}: {error}", path.display()))?;
            writeln!(file, "{token}")
                .map_err(|error| format!("--admin-token-file {}: {error}", path.display()))?;
            eprintln!("goccia: wrote a new admin token to {}", path.display());
            Ok(token)
        }
        Err(error) => Err(format!("--admin-token-file {}: {error}", path.display())),
    }
}

/// Makes way for a Unix socket at `path`: nothing there, or a socket
/// nobody listens on any more (removed). Anything else is refused: a
/// regular file, a folder or a link is not the server's to delete, and a
/// socket another process answers on is in use.
fn clear_stale_socket(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::FileTypeExt;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(error.to_string()),
    };
    if !meta.file_type().is_socket() {
        return Err("a file that is not a socket is there (not replaced)".to_string());
    }
    if std::os::unix::net::UnixStream::connect(path).is_ok() {
        return Err("another server is listening on it".to_string());
    }
    std::fs::remove_file(path).map_err(|error| error.to_string())
}

/// Under `isolation: process`, starts one worker before serving, so a
/// machine where the confinement cannot be had refuses to start rather
/// than fail every session's first call.
fn worker_starts(worker: &goccia::isolation::WorkerProgram) -> Result<(), String> {
    let sandbox = goccia::Sandbox::builder()
        .isolation(goccia::isolation::Isolation::Process(worker.clone()))
        .build()
        .map_err(|error| error.to_string())?;
    sandbox.run_shell(":").map_err(|error| error.to_string())?;
    Ok(())
}

pub fn serve(args: ServeArgs, matches: &clap::ArgMatches) -> i32 {
    let token = match admin_token(args.admin_token_file.as_deref()) {
        Ok(token) => token,
        Err(message) => return usage(message),
    };
    let spec = match args.spec.to_spec(matches) {
        Ok(spec) => spec,
        Err(message) => return usage(message),
    };
    if matches!(
        spec.approve,
        goccia::Approve::Prompt | goccia::Approve::Client | goccia::Approve::Callback
    ) {
        return usage(format!(
            "--approve {} is not available for goccia serve: use never, always or console",
            spec.approve
        ));
    }
    if spec.approve == goccia::Approve::Console && !args.console {
        return usage(
            "--approve console sends requests to the web console: add --console".to_string(),
        );
    }
    let audit = match &spec.audit_log {
        Some(path) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(file) => Audit::new(Some(Box::new(file))),
            Err(error) => return usage(format!("--audit-log {}: {error}", path.display())),
        },
        None => Audit::default(),
    };
    if args.header_read_timeout == 0 {
        return usage("--header-read-timeout must be at least 1 ms".to_string());
    }
    let mut config = ServerConfig::new(token)
        .console(args.console)
        .header_read_timeout(Duration::from_millis(args.header_read_timeout))
        .audit(audit)
        .max_body_bytes(usize::try_from(args.max_body).unwrap_or(usize::MAX));
    if spec.isolation == goccia::IsolationMode::Process {
        let worker = match super::isolate::worker_program() {
            Ok(worker) => worker,
            Err(message) => return usage(message),
        };
        if let Err(why) = worker_starts(&worker) {
            return usage(format!("--isolate process: {why}"));
        }
        config = config.worker(worker);
    }
    config = config.spec(spec);
    for (name, dir) in &args.workspace {
        config = config.workspace(name.clone(), dir.clone());
    }
    if let Some(state) = &args.state {
        config = config.state(state.clone());
    }
    if let Some(url) = &args.store {
        match StoreConfig::parse_url(url) {
            Ok(store) => config = config.store(store),
            Err(error) => return usage(format!("--store: {error}")),
        }
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_string())
        .unwrap_or_else(|_| "localhost".to_string());
    config = config.server_id(
        args.server_id
            .clone()
            .unwrap_or_else(|| format!("{host}/{}", args.listen)),
    );
    if let Some(clock) = goccia_server::clock::from_test_environment() {
        config = config.clock(clock);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("goccia: cannot start the server's runtime: {error}");
            return 70;
        }
    };
    runtime.block_on(async move {
        let server = match Server::open(config).await {
            Ok(server) => server,
            // A store that cannot be reached is not a usage error: the
            // command was right, the service is not there.
            Err(error @ ServerError::Store(StoreError::Unavailable { .. })) => {
                eprintln!("goccia: {error}");
                return 69;
            }
            Err(error) => return usage(error.to_string()),
        };
        let stop = match crate::stop_requested() {
            Ok(stop) => stop,
            Err(error) => {
                eprintln!("goccia: cannot watch for SIGTERM: {error}");
                return 70;
            }
        };
        let (store, schema) = server.store();
        match schema {
            Some(version) => eprintln!("goccia: store {store} (schema version {version})"),
            None => eprintln!("goccia: store {store}"),
        }
        let served = if let Some(path) = args.listen.strip_prefix("unix:") {
            if let Err(message) = clear_stale_socket(Path::new(path)) {
                return usage(format!("--listen {}: {message}", args.listen));
            }
            match tokio::net::UnixListener::bind(path) {
                Ok(listener) => {
                    eprintln!("goccia: listening on unix:{path}");
                    server.serve(listener, stop).await
                }
                Err(error) => return usage(format!("--listen {}: {error}", args.listen)),
            }
        } else {
            let loopback = args
                .listen
                .parse::<std::net::SocketAddr>()
                .ok()
                .filter(|address| address.ip().is_loopback());
            let Some(address) = loopback else {
                return usage(format!(
                    "--listen {}: not unix:<path> or a loopback address such as 127.0.0.1:8080",
                    args.listen
                ));
            };
            match tokio::net::TcpListener::bind(address).await {
                Ok(listener) => {
                    let bound = listener.local_addr().map_or(address, |a| a);
                    eprintln!("goccia: listening on http://{bound}");
                    server.serve(listener, stop).await
                }
                Err(error) => return usage(format!("--listen {}: {error}", args.listen)),
            }
        };
        match served {
            Ok(()) => {
                eprintln!("goccia: server stopped");
                0
            }
            Err(error) => {
                eprintln!("goccia: the server failed: {error}");
                70
            }
        }
    })
}

/// The change log `config`'s store keeps for workspace `name`; a store
/// that does not exist is an error, never an empty log.
fn stored_log(
    config: &StoreConfig,
    name: String,
) -> Result<goccia_server::provenance::ChangeLog, String> {
    if let StoreConfig::Sqlite(path) = config
        && !path.exists()
    {
        return Err(format!("--state {}: no such file", path.display()));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let store = goccia_server::store::open(config)
            .await
            .map_err(|e| e.to_string())?;
        let workspace = goccia_server::workspace::Workspace::new(name, PathBuf::new());
        store.changes(&workspace).await.map_err(|e| e.to_string())
    })
}

pub fn log(args: LogArgs) -> i32 {
    let (source, read) = match (&args.dir, &args.state, &args.store) {
        (Some(dir), ..) => {
            let path = goccia_server::provenance::log_file(dir);
            let read = goccia_server::provenance::read_lines(&path).map_err(|e| e.to_string());
            (goccia::shown(&path.to_string_lossy()).into_owned(), read)
        }
        (None, state, store) => {
            let config = match (state, store) {
                (Some(path), _) => StoreConfig::Sqlite(path.clone()),
                (None, Some(url)) => match StoreConfig::parse_url(url) {
                    Ok(config) => config,
                    Err(error) => return usage(format!("--store: {error}")),
                },
                (None, None) => unreachable!("clap requires a folder, --state or --store"),
            };
            let name = args.workspace.clone().expect("clap requires --workspace");
            (
                format!("workspace {}", goccia::shown(&name)),
                stored_log(&config, name),
            )
        }
    };
    match read {
        Ok(log) => {
            for damaged in &log.damaged {
                eprintln!(
                    "goccia log: {source}: line {} is not a change record and was skipped: {}",
                    damaged.line, damaged.reason
                );
            }
            for record in log.records {
                let files: Vec<String> = record
                    .files
                    .iter()
                    .map(|file| format!("{} {}", file.kind, goccia::shown(&file.path)))
                    .collect();
                println!(
                    "{} {} {} {}/{} ({} in, {} out tokens){}",
                    record.change_id,
                    record.time,
                    record.sandbox_id,
                    goccia::shown(&record.authorship.vendor),
                    goccia::shown(&record.authorship.model),
                    record.authorship.input_tokens,
                    record.authorship.output_tokens,
                    record
                        .message
                        .as_deref()
                        .map(|m| format!(": {}", goccia::shown(m)))
                        .unwrap_or_default()
                );
                for file in files {
                    println!("    {file}");
                }
            }
            0
        }
        Err(error) => {
            eprintln!("goccia: {error}");
            1
        }
    }
}
