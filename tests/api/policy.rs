//! The write policy (docs/policy.md) through the library: every writing
//! command and `fs` call fenced, the denial texts, escalation through an
//! approver callback, children that narrow, and two sandboxes with
//! different policies in one process.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use goccia::{Decision, EscalationRequest, PolicyMode, Sandbox, SandboxBuilder, Subject};
use parking_lot::Mutex;

const READ_ONLY: &str = "[sandbox: file access denied under read-only mode]";

/// A tar of `/d`, a gzip file and a bzip2 file, made in a full-mode
/// sandbox to seed the read-only one with.
fn archives() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let maker = Sandbox::builder()
        .file("/d/a.txt", "hello\n")
        .build()
        .unwrap();
    let run = maker
        .run_shell("tar -cf /arc.tar -C /d . && echo zip > /z && gzip -k /z && bzip2 /z")
        .unwrap();
    assert_eq!(run.exit_code, 0, "{}", run.stderr_text());
    (
        maker.read("/arc.tar").unwrap().to_vec(),
        maker.read("/z.gz").unwrap().to_vec(),
        maker.read("/z.bz2").unwrap().to_vec(),
    )
}

/// A zip of `/d/a.txt`, made in a full-mode sandbox.
fn zip_archive() -> Vec<u8> {
    let maker = Sandbox::builder()
        .file("/d/a.txt", "hello\n")
        .build()
        .unwrap();
    let run = maker.run_shell("cd /d && zip -q /arc.zip a.txt").unwrap();
    assert_eq!(run.exit_code, 0, "{}", run.stderr_text());
    maker.read("/arc.zip").unwrap().to_vec()
}

fn seeded(builder: SandboxBuilder) -> Sandbox {
    let (tar, gz, bz) = archives();
    builder
        .file("/d/a.txt", "hello\nhello\nworld\n")
        .file("/d/sub/b.txt", "b\n")
        .file("/d/g.gz", gz)
        .file("/d/g.bz2", bz)
        .file("/arc.tar", tar)
        .file("/arc.zip", zip_archive())
        .file(
            "/p.diff",
            "--- d/a.txt\n+++ d/a.txt\n@@ -1,3 +1,3 @@\n-hello\n+HELLO\n hello\n world\n",
        )
        .file(
            "/w.js",
            "import fs from 'fs'; fs.writeFileSync('/d/js.txt', 'x');",
        )
        .build()
        .unwrap()
}

/// Every command of the shell that can change the VFS, with a command
/// line that would, and the path its denial names.
const WRITERS: &[(&str, &str, &str)] = &[
    ("touch", "touch /d/new", "/d/new"),
    ("history", "history -s cmd; history -w /d/h", "/d/h"),
    ("mkdir", "mkdir -p /d/x/y", "/d/x/y"),
    ("rmdir", "mkdir -p /tmp/e; rmdir /d/sub", "/d/sub"),
    ("rm", "rm -r /d/sub", "/d/sub"),
    ("cp", "cp /d/a.txt /d/c.txt", "/d/c.txt"),
    ("install", "install /d/a.txt /d/i.txt", "/d/i.txt"),
    ("mv", "mv /d/a.txt /tmp/a.txt", "/d/a.txt"),
    ("rename", "rename 's/a/z/' /d/a.txt", "/d/a.txt"),
    ("ln", "ln /d/a.txt /d/l.txt", "/d/l.txt"),
    ("chmod", "chmod -R 700 /d", "/d"),
    ("mktemp", "mktemp /d/t.XXXXXX", "/d/t."),
    ("truncate", "truncate -s 0 /d/a.txt", "/d/a.txt"),
    ("dd", "echo x | dd of=/d/dd.txt status=none", "/d/dd.txt"),
    ("tee", "echo x | tee /d/t.txt", "/d/t.txt"),
    ("split", "cd /d && split -l 1 a.txt part.", "part.aa"),
    ("sed", "sed -i s/h/j/ /d/a.txt", "/d/a.txt"),
    ("awk", "awk '{print > \"/d/aw.txt\"}' /d/a.txt", "/d/aw.txt"),
    ("tar", "tar -xf /arc.tar -C /d", "a.txt"),
    (
        "cpio",
        "cd /d && echo a.txt | cpio -pd --quiet /d/copy",
        "/d/copy",
    ),
    ("gzip", "gzip /d/a.txt", "/d/a.txt.gz"),
    ("gunzip", "gunzip /d/g.gz", "/d/g"),
    ("bzip2", "bzip2 /d/a.txt", "/d/a.txt.bz2"),
    ("bunzip2", "bunzip2 /d/g.bz2", "/d/g"),
    ("patch", "patch -p0 -i /p.diff", "/d/a.txt"),
    ("sort", "sort -o /d/s.txt /d/a.txt", "/d/s.txt"),
    ("csplit", "csplit -f /d/xx /d/a.txt 1", "/d/xx00"),
    (
        "iconv",
        "iconv -f utf-8 -t ascii -o /d/i.txt /d/a.txt",
        "/d/i.txt",
    ),
    ("uniq", "uniq /d/a.txt /d/u.txt", "/d/u.txt"),
    ("find", "find /d -name a.txt -delete", "/d/a.txt"),
    ("xxd", "xxd /d/a.txt /d/a.hex", "/d/a.hex"),
    ("zip", "zip -q /d/a.zip /d/a.txt", "/d/a.zip"),
    ("unzip", "unzip -o -q /arc.zip -d /d", "a.txt"),
    ("sqlite3", "sqlite3 /d/x.db 'create table t(a)'", "/d/x.db"),
];

