//! Merging another tree's changes (a child's, a parallel worker's) into a
//! VFS that may have moved on meanwhile (docs/vfs.md), path by path:
//!
//! - creating a directory that exists, or a change whose result the
//!   target already holds, is a no-op (*already present*);
//! - a change made against what the target still holds is *applied*;
//! - a file edited both in the target and in the change since the change's
//!   base is merged line-wise (three-way, against the change's old content)
//!   when the edits touch disjoint lines (*merged*);
//! - anything else is a *conflict*: nothing of that path is applied and the
//!   report carries both sides' edits as unified hunks.
//!
//! Paths can be mapped on the way (a child seeded `from=to` merges back to
//! `from`). A quota refusal stops the merge with nothing applied.

use bytes::Bytes;

use crate::change::{Change, ChangeKind};
use crate::changes::ApplyError;
use crate::error::FsError;
use crate::fs::Vfs;
use crate::node::Node;
use crate::path::VfsPath;

/// What merging did, path by path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// Changes applied as they were (the target still held their base).
    pub applied: Vec<VfsPath>,
    /// Files whose edits were merged with the target's own (three-way).
    pub merged: Vec<VfsPath>,
    /// Changes whose result the target already held (nothing to do).
    pub already_present: Vec<VfsPath>,
    /// Changes that could not be merged; nothing of their paths applied.
    pub conflicts: Vec<Conflict>,
}

impl MergeReport {
    /// True when nothing conflicted.
    pub fn is_clean(&self) -> bool {
        self.conflicts.is_empty()
    }
}

/// One path that could not be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The path in the target.
    pub path: VfsPath,
    /// Why, in words.
    pub reason: String,
    /// The target's edit since the base, as a unified hunk (empty when
    /// there is no text to show).
    pub ours: String,
    /// The incoming edit since the base, as a unified hunk.
    pub theirs: String,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

/// Merges `changes` into `vfs`, each path mapped by `map` first. Nothing is
/// applied when the result would not fit the quota (the error says where).
pub fn merge_changes(
    vfs: &mut Vfs,
    changes: &[Change],
    map: impl Fn(&VfsPath) -> VfsPath,
) -> Result<MergeReport, ApplyError> {
    let mut staged = vfs.clone();
    let mut report = MergeReport::default();
    for change in changes {
        let path = map(&change.path);
        let outcome = merge_one(&mut staged, change, &path);
        match outcome {
            Ok(Outcome::Applied) => report.applied.push(path),
            Ok(Outcome::Merged) => report.merged.push(path),
            Ok(Outcome::AlreadyPresent) => report.already_present.push(path),
            Ok(Outcome::Conflict {
                reason,
                ours,
                theirs,
            }) => report.conflicts.push(Conflict {
                path,
                reason,
                ours,
                theirs,
            }),
            Err(source) if source.quota.is_some() => {
                return Err(ApplyError::Fs {
                    path: path.to_string(),
                    source,
                });
            }
            // Something in the way (a file where a folder should be, a
            // missing parent after a conflict above): this path conflicts.
            Err(error) => report.conflicts.push(Conflict {
                path,
                reason: error.to_string(),
                ours: String::new(),
                theirs: String::new(),
            }),
        }
    }
    *vfs = staged;
    Ok(report)
}

enum Outcome {
    Applied,
    Merged,
    AlreadyPresent,
    Conflict {
        reason: String,
        ours: String,
        theirs: String,
    },
}

fn conflict(reason: &str) -> Outcome {
    Outcome::Conflict {
        reason: reason.to_string(),
        ours: String::new(),
        theirs: String::new(),
    }
}

/// The target of a link on one side of a change.
fn link_target(node: &Option<Node>) -> Option<&str> {
    node.as_ref()
        .and_then(Node::as_link)
        .map(|link| link.target())
}

fn content(node: &Option<Node>) -> Option<&Bytes> {
    node.as_ref()
        .and_then(Node::as_file)
        .map(|file| file.data())
}

/// Whether `current` is what `side` describes: the same file content, or a
/// directory for a directory (the same one, for a base).
fn same(current: &Node, side: &Node, strict_dirs: bool) -> bool {
    match (current, side) {
        (Node::File(a), Node::File(b)) => a.same_content(b),
        (Node::Link(a), Node::Link(b)) => a.target() == b.target(),
        (Node::Dir(_), Node::Dir(_)) if !strict_dirs => true,
        (a, b) => a.ptr_eq(b),
    }
}

