//! The write policy's cost (docs/policy.md): a write-heavy script (10,000
//! small `fs.writeFileSync` calls into a writable root) under
//! `workspace-write` against `full`, and the VFS's own write with and
//! without a fence. Goal: within 5%.

use criterion::{Criterion, criterion_group, criterion_main};
use goccia::{PolicyMode, Sandbox};
use goccia_vfs::{Quota, Vfs, VfsPath, WritePolicy};

const SCRIPT: &str = "import fs from 'fs';\n\
    for (let i = 0; i < 10000; i++) fs.writeFileSync('/w/f' + (i % 100) + '.txt', 'x' + i);";

fn sandbox(mode: PolicyMode) -> Sandbox {
    Sandbox::builder()
        .policy(mode)
        .writable("/w")
        .file("/w/.keep", "")
        .file("/main.js", SCRIPT)
        .build()
        .unwrap()
}

fn policy(c: &mut Criterion) {
    let mut group = c.benchmark_group("policy");
    group.sample_size(20);
    for (name, mode) in [
        ("full", PolicyMode::Full),
        ("workspace-write", PolicyMode::WorkspaceWrite),
    ] {
        let sandbox = sandbox(mode);
        group.bench_function(format!("10,000 writeFileSync under {name}"), |b| {
            b.iter(|| assert!(sandbox.run_script("/main.js").unwrap().success()))
        });
    }
    let paths: Vec<VfsPath> = (0..100)
        .map(|i| VfsPath::parse(&format!("/w/f{i}.txt")).unwrap())
        .collect();
    for (name, fence) in [
        ("no fence", None),
        (
            "workspace-write",
            Some(WritePolicy::new(
                PolicyMode::WorkspaceWrite,
                [VfsPath::parse("/w").unwrap()],
                [VfsPath::parse("/out").unwrap()],
            )),
        ),
    ] {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.mkdir(&VfsPath::parse("/w").unwrap()).unwrap();
        vfs.set_policy(fence);
        group.bench_function(format!("Vfs::write_file x100, {name}"), |b| {
            b.iter(|| {
                for path in &paths {
                    vfs.write_file(path, "x").unwrap();
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, policy);
criterion_main!(benches);
