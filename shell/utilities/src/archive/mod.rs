//! Archives and compression over the VFS, one family per file: `tar`,
//! `cpio`, `gzip`/`gunzip`/`zcat`, `bzip2`, and `zip`/`unzip`. Archives are built and
//! read in memory with the `tar`, `flate2` and `zip` crates; nothing
//! touches the host. Member names lose a leading `/` and may not climb
//! out with `..`; an extraction is one change to the VFS, refused whole
//! if the write policy or the quota refuses any of it.

mod bzip2;
mod cpio;
mod cpio_format;
mod gzip;
mod tar;
mod tar_delete;
mod tar_members;
mod tar_options;
mod unzip;
mod zip;

pub use bzip2::{bunzip2, bzcat, bzip2};
pub use cpio::cpio;
pub use gzip::{gunzip, gzip, zcat};
pub use tar::tar;
pub use unzip::unzip;
pub use zip::zip;

use std::io::Write;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use goccia_vfs::VfsPath;

use goccia_interp::input::open_source;
use goccia_interp::interp::ShellView;

/// A member's path below the extraction folder: leading `/` and the first
/// `strip` components removed; `None` when nothing is left or it would
/// climb out with `..`.
pub(super) fn member_path(name: &str, strip: usize) -> Option<String> {
    let parts: Vec<&str> = name
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.contains(&"..") || parts.len() <= strip {
        return None;
    }
    Some(parts[strip..].join("/"))
}

/// What GNU tar strips from the front of a member name before
/// extracting, and says it strips: everything up to and including the last
/// `..` component, else the leading `/`s (`None`: nothing).
pub(super) fn leading_prefix(name: &str) -> Option<String> {
    let components: Vec<&str> = name.split('/').collect();
    if let Some(last) = components.iter().rposition(|part| *part == "..") {
        return Some(format!("{}/", components[..=last].join("/")));
    }
    let slashes = name.len() - name.trim_start_matches('/').len();
    (slashes > 0).then(|| name[..slashes].to_string())
}

/// Whether a member name has a `..` component (GNU tar extracts none).
pub(super) fn climbs(name: &str) -> bool {
    name.split('/').any(|part| part == "..")
}

/// One archive member to extract.
pub(super) struct Member {
    pub(super) relative: String,
    pub(super) is_dir: bool,
    /// A symbolic link's target.
    pub(super) link: Option<String>,
    /// A hard link's target, below the extraction folder (the VFS has no
    /// inodes: the member becomes a copy of what the target holds).
    pub(super) hard_link: Option<String>,
    pub(super) data: Vec<u8>,
    pub(super) mode: u32,
}

/// Why extracting a member failed: its path, or the VFS refusing it.
pub(super) enum Refused {
    Path(String),
    Fs(String, goccia_vfs::FsError),
}

/// How one member went: written, or a failure of that member alone that
/// GNU tar reports and goes on from (a hard link to nothing).
pub(super) enum Extracted {
    Written,
    Failed(String),
}

/// Writes one member below `base`.
pub(super) fn extract(
    vfs: &mut goccia_vfs::Vfs,
    base: &VfsPath,
    member: Member,
) -> Result<Extracted, Refused> {
    let relative = member.relative;
    let path = base
        .resolve(&relative)
        .map_err(|e| Refused::Path(format!("{relative}: {e}")))?;
    let fail = |e: goccia_vfs::FsError| Refused::Fs(relative.clone(), e);
    if member.is_dir {
        vfs.mkdir_all(&path).map_err(fail)?;
        return Ok(Extracted::Written);
    }
    let data = match &member.hard_link {
        Some(target) => {
            let found = base
                .resolve(target)
                .ok()
                .and_then(|target| vfs.read_file(&target).ok());
            match found {
                Some(data) => data.to_vec(),
                None => {
                    return Ok(Extracted::Failed(format!(
                        "{relative}: Cannot hard link to \u{2018}{target}\u{2019}: No such file or directory"
                    )));
                }
            }
        }
        None => member.data,
    };
    if let Some(parent) = path.parent() {
        vfs.mkdir_all(&parent).map_err(fail)?;
    }
    if let Some(target) = member.link {
        // Replacing what is there, as GNU tar does; never followed.
        if vfs.lookup_link(&path).is_ok() {
            vfs.remove_all(&path).map_err(fail)?;
        }
        vfs.symlink(&path, &target).map_err(fail)?;
        return Ok(Extracted::Written);
    }
    vfs.write_file(&path, data).map_err(fail)?;
    vfs.set_mode(&path, member.mode & 0o7777).map_err(fail)?;
    Ok(Extracted::Written)
}

