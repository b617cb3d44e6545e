//! What `tar` needs around its members: names read from `-T` lists, the
//! archive `-r` and `-u` add to, the owners written in headers, and the
//! long listing of `-tv` as GNU tar prints it.

use goccia_interp::interp::ShellView;
use goccia_interp::time::Zone;

/// The archive `-r`/`-u` add to.
pub(super) struct Existing {
    /// Its members, up to (not including) the end-of-archive blocks.
    pub(super) members: Vec<u8>,
    /// Each member's name and modification time (seconds), in order.
    pub(super) entries: Vec<(String, u64)>,
}

/// Reads the archive at `file` (none yet is an empty one). Standard
/// output and compressed archives cannot be added to, as GNU tar says.
pub(super) fn existing(
    shell: &mut ShellView,
    file: Option<&str>,
    compressed: bool,
) -> Result<Existing, String> {
    let empty = Existing {
        members: Vec::new(),
        entries: Vec::new(),
    };
    let Some(file) = file.filter(|file| *file != "-") else {
        return Err("Options '-Aru' are incompatible with '-f -'\n\
                    Try 'tar --help' or 'tar --usage' for more information."
            .to_string());
    };
    if compressed {
        return Err("Cannot update compressed archives\n\
                    Try 'tar --help' or 'tar --usage' for more information."
            .to_string());
    }
    let Ok(path) = shell.cwd().resolve(file) else {
        return Err(format!("{file}: Cannot open: Invalid argument"));
    };
    let bytes = match shell.context().vfs.lock().read_file(&path) {
        Ok(bytes) => bytes.to_vec(),
        Err(error) if error.errno == goccia_vfs::Errno::NoEnt => return Ok(empty),
        Err(error) => return Err(format!("{file}: Cannot open: {}", error.reason())),
    };
    if super::Filter::of(&bytes).is_some() {
        return Err(
            "Cannot update compressed archives\ntar: Error is not recoverable: exiting now"
                .to_string(),
        );
    }
    let end = members_end(&bytes);
    let mut listed = Vec::new();
    let mut archive = tar::Archive::new(&bytes[..end]);
    if let Ok(entries) = archive.entries() {
        for entry in entries.flatten() {
            if let (Ok(name), Ok(time)) = (entry.path(), entry.header().mtime()) {
                listed.push((name.to_string_lossy().into_owned(), time));
            }
        }
    }
    Ok(Existing {
        members: bytes[..end].to_vec(),
        entries: listed,
    })
}

/// What a name is now, for `-u`: a folder (its entries' names) or a file
/// with its modification time in seconds.
pub(super) enum Now {
    Folder(Vec<String>),
    File(u64),
}

/// The names `-u` still adds, as GNU tar decides: each member of the
/// archive, in order, is matched to the first name that is it or a folder
/// above it. If that member is a folder now, the name gives way to the
/// folder's entries; if it is a file no newer than the member, the name is
/// dropped — all of it, even when the match was a file inside a folder
/// named (GNU tar's way). What is left is added whole.
pub(super) fn still_to_update(
    entries: &[(String, u64)],
    mut names: Vec<String>,
    now: impl Fn(&str) -> Option<Now>,
) -> Vec<String> {
    for (member, archived) in entries {
        let member = member.trim_end_matches('/');
        let matched = names.iter().position(|name| {
            let name = name.trim_end_matches('/');
            member == name
                || member
                    .strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with('/'))
        });
        let Some(index) = matched else {
            continue;
        };
        match now(member) {
            Some(Now::Folder(children)) => {
                let name = names.remove(index);
                let folder = name.trim_end_matches('/');
                names.extend(
                    children
                        .into_iter()
                        .map(|child| format!("{folder}/{child}")),
                );
            }
            Some(Now::File(time)) if time <= *archived => {
                names.remove(index);
            }
            _ => {}
        }
    }
    names
}

/// Where the members of a ustar/GNU archive end: the first all-zero
/// header block (the start of the end marker), or the end of the data.
fn members_end(archive: &[u8]) -> usize {
    let mut at = 0;
    while at + 512 <= archive.len() {
        let header = &archive[at..at + 512];
        if header.iter().all(|byte| *byte == 0) {
            return at;
        }
        let size = octal(&header[124..136]);
        at += 512 + size.div_ceil(512) * 512;
    }
    archive.len().min(at)
}

