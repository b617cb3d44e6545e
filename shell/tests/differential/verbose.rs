//! What people type with `find … | xargs …` and friends (issue 49, items
//! 2 and 4): verbose and report flags as GNU words them, xargs's
//! clustered and old-style options, `head` with a negative count, `ln -v`,
//! `gzip -v`, `chown -v`/`chgrp -v`, `ls -l`/`-s`/`-n`/`-g`/`-o` columns, `diff -c` and headers, `join`'s
//! options, and
//! `patch FILE` (item 7), `diff -y` (item 4).
//! `2>&1` where the message is the behaviour.

pub const CASES: &[&str] = &[
    // chmod -v / -c: changed and retained, recursive names as given.
    r#"chmod -v 600 data/words.txt; chmod -v 600 data/words.txt; chmod -c 600 data/words.txt; chmod -c u+x data/words.txt; echo "st $?""#,
    // (one file a folder: GNU walks a folder in the order the file system
    // lists it, which differs from one file system to the next)
    r#"mkdir -p t/u; touch t/u/f; chmod -Rv go-r t; chmod -R -c 755 t/; chmod -vc a+rwx,o-w data/numbers.txt; chmod -v 4755 data/numbers.txt; chmod -v 1777 notes"#,
    r#"chmod -v 600 nosuch data/words.txt 2>&1; echo "st $?"; chmod -fv 600 nosuch; echo "st $?""#,
    // chown/chgrp -v and -c (the oracle runs as root, which owns its
    // files, and every name is the sandbox user's owner: "retained" in
    // both), -R reporting a folder after its contents, what is missing.
    r#"mkdir -p e/s; touch f e/s/a e/b; chown -v root f; chown -c root f; chown -vR root e; chgrp -v root f; chown -v root:root f; chown -v '' f; chown -vc root f; chown -cv root f"#,
    r#"chown -v root nosuch f 2>&1; echo "st $?"; chown -fv root nosuch; echo "st $?"; chgrp -v root nosuch 2>&1; chown -v --reference=nosuch f 2>&1; echo "st $?"; chown 2>&1; chown root 2>&1; chown -x root f 2>&1; echo "st $?"; chown --bogus root f 2>&1; echo "st $?""#,
    // ls -n, -g, -o: the long form, numbers for names, without the owner
    // or the group (the columns that name an owner are left out).
    r#"touch -d '2024-01-02 03:04:05' data/*; ls -go data; ls -n data/words.txt | cut -d' ' -f1,2,5-; ls -lo notes | cut -d' ' -f1,2,4-; ls -g notes | cut -d' ' -f1,2,4-"#,
    // ls's long options and the letters people alias: word options as
    // the letters they stand for (the last indicator and layout win),
    // time styles, names hidden by pattern, -Q, widths, sorting by
    // extension, version and width, folders first; and GNU's refusals.
    r#"touch -d '2024-03-04 05:06:07' data/* src/* notes/*; ls --color=never data; ls --color -1 src; ls --col=auto data; ls -go --time-style=long-iso data; ls -go --full-time data/words.txt; ls -go --time-style=+%Y/%m data; ls -go --time-style=iso data; ls -go --time-style=posix-long-iso notes; ls -Q src; ls -goQ notes; ls -N data"#,
    r#"touch a.tar.gz b.c c a.b 'x 10' 'x 9' 'x~' .y~; ls -X; ls -v; ls --sort=extension; ls --sort=width; ls -1U data | sort; ls -B; ls -aB; ls -I '*.c' -I 'x*'; ls -aI '.*' notes; ls --hide='*.b'; ls -A --hide='*.b'; ls --group-directories-first; ls -rX"#,
    r#"ls -x -w 25 data; ls -C -w 0 data; ls -w 40 -C src data; ls --format=commas data; ls --format=across data; ls --format=single-column src; ls --format=long -go data | head -2; ls -pF src; ls -Fp src; ls --indicator-style=slash src; ls -F --indicator-style=none src; ls --file-type src; ls -G -1 data; ls -k -s data; ls -L src"#,
    r#"ls --format=bogus data 2>&1; echo "st $?"; ls --sort=bogus data 2>&1; echo "st $?"; ls --time-style=bogus -l data 2>&1; echo "st $?"; ls --color=sometimes data 2>&1; echo "st $?"; ls -w x data 2>&1; echo "st $?"; ls --indicator-style=bogus 2>&1; echo "st $?"; ls --format 2>&1; echo "st $?"; ls -T data 2>&1; echo "st $?""#,
    // Version order (sort -V, ls -v): gnulib's, `~` first, suffixes last.
    r#"printf '%s\n' 'x~' 'x 9' 'x 10' c a1.2.tar.gz a1.10.tar.gz a1.2 a1.2~rc1 .hidden ..x . .. 1.0 1.0a 1.0~beta 1.0.1 foo-1.2.3.tgz foo-1.10.tgz foo.txt foo10 foo9 a.b.c abc~ a-b a_b A B 007 7 README.md readme.txt | sort -V; printf 'v1.10\nv1.9\nv1.9.1\n' | sort -rV"#,
    // cp -rv names everything it makes inside a folder, not the folders
    // that were there (one entry per folder: GNU lists a folder in the
    // order the file system gives).
    r#"mkdir -p s/sub; touch s/sub/b; cp -rv s d; cp -rv s d; mkdir e; cp -rv s/ e/; cp -rv s/. f; mkdir -p d2/s/sub; cp -rv s/. d2/s; cp -rv s d2 2>&1; cp -v s x 2>&1; echo "st $?""#,
    // diff -s says when files are the same (not a folder with itself);
    // cmp -l pads byte numbers to the smaller size's digits (a stream's
    // as the largest offset) and says where one file ended.
    r#"diff -s README.md README.md; diff -sq README.md README.md; diff -rs src src; diff -s data/words.txt data/numbers.txt | head -2; diff -s -u README.md README.md; cp -r src s2; diff -rs src s2; echo "st $?""#,
    r#"printf 'abc\n' > c1; printf 'abd\n' > c2; seq 1000 > c3; seq 1000 | sed 's/5/6/' > c4; cmp -l c1 c2; cmp -l c3 c4 | head -2; cmp -l c1 c4 2>&1 | head -3; cat c1 | cmp -l - c2; cmp -l c1 c1; echo "st $?"; cmp -l <(echo ab) <(echo ac); printf abc > c5; cmp -l c5 c1 2>&1; echo "st $?""#,
    // install: 0755 unless -m (symbolic from nothing), -D and -d making
    // folders (named as written), -t, -T, -C, -v's removed/copied lines,
    // and GNU's refusals.
    r#"echo hi > f; echo ho > g; install -v f a; ls -l a | cut -c1-10; install -v -m 644 f b; ls -l b | cut -c1-10; install -vD f x/y/z; install -vd d1 d2/e; ls -ld d1 d2/e | cut -c1-10; mkdir t; install -v f g t; install -v -t t f; install -d -m 700 p; ls -ld p | cut -c1-10; install -v f t/; install -vC f a; install -vp f pp; install -o root -g root f og; install -Dv f t/n/m; install -vdm755 q/r; install -m u+x f ux; ls -l ux | cut -c1-10; cmp f a && echo same"#,
    r#"echo hi > f; echo ho > g; mkdir t d1; install f 2>&1; echo "st $?"; install nosuch q 2>&1; echo "st $?"; install -m 999 f h 2>&1; echo "st $?"; install f g nodir 2>&1; echo "st $?"; install -d 2>&1; echo "st $?"; install -v d1 z 2>&1; echo "st $?"; install -T f t 2>&1; echo "st $?"; install f f2 g 2>&1; echo "st $?"; install -x f y 2>&1; echo "st $?""#,
    // gzip -l (-v, -q, totals, stdin), and what gunzip and zcat say as
    // the `gzip -d` they are: `x` means `x.gz`, an unknown suffix is a
    // warning (2, outranked by an error), "not in gzip format" after an
    // empty line, `stdin` for standard input.
    // zlib's deflate is GNU gzip's and Info-ZIP's for small inputs: the
    // same bytes at every level, the same ratios, the same choice to store.
    r#"for level in 1 3 6 9; do gzip -n -$level -c README.md | md5sum; seq 1500 | gzip -n -$level | md5sum; done; touch -d '2024-03-04 05:06:07' src/*.rs src/util/*; tar --sort=name --owner=0 --group=0 -czf - src | md5sum; mkdir z; cd z; printf 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n' > lib.rs; seq 300 > n; echo hi > h; zip -r ../z.zip . 2>&1 | sort; zip -9 ../z9.zip n 2>&1; gzip -v lib.rs n 2>&1"#,
    r#"cp data/words.txt w; cp data/numbers.txt r; touch -d '2024-03-04 05:06:07' w r; gzip w r; printf '' | gzip > e.gz; echo x > plain; touch -d '2024-03-04 05:06:07' w.gz r.gz e.gz plain; gzip -l w.gz; gzip -l w.gz r.gz; gzip -lv w.gz; gzip -lq w.gz r.gz; gzip -l nosuch.gz 2>&1; echo "st $?"; gzip -l plain 2>&1; echo "st $?"; cat w.gz | gzip -l; gzip -lv w.gz r.gz; gzip -l e.gz; gzip --list w.gz plain r.gz 2>&1; echo "st $?""#,
    r#"gzip -c data/words.txt > w.gz; echo x > plain; cp plain p2; gunzip p2 2>&1; echo "st $?"; cp w.gz w2.gz; gunzip w2; echo "st $?"; ls w2*; gzip -d nosuch 2>&1; gzip nosuch 2>&1; echo "st $?"; cat plain | gunzip 2>&1; echo "st $?"; gunzip -c w.gz plain 2>&1; echo "st $?"; zcat plain 2>&1; gunzip -x 2>&1; echo "st $?"; cp plain p3; gunzip p3 nosuch 2>&1; echo "st $?"; zcat <(gzip -c data/words.txt); gunzip -c < w.gz | head -1"#,
    // rm -i and -I ask on stderr and read the answers from stdin (none
    // left: no); the last of -f, -i and -I decides; a folder that kept
    // something is left without a question; -d on a full folder. (Each
    // folder holds one entry: GNU asks in the file system's order.)
    r#"mkdir -p d/e/s empty; echo x > d/e/s/f; echo y > g; : > z; ln -s g l; for c in "rm -i g" "rm -i z" "rm -i l" "rm -ri d" "rm -ri empty" "rm -di empty" "rm -i d" "rm -I g z l empty" "rm -rI d" "rm -rI d g" "rm -d d"; do printf 'n\n' | $c 2>&1; echo "st $?"; done; ls -A; printf 'y\ny\ny\nn\n' | rm -riv d 2>&1; echo "st $?"; find d | sort; printf 'y\ny\ny\ny\ny\n' | rm -riv d 2>&1; echo "st $?"; rm -I g z l; echo "st $?"; ls -A; echo y > a; rm -if a; ls a 2>&1; rm -fi nosuch 2>&1 < /dev/null; echo "st $?"; echo a > b; rm -iv b < /dev/null 2>&1; echo "st $?"; yes | rm -iv b 2>&1; echo "st $?"; ls -A; mkdir -p d1 && echo x > d1/f && printf 'y\nn\ny\n' | rm -ri d1 2>&1; echo " st $?"; mkdir -p d2/e && printf 'y\nn\ny\n' | rm -ri d2 2>&1; echo " st $?"; mkdir -p d3/e/s && echo x > d3/e/s/f && printf 'y\ny\ny\nn\ny\ny\ny\n' | rm -ri d3 2>&1; echo " st $?"; find d1 d2 d3 | sort"#,
    // mkdir and chmod refusals in GNU's words and quotes: the name on the
    // way that is not a folder, a bad -m checked first, chmod's operands.
    r#"touch f; mkdir -p a; touch a/f; for c in "mkdir f" "mkdir -p f/x" "mkdir f/x" "mkdir nosuch/x" "mkdir" "mkdir -p f" "mkdir -p a/f/x/y" "mkdir -p ./a/f/x" "chmod 999 f" "chmod u+q f" "chmod" "chmod 644" "chmod 644 nosuch" "mkdir -m 999 q"; do $c 2>&1; echo "st $?"; done; ls -d q 2>&1"#,
    // cp -u and mv -u leave a destination at least as new as the source.
    r#"echo new > s; echo old > d; touch -d '2024-01-02 03:04:05' s d; cp -u s d; cat d; touch -d '2024-01-03' s; cp -uv s d; cat d; echo x > m; echo y > n; touch -d '2024-01-01' m; mv -u m n; cat n; ls m; cp -u s fresh; cat fresh"#,
    // cp and mv set a file they replace aside (-b, --backup=CONTROL, -S,
    // VERSION_CONTROL, SIMPLE_BACKUP_SUFFIX); -p, -a and --preserve keep a
    // file's time.
    r#"mkdir w; cd w; for c in "cp -b a b" "cp --backup a b" "cp --backup=numbered a b; cp --backup=numbered a b" "cp --backup=existing a b" "cp -b -S .bak a b" "cp --backup=t a c" "mv -b a b" "cp --backup=bogus a b" "cp -bv a b" "mv -bv a b" "cp -b a newfile" "cp --suffix=.old a b" "cp -r --backup d e" "cp -b a a" "cp --backup=none a b" "cp --backup=numbered a b; cp -b a b" "VERSION_CONTROL=numbered cp -b a b" "SIMPLE_BACKUP_SUFFIX=.orig cp -b a b" "cp -bv a e/" "cp -b a b; cp -b a b; cat b~"; do rm -rf a b c d e newfile b* p*; echo A > a; echo B > b; mkdir d e; echo x > d/x; echo y > e/x; bash -c "$c" 2>&1; echo "rc $?"; ls -A | tr '\n' ' '; ls e 2>/dev/null | tr '\n' ' '; echo; done; touch -d '2020-01-02 03:04:05' a; cp -p a p1; cp -a a p2; cp a p3; cp --preserve a p4; stat -c '%n %Y' a p1 p2 p4"#,
    // chmod --reference, and ln's word for a target it cannot reach.
    r#"mkdir w; cd w; touch a b; chmod 751 a; chmod --reference=a b; stat -c %a b; chmod 600 b; chmod --reference a b; stat -c %a b; chmod --reference=nosuch b 2>&1; echo "st $?"; chmod --reference=a 2>&1; echo "st $?"; chmod -v --reference=a b 2>&1; ln nosuch x 2>&1; echo "st $?""#,
    // gzip -t tests each archive and writes nothing; a stream cut short
    // (or too short to tell) is "unexpected end of file".
    r#"mkdir w; cd w; echo hi | gzip > ok.gz; printf 'x' > bad; printf 'not gzip data\n' > plain; cp ok.gz trunc.gz; truncate -s 15 trunc.gz; for c in "gzip -t ok.gz" "gzip -tv ok.gz" "gzip -t bad" "gzip -t trunc.gz" "gzip -t plain" "gzip -t nosuch" "gzip -t < ok.gz" "gzip -tv ok.gz bad" "gunzip -t ok.gz" "gzip -d trunc.gz"; do bash -c "$c" 2>&1; echo "st $?"; done; ls"#,
    // ls --block-size (units rounded up, the unit's name when given
    // without digits), --si, and LS_BLOCK_SIZE/BLOCK_SIZE.
    r#"mkdir w; cd w; seq 3000 > big; echo x > s; touch -d '2024-01-02 03:04:05' big s; for b in K M 1 1K KB bogus 512 KiB MB 2K k G si human-readable 0 1KB; do ls -sgo --block-size=$b 2>&1; echo "st $?"; done; ls -go --si; ls -sgo -h; ls -go -k; ls -go -h --block-size=K; ls -go --block-size=K -h; BLOCK_SIZE=K ls -go; LS_BLOCK_SIZE=M BLOCK_SIZE=K ls -go; BLOCK_SIZE=bogus ls -sgo; BLOCK_SIZE=0 ls -s"#,
    // rmdir -v, with -p naming each parent as written.
    r#"mkdir -p a/b/c; rmdir -v -p a/b/c; ls -d a 2>&1; mkdir -p x/y; touch x/f; rmdir -pv x/y 2>&1; echo "st $?"; ls x"#,
    r#"mkdir -p q/r/; rmdir -v q/r/; mkdir -p m/n; touch m/keep; rmdir -p -v --ignore-fail-on-non-empty m/n; echo "st $?"; ls m"#,
    // xargs: clustered flags, -i and -l, -t tracing to stderr, -r.
    r#"printf 'x\0y z\0' | xargs -r0 echo got; printf '' | xargs -r echo nothing; echo "st $?"; printf 'a\nb\n' | xargs -i echo "[{}]""#,
    r#"printf 'a\nb c\nd\n' | xargs -l echo line; printf 'a\nb\n' | xargs -iX echo X-X; printf '1 2 3 4 5\n' | xargs -rn2 echo; printf 'a b\n' | xargs -t echo 2>&1"#,
    r#"printf 'k\n' | xargs -tI{} echo '<{}>' 2>&1; printf 'a b c\n' | xargs -tn1 echo 2>&1; echo x | xargs -z echo 2>&1; echo "st $?""#,
    // -d: only the delimiter ends an item (a last newline stays in the
    // last item); an unmatched quote with nothing before it runs nothing.
    // (GNU's complaint races the command it started for the items before
    // the quote, so there only the output and status are compared.)
    r#"echo 'a b c' | xargs -d' ' -n1 | od -c; printf 'a,b\n' | xargs -d, echo | od -c; printf 'a,b,\n' | xargs -d, -n1 echo | od -c; printf "it's\n" | xargs echo 2>&1; echo "st $?"; printf "a\nit's\nb\n" | xargs echo 2>/dev/null; echo "st $?"; echo nosuchcmd | xargs -I{} {} 2>&1; echo "st $?"; echo a | xargs -I{} nosuch{} 2>&1; echo a | xargs nosuch 2>&1"#,
    // xargs -E/-e: input ends at that word; no effect with -0 (a warning).
    r#"printf 'a b STOP c\nd\n' | xargs -E STOP echo; printf 'l1\nl2\n' | xargs -E l2 echo; printf 'a\nSTOP\nb\n' | xargs -eSTOP echo; printf 'x y\n' | xargs -E '' echo; printf 'a\0END\0b\0' | xargs -0 -E END echo 2>&1"#,
    // awk prints an integral number as an integer, however large (gawk).
    r#"awk 'BEGIN { print 1e17, -1e17, 1e30, 2^63, 2^53 + 1, 1e16 * 10, 0.1 * 3, 123456789012; OFS = "-"; $0 = "a b c"; $1 = $1; print }'"#,
    // head: all but the last lines or bytes.
    r#"seq 7 | head -n -5; seq 3 | head -n -5; echo "st $?"; printf 'abcdef' | head -c -2; echo; head -n -2 data/words.txt; seq 12 | head -3"#,
    // patch FILE < PATCH and patch FILE PATCHFILE: the file named, whatever the patch names.
    r#"sed 's/an/AN/' data/words.txt > w2; diff -u data/words.txt w2 > p.diff; cp data/words.txt mine; patch mine < p.diff; echo "st $?"; cat mine; cp data/words.txt other; patch -s other p.diff; echo "st $?"; diff other w2 && echo same"#,
    r#"printf 'a
b
' > f; printf 'a
B
' > g; diff -u f g > p.diff; cp f x; patch x p.diff extra 2>/dev/null; echo "st $?"; cat x"#,
    // diff -y: GNU's columns, marks, tabs, widths, and its options.
    r#"printf 'a\nb\ncommon\nx\tTab\nlonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglonglong line\nend\n' > d1; printf 'a\nc\ncommon\nnew1\nnew2\nx\tTab\nend\nextra' > d2; diff -y d1 d2; echo "st $?"; diff -y -W 60 d1 d2; echo "st $?"; diff -y --width=40 d2 d1"#,
    r#"printf 'a\nb\nc\n' > d1; printf 'a\nB\nc\nd\n' > d2; diff -y --suppress-common-lines d1 d2; diff -y --left-column d1 d2; diff -y d1 d1; echo "st $?"; printf '\n\nq\n' > e1; printf '\nz\n' > e2; diff -y e1 e2; diff -y -W 0 d1 d2 2>/dev/null; echo "st $?""#,
    // diff: unified and context headers with the files' times, -c and
    // -C N hunks, clustered flags (-Naur, -qr), the `diff …` line of a
    // recursive comparison, a last line without its newline.
    r#"printf 'a\nb\n' > x; printf 'a\nc\n' > y; touch -d '2024-01-02 03:04:05' x; touch -d '2025-06-07 08:09:10' y; diff -u x y; diff -c x y; echo "st $?"; diff --label A --label B -c x y; seq 1 20 > s1; seq 1 20 | sed 's/^5$/five/; s/^15$/fifteen/; 18d' > s2; printf 'new\n' >> s2; diff -c s1 s2 | tail -n +3; diff -C 1 s1 s2 | tail -n +3; diff -U1 s1 s2 | tail -n +3; : > empty; diff -c empty x | tail -n +3; diff -c x empty | tail -n +3; printf 'a\nb' > nonl; diff -c x nonl | tail -n +3; diff -u x nonl | tail -n +3; diff x nonl; diff -C x x y 2>&1; echo "st $?"; diff -Uy x y 2>&1; diff --context=z x y 2>&1; diff --unified=2 x y | tail -n +3"#,
    r#"mkdir d1 d2; printf 'a\nb\n' > d1/f; printf 'a\nc\n' > d2/f; echo only > d1/g; touch -d '2024-01-02 03:04:05' d1/f d2/f d1/g; diff -ru d1 d2; echo "st $?"; diff -Naur d1 d2; echo "st $?"; diff -r d1 d2; diff -qr d1 d2; echo "st $?"; diff -r -c d1 d2 | head -3"#,
    // join: -o auto with -e, -j, -i, the order flags, unpaired lines.
    r#"printf '1 a\n2 b\n4 d\n' > l; printf '1 x\n3 y\n4 z\n' > r; join -o auto -a1 -e - l r; join -o auto -a2 -e 0 l r; join -a1 -a2 -e NULL -o 0,1.2,2.2 l r; join -v2 l r; printf 'b 1\na 2\n' > u; join --nocheck-order u u; join --check-order l r; printf 'id name\n1 ann\n' > h1; printf 'id age\n1 30\n' > h2; join -j 1 h1 h2; printf 'A 1\nb 2\n' > c1; printf 'a x\nB y\n' > c2; join -i c1 c2; join -t, -o 1.1,2.2 <(printf '1,a\n') <(printf '1,x\n')"#,
    // touch -d with a fraction of a second, stat showing it; a date touch
    // cannot read is an error and creates nothing.
    r#"touch -d '2025-06-07 08:09:10.5' y; stat -c '%y %Y' y; find y -printf '%T@\n'; touch -d '2024-01-02 03:04:05.123456789' z; stat -c '%y' z; touch -d bogus q 2>&1; echo "st $?"; ls q 2>&1"#,
    // cp -v and mv -v, and a copy onto itself through its folder.
    r#"cp -v data/words.txt w2; mv -v w2 w3; rm -v w3; mkdir -v -p d1/d2; touch q; cp q q 2>&1; cp q ./ 2>&1; echo "st $?""#,
    // ln -v: a hard link reported with =>, a symbolic one with ->.
    r#"ln -v data/words.txt hard; ln -sv data/words.txt soft; mkdir into; ln -v data/words.txt data/numbers.txt into; ls into; cmp hard data/words.txt && echo same"#,
    // ls -l: link counts of folders, columns as wide as the widest; -s
    // and -sh blocks of a 4 KiB-block file system, with totals. (The
    // oracle runs as root: its owner columns are renamed.)
    r#"seq 10000 > big; mkdir -p sub/deeper sub/other; ls -l big data/words.txt README.md | sed 's/root root/user user/' | cut -c1-32; ls -ld sub src data | cut -c1-12; ls -s big data; ls -sh big README.md; ls -ls src | sed 's/root root/user user/' | cut -c1-34; ls -lh big | sed 's/root root/user user/' | cut -c1-26; stat -c '%h %n' sub src big; du -s sub"#,
    // gzip of a redirected regular file stores its time (no name), of a
    // pipe none, with -n none.
    r#"seq 10 > g.txt; touch -d '2024-01-02 03:04:05' g.txt; gzip < g.txt | od -A d -t x1 | head -1; cat g.txt | gzip | od -A d -t x1 | head -1; gzip -n < g.txt | od -A d -t x1 | head -1; gzip -c - < g.txt | od -A d -t x1 | head -1; gzip -N < g.txt | od -A d -t x1 | head -1"#,
    // gzip -v: the ratio of the deflate stream, and what became of the file.
    r#"seq 1000 > n; printf abc > s; : > e; gzip -v n s e 2>&1; gzip -dv n.gz 2>&1; gzip -kv n 2>&1; gzip -cv n 2>&1 >/dev/null; gzip -dcv n.gz 2>&1 >/dev/null; gzip -v < n 2>&1 >/dev/null; gunzip -v s.gz 2>&1; ls"#,
    // xargs -s: runs as long as the size allows; GNU's refusals of a
    // size nothing fits in (and of -s 0, after which it goes on).
    r#"seq 10 | xargs -s 12 echo; seq 3 | xargs -s 3 echo 2>&1; echo "st $?"; echo aaaaaaaaaaaa | xargs -s 10 echo 2>&1; echo "st $?"; seq 3 | xargs -s 0 echo 2>&1; echo "st $?"; seq 5 | xargs -x -n 2 -s 8 echo 2>&1; echo "st $?"; seq 5 | xargs -n 2 -s 8 echo 2>&1; echo "st $?""#,
    // An unmatched quote: the items before it run, then status 1.
    // (GNU xargs writes its message while the command it started may be
    // writing: the two streams are kept apart, or the order is a race.)
    r#"echo 'a "b c' | xargs 2>err; echo "st $?"; cat err; echo "a 'b" | xargs 2>err; echo "st $?"; cat err; printf 'a "b\nc" d\n' | xargs 2>err; echo "st $?"; cat err"#,
    // A command that is not there; 255 aborts; other failures are 123.
    r#"seq 3 | xargs nonexistent-cmd 2>&1; echo "st $?"; seq 3 | xargs sh -c 'exit 3'; echo "st $?"; seq 3 | xargs -n1 sh -c 'echo $0; exit 255' 2>&1; echo "st $?""#,
    // -a reads the items from a file; long options with `=`, by prefix.
    r#"xargs -a notes/todo.txt echo; xargs --arg-file=notes/todo.txt -n1 echo | head -2; xargs -a nope echo 2>&1; echo "st $?"; seq 4 | xargs --max-lines=2 echo; seq 3 | xargs --replace echo x{}; seq 3 | xargs --replace=Z echo xZ; seq 2 | xargs --max-args=1 --verbose echo 2>&1; seq 3 | xargs --verb echo 2>&1; seq 3 | xargs --no-run-if-empty --max-procs=2 -n1 echo | sort"#,
    // Refusals, GNU's words and statuses; -p has no terminal to ask on.
    r#"for o in -n '-n 0' '-n x' '-P x' --foo --max --verbose=1; do seq 3 | xargs $o echo 2>&1; echo "st $?"; done; seq 3 | xargs -p echo 2>&1; echo "st $?""#,
    // Flags head and tail do not have (tail -r is BSD's) are refused.
    r#"tail -r data/numbers.txt 2>&1; echo "st $?"; head -r data/numbers.txt 2>&1; echo "st $?"; tail -x data/numbers.txt 2>&1; echo "st $?"; tail -qn1 data/numbers.txt notes/todo.txt; head -vn1 data/numbers.txt"#,
    // ls -q shows a character that does not print as ?; the last of -q
    // and --show-control-chars decides.
    r#"touch "$(printf 'a\tb')" "$(printf 'c\001d')"; ls -q; ls --show-control-chars | od -c | head -2; ls -q --show-control-chars | od -c | head -2; ls --show-control-chars -q | head -3; ls -qQ | head -3"#,
    // ls --color=always: GNU's built-in colours by kind and mode bits, the
    // reset before the first colour, links and their targets under -l,
    // layouts measured without the codes (and padded with spaces), the
    // last --color deciding, LS_COLORS changing the table (suffixes, 00,
    // ln=target, or, mi) and refused when unparsable.
    r#"mkdir w; cd w; mkdir d o s t; touch f a.tar.gz b.JPG; printf '#!/bin/sh\n' > x; chmod +x x; ln -s f l; ln -s nope zbroken; ln -s d ld; ln -s x lx; chmod 777 o; chmod 1755 s; chmod 1777 t; unset LS_COLORS COLORTERM; ls --color=always d f; export TERM=xterm-256color; names() { sed 's/^.* [0-9][0-9]:[0-9][0-9] //'; }; ls --color=always; ls --color -l | names; ls --color=always -F; ls --color=always -C; ls --color=always -m; ls --color=always -x -w 30; ls --color=always -s -C; ls --color=always d f x; ls --color=always --color=never; ls --color=auto | head -2; export LS_COLORS='di=01;31:*.gz=01;35:*.jpg=35:ex=00:ln=target:mi=01;31:or=01;41'; ls --color=always; ls -l --color=always ld lx zbroken l | names; LS_COLORS='or=01;41' ls -l --color=always zbroken l | names; LS_COLORS='di=1:bogus' ls --color=always d 2>&1; echo "st $?"; ls --color=sometimes 2>&1; echo "st $?"; unset LS_COLORS; TERM=dumb ls --color=always d; TERM=dumb COLORTERM=truecolor ls --color=always d; TERM=dumb LS_COLORS= ls --color=always d""#,
    // ls -m fills lines to the width, breaking after a comma.
    r#"touch aaaaaaaaaaaa bbbbbbbbbbbbbb cccccccccccccccc dddddddddddddddd eeeeeeeeeeeeeeee ffffffffffff; ls -m; ls -m -w 30 data; ls -mF; ls -m -w 0"#,
    // xargs -t and diff -r echo words as gnulib's shell-escape quoting
    // does: `=` and `^` quoted, a lone `'` in double quotes, characters
    // that do not print in $'...' pieces.
    r#"echo 'a=b c^d e*f "g h" #i j#k {' | xargs -t true 2>&1; for w in $'\tx' $'x\t' $'a\t\tb' "it's" "a'b\$c" '' é; do printf '%s\0' "$w" | xargs -0 -t true 2>&1; done; mkdir a b; echo 1 > a/f; echo 2 > b/f; diff -r -x 'a=b' -I "it's" a b | head -1"#,
];
