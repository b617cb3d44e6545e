//! The first cases: words, expansions, control flow, files and globs,
//! the text tools.

pub const CASES: &[&str] = &[
    // A compound command's redirection that fails is reported at its own
    // line (the closing line of a multi-line one), not the last command's.
    // (At top level: inside another compound command bash reports the
    // line that outer command ends on, which goccia does not follow.)
    r#"exec 2>&1
echo ok > /no/1
{ echo never; } > /no/2; echo "st $?"
{
  echo x
} > /no/3
while false
do :
done > /no/4
( echo ) > /no/5
if true; then :; fi > /no/6
echo $LINENO"#,
    // words, quoting, expansions
    r#"x="a  b"; echo $x "$x" '$x' "${x}!""#,
    r#"s=hello.tar.gz; echo ${s%.*} ${s%%.*} ${s#*.} ${s##*.} ${#s} ${s/l/L} ${s//l/L} ${s^^} ${s:2:3}"#,
    r#"unset v; echo "${v:-default}" "${v-unset}" "${v:=set}" "$v"; w=""; echo "[${w:+alt}]" "[${w-x}]""#,
    r#"arr=(one "two three" four); echo ${#arr[@]} "${arr[1]}" "${arr[@]:1}"; for a in "${arr[@]}"; do echo "<$a>"; done"#,
    r#"declare -A m=([b]=2 [a]=1); m[c]=3; for k in $(printf '%s\n' "${!m[@]}" | sort); do echo "$k=${m[$k]}"; done"#,
    r#"echo {a,b}{1,2} {1..5} {5..1..2} {a..e}"#,
    r#"echo $((7 / 2)) $((7 % 3)) $((2 ** 10)) $(( (3 + 4) * 2 )) $((1 << 4)) $((0x1f)) $((8#17))"#,
    r#"i=0; while [ $i -lt 5 ]; do i=$((i + 1)); [ $i -eq 3 ] && continue; echo $i; done"#,
    r#"for ((i = 0; i < 3; i++)); do printf '%d-' $i; done; echo"#,
    r#"f() { local x=$1; echo "in f: $x $#"; return 3; }; f a b; echo "status $?""#,
    r#"case "src/main.rs" in *.md) echo md;; src/*.rs) echo rust;; *) echo other;; esac"#,
    r#"[[ "abc123" =~ ^([a-z]+)([0-9]+)$ ]] && echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}""#,
    r#"x=5; [[ $x -gt 3 && -n "$x" ]] && echo yes; [ -f README.md ] && [ -d src ] && echo files"#,
    r#"echo "$(echo nested $(echo deeper))" `echo back`"#,
    r#"cat <<EOF
home is not $HOME-less: $((1 + 1))
EOF
cat <<'EOF'
literal $x
EOF"#,
    r#"read -r a b <<< "first second third"; echo "$a|$b""#,
    r#"printf '%5s|%-5s|%05d|%.2f|%x|%o|%e\n' ab cd 42 3.14159 255 8 12345.678"#,
    r#"set -- a b c; shift; echo "$@" $#; set -- "x y" z; for p; do echo "[$p]"; done"#,
    r#"false; echo $?; true && echo and; false || echo or; ! false && echo not"#,
    r#"(cd src && pwd | sed 's|.*/||'); basename "$(pwd)" >/dev/null; echo done"#,
    r#"set -e; f() { false; echo unreachable; }; if f; then :; fi; echo "survived""#,
    r#"set -o pipefail; false | true; echo $?"#,
    // one option table: `[[ -o ]]`, `set -o`, `shopt -o` and `set -<letter>` agree
    r#"[[ -o braceexpand ]] && echo brace; [[ -o noexec ]] || echo exec; set -u; [[ -o nounset ]] && echo nounset; set -o | head -4; shopt -o -q hashall && echo hashall; shopt -p nullglob"#,
    // files and globs
    r#"echo src/*.rs; echo data/*.txt | wc -w; ls notes"#,
    r#"ls -1 data | sort -r; ls -a notes | head -n 2; ls -C src data; ls -x -F ."#,
    r#"find . -name '*.rs' | sort; find . -type d | sort"#,
    r#"find data -size -1k -name '*.txt' | sort; find . -empty | sort"#,
    r#"mkdir -p out/a/b && touch out/a/b/c && cp -r out copy && ls -R copy"#,
    r#"cp data/words.txt w && mv w w2 && rm w2 && ls w2 2>/dev/null; echo "status $?""#,
    r#"wc -l data/*.txt; wc -c < README.md; wc -w notes/todo.txt"#,
    r#"cat -n notes/todo.txt; head -n 2 data/people.csv; tail -n 2 data/people.csv; tail -n +3 data/numbers.txt"#,
    r#"du -a src | sort -k2 | cut -f2; stat -c '%n %s' README.md"#,
    r#"realpath src/../data/./people.csv | sed 's|.*/data|data|'; dirname src/util/strings.rs; basename src/util/strings.rs .rs"#,
    r#"echo hi > f.txt; echo more >> f.txt; cat f.txt; cat missing.txt 2>&1 | sed 's/^.*: //'"#,
    r#"for f in src/*.rs; do echo "${f##*/}: $(wc -l < "$f")"; done"#,
    // text tools
    r#"sort data/words.txt; sort -f data/words.txt | uniq -i -c"#,
    r#"sort -n data/numbers.txt | uniq -c; sort -nr data/numbers.txt | head -3; sort -u data/numbers.txt"#,
    r#"cut -d, -f1,3 data/people.csv; cut -c1-3 data/words.txt"#,
    r#"tr a-z A-Z < data/words.txt | tr -d 'AEIOU'; echo "a  b   c" | tr -s ' '"#,
    r#"paste -d: data/numbers.txt data/words.txt; paste -s -d+ data/numbers.txt"#,
    r#"grep -n TODO -r . | sort; grep -c a data/words.txt; grep -i -v apple data/words.txt"#,
    r#"grep -E '^[a-z]+,[0-9]{2},' data/people.csv; grep -o '[0-9]\+' data/people.csv | head -3; grep -l TODO -r . | sort"#,
    r#"grep -w -e banana -e Date data/words.txt; grep -q cherry data/words.txt && echo found; grep nothing data/words.txt; echo $?"#,
    r#"sed -n '2,3p' data/people.csv; sed 's/,/;/g' data/people.csv | head -2; sed '/^$/d; s/^#\s*//' README.md"#,
    r#"sed -E 's/([a-z]+),([0-9]+),.*/\2 \1/' data/people.csv; sed -n '/alan/,/grace/p' data/people.csv"#,
    // `*` widths and precisions: negative width left-justifies, negative
    // precision is as if omitted (both used to be wrong in one dialect).
    r#"printf '%.*f|%*d|%-5s|%05.1f|%*s|\n' -1 3.14159 -5 3 ab 2.25 3 x; awk 'BEGIN { printf "%.*f|%*d|%c%%\n", -1, 3.14159, -5, 3, 65 }'"#,
    // sort -n/-h take no `+`; -g is strtod, non-numbers then NaN first.
    r#"printf '+3\n2\n1e1\n.5\n-1\n' | sort -n; printf '2K\n+1M\n1G\n3\n' | sort -h; printf '+3\n2\n1e1\n-inf\nx\nnan\n0x\n' | sort -g"#,
    // Empty matches next to a match do not count (they used to: `--a--b-`).
    r#"echo xaxb | sed 's/x*/-/g'; echo abc | sed 's/b*/-/2'; echo xaxb | awk '{ n = gsub(/x*/, "-"); print n, $0 }'"#,
    r#"awk -F, 'NR > 1 { sum += $2; n++ } END { print sum, n, sum / n }' data/people.csv"#,
    r#"awk -F, 'NR > 1 && $2 > 30 { printf "%-6s %s\n", $1, toupper($3) }' data/people.csv"#,
    r#"awk '{ count[$1]++ } END { for (w in count) print w, count[w] }' data/words.txt | sort"#,
    r#"awk 'length($0) > 5' data/words.txt; awk 'BEGIN { x = split("a:b:c", p, ":"); print x, p[3] }'"#,
    r#"seq 5 | xargs -n 2 echo; seq 3 | xargs -I{} echo item-{}; printf 'a\nb\n' | xargs echo"#,
    r#"seq 1 3 10; seq -s, 5; seq -w 8 10"#,
    r#"nl -ba notes/todo.txt; rev data/words.txt | head -2; tac data/numbers.txt | head -3; fold -w 5 README.md | head -3"#,
    r#"comm -12 <(sort data/words.txt) <(printf 'apple\nbanana\n'); join <(printf 'a 1\nb 2\n') <(printf 'a x\nb y\n')"#,
    r#"column -t -s, data/people.csv; expand -t 4 <(printf 'a\tb\n')"#,
    // Where several minimal edit scripts exist, GNU diff's choice can
    // differ (see the README); these inputs have one.
    r#"sed 's/ada/eve/' data/people.csv > p2; diff data/people.csv p2; echo "diff status $?"; diff -u data/people.csv p2 | tail -n +3"#,
    r#"diff data/words.txt <(sed '3d; $a extra' data/words.txt); echo "status $?""#,
    r#"mkdir a b && cp src/lib.rs a/ && sed 's/a + b/a - b/' src/lib.rs > b/lib.rs && diff -u a/lib.rs b/lib.rs > p.diff; cd a && patch -p1 < ../p.diff; echo "status $?"; cat lib.rs"#,
    r#"cp -r src old && echo 'pub fn x() {}' > src/x.rs && sed -i 's/TODO: greet/greet/' src/main.rs && diff -r -u -N old src > p.diff; rm -r src && cp -r old src && patch -p1 -d src < p.diff; echo "status $?"; cat src/main.rs src/x.rs; printf 'junk\n' | patch; echo "status $?""#,
    r#"cmp README.md README.md && echo same; cmp data/words.txt data/numbers.txt >/dev/null; echo $?"#,
    r#"base64 < README.md | head -1; echo aGVsbG8K | base64 -d; sha256sum README.md | cut -c1-16; md5sum data/words.txt"#,
    r#"od -c <(printf 'ab\n') | head -1; printf 'x\ty\n' | od -An -tx1"#,
    r#"split -l 2 data/numbers.txt part_ && ls part_* && cat part_ab"#,
    r#"yes | head -n 3; yes abc | head -c 10; echo"#,
    r#"tee t1 < README.md | wc -l; cat t1 | wc -c"#,
    r#"date -u -d @86400 +%Y-%m-%dT%H:%M:%S; date -u -d '2024-02-28 + 2 days' +%F"#,
    r#"env -i X=1 env; printenv HOME >/dev/null; echo ok"#,
    r#"tar -czf a.tgz data src && tar -tzf a.tgz | sort && mkdir x && tar -xzf a.tgz -C x && diff -r data x/data && echo same"#,
    r#"tar -cf - notes | tar -xOf - notes/todo.txt; gzip -c README.md | gunzip | head -1; gzip -k README.md && zcat README.md.gz | wc -l"#,
    r#"x=$(cat data/config.json); echo "${x:0:15}""#,
    r#"cd data && ls ../src && cd - >/dev/null && ls -d data"#,
    // prompts: escapes first, then `$` expansions; the escapes' values are
    // not expanded again; PS4 repeats its first character per substitution
    r#"x='\'; y=h; PS1='$x$y|\141\555|\[\e\]|$((1+2))|\x|\D{%Y}' ; echo "${PS1@P}" | od -c | head -2; mkdir '$y' && cd '$y' && PS1='\W'; echo "${PS1@P}""#,
    r#"PS4='+$((6*7)) '; set -x; echo $(echo inner) 2>&1; set +x; unset PS4; set -x; echo bare; set +x"#,
    r#"tty; echo $?; tty -s; echo $?; tty extra; echo $?; set -x -v; echo $-; set +xv"#,
    // where a name leads: goccia's utilities live in /usr/bin and /bin; a
    // program earlier on PATH shadows one, a builtin is never shadowed
    r#"mkdir -p bin2 && printf 'echo mine\n' > bin2/cut && chmod +x bin2/cut && touch bin2/plain; PATH=/usr/bin:/bin; type -a pwd cut; type -ap cd; echo $?; PATH=bin2:/usr/bin:/bin; type cut; command -v cut; cut; type -P pwd; type -t cd cut plain; type -a plain; echo $?; which cut"#,
    // umask decides the modes of what the shell, touch and mkdir create;
    // ulimit keeps soft under hard and refuses what is no number
    r#"umask 027; echo x > a; mkdir b; mkdir -p c/d; touch e; stat -c '%a %n' a b c c/d e; umask; umask -S; umask -p; umask g+w,o=r; umask; umask 9; echo $?"#,
    r#"ulimit -t 100; ulimit -St 50; ulimit -t; ulimit -Ht; ulimit -St 150; echo $?; ulimit -t; ulimit -f zz; echo $?; ulimit -t -f -- 7; ulimit -f; ulimit -x 1 -c 0; ulimit -x -c"#,
    // `$?` in an assignment is the previous status; `set -x` shows each
    // assignment once, as made, on a line of its own
    r#"exec 2>&1; false; x=$?; echo $x; a=$(exit 3) b=$?; echo $b $?; n=0; set -x; y=$(echo q) z= w="a b"; c=$((n++)) true; set +x; echo $n"#,
    r#"shopt -s cdable_vars; shopt cdable_vars; shopt -po nounset errexit; shopt -s -p | head -3; set -o vi; shopt -o emacs vi; set +B; echo {a,b}"#,
    // a child shell starts from what is exported (PATH and SHELL of its
    // own when none), exported SHELLOPTS carries options; UID is read-only;
    // programs run by their system paths; LINENO in for (( and case
    r#"exec 2>&1; (unset SHELL; bash -c 'echo ${SHELL:+has-shell}'); x=1; bash -c 'echo [$x]'; { UID=5 echo ran $?; } 2>/dev/null; echo ${UID:+uid}; /bin/echo direct; /usr/bin/printf '%s\n' p; export SHELLOPTS; set -o noglob; bash -c 'echo *; set -o | grep -c "noglob.*on"'; set +f
for ((i = 0; i < $LINENO; i++)); do :; done; echo $i
case $LINENO in 3) echo case-line ;; esac; s=1; echo "[$_]"; declare t=2; echo "[$_]""#,
    // getopts: OPTIND starts over on a shorter list, OPTARG is unset for a
    // flag; a bad name is reported after parsing. A script file ends with
    // status 1 on an unbound variable (a -c string with 127)
    r#"exec 2>&1; set -- -h -c foo x; while getopts "hc:" o; do echo "$o ${OPTARG-none}"; done; echo $OPTIND; set --; getopts "hc:" o; echo $? $OPTIND; getopts "c:" o -c10; getopts "c:" o -c10; echo "$o [${OPTARG-unset}]"; getopts 'hc:' bad- -c v 2>/dev/null; echo $? $OPTARG; printf 'set -u\necho $nope\necho after\n' > u.sh; bash u.sh; echo script=$?; bash -c 'set -u; echo $nope'; echo string=$?"#,
    // the bad-input paths of the builtins above: their statuses (the
    // messages differ only in bash's `line N:`)
    r#"for c in 'type -x ls' 'command -x ls' 'shopt -x' 'shopt -s -u nullglob' 'shopt -s no_such_option' 'umask -x' 'umask q+r' 'umask u+z' 'umask 1777' 'ulimit -z' 'ulimit -f -42' 'ulimit -t 4611686018427387905000' 'ulimit -f 4611686018427387905' 'ulimit -p 9' 'tty -x'; do $c 2>/dev/null; echo "$c: $?"; done"#,
    // an arithmetic error, a read-only assignment or a failglob miss
    // abandons its command line (its reader goes on with the next one);
    // a subshell, eval and source end that line with status 1; a
    // `for ((` header error only fails the loop; set -e ends the shell on
    // the failglob miss but not on the arithmetic error
    r#"exec 2>/dev/null; echo $((1/0)); echo same-line
