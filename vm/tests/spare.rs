//! The spare context (docs/calls.md, "Where a call runs"): a top-level run
//! after another starts in a context made between them, and sees nothing
//! of the run before it. One test in its own binary, so that the process's
//! one spare is this test's alone.

use std::sync::Arc;
use std::time::Duration;

use goccia_core::{FailureKind, Limits, Output, OutputBudget, Watch};
use goccia_vfs::{Quota, Vfs, VfsPath};
use goccia_vm::{Engine, RunOutcome, RunRequest, run, spares_served, wait_for_teardowns};

/// Runs `/main.js` of `files` at the top level with `limits`: the outcome,
/// stdout and stderr, and the bytes its heap budget holds once the run's
/// clean-up is done.
fn top_level(files: &[(&str, &str)], limits: Limits) -> (RunOutcome, String, String, usize) {
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    for (path, source) in files {
        vfs.write_file(&VfsPath::parse(path).unwrap(), source.to_string())
            .unwrap();
    }
    let (output, out, err) = Output::captured(OutputBudget::new(limits.max_output));
    let request = RunRequest::new(
        VfsPath::parse("/main.js").unwrap(),
        Arc::new(parking_lot::Mutex::new(vfs)),
        output,
        Watch::new(limits.timeout),
        Engine {
            limits,
            ..Engine::default()
        },
    );
    let outcome = run(&request);
    wait_for_teardowns();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        outcome,
        text(out.take()),
        text(err.take()),
        request.memory.used(),
    )
}

const COUNTER: (&str, &str) = (
    "/counter.js",
    "globalThis.imports = (globalThis.imports ?? 0) + 1; export const n = globalThis.imports;",
);

#[test]
fn a_run_after_another_starts_in_a_spare_and_sees_nothing_of_it() {
    let limits = Limits::default();
    // The first run of the process makes its own context (none is spare
    // yet) and leaves everything it can touch changed.
    let (first, out, _, held) = top_level(
        &[
            (
                "/main.js",
                "import { n } from './counter.js';
                 globalThis.leaked = 'first';
                 Object.prototype.polluted = 1;
                 Array.prototype.extra = () => 'first';
                 JSON.parse = () => 'first';
                 console.log = () => {};
                 process.stdout.write(`first ${n}\\n`);",
            ),
            COUNTER,
        ],
        limits.clone(),
    );
    assert!(first.failure.is_none(), "{:?}", first.failure);
    assert_eq!(out, "first 1\n");
    assert_eq!(held, 0, "the first run's heap was given back");
    assert_eq!(spares_served(), 0);

    let probe = "import { n } from './counter.js';
         console.log(typeof leaked, ({}).polluted, [].extra, JSON.parse('[1]')[0], n);
         export default 'second';";
    let (second, out, err, held) = top_level(&[("/main.js", probe), COUNTER], limits.clone());
    assert!(second.failure.is_none(), "{:?} {err}", second.failure);
    assert_eq!(
        spares_served(),
        1,
        "the second run started in the spare made after the first"
    );
    assert_eq!(out, "undefined undefined undefined 1 1\n");
    assert_eq!(second.result, Some(serde_json::json!("second")));
    assert!(second.memory_used > 0, "the spare's heap is the run's");
    assert_eq!(held, 0, "charged to the run's budget, and given back there");

    // A spare is bound to its run's deadline and heap limit.
    let short = limits.clone().timeout(Duration::from_millis(200));
    let (spun, _, _, _) = top_level(&[("/main.js", "while (true) {}")], short);
    assert_eq!(spun.failure.map(|f| f.kind), Some(FailureKind::Timeout));
    assert_eq!(spares_served(), 2);
    let (grown, _, _, held) = top_level(
        &[(
            "/main.js",
            "const keep = []; for (;;) keep.push(new Array(1e5).fill(1));",
        )],
        limits.clone(),
    );
    assert_eq!(
        grown.failure.map(|f| f.kind),
        Some(FailureKind::ResourceLimit)
    );
    assert_eq!(held, 0);
    assert_eq!(spares_served(), 3);

    // Other limits: that run makes its own context, and the next spare is
    // made for them.
    let smaller = limits.clone().max_memory(64 << 20);
    let (other, out, _, _) = top_level(&[("/main.js", probe), COUNTER], smaller.clone());
    assert!(other.failure.is_none());
    assert_eq!(out, "undefined undefined undefined 1 1\n");
    assert_eq!(spares_served(), 3);
    // The spare's heap joins the run's tree: a nested run cannot take
    // what the spare's run holds (with the spare on a budget of its own,
    // the child's 40 MB would fit).
    let nest = "import { runScript } from 'goccia';
         const held = new Uint8Array(40 << 20); held.fill(1);
         const r = runScript('/child.js');
         console.log(`child: ${r.ok} ${r.failureKind}`);";
    let child = (
        "/child.js",
        "const more = new Uint8Array(40 << 20); more.fill(2);",
    );
    let (again, out, err, held) = top_level(&[("/main.js", nest), child], smaller);
    assert!(again.failure.is_none(), "{:?} {err}", again.failure);
    assert_eq!(spares_served(), 4);
    assert_eq!(out, "child: false resource-limit\n");
    assert_eq!(held, 0);

    // Runs at once: one takes the spare (or waits for the one being made),
    // the others make their own; each sees only itself.
    let before = spares_served();
    let callers: Vec<_> = (0..4)
        .map(|caller| {
            let limits = limits.clone();
            std::thread::spawn(move || {
                for round in 0..5 {
                    let source = format!(
                        "globalThis.mine = (globalThis.mine ?? 0) + 1; console.log({caller}, {round}, mine);"
                    );
                    let (outcome, out, err, _) = top_level(&[("/main.js", &source)], limits.clone());
                    assert!(outcome.failure.is_none(), "{:?} {err}", outcome.failure);
                    assert_eq!(out, format!("{caller} {round} 1\n"));
                }
            })
        })
        .collect();
    for caller in callers {
        caller.join().unwrap();
    }
    assert!(spares_served() > before, "some of the 20 runs took a spare");

    // A missing entry runs nothing and leaves the spare for the next run.
    let smaller = limits.clone().max_memory(64 << 20);
    let (_, _, _, _) = top_level(&[("/main.js", probe), COUNTER], smaller.clone());
    let served = spares_served();
    let (missing, _, _, _) = top_level(&[("/other.js", "")], smaller.clone());
    assert_eq!(
        missing.failure.map(|f| f.message),
        Some("entry not found: /main.js".to_string())
    );
    let (_, out, _, _) = top_level(&[("/main.js", probe), COUNTER], smaller);
    assert_eq!(out, "undefined undefined undefined 1 1\n");
    assert_eq!(spares_served(), served + 1);
}
