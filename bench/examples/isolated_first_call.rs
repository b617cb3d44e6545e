//! The first call of a new isolated sandbox, against the same in-process:
//! what starting and confining a worker adds to it, for a caller that calls
//! at once (as `goccia run` does) and for one that calls a little later
//! (a server session's first request, a binding's next statement).
//!
//! ```sh
//! cargo build --release -p goccia-cli
//! cargo run --release -p goccia-bench --example isolated_first_call -- [--rounds 200] [--worker target/release/goccia]
//! ```
//!
//! Prints, for each way, the median and 90th percentile of the build and
//! of the first `run_script` of hello world, over the rounds, alternated.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use goccia::Sandbox;
use goccia::isolation::{Isolation, WorkerProgram};

/// How long the "later" caller waits between building and calling.
const LATER: Duration = Duration::from_millis(20);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|arg| arg == flag)
            .and_then(|at| args.get(at + 1))
            .cloned()
    };
    let rounds: usize = value("--rounds")
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let worker = value("--worker").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/goccia")
    });
    let ways: [(&str, bool, Option<Duration>); 3] = [
        ("in-process, at once", false, None),
        ("isolated, at once", true, None),
        ("isolated, 20 ms later", true, Some(LATER)),
    ];
    let mut builds = vec![Vec::new(); ways.len()];
    let mut calls = vec![Vec::new(); ways.len()];
    for round in 0..rounds + 10 {
        for (index, (_, isolated, wait)) in ways.iter().enumerate() {
            let mut builder = Sandbox::builder().file("/hi.js", "console.log('hi')\n");
            if *isolated {
                builder = builder.isolation(Isolation::Process(WorkerProgram::new(&worker)));
            }
            let begun = Instant::now();
            let sandbox = builder.build().expect("a sandbox");
            let built = begun.elapsed();
            if let Some(wait) = wait {
                std::thread::sleep(*wait);
            }
            let begun = Instant::now();
            let run = sandbox.run_script("/hi.js").expect("runs");
            let called = begun.elapsed();
            assert_eq!(run.stdout_text(), "hi\n", "{run:?}");
            drop(sandbox);
            // The first rounds warm the page cache and the allocator.
            if round >= 10 {
                builds[index].push(built);
                calls[index].push(called);
            }
        }
    }
    println!("{rounds} rounds, worker {}", worker.display());
    for (index, (label, _, _)) in ways.iter().enumerate() {
        let (build50, build90) = spread(&mut builds[index]);
        let (call50, call90) = spread(&mut calls[index]);
        println!(
            "{label:24} build p50 {:>7.3} ms p90 {:>7.3} ms   first call p50 {:>7.3} ms p90 {:>7.3} ms",
            ms(build50),
            ms(build90),
            ms(call50),
            ms(call90)
        );
    }
}

fn spread(samples: &mut [Duration]) -> (Duration, Duration) {
    samples.sort();
    (
        samples[samples.len() / 2],
        samples[(samples.len() * 9 / 10).min(samples.len() - 1)],
    )
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