/// Commands that never change the VFS themselves: they read, print, or
/// change only the shell's own state.
const NON_WRITERS: &[&str] = &[
    ":",
    "true",
    "false",
    "echo",
    "printf",
    "cd",
    "pwd",
    "exit",
    "complete",
    "compopt",
    "return",
    "break",
    "continue",
    "shift",
    "set",
    "shopt",
    "unset",
    "export",
    "readonly",
    "declare",
    "typeset",
    "local",
    "alias",
    "unalias",
    "type",
    "which",
    "hash",
    "help",
    "getopts",
    "read",
    "mapfile",
    "readarray",
    "let",
    "test",
    "[",
    "trap",
    "pushd",
    "popd",
    "dirs",
    "wait",
    "jobs",
    "disown",
    "umask",
    "times",
    "caller",
    "enable",
    "kill",
    "ulimit",
    "cat",
    "ls",
    "stat",
    "tree",
    "df",
    "du",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "chown",
    "chgrp",
    "cksum",
    "sum",
    "file",
    "head",
    "tail",
    "wc",
    "seq",
    "yes",
    "rev",
    "tac",
    "nl",
    "fold",
    "fmt",
    "printenv",
    "sleep",
    "date",
    "cal",
    "cut",
    "tr",
    "paste",
    "comm",
    "join",
    "tsort",
    "locale",
    "look",
    "pr",
    "column",
    "expand",
    "unexpand",
    "od",
    "hexdump",
    "base64",
    "base32",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "cmp",
    "strings",
    "expr",
    "factor",
    "getconf",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "zcat",
    "bzcat",
    "bc",
    "jq",
    "yq",
    "diff",
    "numfmt",
    "shuf",
    "whoami",
    "hostname",
    "tty",
    "uname",
    "id",
    "nproc",
    "envsubst",
    "ps",
    "npm",
    "npx",
];

/// Commands that run other commands or scripts, which are checked
/// themselves (`goccia` is tested below, with a script that writes).
const RUNNERS: &[&str] = &[
    "eval", "source", ".", "command", "builtin", "exec", "bash", "sh", "env", "timeout", "xargs",
    "goccia", "escalate", "gawk", "mawk", "nohup", "time", "compgen", "fc", "node",
];

/// Commands that write what they download: they need a server the
/// policy allows, so their denial under `read-only` is checked end to end
/// against a loopback server (`cli/tests/e2e/net_tools.rs`).
const NETWORK_WRITERS: &[&str] = &["curl", "wget"];

#[test]
fn every_command_is_classified_as_writing_or_not() {
    let writers: Vec<&str> = WRITERS.iter().map(|(name, _, _)| *name).collect();
    for name in goccia_shell::commands::TABLE.names() {
        let name = &name;
        let classes = [
            writers.contains(name),
            NON_WRITERS.contains(name),
            RUNNERS.contains(name),
            NETWORK_WRITERS.contains(name),
        ];
        assert_eq!(
            classes.iter().filter(|c| **c).count(),
            1,
            "`{name}` must be in exactly one of WRITERS (with a case), NON_WRITERS, RUNNERS or NETWORK_WRITERS"
        );
    }
}

