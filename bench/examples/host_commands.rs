//! Host commands (docs/host-commands.md) against their goals, side by side with
//! the real tools in one run:
//! - the first host command in a session seeded with 10,000 files of 1 KiB
//!   (materialize + `true` + read back) against `cp -r` of the same tree;
//! - a second command after one file changed;
//! - `python3 -c pass` through goccia against running it directly.
//!
//! `cargo run --release -p goccia-bench --example host_commands`
//! (needs `bwrap` and `/usr/bin/python3`; the launcher that adds Landlock
//! is looked for at `target/release/goccia`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use goccia::Sandbox;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn tree(root: &Path) {
    for dir in 0..100 {
        let folder = root.join(format!("d{dir:03}"));
        std::fs::create_dir_all(&folder).unwrap();
        for file in 0..100 {
            std::fs::write(folder.join(format!("f{file:03}.txt")), vec![b'x'; 1024]).unwrap();
        }
    }
}

fn sandbox(seed: &Path) -> Sandbox {
    Sandbox::builder()
        .seed(seed, Some("/w"))
        .host_command("true", Some(Path::new("/usr/bin/true")))
        .host_command("python3", Some(Path::new("/usr/bin/python3")))
        .build()
        .unwrap()
}

fn main() {
    let host = tempfile::tempdir().unwrap();
    let seed = host.path().join("tree");
    tree(&seed);
    let rounds = 9;

    let mut cp = Vec::new();
    let mut first = Vec::new();
    let mut second = Vec::new();
    for round in 0..rounds {
        let copy = host.path().join(format!("copy{round}"));
        let started = Instant::now();
        let status = Command::new("cp")
            .arg("-r")
            .arg(&seed)
            .arg(&copy)
            .status()
            .unwrap();
        cp.push(started.elapsed());
        assert!(status.success());
        std::fs::remove_dir_all(&copy).unwrap();

        let sandbox = sandbox(&seed);
        let started = Instant::now();
        let run = sandbox.run_shell("true").unwrap();
        first.push(started.elapsed());
        assert!(run.success(), "{run:?}");
        sandbox
            .run_shell("echo changed >> /w/d050/f050.txt")
            .unwrap();
        let started = Instant::now();
        let run = sandbox.run_shell("true").unwrap();
        second.push(started.elapsed());
        assert!(run.success());
    }
    println!(
        "10,000 x 1 KiB: cp -r {:?}, first host command {:?} ({:.2}x), second after one change {:?}",
        median(cp.clone()),
        median(first.clone()),
        median(first).as_secs_f64() / median(cp).as_secs_f64(),
        median(second)
    );

    let small = tempfile::tempdir().unwrap();
    std::fs::write(small.path().join("a.txt"), "a").unwrap();
    let sandbox = sandbox(small.path());
    sandbox.run_shell("python3 -c pass").unwrap();
    let mut direct = Vec::new();
    let mut through = Vec::new();
    for _ in 0..21 {
        let started = Instant::now();
        assert!(
            Command::new("/usr/bin/python3")
                .args(["-c", "pass"])
                .status()
                .unwrap()
                .success()
        );
        direct.push(started.elapsed());
        let started = Instant::now();
        assert!(sandbox.run_shell("python3 -c pass").unwrap().success());
        through.push(started.elapsed());
    }
    println!(
        "python3 -c pass: directly {:?}, through goccia {:?} ({:.2}x)",
        median(direct.clone()),
        median(through.clone()),
        median(through).as_secs_f64() / median(direct).as_secs_f64()
    );
}
