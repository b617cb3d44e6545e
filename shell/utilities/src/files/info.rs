//! What a file is: `file`, `du`, `df`, `chmod` (`stat` is in `stat`).

use crate::args::parse_options;
use crate::args::usage;
use crate::files::names::resolve;
use crate::files::sizes::human_size;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::{Node, NodeType, VfsPath};

fn disk_usage(node: &Node) -> u64 {
    let own = crate::files::list::kibibytes(node);
    match node {
        Node::Dir(dir) => own + dir.iter().map(|(_, child)| disk_usage(child)).sum::<u64>(),
        _ => own,
    }
}

pub fn du(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "d",
        &[
            ("summarize", 's', false),
            ("human-readable", 'h', false),
            ("all", 'a', false),
            ("total", 'c', false),
            ("max-depth", 'd', true),
            ("bytes", 'b', false),
        ]
    );
    let operands = if parsed.operands.is_empty() {
        vec![".".to_string()]
    } else {
        parsed.operands.clone()
    };
    let max_depth = if parsed.has('s') {
        Some(0)
    } else {
        parsed.value('d').and_then(|v| v.parse::<usize>().ok())
    };
    let bytes = parsed.has('b');
    let show = |size: u64| -> String {
        if parsed.has('h') {
            human_size(if bytes { size } else { size * 1024 })
        } else {
            size.to_string()
        }
    };
    let mut out = String::new();
    let mut status = 0;
    let mut total = 0;
    for operand in &operands {
        let node = resolve(shell, operand)
            .ok()
            .and_then(|p| shell.context().vfs.lock().lookup(&p).ok());
        let Some(node) = node else {
            status = shell.fail_command(
                "du",
                &format!("cannot access '{operand}': No such file or directory"),
                1,
            );
            continue;
        };
        let size_of = |n: &Node| {
            if bytes {
                apparent_size(n)
            } else {
                disk_usage(n)
            }
        };
        let mut lines = Vec::new();
        du_walk(
            &node,
            operand.trim_end_matches('/').to_string(),
            0,
            max_depth,
            parsed.has('a'),
            &size_of,
            &mut lines,
        );
        if operand == "/"
            && let Some(last) = lines.last_mut()
        {
            last.1 = "/".to_string();
        }
        total += size_of(&node);
        for (size, path) in lines {
            out.push_str(&format!("{}\t{path}\n", show(size)));
        }
    }
    if parsed.has('c') {
        out.push_str(&format!("{}\ttotal\n", show(total)));
    }
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        return shell.io_status("du", error);
    }
    Ok(status)
}

fn apparent_size(node: &Node) -> u64 {
    match node {
        Node::File(file) => file.len(),
        Node::Link(link) => link.target().len() as u64,
        Node::Dir(dir) => {
            4096 + dir
                .iter()
                .map(|(_, child)| apparent_size(child))
                .sum::<u64>()
        }
    }
}

fn du_walk(
    node: &Node,
    path: String,
    depth: usize,
    max_depth: Option<usize>,
    all: bool,
    size_of: &dyn Fn(&Node) -> u64,
    lines: &mut Vec<(u64, String)>,
) {
    if let Node::Dir(dir) = node {
        for (name, child) in dir.iter() {
            let child_path = format!("{path}/{name}");
            match child {
                Node::Dir(_) => {
                    du_walk(child, child_path, depth + 1, max_depth, all, size_of, lines)
                }
                Node::File(_) | Node::Link(_) if all && max_depth.is_none_or(|m| depth < m) => {
                    lines.push((size_of(child), child_path))
                }
                Node::File(_) | Node::Link(_) => {}
            }
        }
    }
    if max_depth.is_none_or(|m| depth <= m) || depth == 0 {
        lines.push((
            size_of(node),
            if path.is_empty() {
                "/".to_string()
            } else {
                path
            },
        ));
    }
}

/// The VFS as a file system shows its size (`df`, `stat -f`): the quota's
/// bytes, or 1 TiB when there is none.
pub(crate) fn file_system_size(quota: &goccia_vfs::Quota) -> u64 {
    if quota.max_bytes == u64::MAX {
        1 << 40
    } else {
        quota.max_bytes
    }
}

