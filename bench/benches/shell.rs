//! The virtual shell, side by side with bashkit (the `peers` feature:
//! `cargo bench -p goccia-bench --features peers --bench shell`) doing the
//! same work in the same run: a new shell + `echo`, a warm `echo`, `cat` of
//! 1,000 files of 1 KiB piped to `wc -l`, `grep -r` over them, and a
//! 10,000-iteration arithmetic loop.

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use goccia_core::Watch;
use goccia_shell::io::{CaptureWriter, Fd};
use goccia_shell::{Limits, Shell};
use goccia_vfs::{Quota, SharedVfs, Vfs};
use parking_lot::Mutex;

/// 1,000 files of 1 KiB under /data, one line in ten holding "needle".
const SETUP: &str = r#"mkdir -p /data
line=$(printf '%063d' 0)
for i in $(seq 1000); do
  for j in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
    if [ $j = 5 ]; then echo "needle$(printf '%057d' $i)"; else echo "$line"; fi
  done > /data/f$i.txt
done"#;

/// The rows: name and script.
const ROWS: &[(&str, &str)] = &[
    ("warm `echo`", "echo hello"),
    ("`cat` 1,000 files | `wc -l`", "cat /data/*.txt | wc -l"),
    ("`grep -r` over 1,000 files", "grep -r needle /data | wc -l"),
    (
        "10,000-iteration arithmetic loop",
        "x=0; for ((i = 0; i < 10000; i++)); do x=$((x + i % 7)); done; echo $x",
    ),
];

fn goccia_shell(vfs: SharedVfs) -> (Shell, CaptureWriter) {
    let context = goccia_shell::context(
        vfs,
        Watch::new(Duration::from_secs(3600)),
        Limits::default(),
    );
    let out = CaptureWriter::new(usize::MAX);
    let shell = Shell::new(
        context,
        Fd::null_input(),
        Fd::writer(out.clone()),
        Fd::null_output(),
    );
    (shell, out)
}

fn goccia_rows(c: &mut Criterion) {
    let vfs: SharedVfs = Arc::new(Mutex::new(Vfs::new(Quota::UNLIMITED)));
    let (mut shell, out) = goccia_shell(vfs.clone());
    assert_eq!(shell.run_script(SETUP), Ok(0));
    let mut group = c.benchmark_group("shell");
    group.bench_function("goccia: new shell + `echo`", |b| {
        b.iter(|| {
            let (mut shell, out) = goccia_shell(vfs.clone());
            shell.run_script("echo hello").unwrap();
            assert_eq!(out.take(), b"hello\n");
        })
    });
    for (name, script) in ROWS {
        group.bench_function(format!("goccia: {name}"), |b| {
            b.iter(|| {
                shell.run_line(script).unwrap();
                assert!(!out.take().is_empty());
            })
        });
    }
    group.finish();
}

#[cfg(feature = "peers")]
fn bashkit_rows(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // bashkit's default budgets are per exec; the setup alone runs ~20,000
    // commands, so raise them for both the setup and the rows.
    let limits = bashkit::ExecutionLimits::new()
        .max_commands(10_000_000)
        .max_loop_iterations(10_000_000)
        .max_total_loop_iterations(10_000_000);
    let mut bash = bashkit::Bash::builder()
        .limits(limits)
        .session_limits(bashkit::SessionLimits::unlimited())
        .build();
    if let Err(error) = runtime.block_on(bash.exec(SETUP)) {
        panic!("bashkit setup: {error}");
    }
    let mut group = c.benchmark_group("shell");
    group.bench_function("bashkit: new shell + `echo`", |b| {
        b.iter(|| {
            let mut bash = bashkit::Bash::new();
            let result = runtime.block_on(bash.exec("echo hello")).unwrap();
            assert_eq!(result.stdout, "hello\n");
        })
    });
    for (name, script) in ROWS {
        // Both shells must do the same work: same output.
        let expected = {
            let vfs: SharedVfs = Arc::new(Mutex::new(Vfs::new(Quota::UNLIMITED)));
            let (mut shell, out) = goccia_shell(vfs);
            shell.run_script(SETUP).unwrap();
            out.take();
            shell.run_line(script).unwrap();
            String::from_utf8(out.take()).unwrap()
        };
        group.bench_function(format!("bashkit: {name}"), |b| {
            b.iter(|| {
                let result = runtime.block_on(bash.exec(script)).unwrap();
                assert_eq!(result.stdout, expected);
            })
        });
    }
    group.finish();
}

#[cfg(feature = "peers")]
criterion_group!(benches, goccia_rows, bashkit_rows);
#[cfg(not(feature = "peers"))]
criterion_group!(benches, goccia_rows);
criterion_main!(benches);
