//! `tar`: create, append (`-r`), update (`-u`), extract and list (gzip
//! with `-z`, bzip2 with `-j`), as GNU tar names members, lists them and
//! reports errors; its command line is read in `tar_options.rs`, and
//! `--delete` is in `tar_delete.rs`.

use std::io::Read;

use goccia_vfs::{Node, VfsPath};

use super::{
    Extracted, Filter, Member, Refused, climbs, extract, leading_prefix, member_path, read_input,
    write_output,
};
use goccia_interp::interp::{ExecResult, ShellView};

use super::tar_options::{Exclusions, KeepOld, TarOptions, Wanted, auto_filter, parse_tar};

/// `--mtime`'s argument: `@SECONDS`, or a date as `date -d` reads it in
/// the sandbox's zone. What is neither is refused (GNU warns and writes a
/// nonsense time instead).
fn member_time(text: &str, zone: &goccia_interp::time::Zone) -> Result<i64, String> {
    let parsed = match text.strip_prefix('@') {
        Some(seconds) => seconds.parse().ok(),
        None => goccia_interp::time::parse_datetime(text, zone).map(|time| time.timestamp()),
    };
    parsed.ok_or_else(|| {
        format!("--mtime={text}: not a date (@SECONDS, or a date as date -d reads it)")
    })
}

fn tar_usage(shell: &mut ShellView, message: &str) -> ExecResult {
    Ok(shell.fail_command(
        "tar",
        &format!("{message}\nTry 'tar --help' or 'tar --usage' for more information."),
        2,
    ))
}

pub fn tar(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut options = match parse_tar(args) {
        Ok(options) => options,
        Err(message) => return tar_usage(shell, &message),
    };
    for file in std::mem::take(&mut options.exclude_files) {
        match open_or_give_up(shell, &file, "") {
            Ok(bytes) => options.excludes.extend(
                goccia_interp::raw::decode(&bytes)
                    .lines()
                    .filter(|line| !line.is_empty())
                    .map(String::from),
            ),
            Err(status) => return Ok(status),
        }
    }
    if options.auto_compress
        && options.filter.is_none()
        && let Some(file) = options.file.as_deref()
    {
        match auto_filter(file) {
            Ok(filter) => options.filter = filter,
            Err(message) => return Ok(shell.fail_command("tar", &message, 2)),
        }
    }
    match options.mode {
        Some(mode @ ('c' | 'r' | 'u')) => tar_create(shell, options, mode),
        Some('d') => super::tar_delete::tar_delete(shell, &options),
        Some(mode) => tar_read(shell, &options, mode),
        None => tar_usage(
            shell,
            "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options",
        ),
    }
}

/// A file tar must read before it can do anything (the archive, `-T`'s
/// and `-X`'s lists); one that cannot be read ends tar, in GNU's words
/// (`what` is how GNU names the failed step for that file: "Cannot open:
/// " for the archive, "Cannot stat: " for `-T`, nothing for `-X`).
pub(super) fn open_or_give_up(
    shell: &mut ShellView,
    file: &str,
    what: &str,
) -> Result<Vec<u8>, i32> {
    let read = goccia_interp::input::open_quiet(shell, file)
        .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"));
    read.map_err(|reason| {
        shell.fail_command(
            "tar",
            &format!("{file}: {what}{reason}\ntar: Error is not recoverable: exiting now"),
            2,
        )
    })
}

/// The base folder of member paths (`-C`).
fn base(shell: &ShellView, options: &TarOptions) -> Result<VfsPath, String> {
    base_after(shell, &options.chdirs)
}

/// The folder the `-C`s of `chdirs` lead to, each from the one before.
fn base_after(shell: &ShellView, chdirs: &[String]) -> Result<VfsPath, String> {
    let mut at = shell.cwd().clone();
    for dir in chdirs {
        at = at
            .resolve(dir)
            .ok()
            .filter(|path| shell.context().vfs.lock().is_dir(path))
            .ok_or_else(|| {
                format!(
                    "{dir}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now"
                )
            })?;
    }
    Ok(at)
}

