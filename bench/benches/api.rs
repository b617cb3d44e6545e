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
    // One call at a time, as an agent makes them: the time of the call
    // alone, with the machine idle for 2 ms before each (what a call leaves
    // to finish after answering has finished by the next).
    group.bench_function(
        "run_script of hello world, captured, calls 2 ms apart",
        |b| {
            b.iter_custom(|iterations| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iterations {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    let started = std::time::Instant::now();
                    assert!(sandbox.run_script("/main.js").unwrap().success());
                    total += started.elapsed();
                }
                total
            })
        },
    );
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

/// Snapshots and merges (issue 11): `snapshot` + `restore` of a
/// 10,000-file sandbox, and merging 20 children's changes where every
/// file was also edited by the parent (the three-way path) against the
/// same 20 merges onto an untouched parent (the plain path).
fn harness(c: &mut Criterion) {
    let mut group = c.benchmark_group("harness");
    let big = tree(10_000);
    big.write("/repo/d1/f1.txt", "changed\n").unwrap();
    // A sandbox holds at most 64 snapshots, and each snapshot checks what
    // the others keep: measured over a child of the 10,000-file tree
    // (O(1) to make) that holds 0 to 63 others, one file changed since.
    group.bench_function("snapshot of a 10,000-file sandbox holding up to 63", |b| {
        b.iter_custom(|iterations| {
            let fresh = || {
                let child = big.child(&[goccia::ChildSeed::path("/repo")]).unwrap();
                child.write("/repo/d2/f2.txt", "changed\n").unwrap();
                child
            };
            let mut sandbox = fresh();
            let mut held = 0;
            let mut spent = std::time::Duration::ZERO;
            for _ in 0..iterations {
                if held == 63 {
                    sandbox = fresh();
                    held = 0;
                }
                let started = std::time::Instant::now();
                std::hint::black_box(sandbox.snapshot().unwrap());
                spent += started.elapsed();
                held += 1;
            }
            spent
        })
    });
    let id = big.snapshot().unwrap();
    group.bench_function("restore of a 10,000-file sandbox", |b| {
        b.iter(|| big.restore(id).unwrap())
    });
    let text: String = (0..40).map(|line| format!("line {line}\n")).collect();
    let parent_with = |edited_by_parent: bool| {
        let mut builder = Sandbox::builder();
        for index in 0..20 {
            builder = builder.file(&format!("/src/f{index}.txt"), text.clone());
        }
        let parent = builder.build().unwrap();
        let children: Vec<Sandbox> = (0..20)
            .map(|index| {
                let child = parent.child(&[ChildSeed::path("/src")]).unwrap();
                let edited = text.replace("line 30\n", "line thirty\n");
                child.write(&format!("/src/f{index}.txt"), edited).unwrap();
                child
            })
            .collect();
        if edited_by_parent {
            let edited = text.replace("line 3\n", "line three\n");
            for index in 0..20 {
                parent
                    .write(&format!("/src/f{index}.txt"), edited.clone())
                    .unwrap();
            }
        }
        (parent, children)
    };
    for (label, edited) in [
        ("merge 20 children, plain path", false),
        ("merge 20 children, three-way path", true),
    ] {
        group.bench_function(label, |b| {
            b.iter_batched(
                || parent_with(edited),
                |(parent, children)| {
                    for child in &children {
                        let report = parent.merge(child).unwrap();
                        assert!(report.is_clean());
                    }
                    (parent, children)
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, api, harness);
criterion_main!(benches);
