//! Nested execution: a child sandbox spawned, run and diffed (seeded with
//! one file, then with a 10,000-file folder: structure is shared, so the
//! two should cost about the same), many children in sequence, and a warm
//! `$` round trip.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use goccia::{Output, OutputBudget, Sandbox};
use goccia_bench::vfs_tree;
use goccia_core::{Limits, Watch};
use goccia_js_api::nest::{ChildSpec, DiffFormat, Nest, ParentState, ScriptRequest};
use goccia_vfs::{SeedSpec, VfsPath};
use goccia_vm::{Engine, Nester};
use parking_lot::Mutex;

const CHILD: &str = "import fs from 'fs'; fs.writeFileSync('/out.txt', 'done');";

fn child_spawn(c: &mut Criterion) {
    let mut vfs = vfs_tree(10_000, 1024);
    vfs.write_file(&VfsPath::parse("/child.js").unwrap(), CHILD)
        .unwrap();
    vfs.write_file(&VfsPath::parse("/one.txt").unwrap(), "one")
        .unwrap();
    vfs.mkdir(&VfsPath::parse("/big").unwrap()).unwrap();
    for i in 0..100 {
        let from = VfsPath::parse(&format!("/d{i:03}")).unwrap();
        vfs.rename(&from, &VfsPath::parse(&format!("/big/d{i:03}")).unwrap())
            .unwrap();
    }
    let parent = ParentState {
        vfs: Arc::new(Mutex::new(vfs)),
        watch: Watch::new(Duration::from_secs(3600)),
        budget: OutputBudget::new(u64::MAX),
        shell: Default::default(),
        stdin: None,
    };
    let nester = Nester::root(Engine::default());
    let copy = |path: &str| SeedSpec::Parent {
        from: path.to_string(),
        to: None,
    };
    let mut group = c.benchmark_group("child sandbox");
    for (label, seed) in [("one file", "/one.txt"), ("a 10,000-file folder", "/big")] {
        let request = ScriptRequest {
            entry: "/child.js".to_string(),
            child: Some(ChildSpec {
                seeds: vec![copy("/child.js"), copy(seed)],
                diff: Some(DiffFormat::Json),
            }),
            timeout: None,
            policy: None,
            inline_source: None,
        };
        group.bench_function(format!("spawn + run + diff, seeded with {label}"), |b| {
            b.iter(|| {
                let result = nester.run_script(&parent, request.clone()).unwrap();
                assert!(result.ok(), "{:?}", result.error);
                assert!(result.changes.is_some());
            })
        });
    }
    group.finish();
}

/// Runs `script` once with `/n.txt` holding `n`; the time of the run.
fn timed_run(script: &str, n: u64) -> Duration {
    let sandbox = Sandbox::builder()
        .file("/main.js", script.to_string())
        .file("/child.js", "export default 1;")
        .file("/n.txt", n.to_string())
        .limits(Limits::default().timeout(Duration::from_secs(600)))
        .build()
        .unwrap();
    let (output, _, err) = Output::captured(OutputBudget::new(1 << 30));
    let started = Instant::now();
    let run = sandbox
        .run_script_with("/main.js", &goccia::CallOptions::new().stream(&output))
        .unwrap();
    let elapsed = started.elapsed();
    assert!(
        run.failure.is_none(),
        "{}",
        String::from_utf8_lossy(&err.take())
    );
    elapsed
}

fn sequences(c: &mut Criterion) {
    let mut group = c.benchmark_group("nested, per operation");
    group.sample_size(10);
    group.bench_function("a trivial child (one of many sequential runScript calls)", |b| {
        b.iter_custom(|iters| {
            timed_run(
                "import fs from 'fs'; import { runScript } from 'goccia';
                 const n = Number(fs.readFileSync('/n.txt', 'utf8'));
                 for (let i = 0; i < n; i++) if (!runScript('/child.js', { seed: ['/child.js'] }).ok) throw new Error('child');",
                iters,
            )
        })
    });
    group.bench_function("a warm `$` round trip (echo)", |b| {
        b.iter_custom(|iters| {
            timed_run(
                "import fs from 'fs'; import { $ } from 'goccia';
                 await $`echo warm`.quiet();
                 const n = Number(fs.readFileSync('/n.txt', 'utf8'));
                 for (let i = 0; i < n; i++) if ((await $`echo hi`.text()) !== 'hi\\n') throw new Error('echo');",
                iters,
            )
        })
    });
    group.finish();
}

criterion_group!(benches, child_spawn, sequences);
criterion_main!(benches);
