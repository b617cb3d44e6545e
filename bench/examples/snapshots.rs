//! Snapshots and forks (docs/vfs.md, "Snapshots") of a 10,000-file
//! sandbox with a shell session: a snapshot after one change (the tree
//! shared, the session's state read in a subshell), and 100 forks of it
//! (time, and the process's resident memory before and after).
//!
//! `cargo run --release -p goccia-bench --example snapshots`

use std::time::{Duration, Instant};

use goccia::Sandbox;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// The process's resident set, in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let mut builder = Sandbox::builder();
    for dir in 0..100 {
        for file in 0..100 {
            builder = builder.file(&format!("/w/d{dir:03}/f{file:03}.txt"), vec![b'x'; 1024]);
        }
    }
    let sandbox = builder
        .limits(goccia::Limits::default().max_snapshots(1000))
        .build()
        .unwrap();
    sandbox
        .run_shell("cd /w; export STAGE=bench; f() { echo f; }")
        .unwrap();
    let snapshot: Vec<Duration> = (0..21)
        .map(|n| {
            sandbox
                .write(
                    &format!("/w/d000/f{:03}.txt", n % 100),
                    format!("change {n}"),
                )
                .unwrap();
            let started = Instant::now();
            sandbox.snapshot().unwrap();
            started.elapsed()
        })
        .collect();
    println!(
        "snapshot of a 10,000-file sandbox after one change, with its shell state: {:?} (median of 21)",
        median(snapshot)
    );
    let id = sandbox.snapshot().unwrap();
    let before = rss_kib();
    let started = Instant::now();
    let forks = sandbox.fork(Some(id), 100).unwrap();
    let took = started.elapsed();
    let after = rss_kib();
    assert_eq!(
        forks[99].run_shell("echo $STAGE").unwrap().stdout_text(),
        "bench\n"
    );
    println!(
        "100 forks of it: {took:?}, resident memory {} KiB more ({} KiB per fork)",
        after.saturating_sub(before),
        after.saturating_sub(before) / 100
    );
}
