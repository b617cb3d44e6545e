//! `find` as the one-liners use it (issue 49, item 3): `-newermt` and
//! `-newerXY`, `-regextype` and the Emacs syntax of `-regex` by default,
//! `-links`, `-daystart`, and `-printf` with widths, precisions and the
//! time directives. Times are set with `touch -d` (TZ is UTC both ways);
//! `2>&1` where the message is the behaviour.

pub const CASES: &[&str] = &[
    // -newermt and -newerXY against dates and files; a date it cannot read.
    r#"touch -d '2024-01-02 03:04:05' src/lib.rs; touch -d '2025-06-07 08:09:10' data/*; find . -type f -newermt 2025-01-01 | sort; find . -newermt 2099-01-01; find src -newermm src/lib.rs -name '*.rs' | sort; find . -newer src/lib.rs -path './data/*' | sort; find . -newermt 'no such date' 2>&1; echo "st $?""#,
    // No birth time: GNU says so and refuses the test.
    r#"find . -newerBt 2025-01-01 2>&1; echo "st $?"; find . -newerXt 1 2>&1; echo "st $?""#,
    // -regex: Emacs syntax by default (\| and \( are the operators),
    // then each -regextype.
    r#"find . -regex '.*\.\(rs\|md\)' | sort; find . -regex '.*(rs).*'; find . -regextype posix-extended -regex '.*/[a-z]+\.(csv|json)' | sort; find . -regextype posix-basic -regex '.*/\(lib\|main\)\.rs' | sort; find . -regextype egrep -iregex '.*README.*'; find . -regextype nope -regex x 2>&1; echo "st $?""#,
    // -links: a folder's count is two and one per subfolder.
    r#"find . -type d -links 2 | sort; find . -links +2 | sort; find src -links 1 -type f | sort; find . -links -2 -name '*.txt' | sort"#,
    // -daystart: ages from the start of tomorrow.
    r#"touch -d '3 days ago' data/numbers.txt; find . -daystart -mtime +1 -type f | sort; find . -daystart -mtime 0 -name '*.md'; find . -daystart -mmin -5 -name numbers.txt; echo "st $?""#,
    // -printf: fields, widths, precisions, # for %m, and links, blocks.
    r#"find . -type f -printf '%f %s %M %d %p %h %P %y %m %n %k %b %H\n' | sort; find data -printf '%16f|%-6s|%6s|%.3f|%#m|%-4d|\n' | sort"#,
    // -printf's times: %T@, %T+, %t, and strftime's letters, fractions
    // where GNU shows them.
    r#"touch -d '2024-01-02 03:04:05' src/lib.rs; find src/lib.rs -printf '%T@ %T+ %t %TS %TT %TX %Tc %TD %Tk %Tp %Tr %Tj %Tz %TY-%Tm-%Td %TH:%TM %Ta %Tb %Tq\n'"#,
    // A directive GNU does not know: warned of once, printed as written;
    // %f and %h of starting points written with a slash.
    r#"find src/lib.rs data/words.txt -printf '%o %w|%f\n' 2>&1; find src/ -maxdepth 1 -printf '%h|%f|%P|%H\n' | sort; find . -maxdepth 0 -printf '%h|%f|%P|%H\n'"#,
    // -ls and -fls: blocks, mode, links, size, time, name, a link's
    // target (inode and owners left out: the oracle's are its own).
    r#"touch -d '2024-03-04 05:06:07' data/*; ln -s data/words.txt lnk; find data -type f -ls | awk '{print $2, $3, $4, $7, $8, $9, $10, $11}' | sort -k8; find . -maxdepth 1 -type l -ls | awk '{print $3, $7, $11, $12, $13}'; find data -name '*.csv' -fls /tmp/l; awk '{print $3, $7, $11}' /tmp/l"#,
    // -type lists, -xtype, -lname, -samefile (links followed under -L);
    // GNU's refusals.
    r#"ln -s data/words.txt lnk; ln -s nowhere dangling; find . -type f,l -maxdepth 1 | sort; find . -xtype f -maxdepth 1 | sort; find . -xtype l; find . -lname 'data/*'; find . -ilname 'DATA/*'; find . -samefile lnk; find -L . -samefile data/words.txt | sort; find . -samefile nope 2>&1; echo "st $?""#,
    r#"for t in x fd 'f,' ''; do find . -type "$t" 2>&1; echo "st $?"; done; find . -xtype q 2>&1; echo "st $?""#,
    // -execdir runs in the entry's folder and names it ./NAME; batches
    // are per folder; a starting point is ./. when it is the folder.
    r#"find data -name '*.txt' -execdir pwd \; | sed "s|^$PWD|.|" | sort; find data -execdir echo {} \; | sort; find . -maxdepth 0 -execdir echo {} \;; find data notes -name '*.txt' -execdir sh -c 'echo "$# ${PWD##*/}"' _ {} + | sort"#,
    // -ok asks on stderr and reads a line; no line is no; -ok takes no +.
    r#"find . -name words.txt -ok echo {} \; < /dev/null; echo "st $?"; echo y | find . -name words.txt -ok echo hi {} \; 2>&1; echo "st $?"; echo yes | find data -name words.txt -okdir echo {} \; 2>&1; echo; find . -ok echo {} + 2>&1; echo "st $?""#,
    // -fprint, -fprint0, -fprintf: files made before the walk, written
    // even when nothing matched; a file that cannot be made stops find.
    // (Written in the case's own folder: real bash's would land in the
    // host's /tmp, where anything already there would change the result.)
    r#"mkdir out; find data -fprint out/p1 -name '*.csv' -fprint0 out/p2; sort out/p1; od -c out/p2; find data -name '*.json' -fprintf out/p3 '%f %s\n'; cat out/p3; find data -name nothing -fprint out/p4; wc -c < out/p4; find . -fprint /nonexist/x 2>&1; echo "st $?""#,
    // Messages quote names as GNU find does in a UTF-8 locale.
    r#"find nope 2>&1; echo "st $?"; find /nonexist data -name words.txt 2>&1; echo "st $?"; find . -newer nope 2>&1; echo "st $?""#,
];
