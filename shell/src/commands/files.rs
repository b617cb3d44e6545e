//! File utilities over the VFS: `cat`, `ls`, `mkdir`, `rm`, `cp`, `mv`,
//! `touch`, `stat`, `tree`, `du`, `df`, paths and modes.

use std::io::Write;

use goccia_vfs::{Errno, Node, NodeType, VfsPath};

use super::{Source, check_flags, getopt, open_source};
use crate::interp::{ExecResult, Shell};

type Out = std::io::BufWriter<crate::interp::OutHandle>;

fn buffered(shell: &Shell) -> Out {
    std::io::BufWriter::with_capacity(16 << 10, shell.out())
}

fn finish(shell: &mut Shell, name: &str, mut out: Out, status: i32) -> ExecResult {
    match out.flush() {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
}

fn usage(shell: &mut Shell, name: &str, message: &str, status: i32) -> ExecResult {
    Ok(shell.fail_command(
        name,
        &format!("{message}\nTry '{name} --help' for more information."),
        status,
    ))
}

fn resolve(shell: &Shell, operand: &str) -> Result<VfsPath, &'static str> {
    shell
        .cwd()
        .resolve(operand)
        .map_err(|e| Errno::from(&e).strerror())
}

// ----- cat -----

pub fn cat(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("number", 'n', false),
            ("number-nonblank", 'b', false),
            ("squeeze-blank", 's', false),
            ("show-ends", 'E', false),
            ("show-tabs", 'T', false),
            ("show-all", 'A', false),
            ("show-nonprinting", 'v', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "cat", &message, 1),
    };
    if let Err(message) = check_flags(&parsed, "nbsETAvetu") {
        return usage(shell, "cat", &message, 1);
    }
    let show_ends = parsed.has('E') || parsed.has('A') || parsed.has('e');
    let show_tabs = parsed.has('T') || parsed.has('A') || parsed.has('t');
    let number_all = parsed.has('n') && !parsed.has('b');
    let number_nonblank = parsed.has('b');
    let squeeze = parsed.has('s');
    let plain = !(show_ends || show_tabs || number_all || number_nonblank || squeeze);
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut out = buffered(shell);
    let mut status = 0;
    let mut line_number = 0;
    let mut last_blank = false;
    for operand in operands {
        let Ok(mut source) = open_source(shell, "cat", &operand) else {
            status = 1;
            continue;
        };
        let result = if plain {
            match &mut source {
                Source::Data(bytes) => out.write_all(bytes),
                Source::Stdin(..) => source.read_bytes(usize::MAX, |chunk| {
                    out.write_all(chunk)?;
                    Ok(true)
                }),
            }
        } else {
            source.for_each_line(|line| {
                let body = line.strip_suffix(b"\n").unwrap_or(line);
                let blank = body.is_empty();
                if squeeze && blank && last_blank {
                    return Ok(true);
                }
                last_blank = blank;
                if number_all || (number_nonblank && !blank) {
                    line_number += 1;
                    write!(out, "{line_number:>6}\t")?;
                }
                let mut text = body.to_vec();
                if show_tabs {
                    text = text
                        .iter()
                        .flat_map(|&b| if b == b'\t' { b"^I".to_vec() } else { vec![b] })
                        .collect();
                }
                out.write_all(&text)?;
                if show_ends && line.ends_with(b"\n") {
                    out.write_all(b"$")?;
                }
                if line.ends_with(b"\n") {
                    out.write_all(b"\n")?;
                }
                Ok(true)
            })
        };
        if let Err(error) = result {
            return shell.io_status("cat", error);
        }
    }
    finish(shell, "cat", out, status)
}

// ----- ls -----

struct Entry {
    name: String,
    path: VfsPath,
    node: Node,
}

fn mode_string(node: &Node) -> String {
    let mode = node.meta().mode;
    let mut out = String::with_capacity(10);
    out.push(if node.node_type() == NodeType::Directory {
        'd'
    } else {
        '-'
    });
    for shift in [6, 3, 0] {
        let bits = (mode >> shift) & 7;
        out.push(if bits & 4 != 0 { 'r' } else { '-' });
        out.push(if bits & 2 != 0 { 'w' } else { '-' });
        out.push(if bits & 1 != 0 { 'x' } else { '-' });
    }
    out
}

fn node_size(node: &Node) -> u64 {
    match node {
        Node::File(file) => file.len(),
        Node::Dir(_) => 4096,
    }
}

pub(crate) fn human_size(bytes: u64) -> String {
    if bytes < 1024 {
        return bytes.to_string();
    }
    let units = ['K', 'M', 'G', 'T', 'P'];
    let mut value = bytes as f64;
    let mut unit = 0;
    value /= 1024.0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value < 10.0 {
        let rounded = (value * 10.0).ceil() / 10.0;
        if rounded >= 10.0 {
            format!("{:.0}{}", rounded, units[unit])
        } else {
            format!("{:.1}{}", rounded, units[unit])
        }
    } else {
        format!("{:.0}{}", value.ceil(), units[unit])
    }
}

fn format_time(mtime_ns: i64) -> String {
    let secs = mtime_ns.div_euclid(1_000_000_000);
    super::strftime_utc("%b %e %H:%M", secs)
}

