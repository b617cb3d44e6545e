//! The shared store (docs/server.md) measured side by side with SQLite and
//! memory, in one run:
//!
//! 1. token resolution: `grant_by_hash` on each store directly, and a
//!    whole authenticated request (`GET .../files/<small file>`, a real
//!    HTTP client with keep-alive) against a server on each store; p50 and
//!    p99 of 3,000 each;
//! 2. submit throughput (a one-file edit + a fenced submit, in a loop):
//!    one server and one workspace; one server and two workspaces; two
//!    servers over one PostgreSQL, each submitting to its own workspace.
//!    Two servers should scale, not serialize on one lock;
//! 3. a session of 10,000 files moving between two servers over
//!    PostgreSQL: a snapshot after one change (saved to the store), and a
//!    resume on the other server (rebuilt from the store, files and shell).
//!
//! `GOCCIA_BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432/test cargo run
//! --release -p goccia-bench --example store_load` (the default URL is that
//! one; a database `goccia_bench_store` is created and dropped).

use std::sync::Arc;
use std::time::{Duration, Instant};

use goccia_server::grants::token_hash;
use goccia_server::store::{self, Store, StoreConfig, with_database};
use goccia_server::{Server, ServerConfig};
use serde_json::{Value, json};

const ADMIN: &str = "admin-token-for-the-benchmark-0123";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A server on `config` on a runtime of its own; its base URL.
fn start(config: ServerConfig) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        runtime().block_on(async move {
            let server = Server::open(config).await.unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            server
                .serve(listener, std::future::pending())
                .await
                .unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn post(agent: &ureq::Agent, url: &str, token: &str, body: &Value) -> (u16, Value) {
    let mut response = agent
        .post(url)
        .header("Authorization", format!("Bearer {token}"))
        .send_json(body)
        .unwrap();
    let status = response.status().as_u16();
    (
        status,
        response.body_mut().read_json().unwrap_or(Value::Null),
    )
}

struct Opened {
    id: String,
    token: String,
    root: String,
}

fn open(agent: &ureq::Agent, base: &str, workspace: &str, capabilities: &[&str]) -> Opened {
    let (status, body) = post(
        agent,
        &format!("{base}/v1/sandboxes"),
        ADMIN,
        &json!({"workspace": workspace, "seeds": [{"from": ".", "to": "/w"}], "capabilities": capabilities}),
    );
    assert_eq!(status, 201, "{body}");
    Opened {
        id: body["sandboxId"].as_str().unwrap().to_string(),
        token: body["token"].as_str().unwrap().to_string(),
        root: body["root"].as_str().unwrap().to_string(),
    }
}

fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q) as usize].as_secs_f64() * 1e6;
    (at(0.5), at(0.99))
}

