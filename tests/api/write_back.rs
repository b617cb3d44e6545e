//! Mirrors `e2e/write_back.rs`: the host's word, after success only.

use goccia::{Sandbox, WriteBackError};

fn host() -> tempfile::TempDir {
    let host = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(host.path().join("src")).unwrap();
    std::fs::write(host.path().join("src/a.txt"), "a").unwrap();
    std::fs::write(host.path().join("src/gone.txt"), "stays").unwrap();
    host
}

#[test]
fn changes_under_copy_rw_are_written_and_deletions_skipped() {
    let host = host();
    let sandbox = Sandbox::builder()
        .copy_rw(host.path().join("src"), Some("/src"))
        .file("/elsewhere.txt", "x")
        .build()
        .unwrap();
    let run = sandbox
        .run_shell("echo A > /src/a.txt; echo new > /src/new.txt; rm /src/gone.txt; echo y > /elsewhere.txt")
        .unwrap();
    assert!(run.success());
    let report = sandbox.write_back().unwrap();
    let written: Vec<_> = report
        .written
        .iter()
        .map(|w| w.sandbox_path.to_string())
        .collect();
    assert_eq!(written, ["/src/a.txt", "/src/new.txt"]);
    let skipped: Vec<_> = report
        .skipped
        .iter()
        .map(|s| s.sandbox_path.to_string())
        .collect();
    assert_eq!(skipped, ["/elsewhere.txt", "/src/gone.txt"]);
    let read = |name: &str| std::fs::read_to_string(host.path().join(name)).unwrap();
    assert_eq!(
        (read("src/a.txt"), read("src/new.txt")),
        ("A\n".into(), "new\n".into())
    );
    assert_eq!(read("src/gone.txt"), "stays");
}

#[test]
fn without_copy_rw_nothing_is_written() {
    let host = host();
    let sandbox = Sandbox::builder().seed(host.path(), None).build().unwrap();
    sandbox.write("/src/a.txt", "changed").unwrap();
    assert!(!sandbox.has_copy_rw());
    let report = sandbox.write_back().unwrap();
    assert!(report.written.is_empty());
    assert_eq!(
        std::fs::read_to_string(host.path().join("src/a.txt")).unwrap(),
        "a"
    );
}

#[test]
fn a_symlink_planted_at_a_target_refuses_the_write_back() {
    let host = host();
    let sandbox = Sandbox::builder()
        .copy_rw(host.path(), Some("/h"))
        .build()
        .unwrap();
    sandbox.write("/h/src/a.txt", "through the link?").unwrap();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "safe").unwrap();
    std::fs::remove_file(host.path().join("src/a.txt")).unwrap();
    std::os::unix::fs::symlink(&victim, host.path().join("src/a.txt")).unwrap();
    let error = sandbox.write_back().unwrap_err();
    assert!(matches!(error, WriteBackError::Symlink { .. }), "{error}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "safe");
}

#[test]
fn write_back_decisions_are_audited() {
    let host = host();
    let audit = goccia::Audit::new(None);
    let sandbox = Sandbox::builder()
        .audit(audit.clone())
        .copy_rw(host.path().join("src"), Some("/src"))
        .build()
        .unwrap();
    sandbox.write("/src/a.txt", "A").unwrap();
    sandbox.write_back().unwrap();
    let events: Vec<_> = audit
        .events()
        .into_iter()
        .map(|e| (e.kind, e.decision))
        .collect();
    assert_eq!(events, [("write-back", "write")]);
}