pub fn ls(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("all", 'a', false),
            ("almost-all", 'A', false),
            ("recursive", 'R', false),
            ("reverse", 'r', false),
            ("human-readable", 'h', false),
            ("directory", 'd', false),
            ("classify", 'F', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "ls", &message, 2),
    };
    if let Err(message) = check_flags(&parsed, "laARrtShdF1pCxmiUs") {
        return usage(shell, "ls", &message, 2);
    }
    let operands = if parsed.operands.is_empty() {
        vec![".".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let mut status = 0;
    for operand in &operands {
        let node = resolve(shell, operand)
            .ok()
            .and_then(|p| shell.context().vfs.lock().lookup(&p).ok().map(|n| (p, n)));
        match node {
            None => {
                shell.fail_command(
                    "ls",
                    &format!("cannot access '{operand}': No such file or directory"),
                    2,
                );
                status = 2;
            }
            Some((path, node)) => {
                let entry = Entry {
                    name: operand.clone(),
                    path,
                    node,
                };
                if entry.node.node_type() == NodeType::Directory && !parsed.has('d') {
                    dirs.push(entry);
                } else {
                    files.push(entry);
                }
            }
        }
    }
    let mut out = buffered(shell);
    sort_entries(&mut files, &parsed);
    sort_entries(&mut dirs, &parsed);
    let result = (|| -> std::io::Result<()> {
        if !files.is_empty() {
            write_entries(&mut out, &files, &parsed, false)?;
        }
        let show_headers = operands.len() > 1 || parsed.has('R');
        let mut first = files.is_empty();
        let mut queue: Vec<Entry> = dirs;
        while !queue.is_empty() {
            let dir = queue.remove(0);
            if !first {
                writeln!(out)?;
            }
            first = false;
            if show_headers {
                writeln!(out, "{}:", dir.name)?;
            }
            let mut children = list_dir(shell, &dir, &parsed);
            sort_entries(&mut children, &parsed);
            write_entries(&mut out, &children, &parsed, true)?;
            if parsed.has('R') {
                let mut subdirs: Vec<Entry> = children
                    .into_iter()
                    .filter(|e| {
                        e.node.node_type() == NodeType::Directory && e.name != "." && e.name != ".."
                    })
                    .map(|e| Entry {
                        name: if dir.name.ends_with('/') {
                            format!("{}{}", dir.name, e.name)
                        } else {
                            format!("{}/{}", dir.name, e.name)
                        },
                        path: e.path,
                        node: e.node,
                    })
                    .collect();
                subdirs.append(&mut queue);
                queue = subdirs;
            }
        }
        Ok(())
    })();
    if let Err(error) = result {
        return shell.io_status("ls", error);
    }
    finish(shell, "ls", out, status)
}

fn list_dir(shell: &Shell, dir: &Entry, parsed: &super::Parsed) -> Vec<Entry> {
    let Node::Dir(node) = &dir.node else {
        return Vec::new();
    };
    let mut entries: Vec<Entry> = node
        .iter()
        .filter(|(name, _)| parsed.has('a') || parsed.has('A') || !name.starts_with('.'))
        .map(|(name, child)| Entry {
            name: name.to_string(),
            path: dir.path.join(name),
            node: child.clone(),
        })
        .collect();
    if parsed.has('a') {
        let parent = dir.path.parent().unwrap_or_else(VfsPath::root);
        let vfs = shell.context().vfs.lock();
        if let Ok(parent_node) = vfs.lookup(&parent) {
            entries.push(Entry {
                name: "..".into(),
                path: parent,
                node: parent_node,
            });
        }
        entries.push(Entry {
            name: ".".into(),
            path: dir.path.clone(),
            node: dir.node.clone(),
        });
    }
    entries
}

fn sort_entries(entries: &mut [Entry], parsed: &super::Parsed) {
    if parsed.has('U') {
        return;
    }
    if parsed.has('t') {
        entries.sort_by(|a, b| {
            b.node
                .meta()
                .mtime_ns
                .cmp(&a.node.meta().mtime_ns)
                .then_with(|| a.name.cmp(&b.name))
        });
    } else if parsed.has('S') {
        entries.sort_by(|a, b| {
            node_size(&b.node)
                .cmp(&node_size(&a.node))
                .then_with(|| a.name.cmp(&b.name))
        });
    } else {
        entries.sort_by(|a, b| a.name.cmp(&b.name));
    }
    if parsed.has('r') {
        entries.reverse();
    }
}

fn write_entries(
    out: &mut Out,
    entries: &[Entry],
    parsed: &super::Parsed,
    in_dir: bool,
) -> std::io::Result<()> {
    let suffix = |entry: &Entry| -> &'static str {
        match entry.node.node_type() {
            NodeType::Directory if parsed.has('F') || parsed.has('p') => "/",
            NodeType::File if parsed.has('F') && entry.node.meta().mode & 0o111 != 0 => "*",
            _ => "",
        }
    };
    if parsed.has('l') {
        if in_dir {
            let blocks: u64 = entries
                .iter()
                .map(|e| node_size(&e.node).div_ceil(4096) * 4)
                .sum();
            writeln!(out, "total {blocks}")?;
        }
        for entry in entries {
            let size = node_size(&entry.node);
            let size = if parsed.has('h') {
                human_size(size)
            } else {
                size.to_string()
            };
            let links = if entry.node.node_type() == NodeType::Directory {
                2
            } else {
                1
            };
            writeln!(
                out,
                "{} {links} user user {size:>5} {} {}{}",
                mode_string(&entry.node),
                format_time(entry.node.meta().mtime_ns),
                entry.name,
                suffix(entry)
            )?;
        }
        return Ok(());
    }
    if parsed.has('m') {
        let names: Vec<String> = entries
            .iter()
            .map(|e| format!("{}{}", e.name, suffix(e)))
            .collect();
        return writeln!(out, "{}", names.join(", "));
    }
    let names: Vec<String> = entries
        .iter()
        .map(|e| format!("{}{}", e.name, suffix(e)))
        .collect();
    // The last of `-1`, `-C` and `-x` decides the layout.
    let layout = parsed
        .flags
        .iter()
        .rev()
        .find(|f| matches!(f, '1' | 'C' | 'x'));
    if let Some(layout @ ('C' | 'x')) = layout {
        return write_columns(out, &names, *layout == 'x');
    }
    for name in names {
        writeln!(out, "{name}")?;
    }
    Ok(())
}

