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

/// Each call hands the session's state over into the copy it handed over
/// the call before (`clone_from`, keeping that copy's buffers): what a
/// later call took away or shortened is gone from what a script sees, not
/// left over from the earlier copy.
#[test]
fn a_script_sees_the_session_as_its_last_call_left_it_not_a_mix_of_calls() {
    let sandbox = Sandbox::builder()
        .file("/w/long/folder/name/a", "")
        .build()
        .unwrap();
    let first = "cd /w/long/folder/name; pushd /w >/dev/null; pushd /w/long >/dev/null; \
                 set -- one two three; x=1; arr=(a b c d); f() { echo first; }; alias ll='ls -l'; \
                 trap 'echo bye' USR1; false";
    assert_eq!(sandbox.run_shell(first).unwrap().exit_code, 1);
    let second = "popd >/dev/null; cd /w; set -- 9; unset x; arr=(z); f() { echo second; }; \
                  unalias ll; trap - USR1; y=2";
    let run = sandbox.run_shell(second).unwrap();
    assert!(run.success(), "{}", run.stderr_text());
    let run = sandbox
        .run_code(
            "import { $ } from 'goccia';
             console.log(await $`echo $?; pwd; dirs; echo \"$# $*\"; echo \"[\\${x-unset}] $y \\${arr[*]}\"; f; alias; trap -p`.text());",
        )
        .unwrap();
    assert!(run.success(), "{} {:?}", run.stderr_text(), run.failure);
    assert_eq!(
        run.stdout_text(),
        "0\n/w\n/w /w/long/folder/name\n1 9\n[unset] 2 z\nsecond\n\n"
    );
}

/// The thread a shell call ran on, as its approver sees it (the library
/// asks the approver from the thread the guest runs on).
fn thread_of_a_shell_call(sandbox: &Sandbox) -> String {
    let run = sandbox
        .run_shell("escalate --mode full --justification 'which thread' -- touch /x")
        .unwrap();
    assert!(run.success(), "{}", run.stderr_text());
    LAST_THREAD.lock().unwrap().clone()
}

static LAST_THREAD: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

fn sandbox_that_names_its_threads() -> std::sync::Arc<Sandbox> {
    use goccia::{Decision, EscalationRequest, PolicyMode};
    std::sync::Arc::new(
        Sandbox::builder()
            .policy(PolicyMode::WorkspaceWrite)
            .file("/w/.keep", "")
            .approver(|_: &EscalationRequest| {
                let name = std::thread::current().name().unwrap_or("").to_string();
                *LAST_THREAD.lock().unwrap() = name;
                Decision::AllowedOnce
            })
            .build()
            .unwrap(),
    )
}

/// docs/calls.md, "Where a call runs": on a deep-stack thread an idle
/// session's call runs in place; elsewhere it crosses to the session's
/// own thread. The session's state is one either way.
#[test]
fn a_deep_stack_thread_runs_an_idle_sessions_call_in_place() {
    let _serial = ONE_AT_A_TIME.lock().unwrap();
    let sandbox = sandbox_that_names_its_threads();
    assert_eq!(thread_of_a_shell_call(&sandbox), "goccia-shell");
    sandbox.run_shell("cd /w && v=kept").unwrap();
    let deep = sandbox.clone();
    let (thread, pwd) = goccia::deep_stack::spawn("caller", move || {
        let thread = thread_of_a_shell_call(&deep);
        let pwd = deep
            .run_shell("pwd; echo $v; cd /")
            .unwrap()
            .stdout_text()
            .to_string();
        (thread, pwd)
    })
    .unwrap()
    .join()
    .unwrap();
    assert_eq!(thread, "caller");
    assert_eq!(pwd, "/w\nkept\n");
    assert_eq!(sandbox.run_shell("pwd").unwrap().stdout_text(), "/\n");
    // A thread without the stack never runs it in place.
    let shallow = sandbox.clone();
    let thread = std::thread::Builder::new()
        .name("shallow".into())
        .spawn(move || {
            assert!(!goccia::deep_stack::adopt_current());
            thread_of_a_shell_call(&shallow)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(thread, "goccia-shell");
}

/// docs/calls.md, "Where a call runs": `deep_stack::lend` makes an
/// ordinary thread, one with a small stack, run an idle session's call in
/// place, on a deep stack lent to it; what recurses deeply (a shell
/// function 900 calls deep) has that stack's depth, and `jq`, which
/// measures its stack, still halts a runaway recursion with its own error.
#[test]
fn a_lent_stack_runs_the_call_in_place_on_a_small_thread() {
    let _serial = ONE_AT_A_TIME.lock().unwrap();
    let sandbox = sandbox_that_names_its_threads();
    sandbox.run_shell("cd /w && v=kept").unwrap();
    let caller = sandbox.clone();
    let (thread, pwd, deep, jq_sum, jq_runaway) = std::thread::Builder::new()
        .name("small".into())
        .stack_size(256 << 10)
        .spawn(move || {
            goccia::deep_stack::lend(|| {
                let thread = thread_of_a_shell_call(&caller);
                let pwd = caller.run_shell("pwd; echo $v").unwrap();
                let deep = caller
                    .run_shell("f() { if (( $1 > 0 )); then f $(( $1 - 1 )); else echo bottom; fi; }; f 900")
                    .unwrap();
                let jq_sum = caller.run_shell("echo '[1,2,3]' | jq add").unwrap();
                let jq_runaway = caller.run_shell("jq -n 'def f: 1 + f; f'").unwrap();
                (thread, pwd, deep, jq_sum, jq_runaway)
            })
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(thread, "small");
    assert_eq!(pwd.stdout_text(), "/w\nkept\n");
    assert_eq!(deep.stdout_text(), "bottom\n", "{}", deep.stderr_text());
    assert_eq!(jq_sum.stdout_text(), "6\n", "{}", jq_sum.stderr_text());
    assert_eq!(jq_runaway.exit_code, 5, "{}", jq_runaway.stderr_text());
    assert!(
        jq_runaway.stderr_text().contains("stack"),
        "{}",
        jq_runaway.stderr_text()
    );
    // Back on the caller's own stack, calls are handed over again.
    let after = sandbox.clone();
    let thread = std::thread::spawn(move || thread_of_a_shell_call(&after))
        .join()
        .unwrap();
    assert_eq!(thread, "goccia-shell");
}

/// A call handed to the session's thread earlier runs first: a deep
/// caller that finds the session busy hands its call over behind it.
#[test]
fn a_call_in_place_never_overtakes_one_handed_over_before_it() {
    let _serial = ONE_AT_A_TIME.lock().unwrap();
    let sandbox = sandbox_that_names_its_threads();
    let (answer, answered) = std::sync::mpsc::channel();
    sandbox.run_shell_then(
        "sleep 0.3; echo first >> /tmp/order",
        &goccia::CallOptions::new(),
        move |run| answer.send(run.map(|run| run.exit_code)).unwrap(),
    );
    let deep = sandbox.clone();
    let order = goccia::deep_stack::spawn("caller", move || {
        deep.run_shell("echo second >> /tmp/order; cat /tmp/order")
            .unwrap()
            .stdout_text()
            .to_string()
    })
    .unwrap()
    .join()
    .unwrap();
    assert_eq!(answered.recv().unwrap().unwrap(), 0);
    assert_eq!(order, "first\nsecond\n");
}

/// The approvers above record into one slot.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
