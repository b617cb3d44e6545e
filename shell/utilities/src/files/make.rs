//! Creating: `mkdir`, `rmdir`, `touch`, `mktemp`, `truncate`, `ln`.

use crate::args::parse_options;
use crate::args::usage;
use crate::files::copy::copy_or_move;
use crate::files::info::parse_mode;
use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::{Errno, VfsPath};

pub fn mkdir(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "m",
        &[
            ("parents", 'p', false),
            ("verbose", 'v', false),
            ("mode", 'm', true),
        ]
    );
    if parsed.operands.is_empty() {
        return usage(shell, "mkdir", "missing operand", 1);
    }
    // `-m`: checked before anything is made, as GNU does.
    let mode = match parsed.value('m') {
        Some(text) => match parse_mode(text, 0o755, true) {
            Some(bits) => Some(bits),
            None => {
                return Ok(shell.fail_command(
                    "mkdir",
                    &format!("invalid mode \u{2018}{text}\u{2019}"),
                    1,
                ));
            }
        },
        None => None,
    };
    let mut status = 0;
    let mut report = String::new();
    let folder_mode = shell.mode_for_new(true);
    for operand in &parsed.operands {
        let path = match resolve(shell, operand) {
            Ok(path) => path,
            Err(reason) => {
                status = shell.fail_command(
                    "mkdir",
                    &format!("cannot create directory \u{2018}{operand}\u{2019}: {reason}"),
                    1,
                );
                continue;
            }
        };
        let mut blocked_at = None;
        let result = if parsed.has('p') {
            let mut vfs = shell.context().vfs.lock();
            let mut created = Vec::new();
            let mut current = VfsPath::root();
            let mut outcome = Ok(());
            for name in path.components() {
                current = current.join(name);
                if vfs.is_dir(&current) {
                    continue;
                }
                match vfs.mkdir(&current) {
                    Ok(()) => {
                        // `-p`'s parents get u+wx whatever the umask, as GNU's.
                        if let Some(mode) = folder_mode {
                            let parent_bits = if current == path { 0 } else { 0o300 };
                            vfs.set_mode(&current, mode | parent_bits).ok();
                        }
                        created.push(current.clone())
                    }
                    Err(error) => {
                        // A name on the way that is not a folder: GNU
                        // names it, as written, and says why.
                        if current != path && error.errno == goccia_vfs::Errno::Exist {
                            blocked_at = Some(relative_display(operand, &path, &current));
                        }
                        outcome = Err(error);
                        break;
                    }
                }
            }
            if parsed.has('v') {
                for dir in created {
                    let shown = if operand.starts_with('/') {
                        dir.to_string()
                    } else {
                        relative_display(operand, &path, &dir)
                    };
                    report.push_str(&format!("mkdir: created directory '{shown}'\n"));
                }
            }
            outcome
        } else {
            let result = shell.context().vfs.lock().mkdir(&path);
            if let (Ok(()), Some(mode)) = (&result, folder_mode) {
                shell.context().vfs.lock().set_mode(&path, mode).ok();
            }
            if result.is_ok() && parsed.has('v') {
                report.push_str(&format!("mkdir: created directory '{operand}'\n"));
            }
            result
        };
        if let Some(bits) = mode {
            let _ = shell.context().vfs.lock().set_mode(&path, bits);
        }
        match (result, blocked_at) {
            (Ok(()), _) => {}
            (Err(_), Some(shown)) => {
                status = shell.fail_command(
                    "mkdir",
                    &format!("cannot create directory \u{2018}{shown}\u{2019}: Not a directory"),
                    1,
                );
            }
            (Err(error), None) => {
                status = shell.fail_fs(
                    "mkdir",
                    operand,
                    &error,
                    |reason| format!("cannot create directory \u{2018}{operand}\u{2019}: {reason}"),
                    1,
                );
            }
        }
    }
    if !report.is_empty()
        && let Err(error) = shell.write_stdout(report.as_bytes())
    {
        return shell.io_status("mkdir", error);
    }
    Ok(status)
}

/// How `mkdir -pv` names a parent it created for a relative operand.
fn relative_display(operand: &str, full: &VfsPath, created: &VfsPath) -> String {
    let extra = full.depth() - created.depth();
    let mut parts: Vec<&str> = operand.trim_end_matches('/').split('/').collect();
    for _ in 0..extra {
        parts.pop();
    }
    parts.join("/")
}