echo next $?; f() { x=$((1/0)); echo in-f; }; f; echo same
echo after-f $?; readonly r=1; r=2; echo same
( echo $((1/0)); echo in ); echo sub $?; eval 'echo $((1/0)); echo in'; echo eval $?
printf 'echo $((1/0)); echo l1\necho l2\n' > s.sh; . ./s.sh; echo src $?
g() { for ((i=0; i<1/0; i++)); do :; done; echo g $?; }; g
shopt -s failglob; echo /nonex*; echo same
echo glob $?; shopt -u failglob; x=$(echo $((2/0)); echo in) ; echo "[$x]"
set -e; echo $((3/0))
echo reached; shopt -s failglob; echo /nonex*
echo unreachable"#,
    // programmable completion: compgen's actions, -W (split at IFS,
    // expanded), -X (`&`, `!`), -P/-S, -F and -C, -o dirnames/plusdirs;
    // complete's listing and errors; compopt outside a completion
    r#"exec 2>/dev/null; mkdir -p cg/dir1 cg/dir2/sub && cd cg && touch a.c b.c .h x.txt; compgen -f | sort; compgen -f . | sort; compgen -d | sort; compgen -f dir2/; compgen -f dir2; compgen -o plusdirs -f a; compgen -W "ab ac bc" -X "&c" a; compgen -W "ab ac bc" -X '!a*'; compgen -P "<" -S ">" -W "x y"; compgen -A shopt -P '[' -S ']' nu; compgen -A setopt e; compgen -A signal SIGI; compgen -A helptopic fo; compgen -k el; compgen -G '*.c' | sort; compgen -o dirnames zz; echo $?
