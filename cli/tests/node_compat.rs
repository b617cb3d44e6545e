//! The Node differential corpus (docs/guest.md): every script in
//! `tests/node_compat/cases` runs under real Node (the machine's `node`)
//! in a temporary folder holding `tests/node_compat/fixture`, and under
//! goccia on the same tree seeded at `/work` (the shell's `goccia`
//! builtin runs it from there, so relative paths, `__dirname` and
//! `process.cwd()` name the same places). Their stdout and exit codes must
//! be the same. Prints `N passed, N failed` and each difference.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/node_compat")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

fn outcome(output: std::process::Output) -> Outcome {
    Outcome {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs one case both ways; `None` when they agree, else what differs.
fn differs(case: &Path) -> Option<String> {
    let name = case.file_name().unwrap().to_string_lossy().into_owned();
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root().join("fixture"), dir.path());
    std::fs::copy(case, dir.path().join(&name)).unwrap();
    let node = Command::new("node")
        .arg(&name)
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .output()
        .expect("node is installed (the oracle of this corpus)");
    let node = outcome(node);
    // A fresh tree for goccia: the node run may have written files.
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root().join("fixture"), dir.path());
    std::fs::copy(case, dir.path().join(&name)).unwrap();
    let seed = format!("{}=/work", dir.path().display());
    let goccia = Command::new(env!("CARGO_BIN_EXE_goccia"))
        .args([
            "shell",
            "--seed",
            &seed,
            "-c",
            &format!("cd /work && goccia {name}"),
        ])
        .stdin(Stdio::null())
        .output()
        .expect("run goccia");
    let goccia = outcome(goccia);
    if node.stdout == goccia.stdout && node.code == goccia.code {
        return None;
    }
    let first_difference = node
        .stdout
        .lines()
        .zip(goccia.stdout.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| {
            node.stdout
                .lines()
                .count()
                .min(goccia.stdout.lines().count())
        });
    Some(format!(
        "{name}: node exit {} / goccia exit {}; first differing line {}\n  node:   {:?}\n  goccia: {:?}\n  goccia stderr: {}",
        node.code,
        goccia.code,
        first_difference + 1,
        node.stdout.lines().nth(first_difference).unwrap_or("<end>"),
        goccia
            .stdout
            .lines()
            .nth(first_difference)
            .unwrap_or("<end>"),
        goccia
            .stderr
            .lines()
            .take(3)
            .collect::<Vec<_>>()
            .join(" | "),
    ))
}

#[test]
fn the_corpus_runs_as_under_node() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("cases"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    cases.sort();
    let only = std::env::var("NODE_COMPAT_ONLY").ok();
    if let Some(only) = &only {
        cases.retain(|case| case.to_string_lossy().contains(only.as_str()));
    }
    let (sender, results) = std::sync::mpsc::channel();
    let chunks: Vec<Vec<PathBuf>> = cases
        .chunks(cases.len().div_ceil(4).max(1))
        .map(<[PathBuf]>::to_vec)
        .collect();
    let workers: Vec<_> = chunks
        .into_iter()
        .map(|chunk| {
            let sender = sender.clone();
            std::thread::spawn(move || {
                for case in chunk {
                    sender.send(differs(&case)).unwrap();
                }
            })
        })
        .collect();
    drop(sender);
    let mut failures: Vec<String> = results.iter().flatten().collect();
    for worker in workers {
        worker.join().unwrap();
    }
    failures.sort();
    for failure in &failures {
        println!("{failure}");
    }
    println!(
        "{} passed, {} failed",
        cases.len() - failures.len(),
        failures.len()
    );
    if only.is_none() {
        assert!(cases.len() >= 150, "the corpus has {} cases", cases.len());
    }
    assert!(
        failures.is_empty(),
        "{} cases differ from Node",
        failures.len()
    );
}