pub fn df(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let human = args.iter().any(|a| a == "-h");
    let vfs = shell.context().vfs.lock();
    let size = file_system_size(&vfs.quota());
    let used = vfs.usage().bytes;
    drop(vfs);
    let available = size.saturating_sub(used);
    let percent = if size == 0 {
        0
    } else {
        (used * 100).div_ceil(size.max(1))
    };
    let text = if human {
        format!(
            "Filesystem      Size  Used Avail Use% Mounted on\ngoccia-vfs {:>8} {:>5} {:>5} {:>3}% /\n",
            human_size(size),
            human_size(used),
            human_size(available),
            percent
        )
    } else {
        format!(
            "Filesystem     1K-blocks  Used Available Use% Mounted on\ngoccia-vfs {:>13} {:>5} {:>9} {:>3}% /\n",
            size / 1024,
            used.div_ceil(1024),
            available / 1024,
            percent
        )
    };
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        return shell.io_status("df", error);
    }
    Ok(0)
}

/// Parses a numeric or symbolic (`u+x,go-w`, `u+s`, `+t`, `a+X`) mode
/// against `current`, the mode of a directory when `directory` (for `X`).
pub(crate) fn parse_mode(text: &str, current: u32, directory: bool) -> Option<u32> {
    if !text.is_empty() && text.len() <= 4 && text.chars().all(|c| c.is_digit(8)) {
        return u32::from_str_radix(text, 8).ok();
    }
    let mut mode = current;
    for clause in text.split(',') {
        let chars: Vec<char> = clause.chars().collect();
        let mut i = 0;
        let mut who = 0u32;
        while i < chars.len() && "ugoa".contains(chars[i]) {
            who |= match chars[i] {
                'u' => 0o4700,
                'g' => 0o2070,
                'o' => 0o1007,
                _ => 0o7777,
            };
            i += 1;
        }
        // No `ugoa`: as `a`, less what the default umask (022) masks.
        let who = if who == 0 { 0o7755 } else { who };
        if i >= chars.len() {
            return None;
        }
        while i < chars.len() {
            let op = chars[i];
            if !"+-=".contains(op) {
                return None;
            }
            i += 1;
            let mut bits = 0u32;
            while i < chars.len() && "rwxXst".contains(chars[i]) {
                bits |= match chars[i] {
                    'r' => 0o444,
                    'w' => 0o222,
                    'x' => 0o111,
                    'X' if directory || mode & 0o111 != 0 => 0o111,
                    'X' => 0,
                    's' => 0o6000,
                    _ => 0o1000,
                };
                i += 1;
            }
            let bits = bits & who;
            match op {
                '+' => mode |= bits,
                '-' => mode &= !bits,
                _ => mode = (mode & !who) | bits,
            }
        }
    }
    Some(mode)
}

/// What `chmod -v`/`-c` report (GNU's words), from least to most: `-c`
/// after `-v` keeps `-v`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum ChmodReport {
    Nothing,
    /// `-c`: the files whose mode changed.
    Changes,
    /// `-v`: every file.
    Everything,
}

