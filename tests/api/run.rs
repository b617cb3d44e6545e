//! Mirrors `e2e/cli.rs` and `e2e/guest.rs`: running entries and how
//! they end.

use goccia::{ExecMode, FailureKind, Output, OutputBudget, RunError, Sandbox};

use crate::script;

#[test]
fn hello_world_is_captured_per_stream() {
    let run = script("console.log('hello'); console.error('careful')")
        .run_script("/main.js")
        .unwrap();
    assert!(run.success());
    assert_eq!(run.stdout_text(), "hello\n");
    assert_eq!(run.stderr_text(), "careful\n");
    assert!(run.memory_used.unwrap() > 0);
}

/// An entry that cannot see the module system runs without it, and one
/// that names `require` runs under it: either way its stack holds its own
/// frames only (no loader frame of goccia's, no prelude frame).
#[test]
fn a_commonjs_entry_stack_shows_the_guest_frames_only() {
    for source in [
        "function f() { return new Error('x').stack; }\nconsole.log(f());",
        "const path = require('path');\nfunction f() { return new Error('x').stack; }\nconsole.log(f());",
    ] {
        let run = script(source).run_script("/main.js").unwrap();
        assert!(run.success(), "{source}: {}", run.stderr_text());
        let stack = run.stdout_text();
        let frames: Vec<&str> = stack.lines().skip(1).collect();
        assert_eq!(stack.lines().next(), Some("Error: x"), "{stack}");
        assert_eq!(frames.len(), 2, "{source}: {stack}");
        assert!(frames[0].starts_with("    at f (/main.js:"), "{stack}");
        assert!(frames[1].contains("(/main.js:"), "{stack}");
    }
}

/// A script without CommonJS's names or ES syntax is CommonJS without
/// being compiled to find out; one whose top level awaits is a module.
#[test]
fn a_top_level_await_still_makes_a_plain_script_a_module() {
    let awaiting = script("await Promise.resolve(); console.log('awaited')")
        .run_script("/main.js")
        .unwrap();
    assert!(awaiting.success(), "{}", awaiting.stderr_text());
    assert_eq!(awaiting.stdout_text(), "awaited\n");
    // `export` after other code on its line: a module too.
    let exporting = script("const n = 2; export default n * 21;")
        .run_script("/main.js")
        .unwrap();
    assert_eq!(exporting.result, Some(serde_json::json!(42)));
    let broken = script("console.log(1;").run_script("/main.js").unwrap();
    assert_eq!(broken.exit_code, 1);
    assert!(
        broken.failure.unwrap().report.contains("SyntaxError"),
        "a syntax error is still reported"
    );
}

/// A plain entry's `module.exports` is the empty object it started with:
/// no result, as for a CommonJS entry that never sets it.
#[test]
fn a_plain_commonjs_entry_has_no_result() {
    let run = script("console.log('hi')").run_script("/main.js").unwrap();
    assert!(run.success());
    assert_eq!(run.result, None);
    let set = script("module.exports = { n: 1 }")
        .run_script("/main.js")
        .unwrap();
    assert_eq!(set.result, Some(serde_json::json!({"n": 1})));
}

/// Runs answer before their heap is freed (docs/calls.md, "Where a call
/// runs"): script after script, big heaps and small, each run still
/// answers with its own output and its own heap figure, whether the
/// heap before it is still being freed or not.
#[test]
fn back_to_back_runs_each_report_their_own_heap() {
    let sandbox = Sandbox::builder()
        .file(
            "/big.js",
            "globalThis.keep = Array.from({ length: 300000 }, (_, i) => ({ i })); console.log('big')",
        )
        .file("/small.js", "console.log('small')")
        .build()
        .unwrap();
    for _ in 0..5 {
        let big = sandbox.run_script("/big.js").unwrap();
        let small = sandbox.run_script("/small.js").unwrap();
        assert_eq!(big.stdout_text(), "big\n");
        assert_eq!(small.stdout_text(), "small\n");
        let (big, small) = (big.memory_used.unwrap(), small.memory_used.unwrap());
        assert!(big > 10 << 20, "the big run held {big} bytes");
        assert!(small < 4 << 20, "the small run held {small} bytes");
    }
}