complete -W "it's" -o nospace -F f -A function q; complete -p; complete -p nope; echo $?; complete -r q; complete; complete -F f; echo $?; compgen -A bogus; echo $?; compopt -o nospace; echo $?; compopt -o bogus; echo $?; complete -D -A file; complete -p -D
f() { COMPREPLY=(x y); compopt -o nospace; echo "in f $? $1 $2 [${COMP_CWORD}]"; }; compgen -F f w; echo $?; g() { echo "g:$*"; }; compgen -C g w; x=1; compgen -v -S = x; export ex1=1; compgen -e ex; IFS=:; compgen -W 'a:b\:c:$(echo d:e)'"#,
    // history and fc over a history file; an interactive child shell
    // reading a pipe: history recorded (not while set +o history), saved
    // at exit after history -a, PROMPT_COMMAND before each prompt seeing
    // $?, an rcfile's exit ending the shell
    r#"exec 2>/dev/null; printf 'echo %s\n' 1 2 3 > h; HISTFILE=h; history -r; history; history 2; fc -l; fc -ln -2; fc -lr 2 3; history -d 2; history; history -s new entry; fc -l -1; history -w h2; cat h2; history -c; history; echo $?; history x; echo $?; history -d 9; echo $?
printf 'echo a\nhistory -a\necho b\nfc -l\n' | HISTFILE=hx bash --norc -i; cat hx; printf 'PROMPT_COMMAND="echo P \$?"\n(exit 3)\necho z\n' | HISTFILE=hy bash --norc -i; printf 'set +o history\necho no\nset -o history\necho yes\n' | HISTFILE=hz bash -i; cat hz; printf 'exit 4\n' > rc; bash --rcfile rc -i -c 'echo never'; echo rc=$?"#,
    // fc -s runs a past command again (pat=rep), in the newest entry's
    // place, in a script and in an interactive shell
    r#"exec 2>/dev/null; history -s "echo hi there"; fc -s hi=yo; fc -s nope; echo st=$?; fc -e - echo; history; printf "echo one\nfc -s one=two\nhistory\n" | HISTFILE=hw bash --norc -i"#,
    // a replacement's pattern may start with `/` after `//` (not after
    // `/#` or `/%`); `~` in a pattern is the home folder
    r#"x='/_/'; echo ${x////c} ${x///} ${x//'/'/c}; h=/foo/bar; echo ${h////\\/}; y=a/b; echo ${y/#/p} ${y/%/s} ${y//\//-}; p=~/git; echo ${p//~/z} ${p/~/z}; v='a*b'; echo ${v//*/-} "${v//b*/-}" ${v/*/-}; e=; echo "[${e//*/y}]"; for op in '${u/x/y}' '${u#x}' '${u:0:1}' '${u^}' '${u-d}' '${a[@]/x/y}'; do bash -c "set -u; a=(); echo $op" 2>/dev/null; echo "$op $?"; done"#,
    // an indirection through an unset name or to a bad name abandons the
    // line; a declared variable without a value names nothing; the
    // subscript of an indirect target is a word; `${!a[@]:-x}` is an
    // indirection through the values
    r#"exec 2>/dev/null; echo ${!undef-d}; echo no; x=; echo ${!x}; echo no; x='a b'; echo ${!x}; echo st=$?; declare u; echo "[${!u}]"; declare -A A=([k]=v); r='A["k"]'; echo ${!r}; a=(x y); b=1; r='a[$b]'; echo ${!r}; x=5; a=(x); echo "${!a[@]:-e}" "${!a[*]}"; unset a; echo "${!a[@]-d}"; echo no; e=(); echo "[${e@a}]" "[${e[@]@a}]"; echo $((1 +)); echo $((b*))"#,
    // read: escaped characters never separate, backslash-newline goes
    // whatever the delimiter, the last name takes one field and its
    // separator or the whole rest, -N does not split, -t 0 polls
    r#"printf '%s\n' 'a b\' 'c d' | (read -d ,; echo "[$REPLY]"); printf '%s\n' 'a b\,c d' | (read -d ,; echo "[$REPLY]"); IFS='\ '; echo 'hello\ world  test' | (read a b; echo "[$a] [$b]"); IFS='x '; for s in x xx xxx 'xax   ' 'xaxx  '; do echo "$s" | (read a b; echo "[$a] [$b]"); done; IFS=:; for s in 'a:' 'a:b:' 'a\:b:'; do echo "$s" | (read a; echo "[$a]"); echo "$s" | (read -a a; echo "${#a[@]} [${a[*]}]"); done; unset IFS; echo 'a b c' | (read -N 4 A B; echo "[$A] [$B]"); read -t 0 < /dev/null; echo $?"#,
    // `$[expr]` is `$((expr))`; `$#` takes operators (`${###}`, `${#%5}`)
    // while `${##}` and `${#-}` are lengths; an empty subscript is an error
    r#"set -- $(seq 25); echo $[1+2] "$[3 * 4]" ${##} ${#-x} ${#?} ${#:-x} ${#%5} ${###} ${##2} ${#@} ${#1}; a=(1 2 3); a[]=4; echo st=$? ${a[@]}; echo ${a[]} 2>/dev/null; echo st=$?"#,
    // tilde expansion follows brace expansion; `~` before a character
    // that cannot be in a login name is no tilde prefix
    r#"HOME=/home/bob; echo {foo~,~}/bar ~{/src,root} ~foo{x} ~{x} \~{a,b} "~"{a,b} ~{,/a} {1..1}- {a..a..2}; a=({x~,~}/b); echo "${a[@]}"; x=foo:~; echo $x; set +B; echo ~{/src,root}"#,
    // inside an extended glob group quotes, escapes and expansions work
    // as elsewhere in a word
    r#"shopt -s extglob
cd /tmp; mkdir -p xg; cd xg; touch foo.cc foo.h foo. '__|' '_*' '_?' __aa; ext=cc; echo foo.?($ext|h) @('foo'|__\||bar) @('_*'|'_?') @(x|$(echo __aa)); echo @(__nope__*|'*'|'|'); case '*.cc' in @(*.h|"*.cc")) echo m;; esac; x='a|b'; [[ b == @($x) ]] && echo m4; [[ b == @("$x") ]] || echo m5"#,
    // an alias after prefix assignments and redirections; alias and
    // unalias options; %(...)T with a precision and bash's 128-byte limit
    r#"shopt -s expand_aliases
