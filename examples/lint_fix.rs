//! A lint rule that reports, and the same rule fixing files through
//! `copy_rw`. The guest program is identical in both runs and cannot tell
//! them apart; the runs differ only in the host tree.
//!
//! `cargo run --example lint_fix`

use std::collections::BTreeMap;
use std::path::Path;

use goccia::{DiffFormat, Sandbox};

const RULE: &str = include_str!("guest/blank_lines.js");

/// Every file under `root`, relative path → content.
fn host_tree(root: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path.strip_prefix(root).unwrap().display().to_string();
                files.insert(name, std::fs::read_to_string(&path).expect("text"));
            }
        }
    }
    files
}

/// Runs the rule over `src`; with `fix`, the host maps it `copy_rw` and
/// writes back after a successful run. Returns stdout and the diff.
fn lint(src: &Path, fix: bool) -> Result<(String, String), goccia::Error> {
    let builder = Sandbox::builder().file("/rules/blank_lines.js", RULE);
    let builder = if fix {
        builder.copy_rw(src, Some("/src"))
    } else {
        builder.seed(src, Some("/src"))
    };
    let sandbox = builder.build()?;
    let run = sandbox.run_script("/rules/blank_lines.js")?;
    assert!(run.success(), "the rule failed: {}", run.stderr_text());
    if fix {
        let report = sandbox.write_back()?;
        eprint!("{}", report.render());
    }
    Ok((
        run.stdout_text().into_owned(),
        sandbox.diff(DiffFormat::Unified),
    ))
}

pub fn main() {
    let host = tempfile::tempdir().expect("temporary folder");
    let src = host.path().join("src");
    std::fs::create_dir_all(src.join("guide")).unwrap();
    std::fs::write(src.join("README.md"), "# Title\n\n\n\nBody\n").unwrap();
    std::fs::write(src.join("guide/intro.md"), "Intro\n\n\nMore\n").unwrap();
    std::fs::write(src.join("clean.md"), "Nothing\n\nto fix\n").unwrap();
    let before = host_tree(&src);

    let (report, report_diff) = lint(&src, false).expect("report run");
    assert_eq!(host_tree(&src), before, "reporting must not touch the host");

    let (fixed, fixed_diff) = lint(&src, true).expect("fix run");
    let after = host_tree(&src);

    // Same program, same output, same diff: only the host tree differs.
    assert_eq!(report, fixed);
    assert_eq!(report_diff, fixed_diff);
    assert_ne!(after, before);
    assert_eq!(after["README.md"], "# Title\n\nBody\n");
    assert_eq!(after["guide/intro.md"], "Intro\n\nMore\n");
    assert_eq!(after["clean.md"], before["clean.md"]);
    print!("{report}");
    println!("host files changed by the fix run: README.md, guide/intro.md");
}
