//! The JSON diff format (docs/vfs.md) and applying it to a tree.

use std::sync::Arc;

use base64::Engine;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::change::{Change, ChangeKind};
use crate::error::FsError;
use crate::fs::Vfs;
use crate::node::{FileNode, Node, NodeType};
use crate::path::{PathError, VfsPath};

/// Format version of [`DiffDocument`].
pub const DIFF_VERSION: u32 = 1;

/// `{"version":1,"changes":[...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffDocument {
    /// Always 1.
    pub version: u32,
    /// The changes, in apply order.
    pub changes: Vec<ChangeRecord>,
}

/// How `content` is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// UTF-8 text.
    Utf8,
    /// Standard base64.
    Base64,
}

/// One change as JSON. Sizes and hashes describe files (null for
/// directories); `content` is the new content of created, modified or
/// replacing files. For a symbolic link (docs/vfs.md) they describe its
/// target's text, which is its `content`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeRecord {
    /// What happened.
    pub kind: RecordKind,
    /// The sandbox path.
    pub path: String,
    #[serde(rename = "type")]
    /// File or directory.
    pub node_type: RecordType,
    /// The size before (files only).
    pub old_size: Option<u64>,
    /// The size after (files only).
    pub new_size: Option<u64>,
    /// `blake3:<hex>` of the content before.
    pub old_hash: Option<String>,
    /// `blake3:<hex>` of the content after.
    pub new_hash: Option<String>,
    /// How `content` is encoded.
    pub encoding: Option<Encoding>,
    /// The new content of a created or modified file.
    pub content: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
/// `kind` of a record.
pub enum RecordKind {
    /// A new file.
    Create,
    /// A new directory.
    Mkdir,
    /// A file whose content changed.
    Modify,
    /// A path whose type changed.
    Replace,
    /// A removed path.
    Delete,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
/// `type` of a record.
pub enum RecordType {
    /// A file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link.
    Symlink,
}

impl From<ChangeKind> for RecordKind {
    fn from(kind: ChangeKind) -> Self {
        match kind {
            ChangeKind::Create => RecordKind::Create,
            ChangeKind::Mkdir => RecordKind::Mkdir,
            ChangeKind::Modify => RecordKind::Modify,
            ChangeKind::Replace => RecordKind::Replace,
            ChangeKind::Delete => RecordKind::Delete,
        }
    }
}

impl From<NodeType> for RecordType {
    fn from(node_type: NodeType) -> Self {
        match node_type {
            NodeType::File => RecordType::File,
            NodeType::Directory => RecordType::Directory,
            NodeType::Symlink => RecordType::Symlink,
        }
    }
}

/// `blake3:<hex>` of a file's content.
pub fn content_hash(file: &FileNode) -> String {
    format!("blake3:{}", file.hash().to_hex())
}

/// What a record says a node holds: a file's content, a link's target
/// text (`None` for a directory).
fn held(node: &Node) -> Option<Bytes> {
    match node {
        Node::File(file) => Some(file.data().clone()),
        Node::Link(link) => Some(Bytes::copy_from_slice(link.target().as_bytes())),
        Node::Dir(_) => None,
    }
}

/// `blake3:<hex>` of what a node holds (see [`held`]).
fn held_hash(node: &Node) -> Option<String> {
    match node {
        Node::File(file) => Some(content_hash(file)),
        other => held(other).map(|bytes| format!("blake3:{}", blake3::hash(&bytes).to_hex())),
    }
}

fn encode_content(data: &Bytes) -> (Encoding, String) {
    match std::str::from_utf8(data) {
        Ok(text) => (Encoding::Utf8, text.to_string()),
        Err(_) => (
            Encoding::Base64,
            base64::engine::general_purpose::STANDARD.encode(data),
        ),
    }
}

impl ChangeRecord {
    /// The record of one change (content encoded, hashes computed).
    pub fn from_change(change: &Change) -> Self {
        let old = change.old.as_ref().and_then(held);
        let new = change.new.as_ref().and_then(held);
        let (encoding, content) = match &new {
            Some(data) => {
                let (encoding, content) = encode_content(data);
                (Some(encoding), Some(content))
            }
            None => (None, None),
        };
        ChangeRecord {
            kind: change.kind.into(),
            path: change.path.to_string(),
            node_type: change.node_type().into(),
            old_size: old.as_ref().map(|data| data.len() as u64),
            new_size: new.as_ref().map(|data| data.len() as u64),
            old_hash: change.old.as_ref().and_then(held_hash),
            new_hash: change.new.as_ref().and_then(held_hash),
            encoding,
            content,
        }
    }

