//! `zip`, as Info-ZIP's: add files (`-r` folders, `-j` without their
//! folders, `-D` without folder entries), replace what the archive holds
//! under the same name (`updating:`), `-u` only what is newer, `-d`
//! delete, `-m` move, `-x`/`-i` patterns, `-@` names from stdin, `-` for
//! stdin itself, `-0`..`-9`, `-y` links as links (followed otherwise),
//! `-q`. A member is stored when deflating would not make it smaller.
//! Times are UTC (the sandbox has no other zone). The archive is read
//! and written whole through the VFS, so the write policy and the quota
//! apply to it as to any file.

use std::io::{Cursor, Read, Write};

use goccia_vfs::{Node, NodeType, VfsPath};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::pattern::Pattern;

/// One member of an archive, whole in memory.
pub(super) struct Entry {
    pub name: String,
    pub data: Vec<u8>,
    pub mode: u32,
    /// Seconds since the epoch (UTC).
    pub mtime: i64,
    pub is_dir: bool,
    pub link: bool,
    /// As read from an archive: deflated or stored, the size it takes,
    /// its CRC-32 (zero for members not read from one).
    pub deflated: bool,
    pub packed: u64,
    pub crc: u32,
}

/// Info-ZIP's percentage saved, rounded half up.
pub(super) fn percent(original: u64, compressed: u64) -> u64 {
    if original == 0 || compressed >= original {
        return 0;
    }
    (200 * (original - compressed) / original).div_ceil(2)
}

/// A DOS timestamp (two-second resolution, 1980 to 2107).
pub(super) fn dos_time(seconds: i64) -> DateTime {
    let time = goccia_interp::time::at(seconds.max(315_532_800), 0);
    use chrono::{Datelike, Timelike};
    DateTime::from_date_and_time(
        time.year().clamp(1980, 2107) as u16,
        time.month() as u8,
        time.day() as u8,
        time.hour() as u8,
        time.minute() as u8,
        time.second() as u8,
    )
    .unwrap_or_default()
}

/// The epoch seconds of a DOS timestamp.
pub(super) fn from_dos(time: Option<DateTime>) -> i64 {
    let Some(time) = time else { return 0 };
    chrono::NaiveDate::from_ymd_opt(
        i32::from(time.year()),
        u32::from(time.month()),
        u32::from(time.day()),
    )
    .and_then(|date| {
        date.and_hms_opt(
            u32::from(time.hour()),
            u32::from(time.minute()),
            u32::from(time.second()),
        )
    })
    .map_or(0, |moment| moment.and_utc().timestamp())
}

/// Why an archive could not be read.
pub(super) enum ReadError {
    /// Not a zip archive, or a damaged one.
    Invalid(String),
    /// Its content is more than the shell buffers.
    TooLarge(String),
}

/// Reads every member of `bytes` (at most `limit` bytes of content in all).
pub(super) fn read_archive(bytes: &[u8], limit: usize) -> Result<Vec<Entry>, ReadError> {
    let invalid = |e: zip::result::ZipError| ReadError::Invalid(e.to_string());
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(invalid)?;
    let mut entries = Vec::with_capacity(archive.len());
    // The whole archive's content is held at once: bounded as one input.
    let mut left = limit;
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).map_err(invalid)?;
        let name = file.name().map_err(invalid)?.into_owned();
        let mut data = Vec::new();
        let read = (&mut file).take(left as u64 + 1).read_to_end(&mut data);
        read.map_err(|e| ReadError::Invalid(format!("{name}: {e}")))?;
        if data.len() > left {
            return Err(ReadError::TooLarge(format!(
                "{name}: the archive holds more than the {limit} bytes the shell buffers"
            )));
        }
        left -= data.len();
        entries.push(Entry {
            deflated: file.compression() == CompressionMethod::Deflated,
            packed: file.compressed_size(),
            crc: file.crc32(),
            is_dir: file.is_dir(),
            link: file.is_symlink(),
            mode: file.unix_mode().unwrap_or(0o644) & 0o7777,
            mtime: from_dos(file.last_modified()),
            name,
            data,
        });
    }
    Ok(entries)
}

