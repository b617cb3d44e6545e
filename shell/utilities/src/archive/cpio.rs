//! `cpio` as GNU cpio 2.13 does it (docs/shell.md), over the VFS:
//! copy-out (`-o`) of the names read from standard input, copy-in (`-i`)
//! and listing (`-t`) of an archive, and pass-through (`-p`) of named
//! files into a folder. Archives are written in GNU's formats byte for
//! byte — `bin` (its default), `odc` (`-c`), `newc` and `crc` — save the
//! device and inode numbers, which the VFS does not have (0, and 1, 2, ...
//! in archive order); an archive is read in the format its magic names.

use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::pattern::Pattern;
use goccia_interp::time::{Zone, strftime_at};
use goccia_vfs::{Node, Vfs, VfsPath};

use super::cpio_format::{
    BLOCK, Entry, Format, IS_DIR, IS_FILE, IS_LINK, Reader, SANDBOX_ID, pad_to, write_entry,
};
use super::{read_input, write_output};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Out,
    In,
    List,
    Pass,
}

#[derive(Default)]
struct Options {
    mode: Option<Mode>,
    format: Option<Format>,
    verbose: bool,
    make_directories: bool,
    unconditional: bool,
    preserve_mtime: bool,
    null: bool,
    quiet: bool,
    nonmatching: bool,
    dereference: bool,
    /// `-n`: ids in `-tv`'s listing, not names.
    numeric: bool,
    /// `-F`, `-I`, `-O`: the archive instead of standard input or output.
    archive: Option<String>,
    directory: Option<String>,
    /// `-R USER:GROUP`: the ids written (copy-out).
    owner: (Option<u32>, Option<u32>),
    /// Patterns (`-i`, `-t`) or the destination folder (`-p`).
    operands: Vec<String>,
}

/// What parsing the arguments ended in: options, or a message and status.
type Parsed = Result<Options, (String, i32)>;

fn parse(args: &[String]) -> Parsed {
    let mut options = Options::default();
    // `-i` and `-t` together list; any other second mode is refused.
    let set_mode = |options: &mut Options, mode: Mode| -> Result<(), (String, i32)> {
        options.mode = match (options.mode, mode) {
            (None, mode) => Some(mode),
            (Some(before), mode) if before == mode => Some(mode),
            (Some(Mode::In), Mode::List) | (Some(Mode::List), Mode::In) => Some(Mode::List),
            _ => return Err(("Mode already defined".to_string(), 2)),
        };
        Ok(())
    };
    let mut index = 1;
    let mut options_end = false;
    while index < args.len() {
        let arg = &args[index];
        index += 1;
        if options_end || arg == "-" || !arg.starts_with('-') {
            options.operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_end = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            let mut value = |what: &str| -> Result<String, (String, i32)> {
                match attached.clone() {
                    Some(value) => Ok(value),
                    None if index < args.len() => {
                        index += 1;
                        Ok(args[index - 1].clone())
                    }
                    None => Err((format!("option '--{what}' requires an argument"), 64)),
                }
            };
            match name {
                "create" => set_mode(&mut options, Mode::Out)?,
                "extract" => set_mode(&mut options, Mode::In)?,
                "list" => set_mode(&mut options, Mode::List)?,
                "pass-through" => set_mode(&mut options, Mode::Pass)?,
                "format" => options.format = Some(format_of(&value("format")?)?),
                "file" => options.archive = Some(value("file")?),
                "directory" => options.directory = Some(value("directory")?),
                "owner" => options.owner = owner_of(&value("owner")?)?,
                "verbose" => options.verbose = true,
                "make-directories" => options.make_directories = true,
                "unconditional" => options.unconditional = true,
                "preserve-modification-time" => options.preserve_mtime = true,
                "null" => options.null = true,
                "quiet" => options.quiet = true,
                "nonmatching" => options.nonmatching = true,
                "dereference" => options.dereference = true,
                // What extraction always does here.
                "no-absolute-filenames" => {}
                "numeric-uid-gid" => options.numeric = true,
                other => return Err((format!("unrecognized option '--{other}'"), 64)),
            }
            continue;
        }
        let flags: Vec<char> = arg[1..].chars().collect();
        let mut at = 0;
        while at < flags.len() {
            let flag = flags[at];
            at += 1;
            // A flag with a value takes the rest of the word, or the next.
            let mut value = || -> Result<String, (String, i32)> {
                let rest: String = flags[at..].iter().collect();
                at = flags.len();
                if !rest.is_empty() {
                    Ok(rest)
                } else if index < args.len() {
                    index += 1;
                    Ok(args[index - 1].clone())
                } else {
                    Err((format!("option requires an argument -- '{flag}'"), 64))
                }
            };
            match flag {
                'o' => set_mode(&mut options, Mode::Out)?,
                'i' => set_mode(&mut options, Mode::In)?,
                't' => set_mode(&mut options, Mode::List)?,
                'p' => set_mode(&mut options, Mode::Pass)?,
                'c' => options.format = Some(Format::Odc),
                'H' => options.format = Some(format_of(&value()?)?),
                'F' | 'I' | 'O' => options.archive = Some(value()?),
                'D' => options.directory = Some(value()?),
                'R' => options.owner = owner_of(&value()?)?,
                'v' => options.verbose = true,
                'd' => options.make_directories = true,
                'u' => options.unconditional = true,
                'm' => options.preserve_mtime = true,
                '0' => options.null = true,
                'f' => options.nonmatching = true,
                'L' => options.dereference = true,
                'n' => options.numeric = true,
                // Access times and block sizes mean nothing here.
                'a' | 'B' | 'V' => {}
                other => return Err((format!("invalid option -- '{other}'"), 64)),
            }
        }
    }
    if options.mode.is_none() {
        return Err(("You must specify one of -oipt options.".to_string(), 2));
    }
    Ok(options)
}

