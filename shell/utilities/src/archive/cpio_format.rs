//! cpio's archive formats, as GNU cpio 2.13 writes and reads them: `bin`
//! (16-bit words in the host's order, here little-endian; read in either),
//! `odc` (octal text), `newc` and `crc` (hexadecimal text, `crc` with a
//! checksum of the data). Each member is a header, its name, its data (a
//! link's target); a `TRAILER!!!` member ends the archive, which is padded
//! to 512-byte blocks. The VFS has no devices or inodes: both are written
//! as 0, and members numbered 1, 2, ... in archive order.

use goccia_vfs::Node;

/// GNU cpio's block: what its "N blocks" counts, and what an archive is
/// padded to.
pub(super) const BLOCK: usize = 512;
/// The name of the entry that ends an archive.
pub(super) const TRAILER: &str = "TRAILER!!!";
/// The sandbox's own user and group (`id`).
pub(super) const SANDBOX_ID: u32 = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    Bin,
    Odc,
    Newc,
    Crc,
}

impl Format {
    pub(super) fn named(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "bin" => Some(Format::Bin),
            "odc" => Some(Format::Odc),
            "newc" => Some(Format::Newc),
            "crc" => Some(Format::Crc),
            _ => None,
        }
    }
}

/// One archive member: its header's fields and its data (a link's target).
pub(super) struct Entry {
    pub(super) name: String,
    pub(super) mode: u32,
    pub(super) uid: u32,
    pub(super) gid: u32,
    pub(super) nlink: u32,
    pub(super) mtime: u64,
    pub(super) data: Vec<u8>,
}

pub(super) const KIND_MASK: u32 = 0o170000;
pub(super) const IS_DIR: u32 = 0o040000;
pub(super) const IS_FILE: u32 = 0o100000;
pub(super) const IS_LINK: u32 = 0o120000;

impl Entry {
    pub(super) fn of(name: &str, node: &Node, owner: (Option<u32>, Option<u32>)) -> Entry {
        let meta = node.meta();
        let (kind, data, nlink) = match node {
            Node::File(file) => (IS_FILE, file.data().to_vec(), 1),
            Node::Dir(_) => (
                IS_DIR,
                Vec::new(),
                crate::files::list::link_count(node) as u32,
            ),
            Node::Link(link) => (IS_LINK, link.target().as_bytes().to_vec(), 1),
        };
        Entry {
            name: name.to_string(),
            mode: kind | (meta.mode & 0o7777),
            uid: owner.0.unwrap_or(SANDBOX_ID),
            gid: owner.1.unwrap_or(SANDBOX_ID),
            nlink,
            mtime: meta.mtime_ns.max(0).div_euclid(1_000_000_000) as u64,
            data,
        }
    }

    pub(super) fn trailer() -> Entry {
        Entry {
            name: TRAILER.to_string(),
            mode: 0,
            uid: 0,
            gid: 0,
            nlink: 1,
            mtime: 0,
            data: Vec::new(),
        }
    }

    pub(super) fn kind(&self) -> u32 {
        self.mode & KIND_MASK
    }
}

