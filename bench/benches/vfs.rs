//! VFS costs: seeding from the host, taking a baseline, diffing.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use goccia_bench::{host_tree, vfs_tree};
use goccia_vfs::seed::{SeedTarget, seed_host};
use goccia_vfs::{Quota, Vfs, VfsPath, diff};

fn seeding(c: &mut Criterion) {
    let host = host_tree(10_000, 1024);
    c.bench_function("seed 10,000 files of 1 KiB from the host", |b| {
        b.iter(|| {
            let mut vfs = Vfs::new(Quota::UNLIMITED);
            seed_host(&mut vfs, host.path(), &SeedTarget::root()).unwrap();
            black_box(vfs)
        })
    });
}

fn baseline(c: &mut Criterion) {
    let vfs = vfs_tree(10_000, 1024);
    c.bench_function("baseline of a 10,000-file tree", |b| {
        b.iter(|| black_box(vfs.snapshot()))
    });
}

fn change(vfs: &mut Vfs, i: usize) {
    let path = VfsPath::parse(&format!("/d{:03}/f{i:05}.txt", i / 100)).unwrap();
    vfs.write_file(&path, format!("changed {i}")).unwrap();
}

fn diffing(c: &mut Criterion) {
    for (files, changes) in [(10_000, 1), (10_000, 1_000), (100_000, 1)] {
        let mut vfs = vfs_tree(files, 1024);
        let base = vfs.snapshot();
        for i in 0..changes {
            change(&mut vfs, i * (files / changes));
        }
        let now = vfs.snapshot();
        assert_eq!(diff(&base, &now).len(), changes);
        c.bench_function(
            &format!("diff of a {files}-file tree after {changes} change(s)"),
            |b| b.iter(|| black_box(diff(&base, &now))),
        );
    }
    let vfs = vfs_tree(10_000, 1024);
    c.bench_function("write after a baseline (copy-on-write path)", |b| {
        b.iter_batched(
            || (vfs.clone(), vfs.snapshot()),
            |(mut vfs, base)| {
                change(&mut vfs, 5_000);
                black_box((vfs, base))
            },
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, seeding, baseline, diffing);
criterion_main!(benches);