fn format_of(name: &str) -> Result<Format, (String, i32)> {
    match Format::named(name) {
        Some(format) => Ok(format),
        None if matches!(name.to_ascii_lowercase().as_str(), "ustar" | "tar") => Err((
            format!("the {name} format is not written or read here (use tar)"),
            2,
        )),
        None => Err((
            format!(
                "invalid archive format `{name}'; valid formats are:\ncrc newc odc bin ustar tar (all-caps also recognized)"
            ),
            2,
        )),
    }
}

/// `USER`, `USER:GROUP`, `:GROUP` (or with `.`): ids, or the names the
/// sandbox knows (`root`, `user`).
fn owner_of(spec: &str) -> Result<(Option<u32>, Option<u32>), (String, i32)> {
    let id = |name: &str| -> Result<Option<u32>, (String, i32)> {
        match name {
            "" => Ok(None),
            "root" => Ok(Some(0)),
            "user" => Ok(Some(SANDBOX_ID)),
            number => number
                .parse()
                .map(Some)
                .map_err(|_| (format!("{spec}: invalid user"), 2)),
        }
    };
    let (user, group) = spec
        .split_once([':', '.'])
        .map_or((spec, None), |(user, group)| (user, Some(group)));
    let user = id(user)?;
    let group = match group {
        // `USER:` is the user's own group.
        Some("") => user,
        Some(group) => id(group)?,
        None => None,
    };
    Ok((user, group))
}

pub fn cpio(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let options = match parse(args) {
        Ok(options) => options,
        Err((message, status)) => {
            return Ok(shell.fail_command(
                "cpio",
                &format!("{message}\nTry 'cpio --help' or 'cpio --usage' for more information."),
                status,
            ));
        }
    };
    match options.mode {
        Some(Mode::Out) => copy_out(shell, &options),
        Some(Mode::In) | Some(Mode::List) => copy_in(shell, &options),
        Some(Mode::Pass) => pass_through(shell, &options),
        None => unreachable!("parse requires a mode"),
    }
}

/// "N blocks" on standard error, as GNU ends every mode (not with
/// `--quiet`).
fn report_blocks(shell: &mut ShellView, options: &Options, bytes: usize) {
    if options.quiet {
        return;
    }
    let blocks = bytes.div_ceil(BLOCK);
    let unit = if blocks == 1 { "block" } else { "blocks" };
    shell.write_stderr(format!("{blocks} {unit}\n").as_bytes());
}

