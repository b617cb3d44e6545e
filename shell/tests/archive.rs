//! `tar` and `gzip` over the VFS: round trips, archives made elsewhere,
//! and the hostile ones (names climbing out, decompression bombs).

#[path = "support/run.rs"]
mod run;

use std::io::Write;
use std::time::Duration;

use goccia_shell::Limits;
use goccia_vfs::VfsPath;

/// A VFS holding `/in/a.tgz`, an archive built with the `tar` crate
/// directly (so it may hold what goccia's own tar would never write).
fn vfs_with_archive(entries: &[(&str, &[u8])]) -> goccia_vfs::SharedVfs {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, data) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        // `set_path` refuses `..`; write the raw name as a hostile tool would.
        let raw = &mut header.as_old_mut().name;
        raw[..name.len()].copy_from_slice(name.as_bytes());
        header.set_cksum();
        builder.append(&header, *data).unwrap();
    }
    let archive = builder.into_inner().unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&archive).unwrap();
    let vfs = run::fresh_vfs();
    vfs.lock().mkdir(&VfsPath::parse("/in").unwrap()).unwrap();
    vfs.lock()
        .write_file(
            &VfsPath::parse("/in/a.tgz").unwrap(),
            encoder.finish().unwrap(),
        )
        .unwrap();
    vfs
}

#[test]
fn create_list_extract_round_trip() {
    let ran = run::run(
        "mkdir -p /src/sub; echo one > /src/a.txt; echo two > /src/sub/b.txt; chmod 755 /src/a.txt\n\
         tar -czf /out.tgz -C /src . && tar -tzf /out.tgz\n\
         mkdir /dst && tar -xzf /out.tgz -C /dst && cat /dst/a.txt /dst/sub/b.txt && stat -c %a /dst/a.txt\n\
         tar -xzOf /out.tgz ./sub/b.txt",
    );
    assert_eq!(ran.status, Ok(0), "{}", ran.stderr);
    assert_eq!(
        ran.stdout,
        "./\n./a.txt\n./sub/\n./sub/b.txt\none\ntwo\n755\ntwo\n"
    );
}

/// What goccia's tar refuses where GNU's would write something else:
/// a format it does not write, a time it cannot read. Nothing is written.
#[test]
fn formats_and_times_tar_cannot_write_are_refused_naming_them() {
    let ran = run::run(
        "mkdir /d; echo x > /d/f\n\
         tar --format=pax -cf /p.tar /d; echo \"st $?\"\n\
         tar -H v7 -cf /v.tar /d; echo \"st $?\"\n\
         tar --mtime=bogus -cf /m.tar /d; echo \"st $?\"\n\
         tar --mtime=@x -cf /n.tar /d; echo \"st $?\"\n\
         ls /",
    );
    assert_eq!(
        ran.stdout, "st 2\nst 2\nst 2\nst 2\nd\ntmp\n",
        "{}",
        ran.stderr
    );
    for named in [
        "tar: --format=pax: not written here (use gnu or ustar)",
        "tar: --format=v7: not written here (use gnu or ustar)",
        "tar: --mtime=bogus: not a date (@SECONDS, or a date as date -d reads it)",
        "tar: --mtime=@x: not a date",
    ] {
        assert!(ran.stderr.contains(named), "{named}: {}", ran.stderr);
    }
}

/// cpio's members land below the folder as tar's do: a leading `/` is
/// dropped, and a name that climbs out with `..` is refused (GNU cpio
/// would write both where they point).
#[test]
fn cpio_members_stay_below_the_extraction_folder() {
    let ran = run::run(
        "mkdir -p /a/b /c/d /e; echo top > /a/up.txt; echo abs > /abs.txt; echo in > /a/b/in.txt\n\
         cd /a/b && printf '../up.txt\\nin.txt\\n' | cpio -o -H newc --quiet > /climb.cpio\n\
         echo /abs.txt | cpio -o --quiet > /abs.cpio\n\
         cd /c/d && cpio -i --quiet < /climb.cpio; echo \"st $?\"\n\
         echo changed > /abs.txt; cd /e && cpio -i --quiet < /abs.cpio; echo \"st $?\"\n\
         find /c /e -type f | sort; cat /abs.txt /e/abs.txt",
    );
    assert_eq!(
        ran.stdout, "st 2\nst 0\n/c/d/in.txt\n/e/abs.txt\nchanged\nabs\n",
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr.contains(
            "cpio: ../up.txt: not extracted: the name climbs out of the folder with `..'"
        ),
        "{}",
        ran.stderr
    );
}

