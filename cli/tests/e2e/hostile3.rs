//! Hostile input, third round (issue 41): the classes a red team found on
//! the newer surfaces (host commands, the worker, write-back, snapshots),
//! each reproduced through the binary as the attacker ran it, with
//! bounded wall time. The server's classes are in `hostile3_serve.rs`,
//! the data-changing one-liners in `hostile3_data.rs`.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// `goccia <args>` started as a parent that left descriptors open would
/// start it: `path` open for appending at `fd`, without close-on-exec.
fn with_descriptor(project: &Project, fd: i32, path: &str, args: &[&str]) -> Command {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(project.join(path))
        .unwrap();
    let mut command = Command::new(binary());
    command
        .args(args)
        .current_dir(project.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: dup2 after the fork; the file stays open in the parent
    // until the spawn returns (it moves into the closure).
    unsafe {
        command.pre_exec(move || {
            if libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&file), fd) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command
}

// ----- 1. descriptors that cross into the jail and the worker -----

#[test]
fn a_host_command_gets_none_of_the_descriptors_goccia_inherited() {
    let project = Project::with("w/app.py", "print('hi')\n");
    std::fs::write(project.join("secret.txt"), "the host's secret\n").unwrap();
    let script = "import os\n\
        for fd in (7, 8):\n    \
            try:\n        os.write(fd, b'written through %d\\n' % fd)\n        print('wrote', fd)\n    \
            except OSError as e:\n        print('closed', fd, e.errno)\n\
        print(sorted(int(n) for n in os.listdir('/proc/self/fd')))\n";
    project.write("w/probe.py", script);
    let mut command = with_descriptor(
        &project,
        7,
        "appended.txt",
        &[
            "shell",
            "--host-command",
            "python3",
            "--seed",
            "w=/w",
            "-c",
            "python3 /w/probe.py",
        ],
    );
    let secret = std::fs::File::open(project.join("secret.txt")).unwrap();
    let secret_fd = std::os::fd::AsRawFd::as_raw_fd(&secret);
    // SAFETY: dup2 after the fork of a descriptor held until the spawn.
    unsafe {
        command.pre_exec(move || {
            if libc::dup2(secret_fd, 8) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let output = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("closed 7 9"), "{stdout}");
    assert!(stdout.contains("closed 8 9"), "{stdout}");
    // Only the standard streams (and the listing's own descriptor).
    assert!(stdout.contains("[0, 1, 2, 3]"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(project.join("appended.txt")).unwrap(),
        "",
        "nothing reached the host file through the inherited descriptor"
    );
}

/// The open descriptors of the first child of `parent` that appears
/// within `patience`, read from `/proc`.
fn descriptors_of_child(parent: u32, patience: Duration) -> Vec<i32> {
    let started = Instant::now();
    while started.elapsed() < patience {
        let children = std::fs::read_dir(format!("/proc/{parent}/task"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
            .flat_map(|list| {
                list.split_whitespace()
                    .filter_map(|pid| pid.parse::<u32>().ok())
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        for child in children {
            let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).unwrap_or_default();
            if !String::from_utf8_lossy(&cmdline).contains("__goccia-worker") {
                continue;
            }
            // The worker confines itself first; read once it sleeps.
            let mut fds: Vec<i32> = std::fs::read_dir(format!("/proc/{child}/fd"))
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
                .collect();
            fds.sort();
            if !fds.is_empty() {
                return fds;
            }
        }
        std::thread::yield_now();
    }
    panic!("no worker appeared under {parent}");
}

#[test]
fn the_worker_gets_none_of_the_descriptors_goccia_inherited() {
    let project = Project::new();
    let mut child = with_descriptor(
        &project,
        7,
        "appended.txt",
        &["shell", "--isolate", "process", "-c", "sleep 3"],
    )
    .spawn()
    .unwrap();
    let fds = descriptors_of_child(child.id(), Duration::from_secs(3));
    let _ = child.kill();
    let _ = child.wait();
    assert!(!fds.contains(&7), "the worker holds fd 7: {fds:?}");
    assert!(fds.iter().all(|fd| *fd <= 2), "{fds:?}");
}
