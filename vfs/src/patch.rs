//! The unified diff format (docs/vfs.md): a git-style patch that
//! `git apply` takes. Text files get line hunks with three lines of
//! context and `\ No newline at end of file` markers; binary files (a NUL
//! in the first 8000 bytes, or not UTF-8) get `GIT binary patch` literals
//! with full blob hashes, as git requires to apply them.
//!
//! Paths are relative to the sandbox root `/`. Git tracks no directories,
//! so directory-only changes (an empty new folder) have no patch form. A
//! symbolic link is git's: mode `120000`, its target as the content.

use std::fmt::Write as _;
use std::io::Write as _;

use similar::TextDiff;

use crate::change::{Change, ChangeKind};
use crate::node::{DirNode, FileNode, Node};
use crate::path::VfsPath;

/// The patch for a change list (empty when nothing changed).
pub fn to_unified(changes: &[Change]) -> String {
    let mut files: Vec<FilePatch> = Vec::new();
    for change in changes {
        collect(change, &mut files);
    }
    // Deletions sort before creations at the same path (file -> directory
    // swaps); git applies all removals first anyway.
    files.sort_by(|a, b| {
        a.path
            .cmp(&b.path)
            .then_with(|| b.old.is_some().cmp(&a.old.is_some()))
    });
    let mut out = String::new();
    for file in &files {
        write_file_patch(&mut out, file);
    }
    out
}

/// One side of a file's patch: what git stores as the blob, and the mode.
#[derive(Clone, Copy)]
struct Side<'a> {
    data: &'a [u8],
    mode: &'static str,
}

/// A file's side, or a link's (its target, mode `120000`); none for a
/// directory.
fn side(node: &Node) -> Option<Side<'_>> {
    match node {
        Node::File(file) => Some(Side {
            data: file.data(),
            mode: git_mode(file),
        }),
        Node::Link(link) => Some(Side {
            data: link.target().as_bytes(),
            mode: "120000",
        }),
        Node::Dir(_) => None,
    }
}

struct FilePatch<'a> {
    path: VfsPath,
    old: Option<Side<'a>>,
    new: Option<Side<'a>>,
}

fn collect<'a>(change: &'a Change, files: &mut Vec<FilePatch<'a>>) {
    let old = change.old.as_ref().and_then(side);
    let new = change.new.as_ref().and_then(side);
    match change.kind {
        ChangeKind::Create | ChangeKind::Modify => files.push(FilePatch {
            path: change.path.clone(),
            old,
            new,
        }),
        ChangeKind::Delete => {
            if old.is_some() {
                files.push(FilePatch {
                    path: change.path.clone(),
                    old,
                    new: None,
                });
            }
        }
        ChangeKind::Replace => {
            // The old side goes away whole: a file or link, or every file
            // of a directory (its descendants are not listed as changes).
            match change.old.as_ref() {
                Some(Node::Dir(dir)) => deleted_files(&change.path, dir, files),
                Some(_) => files.push(FilePatch {
                    path: change.path.clone(),
                    old,
                    new: None,
                }),
                None => {}
            }
            if new.is_some() {
                files.push(FilePatch {
                    path: change.path.clone(),
                    old: None,
                    new,
                });
            }
        }
        ChangeKind::Mkdir => {}
    }
}

fn deleted_files<'a>(path: &VfsPath, dir: &'a DirNode, files: &mut Vec<FilePatch<'a>>) {
    for (name, child) in dir.iter() {
        let child_path = path.join(name);
        match child {
            Node::Dir(sub) => deleted_files(&child_path, sub, files),
            other => files.push(FilePatch {
                path: child_path,
                old: side(other),
                new: None,
            }),
        }
    }
}

const NULL_OID: &str = "0000000000000000000000000000000000000000";

/// Git's blob id of some content.
pub fn git_blob_id(data: &[u8]) -> String {
    use sha1::{Digest, Sha1};
    let mut hasher = Sha1::new();
    hasher.update(format!("blob {}\0", data.len()).as_bytes());
    hasher.update(data);
    hasher
        .finalize()
        .iter()
        .fold(String::with_capacity(40), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

fn git_mode(file: &FileNode) -> &'static str {
    if file.meta().mode & 0o111 != 0 {
        "100755"
    } else {
        "100644"
    }
}

/// Git's rule for binary content, plus: anything not UTF-8 is binary (the
/// patch itself stays valid UTF-8).
fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(8000)].contains(&0) || std::str::from_utf8(data).is_err()
}

/// Quotes a path the way git does when it holds special bytes.
fn quote_path(prefix: &str, path: &VfsPath) -> String {
    let relative = &path.as_str()[1..];
    let needs_quotes = relative
        .bytes()
        .any(|b| b < 0x20 || b == 0x7f || b == b'"' || b == b'\\' || b >= 0x80);
    if !needs_quotes {
        return format!("{prefix}{relative}");
    }
    let mut out = String::from("\"");
    out.push_str(prefix);
    for byte in relative.bytes() {
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            b if !(0x20..0x7f).contains(&b) => {
                let _ = write!(out, "\\{b:03o}");
            }
            b => out.push(b as char),
        }
    }
    out.push('"');
    out
}