#[test]
fn every_writing_command_under_read_only_is_denied_and_changes_nothing() {
    for (name, line, path) in WRITERS {
        let sandbox = seeded(Sandbox::builder().policy(PolicyMode::ReadOnly));
        let run = sandbox.run_shell(line).unwrap();
        let stderr = run.stderr_text();
        assert_eq!(run.exit_code, 1, "{name}: {line}: {stderr}");
        let expected = format!("{name}: {path}");
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with(&expected) && l.ends_with(&format!(": {READ_ONLY}"))),
            "{name}: wanted `{expected}...: {READ_ONLY}` in:\n{stderr}"
        );
        // Modes are not in the diff: `chmod` is checked with `stat`.
        let modes = "stat -c %a /d /d/a.txt";
        assert!(
            sandbox.changes().is_empty(),
            "{name} changed the VFS: {:?}",
            sandbox.changes()
        );
        let modes_before = sandbox.run_shell(modes).unwrap().stdout;
        // The same line runs under `full` (the case really writes).
        let full = seeded(Sandbox::builder());
        assert_eq!(
            full.run_shell(modes).unwrap().stdout,
            modes_before,
            "{name}"
        );
        let run = full.run_shell(line).unwrap();
        let changed_modes = full.run_shell(modes).unwrap().stdout != modes_before;
        assert!(
            !full.changes().is_empty() || changed_modes,
            "{name}: {line} wrote nothing"
        );
        assert!(!run.stderr_text().contains("[sandbox"), "{name}");
    }
}

#[test]
fn every_redirection_under_read_only_is_denied() {
    for line in [
        "echo x > /d/r",
        "echo x >> /d/a.txt",
        "cat <> /d/rw",
        "echo x &> /d/both",
        "exec 3> /d/fd3",
    ] {
        let sandbox = seeded(Sandbox::builder().policy(PolicyMode::ReadOnly));
        let run = sandbox.run_shell(line).unwrap();
        assert_eq!(run.exit_code, 1, "{line}");
        assert!(
            run.stderr_text().contains(&format!(": {READ_ONLY}")),
            "{line}: {}",
            run.stderr_text()
        );
        assert!(sandbox.changes().is_empty(), "{line}");
    }
}

#[test]
fn every_writing_fs_call_under_read_only_throws_and_changes_nothing() {
    let sandbox = seeded(Sandbox::builder().policy(PolicyMode::ReadOnly));
    let calls = [
        ("open", "fs.writeFileSync('/d/n.txt', 'x')"),
        ("open", "fs.appendFileSync('/d/a.txt', 'x')"),
        ("mkdir", "fs.mkdirSync('/d/m', { recursive: true })"),
        ("rm", "fs.rmSync('/d', { recursive: true })"),
        ("rmdir", "fs.rmdirSync('/d/sub', { recursive: true })"),
        ("unlink", "fs.unlinkSync('/d/a.txt')"),
        ("rename", "fs.renameSync('/d/a.txt', '/tmp/a.txt')"),
        ("rename", "fs.renameSync('/tmp', '/d/tmp')"),
        ("copyfile", "fs.copyFileSync('/d/a.txt', '/d/c.txt')"),
        ("cp", "fs.cpSync('/d', '/e', { recursive: true })"),
    ];
    for (syscall, call) in calls {
        let source = format!(
            "import fs from 'fs';\n\
             try {{ {call}; console.log('no error'); }}\n\
             catch (e) {{ console.log(JSON.stringify([e.code, e.errno, e.syscall, e.policy, e.message])); }}"
        );
        let run = sandbox.run_code(&source).unwrap();
        let fields: serde_json::Value = serde_json::from_str(run.stdout_text().trim())
            .unwrap_or_else(|_| panic!("{call}: {} {}", run.stdout_text(), run.stderr_text()));
        assert_eq!(fields[0], "FS_SANDBOX_DENIED", "{call}");
        assert_eq!(fields[1], -13, "{call}");
        assert_eq!(fields[2], syscall, "{call}");
        assert_eq!(fields[3], "read-only", "{call}");
        let message = fields[4].as_str().unwrap();
        assert!(
            message.starts_with(&format!("FS_SANDBOX_DENIED: {READ_ONLY}, {syscall} '")),
            "{call}: {message}"
        );
        assert!(sandbox.changes().is_empty(), "{call}");
    }
}

