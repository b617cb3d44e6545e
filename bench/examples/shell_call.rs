//! How long one warm `run_shell_with("echo hi")` takes in the library,
//! with output captured as the MCP server captures it: the floor under the
//! MCP round trip of bench/mcp/compare.py.

use std::time::Instant;

use goccia::{CallOptions, Output, OutputBudget, Sandbox};

fn main() {
    let sandbox = Sandbox::builder().build().expect("a sandbox");
    let mut times = Vec::new();
    for round in 0..(std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(2200))
    {
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
        "run_shell_with(\"echo hi\"): p50 {:?}, p99 {:?} over {} calls",
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times.len()
    );
}
