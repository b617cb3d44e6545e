//! Limits (docs/limits.md) and their exit codes.

use crate::common::*;

#[test]
fn an_infinite_loop_times_out_with_exit_4() {
    let project = Project::new();
    run_js(&project, "while (true) {}", &["--timeout", "200"])
        .assert_code(4)
        .stderr_has("timeout: the run's deadline of 200 ms passed");
}

#[test]
fn a_deadline_cannot_be_caught() {
    let project = Project::new();
    let run = run_js(
        &project,
        "for (;;) { try { while (true) {} } catch (e) { console.log('caught'); } finally { console.log('finally'); } }",
        &["--timeout", "200"],
    );
    run.assert_code(4);
    assert_eq!(run.stdout, "");
}

#[test]
fn output_past_the_cap_is_dropped_and_exits_3() {
    let project = Project::new();
    let run = run_js(
        &project,
        "try { for (;;) console.log('0123456789'); } catch (e) { console.log('caught'); }",
        &["--max-output", "100"],
    );
    run.assert_code(3).stderr_has("output limit exceeded");
    assert_eq!(run.stdout.len(), 100);
    assert!(!run.stdout.contains("caught"));
}

#[test]
fn running_out_of_memory_exits_3() {
    let project = Project::new();
    run_js(
        &project,
        "const a = []; for (;;) a.push(new Array(100000).fill(1));",
        &["--max-memory", "32m"],
    )
    .assert_code(3)
    .stderr_has("out of memory");
    run_js(
        &project,
        "new ArrayBuffer(256 * 1024 * 1024);",
        &["--max-memory", "32m"],
    )
    .assert_code(3);
}

#[test]
fn reading_a_file_counts_against_the_memory_limit() {
    let project = Project::new();
    run_js(
        &project,
        "import fs from 'fs'; fs.writeFileSync('/big', new Uint8Array(8 * 1024 * 1024));\n\
         const keep = []; for (let i = 0; i < 64; i++) keep.push(fs.readFileSync('/big'));",
        &["--max-memory", "64m"],
    )
    .assert_code(3);
}

#[test]
fn deep_recursion_is_a_catchable_range_error() {
    let project = Project::new();
    run_js(
        &project,
        "function down(n) { return down(n + 1) + 1; }\n\
         try { down(0); } catch (e) { console.log(e instanceof RangeError, e.message); }",
        &[],
    )
    .assert_ok()
    .stdout_is("true Maximum call stack size exceeded\n");
    // A guest raising the trace limit still gets a bounded report.
    run_js(
        &project,
        "Error.stackTraceLimit = 100000; function down() { down(); } down();",
        &[],
    )
    .assert_code(1)
    .stderr_has("RangeError: Maximum call stack size exceeded")
    .stderr_has("more frames");
}

#[test]
fn an_uncaught_quota_error_is_a_resource_limit() {
    let project = Project::new();
    run_js(
        &project,
        "import fs from 'fs'; fs.writeFileSync('/big', 'x'.repeat(10000));",
        &["--fs-quota-bytes", "4k"],
    )
    .assert_code(3)
    .stderr_has("ENOSPC");
}

#[test]
fn a_forged_enospc_without_a_quota_hit_is_a_script_error() {
    js("const e = new Error('ENOSPC: fake'); e.code = 'ENOSPC'; throw e;").assert_code(1);
}

#[test]
fn a_thrown_null_far_from_the_memory_limit_is_a_script_error() {
    js("throw null;").assert_code(1).stderr_has("uncaught null");
}

/// `--output-overflow truncate` (docs/calls.md): the run goes on, the first
/// and last halves of the budget are kept, the middle is one line naming
/// exactly how many bytes were dropped, and the envelope says so.
#[test]
fn truncated_output_keeps_both_ends_and_counts_the_middle() {
    let project = Project::with(
        "main.js",
        "for (let i = 0; i < 1000; i++) console.log(String(i).padStart(9, '0')); console.error('end');",
    );
    let run = project.goccia(&[
        "run",
        "/main.js",
        "--seed",
        "main.js",
        "--max-output",
        "100",
        "--output-overflow",
        "truncate",
        "--json",
    ]);
    run.assert_ok();
    let json = run.json();
    assert_eq!(json["stats"]["outputTruncated"], true);
    let stdout = json["stdout"].as_str().unwrap();
    let stderr = json["stderr"].as_str().unwrap();
    // 10,004 bytes in all: 50 kept first, 50 last (46 of stdout, stderr's 4).
    assert!(stdout.starts_with("000000000\n000000001\n"), "{stdout}");
    assert!(
        stdout.contains("\n[goccia: 9904 bytes of output omitted]\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("000000998\n000000999\n"), "{stdout}");
    assert_eq!(stderr, "end\n");
    // The default still fails the run at the cap.
    project
        .goccia(&[
            "run",
            "/main.js",
            "--seed",
            "main.js",
            "--max-output",
            "100",
        ])
        .assert_code(3);
    // And the shell truncates the same way.
    let run = project.goccia(&[
        "shell",
        "-c",
        "seq 1 100000",
        "--max-output",
        "64",
        "--output-overflow",
        "truncate",
    ]);
    run.assert_ok();
    assert!(run.stdout.starts_with("1\n2\n3\n"), "{}", run.stdout);
    assert!(
        run.stdout.contains("bytes of output omitted]\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("99999\n100000\n"), "{}", run.stdout);
    project
        .goccia(&["shell", "-c", "true", "--output-overflow", "sometimes"])
        .assert_code(2);
}

/// `--max-memory` bounds the shell's own work whatever the fs quota (it
/// once had the quota's headroom on top: 64m let jq take about 1 GB),
/// while the files a run writes are the quota's to bound.
#[test]
fn max_memory_bounds_the_shells_work_whatever_the_quota() {
    let project = Project::new();
    let jq = crate::hostile_round1::contained(
        &project,
        &[
            "shell",
            "-c",
            "jq -n '[range(2e7)] | length'",
            "--max-memory",
            "64m",
        ],
    );
    assert_eq!(jq.code, 3, "{}", jq.stderr);
    assert!(
        jq.stderr
            .contains("more than 67108864 bytes of host memory besides the files it wrote"),
        "{}",
        jq.stderr
    );
    assert!(
        jq.max_rss_kib < 160 * 1024,
        "peaked at {} MiB",
        jq.max_rss_kib / 1024
    );
    let file = crate::hostile_round1::contained(
        &project,
        &[
            "shell",
            "-c",
            "head -c 200000000 /dev/zero > /big && wc -c < /big",
            "--max-memory",
            "64m",
        ],
    );
    assert_eq!(file.code, 0, "{}", file.stderr);
}