#[test]
fn workspace_write_allows_the_roots_and_keeps_git_read_only() {
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::WorkspaceWrite)
        .writable("/w")
        .file("/w/src/a.txt", "a\n")
        .file("/w/.git/HEAD", "ref\n")
        .file("/etc/conf", "c\n")
        .build()
        .unwrap();
    let run = sandbox
        .run_shell("echo b > /w/src/b.txt && echo t > /tmp/t && echo ok")
        .unwrap();
    assert_eq!(run.stdout_text(), "ok\n", "{}", run.stderr_text());
    for (line, path) in [
        ("echo x > /w/.git/HEAD", "/w/.git/HEAD"),
        ("echo x > /w/../etc/conf", "/w/../etc/conf"),
        ("rm -r /w", "/w"),
        ("mv /w/src /etc/src", "/etc/src"),
        ("cp -r /w/src /w/.git/hooks", "/w/.git/hooks"),
    ] {
        let before = sandbox.diff(goccia::DiffFormat::Json);
        let run = sandbox.run_shell(line).unwrap();
        assert_eq!(run.exit_code, 1, "{line}");
        assert!(
            run.stderr_text().contains(&format!(
                "{path}: [sandbox: file access denied under workspace-write mode]"
            )),
            "{line}: {}",
            run.stderr_text()
        );
        assert_eq!(
            sandbox.diff(goccia::DiffFormat::Json),
            before,
            "{line} changed something"
        );
    }
    // The denied move kept its source.
    assert!(sandbox.read("/w/src/a.txt").is_ok());
    // `..` is resolved before the check in JS too, from the session's cwd.
    let run = sandbox
        .run_code(
            "import fs from 'fs';\n\
             for (const p of ['/w/../etc/conf', '/w/src/../.git/x', '/tmp/../w/src/ok.txt']) {\n\
               try { fs.writeFileSync(p, 'x'); console.log('wrote', p); } catch (e) { console.log(e.code, p); }\n\
             }",
        )
        .unwrap();
    assert_eq!(
        run.stdout_text(),
        "FS_SANDBOX_DENIED /w/../etc/conf\nFS_SANDBOX_DENIED /w/src/../.git/x\nwrote /tmp/../w/src/ok.txt\n"
    );
}

#[test]
fn a_compound_copy_into_a_partly_denied_tree_changes_nothing() {
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::WorkspaceWrite)
        .writable("/w")
        .file("/src/a.txt", "a")
        .file("/src/.git/config", "c")
        .file("/w/.keep", "")
        .build()
        .unwrap();
    // `/w/src/.git` would be written: nothing of the copy lands.
    for line in ["mkdir -p /w/src && cp -r /src/. /w/src", "cp -r /src /w"] {
        let before = sandbox.changes();
        let run = sandbox.run_shell(line).unwrap();
        assert_eq!(run.exit_code, 1, "{line}: {}", run.stderr_text());
        let changes = sandbox.changes();
        assert!(changes.len() <= before.len() + 1, "{line}: {changes:?}");
        assert!(sandbox.read("/w/src/a.txt").is_err(), "{line}");
    }
    let run = sandbox
        .run_code("import fs from 'fs'; try { fs.cpSync('/src', '/w/js', { recursive: true }); } catch (e) { console.log(e.code); }")
        .unwrap();
    assert_eq!(run.stdout_text(), "FS_SANDBOX_DENIED\n");
    assert!(sandbox.read("/w/js/a.txt").is_err());
}

/// An approver that answers `decision` and remembers what it was asked.
fn recording(decision: Decision) -> (Arc<Mutex<Vec<EscalationRequest>>>, impl goccia::Approver) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let record = asked.clone();
    (asked, move |request: &EscalationRequest| {
        record.lock().push(request.clone());
        decision
    })
}

