//! The layers keep to their jobs: nothing below the facade words advice
//! in terms of the command line's flags (the surface does that), so an
//! embedder, the server or the Python bindings never see `--max-output`
//! in a message they cannot act on.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates below the facade, and the facade's own sources (the CLI
/// lives in the binary, `src/cli/` and `src/main.rs`).
const LOWER: [&str; 6] = [
    "core/src",
    "vfs/src",
    "shell/src",
    "builtins/src",
    "vm/src",
    "src",
];

/// Flags that lower layers legitimately spell: the shell builtin
/// `goccia`'s own options (parsed in `builtins/src/nest.rs`) and `--help`,
/// which many shell utilities take.
fn allowed(file: &Path, flag: &str) -> bool {
    flag == "--help"
        || (file.ends_with("builtins/src/nest.rs")
            && [
                "--seed",
                "--diff",
                "--diff-format",
                "--timeout",
                "--sandbox",
            ]
            .contains(&flag))
}

fn cli_flags() -> Vec<String> {
    let mut flags = Vec::new();
    for command in ["run", "shell"] {
        let output = Command::new(env!("CARGO_BIN_EXE_goccia"))
            .args([command, "--help"])
            .output()
            .expect("the binary runs");
        let help = String::from_utf8_lossy(&output.stdout).into_owned();
        for word in help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if word.len() > 3 && word.starts_with("--") && !flags.iter().any(|f| f == word) {
                flags.push(word.to_string());
            }
        }
    }
    assert!(
        flags.iter().any(|f| f == "--max-output"),
        "the help lists the flags: {flags:?}"
    );
    flags
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            if !path.ends_with("src/cli") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("src/main.rs") {
            out.push(path);
        }
    }
}

/// The string literals of a line of code (comments dropped).
fn literals(line: &str) -> Vec<&str> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    line.split('"').skip(1).step_by(2).collect()
}

#[test]
fn no_message_below_the_facade_names_a_cli_flag() {
    let flags = cli_flags();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in LOWER {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "found the sources ({})", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        for (number, line) in text.lines().enumerate() {
            for literal in literals(line) {
                for flag in &flags {
                    let named = literal.match_indices(flag.as_str()).any(|(at, _)| {
                        let next = literal[at + flag.len()..].chars().next();
                        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
                    });
                    if named && !allowed(file, flag) {
                        found.push(format!(
                            "{}:{}: {flag} in \"{literal}\"",
                            file.strip_prefix(root).unwrap_or(file).display(),
                            number + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "messages below the facade name CLI flags:\n{}",
        found.join("\n")
    );
}
