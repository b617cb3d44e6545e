//! Seeding real repositories (docs/vfs.md): links inside, ignore files,
//! excludes, and what of them write-back may touch.

use crate::common::*;

/// A small repository: a `.git/`, ignore files, build output, and
/// `node_modules/.bin` links as npm makes them.
fn repository() -> Project {
    let project = Project::new();
    project
        .write("repo/src/app.js", "console.log('app');\n")
        .write("repo/.gitignore", "*.log\n!keep.log\n/dist/\n")
        .write("repo/debug.log", "noise\n")
        .write("repo/keep.log", "kept\n")
        .write("repo/dist/app.min.js", "min\n")
        .write("repo/src/.ignore", "generated.js\n")
        .write("repo/src/generated.js", "gen\n")
        .write("repo/.git/HEAD", "ref: refs/heads/main\n")
        .write("repo/.git/info/exclude", "secret.txt\n")
        .write("repo/secret.txt", "s\n")
        .write("repo/.env", "TOKEN=host\n")
        .write("repo/node_modules/tool/cli.js", "cli\n");
    std::fs::create_dir_all(project.join("repo/node_modules/.bin")).unwrap();
    std::os::unix::fs::symlink(
        "../tool/cli.js",
        project.join("repo/node_modules/.bin/tool"),
    )
    .unwrap();
    project
}

fn listing(project: &Project, extra: &[&str]) -> Run {
    let mut args = vec![
        "shell",
        "-c",
        "cd /w && find . -type f | sort",
        "--seed",
        "repo=/w",
    ];
    args.extend_from_slice(extra);
    project.goccia(&args)
}

#[test]
fn links_are_refused_by_default_skipped_on_request_and_kept_as_vfs_links() {
    let project = repository();
    listing(&project, &[])
        .assert_code(2)
        .stderr_has("seed path is a symlink (not supported):")
        .stderr_has("node_modules/.bin/tool");
    let run = listing(&project, &["--symlinks", "skip"]);
    run.assert_ok()
        .stderr_has("goccia: seed skipped the symlink ");
    assert!(
        run.stdout.contains("./node_modules/tool/cli.js"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains(".bin"), "{}", run.stdout);
    let json = listing(&project, &["--symlinks", "skip", "--json"]).json();
    let skipped = json["seedSkipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert!(
        skipped[0]
            .as_str()
            .unwrap()
            .ends_with("node_modules/.bin/tool")
    );
    // Kept: a VFS link holding the host link's text, resolved in the VFS.
    let run = project.goccia(&[
        "shell",
        "--seed",
        "repo=/w",
        "--symlinks",
        "keep",
        "-c",
        "cd /w/node_modules/.bin && readlink tool && cat tool && find /w -type l",
    ]);
    run.assert_ok();
    assert_eq!(
        run.stdout,
        "../tool/cli.js\ncli\n/w/node_modules/.bin/tool\n"
    );
    listing(&project, &["--symlinks", "sometimes"]).assert_code(2);
}

#[test]
fn gitignore_and_excludes_leave_paths_out() {
    let project = repository();
    let run = listing(&project, &["--symlinks", "skip", "--gitignore"]);
    run.assert_ok();
    assert_eq!(
        run.stdout,
        "./.env\n./.gitignore\n./keep.log\n./node_modules/tool/cli.js\n./src/.ignore\n./src/app.js\n"
    );
    let run = listing(
        &project,
        &[
            "--exclude",
            "node_modules/",
            "--exclude",
            "*.log",
            "--exclude",
            "/.git",
        ],
    );
    run.assert_ok();
    assert!(!run.stdout.contains("node_modules"), "{}", run.stdout);
    assert!(!run.stdout.contains(".log"), "{}", run.stdout);
    assert!(!run.stdout.contains(".git/"), "{}", run.stdout);
    assert!(run.stdout.contains("./dist/app.min.js"), "{}", run.stdout);
    listing(&project, &["--exclude", "{a", "--symlinks", "skip"])
        .assert_code(2)
        .stderr_has("invalid exclude pattern `{a`: error parsing glob");
}

#[test]
fn what_a_seed_left_out_is_never_written_back() {
    let project = repository();
    let run = project.goccia(&[
        "shell",
        "-c",
        "echo TOKEN=guest > /w/.env; echo changed > /w/src/app.js",
        "--copy-rw",
        "repo=/w",
        "--exclude",
        ".env",
        "--symlinks",
        "skip",
    ]);
    run.assert_ok()
        .stderr_has("write-back: skipped /w/.env: the seed left this path out");
    assert_eq!(project.read("repo/.env"), "TOKEN=host\n");
    assert_eq!(project.read("repo/src/app.js"), "changed\n");
}
