//! Running a script through the shell on a fresh VFS, for tests.

#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use goccia_core::Watch;
use goccia_shell::io::{CaptureWriter, Fd};
use goccia_shell::{Limits, Shell, Stop};
use goccia_vfs::{Quota, SharedVfs, Vfs};
use parking_lot::Mutex;

/// What a script printed and its exit status, or why the shell stopped.
pub struct Ran {
    pub stdout: String,
    pub stderr: String,
    pub status: Result<i32, Stop>,
}

/// A VFS with a 64 MiB, 100,000-node quota.
pub fn fresh_vfs() -> SharedVfs {
    vfs_with_quota(Quota {
        max_bytes: 64 << 20,
        max_nodes: 100_000,
    })
}

pub fn vfs_with_quota(quota: Quota) -> SharedVfs {
    Arc::new(Mutex::new(Vfs::new(quota)))
}

/// Runs `script` on `vfs` with the given deadline.
pub fn run_on(vfs: SharedVfs, script: &str, timeout: Duration) -> Ran {
    run_limited(vfs, script, timeout, Limits::default())
}

/// Runs `script` on `vfs` with the given deadline and shell limits.
/// The shell runs on a thread with the stack the library asks for
/// ([`goccia_shell::THREAD_STACK`]), as the facade runs it: a test thread's
/// 2 MiB is too little for deep recursion in a debug build.
pub fn run_limited(vfs: SharedVfs, script: &str, timeout: Duration, limits: Limits) -> Ran {
    let script = script.to_owned();
    std::thread::Builder::new()
        .stack_size(goccia_shell::THREAD_STACK)
        .spawn(move || run_here(vfs, &script, timeout, limits))
        .expect("a thread for the shell")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn run_here(vfs: SharedVfs, script: &str, timeout: Duration, limits: Limits) -> Ran {
    let context = goccia_shell::context(vfs, Watch::new(timeout), limits);
    let stdout = CaptureWriter::new(16 << 20);
    let stderr = CaptureWriter::new(16 << 20);
    let mut shell = Shell::new(
        context,
        Fd::null_input(),
        Fd::writer(stdout.clone()),
        Fd::writer(stderr.clone()),
    );
    let status = shell.run_script(script);
    drop(shell);
    Ran {
        stdout: String::from_utf8_lossy(&stdout.take()).into_owned(),
        stderr: String::from_utf8_lossy(&stderr.take()).into_owned(),
        status,
    }
}

/// Runs `script` on a fresh VFS with a 10 s deadline.
pub fn run(script: &str) -> Ran {
    run_on(fresh_vfs(), script, Duration::from_secs(10))
}
