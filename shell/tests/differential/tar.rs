//! `tar` as people use it with `find` (issue 49, item 1): append and
//! update to an archive that is there, names from a list (`-T`, `--null`),
//! `--no-recursion`, `-C` between members, the long listing of `-tv`, and
//! GNU's messages and statuses. (GNU tar archives a folder's entries in the order the file
//! system lists them: listings of folders are sorted here; owners are
//! named with `--owner`/`--group`, as the oracle runs as root.)

pub const CASES: &[&str] = &[
    // The same archive as GNU tar, byte for byte, where the input allows
    // it: names in order, owners fixed, times set or clamped (GNU's own
    // order without --sort is the file system's, and differs).
    r#"mkdir -p d/sub; printf 'hello\n' > d/a.txt; seq 1000 > d/sub/n.txt; ln -s a.txt d/link; touch -h -d '2024-01-02 03:04:05' d/a.txt d/sub/n.txt d/sub d d/link; chmod 644 d/a.txt d/sub/n.txt; chmod 755 d d/sub; tar --sort=name --owner=0 --group=0 --numeric-owner -cf t.tar d; md5sum < t.tar; wc -c < t.tar; tar tvf t.tar --numeric-owner; tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@86400 -cf m.tar d; md5sum < m.tar; TZ=UTC tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2020-01-01 00:00' -cf - d | md5sum; tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@1800000000 --clamp-mtime -cf - d | md5sum; tar --sort=name --owner=0 --group=0 --numeric-owner -cf - d/a.txt | md5sum; tar --sort=bad -cf y.tar d 2> err; echo "st $?"; head -1 err; tar --owner=alice:7 --group=staff:9 -cf n.tar d/a.txt; tar tvf n.tar --numeric-owner; tar tvf n.tar"#,
    // --format (-H): gnu and oldgnu alike, POSIX ustar (its device fields,
    // a long name split into prefix and name), GNU's long-name entry.
    r#"mkdir -p d/sub; printf 'hello\n' > d/a.txt; ln -s a.txt d/link; touch -h -d '2024-01-02 03:04:05' d/a.txt d/sub d d/link; chmod 644 d/a.txt; chmod 755 d d/sub; for f in ustar gnu oldgnu; do tar --format=$f --sort=name --owner=0 --group=0 --numeric-owner -cf - d | md5sum; done; tar -H ustar --sort=name --owner=0 --group=0 --numeric-owner -cf - d | md5sum; tar --format ustar --sort=name --owner=0 --group=0 --numeric-owner -cf u.tar d; tar tvf u.tar; tar --format=bogus -cf x.tar d 2> err; echo "st $?"; head -1 err; p=long/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb; mkdir -p $p; touch -d '2024-01-02 03:04:05' $p/cccccccccccccccccccccccccc.txt $p long/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa long; chmod 644 $p/*.txt; chmod 755 long long/* $p; tar --sort=name --owner=0 --group=0 --numeric-owner -cf - long | md5sum; tar --format=ustar --sort=name --owner=0 --group=0 --numeric-owner -cf - long | md5sum"#,
    // -r appends; an archive not there yet is made.
    r#"tar cf t.tar README.md; tar rf t.tar data/words.txt src; tar tf t.tar | sort; echo "st $?"; tar rf new.tar notes/todo.txt; echo "st $?"; tar tf new.tar"#,
    // -u: a newer file is added again; a folder whose archived file is
    // not newer is left out whole (GNU tar's way).
    r#"touch -d '2024-01-02' README.md data/*; tar cf u.tar README.md data/words.txt; touch -d '2025-01-01' data/numbers.txt; tar uf u.tar README.md data; tar tf u.tar; touch README.md; tar uvf u.tar README.md; tar tf u.tar"#,
    // Names from a list: lines, or NUL-separated with --null; a name
    // that is not there fails the run at the end, the rest archived.
    r#"find src -name '*.rs' | sort | tar cf l.tar -T -; tar tf l.tar; printf 'README.md\0notes/todo.txt\0' | tar cf n.tar --null -T -; tar tf n.tar; printf 'nosuch\nREADME.md\n' > list; tar cf m.tar --files-from=list 2>&1; echo "st $?"; tar tf m.tar"#,
    // --no-recursion: the folder alone.
    r#"tar cf nr.tar --no-recursion src data/words.txt; tar tf nr.tar; tar cf r.tar --no-recursion --recursion src/util; tar tf r.tar"#,
    // -tv: GNU's long listing (mode, owner/group, size in a column that
    // widens and stays wide, time, name; links with their targets).
    r#"touch -d '2024-01-02 03:04:05' README.md data/words.txt; tar --owner=root --group=root -cf v.tar README.md data/words.txt; tar tvf v.tar; tar --owner=alice:1234 --group=staff:99 -cf o.tar README.md; tar tvf o.tar; tar --owner=a-long-owner-name:7 --group=g:8 -cf w.tar README.md data/words.txt; tar tvf w.tar"#,
    r#"ln -s README.md lnk; touch -h -d '2024-01-02 03:04:05' lnk; tar --owner=root --group=root -cf s.tar lnk; tar tvf s.tar; tar -tvf s.tar lnk; stat -c '%y %N' lnk"#,
    // -C between members: each from the folder the ones before lead to;
    // a folder that is not there ends tar (GNU's words, status 2).
    r#"tar cf a.tar -C src lib.rs -C util strings.rs -C ../../data words.txt; tar tf a.tar; tar cf b.tar README.md -C data words.txt; tar tf b.tar; mkdir out; tar xf a.tar -C out; find out | sort; tar cf c.tar -C nosuch x 2>&1; echo "st $?"; tar xf a.tar -C nosuch 2>&1; echo "st $?""#,
    // What cannot be added to: standard output, compressed archives.
    r#"tar rf - README.md 2>&1; echo "st $?"; tar czf z.tgz README.md; tar rzf z.tgz README.md 2>&1; echo "st $?"; tar uf z.tgz README.md 2>&1; echo "st $?""#,
    // --exclude (any tail of the name, `*` across `/`), -X, --exclude-vcs,
    // on create and on list; listings sorted (GNU lists in the host's
    // directory order).
    r#"tar cf /tmp/a.tar --exclude='*.txt' data; tar tf /tmp/a.tar | sort; tar cf - --exclude=words.txt data notes | tar tf - | sort; tar cf - --exclude='notes/*' data notes | tar tf - | sort; tar cf - --exclude=data/people.csv data | tar tf - | sort; tar cf - -X <(echo '*.json') data | tar tf - | sort; mkdir -p data/.git; : > data/.gitignore; tar cf - --exclude-vcs data | tar tf - | sort; tar cf /tmp/b.tar data; tar tf /tmp/b.tar --exclude=a.txt --exclude=b.txt | sort"#,
    // Member operands: exact by default (a pattern warns when it matches
    // nothing), patterns under --wildcards (a folder brings its contents).
    r#"tar cf /tmp/a.tar data src; tar tf /tmp/a.tar 'data/*' 2>&1; echo "st $?"; tar tf /tmp/a.tar --wildcards 'data/*.csv'; tar tf /tmp/a.tar --wildcards '*util' | sort; tar tf /tmp/a.tar --no-wildcards 'data/*' 2>&1; echo "st $?"; tar tf /tmp/a.tar nothing src/lib.rs 2>&1; echo "st $?"; mkdir x; tar xf /tmp/a.tar -C x data/words.txt nothing 2>&1; echo "st $?"; find x | sort"#,
    // -a picks the compressor from the name.
    r#"tar caf /tmp/a.tar.gz data; od -A n -t x1 -N 2 /tmp/a.tar.gz; tar tzf /tmp/a.tar.gz | sort; tar --auto-compress -cf /tmp/a.tbz2 data; od -A n -c -N 3 /tmp/a.tbz2; tar tjf /tmp/a.tbz2 | sort; tar caf /tmp/a.tar data; od -A n -c -N 5 /tmp/a.tar"#,
    // Files tar cannot read: GNU's words for each, status 2.
    r#"tar tf nope.tar 2>&1; echo "st $?"; tar xf nope.tgz 2>&1; echo "st $?"; tar cf /tmp/x.tar -T nope 2>&1; echo "st $?"; tar cf /tmp/x.tar -X nope data 2>&1; echo "st $?""#,
    // A numeric --owner/--group is looked up: 0 is root's (4242 has no
    // name here or on the oracle's machine).
    r#"touch -d '2024-01-02 03:04:05' README.md; tar --owner=0 --group=0 -cf - README.md | tar tvf -; tar --owner=0 --group=0 -cf - README.md | md5sum; tar --owner=4242 --group=4242 -cf - README.md | tar tvf -"#,
    // -k/--keep-old-files refuses to replace a file (status 2, the verbose
    // line before the message), --skip-old-files passes over it, and
    // neither goes with --overwrite.
    r#"mkdir -p d/s; echo a > d/f; echo b > d/s/g; tar cf a.tar d; echo changed > d/f; rm d/s/g; tar xkf a.tar 2>&1; echo "st $?"; cat d/f d/s/g; echo changed > d/f; rm d/s/g; tar xf a.tar --skip-old-files 2>&1; echo "st $?"; cat d/f d/s/g; echo changed > d/f; tar xf a.tar --keep-old-files --overwrite 2>&1; echo "st $?"; cat d/f; echo changed > d/f; tar xvkf a.tar 2>&1; echo "st $?"; cat d/f; tar xkf a.tar -C /nonexistent 2>&1; echo "st $?""#,
    // --delete: what stays is kept byte for byte, the archive padded to a
    // record; a folder goes with what is under it; names not found are
    // reported (the found ones still go), patterns with --wildcards; a
    // stream passes through; an absent archive is made empty; compressed
    // archives and a second operation are refused.
    r#"mkdir -p d/sub; printf 'hello\n' > d/a.txt; seq 1000 > d/sub/n.txt; echo b > d/b.rs; touch -d '2024-01-02 03:04:05' d/a.txt d/sub/n.txt d/b.rs d/sub d; tar --sort=name --owner=0 --group=0 -cf t.tar d; cp t.tar u.tar; tar --delete -f t.tar d/sub; echo "st $?"; tar tvf t.tar; md5sum < t.tar; wc -c < t.tar; tar --delete -f t.tar nosuch d/a.txt 2>&1; echo "st $?"; tar tf t.tar; tar --delete -f t.tar 'd/*.rs' 2>&1; echo "st $?"; tar --wildcards --delete -f t.tar 'd/*.rs'; echo "st $?"; tar tf t.tar; cp u.tar v.tar; tar --delete -f v.tar; cmp u.tar v.tar && echo same; tar --delete -f v.tar nosuch 2>&1; cmp u.tar v.tar && echo same"#,
    r#"mkdir -p d; echo a > d/a; echo b > d/b; touch -d '2024-01-02 03:04:05' d d/a d/b; tar --sort=name --owner=0 --group=0 -cf u.tar d; tar --delete d/a < u.tar | tar tf -; echo "st $?"; tar --delete -f - d/b < u.tar | md5sum; tar --delete -f gone.tar d 2>&1; echo "st $?"; wc -c < gone.tar; gzip -c u.tar > u.tgz; tar --delete -zf u.tgz d 2>&1; echo "st $?"; tar --delete -f u.tgz d 2>&1; echo "st $?"; tar -c --delete -f u.tar d 2>&1; echo "st $?"; tar --delete -x -f u.tar 2>&1; echo "st $?"; tar tf u.tar; p=long/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb; mkdir -p $p; echo x > $p/cccccccccccccccccccccccccc.txt; echo y > long/z; touch -d '2024-01-02 03:04:05' $p/* $p long/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa long long/z; for f in gnu ustar; do tar --format=$f --sort=name --owner=0 --group=0 -cf l.tar long; tar --delete -f l.tar $p/cccccccccccccccccccccccccc.txt; tar tf l.tar; md5sum < l.tar; done"#,
];