fn merge_one(vfs: &mut Vfs, change: &Change, path: &VfsPath) -> Result<Outcome, FsError> {
    // The path itself: a link there is what the change is about.
    let current = vfs.lookup_link(path).ok();
    let new = change.new.as_ref();
    let old = change.old.as_ref();
    // The target already holds the result.
    match (&current, new) {
        (None, None) => return Ok(Outcome::AlreadyPresent),
        (Some(current), Some(new)) if same(current, new, false) => {
            return Ok(Outcome::AlreadyPresent);
        }
        _ => {}
    }
    match change.kind {
        ChangeKind::Mkdir => {
            if current.is_some() {
                return Ok(conflict("a file is where the change makes a folder"));
            }
            vfs.mkdir_all(path)?;
            Ok(Outcome::Applied)
        }
        ChangeKind::Create => {
            if current.is_some() {
                return Ok(both_created(current.as_ref(), content(&change.new), path));
            }
            match link_target(&change.new) {
                Some(target) => vfs.symlink(path, target)?,
                None => write(vfs, path, content(&change.new))?,
            }
            Ok(Outcome::Applied)
        }
        ChangeKind::Delete => {
            let (Some(current), Some(old)) = (&current, old) else {
                return Ok(Outcome::AlreadyPresent);
            };
            if !same(current, old, true) {
                return Ok(conflict("deleted by the change, changed in the target"));
            }
            vfs.remove_all(path)?;
            Ok(Outcome::Applied)
        }
        ChangeKind::Replace => match (&current, old) {
            (Some(current), Some(old)) if same(current, old, true) => {
                vfs.remove_all(path)?;
                match (content(&change.new), link_target(&change.new)) {
                    (Some(data), _) => vfs.write_file(path, data.clone())?,
                    (None, Some(target)) => vfs.symlink(path, target)?,
                    (None, None) => {
                        vfs.mkdir(path)?;
                    }
                }
                Ok(Outcome::Applied)
            }
            _ => Ok(conflict("its type changed, and the target changed it too")),
        },
        ChangeKind::Modify if link_target(&change.new).is_some() => {
            // A link's target changed: taken if the target still holds the
            // old one; there is no merging two targets.
            let (Some(current), Some(old)) = (&current, old) else {
                return Ok(conflict("the link was removed in the target"));
            };
            if !same(current, old, true) {
                return Ok(conflict("the link was changed in the target too"));
            }
            vfs.remove_file(path)?;
            vfs.symlink(path, link_target(&change.new).expect("a link"))?;
            Ok(Outcome::Applied)
        }
        ChangeKind::Modify => {
            let (Some(base), Some(theirs)) = (content(&change.old), content(&change.new)) else {
                return Ok(conflict("not a file on both sides"));
            };
            let ours = match &current {
                Some(Node::File(file)) => file.data().clone(),
                Some(Node::Dir(_)) => {
                    return Ok(conflict("a folder is where the change edits a file"));
                }
                Some(Node::Link(_)) => {
                    return Ok(conflict("a link is where the change edits a file"));
                }
                None => {
                    return Ok(Outcome::Conflict {
                        reason: "edited by the change, deleted in the target".to_string(),
                        ours: String::new(),
                        theirs: hunk(base, theirs, path),
                    });
                }
            };
            if ours == *base {
                vfs.write_file(path, theirs.clone())?;
                return Ok(Outcome::Applied);
            }
            match three_way(base, &ours, theirs) {
                Some(merged) => {
                    vfs.write_file(path, merged)?;
                    Ok(Outcome::Merged)
                }
                None => Ok(Outcome::Conflict {
                    reason: "edited on both sides in overlapping lines".to_string(),
                    ours: hunk(base, &ours, path),
                    theirs: hunk(base, theirs, path),
                }),
            }
        }
    }
}

/// Both sides created `path`, differently.
fn both_created(current: Option<&Node>, theirs: Option<&Bytes>, path: &VfsPath) -> Outcome {
    let empty = Bytes::new();
    let ours = current
        .and_then(Node::as_file)
        .map(|file| file.data().clone());
    Outcome::Conflict {
        reason: "created on both sides with different contents".to_string(),
        ours: ours
            .map(|ours| hunk(&empty, &ours, path))
            .unwrap_or_default(),
        theirs: theirs
            .map(|theirs| hunk(&empty, theirs, path))
            .unwrap_or_default(),
    }
}

fn write(vfs: &mut Vfs, path: &VfsPath, data: Option<&Bytes>) -> Result<(), FsError> {
    match data {
        Some(data) => vfs.write_file(path, data.clone()),
        None => vfs.mkdir(path),
    }
}