#[test]
fn an_approved_escalation_covers_that_one_call_only() {
    let (asked, approver) = recording(Decision::AllowedOnce);
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::ReadOnly)
        .approver(approver)
        .build()
        .unwrap();
    let run = sandbox
        .run_code(
            "import fs from 'fs';\n\
             try { fs.writeFileSync('/a.txt', '1', { sandboxPermissions: 'workspace-write', justification: 'scratch' }); }\n\
             catch (e) { console.log(e.policy); }",
        )
        .unwrap();
    // workspace-write does not cover `/a.txt`: granted, and still denied.
    assert_eq!(run.stdout_text(), "workspace-write\n");
    let run = sandbox
        .run_code(
            "import fs from 'fs';\n\
             fs.writeFileSync('/a.txt', '1', { sandboxPermissions: 'full', justification: 'the report' });\n\
             try { fs.writeFileSync('/a.txt', '2'); } catch (e) { console.log(e.code, e.message.includes('escalation available')); }",
        )
        .unwrap();
    assert_eq!(
        run.stdout_text(),
        "FS_SANDBOX_DENIED true\n",
        "{}",
        run.stderr_text()
    );
    assert_eq!(sandbox.read("/a.txt").unwrap().as_ref(), b"1");
    let asked = asked.lock();
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[1].requested_mode, PolicyMode::Full);
    assert_eq!(asked[1].current_mode, PolicyMode::ReadOnly);
    assert_eq!(asked[1].justification, "the report");
    assert_eq!(asked[1].subject, Subject::Operation);
    assert_eq!(asked[1].detail, "writeFile /a.txt");
}

#[test]
fn each_outcome_has_its_code_and_text_in_js_and_the_shell() {
    for (decision, code, text) in [
        (
            Decision::Rejected,
            "ERR_ESCALATION_REJECTED",
            "the user rejected escalating this command to \"full\"",
        ),
        (
            Decision::Cancelled,
            "ERR_ESCALATION_CANCELLED",
            "the user cancelled escalating this command to \"full\"",
        ),
        (
            Decision::Unavailable,
            "ERR_ESCALATION_UNAVAILABLE",
            "no approver is available to escalate this command to \"full\"",
        ),
    ] {
        let (_, approver) = recording(decision);
        let sandbox = Sandbox::builder()
            .policy(PolicyMode::ReadOnly)
            .approver(approver)
            .build()
            .unwrap();
        let run = sandbox
            .run_code(
                "import { $ } from 'goccia';\n\
                 try { await $`touch /x`.escalate('full', 'why'); } catch (e) { console.log(e.code + ': ' + e.message); }",
            )
            .unwrap();
        assert_eq!(run.stdout_text(), format!("{code}: {text}\n"));
        let run = sandbox
            .run_shell("escalate --mode full --justification why -- touch /x")
            .unwrap();
        assert_eq!(run.exit_code, 1);
        assert_eq!(run.stderr_text(), format!("escalate: {text}\n"));
        assert!(sandbox.changes().is_empty());
    }
}

#[test]
fn requests_are_checked_before_the_approver_is_asked() {
    let (asked, approver) = recording(Decision::AllowedOnce);
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::WorkspaceWrite)
        .approver(approver)
        .build()
        .unwrap();
    let run = sandbox
        .run_code(
            "import fs from 'fs';\n\
             const tries = [\n\
               { sandboxPermissions: 'full' },\n\
               { justification: 'why' },\n\
               { sandboxPermissions: 'full', justification: '   ' },\n\
               { sandboxPermissions: 'workspace-write', justification: 'why' },\n\
               { sandboxPermissions: 'read-only', justification: 'why' },\n\
               { sandboxPermissions: 'danger', justification: 'why' },\n\
             ];\n\
             for (const options of tries) {\n\
               try { fs.writeFileSync('/x', '1', options); console.log('wrote'); }\n\
               catch (e) { console.log(e.code); }\n\
             }\n\
             try { fs.writeFileSync('/x', '1', { sandboxPermissions: 'workspace-write', justification: 'j' }); }\n\
             catch (e) { console.log(e.message); }",
        )
        .unwrap();
    assert_eq!(
        run.stdout_text(),
        "ERR_INVALID_ARG_VALUE\nERR_INVALID_ARG_VALUE\nERR_INVALID_ARG_VALUE\n\
         ERR_ESCALATION_NOT_WIDER\nERR_ESCALATION_NOT_WIDER\nERR_INVALID_ARG_VALUE\n\
         sandbox escalation to \"workspace-write\" is not strictly wider than this call's current \"workspace-write\" mode\n",
        "{}",
        run.stderr_text()
    );
    assert!(asked.lock().is_empty(), "asked: {:?}", asked.lock());
}

