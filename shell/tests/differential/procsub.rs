//! Process substitution (issue 19 item 1): as a word and inside one, in
//! `[[ ]]`, for commands that open it by name, after redirections,
//! nested, in here-documents, numbered as bash numbers them. Cases whose
//! output order bash leaves to its scheduler (an output substitution
//! writing to the terminal while the command does) are not here.

pub const CASES: &[&str] = &[
    r#"cat <(echo hi) a<(true)b 2>/dev/null | head -1; echo x<(true)y | sed 's/[0-9]\+/N/'"#,
    r#"echo <(true) <(true) >(true); echo 2>(true); echo {a,b}<(true); y=<(true); echo "$y""#,
    r#"diff <(echo a) <(echo b); echo "status $?"; diff <(seq 3) <(seq 3) && echo same"#,
    r#"tee >(cat > o1) <<< hello > /dev/null; wait $! 2>/dev/null; cat o1"#,
    r#"while read -r l; do echo "[$l]"; done < <(printf 'a\nb\n'); { cat; } < <(echo grouped)"#,
    r#"[[ -e <(true) ]] && echo exists; [[ -r <(true) ]] && echo readable; [[ -w >(true) ]] && echo writable"#,
    r#"grep -f <(echo an) data/words.txt; cat <(cat <(echo nested)); wc -l < <(seq 5)"#,
    r#"cat <<EOF
$(cat <(echo in-heredoc))
EOF
cat < <(echo redirected)"#,
    r#"head -2 <(yes); head -c 5 <(seq 100000) | od -c | head -1"#,
    r#"exec 3< <(printf 'a\nb\n'); read -u 3 x; read -u 3 y; echo "$x$y"; exec 3<&-"#,
    r#"f() { cat "$1"; }; f <(echo via-function); for x in <(echo in-loop); do cat "$x"; done"#,
    r#"comm -3 <(sort data/words.txt) <(sort -f data/words.txt | uniq -i); paste <(seq 3) <(seq 4 6)"#,
    r#"cat > >(tr a-z A-Z > up) <<< shout; until [ -s up ]; do :; done; cat up"#,
    r#"if [[ $(cat <(echo yes)) == yes ]]; then echo matched; fi; case $(cat <(echo b)) in b) echo case;; esac"#,
    r#"echo before; cat <(echo one; exit 3); echo "status $?"; cat <(false) <(echo two)"#,
    r#"sum=0; while read n; do sum=$((sum + n)); done < <(seq 10); echo "$sum""#,
    // grep reads a process substitution and devices named among its
    // files, each shown by its name (issue 49, item 6).
    r#"grep -l hi <(echo hi); grep -c x <(printf 'x\nx\n') /dev/null; echo hi | grep -c hi - /dev/null; echo hi | grep -H hi /dev/stdin; grep -q x /dev/null; echo "st $?"; grep x /dev/fd/9 2>&1; echo "st $?""#,
];
