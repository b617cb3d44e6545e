//! Real `goccia serve` processes over one real PostgreSQL database.
//!
//! The database comes from `GOCCIA_TEST_POSTGRES` (a URL whose user may
//! create databases); each test gets a database of its own, dropped at the
//! end, so tests run in parallel without seeing each other. Without the
//! variable the tests say they were skipped and pass nothing off as run.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

pub use crate::http::*;
pub use goccia_server::store::with_database;

/// The URL of the server the tests use, or `None` (and a line saying the
/// test was skipped, naming the variable).
pub fn postgres_url(test: &str) -> Option<String> {
    match std::env::var("GOCCIA_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!(
                "SKIPPED {test}: set GOCCIA_TEST_POSTGRES=postgres://user@host:port/db to run it (.ci/run does)"
            );
            None
        }
    }
}

/// A database of one test's own, dropped (with its connections) when this
/// goes.
pub struct Database {
    admin_url: String,
    pub name: String,
    pub url: String,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

impl Database {
    pub fn create(admin_url: &str) -> Database {
        let name = format!(
            "goccia_t_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let mut client = postgres::Client::connect(admin_url, postgres::NoTls)
            .unwrap_or_else(|error| panic!("GOCCIA_TEST_POSTGRES is unreachable: {error}"));
        // One statement each: neither may run in a transaction block.
        client
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .unwrap();
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap();
        Database {
            admin_url: admin_url.to_string(),
            url: with_database(admin_url, &name),
            name,
        }
    }

    /// A connection to this database.
    pub fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.url, postgres::NoTls).unwrap()
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Ok(mut client) = postgres::Client::connect(&self.admin_url, postgres::NoTls) {
            let _ = client.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_goccia"))
}

/// What a test sets up around its servers: the workspace folder, the admin
/// token file and the clock file they share.
pub struct Site {
    pub dir: tempfile::TempDir,
    pub workspace: PathBuf,
    pub token_file: PathBuf,
    pub clock_file: PathBuf,
}

impl Site {
    pub fn new() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("ws");
        std::fs::create_dir_all(workspace.join("src")).unwrap();
        std::fs::write(workspace.join("src/a.txt"), "a\n").unwrap();
        std::fs::write(workspace.join("README"), "readme\n").unwrap();
        let token_file = dir.path().join("admin-token");
        std::fs::write(&token_file, format!("{ADMIN}\n")).unwrap();
        let clock_file = dir.path().join("clock");
        std::fs::write(&clock_file, START.to_string()).unwrap();
        Site {
            dir,
            workspace,
            token_file,
            clock_file,
        }
    }

    /// Moves the servers' clock forward.
    pub fn advance(&self, seconds: u64) {
        let now: u64 = std::fs::read_to_string(&self.clock_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        std::fs::write(&self.clock_file, (now + seconds).to_string()).unwrap();
    }

    /// `goccia serve` on a loopback port over `store`, named `id`.
    pub fn serve(&self, store: &str, id: &str) -> Served {
        self.serve_with(store, id, &[])
    }

    /// [`Site::serve`] with extra environment variables.
    pub fn serve_with(&self, store: &str, id: &str, env: &[(&str, &str)]) -> Served {
        let mut child = Command::new(binary())
            .args(["serve", "--listen", "127.0.0.1:0", "--store", store])
            .arg("--workspace")
            .arg(format!("w={}", self.workspace.display()))
            .arg("--admin-token-file")
            .arg(&self.token_file)
            .args(["--server-id", id])
            // The store's tests take snapshots in loops, far past the
            // default 64 a session may hold.
            .args(["--max-snapshots", "1000000"])
            .env("GOCCIA_TEST_CLOCK_FILE", &self.clock_file)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut said = Vec::new();
        let address = loop {
            let Some(Ok(line)) = lines.next() else {
                panic!("the server ended before listening: {said:?}");
            };
            if let Some(address) = line.strip_prefix("goccia: listening on ") {
                break address.to_string();
            }
            said.push(line);
        };
        std::thread::spawn(move || for _ in lines {});
        Served {
            client: Client::new(&address),
            child,
            said,
        }
    }
}

/// A running server process.
pub struct Served {
    pub client: Client,
    pub child: Child,
    /// What it printed before listening.
    pub said: Vec<String>,
}

impl Served {
    /// SIGKILL: no clean-up of any kind.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `goccia serve` that is expected not to start: its status and stderr.
pub fn serve_fails(site: &Site, store: &str) -> (i32, String) {
    let output = Command::new(binary())
        .args(["serve", "--listen", "127.0.0.1:0", "--store", store])
        .arg("--workspace")
        .arg(format!("w={}", site.workspace.display()))
        .arg("--admin-token-file")
        .arg(&site.token_file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Files below `dir` whose name starts with `prefix`.
pub fn files_named(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut work = vec![dir.to_path_buf()];
    while let Some(dir) = work.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                work.push(path);
            } else if entry.file_name().to_string_lossy().starts_with(prefix) {
                found.push(path);
            }
        }
    }
    found
}
