//! Snapshots and forks (docs/snapshots.md) of a 10,000-file sandbox with
//! a shell session: a snapshot after one change (the tree shared, the
//! session's state read in a subshell), the same with a save to an SQLite
//! store (and PostgreSQL when `GOCCIA_BENCH_POSTGRES` names a database),
//! opening the saved snapshot in a new process, and 100 forks of it
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

/// The new process's half: opens the saved snapshot and says how long
/// `Sandbox::open` took.
fn open_here(location: &str, id: &str) {
    let started = Instant::now();
    let store = goccia::store::open(location).unwrap();
    let sandbox = Sandbox::open(store.as_ref(), &id.parse().unwrap()).unwrap();
    let took = started.elapsed();
    assert_eq!(sandbox.read("/w/d099/f099.txt").unwrap().len(), 1024);
    println!("{}", took.as_micros());
}

/// Median time of a snapshot plus a save after one change, with the first
/// (whole) save's time; the last id.
fn save_after_changes(
    sandbox: &Sandbox,
    store: &dyn goccia::store::SnapshotStore,
) -> (Duration, Duration, String) {
    let started = Instant::now();
    sandbox.save(store, sandbox.snapshot().unwrap()).unwrap();
    let first = started.elapsed();
    let mut last = String::new();
    let samples = (0..21)
        .map(|n| {
            sandbox
                .write(
                    &format!("/w/d001/f{:03}.txt", n % 100),
                    format!("saved change {n}"),
                )
                .unwrap();
            let started = Instant::now();
            let id = sandbox.snapshot().unwrap();
            last = sandbox.save(store, id).unwrap().to_string();
            started.elapsed()
        })
        .collect();
    (first, median(samples), last)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("open") {
        return open_here(&args[2], &args[3]);
    }
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
    let folder =
        std::env::temp_dir().join(format!("goccia-bench-snapshots-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let location = folder.join("store.db").to_string_lossy().into_owned();
    let store = goccia::store::open(&location).unwrap();
    let (first, median_save, saved) = save_after_changes(&sandbox, store.as_ref());
    println!(
        "snapshot + save to SQLite after one change: {median_save:?} (median of 21; the first, whole save: {first:?})"
    );
    if let Ok(url) = std::env::var("GOCCIA_BENCH_POSTGRES") {
        let postgres = goccia::store::open(&url).unwrap();
        let (first, median_save, _) = save_after_changes(&sandbox, postgres.as_ref());
        println!(
            "snapshot + save to PostgreSQL after one change: {median_save:?} (median of 21; the first, whole save: {first:?})"
        );
    }
    let opens: Vec<(Duration, Duration)> = (0..5)
        .map(|_| {
            let started = Instant::now();
            let output = std::process::Command::new(std::env::current_exe().unwrap())
                .args(["open", &location, &saved])
                .output()
                .unwrap();
            let wall = started.elapsed();
            assert!(output.status.success(), "{output:?}");
            let micros: u64 = String::from_utf8_lossy(&output.stdout)
                .trim()
                .parse()
                .unwrap();
            (Duration::from_micros(micros), wall)
        })
        .collect();
    println!(
        "open of that snapshot in a new process: {:?} in Sandbox::open, {:?} for the whole process (medians of 5)",
        median(opens.iter().map(|o| o.0).collect()),
        median(opens.iter().map(|o| o.1).collect())
    );
    std::fs::remove_dir_all(&folder).ok();

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