pub(super) fn octal(field: &[u8]) -> usize {
    field
        .iter()
        .skip_while(|byte| **byte == b' ')
        .take_while(|byte| (b'0'..=b'7').contains(byte))
        .fold(0usize, |value, digit| {
            value
                .saturating_mul(8)
                .saturating_add(usize::from(digit - b'0'))
        })
}

/// The owner and group written in each header: the sandbox user's
/// (`user`, 1000) unless `--owner`/`--group` name others (`NAME` or
/// `NAME:ID`, as GNU tar takes them).
pub(super) struct Owners {
    user: (String, u64),
    group: (String, u64),
}

impl Owners {
    pub(super) fn new(owner: Option<&str>, group: Option<&str>, numeric: bool) -> Self {
        let mut owners = Owners {
            user: owner.map_or(("user".to_string(), 1000), named),
            group: group.map_or(("user".to_string(), 1000), named),
        };
        if numeric {
            // Ids alone: no names in the headers.
            owners.user.0.clear();
            owners.group.0.clear();
        }
        owners
    }

    pub(super) fn set(&self, header: &mut tar::Header) -> std::io::Result<()> {
        header.set_uid(self.user.1);
        header.set_gid(self.group.1);
        header.set_username(&self.user.0)?;
        header.set_groupname(&self.group.0)
    }
}

/// `NAME:ID`, `NAME` (the ids of the names the sandbox knows, else 0) or
/// a number alone (with the name the sandbox knows for it, as GNU looks
/// the id up; none for an id it does not know).
fn named(spec: &str) -> (String, u64) {
    if let Some((name, id)) = spec.split_once(':')
        && let Ok(id) = id.parse()
    {
        return (name.to_string(), id);
    }
    if let Ok(id) = spec.parse() {
        let name = match id {
            0 => "root",
            1000 => "user",
            _ => "",
        };
        return (name.to_string(), id);
    }
    let id = match spec {
        "user" => 1000,
        _ => 0,
    };
    (spec.to_string(), id)
}

/// The width GNU tar gives `owner/group size` (19 at first; it grows to
/// the widest seen and stays).
pub(super) struct Listing {
    width: usize,
    /// `--numeric-owner`: ids, not the names the headers carry.
    numeric: bool,
}

impl Listing {
    pub(super) fn new(numeric: bool) -> Self {
        Listing { width: 19, numeric }
    }