fn workspace(files: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..files {
        std::fs::write(dir.path().join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
    }
    dir
}

/// `rounds` edits + submits on one fresh session of `workspace` at `base`.
fn submit_loop(base: &str, workspace: &str, rounds: usize, tag: &str) {
    let agent = agent();
    let session = open(&agent, base, workspace, &["shell", "submit"]);
    let mut root = session.root.clone();
    for round in 0..rounds {
        let url = format!("{base}/v1/sandboxes/{}", session.id);
        let (status, _) = post(
            &agent,
            &format!("{url}/shell"),
            &session.token,
            &json!({"command": format!("echo {tag}{round} > /w/{tag}.txt")}),
        );
        assert_eq!(status, 200);
        let (status, body) = post(
            &agent,
            &format!("{url}/submit"),
            &session.token,
            &json!({"expectedRoot": root, "authorship": {
                "vendor": "bench", "model": "m", "tool": "t", "suggestionType": "agent",
                "inputTokens": 1, "outputTokens": 1, "session": "s"}}),
        );
        assert_eq!(status, 200, "{body}");
        root = body["root"].as_str().unwrap().to_string();
    }
}

/// Submits per second with one client thread per `(base, workspace)`.
fn throughput(targets: &[(String, &str)], rounds: usize) -> f64 {
    let started = Instant::now();
    std::thread::scope(|scope| {
        for (index, (base, name)) in targets.iter().enumerate() {
            scope.spawn(move || submit_loop(base, name, rounds, &format!("c{index}")));
        }
    });
    (targets.len() * rounds) as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let url = std::env::var("GOCCIA_BENCH_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string());
    let mut admin = postgres_admin(&url);
    let database = "goccia_bench_store";
    admin(&format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"));
    admin(&format!("CREATE DATABASE {database}"));
    let pg_url = with_database(&url, database);
    let state = tempfile::tempdir().unwrap();
    let sqlite = state.path().join("state.sqlite");
    let stores = [
        ("memory", StoreConfig::Memory),
        ("sqlite", StoreConfig::Sqlite(sqlite.clone())),
        ("postgres", StoreConfig::Postgres(pg_url.clone())),
    ];

    println!("## token resolution (3,000 each): p50 / p99 in µs");
    let rt = runtime();
    for (name, config) in &stores {
        let store: Arc<dyn Store> = rt.block_on(store::open(config)).unwrap();
        let hash = token_hash("gst_bench");
        rt.block_on(store.insert_grant(&goccia_server::grants::Grant {
            sandbox_id: format!("sb_bench_{name}"),
            token_hash: hash.clone(),
            capabilities: vec![goccia_server::grants::Capability::Read],
            expires_at: u64::MAX / 2,
            revoked: false,
            owner: None,
        }))
        .ok();
        let samples: Vec<Duration> = (0..3000)
            .map(|_| {
                let started = Instant::now();
                rt.block_on(store.grant_by_hash(&hash)).unwrap().unwrap();
                started.elapsed()
            })
            .collect();
        let (p50, p99) = percentiles(samples);
        println!("store.grant_by_hash  {name:8} {p50:8.1} / {p99:8.1}");
    }
    let files = workspace(10);
    for (name, config) in &stores {
        let base = start(
            ServerConfig::new(ADMIN)
                .workspace("w", files.path())
                .store(config.clone()),
        );
        let agent = agent();
        let session = open(&agent, &base, "w", &["read"]);
        let url = format!("{base}/v1/sandboxes/{}/files/w/f1.txt", session.id);
        let samples: Vec<Duration> = (0..3000)
            .map(|_| {
                let started = Instant::now();
                let mut response = agent
                    .get(&url)
                    .header("Authorization", format!("Bearer {}", session.token))
                    .call()
                    .unwrap();
                assert_eq!(response.status().as_u16(), 200);
                response.body_mut().read_to_string().unwrap();
                started.elapsed()
            })
            .collect();
        let (p50, p99) = percentiles(samples);
        println!("GET .../files        {name:8} {p50:8.1} / {p99:8.1}");
    }

    println!("## submit throughput (edit + fenced submit), submits/s");
    let rounds = 150;
    let (one, two) = (workspace(100), workspace(100));
    let single = start(
        ServerConfig::new(ADMIN)
            .workspace("one", one.path())
            .workspace("two", two.path())
            .store(StoreConfig::Postgres(pg_url.clone()))
            .server_id("single"),
    );
    let one_workspace = throughput(&[(single.clone(), "one")], rounds);
    let two_workspaces = throughput(&[(single.clone(), "one"), (single, "two")], rounds);
    let server = |id: &str| {
        start(
            ServerConfig::new(ADMIN)
                .workspace("one", one.path())
                .workspace("two", two.path())
                .store(StoreConfig::Postgres(pg_url.clone()))
                .server_id(id),
        )
    };
    let (a, b) = (server("a"), server("b"));
    let two_servers = throughput(&[(a, "one"), (b, "two")], rounds);
    println!("1 server, 1 workspace, 1 client    {one_workspace:8.1}");
    println!("1 server, 2 workspaces, 2 clients  {two_workspaces:8.1}");
    println!("2 servers, 2 workspaces, 2 clients {two_servers:8.1}");
    let local = start(
        ServerConfig::new(ADMIN)
            .workspace("one", one.path())
            .state(state.path().join("submits.sqlite")),
    );
    let sqlite_one = throughput(&[(local, "one")], rounds);
    println!("(SQLite, 1 server, 1 workspace     {sqlite_one:8.1})");

    println!("## a 10,000-file session between two servers (PostgreSQL), medians in ms");
    let big = goccia_bench::host_tree(10_000, 1024);
    let servers: Vec<String> = ["ra", "rb"]
        .iter()
        .map(|id| {
            start(
                ServerConfig::new(ADMIN)
                    .workspace("big", big.path())
                    .store(StoreConfig::Postgres(pg_url.clone()))
                    .server_id(*id),
            )
        })
        .collect();
    let agent = agent();
    let session = open(&agent, &servers[0], "big", &["shell", "write"]);
    let median = |mut samples: Vec<Duration>| {
        samples.sort();
        samples[samples.len() / 2].as_secs_f64() * 1e3
    };
    let (mut snapshots, mut resumes) = (Vec::new(), Vec::new());
    for round in 0..6 {
        let base = &servers[round % 2];
        let url = format!("{base}/v1/sandboxes/{}", session.id);
        let (status, _) = post(
            &agent,
            &format!("{url}/shell"),
            &session.token,
            &json!({"command": format!("echo {round} > /w/d000/f00000.txt; STEP={round}")}),
        );
        assert_eq!(status, 200);
        let started = Instant::now();
        let (status, body) = post(
            &agent,
            &format!("{url}/snapshots"),
            &session.token,
            &json!({}),
        );
        snapshots.push(started.elapsed());
        assert_eq!(status, 201, "{body}");
        let other = &servers[(round + 1) % 2];
        let started = Instant::now();
        let (status, body) = post(
            &agent,
            &format!("{other}/v1/sandboxes/{}/resume", session.id),
            &session.token,
            &json!({}),
        );
        resumes.push(started.elapsed());
        assert_eq!(status, 200, "{body}");
    }
    println!(
        "snapshot after one change (saved)  {:8.1}",
        median(snapshots)
    );
    println!("resume on the other server         {:8.1}", median(resumes));
    admin(&format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)"));
}

fn postgres_admin(url: &str) -> impl FnMut(&str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (client, connection) = rt
        .block_on(tokio_postgres::connect(url, tokio_postgres::NoTls))
        .expect("PostgreSQL answers at GOCCIA_BENCH_POSTGRES");
    rt.spawn(connection);
    move |sql: &str| {
        rt.block_on(client.batch_execute(sql)).unwrap();
    }
}