    /// The decoded new content, if this change carries one.
    pub fn decoded_content(&self) -> Result<Option<Bytes>, ApplyError> {
        match (&self.content, self.encoding) {
            (None, _) => Ok(None),
            (Some(text), Some(Encoding::Base64)) => base64::engine::general_purpose::STANDARD
                .decode(text.as_bytes())
                .map(|bytes| Some(Bytes::from(bytes)))
                .map_err(|_| ApplyError::BadContent(self.path.clone())),
            (Some(text), _) => Ok(Some(Bytes::from(text.clone()))),
        }
    }
}

/// The document for a change list.
pub fn to_document(changes: &[Change]) -> DiffDocument {
    DiffDocument {
        version: DIFF_VERSION,
        changes: changes.iter().map(ChangeRecord::from_change).collect(),
    }
}

/// Parses a JSON diff document (the output of [`to_json`]).
pub fn from_json(text: &str) -> Result<DiffDocument, serde_json::Error> {
    serde_json::from_str(text)
}

/// Pretty JSON text of the diff, ending with a newline.
pub fn to_json(changes: &[Change]) -> String {
    let mut text = serde_json::to_string_pretty(&to_document(changes)).expect("serialisable");
    text.push('\n');
    text
}

/// Why changes could not be applied; nothing was.
#[derive(Debug, Error)]
pub enum ApplyError {
    /// A change's path is not a sandbox path.
    #[error("change to {path}: {source}")]
    Path {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        source: PathError,
    },
    /// A change's content is missing or does not decode.
    #[error("change to {0}: content is missing or not valid for its encoding")]
    BadContent(String),
    /// The tree is not what the change was made against.
    #[error("change to {path} does not match the tree (stale): {reason}")]
    Stale {
        /// The path.
        path: String,
        /// What differs.
        reason: String,
    },
    /// The VFS refused (a quota, a file in the way).
    #[error("change to {path}: {source}")]
    Fs {
        /// The path.
        path: String,
        /// The refusal.
        source: FsError,
    },
}

/// Applies a change list to `vfs`. Each modify, replace and delete is first
/// checked against the tree (the old hash must match), so a diff taken
/// against another state is refused instead of silently overwriting.
pub fn apply(vfs: &mut Vfs, records: &[ChangeRecord]) -> Result<(), ApplyError> {
    apply_steps(vfs, records.iter().map(Step::from_record))
}

/// [`apply`] for typed changes (another sandbox's): the same checks, with
/// contents shared rather than encoded and decoded.
pub fn apply_changes(vfs: &mut Vfs, changes: &[Change]) -> Result<(), ApplyError> {
    apply_steps(
        vfs,
        changes.iter().map(|change| Ok(Step::from_change(change))),
    )
}

/// One change as applying needs it.
struct Step {
    kind: RecordKind,
    path: VfsPath,
    node_type: RecordType,
    /// What a file being modified, replaced or deleted must still hold.
    old: Option<OldContent>,
    content: Option<Bytes>,
}

enum OldContent {
    /// `blake3:<hex>`, from a JSON record.
    Hash(String),
    /// The file itself, from a typed change (compared cheaply when shared).
    File(Arc<FileNode>),
    /// A link's target, from a typed change.
    Link(String),
}

impl Step {
    fn from_record(record: &ChangeRecord) -> Result<Step, ApplyError> {
        let path = VfsPath::parse(&record.path).map_err(|source| ApplyError::Path {
            path: record.path.clone(),
            source,
        })?;
        Ok(Step {
            kind: record.kind,
            path,
            node_type: record.node_type,
            old: record.old_hash.clone().map(OldContent::Hash),
            content: record.decoded_content()?,
        })
    }

    fn from_change(change: &Change) -> Step {
        let old = match &change.old {
            Some(Node::File(file)) => Some(OldContent::File(file.clone())),
            Some(Node::Link(link)) => Some(OldContent::Link(link.target().to_string())),
            _ => None,
        };
        Step {
            kind: change.kind.into(),
            path: change.path.clone(),
            node_type: change.node_type().into(),
            old,
            content: change.new.as_ref().and_then(held),
        }
    }