alias e_=echo p_='printenv FOO'; cd /tmp; >al1 e_ 1; cat al1; FOO=2 p_; alias -- f=echo; echo st=$?; unalias 2>/dev/null; echo st=$?; unalias -a; alias; printf '[%10.5(%Y-%m-%d)T]\n' 1557978599; f='%('; for i in $(seq 32); do f+='%Y'; done; printf "$f)T" 1 | wc -c"#,
    // eval and source take `--`; source looks on PATH (regular files
    // only) before the working folder unless sourcepath is off
    r#"cd /tmp; eval -- echo hi; eval -z 2>/dev/null; echo st=$?; echo 'echo foo $1' > sfoo.sh; source -- ./sfoo.sh a; mkdir -p sd sd2/scmd; echo 'echo path' > sd/scmd; echo 'echo cwd' > scmd; PATH="$PWD/sd2:$PWD/sd:$PATH"; . scmd; shopt -u sourcepath; . scmd; source 2>/dev/null; echo st=$?"#,
    // the DEBUG trap: before expansion, for assignments, (( )), [[ ]],
    // case, each for iteration and each for ((...)) expression, for each
    // simple stage of a pipeline in this shell; not inside functions or
    // sourced files without set -T; exit and set -e in it end the shell;
    // RETURN runs after a sourced file and in a function that sets it
    r#"cd /tmp; echo 'echo src' > dsrc.sh; f() { echo f; }; g() { trap 'echo ret $FUNCNAME $?' RETURN; return 3; }; trap 'echo "  D $LINENO"' DEBUG
x=1
(( x ))
[[ a ]]
case a in a) echo a;; esac
for i in 1 2; do :; done
for ((i=0; i<1; i++)); do :; done
echo a | cat | cat
{ echo b; } | cat
f; . ./dsrc.sh
set -T; f; set +T
trap - DEBUG; g; echo st=$?; trap 'echo ret2' RETURN; . ./dsrc.sh; f
trap 'echo D; exit 4' DEBUG; echo never"#,
    // a here-document delimiter is its source text after quote removal
    // (`<<${a}`); here-documents inside command substitutions in [[ ]],
    // $(( )) and other here-documents
    r#"cat <<${a}
here
${a}
cat <<"$(a)"x\y
here2
$(a)xy
[[ $(cat <<EOF
foo
EOF
) == foo ]]; echo $?
cat <<- OUTER
	first line
	$(tr a-z A-Z <<- INNER
		shouted
INNER
)
	last line
OUTER
echo $(( $(cat <<X
3
X
) + 1 ))"#,
    // inside double quotes the operand of ${x-...} (and :-, =, ?, +)
    // keeps single quotes as characters, though `}` between them does not
    // end it; the pattern operators still quote with them
    r#"echo "${none:-'x'}" "${none:-'one  two'}"
word='p q r'
echo "${none:-'$word'}" ${none:-'$word'}
echo "${missing-'m n'}" "${missing-'m  n'}"
line='w x y z'
echo "${line%'y z'}" "${line%'y  z'}" "${line//'x y'/'X-Y'}"
echo "${word-}}"
echo "${word-\}}"
echo "${word-'}'}"
echo "${var-"}"}"
echo "${u-'a'"b"}" "${u-${v-'x'}}" "${u=' q '}" "[$u]"
echo "${u2-$(echo 'i j')}""#,
    // pwd -P and cd -P follow links; after `unset PWD` it stays empty
    // and a new shell starts from the physical path; CDPATH is searched
    // (and the folder found printed)
    r#"cd /tmp; rm -rf cdt; mkdir -p cdt/real/inner cdt/first/shared cdt/second/shared cdt/second/only cdt/work/shared; ln -s /tmp/cdt/real /tmp/cdt/link
cd /tmp/cdt/link; pwd; pwd -P; pwd -LP; pwd -z 2>/dev/null; echo st=$?
bash -c pwd; unset PWD; echo "PWD=$PWD"; pwd; echo "PWD=$PWD"; bash -c 'pwd; echo $PWD'
cd -P /tmp/cdt/link; echo $PWD; cd /tmp/cdt/link/inner; cd -P ..; echo $PWD; cd /tmp/cdt/link/inner; cd -L ..; echo $PWD
CDPATH=/tmp/cdt/first:/tmp/cdt/second; cd shared; echo st=$? $PWD; cd only; echo st=$? $PWD; cd ./nope 2>/dev/null; echo st=$?
cd /tmp/cdt/work; CDPATH=":/tmp/cdt/second"; cd shared; echo st=$? $PWD; cd ..
CDPATH=".:/tmp/cdt/second"; cd shared; echo st=$? $PWD; cd ..; CDPATH="/tmp/cdt/second:"; cd shared; echo st=$? $PWD"#,
    // in arithmetic an associative array's subscript is its key text
    // (A[K] is the key K); an indexed array's is an expression
    r#"name=7; num=19
typeset -A M
(( M[name] = num ))
echo M["7"]=${M["7"]} keys = ${!M[@]} values = ${M[@]}
typeset -A N; N["$name"]=$num; N["name"]=wrong
(( num = N[name] )); echo num=$num
declare -A P=(['red']=1 ['blue']=30)
(( y = P['blue'] )); echo $y
key=red; set -- 4 5; (( P[$key] += $2 )); echo ${P[red]}
echo $(( P[blue] * 3 )) $(( P[ blue ] )) $(( P[two words] ))
(( P[sp ace]++ )); echo "${P[sp ace]}"
a=(1 2 3); echo $(( a[1+1] )); echo $(( a[x y] ))"#,
    // the command hash table: a command is remembered where it was found
    // until hash -r or an assignment to PATH; hash lists, adds (-p),
    // forgets (-d) and prints (-t) entries; type says "hashed"
    r#"hash 2>/dev/null; echo st=$?; hash -r; hash cat; hash; hash -t cat; type cat; command -v cat; command -V cat; type -t cat; type -P cat
hash -d cat; hash -d cat 2>/dev/null; echo st=$?; hash -p /x/y foo; hash -t foo; type foo; hash -l; PATH=$PATH; hash; cat </dev/null; cat </dev/null; hash
hash nonexist 2>/dev/null; echo $?; hash -t 2>/dev/null; echo $?; hash -p 2>/dev/null; echo $?; hash -z 2>/dev/null; echo $?
cd /tmp; rm -rf one two; PATH="one:two:$PATH"; mkdir -p one two; echo 'echo two' > two/mycmd; chmod +x two/mycmd; mycmd
echo 'echo one' > one/mycmd; chmod +x one/mycmd; mycmd; hash -r; mycmd; rm one/mycmd; mycmd 2>/dev/null; echo st=$?
hash -t mycmd cat 2>/dev/null; hash echo; echo st=$?; type mycmd; eval 'echo $LINENO'; ./$(printf '%0300d' 0) 2>/dev/null; echo st=$?"#,
    // writes to /dev/full fail (status 1) in builtins and utilities;
    // GNU time as a program (-f, -o, -a, -p); in POSIX mode an
    // assignment error ends the shell
    r#"cd /tmp; echo hi > /dev/full; echo status=$?; printf '%s\n' hi > /dev/full; echo status=$?; type echo > /dev/full; echo status=$?; ulimit -a > /dev/full; echo status=$?; echo a | cat > /dev/full; echo status=$?; pwd > /dev/full; echo status=$?; head -c 3 /dev/full | od -c
