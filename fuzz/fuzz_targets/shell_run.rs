//! Any shell script, run under tight limits on an empty VFS: it ends with
//! a status or a stop, never a panic, abort or unbounded growth.
#![no_main]

use std::sync::Arc;
use std::time::Duration;

use goccia_core::Watch;
use goccia_shell::io::Fd;
use goccia_shell::{Context, Limits, Shell};
use goccia_vfs::{Quota, Vfs};
use libfuzzer_sys::fuzz_target;
use parking_lot::Mutex;

fuzz_target!(|script: &str| {
    let vfs = Arc::new(Mutex::new(Vfs::new(Quota {
        max_bytes: 1 << 20,
        max_nodes: 200,
    })));
    let limits = Limits::default()
        .max_commands(5_000)
        .max_loop_iterations(5_000)
        .max_function_depth(50)
        .max_substitution_bytes(64 << 10)
        .max_buffered_input(1 << 20)
        .max_concurrent_stages(16)
        .max_value_bytes(1 << 20)
        .max_memory(64 << 20);
    let context = Context::new(vfs, Watch::new(Duration::from_millis(200)), limits);
    let mut shell = Shell::new(
        context,
        Fd::null_input(),
        Fd::null_output(),
        Fd::null_output(),
    );
    let _ = shell.run_script(script);
});
