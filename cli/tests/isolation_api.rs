//! Process isolation through the library (docs/isolation.md), with the
//! `goccia` binary as the worker: the calls of the API behave as they do
//! in-process — one session across calls, host reads and writes in
//! between, snapshots, modes, children, cancellation, streaming, the
//! approver — and a crashed worker is replaced by a fresh one.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use goccia::isolation::{Isolation, WorkerProgram};
use goccia::{
    CallOptions, CancelToken, ChildSeed, Decision, FailureKind, Output, OutputBudget, PolicyMode,
    Sandbox, SandboxBuilder,
};

fn worker() -> WorkerProgram {
    WorkerProgram::new(env!("CARGO_BIN_EXE_goccia"))
}

fn isolated() -> SandboxBuilder {
    Sandbox::builder().isolation(Isolation::Process(worker()))
}

#[test]
fn one_session_across_calls_with_host_reads_and_writes_in_between() {
    let sandbox = isolated().file("/work/a.txt", "one\n").build().unwrap();
    let run = sandbox
        .run_shell("cd /work && export GREETING=hi && greet() { echo \"$GREETING $1\"; }")
        .unwrap();
    assert!(run.success(), "{run:?}");
    assert_eq!(
        sandbox.run_shell("greet there; pwd").unwrap().stdout_text(),
        "hi there\n/work\n"
    );
    // The guest's write is the host's to read; the host's write the guest's.
    sandbox
        .run_shell("echo two >> a.txt; chmod +x a.txt")
        .unwrap();
    assert_eq!(&sandbox.read("/work/a.txt").unwrap()[..], b"one\ntwo\n");
    sandbox.write("/work/b.txt", "from the host\n").unwrap();
    let run = sandbox
        .run_shell("cat b.txt; test -x a.txt && echo executable")
        .unwrap();
    assert_eq!(run.stdout_text(), "from the host\nexecutable\n");
    // JS sees the same tree and the session's cwd.
    let run = sandbox
        .run_code("import fs from 'fs'; export default fs.readFileSync('b.txt', 'utf8').length;")
        .unwrap();
    assert_eq!(run.result, Some(serde_json::json!(14)));
    let changes: Vec<String> = sandbox
        .changes()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(changes, ["/work/a.txt", "/work/b.txt"]);
    assert_eq!(sandbox.confinement().enforcement, "full");
}

#[test]
fn snapshots_restores_and_resets_reach_the_worker() {
    let sandbox = isolated().file("/f", "1").build().unwrap();
    let before = sandbox.snapshot().unwrap();
    sandbox.run_shell("echo 2 > /f; touch /g").unwrap();
    sandbox.restore(before).unwrap();
    assert_eq!(
        sandbox.run_shell("cat /f; ls /").unwrap().stdout_text(),
        "1f\ntmp\n"
    );
    sandbox.run_shell("echo 3 > /f").unwrap();
    sandbox.reset();
    assert_eq!(sandbox.run_shell("cat /f").unwrap().stdout_text(), "1");
}

#[test]
fn children_are_isolated_too_and_merge_back() {
    let parent = isolated().file("/src/a.txt", "a\n").build().unwrap();
    // Its working folder and variables cross to the worker with it.
    let options = goccia::ChildOptions::new().cwd("/src").env("TASK", "lint");
    let child = parent
        .child_with(&[ChildSeed::path("/src")], &options)
        .unwrap();
    assert_eq!(
        child.run_shell("pwd; echo $TASK").unwrap().stdout_text(),
        "/src\nlint\n"
    );
    assert!(child.run_shell("echo b >> a.txt").unwrap().success());
    assert_eq!(child.confinement().mode, "process");
    assert_eq!(&parent.read("/src/a.txt").unwrap()[..], b"a\n");
    parent.merge(&child).unwrap();
    assert_eq!(
        parent.run_shell("cat /src/a.txt").unwrap().stdout_text(),
        "a\nb\n"
    );
    // A child a guest starts runs in the same worker, under its confinement.
    parent.write("/c.js", "export default 6 * 7").unwrap();
    let run = parent
        .run_code("import { runScript } from 'goccia'; export default runScript('/c.js', {seed: ['/c.js']}).result;")
        .unwrap();
    assert_eq!(run.result, Some(serde_json::json!(42)));
}