pub fn chmod(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut recursive = false;
    let mut report = ChmodReport::Nothing;
    let mut quiet = false;
    let mut rest = Vec::new();
    let mut reference = None;
    let mut args_left = args[1..].iter();
    while let Some(arg) = args_left.next() {
        match arg.as_str() {
            "--reference" => match args_left.next() {
                Some(file) => reference = Some(file.clone()),
                None => {
                    let message = "option '--reference' requires an argument";
                    return usage(shell, "chmod", message, 1);
                }
            },
            other if other.starts_with("--reference=") => {
                reference = Some(other["--reference=".len()..].to_string());
            }
            "--recursive" => recursive = true,
            "--verbose" => report = ChmodReport::Everything,
            "--changes" => report = report.max(ChmodReport::Changes),
            "--silent" | "--quiet" => quiet = true,
            // Clustered flags (`-Rv`); a mode such as `-w` has other letters.
            flags
                if flags.len() > 1
                    && flags.starts_with('-')
                    && flags[1..].chars().all(|c| "Rvcf".contains(c)) =>
            {
                for flag in flags[1..].chars() {
                    match flag {
                        'R' => recursive = true,
                        'v' => report = ChmodReport::Everything,
                        'c' => report = report.max(ChmodReport::Changes),
                        _ => quiet = true,
                    }
                }
            }
            _ => rest.push(arg.clone()),
        }
    }
    // --reference=FILE: that file's mode, and every operand is a file.
    let mode_text = match reference {
        Some(file) => {
            if rest.is_empty() {
                return usage(shell, "chmod", "missing operand", 1);
            }
            let stat = resolve(shell, &file)
                .ok()
                .and_then(|path| shell.context().vfs.lock().stat(&path).ok());
            match stat {
                Some(stat) => format!("{:o}", stat.mode & 0o7777),
                None => {
                    let message =
                        format!("failed to get attributes of '{file}': No such file or directory");
                    return Ok(shell.fail_command("chmod", &message, 1));
                }
            }
        }
        None => {
            match rest.first() {
                None => return usage(shell, "chmod", "missing operand", 1),
                Some(mode) if rest.len() < 2 => {
                    let message = format!("missing operand after \u{2018}{mode}\u{2019}");
                    return usage(shell, "chmod", &message, 1);
                }
                Some(_) => {}
            }
            rest.remove(0)
        }
    };
    let mut status = 0;
    let mut lines = String::new();
    for operand in &rest {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let vfs = shell.context().vfs.clone();
        let mut vfs = vfs.lock();
        let paths = if recursive {
            walk_paths(&vfs, &path)
        } else {
            vec![path.clone()]
        };
        if !vfs.exists(&path) {
            drop(vfs);
            status = if quiet {
                1
            } else {
                shell.fail_command(
                    "chmod",
                    &format!("cannot access '{operand}': No such file or directory"),
                    1,
                )
            };
            if report == ChmodReport::Everything {
                lines.push_str(&format!("'{operand}' could not be accessed\n"));
            }
            if let Err(error) = shell.write_stdout(std::mem::take(&mut lines).as_bytes()) {
                return shell.io_status("chmod", error);
            }
            continue;
        }
        // `chmod -R` changes a tree as one change: all of it, or nothing
        // if any path is refused.
        let mut modes = Vec::new();
        let changed = vfs.all_or_nothing(|vfs| {
            modes.clear();
            for target in &paths {
                let stat = vfs.stat(target);
                let current = stat.as_ref().map(|s| s.mode).unwrap_or(0o644);
                let directory = stat.is_ok_and(|s| s.node_type == NodeType::Directory);
                let Some(mode) = parse_mode(&mode_text, current, directory) else {
                    return Ok(false);
                };
                vfs.set_mode(target, mode)?;
                modes.push((target.clone(), current, mode));
            }
            Ok(true)
        });
        drop(vfs);
        match changed {
            Ok(true) => {
                for (target, old, new) in &modes {
                    if report == ChmodReport::Everything
                        || (report == ChmodReport::Changes && old != new)
                    {
                        let shown = shown_below(operand, &path, target);
                        lines.push_str(&mode_report(&shown, *old, *new));
                    }
                }
                if let Err(error) = shell.write_stdout(std::mem::take(&mut lines).as_bytes()) {
                    return shell.io_status("chmod", error);
                }
            }
            Ok(false) => {
                let message = format!("invalid mode: \u{2018}{mode_text}\u{2019}");
                return usage(shell, "chmod", &message, 1);
            }
            Err(error) => {
                status = shell.fail_fs(
                    "chmod",
                    operand,
                    &error,
                    |reason| format!("changing permissions of '{operand}': {reason}"),
                    1,
                );
            }
        }
    }
    Ok(status)
}

/// `target` (at or below `top`, the operand's path) named as the user
/// wrote the operand.
fn shown_below(operand: &str, top: &VfsPath, target: &VfsPath) -> String {
    let top_text = top.to_string();
    let target_text = target.to_string();
    match target_text.strip_prefix(&top_text) {
        Some("") | None => operand.to_string(),
        Some(rest) => format!(
            "{}/{}",
            operand.trim_end_matches('/'),
            rest.trim_start_matches('/')
        ),
    }
}

/// One line of `chmod -v`: `mode of 'f' changed from 0644 (rw-r--r--) to
/// 0600 (rw-------)`, or `... retained as ...`.
fn mode_report(shown: &str, old: u32, new: u32) -> String {
    use crate::files::list::permission_string;
    let (old, new) = (old & 0o7777, new & 0o7777);
    if old == new {
        format!(
            "mode of '{shown}' retained as {new:04o} ({})\n",
            permission_string(new)
        )
    } else {
        format!(
            "mode of '{shown}' changed from {old:04o} ({}) to {new:04o} ({})\n",
            permission_string(old),
            permission_string(new)
        )
    }
}

