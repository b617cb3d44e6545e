//! Fixtures shared by the benchmarks.

use std::path::{Path, PathBuf};

use goccia_vfs::{Quota, Vfs, VfsPath};

/// A host folder of `files` files of `size` bytes, 100 per sub-folder.
pub fn host_tree(files: usize, size: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = vec![b'x'; size];
    for i in 0..files {
        let sub = dir.path().join(format!("d{:03}", i / 100));
        if i % 100 == 0 {
            std::fs::create_dir_all(&sub).expect("mkdir");
        }
        std::fs::write(sub.join(format!("f{i:05}.txt")), &content).expect("write");
    }
    dir
}

/// The same tree built directly in a VFS.
pub fn vfs_tree(files: usize, size: usize) -> Vfs {
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    let content = bytes_of(size);
    for i in 0..files {
        let sub = VfsPath::parse(&format!("/d{:03}", i / 100)).unwrap();
        if i % 100 == 0 {
            vfs.mkdir(&sub).unwrap();
        }
        vfs.write_file(&sub.join(&format!("f{i:05}.txt")), content.clone())
            .unwrap();
    }
    vfs
}

fn bytes_of(size: usize) -> Vec<u8> {
    vec![b'x'; size]
}

/// The release binary, built by `cargo build --release` beforehand.
pub fn release_binary() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/goccia");
    assert!(
        path.exists(),
        "{} is missing: run `cargo build --release` before the process benchmarks",
        path.display()
    );
    path
}