    /// One `-tv` line: mode, owner/group, size, time, name (and where a
    /// link points).
    pub(super) fn line(&mut self, header: &tar::Header, name: &str, zone: &Zone) -> String {
        use tar::EntryType;
        let kind = header.entry_type();
        let type_char = match kind {
            EntryType::Directory => 'd',
            EntryType::Symlink => 'l',
            EntryType::Link => 'h',
            EntryType::Char => 'c',
            EntryType::Block => 'b',
            EntryType::Fifo => 'p',
            _ => '-',
        };
        let mode = header.mode().unwrap_or(0);
        let numeric = self.numeric;
        let who =
            |name: Option<&str>, id: u64| match name.filter(|name| !numeric && !name.is_empty()) {
                Some(name) => name.to_string(),
                None => id.to_string(),
            };
        let user = who(header.username().ok().flatten(), header.uid().unwrap_or(0));
        let group = who(header.groupname().ok().flatten(), header.gid().unwrap_or(0));
        let size = if matches!(kind, EntryType::Link | EntryType::Symlink) {
            0
        } else {
            header.size().unwrap_or(0)
        }
        .to_string();
        let used = user.len() + 1 + group.len() + 1 + size.len();
        self.width = self.width.max(used);
        let pad = self.width - (user.len() + 1 + group.len());
        let time = goccia_interp::time::strftime_at(
            "%Y-%m-%d %H:%M",
            header.mtime().unwrap_or(0) as i64,
            zone,
        );
        let target = header
            .link_name()
            .ok()
            .flatten()
            .map(|target| target.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tail = match kind {
            EntryType::Symlink => format!(" -> {target}"),
            EntryType::Link => format!(" link to {target}"),
            _ => String::new(),
        };
        format!(
            "{type_char}{} {user}/{group} {} {time} {name}{tail}\n",
            crate::files::list::permission_string(mode),
            goccia_interp::pad::left_pad(&size, pad - 1, ' '),
        )
    }
}

/// The size of GNU tar's records: an archive is padded with zeros to a
/// multiple of it (a blocking factor of 20 blocks of 512 bytes).
const RECORD: usize = 20 * 512;

/// Makes `archive` (headers and data, then the end marker) byte for byte
/// what GNU tar writes for the same members: each header's checksum in
/// GNU's form (six octal digits, NUL, space, where the `tar` crate writes
/// seven digits and NUL), a ustar header's device numbers written out,
/// and the whole padded to a record.
pub(super) fn as_gnu_writes(archive: &mut Vec<u8>) {
    let mut offset = 0;
    while offset + 512 <= archive.len() {
        let block = &mut archive[offset..offset + 512];
        if block.iter().all(|&byte| byte == 0) {
            break;
        }
        let size = tar::Header::from_byte_slice(block)
            .entry_size()
            .unwrap_or(0) as usize;
        // A POSIX ustar header carries the device numbers as octal zeros
        // in GNU's, where the crate leaves them empty.
        if &block[257..265] == b"ustar\x0000" {
            for field in [329..337, 337..345] {
                if block[field.clone()].iter().all(|&byte| byte == 0) {
                    block[field.clone()][..7].copy_from_slice(b"0000000");
                }
            }
        }
        block[148..156].fill(b' ');
        let sum: u32 = block.iter().map(|&byte| u32::from(byte)).sum();
        // At most 512 × 255, which six octal digits always hold.
        let digits = format!("{sum:06o}");
        block[148..154].copy_from_slice(digits.as_bytes());
        block[154] = 0;
        block[155] = b' ';
        offset += 512 + size.div_ceil(512) * 512;
    }
    let padded = archive.len().div_ceil(RECORD).max(1) * RECORD;
    archive.resize(padded, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_members_end_at_the_first_zero_block() {
        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_gnu();
        header.set_size(600);
        header.set_cksum();
        builder
            .append_data(&mut header, "a", &[7u8; 600][..])
            .unwrap();
        let archive = builder.into_inner().unwrap();
        // One header and two blocks of data, then the end marker.
        assert_eq!(members_end(&archive), 512 * 3);
        assert_eq!(members_end(&[]), 0);
    }

    /// GNU tar's quirk kept: a folder named whose archived file is not
    /// newer is dropped whole; a newer file is added again.
    #[test]
    fn update_drops_a_name_whose_match_is_not_newer() {
        let entries = [("c.txt".to_string(), 5), ("d/a.txt".to_string(), 5)];
        let now = |name: &str| match name {
            "c.txt" => Some(Now::File(9)),
            "d/a.txt" => Some(Now::File(5)),
            _ => None,
        };
        let names = vec!["c.txt".to_string(), "d".to_string(), "e".to_string()];
        assert_eq!(still_to_update(&entries, names, now), ["c.txt", "e"]);
        // An archived folder gives way to its entries.
        let entries = [("d/".to_string(), 5)];
        let now = |name: &str| (name == "d").then(|| Now::Folder(vec!["x".into(), "y".into()]));
        assert_eq!(
            still_to_update(&entries, vec!["d".to_string()], now),
            ["d/x", "d/y"]
        );
    }

    #[test]
    fn checksums_and_padding_are_gnus() {
        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_gnu();
        header.set_size(3);
        header.set_mode(0o644);
        builder
            .append_data(&mut header, "a.txt", &b"abc"[..])
            .unwrap();
        let mut archive = builder.into_inner().unwrap();
        assert_eq!(archive.len(), 2048);
        as_gnu_writes(&mut archive);
        assert_eq!(archive.len(), RECORD);
        assert_eq!(&archive[154..156], b"\0 ");
        let header = tar::Header::from_byte_slice(&archive[..512]);
        // The field still reads as the right checksum.
        assert_eq!(header.cksum().unwrap(), {
            let mut copy = archive[..512].to_vec();
            copy[148..156].fill(b' ');
            copy.iter().map(|&b| u32::from(b)).sum::<u32>()
        });
    }
}
