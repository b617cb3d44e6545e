//! The cost of enforcing limits on CPU-bound JS: fib(27) on a bare QuickJS
//! runtime, then with the interrupt handler goccia installs (deadline,
//! cancellation and tripwire checks) and the heap limit; and the same
//! program through a whole goccia run.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use goccia::{Limits, Output, OutputBudget, Sandbox};
use goccia_core::Watch;
use rquickjs::{Context, Runtime};

const FIB: &str = "function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } fib(27)";

/// Which of goccia's limits a runtime gets.
#[derive(Clone, Copy)]
struct Enforced {
    interrupt: bool,
    heap: bool,
}

fn runtime(enforced: Enforced) -> (Runtime, Context) {
    let runtime = Runtime::new().unwrap();
    if enforced.heap {
        runtime.set_memory_limit(512 << 20);
        runtime.set_max_stack_size(1 << 20);
    }
    if enforced.interrupt {
        let watch = Watch::new(Duration::from_secs(3600));
        let fatal = Arc::new(AtomicBool::new(false));
        runtime.set_interrupt_handler(Some(Box::new(move || {
            fatal.load(Ordering::SeqCst) || watch.check().is_err()
        })));
    }
    let context = Context::full(&runtime).unwrap();
    (runtime, context)
}

fn fib(c: &mut Criterion) {
    let mut group = c.benchmark_group("fib(27)");
    group.sample_size(20);
    let variants = [
        (
            "bare QuickJS",
            Enforced {
                interrupt: false,
                heap: false,
            },
        ),
        (
            "interrupt handler only",
            Enforced {
                interrupt: true,
                heap: false,
            },
        ),
        (
            "heap and stack limits only",
            Enforced {
                interrupt: false,
                heap: true,
            },
        ),
        (
            "goccia's limits (interrupt handler, heap, stack)",
            Enforced {
                interrupt: true,
                heap: true,
            },
        ),
    ];
    for (label, enforced) in variants {
        let (_runtime, context) = runtime(enforced);
        group.bench_function(label, |b| {
            b.iter(|| {
                context.with(|ctx| {
                    let value: i32 = ctx.eval(FIB).unwrap();
                    assert_eq!(value, 196_418);
                })
            })
        });
    }
    let sandbox = Sandbox::builder()
        .file(
            "/main.js",
            format!("const r = {FIB}; if (r !== 196418) throw new Error('fib');"),
        )
        .limits(Limits::default())
        .build()
        .unwrap();
    group.bench_function("a whole goccia run (runtime, prelude, module)", |b| {
        b.iter(|| {
            let (output, _, _) = Output::captured(OutputBudget::new(1 << 20));
            let run = sandbox
                .run_script_with("/main.js", &goccia::CallOptions::new().stream(&output))
                .unwrap();
            assert!(run.failure.is_none());
        })
    });
    group.finish();
}

criterion_group!(benches, fib);
criterion_main!(benches);
