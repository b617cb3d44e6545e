//! How long after a cancel token fires a call returns (docs/calls.md's
//! 50 ms), for a JS loop, a shell loop and a nested `goccia` child.
//! `cargo run --release -p goccia-bench --example cancel_latency`

use std::time::{Duration, Instant};

use goccia::{CallOptions, CancelToken, Sandbox};

fn latency(call: &dyn Fn(&CallOptions)) -> Duration {
    let token = CancelToken::new();
    let options = CallOptions::new().cancel(&token);
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        token.cancel();
        Instant::now()
    });
    call(&options);
    let returned = Instant::now();
    returned.saturating_duration_since(canceller.join().unwrap())
}

/// A named call that runs until cancelled.
type Case<'a> = (&'static str, Box<dyn Fn(&CallOptions) + 'a>);

fn main() {
    let sandbox = Sandbox::builder()
        .file("/spin.js", "while (true) {}")
        .build()
        .unwrap();
    let cases: [Case; 3] = [
        (
            "JS loop",
            Box::new(|o| drop(sandbox.run_script_with("/spin.js", o).unwrap())),
        ),
        (
            "shell loop",
            Box::new(|o| drop(sandbox.run_shell_with("while :; do :; done", o).unwrap())),
        ),
        (
            "nested goccia child",
            Box::new(|o| drop(sandbox.run_shell_with("goccia /spin.js", o).unwrap())),
        ),
    ];
    for (what, call) in cases {
        let mut samples: Vec<Duration> = (0..30).map(|_| latency(&*call)).collect();
        samples.sort();
        println!(
            "{what}: median {:?}, max {:?} over {} runs",
            samples[samples.len() / 2],
            samples[samples.len() - 1],
            samples.len()
        );
    }
}
