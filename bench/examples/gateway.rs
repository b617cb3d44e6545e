//! The network gateway (docs/network.md) against its goals, in one run:
//! - `fetch`: a JS loop of requests to a loopback server through the
//!   gateway, per request (compare with the same example built at an
//!   earlier commit: bench/README.md says how);
//! - `confined`: 100 requests from one confined `curl` through the proxy
//!   against the same 100 from `curl` on the host, directly.
//!
//! `cargo run --release -p goccia-bench --example gateway -- fetch|confined`
//! (`confined` needs `bwrap` and `/usr/bin/curl`).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use goccia::{AllowedHost, NetPolicy, Sandbox};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// A loopback server answering every request with `ok`, one request per
/// connection.
fn server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut buffer = [0u8; 8192];
                let mut head = Vec::new();
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buffer) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buffer[..n]),
                    }
                }
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
                );
            });
        }
    });
    port
}

fn policy(port: u16) -> NetPolicy {
    NetPolicy::builder()
        .allow(AllowedHost::parse(&format!("127.0.0.1:{port}")).unwrap())
        .build()
}

fn fetch_round_trip(port: u16) {
    let sandbox = Sandbox::builder().network(policy(port)).build().unwrap();
    let requests = 500;
    let code = format!(
        "for (let i = 0; i < {requests}; i++) {{ await (await fetch('http://127.0.0.1:{port}/x')).text(); }}"
    );
    sandbox.run_code(&code).unwrap();
    let samples: Vec<Duration> = (0..7)
        .map(|_| {
            let started = Instant::now();
            let run = sandbox.run_code(&code).unwrap();
            assert!(run.success(), "{:?}", run.failure);
            started.elapsed() / requests
        })
        .collect();
    println!(
        "fetch round trip through the gateway: {:?} per request (median of 7 runs of {requests})",
        median(samples)
    );
}

fn confined_curl(port: u16) {
    let urls: Vec<String> = (0..100)
        .map(|i| format!("http://127.0.0.1:{port}/r{i}"))
        .collect();
    let sandbox = Sandbox::builder()
        .network(policy(port))
        .host_command("curl", Some(Path::new("/usr/bin/curl")))
        .build()
        .unwrap();
    let confined = |count: usize| {
        let line = format!("command curl -s {} > /dev/null", urls[..count].join(" "));
        let warm = sandbox.run_shell(&line).unwrap();
        assert_eq!(warm.exit_code, 0, "{}", warm.stderr_text());
        median(
            (0..7)
                .map(|_| {
                    let started = Instant::now();
                    let run = sandbox.run_shell(&line).unwrap();
                    assert_eq!(run.exit_code, 0);
                    started.elapsed()
                })
                .collect(),
        )
    };
    let host = |count: usize| {
        median(
            (0..7)
                .map(|_| {
                    let started = Instant::now();
                    let status = Command::new("/usr/bin/curl")
                        .arg("-s")
                        .args(&urls[..count])
                        .stdout(std::process::Stdio::null())
                        .status()
                        .unwrap();
                    assert!(status.success());
                    started.elapsed()
                })
                .collect(),
        )
    };
    let (confined_one, confined_all) = (confined(1), confined(100));
    let (host_one, host_all) = (host(1), host(100));
    println!(
        "100 requests: confined curl through the proxy {confined_all:?}, curl on the host {host_all:?}, ratio {:.2}",
        confined_all.as_secs_f64() / host_all.as_secs_f64()
    );
    // What each request costs past the first, without the jail's start.
    let per = |all: Duration, one: Duration| all.saturating_sub(one) / 99;
    let (confined_per, host_per) = (per(confined_all, confined_one), per(host_all, host_one));
    println!(
        "one request more: through the proxy {confined_per:?}, on the host {host_per:?}, ratio {:.2}; one request with the jail's start {confined_one:?} (host {host_one:?})",
        confined_per.as_secs_f64() / host_per.as_secs_f64()
    );
}

fn main() {
    let port = server();
    match std::env::args().nth(1).as_deref() {
        Some("fetch") => fetch_round_trip(port),
        Some("confined") => confined_curl(port),
        _ => {
            fetch_round_trip(port);
            confined_curl(port);
        }
    }
}