/// The archive or compressed file: `-`/none is stdin.
pub(super) fn read_input(
    shell: &mut ShellView,
    name: &str,
    file: Option<&str>,
) -> Result<Vec<u8>, i32> {
    let operand = file.unwrap_or("-");
    let Ok(mut source) = open_source(shell, name, operand) else {
        return Err(2);
    };
    source
        .read_all()
        .map_err(|error| shell.fail_command(name, &format!("{operand}: {error}"), 2))
}

/// Writes `bytes` to `file` (`-`/none: stdout).
pub(super) fn write_output(
    shell: &mut ShellView,
    name: &str,
    file: Option<&str>,
    bytes: Vec<u8>,
) -> Result<(), i32> {
    match file {
        None | Some("-") => shell
            .write_stdout(&bytes)
            .map_err(|error| shell.fail_command(name, &format!("write error: {error}"), 2)),
        Some(file) => {
            let path = shell.cwd().resolve(file).map_err(|_| {
                shell.fail_command(name, &format!("{file}: Cannot open: Invalid argument"), 2)
            })?;
            let written = shell.context().vfs.lock().write_file(&path, bytes);
            written.map_err(|error| {
                shell.fail_fs(
                    name,
                    file,
                    &error,
                    |reason| format!("{file}: Cannot open: {reason}"),
                    2,
                )
            })
        }
    }
}

/// What a gzip member's header says besides its data: the original
/// file's name and time (none for standard input, or with `-n`) and the
/// level, which the header records as "max compression" (9) or "max
/// speed" (1). The system is always Unix, as GNU gzip writes it.
#[derive(Default)]
pub(super) struct GzipHeader {
    pub name: Option<String>,
    pub mtime: u32,
    pub level: Option<u32>,
}

pub(super) fn gzip_bytes(data: &[u8], header: &GzipHeader) -> Vec<u8> {
    const UNIX: u8 = 3;
    let mut builder = flate2::GzBuilder::new()
        .operating_system(UNIX)
        .mtime(header.mtime);
    if let Some(name) = &header.name {
        builder = builder.filename(name.as_bytes());
    }
    let level = header
        .level
        .map_or(Compression::default(), Compression::new);
    let mut encoder = builder.write(Vec::new(), level);
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(data);
    encoder.finish().unwrap_or_default()
}

/// `data` compressed by bzip2 with blocks of `level` × 100k (1–9), as
/// `bzip2 -LEVEL` writes it.
pub(super) fn bzip2_bytes(data: &[u8], level: u32) -> Vec<u8> {
    let mut encoder =
        ::bzip2::write::BzEncoder::new(Vec::new(), ::bzip2::Compression::new(level.clamp(1, 9)));
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(data);
    encoder.finish().unwrap_or_default()
}

/// Decompresses every bzip2 stream of `data` (as `bunzip2` does), refusing
/// output past `limit`.
pub(super) fn bunzip2_bytes(data: &[u8], limit: usize) -> std::io::Result<Vec<u8>> {
    if !data.starts_with(b"BZh") {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not a bzip2 file",
        ));
    }
    goccia_interp::io::read_to_end_capped(&mut ::bzip2::read::MultiBzDecoder::new(data), limit)
}

/// The compressor `tar` filters an archive through (`-z`, `-j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Filter {
    Gzip,
    Bzip2,
}

impl Filter {
    /// The filter whose magic `data` starts with, if any (what GNU tar
    /// recognises when reading without `-z` or `-j`).
    pub(super) fn of(data: &[u8]) -> Option<Filter> {
        if data.starts_with(&[0x1f, 0x8b]) {
            Some(Filter::Gzip)
        } else if data.starts_with(b"BZh") {
            Some(Filter::Bzip2)
        } else {
            None
        }
    }

    pub(super) fn compress(self, data: &[u8]) -> Vec<u8> {
        match self {
            Filter::Gzip => gzip_bytes(data, &GzipHeader::default()),
            Filter::Bzip2 => bzip2_bytes(data, 9),
        }
    }

    pub(super) fn decompress(self, data: &[u8], limit: usize) -> std::io::Result<Vec<u8>> {
        match self {
            Filter::Gzip => gunzip_bytes(data, limit),
            Filter::Bzip2 => bunzip2_bytes(data, limit),
        }
    }
}

/// Decompresses, refusing output past `limit` (a small archive can expand
/// to far more than it holds).
pub(super) fn gunzip_bytes(data: &[u8], limit: usize) -> std::io::Result<Vec<u8>> {
    goccia_interp::io::read_to_end_capped(&mut MultiGzDecoder::new(data), limit)
}