/// Deflates at `level`; `None` when storing is no larger.
fn deflate(data: &[u8], level: u32) -> Option<usize> {
    if level == 0 || data.is_empty() {
        return None;
    }
    let mut encoder =
        flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(level));
    let _ = encoder.write_all(data);
    let size = encoder.finish().map(|out| out.len()).unwrap_or(usize::MAX);
    (size < data.len()).then_some(size)
}

/// Builds the archive; the sizes each member took, in order.
fn write_archive(entries: &[Entry], level: u32) -> Result<(Vec<u8>, Vec<Option<usize>>), String> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let mut sizes = Vec::with_capacity(entries.len());
    for entry in entries {
        let compressed = if entry.is_dir || entry.link {
            None
        } else {
            deflate(&entry.data, level)
        };
        let method = if compressed.is_some() {
            CompressionMethod::Deflated
        } else {
            CompressionMethod::Stored
        };
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .compression_level(compressed.map(|_| i64::from(level)))
            .last_modified_time(dos_time(entry.mtime))
            .unix_permissions(entry.mode)
            .large_file(entry.data.len() as u64 >= u64::from(u32::MAX));
        let result = if entry.is_dir {
            writer.add_directory(entry.name.trim_end_matches('/'), options)
        } else if entry.link {
            let target = String::from_utf8_lossy(&entry.data).into_owned();
            writer.add_symlink(&entry.name, target, options)
        } else {
            writer
                .start_file(&entry.name, options)
                .and_then(|()| writer.write_all(&entry.data).map_err(Into::into))
        };
        result.map_err(|e| format!("{}: {e}", entry.name))?;
        sizes.push(compressed);
    }
    let cursor = writer.finish().map_err(|e| e.to_string())?;
    Ok((cursor.into_inner(), sizes))
}

struct Options {
    recurse: bool,
    junk_paths: bool,
    quiet: bool,
    level: u32,
    delete: bool,
    move_files: bool,
    no_dir_entries: bool,
    keep_links: bool,
    update: bool,
    names_from_stdin: bool,
    exclude: Vec<Pattern>,
    include: Vec<Pattern>,
    archive: Option<String>,
    files: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        recurse: false,
        junk_paths: false,
        quiet: false,
        level: 6,
        delete: false,
        move_files: false,
        no_dir_entries: false,
        keep_links: false,
        update: false,
        names_from_stdin: false,
        exclude: Vec::new(),
        include: Vec::new(),
        archive: None,
        files: Vec::new(),
    };
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "-" || !arg.starts_with('-') {
            if options.archive.is_none() {
                options.archive = Some(arg.clone());
            } else {
                options.files.push(arg.clone());
            }
            continue;
        }
        for flag in arg[1..].chars() {
            match flag {
                'r' | 'R' => options.recurse = true,
                'j' => options.junk_paths = true,
                'q' => options.quiet = true,
                'd' => options.delete = true,
                'm' => options.move_files = true,
                'D' => options.no_dir_entries = true,
                'y' => options.keep_links = true,
                'u' | 'f' => options.update = true,
                '@' => options.names_from_stdin = true,
                'X' | 'v' | 'l' | 'o' | 'T' => {}
                '0'..='9' => options.level = flag.to_digit(10).unwrap_or(6),
                'x' | 'i' => {
                    // Patterns up to the next option.
                    while i < args.len() && !args[i].starts_with('-') {
                        let pattern = Pattern::new(&args[i], false);
                        if flag == 'x' {
                            options.exclude.push(pattern);
                        } else {
                            options.include.push(pattern);
                        }
                        i += 1;
                    }
                }
                'e' | 'P' => return Err("encryption is not supported in the sandbox".to_string()),
                other => {
                    return Err(format!(
                        "Invalid command arguments (short option '{other}' not supported)"
                    ));
                }
            }
        }
    }
    Ok(options)
}

/// Info-ZIP writes its warnings and errors to stdout, after what it did.
fn fail(shell: &mut ShellView, log: &str, message: &str, status: i32) -> ExecResult {
    let text = format!("{log}\nzip error: {message}\n");
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("zip", error),
    }
}

