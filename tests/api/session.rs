//! One session per sandbox (docs/calls.md): `run_shell`, the `$` of every
//! script and the shell's `goccia` builtin share one shell's cwd,
//! variables and functions; the `fs` module resolves relative paths from
//! that cwd.

use goccia::Sandbox;

#[test]
fn scripts_see_what_run_shell_did_and_the_other_way_round() {
    let sandbox = Sandbox::builder()
        .file("/w/a.txt", "A\n")
        .file("/w/b.js", "console.log('b ran');")
        .build()
        .unwrap();
    let run = sandbox
        .run_shell("cd /w; export GREETING=hi; shout() { echo \"$1!\"; }")
        .unwrap();
    assert!(run.success(), "{}", run.stderr_text());
    let run = sandbox
        .run_code(
            "import fs from 'fs'; import { $ } from 'goccia';
             console.log(await $`pwd; echo $GREETING; shout hey; cat a.txt`.text());
             console.log(fs.existsSync('a.txt'), fs.readFileSync('a.txt', 'utf8'));
             fs.writeFileSync('made.txt', 'm');
             await $`cd /tmp; export LATER=yes`;",
        )
        .unwrap();
    assert!(run.success(), "{}", run.stderr_text());
    assert_eq!(run.stdout_text(), "/w\nhi\nhey!\nA\n\ntrue A\n\n");
    assert_eq!(&sandbox.read("/w/made.txt").unwrap()[..], b"m");
    // What the script's `$` changed, the session sees.
    let run = sandbox.run_shell("pwd; echo $LATER").unwrap();
    assert_eq!(run.stdout_text(), "/tmp\nyes\n");
    // The shell builtin resolves a relative entry from the cwd.
    let run = sandbox.run_shell("cd /w && goccia b.js").unwrap();
    assert_eq!(run.stdout_text(), "b ran\n", "{}", run.stderr_text());
}