set -o errexit
if command time -f '%x %C' true 2>/dev/null; then echo 'supports -f'; fi; if env time -f '%x' true 2>/dev/null; then echo env; fi
command time -f '%x' -o out.txt sh -c 'exit 3' || echo st=$?; cat out.txt; command time -a -o out.txt -f 'again %x' true; cat out.txt
command time 2>/dev/null || echo st=$?; command time nope 2>/dev/null || echo st=$?; command time -z true 2>/dev/null || echo st=$?
set +o errexit; printf 'set -o posix\nreadonly x=1\nx=2\necho no\n' > px.sh; bash px.sh 2>/dev/null; echo st=$?"#,
    // an `exit` in the ERR trap ends the shell; `time -o` opens its
    // report file before running the command (a bad path is status 125
    // and nothing runs)
    r#"bash -c 'trap "echo caught; exit 3" ERR; false; echo after'; echo st=$?
bash -c 'trap "exit 4" ERR; f() { false; echo in-f; }; f; echo after'; echo st=$?
command time -f '%x' -o /no/such/dir/report echo ran 2>/dev/null; echo st=$?
cd /tmp; command time -f '%x' -o /dev/stdout sh -c 'exit 2'; echo st=$?"#,
    // break/continue/shift/return/exit with too many arguments abandon
    // what runs back to the script's reader (through eval and functions;
    // a subshell ends; bash -c text ends); a count that is no number
    // ends the shell with 128; a count below 1 ends every loop with
    // status 1; a loop ends with its break's status; a loop variable that
    // is no name fails at run time
    r#"printf 'eval "shift 1 2; echo no"; echo no\necho next=$?\ng() { (exit 5); return 1 2; }\ng; echo no\necho after=$?\n' > /tmp/disc.sh; bash /tmp/disc.sh 2>/dev/null; echo st=$?
( shift 7 8; echo no ); echo sub=$?; bash -c 'for i in 1 2; do continue 1 extra; done; echo no' 2>/dev/null; echo c=$?
bash -c 'for i in 1; do (exit 2); break many; done; echo no' 2>/dev/null; echo num=$?
for o in 1 2; do for i in a b; do echo $o$i; continue 0; done; done 2>/dev/null; echo range=$?
for i in x y; do false; [ $i = y ] && break; done; echo brk=$?; for i in x y; do [ $i = y ] && continue; false; done; echo cont=$?
for k.v in a; do echo no; done 2>/dev/null; echo id=$?; for "q" in a; do :; done 2>/dev/null; echo quoted=$?"#,
    // a function's name is any word but an assignment (one with $ or
    // quotes fails when defined); declare -F NAME prints the name;
    // source reads /dev/null; return outside a function is status 2;
    // assignments before special builtins bind for the command unless
    // export/readonly take them, and persist exported in POSIX mode,
    // where special builtins come before functions and cannot be
    // redefined
    r#"my-cmd=v2 () { echo "called $FUNCNAME"; }; my-cmd=v2; declare -F my-cmd=v2; declare -F nosuch; echo st=$?
$dyn-name() { :; } 2>/dev/null; echo dollar=$?; function "quoted" { :; } 2>/dev/null; echo quoted=$?
source /dev/null; echo src=$?; return 2>/dev/null; echo ret=$?
one=1 export one; two=2 readonly two; three=3; three=x unset three; four=4 eval 'echo in=$four'; echo "[$one $two $three ${four-none}]"
bash -c 'set -o posix; five=5 :; echo "[$five]"; sh -c "echo env=\$five"; eval() { :; }; echo not-reached' 2>/dev/null; echo posix=$?
bash -c 'true() { echo mine; }; eval() { echo mine-eval; }; set -o posix; eval "echo builtin-eval"; true' "#,
    // a declaration builtin's values are expanded with its other words,
    // before any of its assignments and before those in front of it; a
    // read-only global cannot be shadowed by a local
    r#"outer=5; f() { local outer=1 copy=$outer; echo "copy=$copy"; }; f
n=0; declare first=$((n++)) second=$((n++)); echo "$first$second"
PRE=set readonly frozen=$PRE; echo "frozen=[$frozen]"; export E1=one got=$(sh -c 'echo ${E1-none}'); echo "got=$got"
readonly ro=1; g() { local ro=2; echo "local=$? ro=$ro"; local -r mine=1; h; }; h() { local mine=3; echo "h=$mine"; }; g 2>/dev/null"#,
    // $'\cX' keeps X's low five bits (\c? is DEL); in double quotes the
    // operand of ${x:-...} gets no tilde expansion (a pattern's does);
    // single quotes are ordinary characters in arithmetic (an error, but
    // dropped from an associative key); a base written with a leading 0
    // is an invalid number
    r#"printf '%s' $'\c1\c8\c=\c?\cb' | od -An -tx1
