//! Inputs the fuzzers (`fuzz/`) found, one test each, named after the bug.

#[path = "support/run.rs"]
mod run;

use run::run;

/// `shell_run` crash-9d891e73: the command `..` was looked up in each
/// `$PATH` folder as the child `..`, breaking `VfsPath::join`'s
/// single-name invariant (a debug assertion; in release, an unnormalised
/// path). bash: `..: command not found`, status 127.
#[test]
fn dot_dot_as_a_command_name_is_not_looked_up_in_path() {
    for name in ["..", "."] {
        let ran = run(&format!("PATH=/bin:/usr/bin:; {name} 2>/dev/null; echo $?"));
        let expected = if name == "." { "2\n" } else { "127\n" };
        assert_eq!(ran.stdout, expected, "{name}");
    }
}

/// `shell_run` crash-4ed5f1d6 and `guest_run` crash-6d14055b (through
/// `$`): a redirect from a huge descriptor number (`55555555555555>f`
/// parses as fd `i32::MAX`) grew the descriptor table to that many slots
/// and aborted the host on the allocation. Descriptors above 1023 are now
/// `Bad file descriptor`, as under a soft `ulimit -n` of 1024.
#[test]
fn a_huge_descriptor_number_is_a_bad_descriptor_not_a_huge_table() {
    for fd in ["55555555555555", "2147483647", "1024"] {
        let ran = run(&format!(": {fd}>/f; echo $?; echo hi {fd}>&1"));
        assert_eq!(ran.stdout, "1\n", "{fd}");
        assert!(
            ran.stderr.contains(": Bad file descriptor"),
            "{fd}: {}",
            ran.stderr
        );
    }
    let ran = run("echo hi 1023>/f; cat /f 1023</f; echo $?");
    assert_eq!(ran.stdout, "hi\n0\n");
}

/// `shell_run` oom-a2ac195b: brace expansion built every word of a
/// product of sequences in memory before running anything, with no bound:
/// `echo {1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{0..9}` took 16 GB and
/// 143 s of the host (past the deadline, which is not checked there). The
/// words of one brace expansion now count against the shell's limit on
/// one value.
#[test]
fn a_product_of_brace_sequences_stops_at_the_value_limit() {
    let ran = run("echo {1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{0..9}; echo unreached");
    assert_eq!(
        ran.status,
        Err(goccia_shell::Stop::Limit(
            goccia_core::LimitKind::ShellValue
        ))
    );
    assert_eq!(ran.stdout, "");
    let ran = run("echo {1..3}{a,b} | wc -w");
    assert_eq!(ran.stdout, "6\n");
}
