//! Mirrors `e2e/diff.rs`: diffs as artifacts, checked against `git apply`.

use std::process::Command;

use goccia::{ChangeKind, DiffFormat, Sandbox};

fn edited() -> Sandbox {
    let sandbox = Sandbox::builder()
        .file("/keep.txt", "same\n")
        .file("/edit.txt", "one\ntwo\n")
        .file("/gone.txt", "bye\n")
        .file("/bin.dat", vec![0u8, 1, 2, 255])
        .file(
            "/main.js",
            r#"import fs from "fs";
            fs.writeFileSync("/edit.txt", "one\nTWO\n");
            fs.unlinkSync("/gone.txt");
            fs.mkdirSync("/new");
            fs.writeFileSync("/new/file.txt", "fresh\n");
            fs.writeFileSync("/bin.dat", new Uint8Array([0, 1, 2, 254, 0]));"#,
        )
        .build()
        .unwrap();
    assert!(sandbox.run_script("/main.js").unwrap().success());
    sandbox
}

#[test]
fn changes_are_typed_and_in_apply_order() {
    let kinds: Vec<_> = edited()
        .changes()
        .iter()
        .map(|change| (change.kind, change.path.to_string()))
        .collect();
    assert_eq!(
        kinds,
        [
            (ChangeKind::Modify, "/bin.dat".to_string()),
            (ChangeKind::Modify, "/edit.txt".to_string()),
            (ChangeKind::Mkdir, "/new".to_string()),
            (ChangeKind::Create, "/new/file.txt".to_string()),
            (ChangeKind::Delete, "/gone.txt".to_string()),
        ]
    );
}

#[test]
fn the_json_diff_carries_content_and_hashes() {
    let document: serde_json::Value =
        serde_json::from_str(&edited().diff(DiffFormat::Json)).unwrap();
    let edit = &document["changes"][1];
    assert_eq!(edit["path"], "/edit.txt");
    assert_eq!(edit["content"], "one\nTWO\n");
    assert!(edit["oldHash"].as_str().unwrap().starts_with("blake3:"));
    assert_eq!(document["changes"][0]["encoding"], "base64");
}

#[test]
fn the_unified_diff_applies_with_git() {
    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("keep.txt"), "same\n").unwrap();
    std::fs::write(host.path().join("edit.txt"), "one\ntwo\n").unwrap();
    std::fs::write(host.path().join("gone.txt"), "bye\n").unwrap();
    std::fs::write(host.path().join("bin.dat"), [0u8, 1, 2, 255]).unwrap();
    std::fs::write(
        host.path().join("change.patch"),
        edited().diff(DiffFormat::Unified),
    )
    .unwrap();
    let status = Command::new("git")
        .args(["apply", "--unsafe-paths", "change.patch"])
        .current_dir(host.path())
        .status()
        .unwrap();
    assert!(status.success());
    let read = |name: &str| std::fs::read(host.path().join(name)).unwrap();
    assert_eq!(read("edit.txt"), b"one\nTWO\n");
    assert_eq!(read("new/file.txt"), b"fresh\n");
    assert_eq!(read("bin.dat"), [0, 1, 2, 254, 0]);
    assert!(!host.path().join("gone.txt").exists());
}

#[test]
fn no_changes_make_an_empty_diff_and_a_failed_run_still_has_one() {
    let sandbox = crate::script("import fs from 'fs'; fs.writeFileSync('/x', 'x'); throw 1");
    assert_eq!(sandbox.diff(DiffFormat::Unified), "");
    assert_eq!(sandbox.run_script("/main.js").unwrap().exit_code, 1);
    assert_eq!(sandbox.changes().len(), 1);
}

#[test]
fn host_writes_are_changes_like_the_guests() {
    let sandbox = Sandbox::builder().build().unwrap();
    sandbox.write("/deep/er/file.txt", "x").unwrap();
    let paths: Vec<_> = sandbox
        .changes()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    assert_eq!(paths, ["/deep", "/deep/er", "/deep/er/file.txt"]);
    let error = sandbox.write("/deep/er/file.txt/below", "x").unwrap_err();
    assert!(
        error.to_string().starts_with("/deep/er/file.txt/below: "),
        "{error}"
    );
    assert!(sandbox.list("/missing").is_err());
}
