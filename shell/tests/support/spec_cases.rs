//! Reading the conformance corpus (`tests/spec/bashkit-spec`, format in its
//! README).

#![allow(dead_code)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
pub struct Case {
    /// `bash/alias.test.sh`
    pub file: String,
    pub name: String,
    pub script: String,
    pub expected: String,
    pub exit_code: Option<i32>,
    pub skip: bool,
    pub bash_diff: bool,
}

impl Case {
    pub fn id(&self) -> String {
        format!("{}::{}", self.file, self.name)
    }
}

pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec/bashkit-spec")
}

pub fn parse_file(file: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(name) = line.strip_prefix("### ") else {
            continue;
        };
        if name.contains(':') || name == "expect" || name == "end" {
            continue;
        }
        let mut case = Case {
            file: file.to_string(),
            name: name.trim().to_string(),
            script: String::new(),
            expected: String::new(),
            exit_code: None,
            skip: false,
            bash_diff: false,
        };
        let mut in_expect = false;
        let mut described = false;
        while let Some(line) = lines.next() {
            if line == "### end" {
                break;
            }
            if line == "### expect" {
                in_expect = true;
                continue;
            }
            if line == "### expect_exit_code" {
                // Another spelling of an exit-code expectation: the status
                // on the next line, and no stdout.
                case.exit_code = lines.next().and_then(|code| code.trim().parse().ok());
                continue;
            }
            if let Some(code) = line.strip_prefix("### exit_code:") {
                case.exit_code = code.trim().parse().ok();
                continue;
            }
            if line.starts_with("### skip") {
                case.skip = true;
                continue;
            }
            if line.starts_with("### bash_diff") {
                case.bash_diff = true;
                continue;
            }
            if line.starts_with("### paused_time") {
                continue;
            }
            if in_expect {
                case.expected.push_str(line);
                case.expected.push('\n');
            } else if case.script.is_empty() && !described && line.starts_with('#') {
                // The optional one-line description is not part of the script.
                described = true;
            } else {
                described = true;
                case.script.push_str(line);
                case.script.push('\n');
            }
        }
        // An expect block of blank lines stands for no output (the corpus
        // cannot write an empty block otherwise; bash prints nothing there).
        if case.expected.chars().all(|c| c == '\n') {
            case.expected.clear();
        }
        cases.push(case);
    }
    cases
}

/// Every case of the corpus, by directory.
pub fn all_cases() -> Vec<Case> {
    let root = corpus();
    let mut cases = Vec::new();
    for dir in ["bash", "awk", "grep", "sed", "jq"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let file = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            cases.extend(parse_file(&file, &text));
        }
    }
    cases
}

/// The ids real bash reproduces.
pub fn bash_verified() -> HashSet<String> {
    std::fs::read_to_string(corpus().join("bash-verified.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}