pub fn zip(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut options = match parse(args) {
        Ok(options) => options,
        Err(message) => return fail(shell, "", &message, 16),
    };
    let Some(mut archive) = options.archive.clone() else {
        return fail(
            shell,
            "",
            "Invalid command arguments (nothing to select from)",
            16,
        );
    };
    if !archive.rsplit('/').next().unwrap_or("").contains('.') {
        archive.push_str(".zip");
    }
    if options.names_from_stdin {
        let Ok(mut source) = open_source(shell, "zip", "-") else {
            return Ok(18);
        };
        let text = source.read_all().unwrap_or_default();
        options.files.extend(
            String::from_utf8_lossy(&text)
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string),
        );
    }
    let limit = shell.context().limits.max_buffered_input;
    let Ok(archive_path) = shell.cwd().resolve(&archive) else {
        return fail(shell, "", &format!("could not open {archive}"), 15);
    };
    let existing = shell.context().vfs.lock().read_file(&archive_path).ok();
    let mut entries = match existing {
        Some(bytes) => match read_archive(&bytes, limit) {
            Ok(entries) => entries,
            Err(ReadError::Invalid(message)) => {
                let message = format!("Zip file structure invalid ({archive}): {message}");
                return fail(shell, "", &message, 3);
            }
            Err(ReadError::TooLarge(message)) => return fail(shell, "", &message, 4),
        },
        None => Vec::new(),
    };
    let mut log = String::new();
    let mut warnings = String::new();
    // Added or replaced members, reported once their sizes are known.
    let mut reports: Vec<(&str, String)> = Vec::new();
    let mut moved: Vec<VfsPath> = Vec::new();
    if options.delete {
        for name in &options.files {
            let pattern = Pattern::new(name, false);
            let before = entries.len();
            entries.retain(|entry| {
                let hit = pattern.matches(&entry.name);
                if hit {
                    log.push_str(&format!("deleting: {}\n", entry.name));
                }
                !hit
            });
            if entries.len() == before && !options.quiet {
                warnings.push_str(&format!("\tzip warning: name not matched: {name}\n"));
            }
        }
    } else {
        let mut added: Vec<(Entry, Option<VfsPath>)> = Vec::new();
        for operand in options.files.clone() {
            shell.check_watch()?;
            if operand == "-" {
                let Ok(mut source) = open_source(shell, "zip", "-") else {
                    continue;
                };
                let entry = Entry {
                    name: "-".to_string(),
                    data: source.read_all().unwrap_or_default(),
                    mode: 0o600,
                    mtime: goccia_interp::time::now().timestamp(),
                    is_dir: false,
                    link: false,
                    deflated: false,
                    packed: 0,
                    crc: 0,
                };
                added.push((entry, None));
            } else if !collect(shell, &options, &operand, &mut added) && !options.quiet {
                warnings.push_str(&format!("\tzip warning: name not matched: {operand}\n"));
            }
        }
        for (entry, source) in added {
            let name = entry.name.clone();
            let included =
                options.include.is_empty() || options.include.iter().any(|p| p.matches(&name));
            if !included || options.exclude.iter().any(|p| p.matches(&name)) {
                continue;
            }
            let existing = entries.iter().position(|e| e.name == name);
            // `-u`: only what is newer than the member (DOS times have a
            // two-second resolution).
            if options.update
                && existing.is_some_and(|index| entries[index].mtime + 1 >= entry.mtime)
            {
                continue;
            }
            match existing {
                Some(index) => {
                    entries[index] = entry;
                    reports.push(("updating", name));
                }
                None => {
                    entries.push(entry);
                    reports.push(("  adding", name));
                }
            }
            moved.extend(source);
        }
    }
    if log.is_empty() && reports.is_empty() {
        // `-u` with everything up to date ends quietly, as Info-ZIP does.
        if options.update && warnings.is_empty() && !options.files.is_empty() {
            return Ok(12);
        }
        return fail(shell, &warnings, &format!("Nothing to do! ({archive})"), 12);
    }
    let (bytes, sizes) = match write_archive(&entries, options.level) {
        Ok(result) => result,
        Err(message) => return fail(shell, &warnings, &message, 15),
    };
    for (verb, name) in &reports {
        let Some(index) = entries.iter().position(|e| &e.name == name) else {
            continue;
        };
        let original = entries[index].data.len() as u64;
        let how = match sizes[index] {
            Some(size) => format!("deflated {}%", percent(original, size as u64)),
            None => "stored 0%".to_string(),
        };
        log.push_str(&format!("{verb}: {name} ({how})\n"));
    }
    let vfs = shell.context().vfs.clone();
    if let Err(error) = vfs.lock().write_file(&archive_path, bytes) {
        return Ok(shell.fail_fs(
            "zip",
            &archive,
            &error,
            |reason| format!("could not create output file ({archive}): {reason}"),
            15,
        ));
    }
    if options.move_files {
        let mut vfs = vfs.lock();
        // Files first, then folders deepest first (only those left empty).
        moved.sort_by_key(|path| std::cmp::Reverse(path.as_str().len()));
        for path in &moved {
            if vfs.is_dir(path) {
                let _ = vfs.remove_dir(path);
            } else {
                let _ = vfs.remove_file(path);
            }
        }
    }
    let text = if options.quiet {
        String::new()
    } else {
        warnings + &log
    };
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("zip", error),
    }
}