fn walk_paths(vfs: &goccia_vfs::Vfs, path: &VfsPath) -> Vec<VfsPath> {
    let mut out = vec![path.clone()];
    if let Ok(entries) = vfs.read_dir(path) {
        for entry in entries {
            out.extend(walk_paths(vfs, &path.join(&entry.name)));
        }
    }
    out
}

/// `file`: each operand's kind (docs/shell.md): its name padded so that
/// the descriptions line up, as `file` pads them (`-N` not), or the
/// description alone (`-b`). A link is described as one unless `-L`.
pub fn file(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut shown_as = Shown::Description;
    let mut brief = false;
    let mut follow = false;
    let mut pad = true;
    let mut operands = Vec::new();
    let mut options_end = false;
    for arg in &args[1..] {
        if options_end || arg == "-" || !arg.starts_with('-') {
            operands.push(arg.as_str());
            continue;
        }
        match arg.as_str() {
            "--" => options_end = true,
            "--brief" => brief = true,
            "--dereference" => follow = true,
            "--no-dereference" => follow = false,
            "--no-pad" => pad = false,
            "--mime" => shown_as = Shown::Mime,
            "--mime-type" => shown_as = Shown::MimeType,
            "--mime-encoding" => shown_as = Shown::MimeEncoding,
            long if long.starts_with("--") => {
                return usage(shell, "file", &format!("unrecognized option '{long}'"), 1);
            }
            flags => {
                for flag in flags[1..].chars() {
                    match flag {
                        'b' => brief = true,
                        'L' => follow = true,
                        'h' => follow = false,
                        'N' => pad = false,
                        'i' => shown_as = Shown::Mime,
                        other => {
                            return usage(
                                shell,
                                "file",
                                &format!("invalid option -- '{other}'"),
                                1,
                            );
                        }
                    }
                }
            }
        }
    }
    if operands.is_empty() {
        return usage(shell, "file", "missing operand", 1);
    }
    fn shown(operand: &str) -> &str {
        if operand == "-" {
            "/dev/stdin"
        } else {
            operand
        }
    }
    let width = operands
        .iter()
        .map(|operand| shown(operand).chars().count() + 1)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for operand in &operands {
        let kind = if *operand == "-" {
            match goccia_interp::input::Source::stdin(shell).read_all() {
                Ok(data) => shown_as.of(&super::magic::identify(&data)),
                Err(error) => return shell.io_status("file", error),
            }
        } else {
            describe_operand(shell, operand, follow, shown_as)
        };
        if !brief {
            let name = format!("{}:", shown(operand));
            out.push_str(&if pad {
                goccia_interp::pad::right_pad(&name, width, ' ')
            } else {
                name
            });
            out.push(' ');
        }
        out.push_str(&kind);
        out.push('\n');
    }
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        return shell.io_status("file", error);
    }
    Ok(0)
}

/// What `file` prints of a file: its description, or its MIME type and
/// charset (`-i`), or one of the two.
#[derive(Clone, Copy)]
enum Shown {
    Description,
    Mime,
    MimeType,
    MimeEncoding,
}

impl Shown {
    fn of(self, identity: &super::magic::Identity) -> String {
        self.words(&identity.description, identity.mime_type, identity.charset)
    }

    fn words(self, description: &str, mime_type: &str, charset: &str) -> String {
        match self {
            Shown::Description => description.to_string(),
            Shown::Mime => format!("{mime_type}; charset={charset}"),
            Shown::MimeType => mime_type.to_string(),
            Shown::MimeEncoding => charset.to_string(),
        }
    }
}

/// What `file` says of the node at `operand`.
fn describe_operand(shell: &mut ShellView, operand: &str, follow: bool, shown_as: Shown) -> String {
    let node = resolve(shell, operand).ok().and_then(|path| {
        let vfs = shell.context().vfs.lock();
        if follow {
            vfs.lookup(&path).ok()
        } else {
            vfs.lookup_link(&path).ok()
        }
    });
    match node {
        None => format!("cannot open `{operand}' (No such file or directory)"),
        Some(Node::Dir(_)) => shown_as.words("directory", "inode/directory", "binary"),
        Some(Node::File(file)) => shown_as.of(&super::magic::identify(file.data())),
        Some(Node::Link(link)) => shown_as.words(
            &format!("symbolic link to {}", link.target()),
            "inode/symlink",
            "binary",
        ),
    }
}
