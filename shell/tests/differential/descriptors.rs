//! Descriptor variables and descriptors by number (issue 19 item 2):
//! `exec {fd}<file`, `{fd}>&-`, `read -u "$fd"`, `{fd}<<<`, `<>`, and the
//! descriptor usable by every command; (issue 49, item 6) `test` on
//! `/dev/fd/N` and `/dev/stdin`: pipes, process substitutions, small
//! here-documents (pipes in bash 5.2) and large ones (temporary files).

pub const CASES: &[&str] = &[
    r#"echo x | { test -p /dev/fd/0 && echo pipe0; test -r /dev/fd/0 && echo r0; test -w /dev/fd/0 && echo w0; }; test -p /dev/stdin < /dev/null || echo null-not-pipe; echo y | [[ -p /dev/stdin ]] && echo pipe-stdin; test -p <(echo) && echo procsub-pipe; [[ -p <(true) ]] && echo procsub-pipe2; test -r <(echo) && echo procsub-r"#,
    r#"exec 4>&1; test -w /dev/fd/4 && echo w4; test -r /dev/fd/4 && echo r4; exec 5< data/words.txt; test -p /dev/fd/5 || echo file-notpipe; test -r /dev/fd/5 && echo r5; test -f /dev/fd/5 && echo f5; test -p /dev/fd/9 || echo closed9; test -p data/words.txt || echo plain"#,
    r#"test -p /dev/stdin <<< hi && echo herestring-pipe; test -f /dev/stdin <<< hi || echo small-not-file; big=$(head -c 70000 /dev/zero | tr '\0' a); test -p /dev/stdin <<< "$big" || echo big-not-pipe; test -f /dev/stdin <<< "$big" && echo big-file; wc -c <<< "$big"; wc -c <<< hi; test -f /dev/stdin < data/words.txt && echo redirect-file; cat <<< "$big" | wc -c"#,
    r#"exec {fd}<data/words.txt; echo $fd; read -u "$fd" line; echo "$line"; read -u $fd l2; echo $l2; exec {fd}<&-; read -u $fd x 2>/dev/null; echo "st $?""#,
    r#"exec {o}>out.txt; echo hi >&$o; echo there >&"$o"; exec {o}>&-; cat out.txt; echo $o"#,
    r#"{ read -r a; echo "got [$a]"; } {in}<<< "herestring"; echo $in; cat <&$in; exec {in}<&-"#,
    r#"echo hi {o}>f.txt; echo $o; echo more >&$o; exec {o}>&-; cat f.txt"#,
    r#"exec {fd}>&1; echo via-fd >&$fd; exec {fd}>&-; echo $fd"#,
    r#"exec {fd}<<EOF
doc line
EOF
cat <&$fd; exec {fd}<&-"#,
    r#"exec {a}<data/words.txt; exec {b}<&$a; echo $a $b; read -u $b l; echo $l; exec {a}<&- {b}<&-"#,
    r#"exec {fd}<data/words.txt; mapfile -u $fd arr; echo ${#arr[@]}; exec {fd}<&-"#,
    r#"exec {fd}<nosuch 2>/dev/null; echo "st $? fd=${fd-unset}""#,
    r#"readonly r=1; exec {r}>/dev/null 2>/dev/null; echo "st $?"; exec {zz}>&- 2>/dev/null; echo "st2 $?""#,
    r#"exec {a}>o1 {b}>o2; echo $a $b; echo one >&$a; echo two >&$b; exec {a}>&- {b}>&-; cat o1 o2; cat <&$a 2>/dev/null; echo "st $?""#,
    r#"exec {fd}<>rw.txt; echo data >&$fd; exec {fd}>&-; cat rw.txt"#,
    r#"printf 'abcdefgh\n' > f; exec 3<>f; read -n 3 x <&3; echo "$x"; echo -n XY >&3; exec 3>&-; cat f"#,
    r#"echo a > g; exec 4<>g; cat <&4; echo b >&4; exec 4>&-; cat g"#,
    r#"exec 3<data/numbers.txt; head -1 <&3; sort -n /dev/fd/3 | head -2; exec 3<&-; cat <&3 2>/dev/null; echo "st $?""#,
    r#"exec 5>&1; f() { echo "to five" >&5; }; f > /dev/null; exec 5>&-"#,
    r#"exec {log}>log.txt; for i in 1 2 3; do echo "line $i" >&$log; done; exec {log}>&-; wc -l < log.txt"#,
];