#[test]
fn children_inherit_narrow_and_reach_the_same_approver() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::WorkspaceWrite)
        .writable("/w")
        .approver(move |_: &EscalationRequest| {
            counter.fetch_add(1, Ordering::SeqCst);
            Decision::AllowedOnce
        })
        .file("/w/.keep", "")
        .file(
            "/child.js",
            "import fs from 'fs';\n\
             for (const p of ['/w/c.txt', '/outside.txt']) {\n\
               try { fs.writeFileSync(p, 'x'); console.log('wrote', p); } catch (e) { console.log(e.policy, p); }\n\
             }\n\
             fs.writeFileSync('/escalated.txt', 'x', { sandboxPermissions: 'full', justification: 'child needs it' });\n\
             console.log('escalated');",
        )
        .build()
        .unwrap();
    let run = sandbox
        .run_code(
            "import { runScript } from 'goccia';\n\
             for (const options of [{}, { policy: 'read-only' }, { sandbox: true, seed: ['/child.js', '/w'] }]) {\n\
               const r = runScript('/child.js', options);\n\
               console.log(JSON.stringify(r.stdout), r.error);\n\
             }\n\
             try { runScript('/child.js', { policy: 'full' }); } catch (e) { console.log(e.code, e.message); }",
        )
        .unwrap();
    let out = run.stdout_text();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "\"wrote /w/c.txt\\nworkspace-write /outside.txt\\nescalated\\n\" null",
        "{out}"
    );
    assert_eq!(
        lines[1], "\"read-only /w/c.txt\\nread-only /outside.txt\\nescalated\\n\" null",
        "{out}"
    );
    assert_eq!(
        lines[2], lines[0],
        "a child sandbox keeps the policy: {out}"
    );
    assert_eq!(
        lines[3],
        "ERR_ESCALATION_NOT_WIDER runScript: a child run may only narrow the write policy: \"full\" is wider than this call's current \"workspace-write\" mode"
    );
    assert_eq!(
        calls.load(Ordering::SeqCst),
        3,
        "each child's request reached the approver"
    );
    let run = sandbox
        .run_shell("goccia --policy full /child.js; echo status $?")
        .unwrap();
    assert!(
        run.stdout_text().ends_with("status 1\n"),
        "{}",
        run.stdout_text()
    );
}

#[test]
fn two_sandboxes_in_one_process_keep_their_own_policies() {
    let read_only = Sandbox::builder()
        .policy(PolicyMode::ReadOnly)
        .build()
        .unwrap();
    let workspace = Sandbox::builder()
        .policy(PolicyMode::WorkspaceWrite)
        .writable("/a")
        .build()
        .unwrap();
    let full = Sandbox::builder().build().unwrap();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                assert_eq!(read_only.run_shell("mkdir -p /a/b").unwrap().exit_code, 1);
                assert_eq!(workspace.run_shell("mkdir -p /a/b").unwrap().exit_code, 0);
                assert_eq!(workspace.run_shell("mkdir -p /c").unwrap().exit_code, 1);
                assert_eq!(full.run_shell("mkdir -p /c").unwrap().exit_code, 0);
            });
        }
    });
    assert!(read_only.changes().is_empty());
    assert!(workspace.read("/c").is_err());
}

