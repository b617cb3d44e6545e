//! Merging children's changes (docs/vfs.md), as a harness fanning out
//! work does it: children on threads, merged one after another.

use goccia::{ChildSeed, Sandbox};

#[test]
fn twenty_children_sharing_a_new_folder_all_merge() {
    let parent = Sandbox::builder()
        .file("/work/README", "r\n")
        .build()
        .unwrap();
    let children: Vec<Sandbox> = (0..20)
        .map(|_| parent.child(&[ChildSeed::path("/work")]).unwrap())
        .collect();
    std::thread::scope(|scope| {
        for (i, child) in children.iter().enumerate() {
            scope.spawn(move || {
                let run = child
                    .run_shell(&format!(
                        "mkdir -p /work/notes && echo {i} > /work/notes/{i}.md"
                    ))
                    .unwrap();
                assert!(run.success(), "{}", run.stderr_text());
            });
        }
    });
    for child in &children {
        let report = parent.merge(child).unwrap();
        assert!(report.is_clean(), "{report:?}");
    }
    let listing = parent.run_shell("ls /work/notes | wc -l").unwrap();
    assert_eq!(listing.stdout_text(), "20\n");
}

#[test]
fn edits_of_one_file_merge_or_conflict_by_the_lines_they_touch() {
    let text = "fn a() {}\nfn b() {}\nfn c() {}\n";
    let parent = Sandbox::builder()
        .file("/src/lib.rs", text)
        .build()
        .unwrap();
    let seeds = [ChildSeed::path("/src")];
    let (first, second, same, rival) = (
        parent.child(&seeds).unwrap(),
        parent.child(&seeds).unwrap(),
        parent.child(&seeds).unwrap(),
        parent.child(&seeds).unwrap(),
    );
    first
        .run_shell("sed -i 's/fn a/pub fn a/' /src/lib.rs")
        .unwrap();
    same.run_shell("sed -i 's/fn a/pub fn a/' /src/lib.rs")
        .unwrap();
    second
        .run_shell("sed -i 's/fn c/pub fn c/' /src/lib.rs")
        .unwrap();
    rival
        .run_shell("sed -i 's/fn a/async fn a/' /src/lib.rs")
        .unwrap();
    assert_eq!(parent.merge(&first).unwrap().applied.len(), 1);
    let report = parent.merge(&second).unwrap();
    assert_eq!(report.merged.len(), 1, "{report:?}");
    let report = parent.merge(&same).unwrap();
    assert!(report.is_clean(), "the same edit twice merges: {report:?}");
    let report = parent.merge(&rival).unwrap();
    let conflict = &report.conflicts[0];
    assert_eq!(conflict.path.as_str(), "/src/lib.rs");
    assert!(
        conflict.ours.contains("-fn a() {}\n+pub fn a() {}"),
        "{}",
        conflict.ours
    );
    assert!(
        conflict.theirs.contains("-fn a() {}\n+async fn a() {}"),
        "{}",
        conflict.theirs
    );
    assert_eq!(
        &parent.read("/src/lib.rs").unwrap()[..],
        b"pub fn a() {}\nfn b() {}\npub fn c() {}\n"
    );
}

#[test]
fn a_child_seeded_elsewhere_merges_back_where_its_seed_came_from() {
    let parent = Sandbox::builder()
        .file("/repo/a.txt", "a\n")
        .build()
        .unwrap();
    let child = parent
        .child(&[ChildSeed::path_to("/repo", "/work")])
        .unwrap();
    child
        .run_shell("echo b >> /work/a.txt; echo new > /work/new.txt")
        .unwrap();
    let report = parent.merge(&child).unwrap();
    assert!(report.is_clean(), "{report:?}");
    assert_eq!(&parent.read("/repo/a.txt").unwrap()[..], b"a\nb\n");
    assert_eq!(&parent.read("/repo/new.txt").unwrap()[..], b"new\n");
    assert!(parent.read("/work/a.txt").is_err());
}
