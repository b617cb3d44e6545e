//! `ps` lists the session: the shell, its subshells, and the utilities
//! running now (a pipeline's other stages), not builtins and not what has
//! finished. There is no oracle for these ids, so the tests assert the
//! structure procps would print.

#[path = "support/run.rs"]
mod run;

use std::time::Duration;

fn shell(script: &str) -> (String, i32) {
    let ran = run::run_on(run::fresh_vfs(), script, Duration::from_secs(10));
    (ran.stdout, ran.status.unwrap_or(-1))
}

#[test]
fn the_default_listing_is_the_shell_and_ps_itself() {
    let (out, status) = shell("ps; echo \"pid $$\"");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(status, 0);
    assert_eq!(lines[0], "  PID TTY          TIME CMD");
    let pid = lines[3].strip_prefix("pid ").unwrap();
    assert_eq!(lines[1], format!(" {pid} ?        00:00:00 bash"));
    assert!(lines[2].ends_with(" ?        00:00:00 ps"), "{out}");
    assert_eq!(lines.len(), 4, "{out}");
}

#[test]
fn a_running_pipeline_stage_is_listed_and_a_finished_command_is_not() {
    // The stage starts on its own thread: wait (boundedly) until it has.
    let (out, _) = shell(
        "sleep 0.01; sleep 1 | (for i in $(seq 100); do ps -o args= | grep -qx 'sleep 1' && break; \
         sleep 0.01; done; ps -o ppid=,stat=,args=)",
    );
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert!(lines.iter().any(|l| l.ends_with("S    sleep 1")), "{out}");
    assert!(!lines.iter().any(|l| l.ends_with("sleep 0.01")), "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("R    ps -o ppid=,stat=,args=")),
        "{out}"
    );
    // The subshell ps runs in is listed, a child of the top shell.
    assert!(
        lines.iter().filter(|l| l.ends_with("bash")).count() == 2,
        "{out}"
    );
}

#[test]
fn selections_and_formats() {
    let (out, status) = shell("ps -p $$ -o comm=");
    assert_eq!((out.as_str(), status), ("bash\n", 0));
    let (out, status) = shell("ps -p 1 -o pid");
    assert_eq!((out.as_str(), status), ("  PID\n", 1));
    let (out, _) = shell("ps aux | head -1");
    assert_eq!(
        out,
        "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n"
    );
    let (out, _) = shell("ps -f | head -1; ps -o pid,comm=NAME | head -1");
    assert_eq!(
        out,
        "UID        PID  PPID  C STIME TTY          TIME CMD\n  PID NAME\n"
    );
    let (out, _) = shell("ps -C ps -o comm=; ps -C nothing; echo \"st $?\"");
    assert_eq!(out, "ps\n  PID TTY          TIME CMD\nst 1\n");
}

#[test]
fn a_bad_format_is_named() {
    let ran = run::run_on(run::fresh_vfs(), "ps -o bogus", Duration::from_secs(10));
    assert_eq!(ran.status.unwrap(), 1);
    assert!(
        ran.stderr
            .contains("unknown user-defined format specifier \"bogus\"")
    );
}

#[test]
fn the_sandbox_has_one_processor() {
    let (out, status) = shell("nproc; nproc --all; OMP_NUM_THREADS=4 nproc --all");
    assert_eq!((out.as_str(), status), ("1\n1\n1\n", 0));
    // getconf says the same, not the host's count.
    let (out, status) = shell("getconf _NPROCESSORS_ONLN; getconf _NPROCESSORS_CONF");
    assert_eq!((out.as_str(), status), ("1\n1\n", 0));
}