/// The width `ls -C`/`-x` fills (a terminal's default; there is none).
const LS_WIDTH: usize = 80;

/// GNU's column layout: as many columns as fit in [`LS_WIDTH`], each as
/// wide as its longest name plus two spaces (the last column unpadded),
/// filled down the columns (`-C`) or across the rows (`-x`).
fn write_columns(out: &mut Out, names: &[String], across: bool) -> std::io::Result<()> {
    if names.is_empty() {
        return Ok(());
    }
    let widths: Vec<usize> = names.iter().map(|n| n.chars().count()).collect();
    let place = |index: usize, rows: usize, columns: usize| {
        if across {
            (index / columns, index % columns)
        } else {
            (index % rows, index / rows)
        }
    };
    let mut chosen = (names.len(), 1, vec![0]);
    for columns in (1..=names.len().clamp(1, LS_WIDTH / 3)).rev() {
        let rows = names.len().div_ceil(columns);
        let mut column_widths = vec![0usize; columns];
        for (index, width) in widths.iter().enumerate() {
            let (_, column) = place(index, rows, columns);
            column_widths[column] = column_widths[column].max(*width);
        }
        let used = column_widths.iter().filter(|w| **w > 0).count();
        let total: usize = column_widths.iter().sum::<usize>() + 2 * used.saturating_sub(1);
        if total < LS_WIDTH || columns == 1 {
            chosen = (rows, columns, column_widths);
            break;
        }
    }
    let (rows, columns, column_widths) = chosen;
    let mut grid = vec![vec![None; columns]; rows];
    for (index, name) in names.iter().enumerate() {
        let (row, column) = place(index, rows, columns);
        grid[row][column] = Some(name);
    }
    for row in grid {
        let cells: Vec<(usize, &String)> = row
            .iter()
            .enumerate()
            .filter_map(|(column, cell)| cell.map(|name| (column, name)))
            .collect();
        // Padding as GNU writes it: tabs (every 8 columns) while they do
        // not pass the next column's start, then spaces.
        let mut line = String::new();
        let mut at = 0;
        for (position, (column, name)) in cells.iter().enumerate() {
            line.push_str(name);
            let start = at;
            at += name.chars().count();
            if position + 1 < cells.len() {
                let target = start + column_widths[*column] + 2;
                while at < target {
                    if target / 8 > (at + 1) / 8 {
                        line.push('\t');
                        at += 8 - at % 8;
                    } else {
                        line.push(' ');
                        at += 1;
                    }
                }
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

// ----- mkdir, rmdir, rm -----

pub fn mkdir(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "m",
        &[
            ("parents", 'p', false),
            ("verbose", 'v', false),
            ("mode", 'm', true),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "mkdir", &message, 1),
    };
    if parsed.operands.is_empty() {
        return usage(shell, "mkdir", "missing operand", 1);
    }
    let mut status = 0;
    let mut report = String::new();
    for operand in &parsed.operands {
        let path = match resolve(shell, operand) {
            Ok(path) => path,
            Err(reason) => {
                status = shell.fail_command(
                    "mkdir",
                    &format!("cannot create directory '{operand}': {reason}"),
                    1,
                );
                continue;
            }
        };
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
                    Ok(()) => created.push(current.clone()),
                    Err(error) => {
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
            if result.is_ok() && parsed.has('v') {
                report.push_str(&format!("mkdir: created directory '{operand}'\n"));
            }
            result
        };
        if let Some(mode) = parsed.value('m')
            && let Some(bits) = parse_mode(mode, 0o755)
        {
            let _ = shell.context().vfs.lock().set_mode(&path, bits);
        }
        if let Err(error) = result {
            status = shell.fail_command(
                "mkdir",
                &format!(
                    "cannot create directory '{operand}': {}",
                    error.errno.strerror()
                ),
                1,
            );
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

pub fn rmdir(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("parents", 'p', false),
            ("verbose", 'v', false),
            ("ignore-fail-on-non-empty", 'I', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "rmdir", &message, 1),
    };
    if parsed.operands.is_empty() {
        return usage(shell, "rmdir", "missing operand", 1);
    }
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(mut path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        loop {
            let result = shell.context().vfs.lock().remove_dir(&path);
            if let Err(error) = result {
                if !(error.errno == Errno::NotEmpty && parsed.has('I')) {
                    status = shell.fail_command(
                        "rmdir",
                        &format!("failed to remove '{operand}': {}", error.errno.strerror()),
                        1,
                    );
                }
                break;
            }
            if !parsed.has('p') {
                break;
            }
            match path.parent() {
                Some(parent) if !parent.is_root() && parent != *shell.cwd() => path = parent,
                _ => break,
            }
        }
    }
    Ok(status)
}

pub fn rm(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("recursive", 'r', false),
            ("force", 'f', false),
            ("verbose", 'v', false),
            ("dir", 'd', false),
            ("interactive", 'i', false),
            ("no-preserve-root", 'N', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "rm", &message, 1),
    };
    let recursive = parsed.has('r') || parsed.has('R');
    let force = parsed.has('f');
    if parsed.operands.is_empty() {
        if force {
            return Ok(0);
        }
        return usage(shell, "rm", "missing operand", 1);
    }
    let mut status = 0;
    let mut report = String::new();
    for operand in &parsed.operands {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        if path.is_root() && recursive {
            status = shell.fail_command("rm", "it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe", 1);
            continue;
        }
        let node = shell.context().vfs.lock().lookup(&path);
        match node {
            Err(_) => {
                if !force {
                    status = shell.fail_command(
                        "rm",
                        &format!("cannot remove '{operand}': No such file or directory"),
                        1,
                    );
                }
            }
            Ok(Node::Dir(dir)) if !recursive => {
                if parsed.has('d') && dir.is_empty() {
                    let _ = shell.context().vfs.lock().remove_dir(&path);
                    if parsed.has('v') {
                        report.push_str(&format!("removed directory '{operand}'\n"));
                    }
                } else {
                    status = shell.fail_command(
                        "rm",
                        &format!("cannot remove '{operand}': Is a directory"),
                        1,
                    );
                }
            }
            Ok(node) => {
                if parsed.has('v') {
                    verbose_removals(&mut report, operand, &node);
                }
                let removed = shell.context().vfs.lock().remove_all(&path);
                if let Err(error) = removed {
                    status = shell.fail_command(
                        "rm",
                        &format!("cannot remove '{operand}': {}", error.errno.strerror()),
                        1,
                    );
                }
            }
        }
    }
    if !report.is_empty()
        && let Err(error) = shell.write_stdout(report.as_bytes())
    {
        return shell.io_status("rm", error);
    }
    Ok(status)
}

fn verbose_removals(report: &mut String, shown: &str, node: &Node) {
    if let Node::Dir(dir) = node {
        for (name, child) in dir.iter() {
            verbose_removals(
                report,
                &format!("{}/{name}", shown.trim_end_matches('/')),
                child,
            );
        }
        report.push_str(&format!("removed directory '{shown}'\n"));
    } else {
        report.push_str(&format!("removed '{shown}'\n"));
    }
}

// ----- cp, mv -----

fn copy_or_move(shell: &mut Shell, args: &[String], moving: bool) -> ExecResult {
    let name = if moving { "mv" } else { "cp" };
    let parsed = match getopt(
        args,
        "tS",
        &[
            ("recursive", 'r', false),
            ("force", 'f', false),
            ("no-clobber", 'n', false),
            ("verbose", 'v', false),
            ("archive", 'a', false),
            ("preserve", 'p', false),
            ("target-directory", 't', true),
            ("interactive", 'i', false),
            ("update", 'u', false),
            ("no-target-directory", 'T', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, name, &message, 1),
    };
    let recursive = moving || parsed.has('r') || parsed.has('R') || parsed.has('a');
    let mut operands = parsed.operands.clone();
    let target = match parsed.value('t') {
        Some(target) => target.to_string(),
        None => {
            if operands.len() < 2 {
                let message = if operands.is_empty() {
                    "missing file operand".to_string()
                } else {
                    format!("missing destination file operand after '{}'", operands[0])
                };
                return usage(shell, name, &message, 1);
            }
            operands.pop().expect("two operands")
        }
    };
    let Ok(target_path) = resolve(shell, &target) else {
        return Ok(shell.fail_command(name, &format!("cannot stat '{target}'"), 1));
    };
    let target_is_dir = shell.context().vfs.lock().is_dir(&target_path) && !parsed.has('T');
    if operands.len() > 1 && !target_is_dir {
        return Ok(shell.fail_command(name, &format!("target '{target}' is not a directory"), 1));
    }
    let mut status = 0;
    let mut report = String::new();
    for operand in &operands {
        let Ok(source) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let node = shell.context().vfs.lock().lookup(&source);
        let node = match node {
            Ok(node) => node,
            Err(_) => {
                status = shell.fail_command(
                    name,
                    &format!("cannot stat '{operand}': No such file or directory"),
                    1,
                );
                continue;
            }
        };
        if node.node_type() == NodeType::Directory && !recursive {
            status = shell.fail_command(
                name,
                &format!("-r not specified; omitting directory '{operand}'"),
                1,
            );
            continue;
        }
        let destination = if target_is_dir {
            match source.file_name() {
                Some(file) => target_path.join(file),
                None => target_path.clone(),
            }
        } else {
            target_path.clone()
        };
        if destination == source {
            if moving {
                continue;
            }
            status = shell.fail_command(
                name,
                &format!("'{operand}' and '{target}' are the same file"),
                1,
            );
            continue;
        }
        if destination.starts_with(&source) && node.node_type() == NodeType::Directory {
            status = shell.fail_command(
                name,
                &format!(
                    "cannot {} '{operand}' to a subdirectory of itself, '{target}'",
                    if moving { "move" } else { "copy a directory," }
                ),
                1,
            );
            continue;
        }
        let exists = shell.context().vfs.lock().lookup(&destination).ok();
        if let Some(existing) = &exists {
            if parsed.has('n') {
                continue;
            }
            if existing.node_type() == NodeType::Directory && node.node_type() == NodeType::File {
                status = shell.fail_command(
                    name,
                    &format!(
                        "cannot overwrite directory '{}' with non-directory",
                        destination
                    ),
                    1,
                );
                continue;
            }
        }
        let shown_destination = if target_is_dir {
            format!(
                "{}/{}",
                target.trim_end_matches('/'),
                source.file_name().unwrap_or("")
            )
        } else {
            target.clone()
        };
        let result = {
            let mut vfs = shell.context().vfs.lock();
            if moving {
                vfs.rename(&source, &destination)
            } else {
                match (&node, &exists) {
                    (Node::Dir(_), Some(Node::Dir(_))) => {
                        merge_copy(&mut vfs, &source, &destination)
                    }
                    _ => vfs.copy(&source, &destination),
                }
            }
        };
        match result {
            Ok(()) => {
                if parsed.has('v') {
                    if moving {
                        report.push_str(&format!("renamed '{operand}' -> '{shown_destination}'\n"));
                    } else {
                        report.push_str(&format!("'{operand}' -> '{shown_destination}'\n"));
                    }
                }
            }
            Err(error) => {
                status = shell.fail_command(
                    name,
                    &format!(
                        "cannot {} '{operand}': {}",
                        if moving { "move" } else { "copy" },
                        error.errno.strerror()
                    ),
                    1,
                );
            }
        }
    }
    if !report.is_empty()
        && let Err(error) = shell.write_stdout(report.as_bytes())
    {
        return shell.io_status(name, error);
    }
    Ok(status)
}

/// `cp -r dir existing-dir/dir`: merge into what is there.
fn merge_copy(
    vfs: &mut goccia_vfs::Vfs,
    source: &VfsPath,
    destination: &VfsPath,
) -> Result<(), goccia_vfs::FsError> {
    let Node::Dir(dir) = vfs.lookup(source)? else {
        return vfs.copy(source, destination);
    };
    for (name, child) in dir.iter() {
        let target = destination.join(name);
        match (child, vfs.lookup(&target).ok()) {
            (Node::Dir(_), Some(Node::Dir(_))) => merge_copy(vfs, &source.join(name), &target)?,
            _ => vfs.copy(&source.join(name), &target)?,
        }
    }
    Ok(())
}

pub fn cp(shell: &mut Shell, args: &[String]) -> ExecResult {
    copy_or_move(shell, args, false)
}

pub fn mv(shell: &mut Shell, args: &[String]) -> ExecResult {
    copy_or_move(shell, args, true)
}

// ----- touch, stat -----

pub fn touch(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "dtr",
        &[
            ("no-create", 'c', false),
            ("date", 'd', true),
            ("reference", 'r', true),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "touch", &message, 1),
    };
    if parsed.operands.is_empty() {
        return usage(shell, "touch", "missing file operand", 1);
    }
    let time = match (parsed.value('d'), parsed.value('t'), parsed.value('r')) {
        (Some(date), _, _) => super::parse_date(date).map(|s| s * 1_000_000_000),
        (_, Some(stamp), _) => super::parse_touch_stamp(stamp).map(|s| s * 1_000_000_000),
        (_, _, Some(reference)) => resolve(shell, reference)
            .ok()
            .and_then(|p| shell.context().vfs.lock().stat(&p).ok())
            .map(|s| s.mtime_ns),
        _ => None,
    };
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let mut vfs = shell.context().vfs.lock();
        let result = if vfs.exists(&path) {
            vfs.set_mtime(&path, time)
        } else if parsed.has('c') {
            Ok(())
        } else {
            vfs.write_file(&path, Vec::new()).and_then(|()| {
                if time.is_some() {
                    vfs.set_mtime(&path, time)
                } else {
                    Ok(())
                }
            })
        };
        drop(vfs);
        if let Err(error) = result {
            status = shell.fail_command(
                "touch",
                &format!("cannot touch '{operand}': {}", error.errno.strerror()),
                1,
            );
        }
    }
    Ok(status)
}

pub fn stat(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "c",
        &[
            ("format", 'c', true),
            ("printf", 'P', true),
            ("terse", 't', false),
            ("dereference", 'L', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "stat", &message, 1),
    };
    if parsed.operands.is_empty() {
        return usage(shell, "stat", "missing operand", 1);
    }
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        let node = resolve(shell, operand)
            .ok()
            .and_then(|p| shell.context().vfs.lock().lookup(&p).ok());
        let Some(node) = node else {
            status = shell.fail_command(
                "stat",
                &format!("cannot statx '{operand}': No such file or directory"),
                1,
            );
            continue;
        };
        let format = parsed
            .value('c')
            .map(|f| format!("{f}\n"))
            .or_else(|| parsed.value('P').map(|f| crate::escape::printf_format(f).0));
        match format {
            Some(format) => out.push_str(&stat_format(&format, operand, &node)),
            None => {
                let kind = if node.node_type() == NodeType::Directory {
                    "directory"
                } else if node_size(&node) == 0 {
                    "regular empty file"
                } else {
                    "regular file"
                };
                let time = super::strftime_utc(
                    "%Y-%m-%d %H:%M:%S.000000000 +0000",
                    node.meta().mtime_ns.div_euclid(1_000_000_000),
                );
                out.push_str(&format!(
                    "  File: {operand}\n  Size: {:<10}\tBlocks: {:<10} IO Block: 4096   {kind}\nDevice: 0,0\tInode: 1           Links: 1\nAccess: ({:04o}/{})  Uid: ( 1000/    user)   Gid: ( 1000/    user)\nAccess: {time}\nModify: {time}\nChange: {time}\n Birth: -\n",
                    node_size(&node),
                    node_size(&node).div_ceil(512),
                    node.meta().mode,
                    mode_string(&node)
                ));
            }
        }
    }
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("stat", error);
    }
    Ok(status)
}

fn stat_format(format: &str, name: &str, node: &Node) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    let meta = node.meta();
    let secs = meta.mtime_ns.div_euclid(1_000_000_000);
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') | Some('N') => out.push_str(name),
            Some('s') => out.push_str(&node_size(node).to_string()),
            Some('F') => out.push_str(match node {
                Node::Dir(_) => "directory",
                Node::File(file) if file.is_empty() => "regular empty file",
                Node::File(_) => "regular file",
            }),
            Some('a') => out.push_str(&format!("{:o}", meta.mode)),
            Some('A') => out.push_str(&mode_string(node)),
            Some('U') | Some('G') => out.push_str("user"),
            Some('u') | Some('g') => out.push_str("1000"),
            Some('h') => out.push_str(if node.node_type() == NodeType::Directory {
                "2"
            } else {
                "1"
            }),
            Some('i') => out.push('1'),
            Some('b') => out.push_str(&node_size(node).div_ceil(512).to_string()),
            Some('B') => out.push_str("512"),
            Some('Y') | Some('X') | Some('Z') | Some('W') => out.push_str(&secs.to_string()),
            Some('y') | Some('x') | Some('z') | Some('w') => out.push_str(&super::strftime_utc(
                "%Y-%m-%d %H:%M:%S.000000000 +0000",
                secs,
            )),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

// ----- tree, du, df -----

pub fn tree(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(args, "L", &[]) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "tree", &message, 1),
    };
    let depth_limit: usize = parsed
        .value('L')
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let operands = if parsed.operands.is_empty() {
        vec![".".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut out = String::new();
    let (mut dirs, mut files) = (0, 0);
    for operand in &operands {
        let node = resolve(shell, operand)
            .ok()
            .and_then(|p| shell.context().vfs.lock().lookup(&p).ok());
        match node {
            Some(Node::Dir(dir)) => {
                out.push_str(operand);
                out.push('\n');
                tree_walk(
                    &dir,
                    "",
                    &mut out,
                    &mut dirs,
                    &mut files,
                    parsed.has('a'),
                    parsed.has('d'),
                    1,
                    depth_limit,
                );
            }
            Some(Node::File(_)) => {
                out.push_str(&format!("{operand} [error opening dir]\n"));
            }
            None => out.push_str(&format!("{operand} [error opening dir]\n")),
        }
    }
    out.push_str(&format!(
        "\n{dirs} director{}, {files} file{}\n",
        if dirs == 1 { "y" } else { "ies" },
        if files == 1 { "" } else { "s" }
    ));
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("tree", error);
    }
    Ok(0)
}

