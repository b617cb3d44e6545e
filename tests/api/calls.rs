//! Per-call controls (docs/calls.md): a cancel token another thread
//! triggers ends a JS loop, a shell loop and a nested child as
//! `cancelled` (exit 130); per-call timeout, stdin and streaming.

use std::time::{Duration, Instant};

use goccia::{CallOptions, CancelToken, FailureKind, Output, OutputBudget, Run, Sandbox};

/// Runs `call` while another thread cancels after 100 ms; the run and how
/// long after the cancel it returned.
fn cancelled_after_100ms(call: impl FnOnce(&CallOptions) -> Run) -> (Run, Duration) {
    let token = CancelToken::new();
    let options = CallOptions::new().cancel(&token);
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        token.cancel();
        Instant::now()
    });
    let run = call(&options);
    let returned = Instant::now();
    let cancelled_at = canceller.join().unwrap();
    (run, returned.saturating_duration_since(cancelled_at))
}

#[test]
fn a_cancel_token_ends_js_shell_and_nested_work_as_cancelled() {
    let sandbox = Sandbox::builder()
        .file("/spin.js", "while (true) {}")
        .build()
        .unwrap();
    type Call<'a> = Box<dyn Fn(&CallOptions) -> Run + 'a>;
    let cases: [(&str, Call); 4] = [
        (
            "a JS loop",
            Box::new(|o| sandbox.run_script_with("/spin.js", o).unwrap()),
        ),
        (
            "inline JS",
            Box::new(|o| sandbox.run_code_with("for (;;) {}", o).unwrap()),
        ),
        (
            "a shell loop",
            Box::new(|o| sandbox.run_shell_with("while :; do :; done", o).unwrap()),
        ),
        (
            "a nested child",
            Box::new(|o| sandbox.run_shell_with("goccia /spin.js", o).unwrap()),
        ),
    ];
    for (what, call) in cases {
        let (run, latency) = cancelled_after_100ms(|options| call(options));
        assert_eq!(run.exit_code, 130, "{what}: {}", run.stderr_text());
        assert_eq!(run.failure_kind(), Some(FailureKind::Cancelled), "{what}");
        // The deadline is 30 s: this bound only says the cancel, not the
        // deadline, ended it (latency is measured in bench/README.md).
        assert!(latency < Duration::from_secs(5), "{what}: {latency:?}");
    }
    // The session is still usable afterwards, and `$?` says how the
    // cancelled call ended.
    assert_eq!(sandbox.run_shell("echo $?").unwrap().stdout_text(), "130\n");
    assert_eq!(sandbox.run_shell("echo ok").unwrap().stdout_text(), "ok\n");
}

#[test]
fn per_call_timeout_stdin_and_streaming() {
    let sandbox = Sandbox::builder().build().unwrap();
    let options = CallOptions::new().timeout(Duration::from_millis(100));
    let run = sandbox
        .run_shell_with("while :; do :; done", &options)
        .unwrap();
    assert_eq!(run.failure_kind(), Some(FailureKind::Timeout));
    let run = sandbox.run_code_with("for (;;) {}", &options).unwrap();
    assert_eq!(run.failure_kind(), Some(FailureKind::Timeout));
    // The next call has the sandbox's own deadline again.
    assert!(sandbox.run_shell("sleep 0.2").unwrap().success());
    let run = sandbox
        .run_shell_with(
            "sort; read -r x; echo \"[$x]\"",
            &CallOptions::new().stdin("b\na\n"),
        )
        .unwrap();
    assert_eq!(run.stdout_text(), "a\nb\n[]\n");
    assert_eq!(
        sandbox.run_shell("cat").unwrap().stdout_text(),
        "",
        "stdin is per call"
    );
    let (output, stdout, stderr) = Output::captured(OutputBudget::new(1 << 20));
    let streamed = CallOptions::new().stream(&output);
    let run = sandbox
        .run_shell_with("echo out; echo err >&2", &streamed)
        .unwrap();
    assert!(run.stdout.is_empty());
    assert_eq!(
        (stdout.take(), stderr.take()),
        (b"out\n".to_vec(), b"err\n".to_vec())
    );
    sandbox
        .run_code_with("console.log('js out')", &streamed)
        .unwrap();
    assert_eq!(stdout.take(), b"js out\n");
    assert_eq!(
        sandbox.run_shell("echo back").unwrap().stdout_text(),
        "back\n"
    );
}

