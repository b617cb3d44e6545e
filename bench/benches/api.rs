//! The embedding API's own costs, on top of the engine's: building a
//! sandbox, a `run_shell` call on the persistent session (output capture
//! and the shell's own thread included), a captured `run_script`, a
//! host-made child, and merging a child's changes.

use criterion::{Criterion, criterion_group, criterion_main};
use goccia::{ChildSeed, Sandbox};

fn tree(files: usize) -> Sandbox {
    let mut builder = Sandbox::builder();
    for index in 0..files {
        builder = builder.file(&format!("/repo/d{}/f{index}.txt", index % 100), "x\n");
    }
    builder.build().unwrap()
}

fn api(c: &mut Criterion) {
    let mut group = c.benchmark_group("api");
    group.bench_function("build an empty sandbox", |b| {
        b.iter(|| Sandbox::builder().build().unwrap())
    });
    let sandbox = Sandbox::builder()
        .file("/main.js", "console.log('hello')")
        .build()
        .unwrap();
    sandbox.run_shell("cd /tmp").unwrap();
    group.bench_function("warm run_shell(\"echo hi\")", |b| {
        b.iter(|| assert_eq!(sandbox.run_shell("echo hi").unwrap().stdout, b"hi\n"))
    });
    group.bench_function("run_script of hello world, captured", |b| {
        b.iter(|| assert!(sandbox.run_script("/main.js").unwrap().success()))
    });
    let big = tree(10_000);
    group.bench_function("child of a 10,000-file sandbox seeded with /repo", |b| {
        b.iter(|| big.child(&[ChildSeed::path("/repo")]).unwrap())
    });
    group.bench_function("child + 1 edit + apply to the parent", |b| {
        b.iter_batched(
            || tree(1_000),
            |parent| {
                let child = parent.child(&[ChildSeed::path("/repo")]).unwrap();
                child.write("/repo/d1/f1.txt", "y\n").unwrap();
                parent.apply(&child.changes()).unwrap();
                parent // dropped outside the measurement
            },
            criterion::BatchSize::LargeInput,
        )
    });
    let megabyte = vec![b'y'; 1 << 20];
    group.bench_function("child + one 1 MiB edit + apply to the parent", |b| {
        b.iter_batched(
            || tree(1_000),
            |parent| {
                let child = parent.child(&[ChildSeed::path("/repo")]).unwrap();
                child.write("/repo/d1/f1.txt", megabyte.clone()).unwrap();
                parent.apply(&child.changes()).unwrap();
                parent // dropped outside the measurement
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, api);
criterion_main!(benches);
