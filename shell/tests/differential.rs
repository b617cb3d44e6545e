//! Differential tests: each script runs under the real bash (with GNU
//! coreutils, sed, grep, awk) in a temporary folder holding a fixture
//! tree, and under goccia's shell on a VFS seeded with the same tree; the
//! stdout and exit status must be the same.

#[path = "support/run.rs"]
mod run;

#[path = "differential/core.rs"]
mod core_cases;
#[path = "differential/cpio.rs"]
mod cpio_cases;
#[path = "differential/data_safety.rs"]
mod data_safety;
#[path = "differential/descriptors.rs"]
mod descriptors;
#[path = "differential/diff.rs"]
mod diff_cases;
#[path = "differential/find.rs"]
mod find;
#[path = "differential/gnu.rs"]
mod gnu;
#[path = "differential/join.rs"]
mod join_cases;
#[path = "differential/links.rs"]
mod links;
#[path = "differential/procsub.rs"]
mod procsub;
#[path = "differential/tar.rs"]
mod tar_cases;
#[path = "differential/tools.rs"]
mod tools;
#[path = "differential/verbose.rs"]
mod verbose;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use goccia_vfs::seed::{SeedTarget, seed_host};

/// The fixture: a small project.
fn fixture(root: &Path) {
    let files: &[(&str, &str)] = &[
        ("README.md", "# Demo\n\nA demo project.\nTODO: write docs\n"),
        (
            "src/main.rs",
            "fn main() {\n    // TODO: greet\n    println!(\"hello\");\n}\n",
        ),
        (
            "src/lib.rs",
            "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
        ),
        (
            "src/util/strings.rs",
            "pub fn shout(s: &str) -> String {\n    s.to_uppercase()\n}\n",
        ),
        (
            "data/people.csv",
            "name,age,city\nada,36,london\nalan,41,wilmslow\ngrace,85,arlington\nlinus,28,helsinki\n",
        ),
        ("data/numbers.txt", "10\n3\n7\n3\n22\n1\n7\n"),
        (
            "data/words.txt",
            "banana\nApple\ncherry\napple\nbanana\nDate\n",
        ),
        (
            "data/config.json",
            "{\"name\":\"demo\",\"version\":\"1.2.3\",\"tags\":[\"a\",\"b\"]}\n",
        ),
        ("notes/todo.txt", "- buy milk\n- TODO fix bug\n- call bob\n"),
        ("notes/empty.txt", ""),
    ];
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
}

fn real_bash(root: &Path, script: &str) -> (String, i32) {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new("bash");
    // SAFETY: `close_range` is async-signal-safe; it runs in the child
    // before exec. Descriptors the test process inherited (an editor's,
    // a CI runner's) would otherwise shift the numbers bash hands out.
    unsafe {
        command.pre_exec(|| {
            libc::close_range(3, u32::MAX, 0);
            Ok(())
        });
    }
    let output = command
        .arg("-c")
        .arg(script)
        .current_dir(root)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", "/")
        .env("LC_ALL", "C.UTF-8")
        .env("TZ", "UTC")
        .output()
        .expect("real bash is the oracle: it must be installed");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

fn goccia(root: &Path, script: &str) -> (String, i32) {
    let vfs = run::fresh_vfs();
    let target = SeedTarget::parse("/work").unwrap();
    seed_host(&mut vfs.lock(), root, &target).unwrap();
    let ran = run::run_on(vfs, &format!("cd /work; {script}"), Duration::from_secs(10));
    (ran.stdout, ran.status.unwrap_or(-1))
}

/// Runs every script of `cases` both ways; fails naming each difference.
fn check(cases: &[&str]) {
    let mut failures = Vec::new();
    for script in cases {
        let bash_root = tempfile::tempdir().unwrap();
        fixture(bash_root.path());
        let goccia_root = tempfile::tempdir().unwrap();
        fixture(goccia_root.path());
        let expected = real_bash(bash_root.path(), script);
        let got = goccia(goccia_root.path(), script);
        if expected != got {
            failures.push(format!(
                "--- script\n{script}\n--- bash (status {})\n{}--- goccia (status {})\n{}",
                expected.1, expected.0, got.1, got.0
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scripts differ from real bash:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn scripts_behave_as_under_real_bash() {
    check(core_cases::CASES);
}

#[test]
fn process_substitution_behaves_as_under_real_bash() {
    check(procsub::CASES);
}

#[test]
fn descriptors_behave_as_under_real_bash() {
    check(descriptors::CASES);
}

#[test]
fn gnu_details_behave_as_under_real_bash_and_gnu_tools() {
    check(gnu::CASES);
}

#[test]
fn symbolic_links_behave_as_under_real_bash() {
    check(links::CASES);
}

#[test]
fn agent_tools_behave_as_the_real_ones() {
    check(tools::CASES);
}

#[test]
fn one_liners_that_change_data_behave_as_under_real_bash() {
    check(data_safety::CASES);
}

#[test]
fn verbose_flags_xargs_options_and_head_counts_behave_as_gnu() {
    check(verbose::CASES);
}

#[test]
fn find_tests_and_printf_behave_as_gnu_find() {
    check(find::CASES);
}

#[test]
fn tar_appends_updates_and_lists_as_gnu_tar() {
    check(tar_cases::CASES);
}

#[test]
fn cpio_copies_out_in_and_through_as_gnu_cpio() {
    check(cpio_cases::CASES);
}

#[test]
fn diff_styles_and_options_behave_as_gnu_diff() {
    check(diff_cases::CASES);
}

#[test]
fn diff_aligns_generated_files_as_gnu_diff_does() {
    let cases = diff_cases::generated_alignments();
    check(&cases.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn join_pairs_unpairables_and_order_checks_as_gnu_join() {
    check(join_cases::CASES);
}