pub fn rmdir(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("parents", 'p', false),
            ("verbose", 'v', false),
            ("ignore-fail-on-non-empty", 'I', false),
        ]
    );
    if parsed.operands.is_empty() {
        return usage(shell, "rmdir", "missing operand", 1);
    }
    let mut status = 0;
    for operand in &parsed.operands {
        let mut path = match resolve(shell, operand) {
            Ok(path) => path,
            Err(reason) => {
                status = shell.fail_command(
                    "rmdir",
                    &format!("failed to remove '{operand}': {reason}"),
                    1,
                );
                continue;
            }
        };
        // `-p` removes the operand's own parents as written (`a/b/c`,
        // then `a/b`, then `a`), and `-v` names each so.
        let mut shown = operand.clone();
        let mut parent = false;
        loop {
            if parsed.has('v')
                && let Err(error) =
                    shell.write_stdout(format!("rmdir: removing directory, '{shown}'\n").as_bytes())
            {
                return shell.io_status("rmdir", error);
            }
            let result = shell.context().vfs.lock().remove_dir(&path);
            if let Err(error) = result {
                if !(error.errno == Errno::NotEmpty && parsed.has('I')) {
                    // GNU's words for a parent `-p` could not remove.
                    let what = if parent { "directory " } else { "" };
                    status = shell.fail_fs(
                        "rmdir",
                        &shown,
                        &error,
                        |reason| format!("failed to remove {what}'{shown}': {reason}"),
                        1,
                    );
                }
                break;
            }
            if !parsed.has('p') {
                break;
            }
            let Some((head, _)) = shown.trim_end_matches('/').rsplit_once('/') else {
                break;
            };
            let head = head.trim_end_matches('/');
            match path.parent() {
                Some(above) if !head.is_empty() && !above.is_root() => {
                    shown = head.to_string();
                    path = above;
                    parent = true;
                }
                _ => break,
            }
        }
    }
    Ok(status)
}

pub fn touch(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "dtr",
        &[
            ("no-create", 'c', false),
            ("date", 'd', true),
            ("reference", 'r', true),
            ("no-dereference", 'h', false),
        ]
    );
    if parsed.operands.is_empty() {
        return usage(shell, "touch", "missing file operand", 1);
    }
    let time = match (parsed.value('d'), parsed.value('t'), parsed.value('r')) {
        (Some(date), _, _) => {
            match goccia_interp::time::parse_datetime(date, &shell.time_zone())
                .and_then(|time| time.timestamp_nanos_opt())
            {
                Some(nanos) => Some(nanos),
                None => {
                    let message = format!("invalid date format \u{2018}{date}\u{2019}");
                    return Ok(shell.fail_command("touch", &message, 1));
                }
            }
        }
        (_, Some(stamp), _) => goccia_interp::time::parse_touch_stamp(stamp, &shell.time_zone())
            .map(|s| s * 1_000_000_000),
        (_, _, Some(reference)) => resolve(shell, reference)
            .ok()
            .and_then(|p| shell.context().vfs.lock().stat(&p).ok())
            .map(|s| s.mtime_ns),
        _ => None,
    };
    let mut status = 0;
    for operand in &parsed.operands {
        let path = match resolve(shell, operand) {
            Ok(path) => path,
            Err(reason) => {
                status =
                    shell.fail_command("touch", &format!("cannot touch '{operand}': {reason}"), 1);
                continue;
            }
        };
        let new_mode = shell.mode_for_new(false);
        let mut vfs = shell.context().vfs.lock();
        // -h: a link's own time (a link is never created by touch).
        let result =
            if parsed.has('h') && matches!(vfs.lookup_link(&path), Ok(goccia_vfs::Node::Link(_))) {
                vfs.set_link_mtime(&path, time)
            } else if vfs.exists(&path) {
                vfs.set_mtime(&path, time)
            } else if parsed.has('c') {
                Ok(())
            } else {
                vfs.write_file(&path, Vec::new()).and_then(|()| {
                    if let Some(mode) = new_mode {
                        vfs.set_mode(&path, mode)?;
                    }
                    if time.is_some() {
                        vfs.set_mtime(&path, time)
                    } else {
                        Ok(())
                    }
                })
            };
        drop(vfs);
        if let Err(error) = result {
            status = shell.fail_fs(
                "touch",
                operand,
                &error,
                |reason| format!("cannot touch '{operand}': {reason}"),
                1,
            );
        }
    }
    Ok(status)
}

