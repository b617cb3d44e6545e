//! `tar --delete`: members removed from an uncompressed archive, as GNU
//! tar removes them. What stays is kept byte for byte, in its order; the
//! archive then ends with the two zero blocks and is padded to a whole
//! record (20 blocks), as GNU writes it. An archive from which nothing is
//! removed is left as it was.

use goccia_interp::interp::{ExecResult, ShellView};

use super::tar::{open_or_give_up, report_not_found};
use super::tar_members::octal;
use super::tar_options::{TarOptions, Wanted};
use super::{Filter, read_input, write_output};

/// The size of a header or data block, and of the record GNU pads to.
const BLOCK: usize = 512;
const RECORD: usize = 20 * BLOCK;

/// `tar --delete [-f ARCHIVE] MEMBER...`: the archive read from the file
/// (or standard input, written to standard output), the members named (a
/// folder with what is under it; patterns with `--wildcards`) taken out.
/// An absent archive file is an empty one, as GNU makes it; a compressed
/// one cannot be changed.
pub(super) fn tar_delete(shell: &mut ShellView, options: &TarOptions) -> ExecResult {
    if options.filter.is_some() {
        return Ok(shell.fail_command(
            "tar",
            "Cannot update compressed archives\nTry 'tar --help' or 'tar --usage' for more information.",
            2,
        ));
    }
    let file = options.file.as_deref().filter(|file| *file != "-");
    let archive = match file {
        Some(file) if !exists(shell, file) => Ok(Vec::new()),
        Some(file) => open_or_give_up(shell, file, "Cannot open: "),
        None => read_input(shell, "tar", None),
    };
    let archive = match archive {
        Ok(bytes) => bytes,
        Err(status) => return Ok(status),
    };
    if Filter::of(&archive).is_some() {
        return Ok(shell.fail_command(
            "tar",
            "Cannot update compressed archives\ntar: Error is not recoverable: exiting now",
            2,
        ));
    }
    let selectors: Vec<Wanted> = options
        .members
        .iter()
        .map(|member| Wanted::new(member, options.wildcards == Some(true)))
        .collect();
    let mut found = vec![false; selectors.len()];
    let kept = without(&archive, |name| {
        let mut picked = false;
        for (wanted, found) in selectors.iter().zip(&mut found) {
            if wanted.selects(name) {
                *found = true;
                picked = true;
            }
        }
        picked
    });
    // Unchanged: a file stays as it was (made, empty, if it was absent);
    // a stream passes through.
    let written = match (kept, file) {
        (Some(kept), _) => write_output(shell, "tar", file, kept),
        (None, Some(file)) if archive.is_empty() => write_output(shell, "tar", Some(file), archive),
        (None, Some(_)) => Ok(()),
        (None, None) => write_output(shell, "tar", None, archive),
    };
    if let Err(status) = written {
        return Ok(status);
    }
    if report_not_found(shell, options, &found) {
        shell.write_stderr(b"tar: Exiting with failure status due to previous errors\n");
        return Ok(2);
    }
    Ok(0)
}

/// Whether `file` names something in the VFS.
fn exists(shell: &ShellView, file: &str) -> bool {
    shell
        .cwd()
        .resolve(file)
        .is_ok_and(|path| shell.context().vfs.lock().lookup(&path).is_ok())
}

/// One member as it lies in the archive: its name and the bytes of its
/// headers (a GNU long name or a pax header before its own) and data.
pub(super) struct Stored<'a> {
    /// `None` for a pax global header, which is no member and stays.
    pub name: Option<String>,
    pub bytes: &'a [u8],
}

/// The members of `archive` up to its end marker (or as far as whole
/// blocks go), each with the extension headers that precede it.
pub(super) fn stored_members(archive: &[u8]) -> Vec<Stored<'_>> {
    let mut members = Vec::new();
    let mut start = 0;
    let mut at = 0;
    // A name an extension header gave the member that follows it.
    let mut long_name: Option<String> = None;
    while at + BLOCK <= archive.len() {
        let header = &archive[at..at + BLOCK];
        if header.iter().all(|byte| *byte == 0) {
            break;
        }
        let size = octal(&header[124..136]);
        let data_start = at + BLOCK;
        let data_end = (data_start + size).min(archive.len());
        let end = (data_start + size.div_ceil(BLOCK) * BLOCK).min(archive.len());
        let data = &archive[data_start..data_end];
        at = end;
        match header[156] {
            // GNU's long name (and long link target: no name of its own).
            b'L' => long_name = Some(text(data)),
            b'K' => {}
            // A pax header: its `path` record names the member.
            b'x' | b'X' => {
                if let Some(path) = pax_path(data) {
                    long_name = Some(path);
                }
            }
            b'g' => {
                members.push(Stored {
                    name: None,
                    bytes: &archive[start..end],
                });
                start = end;
            }
            _ => {
                let name = long_name.take().unwrap_or_else(|| header_name(header));
                members.push(Stored {
                    name: Some(name),
                    bytes: &archive[start..end],
                });
                start = end;
            }
        }
    }
    members
}

