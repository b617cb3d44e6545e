//! What goccia refuses where GNU's tools would do something (docs/shell.md
//! says why for each): no oracle can agree, so each refusal is checked
//! here for its status, a message naming what is not there, and that
//! nothing was written.

#[path = "support/run.rs"]
mod run;

/// Runs `script`; its stdout, stderr and status.
fn shell(script: &str) -> (String, String, i32) {
    let ran = run::run(script);
    (ran.stdout, ran.stderr, ran.status.expect("the script ends"))
}

#[test]
fn getconf_refuses_to_list_every_variable() {
    let (out, err, status) = shell("getconf -a");
    assert_eq!((out.as_str(), status), ("", 2));
    assert!(
        err.contains("-a (every variable) is not supported"),
        "{err}"
    );
}

#[test]
fn tar_refuses_a_compressor_the_sandbox_lacks_and_writes_nothing() {
    let (out, err, status) =
        shell("mkdir w; cd w; mkdir d; echo x > d/f; tar caf a.tar.xz d; echo \"st $?\"; ls");
    assert_eq!(status, 0);
    assert_eq!(out, "st 2\nd\n", "no archive is left behind");
    assert!(err.contains("xz: Cannot exec"), "{err}");
}

#[test]
fn factor_refuses_what_does_not_fit_in_64_bits_naming_it() {
    let (out, err, status) = shell("factor 12 18446744073709551616 15");
    assert_eq!((out.as_str(), status), ("12: 2 2 3\n15: 3 5\n", 1));
    assert!(
        err.contains("\u{2018}18446744073709551616\u{2019} is too large"),
        "{err}"
    );
}

#[test]
fn awk_refuses_to_sort_by_a_function_of_the_program() {
    let (out, err, status) = shell(
        "awk 'function f(i1, v1, i2, v2) { return 0 } BEGIN { a[1]; asort(a, b, \"f\"); print \"after\" }'",
    );
    assert_eq!((out.as_str(), status), ("", 2));
    assert!(
        err.contains("sorting by a function of the program (`f') is not supported"),
        "{err}"
    );
}

#[test]
fn find_refuses_inum_where_every_file_would_share_one_number() {
    let (out, err, status) =
        shell("mkdir w; cd w; touch f; find . -inum 1 -delete; echo \"st $?\"; ls");
    assert_eq!(status, 0);
    assert_eq!(out, "st 1\nf\n", "nothing is deleted");
    assert!(err.contains("unknown predicate `-inum'"), "{err}");
}

#[test]
fn grep_names_a_color_word_it_does_not_know_and_the_valid_ones() {
    let (out, err, status) = shell("echo a | grep --color=bogus a");
    assert_eq!((out.as_str(), status), ("", 2));
    assert!(
        err.contains("invalid argument \u{2018}bogus\u{2019} for \u{2018}--color\u{2019}"),
        "{err}"
    );
    assert!(err.contains("\u{2018}always\u{2019}"), "{err}");
}

#[test]
fn iconv_names_the_set_it_does_not_know_and_writes_nothing() {
    for (command, named) in [
        (
            "iconv -f nope -t utf-8",
            "conversion from `nope' is not supported",
        ),
        (
            "iconv -f utf-8 -t nope",
            "conversion to `nope' is not supported",
        ),
        (
            "iconv -f nope -t bad",
            "conversions from `nope' and to `bad' are not supported",
        ),
    ] {
        let (out, err, status) = shell(&format!("mkdir w; cd w; echo x | {command} -o out; ls"));
        assert_eq!(
            (out.as_str(), status),
            ("", 0),
            "{command}: nothing written"
        );
        assert!(err.contains(named), "{command}: {err}");
    }
    let (out, err, status) = shell("echo x | iconv -f utf-8 -t ascii -o /missing/out");
    assert_eq!((out.as_str(), status), ("", 1));
    assert!(
        err.contains("cannot open output file `/missing/out'"),
        "{err}"
    );
}

#[test]
fn pr_refuses_the_options_it_lacks_naming_each_and_printing_nothing() {
    for letter in ["c", "e", "i", "v"] {
        let (out, err, status) = shell(&format!("seq 3 | pr -t -{letter}"));
        assert_eq!((out.as_str(), status), ("", 1), "-{letter}");
        assert!(
            err.contains(&format!("pr: -{letter} is not supported here")),
            "{err}"
        );
    }
}
