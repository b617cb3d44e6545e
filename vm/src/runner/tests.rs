//! The runner's unit tests: they drive the event loop of `runner.rs`.

use std::sync::Arc;
use std::time::Duration;

use goccia_core::{Limits, OutputBudget, output::Capture};
use goccia_vfs::{Quota, Vfs};
use parking_lot::Mutex;

use crate::ExecMode;

use super::*;
use crate::js_thread::wait_for_teardowns;

fn run_source(files: &[(&str, &str)], limits: Limits) -> (RunOutcome, Capture, Capture) {
    run_in_mode(files, limits, ExecMode::Interpreted)
}

fn run_in_mode(
    files: &[(&str, &str)],
    limits: Limits,
    mode: ExecMode,
) -> (RunOutcome, Capture, Capture) {
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    for (path, source) in files {
        vfs.write_file(&VfsPath::parse(path).unwrap(), source.to_string())
            .unwrap();
    }
    let (output, out, err) = Output::captured(OutputBudget::new(limits.max_output));
    let request = RunRequest::new(
        VfsPath::parse("/main.js").unwrap(),
        Arc::new(Mutex::new(vfs)),
        output,
        Watch::new(limits.timeout),
        Engine {
            limits,
            mode,
            ..Engine::default()
        },
    );
    let outcome = run(&request);
    (outcome, out, err)
}

/// A run's heap goes back to the budget when it ends; a run whose
/// process exits after it leaves it charged (nothing was freed), and
/// only at the top: a nested run's heap is freed either way.
#[test]
fn only_a_top_level_run_the_process_ends_after_leaves_its_heap() {
    let run_with = |leave: bool, source: &str| {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.write_file(&VfsPath::parse("/main.js").unwrap(), source.to_string())
            .unwrap();
        vfs.write_file(&VfsPath::parse("/child.js").unwrap(), "globalThis.x = 1;")
            .unwrap();
        let (output, _, err) = Output::captured(OutputBudget::new(1 << 20));
        let mut request = RunRequest::new(
            VfsPath::parse("/main.js").unwrap(),
            Arc::new(Mutex::new(vfs)),
            output,
            Watch::new(Duration::from_secs(10)),
            Engine::default(),
        );
        request.leave_heap_to_exit = leave;
        let outcome = run(&request);
        assert!(
            outcome.failure.is_none(),
            "{:?} {}",
            outcome.failure,
            String::from_utf8_lossy(&err.take())
        );
        wait_for_teardowns();
        request.memory.used()
    };
    let hello = "console.log('hi')";
    assert_eq!(run_with(false, hello), 0);
    assert!(run_with(true, hello) > 0);
    // The parent's own heap aside, the child's was given back: leaving
    // the parent's costs the same with or without a child run.
    let nesting =
        "import { runScript } from 'goccia'; runScript('/child.js'); runScript('/child.js');";
    let without_child = run_with(true, "import { runScript } from 'goccia';");
    let with_children = run_with(true, nesting);
    assert!(
        with_children < without_child * 2,
        "{with_children} vs {without_child}"
    );
}

/// Under a write policy, a refused `fs` write is the documented error
/// (docs/policy.md), and the tree does not change.
#[test]
fn a_policy_denial_in_js_has_its_own_code_and_text() {
    use goccia_vfs::policy::{PolicyMode, WritePolicy};
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    vfs.write_file(
        &VfsPath::parse("/main.js").unwrap(),
        "import fs from 'fs';
         try { fs.writeFileSync('/a.txt', 'x'); } catch (e) {
           console.log(e.code, e.errno, e.policy, e.syscall, e.path);
           console.log(e.message);
         }
         try { fs.writeFileSync('/missing/b.txt', 'x'); } catch (e) { console.log(e.code); }
         console.log(fs.existsSync('/a.txt'));",
    )
    .unwrap();
    vfs.set_policy(Some(WritePolicy::new(PolicyMode::ReadOnly, [], [])));
    let (output, out, err) = Output::captured(OutputBudget::new(1 << 20));
    let request = RunRequest::new(
        VfsPath::parse("/main.js").unwrap(),
        Arc::new(Mutex::new(vfs)),
        output,
        Watch::new(Duration::from_secs(10)),
        Engine::default(),
    );
    let outcome = run(&request);
    assert!(
        outcome.failure.is_none(),
        "{:?} {:?}",
        outcome.failure,
        err.take()
    );
    assert_eq!(
        String::from_utf8(out.take()).unwrap(),
        "FS_SANDBOX_DENIED -13 read-only open /a.txt\n\
         FS_SANDBOX_DENIED: [sandbox: file access denied under read-only mode], open '/a.txt'\n\
         FS_SANDBOX_DENIED\n\
         false\n"
    );
}

