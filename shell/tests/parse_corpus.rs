//! Every script of the conformance corpus that real bash runs must parse.

#[path = "support/spec_cases.rs"]
mod spec_cases;

use goccia_shell::Shell;

#[test]
fn the_corpus_parses() {
    let verified = spec_cases::bash_verified();
    let mut failures = Vec::new();
    let cases = spec_cases::all_cases();
    for case in &cases {
        let bash = case.file.starts_with("bash/");
        if (bash && !verified.contains(&case.id())) || case.skip {
            continue;
        }
        if let Err(error) = Shell::check_syntax(&case.script) {
            // Cases about syntax errors expect them.
            if case.exit_code == Some(2)
                || case.name.contains("syntax")
                || case.file.contains("parse-errors")
            {
                continue;
            }
            failures.push(format!("{}: {error}", case.id()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} do not parse:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