/// The archive without the members `remove` picks: what stays, then the
/// end marker, padded to a record. `None` when nothing is removed.
pub(super) fn without(archive: &[u8], mut remove: impl FnMut(&str) -> bool) -> Option<Vec<u8>> {
    let mut kept = Vec::with_capacity(archive.len());
    let mut removed = false;
    for member in stored_members(archive) {
        if member.name.as_deref().is_some_and(&mut remove) {
            removed = true;
        } else {
            kept.extend_from_slice(member.bytes);
        }
    }
    if !removed {
        return None;
    }
    kept.resize(kept.len() + 2 * BLOCK, 0);
    kept.resize(kept.len().next_multiple_of(RECORD), 0);
    Some(kept)
}

/// A ustar header's name: its prefix field, a slash and the name field
/// (GNU's own headers have no prefix there).
fn header_name(header: &[u8]) -> String {
    let name = text(&header[..100]);
    let ustar = &header[257..263] == b"ustar\0";
    let prefix = if ustar {
        text(&header[345..500])
    } else {
        String::new()
    };
    if prefix.is_empty() {
        name
    } else {
        format!("{prefix}/{name}")
    }
}

/// A header field or a long name's data: up to the first NUL.
fn text(field: &[u8]) -> String {
    let end = field
        .iter()
        .position(|byte| *byte == 0)
        .unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// The `path` record of a pax extended header (`LEN path=VALUE\n`).
fn pax_path(data: &[u8]) -> Option<String> {
    let mut rest = data;
    let mut path = None;
    while let Some(space) = rest.iter().position(|byte| *byte == b' ') {
        let length: usize = std::str::from_utf8(&rest[..space]).ok()?.parse().ok()?;
        if length <= space || length > rest.len() {
            break;
        }
        let record = &rest[space + 1..length];
        let record = record.strip_suffix(b"\n").unwrap_or(record);
        if let Some(value) = record.strip_prefix(b"path=") {
            path = Some(String::from_utf8_lossy(value).into_owned());
        }
        rest = &rest[length..];
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        for (name, data) in members {
            let mut header = tar::Header::new_gnu();
            header.set_size(data.len() as u64);
            header.set_mode(0o644);
            builder.append_data(&mut header, name, *data).unwrap();
        }
        builder.into_inner().unwrap()
    }

    #[test]
    fn members_keep_their_bytes_and_long_names_go_with_their_member() {
        let long = format!("{}/file.txt", "d".repeat(120));
        let bytes = archive(&[("a.txt", b"alpha"), (&long, b"long"), ("b.txt", b"beta")]);
        let names: Vec<_> = stored_members(&bytes)
            .into_iter()
            .map(|member| member.name.unwrap())
            .collect();
        assert_eq!(names, ["a.txt", long.as_str(), "b.txt"]);

        let kept = without(&bytes, |name| name == long).unwrap();
        assert_eq!(kept.len() % RECORD, 0);
        let expected = archive(&[("a.txt", b"alpha"), ("b.txt", b"beta")]);
        let members_end = 2 * 2 * BLOCK;
        assert_eq!(&kept[..members_end], &expected[..members_end]);
        assert!(kept[members_end..].iter().all(|byte| *byte == 0));
        assert!(without(&bytes, |_| false).is_none());
    }

    #[test]
    fn a_pax_path_names_its_member() {
        assert_eq!(
            pax_path(b"30 mtime=1700000000.123456789\n17 path=x/y/z.txt\n"),
            Some("x/y/z.txt".to_string())
        );
        assert_eq!(pax_path(b"garbage"), None);
    }
}