#[test]
fn a_cancel_from_another_thread_ends_the_call_promptly() {
    let sandbox = isolated().build().unwrap();
    let token = CancelToken::new();
    let canceller = {
        let token = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            let at = Instant::now();
            token.cancel();
            at
        })
    };
    let run = sandbox
        .run_shell_with("while :; do :; done", &CallOptions::new().cancel(&token))
        .unwrap();
    let cancelled_at = canceller.join().unwrap();
    assert_eq!(
        (run.exit_code, run.failure_kind()),
        (130, Some(FailureKind::Cancelled))
    );
    // Measured, not a timing assertion: docs/calls.md's bound is 50 ms.
    println!("cancel to return: {:?}", cancelled_at.elapsed());
    let js = sandbox
        .run_code_with("while (true) {}", &CallOptions::new().cancel(&token))
        .unwrap();
    assert_eq!(js.failure_kind(), Some(FailureKind::Cancelled));
    assert_eq!(
        sandbox.run_shell("echo still here").unwrap().stdout_text(),
        "still here\n"
    );
}

#[test]
fn output_streams_as_produced_and_truncates_as_in_process() {
    let sandbox = isolated().build().unwrap();
    let (output, stdout, stderr) = Output::captured(OutputBudget::new(1 << 20));
    let run = sandbox
        .run_shell_with(
            "echo out; echo err >&2",
            &CallOptions::new().stream(&output),
        )
        .unwrap();
    assert!(run.success() && run.stdout.is_empty());
    assert_eq!(
        (stdout.take(), stderr.take()),
        (b"out\n".to_vec(), b"err\n".to_vec())
    );
    let truncating = isolated()
        .limits(
            goccia::Limits::default()
                .max_output(100)
                .output_overflow(goccia::Overflow::Truncate),
        )
        .build()
        .unwrap();
    let local = Sandbox::builder()
        .limits(truncating.limits().clone())
        .build()
        .unwrap();
    let a = truncating.run_shell("seq 1 1000").unwrap();
    let b = local.run_shell("seq 1 1000").unwrap();
    assert_eq!(a.stdout_text(), b.stdout_text());
    assert!(a.stdout_text().contains("bytes of output omitted]"));
}

#[test]
fn escalations_reach_the_hosts_approver() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let sandbox = isolated()
        .policy(PolicyMode::ReadOnly)
        .approver(move |_: &goccia::EscalationRequest| {
            counter.fetch_add(1, Ordering::SeqCst);
            Decision::AllowedOnce
        })
        .build()
        .unwrap();
    let denied = sandbox.run_shell("touch /a").unwrap();
    assert_eq!(denied.exit_code, 1);
    assert!(
        denied
            .stderr_text()
            .contains("[sandbox: file access denied under read-only mode]")
    );
    let granted = sandbox
        .run_shell("escalate --mode full --justification 'needed' -- touch /a")
        .unwrap();
    assert!(granted.success(), "{granted:?}");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert!(sandbox.read("/a").is_ok(), "the granted write landed");
}

#[test]
fn a_crashed_worker_is_replaced_by_a_fresh_one() {
    let program = worker().hook("abort");
    let sandbox = Sandbox::builder()
        .isolation(Isolation::Process(program))
        .build()
        .unwrap();
    sandbox.run_shell("cd /tmp").unwrap_err_or_crash();
    let run = sandbox.run_shell("pwd").unwrap();
    // The session lived in the crashed worker: a fresh one starts at /.
    assert_eq!(run.stdout_text(), "/\n");
}

#[test]
fn a_worker_that_cannot_be_started_is_reported_by_each_call() {
    // Started as the sandbox is built, the failure waits for the call.
    let sandbox = Sandbox::builder()
        .isolation(Isolation::Process(WorkerProgram::new(
            "/nonexistent/goccia",
        )))
        .build()
        .unwrap();
    for _ in 0..2 {
        let error = sandbox.run_shell("echo hi").unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("cannot start the worker /nonexistent/goccia: No such file or directory"),
            "{text}"
        );
    }
}