/// The node a name read from standard input stands for (a link itself
/// unless `-L`), or GNU's message when there is none.
fn named_node(shell: &mut ShellView, options: &Options, name: &str) -> Option<Node> {
    let node = shell.cwd().resolve(name).ok().and_then(|path| {
        let vfs = shell.context().vfs.lock();
        if options.dereference {
            vfs.lookup(&path).ok()
        } else {
            vfs.lookup_link(&path).ok()
        }
    });
    if node.is_none() {
        shell.fail_command(
            "cpio",
            &format!("{name}: Cannot stat: No such file or directory"),
            2,
        );
    }
    node
}

/// `-o`: the names on standard input, one archive on standard output (or
/// `-F`/`-O`).
fn copy_out(shell: &mut ShellView, options: &Options) -> ExecResult {
    let list = match read_input(shell, "cpio", None) {
        Ok(list) => list,
        Err(status) => return Ok(status),
    };
    let format = options.format.unwrap_or(Format::Bin);
    let mut archive = Vec::new();
    let mut status = 0;
    let mut ino = 0;
    for name in goccia_interp::input::names(&list, options.null) {
        let Some(node) = named_node(shell, options, &name) else {
            status = 2;
            continue;
        };
        ino += 1;
        write_entry(
            &mut archive,
            format,
            &Entry::of(&name, &node, options.owner),
            ino,
        );
        if options.verbose {
            shell.write_stderr(format!("{name}\n").as_bytes());
        }
        shell.check_watch()?;
    }
    write_entry(&mut archive, format, &Entry::trailer(), 0);
    pad_to(&mut archive, BLOCK);
    let size = archive.len();
    if let Err(status) = write_output(shell, "cpio", options.archive.as_deref(), archive) {
        return Ok(status);
    }
    report_blocks(shell, options, size);
    Ok(status)
}

/// `-i` and `-t`: the archive on standard input (or `-F`/`-I`), its
/// members extracted or listed, those the patterns select (all without
/// any; `-f`: the others).
fn copy_in(shell: &mut ShellView, options: &Options) -> ExecResult {
    let archive = match read_input(shell, "cpio", options.archive.as_deref()) {
        Ok(archive) => archive,
        Err(status) => return Ok(status),
    };
    let base = match &options.directory {
        Some(folder) => match shell.cwd().resolve(folder) {
            Ok(base) if shell.context().vfs.lock().is_dir(&base) => base,
            _ => {
                return Ok(shell.fail_command(
                    "cpio",
                    &format!("cannot change to directory `{folder}': No such file or directory"),
                    2,
                ));
            }
        },
        None => shell.cwd().clone(),
    };
    let patterns: Vec<Pattern> = options
        .operands
        .iter()
        .map(|text| Pattern::new(text, false))
        .collect();
    let listing = options.mode == Some(Mode::List);
    let zone = shell.time_zone();
    let now = goccia_interp::time::now().timestamp();
    let mut reader = Reader {
        archive: &archive,
        at: 0,
    };
    let mut status = 0;
    // The listing leaves as GNU's stdio lets it leave a pipe or a file: a
    // buffer at a time, the rest at exit, after the count of blocks.
    let mut listed = Vec::new();
    loop {
        let (entry, skipped) = match reader.next_entry() {
            Ok(next) => next,
            // GNU stops there, with no count of blocks.
            // GNU's messages flush the listing before them.
            Err(message) => {
                flush_listing(shell, &listed, 0)?;
                return Ok(shell.fail_command("cpio", &message, 2));
            }
        };
        if let Some(bytes) = skipped {
            flush_listing(shell, &std::mem::take(&mut listed), 0)?;
            shell
                .write_stderr(format!("cpio: warning: skipped {bytes} bytes of junk\n").as_bytes());
        }
        let Some(mut entry) = entry else {
            break;
        };
        let selected =
            patterns.is_empty() || patterns.iter().any(|pattern| pattern.matches(&entry.name));
        if selected == options.nonmatching && !patterns.is_empty() {
            continue;
        }
        if listing {
            let line = if options.verbose {
                long_line(&entry, now, &zone, options.numeric)
            } else {
                format!("{}\n", entry.name)
            };
            listed.extend_from_slice(line.as_bytes());
            if listed.len() >= STDIO_BUFFER {
                let full: Vec<u8> = listed.drain(..STDIO_BUFFER).collect();
                if let Err(error) = shell.write_stdout(&full) {
                    return shell.io_status("cpio", error);
                }
            }
            continue;
        }
        // Below the folder, as every archive here extracts (archive/mod.rs):
        // a leading `/` goes (`--no-absolute-filenames` always holds), and
        // a name that climbs out with `..` is not extracted.
        entry.name = entry.name.trim_start_matches('/').to_string();
        if let Err((message, failed)) = place(shell, &base, &entry, options, &entry.name) {
            status = status.max(shell.fail_command("cpio", &message, failed));
        }
        // Named after the attempt, whatever it came to, as GNU does.
        if options.verbose {
            shell.write_stderr(format!("{}\n", entry.name).as_bytes());
        }
        shell.check_watch()?;
    }
    report_blocks(shell, options, reader.at);
    flush_listing(shell, &listed, status)
}