fn write_file_patch(out: &mut String, file: &FilePatch<'_>) {
    let a = quote_path("a/", &file.path);
    let b = quote_path("b/", &file.path);
    let old_data = file.old.map(|side| side.data).unwrap_or(&[]);
    let new_data = file.new.map(|side| side.data).unwrap_or(&[]);
    let binary = is_binary(old_data) || is_binary(new_data);
    let old_id = file
        .old
        .map(|side| git_blob_id(side.data))
        .unwrap_or_else(|| NULL_OID.to_string());
    let new_id = file
        .new
        .map(|side| git_blob_id(side.data))
        .unwrap_or_else(|| NULL_OID.to_string());
    let short = |id: &str| {
        if binary {
            id.to_string()
        } else {
            id[..7].to_string()
        }
    };

    let _ = writeln!(out, "diff --git {a} {b}");
    match (file.old, file.new) {
        (None, Some(new)) => {
            let _ = writeln!(out, "new file mode {}", new.mode);
            let _ = writeln!(out, "index {}..{}", short(&old_id), short(&new_id));
        }
        (Some(old), None) => {
            let _ = writeln!(out, "deleted file mode {}", old.mode);
            let _ = writeln!(out, "index {}..{}", short(&old_id), short(&new_id));
        }
        (Some(old), Some(_)) => {
            let _ = writeln!(
                out,
                "index {}..{} {}",
                short(&old_id),
                short(&new_id),
                old.mode
            );
        }
        (None, None) => unreachable!("a file patch has a side"),
    }
    if binary {
        out.push_str("GIT binary patch\n");
        write_binary_literal(out, new_data);
        write_binary_literal(out, old_data);
        return;
    }
    if old_data.is_empty() && new_data.is_empty() {
        return; // an empty file created or deleted: the header says it all
    }
    let old_name = if file.old.is_some() {
        a.as_str()
    } else {
        "/dev/null"
    };
    let new_name = if file.new.is_some() {
        b.as_str()
    } else {
        "/dev/null"
    };
    let _ = writeln!(out, "--- {old_name}");
    let _ = writeln!(out, "+++ {new_name}");
    let old_text = std::str::from_utf8(old_data).expect("text side is UTF-8");
    let new_text = std::str::from_utf8(new_data).expect("text side is UTF-8");
    let diff = TextDiff::from_lines(old_text, new_text);
    let mut unified = diff.unified_diff();
    unified.context_radius(3).missing_newline_hint(true);
    for hunk in unified.iter_hunks() {
        let _ = write!(out, "{hunk}");
    }
}

/// One `literal <size>` block: zlib-deflated data in git's base85 lines.
fn write_binary_literal(out: &mut String, data: &[u8]) {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("in-memory write");
    let deflated = encoder.finish().expect("in-memory write");
    let _ = writeln!(out, "literal {}", data.len());
    for line in deflated.chunks(52) {
        let length = line.len() as u8;
        out.push(if length <= 26 {
            (b'A' + length - 1) as char
        } else {
            (b'a' + length - 27) as char
        });
        encode_base85(out, line);
        out.push('\n');
    }
    out.push('\n');
}

/// Git's base85 (the RFC 1924 alphabet, big-endian groups of 4 bytes, the
/// last group zero-padded). No crate implements git's variant.
fn encode_base85(out: &mut String, data: &[u8]) {
    const ALPHABET: &[u8; 85] =
        b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
    for group in data.chunks(4) {
        let mut word = [0u8; 4];
        word[..group.len()].copy_from_slice(group);
        let mut value = u32::from_be_bytes(word);
        let mut chars = [0u8; 5];
        for slot in chars.iter_mut().rev() {
            *slot = ALPHABET[(value % 85) as usize];
            value /= 85;
        }
        out.push_str(std::str::from_utf8(&chars).expect("ASCII"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::fs::{Quota, Vfs};

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn blob_ids_match_git() {
        assert_eq!(git_blob_id(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
        assert_eq!(
            git_blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    #[test]
    fn base85_uses_gits_alphabet_and_grouping() {
        // Reference values from Python's base64.b85encode (same alphabet).
        let encode = |data: &[u8]| {
            let mut out = String::new();
            encode_base85(&mut out, data);
            out
        };
        assert_eq!(encode(&[0, 0, 0, 0]), "00000");
        assert_eq!(encode(&[0xff; 4]), "|NsC0");
        assert_eq!(encode(b"hello world!"), "Xk~0{Zy<MXa%^NF");
    }

    #[test]
    fn binary_literals_prefix_each_line_with_its_length() {
        let mut out = String::new();
        write_binary_literal(&mut out, &[7u8; 300]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "literal 300");
        let first = lines[1].as_bytes()[0];
        assert!(first.is_ascii_uppercase() || first.is_ascii_lowercase());
        assert_eq!(lines.last(), Some(&""));
    }

    #[test]
    fn text_patches_have_headers_context_and_newline_markers() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.write_file(&p("/a.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n")
            .unwrap();
        let base = fs.snapshot();
        fs.write_file(&p("/a.txt"), "1\n2\n3\n4\nfive\n6\n7\n8")
            .unwrap();
        fs.write_file(&p("/new.txt"), "no newline").unwrap();
        let patch = to_unified(&diff(&base, &fs.snapshot()));
        assert!(
            patch.starts_with("diff --git a/a.txt b/a.txt\nindex "),
            "{patch}"
        );
        assert!(patch.contains("--- a/a.txt\n+++ b/a.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n-8\n+8\n\\ No newline at end of file\n"), "{patch}");
        assert!(
            patch.contains("diff --git a/new.txt b/new.txt\nnew file mode 100644\nindex 0000000.."),
            "{patch}"
        );
        assert!(patch.contains("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+no newline\n\\ No newline at end of file\n"), "{patch}");
    }

    #[test]
    fn special_paths_are_quoted() {
        assert_eq!(quote_path("a/", &p("/plain name")), "a/plain name");
        assert_eq!(quote_path("a/", &p("/tab\there")), "\"a/tab\\there\"");
        assert_eq!(quote_path("b/", &p("/caf\u{e9}")), "\"b/caf\\303\\251\"");
    }
}
