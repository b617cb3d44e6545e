//! Fan-out: a harness splits a task into sub-tasks, runs each in a child
//! sandbox on its own thread, and merges the children's changes into the
//! parent itself. Edits of different lines merge; a child that rewrote the
//! line another child already changed is a conflict, reported with both
//! sides' hunks, and nothing of that file is applied.
//!
//! `cargo run --example fan_out`

use goccia::{ChildSeed, DiffFormat, Sandbox};

/// The sub-agent: replaces the `TODO` in the file its task names.
const AGENT: &str = r#"
import fs from "fs";
const task = JSON.parse(fs.readFileSync("/task.json", "utf8"));
const text = fs.readFileSync(task.file, "utf8");
fs.writeFileSync(task.file, text.replace("TODO", task.replacement));
console.log(`done: ${task.file}`);
"#;

fn task(file: &str, replacement: &str) -> ChildSeed {
    let json = serde_json::json!({ "file": file, "replacement": replacement });
    ChildSeed::file("/task.json", json.to_string())
}

pub fn main() {
    let parent = Sandbox::builder()
        .file("/repo/a.js", "// TODO\nexport const a = 1;\n")
        .file("/repo/b.js", "// TODO\nexport const b = 2;\n")
        .file("/repo/c.js", "// TODO\nexport const c = 3;\n")
        .file("/agent/main.js", AGENT)
        .file("/secrets/token", "never seeded into a child")
        .build()
        .expect("parent sandbox");

    let tasks = [
        ("/repo/a.js", "a is one"),
        ("/repo/b.js", "b is two"),
        ("/repo/c.js", "c is three"),
        ("/repo/a.js", "a conflicting edit"),
    ];
    // Children are made from the parent's current tree (O(1) each) and run
    // at once, one thread each.
    let finished: Vec<_> = std::thread::scope(|scope| {
        let workers: Vec<_> = tasks
            .iter()
            .map(|(file, replacement)| {
                let seeds = [
                    ChildSeed::path("/repo"),
                    ChildSeed::path("/agent"),
                    task(file, replacement),
                ];
                let child = parent.child(&seeds).expect("child sandbox");
                scope.spawn(move || {
                    let run = child.run_script("/agent/main.js").expect("started");
                    (child, run)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });

    let mut merged = 0;
    let mut conflicted = 0;
    for (index, (child, run)) in finished.iter().enumerate() {
        assert!(run.success(), "task {index}: {}", run.stderr_text());
        assert!(child.read("/secrets/token").is_err());
        let report = parent.merge(child).expect("fits the quota");
        if report.is_clean() {
            merged += 1;
        }
        for conflict in &report.conflicts {
            println!("task {index}: not merged, {conflict}");
            print!("ours:\n{}theirs:\n{}", conflict.ours, conflict.theirs);
            conflicted += 1;
        }
    }
    assert_eq!((merged, conflicted), (3, 1));
    let patch = parent.diff(DiffFormat::Unified);
    for line in ["+// a is one", "+// b is two", "+// c is three"] {
        assert!(patch.contains(line), "{line} missing from\n{patch}");
    }
    assert!(!patch.contains("conflicting"));
    print!("{patch}");
}