/// Appends `entry` (its `ino`) in `format`, as GNU writes it.
pub(super) fn write_entry(out: &mut Vec<u8>, format: Format, entry: &Entry, ino: u32) {
    let name_size = entry.name.len() + 1;
    let size = entry.data.len();
    match format {
        Format::Newc | Format::Crc => {
            let (magic, check) = match format {
                // The sum of a file's bytes; GNU sums nothing else (a
                // link's target included).
                Format::Crc if entry.kind() == IS_FILE => (
                    "070702",
                    entry
                        .data
                        .iter()
                        .fold(0u32, |sum, byte| sum.wrapping_add(u32::from(*byte))),
                ),
                Format::Crc => ("070702", 0),
                _ => ("070701", 0),
            };
            let fields = [
                ino,
                entry.mode,
                entry.uid,
                entry.gid,
                entry.nlink,
                entry.mtime as u32,
                size as u32,
                0,
                0,
                0,
                0,
                name_size as u32,
                check,
            ];
            out.extend_from_slice(magic.as_bytes());
            for field in fields {
                out.extend_from_slice(format!("{field:08X}").as_bytes());
            }
            out.extend_from_slice(entry.name.as_bytes());
            out.push(0);
            pad_to(out, 4);
            out.extend_from_slice(&entry.data);
            pad_to(out, 4);
        }
        Format::Odc => {
            let octal = |value: u64, width: usize| {
                let text = format!("{value:o}");
                // A value wider than its field keeps its low digits.
                let text = &text[text.len().saturating_sub(width)..];
                goccia_interp::pad::left_pad(text, width, '0')
            };
            out.extend_from_slice(b"070707");
            for (value, width) in [
                (0, 6),
                (u64::from(ino), 6),
                (u64::from(entry.mode), 6),
                (u64::from(entry.uid), 6),
                (u64::from(entry.gid), 6),
                (u64::from(entry.nlink), 6),
                (0, 6),
                (entry.mtime, 11),
                (name_size as u64, 6),
                (size as u64, 11),
            ] {
                out.extend_from_slice(octal(value, width).as_bytes());
            }
            out.extend_from_slice(entry.name.as_bytes());
            out.push(0);
            out.extend_from_slice(&entry.data);
        }
        Format::Bin => {
            let halves = |value: u64| [(value >> 16) as u16, value as u16];
            let mut words = vec![
                0o070707u16,
                0,
                ino as u16,
                entry.mode as u16,
                entry.uid as u16,
                entry.gid as u16,
                entry.nlink as u16,
                0,
            ];
            words.extend(halves(entry.mtime));
            words.push(name_size as u16);
            words.extend(halves(size as u64));
            for word in words {
                out.extend_from_slice(&word.to_le_bytes());
            }
            out.extend_from_slice(entry.name.as_bytes());
            out.push(0);
            pad_to(out, 2);
            out.extend_from_slice(&entry.data);
            pad_to(out, 2);
        }
    }
}

pub(super) fn pad_to(out: &mut Vec<u8>, multiple: usize) {
    out.resize(out.len().next_multiple_of(multiple), 0);
}

/// Why reading stopped short: no header where one should be, or a
/// header whose name or data the input ends inside (GNU's two messages).
pub(super) const PREMATURE: &str = "premature end of archive";
pub(super) const PREMATURE_FILE: &str = "premature end of file";

/// The entries of `archive` up to its trailer, and the bytes they took;
/// an error names what GNU cpio says of a short or corrupt archive.
pub(super) struct Reader<'a> {
    pub(super) archive: &'a [u8],
    pub(super) at: usize,
}

impl Reader<'_> {
    /// The next entry (`None` at the trailer), with a warning for junk
    /// skipped before it.
    pub(super) fn next_entry(&mut self) -> Result<(Option<Entry>, Option<usize>), String> {
        let skipped = self.find_magic()?;
        let rest = &self.archive[self.at..];
        let (entry, used) = if rest.starts_with(b"070701") || rest.starts_with(b"070702") {
            read_newc(rest)?
        } else if rest.starts_with(b"070707") {
            read_odc(rest)?
        } else {
            read_bin(rest, rest[0] == 0xc7)?
        };
        self.at += used;
        let warning = (skipped > 0).then_some(skipped);
        if entry.name == TRAILER {
            return Ok((None, warning));
        }
        Ok((Some(entry), warning))
    }

    /// Moves to the next header's magic; the bytes skipped to find it.
    fn find_magic(&mut self) -> Result<usize, String> {
        let start = self.at;
        while self.at < self.archive.len() {
            let rest = &self.archive[self.at..];
            let ascii = rest.len() >= 6
                && (rest.starts_with(b"070701")
                    || rest.starts_with(b"070702")
                    || rest.starts_with(b"070707"));
            let binary =
                rest.len() >= 2 && (rest[..2] == [0xc7, 0x71] || rest[..2] == [0x71, 0xc7]);
            if ascii || binary {
                return Ok(self.at - start);
            }
            self.at += 1;
        }
        Err(PREMATURE.to_string())
    }
}

fn field(text: &[u8], radix: u32) -> Result<u64, String> {
    std::str::from_utf8(text)
        .ok()
        .and_then(|text| u64::from_str_radix(text, radix).ok())
        .ok_or_else(|| PREMATURE_FILE.to_string())
}

fn take(bytes: &[u8], from: usize, len: usize) -> Result<&[u8], String> {
    bytes
        .get(from..from.checked_add(len).ok_or(PREMATURE_FILE)?)
        .ok_or_else(|| PREMATURE_FILE.to_string())
}

