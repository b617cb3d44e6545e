//! Test-only misbehaviour of a worker (compiled with the feature
//! `test-hooks` only, chosen by the parent on the worker's
//! command line before confinement — never reachable from guest input):
//! the end-to-end tests use them to check that the parent trusts nothing
//! a worker says and stops one that misbehaves.

use super::out::FrameOut;

/// Runs the hook `name` as the first call starts.
#[cfg(feature = "test-hooks")]
pub(crate) fn on_call(name: &str, out: &FrameOut) {
    use crate::isolation::wire::{MAX_FRAME, Up, WireStep};
    use std::io::Write;
    match name {
        // Raw system calls after confinement, reported as the call's
        // stdout: what a guest that escaped the interpreter could do.
        "syscalls" => {
            let open = std::fs::read("/etc/hostname")
                .map(|_| ())
                .map_err(|e| e.raw_os_error());
            let report = format!(
                "open {open:?}\nconnect {:?}\nfork {:?}\nexec {:?}\n",
                goccia_confine::check::connect_loopback(),
                goccia_confine::check::fork(),
                goccia_confine::check::exec(),
            );
            let _ = out.send(&Up::Output {
                stderr: false,
                bytes: report.into_bytes(),
            });
        }
        "abort-at-start" => std::process::abort(),
        // Output the parent did not budget for, forever.
        "flood" => loop {
            if out
                .send(&Up::Output {
                    stderr: false,
                    bytes: vec![b'x'; 1 << 20],
                })
                .is_err()
            {
                std::process::exit(0);
            }
        },
        // Never answers (and ignores cancellations: see `serve`).
        "stall" => loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        // A frame header announcing more than the maximum.
        "oversize" => {
            let mut stdout = out.0.lock();
            let _ = stdout.write_all(&(MAX_FRAME as u32 + 1).to_le_bytes());
            let _ = stdout.flush();
            drop(stdout);
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        // Bytes that are no message.
        "garbage" => {
            let mut stdout = out.0.lock();
            let _ = stdout.write_all(&[4, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
            let _ = stdout.flush();
        }
        // Claims a change the policy forbids (a compromised worker).
        "forge" => {
            let _ = out.send(&Up::Steps {
                steps: vec![WireStep::File {
                    path: "/forged.txt".to_string(),
                    mode: 0o644,
                    mtime: 1,
                    size: 6,
                    data: b"forged".to_vec(),
                }],
                last: false,
            });
        }
        _ => {}
    }
}

/// Runs the hook `name` as the first call ends, before its changes are
/// sent: `abort` dies with the guest's writes made but never reported.
#[cfg(feature = "test-hooks")]
pub(crate) fn before_done(name: &str) {
    if name == "abort" {
        std::process::abort();
    }
}

/// Without the feature no hook exists.
#[cfg(not(feature = "test-hooks"))]
pub(crate) fn on_call(_name: &str, _out: &FrameOut) {}

/// Without the feature no hook exists.
#[cfg(not(feature = "test-hooks"))]
pub(crate) fn before_done(_name: &str) {}
