//! One-liners whose wrong result changes data (issue 41, class 15): each
//! case also prints what the folder holds afterwards, so a command that
//! deletes, overwrites or mangles more than GNU's would is a difference
//! even when its output matches.

/// Lists the tree and every file's bytes (`od`), for the end of a case.
macro_rules! tree {
    () => {
        r#"; echo "--- tree"; find . -path ./data -prune -o -path ./src -prune -o -print | LC_ALL=C sort; for f in $(find . -path ./data -prune -o -path ./src -prune -o -type f -print | LC_ALL=C sort); do echo "$f"; case $f in *.gz) ;; *) od -An -c "$f";; esac; done"#
    };
}

pub const CASES: &[&str] = &[
    // POSIX matching is leftmost-longest: of the matches that start
    // leftmost, sed, awk and grep take the longest (`x|xy` on `xyz` is
    // `xy`), captures included; `grep -P` keeps Perl's first alternative.
    concat!(
        r#"printf 'xyz\nfoo foobar\nabcd\n' > in.txt; sed -E 's/x|xy/Q/; s/foo|foobar/F/g; s/a|ab|abc/<&>/' in.txt > sed.txt; sed -E 's/(x|xy)(z)?/[\1|\2]/' in.txt; awk '{gsub(/o|oo/, "0"); n = match($0, /a|abc/); print $0, n, RSTART, RLENGTH}' in.txt > awk.txt; grep -oE 'foo|foobar' in.txt; grep -o -e a -e abc in.txt; grep -oP 'a|abc' in.txt; echo 'ab' | grep -oE 'a*|ab'; echo 'aaa bbb' | sed 's/a*\|b*/X/g'"#,
        tree!()
    ),
    // `cp -r dir/. target` copies what the folder holds into the target
    // (it made target/dir before); `.` as the source likewise.
    concat!(
        r#"mkdir -p s/sub g; echo x > s/sub/b; echo y > s/a; cp -r s/. g/; cp -r s/. h; cd s; cp -r . ../k; cd ..; cp -r s/. s 2>&1; echo "st $?"; mkdir -p m/s; cp -r s/. m/s"#,
        tree!()
    ),
    // sed's escapes name characters: `\r` is a carriage return, in a
    // pattern, a bracket and a replacement, and so are \a \f \v \cX \xHH.
    concat!(
        r#"printf 'cherry\r\nberry\r\n' > crlf.txt; sed 's/\r//g' crlf.txt | od -An -c; sed -i 's/\r$//' crlf.txt; sed -n '/[\r]/p' crlf.txt | wc -l"#,
        tree!()
    ),
    r#"printf 'a\tb\x07c\x0cd\n' | sed 's/\t/T/; s/\a/A/; s/\f/F/; s/\cI/!/' | od -An -c; printf 'xAy\n' | sed 's/\x41/[\x42\o103\d068]/'; echo 'r.r' | sed 's/\x2e/-/'"#,
    // rm never removes `.` or `..`, however it is reached.
    concat!(
        r#"mkdir -p t/x && echo f > t/x/f && cd t && rm -rf . ; echo "st $?"; rm -rf ./ ..; echo "st $?"; cd .. && rm -r t/x/. ; echo "st $?""#,
        tree!()
    ),
    concat!(
        r#"mkdir -p w/keep && echo k > w/keep/k && echo t > w/x.tmp && cd w && find . -exec rm -rf {} \; ; echo "st $?"; cd .."#,
        tree!()
    ),
    concat!(
        r#"mkdir -p v && echo v > v/v && cd v && printf '.\n..\nv\n' | xargs rm -rf 2>&1; echo "st $?"; cd .."#,
        tree!()
    ),
    // An empty operand names nothing: `rm -rf "$unset"`, `find "$unset"`.
    concat!(
        r#"mkdir -p e && echo e > e/e && cd e && rm -rf "$unset"; echo "st $?"; rm "$unset" 2>&1; echo "st $?"; find "$unset" -name e; echo "st $?"; cd .."#,
        tree!()
    ),
    // gzip and gunzip never replace an existing output without -f.
    concat!(
        r#"echo data > g.txt && echo old > g.txt.gz && gzip g.txt 2>&1; echo "st $?"; echo data | gzip > h.gz && echo keep > h && gunzip h.gz 2>&1; echo "st $?"; gzip -f g.txt; echo "st $?"; gzip h.gz 2>&1; echo "st $?"; echo t | gzip > a.tgz && gunzip a.tgz; echo "st $?""#,
        tree!()
    ),
    // Quotes inside $( ) inside $(( )) are the substitution's own.
    r#"echo $(( $(echo '2') * 3 )); echo $(( $(printf '%s' "4") + `echo '1'` )); echo $(( $(printf '%s' 'a b' | wc -c) ))"#,
    // Bytes that are not UTF-8 cross pipes and text tools unchanged.
    r#"printf '\377\376a\n' | tr a b | od -An -tx1; printf '\377\n' | tr '\377' x; printf 'a\377 b\n' | awk '{print $1}' | od -An -tx1; awk 'BEGIN{printf "\377\x41\n"}' | od -An -tx1"#,
    r#"printf 'b\377\na\n' | sort | od -An -tx1; printf 'a\377,b\n' | cut -d, -f1 | od -An -tx1; printf '\303\251x\n' | cut -b1 | od -An -tx1; printf 'a\377\n' | paste - - | od -An -tx1"#,
    r#"printf 'a\377\na\377\n' | uniq | od -An -tx1; printf 'ab\377\n' | fold -w1 | od -An -tx1; printf 'x\377\n' > l; printf 'y\n' > r; diff l r | od -An -tx1; printf 'q\377\n' | jq -R . | od -An -c"#,
    // xargs splits at blanks and newlines only: `\r` stays in the name.
    r#"printf 'a\rb c\r\n' | xargs printf '[%s]' | od -An -c; printf 'f1\r\nf2\n' | xargs -I{} printf '<%s>' {} | od -An -c"#,
    // grep -I: a binary file has no match.
    r#"printf 'x\0y\n' > bin.dat; grep -I x bin.dat; echo "st $?"; grep -rI TODO . | LC_ALL=C sort; grep -Ic x bin.dat; grep --binary-files=without-match x bin.dat; echo "st $?"; printf 'x\0y\n' | grep -I x; echo "st $?""#,
    // awk's %c: a number, or input that looks like one, is a code.
    r#"echo 65 66 | awk '{printf "%c%c\n", $1, $2 + 0}'; awk 'BEGIN{printf "%c%c%c\n", 65, "65", "hi"}'"#,
];
