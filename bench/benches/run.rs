//! Running JS: a cold hello-world as a whole process, and in-process.

use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};
use goccia::{Output, OutputBudget, Sandbox};
use goccia_bench::release_binary;

fn cold_process(c: &mut Criterion) {
    let binary = release_binary();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.js"), "console.log('hello')").unwrap();
    let mut group = c.benchmark_group("process");
    group.sample_size(50);
    group.bench_function("cold `goccia run` of hello world", |b| {
        b.iter(|| {
            let output = Command::new(&binary)
                .args(["run", "/main.js", "--seed", "main.js"])
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert_eq!(output.stdout, b"hello\n");
        })
    });
    group.finish();
}

fn in_process(c: &mut Criterion) {
    let sandbox = Sandbox::builder()
        .file("/main.js", "console.log('hello')")
        .build()
        .unwrap();
    c.bench_function(
        "in-process run of hello world (runtime + context + module)",
        |b| {
            b.iter(|| {
                let (output, out, _) = Output::captured(OutputBudget::new(1 << 20));
                let run = sandbox
                    .run_script_with("/main.js", &goccia::CallOptions::new().stream(&output))
                    .unwrap();
                assert!(run.failure.is_none());
                assert_eq!(out.take(), b"hello\n");
            })
        },
    );
}

criterion_group!(benches, cold_process, in_process);
criterion_main!(benches);
