//! Diffs (docs/vfs.md): the JSON change list and unified patches that
//! real `git apply` accepts.

use std::path::Path;
use std::process::Command;

use crate::common::*;

const EDIT: &str = "import fs from 'fs';\n\
    fs.writeFileSync('/text.txt', 'one\\nTWO\\nthree\\n');\n\
    fs.writeFileSync('/no-eol.txt', 'last line changed');\n\
    fs.writeFileSync('/bin.dat', new Uint8Array([0, 1, 2, 255, 0, 7]));\n\
    fs.writeFileSync('/new-bin.dat', new Uint8Array(3000).map((_, i) => (i * 7) % 256));\n\
    fs.mkdirSync('/nested/deeper/still', { recursive: true });\n\
    fs.writeFileSync('/nested/deeper/still/new.txt', 'brand new\\n');\n\
    fs.writeFileSync('/empty.txt', '');\n\
    fs.unlinkSync('/gone.txt');\n\
    fs.rmSync('/was-dir', { recursive: true }); fs.writeFileSync('/was-dir', 'now a file\\n');\n\
    fs.unlinkSync('/was-file'); fs.mkdirSync('/was-file'); fs.writeFileSync('/was-file/inner.txt', 'inner\\n');\n\
    fs.writeFileSync('/sp ace.txt', 'spaced\\n');\n\
    fs.writeFileSync('/A.txt', 'upper\\n'); fs.writeFileSync('/a.txt', 'lower\\n');\n\
    fs.writeFileSync('/big.txt', Array.from({ length: 100 }, (_, i) => i === 50 ? 'middle' : 'line ' + i).join('\\n') + '\\n');";

fn seeded_project() -> Project {
    let project = Project::new();
    project.write("text.txt", "one\ntwo\nthree\n");
    project.write("no-eol.txt", "last line");
    project.write("bin.dat", [0u8, 1, 2, 3]);
    project.write("gone.txt", "bye\n");
    project.write("was-dir/x.txt", "x\n");
    project.write("was-dir/y/z.txt", "z\n");
    project.write("was-file", "file\n");
    project.write("untouched.txt", "same\n");
    project.write(
        "big.txt",
        (0..100).map(|i| format!("line {i}\n")).collect::<String>(),
    );
    project
}

/// Copies the seed tree (without the script) to a fresh git work tree.
fn git_tree(project: &Project) -> tempfile::TempDir {
    let tree = tempfile::tempdir().unwrap();
    copy_dir(project.path(), tree.path());
    std::fs::remove_file(tree.path().join("main.js")).ok();
    tree
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git is installed")
}

#[test]
fn unified_patches_apply_with_git() {
    let project = seeded_project();
    let run = run_js(&project, EDIT, &["--diff", "--diff-format", "unified"]);
    run.assert_ok();
    let patch = &run.stdout;
    assert!(patch.contains("GIT binary patch"), "{patch}");
    assert!(patch.contains("\\ No newline at end of file"), "{patch}");
    assert!(patch.contains("diff --git a/nested/deeper/still/new.txt b/nested/deeper/still/new.txt\nnew file mode 100644"), "{patch}");
    assert!(patch.contains("deleted file mode 100644"), "{patch}");
    assert!(!patch.contains("untouched.txt"), "{patch}");

    let tree = git_tree(&project);
    std::fs::write(tree.path().join("change.patch"), patch).unwrap();
    let check = git(tree.path(), &["apply", "--check", "change.patch"]);
    assert!(
        check.status.success(),
        "git apply --check: {}\n{patch}",
        String::from_utf8_lossy(&check.stderr)
    );
    let apply = git(tree.path(), &["apply", "change.patch"]);
    assert!(
        apply.status.success(),
        "git apply: {}",
        String::from_utf8_lossy(&apply.stderr)
    );
    std::fs::remove_file(tree.path().join("change.patch")).unwrap();

    // The final VFS, dumped by the same run, must equal the patched tree.
    let dumped = run_js(&project, &format!("{EDIT}\n{DUMP}"), &[]);
    dumped.assert_ok();
    let files: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(dumped.stdout.trim()).unwrap();
    use base64::Engine;
    for (path, content) in &files {
        let expected = base64::engine::general_purpose::STANDARD
            .decode(content.as_str().unwrap())
            .unwrap();
        let actual =
            std::fs::read(tree.path().join(&path[1..])).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(actual, expected, "{path} differs after git apply");
    }
    assert_eq!(
        count_files(tree.path()),
        files.len(),
        "git apply left extra or missing files"
    );
}

