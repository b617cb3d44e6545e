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