#[allow(clippy::too_many_arguments)]
fn tree_walk(
    dir: &goccia_vfs::node::DirNode,
    prefix: &str,
    out: &mut String,
    dirs: &mut usize,
    files: &mut usize,
    all: bool,
    dirs_only: bool,
    depth: usize,
    limit: usize,
) {
    if depth > limit {
        return;
    }
    let entries: Vec<(&goccia_vfs::node::Name, &Node)> = dir
        .iter()
        .filter(|(name, _)| all || !name.starts_with('.'))
        .filter(|(_, node)| !dirs_only || node.node_type() == NodeType::Directory)
        .collect();
    for (i, (name, node)) in entries.iter().enumerate() {
        let last = i + 1 == entries.len();
        out.push_str(prefix);
        out.push_str(if last { "└── " } else { "├── " });
        out.push_str(name);
        out.push('\n');
        match node {
            Node::Dir(child) => {
                *dirs += 1;
                let next = format!("{prefix}{}", if last { "    " } else { "│   " });
                tree_walk(
                    child,
                    &next,
                    out,
                    dirs,
                    files,
                    all,
                    dirs_only,
                    depth + 1,
                    limit,
                );
            }
            Node::File(_) => *files += 1,
        }
    }
}

fn disk_usage(node: &Node) -> u64 {
    match node {
        Node::File(file) => file.len().div_ceil(4096) * 4,
        Node::Dir(dir) => 4 + dir.iter().map(|(_, child)| disk_usage(child)).sum::<u64>(),
    }
}