/// The archive name of a VFS path given as `operand`: no leading `/` or
/// `./`, no `.` components.
fn member_name(operand: &str) -> String {
    operand
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect::<Vec<_>>()
        .join("/")
}

/// Adds what `operand` names (a folder's entry, and with `-r` what it
/// holds, in name order); false when it does not exist.
fn collect(
    shell: &mut ShellView,
    options: &Options,
    operand: &str,
    added: &mut Vec<(Entry, Option<VfsPath>)>,
) -> bool {
    let Ok(path) = shell.cwd().resolve(operand) else {
        return false;
    };
    let vfs = shell.context().vfs.clone();
    let vfs = vfs.lock();
    let Ok(stat) = vfs.lstat(&path) else {
        return false;
    };
    let name = member_name(operand);
    let mut pending = vec![(path, name, stat)];
    while let Some((path, name, stat)) = pending.pop() {
        let stored_name = if options.junk_paths {
            name.rsplit('/').next().unwrap_or(&name).to_string()
        } else {
            name.clone()
        };
        let mtime = stat.mtime_ns.div_euclid(1_000_000_000);
        match stat.node_type {
            NodeType::Symlink if options.keep_links => {
                let target = vfs.read_link(&path).unwrap_or_default();
                added.push((
                    Entry {
                        name: stored_name,
                        data: target.into_bytes(),
                        mode: 0o777,
                        mtime,
                        is_dir: false,
                        link: true,
                        deflated: false,
                        packed: 0,
                        crc: 0,
                    },
                    Some(path),
                ));
            }
            NodeType::Directory | NodeType::Symlink if vfs.is_dir(&path) => {
                if !options.junk_paths && !options.no_dir_entries && !name.is_empty() {
                    added.push((
                        Entry {
                            name: format!("{stored_name}/"),
                            data: Vec::new(),
                            mode: stat.mode & 0o7777,
                            mtime,
                            is_dir: true,
                            link: false,
                            deflated: false,
                            packed: 0,
                            crc: 0,
                        },
                        Some(path.clone()),
                    ));
                }
                if options.recurse {
                    let mut children = vfs.read_dir(&path).unwrap_or_default();
                    children.sort_by(|a, b| b.name.cmp(&a.name));
                    for child in children {
                        let child_path = path.join(&child.name);
                        let Ok(child_stat) = vfs.lstat(&child_path) else {
                            continue;
                        };
                        let child_name = if name.is_empty() {
                            child.name.to_string()
                        } else {
                            format!("{name}/{}", child.name)
                        };
                        pending.push((child_path, child_name, child_stat));
                    }
                }
            }
            _ => {
                let Ok(Node::File(file)) = vfs.lookup(&path) else {
                    continue;
                };
                added.push((
                    Entry {
                        name: stored_name,
                        data: file.data().to_vec(),
                        mode: file.meta().mode & 0o7777,
                        mtime,
                        is_dir: false,
                        link: false,
                        deflated: false,
                        packed: 0,
                        crc: 0,
                    },
                    Some(path),
                ));
            }
        }
    }
    true
}
