//! Mirrors `e2e/limits.rs`: every limit ends a run with its kind; the
//! sandbox stays usable after.

use std::time::Duration;

use goccia::{FailureKind, Limits, Sandbox};

fn limited(limits: Limits, source: &str) -> Sandbox {
    Sandbox::builder()
        .limits(limits)
        .file("/main.js", source.to_string())
        .build()
        .unwrap()
}

#[test]
fn a_deadline_cannot_be_caught() {
    let sandbox = limited(
        Limits::default().timeout(Duration::from_millis(150)),
        "for (;;) { try { while (true) {} } catch {} }",
    );
    let run = sandbox.run_script("/main.js").unwrap();
    assert_eq!(
        (run.exit_code, run.failure_kind()),
        (4, Some(FailureKind::Timeout))
    );
    // The next run gets its own deadline.
    sandbox.write("/main.js", "console.log('again')").unwrap();
    assert_eq!(
        sandbox.run_script("/main.js").unwrap().stdout_text(),
        "again\n"
    );
}

#[test]
fn output_past_the_cap_is_dropped_and_is_a_resource_limit() {
    let run = limited(
        Limits::default().max_output(10),
        "for (;;) console.log('xxxx')",
    )
    .run_script("/main.js")
    .unwrap();
    assert_eq!(
        (run.exit_code, run.failure_kind()),
        (3, Some(FailureKind::ResourceLimit))
    );
    assert_eq!(run.stdout.len(), 10);
}

#[test]
fn memory_exhaustion_is_a_resource_limit() {
    let run = limited(
        Limits::default().max_memory(32 << 20),
        "const a = []; for (;;) a.push(new Array(1e5).fill(1))",
    )
    .run_script("/main.js")
    .unwrap();
    assert_eq!(run.failure_kind(), Some(FailureKind::ResourceLimit));
}

#[test]
fn deep_recursion_is_a_catchable_range_error() {
    let run = limited(
        Limits::default(),
        "const f = n => f(n + 1); try { f(0) } catch (e) { console.log(e instanceof RangeError) }",
    )
    .run_script("/main.js")
    .unwrap();
    assert!(run.success());
    assert_eq!(run.stdout_text(), "true\n");
}

#[test]
fn an_uncaught_quota_error_is_a_resource_limit_and_keeps_old_content() {
    let sandbox = limited(
        Limits::default().fs_quota_bytes(1000),
        "import fs from 'fs'; fs.writeFileSync('/f', 'x'.repeat(2000))",
    );
    let run = sandbox.run_script("/main.js").unwrap();
    assert_eq!(run.failure_kind(), Some(FailureKind::ResourceLimit));
    assert!(sandbox.read("/f").is_err());
}

#[test]
fn shell_limits_end_the_command_line_with_their_codes() {
    let sandbox = limited(Limits::default().timeout(Duration::from_millis(150)), "");
    let run = sandbox.run_shell("while true; do :; done").unwrap();
    assert_eq!(
        (run.exit_code, run.failure_kind()),
        (4, Some(FailureKind::Timeout))
    );
    let run = sandbox.run_shell("f() { f; }; f").unwrap();
    assert_eq!(run.failure_kind(), Some(FailureKind::ResourceLimit));
    assert_eq!(
        sandbox.run_shell("echo still here").unwrap().stdout_text(),
        "still here\n"
    );
}

#[test]
fn each_shell_call_gets_the_whole_output_budget() {
    let sandbox = limited(Limits::default().max_output(6), "");
    for _ in 0..3 {
        let run = sandbox.run_shell("echo 12345").unwrap();
        assert!(run.success());
        assert_eq!(run.stdout_text(), "12345\n");
    }
    let run = sandbox.run_shell("echo 123456").unwrap();
    assert_eq!(run.failure_kind(), Some(FailureKind::ResourceLimit));
}