/// The three-way line merge of two edits of `base`; `None` when they touch
/// overlapping lines or a side is not text.
fn three_way(base: &[u8], ours: &[u8], theirs: &[u8]) -> Option<Bytes> {
    let text = |bytes| std::str::from_utf8(bytes).ok();
    let (base, ours, theirs) = (text(base)?, text(ours)?, text(theirs)?);
    if let Some(merged) = disjoint_regions(base, ours, theirs) {
        return Some(Bytes::from(merged));
    }
    let merged = diffy::merge(base, ours, theirs).ok()?;
    Some(Bytes::from(merged))
}

/// The lines of `base` a side changed, as byte offsets at line starts:
/// everything between what the side shares with `base` at the start and at
/// the end; and the side's text there. Found by comparing bytes, so
/// nothing is split or allocated.
fn changed_region<'a>(base: &[u8], side: &'a [u8]) -> (usize, usize, &'a [u8]) {
    let shared = base.iter().zip(side).take_while(|(a, b)| a == b).count();
    // Back to the start of the line the first difference is on.
    let start = base[..shared]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let room = base.len().min(side.len()) - start;
    let common_end = base
        .iter()
        .rev()
        .zip(side.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    // Forward to the start of the line after the last difference.
    let mut end = base.len() - common_end;
    if end > 0 && base[end - 1] != b'\n' {
        end = base[end..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(base.len(), |i| end + i + 1);
    }
    let kept_after = base.len() - end;
    (start, end, &side[start..side.len() - kept_after])
}

/// The merge without a diff, when each side changed one stretch of `base`
/// and the two stretches are apart (at least one untouched line between):
/// then every line merge gives this same text. `None` otherwise (the
/// general merge decides).
fn disjoint_regions(base: &str, ours: &str, theirs: &str) -> Option<String> {
    let base = base.as_bytes();
    let ours = changed_region(base, ours.as_bytes());
    let theirs = changed_region(base, theirs.as_bytes());
    let (first, second) = if ours.0 <= theirs.0 {
        (ours, theirs)
    } else {
        (theirs, ours)
    };
    // Regions start and end at line starts: `<` leaves a whole line between.
    if first.1 >= second.0 {
        return None;
    }
    let mut merged = Vec::with_capacity(base.len() + first.2.len() + second.2.len());
    merged.extend_from_slice(&base[..first.0]);
    merged.extend_from_slice(first.2);
    merged.extend_from_slice(&base[first.1..second.0]);
    merged.extend_from_slice(second.2);
    merged.extend_from_slice(&base[second.1..]);
    // Whole lines of UTF-8 texts were spliced: still UTF-8.
    String::from_utf8(merged).ok()
}

/// `base` → `side` as a unified hunk (no text for binary content).
fn hunk(base: &[u8], side: &[u8], path: &VfsPath) -> String {
    let (Ok(base), Ok(side)) = (std::str::from_utf8(base), std::str::from_utf8(side)) else {
        return format!("Binary files differ: {path}\n");
    };
    similar::TextDiff::from_lines(base, side)
        .unified_diff()
        .header(&format!("a{path}"), &format!("b{path}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::fs::Quota;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    fn same_path(path: &VfsPath) -> VfsPath {
        path.clone()
    }

    /// A child's changes: `edit` applied to a copy of `base`.
    fn changes_of(base: &Vfs, edit: impl FnOnce(&mut Vfs)) -> Vec<Change> {
        let mut child = base.clone();
        edit(&mut child);
        diff(&base.snapshot(), &child.snapshot())
    }

    #[test]
    fn parallel_children_creating_one_new_folder_all_merge() {
        let mut parent = Vfs::new(Quota::UNLIMITED);
        parent.mkdir(&p("/work")).unwrap();
        let base = parent.clone();
        for i in 0..20 {
            let changes = changes_of(&base, |child| {
                child.mkdir_all(&p("/work/notes")).unwrap();
                child
                    .write_file(&p(&format!("/work/notes/{i}")), "n")
                    .unwrap();
            });
            let report = merge_changes(&mut parent, &changes, same_path).unwrap();
            assert!(report.is_clean(), "{report:?}");
            assert_eq!(report.applied.len(), if i == 0 { 2 } else { 1 });
        }
        assert_eq!(parent.read_dir(&p("/work/notes")).unwrap().len(), 20);
    }

    #[test]
    fn disjoint_edits_merge_and_overlapping_ones_conflict_with_both_sides() {
        let mut parent = Vfs::new(Quota::UNLIMITED);
        parent.write_file(&p("/f"), "1\n2\n3\n4\n5\n").unwrap();
        let base = parent.clone();
        let top = changes_of(&base, |c| {
            c.write_file(&p("/f"), "one\n2\n3\n4\n5\n").unwrap()
        });
        let bottom = changes_of(&base, |c| {
            c.write_file(&p("/f"), "1\n2\n3\n4\nfive\n").unwrap()
        });
        let same_edit = top.clone();
        assert_eq!(
            merge_changes(&mut parent, &top, same_path).unwrap().applied,
            [p("/f")]
        );
        let report = merge_changes(&mut parent, &bottom, same_path).unwrap();
        assert_eq!(report.merged, [p("/f")]);
        assert_eq!(parent.read_file(&p("/f")).unwrap(), "one\n2\n3\n4\nfive\n");
        let report = merge_changes(&mut parent, &same_edit, same_path).unwrap();
        assert!(report.conflicts.is_empty(), "{report:?}");
        // Overlapping: both sides rewrote line 1.
        let other = changes_of(&base, |c| {
            c.write_file(&p("/f"), "uno\n2\n3\n4\n5\n").unwrap()
        });
        let report = merge_changes(&mut parent, &other, same_path).unwrap();
        let conflict = &report.conflicts[0];
        assert_eq!(conflict.path, p("/f"));
        assert!(conflict.ours.contains("-1\n+one\n"), "{}", conflict.ours);
        assert!(
            conflict.theirs.contains("-1\n+uno\n"),
            "{}",
            conflict.theirs
        );
        assert_eq!(parent.read_file(&p("/f")).unwrap(), "one\n2\n3\n4\nfive\n");
    }

    #[test]
    fn the_fast_path_gives_what_the_line_merge_gives() {
        let base: String = (0..12).map(|i| format!("{i}\n")).collect();
        let edits = [
            ("0\n", "zero\n"),
            ("3\n", "three\nthree and a half\n"),
            ("5\n", ""),
            ("11\n", "eleven"),
            ("6\n", "6\n6b\n"),
        ];
        for (a, a_new) in edits {
            for (b, b_new) in edits {
                let ours = base.replacen(a, a_new, 1);
                let theirs = base.replacen(b, b_new, 1);
                let fast = disjoint_regions(&base, &ours, &theirs);
                let slow = diffy::merge(&base, &ours, &theirs).ok();
                if let Some(fast) = &fast {
                    assert_eq!(Some(fast), slow.as_ref(), "{a:?} {b:?}");
                }
                assert_eq!(
                    three_way(base.as_bytes(), ours.as_bytes(), theirs.as_bytes())
                        .map(|m| m.to_vec()),
                    slow.map(String::into_bytes),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn deletes_and_creates_check_what_the_target_holds() {
        let mut parent = Vfs::new(Quota::UNLIMITED);
        parent.write_file(&p("/gone"), "x").unwrap();
        parent.write_file(&p("/kept"), "x").unwrap();
        let base = parent.clone();
        let changes = changes_of(&base, |c| {
            c.remove_file(&p("/gone")).unwrap();
            c.remove_file(&p("/kept")).unwrap();
            c.write_file(&p("/new"), "theirs\n").unwrap();
        });
        parent.remove_file(&p("/gone")).unwrap();
        parent.write_file(&p("/kept"), "changed").unwrap();
        parent.write_file(&p("/new"), "ours\n").unwrap();
        let report = merge_changes(&mut parent, &changes, same_path).unwrap();
        assert_eq!(report.already_present, [p("/gone")]);
        let paths: Vec<_> = report.conflicts.iter().map(|c| c.path.clone()).collect();
        assert_eq!(paths, [p("/new"), p("/kept")], "in the change list's order");
        assert!(report.conflicts[0].theirs.contains("+theirs"));
        assert_eq!(parent.read_file(&p("/kept")).unwrap(), "changed");
    }

    #[test]
    fn paths_are_mapped_and_a_quota_refusal_applies_nothing() {
        let mut parent = Vfs::new(Quota {
            max_bytes: 10,
            max_nodes: 100,
        });
        parent.mkdir(&p("/src")).unwrap();
        let base = Vfs::new(Quota::UNLIMITED);
        let changes = changes_of(&base, |c| {
            c.write_file(&p("/a"), "1").unwrap();
            c.write_file(&p("/b"), "much too long").unwrap();
        });
        let error = merge_changes(&mut parent, &changes, |path| {
            p("/src").join_relative(path.components())
        })
        .unwrap_err();
        assert!(error.to_string().contains("/src/b"), "{error}");
        assert!(parent.lookup(&p("/src/a")).is_err(), "nothing applied");
    }
}
