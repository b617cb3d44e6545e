//! Limits (contract §7) and their exit codes (§4).

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