#[test]
fn a_relative_worker_path_is_found_from_the_callers_folder() {
    // The worker starts in `/`: the path must be resolved here first.
    // (Relative to this folder only: from `/` it names nothing.)
    let folder = std::env::current_dir().unwrap();
    let here: Vec<_> = folder.components().collect();
    let exe: Vec<_> = std::path::Path::new(env!("CARGO_BIN_EXE_goccia"))
        .components()
        .collect();
    let shared = here.iter().zip(&exe).take_while(|(a, b)| a == b).count();
    let mut relative = std::path::PathBuf::new();
    for _ in shared..here.len() {
        relative.push("..");
    }
    relative.extend(&exe[shared..]);
    assert!(
        !std::path::Path::new("/").join(&relative).exists(),
        "{relative:?}"
    );
    let sandbox = Sandbox::builder()
        .isolation(Isolation::Process(WorkerProgram::new(&relative)))
        .build()
        .unwrap();
    assert_eq!(sandbox.run_shell("echo hi").unwrap().stdout_text(), "hi\n");
}

/// The worker processes of this test process whose command line holds
/// `marker`. (Found through each process's parent: listing this process's
/// threads' children can skip one while other tests' threads come and go.)
fn workers_marked(marker: &str) -> usize {
    let me = format!("PPid:\t{}", std::process::id());
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return 0;
    };
    processes
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| name.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter(|entry| {
            std::fs::read_to_string(entry.path().join("status"))
                .is_ok_and(|status| status.lines().any(|line| line == me))
        })
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .filter(|cmdline| {
            let words: Vec<&[u8]> = cmdline.split(|byte| *byte == 0).collect();
            words.contains(&&b"__goccia-worker"[..]) && words.contains(&marker.as_bytes())
        })
        .count()
}

#[test]
fn the_worker_starts_when_the_sandbox_is_built() {
    // An unknown hook does nothing but mark this test's worker on its
    // command line (other tests' workers run beside it).
    let marker = format!("prestart-{}", std::process::id());
    let sandbox = Sandbox::builder()
        .isolation(Isolation::Process(worker().hook(&marker)))
        .build()
        .unwrap();
    // `posix_spawn` returns once the worker's `exec` has begun, a moment
    // before the kernel shows its new command line: wait for it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while workers_marked(&marker) == 0 && Instant::now() < deadline {
        std::thread::yield_now();
    }
    assert_eq!(
        workers_marked(&marker),
        1,
        "no call yet, and its worker runs"
    );
    assert_eq!(sandbox.confinement().enforcement, "not started");
    assert_eq!(sandbox.run_shell("echo hi").unwrap().stdout_text(), "hi\n");
    assert_eq!(sandbox.confinement().enforcement, "full");
    assert_eq!(
        workers_marked(&marker),
        1,
        "the first call used that worker"
    );
    drop(sandbox);
    // Killed with the sandbox (and reaped off this thread): gone from the
    // command lines once the kernel has taken it down.
    let deadline = Instant::now() + Duration::from_secs(10);
    while workers_marked(&marker) > 0 && Instant::now() < deadline {
        std::thread::yield_now();
    }
    assert_eq!(
        workers_marked(&marker),
        0,
        "the worker ended with its sandbox"
    );
}

#[test]
fn the_worker_outlives_the_thread_that_built_and_first_called_its_sandbox() {
    // A pool's thread (tokio's blocking threads, a Python thread) may end
    // while the sandbox lives on, and the kernel's parent-death signal
    // follows the thread that started a worker, not the process.
    let sandbox = std::thread::spawn(|| {
        let sandbox = isolated().build().unwrap();
        assert!(sandbox.run_shell("cd /tmp").unwrap().success());
        sandbox
    })
    .join()
    .unwrap();
    // Long enough for a kill that follows the thread's end to land.
    let run = sandbox.run_shell("sleep 0.3; pwd").unwrap();
    assert_eq!(run.failure.as_ref().map(|failure| &failure.message), None);
    assert_eq!(
        run.stdout_text(),
        "/tmp\n",
        "the same worker, its session intact"
    );
}

trait CrashCheck {
    fn unwrap_err_or_crash(self);
}