    /// Whether `current` (a file or a link) still holds what the change was
    /// made against.
    fn still_holds(&self, current: &Node) -> bool {
        match (&self.old, current) {
            (None, _) => true,
            (Some(OldContent::Hash(expected)), node) => Some(expected) == held_hash(node).as_ref(),
            (Some(OldContent::File(old)), Node::File(file)) => old.same_content(file),
            (Some(OldContent::Link(old)), Node::Link(link)) => old == link.target(),
            _ => false,
        }
    }
}

fn apply_steps(
    vfs: &mut Vfs,
    steps: impl Iterator<Item = Result<Step, ApplyError>>,
) -> Result<(), ApplyError> {
    let mut staged = vfs.clone();
    for step in steps {
        apply_one(&mut staged, &step?)?;
    }
    *vfs = staged;
    Ok(())
}

fn apply_one(vfs: &mut Vfs, step: &Step) -> Result<(), ApplyError> {
    let shown = || step.path.to_string();
    let fs_error = |source| ApplyError::Fs {
        path: shown(),
        source,
    };
    let stale = |reason: &str| ApplyError::Stale {
        path: shown(),
        reason: reason.to_string(),
    };
    let content = || {
        step.content
            .clone()
            .ok_or_else(|| ApplyError::BadContent(shown()))
    };
    let path = &step.path;
    // The path itself: a link there is the change's subject, not followed.
    let current = vfs.lookup_link(path).ok();
    match step.kind {
        RecordKind::Create | RecordKind::Mkdir => {
            if current.is_some() {
                return Err(stale("the path already exists"));
            }
        }
        RecordKind::Modify | RecordKind::Replace | RecordKind::Delete => {
            let Some(node) = &current else {
                return Err(stale("the path does not exist"));
            };
            if !matches!(node, Node::Dir(_)) && !step.still_holds(node) {
                return Err(stale("its content differs from the diff's old content"));
            }
        }
    }
    let target = || -> Result<String, ApplyError> {
        String::from_utf8(content()?.to_vec()).map_err(|_| ApplyError::BadContent(shown()))
    };
    match (step.kind, step.node_type) {
        (RecordKind::Mkdir, _) => vfs.mkdir(path).map_err(fs_error),
        (RecordKind::Create, RecordType::Symlink) => {
            vfs.symlink(path, &target()?).map_err(fs_error)
        }
        (RecordKind::Modify | RecordKind::Replace, RecordType::Symlink) => {
            let target = target()?;
            vfs.remove_all(path).map_err(fs_error)?;
            vfs.symlink(path, &target).map_err(fs_error)
        }
        (RecordKind::Delete, _) => vfs.remove_all(path).map_err(fs_error),
        (RecordKind::Replace, RecordType::Directory) => {
            vfs.remove_all(path).map_err(fs_error)?;
            vfs.mkdir(path).map_err(fs_error)
        }
        (RecordKind::Replace, RecordType::File) => {
            let content = content()?;
            vfs.remove_all(path).map_err(fs_error)?;
            vfs.write_file(path, content).map_err(fs_error)
        }
        (RecordKind::Create | RecordKind::Modify, _) => {
            vfs.write_file(path, content()?).map_err(fs_error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::fs::Quota;
    use proptest::prelude::*;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn records_carry_sizes_hashes_and_content() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.write_file(&p("/t.txt"), "old").unwrap();
        let base = fs.snapshot();
        fs.write_file(&p("/t.txt"), "new!").unwrap();
        fs.write_file(&p("/b.bin"), vec![0xff, 0x00]).unwrap();
        let document = to_document(&diff(&base, &fs.snapshot()));
        let json = serde_json::to_value(&document).unwrap();
        assert_eq!(json["version"], 1);
        let bin = &json["changes"][0];
        assert_eq!(bin["kind"], "create");
        assert_eq!(bin["path"], "/b.bin");
        assert_eq!(bin["type"], "file");
        assert_eq!(bin["oldSize"], serde_json::Value::Null);
        assert_eq!(bin["newSize"], 2);
        assert_eq!(bin["encoding"], "base64");
        assert_eq!(bin["content"], "/wA=");
        let text = &json["changes"][1];
        assert_eq!(text["kind"], "modify");
        assert_eq!(text["oldSize"], 3);
        assert_eq!(
            text["newHash"],
            format!("blake3:{}", blake3::hash(b"new!").to_hex())
        );
        assert_eq!(
            text["oldHash"],
            format!("blake3:{}", blake3::hash(b"old").to_hex())
        );
        assert_eq!(text["encoding"], "utf8");
        assert_eq!(text["content"], "new!");
    }

    #[test]
    fn a_stale_diff_is_refused() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.write_file(&p("/a"), "1").unwrap();
        let base = fs.snapshot();
        fs.write_file(&p("/a"), "2").unwrap();
        let document = to_document(&diff(&base, &fs.snapshot()));
        // `fs` already holds "2": the diff's old content no longer matches.
        let error = apply(&mut fs, &document.changes).unwrap_err();
        assert!(matches!(error, ApplyError::Stale { .. }), "{error}");
    }

    #[test]
    fn typed_changes_share_their_contents_and_refuse_stale_trees() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.write_file(&p("/a"), "1").unwrap();
        let base = fs.snapshot();
        fs.write_file(&p("/a"), Bytes::from(vec![b'x'; 4096]))
            .unwrap();
        let changes = diff(&base, &fs.snapshot());
        let mut replay = Vfs::from_snapshot(&base, Quota::UNLIMITED);
        apply_changes(&mut replay, &changes).unwrap();
        let (theirs, ours) = (
            fs.read_file(&p("/a")).unwrap(),
            replay.read_file(&p("/a")).unwrap(),
        );
        assert_eq!(
            theirs.as_ptr(),
            ours.as_ptr(),
            "the bytes are shared, not copied"
        );
        // Applying again: the tree no longer holds the old content.
        let error = apply_changes(&mut replay, &changes).unwrap_err();
        assert!(matches!(error, ApplyError::Stale { .. }), "{error}");
        assert_eq!(
            replay.read_file(&p("/a")).unwrap().len(),
            4096,
            "nothing changed"
        );
    }

    #[derive(Clone, Debug)]
    enum Op {
        Write(u8, u8, Vec<u8>),
        Mkdir(u8, u8),
        Remove(u8, u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0u8..4, 0u8..4, proptest::collection::vec(any::<u8>(), 0..6))
                .prop_map(|(d, f, c)| Op::Write(d, f, c)),
            (0u8..4, 0u8..4).prop_map(|(d, f)| Op::Mkdir(d, f)),
            (0u8..4, 0u8..4).prop_map(|(d, f)| Op::Remove(d, f)),
        ]
    }