/// The size of the C library's buffer for a pipe or a file.
const STDIO_BUFFER: usize = 4096;

fn flush_listing(shell: &mut ShellView, listed: &[u8], status: i32) -> ExecResult {
    match shell.write_stdout(listed) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("cpio", error),
    }
}

/// `-tv`'s line, as GNU cpio prints it: mode, links, owner and group
/// (names the sandbox knows, else ids), size, time (the year instead of
/// the hour for a time over 180 days old or in the future), name.
fn long_line(entry: &Entry, now: i64, zone: &Zone, numeric: bool) -> String {
    const HALF_A_YEAR: i64 = 6 * 30 * 24 * 60 * 60;
    let kind = match entry.kind() {
        IS_DIR => 'd',
        IS_LINK => 'l',
        0o020000 => 'c',
        0o060000 => 'b',
        0o010000 => 'p',
        0o140000 => 's',
        _ => '-',
    };
    let who = |id: u32| match id {
        0 if !numeric => "root".to_string(),
        SANDBOX_ID if !numeric => "user".to_string(),
        other => other.to_string(),
    };
    let mtime = entry.mtime as i64;
    let age = now - mtime;
    let time_format = if !(0..=HALF_A_YEAR).contains(&age) {
        "%b %e  %Y"
    } else {
        "%b %e %H:%M"
    };
    let target = if entry.kind() == IS_LINK {
        format!(" -> {}", String::from_utf8_lossy(&entry.data))
    } else {
        String::new()
    };
    use goccia_interp::pad::{left_pad, right_pad};
    format!(
        "{kind}{} {} {} {} {} {} {}{target}\n",
        crate::files::list::permission_string(entry.mode),
        left_pad(&entry.nlink.to_string(), 3, ' '),
        right_pad(&who(entry.uid), 8, ' '),
        right_pad(&who(entry.gid), 8, ' '),
        left_pad(&entry.data.len().to_string(), 8, ' '),
        strftime_at(time_format, mtime, zone),
        entry.name,
    )
}

/// Creates `entry` below `base` as GNU cpio does: a folder's parents only
/// with `-d`; what is there kept when it is as new or newer (a warning,
/// not a failure) unless `-u`; the archived mode, and its time with `-m`.
/// `name` is how messages name it. A failure is its message and status:
/// GNU's 2, or 1 for what the write policy denied (as every command).
fn place(
    shell: &mut ShellView,
    base: &VfsPath,
    entry: &Entry,
    options: &Options,
    name: &str,
) -> Result<(), (String, i32)> {
    if super::climbs(&entry.name) {
        return Err((
            format!("{name}: not extracted: the name climbs out of the folder with `..'"),
            2,
        ));
    }
    let path = base
        .resolve(&entry.name)
        .map_err(|_| (format!("{name}: Cannot open: Invalid argument"), 2))?;
    let vfs = shell.context().vfs.clone();
    let mut vfs = vfs.lock();
    let refused = |shell: &ShellView, what: &str, error: goccia_vfs::FsError| {
        let status = if error.denied.is_some() { 1 } else { 2 };
        (
            format!("{name}: {what}: {}", shell.fs_reason("cpio", &error)),
            status,
        )
    };
    let present = vfs.lookup_link(&path).ok();
    if entry.kind() == IS_DIR {
        if matches!(present, Some(Node::Dir(_))) {
            return Ok(());
        }
        let made = if options.make_directories {
            vfs.mkdir_all(&path).map(drop)
        } else {
            vfs.mkdir(&path)
        };
        made.map_err(|error| refused(shell, "Cannot mkdir", error))?;
        return finish(&mut vfs, &path, entry, options)
            .map_err(|(what, error)| refused(shell, what, error));
    }
    if let Some(node) = &present {
        let theirs = node.meta().mtime_ns.div_euclid(1_000_000_000);
        if !options.unconditional && theirs >= entry.mtime as i64 {
            drop(vfs);
            shell.write_stderr(
                format!("cpio: {name} not created: newer or same age version exists\n").as_bytes(),
            );
            return Ok(());
        }
        if !matches!(node, Node::Dir(_)) {
            vfs.remove_all(&path)
                .map_err(|error| refused(shell, "Cannot remove", error))?;
        }
    }
    if options.make_directories
        && let Some(parent) = path.parent()
    {
        vfs.mkdir_all(&parent)
            .map_err(|error| refused(shell, "Cannot open", error))?;
    }
    let written = if entry.kind() == IS_LINK {
        vfs.symlink(&path, &String::from_utf8_lossy(&entry.data))
    } else {
        vfs.write_file(&path, entry.data.clone())
    };
    written.map_err(|error| refused(shell, "Cannot open", error))?;
    if entry.kind() == IS_LINK {
        return Ok(());
    }
    finish(&mut vfs, &path, entry, options).map_err(|(what, error)| refused(shell, what, error))
}

