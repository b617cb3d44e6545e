//! A whole guest run under tight limits: any source ends with an outcome
//! (never a panic, abort or hang past the deadline).
#![no_main]

use std::time::Duration;

use goccia::{Limits, Sandbox};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|source: &str| {
    let limits = Limits::default()
        .timeout(Duration::from_millis(200))
        .max_memory(16 << 20)
        .max_output(64 << 10)
        .fs_quota_bytes(1 << 20)
        .fs_node_limit(200)
        .max_depth(3);
    let Ok(sandbox) = Sandbox::builder()
        .limits(limits)
        .file("/main.js", source.to_string())
        .build()
    else {
        return;
    };
    let _ = sandbox.run_script("/main.js");
});
