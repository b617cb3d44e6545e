//! Write-back (docs/vfs.md) through the CLI.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::symlink;
use std::process::{Command, Stdio};

use crate::common::*;

fn project() -> Project {
    let project = Project::new();
    project.write("tool.js", "");
    project.write("repo/a.txt", "a\n");
    project.write("repo/sub/b.txt", "b\n");
    project.write("repo/keep.txt", "keep\n");
    project.write("single.txt", "single\n");
    project
}

fn run_tool(project: &Project, source: &str, extra: &[&str]) -> Run {
    project.write("tool.js", source);
    let mut args = vec![
        "run",
        "/tool.js",
        "--seed",
        "tool.js",
        "--copy-rw",
        "repo=/repo",
    ];
    args.extend_from_slice(extra);
    project.goccia(&args)
}

fn names(project: &Project, dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(project.join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn changes_under_copy_rw_are_written_back_after_success() {
    let project = project();
    let run = run_tool(
        &project,
        "import fs from 'fs';\n\
         fs.writeFileSync('/repo/a.txt', 'A\\n');\n\
         fs.mkdirSync('/repo/new/deep', { recursive: true }); fs.writeFileSync('/repo/new/deep/c.txt', 'c\\n');\n\
         fs.unlinkSync('/repo/keep.txt');\n\
         fs.writeFileSync('/elsewhere.txt', 'x');\n\
         fs.writeFileSync('/tmp/scratch.txt', 'x');",
        &[],
    );
    run.assert_ok();
    assert_eq!(run.stdout, "", "the report goes to stderr");
    assert_eq!(project.read("repo/a.txt"), "A\n");
    assert_eq!(project.read("repo/new/deep/c.txt"), "c\n");
    assert_eq!(
        project.read("repo/keep.txt"),
        "keep\n",
        "deletions are never applied"
    );
    assert!(!project.exists("elsewhere.txt"));
    run.stderr_has("write-back: wrote /repo/a.txt -> ")
        .stderr_has("write-back: skipped /repo/keep.txt: deletions are never applied")
        .stderr_has("write-back: skipped /elsewhere.txt: not under a --copy-rw mapping")
        .stderr_has("write-back: 2 written, ");
    assert_eq!(
        names(&project, "repo"),
        ["a.txt", "keep.txt", "new", "sub"],
        "no temporaries left"
    );
}

#[test]
fn a_failed_run_writes_nothing() {
    let project = project();
    let run = run_tool(
        &project,
        "import fs from 'fs'; fs.writeFileSync('/repo/a.txt', 'A'); throw new Error('halfway');",
        &[],
    );
    run.assert_code(1)
        .stderr_has("write-back skipped: the run failed");
    assert_eq!(project.read("repo/a.txt"), "a\n");
    let timeout = run_tool(
        &project,
        "import fs from 'fs'; fs.writeFileSync('/repo/a.txt', 'A'); while (true) {}",
        &["--timeout", "200"],
    );
    timeout.assert_code(4);
    assert_eq!(project.read("repo/a.txt"), "a\n");
}

#[test]
fn a_file_mapping_covers_only_itself_and_the_longest_mapping_wins() {
    let project = project();
    project.write("override/b.txt", "override\n");
    project.write(
        "tool.js",
        "import fs from 'fs';\n\
        fs.writeFileSync('/single.txt', 'SINGLE\\n'); fs.writeFileSync('/single.txt.bak', 'no');\n\
        fs.writeFileSync('/repo/sub/b.txt', 'B\\n');",
    );
    let run = project.goccia(&[
        "run",
        "/tool.js",
        "--seed",
        "tool.js",
        "--copy-rw",
        "single.txt",
        "--copy-rw",
        "repo=/repo",
        "--copy-rw",
        "override=/repo/sub",
    ]);
    run.assert_ok();
    assert_eq!(project.read("single.txt"), "SINGLE\n");
    assert!(!project.exists("single.txt.bak"));
    assert_eq!(
        project.read("override/b.txt"),
        "B\n",
        "the longest mapping wins"
    );
    assert_eq!(project.read("repo/sub/b.txt"), "b\n");
}

#[test]
fn without_copy_rw_nothing_is_written() {
    let project = project();
    project.write(
        "tool.js",
        "import fs from 'fs'; fs.writeFileSync('/repo/a.txt', 'A');",
    );
    let run = project.goccia(&[
        "run",
        "/tool.js",
        "--seed",
        "tool.js",
        "--seed",
        "repo=/repo",
    ]);
    run.assert_ok();
    assert_eq!(run.stderr, "");
    assert_eq!(project.read("repo/a.txt"), "a\n");
}

/// The classic attack: a host target (or a folder on the way to it)
/// becomes a symlink while the guest runs. The guest writes, prints a line
/// and keeps running a little; the test plants the link on that line.
/// Write-back must refuse with exit 1, follow nothing and write nothing.
fn plant_while_running(plant: impl FnOnce(&Project)) -> (Project, i32, String) {
    let project = project();
    project.write("secret/b.txt", "secret\n");
    project.write(
        "tool.js",
        "import fs from 'fs';\n\
         fs.writeFileSync('/repo/a.txt', 'A\\n'); fs.writeFileSync('/repo/sub/b.txt', 'pwned\\n');\n\
         console.log('ready');\n\
         const until = Date.now() + 400; while (Date.now() < until) {}",
    );
    let mut child = Command::new(binary())
        .args([
            "run",
            "/tool.js",
            "--seed",
            "tool.js",
            "--copy-rw",
            "repo=/repo",
        ])
        .current_dir(project.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line, "ready\n");
    plant(&project);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (project, output.status.code().unwrap_or(-1), stderr)
}

#[test]
fn a_symlink_planted_at_a_target_while_the_guest_runs_refuses_the_write_back() {
    let (project, code, stderr) = plant_while_running(|project| {
        std::fs::remove_file(project.join("repo/sub/b.txt")).unwrap();
        symlink(project.join("secret/b.txt"), project.join("repo/sub/b.txt")).unwrap();
    });
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("write-back refused") && stderr.contains("symlink"),
        "{stderr}"
    );
    assert_eq!(
        project.read("secret/b.txt"),
        "secret\n",
        "the link was followed"
    );
    assert_eq!(
        project.read("repo/a.txt"),
        "a\n",
        "nothing is written when one target is refused"
    );
    assert_eq!(
        names(&project, "repo/sub"),
        ["b.txt"],
        "no temporaries left"
    );
}

#[test]
fn a_symlink_planted_on_the_way_to_a_target_refuses_the_write_back() {
    let (project, code, stderr) = plant_while_running(|project| {
        std::fs::rename(project.join("repo/sub"), project.join("moved-sub")).unwrap();
        symlink(project.join("secret"), project.join("repo/sub")).unwrap();
    });
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("symlink"), "{stderr}");
    assert_eq!(project.read("secret/b.txt"), "secret\n");
    assert_eq!(project.read("repo/a.txt"), "a\n");
}

#[test]
fn json_mode_reports_the_write_back() {
    let project = project();
    let run = run_tool(
        &project,
        "import fs from 'fs'; fs.writeFileSync('/repo/a.txt', 'A'); fs.rmSync('/repo/keep.txt');",
        &["--json"],
    );
    run.assert_ok();
    let json = run.json();
    assert_eq!(json["writeBack"]["written"][0]["path"], "/repo/a.txt");
    assert_eq!(
        json["writeBack"]["skipped"][0]["reason"],
        "deletions are never applied"
    );
    assert_eq!(
        json["writeBack"]["summary"],
        "write-back: 1 written, 1 skipped"
    );
}