HOME=/home/me; echo "${none:-~}" ${none:-~} "${none:+~}" "${HOME:+~/sub}" ${HOME:+~/sub}; path=/home/me/x; echo "${path#~}"
declare -A M=([key]=7); echo $(( M['key'] + 1 )); (( M['key'] += 2 )); echo ${M[key]}
(( q = '4' )) 2>/dev/null; echo quoted=$?; ( echo $(( '5' + 1 )) ) 2>/dev/null; echo sub=$?; echo $(( "6" + 1 ))
( echo $(( 02#11 )) ) 2>/dev/null; echo base=$?; echo $(( 2#11 )) $(( 16#ff ))"#,
    // "${a[@]+x}" of an empty array (and "${@+x}" without arguments)
    // is no word at all; "$@" with an operator still makes one word per
    // argument; in double quotes "${a[*]:-x}" is null when the elements
    // join to nothing (IFS empty)
    r#"show() { printf '<%s>' "$@"; echo " $#"; }
empty=(); one=(''); two=('' ''); three=(a b)
show "${empty[@]+plus}"; show "${empty[*]+plus}"; show "${one[@]+plus}"; show "${empty[@]:+plus}"; show "${one[@]:+plus}"; show "${two[@]:+plus}"
IFS=; show "${two[*]:-dflt}" "${two[@]:-dflt}" "${two[*]:+alt}"; unset IFS; show "${two[*]:-dflt}"
set --; show "${@+x}" "${*+y}"; set -- ''; show "${@:+x}"
set -- '' ''; IFS=; show ${*:-unq} "${*:-q}"; unset IFS
f() { echo $#; }; set --; f "${@+x}" "${@:+x}"; set -- a 'b c'; f "${@#a}" "${@:-z}"; f "${@/b/B}""#,
    // source: a folder and a missing file fail with status 1 (a folder
    // as `is a directory`); /dev/stdin is readable
    r#"source / 2>/dev/null; echo dir=$?; source /no/such/file 2>/dev/null; echo missing=$?; source /dev/stdin <<< 'echo from-stdin'
source / 2>&1 | grep -c 'is a directory'"#,
    // associative arrays list their keys in bash's own order (its hash
    // table's walk), through a replaced key, an unset one, a copy and a
    // table that has grown past its first size
    r#"declare -A m=([apple]=1 [pear]=2 [fig]=3 [kiwi]=4 [plum]=5 [é]=6)
echo "${!m[@]}"; echo "${m[@]}"; m[fig]=33; unset 'm[pear]'; m[lime]=7; declare -p m
for k in "${!m[@]}"; do printf '%s=%s ' "$k" "${m[$k]}"; done; echo
declare -A big; for i in $(seq 2100); do big[n$i]=$i; done; echo "${!big[@]}" | md5sum; echo ${#big[@]}"#,
    // set -v echoes each command's source as it is read (comments before
    // it included, through eval and child shells); a lone `-` ends a
    // shell's options; `~name` of a user the sandbox does not know stays
    // as written, and a tilde opening an =~ regex matches its home
    // literally; set -u makes ${x@Q} of an unset x an error
    r#"printf 'echo one $1\n' > v.sh
bash -v - v.sh arg 2>&1; bash -c 'set -v
# a comment
echo two; eval "echo three"
set +v; echo quiet' 2>&1
echo ~ghost ~root; HOME='x.y'; [[ x.y =~ ~ ]]; echo lit=$?; [[ xzy =~ ~ ]]; echo dot=$?
( set -u; echo "${unset_here@Q}" ) 2>/dev/null; echo nounset=$?"#,
    // a variable's value evaluated as arithmetic expands the subscripts it
    // names (bash's known injection); set -C refuses &> as it refuses >;
    // GNU sed reads \t and \n inside brackets; declare -A keeps a scalar
    // as element "0" and refuses any indexed array; an interactive child
    // starts in emacs mode, and long options must come before short ones
    r#"nums=(10 20 30); pick='nums[$(echo 1)]'; echo $(( pick + 1 )); sel=(a b c); sel[pick]=X; echo "${sel[@]}"
set -C; echo one > kept; echo two &> kept; echo clobber=$?; cat kept; set +C
printf 'p\t q  r\n' | sed 's/[ \t]\+/_/g'; printf 'l1\nl2\n' | sed 'N;s/[\n]/+/'
word=w; declare -A word+=([k]=v); declare -p word; e=(); declare -A e 2>/dev/null; echo conv=$?; declare -p e
bash --norc -i -c 'test -o emacs; echo emacs=$?' 2>/dev/null; bash -x --norc -c 'echo no' 2>/dev/null; echo long=$?"#,
    // set -e leaves a compound command alone when its failure came from a
    // command exempt from it (`false && x` inside braces) but ends the
    // shell when the compound's own redirection fails; PIPESTATUS is
    // unset until a first command has run; "${!prefix@}" is one word per
    // name
    r#"bash -c 'echo "${PIPESTATUS[@]-unset}"; true | false; echo ${PIPESTATUS[@]}'
bash -c 'set -e; { false && true; }; echo still=$?; if true; then false || false && true; fi; echo two; { echo x; } > /no/such 2>/dev/null; echo notreached'; echo rc=$?
abc1=1 abc2=2; f() { printf "<%s>" "$@"; echo " $#"; }; f "${!abc@}" "${!abc*}""#,
    // set -u makes an unset variable fatal in arithmetic too (a
    // subscripted read fails only when the array has no element at all);
    // a declaration's expanded `name+=value` appends and, with -a, its
    // parenthesised value is an array literal; export and readonly refuse
    // subscripts; `${s: c ? 2 : 0 : 1}` keeps the conditional's colon;
    // brace expansion turns `[k]=-{a,b}-` into plain elements; unset of
    // an index before the start fails; -f before an operator is an operand
    r#"bash -c 'set -u; a=(1); echo $(( a[5] )); echo $(( undef[0] )); echo no' 2>&1; echo rc=$?
bash -c 'set -u; (( y++ )); echo no' 2>/dev/null; echo rc=$?; bash -c 'set -u; let y+=1' 2>/dev/null; echo rc=$?
dyn=x; typeset s${dyn}+=foo s${dyn}+=bar; echo $sx; code='x=(1 2 3)'; typeset -a "$code"; declare -p x
y=(1 2); declare y+=3 y[5]+=x; declare -p y; declare -i n=4; declare n+=3; echo $n
readonly b[7]=8 2>/dev/null; echo ro=$?; export a[7]=8 2>/dev/null; echo ex=$?; declare -p a b 2>&1 | wc -l
s=abcd; echo ${s: 0 < 1 ? 2 : 0 : 1} ${s:1:2} ${s: -2}
a=([k2]=-{a,b}-); declare -p a; a=(x [2]=y{1..2}); declare -p a; declare -A A; A=([k]={a,b}); declare -p A
a=(1); unset 'a[-2]' 2>/dev/null; echo neg=$?; unset 'a[-1]'; declare -p a; s=1; unset 's[-1]' 2>/dev/null; echo scalar=$?
[[ -f == ]]; echo $?; [[ -n == ]]; echo $?; loop='i<=100&&(s+=i,i++,loop)' s=0 i=0; echo $((a=loop,s))
declare -A E; (( E["$nokey"] = 42 )) 2>/dev/null; echo ${#E[@]}; declare -n ref=s; declare -pn | grep -c ref"#,
    // chmod's setuid, setgid and sticky bits (symbolic and octal) and X;
    // ls and find -printf %M show them; /tmp is sticky and world-writable
    r#"ls -ld /tmp | cut -c1-10; test -k /tmp; echo sticky=$?; touch a b; mkdir d
chmod u+s a; chmod 2755 b; chmod a-x,a+X d a; test -u a; echo u=$?; test -g a; echo g=$?; test -g b; echo g=$?
ls -l a b | cut -c1-10; stat -c '%a %A %n' a b d; find . -name b -printf '%M\n'; chmod +t d; stat -c %A d"#,
    // unset of a caller's local uncovers what it hid (a function's own
    // stays declared and unset); a background job's own failure sets off
    // no ERR trap; a negation holds off only a set -e already on; a
    // carriage return is part of a word; an escaped - in brackets is
    // literal; let reads x=( 1 + 2 ) as one word; BASH_LINENO and
    // caller; regcomp's refusals under =~ and GNU's {,m} and lone )
    r#"u() { unset "$1"; }; f() { local v=in; u v; echo "${v-unset}"; local w=1; unset w; echo "${w-unset}"; }; v=out w=g; f
bash -c 'set -E; trap "echo err \$LINENO" ERR; false & wait; { false; echo async; } & wait'
bash -c 'g() { set -e; false; echo no; }; ! g; echo after'; echo rc=$?; bash -c 'set -e; g() { false; echo inner; }; ! g; echo after'
printf 'echo\rX\n' > cr.sh; bash cr.sh 2>/dev/null; echo cr=$?; touch f.- c.C; echo *.[C\-D] *.[C-D]; case ^ in [\^a]) echo caret;; esac
let x=( 1 ) y=( x + 2 ); echo $x $y; h() { echo $((BASH_LINENO)) "${BASH_LINENO[@]}"; caller; caller 0; caller 1; echo $?; }; h
for r in '*' '{' 'a{' 'a{1}' 'x{a}' '$*' 'a{,2}' ')' 'a{2,1}'; do [[ 'a{' =~ $r ]]; printf '%s ' $?; done; echo
echo 'a)b x{,2}' | grep -E -o 'a\)|x{,2}'"#,
    // a case that runs no command and a function definition keep
    // PIPESTATUS; ls lists the shell's devices; $\<newline>? is $?;
    // $(< file) reads the file; >&file and 1>&file are &>file; cmd 6>&7-
    // leaves 7 closed (bash's bug); ${!ref:-x} through ref='a[@]' asks
    // for elements only; ${s:} is a bad substitution, ${s::} is not; a
    // bare declare lists as set does with $'..' for control characters;
    // a syntax error inside an array literal drops the line (status 1)
    r#"false; case x in y) ;; esac; f() { :; }; echo "${PIPESTATUS[@]}"; ls /dev/null | eval 'cat | cat' | wc -l
echo $\
?; seq 2 3 > n.txt; v=$(< n.txt); echo "[$v]" "[`< n.txt`]"; w=$(< missing 2>/dev/null); echo rc=$?
ls nope 1>&both.txt; cat both.txt | wc -l; exec 7> seven.txt; : 6>&7-; echo lost >&7 2>/dev/null; echo moved=$?
a=(""); ref='a[@]'; echo "[${!ref:-x}] [${a[@]:-x}]"; s=123; echo "[${s::2}] [${s: }]"; bash -c 's=1; echo ${s:}; echo no' 2>/dev/null; echo bad=$?
zz=$'one\ttwo'; declare | grep '^zz='; declare -p zz; g() { :; }; declare | grep -c '^g ()'
printf 'x=(a (b))\necho next $?\n' > pe.sh; bash pe.sh 2>/dev/null; echo pe=$?"#,
    // caller's bad operands: a non-number and an option are status 2,
    // outside any function it is status 1 whatever the operand
    r#"f() { caller x 2>/dev/null; echo x=$?; caller -1 2>/dev/null; echo opt=$?; caller 3; echo far=$?; }; f; caller x; echo top=$?"#,
    // Bindings before a command are a frame of their own: a function's
    // become its frame (unset reveals the global, local claims them), an
    // eval's are a scope, and other commands' are gone after them.
    r#"unlocal() { unset -v "$1"; }
f() { echo "in:$v"; v=changed; unset v; echo "after unset:${v-unset}"; }
v=global; v=temp f; echo "out:$v"
g() { local v; echo "local inherits:$v"; unlocal v; echo "unlocal:${v-unset}"; }
v=temp g
h() { local v=l1; v=t2 eval 'local v=l2; unlocal v; echo "eval:$v"'; echo "h:$v"; }
h
k() { x=4 local x; x=5; echo "k:$x"; }; k; echo "x:${x-unset}"
x=1 read x <<< hi; echo "read:[$x]"
a=1 b=$a sh -c 'echo "env:$a $b"'
x=1; x=$x.2 sh -c 'echo "self:$x"'; echo "x:$x"
x=42; x=tmp unset x; echo "unset:$x"
set -o posix; y=9 export y; echo "posix:$y"; z=1 unset z; echo "z:[${z-unset}]"
"#,
    // TZ names the clock: the IANA database, POSIX rules, unknown names
    // as UTC under their letters; a TZ not exported is not the
    // environment's; ls shows the year for a file older than six months
    r#"export TZ=Asia/Tokyo
printf '%(%Y-%m-%d %H:%M %Z %z)T\n' 1557978599
date -d @1557978599; date -u -d @1557978599
TZ=America/New_York date -d @1557978599 '+%F %T %Z %:z'
TZ=Portugal date -d '2019-05-16 12:00' +%s
TZ=UTC+3 date -d @0 '+%F %T %Z %z'; TZ='<+03>-3' date -d @0 +%H%Z
TZ=Foo/Bar date -d @0 '+%T [%Z]'
unset TZ; printf '%(%H %Z)T\n' 0
TZ=Asia/Kolkata; printf '%(%H %Z)T\n' 0
touch -d '2020-01-01 00:00' f; TZ=Asia/Tokyo stat -c '%y' f
TZ=Asia/Tokyo ls -l f | awk '{print $6,$7,$8}'
TZ=Asia/Tokyo find f -printf '%t\n'
TZ=Asia/Tokyo touch -t 202001010900 g; stat -c %Y g
TZ=Asia/Tokyo awk 'BEGIN{print strftime("%H:%M %Z", 0); print strftime("%H", 0, 1)}'
"#,
    // A shell signalled by one it waits on (a subshell, sh -c, a child's
    // child) takes the signal when that command ends; kill -0 only asks.
    // (The subshell bash orphans writes when it likes: its echo goes to
    // stderr, dropped, so the order of the lines is bash's own.)
    r#"trap 'echo "usr1 status=$?"; (exit 42)' USR1
sh -c "kill -USR1 $$"; echo "after=$?"
( kill -USR1 $$; echo in-sub ); echo "after2=$?"
( ( kill -USR2 $BASHPID 2>/dev/null; kill -0 $$; echo zero=$? ) ) 2>/dev/null; echo "nested=$?"
bash -c "sh -c 'kill -USR1 $$'; echo grandchild-sent"
bash -c '( kill -TERM $$; echo still >&2 ); echo not reached' 2>/dev/null; echo "child=$?"
"#,
    // Aliases reach backquotes and here-documents' substitutions, and a
    // for loop's words right after an alias ending in a blank
    r#"shopt -s expand_aliases
alias e='echo A'
alias FOR1='for ' FOR2='FOR1 ' eye1='i ' eye2='eye1 ' IN='in ' onetwo='$one "2" '
cat <<EOF
$(e 5)
EOF
echo `e 4` "`e 6`"
FOR1 eye1 in 3; do echo c$i; done
one=1
FOR2 eye2 IN onetwo 3; do echo $i; done
"#,
    // Namerefs to elements: reads go through ("$r" of 'a[@]' is the
    // array's words), element and list writes are refused; a list given
    // to an unset nameref makes it an array; history -5 is an option
    r#"typeset -n ref='a[@]'
a=('A B' C)
printf '<%s>' ref "$ref"; echo
ref=(X Y Z) 2>/dev/null
echo status=$?
printf '<%s>' 'ref[@]' "${ref[@]}" 'a[@]' "${a[@]}"; echo
array=(X Y Z)
typeset -n r2='array[0]'
r2[0]=foo 2>/dev/null
echo status=$? ${array[@]} $r2
r2=new; echo ${array[@]}
typeset -n r3
r3=(x y) 2>/dev/null
echo r3=$r3; declare -p r3
history -5 2>/dev/null; echo history=$?
"#,
    // A bad substitution bash finds reading the word, a negative substring
    // length and ${1:=x} abandon the line only; ${x@Z} ends the shell. With
    // extglob on, [[ !(x) ]] is a pattern word
    r#"printf '%s\n' 'eval "echo z \${(m)foo} z"; echo eval=$?' 'echo ${x:}; echo same-line' 'echo next=$?' 'f(){ echo ${x:}; echo in; }' 'f; echo not' 'echo after-f=$?' 'x=abc; echo ${x:0:-5}' 'echo sub=$?' 'echo ${1:=x}' 'echo assign=$?' 'echo ${x@Z}' 'echo not-reached' > bad.sh
bash bad.sh 2>/dev/null; echo status=$?
str=x
[[ !($str) ]] || echo FALSE
shopt -s extglob
[[ !($str) ]] && echo TRUE
[[ ab == !(x) ]] && echo match
[[ ! (a == b) ]] && echo negated
"#,
    // With set -o history a script's commands are recorded as its reader
    // reads them (comments apart, a multi-line command as one entry,
    // never eval's), and \! in a prompt is the running command's number
    r#"printf '%s\n' 'set -o history' 'PS1="foo \! bar"' 'history -c' 'echo "${PS1@P}"' '# a comment' 'echo "_${PS1@P}"' 'f() {' '  echo in' '}' 'eval "echo e"' 'for i in 1; do' '  echo $i | cat' 'done' 'history' > h.sh
bash h.sh
"#,
    // A syntax error inside backquotes is the substitution's when it runs
    // (empty output, status 2), not the script's
    r#"echo `echo "` 2>/dev/null; echo st=$?
x=`echo "` 2>/dev/null; echo "st=$? [$x]"
echo "`echo "a b"`"
"#,
    // Where an assignment could be, name[ runs to its matching ]: one
    // word with blanks inside when no = follows, a syntax error unclosed
    r#"for s in 'a[' 'a[5 +' 'a[5 + 3] ; echo ok' 'a[5 + 3]+; echo ok' 'a[5 + 3]=x; echo ${a[8]}' 'a[5 + 3]+=x; echo ${a[8]}' 'echo a[5 +' 'x=1 a[5 +'; do bash -c "$s" 2>/dev/null; echo "st=$?"; done
"#,
    // Values are C strings as in bash: $'...' and ${x@E} end at a NUL,
    // read drops NULs, a mapfile element ends at one
    r#"echo $'a\0b' | od -An -tx1
s=$'x\U0z'; echo ${#s}; test -n $'\0'; echo st=$?
printf '.\000.\n' | { read v; echo ${#v}; }
printf '1\0002\000' | { mapfile -d '' arr; echo ${#arr[@]} "${arr[0]}${arr[1]}"; }
printf '.\000.\n.\000.\n' | { mapfile L; echo "${#L[@]} ${L[0]}${L[1]}"; }
printf 'a\000b\000' | while read -r -d '' w; do echo "w=$w"; done
x='a\0b'; y=${x@E}; echo ${#y}
"#,
    // A file with a NUL before its first newline is binary: bash and ./
    // refuse to run it (126); a later NUL is no matter
    r#"printf 'echo one \0 echo two\n' > nb.sh; chmod +x nb.sh
bash nb.sh 2>/dev/null; echo st=$?; ./nb.sh 2>/dev/null; echo st=$?
printf 'echo fine\n\0\n' > late.sh; bash late.sh 2>/dev/null; echo st=$?
"#,
    // A folder opened for reading: the redirection succeeds, reads fail
    // (mapfile and a while-read loop end with 0, read and cat with 1)
    r#"mkdir -p dir
mapfile x < dir; echo st=$? ${#x[@]}
read x < dir 2>/dev/null; echo st=$?
cat < dir 2>/dev/null; echo st=$?
exec 3< dir; echo st=$?; exec 3<&-
while read l; do echo $l; done < dir 2>/dev/null; echo st=$?
sort < dir 2>/dev/null; echo st=$?
"#,
    // ls -l: the hour within six months, the year for older files and
    // for files dated in the future
    r#"touch recent; touch -d '2020-01-01 10:00' old; touch -d '2099-06-01 10:00' future
ls -l recent old future | awk '{print $9, ($8 ~ /:/ ? "hour" : $8)}'
"#,
    // Bytes that are not UTF-8 survive values, substitutions, read,
    // here-strings and quoting; the C locale reads strings as bytes
    r#"x=$'\xff'; y="$(printf 'a\377b')"; printf '%s|%s' "$x" "$y" | od -An -tx1
echo ${#x} ${#y}; printf '%q %q\n' "$x" $'\xce\xbc\xce'; echo "${y@Q}"; declare -p x
cat <<< "$x$y" | od -An -tx1
printf 'a\376\n' | { read r; printf %s "$r" | od -An -tx1; }
printf -v z '\xfe%s' "$x"; printf %s "$z" | od -An -tx1
printf '%c' $'\xe9t' | od -An -tx1
s='_μ_ and _μ_'; echo ${#s} "${s//_?_/X}"
touch _x_ _μ_; echo _?_
LC_ALL=C; echo ${#s} "${s//_?_/X}" "${s:1:2}"; echo _?_
case μ in ??) echo two bytes;; esac; [[ μ == ? ]] || echo not one
LC_ALL=C.UTF-8; [[ μ == ? ]] && echo one; echo ${#s}
"#,
    // An array declared and never assigned prints without =(), and is
    // not in set's listing; readonly -a and export -a make no array;
    // a+=() is an (empty) assignment, not a function
    r#"declare -a x; declare -A y; declare -p x y; set | grep -c '^[xy]='
readonly -a r; export -a e; declare -p r e
f() { local -a la; declare -p la; }; f
declare -a q; q[0]=1; unset 'q[0]'; declare -p q
declare -a p; p+=(); declare -p p; declare -a m; mapfile m < /dev/null; declare -p m
declare -a w=(); declare -p w; declare -a v; declare -r v; declare -p v
"#,
    // An argument of declare is a word like any other: a subscript with
    // blanks splits it (in command position it is one assignment), and
    // a word that is no identifier is named whole, value and all
    r#"declare a[ 1 ]=x 2>&1; echo st=$?; a[1 + 2]=y; declare -p a
declare b[b[0]=1]=X; declare -p b; declare ]=x 2>&1; export 9a=1 2>&1; readonly a-b=c 2>&1; echo st=$?
"#,
    // ${x/pattern/...} tries only matches as long as bash counts the
    // pattern: a negated bracket holding a first `]` counts two, so
    // `[^]]` replaces nothing there while `#` and `%` still match it
    r#"s='ab^cd^'; t='a]b]'; p='[^]]'
echo "${s//$p/z}" "${s/$p/z}" "${s/#$p/z}" "${s/%$p/z}" "${s#$p}" "${s%$p}"
echo "${t//[!]]/z}" "${t//[]]/z}" "${t//[a]]/z}" "${t//[[:alpha:]]/z}" "${t/#[a]]/z}" "${t/%[b]]/z}"
echo "${s//?c/X}" "${s//c?/X}" "${s/%d?/X}" "${s//\^/-}" "${s//[^a-c]/.}"
shopt -s extglob; echo "${s//@(b|d)/Y}" "${s//+(c)d/Y}"
u='αβγ'; echo "${u//β?/X}" "${u/#??/X}"
"#,
    // Brace expansion works on the word's text: name characters put
    // after a bare $name join its name ($a_c); ${a}, $1 and $@ keep theirs
    r#"a=1; ax=2; a_c=C; echo $a{x,y}; echo {$a,b}_{c,d}; echo {_$a,b}_{c,d}
echo ${a}{x,y} {"$a",b}_c; set -- p; echo {$1,b}2 {$@,q}x {$a,b}-{c,d}
"#,
    // A letter sequence across Z..a makes \ and ` that are syntax again
    // in the word's text: the backslash escapes or leaves an empty word,
    // the backquote opens a substitution nothing closes (the command is
    // abandoned, status 1) unless it ends the word
    r#"printf '<%s>' {Z..a}; echo; printf '<%s>' x{Z..a}; echo; printf '<%s>' {a..Z..2}; echo
echo -{z..A}-; echo st=$?; printf '<%s>' {Z..a}y 2>/dev/null; echo st=$?
"#,
    // A ( ) ending a pipeline is waited for as a subshell: its failure
    // sets off the ERR trap (and set -e) before the pipeline's own
    r#"trap "echo E" ERR; true | (false); echo ---; (false) | true; echo ---; ! true | (false); echo ---
if true | (false); then :; fi; true | (false) || :; echo ---; set -o pipefail; (false) | (true); echo ---
f() { true | (false); }; f; echo ---; x=$(true | (false)); echo "[$x]"; true | { false; }; echo ---
set +o pipefail; shopt -s lastpipe; true | (false); echo ---; true | { false; }; echo ---
shopt -u lastpipe; true | (false) & wait; echo ---
set -e; ! true | (false); echo survived; true | (false); echo no
"#,
    // read's last name takes the rest minus trailing IFS whitespace,
    // escaped or not, but never its first character: an escaped blank
    // left alone there is bash's escape marker \x01
    r#"IFS=' '; read a b <<< 'x y z\ '; printf '[%q]' "$b"; read a b <<< 'x \  \ '; printf '[%q]' "$b"
read a b <<< 'x \ y \ '; printf '[%q]' "$b"; IFS=' :'; read a b <<< 'x y: \ '; printf '[%q]' "$b"
IFS='x '; echo 'x\  \ ' | (read a b; printf '[%q][%q]\n' "$a" "$b"); read -r a b <<< 'x y\ '; printf '[%q]\n' "$b"
"#,
    // A here-document opened in an alias's text reads its body from the
    // lines after the one the alias was used on; the alias's own lines
    // after the <<EOF are commands
    r#"shopt -s expand_aliases; alias c='cat <<EOF
echo in-alias
EOF
'
c
body line
EOF
echo "after $?"
alias d='cat <<X; echo mid'
d; echo same-line
from after
X
echo end
"#,
    // test sees a utility where command -v says it lives: an executable
    // file in /usr/bin and /bin, so the usual "is it installed" check holds
    r#"for c in ls grep sed awk; do [ -x "$(command -v $c)" ] && echo "$c ok"; done
[ -x /usr/bin/surely-not-here ] || echo none; [ -f /bin/cat ] && [ -s /usr/bin/cat ] && [[ -r /bin/ls ]] && echo files
[ -d /usr/bin/ls ] || echo "not a folder"; [ -x ./ls ] || echo "not here"
"#,
    // ${x@Q}, declare -p and printf %q write a control character the
    // same way: C escapes where C has one (\a \b \f \v), octal bytes of
    // its UTF-8 otherwise (U+0085 is \302\205)
    r#"x=$'\a\b\f\v\x01\x7f\e'; y=$'\u0085z'; z=$'a\nb\xff'; w="it's"
echo ${x@Q} ${y@Q} ${z@Q} ${w@Q}; printf '%q ' "$x" "$y" "$z" "$w"; echo; declare -p x y z w
a=("$x" "$y"); declare -p a; echo "${a[@]@Q}"; declare -A m=(["$y"]=1); declare -p m
"#,
];
