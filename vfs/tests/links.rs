//! Symbolic links in every format the VFS speaks (docs/vfs.md): the JSON
//! diff (`type: "symlink"`, the target as content) and its replay, the
//! unified patch (mode `120000`), merging, write-back (never a host link)
//! and seeding with `--symlinks keep`.

use goccia_vfs::fs::{Quota, Vfs};
use goccia_vfs::path::VfsPath;

fn p(s: &str) -> VfsPath {
    VfsPath::parse(s).unwrap()
}

#[test]
fn a_link_is_a_symlink_in_the_json_diff_and_mode_120000_in_the_patch() {
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    vfs.write_file(&p("/a.txt"), "a\n").unwrap();
    vfs.symlink(&p("/old"), "a.txt").unwrap();
    let base = vfs.snapshot();
    vfs.symlink(&p("/l"), "a.txt").unwrap();
    vfs.remove_file(&p("/old")).unwrap();
    vfs.symlink(&p("/old"), "/elsewhere").unwrap();
    let changes = goccia_vfs::diff(&base, &vfs.snapshot());
    let json: serde_json::Value =
        serde_json::from_str(&goccia_vfs::changes::to_json(&changes)).unwrap();
    let created = &json["changes"][0];
    assert_eq!(created["kind"], "create");
    assert_eq!(created["type"], "symlink");
    assert_eq!(created["content"], "a.txt");
    assert_eq!(json["changes"][1]["kind"], "modify");
    assert_eq!(json["changes"][1]["content"], "/elsewhere");
    let patch = goccia_vfs::patch::to_unified(&changes);
    assert!(
        patch.contains("diff --git a/l b/l\nnew file mode 120000\n"),
        "{patch}"
    );
    assert!(
        patch.contains("+a.txt\n\\ No newline at end of file\n"),
        "{patch}"
    );
    assert!(patch.contains(" 120000\n--- a/old"), "{patch}");
    // The JSON diff applies to the base and rebuilds the links.
    let document = goccia_vfs::changes::from_json(&goccia_vfs::changes::to_json(&changes)).unwrap();
    let mut replay = Vfs::from_snapshot(&base, Quota::UNLIMITED);
    goccia_vfs::changes::apply(&mut replay, &document.changes).unwrap();
    assert_eq!(replay.read_link(&p("/l")).unwrap(), "a.txt");
    assert_eq!(replay.read_link(&p("/old")).unwrap(), "/elsewhere");
    // Merging another tree's link changes, and a conflict on a link
    // changed on both sides.
    let mut other = Vfs::from_snapshot(&base, Quota::UNLIMITED);
    let report =
        goccia_vfs::merge::merge_changes(&mut other, &changes, |path| path.clone()).unwrap();
    assert!(report.conflicts.is_empty(), "{report:?}");
    assert_eq!(other.read_link(&p("/old")).unwrap(), "/elsewhere");
    let mut diverged = Vfs::from_snapshot(&base, Quota::UNLIMITED);
    diverged.remove_file(&p("/old")).unwrap();
    diverged.symlink(&p("/old"), "mine").unwrap();
    let report =
        goccia_vfs::merge::merge_changes(&mut diverged, &changes, |path| path.clone()).unwrap();
    assert_eq!(report.conflicts.len(), 1, "{report:?}");
    assert_eq!(diverged.read_link(&p("/old")).unwrap(), "mine");
}

#[test]
fn write_back_never_creates_a_host_link() {
    let host = tempfile::tempdir().unwrap();
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    vfs.mkdir(&p("/w")).unwrap();
    let base = vfs.snapshot();
    vfs.symlink(&p("/w/link"), "/etc/passwd").unwrap();
    vfs.write_file(&p("/w/file"), "f").unwrap();
    let changes = goccia_vfs::diff(&base, &vfs.snapshot());
    let mapping = goccia_vfs::write_back::CopyRwMapping {
        host_root: host.path().to_path_buf(),
        sandbox_root: p("/w"),
        node_type: goccia_vfs::NodeType::Directory,
        left_out: Vec::new(),
    };
    let report = goccia_vfs::write_back::write_back(&[mapping], &changes).unwrap();
    assert_eq!(report.written.len(), 1);
    assert_eq!(report.skipped.len(), 1);
    assert_eq!(
        report.skipped[0].reason.to_string(),
        "symbolic links are never written to the host"
    );
    assert!(std::fs::symlink_metadata(host.path().join("link")).is_err());
}

#[test]
fn a_kept_host_link_is_seeded_as_a_vfs_link_never_followed() {
    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("real.txt"), "r").unwrap();
    std::os::unix::fs::symlink("real.txt", host.path().join("rel")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", host.path().join("abs")).unwrap();
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    let filter = goccia_vfs::HostFilter::default().symlinks(goccia_vfs::SymlinkPolicy::Keep);
    goccia_vfs::seed::seed_host_filtered(
        &mut vfs,
        host.path(),
        &goccia_vfs::SeedTarget::parse("/w").unwrap(),
        &filter,
    )
    .unwrap();
    assert_eq!(vfs.read_link(&p("/w/rel")).unwrap(), "real.txt");
    assert_eq!(&vfs.read_file(&p("/w/rel")).unwrap()[..], b"r");
    // An absolute target names a VFS path: nothing there.
    assert_eq!(vfs.read_link(&p("/w/abs")).unwrap(), "/etc/hostname");
    assert!(!vfs.exists(&p("/w/abs")));
}
