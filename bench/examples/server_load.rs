//! The sandbox server under load, measured with a real HTTP client over
//! loopback (the server in this process on its own runtime, as `goccia
//! serve` runs it):
//!
//! 1. open + `shell echo` + close, per second, from 2 client threads;
//! 2. p50 / p99 of a warm `shell echo` on one session (2,000 calls);
//! 3. idle sessions held: RSS growth per open session (2,000 opened),
//!    and how many fit in 1 GiB at that rate;
//! 4. a submit of one changed file in a 10,000-file workspace (root
//!    included), 20 times.
//!
//! `cargo run --release -p goccia-bench --example server_load`
//!
//! `GOCCIA_BENCH_ONLY=warm` runs part 2 alone; `GOCCIA_BENCH_OTLP=<url>`
//! sends the server's traces to that collector (the cost of tracing,
//! bench/README.md); `GOCCIA_BENCH_CONSOLE=1` turns the console on (what
//! it keeps of every call costs).

use std::time::{Duration, Instant};

use goccia_server::{Server, ServerConfig};
use serde_json::{Value, json};

const ADMIN: &str = "admin-token-for-the-benchmark-0123";

fn start(config: ServerConfig) -> String {
    let server = Server::new(config).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
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

fn post(agent: &ureq::Agent, url: &str, token: &str, body: &Value) -> Value {
    let mut response = agent
        .post(url)
        .header("Authorization", format!("Bearer {token}"))
        .send_json(body)
        .unwrap();
    response.body_mut().read_json().unwrap_or(Value::Null)
}

fn open(agent: &ureq::Agent, base: &str, seeds: Value) -> (String, String, String) {
    let body = post(
        agent,
        &format!("{base}/v1/sandboxes"),
        ADMIN,
        &json!({"workspace": "w", "seeds": seeds, "capabilities": ["shell", "submit"]}),
    );
    (
        body["sandboxId"].as_str().unwrap().to_string(),
        body["token"].as_str().unwrap().to_string(),
        body["root"].as_str().unwrap().to_string(),
    )
}

fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let _tracing =
        std::env::var("GOCCIA_BENCH_OTLP") // telemetry
            .ok() // telemetry
            .map(|url| goccia::telemetry::Tracing::start(&url, "goccia-bench").unwrap()); // telemetry
    let small = tempfile::tempdir().unwrap();
    std::fs::write(small.path().join("a.txt"), "a\n").unwrap();
    let console = std::env::var("GOCCIA_BENCH_CONSOLE").as_deref() == Ok("1");
    let base = start(
        ServerConfig::new(ADMIN)
            .workspace("w", small.path())
            .console(console),
    );
    let only_warm = std::env::var("GOCCIA_BENCH_ONLY").as_deref() == Ok("warm");
    if !only_warm {
        load(&base);
    }
    warm(&base);
    if !only_warm {
        idle_and_submit(&base);
    }
}

fn load(base: &str) {
    // 1. open + shell echo + close per second, 2 client threads.
    let started = Instant::now();
    let per_thread = 500;
    std::thread::scope(|scope| {
        for _ in 0..2 {
            let base = base.to_string();
            scope.spawn(move || {
                let agent = agent();
                for _ in 0..per_thread {
                    let (id, token, _) = open(&agent, &base, json!([{"from": ".", "to": "/w"}]));
                    let run = post(
                        &agent,
                        &format!("{base}/v1/sandboxes/{id}/shell"),
                        &token,
                        &json!({"command": "echo hi"}),
                    );
                    assert_eq!(run["stdout"], "hi\n");
                    agent
                        .delete(format!("{base}/v1/sandboxes/{id}"))
                        .header("Authorization", format!("Bearer {token}"))
                        .call()
                        .unwrap();
                }
            });
        }
    });
    let elapsed = started.elapsed();
    println!(
        "open + shell echo + close: {:.0}/s ({} cycles in {elapsed:.2?})",
        (2 * per_thread) as f64 / elapsed.as_secs_f64(),
        2 * per_thread
    );
}

fn warm(base: &str) {
    // 2. Warm shell echo latency.
    let agent = agent();
    let (id, token, _) = open(&agent, base, json!([{"from": ".", "to": "/w"}]));
    let url = format!("{base}/v1/sandboxes/{id}/shell");
    for _ in 0..200 {
        post(&agent, &url, &token, &json!({"command": "echo hi"}));
    }
    let mut times: Vec<Duration> = (0..2_000)
        .map(|_| {
            let started = Instant::now();
            post(&agent, &url, &token, &json!({"command": "echo hi"}));
            started.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "warm shell echo: p50 {:.0?}, p99 {:.0?}, max {:.0?}",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1]
    );
}

fn idle_and_submit(base: &str) {
    let agent = agent();
    // 3. Idle sessions: RSS per open session.
    let before = rss_bytes();
    let count = 2_000;
    for _ in 0..count {
        open(&agent, base, json!([{"from": ".", "to": "/w"}]));
    }
    let per_session = (rss_bytes().saturating_sub(before)) / count;
    println!(
        "idle sessions: {} bytes of RSS each ({count} opened); {} fit in 1 GiB",
        per_session,
        (1u64 << 30) / per_session.max(1)
    );

    // 4. Submit of one changed file in a 10,000-file workspace.
    let big = tempfile::tempdir().unwrap();
    for index in 0..10_000 {
        let dir = big.path().join(format!("d{}", index % 100));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("f{index}.txt")), format!("file {index}\n")).unwrap();
    }
    let base = start(ServerConfig::new(ADMIN).workspace("w", big.path()));
    let (id, token, mut root) = open(&agent, &base, json!([{"from": ".", "to": "/w"}]));
    let mut times = Vec::new();
    for round in 0..20 {
        post(
            &agent,
            &format!("{base}/v1/sandboxes/{id}/shell"),
            &token,
            &json!({"command": format!("echo {round} > /w/d1/f1.txt")}),
        );
        let started = Instant::now();
        let landed = post(
            &agent,
            &format!("{base}/v1/sandboxes/{id}/submit"),
            &token,
            &json!({"expectedRoot": root, "authorship": {"vendor": "v", "model": "m", "tool": "t",
                "suggestionType": "agent", "inputTokens": 0, "outputTokens": 0, "session": "s"}}),
        );
        times.push(started.elapsed());
        root = landed["root"].as_str().expect("landed").to_string();
    }
    times.sort();
    println!(
        "submit of one file in a 10,000-file workspace: p50 {:.1?}, max {:.1?}",
        percentile(&times, 0.5),
        times[times.len() - 1]
    );
}