    fn run(fs: &mut Vfs, ops: &[Op]) {
        for op in ops {
            let _ = match op {
                Op::Write(d, f, c) => fs.write_file(&p(&format!("/d{d}/f{f}")), c.clone()),
                Op::Mkdir(d, f) => fs.mkdir_all(&p(&format!("/d{d}/f{f}"))).map(|_| ()),
                Op::Remove(d, f) => fs.remove_all(&p(&format!("/d{d}/f{f}"))),
            };
            let _ = fs.mkdir_all(&p(&format!("/d{}", ops.len() % 4)));
        }
    }

    fn listing(fs: &Vfs) -> Vec<(String, Option<Bytes>)> {
        let mut out = Vec::new();
        let mut stack = vec![p("/")];
        while let Some(dir) = stack.pop() {
            for entry in fs.read_dir(&dir).unwrap() {
                let path = dir.join(&entry.name);
                match entry.node_type {
                    NodeType::File => {
                        out.push((path.to_string(), Some(fs.read_file(&path).unwrap())))
                    }
                    NodeType::Directory => {
                        out.push((path.to_string(), None));
                        stack.push(path);
                    }
                    NodeType::Symlink => out.push((
                        path.to_string(),
                        Some(Bytes::from(fs.read_link(&path).unwrap())),
                    )),
                }
            }
        }
        out.sort();
        out
    }

    proptest! {
        #[test]
        fn applying_the_diff_to_the_baseline_yields_the_final_tree(
            before in proptest::collection::vec(op(), 0..12),
            after in proptest::collection::vec(op(), 0..12),
        ) {
            let mut fs = Vfs::new(Quota::UNLIMITED);
            run(&mut fs, &before);
            let base = fs.snapshot();
            run(&mut fs, &after);
            let document = to_document(&diff(&base, &fs.snapshot()));
            let round_tripped: DiffDocument =
                serde_json::from_str(&serde_json::to_string(&document).unwrap()).unwrap();
            let mut replay = Vfs::from_snapshot(&base, Quota::UNLIMITED);
            apply(&mut replay, &round_tripped.changes).unwrap();
            prop_assert_eq!(listing(&replay), listing(&fs));
            // The typed path (no JSON in between) ends in the same tree.
            let mut typed = Vfs::from_snapshot(&base, Quota::UNLIMITED);
            apply_changes(&mut typed, &diff(&base, &fs.snapshot())).unwrap();
            prop_assert_eq!(listing(&typed), listing(&fs));
        }
    }
}