pub fn ln(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "t",
        &[
            ("symbolic", 's', false),
            ("force", 'f', false),
            ("no-dereference", 'n', false),
            ("no-target-directory", 'T', false),
            ("target-directory", 't', true),
            ("verbose", 'v', false),
            ("relative", 'r', false),
            ("logical", 'L', false),
            ("physical", 'P', false),
        ]
    );
    if !parsed.has('s') {
        // The VFS has no hard links: a hard link is a copy that shares
        // its content (later writes to one are not seen in the other).
        if parsed.operands.len() < 2 {
            return usage(shell, "ln", "missing file operand", 1);
        }
        let mut copy_args = vec!["ln".to_string()];
        if parsed.has('v') {
            copy_args.push("-v".to_string());
        }
        copy_args.extend(parsed.operands.iter().cloned());
        return copy_or_move(shell, &copy_args, false);
    }
    let mut operands = parsed.operands.clone();
    let directory = match parsed.value('t') {
        Some(dir) => Some(dir.to_string()),
        None if operands.len() > 2 => operands.pop(),
        None => None,
    };
    if operands.is_empty() {
        return usage(shell, "ln", "missing file operand", 1);
    }
    // (target text, where the link goes)
    let mut links: Vec<(String, String)> = Vec::new();
    let inside = |dir: &str, target: &str| {
        let name = target
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(target);
        format!("{}/{name}", dir.trim_end_matches('/'))
    };
    match (&directory, operands.as_slice()) {
        (Some(dir), targets) => {
            for target in targets {
                links.push((target.clone(), inside(dir, target)));
            }
        }
        (None, [target]) => links.push((target.clone(), inside(".", target))),
        (None, [target, name]) => {
            // An existing folder (through a link, unless -n) takes the link
            // inside it.
            let into_dir = !parsed.has('T')
                && resolve(shell, name).is_ok_and(|path| {
                    let vfs = shell.context().vfs.lock();
                    if parsed.has('n') {
                        matches!(vfs.lookup_link(&path), Ok(goccia_vfs::Node::Dir(_)))
                    } else {
                        vfs.is_dir(&path)
                    }
                });
            let at = if into_dir {
                inside(name, target)
            } else {
                name.clone()
            };
            links.push((target.clone(), at));
        }
        _ => unreachable!("a directory takes more than two operands"),
    }
    let mut status = 0;
    for (target, name) in links {
        let shown = name.strip_prefix("./").unwrap_or(&name).to_string();
        let Ok(path) = resolve(shell, &name) else {
            status = 1;
            continue;
        };
        let vfs = shell.context().vfs.clone();
        let made = {
            let mut vfs = vfs.lock();
            let existing = vfs.lookup_link(&path);
            let replace = parsed.has('f') && existing.is_ok();
            match existing {
                Ok(goccia_vfs::Node::Dir(_)) if replace => {
                    Err(goccia_vfs::FsError::new(Errno::IsDir, &path))
                }
                _ if replace => vfs
                    .remove_file(&path)
                    .and_then(|()| vfs.symlink(&path, &target)),
                _ => vfs.symlink(&path, &target),
            }
        };
        match made {
            Ok(()) => {
                if parsed.has('v') {
                    let line = format!("'{shown}' -> '{target}'\n");
                    if let Err(error) = shell.write_stdout(line.as_bytes()) {
                        return shell.io_status("ln", error);
                    }
                }
            }
            Err(error) => {
                status = shell.fail_fs(
                    "ln",
                    &shown,
                    &error,
                    |reason| format!("failed to create symbolic link '{shown}': {reason}"),
                    1,
                );
            }
        }
    }
    Ok(status)
}

pub fn mktemp(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "pt",
        &[
            ("directory", 'd', false),
            ("dry-run", 'u', false),
            ("quiet", 'q', false),
            ("tmpdir", 'p', true),
        ]
    );
    let template = parsed
        .operands
        .first()
        .cloned()
        .unwrap_or_else(|| "tmp.XXXXXXXXXX".to_string());
    let x_count = template.chars().rev().take_while(|c| *c == 'X').count();
    if x_count < 3 {
        return Ok(shell.fail_command(
            "mktemp",
            &format!("too few X's in template '{template}'"),
            1,
        ));
    }
    let dir = match parsed.value('p') {
        Some(dir) => Some(dir.to_string()),
        None if parsed.operands.is_empty() || parsed.has('t') => Some(
            shell
                .get_var("TMPDIR")
                .unwrap_or_else(|| "/tmp".to_string()),
        ),
        None => None,
    };
    for _ in 0..100 {
        let random: String = (0..x_count)
            .map(|_| {
                let n = shell.random_u32() as usize % 62;
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[n] as char
            })
            .collect();
        let name = format!("{}{random}", &template[..template.len() - x_count]);
        let shown = match &dir {
            Some(dir) => format!("{}/{name}", dir.trim_end_matches('/')),
            None => name,
        };
        let Ok(path) = resolve(shell, &shown) else {
            break;
        };
        let mut vfs = shell.context().vfs.lock();
        if vfs.exists(&path) {
            continue;
        }
        let result = if parsed.has('u') {
            Ok(())
        } else if parsed.has('d') {
            vfs.mkdir(&path)
        } else {
            vfs.create_new(&path, Vec::new())
        };
        drop(vfs);
        return match result {
            Ok(()) => match shell.write_stdout(format!("{shown}\n").as_bytes()) {
                Ok(()) => Ok(0),
                Err(error) => shell.io_status("mktemp", error),
            },
            Err(error) => Ok(shell.fail_fs(
                "mktemp",
                &shown,
                &error,
                |reason| format!("failed to create file via template '{template}': {reason}"),
                1,
            )),
        };
    }
    Ok(shell.fail_command("mktemp", "failed to create a unique name", 1))
}

