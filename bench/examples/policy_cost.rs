//! The write policy's cost on a write-heavy script, alternated so both
//! modes see the same machine: 10,000 `fs.writeFileSync` into a writable
//! root under `full` and under `workspace-write`, 21 runs each; prints the
//! minimum and median of each (the minimum is the least noisy figure on a
//! shared machine).
//!
//! `cargo run --release -p goccia-bench --example policy_cost`

use std::time::{Duration, Instant};

use goccia::{PolicyMode, Sandbox};

const SCRIPT: &str = "import fs from 'fs';\n\
    for (let i = 0; i < 10000; i++) fs.writeFileSync('/w/f' + (i % 100) + '.txt', 'x' + i);";

fn sandbox(mode: PolicyMode) -> Sandbox {
    Sandbox::builder()
        .policy(mode)
        .writable("/w")
        .file("/w/.keep", "")
        .file("/main.js", SCRIPT)
        .build()
        .unwrap()
}

fn summary(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort();
    (times[0], times[times.len() / 2])
}

fn main() {
    let modes = [PolicyMode::Full, PolicyMode::WorkspaceWrite];
    let sandboxes: Vec<Sandbox> = modes.iter().map(|mode| sandbox(*mode)).collect();
    let mut times = [Vec::new(), Vec::new()];
    for round in 0..22 {
        for (index, sandbox) in sandboxes.iter().enumerate() {
            let started = Instant::now();
            assert!(sandbox.run_script("/main.js").unwrap().success());
            // The first round warms both up.
            if round > 0 {
                times[index].push(started.elapsed());
            }
        }
    }
    let (full_min, full_median) = summary(&mut times[0]);
    let (ww_min, ww_median) = summary(&mut times[1]);
    println!("full:            min {full_min:?}, median {full_median:?}");
    println!("workspace-write: min {ww_min:?}, median {ww_median:?}");
    println!(
        "workspace-write / full: min {:+.1}%, median {:+.1}%",
        (ww_min.as_secs_f64() / full_min.as_secs_f64() - 1.0) * 100.0,
        (ww_median.as_secs_f64() / full_median.as_secs_f64() - 1.0) * 100.0
    );
}
