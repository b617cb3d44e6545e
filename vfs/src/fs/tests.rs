//! Unit tests of the filesystem's operations.

use super::*;

fn p(s: &str) -> VfsPath {
    VfsPath::parse(s).unwrap()
}

fn vfs() -> Vfs {
    Vfs::new(Quota::UNLIMITED)
}

#[test]
fn starts_with_root_and_tmp() {
    let fs = vfs();
    assert!(fs.is_dir(&p("/")));
    assert!(fs.is_dir(&p("/tmp")));
    assert_eq!(fs.usage(), Usage { bytes: 0, nodes: 1 });
}

#[test]
fn writes_reads_and_appends() {
    let mut fs = vfs();
    fs.write_file(&p("/a.txt"), "hello").unwrap();
    fs.append_file(&p("/a.txt"), " world").unwrap();
    assert_eq!(fs.read_file(&p("/a.txt")).unwrap(), "hello world");
    assert_eq!(
        fs.usage(),
        Usage {
            bytes: 11,
            nodes: 2
        }
    );
    fs.write_file(&p("/a.txt"), "x").unwrap();
    assert_eq!(fs.usage(), Usage { bytes: 1, nodes: 2 });
}

#[test]
fn errors_name_posix_codes() {
    let mut fs = vfs();
    let code = |r: FsResult<()>| r.unwrap_err().errno;
    assert_eq!(code(fs.write_file(&p("/missing/a"), "")), Errno::NoEnt);
    assert_eq!(code(fs.write_file(&p("/tmp"), "")), Errno::IsDir);
    fs.write_file(&p("/f"), "").unwrap();
    assert_eq!(code(fs.write_file(&p("/f/x"), "")), Errno::NotDir);
    assert_eq!(fs.read_file(&p("/f/x")).unwrap_err().errno, Errno::NotDir);
    assert_eq!(fs.read_file(&p("/nope")).unwrap_err().errno, Errno::NoEnt);
    assert_eq!(fs.read_file(&p("/tmp")).unwrap_err().errno, Errno::IsDir);
    assert_eq!(code(fs.mkdir(&p("/tmp"))), Errno::Exist);
    assert_eq!(code(fs.create_new(&p("/f"), "x")), Errno::Exist);
    fs.write_file(&p("/tmp/x"), "1").unwrap();
    assert_eq!(code(fs.remove_dir(&p("/tmp"))), Errno::NotEmpty);
    assert_eq!(code(fs.remove_dir(&p("/f"))), Errno::NotDir);
    assert_eq!(code(fs.remove_file(&p("/tmp"))), Errno::IsDir);
    assert_eq!(code(fs.remove_file(&p("/nope"))), Errno::NoEnt);
    assert_eq!(code(fs.remove_all(&p("/"))), Errno::Busy);
    assert_eq!(fs.read_dir(&p("/f")).unwrap_err().errno, Errno::NotDir);
}

#[test]
fn mkdir_all_reports_the_first_created_and_refuses_files_on_the_way() {
    let mut fs = vfs();
    assert_eq!(fs.mkdir_all(&p("/a/b/c")).unwrap(), Some(p("/a")));
    assert_eq!(fs.mkdir_all(&p("/a/b/c")).unwrap(), None);
    assert_eq!(fs.mkdir_all(&p("/a/b/d")).unwrap(), Some(p("/a/b/d")));
    fs.write_file(&p("/a/f"), "").unwrap();
    assert_eq!(fs.mkdir_all(&p("/a/f/g")).unwrap_err().errno, Errno::NotDir);
    assert_eq!(fs.mkdir_all(&p("/a/f")).unwrap_err().errno, Errno::Exist);
}

#[test]
fn quota_refusals_leave_old_content_intact() {
    let mut fs = Vfs::new(Quota {
        max_bytes: 10,
        max_nodes: 4,
    });
    fs.write_file(&p("/a"), "12345").unwrap();
    let error = fs.write_file(&p("/a"), "12345678901").unwrap_err();
    assert_eq!(error.errno, Errno::NoSpc);
    assert_eq!(error.quota, Some(QuotaKind::Bytes));
    assert_eq!(fs.read_file(&p("/a")).unwrap(), "12345");
    let error = fs.append_file(&p("/a"), "123456").unwrap_err();
    assert_eq!(error.errno, Errno::NoSpc);
    assert_eq!(
        fs.read_file(&p("/a")).unwrap(),
        "12345",
        "a failed append keeps the file"
    );
    fs.append_file(&p("/a"), "67890").unwrap();
    fs.write_file(&p("/b"), "").unwrap();
    fs.mkdir(&p("/d")).unwrap();
    let error = fs.mkdir(&p("/e")).unwrap_err();
    assert_eq!(error.quota, Some(QuotaKind::Nodes));
    assert!(!fs.exists(&p("/e")));
    assert_eq!(
        fs.mkdir_all(&p("/d/x/y")).unwrap_err().quota,
        Some(QuotaKind::Nodes)
    );
    assert!(
        !fs.exists(&p("/d/x")),
        "mkdir -p past the quota creates nothing"
    );
    // Shrinking is allowed even at the quota.
    fs.write_file(&p("/a"), "").unwrap();
    assert_eq!(fs.usage().bytes, 0);
}