pub fn du(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "d",
        &[
            ("summarize", 's', false),
            ("human-readable", 'h', false),
            ("all", 'a', false),
            ("total", 'c', false),
            ("max-depth", 'd', true),
            ("bytes", 'b', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "du", &message, 1),
    };
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
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("du", error);
    }
    Ok(status)
}

fn apparent_size(node: &Node) -> u64 {
    match node {
        Node::File(file) => file.len(),
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
                Node::File(_) if all && max_depth.is_none_or(|m| depth < m) => {
                    lines.push((size_of(child), child_path))
                }
                Node::File(_) => {}
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

pub fn df(shell: &mut Shell, args: &[String]) -> ExecResult {
    let human = args.iter().any(|a| a == "-h");
    let vfs = shell.context().vfs.lock();
    let quota = vfs.quota();
    let used = vfs.usage().bytes;
    drop(vfs);
    let size = if quota.max_bytes == u64::MAX {
        1 << 40
    } else {
        quota.max_bytes
    };
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
    if let Err(error) = shell.write_stdout(text.as_bytes()) {
        return shell.io_status("df", error);
    }
    Ok(0)
}

// ----- paths -----

pub fn realpath(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("canonicalize-missing", 'm', false),
            ("canonicalize-existing", 'e', false),
            ("quiet", 'q', false),
            ("no-symlinks", 's', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "realpath", &message, 1),
    };
    if parsed.operands.is_empty() {
        return usage(shell, "realpath", "missing operand", 1);
    }
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let vfs = shell.context().vfs.lock();
        let ok = if parsed.has('m') {
            true
        } else if parsed.has('e') {
            vfs.exists(&path)
        } else {
            path.parent().is_none_or(|p| vfs.is_dir(&p))
        };
        drop(vfs);
        if ok {
            out.push_str(&format!("{path}\n"));
        } else {
            status = 1;
            if !parsed.has('q') {
                shell.fail_command(
                    "realpath",
                    &format!("{operand}: No such file or directory"),
                    1,
                );
            }
        }
    }
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("realpath", error);
    }
    Ok(status)
}

