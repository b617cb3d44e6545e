//! Commands agents reach for (issue 19 item 5), against the real tools on
//! the machine: Debian's `yq` (jq over YAML), `xxd`, `hexdump`, `od`,
//! `envsubst`, `fmt`, `sqlite3`, `zip`/`unzip`, `nproc`, `nohup`; and
//! (issue 49, item 5) Debian's Perl `rename` (File::Rename).

pub const CASES: &[&str] = &[
    // yq: YAML in; JSON out, or YAML with -y.
    r#"cat > c.yaml <<'YAML'
name: demo
version: 1.2
tags: [a, b]
deps:
  - name: x
    pin: "1.0"
  - {name: y, pin: null}
flag: yes
empty: {}
text: |
  two
  lines
YAML
yq . c.yaml; yq -r '.deps[].name' c.yaml; yq -c '.tags' c.yaml; yq -y . c.yaml; yq -y '.deps[0]' c.yaml"#,
    r#"printf 'a: 1\n---\na: 2\n' > m.yaml; yq .a m.yaml; yq -y . m.yaml; yq -s -c . m.yaml; yq -y '.a' m.yaml"#,
    r#"printf 'k: "it'"'"'s"\nq: "x: y"\nn: "0x10"\ns: " lead"\nu: "ünï"\nl: [1, [2, 3]]\n' > q.yaml; yq -y . q.yaml; yq -y '.l[1]' q.yaml"#,
    r#"printf 'a: 1\nb: [x]\n' | yq -y '.c = {"d": "e f", "g": [true, false]}'; printf 'a: 1\n' | yq --arg v hi -y '.b = $v'; printf 'x: 1\n' | yq -e .y; echo "st $?""#,
    r#"printf 'long: "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq rrrr"\n' | yq -y .; printf '[1.5, 100, -3, 0.25]\n' | yq -y ."#,
    // od: types side by side, duplicate blocks, partial blocks, floats.
    r#"printf 'hello world, this is a test of od\000\001\377\303\251' > t.bin; od -c t.bin; od -t x1z t.bin; od -c -t x2 t.bin; od -a t.bin; od -t f4 t.bin; od -t f8 -t x8 t.bin"#,
    r#"printf 'hello world, this is a test\000\001\377' > t.bin; printf abc | od -t x1 -t o2 -t d4; printf abcdefgh | od -w5 -c; od -A x -t x4 -w8 t.bin; od -s -i -l t.bin; od -b -d -f t.bin; od -j 0x10 -N 010 -c t.bin; od -t x2 --endian=big t.bin"#,
    r#"head -c 64 /dev/zero > z.bin; printf x >> z.bin; od z.bin; od -v z.bin; od -An -tx1 data/numbers.txt; printf '' | od; printf abc | od -j 5; echo "st $?"; printf ab | od -t x3; echo "st $?"; od -w3 -t x2 README.md | head -3; od -t x1 nope README.md | tail -2; echo "st $?""#,
    // hexdump: the canned formats, -e format strings, squeezing, padding.
    r#"printf 'hello world, this is a test\000\001\377\303\251\n' > t.bin; hexdump t.bin; hexdump -C t.bin; hexdump -b t.bin; hexdump -c t.bin; hexdump -d t.bin; hexdump -o t.bin; hexdump -x t.bin; hexdump -C -n 5 -s 3 t.bin; hexdump -s 100 t.bin"#,
    r#"head -c 64 /dev/zero > z.bin; printf x >> z.bin; hexdump -C z.bin; hexdump -v -C z.bin | wc -l; seq 3000 | hexdump -C | tail -3; printf '' | hexdump -C; hexdump -C README.md data/numbers.txt"#,
    r#"printf 'ab\001\177\376\ncdefghij' > u.bin; hexdump -e '"%_u "' u.bin; echo; hexdump -e '4/1 "%3_u"' u.bin; echo; hexdump -e '4/1 "%-4x|" "\n"' u.bin; hexdump -e '2/4 "%d " "\n"' u.bin; hexdump -e '"%5.3s|"' u.bin; echo; hexdump -e '"%_ad: " 4/1 "%02x" "\n"' u.bin; hexdump -v -e '/1 "%u,"' u.bin; echo; hexdump -e '"%08.8_Ax\n"' -e '"%08.8_ax " 4/4 "%08X " "\n"' u.bin; for f in '"%s"' '"%q"' '3/3 "%x"' '4/1 "%x %x"'; do hexdump -e "$f" u.bin; echo "st $?"; done"#,
    // xxd: dumps, plain, C include, autoskip, seeks, reverting.
    r#"printf 'hello world, this is a test\000\001\377\303\251\n' > t.bin; xxd t.bin; xxd -p t.bin; xxd -i t.bin; xxd -b -c 4 t.bin; xxd -e t.bin; xxd -g 4 -u t.bin; xxd -l 5 -s 2 t.bin; xxd -s -4 t.bin; xxd -o 100 -c 8 t.bin; xxd -d -c 8 t.bin; xxd -C -i t.bin; xxd -n foo -i t.bin; xxd -g 0 t.bin; xxd -c 5 -i t.bin"#,
    r#"head -c 64 /dev/zero > z.bin; printf x >> z.bin; xxd -a z.bin; head -c 64 z.bin | xxd -a; head -c 32 z.bin | xxd -a; printf x | xxd -i; printf '' | xxd -i; printf abc | xxd -p -c 0; xxd -ps -c4 README.md | head -2; xxd -cols 4 -len 6 README.md; printf abc | xxd -s -1; echo "st $?"; xxd -e -g 3 README.md; echo "st $?"; xxd -c 300 README.md; echo "st $?"; xxd nope; echo "st $?""#,
    r#"xxd README.md | xxd -r | cmp - README.md && echo same; xxd -p README.md | xxd -r -p | cmp - README.md && echo same; printf '00000010: 4142\n' | xxd -r | od -c; printf '4142 zz 43\n4 4\n' | xxd -r -p | od -c; printf '00000000: 4142  AB\n00000004: 4344\n' | xxd -r -s 2 | od -c; printf '0: 41 42 43\n' | xxd -r -c 2 | od -c; printf '10: 41\n5: 42\n' | xxd -r | od -c; echo "st $?"; xxd -p README.md | xxd -rp | head -c 20 | od -c"#,
    r#"xxd README.md out.hex; xxd -r out.hex out.bin; cmp out.bin README.md && echo ok; printf '0: 4142\n' | xxd -r - out.bin; head -c 6 out.bin; echo; xxd -r -b README.md; echo "st $?"; yes | xxd | head -2; yes | hexdump -v -C | head -2; yes | od -v -c | head -2"#,
    // envsubst, nproc, nohup.
    r#"export A=hi B_1=two; printf '${A:-x} $A ${A} $$ $1 ${B ${B_1}x $B_1x $Ab \\$A $ ${} $-\n' | envsubst; printf '$A ${B_1} $HOME\n' | envsubst '$A'; printf '$A ${B_1} $HOME\n' | envsubst '${B_1} and $HOME'; envsubst -v '$A ${B_1} $A'; envsubst -v; echo "st $?"; envsubst a b; echo "st $?"; echo "[$(printf '$UNSETVAR' | envsubst)]"; envsubst < README.md | head -2"#,
    // nproc: the sandbox has one processor (as JavaScript's os.cpus());
    // what does not depend on the count is checked against GNU.
    r#"OMP_NUM_THREADS=7 nproc; OMP_NUM_THREADS=3,2 OMP_THREAD_LIMIT=2 nproc; nproc --ignore=100; nproc x; echo "st $?"; nproc --ignore=z; echo "st $?""#,
    r#"nohup echo hi; echo "st $?"; nohup; echo "st $?"; nohup nosuchcmd; echo "st $?"; nohup -- sh -c 'exit 3'; echo "st $?"; nohup false; echo "st $?"; nohup wc -l < data/numbers.txt"#,
    // fmt: GNU's least-cost filling, paragraphs by indentation, modes.
    r#"printf 'The quick brown fox jumps over the lazy dog.  It was (not) the first time; the dog, being lazy, did not mind.\nA second line joins the paragraph, e.g. this one, and ends here!\n\n  Indented text starts a new paragraph\n  and continues here with more words to fill the line up.\n\tTabbed line follows "quoted." and  spaced   words.\n' > p.txt; for o in '' '-w 40' '-w 30 -g 25' '-u' '-s -w 20' '-c -w 30' '-t -w 30' '-40'; do echo "== $o"; fmt $o p.txt; done"#,
    r#"printf '# one two three four five six seven eight nine ten eleven twelve thirteen fourteen\n# fifteen\nplain line here\n  # indented prefix line with words and more words and more words and more words\n#\n#  x\n' > q.txt; fmt -p '#' q.txt; fmt -p '# ' -w 30 q.txt; fmt -p '  #' -w 30 q.txt; printf 'a\n   ' | fmt | od -c; printf 'x\n   ' | fmt -p '#' | od -c; printf 'a\rb c\fd e\000f g\vh\n\nword%0100d end\n' 0 | fmt -w 20 | od -c"#,
    r#"seq 1500 | awk '{printf "%s%s", (NR%7==0 ? "end." : (NR%11==0 ? "(w" NR ")" : "w" NR)), (NR%5==0 ? "  " : " ")} END {print ""}' > long.txt; fmt long.txt | md5sum; fmt -w 40 long.txt | tail -3; fmt -w 50 -u long.txt | sed -n '100,103p'; fmt -g 80; echo "st $?"; fmt -w x; echo "st $?"; fmt nope; echo "st $?"; yes | head -3000 | fmt | head -2"#,
    // zip and unzip (names and contents; dates and the order of a
    // folder's files are the host's, so listings are cut to what is fixed).
    r#"zip -r x src/util README.md; echo "st $?"; zip x README.md; zip -u x README.md; echo "st $?"; zip y nothere; echo "st $?"; zip -q y nothere; echo "st $?"; zip -d x README.md; zip -d x nothere; echo "st $?"; unzip -Z1 x.zip; zip -j j.zip data/numbers.txt; unzip -l j.zip | cut -c1-9,28-; unzip -v j.zip | cut -c1-28,47-"#,
    r#"cd src && seq 200 > big.txt && zip -q ../r.zip util util/strings.rs big.txt && cd .. && mkdir out && cd out && unzip ../r.zip; echo "st $?"; unzip -o ../r.zip big.txt; unzip -n ../r.zip; echo "st $?"; unzip -p ../r.zip big.txt | tail -1; unzip -qd q ../r.zip; find q | sort; unzip ../r.zip nothere; echo "st $?"; unzip nope.zip; echo "st $?"; unzip -t ../r.zip; unzip -l ../r.zip 'util/*' | cut -c1-9,28-; unzip -q -x ../r.zip big.txt 'util/*' -d x; find x | sort; unzip -q ../r.zip -x big.txt 'util/*' -d y; find y | sort"#,
    r#"zip -q l.zip README.md; mkdir o; cd o; unzip -q ../l.zip; printf 'y\n' | unzip ../l.zip; echo "st $?"; printf 'n\n' | unzip ../l.zip; echo "st $?"; printf 'A\n' | unzip ../l.zip; unzip ../l.zip < /dev/null; echo "st $?"; echo hi | zip s.zip -; unzip -p s.zip -; cp ../README.md m.txt; zip -m p.zip m.txt; ls m.txt; echo "st $?"; unzip -j -q ../l.zip -d flat && ls flat"#,
    // sqlite3: a database file in the VFS; modes, dot commands, errors.
    r#"sqlite3 t.db 'create table t(a integer, b text, c real); insert into t values (1,"x",1.5),(2,null,2.0),(3,"he said ""hi"", ok",-0.25);' && sqlite3 t.db 'select * from t'; sqlite3 -header t.db 'select * from t'; sqlite3 -csv -header t.db 'select * from t'; sqlite3 -json t.db 'select * from t'; sqlite3 -line t.db 'select * from t'; sqlite3 -column t.db 'select * from t'; sqlite3 -box t.db 'select a,b from t'; sqlite3 -markdown t.db 'select a,b from t'; sqlite3 -table t.db 'select a,b from t'; sqlite3 -quote t.db 'select * from t'; sqlite3 t.db '.tables' '.schema' '.dump'"#,
    r#"sqlite3 :memory: 'select 0.5, 1e20, 1.0/3, 100.0, 1e300*1e300, 123456789012345678.0'; sqlite3 -json :memory: 'select 0.5 as x, 1e20 as y, 100.0 as w, 9007199254740993 as big, 1e300*1e300 as inf'; sqlite3 -csv :memory: "select 'é', 'a b', ' lead', 'x''y', 1.5, 'a,b', 'x\"y', null"; sqlite3 -line :memory: "select 1 as a, null as b, 'x' as longname"; sqlite3 -separator ';' :memory: 'select 1,2'; sqlite3 -newline X :memory: 'select 1 union select 2'; echo; sqlite3 -tabs -header :memory: 'select 1 as a, 2 as b'"#,
    r#"printf '.mode column\nselect 1 as x;\n.mode box\nselect 2 as y;\n.mode list\nselect 3 as z;\n.headers off\n.mode column\nselect 4 as w;\n.mode insert t\nselect 1, null, 1.5, x'"'"'00'"'"', '"'"'a'"'"';\n.mode csv\nselect 1, 2;\n.mode tabs\nselect 1,2;\n.nullvalue NULL\n.mode list\nselect null;\n.separator ,\nselect 1,2;\n.print hi there\n' | sqlite3 | od -c | tail -4; printf 'select 1;\nselect\n 2;\nselect 3 -- c\n;\nselect "x;y";' | sqlite3; sqlite3 :memory: "select 'a' as k, 1 as v union all select 'longer', 22" -column -header; sqlite3 -header -box :memory: 'select 1 as a where 0'; sqlite3 -json :memory: 'select 1 as a where 0'"#,
    r#"sqlite3 u.db 'create table t(a primary key)' 'insert into t values(1)' 'insert into t values(1)' 'select 5'; echo "st $?"; printf 'insert into t values(1);\nselect 6;\n.bogus\nselect 7;\n' | sqlite3 u.db; echo "st $?"; sqlite3 -bail u.db 'select * from nope' 'select 8'; echo "st $?"; printf 'select 1;\nselect * from nope;\nselect 2;\n' | sqlite3 -bail u.db; echo "st $?"; sqlite3 new.db 'select 1'; wc -c < new.db; sqlite3 -readonly new.db 'create table x(y)'; echo "st $?"; sqlite3 -readonly nothere.db 'select 1'; echo "st $?"; ls nothere.db; printf 'garbage garbage' > g.db; sqlite3 g.db 'select 1'; echo "st $?"; sqlite3 :memory: 'select'; echo "st $?"; sqlite3 -bogus; echo "st $?""#,
    r#"sqlite3 m.db 'create table beta(x); create table alpha(y, z); create index ia on alpha(y); create table long_table_name_here(q); create trigger tr after insert on beta begin select 1; end; insert into alpha values (1, null), (2.5, x'"'"'ff'"'"');' && sqlite3 m.db .tables '.tables a%' .schema '.schema alpha' .indexes '.indexes alpha' .dump; for i in $(seq 1 12); do sqlite3 m.db "create table tbl_number_$i(a)"; done; sqlite3 m.db .tables; printf 'name,age\nada,36\n"lovelace, a",37\n' > p.csv; sqlite3 m.db '.import --csv p.csv people' 'select * from people' '.schema people'; sqlite3 m.db '.output out.txt' 'select count(*) from people' '.output' 'select 9'; cat out.txt; printf 'select 41+1;\n' > s.sql; sqlite3 m.db '.read s.sql'"#,
    // rename: substitutions with groups and modifiers, transliterations,
    // -v, -n, -f, -d, names from stdin (-0 too); a name taken already is
    // said and skipped (status 0).
    r#"touch a.txt b.txt c.TXT d.log; mkdir sub; touch sub/x.txt; rename 's/\.txt$/.md/' *.txt; ls; rename -v 's/(\w)\.md/$1-new.md/' *.md; rename -n 's/d/D/' d.log; touch e.md; rename 's/e/a-new/' e.md 2>&1; echo "st $?"; rename -f -v 's/e/a-new/' e.md; rename 'y/a-z/A-Z/' c.TXT; rename -v 's/TXT/txt/i' C.TXT; rename -v 'tr/a-z/A-Z/' d.log; ls; ls | rename 's/-new/-old/'; rename -d -v 's/x/y/' sub/x.txt; ls sub; printf 'a-old.md\0b-old.md\0' | rename -0 -e 's/old/x/; s/\.md/.txt/'; ls; rename 2>&1 | head -1; echo "st $?""#,
    // A program of several; nothing changes for a name nothing matches.
    r#"touch 'My File.TXT' other; rename 's/ /_/g; y/A-Z/a-z/; s/\.txt$/.text/' 'My File.TXT' other; ls; rename -v 's/zzz/q/' other; echo "st $?""#,
];
