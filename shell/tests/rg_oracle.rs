//! `rg` against the real ripgrep (Debian's `ripgrep`, installed by
//! `.ci/run`): each command line runs as `rg --sort path ...` in a
//! temporary folder holding a fixture repository, and as `rg ...` in the
//! shell over a VFS seeded with the same tree; stdout, stderr and the
//! exit status must be the same (timings in `--json` aside).

#[path = "support/run.rs"]
mod run;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use goccia_vfs::seed::{SeedTarget, seed_host};

/// A repository: sources of three languages, docs, a hidden folder, an
/// ignored `node_modules/` and `*.log`, a `.ignore`d file, a binary file.
fn fixture(root: &Path) {
    let files: &[(&str, &[u8])] = &[
        (
            "src/main.rs",
            b"fn main() {\n    println!(\"Hello, world\");\n}\n// TODO: more\n",
        ),
        (
            "src/lib.rs",
            b"pub fn hello() -> &str {\n    \"hello\"\n}\n",
        ),
        ("src/deep/x.py", b"def hello():\n    return \"HELLO\"\n"),
        ("docs/README.md", b"# Hello docs\nSee hello.\n"),
        (".hidden/h.txt", b"hello hidden\n"),
        ("node_modules/pkg/index.js", b"hello module\n"),
        (".gitignore", b"node_modules/\n*.log\n"),
        ("debug.log", b"hello log\n"),
        ("data.bin", b"bin\0hello\n"),
        ("skip.txt", b"ignored by dot-ignore hello\n"),
        (".ignore", b"skip.txt\n"),
        ("notes.txt", b"x\nhello world hello\n\nfoo\n"),
        ("sub/.gitignore", b"!keep.log\n"),
        ("sub/keep.log", b"hello kept log\n"),
        ("sub/other.log", b"hello other log\n"),
    ];
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    // ripgrep honours .gitignore inside a repository: a `.git` folder is
    // what it looks for.
    std::fs::create_dir_all(root.join(".git/info")).unwrap();
    std::fs::write(root.join(".git/info/exclude"), "notes-excluded.txt\n").unwrap();
    std::fs::write(root.join("notes-excluded.txt"), "hello excluded\n").unwrap();
}

/// Drops what differs from run to run: `--json` timings.
fn steady(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\"elapsed") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let end = after.find('}').map_or(after.len(), |i| i + 1);
        out.push_str("\"elapsed\":T");
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

type Seen = (String, String, i32);

fn ripgrep(root: &Path, args: &str) -> Seen {
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!("rg --sort path {args}"))
        .current_dir(root)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", "/")
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !stderr.contains("rg: command not found"),
        "the real ripgrep is the oracle: install it (Debian package ripgrep; .ci/run does)"
    );
    (
        steady(&String::from_utf8_lossy(&output.stdout)),
        stderr,
        output.status.code().unwrap_or(-1),
    )
}

fn goccia(root: &Path, args: &str) -> Seen {
    let vfs = run::fresh_vfs();
    seed_host(&mut vfs.lock(), root, &SeedTarget::parse("/work").unwrap()).unwrap();
    let ran = run::run_on(
        vfs,
        &format!("cd /work; rg {args}"),
        Duration::from_secs(10),
    );
    (steady(&ran.stdout), ran.stderr, ran.status.unwrap_or(-1))
}

const CASES: &[&str] = &[
    "hello",
    "-i hello",
    "-n hello",
    "-l hello",
    "-c hello",
    "--count-matches hello",
    "--files-without-match hello",
    "--files",
    "--files src docs",
    "-t py hello",
    "-tmd hello",
    "-T rust -i hello",
    "-g '*.rs' hello",
    "-g '!src' hello",
    "-g '*.{rs,py}' hello",
    "--iglob '*.MD' hello",
    "--files -g '*.md'",
    "--hidden hello",
    "--no-ignore hello",
    "--no-ignore-vcs -l hello",
    "-uu -l hello",
    "-uuu -l hello",
    "hello src",
    "hello src/main.rs",
    "hello data.bin",
    "-c hello data.bin",
    "-w hello notes.txt",
    "-o hello notes.txt",
    "-o 'l+' notes.txt",
    "-F '(' src",
    "-x foo notes.txt",
    "-x '' -n notes.txt",
    "-v hello notes.txt",
    "-e hello -v -c",
    "'' notes.txt",
    "-C1 foo notes.txt",
    "-A1 -B1 -n hello src",
    "-m1 hello",
    "-S Hello",
    "-s Hello",
    "--column hello notes.txt",
    "--vimgrep hello src",
    "-r X hello notes.txt",
    "--trim hello src/lib.rs",
    "--heading hello",
    "--heading -C1 hello src",
    "-H hello notes.txt",
    "-I hello",
    "--max-depth 1 hello",
    "'^fn' -n",
    "'\\bhel+o\\b' -c",
    "-e hello -e TODO -n src",
    "-U 'Hello.*\\n.*hello' -l",
    "-U '(?s)fn.*TODO' src -l",
    "--json hello notes.txt",
    "--json -C1 foo notes.txt src",
    "--json hello data.bin",
    "nosuchthing",
    "hello nosuch notes.txt",
    "-q hello",
    "-q hello nosuch",
    "-l nomatch",
    "hello sub",
    "'(' src",
];

#[test]
fn rg_behaves_as_the_real_ripgrep() {
    let mut failures = Vec::new();
    for args in CASES {
        let real = tempfile::tempdir().unwrap();
        fixture(real.path());
        let ours = tempfile::tempdir().unwrap();
        fixture(ours.path());
        let expected = ripgrep(real.path(), args);
        let got = goccia(ours.path(), args);
        if expected != got {
            failures.push(format!(
                "--- rg {args}\n--- ripgrep (status {})\n{}{}--- goccia (status {})\n{}{}",
                expected.2, expected.0, expected.1, got.2, got.0, got.1
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} command lines differ from ripgrep:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}
