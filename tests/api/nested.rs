//! Mirrors `e2e/nested.rs`: children from the host side, and guests'
//! own nesting through the API.

use goccia::{ChildSeed, DiffFormat, Limits, Sandbox};

#[test]
fn a_child_sees_only_its_seeds_and_its_writes_stay_until_applied() {
    let parent = Sandbox::builder()
        .file("/src/a.txt", "a")
        .file("/private/key", "k")
        .build()
        .unwrap();
    let child = parent
        .child(&[
            ChildSeed::path("/src"),
            ChildSeed::path_to("/src/a.txt", "/copy/a.txt"),
            ChildSeed::file("/task", "t"),
        ])
        .unwrap();
    let run = child
        .run_shell("ls /copy /src; cat /copy/a.txt /task; ls /private")
        .unwrap();
    assert_eq!(run.stdout_text(), "/copy:\na.txt\n\n/src:\na.txt\nat");
    assert_eq!(run.exit_code, 2, "/private is not in the child");
    child.write("/src/b.txt", "b").unwrap();
    assert!(parent.read("/src/b.txt").is_err());
    assert_eq!(
        child.changes().len(),
        1,
        "the seeds are the child's baseline"
    );
    parent.apply(&child.changes()).unwrap();
    assert_eq!(&parent.read("/src/b.txt").unwrap()[..], b"b");
}

#[test]
fn a_child_inherits_the_limits_and_the_parents_remaining_quota() {
    let parent = Sandbox::builder()
        .limits(Limits::default().fs_quota_bytes(100).max_output(3))
        .file("/ten", "0123456789")
        .build()
        .unwrap();
    let child = parent.child(&[ChildSeed::path("/ten")]).unwrap();
    assert_eq!(child.limits().max_output, 3);
    assert!(child.write("/more", vec![b'x'; 90]).is_ok());
    let error = child.write("/too-much", vec![b'x'; 10]).unwrap_err();
    assert!(error.to_string().contains("No space left"), "{error}");
}

#[test]
fn bad_child_seeds_name_the_entry() {
    let parent = Sandbox::builder().file("/a", "").build().unwrap();
    let error = parent
        .child(&[ChildSeed::path("/a"), ChildSeed::path("/none")])
        .unwrap_err();
    assert_eq!(error.index, 1);
    assert!(error.to_string().starts_with("seed entry 1: "), "{error}");
}

#[test]
fn guests_nest_through_run_script_with_diffs() {
    let parent = Sandbox::builder()
        .file("/in.txt", "in")
        .file(
            "/child.js",
            "import fs from 'fs'; fs.writeFileSync('/out.txt', 'out')",
        )
        .file(
            "/main.js",
            r#"import { runScript } from "goccia";
            const result = await runScript("/child.js", {
              sandbox: true, seed: ["/child.js", "/in.txt"], diff: true, diffFormat: "unified",
            });
            console.log(result.ok, result.diff.includes("+out"));"#,
        )
        .build()
        .unwrap();
    let run = parent.run_script("/main.js").unwrap();
    assert_eq!(run.stdout_text(), "true true\n", "{}", run.stderr_text());
    assert!(parent.read("/out.txt").is_err());
    assert_eq!(parent.diff(DiffFormat::Json).matches("\"path\"").count(), 0);
}

#[test]
fn recursion_through_run_script_stops_at_the_depth_limit() {
    let sandbox = Sandbox::builder()
        .limits(Limits::default().max_depth(3))
        .file(
            "/main.js",
            r#"import fs from "fs";
            import { runScript } from "goccia";
            try { await runScript("/main.js") } catch (e) { fs.writeFileSync("/error", e.code) }"#,
        )
        .build()
        .unwrap();
    let run = sandbox.run_script("/main.js").unwrap();
    assert!(run.success());
    assert_eq!(&sandbox.read("/error").unwrap()[..], b"ERR_DEPTH");
}

