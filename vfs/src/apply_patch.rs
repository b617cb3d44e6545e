//! Applying a unified patch (git's form, as [`crate::patch`] writes it, or
//! plain `diff -u` output) to a VFS, all or nothing. Each file's hunks are
//! applied by `diffy`; this module splits the patch into files, reads
//! their headers (`new file`, `deleted file`, `/dev/null`) and strips path
//! components as `patch -p` does.

use thiserror::Error;

use crate::change::ChangeKind;
use crate::error::FsError;
use crate::fs::Vfs;
use crate::path::VfsPath;

/// Where a patch's paths point.
#[derive(Clone, Debug)]
pub struct PatchOptions {
    /// Leading path components to remove (`patch -p`): 1 for git's `a/`
    /// and `b/` prefixes.
    pub strip: usize,
    /// The folder the stripped paths are relative to.
    pub base: VfsPath,
    /// The one file the patch applies to, whatever names it gives (GNU
    /// `patch FILE`): a patch of several files is refused with it.
    pub file: Option<VfsPath>,
}

impl Default for PatchOptions {
    /// Git's form (`-p1`) relative to `/`.
    fn default() -> Self {
        PatchOptions {
            strip: 1,
            base: VfsPath::root(),
            file: None,
        }
    }
}

/// One file a patch changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchedFile {
    /// The file.
    pub path: VfsPath,
    /// Created, modified or deleted.
    pub kind: ChangeKind,
}

