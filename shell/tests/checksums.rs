//! `cksum`'s refusals where GNU's own list cannot be the oracle: GNU 9.1
//! also names `blake2b` and `sm3`, which goccia does not compute, so the
//! list names only what goccia computes. (The sums themselves are in the
//! differential cases, `tools.rs`.)

#[path = "support/run.rs"]
mod run;

#[test]
fn an_unknown_algorithm_is_refused_with_the_ones_that_exist() {
    let ran = run::run(
        "cksum -a bogus /nothing; echo \"st $?\"; cksum -a blake2b /nothing; echo \"st $?\"",
    );
    assert_eq!(ran.stdout, "st 1\nst 1\n");
    assert!(
        ran.stderr.starts_with(
            "cksum: invalid argument \u{2018}bogus\u{2019} for \u{2018}--algorithm\u{2019}\n\
             Valid arguments are:\n  - \u{2018}bsd\u{2019}\n  - \u{2018}sysv\u{2019}\n  - \u{2018}crc\u{2019}\n"
        ),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr
            .contains("  - \u{2018}sha512\u{2019}\nTry 'cksum --help' for more information.\n")
    );
    assert!(!ran.stderr.contains("sm3"));
}