/// Truncate mode holds the last half of the budget back until the call
/// ends; a streamed shell call gets it (and the marker) in its own sink,
/// as a streamed script does.
#[test]
fn truncated_output_streamed_by_the_caller_ends_with_the_kept_tail() {
    use goccia::{Limits, Overflow};
    let limits = Limits::default()
        .max_output(1000)
        .output_overflow(Overflow::Truncate);
    let sandbox = Sandbox::builder().limits(limits.clone()).build().unwrap();
    for call in ["shell", "script"] {
        let budget = OutputBudget::for_limits(&limits);
        let (output, stdout, _) = Output::captured(budget.clone());
        let options = CallOptions::new().stream(&output);
        let run = match call {
            "shell" => sandbox.run_shell_with("seq 1 2000", &options),
            _ => sandbox.run_code_with("for (let i = 1; i <= 2000; i++) console.log(i);", &options),
        }
        .unwrap();
        assert_eq!(run.exit_code, 0, "{call}");
        let text = String::from_utf8(stdout.take()).unwrap();
        assert!(budget.truncated(), "{call}");
        assert!(text.starts_with("1\n2\n"), "{call}");
        assert!(
            text.contains("bytes of output omitted]\n"),
            "{call}: {text}"
        );
        assert!(text.ends_with("1999\n2000\n"), "{call}: {text}");
    }
}

/// A stop states the deadline that applied and names the setting that set
/// it: the call's own timeout (`CallOptions::timeout`), or the sandbox's
/// limit — also when a capped call ran into the limit.
#[test]
fn a_timeout_names_the_value_that_applied_and_who_set_it() {
    let sandbox = Sandbox::builder()
        .limits(goccia::Limits::default().timeout(Duration::from_millis(300)))
        .build()
        .unwrap();
    let message = |run: Run| run.failure.expect("it failed").message;
    let own = CallOptions::new().timeout(Duration::from_millis(50));
    for run in [
        sandbox.run_shell_with("while :; do :; done", &own).unwrap(),
        sandbox.run_code_with("while (true) {}", &own).unwrap(),
    ] {
        assert_eq!(
            message(run),
            "timeout: the run's deadline of 50 ms passed (give the call a larger CallOptions::timeout)"
        );
    }
    let limit = sandbox.run_shell("while :; do :; done").unwrap();
    assert_eq!(
        message(limit),
        "timeout: the run's deadline of 300 ms passed (raise it with Limits::timeout)"
    );
    let capped =
        CallOptions::new().timeout_within(Duration::from_secs(60), Duration::from_millis(300));
    let run = sandbox.run_code_with("while (true) {}", &capped).unwrap();
    assert_eq!(
        message(run),
        "timeout: the run's deadline of 300 ms passed (raise it with Limits::timeout)"
    );
}

/// A `Run` says when output was cut (truncate mode), whether it was
/// captured in the `Run` or streamed to the caller's sink.
#[test]
fn a_run_says_its_output_was_truncated() {
    let sandbox = Sandbox::builder()
        .limits(
            goccia::Limits::default()
                .max_output(1000)
                .output_overflow(goccia::Overflow::Truncate),
        )
        .build()
        .unwrap();
    let flood = sandbox.run_shell("seq 1 5000").unwrap();
    assert!(flood.ok() && flood.output_truncated, "{flood:?}");
    assert!(!sandbox.run_shell("echo hi").unwrap().output_truncated);
    let js = sandbox
        .run_code("for (let i = 0; i < 5000; i++) console.log(i)")
        .unwrap();
    assert!(js.ok() && js.output_truncated);
    let budget = OutputBudget::with_overflow(100, goccia::Overflow::Truncate);
    let (output, _stdout, _stderr) = Output::captured(budget);
    let streamed = sandbox
        .run_shell_with("seq 1 500", &CallOptions::new().stream(&output))
        .unwrap();
    assert!(streamed.output_truncated);
}