/// Why a patch was not applied; nothing of it was.
#[derive(Debug, Error)]
pub enum PatchError {
    /// The text is not a unified patch.
    #[error("malformed patch at line {line}: {reason}")]
    Malformed {
        /// 1-based line of the patch.
        line: usize,
        /// What is wrong there.
        reason: String,
    },
    /// No file section at all.
    #[error("no file changes found in the patch")]
    Empty,
    /// A path that stripping leaves nothing of, or that is not valid.
    #[error("cannot use the path `{path}` (after stripping {strip} components)")]
    BadPath {
        /// The path as the patch wrote it.
        path: String,
        /// Components stripped.
        strip: usize,
    },
    /// A file to patch was named, and the patch changes several.
    #[error("the patch changes {count} files, and a file operand names one")]
    SeveralFiles {
        /// How many the patch changes.
        count: usize,
    },
    /// A binary patch: not supported.
    #[error("{path}: binary patches cannot be applied (only text hunks)")]
    Binary {
        /// The file.
        path: String,
    },
    /// The hunks do not fit the file as it is.
    #[error("{path}: the patch does not apply ({reason})")]
    DoesNotApply {
        /// The file.
        path: VfsPath,
        /// Why.
        reason: String,
    },
    /// The VFS refused (a quota, a file in the way, a missing file).
    #[error(transparent)]
    Fs(#[from] FsError),
}

/// One file's section of a patch.
struct Section {
    old: Option<String>,
    new: Option<String>,
    /// The `---`/`+++` lines and the hunks, as diffy reads them.
    hunks: String,
    header_line: usize,
    /// Every hunk starts from no old lines (`@@ -0,0`): plain `diff -N`
    /// output for a new file, which names no `/dev/null`.
    from_nothing: bool,
}

/// Applies `text` to `vfs`; the files it changed, in patch order.
pub fn apply_patch(
    vfs: &mut Vfs,
    text: &str,
    options: &PatchOptions,
) -> Result<Vec<PatchedFile>, PatchError> {
    let sections = split(text)?;
    if sections.is_empty() {
        return Err(PatchError::Empty);
    }
    if options.file.is_some() && sections.len() > 1 {
        return Err(PatchError::SeveralFiles {
            count: sections.len(),
        });
    }
    let mut staged = vfs.clone();
    let mut patched = Vec::with_capacity(sections.len());
    for section in &sections {
        patched.push(apply_section(&mut staged, section, options)?);
    }
    *vfs = staged;
    Ok(patched)
}

fn apply_section(
    vfs: &mut Vfs,
    section: &Section,
    options: &PatchOptions,
) -> Result<PatchedFile, PatchError> {
    let resolve = |name: &str| -> Result<VfsPath, PatchError> {
        if let Some(file) = &options.file {
            return Ok(file.clone());
        }
        let bad = || PatchError::BadPath {
            path: name.to_string(),
            strip: options.strip,
        };
        let parts: Vec<&str> = name.split('/').filter(|part| !part.is_empty()).collect();
        let kept = parts
            .get(options.strip..)
            .filter(|rest| !rest.is_empty())
            .ok_or_else(bad)?;
        options.base.resolve(&kept.join("/")).map_err(|_| bad())
    };
    let (kind, path) = match (&section.old, &section.new) {
        (None, Some(new)) => (ChangeKind::Create, resolve(new)?),
        (Some(old), None) => (ChangeKind::Delete, resolve(old)?),
        (Some(_), Some(new)) => {
            let path = resolve(new)?;
            if section.from_nothing && vfs.lookup(&path).is_err() {
                (ChangeKind::Create, path)
            } else {
                (ChangeKind::Modify, path)
            }
        }
        (None, None) => {
            return Err(PatchError::Malformed {
                line: section.header_line,
                reason: "a file with neither an old nor a new name".to_string(),
            });
        }
    };
    let current = match kind {
        ChangeKind::Create => {
            if vfs.lookup(&path).is_ok() {
                return Err(PatchError::DoesNotApply {
                    path,
                    reason: "the file to create already exists".to_string(),
                });
            }
            String::new()
        }
        _ => {
            let bytes = vfs.read_file(&path)?;
            String::from_utf8(bytes.to_vec()).map_err(|_| PatchError::DoesNotApply {
                path: path.clone(),
                reason: "the file is not text".to_string(),
            })?
        }
    };
    let result = if section.hunks.is_empty() {
        current
    } else {
        let patch =
            diffy::Patch::from_str(&section.hunks).map_err(|error| PatchError::Malformed {
                line: section.header_line,
                reason: error.to_string(),
            })?;
        diffy::apply(&current, &patch).map_err(|error| PatchError::DoesNotApply {
            path: path.clone(),
            reason: error.to_string(),
        })?
    };
    match kind {
        ChangeKind::Delete => {
            if !result.is_empty() {
                return Err(PatchError::DoesNotApply {
                    path,
                    reason: "the file to delete holds more than the patch removes".to_string(),
                });
            }
            vfs.remove_file(&path)?;
        }
        _ => vfs.write_file(&path, result)?,
    }
    Ok(PatchedFile { path, kind })
}

/// The name on a `---`/`+++` line (up to a tab, unquoted); `None` for
/// `/dev/null`.
fn header_name(rest: &str) -> Option<String> {
    let name = rest.split('\t').next().unwrap_or(rest).trim_end();
    let name = unquote(name);
    (name != "/dev/null").then_some(name)
}

/// Git quotes names holding special characters: `"a/x\ty"`.
fn unquote(name: &str) -> String {
    let Some(inner) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) else {
        return name.to_string();
    };
    let mut bytes = Vec::with_capacity(inner.len());
    let mut chars = inner.bytes().peekable();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match chars.next() {
            Some(b'n') => bytes.push(b'\n'),
            Some(b't') => bytes.push(b'\t'),
            Some(b'r') => bytes.push(b'\r'),
            Some(d @ b'0'..=b'7') => {
                let mut value = u32::from(d - b'0');
                for _ in 0..2 {
                    match chars.peek() {
                        Some(d @ b'0'..=b'7') => {
                            value = value * 8 + u32::from(d - b'0');
                            chars.next();
                        }
                        _ => break,
                    }
                }
                bytes.push(value as u8);
            }
            Some(other) => bytes.push(other),
            None => bytes.push(b'\\'),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `@@ -a,b +c,d @@`: the old and new line counts.
fn hunk_counts(line: &str) -> Option<(usize, usize)> {
    let body = line.strip_prefix("@@ -")?;
    let (ranges, _) = body.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let count = |range: &str| match range.split_once(',') {
        Some((_, count)) => count.parse().ok(),
        None => Some(1),
    };
    Some((count(old)?, count(new)?))
}

/// Splits a patch into file sections.
fn split(text: &str) -> Result<Vec<Section>, PatchError> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let malformed = |line: usize, reason: &str| PatchError::Malformed {
        line: line + 1,
        reason: reason.to_string(),
    };
    let mut sections = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(names) = line.strip_prefix("diff --git ") {
            // A git header: modes and names, then (maybe) ---/+++ and hunks.
            let header_line = i + 1;
            let mut section = Section {
                old: None,
                new: None,
                hunks: String::new(),
                header_line,
                from_nothing: false,
            };
            let (mut created, mut deleted) = (false, false);
            i += 1;
            while i < lines.len() && !lines[i].starts_with("--- ") {
                let header = lines[i];
                if header.starts_with("diff --git ") {
                    break;
                }
                if header.starts_with("GIT binary patch") || header.starts_with("Binary files ") {
                    return Err(PatchError::Binary {
                        path: names.trim_end().to_string(),
                    });
                }
                created |= header.starts_with("new file mode");
                deleted |= header.starts_with("deleted file mode");
                i += 1;
            }
            if i < lines.len() && lines[i].starts_with("--- ") {
                read_file_hunks(&lines, &mut i, &mut section, malformed)?;
            } else {
                // No hunks (an empty new file, a mode change): the names
                // come from the header.
                let name = git_header_name(names)
                    .ok_or_else(|| malformed(header_line - 1, "cannot read the file names"))?;
                section.old = (!created).then(|| format!("a/{name}"));
                section.new = (!deleted).then(|| format!("b/{name}"));
            }
            sections.push(section);
        } else if line.starts_with("--- ")
            && lines.get(i + 1).is_some_and(|l| l.starts_with("+++ "))
        {
            let mut section = Section {
                old: None,
                new: None,
                hunks: String::new(),
                header_line: i + 1,
                from_nothing: false,
            };
            read_file_hunks(&lines, &mut i, &mut section, malformed)?;
            sections.push(section);
        } else {
            // Text around the patch (a mail, a commit message) is skipped.
            i += 1;
        }
    }
    Ok(sections)
}