#[test]
fn the_default_export_is_the_result() {
    let (outcome, out, _) = run_source(
        &[
            (
                "/main.js",
                "import { n } from './lib.js'; console.log(n); export default { n, list: [1, 'two'] };",
            ),
            ("/lib.js", "export const n = 41 + 1;"),
        ],
        Limits::default(),
    );
    assert!(outcome.failure.is_none(), "{:?}", outcome.failure);
    assert_eq!(out.take(), b"42\n");
    assert_eq!(
        outcome.result,
        Some(serde_json::json!({ "n": 42, "list": [1, "two"] }))
    );
    assert!(outcome.memory_used > 0);
}

#[test]
fn failures_are_classified_by_evidence() {
    let limits = Limits::default().timeout(Duration::from_millis(100));
    let cases = [
        ("throw new Error('x')", FailureKind::ScriptError),
        ("while (true) {}", FailureKind::Timeout),
        ("for (;;) console.log('spam')", FailureKind::ResourceLimit),
        ("await new Promise(() => {})", FailureKind::ScriptError),
    ];
    for (source, kind) in cases {
        let (outcome, _, _) = run_source(&[("/main.js", source)], limits.clone().max_output(1000));
        assert_eq!(outcome.failure.map(|f| f.kind), Some(kind), "{source}");
    }
}

#[test]
fn a_missing_entry_is_a_script_error_and_nothing_runs() {
    let (outcome, _, _) = run_source(&[("/other.js", "")], Limits::default());
    let failure = outcome.failure.unwrap();
    assert_eq!(
        (failure.kind, failure.message.as_str()),
        (FailureKind::ScriptError, "entry not found: /main.js")
    );
}

#[test]
fn runs_are_isolated_from_each_other() {
    let (first, _, _) = run_source(
        &[(
            "/main.js",
            "Object.prototype.polluted = 1; export default 1;",
        )],
        Limits::default(),
    );
    assert!(first.failure.is_none());
    let (second, out, _) = run_source(
        &[("/main.js", "console.log(({}).polluted);")],
        Limits::default(),
    );
    assert!(second.failure.is_none());
    assert_eq!(out.take(), b"undefined\n");
}

#[test]
fn bytecode_mode_compiles_once_and_behaves_the_same() {
    let files = [
        (
            "/main.js",
            "import { twice } from './twice.js';\nconsole.log(twice(21));\nexport default new Error('x').stack.split('\\n')[1].trim();",
        ),
        (
            "/twice.js",
            "export const twice = (n) => n * 2;\n// bytecode-mode-test",
        ),
    ];
    let (interpreted, out, _) = run_in_mode(&files, Limits::default(), ExecMode::Interpreted);
    assert_eq!(String::from_utf8(out.contents()).unwrap(), "42\n");
    let (first, out, _) = run_in_mode(&files, Limits::default(), ExecMode::Bytecode);
    assert_eq!(String::from_utf8(out.contents()).unwrap(), "42\n");
    assert_eq!(first.result, interpreted.result, "same stack positions");
    let (compiled, _) = crate::cache_stats();
    let (second, out, _) = run_in_mode(&files, Limits::default(), ExecMode::Bytecode);
    assert_eq!(String::from_utf8(out.contents()).unwrap(), "42\n");
    assert_eq!(second.result, interpreted.result);
    assert_eq!(
        crate::cache_stats().0,
        compiled,
        "the second run loads, not compiles"
    );
}
