//! Hostile input, third round (issue 41): the classes a red team found on
//! the newer surfaces (host commands, the worker, write-back, snapshots),
//! each reproduced through the binary as the attacker ran it, with
//! bounded wall time. The server's classes are in `hostile_round3_serve.rs`,
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
        let children = crate::serve::children_of(parent);
        for child in children {
            let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).unwrap_or_default();
            if !String::from_utf8_lossy(&cmdline).contains("__goccia-worker") {
                continue;
            }
            // Read once it is confined (seccomp is its last layer: after
            // it, the worker opens nothing), not while it sets up.
            let status =
                std::fs::read_to_string(format!("/proc/{child}/status")).unwrap_or_default();
            if !status.lines().any(|line| line == "Seccomp:\t2") {
                continue;
            }
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

// ----- 5. write-back paths through links -----

#[test]
fn a_copy_rw_path_through_a_link_is_refused() {
    let project = Project::new();
    project.write("outside/c.txt", "the host's own\n");
    project.write("ws/real/x", "x\n");
    std::os::unix::fs::symlink(project.join("outside"), project.join("ws/link")).unwrap();
    let run = project.goccia(&[
        "shell",
        "--copy-rw",
        "ws/link/c.txt=/c.txt",
        "-c",
        "echo overwritten > /c.txt",
    ]);
    run.assert_code(2)
        .stderr_has("copy-rw path passes through a symbolic link")
        .stderr_has("ws/link");
    assert_eq!(project.read("outside/c.txt"), "the host's own\n");
    // A folder mapping below a link too; a plain --seed may still follow
    // links above what it names (it is never written back).
    project
        .goccia(&[
            "shell",
            "--copy-rw",
            "ws/link=/o",
            "-c",
            "echo x > /o/c.txt",
        ])
        .assert_code(2);
    assert_eq!(project.read("outside/c.txt"), "the host's own\n");
    project
        .goccia(&[
            "shell",
            "--seed",
            "ws/link/c.txt=/c.txt",
            "-c",
            "cat /c.txt",
        ])
        .assert_ok()
        .stdout_is("the host's own\n");
}

// ----- 8. host commands bounded while they run -----

/// `python3 /w/script.py` (the script being `code`) under a 10 MiB fs
/// quota, with `w/` seeded writable.
fn python_under_quota(project: &Project, code: &str) -> Run {
    project.write("w/script.py", code);
    project.goccia(&[
        "shell",
        "--host-command",
        "python3",
        "--fs-quota-bytes",
        "10m",
        "--seed",
        "w=/w",
        "-c",
        "python3 /w/script.py",
    ])
}

#[test]
fn a_host_command_cannot_write_a_file_past_the_quota() {
    let project = Project::with("w/keep", "k\n");
    let code = "import errno\ntry:\n    open('/w/big', 'wb').write(b'x' * (64 << 20))\n    print('wrote')\nexcept OSError as e:\n    print('refused', errno.errorcode[e.errno])\n";
    let run = python_under_quota(&project, code);
    // The kernel stops the file one byte past the room (EFBIG); the quota
    // guard may stop the command before it prints that. Either way the
    // file never grew to 64 MiB and the command ends on the quota.
    run.assert_code(3);
    assert!(
        run.stdout == "refused EFBIG\n" || run.stdout.is_empty(),
        "{run:?}"
    );
}

#[test]
fn a_host_commands_tmp_is_bounded_by_the_quota() {
    let project = Project::with("w/keep", "k\n");
    let code = "import errno\ntry:\n    f = open('/tmp/fill', 'wb')\n    for _ in range(64):\n        f.write(b'x' * (1 << 20))\n    f.flush()\n    print('wrote')\nexcept OSError as e:\n    print('refused', errno.errorcode[e.errno])\n";
    let run = python_under_quota(&project, code);
    assert!(
        run.stdout.contains("refused EFBIG") || run.stdout.contains("refused ENOSPC"),
        "{run:?}"
    );
}