#[test]
fn rename_follows_posix() {
    let mut fs = vfs();
    fs.mkdir_all(&p("/d/sub")).unwrap();
    fs.write_file(&p("/d/sub/f"), "x").unwrap();
    fs.write_file(&p("/file"), "y").unwrap();
    fs.mkdir(&p("/empty")).unwrap();
    let code = |r: FsResult<()>| r.unwrap_err().errno;
    assert_eq!(code(fs.rename(&p("/d"), &p("/d/sub/inside"))), Errno::Inval);
    assert_eq!(code(fs.rename(&p("/d"), &p("/file"))), Errno::NotDir);
    assert_eq!(code(fs.rename(&p("/file"), &p("/empty"))), Errno::IsDir);
    assert_eq!(code(fs.rename(&p("/nope"), &p("/x"))), Errno::NoEnt);
    assert_eq!(code(fs.rename(&p("/file"), &p("/nope/x"))), Errno::NoEnt);
    fs.rename(&p("/d"), &p("/empty")).unwrap();
    assert_eq!(fs.read_file(&p("/empty/sub/f")).unwrap(), "x");
    assert!(!fs.exists(&p("/d")));
    assert_eq!(code(fs.rename(&p("/file"), &p("/tmp"))), Errno::IsDir);
    fs.rename(&p("/file"), &p("/tmp/file")).unwrap();
    assert_eq!(fs.usage(), Usage { bytes: 2, nodes: 5 });
}

#[test]
fn snapshots_are_unaffected_by_later_writes() {
    let mut fs = vfs();
    fs.write_file(&p("/tmp/a"), "old").unwrap();
    let snap = fs.snapshot();
    fs.write_file(&p("/tmp/a"), "new").unwrap();
    fs.remove_all(&p("/tmp")).unwrap();
    let Node::File(file) = snap.lookup(&p("/tmp/a")).unwrap() else {
        panic!("file")
    };
    assert_eq!(file.data(), "old");
    assert!(!fs.exists(&p("/tmp")));
}

#[test]
fn copies_share_structure_and_count_against_the_quota() {
    let mut fs = Vfs::new(Quota {
        max_bytes: 100,
        max_nodes: 100,
    });
    fs.mkdir(&p("/src")).unwrap();
    for i in 0..5 {
        fs.write_file(&p(&format!("/src/{i}")), "0123456789")
            .unwrap();
    }
    fs.copy(&p("/src"), &p("/dst")).unwrap();
    assert_eq!(
        fs.usage(),
        Usage {
            bytes: 100,
            nodes: 13
        }
    );
    let error = fs.copy(&p("/src"), &p("/dst2")).unwrap_err();
    assert_eq!(error.quota, Some(QuotaKind::Bytes));
    assert!(!fs.exists(&p("/dst2")));
    assert_eq!(
        fs.copy(&p("/src"), &p("/src/inner")).unwrap_err().errno,
        Errno::Inval
    );
}

#[test]
fn modes_and_times_are_kept() {
    let mut fs = vfs();
    fs.write_file(&p("/x"), "a").unwrap();
    let first = fs.stat(&p("/x")).unwrap();
    fs.set_mode(&p("/x"), 0o755).unwrap();
    fs.write_file(&p("/x"), "b").unwrap();
    let second = fs.stat(&p("/x")).unwrap();
    assert_eq!(second.mode, 0o755, "rewriting keeps the mode");
    assert!(second.mtime_ns > first.mtime_ns, "times strictly increase");
    fs.set_mtime(&p("/x"), Some(42)).unwrap();
    assert_eq!(fs.stat(&p("/x")).unwrap().mtime_ns, 42);
}

