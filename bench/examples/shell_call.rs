//! How long one warm `run_shell_with("echo hi")` takes in the library,
//! with output streamed to a sink as the MCP server once captured it: the
//! floor under the MCP round trip of bench/mcp/compare.py. With
//! `--captured`, the plain `run_shell("echo hi")` (output in the `Run`),
//! as the Node and Python bindings call it: the floor under
//! bench/node/binding.mjs. With `--in-place`, the calls are made from a
//! `goccia::deep_stack` thread, which runs them in place (docs/calls.md):
//! the difference is the cost of handing a call to the session's thread.
//! With `--lent`, each call is made from the main thread inside
//! `goccia::deep_stack::lend`, as Python's `run_shell` makes it: in place,
//! on a deep stack lent to the caller's thread.

use std::time::Instant;

use goccia::{CallOptions, Output, OutputBudget, Sandbox};

fn main() {
    if std::env::args().any(|arg| arg == "--in-place") {
        goccia::deep_stack::spawn("caller", measure)
            .expect("a thread")
            .join()
            .expect("measured");
    } else {
        measure();
    }
}

fn measure() {
    let sandbox = Sandbox::builder().build().expect("a sandbox");
    let captured = std::env::args().any(|arg| arg == "--captured");
    let rounds = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(2200);
    let lent = std::env::args().any(|arg| arg == "--lent");
    let mut times = Vec::new();
    for round in 0..rounds {
        if captured {
            let begun = Instant::now();
            let run = if lent {
                goccia::deep_stack::lend(|| sandbox.run_shell("echo hi"))
            } else {
                sandbox.run_shell("echo hi")
            }
            .expect("runs");
            let took = begun.elapsed();
            assert_eq!((run.exit_code, run.stdout.as_slice()), (0, &b"hi\n"[..]));
            if round >= 200 {
                times.push(took);
            }
            continue;
        }
        let budget = OutputBudget::for_limits(sandbox.limits());
        let (output, stdout, _) = Output::captured(budget);
        let begun = Instant::now();
        let run = sandbox
            .run_shell_with("echo hi", &CallOptions::new().stream(&output))
            .expect("runs");
        let took = begun.elapsed();
        assert_eq!((run.exit_code, stdout.take()), (0, b"hi\n".to_vec()));
        if round >= 200 {
            times.push(took);
        }
    }
    times.sort();
    println!(
        "{}{}: p50 {:?}, p99 {:?} over {} calls",
        if goccia::deep_stack::is_current() {
            "in place: "
        } else if lent {
            "lent stack: "
        } else {
            ""
        },
        if captured {
            "run_shell(\"echo hi\")"
        } else {
            "run_shell_with(\"echo hi\")"
        },
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times.len()
    );
}
