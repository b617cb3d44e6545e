//! `jq` as a sandboxed command: interruptible, fed only from the VFS and
//! stdin, blind to the host environment and the host's files.

#[path = "support/run.rs"]
mod run;

use std::time::Duration;

use goccia_shell::Stop;
use run::{fresh_vfs, run, run_on};

fn stopped_by_deadline(script: &str) {
    let ran = run_on(fresh_vfs(), script, Duration::from_millis(300));
    assert_eq!(
        ran.status,
        Err(Stop::DEADLINE),
        "{script}: stdout {:?} stderr {:?}",
        ran.stdout,
        ran.stderr
    );
}

#[test]
fn endless_recursion_is_stopped_by_the_deadline() {
    stopped_by_deadline("jq -n 'def f: f; f'; echo after");
}

#[test]
fn a_huge_range_is_stopped_by_the_deadline() {
    stopped_by_deadline("jq -n '[range(1e15)] | length'");
}

#[test]
fn the_interruption_cannot_be_caught_by_the_filter() {
    stopped_by_deadline("jq -n 'try (def f: f; f) catch 0'");
    stopped_by_deadline("jq -n '(def f: f; f) // 1'");
    stopped_by_deadline("jq -n '[limit(1e15; repeat(1))] | length'");
    stopped_by_deadline("jq -n 'reduce range(1e15) as $x (0; . + $x)'");
}

#[test]
fn env_is_the_shells_exported_variables_not_the_hosts() {
    let ran = run("export ONLY_IN_SANDBOX=yes\n\
         jq -nc '[env.ONLY_IN_SANDBOX, $ENV.ONLY_IN_SANDBOX, (env | has(\"CARGO_MANIFEST_DIR\"))]'");
    assert!(
        std::env::var_os("CARGO_MANIFEST_DIR").is_some(),
        "the host variable this test looks for must exist"
    );
    assert_eq!(ran.stdout, "[\"yes\",\"yes\",false]\n");
}

#[test]
fn module_imports_are_refused() {
    let ran = run("jq -n 'import \"/etc/passwd\" as p; 1'; echo \"status $?\"");
    assert_eq!(ran.stdout, "status 3\n");
    assert!(
        ran.stderr.contains("module loading not supported"),
        "{}",
        ran.stderr
    );
    let ran = run("jq -n 'include \"x\"; 1'; echo \"status $?\"");
    assert_eq!(ran.stdout, "status 3\n");
}

#[test]
fn files_come_from_the_vfs() {
    let ran = run(
        "echo '{\"a\":1}' > /one.json; echo '{\"a\":2}' > /two.json\n\
         jq -c '[.a, input_filename]' /one.json /two.json\n\
         jq . /etc/passwd; echo \"status $?\"",
    );
    assert_eq!(
        ran.stdout,
        "[1,\"/one.json\"]\n[2,\"/two.json\"]\nstatus 2\n"
    );
    assert!(
        ran.stderr.contains("Could not open /etc/passwd"),
        "{}",
        ran.stderr
    );
}

#[test]
fn input_is_streamed_so_an_endless_producer_ends() {
    let ran = run("yes '{\"x\":1}' | jq -c .x | head -n 2");
    assert_eq!(ran.status, Ok(0));
    assert_eq!(ran.stdout, "1\n1\n");
}

#[test]
fn exit_statuses_follow_jq() {
    let ran = run("jq -n '1 +'; echo $?\n\
         echo '[1' | jq .; echo $?\n\
         jq -n 'error(\"boom\")'; echo $?\n\
         jq -ne 'false'; echo $?\n\
         jq -ne 'empty'; echo $?\n\
         jq -n '\"bye\" | halt_error(7)'; echo $?\n\
         jq --bogus .; echo $?");
    assert_eq!(ran.stdout, "3\n2\n5\nfalse\n1\n4\n7\n2\n");
    assert!(
        ran.stderr.contains("jq: error (at <stdin>:0): boom"),
        "{}",
        ran.stderr
    );
    assert!(ran.stderr.contains("bye"), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("Unknown arguments: --bogus"),
        "{}",
        ran.stderr
    );
}

#[test]
fn output_options() {
    let ran = run("echo '{\"b\":\"é\",\"a\":[1]}' | jq -S --indent 1 .\n\
         echo '{\"b\":\"é\"}' | jq -ac .\n\
         jq -nj '\"a\", \"b\"'; echo\n\
         jq -n --raw-output0 '\"a\"' | od -c | head -n 1");
    assert_eq!(
        ran.stdout,
        "{\n \"a\": [\n  1\n ],\n \"b\": \"é\"\n}\n{\"b\":\"\\u00e9\"}\nab\n0000000   a  \\0\n"
    );
}
