//! The two forms a diff is written in, each rendered by its module.

use crate::change::Change;

/// The two forms a diff is written in (docs/vfs.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiffFormat {
    /// `{"version":1,"changes":[...]}` with sizes, `blake3:` hashes and
    /// the new content of every file.
    #[default]
    Json,
    /// A git patch (binary files as `GIT binary patch`) that `git apply`
    /// accepts.
    Unified,
}

goccia_core::named!(DiffFormat {
    "json" => DiffFormat::Json,
    "unified" => DiffFormat::Unified,
});

impl DiffFormat {
    /// `json` or `unified`, as every interface spells them (`None` for
    /// anything else; `str::parse` says which names are valid).
    pub fn parse(name: &str) -> Option<DiffFormat> {
        name.parse().ok()
    }

    /// `changes` written in this format.
    pub fn render(self, changes: &[Change]) -> String {
        match self {
            DiffFormat::Json => crate::changes::to_json(changes),
            DiffFormat::Unified => crate::patch::to_unified(changes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::fs::{Quota, Vfs};
    use crate::path::VfsPath;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn diff_formats_parse_by_name_and_render_each_form() {
        assert_eq!(DiffFormat::parse("json"), Some(DiffFormat::Json));
        assert_eq!(DiffFormat::parse("unified"), Some(DiffFormat::Unified));
        assert_eq!(DiffFormat::parse("JSON"), None);
        assert_eq!(DiffFormat::parse(""), None);
        let mut fs = Vfs::new(Quota::UNLIMITED);
        let before = fs.snapshot();
        fs.write_file(&p("/a.txt"), "a\n").unwrap();
        let changes = diff(&before, &fs.snapshot());
        assert!(
            DiffFormat::Json
                .render(&changes)
                .contains("\"path\": \"/a.txt\"")
        );
        assert!(
            DiffFormat::Unified
                .render(&changes)
                .starts_with("diff --git a/a.txt b/a.txt")
        );
    }
}
