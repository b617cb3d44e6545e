//! `--host-command` (docs/host-commands.md) through the binary, with real
//! bubblewrap, `git` and `python3`: what a program changes comes back into
//! the diff (and through write-back to the host), what it must not reach
//! it cannot (host files outside the system directories, the network, the
//! paths the policy keeps), the deadline kills everything it started, a
//! fork bomb is bounded, sessions do not share scratch trees, and without
//! a working bubblewrap nothing runs.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

fn host(project: &Project, tool: &str, args: &[&str]) -> Run {
    let mut full = vec!["shell", "--host-command", tool];
    full.extend_from_slice(args);
    project.goccia(&full)
}

#[test]
fn git_in_the_sandbox_leaves_a_git_folder_in_the_diff() {
    let project = Project::new();
    project.write("repo/readme.md", "# hi\n");
    let run = host(
        &project,
        "git",
        &[
            "--seed",
            "repo=/repo",
            "--diff",
            "-c",
            "cd /repo && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm first && git log --format=%s",
        ],
    );
    run.assert_ok();
    assert!(run.stdout.starts_with("first\n"), "{}", run.stdout);
    let diff: serde_json::Value = serde_json::from_str(&run.stdout["first\n".len()..]).unwrap();
    let paths: Vec<&str> = diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|change| change["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"/repo/.git/HEAD"), "{paths:?}");
    assert!(paths.iter().any(|p| p.starts_with("/repo/.git/objects/")));
    assert!(!project.exists("repo/.git"), "the host is untouched");
}

#[test]
fn python_writes_a_file_that_is_diffed_and_written_back_after_success() {
    let project = Project::new();
    project.write(
        "w/gen.py",
        "import sys\nopen('out.txt', 'w').write(sys.stdin.read().upper())\nprint('done')\n",
    );
    let run = Command::new(binary())
        .args(["shell", "--host-command", "python3", "--copy-rw", "w=/w", "--json"])
        .args(["-c", "cd /w && echo piped | python3 gen.py && python3 - <<'EOF'\nprint(open('out.txt').read().strip() + '!')\nEOF"])
        .current_dir(project.path())
        .output()
        .unwrap();
    let envelope: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(envelope["exitCode"], 0, "{envelope}");
    assert_eq!(envelope["stdout"], "done\nPIPED!\n");
    assert_eq!(project.read("w/out.txt"), "PIPED\n");
    let programs = &envelope["hostCommands"];
    assert_eq!(programs["backend"], "bwrap");
    assert_eq!(programs["enforcement"], "full", "{programs}");
    assert!(
        programs["programs"][0][1]
            .as_str()
            .unwrap()
            .starts_with("/usr/"),
        "{programs}"
    );
    // A failed run writes nothing back.
    project.write(
        "w/again.py",
        "open('again.txt', 'w').write('x')\nraise SystemExit(3)\n",
    );
    let failed = host(
        &project,
        "python3",
        &["--copy-rw", "w=/w", "-c", "cd /w && python3 again.py"],
    );
    failed.assert_code(3);
    assert!(!project.exists("w/again.txt"));
}

#[test]
fn host_files_outside_the_system_directories_and_the_network_are_out_of_reach() {
    let secret_home =
        tempfile::tempdir_in("/root").unwrap_or_else(|_| tempfile::tempdir().unwrap());
    let secret = secret_home.path().join("secret.txt");
    std::fs::write(&secret, "top secret").unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let project = Project::new();
    let script = format!(
        "import socket, os\n\
         try:\n    print(open({secret:?}).read())\nexcept OSError as e:\n    print('read refused', type(e).__name__)\n\
         try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2); print('connected')\nexcept OSError as e:\n    print('connect refused', type(e).__name__)\n\
         print('shadow', os.path.getsize('/etc/shadow') if os.path.exists('/etc/shadow') else 'absent')\n\
         print('home', os.environ.get('HOME'), 'path', os.environ.get('PATH'))\n\
         print('leak', os.environ.get('GOCCIA_HOST_SECRET'))\n\
         print('hostname', socket.gethostname())\n"
    );
    project.write("probe.py", &script);
    let run = Command::new(binary())
        .args([
            "shell",
            "--host-command",
            "python3",
            "--seed",
            "probe.py=/p/probe.py",
        ])
        .args([
            "--env",
            "VISIBLE=yes",
            "-c",
            "python3 /p/probe.py; echo \"$VISIBLE\"",
        ])
        .env("GOCCIA_HOST_SECRET", "leaked")
        .current_dir(project.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("read refused FileNotFoundError"),
        "{stdout}"
    );
    assert!(!stdout.contains("top secret"));
    assert!(stdout.contains("connect refused"), "{stdout}");
    assert!(stdout.contains("shadow 0"), "masked by /dev/null: {stdout}");
    assert!(
        stdout.contains("home /tmp path /usr/local/sbin:"),
        "{stdout}"
    );
    assert!(stdout.contains("leak None"), "{stdout}");
    assert!(stdout.contains("hostname sandbox"), "{stdout}");
    assert!(stdout.ends_with("yes\n"));
    drop(listener);
}

#[test]
fn the_write_policy_binds_what_the_program_may_change() {
    let project = Project::new();
    project.write("w/keep.txt", "keep\n");
    project.write("w/.git/HEAD", "ref: refs/heads/main\n");
    project.write("data/d.txt", "d\n");
    let write = "import sys\nfor path in sys.argv[1:]:\n    try:\n        open(path, 'w').write('x')\n        print(path, 'written')\n    except OSError as e:\n        print(path, e.strerror)\n";
    project.write("w/try.py", write);
    let read_only = host(
        &project,
        "python3",
        &[
            "--seed",
            "w=/w",
            "--policy",
            "read-only",
            "-c",
            "python3 /w/try.py /w/new.txt; echo status $?",
        ],
    );
    read_only.assert_ok();
    assert!(
        read_only
            .stdout
            .contains("/w/new.txt Read-only file system"),
        "{}",
        read_only.stdout
    );
    let workspace = host(
        &project,
        "python3",
        &[
            "--seed",
            "w=/w",
            "--seed",
            "data=/data",
            "--policy",
            "workspace-write",
            "--writable",
            "/w",
            "--diff",
            "-c",
            "python3 /w/try.py /w/new.txt /data/new.txt /w/.git/config",
        ],
    );
    workspace.assert_ok();
    assert!(
        workspace.stdout.contains("/w/new.txt written"),
        "{}",
        workspace.stdout
    );
    assert!(
        workspace
            .stdout
            .contains("/data/new.txt Read-only file system"),
        "{}",
        workspace.stdout
    );
    assert!(
        workspace
            .stdout
            .contains("/w/.git/config Read-only file system"),
        "{}",
        workspace.stdout
    );
    assert!(workspace.stdout.contains("\"path\": \"/w/new.txt\""));
    assert!(!workspace.stdout.contains("\"path\": \"/data/new.txt\""));
    // A refusal the jail reports in its own words gets the policy's marker.
    let marked = host(
        &project,
        "python3",
        &[
            "--seed",
            "w=/w",
            "--policy",
            "read-only",
            "-c",
            "python3 -c \"open('/w/x','w')\"",
        ],
    );
    marked.assert_code(1);
    assert!(
        marked.stderr.contains("Read-only file system"),
        "{}",
        marked.stderr
    );
    assert!(
        marked
            .stderr
            .contains("python3: [sandbox: file access denied under read-only mode]"),
        "{}",
        marked.stderr
    );
    // An escalation grants the command the wider mode once.
    let escalated = host(
        &project,
        "python3",
        &[
            "--seed",
            "w=/w",
            "--policy",
            "read-only",
            "--approve",
            "always",
            "--diff",
            "-c",
            "escalate --mode full --justification 'generate' -- python3 /w/try.py /w/gen.txt; python3 /w/try.py /w/after.txt",
        ],
    );
    escalated.assert_ok();
    assert!(
        escalated.stdout.contains("/w/gen.txt written"),
        "{}",
        escalated.stdout
    );
    assert!(
        escalated
            .stdout
            .contains("/w/after.txt Read-only file system"),
        "{}",
        escalated.stdout
    );
    assert!(escalated.stdout.contains("\"path\": \"/w/gen.txt\""));
}

/// Pids of the processes whose command line mentions `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_string_lossy().parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|cmdline| String::from_utf8_lossy(&cmdline).contains(marker))
                .unwrap_or(false)
        })
        .collect()
}