/// The `---` and `+++` lines at `lines[*i]` and the hunks after them.
fn read_file_hunks(
    lines: &[&str],
    i: &mut usize,
    section: &mut Section,
    malformed: impl Fn(usize, &str) -> PatchError,
) -> Result<(), PatchError> {
    let old = lines[*i]
        .strip_prefix("--- ")
        .expect("checked by the caller");
    let new = lines
        .get(*i + 1)
        .and_then(|l| l.strip_prefix("+++ "))
        .ok_or_else(|| malformed(*i + 1, "`---` without `+++`"))?;
    section.old = header_name(old);
    section.new = header_name(new);
    section.hunks.push_str(lines[*i]);
    section.hunks.push_str(lines[*i + 1]);
    *i += 2;
    section.from_nothing = true;
    while *i < lines.len() && lines[*i].starts_with("@@") {
        section.from_nothing &= lines[*i].starts_with("@@ -0,0 ");
        let (mut old_left, mut new_left) =
            hunk_counts(lines[*i]).ok_or_else(|| malformed(*i, "a hunk header"))?;
        section.hunks.push_str(lines[*i]);
        *i += 1;
        while old_left + new_left > 0 {
            let line = lines
                .get(*i)
                .ok_or_else(|| malformed(*i, "the patch ends inside a hunk"))?;
            match line.as_bytes().first() {
                Some(b' ') | Some(b'\n') => {
                    old_left = old_left.saturating_sub(1);
                    new_left = new_left.saturating_sub(1);
                }
                Some(b'-') => old_left = old_left.saturating_sub(1),
                Some(b'+') => new_left = new_left.saturating_sub(1),
                Some(b'\\') => {}
                _ => return Err(malformed(*i, "a line inside a hunk")),
            }
            section.hunks.push_str(line);
            *i += 1;
        }
        // "\ No newline at end of file" after the last line of a hunk.
        if lines.get(*i).is_some_and(|l| l.starts_with('\\')) {
            section.hunks.push_str(lines[*i]);
            *i += 1;
        }
    }
    Ok(())
}