#[test]
fn heights_follow_inserts_and_removals() {
    let mut fs = vfs();
    fs.mkdir_all(&p("/a/b/c")).unwrap();
    fs.write_file(&p("/a/f"), "x").unwrap();
    fs.mkdir_all(&p("/a/x/y/z/w")).unwrap();
    let height = |fs: &Vfs, path: &str| fs.lookup(&p(path)).unwrap().height();
    assert_eq!(height(&fs, "/a"), 4);
    fs.remove_all(&p("/a/x")).unwrap();
    assert_eq!(height(&fs, "/a"), 2, "recomputed once the tallest left");
    fs.remove_all(&p("/a/b")).unwrap();
    assert_eq!(height(&fs, "/a"), 1);
    fs.remove_file(&p("/a/f")).unwrap();
    assert_eq!(height(&fs, "/a"), 0);
}

#[test]
fn nothing_grows_deeper_than_the_depth_limit() {
    let mut fs = vfs();
    let deep = format!("/d{}", "/a".repeat(MAX_DEPTH - 1));
    fs.mkdir_all(&p(&deep)).unwrap();
    let too_deep = format!("{deep}/x");
    assert!(VfsPath::parse(&too_deep).is_err(), "parsing refuses it");
    // A rename that would move the deep tree one level down.
    fs.mkdir(&p("/n")).unwrap();
    let error = fs.rename(&p("/d"), &p("/n/d")).unwrap_err();
    assert_eq!(error.errno, Errno::TooDeep);
    assert!(fs.exists(&p("/d")), "a refused rename moves nothing");
    let error = fs.copy(&p("/d"), &p("/n/d")).unwrap_err();
    assert_eq!(error.errno, Errno::TooDeep);
    // Moving it sideways is fine.
    fs.rename(&p("/d"), &p("/e")).unwrap();
    assert_eq!(
        fs.lookup(&p("/e")).unwrap().height() as usize,
        MAX_DEPTH - 1
    );
}

/// The height a directory should have, recomputed from scratch.
fn true_height(node: &Node) -> u32 {
    match node {
        Node::File(_) | Node::Link(_) => 0,
        Node::Dir(dir) => dir
            .iter()
            .map(|(_, c)| true_height(c) + 1)
            .max()
            .unwrap_or(0),
    }
}

fn heights_hold(node: &Node) -> bool {
    node.height() == true_height(node)
        && match node {
            Node::File(_) | Node::Link(_) => true,
            Node::Dir(dir) => dir.iter().all(|(_, child)| heights_hold(child)),
        }
}

proptest::proptest! {
    /// Whatever mix of writes, directories, renames, copies and
    /// removals, every directory's kept height is its true height.
    #[test]
    fn kept_heights_are_true_heights(ops in proptest::collection::vec((0u8..6, 0usize..6, 0usize..6), 1..60)) {
        let names = ["/a", "/a/b", "/a/b/c", "/d", "/d/e", "/a/b/c/f"];
        let mut fs = vfs();
        for (op, x, y) in ops {
            let (px, py) = (p(names[x]), p(names[y]));
            let _ = match op {
                0 => fs.write_file(&px, "x").map(|_| ()),
                1 => fs.mkdir_all(&px).map(|_| ()),
                2 => fs.rename(&px, &py),
                3 => fs.copy(&px, &py),
                4 => fs.remove_all(&px),
                _ => fs.remove_file(&px),
            };
            proptest::prop_assert!(heights_hold(&Node::Dir(fs.root.clone())));
        }
    }
}

#[test]
fn appends_grow_in_place_but_never_change_a_snapshot() {
    let mut fs = vfs();
    fs.write_file(&p("/log"), "a").unwrap();
    let before = fs.snapshot();
    for _ in 0..1000 {
        fs.append_file(&p("/log"), "b").unwrap();
    }
    // The snapshot still sees the content it was taken with.
    let mut taken = Vfs::from_snapshot(&before, Quota::UNLIMITED);
    assert_eq!(taken.read_file(&p("/log")).unwrap(), "a");
    let expected = format!("a{}", "b".repeat(1000));
    assert_eq!(fs.read_file(&p("/log")).unwrap(), expected.as_str());
    // A reader's copy is not changed by later appends either.
    let read = fs.read_file(&p("/log")).unwrap();
    fs.append_file(&p("/log"), "c").unwrap();
    assert_eq!(read, expected.as_str());
    assert_eq!(fs.usage().bytes, 1002);
    // Appending to the restored snapshot leaves the live tree alone.
    taken.append_file(&p("/log"), "z").unwrap();
    assert_eq!(taken.read_file(&p("/log")).unwrap(), "az");
    assert_eq!(fs.read_file(&p("/log")).unwrap().len(), 1002);
}