#[test]
fn a_missing_entry_is_a_failed_run_naming_it() {
    let run = script("").run_script("/nope.js").unwrap();
    assert_eq!(run.exit_code, 1);
    assert_eq!(run.failure_kind(), Some(FailureKind::ScriptError));
    assert!(run.failure.unwrap().message.contains("/nope.js"));
}

#[test]
fn an_invalid_entry_path_is_an_error_and_runs_nothing() {
    let error = script("").run_script("/a\0b.js").unwrap_err();
    assert!(matches!(error, RunError::Entry { .. }), "{error:?}");
    assert!(error.to_string().contains("invalid entry path"));
}

#[test]
fn uncaught_errors_syntax_errors_and_rejections_fail_with_exit_1() {
    for (source, needle) in [
        ("throw new Error('boom')", "boom"),
        ("let x = ;", "SyntaxError"),
        ("Promise.reject(new Error('later'))", "later"),
        ("throw 42", "42"),
    ] {
        let run = script(source).run_script("/main.js").unwrap();
        assert_eq!(run.exit_code, 1, "{source}");
        let failure = run.failure.expect(source);
        assert_eq!(failure.kind, FailureKind::ScriptError);
        assert!(
            failure.report.contains(needle),
            "{source}: {}",
            failure.report
        );
    }
}

#[test]
fn the_default_export_comes_back_as_json_only_on_success() {
    let ok = script("export default [1, 'two', {three: 3}]")
        .run_script("/main.js")
        .unwrap();
    assert_eq!(ok.result, Some(serde_json::json!([1, "two", {"three": 3}])));
    let failed = script("export default 1; throw new Error('x')")
        .run_script("/main.js")
        .unwrap();
    assert_eq!(failed.result, None);
}

#[test]
fn streamed_output_reaches_the_callers_writers_as_produced() {
    let sandbox = script("console.log('a'); console.error('b')");
    let (output, stdout, stderr) = Output::captured(OutputBudget::new(100));
    let run = sandbox
        .run_script_with("/main.js", &goccia::CallOptions::new().stream(&output))
        .unwrap();
    assert!(run.stdout.is_empty() && run.stderr.is_empty());
    assert_eq!(
        (stdout.take(), stderr.take()),
        (b"a\n".to_vec(), b"b\n".to_vec())
    );
}

#[test]
fn bytecode_mode_runs_the_same_programs() {
    let source = "import {n} from './n.js'; console.log(n * 2)";
    for mode in [ExecMode::Interpreted, ExecMode::Bytecode] {
        let sandbox = Sandbox::builder()
            .mode(mode)
            .file("/main.js", source)
            .file("/n.js", "export const n = 21")
            .build()
            .unwrap();
        assert_eq!(
            sandbox.run_script("/main.js").unwrap().stdout_text(),
            "42\n"
        );
    }
}

#[test]
fn no_host_object_is_reachable() {
    // `process` and `os` are the sandbox's own (docs/guest.md): fixed
    // values, nothing of the host's; QuickJS's own host modules are absent.
    let run = script(
        "import os from 'os'; console.log([typeof Deno, typeof std, JSON.stringify(process.argv), \
         Object.keys(process.env).length, os.hostname(), os.homedir(), typeof require].join())",
    )
    .run_script("/main.js")
    .unwrap();
    assert_eq!(
        run.stdout_text(),
        "undefined,undefined,[\"/usr/bin/node\",\"/main.js\"],0,sandbox,/,undefined\n"
    );
    for import in [
        "/etc/passwd",
        "file:///etc/passwd",
        "../../etc/passwd",
        "qjs:os",
        "std",
    ] {
        let run = script(&format!("import x from '{import}'"))
            .run_script("/main.js")
            .unwrap();
        assert_eq!(run.exit_code, 1, "{import}");
    }
}

#[test]
fn runs_persist_their_files_for_the_next_run() {
    let sandbox = Sandbox::builder()
        .file(
            "/write.js",
            "import fs from 'fs'; fs.writeFileSync('/state', '1')",
        )
        .file(
            "/read.js",
            "import fs from 'fs'; console.log(fs.readFileSync('/state', 'utf8'))",
        )
        .build()
        .unwrap();
    assert!(sandbox.run_script("/write.js").unwrap().success());
    assert_eq!(sandbox.run_script("/read.js").unwrap().stdout_text(), "1\n");
}

#[test]
fn sandboxes_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Sandbox>();
    assert_send_sync::<goccia::Run>();
}
