//! Hostile input, second round (issue 21): each class found by hostile
//! code written without reading goccia's tests, reproduced through the
//! binary, with bounded wall time and peak memory. Variants of each class
//! are checked separately.

use crate::common::*;
use crate::hostile::{SECONDS, contained, hostile_js};

/// Runs `goccia shell -c script` with `extra`; asserts the code, the wall
/// time and the peak RSS; returns stderr.
#[track_caller]
fn hostile_shell(script: &str, extra: &[&str], code: i32, wall_secs: u64, rss_mib: i64) -> String {
    let project = Project::new();
    let mut args = vec!["shell", "-c", script];
    args.extend_from_slice(extra);
    let run = contained(&project, &args);
    assert_eq!(run.code, code, "exit code for {script:?}\n{}", run.stderr);
    assert!(
        run.wall < SECONDS(wall_secs),
        "{script:?} took {:?}",
        run.wall
    );
    assert!(
        run.max_rss_kib < rss_mib * 1024,
        "{script:?} peaked at {} MiB",
        run.max_rss_kib / 1024
    );
    run.stderr
}

// ----- 1. trees deeper than the host's stack -----

/// The reproduction: a deep tree grown by renames (each rename names short
/// paths, the tree below gets deeper). It aborted the host with a stack
/// overflow; the VFS now refuses to grow past 256 levels.
#[test]
fn renames_cannot_grow_a_tree_past_the_depth_limit() {
    let stderr = hostile_js(
        "import fs from 'fs';
         fs.mkdirSync('/c/' + 'a/'.repeat(200) + 'a', {recursive: true});
         const seg = 'a/'.repeat(100) + 'a';
         for (let i = 0; i < 110; i++) {
           fs.mkdirSync('/n/' + seg, {recursive: true});
           fs.renameSync('/c', '/n/' + seg + '/c');
           fs.renameSync('/n', '/c');
         }",
        &[],
        1,
        SECONDS(10),
        256,
    );
    assert!(
        stderr.contains("ENAMETOOLONG: path deeper than 256 levels"),
        "{stderr}"
    );
    // The guest can catch it and go on; the tree is as it was.
    let project = Project::with(
        "main.js",
        "import fs from 'fs';
         fs.mkdirSync('/c/' + 'a/'.repeat(250), {recursive: true});
         fs.mkdirSync('/n/x/y/z/w/v/u', {recursive: true});
         try { fs.renameSync('/c', '/n/x/y/z/w/v/u/c'); } catch (e) { console.log(e.code); }
         console.log(fs.existsSync('/c'), fs.existsSync('/n/x/y/z/w/v/u/c'));",
    );
    project
        .goccia(&["run", "/main.js", "--seed", "main.js"])
        .assert_ok()
        .stdout_is("ENAMETOOLONG\ntrue false\n");
}

#[test]
fn the_shell_cannot_grow_a_tree_past_the_depth_limit_either() {
    // `mkdir -p` and `mv` in a loop, then `cp -r` and `tar` of what is there.
    let stderr = hostile_shell(
        "d=$(printf 'a/%.0s' $(seq 200)); mkdir -p /c/$d; \
         for i in $(seq 10); do mkdir -p /n/$d && mv /c /n/$d/c && mv /n /c || break; done; \
         cp -r /c /deep/x/y 2>&1 | head -c 0; mkdir -p /deep; cp -r /c /deep/c; \
         tar cf /t.tar /c && tar tf /t.tar | wc -l; find / | wc -l; du -s /c > /dev/null; echo end",
        &[],
        0,
        20,
        256,
    );
    assert!(stderr.contains("deeper than 256 levels"), "{stderr}");
    // A script path deeper than the limit is refused, not walked.
    let stderr = hostile_shell(&format!("mkdir -p /{}", "a/".repeat(300)), &[], 1, 10, 256);
    assert!(stderr.contains("deeper than 256 levels"), "{stderr}");
}