mod fence {
    use super::*;
    use crate::policy::{PolicyMode, WritePolicy};

    fn fenced(mode: PolicyMode) -> Vfs {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.mkdir_all(&p("/work/.git")).unwrap();
        fs.write_file(&p("/work/.git/HEAD"), "ref").unwrap();
        fs.write_file(&p("/work/a.txt"), "a").unwrap();
        fs.mkdir_all(&p("/work/src")).unwrap();
        fs.write_file(&p("/etc.txt"), "e").unwrap();
        fs.set_policy(Some(WritePolicy::new(mode, [p("/work")], [])));
        fs
    }

    /// Every mutating operation, as `(what, operation)`.
    /// A named mutating operation.
    type Operation = (&'static str, Box<dyn Fn(&mut Vfs) -> FsResult<()>>);

    fn operations() -> Vec<Operation> {
        vec![
            (
                "write",
                Box::new(|fs| fs.write_file(&p("/work/a.txt"), "x")),
            ),
            (
                "append",
                Box::new(|fs| fs.append_file(&p("/work/a.txt"), "x")),
            ),
            ("create", Box::new(|fs| fs.create_new(&p("/work/new"), "x"))),
            ("mkdir", Box::new(|fs| fs.mkdir(&p("/work/d")))),
            (
                "mkdir -p",
                Box::new(|fs| fs.mkdir_all(&p("/work/d/e")).map(|_| ())),
            ),
            ("unlink", Box::new(|fs| fs.remove_file(&p("/work/a.txt")))),
            ("rmdir", Box::new(|fs| fs.remove_dir(&p("/work/src")))),
            ("rm -r", Box::new(|fs| fs.remove_all(&p("/work/src")))),
            (
                "rename",
                Box::new(|fs| fs.rename(&p("/work/a.txt"), &p("/work/b.txt"))),
            ),
            (
                "copy",
                Box::new(|fs| fs.copy(&p("/work/a.txt"), &p("/work/c.txt"))),
            ),
            (
                "chmod",
                Box::new(|fs| fs.set_mode(&p("/work/a.txt"), 0o600)),
            ),
            (
                "touch",
                Box::new(|fs| fs.set_mtime(&p("/work/a.txt"), Some(1))),
            ),
        ]
    }

    #[test]
    fn read_only_refuses_every_write_and_changes_nothing() {
        let mut fs = fenced(PolicyMode::ReadOnly);
        let before = fs.snapshot();
        for (what, operation) in operations() {
            let error = operation(&mut fs).unwrap_err();
            assert_eq!(
                error.denied.map(|d| d.mode),
                Some(PolicyMode::ReadOnly),
                "{what}"
            );
            assert_eq!(error.errno, Errno::Acces, "{what}");
            assert!(
                error
                    .to_string()
                    .contains("[sandbox: file access denied under read-only mode]"),
                "{what}: {error}"
            );
            assert!(
                crate::diff::diff(&before, &fs.snapshot()).is_empty(),
                "{what} changed the tree"
            );
        }
        // The host's own writes pass.
        fs.unfenced(|fs| fs.write_file(&p("/host.txt"), "h"))
            .unwrap();
        assert!(
            fs.write_file(&p("/host.txt"), "again").is_err(),
            "fenced again"
        );
    }

    #[test]
    fn workspace_write_allows_the_roots_but_not_what_they_protect() {
        for (what, operation) in operations() {
            let mut fs = fenced(PolicyMode::WorkspaceWrite);
            assert_eq!(operation(&mut fs), Ok(()), "{what} inside the root");
        }
        let mut fs = fenced(PolicyMode::WorkspaceWrite);
        fs.rename(&p("/work/a.txt"), &p("/work/b.txt")).unwrap();
        let denied = |result: FsResult<()>| result.unwrap_err().denied.map(|d| d.mode);
        let ww = Some(PolicyMode::WorkspaceWrite);
        assert_eq!(denied(fs.write_file(&p("/etc.txt"), "x")), ww);
        assert_eq!(denied(fs.write_file(&p("/work/.git/HEAD"), "x")), ww);
        // A compound operation over a protected name is refused whole.
        assert_eq!(denied(fs.remove_all(&p("/work"))), ww);
        assert_eq!(denied(fs.rename(&p("/work"), &p("/tmp/work"))), ww);
        // Both ends of a move: a denied destination keeps the source.
        assert_eq!(denied(fs.rename(&p("/work/b.txt"), &p("/moved.txt"))), ww);
        assert!(fs.lookup(&p("/work/b.txt")).is_ok());
        assert_eq!(denied(fs.rename(&p("/etc.txt"), &p("/work/etc.txt"))), ww);
        assert_eq!(denied(fs.copy(&p("/work/src"), &p("/work/.git/hooks"))), ww);
        // Reading a protected tree is not writing it: a copy elsewhere is fine.
        assert_eq!(fs.copy(&p("/work/.git"), &p("/work/git-copy")), Ok(()));
        assert!(fs.write_file(&p("/tmp/scratch"), "ok").is_ok());
        assert_eq!(fs.read_file(&p("/work/.git/HEAD")).unwrap(), "ref");
    }

    #[test]
    fn a_scope_replaces_the_policy_on_its_thread_only() {
        use crate::policy::Scope;
        let mut fs = fenced(PolicyMode::ReadOnly);
        assert_eq!(fs.policy().map(|p| p.mode()), Some(PolicyMode::ReadOnly));
        {
            let _granted = Scope::enter(fs.policy().unwrap().with_mode(PolicyMode::Full));
            assert_eq!(fs.policy().map(|p| p.mode()), Some(PolicyMode::Full));
            fs.write_file(&p("/granted.txt"), "g").unwrap();
            // Another thread is not in the scope.
            let shared = std::sync::Arc::new(parking_lot::Mutex::new(fs.clone()));
            let other = shared.clone();
            let denied = std::thread::spawn(move || other.lock().write_file(&p("/other"), "o"))
                .join()
                .unwrap();
            assert!(denied.unwrap_err().denied.is_some());
            // Scopes nest and restore the outer one.
            {
                let _narrowed = Scope::enter(fs.policy().unwrap().with_mode(PolicyMode::ReadOnly));
                assert!(fs.write_file(&p("/inner"), "i").is_err());
            }
            fs.write_file(&p("/after-inner"), "a").unwrap();
        }
        assert!(fs.write_file(&p("/after"), "a").is_err(), "the grant ended");
        // A tree without a policy is not a sandbox's: no scope applies.
        let _narrowed = Scope::enter(WritePolicy::new(PolicyMode::ReadOnly, [], []));
        let mut scratch = Vfs::new(Quota::UNLIMITED);
        scratch.write_file(&p("/scratch"), "s").unwrap();
    }

    #[test]
    fn all_or_nothing_keeps_the_tree_when_a_step_fails() {
        let mut fs = fenced(PolicyMode::WorkspaceWrite);
        let before = fs.snapshot();
        let failed = fs.all_or_nothing(|fs| {
            fs.write_file(&p("/work/one"), "1")?;
            fs.write_file(&p("/outside"), "2")
        });
        assert!(failed.unwrap_err().denied.is_some());
        assert!(crate::diff::diff(&before, &fs.snapshot()).is_empty());
        fs.all_or_nothing(|fs| fs.write_file(&p("/work/one"), "1"))
            .unwrap();
        assert!(fs.is_file(&p("/work/one")));
    }
}

/// `mkdir` and `symlink` share one check for where a new entry goes: the
/// root and any name already taken (a dangling link included) are
/// `EEXIST`, and a link on the way is followed.
#[test]
fn new_entries_need_a_free_name() {
    let mut fs = vfs();
    let code = |r: FsResult<()>| r.unwrap_err().errno;
    fs.write_file(&p("/f"), "").unwrap();
    fs.symlink(&p("/dangling"), "/nowhere").unwrap();
    fs.symlink(&p("/to-tmp"), "/tmp").unwrap();
    for taken in ["/", "/f", "/dangling", "/tmp"] {
        assert_eq!(code(fs.mkdir(&p(taken))), Errno::Exist, "mkdir {taken}");
        assert_eq!(
            code(fs.symlink(&p(taken), "x")),
            Errno::Exist,
            "ln -s {taken}"
        );
    }
    assert_eq!(code(fs.mkdir(&p("/missing/d"))), Errno::NoEnt);
    fs.mkdir(&p("/to-tmp/d")).unwrap();
    fs.symlink(&p("/to-tmp/l"), "d").unwrap();
    assert!(fs.is_dir(&p("/tmp/d")));
    assert_eq!(fs.read_link(&p("/tmp/l")).unwrap(), "d");
}