/// `-c`, and `-r`/`-u`, which add to the archive that is there.
fn tar_create(shell: &mut ShellView, mut options: TarOptions, mode: char) -> ExecResult {
    for list in std::mem::take(&mut options.files_from) {
        match open_or_give_up(shell, &list, "Cannot stat: ") {
            Ok(bytes) => options
                .members
                .extend(goccia_interp::input::names(&bytes, options.null)),
            Err(status) => return Ok(status),
        }
    }
    let options = &options;
    if options.members.is_empty() && mode == 'c' {
        return tar_usage(shell, "Cowardly refusing to create an empty archive");
    }
    // What is there already (`-r`, `-u`): its members up to the end
    // marker, and each name's latest time (what `-u` compares with).
    let existing = if mode == 'c' {
        None
    } else {
        match super::tar_members::existing(shell, options.file.as_deref(), options.filter.is_some())
        {
            Ok(existing) => Some(existing),
            Err(message) => return Ok(shell.fail_command("tar", &message, 2)),
        }
    };
    let base = match base(shell, options) {
        Ok(base) => base,
        Err(message) => return Ok(shell.fail_command("tar", &message, 2)),
    };
    let owners = super::tar_members::Owners::new(
        options.owner.as_deref(),
        options.group.as_deref(),
        options.numeric_owner,
    );
    let mut adding = Adding {
        builder: tar::Builder::new(Vec::new()),
        listing: String::new(),
        owners,
        recursive: !options.no_recursion,
        excludes: Exclusions::new(&options.excludes),
        ustar: options.ustar,
        numeric: options.numeric_owner,
        mtime: match options.mtime.as_deref() {
            None => None,
            Some(text) => match member_time(text, &shell.time_zone()) {
                Ok(time) => Some((time, options.clamp_mtime)),
                Err(message) => return Ok(shell.fail_command("tar", &message, 2)),
            },
        },
    };
    let members = match (&existing, mode) {
        (Some(existing), 'u') => {
            let vfs = shell.context().vfs.clone();
            let now = |name: &str| {
                let path = base.resolve(name).ok()?;
                let vfs = vfs.lock();
                match vfs.lookup_link(&path).ok()? {
                    Node::Dir(dir) => Some(super::tar_members::Now::Folder(
                        dir.iter().map(|(child, _)| child.to_string()).collect(),
                    )),
                    node => Some(super::tar_members::Now::File(
                        (node.meta().mtime_ns.max(0) / 1_000_000_000) as u64,
                    )),
                }
            };
            super::tar_members::still_to_update(&existing.entries, options.members.clone(), now)
        }
        _ => options.members.clone(),
    };
    let mut status = 0;
    let mut warned = false;
    for (index, member) in members.iter().enumerate() {
        // Named on the command line, a member is found from the folder
        // the `-C`s before it lead to (`-u`'s names, and -T's, from the
        // last).
        let here = match options.chdirs_before.get(index) {
            Some(count) if mode != 'u' && *count < options.chdirs.len() => {
                match base_after(shell, &options.chdirs[..*count]) {
                    Ok(here) => here,
                    Err(message) => return Ok(shell.fail_command("tar", &message, 2)),
                }
            }
            _ => base.clone(),
        };
        let Ok(path) = here.resolve(member) else {
            status = shell.fail_command(
                "tar",
                &format!("{member}: Cannot stat: Invalid argument"),
                2,
            );
            continue;
        };
        // A link is archived as a link (GNU tar without -h).
        let node = shell.context().vfs.lock().lookup_link(&path);
        let Ok(node) = node else {
            shell.fail_command(
                "tar",
                &format!("{member}: Cannot stat: No such file or directory"),
                2,
            );
            status = 2;
            continue;
        };
        let name = member.trim_start_matches('/');
        if name.len() != member.len() && !warned {
            warned = true;
            shell.write_stderr(b"tar: Removing leading `/' from member names\n");
        }
        if let Err(error) = adding.append(name.trim_end_matches('/'), &node) {
            return Ok(shell.fail_command("tar", &error.to_string(), 2));
        }
        shell.check_watch()?;
    }
    let listing = std::mem::take(&mut adding.listing);
    let archive = match adding.builder.into_inner() {
        Ok(archive) => archive,
        Err(error) => return Ok(shell.fail_command("tar", &error.to_string(), 2)),
    };
    // Appended after what was there, before its end marker.
    let mut archive = match existing {
        Some(existing) => [existing.members, archive].concat(),
        None => archive,
    };
    super::tar_members::as_gnu_writes(&mut archive);
    let archive = match options.filter {
        Some(filter) => filter.compress(&archive),
        None => archive,
    };
    if options.verbose {
        // With the archive on stdout, the listing goes to stderr.
        if options.file.as_deref().is_none_or(|f| f == "-") {
            shell.write_stderr(listing.as_bytes());
        } else if let Err(error) = shell.write_stdout(listing.as_bytes()) {
            return shell.io_status("tar", error);
        }
    }
    if let Err(status) = write_output(shell, "tar", options.file.as_deref(), archive) {
        return Ok(status);
    }
    if status != 0 {
        shell.write_stderr(b"tar: Exiting with failure status due to previous errors\n");
    }
    Ok(status)
}

