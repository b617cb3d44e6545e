//! Backups of a file `cp` or `mv` is about to replace, as GNU's `-b`,
//! `--backup[=CONTROL]` and `-S`/`--suffix` make them: `NAME~` (simple),
//! `NAME.~N~` (numbered), or numbered only where numbered backups exist
//! already (existing, the default). `VERSION_CONTROL` and
//! `SIMPLE_BACKUP_SUFFIX` give the defaults, as in GNU.

use goccia_interp::interp::ShellView;
use goccia_vfs::{Node, Vfs, VfsPath};

use crate::args::{Parsed, argmatch};

/// How backup names are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    Simple,
    Existing,
    Numbered,
}

/// What a command makes of a file it replaces.
pub(crate) struct Backup {
    control: Control,
    suffix: String,
}

impl Backup {
    /// The backup the options ask for (`flag` is the command's letter for
    /// `--backup`), or none; a CONTROL word GNU does not know is refused in
    /// its words.
    pub(crate) fn from_options(
        shell: &mut ShellView,
        parsed: &Parsed,
        flag: char,
    ) -> Result<Option<Backup>, String> {
        let suffix_given = parsed.value('S');
        if !parsed.has(flag) && suffix_given.is_none() {
            return Ok(None);
        }
        let word = parsed
            .values
            .iter()
            .rev()
            .find(|(option, _)| *option == flag)
            .map(|(_, word)| word.clone())
            .or_else(|| shell.get_var("VERSION_CONTROL").filter(|v| !v.is_empty()));
        let control = match word {
            None => Control::Existing,
            Some(word) => {
                let choices: &[&[&str]] = &[
                    &["none", "off"],
                    &["simple", "never"],
                    &["existing", "nil"],
                    &["numbered", "t"],
                ];
                match argmatch("backup type", &word, choices)? {
                    0 => return Ok(None),
                    1 => Control::Simple,
                    2 => Control::Existing,
                    _ => Control::Numbered,
                }
            }
        };
        let suffix = suffix_given
            .map(str::to_string)
            .or_else(|| shell.get_var("SIMPLE_BACKUP_SUFFIX"))
            .filter(|suffix| !suffix.is_empty() && !suffix.contains('/'))
            .unwrap_or_else(|| "~".to_string());
        Ok(Some(Backup { control, suffix }))
    }

    /// Moves `path` aside to its backup name when it is a file or a link
    /// (a folder is merged into, never backed up); the name it took.
    pub(crate) fn make(
        &self,
        vfs: &mut Vfs,
        path: &VfsPath,
    ) -> goccia_vfs::FsResult<Option<String>> {
        if matches!(vfs.lookup_link(path), Ok(Node::Dir(_)) | Err(_)) {
            return Ok(None);
        }
        let Some(name) = path.file_name().map(str::to_string) else {
            return Ok(None);
        };
        let parent = path.parent().unwrap_or_else(VfsPath::root);
        // The highest N of the `NAME.~N~` backups there already.
        let prefix = format!("{name}.~");
        let highest = vfs.read_dir(&parent).ok().and_then(|entries| {
            entries
                .iter()
                .filter_map(|entry| {
                    entry
                        .name
                        .strip_prefix(&prefix)?
                        .strip_suffix('~')?
                        .parse::<u64>()
                        .ok()
                })
                .max()
        });
        let backup_name = match (self.control, highest) {
            (Control::Numbered, highest) | (Control::Existing, highest @ Some(_)) => {
                format!("{name}.~{}~", highest.unwrap_or(0) + 1)
            }
            _ => format!("{name}{}", self.suffix),
        };
        vfs.rename(path, &parent.join(&backup_name))?;
        Ok(Some(backup_name))
    }
}
