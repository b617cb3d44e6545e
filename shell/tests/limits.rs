//! The shell's own limits and the sandbox's, each ending a hostile script
//! with its own stop reason (or, for the file system, ENOSPC) and never
//! taking the host's memory or time.

#[path = "support/run.rs"]
mod run;

use std::time::Duration;

use goccia_core::LimitKind;
use goccia_shell::{Limits, Stop};
use goccia_vfs::Quota;
use run::{fresh_vfs, run, run_limited, run_on, vfs_with_quota};

fn small_limits() -> Limits {
    Limits {
        max_commands: 10_000,
        max_loop_iterations: 5_000,
        max_function_depth: 50,
        max_substitution_bytes: 4096,
        ..Limits::default()
    }
}

fn limited(script: &str) -> run::Ran {
    run_limited(fresh_vfs(), script, Duration::from_secs(10), small_limits())
}

#[test]
fn an_endless_loop_stops_at_the_loop_limit() {
    let ran = limited("while true; do :; done");
    assert_eq!(ran.status, Err(Stop::Limit(LimitKind::LoopIterations)));
}

#[test]
fn a_long_function_chain_stops_at_the_command_limit() {
    let ran =
        limited("f() { :; :; :; }; for i in $(seq 1000); do f; f; f; f; f; f; f; f; f; f; done");
    assert_eq!(ran.status, Err(Stop::Limit(LimitKind::ShellCommands)));
}