fn name_of(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

fn read_newc(rest: &[u8]) -> Result<(Entry, usize), String> {
    let header = take(rest, 0, 110)?;
    let value = |index: usize| field(&header[6 + index * 8..14 + index * 8], 16);
    let name_size = value(11)? as usize;
    let size = value(6)? as usize;
    let name_at = 110;
    let data_at = (name_at + name_size).next_multiple_of(4);
    let name = name_of(take(rest, name_at, name_size)?);
    let data = take(rest, data_at, size)?.to_vec();
    let entry = Entry {
        name,
        mode: value(1)? as u32,
        uid: value(2)? as u32,
        gid: value(3)? as u32,
        nlink: value(4)? as u32,
        mtime: value(5)?,
        data,
    };
    Ok((entry, (data_at + size).next_multiple_of(4)))
}

fn read_odc(rest: &[u8]) -> Result<(Entry, usize), String> {
    let header = take(rest, 0, 76)?;
    let octal = |from: usize, len: usize| field(&header[from..from + len], 8);
    let name_size = octal(59, 6)? as usize;
    let size = octal(65, 11)? as usize;
    let name = name_of(take(rest, 76, name_size)?);
    let data = take(rest, 76 + name_size, size)?.to_vec();
    let entry = Entry {
        name,
        mode: octal(18, 6)? as u32,
        uid: octal(24, 6)? as u32,
        gid: octal(30, 6)? as u32,
        nlink: octal(36, 6)? as u32,
        mtime: octal(48, 11)?,
        data,
    };
    Ok((entry, 76 + name_size + size))
}

fn read_bin(rest: &[u8], little_endian: bool) -> Result<(Entry, usize), String> {
    let header = take(rest, 0, 26)?;
    let word = |index: usize| {
        let pair = [header[index * 2], header[index * 2 + 1]];
        u64::from(if little_endian {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        })
    };
    let name_size = word(10) as usize;
    let size = ((word(11) << 16) | word(12)) as usize;
    let data_at = (26 + name_size).next_multiple_of(2);
    let name = name_of(take(rest, 26, name_size)?);
    let data = take(rest, data_at, size)?.to_vec();
    let entry = Entry {
        name,
        mode: word(3) as u32,
        uid: word(4) as u32,
        gid: word(5) as u32,
        nlink: word(6) as u32,
        mtime: (word(8) << 16) | word(9),
        data,
    };
    Ok((entry, (data_at + size).next_multiple_of(2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, data: &[u8]) -> Entry {
        Entry {
            name: name.to_string(),
            mode: IS_FILE | 0o644,
            uid: 0,
            gid: 0,
            nlink: 1,
            mtime: 1_700_000_000,
            data: data.to_vec(),
        }
    }

    #[test]
    fn every_format_reads_back_what_it_writes() {
        for format in [Format::Bin, Format::Odc, Format::Newc, Format::Crc] {
            let mut archive = Vec::new();
            write_entry(&mut archive, format, &entry("a/b.txt", b"hello\n"), 1);
            write_entry(&mut archive, format, &entry("odd", b"abc"), 2);
            write_entry(&mut archive, format, &Entry::trailer(), 0);
            pad_to(&mut archive, BLOCK);
            assert_eq!(archive.len() % BLOCK, 0);
            let mut reader = Reader {
                archive: &archive,
                at: 0,
            };
            let (first, _) = reader.next_entry().unwrap();
            let first = first.unwrap();
            assert_eq!(
                (first.name.as_str(), first.data.as_slice()),
                ("a/b.txt", &b"hello\n"[..])
            );
            assert_eq!((first.mode, first.mtime), (IS_FILE | 0o644, 1_700_000_000));
            let (second, _) = reader.next_entry().unwrap();
            assert_eq!(second.unwrap().data, b"abc");
            assert!(reader.next_entry().unwrap().0.is_none(), "{format:?}");
        }
    }

    #[test]
    fn a_short_archive_is_premature() {
        let mut archive = Vec::new();
        write_entry(&mut archive, Format::Newc, &entry("a", b"hello"), 1);
        archive.truncate(archive.len() - 6);
        let mut reader = Reader {
            archive: &archive,
            at: 0,
        };
        assert_eq!(reader.next_entry().err().as_deref(), Some(PREMATURE_FILE));
        let mut junk = Reader {
            archive: b"junk\n",
            at: 0,
        };
        assert_eq!(junk.next_entry().err().as_deref(), Some(PREMATURE));
    }
}