#[test]
fn the_deadline_kills_the_program_and_everything_it_started() {
    let project = Project::new();
    let marker = format!("goccia-loop-{}", std::process::id());
    let script = format!(
        "import subprocess, time\nfor _ in range(3):\n    subprocess.Popen(['/usr/bin/sleep', '300'], stdin=subprocess.DEVNULL)\nwhile True:\n    time.sleep(0.01)  # {marker}\n"
    );
    project.write("loop.py", &script);
    let started = Instant::now();
    let run = host(
        &project,
        "python3",
        &[
            "--seed",
            "loop.py=/l/loop.py",
            "--timeout",
            "1500",
            "-c",
            &format!("python3 /l/loop.py {marker}"),
        ],
    );
    run.assert_code(4).stderr_has("deadline");
    assert!(started.elapsed() < Duration::from_secs(10));
    let left = processes_with(&marker);
    assert!(left.is_empty(), "processes left: {left:?}");
    // Nothing else it started: no sleep of ours (the children inherited
    // the namespace, which died with its first process).
    let sleepers: Vec<u32> = processes_with("sleep\u{0}300")
        .into_iter()
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/status"))
                .map(|status| {
                    status.contains("NSpid:")
                        && status
                            .lines()
                            .any(|l| l.starts_with("NSpid:") && l.split_whitespace().count() > 2)
                })
                .unwrap_or(false)
        })
        .collect();
    assert!(sleepers.is_empty(), "sleepers left: {sleepers:?}");
}

