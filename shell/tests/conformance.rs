//! The conformance harness: every bash-verified case of the corpus (and
//! every awk/grep/sed/jq case not marked skip) runs through the shell on a
//! fresh VFS; stdout must equal the expected output exactly, and the exit
//! status too where the case gives one.
//!
//! Prints a per-file table and `N passed, N failed`; fails when a suite
//! drops below its recorded floor. `GOCCIA_CONFORMANCE_VERBOSE=1` lists
//! every failing case with its output.

#[path = "support/spec_cases.rs"]
mod spec_cases;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use goccia_core::Watch;
use goccia_shell::io::{CaptureWriter, Fd};
use goccia_shell::{Limits, Shell};
use goccia_vfs::{Quota, Vfs};
use parking_lot::Mutex;
use spec_cases::Case;

/// Passing cases required (raise these as the shell improves; never lower
/// them to make a change pass).
const BASH_FLOOR: usize = 1856;
const TOOLS_FLOOR: usize = 415;

/// Tool cases (not bash-verified) whose expectation contradicts the GNU
/// tools on the machine, which are the shell's oracle (issue 19: GNU grep
/// 3.8's behaviour). They are listed with what GNU does, and neither
/// counted as passes nor as failures. The floor above was 418 when two of
/// them (`grep_binary_detect`, `grep_files_without_match_no_output`)
/// still passed by following the older grep, and 416 while
/// `awk_filename_stdin_empty` passed by leaving FILENAME empty where gawk
/// says `-`.
const CONTRADICT_THE_ORACLE: &[(&str, &str)] = &[
    (
        "grep/grep.test.sh::grep_files_with_matches",
        "GNU grep names stdin `(standard input)`, not `(stdin)`",
    ),
    (
        "grep/grep.test.sh::grep_null_data",
        "GNU grep -z ends each output record with NUL, not a newline",
    ),
    (
        "grep/grep.test.sh::grep_binary_detect",
        "GNU grep 3.5+ writes `grep: (standard input): binary file matches` to stderr, nothing to stdout",
    ),
    (
        "grep/grep.test.sh::grep_binary_with_a_flag",
        "GNU grep -a prints the line with its NUL byte",
    ),
    (
        "grep/grep.test.sh::grep_binary_files_text",
        "GNU grep -a prints the line with its NUL byte",
    ),
    (
        "grep/grep.test.sh::grep_files_without_match_no_output",
        "GNU grep 3.5+ exits 0 when a line was selected, whatever -L lists",
    ),
    (
        "grep/grep.test.sh::grep_suppress_errors",
        "GNU grep -s still exits 2 for a missing file",
    ),
    (
        "awk/filename.test.sh::awk_filename_stdin_empty",
        "gawk 5.2 sets FILENAME to `-` once it reads standard input",
    ),
];

struct Outcome {
    passed: bool,
    stdout: String,
    status: i32,
}

fn run_case(case: &Case) -> Outcome {
    let vfs = Arc::new(Mutex::new(Vfs::new(Quota {
        max_bytes: 256 << 20,
        max_nodes: 100_000,
    })));
    let context =
        goccia_shell::context(vfs, Watch::new(Duration::from_secs(10)), Limits::default());
    let stdout = CaptureWriter::new(16 << 20);
    let mut shell = Shell::new(
        context,
        Fd::null_input(),
        Fd::writer(stdout.clone()),
        Fd::null_output(),
    );
    let status = shell.run_script(&case.script).unwrap_or(-1);
    drop(shell);
    let stdout = String::from_utf8_lossy(&stdout.take()).into_owned();
    let passed = stdout == case.expected && case.exit_code.is_none_or(|code| code == status);
    Outcome {
        passed,
        stdout,
        status,
    }
}

/// Runs cases on all cores, each on a thread with room for deep recursion.
fn run_all(cases: &[Case]) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new((0..cases.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(index) else { break };
                        let outcome =
                            std::panic::catch_unwind(|| run_case(case)).unwrap_or(Outcome {
                                passed: false,
                                stdout: "<panic>".to_string(),
                                status: -2,
                            });
                        results.lock()[index] = Some(outcome);
                    }
                })
                .expect("worker thread");
        }
    });
    results
        .into_inner()
        .into_iter()
        .map(|o| o.expect("every case ran"))
        .collect()
}

fn report(title: &str, cases: &[Case], outcomes: &[Outcome]) -> usize {
    let mut by_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (case, outcome) in cases.iter().zip(outcomes) {
        let entry = by_file.entry(&case.file).or_default();
        entry.1 += 1;
        if outcome.passed {
            entry.0 += 1;
        }
    }
    println!("\n{title}");
    println!("{:<48} {:>7} {:>7}", "file", "passed", "total");
    for (file, (passed, total)) in &by_file {
        let mark = if passed == total { "" } else { "  *" };
        println!("{file:<48} {passed:>7} {total:>7}{mark}");
    }
    let passed = outcomes.iter().filter(|o| o.passed).count();
    if std::env::var_os("GOCCIA_CONFORMANCE_VERBOSE").is_some() {
        for (case, outcome) in cases.iter().zip(outcomes).filter(|(_, o)| !o.passed) {
            println!(
                "\nFAIL {}\n--- script\n{}--- expected\n{}--- got (status {})\n{}",
                case.id(),
                case.script,
                case.expected,
                outcome.status,
                outcome.stdout
            );
        }
    }
    println!(
        "{title}: {passed} passed, {} failed",
        outcomes.len() - passed
    );
    passed
}

#[test]
fn conformance() {
    let verified = spec_cases::bash_verified();
    let all = spec_cases::all_cases();
    let filter = std::env::var("GOCCIA_CONFORMANCE_FILTER").ok();
    let keep = |case: &&Case| filter.as_deref().is_none_or(|f| case.id().contains(f));
    let bash: Vec<Case> = all
        .iter()
        .filter(|c| c.file.starts_with("bash/") && verified.contains(&c.id()))
        .filter(keep)
        .cloned()
        .collect();
    let contradicts = |case: &&Case| CONTRADICT_THE_ORACLE.iter().any(|(id, _)| *id == case.id());
    let tools: Vec<Case> = all
        .iter()
        .filter(|c| !c.file.starts_with("bash/") && !c.skip)
        .filter(|c| !contradicts(c))
        .filter(keep)
        .cloned()
        .collect();
    println!("\ntool cases left out because GNU does otherwise:");
    for (id, why) in CONTRADICT_THE_ORACLE {
        assert!(
            all.iter().any(|case| case.id() == *id),
            "{id} is listed but not in the corpus"
        );
        println!("  {id}: {why}");
    }
    let bash_outcomes = run_all(&bash);
    let tool_outcomes = run_all(&tools);
    let bash_passed = report("bash-verified cases", &bash, &bash_outcomes);
    let tools_passed = report("awk/grep/sed/jq cases", &tools, &tool_outcomes);
    let total = bash_outcomes.len() + tool_outcomes.len();
    println!(
        "\n{} passed, {} failed",
        bash_passed + tools_passed,
        total - bash_passed - tools_passed
    );
    if filter.is_none() {
        assert!(
            bash_passed >= BASH_FLOOR,
            "bash-verified cases: {bash_passed} passed, floor is {BASH_FLOOR}"
        );
        assert!(
            tools_passed >= TOOLS_FLOOR,
            "tool cases: {tools_passed} passed, floor is {TOOLS_FLOOR}"
        );
    }
}