/// What cpio does not do here is refused, naming it, writing nothing:
/// the ustar and tar formats, and an option's missing value.
#[test]
fn cpio_refuses_formats_it_does_not_write_and_options_without_values() {
    let ran = run::run(
        "echo x > /f\n\
         echo /f | cpio -o -H ustar > /u.cpio; echo \"st $?\"\n\
         echo /f | cpio -o --format=tar > /t.cpio; echo \"st $?\"\n\
         cpio -o -H < /f; echo \"st $?\"\n\
         wc -c < /u.cpio; wc -c < /t.cpio",
    );
    assert_eq!(ran.stdout, "st 2\nst 2\nst 64\n0\n0\n", "{}", ran.stderr);
    for named in [
        "cpio: the ustar format is not written or read here (use tar)",
        "cpio: the tar format is not written or read here (use tar)",
        "cpio: option requires an argument -- 'H'",
    ] {
        assert!(ran.stderr.contains(named), "{named}: {}", ran.stderr);
    }
}

#[test]
fn members_cannot_climb_out_of_the_extraction_folder() {
    let vfs = vfs_with_archive(&[
        ("../escape.txt", b"x"),
        ("ok/../../up.txt", b"y"),
        ("fine.txt", b"z"),
    ]);
    let ran = run::run_on(
        vfs,
        "mkdir -p /a/b && cd /a/b && tar -xzf /in/a.tgz; find / -name '*.txt' | sort",
        Duration::from_secs(10),
    );
    assert_eq!(ran.stdout, "/a/b/fine.txt\n");
}

#[test]
fn a_decompression_bomb_stops_at_the_buffer_limit() {
    let zeros = vec![0u8; 8 << 20];
    let vfs = vfs_with_archive(&[("big.bin", &zeros)]);
    let limits = Limits {
        max_buffered_input: 1 << 20,
        ..Limits::default()
    };
    let ran = run::run_limited(
        vfs,
        "tar -xzf /in/a.tgz; echo \"status $?\"; ls /",
        Duration::from_secs(10),
        limits,
    );
    assert_eq!(ran.stdout, "status 2\nin\ntmp\n");
    assert!(
        ran.stderr.contains("buffered-input limit"),
        "{}",
        ran.stderr
    );
}

#[test]
fn gunzip_and_bunzip2_name_the_buffer_limit_a_bomb_passes() {
    let vfs = run::fresh_vfs();
    let made = run::run_on(
        vfs.clone(),
        "head -c 8000000 /dev/zero > /z && gzip -k /z && bzip2 /z && ls /",
        Duration::from_secs(10),
    );
    assert_eq!(made.stdout, "tmp\nz.bz2\nz.gz\n", "{}", made.stderr);
    let limits = Limits {
        max_buffered_input: 1 << 20,
        ..Limits::default()
    };
    let ran = run::run_limited(
        vfs,
        "gunzip -k /z.gz; echo \"gunzip $?\"; zcat /z.gz > /dev/null; echo \"zcat $?\"; \
         bunzip2 -k /z.bz2; echo \"bunzip2 $?\"; bzcat /z.bz2 > /dev/null; echo \"bzcat $?\"; ls /",
        Duration::from_secs(10),
        limits,
    );
    assert_eq!(
        ran.stdout,
        "gunzip 1\nzcat 1\nbunzip2 1\nbzcat 1\ntmp\nz.bz2\nz.gz\n"
    );
    for line in [
        // gunzip and zcat are `gzip -d`: their messages say `gzip`.
        "gzip: /z.gz: input larger than 1048576 bytes",
        "bunzip2: /z.bz2: input larger than 1048576 bytes",
        "bzcat: /z.bz2: input larger than 1048576 bytes",
    ] {
        assert!(ran.stderr.contains(line), "{line} in {}", ran.stderr);
    }
}

#[test]
fn usage_errors_exit_2() {
    let ran = run::run(
        "tar; echo $?; tar -cf /x.tar; echo $?; tar -cf /x.tar /missing; echo $?; tar -xf /missing.tar; echo $?",
    );
    assert_eq!(ran.stdout, "2\n2\n2\n2\n");
    assert!(
        ran.stderr
            .contains("Cowardly refusing to create an empty archive")
    );
    assert!(
        ran.stderr
            .contains("/missing: Cannot stat: No such file or directory")
    );
}

#[test]
fn gzip_gunzip_zcat() {
    let ran = run::run(
        "echo hello > /f; gzip /f; ls /; zcat /f.gz; gunzip /f.gz; cat /f; gzip -k /f; ls /f*; echo text | gzip | gunzip\n\
         echo nope > /n.gz; gunzip /n.gz; echo \"status $?\"",
    );
    assert_eq!(
        ran.stdout,
        "f.gz\ntmp\nhello\nhello\n/f\n/f.gz\ntext\nstatus 1\n"
    );
    assert!(ran.stderr.contains("not in gzip format"));
}