/// `a/x b/x` → `x` (the same name on both sides, as git writes it).
fn git_header_name(names: &str) -> Option<String> {
    let names = names.trim_end();
    let half = names.len().checked_sub(1)? / 2;
    let (old, new) = (names.get(..half)?, names.get(half + 1..)?);
    let old = old.strip_prefix("a/")?;
    let new = new.strip_prefix("b/")?;
    (old == new).then(|| old.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::fs::Quota;
    use crate::patch::to_unified;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn our_own_patches_replay_onto_the_old_tree() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.mkdir_all(&p("/src/deep")).unwrap();
        fs.write_file(&p("/src/a.txt"), "1\n2\n3\n").unwrap();
        fs.write_file(&p("/src/gone.txt"), "bye\n").unwrap();
        fs.write_file(&p("/src/tail"), "no newline").unwrap();
        let base = fs.clone();
        fs.write_file(&p("/src/a.txt"), "1\ntwo\n3\n").unwrap();
        fs.remove_file(&p("/src/gone.txt")).unwrap();
        fs.write_file(&p("/src/deep/new.txt"), "new\n").unwrap();
        fs.write_file(&p("/src/empty"), "").unwrap();
        fs.write_file(&p("/src/tail"), "still no newline").unwrap();
        let patch = to_unified(&diff(&base.snapshot(), &fs.snapshot()));
        let mut replay = base.clone();
        let files = apply_patch(&mut replay, &patch, &PatchOptions::default()).unwrap();
        assert_eq!(files.len(), 5, "{files:?}");
        assert!(
            diff(&fs.snapshot(), &replay.snapshot()).is_empty(),
            "{patch}"
        );
    }

    #[test]
    fn a_patch_that_does_not_fit_changes_nothing() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.write_file(&p("/a"), "1\n").unwrap();
        fs.write_file(&p("/b"), "x\n").unwrap();
        let patch =
            "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-1\n+one\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-y\n+z\n";
        let error = apply_patch(&mut fs, patch, &PatchOptions::default()).unwrap_err();
        assert!(matches!(error, PatchError::DoesNotApply { .. }), "{error}");
        assert_eq!(fs.read_file(&p("/a")).unwrap(), "1\n", "all or nothing");
        let error = apply_patch(&mut fs, "hello\n", &PatchOptions::default()).unwrap_err();
        assert!(matches!(error, PatchError::Empty));
        let error = apply_patch(
            &mut fs,
            "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-1\n",
            &PatchOptions::default(),
        )
        .unwrap_err();
        assert!(error.to_string().contains("ends inside a hunk"), "{error}");
        let binary =
            "diff --git a/a b/a\nindex 1..2 100644\nGIT binary patch\nliteral 1\nIcmZ?d00001\n";
        let error = apply_patch(&mut fs, binary, &PatchOptions::default()).unwrap_err();
        assert!(matches!(error, PatchError::Binary { .. }), "{error}");
        // Stripping more components than the path has names nothing.
        let deep = PatchOptions {
            strip: 3,
            ..PatchOptions::default()
        };
        let error =
            apply_patch(&mut fs, "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-1\n+2\n", &deep).unwrap_err();
        assert!(
            matches!(error, PatchError::BadPath { strip: 3, .. }),
            "{error}"
        );
        // Creating a file that exists, or patching one that is missing.
        let create = "--- /dev/null\n+++ b/b\n@@ -0,0 +1 @@\n+new\n";
        let error = apply_patch(&mut fs, create, &PatchOptions::default()).unwrap_err();
        assert!(error.to_string().contains("already exists"), "{error}");
        let missing = "--- a/nope\n+++ b/nope\n@@ -1 +1 @@\n-1\n+2\n";
        let error = apply_patch(&mut fs, missing, &PatchOptions::default()).unwrap_err();
        assert!(matches!(error, PatchError::Fs(_)), "{error}");
        assert_eq!(
            fs.read_file(&p("/a")).unwrap(),
            "1\n",
            "nothing changed throughout"
        );
    }

    #[test]
    fn a_named_file_takes_the_patch_whatever_it_names_but_only_one() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.write_file(&p("/mine"), "old\n").unwrap();
        let patch = "--- a/elsewhere\n+++ b/elsewhere\n@@ -1 +1 @@\n-old\n+new\n";
        let options = PatchOptions {
            file: Some(p("/mine")),
            ..PatchOptions::default()
        };
        let patched = apply_patch(&mut fs, patch, &options).unwrap();
        assert_eq!(patched[0].path, p("/mine"));
        assert_eq!(fs.read_file(&p("/mine")).unwrap(), "new\n");
        assert!(fs.lookup(&p("/elsewhere")).is_err());
        let two = format!("{patch}{}", patch.replace("elsewhere", "other"));
        let refused = apply_patch(&mut fs, &two, &options).unwrap_err();
        assert!(
            matches!(refused, PatchError::SeveralFiles { count: 2 }),
            "{refused}"
        );
        assert_eq!(fs.read_file(&p("/mine")).unwrap(), "new\n");
    }

    #[test]
    fn paths_strip_like_patch_p_and_resolve_from_the_base() {
        let mut fs = Vfs::new(Quota::UNLIMITED);
        fs.mkdir_all(&p("/work/src")).unwrap();
        fs.write_file(&p("/work/src/x"), "old\n").unwrap();
        let patch = "--- x.orig\t2026-01-01\n+++ src/x\t2026-01-01\n@@ -1 +1 @@\n-old\n+new\n";
        let options = PatchOptions {
            strip: 0,
            base: p("/work"),
            file: None,
        };
        apply_patch(&mut fs, patch, &options).unwrap();
        assert_eq!(fs.read_file(&p("/work/src/x")).unwrap(), "new\n");
        // `diff -N` writes a new file against an empty one, not /dev/null.
        let patch = "--- old/n\t1970-01-01\n+++ new/n\n@@ -0,0 +1 @@\n+made\n";
        let options = PatchOptions {
            strip: 1,
            base: p("/work"),
            file: None,
        };
        apply_patch(&mut fs, patch, &options).unwrap();
        assert_eq!(fs.read_file(&p("/work/n")).unwrap(), "made\n");
        assert_eq!(unquote("\"a/x\\ty\\303\\251\""), "a/x\tyé");
    }
}
