//! A warm `run_shell("echo hi")` through an isolated worker against the
//! same call in-process: the cost of a call's round trip through frames
//! (the tree delta, the call, the output, the steps back, the answer).
//!
//! `cargo build --release && cargo run --release -p goccia-bench --example isolation_call`

use std::time::{Duration, Instant};

use goccia::Sandbox;
use goccia::isolation::{Isolation, WorkerProgram};

fn percentile(samples: &mut [Duration], fraction: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * fraction) as usize]
}

fn measure(sandbox: &Sandbox, label: &str) {
    for _ in range(200) {
        sandbox.run_shell("echo hi").unwrap();
    }
    let mut samples: Vec<Duration> = (0..2000)
        .map(|_| {
            let started = Instant::now();
            let run = sandbox.run_shell("echo hi").unwrap();
            let elapsed = started.elapsed();
            assert_eq!(run.stdout_text(), "hi\n");
            elapsed
        })
        .collect();
    let p50 = percentile(&mut samples, 0.5);
    let p99 = percentile(&mut samples, 0.99);
    println!("{label:10} run_shell(\"echo hi\"): p50 {p50:?}, p99 {p99:?} over 2000 calls");
}

fn range(n: usize) -> std::ops::Range<usize> {
    0..n
}

fn main() {
    let worker = std::env::current_dir()
        .unwrap()
        .join("target/release/goccia");
    let worker = if worker.exists() {
        worker
    } else {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/goccia")
    };
    let local = Sandbox::builder().build().unwrap();
    let isolated = Sandbox::builder()
        .isolation(Isolation::Process(WorkerProgram::new(worker)))
        .build()
        .unwrap();
    measure(&local, "in-process");
    measure(&isolated, "isolated");
}