#[test]
fn a_host_tree_deeper_than_the_limit_is_refused_when_seeding() {
    let project = Project::new();
    let deep = "d/".repeat(300);
    std::fs::create_dir_all(project.join(&format!("tree/{deep}"))).unwrap();
    project
        .goccia(&["run", "/x.js", "--seed", "tree=/t"])
        .assert_code(2)
        .stderr_has("deeper than 256 levels below its target");
}

// ----- 9. seeding reads sizes before contents -----

#[test]
fn seeding_checks_sizes_before_reading() {
    let project = Project::new();
    // 3 GiB of holes: nothing is read, the size alone is over the quota.
    let file = std::fs::File::create(project.join("sparse.bin")).unwrap();
    file.set_len(3 << 30).unwrap();
    let run = contained(
        &project,
        &[
            "run",
            "/x.js",
            "--seed",
            "sparse.bin",
            "--fs-quota-bytes",
            "16m",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("quota is exhausted"), "{}", run.stderr);
    assert!(
        run.max_rss_kib < 128 * 1024,
        "peaked at {} KiB",
        run.max_rss_kib
    );
    // A device as a seed config is refused from its metadata, never read.
    let run = contained(&project, &["run", "/x.js", "--seed-config", "/dev/zero"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    assert!(
        run.max_rss_kib < 128 * 1024,
        "peaked at {} KiB",
        run.max_rss_kib
    );
    assert!(run.wall < SECONDS(10));
}

// ----- 5. widths and precisions past Rust's formatter -----

/// Each of these panicked inside `format!` (widths over 65,535) and ended
/// as an internal error, exit 70. They now print what GNU prints.
#[test]
fn huge_widths_and_precisions_are_formatted_not_internal_errors() {
    let cases = [
        (
            "echo 'scale=65535; 1/3' | bc | tr -d '\\\\\\n' | wc -c",
            "65536\n",
        ),
        ("printf '%.70000f' 1 | wc -c", "70002\n"),
        ("printf '%.70000e' 1 | wc -c", "70006\n"),
        ("printf '%070000d' 5 | wc -c", "70000\n"),
        ("awk 'BEGIN { printf \"%.70000f\", 1 }' | wc -c", "70002\n"),
        ("seq -f '%.70000f' 1 1 | wc -c", "70003\n"),
        ("echo 5 | numfmt --padding=70000 | wc -c", "70001\n"),
        (
            "printf 'x%.0s' $(seq 70000) | tr -d '\\n' > /w; echo \" $(cat /w) b\" | column -t | wc -c",
            "70004\n",
        ),
        // As GNU split: a 70,001-byte name is too long for any file system.
        (
            "echo abc > /f; split -a 70000 -b 1 /f /p 2>&1 | grep -c 'File name too long'; ls / | grep '^p' | wc -l",
            "1\n0\n",
        ),
    ];
    for (script, expected) in cases {
        let run = Project::new().goccia(&["shell", "-c", script]);
        assert_eq!(run.code, 0, "{script}: {}", run.stderr);
        assert_eq!(run.stdout, expected, "{script}");
    }
}

// ----- 3. sed inside one cycle -----

#[test]
fn sed_branch_loops_stop_at_the_deadline_and_growth_at_a_bound() {
    // A branch loop never ends its cycle: the deadline is checked on
    // every taken branch.
    let stderr = hostile_shell("echo x | sed ':a;ba'", &["--timeout", "1000"], 4, 10, 128);
    assert!(stderr.contains("deadline of 1000 ms passed"), "{stderr}");
    // Endless growth of the pattern and hold spaces stops at the
    // buffered-input bound (sed's status 4, as GNU sed's when memory
    // runs out), long before the host's memory.
    let stderr = hostile_shell("echo x | sed ':a;s/^/y/;H;x;ba'", &[], 4, 20, 1024);
    assert!(stderr.contains("pattern or hold space larger than"), "{stderr}");
    // Slurping a file holds one copy of it, not an object per line.
    hostile_shell(
        "seq 1000000 | sed ':a;N;$!ba;s/\\n/ /g' | wc -c",
        &[],
        0,
        30,
        128,
    );
    // And sed streams: an endless input with an early reader ends at once.
    hostile_shell("yes | sed p | head -3 > /dev/null", &[], 0, 10, 128);
}