/// Members being added to a new archive.
struct Adding {
    builder: tar::Builder<Vec<u8>>,
    /// What `-v` prints: one name a line.
    listing: String,
    owners: super::tar_members::Owners,
    recursive: bool,
    /// `--exclude`'s patterns: what they match is left out, folders whole.
    excludes: Exclusions,
    /// `--mtime` (and whether `--clamp-mtime` only lowers newer times).
    mtime: Option<(i64, bool)>,
    /// POSIX ustar headers (`--format=ustar`).
    ustar: bool,
    /// `--numeric-owner`: no names, in long-name entries either.
    numeric: bool,
}

impl Adding {
    /// Appends `node` as `name` (folders recursively, in name order).
    fn append(&mut self, name: &str, node: &Node) -> std::io::Result<()> {
        if self.excludes.leave_out(name) {
            return Ok(());
        }
        let meta = node.meta();
        let own = meta.mtime_ns.div_euclid(1_000_000_000);
        let mtime = match self.mtime {
            Some((given, true)) => own.min(given),
            Some((given, false)) => given,
            None => own,
        }
        .max(0) as u64;
        let mut header = if self.ustar {
            tar::Header::new_ustar()
        } else {
            tar::Header::new_gnu()
        };
        header.set_mode(meta.mode & 0o7777);
        header.set_mtime(mtime);
        self.owners.set(&mut header)?;
        match node {
            Node::Link(link) => {
                header.set_entry_type(tar::EntryType::Symlink);
                header.set_size(0);
                self.listing.push_str(&format!("{name}\n"));
                header
                    .set_link_name(link.target())
                    .map_err(|error| std::io::Error::other(format!("{name}: {error}")))?;
                append_named(&mut self.builder, &mut header, name, &[][..], self.numeric)
            }
            Node::File(file) => {
                header.set_entry_type(tar::EntryType::Regular);
                header.set_size(file.data().len() as u64);
                self.listing.push_str(&format!("{name}\n"));
                append_named(
                    &mut self.builder,
                    &mut header,
                    name,
                    &file.data()[..],
                    self.numeric,
                )
            }
            Node::Dir(dir) => {
                header.set_entry_type(tar::EntryType::Directory);
                header.set_size(0);
                let folder = if name.is_empty() {
                    String::new()
                } else {
                    format!("{name}/")
                };
                if !folder.is_empty() {
                    self.listing.push_str(&format!("{folder}\n"));
                    append_named(
                        &mut self.builder,
                        &mut header,
                        &folder,
                        &[][..],
                        self.numeric,
                    )?;
                }
                if self.recursive {
                    for (child, node) in dir.iter() {
                        self.append(&format!("{folder}{child}"), node)?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Appends an entry named exactly `name` (the `tar` crate's own path
/// handling drops `./`, which GNU tar keeps). A name past the 100-byte
/// header field goes, in GNU's format, in a long-name entry before it,
/// written as GNU writes it (owned by `root`, unless `numeric`); in POSIX
/// format, split into the prefix field by the crate.
fn append_named(
    builder: &mut tar::Builder<Vec<u8>>,
    header: &mut tar::Header,
    name: &str,
    data: &[u8],
    numeric: bool,
) -> std::io::Result<()> {
    let gnu = header.as_gnu().is_some();
    let field = &mut header.as_old_mut().name;
    if name.len() >= field.len() && !gnu {
        return builder.append_data(header, name, data);
    }
    field.fill(0);
    let shown = name.len().min(field.len());
    field[..shown].copy_from_slice(&name.as_bytes()[..shown]);
    if name.len() >= field.len() {
        let mut long = tar::Header::new_gnu();
        long.as_old_mut().name[..13].copy_from_slice(b"././@LongLink");
        long.set_mode(0o644);
        long.set_uid(0);
        long.set_gid(0);
        long.set_mtime(0);
        long.set_size(name.len() as u64 + 1);
        long.set_entry_type(tar::EntryType::GNULongName);
        if !numeric {
            long.set_username("root")?;
            long.set_groupname("root")?;
        }
        long.set_cksum();
        let mut text = name.as_bytes().to_vec();
        text.push(0);
        builder.append(&long, &text[..])?;
    }
    header.set_cksum();
    builder.append(header, data)
}

fn tar_read(shell: &mut ShellView, options: &TarOptions, mode: char) -> ExecResult {
    let archive = match options.file.as_deref() {
        Some(file) if file != "-" => open_or_give_up(shell, file, "Cannot open: "),
        _ => read_input(shell, "tar", None),
    };
    let archive = match archive {
        Ok(bytes) => bytes,
        Err(status) => return Ok(status),
    };
    let archive = if let Some(filter) = options.filter.or(Filter::of(&archive)) {
        match filter.decompress(&archive, shell.context().limits.max_buffered_input) {
            Ok(bytes) => bytes,
            Err(error) => {
                return Ok(shell.fail_command(
                    "tar",
                    &format!("Child returned status 1: {error}"),
                    2,
                ));
            }
        }
    } else {
        archive
    };
    let base = if mode == 'x' && !options.to_stdout {
        match base(shell, options) {
            Ok(base) => Some(base),
            Err(message) => return Ok(shell.fail_command("tar", &message, 2)),
        }
    } else {
        None
    };
    let mut out = Vec::new();
    // What extraction writes, applied at the end as one change: if any of
    // it is refused (the write policy, the quota) nothing is written.
    let mut members = Vec::new();
    let mut reader = tar::Archive::new(&archive[..]);
    let entries = match reader.entries() {
        Ok(entries) => entries,
        Err(error) => {
            return Ok(shell.fail_command(
                "tar",
                &format!("This does not look like a tar archive: {error}"),
                2,
            ));
        }
    };
    // GNU tar's messages about member names, each prefix said once, and
    // whether any member failed (exit 2 at the end, the rest extracted).
    let mut said: Vec<String> = Vec::new();
    let mut failed = false;
    // Which member operands matched something.
    let mut found = vec![false; options.members.len()];
    let exclusions = Exclusions::new(&options.excludes);
    let selectors: Vec<Wanted> = options
        .members
        .iter()
        .map(|member| Wanted::new(member, options.wildcards == Some(true)))
        .collect();
    let mut listing = super::tar_members::Listing::new(options.numeric_owner);
    let zone = shell.time_zone();
    for entry in entries {
        shell.check_watch()?;
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                return Ok(shell.fail_command("tar", &format!("Damaged archive: {error}"), 2));
            }
        };
        let name = match entry.path() {
            Ok(path) => path.to_string_lossy().into_owned(),
            Err(_) => continue,
        };
        let relative = member_path(&name, options.strip);
        if exclusions.leave_out(&name) {
            continue;
        }
        let mut wanted = options.members.is_empty();
        for (member, found) in selectors.iter().zip(&mut found) {
            if member.selects(&name) {
                *found = true;
                wanted = true;
            }
        }
        if !wanted {
            continue;
        }
        if mode == 'x' && !options.to_stdout {
            if let Some(prefix) = leading_prefix(&name)
                && !said.contains(&prefix)
            {
                shell.write_stderr(
                    format!("tar: Removing leading `{prefix}' from member names\n").as_bytes(),
                );
                said.push(prefix);
            }
            if climbs(&name) {
                shell.write_stderr(format!("tar: {name}: Member name contains '..'\n").as_bytes());
                failed = true;
                continue;
            }
        }
        let is_dir = entry.header().entry_type().is_dir();
        let hard_link = if entry.header().entry_type() == tar::EntryType::Link {
            let target = entry
                .link_name()
                .ok()
                .flatten()
                .map(|target| target.to_string_lossy().into_owned())
                .unwrap_or_default();
            if mode == 'x' && target.starts_with('/') && !said.iter().any(|s| s == "link /") {
                shell.write_stderr(b"tar: Removing leading `/' from hard link targets\n");
                said.push("link /".to_string());
            }
            if climbs(&target) {
                shell.write_stderr(
                    format!("tar: {name}: Cannot hard link to \u{2018}{target}\u{2019}: Member name contains '..'\n")
                        .as_bytes(),
                );
                failed = true;
                continue;
            }
            Some(member_path(&target, options.strip).unwrap_or_default())
        } else {
            None
        };
        let link = if entry.header().entry_type().is_symlink() {
            entry
                .link_name()
                .ok()
                .flatten()
                .map(|target| target.to_string_lossy().into_owned())
        } else {
            None
        };
        if mode == 't' && options.verbose {
            let line = listing.line(entry.header(), &name, &zone);
            out.extend_from_slice(line.as_bytes());
        } else if mode == 't' || options.verbose {
            out.extend_from_slice(format!("{name}\n").as_bytes());
        }
        // `./` itself, and names climbing out with `..`, extract nothing.
        let Some(relative) = relative.filter(|_| mode == 'x') else {
            continue;
        };
        let mut data = Vec::new();
        if let Err(error) = entry.read_to_end(&mut data) {
            return Ok(shell.fail_command("tar", &format!("{name}: {error}"), 2));
        }
        if options.to_stdout {
            if !is_dir {
                out.extend_from_slice(&data);
            }
            continue;
        }
        if let (Some(base), Some(keep), false) = (&base, options.keep_old, is_dir) {
            let there = base
                .resolve(&relative)
                .ok()
                .is_some_and(|path| shell.context().vfs.lock().lookup_link(&path).is_ok());
            if there {
                if keep == KeepOld::Refuse {
                    // The verbose listing so far comes first, as GNU's
                    // output is flushed before a message.
                    if let Err(error) = shell.write_stdout(&std::mem::take(&mut out)) {
                        return shell.io_status("tar", error);
                    }
                    shell.write_stderr(
                        format!("tar: {relative}: Cannot open: File exists\n").as_bytes(),
                    );
                    failed = true;
                }
                continue;
            }
        }
        if base.is_some() {
            let mode = entry.header().mode().unwrap_or(0o644);
            members.push(Member {
                relative,
                is_dir,
                link,
                hard_link,
                data,
                mode,
            });
        }
    }
    if let Some(base) = &base {
        let vfs = shell.context().vfs.clone();
        let mut member_failures = Vec::new();
        let extracted = vfs.lock().all_or_nothing(|vfs| {
            members.into_iter().try_for_each(|member| {
                if let Extracted::Failed(message) = extract(vfs, base, member)? {
                    member_failures.push(message);
                }
                Ok(())
            })
        });
        for message in &member_failures {
            shell.write_stderr(format!("tar: {message}\n").as_bytes());
            failed = true;
        }
        match extracted {
            Ok(()) => {}
            Err(Refused::Path(message)) => return Ok(shell.fail_command("tar", &message, 2)),
            Err(Refused::Fs(relative, error)) => {
                return Ok(shell.fail_fs(
                    "tar",
                    &relative,
                    &error,
                    |reason| format!("{relative}: Cannot open: {reason}"),
                    2,
                ));
            }
        }
    }
    if let Err(error) = shell.write_stdout(&out) {
        return shell.io_status("tar", error);
    }
    failed |= report_not_found(shell, options, &found);
    if failed {
        shell.write_stderr(b"tar: Exiting with failure status due to previous errors\n");
        return Ok(2);
    }
    Ok(0)
}

/// GNU's word for each member operand that matched nothing (with its hint
/// once, when such an operand looks like a pattern and `--wildcards` was
/// not said either way); whether there was one.
pub(super) fn report_not_found(
    shell: &mut ShellView,
    options: &TarOptions,
    found: &[bool],
) -> bool {
    let mut hinted = false;
    let mut any = false;
    for (member, _) in options
        .members
        .iter()
        .zip(found)
        .filter(|(_, found)| !**found)
    {
        if options.wildcards.is_none()
            && !hinted
            && goccia_interp::pattern::has_magic(member, false)
        {
            hinted = true;
            shell.write_stderr(
                b"tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\n",
            );
        }
        shell.write_stderr(format!("tar: {member}: Not found in archive\n").as_bytes());
        any = true;
    }
    any
}
