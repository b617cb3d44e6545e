//! Runs a script through the virtual shell on a fresh, empty VFS (a
//! development aid; the product's entry point is `goccia shell`).
//!
//! `cargo run -p goccia-shell --example vsh -- 'echo hi | tr a-z A-Z'`

use std::sync::Arc;
use std::time::Duration;

use goccia_core::{Output, OutputBudget, Stream, Watch};
use goccia_shell::io::{Fd, HostWriter};
use goccia_shell::{Limits, Shell};
use goccia_vfs::{Quota, Vfs};
use parking_lot::Mutex;

fn main() {
    let script = std::env::args().nth(1).unwrap_or_default();
    let vfs = Arc::new(Mutex::new(Vfs::new(Quota::UNLIMITED)));
    let context =
        goccia_shell::context(vfs, Watch::new(Duration::from_secs(10)), Limits::default());
    let output = Output::process(OutputBudget::new(64 << 20));
    let stdout = Fd::writer(HostWriter {
        output: output.clone(),
        stream: Stream::Stdout,
    });
    let stderr = Fd::writer(HostWriter {
        output,
        stream: Stream::Stderr,
    });
    let mut shell = Shell::new(context, Fd::null_input(), stdout, stderr);
    let status = shell.run_script(&script).unwrap_or(124);
    std::process::exit(status);
}