/// How `truncate -s` changes a size: `N`, `+N`, `-N`, `<N` (at most),
/// `>N` (at least), `/N` (down to a multiple), `%N` (up to a multiple).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SizeChange {
    Set(u64),
    Extend(u64),
    Reduce(u64),
    AtMost(u64),
    AtLeast(u64),
    RoundDown(u64),
    RoundUp(u64),
}

impl SizeChange {
    fn parse(text: &str) -> Option<SizeChange> {
        let (op, digits) = match text.chars().next()? {
            c @ ('+' | '-' | '<' | '>' | '/' | '%') => (Some(c), &text[1..]),
            _ => (None, text),
        };
        let amount = crate::args::parse_size_suffix(digits)?;
        Some(match op {
            None => SizeChange::Set(amount),
            Some('+') => SizeChange::Extend(amount),
            Some('-') => SizeChange::Reduce(amount),
            Some('<') => SizeChange::AtMost(amount),
            Some('>') => SizeChange::AtLeast(amount),
            Some('/') if amount > 0 => SizeChange::RoundDown(amount),
            Some('%') if amount > 0 => SizeChange::RoundUp(amount),
            _ => return None,
        })
    }

    fn apply(self, current: u64) -> u64 {
        match self {
            SizeChange::Set(n) => n,
            SizeChange::Extend(n) => current.saturating_add(n),
            SizeChange::Reduce(n) => current.saturating_sub(n),
            SizeChange::AtMost(n) => current.min(n),
            SizeChange::AtLeast(n) => current.max(n),
            SizeChange::RoundDown(n) => current / n * n,
            SizeChange::RoundUp(n) => current.div_ceil(n).saturating_mul(n),
        }
    }
}

pub fn truncate(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "sr",
        &[
            ("size", 's', true),
            ("reference", 'r', true),
            ("no-create", 'c', false),
        ]
    );
    let reference = match parsed.value('r') {
        Some(file) => match resolve(shell, file)
            .ok()
            .and_then(|path| shell.context().vfs.lock().stat(&path).ok())
        {
            Some(stat) => Some(stat.size),
            None => {
                let message = format!("cannot stat '{file}': No such file or directory");
                return Ok(shell.fail_command("truncate", &message, 1));
            }
        },
        None => None,
    };
    let change = match (parsed.value('s'), reference) {
        (Some(text), _) => match SizeChange::parse(text) {
            Some(change) => change,
            None => {
                let message = format!("Invalid number: '{text}'");
                return Ok(shell.fail_command("truncate", &message, 1));
            }
        },
        (None, Some(size)) => SizeChange::Set(size),
        (None, None) => {
            let message = "you must specify either '--size' or '--reference'";
            return usage(shell, "truncate", message, 1);
        }
    };
    if parsed.operands.is_empty() {
        return usage(shell, "truncate", "missing file operand", 1);
    }
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        if let Err(error) = truncate_one(shell, &path, change, parsed.has('c')) {
            status = shell.fail_fs(
                "truncate",
                operand,
                &error,
                |reason| format!("cannot open '{operand}' for writing: {reason}"),
                1,
            );
        }
    }
    Ok(status)
}

/// Resizes one file; the quota is checked before anything is allocated, so
/// `truncate -s 1T` fails with ENOSPC instead of taking the host's memory.
fn truncate_one(
    shell: &mut ShellView,
    path: &goccia_vfs::VfsPath,
    change: SizeChange,
    no_create: bool,
) -> Result<(), goccia_vfs::FsError> {
    let mut vfs = shell.context().vfs.lock();
    vfs.check_write(path)?;
    let current = match vfs.read_file(path) {
        Ok(data) => data,
        Err(_) if no_create => return Ok(()),
        Err(_) => bytes::Bytes::new(),
    };
    let target = change.apply(current.len() as u64);
    let growth = target.saturating_sub(current.len() as u64);
    if growth > vfs.remaining().max_bytes {
        return Err(goccia_vfs::FsError::new(goccia_vfs::Errno::NoSpc, path));
    }
    let mut data = current.to_vec();
    data.resize(target as usize, 0);
    vfs.write_file(path, data)
}
