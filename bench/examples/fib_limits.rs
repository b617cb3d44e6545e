//! fib(27) once, with the limits named on the command line (`bare`,
//! `interrupt`, `heap`, `all`): for instruction counts under
//! `valgrind --tool=callgrind`, which are repeatable where wall time on a
//! shared machine is not (see bench/README.md).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use goccia_core::Watch;
use rquickjs::{Context, Runtime};

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "bare".into());
    let runtime = Runtime::new().unwrap();
    if which == "heap" || which == "all" {
        runtime.set_memory_limit(512 << 20);
        runtime.set_max_stack_size(1 << 20);
    }
    if which == "interrupt" || which == "all" {
        let watch = Watch::new(Duration::from_secs(3600));
        let fatal = Arc::new(AtomicBool::new(false));
        runtime.set_interrupt_handler(Some(Box::new(move || {
            fatal.load(Ordering::SeqCst) || watch.check().is_err()
        })));
    }
    let context = Context::full(&runtime).unwrap();
    context.with(|ctx| {
        let value: i32 = ctx
            .eval("function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } fib(27)")
            .unwrap();
        assert_eq!(value, 196_418);
    });
}
