//! Sandbox paths (docs/vfs.md): `/`-rooted, case-sensitive, `\` is an
//! ordinary character, `.` and empty segments dropped, `..` never climbs
//! above `/`, a NUL byte is invalid.

use std::cmp::Ordering;
use std::fmt;

use thiserror::Error;

/// Longest single name, in bytes (as on Linux).
pub const NAME_MAX: usize = 255;
/// Longest whole path, in bytes (as on Linux).
pub const PATH_MAX: usize = 4096;
/// Deepest a node may be: its path has at most this many names. Linux has
/// no such limit, but every tree walk (drop, diff, copy, `find`, `tar`,
/// write-back) recurses once per level, so the VFS refuses to grow deeper
/// (at creation and when a rename or copy would move a subtree deeper),
/// and a hostile guest cannot make a walk overflow the host's stack.
pub const MAX_DEPTH: usize = 256;

/// Why a string is not a sandbox path.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PathError {
    /// It holds a NUL byte.
    #[error("path contains a NUL byte")]
    Nul,
    /// A component is longer than 255 bytes.
    #[error("name is longer than {NAME_MAX} bytes")]
    NameTooLong,
    /// The whole path is longer than the limit.
    #[error("path is longer than {PATH_MAX} bytes")]
    PathTooLong,
    /// The path has more names than [`MAX_DEPTH`].
    #[error("path is deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// The path is empty: it names nothing (`ENOENT`, as on Linux), never
    /// the working directory, so `rm -rf "$unset"` removes nothing.
    #[error("empty path")]
    Empty,
}

/// A normalised absolute sandbox path. Always starts with `/`; never ends
/// with `/` unless it is the root; holds no `.`, `..` or empty segment.
///
/// Ordering is component-wise (`/a` < `/a/b` < `/a-b`), which is
/// depth-first tree order: a parent sorts before all of its descendants
/// and siblings' subtrees do not interleave.
#[derive(PartialEq, Eq, Hash)]
pub struct VfsPath(String);

// Written out for `clone_from`, which keeps the string's buffer.
impl Clone for VfsPath {
    fn clone(&self) -> Self {
        VfsPath(self.0.clone())
    }

    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl VfsPath {
    /// `/`.
    pub fn root() -> Self {
        VfsPath("/".to_string())
    }

    /// Normalises `input`; a relative input is taken from `/`, and an
    /// empty one is `/` (a host naming a sandbox path). Resolving against
    /// a working directory ([`VfsPath::resolve`]) refuses an empty path.
    pub fn parse(input: &str) -> Result<Self, PathError> {
        if input.is_empty() {
            return Ok(Self::root());
        }
        Self::root().resolve(input)
    }

    /// Resolves `input` against this path as the current directory.
    pub fn resolve(&self, input: &str) -> Result<Self, PathError> {
        if input.contains('\0') {
            return Err(PathError::Nul);
        }
        if input.is_empty() {
            return Err(PathError::Empty);
        }
        let mut parts: Vec<&str> = if input.starts_with('/') {
            Vec::new()
        } else {
            self.components().collect()
        };
        for segment in input.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                name => {
                    if name.len() > NAME_MAX {
                        return Err(PathError::NameTooLong);
                    }
                    parts.push(name);
                }
            }
        }
        let mut out = String::with_capacity(input.len() + self.0.len() + 1);
        for part in &parts {
            out.push('/');
            out.push_str(part);
        }
        if out.is_empty() {
            out.push('/');
        }
        if out.len() > PATH_MAX {
            return Err(PathError::PathTooLong);
        }
        if parts.len() > MAX_DEPTH {
            return Err(PathError::TooDeep);
        }
        Ok(VfsPath(out))
    }

    /// The normalised path text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether it is `/`.
    pub fn is_root(&self) -> bool {
        self.0 == "/"
    }

    /// The names from the root down (none for `/`).
    pub fn components(&self) -> impl DoubleEndedIterator<Item = &str> + Clone {
        self.0.split('/').filter(|s| !s.is_empty())
    }

    /// How many components it has (`/` has none).
    pub fn depth(&self) -> usize {
        self.components().count()
    }

    /// The parent (`None` for `/`).
    pub fn parent(&self) -> Option<VfsPath> {
        if self.is_root() {
            return None;
        }
        let cut = self.0.rfind('/').unwrap_or(0);
        Some(if cut == 0 {
            Self::root()
        } else {
            VfsPath(self.0[..cut].to_string())
        })
    }

    /// The last name, `None` for `/`.
    pub fn file_name(&self) -> Option<&str> {
        self.components().next_back()
    }

    /// Appends one name. `name` must be a single valid component.
    pub fn join(&self, name: &str) -> VfsPath {
        debug_assert!(!name.is_empty() && !name.contains('/') && name != "." && name != "..");
        if self.is_root() {
            VfsPath(format!("/{name}"))
        } else {
            VfsPath(format!("{}/{name}", self.0))
        }
    }

    /// Appends a relative path made of valid components.
    pub fn join_relative<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> VfsPath {
        names
            .into_iter()
            .fold(self.clone(), |path, name| path.join(name))
    }

    /// True when `self` is `ancestor` or lies under it.
    pub fn starts_with(&self, ancestor: &VfsPath) -> bool {
        ancestor.is_root()
            || self.0 == ancestor.0
            || (self.0.starts_with(&ancestor.0) && self.0.as_bytes()[ancestor.0.len()] == b'/')
    }

    /// The components of `self` below `ancestor`, if it lies under it.
    pub fn strip_prefix(&self, ancestor: &VfsPath) -> Option<Vec<&str>> {
        if !self.starts_with(ancestor) {
            return None;
        }
        Some(self.components().skip(ancestor.depth()).collect())
    }
}