/// The archived mode, and with `-m` the archived time (or what failed).
fn finish(
    vfs: &mut Vfs,
    path: &VfsPath,
    entry: &Entry,
    options: &Options,
) -> Result<(), (&'static str, goccia_vfs::FsError)> {
    vfs.set_mode(path, entry.mode & 0o7777)
        .map_err(|error| ("Cannot change mode", error))?;
    if options.preserve_mtime {
        let ns = (entry.mtime as i64).saturating_mul(1_000_000_000);
        vfs.set_mtime(path, Some(ns))
            .map_err(|error| ("Cannot set time", error))?;
    }
    Ok(())
}

/// `-p DIR`: the named files copied below `DIR` as copy-in would create
/// them from an archive of them.
fn pass_through(shell: &mut ShellView, options: &Options) -> ExecResult {
    let destination = match options.operands.as_slice() {
        [destination] => destination,
        operands => {
            let what = if operands.is_empty() {
                "Not enough"
            } else {
                "Too many"
            };
            return Ok(shell.fail_command(
                "cpio",
                &format!(
                    "{what} arguments\nTry 'cpio --help' or 'cpio --usage' for more information."
                ),
                2,
            ));
        }
    };
    let list = match read_input(shell, "cpio", None) {
        Ok(list) => list,
        Err(status) => return Ok(status),
    };
    let base = match shell.cwd().resolve(destination) {
        Ok(base) => base,
        Err(_) => {
            return Ok(shell.fail_command("cpio", &format!("{destination}: Invalid argument"), 2));
        }
    };
    let mut status = 0;
    let mut copied = 0;
    for name in goccia_interp::input::names(&list, options.null) {
        let Some(node) = named_node(shell, options, &name) else {
            status = 2;
            continue;
        };
        let entry = Entry::of(name.trim_start_matches('/'), &node, options.owner);
        if entry.kind() == IS_FILE {
            copied += entry.data.len();
        }
        // Named below the destination as it was given, as GNU names it.
        let shown = format!("{}/{}", destination.trim_end_matches('/'), entry.name);
        match place(shell, &base, &entry, options, &shown) {
            // Named once copied, as GNU does.
            Ok(()) if options.verbose => shell.write_stderr(format!("{shown}\n").as_bytes()),
            Ok(()) => {}
            Err((message, failed)) => {
                status = status.max(shell.fail_command("cpio", &message, failed));
            }
        }
        shell.check_watch()?;
    }
    report_blocks(shell, options, copied);
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_are_ids_or_the_names_the_sandbox_knows() {
        assert_eq!(owner_of("0:0").unwrap(), (Some(0), Some(0)));
        assert_eq!(owner_of("root:").unwrap(), (Some(0), Some(0)));
        assert_eq!(owner_of("user.7").unwrap(), (Some(1000), Some(7)));
        assert_eq!(owner_of(":5").unwrap(), (None, Some(5)));
        assert!(owner_of("nobody-here").is_err());
    }
}
