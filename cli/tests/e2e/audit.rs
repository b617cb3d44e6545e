//! `--audit-log` and the envelope's `events`: one JSON line per decision.

use crate::common::*;

fn events(project: &Project, file: &str) -> Vec<serde_json::Value> {
    let events: Vec<serde_json::Value> = project
        .read(file)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    guest_events(&events)
}

fn kinds(events: &[serde_json::Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e["kind"].as_str().unwrap(),
                e["decision"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn decisions_are_logged_as_json_lines() {
    let project = Project::new();
    project.write("repo/a.txt", "a\n");
    project.write(
        "main.js",
        "import fs from 'fs';
         import { runScript } from 'goccia';
         try { await fetch('https://example.com/'); } catch {}
         try { fs.writeFileSync('/bad\\0name', 'x'); } catch {}
         fs.writeFileSync('/child.js', 'while (true) {}');
         runScript('/child.js', { seed: ['/child.js'], timeout: 50 });
         fs.writeFileSync('/repo/a.txt', 'changed\\n');",
    );
    project
        .goccia(&[
            "run",
            "/main.js",
            "--seed",
            "main.js",
            "--copy-rw",
            "repo=/repo",
            "--audit-log",
            "audit.jsonl",
        ])
        .assert_ok();
    let events = events(&project, "audit.jsonl");
    assert_eq!(
        kinds(&events),
        [
            "fetch deny",
            "fs deny",
            "child spawn",
            "limit hit",
            "child exit",
            "write-back write",
            "write-back skip",
        ],
        "{events:#?}"
    );
    for event in &events {
        assert_eq!(event["schemaVersion"], 1);
        assert!(event["time"].as_str().unwrap().ends_with('Z'));
    }
    assert!(
        events[0]["reason"]
            .as_str()
            .unwrap()
            .contains("not allowed")
    );
    assert_eq!(events[1]["subject"], "/bad\u{0}name");
    assert!(
        events[4]["reason"]
            .as_str()
            .unwrap()
            .starts_with("exit 4 (timeout)")
    );
    assert!(
        events[5]["subject"]
            .as_str()
            .unwrap()
            .starts_with("/repo/a.txt -> ")
    );
    assert_eq!(events[6]["subject"], "/child.js");
}

#[test]
fn the_envelope_carries_the_same_events() {
    let project = Project::new();
    let run = run_js(
        &project,
        "try { await fetch('https://example.com/'); } catch {}",
        &["--json"],
    );
    let envelope = run.json();
    let events = guest_events(envelope["events"].as_array().expect("events"));
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["kind"], "fetch");
    assert_eq!(events[0]["decision"], "deny");
}

#[test]
fn an_unwritable_audit_log_is_a_usage_error() {
    Project::new()
        .goccia(&["run", "/x.js", "--audit-log", "no/such/dir/audit.jsonl"])
        .assert_code(2)
        .stderr_has("--audit-log: no/such/dir/audit.jsonl");
}