#[test]
fn a_fork_bomb_is_contained() {
    let project = Project::new();
    project.write(
        "bomb.py",
        "import os, time\ncount = 0\ntry:\n    for _ in range(5000):\n        if os.fork() == 0:\n            time.sleep(30)\n            os._exit(0)\n        count += 1\nexcept OSError as e:\n    print('fork refused after', count, e.strerror)\n",
    );
    let started = Instant::now();
    let run = host(
        &project,
        "python3",
        &[
            "--seed",
            "bomb.py=/b/bomb.py",
            "--timeout",
            "20000",
            "-c",
            "python3 /b/bomb.py",
        ],
    );
    let elapsed = started.elapsed();
    run.assert_ok();
    assert!(
        run.stdout.starts_with("fork refused after"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    let count: u64 = run
        .stdout
        .split_whitespace()
        .nth(3)
        .unwrap()
        .parse()
        .unwrap();
    assert!(count < 300, "{count} forks before the limit");
    // The program exits after the refusal; the sleeping children die with
    // the namespace, so the command does not wait 30 s for them.
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
}

#[test]
fn two_sessions_do_not_see_each_others_scratch_trees() {
    let project = Project::new();
    let script = "import os, sys\nopen('/w/mine-' + sys.argv[1], 'w').write('x')\nprint(sorted(os.listdir('/w')))\nprint(os.listdir('/tmp'))\n";
    project.write("w/s.py", script);
    let first = host(
        &project,
        "python3",
        &["--seed", "w=/w", "-c", "python3 /w/s.py a"],
    );
    let second = host(
        &project,
        "python3",
        &["--seed", "w=/w", "-c", "python3 /w/s.py b"],
    );
    assert_eq!(first.stdout, "['mine-a', 's.py']\n[]\n", "{}", first.stderr);
    assert_eq!(
        second.stdout, "['mine-b', 's.py']\n[]\n",
        "{}",
        second.stderr
    );
}

#[test]
fn without_a_working_bubblewrap_nothing_runs() {
    let project = Project::new();
    let run = Command::new(binary())
        .args([
            "shell",
            "--host-command",
            "python3",
            "--json",
            "-c",
            "python3 -c 'print(1)'; echo status $?",
        ])
        .env("GOCCIA_TEST_BWRAP", "/nonexistent/bwrap")
        .current_dir(project.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let envelope: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(envelope["stdout"], "status 126\n");
    assert_eq!(
        envelope["stderr"],
        "python3: sandbox unavailable: bubblewrap is not at /nonexistent/bwrap\n"
    );
    assert_eq!(envelope["hostCommands"]["enforcement"], "unavailable");
    // A name that does not resolve is a usage error before anything runs.
    project
        .goccia(&["shell", "--host-command", "no-such-tool", "-c", "true"])
        .assert_code(2)
        .stderr_has("no executable `no-such-tool`");
}

#[test]
fn output_quota_and_audit_apply_to_host_commands() {
    let project = Project::new();
    project.write("probe.py", "print(1)");
    project
        .goccia(&[
            "shell",
            "--host-command",
            "python3",
            "--max-output",
            "1k",
            "-c",
            "python3 -c \"print('x' * 100000)\"",
        ])
        .assert_code(3);
    project
        .goccia(&[
            "shell",
            "--host-command",
            "python3",
            "--fs-quota-bytes",
            "64k",
            "--seed",
            "probe.py=/w/p.py",
            "-c",
            "cd /w && python3 -c \"open('big', 'wb').write(b'x' * 1000000)\"",
        ])
        .assert_code(3);
    // A link the program makes comes back as a VFS link; one the
    // virtual shell makes is a link the program sees.
    let run = project.goccia(&[
        "shell", "--host-command", "python3", "--seed", "probe.py=/w/p.py", "--audit-log", "audit.jsonl",
        "-c", "cd /w && python3 p.py && ln -s p.py link && python3 -c \"import os; os.symlink('p.py', 'l2'); print(os.readlink('link'))\" && readlink l2 && test -L l2 && echo kept",
    ]);
    run.assert_ok();
    assert_eq!(run.stdout, "1\np.py\np.py\nkept\n", "{}", run.stderr);
    let audit = project.read("audit.jsonl");
    let events: Vec<serde_json::Value> = audit
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let spawn = events
        .iter()
        .find(|e| e["kind"] == "host-command" && e["decision"] == "spawn")
        .unwrap();
    assert_eq!(spawn["subject"], "python3 p.py");
    assert!(
        spawn["reason"]
            .as_str()
            .unwrap()
            .contains("enforcement full"),
        "{spawn}"
    );
    let exit = events
        .iter()
        .find(|e| e["kind"] == "host-command" && e["decision"] == "exit")
        .unwrap();
    assert!(
        exit["reason"].as_str().unwrap().starts_with("status 0"),
        "{exit}"
    );
}