#[test]
fn a_streamed_call_over_its_sinks_budget_states_that_budget() {
    let sandbox = Sandbox::builder().build().unwrap();
    let streamed = || Output::captured(OutputBudget::new(10)).0;
    let shell = sandbox
        .run_shell_with(
            "echo 0123456789abcdef",
            &CallOptions::new().stream(&streamed()),
        )
        .unwrap();
    let js = sandbox
        .run_code_with(
            "console.log('0123456789abcdef')",
            &CallOptions::new().stream(&streamed()),
        )
        .unwrap();
    for (what, run) in [("shell", &shell), ("js", &js)] {
        let message = &run.failure.as_ref().expect(what).message;
        assert!(
            message.contains("output limit exceeded: more than 10 bytes"),
            "{what}: {message}"
        );
    }
    // The session's own budget applies again to the next call.
    let next = sandbox.run_shell("head -c 70000000 /dev/zero").unwrap();
    let message = next.failure.expect("over max_output").message;
    assert!(message.contains("more than 67108864 bytes"), "{message}");
}

#[test]
fn answered_calls_run_in_order_on_the_one_session() {
    let sandbox = std::sync::Arc::new(Sandbox::builder().build().unwrap());
    let (answers, replies) = std::sync::mpsc::channel();
    for i in 0..50 {
        let answers = answers.clone();
        sandbox.run_shell_then(
            &format!("n=$(( ${{n:-0}} + 1 )); echo {i}:$n"),
            &CallOptions::new(),
            move |run| {
                answers
                    .send(run.unwrap().stdout_text().into_owned())
                    .unwrap()
            },
        );
        if i % 10 == 0 {
            // A waited call between them sees the same session.
            let run = sandbox.run_shell("echo $n").unwrap();
            assert_eq!(run.stdout_text(), format!("{}\n", i + 1));
        }
    }
    drop(answers);
    let seen: Vec<String> = replies.iter().collect();
    let expected: Vec<String> = (0..50).map(|i| format!("{i}:{}\n", i + 1)).collect();
    assert_eq!(seen, expected);
}

#[test]
fn a_calls_own_cwd_and_variables_last_for_that_call() {
    use goccia::RunError;
    let sandbox = Sandbox::builder()
        .file("/p/a.txt", "x")
        .env("KEPT", "spec")
        .build()
        .unwrap();
    sandbox
        .run_shell("cd /tmp; export KEPT=session MINE=1")
        .unwrap();
    let options = CallOptions::new()
        .cwd("/p")
        .env("KEPT", "call")
        .env("ONLY", "call");
    let run = sandbox
        .run_shell_with(
            "pwd; echo $PWD $KEPT $ONLY $MINE; sh -c 'echo child sees $ONLY'; export MINE=2; f() { :; }",
            &options,
        )
        .unwrap();
    assert_eq!(run.stdout_text(), "/p\n/p call call 1\nchild sees call\n");
    // Afterwards: the session's folder and those variables as they were;
    // what else the call did stays.
    let after = sandbox
        .run_shell("pwd; echo $PWD $KEPT [$ONLY] $MINE; type -t f")
        .unwrap();
    assert_eq!(after.stdout_text(), "/tmp\n/tmp session [] 2\nfunction\n");
    // A folder that is not one is an error, and nothing ran.
    for (cwd, reason, code) in [
        ("/missing", "No such file or directory", "ENOENT"),
        ("/p/a.txt", "Not a directory", "ENOTDIR"),
        ("/p/a.txt/below", "Not a directory", "ENOTDIR"),
    ] {
        let error = sandbox
            .run_shell_with("touch /ran", &CallOptions::new().cwd(cwd))
            .unwrap_err();
        assert_eq!(error.to_string(), format!("cwd `{cwd}`: {reason}"));
        assert!(matches!(error, RunError::Cwd { .. }));
        assert_eq!(goccia::Error::from(error).code(), code);
    }
    assert!(sandbox.read("/ran").is_err());
    // Scripts run in the session's folder and environment: refused.
    let error = sandbox
        .run_code_with("1", &CallOptions::new().cwd("/p"))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("cwd applies to shell calls only"),
        "{error}"
    );
}

#[test]
fn an_answered_call_refused_before_it_runs_is_answered_with_the_refusal() {
    let sandbox = std::sync::Arc::new(Sandbox::builder().build().unwrap());
    let (answer, reply) = std::sync::mpsc::channel();
    sandbox.run_shell_then("touch /ran", &CallOptions::new().cwd("/nope"), move |run| {
        answer.send(run.map(|_| ())).unwrap()
    });
    let refused = reply.recv().unwrap().unwrap_err();
    assert_eq!(
        refused.to_string(),
        "cwd `/nope`: No such file or directory"
    );
    assert!(sandbox.read("/ran").is_err());
}
