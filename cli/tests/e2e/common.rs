//! Helpers: a host project folder and a way to run the binary on it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Whether this run of the suite runs guests isolated (`GOCCIA_ISOLATE=
/// process`, inherited by every `goccia` the tests start): the whole
/// suite runs in both modes (docs/isolation.md).
pub fn isolated() -> bool {
    std::env::var("GOCCIA_ISOLATE").as_deref() == Ok("process")
}

/// The events of the guest's own decisions: an isolated run's trail
/// starts with the confinement event (checked here), the rest is the
/// same in both modes.
#[track_caller]
pub fn guest_events(events: &[serde_json::Value]) -> Vec<serde_json::Value> {
    let is_isolation = |event: &serde_json::Value| event["kind"] == "isolation";
    if isolated() {
        assert_eq!(events[0]["kind"], "isolation", "{events:?}");
        assert_eq!(events[0]["decision"], "confine");
        assert_eq!(events[0]["subject"], "full");
    } else {
        assert!(!events.iter().any(is_isolation), "{events:?}");
    }
    events
        .iter()
        .filter(|event| !is_isolation(event))
        .cloned()
        .collect()
}

/// A temporary host folder the tests seed from.
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        Project {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    /// A project with one file.
    pub fn with(path: &str, content: &str) -> Self {
        let project = Project::new();
        project.write(path, content);
        project
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    pub fn write(&self, relative: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        self
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.join(relative)).unwrap()
    }

    pub fn exists(&self, relative: &str) -> bool {
        self.join(relative).symlink_metadata().is_ok()
    }

    /// Runs `goccia <args>` with this project as the working directory.
    pub fn goccia(&self, args: &[&str]) -> Run {
        goccia_in(self.path(), args)
    }
}

/// A finished process.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    #[track_caller]
    pub fn assert_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "exit code\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout, self.stderr
        );
        self
    }

    #[track_caller]
    pub fn assert_ok(&self) -> &Self {
        self.assert_code(0)
    }

    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Self {
        assert!(
            self.stderr.contains(needle),
            "stderr lacks {needle:?}:\n{}",
            self.stderr
        );
        self
    }

    #[track_caller]
    pub fn stdout_is(&self, expected: &str) -> &Self {
        assert_eq!(self.stdout, expected, "stdout\n--- stderr\n{}", self.stderr);
        self
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }
}

/// The binary under test: this build's, or `GOCCIA_E2E_BINARY` (to show
/// a regression test fails on an older build: run it against that build's
/// binary).
pub fn binary() -> PathBuf {
    std::env::var_os("GOCCIA_E2E_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_goccia")))
}

pub fn goccia_in(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(binary())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run goccia");
    finished(output)
}

/// Runs `goccia <args>` in `dir` with `stdin` piped in.
pub fn goccia_with_stdin(dir: &Path, args: &[&str], stdin: &str) -> Run {
    use std::io::Write;
    let mut child = Command::new(binary())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start goccia");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("write stdin");
    drop(input);
    finished(child.wait_with_output().expect("run goccia"))
}

fn finished(output: std::process::Output) -> Run {
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs a script given as text: seeds it as `/main.js` with the project.
/// Every such run happens twice, interpreted and in bytecode mode, and
/// must behave the same (docs/isolation.md: the modes are not observable).
pub fn run_js(project: &Project, source: &str, extra: &[&str]) -> Run {
    project.write("main.js", source);
    let mut args = vec!["run", "/main.js", "--seed", "."];
    args.extend_from_slice(extra);
    let interpreted = project.goccia(&args);
    args.extend_from_slice(&["--mode", "bytecode"]);
    let bytecode = project.goccia(&args);
    assert_same_behaviour(&interpreted, &bytecode);
    interpreted
}

/// Exit code, stdout and stderr must match, up to measured figures
/// (durations, remaining deadlines) that differ from run to run.
#[track_caller]
fn assert_same_behaviour(interpreted: &Run, bytecode: &Run) {
    let normal = |text: &str| -> String {
        let mut out = String::new();
        for line in text.split_inclusive('\n') {
            if line.contains("deadline of") || line.contains("durationMs") {
                out.push_str("<measured>\n");
            } else {
                out.push_str(line);
            }
        }
        out
    };
    assert_eq!(
        interpreted.code, bytecode.code,
        "exit code differs between modes: {bytecode:?}"
    );
    assert_eq!(
        normal(&interpreted.stdout),
        normal(&bytecode.stdout),
        "stdout differs between modes"
    );
    assert_eq!(
        normal(&interpreted.stderr),
        normal(&bytecode.stderr),
        "stderr differs between modes"
    );
}

/// Runs a script alone in a fresh project.
pub fn js(source: &str) -> Run {
    let project = Project::new();
    run_js(&project, source, &[])
}