pub fn readlink(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("canonicalize", 'f', false),
            ("canonicalize-existing", 'e', false),
            ("canonicalize-missing", 'm', false),
            ("no-newline", 'n', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "readlink", &message, 1),
    };
    let canonical = parsed.has('f') || parsed.has('e') || parsed.has('m');
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        if !canonical {
            // There are no symlinks in the sandbox filesystem.
            status = 1;
            continue;
        }
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let vfs = shell.context().vfs.lock();
        let ok = if parsed.has('m') {
            true
        } else if parsed.has('e') {
            vfs.exists(&path)
        } else {
            path.parent().is_none_or(|p| vfs.is_dir(&p))
        };
        drop(vfs);
        if ok {
            out.push_str(path.as_ref());
            if !parsed.has('n') {
                out.push('\n');
            }
        } else {
            status = 1;
        }
    }
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("readlink", error);
    }
    Ok(status)
}

fn base_name(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let trimmed = text.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".to_string();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

pub fn basename(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "s",
        &[
            ("multiple", 'a', false),
            ("suffix", 's', true),
            ("zero", 'z', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "basename", &message, 1),
    };
    if parsed.operands.is_empty() {
        return usage(shell, "basename", "missing operand", 1);
    }
    let multiple = parsed.has('a') || parsed.value('s').is_some();
    let (names, suffix): (Vec<String>, Option<String>) = if multiple {
        (
            parsed.operands.clone(),
            parsed.value('s').map(str::to_string),
        )
    } else {
        if parsed.operands.len() > 2 {
            return usage(
                shell,
                "basename",
                &format!("extra operand '{}'", parsed.operands[2]),
                1,
            );
        }
        (
            vec![parsed.operands[0].clone()],
            parsed.operands.get(1).cloned(),
        )
    };
    let mut out = String::new();
    for name in names {
        let mut base = base_name(&name);
        if let Some(suffix) = &suffix
            && base.len() > suffix.len()
            && base.ends_with(suffix.as_str())
        {
            base.truncate(base.len() - suffix.len());
        }
        out.push_str(&base);
        out.push(if parsed.has('z') { '\0' } else { '\n' });
    }
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("basename", error);
    }
    Ok(0)
}

