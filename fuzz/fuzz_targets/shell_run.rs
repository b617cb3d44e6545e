//! Any shell script, run under tight limits on an empty VFS: it ends with
//! a status or a stop, never a panic, abort or unbounded growth.
#![no_main]

#[path = "tight.rs"]
mod tight;

use std::sync::Arc;
use std::time::Duration;

use goccia_core::Watch;
use goccia_shell::io::Fd;
use goccia_shell::Shell;
use goccia_vfs::{Quota, Vfs};
use libfuzzer_sys::fuzz_target;
use parking_lot::Mutex;

fuzz_target!(|script: &str| {
    let vfs = Arc::new(Mutex::new(Vfs::new(Quota {
        max_bytes: 1 << 20,
        max_nodes: 200,
    })));
    let limits = tight::shell_limits();
    let context = goccia_shell::context(vfs, Watch::new(Duration::from_millis(200)), limits);
    let mut shell = Shell::new(
        context,
        Fd::null_input(),
        Fd::null_output(),
        Fd::null_output(),
    );
    let _ = shell.run_script(script);
});