#[test]
fn an_escalated_command_does_not_widen_its_pipeline_neighbours() {
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::ReadOnly)
        .approver(|_: &EscalationRequest| Decision::AllowedOnce)
        .build()
        .unwrap();
    let run = sandbox
        .run_shell("escalate --mode full --justification j -- mkdir /granted | touch /neighbour; echo ${PIPESTATUS[@]}")
        .unwrap();
    assert_eq!(run.stdout_text(), "0 1\n", "{}", run.stderr_text());
    assert!(sandbox.read("/neighbour").is_err());
    assert!(sandbox.list("/granted").is_ok());
    // The grant is not kept: the same command again is denied.
    let run = sandbox.run_shell("mkdir /granted2").unwrap();
    assert_eq!(run.exit_code, 1);
    // Inside the escalated command, its own pipeline is covered.
    let run = sandbox
        .run_shell("escalate --mode full --justification j -- sh -c 'echo a | tee /p1 > /p2'")
        .unwrap();
    assert_eq!(run.exit_code, 0, "{}", run.stderr_text());
    assert_eq!(sandbox.read("/p2").unwrap().as_ref(), b"a\n");
}

#[test]
fn the_host_writes_past_the_fence_and_the_envelope_shows_the_policy() {
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::ReadOnly)
        .writable("/out")
        .build()
        .unwrap();
    sandbox.write("/host.txt", "h").unwrap();
    let run = sandbox.run_shell("cat /host.txt").unwrap();
    let envelope = serde_json::to_value(goccia::Envelope::new(&sandbox, &run)).unwrap();
    assert_eq!(envelope["policy"]["mode"], "read-only");
    assert_eq!(
        envelope["policy"]["writableRoots"],
        serde_json::json!(["/out", "/tmp"])
    );
    assert!(Sandbox::builder().writable("relative").build().is_err());
}

#[test]
fn denials_and_escalations_are_audited() {
    let audit = goccia::Audit::new(None);
    let sandbox = Sandbox::builder()
        .policy(PolicyMode::ReadOnly)
        .approver(|_: &EscalationRequest| Decision::Rejected)
        .audit(audit.clone())
        .build()
        .unwrap();
    sandbox
        .run_shell("touch /x; escalate --mode full --justification because -- touch /x")
        .unwrap();
    sandbox
        .run_code("import fs from 'fs'; try { fs.mkdirSync('/m'); } catch {}")
        .unwrap();
    let events: Vec<(String, String, String, String)> = audit
        .events()
        .into_iter()
        .map(|e| {
            (
                e.kind.to_string(),
                e.decision.to_string(),
                e.subject,
                e.reason.unwrap_or_default(),
            )
        })
        .collect();
    let expected = [
        ("policy", "deny", "/x", "touch under read-only mode"),
        (
            "escalation",
            "request",
            "touch /x",
            "full (command): because",
        ),
        (
            "escalation",
            "decision",
            "touch /x",
            "ERR_ESCALATION_REJECTED",
        ),
        ("policy", "deny", "/m", "mkdir under read-only mode"),
    ];
    for (kind, decision, subject, reason) in expected {
        assert!(
            events
                .iter()
                .any(|e| (e.0.as_str(), e.1.as_str(), e.2.as_str(), e.3.as_str())
                    == (kind, decision, subject, reason)),
            "missing {kind} {decision} {subject} {reason} in {events:?}"
        );
    }
}

#[test]
fn dollar_the_goccia_builtin_and_node_are_fenced_too() {
    let sandbox = seeded(Sandbox::builder().policy(PolicyMode::ReadOnly));
    let run = sandbox.run_shell("goccia /w.js").unwrap();
    assert_ne!(run.exit_code, 0);
    assert!(
        run.stderr_text().contains("FS_SANDBOX_DENIED"),
        "{}",
        run.stderr_text()
    );
    let run = sandbox
        .run_code("import { $ } from 'goccia'; const r = await $`mkdir /d/m`.nothrow().quiet(); console.log(r.exitCode, r.stderr);")
        .unwrap();
    assert_eq!(run.stdout_text(), format!("1 mkdir: /d/m: {READ_ONLY}\n\n"));
    // `node` runs through the same launcher: a file, and code given inline.
    for line in [
        "node /w.js",
        "node -e \"require('fs').writeFileSync('/d/e.txt', 'x')\"",
    ] {
        let run = sandbox.run_shell(line).unwrap();
        assert_ne!(run.exit_code, 0, "{line}");
        assert!(
            run.stderr_text().contains("FS_SANDBOX_DENIED"),
            "{line}: {}",
            run.stderr_text()
        );
    }
    assert!(sandbox.changes().is_empty());
}
