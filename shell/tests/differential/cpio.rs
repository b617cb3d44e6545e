//! `cpio` as people use it with `find` (issue 49, item 5): copy-out in
//! each format GNU writes, listing (`-t`, `-tv` in GNU's long form),
//! copy-in with and without `-d`, `-u` and `-m`, patterns, pass-through,
//! and GNU's messages, block counts and statuses. (Archives are compared
//! by what they hold and their size, not byte for byte: GNU writes the
//! host's device and inode numbers. Owners are set with `-R`, as the
//! oracle runs as root.)

pub const CASES: &[&str] = &[
    // Copy-out in every format, and what each archive holds.
    r#"mkdir -p d/sub; printf 'hello\n' > d/a.txt; seq 1000 > d/sub/n.txt; ln -s a.txt d/link; touch -h -d '2024-01-02 03:04:05' d/a.txt d/sub/n.txt d/sub d d/link; chmod 644 d/a.txt d/sub/n.txt; chmod 755 d d/sub; for f in bin odc newc crc; do find d | sort | cpio -o -H $f -R 0:0 > $f.cpio 2> err; echo "st $? $(cat err)"; wc -c < $f.cpio; cpio -t < $f.cpio 2>&1; cpio -tv < $f.cpio 2>&1; done; find d | sort | cpio -oc 2>/dev/null | head -c 6; echo; find d/a.txt | cpio -o -R 7:9 2>/dev/null | cpio -tvn 2>&1; find d | sort | cpio --create --format=newc --owner=0:0 --quiet | cpio -it --quiet"#,
    // Byte for byte as GNU writes them, once each header's device and
    // inode numbers are blanked (GNU writes the host's).
    r#"mkdir s; printf 'hello\n' > a.txt; ln -s a.txt l; touch -h -d '2024-01-02 03:04:05' a.txt s l; chmod 644 a.txt; chmod 755 s; printf 'a.txt\ns\nl\n' | cpio -o -H odc -R 0:0 2>/dev/null | tr '\0' '@' | sed 's/070707[0-7]\{12\}/070707-dev-ino-/g' | md5sum; for f in newc crc; do printf 'a.txt\ns\nl\n' | cpio -o -H $f -R 0:0 2>/dev/null | tr '\0' '@' | sed -E 's/(07070[12])[0-9A-F]{8}([0-9A-F]{48})[0-9A-F]{16}/\1-ino----\2-dev------------/g' | md5sum; done"#,
    // Names from find -print0, names that are not there (status 2, the
    // rest archived), -v naming each on stderr, -F for the archive.
    r#"find src -name '*.rs' -print0 | sort -z | cpio -o0 -H newc -F rs.cpio 2>&1; cpio -t -F rs.cpio 2>&1; printf 'README.md\nnosuch\ndata/words.txt\n' | cpio -ov -H odc > m.cpio 2> err; echo "st $?"; cat err; cpio -it < m.cpio 2>&1"#,
    // Copy-in: folders from the archive's own entries, or with -d; what
    // is there and as new is kept (GNU's warning, status 0) unless -u;
    // -m keeps the archived times; -D; patterns and -f.
    r#"mkdir -p d/sub; printf 'hello\n' > d/a.txt; seq 20 > d/sub/n.txt; touch -d '2024-01-02 03:04:05' d/a.txt d/sub/n.txt; find d | sort | cpio -o -H newc > a.cpio 2>/dev/null; printf 'd/sub/n.txt\n' | cpio -o -H newc > s.cpio 2>/dev/null; mkdir x; cd x; cpio -i < ../s.cpio; echo "st $?"; cpio -id < ../s.cpio; echo "st $?"; find . | sort; cpio -i < ../s.cpio; echo "st $?"; cpio -iu < ../s.cpio; echo "st $?"; cd ..; mkdir y; cpio -idm -D y < a.cpio 2>&1; echo "st $?"; find y | sort; stat -c '%y %a %n' y/d/a.txt y/d/sub/n.txt; cat y/d/a.txt; mkdir z; cd z; cpio -idv '*.txt' < ../a.cpio 2>&1; find . | sort; cd ..; mkdir w; cd w; cpio -idf 'd/sub*' < ../a.cpio 2>&1; find . | sort; cd ..; cpio -i -D nosuch < a.cpio 2>&1; echo "st $?""#,
    // Pass-through: below the folder given, with -d; without it a file
    // whose folder is not there fails; -v names what was copied.
    r#"mkdir p q; find src data/words.txt | sort | cpio -pdv p 2>&1; echo "st $?"; find p | sort; cat p/data/words.txt; printf 'README.md\ndata/words.txt\n' | cpio -pv q 2>&1; echo "st $?"; find q | sort; printf 'README.md\n' | cpio -p 2>&1; echo "st $?"; printf 'README.md\n' | cpio -p q r 2>&1; echo "st $?""#,
    // What is refused: no mode, two modes, an unknown format or option,
    // an archive cut short, input that is no archive.
    r#"cpio < /dev/null 2>&1; echo "st $?"; cpio -o -i < /dev/null 2>&1; echo "st $?"; cpio -o -H bogus < /dev/null 2>&1; echo "st $?"; cpio -x 2>&1; echo "st $?"; printf 'README.md\n' | cpio -o -H newc 2>/dev/null | head -c 200 > cut.cpio; cpio -t < cut.cpio 2>&1; echo "st $?"; echo junk | cpio -t 2>&1; echo "st $?"; printf 'README.md\n' | cpio -o -R nobody-here 2>&1; echo "st $?""#,
];
