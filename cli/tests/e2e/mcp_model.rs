//! What a model meets through `goccia mcp` (issue 46, tried as a new user
//! would with the official client): results a context can hold, relative
//! paths read as the shell reads them, and descriptions that promise only
//! what works.

use serde_json::json;

use super::common::Project;
use super::mcp::{Sdk, call_text, drive, stdio};

#[test]
fn relative_paths_are_the_shells_from_its_current_directory() {
    let project = Project::with("src/mod3.js", "export const three = 3;\n");
    let seed = format!("{}=/work", project.path().display());
    let report = drive(
        Sdk::Python,
        stdio(
            &["--seed", &seed],
            json!([
                ["shell", {"command": "cd /work"}],
                ["read_file", {"path": "src/mod3.js"}],
                ["write_file", {"path": "notes/new.txt", "content": "made\n"}],
                ["edit_file", {"path": "src/mod3.js", "oldText": "3;", "newText": "4;"}],
                ["list", {"path": "src"}],
                ["shell", {"command": "cat /work/notes/new.txt /work/src/mod3.js"}],
                ["read_file", {"path": "../work/src/mod3.js"}],
            ]),
        ),
    );
    assert_eq!(
        call_text(&report, 1),
        "export const three = 3;\n",
        "{report}"
    );
    assert_eq!(
        call_text(&report, 2),
        "wrote 5 bytes to /work/notes/new.txt"
    );
    assert_eq!(
        call_text(&report, 3),
        "replaced 1 occurrence in /work/src/mod3.js"
    );
    assert!(call_text(&report, 4).starts_with("mod3.js"), "{report}");
    assert!(
        call_text(&report, 5).contains("made\nexport const three = 4;\n"),
        "{report}"
    );
    assert_eq!(call_text(&report, 6), "export const three = 4;\n");
}

#[test]
fn a_long_file_is_read_in_parts_a_context_can_hold() {
    let lines: String = (1..=100_000).map(|n| format!("line {n}\n")).collect();
    let project = Project::with("big.txt", &lines);
    let seed = format!("{}=/work", project.path().display());
    let report = drive(
        Sdk::Python,
        stdio(
            &["--seed", &seed],
            json!([
                ["read_file", {"path": "/work/big.txt"}],
                ["shell", {"command": "seq 1 200000"}],
            ]),
        ),
    );
    let first = call_text(&report, 0);
    assert!(first.len() <= 34_000, "{}", first.len());
    assert!(first.starts_with("line 1\n"));
    assert!(
        first.contains("offset"),
        "the note says where to read on: {}",
        &first[first.len() - 300..]
    );
    let flood = call_text(&report, 1);
    assert!(flood.len() <= 34_000, "{}", flood.len());
    assert!(flood.contains("bytes of output omitted"));
}

#[test]
fn run_script_promises_javascript_only() {
    let report = drive(Sdk::Python, stdio(&[], json!([])));
    let tools = report["tools"].as_array().unwrap();
    let run_script = tools
        .iter()
        .find(|tool| tool["name"] == "run_script")
        .unwrap();
    let described = run_script.to_string();
    assert!(!described.contains("JavaScript/TypeScript"), "{described}");
    assert!(
        described.contains("TypeScript is not transpiled"),
        "{described}"
    );
}