impl CrashCheck for Result<goccia::Run, goccia::RunError> {
    fn unwrap_err_or_crash(self) {
        let run = self.expect("a run, not an error");
        assert_eq!(
            run.failure_kind(),
            Some(FailureKind::IsolationCrash),
            "{run:?}"
        );
        assert_eq!(run.exit_code, 70);
    }
}

#[test]
fn isolated_sandboxes_on_threads_do_not_see_each_other() {
    let handles: Vec<_> = (0..4)
        .map(|n| {
            std::thread::spawn(move || {
                let sandbox = isolated().build().unwrap();
                sandbox.run_shell(&format!("echo {n} > /mine")).unwrap();
                sandbox
                    .run_shell("cat /mine; ls /")
                    .unwrap()
                    .stdout_text()
                    .into_owned()
            })
        })
        .collect();
    for (n, handle) in handles.into_iter().enumerate() {
        assert_eq!(handle.join().unwrap(), format!("{n}\nmine\ntmp\n"));
    }
}

#[test]
fn a_calls_own_cwd_and_variables_reach_the_worker_and_last_for_that_call() {
    let sandbox = isolated().file("/p/a.txt", "x").build().unwrap();
    sandbox.run_shell("cd /tmp").unwrap();
    let options = CallOptions::new().cwd("/p").env("ONLY", "call");
    let run = sandbox.run_shell_with("ls; echo $ONLY", &options).unwrap();
    assert_eq!(run.stdout_text(), "a.txt\ncall\n", "{run:?}");
    let after = sandbox.run_shell("pwd; echo \"[$ONLY]\"").unwrap();
    assert_eq!(after.stdout_text(), "/tmp\n[]\n");
    let error = sandbox
        .run_shell_with("true", &CallOptions::new().cwd("/nope"))
        .unwrap_err();
    assert_eq!(error.to_string(), "cwd `/nope`: No such file or directory");
}

#[test]
fn an_answered_shell_call_is_answered_from_the_worker_too() {
    let sandbox = Arc::new(isolated().build().unwrap());
    let (answer, reply) = std::sync::mpsc::channel();
    for command in ["export N=1", "echo $N"] {
        let answer = answer.clone();
        sandbox.run_shell_then(command, &CallOptions::new(), move |run| {
            answer
                .send(run.map(|run| run.stdout_text().into_owned()))
                .unwrap()
        });
        assert!(reply.recv().unwrap().is_ok());
    }
    let sender = answer.clone();
    sandbox.run_shell_then("echo $N", &CallOptions::new(), move |run| {
        sender
            .send(run.map(|run| run.stdout_text().into_owned()))
            .unwrap()
    });
    assert_eq!(reply.recv().unwrap().unwrap(), "1\n");
    // Refused before it runs: answered with the refusal.
    sandbox.run_shell_then("true", &CallOptions::new().cwd("/nope"), move |run| {
        answer.send(run.map(|_| String::new())).unwrap()
    });
    let refused = reply.recv().unwrap().unwrap_err();
    assert_eq!(
        refused.to_string(),
        "cwd `/nope`: No such file or directory"
    );
}

#[test]
fn a_snapshot_holds_the_workers_shell_state_and_forks_carry_it() {
    let sandbox = isolated().file("/w/a.txt", "a\n").build().unwrap();
    sandbox
        .run_shell("cd /w; export STAGE=one; f() { echo \"f $STAGE\"; }; set -o pipefail")
        .unwrap();
    let id = sandbox.snapshot().unwrap();
    sandbox
        .run_shell("cd /; STAGE=two; unset -f f; set +o pipefail")
        .unwrap();
    sandbox.restore(id).unwrap();
    let show = "pwd; f; set -o | grep -E '^pipefail' | tr -s ' \\t' ' '";
    assert_eq!(
        sandbox.run_shell(show).unwrap().stdout_text(),
        "/w\nf one\npipefail on\n"
    );
    let forks = sandbox.fork(Some(id), 2).unwrap();
    for fork in &forks {
        assert_eq!(fork.confinement().mode, "process");
        assert_eq!(
            fork.run_shell(show).unwrap().stdout_text(),
            "/w\nf one\npipefail on\n"
        );
    }
    forks[0].run_shell("echo b >> a.txt").unwrap();
    assert_eq!(&forks[1].read("/w/a.txt").unwrap()[..], b"a\n");
}