#[test]
fn many_files_past_the_quota_stop_the_command_while_it_runs() {
    let project = Project::with("w/keep", "k\n");
    // Each file is under the quota; together they are 8 times it.
    let code = "import time\nfor n in range(20):\n    open('/w/f%d' % n, 'wb').write(b'x' * (4 << 20))\n    print(n, flush=True)\n    time.sleep(0.05)\nprint('done', flush=True)\n";
    let started = Instant::now();
    let run = python_under_quota(&project, code);
    run.assert_code(3);
    assert!(!run.stdout.contains("done"), "{run:?}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

// ----- 10. scratch copies removed -----

/// The `goccia-host-commands-*` folders in `dir`.
fn scratch_folders(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("goccia-host-commands-"))
        .collect()
}

#[test]
fn scratch_copies_are_removed_at_exit_and_on_sigterm() {
    let project = Project::with("w/a.txt", "a\n");
    let tmp = tempfile::tempdir().unwrap();
    let goccia = |args: &[&str]| {
        let mut command = Command::new(binary());
        command
            .args(args)
            .current_dir(project.path())
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    };
    // A script read from stdin.
    let mut child = goccia(&["shell", "--host-command", "python3", "--seed", "w=/w"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        b"python3 -c 'print(1)'\nexit 0\n",
    )
    .unwrap();
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(scratch_folders(tmp.path()), Vec::<String>::new());
    // -c, a clean exit.
    let output = goccia(&[
        "shell",
        "--host-command",
        "python3",
        "--seed",
        "w=/w",
        "-c",
        "python3 -c pass",
    ])
    .stdin(Stdio::null())
    .output()
    .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(scratch_folders(tmp.path()), Vec::<String>::new());
    // SIGTERM while a host command runs.
    let mut child = goccia(&[
        "shell",
        "--host-command",
        "python3",
        "--seed",
        "w=/w",
        "-c",
        "python3 -c 'print(1, flush=True); import time; time.sleep(30)'",
    ])
    .stdin(Stdio::null())
    .spawn()
    .unwrap();
    let mut first = [0u8; 2];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    assert_eq!(scratch_folders(tmp.path()).len(), 1, "the command runs");
    // SAFETY: our child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
    assert_eq!(scratch_folders(tmp.path()), Vec::<String>::new());
}

// ----- 11. typed-array natives stop at the deadline -----

#[test]
fn typed_array_loops_and_sorts_stop_at_the_deadline() {
    for operation in [
        "a.sort()",
        "for (let i = 0; i < a.length; i += 4096) a[i] = i; a.sort()",
        "new Float64Array(5e7).fill(1).reverse().sort()",
        "a.fill(1); a.join(',')",
        "Array.from({length: 3e6}, (_, i) => String(3e6 - i)).sort()",
    ] {
        crate::hostile_round1::hostile_js(
            &format!("const a = new Uint8Array(4e8); {operation}; for (;;) {{}}"),
            &["--timeout", "500", "--max-memory", "1g"],
            4,
            Duration::from_millis(1500),
            1100,
        );
    }
}

// ----- 13. success that did nothing -----

#[test]
fn a_descriptor_opened_under_an_escalation_keeps_its_rights() {
    let project = Project::with("w/keep", "k\n");
    let run = project.goccia(&[
        "shell",
        "--policy",
        "read-only",
        "--approve",
        "always",
        "--seed",
        "w=/w",
        "-c",
        "escalate --mode full --justification 'a log' -- eval 'exec 4>/w/f'; echo x >&4; echo \"st $?\"; cat /w/f; exec 5>>/w/keep; echo y >&5; echo \"st $?\"; cat /w/keep",
    ]);
    run.assert_code(0);
    assert_eq!(run.stdout, "st 0\nx\nst 1\nk\n", "{}", run.stderr);
    run.stderr_has("[sandbox: file access denied under read-only mode]");
}

#[test]
fn a_write_that_fails_when_its_descriptor_closes_is_not_a_success() {
    let project = Project::new();
    let run = project.goccia(&[
        "shell",
        "--fs-quota-bytes",
        "10",
        "-c",
        "exec 4>/f; printf '%020d' 0 >&4; echo \"st $?\"",
    ]);
    assert_eq!(run.stdout, "st 1\n", "{}", run.stderr);
    run.stderr_has("write error: No space left on device");
}

/// A tar archive with the given members: (name, type, link target, data).
fn tar_with(project: &Project, name: &str, members: &[(&str, char, &str, &str)]) {
    let script = format!(
        "import io, json, sys, tarfile\n\
         with tarfile.open({name:?}, 'w') as t:\n\
         \x20   for name, kind, link, data in json.loads(sys.argv[1]):\n\
         \x20       info = tarfile.TarInfo(name)\n\
         \x20       if kind == 'h':\n\
         \x20           info.type = tarfile.LNKTYPE\n\
         \x20           info.linkname = link\n\
         \x20       data = data.encode()\n\
         \x20       info.size = len(data) if kind == 'f' else 0\n\
         \x20       t.addfile(info, io.BytesIO(data) if kind == 'f' else None)\n"
    );
    let members: Vec<(String, String, String, String)> = members
        .iter()
        .map(|(n, k, l, d)| (n.to_string(), k.to_string(), l.to_string(), d.to_string()))
        .collect();
    let status = Command::new("python3")
        .args(["-c", &script, &serde_json::to_string(&members).unwrap()])
        .current_dir(project.path())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn tar_refuses_members_that_climb_and_links_to_nothing_as_gnu_tar_does() {
    let project = Project::new();
    tar_with(
        &project,
        "evil.tar",
        &[
            ("../escape.txt", 'f', "", "e\n"),
            ("ok.txt", 'f', "", "ok\n"),
            ("a/../../b.txt", 'f', "", "b\n"),
            ("/abs.txt", 'f', "", "abs\n"),
            ("hl", 'h', "/etc/passwd", ""),
            ("copy", 'h', "ok.txt", ""),
        ],
    );
    let script =
        "mkdir /out && cd /out && tar -xf /evil.tar; echo \"st $?\"; find . | sort; cat copy";
    let ours = project.goccia(&["shell", "--seed", "evil.tar", "-c", script]);
    // GNU tar, in a folder of its own, is the oracle.
    std::fs::create_dir(project.join("gnu")).unwrap();
    let gnu = Command::new("bash")
        .args([
            "-c",
            &script
                .replace("mkdir /out && cd /out", "cd gnu")
                .replace("/evil.tar", "../evil.tar"),
        ])
        .current_dir(project.path())
        .output()
        .unwrap();
    assert_eq!(
        ours.stdout,
        String::from_utf8_lossy(&gnu.stdout),
        "{}",
        ours.stderr
    );
    assert!(ours.stdout.starts_with("st 2\n"), "{}", ours.stdout);
    let gnu_stderr = String::from_utf8_lossy(&gnu.stderr);
    for line in [
        "tar: Removing leading `../' from member names",
        "tar: ../escape.txt: Member name contains '..'",
        "tar: a/../../b.txt: Member name contains '..'",
        "tar: Removing leading `/' from hard link targets",
        "tar: Exiting with failure status due to previous errors",
    ] {
        assert!(
            gnu_stderr.contains(line),
            "GNU tar says {line:?}: {gnu_stderr}"
        );
        ours.stderr_has(line);
    }
}

// ----- 14. small ones -----

#[test]
fn serve_never_deletes_a_file_at_its_socket_path() {
    let project = Project::with("ws/a.txt", "a\n");
    project.write("precious", "keep me\n");
    // Bounded: a server that took the path would serve until killed.
    let mut child = Command::new(binary())
        .args(["serve", "--listen", "unix:precious", "--workspace", "w=ws"])
        .current_dir(project.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.and_then(|s| s.code()), Some(2), "{stderr}");
    assert!(stderr.contains("not a socket"), "{stderr}");
    assert_eq!(project.read("precious"), "keep me\n");
}