pub(crate) fn dir_name(text: &str) -> String {
    let trimmed = text.trim_end_matches('/');
    if trimmed.is_empty() {
        return if text.starts_with('/') {
            "/".to_string()
        } else {
            ".".to_string()
        };
    }
    match trimmed.rfind('/') {
        None => ".".to_string(),
        Some(index) => {
            let parent = trimmed[..index].trim_end_matches('/');
            if parent.is_empty() {
                "/".to_string()
            } else {
                parent.to_string()
            }
        }
    }
}

pub fn dirname(shell: &mut Shell, args: &[String]) -> ExecResult {
    let operands: Vec<&String> = args[1..]
        .iter()
        .filter(|a| !a.starts_with('-') || a.len() == 1)
        .collect();
    if operands.is_empty() {
        return usage(shell, "dirname", "missing operand", 1);
    }
    let text: String = operands
        .iter()
        .map(|o| format!("{}\n", dir_name(o)))
        .collect();
    if let Err(error) = shell.write_stdout(text.as_bytes()) {
        return shell.io_status("dirname", error);
    }
    Ok(0)
}

// ----- modes and odds -----

/// Parses a numeric or symbolic (`u+x,go-w`) mode against `current`.
pub(crate) fn parse_mode(text: &str, current: u32) -> Option<u32> {
    if !text.is_empty() && text.chars().all(|c| c.is_digit(8)) {
        return u32::from_str_radix(text, 8).ok();
    }
    let mut mode = current;
    for clause in text.split(',') {
        let chars: Vec<char> = clause.chars().collect();
        let mut i = 0;
        let mut who = 0u32;
        while i < chars.len() && "ugoa".contains(chars[i]) {
            who |= match chars[i] {
                'u' => 0o700,
                'g' => 0o070,
                'o' => 0o007,
                _ => 0o777,
            };
            i += 1;
        }
        if who == 0 {
            who = 0o777 & !0o022;
            who |= 0o700;
        }
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
            while i < chars.len() && "rwxX".contains(chars[i]) {
                bits |= match chars[i] {
                    'r' => 0o444,
                    'w' => 0o222,
                    _ => 0o111,
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

pub fn chmod(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut recursive = false;
    let mut rest = Vec::new();
    for arg in &args[1..] {
        match arg.as_str() {
            "-R" | "--recursive" => recursive = true,
            "-v" | "-f" | "-c" => {}
            _ => rest.push(arg.clone()),
        }
    }
    if rest.len() < 2 {
        return usage(shell, "chmod", "missing operand", 1);
    }
    let mode_text = rest.remove(0);
    let mut status = 0;
    for operand in &rest {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let mut vfs = shell.context().vfs.lock();
        let paths = if recursive {
            walk_paths(&vfs, &path)
        } else {
            vec![path.clone()]
        };
        if !vfs.exists(&path) {
            drop(vfs);
            status = shell.fail_command(
                "chmod",
                &format!("cannot access '{operand}': No such file or directory"),
                1,
            );
            continue;
        }
        for target in paths {
            let current = vfs.stat(&target).map(|s| s.mode).unwrap_or(0o644);
            match parse_mode(&mode_text, current) {
                Some(mode) => {
                    let _ = vfs.set_mode(&target, mode);
                }
                None => {
                    drop(vfs);
                    return Ok(shell.fail_command(
                        "chmod",
                        &format!("invalid mode: '{mode_text}'"),
                        1,
                    ));
                }
            }
        }
    }
    Ok(status)
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

pub fn chown(shell: &mut Shell, args: &[String]) -> ExecResult {
    let operands: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with('-')).collect();
    if operands.len() < 2 {
        return usage(shell, &args[0], "missing operand", 1);
    }
    let mut status = 0;
    for operand in &operands[1..] {
        let exists = resolve(shell, operand).is_ok_and(|p| shell.context().vfs.lock().exists(&p));
        if !exists {
            status = shell.fail_command(
                &args[0],
                &format!("cannot access '{operand}': No such file or directory"),
                1,
            );
        }
    }
    Ok(status)
}

pub fn ln(shell: &mut Shell, args: &[String]) -> ExecResult {
    let symbolic = args[1..]
        .iter()
        .any(|a| a.starts_with('-') && a.contains('s'));
    let operands: Vec<String> = args[1..]
        .iter()
        .filter(|a| !a.starts_with('-'))
        .cloned()
        .collect();
    if operands.len() < 2 {
        return usage(shell, "ln", "missing file operand", 1);
    }
    if symbolic {
        return Ok(shell.fail_command(
            "ln",
            "symbolic links are not supported in the sandbox filesystem",
            1,
        ));
    }
    // A hard link is a copy that shares content.
    let mut copy_args = vec!["cp".to_string()];
    copy_args.extend(operands);
    copy_or_move(shell, &copy_args, false)
}

pub fn mktemp(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "pt",
        &[
            ("directory", 'd', false),
            ("dry-run", 'u', false),
            ("quiet", 'q', false),
            ("tmpdir", 'p', true),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "mktemp", &message, 1),
    };
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
            Err(error) => Ok(shell.fail_command(
                "mktemp",
                &format!(
                    "failed to create file via template '{template}': {}",
                    error.errno.strerror()
                ),
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
        let amount = super::parse_size_suffix(digits)?;
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

pub fn truncate(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "sr",
        &[
            ("size", 's', true),
            ("reference", 'r', true),
            ("no-create", 'c', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "truncate", &message, 1),
    };
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
        if let Err(reason) = truncate_one(shell, &path, change, parsed.has('c')) {
            let message = format!("cannot open '{operand}' for writing: {reason}");
            status = shell.fail_command("truncate", &message, 1);
        }
    }
    Ok(status)
}

/// Resizes one file; the quota is checked before anything is allocated, so
/// `truncate -s 1T` fails with ENOSPC instead of taking the host's memory.
fn truncate_one(
    shell: &mut Shell,
    path: &goccia_vfs::VfsPath,
    change: SizeChange,
    no_create: bool,
) -> Result<(), &'static str> {
    let mut vfs = shell.context().vfs.lock();
    let current = match vfs.read_file(path) {
        Ok(data) => data,
        Err(_) if no_create => return Ok(()),
        Err(_) => bytes::Bytes::new(),
    };
    let target = change.apply(current.len() as u64);
    let growth = target.saturating_sub(current.len() as u64);
    if growth > vfs.remaining().max_bytes {
        return Err(goccia_vfs::Errno::NoSpc.strerror());
    }
    let mut data = current.to_vec();
    data.resize(target as usize, 0);
    vfs.write_file(path, data)
        .map_err(|error| error.errno.strerror())
}

pub fn file(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut out = String::new();
    for operand in args[1..].iter().filter(|a| !a.starts_with('-')) {
        let node = resolve(shell, operand)
            .ok()
            .and_then(|p| shell.context().vfs.lock().lookup(&p).ok());
        let kind = match node {
            None => format!("cannot open `{operand}' (No such file or directory)"),
            Some(Node::Dir(_)) => "directory".to_string(),
            Some(Node::File(file)) => describe_content(file.data()),
        };
        out.push_str(&format!("{operand}: {kind}\n"));
    }
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("file", error);
    }
    Ok(0)
}

fn describe_content(data: &[u8]) -> String {
    if data.is_empty() {
        return "empty".to_string();
    }
    if data.starts_with(b"#!") {
        let line = data.split(|b| *b == b'\n').next().unwrap_or(b"");
        let line = String::from_utf8_lossy(line);
        let interpreter = line[2..].trim().to_string();
        let program = interpreter
            .rsplit('/')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .next()
            .unwrap_or("");
        let program = if program == "env" {
            interpreter
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .to_string()
        } else {
            program.to_string()
        };
        return match program.as_str() {
            "bash" => "Bourne-Again shell script, ASCII text executable".to_string(),
            "sh" => "POSIX shell script, ASCII text executable".to_string(),
            other => format!("a {other} script, ASCII text executable"),
        };
    }
    if data.starts_with(b"\x89PNG") {
        return "PNG image data".to_string();
    }
    if data.starts_with(b"\x1f\x8b") {
        return "gzip compressed data".to_string();
    }
    if data.contains(&0) || std::str::from_utf8(data).is_err() {
        return "data".to_string();
    }
    if data.is_ascii() {
        "ASCII text".to_string()
    } else {
        "Unicode text, UTF-8 text".to_string()
    }
}