#[test]
fn a_child_takes_narrower_limits_and_policy_and_its_own_variables() {
    use goccia::{ChildError, ChildOptions, Error, PolicyMode};
    use std::time::Duration;
    let parent = Sandbox::builder()
        .policy(PolicyMode::WorkspaceWrite)
        .writable("/w")
        .env("FROM_SPEC", "spec")
        .file("/w/a.txt", "a\n")
        .build()
        .unwrap();
    parent.run_shell("export FROM_SESSION=session").unwrap();
    let options = ChildOptions::new()
        .limits(
            Limits::default()
                .timeout(Duration::from_millis(300))
                .fs_quota_bytes(1000),
        )
        .policy(PolicyMode::ReadOnly)
        .env("FROM_SPEC", "child");
    let child = parent
        .child_with(&[ChildSeed::path("/w")], &options)
        .unwrap();
    // Its own deadline and quota.
    let spun = child.run_shell("while :; do :; done").unwrap();
    assert!(spun.failure.unwrap().message.contains("deadline of 300 ms"));
    assert_eq!(child.spec().limits.fs_quota_bytes, 1000);
    // Its own policy, narrower than the parent's.
    let denied = child.run_shell("echo b > /w/a.txt").unwrap();
    assert!(denied.stderr_text().contains("read-only"), "{denied:?}");
    assert_eq!(child.policy().mode(), PolicyMode::ReadOnly);
    // The parent's environment as its session has it, then its own.
    let env = child.run_shell("echo $FROM_SPEC $FROM_SESSION").unwrap();
    assert_eq!(env.stdout_text(), "child session\n");
    // Wider than the parent, or out of range: refused, nothing seeded.
    for (options, words) in [
        (
            ChildOptions::new().policy(PolicyMode::Full),
            "policy asks for full",
        ),
        (
            ChildOptions::new().limits(Limits::default().max_output(1 << 40)),
            "limits.maxOutput asks for",
        ),
    ] {
        let error = parent.child_with(&[], &options).unwrap_err();
        assert!(matches!(error, ChildError::Wider(_)), "{error}");
        assert!(error.to_string().contains(words), "{error}");
        assert_eq!(Error::from(error).code(), "ERR_GOCCIA_SPEC");
    }
    let zero = ChildOptions::new().limits(Limits::default().max_memory(1));
    assert!(matches!(
        parent.child_with(&[], &zero),
        Err(ChildError::Limits(_))
    ));
    // A narrower quota holds.
    let quota = ChildOptions::new().limits(Limits::default().fs_quota_bytes(10));
    let small = parent.child_with(&[], &quota).unwrap();
    let over = small.run_shell("head -c 100 /dev/zero > /big").unwrap();
    assert_ne!(over.exit_code, 0);
}

#[test]
fn a_child_starts_in_the_folder_it_is_given() {
    use goccia::{ChildError, ChildOptions};
    let parent = Sandbox::builder()
        .file("/repo/src/a.txt", "a\n")
        .build()
        .unwrap();
    let options = ChildOptions::new().cwd("/repo/src");
    let child = parent
        .child_with(&[ChildSeed::path("/repo")], &options)
        .unwrap();
    let run = child.run_shell("pwd; cat a.txt").unwrap();
    assert_eq!(run.stdout_text(), "/repo/src\na\n");
    // JS resolves relative paths from the same folder.
    let js = child
        .run_code("import fs from 'fs'; export default fs.readFileSync('a.txt', 'utf8');")
        .unwrap();
    assert_eq!(js.result, Some(serde_json::json!("a\n")));
    for (cwd, words) in [
        ("/elsewhere", "not a folder the child was seeded with"),
        ("/repo/src/a.txt", "not a folder the child was seeded with"),
        ("repo", "not an absolute path"),
    ] {
        let error = parent
            .child_with(&[ChildSeed::path("/repo")], &ChildOptions::new().cwd(cwd))
            .unwrap_err();
        assert!(matches!(error, ChildError::Cwd { .. }), "{error}");
        assert_eq!(error.to_string(), format!("cwd `{cwd}`: {words}"));
    }
}