impl Ord for VfsPath {
    fn cmp(&self, other: &Self) -> Ordering {
        self.components().cmp(other.components())
    }
}

impl PartialOrd for VfsPath {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for VfsPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for VfsPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl AsRef<str> for VfsPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn p(s: &str) -> String {
        VfsPath::parse(s).unwrap().as_str().to_string()
    }

    #[test]
    fn normalises_per_the_contract() {
        assert_eq!(p("/"), "/");
        assert_eq!(p(""), "/");
        assert_eq!(p("a/b"), "/a/b");
        assert_eq!(p("//a//./b/"), "/a/b");
        assert_eq!(p("/a/../../../b"), "/b");
        assert_eq!(p("/.."), "/");
        assert_eq!(p("/A.txt"), "/A.txt");
        assert_ne!(p("/A.txt"), p("/a.txt"), "paths are case-sensitive");
        assert_eq!(p("/a\\b"), "/a\\b", "backslash is not a separator");
        assert_eq!(p("/a/.../b"), "/a/.../b");
    }

    #[test]
    fn rejects_nul_and_overlong_names() {
        assert_eq!(VfsPath::parse("/a\0b"), Err(PathError::Nul));
        assert_eq!(
            VfsPath::parse(&format!("/{}", "x".repeat(256))),
            Err(PathError::NameTooLong)
        );
        assert!(VfsPath::parse(&format!("/{}", "x".repeat(255))).is_ok());
        let deep = "/abcdefgh".repeat(600);
        assert_eq!(VfsPath::parse(&deep), Err(PathError::PathTooLong));
    }

    #[test]
    fn resolves_relative_to_a_directory() {
        let cwd = VfsPath::parse("/work/src").unwrap();
        assert_eq!(cwd.resolve(""), Err(PathError::Empty), "names nothing");
        assert_eq!(cwd.resolve("x.js").unwrap().as_str(), "/work/src/x.js");
        assert_eq!(cwd.resolve("../x.js").unwrap().as_str(), "/work/x.js");
        assert_eq!(cwd.resolve("/abs").unwrap().as_str(), "/abs");
        assert_eq!(cwd.resolve("../../../..").unwrap().as_str(), "/");
    }

    #[test]
    fn parents_names_and_prefixes() {
        let path = VfsPath::parse("/a/b/c").unwrap();
        assert_eq!(path.parent().unwrap().as_str(), "/a/b");
        assert_eq!(
            VfsPath::parse("/a").unwrap().parent().unwrap(),
            VfsPath::root()
        );
        assert_eq!(VfsPath::root().parent(), None);
        assert_eq!(path.file_name(), Some("c"));
        assert!(path.starts_with(&VfsPath::parse("/a/b").unwrap()));
        assert!(path.starts_with(&VfsPath::root()));
        assert!(
            !VfsPath::parse("/a/bc")
                .unwrap()
                .starts_with(&VfsPath::parse("/a/b").unwrap())
        );
        assert_eq!(
            path.strip_prefix(&VfsPath::parse("/a").unwrap()).unwrap(),
            vec!["b", "c"]
        );
    }

    #[test]
    fn orders_depth_first() {
        let mut paths: Vec<VfsPath> = ["/a-b", "/a/b", "/a", "/b", "/a/b/c"]
            .iter()
            .map(|s| VfsPath::parse(s).unwrap())
            .collect();
        paths.sort();
        let strs: Vec<&str> = paths.iter().map(VfsPath::as_str).collect();
        assert_eq!(strs, ["/a", "/a/b", "/a/b/c", "/a-b", "/b"]);
    }

    proptest! {
        #[test]
        fn normalisation_is_idempotent_and_never_escapes(input in "[a-z./\\\\]{0,40}") {
            let once = VfsPath::parse(&input).unwrap();
            let twice = VfsPath::parse(once.as_str()).unwrap();
            prop_assert_eq!(&once, &twice);
            prop_assert!(once.as_str().starts_with('/'));
            prop_assert!(once.components().all(|c| c != ".." && c != "." && !c.is_empty()));
        }
    }
}