/// Prints every file of the VFS but the script as `{path: base64}`.
const DUMP: &str = "const dump = {};\n\
    const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) {\n\
      const p = (dir === '/' ? '' : dir) + '/' + e.name;\n\
      if (e.isDirectory()) walk(p); else if (p !== '/main.js') dump[p] = fs.readFileSync(p, 'base64'); } };\n\
    walk('/'); console.log(JSON.stringify(dump));";

fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            if e.file_type().unwrap().is_dir() {
                count_files(&e.path())
            } else {
                1
            }
        })
        .sum()
}

#[test]
fn json_diffs_list_changes_in_apply_order() {
    let project = seeded_project();
    let run = run_js(&project, EDIT, &["--diff"]);
    run.assert_ok();
    let diff: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(diff["version"], 1);
    let changes = diff["changes"].as_array().unwrap();
    let summary: Vec<String> = changes
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                c["kind"].as_str().unwrap(),
                c["path"].as_str().unwrap(),
                c["type"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "create /A.txt file",
            "create /a.txt file",
            "modify /big.txt file",
            "modify /bin.dat file",
            "create /empty.txt file",
            "mkdir /nested directory",
            "mkdir /nested/deeper directory",
            "mkdir /nested/deeper/still directory",
            "create /nested/deeper/still/new.txt file",
            "create /new-bin.dat file",
            "modify /no-eol.txt file",
            "create /sp ace.txt file",
            "modify /text.txt file",
            "replace /was-dir file",
            "replace /was-file directory",
            "create /was-file/inner.txt file",
            "delete /gone.txt file",
        ]
    );
    let text = &changes[summary
        .iter()
        .position(|s| s.starts_with("modify /text.txt"))
        .unwrap()];
    assert_eq!(text["oldSize"], 14);
    assert_eq!(text["newSize"], 14);
    assert_eq!(text["encoding"], "utf8");
    assert_eq!(text["content"], "one\nTWO\nthree\n");
    assert!(text["oldHash"].as_str().unwrap().starts_with("blake3:"));
    let bin = &changes[summary
        .iter()
        .position(|s| s.starts_with("modify /bin.dat"))
        .unwrap()];
    assert_eq!(bin["encoding"], "base64");
    assert_eq!(bin["content"], "AAEC/wAH");
    let gone = changes.last().unwrap();
    assert_eq!(gone["content"], serde_json::Value::Null);
    assert_eq!(gone["newSize"], serde_json::Value::Null);
    assert_eq!(gone["oldSize"], 4);
    let mkdir = &changes[summary
        .iter()
        .position(|s| s == "mkdir /nested directory")
        .unwrap()];
    assert_eq!(mkdir["oldSize"], serde_json::Value::Null);
    assert_eq!(mkdir["content"], serde_json::Value::Null);
}

#[test]
fn case_different_paths_are_separate_changes() {
    let project = Project::new();
    let run = run_js(
        &project,
        "import fs from 'fs'; fs.writeFileSync('/A.txt', '1'); fs.writeFileSync('/a.txt', '2');",
        &["--diff"],
    );
    let diff: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let paths: Vec<&str> = diff["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/A.txt", "/a.txt"]);
}

#[test]
fn the_diff_is_printed_after_a_failed_run_and_can_go_to_a_file() {
    let project = Project::new();
    let run = run_js(
        &project,
        "import fs from 'fs'; console.log('out'); fs.writeFileSync('/partial.txt', 'p'); throw new Error('late');",
        &["--diff"],
    );
    run.assert_code(1);
    assert!(run.stdout.starts_with("out\n{"), "{}", run.stdout);
    assert!(run.stdout.contains("/partial.txt"));

    let run = run_js(
        &project,
        "import fs from 'fs'; console.log('only this'); fs.writeFileSync('/f.txt', 'f\\n');",
        &["--diff-output", "out.patch", "--diff-format=unified"],
    );
    run.assert_ok().stdout_is("only this\n");
    let patch = project.read("out.patch");
    assert!(
        patch.contains("+++ b/f.txt\n@@ -0,0 +1 @@\n+f\n"),
        "{patch}"
    );
}

