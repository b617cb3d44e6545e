//! zip archives cross the sandbox boundary both ways: what goccia's
//! `zip` writes, the real Info-ZIP `unzip` tests and extracts (links
//! included); what the real `zip` writes, goccia's `unzip` reads. And an
//! archive whose content would outgrow the shell's buffer is refused, not
//! inflated.

use std::process::Command;

use crate::common::*;

fn real(program: &str, args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|error| panic!("{program} is the oracle and must be installed: {error}"))
}

fn project() -> Project {
    let project = Project::new();
    project.write("d/a.txt", "hello\n");
    let numbers: String = (1..=1000).map(|n| format!("{n}\n")).collect();
    project.write("d/sub/n.txt", numbers);
    project.write("d/empty", "");
    std::os::unix::fs::symlink("a.txt", project.join("d/link")).unwrap();
    project
}

#[test]
fn real_unzip_reads_what_goccias_zip_writes() {
    let project = project();
    project
        .goccia(&[
            "shell",
            "--copy-rw",
            ".=/w",
            "--symlinks",
            "keep",
            "-c",
            "cd /w && zip -q -r -y g.zip d",
        ])
        .assert_ok();
    let tested = real("unzip", &["-t", "g.zip"], project.path());
    let report = String::from_utf8_lossy(&tested.stdout);
    assert!(tested.status.success(), "{report}");
    assert!(report.contains("No errors detected in compressed data of g.zip."));
    let out = project.join("out");
    std::fs::create_dir(&out).unwrap();
    assert!(real("unzip", &["-q", "../g.zip"], &out).status.success());
    assert_eq!(project.read("out/d/sub/n.txt"), project.read("d/sub/n.txt"));
    assert_eq!(project.read("out/d/a.txt"), "hello\n");
    assert_eq!(
        std::fs::read_link(out.join("d/link")).unwrap(),
        std::path::Path::new("a.txt")
    );
    // The member is deflated, as Info-ZIP would store it.
    let listing = real("unzip", &["-v", "g.zip", "d/sub/n.txt"], project.path());
    assert!(String::from_utf8_lossy(&listing.stdout).contains("Defl:N"));
}

#[test]
fn goccias_unzip_reads_what_real_zip_writes() {
    let project = project();
    assert!(
        real("zip", &["-q", "-r", "-y", "r.zip", "d"], project.path())
            .status
            .success()
    );
    let run = project.goccia(&[
        "shell",
        "--seed",
        ".=/w",
        "--symlinks",
        "keep",
        "-c",
        "cd /w && mkdir x && cd x && unzip -q ../r.zip && readlink d/link && md5sum d/sub/n.txt && unzip -Z1 ../r.zip | sort",
    ]);
    run.assert_ok();
    let numbers: String = (1..=1000).map(|n| format!("{n}\n")).collect();
    let digest = md5_of(numbers.as_bytes());
    assert_eq!(
        run.stdout,
        format!(
            "a.txt\n{digest}  d/sub/n.txt\nd/\nd/a.txt\nd/empty\nd/link\nd/sub/\nd/sub/n.txt\n"
        )
    );
}

fn md5_of(data: &[u8]) -> String {
    let output = Command::new("md5sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(data)?;
            child.wait_with_output()
        })
        .unwrap();
    String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn an_archive_that_would_inflate_past_the_buffer_is_refused_whole() {
    let project = Project::new();
    // 300 MiB of zeros (past the 256 MiB default) deflates to about 300 KB.
    let made = real(
        "bash",
        &["-c", "head -c 300M /dev/zero | zip -q bomb.zip -"],
        project.path(),
    );
    assert!(made.status.success());
    let run = project.goccia(&[
        "shell",
        "--seed",
        "bomb.zip=/bomb.zip",
        "-c",
        "unzip /bomb.zip; echo \"st $?\"; ls /-",
    ]);
    assert!(run.stdout.starts_with("st 5\n"), "{}", run.stdout);
    run.stderr_has("more than the 268435456 bytes the shell buffers")
        .stderr_has("No such file");
}
