//! Symbolic links (docs/vfs.md, issue 19 item 4): made with `ln -s`,
//! read with `readlink`, followed by every command that opens a path,
//! and treated as GNU's tools treat them by `ls`, `stat`, `find`, `cp`,
//! `mv`, `rm`, `tar`, `test`, `realpath` (paths shown relative to the
//! working folder, which differs between the two sides).

pub const CASES: &[&str] = &[
    r#"ln -s data/words.txt w; cat w | head -2; readlink w; test -L w && echo link; test -h data || echo not-a-link; [ -e w ] && echo exists"#,
    r#"ln -s nowhere d; test -e d || echo dangling; test -L d && echo still-a-link; readlink d; cat d 2>&1; echo "st $?""#,
    r#"ln -s data dl; ls dl; ls -d dl; head -1 dl/numbers.txt; realpath dl/numbers.txt | sed "s|$PWD|.|"; readlink -f dl/x | sed "s|$PWD|.|"; readlink -e dl/x; echo "st $?""#,
    r#"ln -s a b; ln -s b a; cat a 2>&1; echo "st $?"; test -e a || echo loop"#,
    r#"ln -s data/words.txt w; ln -s data/words.txt w 2>&1; echo "st $?"; ln -sf data/numbers.txt w; readlink w; ln -sv data/words.txt w2"#,
    r#"mkdir d; ln -s ../data/words.txt d/; ls d; head -1 d/words.txt; ln -s ../data/numbers.txt ../data/words.txt d 2>&1; echo "st $?""#,
    r#"ln -s data/words.txt w; rm w; ls data/words.txt; test -e w || echo gone; ln -s data dl; rm dl; ls -d data; ln -s data dl2; rm -r dl2; ls data | head -1"#,
    r#"ln -s words.txt data/w2; cp data/w2 copy; test -L copy || echo regular; cp -P data/w2 copy2; readlink copy2; cp -r data data2; readlink data2/w2; cp -rL data data3; test -L data3/w2 || echo followed"#,
    r#"ln -s words.txt data/w2; find data -type l; find -L data -type l; find data -name w2 -printf '%y %l\n'; find . -type l | sort"#,
    r#"ln -s data/words.txt w; mv w w2; readlink w2; echo x > w2; head -1 data/words.txt; echo more >> w2; tail -1 data/words.txt"#,
    r#"ln -s data dl; stat -c '%F %N' dl; stat -L -c %F dl; file dl; ls -l dl | cut -c1-10"#,
    r#"ln -s notes n; ls -F | tr '\n' ' '; echo; ls -lF n | cut -c1; ls n"#,
    r#"ln -s ../x data/up; readlink -m data/up | sed "s|$PWD|.|"; realpath -m data/up/y | sed "s|$PWD|.|"; realpath -s data/up | sed "s|$PWD|.|"; realpath data/up 2>&1 | sed "s|$PWD|.|""#,
    r#"ln -s words.txt data/l; tar cf a.tar data/l data/words.txt; rm -r data; tar tf a.tar; tar xf a.tar; readlink data/l; head -1 data/l"#,
    r#"mkdir -p real/sub; echo deep > real/sub/f; ln -s real r; cd r/sub; cat f; cd ..; ls; mkdir -p ../r/new; ls ../real"#,
    r#"ln -s data dl; grep -r banana . | sort; grep -R banana . | sort"#,
    r#"ln -s data/numbers.txt n; sort -n n | head -2; wc -l n; sed -n 2p n; awk 'NR==1' n; cut -c1 n | head -1"#,
    r#"ln -s data/words.txt w; chmod 600 w; stat -c %a data/words.txt; touch w; test -L w && echo still"#,
];
