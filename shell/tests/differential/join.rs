//! `join` as GNU coreutils joins (issue 49, item 4): unpairable lines
//! (`-a`, `-v`, both at once), `-o` lists and `auto`, `-e`, `--header`,
//! `-z`, blank-separated and `-t` fields, and the order check: a warning
//! once per file after an unpairable line and status 1 by default, fatal
//! under `--check-order`, nothing under `--nocheck-order`. The fixture's
//! `data/` has no two files to join, so each case makes its own.

/// Each case, after making `a` and `b`: keys 1 2 3 5 and 1 3 4 5.
macro_rules! with_files {
    ($($case:literal),* $(,)?) => {
        &[$(concat!("printf '1 one\\n2 two\\n3 three\\n5 five\\n' > a; printf '1 uno\\n3 tres\\n4 cuatro\\n5 cinco\\n' > b; ", $case)),*]
    };
}

pub const CASES: &[&str] = with_files![
    r#"join a b; join -a1 a b; join -a2 a b; join -a1 -a2 a b; join -v1 a b; join -v2 a b; join -v1 -v2 a b"#,
    r#"join -o 1.2,2.2 a b; join -o 0,1.2,2.2 -a1 -a2 -e NONE a b; join -o auto -a1 -e X a b; join -o '1.1 2.2' -o 0 a b; join -o 1.1,1.2,2.1,2.2,0 -a1 -a2 a b"#,
    r#"join -e NULL -o auto -a1 <(printf '1 a b\n2 c\n') <(printf '1 x\n'); join -1 2 -2 1 <(printf 'x 1\ny 2\n') <(printf '1 A\n2 B\n'); join -j 1 a b"#,
    // Runs of equal keys join every line with every line.
    r#"join <(printf '1 a\n1 b\n2 c\n') <(printf '1 x\n1 y\n3 z\n')"#,
    // Fields: blanks (leading skipped, trailing leave an empty field), -t.
    r#"printf '  1   a  b\n' | join - <(printf '1 z\n'); join <(printf 'a 1 \n') <(printf 'a x\n') | od -c; join -t, <(printf 'a,,x\n') <(printf 'a,y\n'); join -t $'\t' <(printf '1\ta\n2\tb\n') <(printf '1\tx\n3\ty\n'); join -t ' ' -o 2.2,1.2 a b"#,
    r#"join -t, --header data/people.csv data/people.csv; printf 'k h1\n1 a\n' > h1; printf 'k h2\n2 b\n' > h2; join --header h1 h2; join --header -a1 -o auto -e X h1 h2; join --header -v2 h1 h2"#,
    r#"join -i <(printf 'A 1\nb 2\n') <(printf 'a x\nB y\n'); join -z <(printf '1 a\0002 b\000') <(printf '1 x\0002 y\000') | tr '\0' '\n'"#,
    // The order check, as GNU: after an unpairable line, once per file.
    r#"join b <(sort -r a) 2>&1; echo "st $?"; join --check-order a <(sort -r b) 2>&1; echo "st $?"; join --nocheck-order b <(sort -r a) 2>&1; echo "st $?""#,
    r#"join -a1 -a2 <(printf '1 a\n3 b\n2 c\n') <(printf '1 x\n2 y\n') 2>&1; echo "st $?"; join <(printf '3 a\n1 b\n') <(printf '3 x\n1 y\n') 2>&1; echo "st $?"; join <(printf 'b 1\na 2\n') <(printf 'c 1\n') 2>&1; echo "st $?""#,
    r#"join --check-order <(printf 'a 1\nb 2\na 3\n') <(printf 'a x\nb y\n') 2>&1; echo "st $?"; join <(printf 'a 1\nb 2\na 3\n') <(printf 'a x\nb y\n') 2>&1; echo "st $?"; join -v1 <(printf 'a 1\nc 2\nb 3\n') <(printf 'a x\n') 2>&1; echo "st $?""#,
    // Refusals: status 1, GNU's words.
    r#"for o in "-a 3" "-v 0" "-1 0" "-j x" "-o 1.x" "-o 3.1" "-t ab" "-e"; do join $o a b 2>&1; echo "st $?"; done; join a 2>&1; echo "st $?"; join a b b 2>&1; echo "st $?"; join nope b 2>&1; echo "st $?"; join - - < a 2>&1; echo "st $?""#,
];
