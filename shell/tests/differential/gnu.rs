//! GNU-exact details (issue 19 item 3): grep's -L and its exit status,
//! pattern files, binary files and early exits; cat's notation for
//! control and high bytes; wc's column widths; sort -c's messages; expand
//! and unexpand; jq -R; failing redirections inside compound commands;
//! SIGPIPE statuses. `2>&1` where the message itself is the behaviour.

pub const CASES: &[&str] = &[
    // grep -L: listed files, and a status about selected lines.
    r#"grep -L TODO notes/*.txt README.md; echo "st $?"; grep -L TODO notes/todo.txt; echo "st $?""#,
    r#"grep -Lc a data/words.txt notes/empty.txt; echo "st $?"; grep -cl an data/words.txt notes/empty.txt; echo "st $?""#,
    r#"grep -Lq a notes/empty.txt; echo "st $?"; grep -Lq a data/words.txt; echo "st $?"; echo x | grep -L -H y; echo "st $?""#,
    r#"grep -rL TODO notes; echo "st $?"; grep -L TODO - < notes/todo.txt; echo "st $?"; grep -L zzz - < notes/todo.txt; echo "st $?""#,
    // Pattern files, an empty one matching nothing.
    r#"grep -f notes/empty.txt data/words.txt; echo "st $?"; grep -L -f notes/empty.txt data/words.txt; echo "st $?"; grep -c -f notes/empty.txt data/words.txt"#,
    r#"printf 'an\nrr\n' > pats; grep -f pats data/words.txt; grep -v -f pats data/words.txt | head -2; grep -c -f pats -e Date data/words.txt"#,
    r#"echo hi | grep -H hi; echo hi | grep -c -H x; echo hi | grep -l hi; printf 'a\0b\nab\n' > bin; grep a bin 2>&1; echo "st $?"; grep -c a bin"#,
    // --color=always: GNU's markers for matches, names, line numbers,
    // byte offsets and separators; matches of context lines only under -v;
    // GREP_COLORS over the defaults, GREP_COLOR deprecated; -Z after a name.
    r#"grep --color=always an data/words.txt notes/todo.txt | od -c; grep --color=always -n -C1 an data/words.txt | od -c; grep --colour=always -vn -A1 an data/words.txt | od -c"#,
    r#"grep --color=always -o -b an data/words.txt | od -c; grep --color=always -c an data/words.txt notes/todo.txt | od -c; grep --color=always -lZ an data/words.txt notes/todo.txt | od -c; grep --color=always -H -Z an data/words.txt | od -c"#,
    r#"GREP_COLORS='ms=4:mc=5:fn=1:ln=:se=7:ne' grep --color=always -Hn -v -A1 an data/words.txt | od -c; GREP_COLOR='1;32' grep --color=always an data/words.txt 2>&1 | od -c; grep --color=always 'x*' data/words.txt | od -c; grep --color=auto an data/words.txt; grep --color an data/words.txt; grep --color=never -c an data/words.txt"#,
    // Group separators: any context option, even 0, separates groups.
    r#"seq 20 | grep -C0 -e 5 -e 9; seq 20 | grep -A0 --group-separator=XX -e 5 -e 9; seq 20 | grep -B1 --group-separator= -e 5 -e 9; seq 20 | grep -C1 --no-group-separator -e 5 -e 9; seq 20 | grep --color=always -0 --group-separator=: -e 5 -e 9 | od -c"#,
    // Early exits close the pipe: the writer upstream gets SIGPIPE.
    r#"seq 1 1000000 | grep -m1 5; echo ${PIPESTATUS[@]}; yes | grep -q y; echo ${PIPESTATUS[@]}; yes | grep -l y; echo ${PIPESTATUS[@]}"#,
    r#"seq 30 | grep -C2 -e 5 -e 15 -e 17; seq 30 | grep -A1 -m2 1; seq 30 | grep -n -B3 9"#,
    r#"printf '%s\n' {1..100000} | head -1; echo ${PIPESTATUS[@]}; yes | tr y n | head -1; echo ${PIPESTATUS[@]}; seq 1 100000 | cat | head -1; echo ${PIPESTATUS[@]}"#,
    // cat's notation.
    r#"printf 'a\tb\x07c\x1b[0m\x7f\xc3\xa9\xff\x89\x8a\n  x\n' > ctl; cat -v ctl; cat -A ctl; cat -e ctl; cat -t ctl; cat -vn ctl; cat -T ctl | od -c | head -1"#,
    // wc widths: the total size of the inputs, 7 for a pipe, bare for one count of one input.
    r#"wc data/words.txt data/numbers.txt notes/empty.txt; wc -l data/*; wc -c data/words.txt; wc -L data/words.txt data/numbers.txt"#,
    r#"wc -l < data/words.txt; wc < data/words.txt; cat data/words.txt | wc -w data/numbers.txt -; cat data/words.txt | wc; cat data/words.txt | wc -l"#,
    r#"printf '%s\n' {1..2000} > big; wc big data/words.txt; wc -c big; wc nosuch data/words.txt 2>&1; echo "st $?""#,
    // sort -c names the file and the line; -C is silent; -u makes equal lines a disorder.
    r#"sort -c data/words.txt 2>&1; echo "st $?"; sort -c < data/words.txt 2>&1; echo "st $?"; sort -C data/words.txt; echo "st $?""#,
    r#"printf 'a\na\n' | sort -cu 2>&1; echo "st $?"; printf 'a\na\n' | sort -c; echo "st $?"; sort -cn data/numbers.txt 2>&1; echo "st $?"; sort -c data/words.txt data/numbers.txt 2>&1; echo "st $?""#,
    // expand and unexpand.
    r#"printf 'a\tb\n\t\tc\td\n' | expand; printf 'a\tb\n\tc\td\n' | expand -t 4; printf '\ta\tb\n' | expand -i; printf 'a\tb\tc\td\n' | expand -t 3,7,12 | od -c | head -2"#,
    r#"printf '        a\tb\n' | unexpand | od -c | head -1; printf '        a        b\n' | unexpand -a | od -c | head -1; printf 'abcdefg b   x\n' | unexpand -a | od -c | head -1; printf '    a    b\n' | unexpand -t 4 | od -c | head -1"#,
    r#"printf 'x  \by  \n' | unexpand -t 2 | od -c | head -1; printf '  a  ' | unexpand -a -t 2 | od -c | head -1; printf '        a\n' | unexpand --first-only -t 4 | od -c | head -1"#,
    // jq -R with -s and -n.
    r#"jq -R . data/words.txt | head -2; jq -Rs . data/words.txt; jq -Rn 'input' data/words.txt; jq -Rn '[inputs] | length' data/words.txt; jq -Rr 'ascii_upcase' notes/todo.txt"#,
    // A redirection that fails inside compound commands: the message, and going on.
    r#"{ echo a > /nonexistent/x; echo after; } 2>&1; echo "st $?"; if true; then echo x > /no/such; fi 2>&1; echo "st $?""#,
    r#"for i in 1 2; do cat < /nofile$i; done 2>&1; echo "st $?"; while read l < /nofile; do :; done 2>&1; echo "st $?"; ( echo sub ) > /no/f 2>&1; echo "st $?""#,
    r#"case a in a) echo x;; esac > /no/f 2>&1; echo "st $?"; echo a > /no/x || echo failed; { echo in; } > /no/f 2>&1; echo "st $?""#,
    // TIMEFORMAT: literal text and %%, and empty for no report.
    r#"TIMEFORMAT='<%%>'; { time true; } 2>&1; TIMEFORMAT=; { time true; } 2>&1; echo end"#,
    // sed keeps bytes that are not UTF-8, and its \xHH is a byte: a
    // regex with one past ASCII matches byte by byte.
    r#"printf 'caf\xc3\xa9 \xff x\n' > lat; sed 's/x/y/' lat | od -An -tx1; sed 's/\xc3\xa9/e/; s/\xff/FF/' lat; sed -n '/\xff/p' lat | od -An -tx1; sed 's/é/E/' lat | od -An -tx1; echo 'aμb' | sed 's/\xce/[&]/' | od -An -tx1; echo 'aμb' | sed 's/\xce\xbc/M/'"#,
    // awk as gawk 5.2: signed infinities and NaNs under every numeric
    // conversion; substr truncating both numbers, a start before 1 being 1.
    r#"awk 'BEGIN{x=-log(0); y=log(0); print x, y, -x; printf "%d %f %g %s %e\n", x, x, y, x, x; z = x ""; print z; print int(x), x+0 == x; printf "[%5d][%-6f][%.2f][%05d][%+d][%x]\n", x, x, x, -x, x, x}'; awk 'BEGIN{for (a = -1; a <= 3; a += 0.5) printf "%s:[%s][%s]\n", a, substr("hello", a, 2), substr("hello", a); print substr("hello", 1, 1.5), substr("hello", 1, 2.6), substr("hello", 3, -1) "|"}'"#,
    // printf and sprintf short of values: gawk's fatal error, after what
    // was printed before it.
    r#"awk 'BEGIN{printf "%s %d\n", "a"}' 2>&1; echo "st $?"; awk 'BEGIN{x = sprintf("%s %s", 1); print x}' 2>&1; echo "st $?"; awk 'BEGIN{print "before"; printf "%s%s", "a"}' 2>&1; echo "st $?""#,
    // asort and asorti: numbers before strings by default, gawk's named
    // orders, a destination array.
    r#"awk 'BEGIN{a[1]="10"; a[2]="9"; a["x"]="b"; a[4]="a"; a[5]=2; a[6]="B"; n=asort(a); for(i=1;i<=n;i++) printf "%s ", a[i]; print n}'; echo "10 9 b a 2 B" | awk '{for(i=1;i<=NF;i++) a[i]=$i; n=asort(a); for(i=1;i<=n;i++) printf "%s ", a[i]; print ""}'; awk 'BEGIN{a["b"]=1; a["a"]=2; a[10]=3; a[9]=4; n=asorti(a, d); for(i=1;i<=n;i++) printf "%s ", d[i]; print n, length(a)}'; awk 'BEGIN{a[1]=3;a[2]=1;a[3]=2; n=asort(a, d, "@val_num_desc"); print d[1], d[2], d[3], a[1]; asorti(a, e, "@ind_num_desc"); print e[1]}'; awk '{c[$1]++} END{n=asorti(c, k); for(i=1;i<=n;i++) print k[i], c[k[i]]}' data/words.txt; awk 'BEGIN{a[1]=1; asort(a, d, "cmp")}' 2>&1; echo "st $?""#,
    // factor: arguments and stdin, GNU's reading of them, its refusals.
    r#"factor 12 1 0 +12 007 ' 12' 18446744073709551615 18446744073709551557 18446744030759878681; echo "st $?"; factor x '' '12 ' 2>&1; echo "st $?"; factor -- -3 2>&1; echo "st $?"; printf '6 35\n 9\n' | factor; factor -h 2>&1; echo "st $?""#,
    // head and tail -z: lines ended by NUL, counts from either end, a
    // last line without its NUL, clustered flags before a negative count.
    r#"printf 'a\0b\0c\0d\0' > z; printf 'x\ny\0z\n' > m; head -z -n2 z | od -c; head -zn -1 z | od -c; tail -z -n2 z | od -c; tail -z -n +3 z | od -c; head -z m | od -c; tail -zn1 m | od -c; head --zero-terminated -n1 z m | od -c; printf 'a\0b' | tail -z -n1 | od -c; head -qn -1 z m | od -c"#,
    // stat: directives with printf's flags, width and precision, the
    // terse forms as the formats GNU defines them with (of -f, the fields
    // a busy host file system keeps between two calls), blocks of a 4 KiB
    // file system, the layout's first lines, errors; -f's fixed fields.
    r#"ln -s README.md lnk; mkdir -p d/e; : > empty; stat -c '%n|%s|%b|%B|%o|%F|%a|%A|%f|%%|%q' README.md empty d lnk; stat -c '%h' d; stat -c '%05.2s|%-12.4n|%+5s|% 5s|%#o|%10b|%-3h|' README.md; stat -c '%N' README.md lnk; stat -L -c '%F' lnk; stat --printf '%s\t%n\n%' README.md; echo; stat -c %Y% README.md | tr -d 0-9"#,
    r#": > empty; ln -s README.md lnk; for f in README.md empty lnk; do [ "$(stat -t $f)" = "$(stat -c '%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o' $f)" ] && echo "terse $f"; stat $f | sed -n 2p; stat $f | sed -n 1p; done; [ "$(stat -f -t . | cut -d' ' -f1-6)" = "$(stat -f -c '%n %i %l %t %s %S' .)" ] && echo "terse fs"; stat -f -c '%n %l %s %S' . src; stat nothere 2>&1; echo "st $?"; stat -f nothere 2>&1; echo "st $?"; stat 2>&1; echo "st $?""#,
    // iconv: glibc's sets and marks, its positions and statuses for bytes
    // that are no character and characters the target lacks, -c and
    // //IGNORE, //TRANSLIT as its C.UTF-8 locale writes it, files in turn.
    r#"printf 'caf\xc3\xa9 \xe2\x80\x9cq\xe2\x80\x9d \xc3\x9f \xe2\x82\xac \xc5\x82 \xef\xac\x81 \xc2\xbd \xe6\x97\xa5\n' | iconv -f utf-8 -t ascii//TRANSLIT; echo "st $?"; printf 'caf\xc3\xa9\n' | iconv -f utf-8 -t ascii 2>&1; echo "st $?"; printf 'caf\xe9\n' | iconv -f latin1 -t utf-8 | od -c; printf '\x80\xa4\n' | iconv -f cp1252 -t utf-8; printf '\xa4\n' | iconv -f ISO-8859-15 -t UTF-8; printf '\xe9\n' | iconv -f utf8 -t latin1//TRANSLIT 2>&1 | od -c"#,
    r#"printf 'ab' | iconv -t utf-16 | od -An -tx1; printf 'ab' | iconv -f utf-8 -t UTF-32 | od -An -tx1; printf 'ab' | iconv -t UTF-16BE | od -An -tx1; printf '\xfe\xff\x00a\x00b' | iconv -f utf-16 -t utf-8; printf 'a\x00' | iconv -f utf-16 -t utf-8; printf '\xff\xfea\x00' | iconv -f utf-16le -t utf-8 | od -An -tx1; printf 'a\x00b' | iconv -f utf-16le -t utf-8 2>&1; echo " st $?""#,
    r#"printf 'a\xffb\n' | iconv -c -f utf-8 -t ascii; echo "st $?"; printf 'a\xffb\n' | iconv -f utf-8 -t ascii//IGNORE 2>&1; echo "st $?"; printf 'caf\xc3\xa9x\n' | iconv -f utf-8 -t ascii//IGNORE 2>&1; echo "st $?"; printf 'a\xc3' | iconv -f utf-8 -t ascii 2>&1; echo " st $?"; printf 'a\xffb\n' | iconv -f utf-8 -t utf-16le 2>&1 | od -c; echo x > i1; echo y > i2; iconv -f utf-8 -t ascii i1 nonexist i2 2>&1; echo "st $?"; iconv -f utf-8 -t ascii -o out i1 i2; cat out"#,
    // iconv into a set that keeps state between characters (ISO-2022-JP's
    // shifts): one shift per run of characters, back to ASCII at the end;
    // an unknown set writes nothing, status 1.
    r#"printf '\xe6\x97\xa5\xe6\x9c\xacx\xe6\x97\xa5\n' | iconv -f utf-8 -t ISO-2022-JP | od -An -c; printf '\xe6\x97\xa5' | iconv -f utf-8 -t ISO-2022-JP | od -An -c; iconv -f nope -t utf-8 < /dev/null; echo "st $?"; iconv -f utf-8 -t nope < /dev/null; echo "st $?""#,
    // locale: the variables as the environment settles them, the
    // locales and the C locale's keywords; argp's refusal.
    r#"unset LC_ALL; export LANG=C.UTF-8; locale; LANG= locale; LC_ALL=C locale; LC_TIME=C LC_NUMERIC=POSIX locale; locale -a; locale charmap; LANG=C locale charmap; locale -k decimal_point d_fmt grouping charmap; locale thousands_sep am_pm; locale nope decimal_point 2>&1; echo "st $?"; locale -x 2>&1; echo "st $?""#,
    // locale by category and by keyword, in both locales: every keyword
    // by name (from -k's own listing), -c's category lines, what names
    // before an unknown one wrote, -a -v.
    r#"unset LC_ALL; for l in C.UTF-8 C; do export LANG=$l; locale -ck LC_CTYPE LC_NUMERIC LC_TIME LC_COLLATE LC_MONETARY LC_MESSAGES LC_PAPER LC_NAME LC_ADDRESS LC_TELEPHONE LC_MEASUREMENT LC_IDENTIFICATION > all; wc -l < all; cat all; grep = all | cut -d= -f1 | while read k; do locale "$k"; done | md5sum; done; locale LC_PAPER; locale -c LC_NUMERIC decimal_point; locale era week-1stweek ctype-class-names; locale -k era; locale decimal_point nope grouping 2>&1; echo "st $?"; locale -a -v; locale -v LC_PAPER"#,
    // pr: pages with their headers (the file's time under -D's format),
    // trailers and form feeds; -t, -l, -h, -d, -n, -N, -o, +FIRST:LAST;
    // columns down (the last page balanced) and across, files side by
    // side, cut to their width and padded with tabs as GNU pads them;
    // -s, -S, -J, -w; an empty file, a missing one among others.
    r#"seq 3 > p3; touch -d '2020-01-02 03:04' p3; seq 25 > p25; touch -d '2021-05-06 07:08' p25; printf 'aaa\nbbb\n' > m1; printf '1\n2\n3\n' > m2; touch -d '2020-01-02 03:04' m1 m2; pr -t p3; pr p3 | head -8; pr -l 15 p25; pr -F -l 12 p3; pr -l 15 -h HDR -D X p25 | head -20; seq 10 | pr -t -3; seq 10 | pr -t -3 -s; seq 10 | pr -t -3 -a; printf 'hello world this is a long line\nb\n' | pr -t -2 -w 20; seq 5 | pr -t -2 -n; seq 5 | pr -t -o 3 -n:; pr -m -t m1 m2; pr -m -t -s, m1 m2; pr -m -t -S' | ' m1 m2; seq 7 | pr -t -3 -S'::'; printf 'a long line here\nb\n' | pr -t -2 -w 16 -J; seq 12 | pr -t -l 5 -2; printf 'a\tb\n' | pr -t -2; seq 3 | pr -t -d; seq 10 | pr -t -N 5 -n3 | head -3; printf 'a        b\nc\n' | pr -t -2; printf 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG\nc\n' | pr -t -2; printf 'ab\tc\n' | pr -t -2 -w 10; pr -l 20 +2:3 p25; pr -D '%Y' -l 14 -o 2 -h 'a title' p3; pr -d -l 16 p3; seq 100 | pr -4 -l 30 -D 'D'; pr -D D -l 12 p3 nope m1; echo "st $?"; pr -l 12 -D D /dev/null | wc -l"#,
    // pr's numbers in columns and side by side, double spacing in
    // columns, a first page past the end, GNU's refusals.
    r#"seq 20 > n; touch -d '2020-01-02 03:04' n; seq 9 | pr -t -3 -a -n; printf 'x\ny\n' > a; seq 3 > b; pr -m -t -n a b; seq 10 | pr -t -2 -d; pr -l 5 n | head -3; pr +9 -l 20 n; echo "st $?"; pr -D D -h 'a very long header that goes on and on and on past the width of it all' -l 12 n | head -4; pr -D D -w 30 -l 12 n | head -4; seq 8 | pr -t -4 -w 20; seq 8 | pr -t -3 -a -s:; seq 30 | pr -t -l 7 -3 -n2; pr -x n 2>&1; echo "st $?"; pr -l 2>&1; echo "st $?"; pr -l x n 2>&1; echo "st $?"; pr -0 n 2>&1; echo "st $?"; pr -w 0 n 2>&1; echo "st $?"; pr -m -2 a b 2>&1; echo "st $?""#,
    // look: util-linux's binary search, so an unsorted file gives what
    // its steps find; -d, -f, -t, the dictionary it lacks, its refusals.
    r#"sort data/words.txt > sorted; look ban sorted; echo "st $?"; look -f app sorted; look app sorted; echo "st $?"; look -t n bandx sorted; look -d 'ba-n' sorted; look -df APP sorted; look '' sorted | wc -l; look ch data/words.txt; echo "st $?"; look Da data/words.txt; echo "st $?"; look x nofile 2>&1; echo "st $?"; look 2>&1; echo "st $?"; look a 2>&1; echo "st $?""#,
    // csplit: GNU's procedure step by step — where a search starts after
    // a cut, offsets, {N} and {*}, %skips%, -z, -k, --suppress-matched,
    // -f/-n/-b names, and what an error leaves (sizes, messages, files).
    r#"seq 12 > n; printf 'a\nb\na\nc\na\nd\n' > f; show() { echo "st $?"; for x in xx* p*; do [ -e "$x" ] && printf '%s:%s|' "$x" "$(tr '\n' , < $x)"; done; echo; rm -f xx* p*; }; csplit f /a/ /a/; show; csplit f /a/ '{*}'; show; csplit n 4 '{1}'; show; csplit f 3 3 2>&1; show; csplit f /a/+1 /c/-1; show; csplit f %c%; show; csplit -z f /a/ '{*}'; show; csplit -s -f p -n 3 f /c/; show; csplit -b '%03x.txt' n 5 10; show; csplit --suppress-matched f /a/ '{*}'; show"#,
    r#"printf 'a\nb\na\nc\na\nd\n' > f; show() { echo "st $?"; for x in xx*; do [ -e "$x" ] && printf '%s:%s|' "$x" "$(tr '\n' , < $x)"; done; echo; rm -f xx*; }; csplit f 2 '{5}' 2>&1; show; csplit f /x/ 2>&1; show; csplit -k f /c/ /x/ 2>&1; show; csplit f /a/ '{3}' 2>&1; show; csplit f 7 2>&1; show; csplit f /a/-1 2>&1; show; : > e; csplit e 2 2>&1; show; csplit f 0 2>&1; show; csplit f 2>&1; show; csplit f /a 2>&1; show; csplit f 3 2 2>&1; show; csplit f /a/ '{x}' 2>&1; show; csplit f /a/x 2>&1; show; csplit f abc 2>&1; show; csplit f /a/ '{1}' '{1}' 2>&1; show; csplit nofile 2 2>&1; show"#,
    // awk's syntax errors as gawk reports them: the line, a caret under
    // where reading stopped (bytes, tabs kept), "syntax error" or
    // "unexpected newline or end of string" (shown under the next line's
    // number), strings and regexps left open, characters gawk does not
    // read, a -f file's name and line; status 1, nothing run.
    r#"for p in '{print $1' 'BEGIN { x = 1 +; y = 2 +; }' '{ print $1 }}' '{ if (x) }' 'BEGIN { x = 1 + foo( }' 'function f( { }' 'BEGIN { a[ = 1 }' "$(printf 'BEGIN {\tx = 1 +; }')" 'BEGIN { print "é" +; }' 'BEGIN { x = "abc }' 'BEGIN { x = /ab
c/ }' 'BEGIN {
  x = 1
  y = (2 +
}' 'BEGIN { x = 1
' 'BEGIN { x = 1 ` 2 }' 'BEGIN { x = 1 \ 2 }' 'BEGIN { x = 1 @ 2 }' 'BEGIN { x = 1 & 2 }' 'NR==1,{print}'; do echo a | awk "$p" 2>&1; echo "st $?"; done; printf 'BEGIN { print "ran" }\n{\n  x = 1 +;\n}\n' > p.awk; awk -f p.awk 2>&1; echo "st $?""#,
    // Where gawk takes a newline inside an expression (after `?`, `:`,
    // `&&`, `||` and a comma) and where it refuses one (after `=` or
    // `+=`, before `:`, before a call's `)`).
    r#"for p in 'BEGIN { x = 1 ?
 2 : 3; print x }' 'BEGIN { x = 1 ? 2
 : 3; print x }' 'BEGIN { x = 1 ? 2 :
 3; print x }' 'BEGIN { x =
 1; print x }' 'BEGIN { x +=
 1; print x }' 'BEGIN { print 1 &&
 1, 0 ||
 1 }' 'function f(a) { return a } BEGIN { print f(1
) }' 'BEGIN { print substr("abc", 2
) }' 'BEGIN { print substr("abc",
 2) }'; do awk "$p" 2>&1; echo "st $?"; done"#,
    // Where gawk stops at the end of a program: command-line text is read
    // as if a newline ended it; a -f file without a final newline gets
    // "(END OF FILE)", the caret under its last token (its last character
    // when that is a blank, a comment that runs to the end), on the next
    // line when a newline was not allowed there; a comment before a
    // newline that is not allowed is itself the syntax error.
    r#"for p in '{ x = ' 'BEGIN { x = 1 +' 'BEGIN { x = 1 + 2' "$(printf 'BEGIN {
	x = 1 +')" '{ x =  ' '{ y = 2  ' '{ x = # c' '{ x = 1 # c ' '{ print
}
{ x = ' 'BEGIN { x = 1 +   # c
 2 }' 'BEGIN { x = 1 # c
 y = # d
}' '{ x +=' 'BEGIN { if (x'; do printf '%s' "$p" > prog.awk; awk "$p" < /dev/null 2>&1; echo "st $?"; awk -f prog.awk < /dev/null 2>&1; echo "st $?"; done"#,
    // A rule left open after a comment: gawk's "(END OF FILE)" report,
    // the caret at the comment, with or without newlines after it.
    r#"for p in 'BEGIN { x = 1 # 2 }' '{ print # hello' 'BEGIN {
x = 1 # c' '{ print $1
# c
' 'BEGIN { x = 1 } # c' '{ # c
print $1'; do echo a | awk "$p" 2>&1; echo "st $?"; done"#,
    // awk's fatal errors name the statement's line (in a function, the
    // function's), the program file, and the input being read; a division
    // by a constant zero is refused as the program is read (status 1), as
    // is a program gawk cannot parse.
    r#"awk 'BEGIN { x = 1
y = 0
if (x)
   print x / y }' 2>&1; echo "st $?"; echo 1 | awk '{
printf "%d %d", $1
}' 2>&1; echo "st $?"; awk 'END{x=0; print 1/x}' data/numbers.txt 2>&1; awk 'BEGIN { f(1) }
function f(a) {
  x = 0
  return a / x
}' 2>&1; printf 'BEGIN {
 x = 0
 print 1%%x
}
' > p.awk; awk -f p.awk 2>&1; echo "st $?"; awk 'BEGIN{x=1; x /= 0}' 2>&1; awk 'BEGIN{x=1; print x % 0}' 2>&1; echo "st $?"; awk '
1/-0 { print }' data/numbers.txt 2>&1; echo "st $?"; awk 'BEGIN { print substr("abc" }' 2>/dev/null; echo "st $?""#,
    // tsort: GNU's order among the valid ones (items by byte order, a
    // successor released newest pair first), the loop it names and how it
    // breaks it, pairs of one name, tabs and newlines between tokens, its
    // refusals, and a folder, which GNU reads as empty input.
    r#"printf 'a b\nb c\n' | tsort; echo "b a c a d c d b e d" | tsort; printf 'x y\ty z\nz x p q q p\n' | tsort 2>&1; echo "st $?"; echo "1 2 2 3 3 1 3 4 4 5 5 3" | tsort 2>&1; echo "st $?"; echo "a a b" | tsort 2>&1; echo "st $?"; echo "a a" | tsort; printf 'z y\n' > pairs; tsort pairs; tsort - < pairs; tsort pairs extra 2>&1; echo "st $?"; tsort -x 2>&1; echo "st $?"; tsort missing 2>&1; echo "st $?"; : | tsort; echo "st $?"; mkdir -p folder; tsort folder 2>&1; echo "st $?""#,
    // getconf: the values the sandbox shares with this machine, path
    // values, and glibc's refusals (processor counts are the sandbox's).
    r#"for v in ARG_MAX PAGE_SIZE PAGESIZE LONG_BIT CHAR_BIT INT_MAX UINT_MAX PATH CLK_TCK LINE_MAX HOST_NAME_MAX LOGIN_NAME_MAX GNU_LIBC_VERSION _POSIX_VERSION; do echo "$v=$(getconf $v)"; done; getconf NAME_MAX /; getconf PATH_MAX .; getconf NAME_MAX 2>&1; echo "st $?"; getconf NOPE 2>&1; echo "st $?"; getconf 2>&1; echo "st $?"; getconf ARG_MAX x 2>&1; echo "st $?"; getconf NAME_MAX /nonexist 2>&1; echo "st $?""#,
    // dd: blocks in and out (whole and partial records), its numbers,
    // skip/seek/count in blocks or bytes, conversions, the output file
    // kept or cut, devices, and GNU's refusals (no times: status=noxfer;
    // from a pipe GNU's reads can come up short, so those ask for
    // fullblock, which is how goccia always reads).
    r#"for c in "dd if=/dev/zero bs=1 count=3 of=/dev/null status=noxfer" "dd foo" "dd bs=x" "dd bs=0" "dd if=nosuch" "dd conv=bogus" "dd status=bogus" "dd iflag=bogus" "dd if=/dev/zero count=1 bs=2x3 status=none | wc -c" "dd if=/dev/zero count=1 bs=1w status=none | wc -c" "dd if=/dev/zero count=1 bs=1k status=none | wc -c"  "dd if=/dev/zero count=1 bs=1kB status=none | wc -c" "dd if=/dev/zero count=1 bs=1KiB status=none | wc -c" "echo abcdefgh | dd ibs=3 obs=2 status=noxfer" "echo abcdefgh | dd bs=3 conv=sync status=noxfer | od -c" "echo hello | dd conv=ucase status=noxfer" "printf 'abcd' | dd conv=swab status=noxfer" "echo abc | dd skip=1 bs=1 status=noxfer" "echo abc | dd iflag=skip_bytes skip=2 status=noxfer" "echo abcdef | dd iflag=count_bytes count=2 status=noxfer" "dd if=/dev/zero bs=1M count=2 status=none | wc -c" "dd if=/dev/urandom bs=16 count=1 status=none | wc -c" "printf 0123456789 > f; printf AB | dd of=f bs=1 seek=3 conv=notrunc status=none; cat f; echo" "printf 0123456789 > g; printf AB | dd of=g bs=1 seek=3 status=none; cat g; echo" "printf 0123 > h; printf AB | dd of=h oflag=append conv=notrunc status=none; cat h; echo" "printf AB | dd of=new bs=2 seek=2 status=none; od -c new" "printf x | dd of=README.md conv=excl 2>&1" "printf x | dd of=nope conv=nocreat 2>&1" "dd if=README.md bs=4 count=2 status=none" "dd if=README.md of=copy status=none; cmp README.md copy && echo same" "yes | dd bs=10 count=2 iflag=fullblock status=none" "dd if=/dev/zero bs=1 count=0 status=noxfer" "seq 1000 | dd bs=100 skip=2 count=1 iflag=fullblock status=none | head -2" "dd if=data/words.txt ibs=4 obs=7 status=noxfer | od -c | head -2"; do bash -c "$c" 2>&1; echo "st $?"; done"#,
    // gawk: octal source constants, BEGINFILE and ENDFILE (with nextfile),
    // and FILENAME `-` once standard input is the main input.
    r#"for n in 017 018 0 00 0.5 017.5 08 007e1 0x1f 1e3; do awk "BEGIN{print $n}"; done; awk 'BEGIN{print 017, 0x11, "0x11"+0, "017"+0, "1e3"+0, ".5"+0, "+3"+0}'; printf '1\n2\n' > a.txt; printf 'x\n' > b.txt; awk 'BEGINFILE { print "file:", FILENAME, FNR } { print } ENDFILE { print "lines:", FNR }' a.txt b.txt; printf '1\n2\n' | awk 'BEGINFILE { print "file:[" FILENAME "]", FNR } ENDFILE { print "end:", FNR }'; awk 'BEGINFILE { print "bf", FILENAME; if (FILENAME ~ /a/) nextfile } { print } ENDFILE { print "ef", FILENAME, FNR }' a.txt b.txt; awk 'BEGINFILE { print "only" }' /dev/null; echo x | awk 'ENDFILE { print "e", NR }'; echo x | awk '{print "[" FILENAME "]"} END {print "[" FILENAME "]"}'; awk 'END{print "[" FILENAME "]", NR}' < /dev/null; awk 'BEGIN{print "[" FILENAME "]"}'; awk '{nextfile} ENDFILE{print FILENAME, FNR}' a.txt b.txt"#,
    // base32 (new) and base64 decoding as GNU reads it: a group at a
    // time, what came before a bad group written before the complaint.
    r#"base32 <<< hi; printf 'hello world, this is long enough to wrap at seventy-six characters for sure' | base32; base32 -w 10 README.md; base32 README.md | base32 -d; echo NBUQU=== | base32 -d; echo 'bad!' | base32 -d 2>&1; echo "st $?"; echo NBUQU | base32 -d 2>&1; echo "st $?"; echo 'NB!UQU===' | base32 -di; printf '' | base32; base32 nosuch 2>&1; echo "st $?"; base64 <<< hi; echo aGk | base64 -d; echo; echo 'aGk' | base64 -d 2>&1 | od -c; echo 'aGVsbG8' | base64 -d 2>&1; echo " st $?"; echo 'aGVs!bG8=' | base64 -d 2>&1; echo " st $?"; echo 'NBUQU' | base32 -d 2>&1 | od -c; echo 'NBUQU===NBUQU===' | base32 -d | od -c; echo 'aGk=aGk=' | base64 -d 2>&1; echo " st $?"; echo 'NBSWY3DPNB!' | base32 -d 2>&1"#,
    // date's operand rules and messages, GNU's quotes.
    r#"for c in "date -d garbage" "date +%Y extra" "date -u -d 2024-01-01 +%Y foo" "date foo" "date -d 2024-02-30" "date -d now foo" "date foo bar" "date +%Y +%m" "date -r README.md foo" "date -u foo"; do $c 2>&1; echo "st $?"; done"#,
    // Letter case one character for one, as glibc's towupper changes it
    // (ß and ﬁ stay, İ lowers to i, a final Σ is σ): bash, sed and awk.
    r#"s=straße; echo ${s^^} ${s^}; t=ΟΔΟΣ; echo ${t,,}; declare -u u=ﬁx; echo $u; echo straße İx | sed 's/.*/\U&/; s/İ/\l&/'; echo 'ÀBC İ straße' | awk '{print tolower($0), toupper($0)}'; v=İSTANBUL; echo ${v,,} ${v@L}"#,
    // sed's a, i, c: a bare `a\` at the end of the script adds nothing
    // but the newline a last line lacks; appended text after a last line
    // without its newline (or NUL, with -z) gets it first.
    // Whether what sed prints ends with a newline when the input's last
    // line had none: `p`, `P`, `s///p` as that line ended (the next
    // output adds the newline first), `q` always, `n`/`N` at the end not,
    // and the flag travels with the text between the pattern and hold
    // spaces (`x`, `g`, `G`, `h`, `H`; the hold space starts with one).
    r#"for c in "sed -n '\$p;\$p'" "sed p" "sed -n P" "sed -n 's/a/b/p'" "sed 'N;P'" "sed '\$='" "sed -n '\$l'" "sed G" "sed 's/\$/x/'" "sed 'x;G'" "sed 'H;x'" "sed 'h;G'" "sed N" "sed '\$!N'" "sed -n 'h;x;p'" "sed x" "sed 'G;s/\n//'" "sed n" "sed g" "sed '1h;1d;G'" "sed q" "sed -n '\$!{h;d};x;G;p'"; do printf 'a' | bash -c "$c" | od -c; printf 'a\nb' | bash -c "$c" | od -c; done; printf 'a\nb' > f1; printf 'c\n' > f2; sed '' f1 f2 | od -c; sed -s '$a x' f1 f2 | od -c; sed '$r f2' f1 | od -c; cp f1 g1; cp f1 g2; sed -i 'p' g1 g2; od -c g1; od -c g2"#,
    r#"printf 'a\nb' | sed '$a\' | od -c; printf 'a\nb\n' | sed '$a\' | od -c; printf 'a\nb\n' | sed 'i\' | od -c; printf 'a\nb\n' | sed 'c\' | od -c; printf 'a\nb' | sed '$a foo' | od -c; printf 'x\ny\n' | sed -z 'a foo' | od -c; printf 'a\nb\n' | sed '1a\
' | od -c; printf 'a\nb' | sed -n '$a end' | od -c; printf 'a\nb' | sed '$q' | od -c"#,
];