#[test]
fn recursion_stops_at_the_function_depth_with_a_message() {
    let ran = limited("f() { f; }; f");
    assert_eq!(ran.status, Err(Stop::Limit(LimitKind::FunctionDepth)));
    assert!(
        ran.stderr
            .contains("maximum function nesting level exceeded (50)"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_fork_bomb_shape_is_bounded() {
    let ran = limited(":(){ :|:& };:");
    assert!(
        matches!(ran.status, Err(Stop::Limit(_))),
        "status {:?}",
        ran.status
    );
}

#[test]
fn a_command_substitution_is_capped() {
    let ran = limited("x=$(yes | head -c 100000); echo ${#x}");
    assert_ne!(
        ran.stdout, "100000\n",
        "the capture must not exceed its cap"
    );
}

#[test]
fn the_deadline_stops_a_busy_loop_and_sleep() {
    for script in [
        "while true; do :; done",
        "sleep 1000",
        "yes > /dev/null",
        "cat /dev/zero | wc -c",
    ] {
        let ran = run_on(fresh_vfs(), script, Duration::from_millis(200));
        assert_eq!(ran.status, Err(Stop::DEADLINE), "{script}");
    }
}

#[test]
fn filling_the_file_system_fails_with_enospc() {
    let vfs = vfs_with_quota(Quota {
        max_bytes: 1 << 20,
        max_nodes: 1000,
    });
    let ran = run_on(
        vfs,
        "yes > /f; echo \"status $?\"; wc -c < /f\n\
         rm /f; echo keep > /g; truncate -s 1T /g; echo \"status $?\"; cat /g",
        Duration::from_secs(10),
    );
    let lines: Vec<&str> = ran.stdout.lines().collect();
    assert_eq!(lines[0], "status 1");
    let size: u64 = lines[1].trim().parse().expect("a size");
    assert!(
        size <= 1 << 20,
        "the file holds {size} bytes, over the quota"
    );
    assert_eq!(&lines[2..], ["status 1", "keep"]);
    assert!(
        ran.stderr.contains("No space left on device"),
        "{}",
        ran.stderr
    );
}

#[test]
fn dd_stops_at_the_quota_and_writes_nothing() {
    let vfs = vfs_with_quota(Quota {
        max_bytes: 1 << 20,
        max_nodes: 1000,
    });
    // Endless input: without the quota's stop the copy would gather bytes
    // until the deadline.
    let ran = run_on(
        vfs,
        "dd if=/dev/zero of=/big bs=64k status=noxfer; echo \"status $?\"; ls /big 2>&1\n\
         dd if=/dev/zero of=/small bs=1k count=4 status=none; wc -c < /small",
        Duration::from_secs(10),
    );
    assert_eq!(
        ran.stdout, "status 1\nls: cannot access '/big': No such file or directory\n4096\n",
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr.starts_with(
            "dd: error writing '/big': No space left on device\n17+0 records in\n16+0 records out\n"
        ),
        "{}",
        ran.stderr
    );
}

#[test]
fn an_endless_stream_cannot_be_buffered_without_bound() {
    let limits = Limits {
        max_buffered_input: 1 << 20,
        ..Limits::default()
    };
    let ran = run_limited(
        fresh_vfs(),
        "yes | sort | head -n 1; echo \"${PIPESTATUS[*]}\"\n\
         head -c 3000000 /dev/zero | tr -d '\\n' | wc -c",
        Duration::from_secs(10),
        limits,
    );
    assert!(
        ran.stdout == "141 2 0\n3000000\n",
        "stdout {:?} stderr {:?}",
        &ran.stdout[..ran.stdout.len().min(200)],
        &ran.stderr[..ran.stderr.len().min(300)]
    );
    assert!(
        ran.stderr
            .contains("sort: -: input larger than 1048576 bytes"),
        "{}",
        ran.stderr
    );
}

#[test]
fn dev_zero_is_endless_and_stops_at_the_deadline() {
    let ran = run_on(fresh_vfs(), "wc -c /dev/zero", Duration::from_millis(200));
    assert_eq!(ran.status, Err(Stop::DEADLINE));
}

#[test]
fn a_node_flood_fails_with_enospc() {
    let vfs = vfs_with_quota(Quota {
        max_bytes: 1 << 20,
        max_nodes: 50,
    });
    let ran = run_on(
        vfs,
        "for i in $(seq 100); do touch /f$i 2>/dev/null || { echo \"stopped at $i\"; break; }; done",
        Duration::from_secs(10),
    );
    assert!(ran.stdout.starts_with("stopped at "), "{}", ran.stdout);
}

#[test]
fn yes_piped_to_head_ends_at_once() {
    let ran = run("yes | head -n 3; echo done");
    assert_eq!(ran.status, Ok(0));
    assert_eq!(ran.stdout, "y\ny\ny\ndone\n");
}

#[test]
fn a_doubling_variable_stops_at_the_value_limit() {
    let limits = Limits {
        max_value_bytes: 1 << 20,
        ..Limits::default()
    };
    let ran = run_limited(
        fresh_vfs(),
        "x=x; while :; do x=$x$x; done",
        Duration::from_secs(10),
        limits,
    );
    assert_eq!(ran.status, Err(Stop::Limit(LimitKind::ShellValue)));
}

#[test]
fn a_pipeline_bomb_stops_at_the_stage_limit() {
    let limits = Limits {
        max_concurrent_stages: 16,
        ..Limits::default()
    };
    let ran = run_limited(
        fresh_vfs(),
        "f() { f | f; }; f",
        Duration::from_secs(10),
        limits,
    );
    assert_eq!(ran.status, Err(Stop::Limit(LimitKind::ShellStages)));
}

/// Found while following up the fuzzers' memory findings: a field width or
/// precision is built in memory, so `printf "%2000000000d"` took 3.9 GB
/// of the host (and awk's printf 5.8 GB). Over 16 MiB is an error in
/// printf and clamped in awk.
#[test]
fn huge_printf_fields_are_refused_or_clamped() {
    let ran = run("printf '%*d|' 2000000000 1; echo \" $?\"; printf '%.2000000000f|%s\\n' 1 x");
    assert_eq!(ran.stdout, "| 1\n|x\n");
    assert!(
        ran.stderr
            .contains("field width or precision over 16777216 bytes"),
        "{}",
        ran.stderr
    );
    let ran = run("awk 'BEGIN { printf \"%2000000000d\", 1 }' | wc -c");
    assert_eq!(ran.stdout, "16777216\n");
    let ran = run("printf '%5d|%-4s|%.2f|%3s\\n' 3 ab 1.234 x");
    assert_eq!(ran.stdout, "    3|ab  |1.23|  x\n");
}

/// `seq` built every line before writing the first (up to 10,000,000,
/// then it silently stopped: `seq 15000000 | wc -l` said 10000000). It
/// streams now; `-w` pads to the wider end, sign included, as GNU seq.
#[test]
fn seq_streams_and_pads_like_gnu() {
    let ran = run(
        "seq 1 100000000000 | head -2; seq -w -5 3 | tr '\\n' ' '; seq -w 10 -3 -5 | tr '\\n' ' '",
    );
    assert_eq!(
        ran.stdout,
        "1\n2\n-5 -4 -3 -2 -1 00 01 02 03 10 07 04 01 -2 -5 "
    );
}