#[test]
fn no_changes_make_an_empty_diff() {
    let project = Project::with("main.js", "console.log('x')");
    let run = project.goccia(&[
        "run",
        "/main.js",
        "--seed",
        ".",
        "--diff",
        "--diff-format",
        "unified",
    ]);
    run.assert_ok().stdout_is("x\n");
    let run = project.goccia(&["run", "/main.js", "--seed", ".", "--diff"]);
    run.assert_ok()
        .stdout_is("x\n{\n  \"version\": 1,\n  \"changes\": []\n}\n");
}

/// `--diff-root`: a tree seeded at `/work` gives a patch that plain
/// `git apply` (no `-p2`, no `--directory`) takes in the host folder.
#[test]
fn a_diff_root_makes_the_patch_apply_in_the_seeded_folder() {
    let project = Project::new();
    project.write("repo/src/a.txt", "one\ntwo\n");
    project.write("repo/README", "readme\n");
    let run = project.goccia(&[
        "shell",
        "-c",
        "sed -i s/two/2/ /work/src/a.txt; echo new > /work/src/b.txt; echo out > /tmp/x",
        "--seed",
        "repo=/work",
        "--diff",
        "--diff-format",
        "unified",
        "--diff-root",
        "/work",
    ]);
    run.assert_ok();
    let patch = &run.stdout;
    assert!(
        patch.starts_with("diff --git a/src/a.txt b/src/a.txt"),
        "{patch}"
    );
    assert!(!patch.contains("tmp/x"), "outside the root: {patch}");
    let tree = tempfile::tempdir().unwrap();
    copy_dir(&project.join("repo"), tree.path());
    std::fs::write(tree.path().join("change.patch"), patch).unwrap();
    let apply = git(tree.path(), &["apply", "change.patch"]);
    assert!(
        apply.status.success(),
        "git apply: {}\n{patch}",
        String::from_utf8_lossy(&apply.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(tree.path().join("src/a.txt")).unwrap(),
        "one\n2\n"
    );
    assert_eq!(
        std::fs::read_to_string(tree.path().join("src/b.txt")).unwrap(),
        "new\n"
    );
    // A root that is not a sandbox path is a usage error before anything runs.
    project
        .goccia(&["shell", "-c", "echo never", "--diff", "--diff-root", "work"])
        .assert_code(2)
        .stderr_has("--diff-root work:")
        .stdout_is("");
}

/// Links (docs/vfs.md): the JSON diff says `symlink` with the target as
/// content; the unified patch uses mode 120000, and `git apply` makes the
/// same links on the host (write-back never would: it reports them).
#[test]
fn links_are_diffed_as_git_does_and_git_apply_makes_them() {
    let project = Project::new();
    project.write("repo/src/a.txt", "a\n");
    let script = "cd /work && ln -s src/a.txt top && ln -s ../top src/up && ln -s nowhere dangling";
    let run = project.goccia(&[
        "shell",
        "-c",
        script,
        "--seed",
        "repo=/work",
        "--diff",
        "--diff-format",
        "unified",
        "--diff-root",
        "/work",
    ]);
    run.assert_ok();
    let patch = &run.stdout;
    assert!(
        patch.contains("diff --git a/top b/top\nnew file mode 120000\n"),
        "{patch}"
    );
    let tree = tempfile::tempdir().unwrap();
    copy_dir(&project.join("repo"), tree.path());
    std::fs::write(tree.path().join("change.patch"), patch).unwrap();
    let apply = git(tree.path(), &["apply", "change.patch"]);
    assert!(
        apply.status.success(),
        "git apply: {}\n{patch}",
        String::from_utf8_lossy(&apply.stderr)
    );
    for (link, target) in [
        ("top", "src/a.txt"),
        ("src/up", "../top"),
        ("dangling", "nowhere"),
    ] {
        assert_eq!(
            std::fs::read_link(tree.path().join(link)).unwrap(),
            Path::new(target),
            "{link}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(tree.path().join("src/up")).unwrap(),
        "a\n"
    );

    let json = project
        .goccia(&["shell", "-c", script, "--seed", "repo=/work", "--diff"])
        .json();
    let change = &json["changes"][0];
    assert_eq!(change["type"], "symlink", "{json}");
    assert_eq!(change["path"], "/work/dangling");
    assert_eq!(change["content"], "nowhere");

    // Write-back skips each link and says so; the host gets none.
    let run = project.goccia(&["shell", "-c", script, "--copy-rw", "repo=/work"]);
    run.assert_ok()
        .stderr_has("write-back: skipped /work/top: symbolic links are never written to the host");
    assert!(std::fs::symlink_metadata(project.join("repo/top")).is_err());
}
