//! Diff → JSON change records → apply: applying the changes between two
//! trees to the first gives the second; the unified patch renders.
#![no_main]

use arbitrary::Arbitrary;
use goccia_vfs::{Quota, Vfs, VfsPath};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Write { dir: u8, name: u8, content: Vec<u8> },
    Mkdir { dir: u8 },
    Remove { dir: u8, name: u8 },
    RemoveDir { dir: u8 },
}

fn path(dir: u8, name: Option<u8>) -> VfsPath {
    let mut text = format!("/d{}", dir % 4);
    if let Some(name) = name {
        text.push_str(&format!("/f{}", name % 6));
    }
    VfsPath::parse(&text).unwrap()
}

fn apply_ops(vfs: &mut Vfs, ops: &[Op]) {
    for op in ops {
        let _ = match op {
            Op::Write { dir, name, content } => {
                let _ = vfs.mkdir_all(&path(*dir, None));
                vfs.write_file(&path(*dir, Some(*name)), content.clone())
            }
            Op::Mkdir { dir } => vfs.mkdir_all(&path(*dir, None)).map(|_| ()),
            Op::Remove { dir, name } => vfs.remove_file(&path(*dir, Some(*name))),
            Op::RemoveDir { dir } => vfs.remove_all(&path(*dir, None)),
        };
    }
}

fuzz_target!(|input: (Vec<Op>, Vec<Op>)| {
    let (before_ops, after_ops) = input;
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    apply_ops(&mut vfs, &before_ops);
    let before = vfs.snapshot();
    apply_ops(&mut vfs, &after_ops);
    let after = vfs.snapshot();
    let changes = goccia_vfs::diff(&before, &after);
    let _ = goccia_vfs::patch::to_unified(&changes);
    let document = goccia_vfs::changes::to_document(&changes);
    let text = serde_json_roundtrip(&goccia_vfs::changes::to_json(&changes));
    assert_eq!(text.changes.len(), document.changes.len());
    let mut replay = Vfs::from_snapshot(&before, Quota::UNLIMITED);
    goccia_vfs::changes::apply(&mut replay, &document.changes)
        .expect("changes apply to their base");
    assert!(
        goccia_vfs::diff(&replay.snapshot(), &after).is_empty(),
        "replay differs"
    );
});

fn serde_json_roundtrip(text: &str) -> goccia_vfs::DiffDocument {
    goccia_vfs::changes::from_json(text).expect("the JSON diff parses back")
}
