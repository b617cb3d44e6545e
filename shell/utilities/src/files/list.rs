//! Listing: `ls` and `tree`.

use crate::args::Out;
use crate::args::buffered;
use crate::args::check_flags;
use crate::args::finish;
use crate::args::parse_options;
use crate::args::usage;
use crate::files::ls_colors::{self, Colors, Kind, shown_width};
use crate::files::ls_options::{self, Extras};
use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::time::Zone;
use goccia_vfs::{Node, NodeType, VfsPath};
use std::io::Write;

struct Entry {
    name: String,
    path: VfsPath,
    node: Node,
}

/// Colours names for `--color=always` (a name as it is otherwise).
struct Painter {
    colors: Option<Colors>,
    vfs: goccia_vfs::SharedVfs,
}

impl Painter {
    /// `shown` (the entry's name as the listing writes it) coloured for
    /// what the entry is.
    fn entry(&self, shown: String, entry: &Entry) -> String {
        let Some(colors) = &self.colors else {
            return shown;
        };
        let target = self.target_of(entry);
        colors.paint(
            &shown,
            &entry.name,
            Kind::Entry(&entry.node, target.as_ref()),
        )
    }

    /// A link's name and its target as `ls -l` writes them (`shown`,
    /// `shown_target`), coloured from one lookup of what it points at;
    /// the name first, so the first colour written gets the reset.
    fn link(&self, shown: String, shown_target: String, entry: &Entry) -> (String, String) {
        let (Some(colors), Node::Link(link)) = (&self.colors, &entry.node) else {
            return (shown, shown_target);
        };
        let target = self.target_of(entry);
        let name = colors.paint(
            &shown,
            &entry.name,
            Kind::Entry(&entry.node, target.as_ref()),
        );
        let target = colors.paint(&shown_target, link.target(), Kind::Target(target.as_ref()));
        (name, target)
    }

    /// What a link points at, when it is there.
    fn target_of(&self, entry: &Entry) -> Option<Node> {
        match entry.node {
            Node::Link(_) => self.vfs.lock().lookup(&entry.path).ok(),
            _ => None,
        }
    }
}

pub(crate) fn mode_string(node: &Node) -> String {
    let mut out = String::with_capacity(10);
    out.push(match node.node_type() {
        NodeType::Directory => 'd',
        NodeType::Symlink => 'l',
        NodeType::File => '-',
    });
    out.push_str(&permission_string(node.meta().mode));
    out
}

/// The nine permission letters of `mode`, as `ls -l` and `chmod -v` show
/// them (`rwxr-x---`).
pub(crate) fn permission_string(mode: u32) -> String {
    let mut out = String::with_capacity(9);
    // setuid, setgid and sticky show in the execute column: lower case
    // over an execute bit, upper case without one.
    for (shift, special, letter) in [(6, 0o4000, 's'), (3, 0o2000, 's'), (0, 0o1000, 't')] {
        let bits = (mode >> shift) & 7;
        out.push(if bits & 4 != 0 { 'r' } else { '-' });
        out.push(if bits & 2 != 0 { 'w' } else { '-' });
        out.push(match (bits & 1 != 0, mode & special != 0) {
            (true, true) => letter,
            (false, true) => letter.to_ascii_uppercase(),
            (true, false) => 'x',
            (false, false) => '-',
        });
    }
    out
}

pub(crate) fn node_size(node: &Node) -> u64 {
    match node {
        Node::File(file) => file.len(),
        Node::Dir(_) => 4096,
        Node::Link(link) => link.target().len() as u64,
    }
}

/// The zone and the moment one `ls` shows its times against (read once,
/// not per file).
struct Clock {
    zone: Zone,
    now_ns: i64,
    style: ls_options::TimeStyle,
}

impl Clock {
    fn of(shell: &ShellView, extras: &Extras) -> Clock {
        Clock {
            style: extras.time_style.clone(),
            zone: shell.time_zone(),
            now_ns: goccia_interp::time::now()
                .timestamp_nanos_opt()
                .unwrap_or(i64::MAX),
        }
    }

    /// `ls -l`'s time: the hour for a file changed in the last six months
    /// (GNU's half of a Gregorian year), else the year, as GNU ls shows it.
    fn format(&self, mtime_ns: i64) -> String {
        const SIX_MONTHS_NS: i64 = 31_556_952 / 2 * 1_000_000_000;
        let recent = self.now_ns - SIX_MONTHS_NS < mtime_ns && mtime_ns <= self.now_ns;
        self.style.format(mtime_ns, recent, &self.zone)
    }
}

/// Whether `ls` lists in the long form: `-l`, or `-n`, `-g` and `-o`,
/// which imply it.
fn long_form(parsed: &crate::args::Parsed) -> bool {
    ['l', 'n', 'g', 'o']
        .into_iter()
        .any(|flag| parsed.has(flag))
}

pub fn ls(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut parsed = parse_options!(status 2; shell, args,
        ls_options::WITH_VALUE,
        ls_options::LONGS);
    let mut extras = match ls_options::normalise(&mut parsed) {
        Ok(extras) => extras,
        Err(refusal) if refusal.hint => {
            return usage(shell, "ls", &refusal.message, refusal.status);
        }
        Err(refusal) => return Ok(shell.fail_command("ls", &refusal.message, refusal.status)),
    };
    if let Err(message) = check_flags(&parsed, ls_options::LETTERS) {
        return usage(shell, "ls", &message, 2);
    }
    // Without an option, `LS_BLOCK_SIZE` then `BLOCK_SIZE` say, as GNU's
    // (one GNU cannot read means units of 1024, without a suffix).
    if extras.sizes.is_none() {
        extras.sizes = ["LS_BLOCK_SIZE", "BLOCK_SIZE"]
            .into_iter()
            .find_map(|name| shell.get_var(name).filter(|value| !value.is_empty()))
            .map(|value| {
                ls_options::SizeScale::parse(&value).unwrap_or(ls_options::SizeScale::Units {
                    unit: 1024,
                    suffix: String::new(),
                })
            });
    }
    let operands = if parsed.operands.is_empty() {
        vec![".".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let mut status = 0;
    // A link named on the command line is listed as what it points at
    // when that is a folder, unless -l, -d or -F ask about the link itself.
    let about_links = long_form(&parsed) || parsed.has('d') || parsed.has('F');
    let follow = parsed.has('L');
    for operand in &operands {
        let node = resolve(shell, operand).ok().and_then(|p| {
            let vfs = shell.context().vfs.lock();
            let node = vfs.lookup_link(&p).ok()?;
            if follow && let Ok(target) = vfs.lookup(&p) {
                return Some((p, target));
            }
            if matches!(node, Node::Link(_))
                && !about_links
                && let Ok(target @ Node::Dir(_)) = vfs.lookup(&p)
            {
                return Some((vfs.resolve(&p, true).unwrap_or(p), target));
            }
            Some((p, node))
        });
        // The shell's devices have no node: listed as empty files.
        let node = node.or_else(|| {
            let path = VfsPath::parse(operand).ok()?;
            goccia_interp::interp::is_device(operand).then(|| {
                let meta = goccia_vfs::node::Meta {
                    mode: 0o666,
                    mtime_ns: 0,
                };
                let file = goccia_vfs::node::FileNode::new(Default::default(), meta);
                (path, Node::File(std::sync::Arc::new(file)))
            })
        });
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
    let clock = Clock::of(shell, &extras);
    let environment = shell.exported();
    let variable = |wanted: &str| {
        environment
            .iter()
            .find_map(|(name, value)| (name == wanted).then_some(value.as_str()))
    };
    let ls_colors = variable("LS_COLORS");
    let colors = (extras.color
        && ls_colors::colours_for(ls_colors, variable("COLORTERM"), variable("TERM")))
    .then(|| {
        let colors = Colors::new(ls_colors);
        if colors.is_none() {
            shell.write_stderr(b"ls: unparsable value for LS_COLORS environment variable\n");
        }
        colors
    });
    let painter = Painter {
        colors: colors.flatten(),
        vfs: shell.context().vfs.clone(),
    };
    let mut out = buffered(shell);
    sort_entries(&mut files, &parsed, &extras);
    sort_entries(&mut dirs, &parsed, &extras);
    let result = (|| -> std::io::Result<()> {
        if !files.is_empty() {
            write_entries(&mut out, &files, &parsed, &extras, false, &clock, &painter)?;
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
            let mut children = list_dir(shell, &dir, &parsed, &extras);
            sort_entries(&mut children, &parsed, &extras);
            write_entries(
                &mut out, &children, &parsed, &extras, true, &clock, &painter,
            )?;
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

fn list_dir(
    shell: &ShellView,
    dir: &Entry,
    parsed: &crate::args::Parsed,
    extras: &Extras,
) -> Vec<Entry> {
    let Node::Dir(node) = &dir.node else {
        return Vec::new();
    };
    let all = parsed.has('a') || parsed.has('A');
    let shown = |name: &str| {
        (all || !name.starts_with('.'))
            && !extras.ignore.iter().any(|pattern| pattern.matches(name))
            && (all || !extras.hide.iter().any(|pattern| pattern.matches(name)))
    };
    let mut entries: Vec<Entry> = node
        .iter()
        .filter(|(name, _)| shown(name))
        .map(|(name, child)| Entry {
            name: name.to_string(),
            path: dir.path.join(name),
            node: child.clone(),
        })
        .collect();
    if parsed.has('L') {
        // `-L`: a link is listed as what it points at, when that is there.
        let vfs = shell.context().vfs.lock();
        for entry in &mut entries {
            if matches!(entry.node, Node::Link(_))
                && let Ok(target) = vfs.lookup(&entry.path)
            {
                entry.node = target;
            }
        }
    }
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
        // `-I` hides the implied entries too.
        entries.retain(|entry| {
            !extras
                .ignore
                .iter()
                .any(|pattern| pattern.matches(&entry.name))
        });
    }
    entries
}

fn sort_entries(entries: &mut [Entry], parsed: &crate::args::Parsed, extras: &Extras) {
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
    } else if parsed.has('X') {
        entries.sort_by(|a, b| {
            ls_options::extension(&a.name)
                .cmp(ls_options::extension(&b.name))
                .then_with(|| a.name.cmp(&b.name))
        });
    } else if extras.by_width {
        entries.sort_by(|a, b| {
            (a.name.chars().count(), &a.name).cmp(&(b.name.chars().count(), &b.name))
        });
    } else if parsed.has('v') {
        entries.sort_by(|a, b| crate::text::sort::version_cmp(&a.name, &b.name));
    } else {
        entries.sort_by(|a, b| a.name.cmp(&b.name));
    }
    if parsed.has('r') {
        entries.reverse();
    }
    if extras.folders_first {
        // Stable: each group keeps the order above.
        entries.sort_by_key(|entry| entry.node.node_type() != NodeType::Directory);
    }
}

fn write_entries(
    out: &mut Out,
    entries: &[Entry],
    parsed: &crate::args::Parsed,
    extras: &Extras,
    in_dir: bool,
    clock: &Clock,
    painter: &Painter,
) -> std::io::Result<()> {
    let classify = parsed.has('F') || extras.file_type_only;
    let suffix = |entry: &Entry| -> &'static str {
        match entry.node.node_type() {
            NodeType::Directory if classify || parsed.has('p') => "/",
            NodeType::File
                if parsed.has('F')
                    && !extras.file_type_only
                    && entry.node.meta().mode & 0o111 != 0 =>
            {
                "*"
            }
            NodeType::Symlink if classify && !long_form(parsed) => "@",
            _ => "",
        }
    };
    // `-q`: a character that does not print is `?` (`-Q` writes them as
    // escapes instead).
    let hide_control = extras.hide_control;
    let named = |name: &str| match parsed.has('Q') {
        true => ls_options::quoted(name),
        false if hide_control => name
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect(),
        false => name.to_string(),
    };
    let scale = extras.sizes.clone().unwrap_or(ls_options::SizeScale::Plain);
    // `-s`: each entry's blocks (KiB by default), in a column as wide as
    // the widest; with -l or -s a folder's listing starts with their
    // total (of the bytes, then rounded, as GNU adds them).
    let blocks: Vec<String> = entries
        .iter()
        .map(|entry| scale.blocks(kibibytes(&entry.node) * 1024))
        .collect();
    let blocks_width = blocks.iter().map(String::len).max().unwrap_or(0);
    let block = |index: usize| {
        if parsed.has('s') {
            format!(
                "{} ",
                goccia_interp::pad::left_pad(&blocks[index], blocks_width, ' ')
            )
        } else {
            String::new()
        }
    };
    if in_dir && (long_form(parsed) || parsed.has('s')) {
        let total: u64 = entries.iter().map(|e| kibibytes(&e.node)).sum();
        writeln!(out, "total {}", scale.blocks(total * 1024))?;
    }
    if long_form(parsed) {
        // Owner and group: the sandbox user's, by name or (`-n`) number;
        // `-g` leaves out the owner, `-o` the group.
        let owner = if parsed.has('n') { "1000" } else { "user" };
        let mut owners = String::new();
        let no_group = parsed.has('o') || parsed.has('G');
        for (shown, left_out) in [(owner, parsed.has('g')), (owner, no_group)] {
            if !left_out {
                owners.push(' ');
                owners.push_str(shown);
            }
        }
        // Link counts and sizes right-aligned to the widest, as GNU.
        let links: Vec<String> = entries
            .iter()
            .map(|e| link_count(&e.node).to_string())
            .collect();
        let sizes: Vec<String> = entries
            .iter()
            .map(|e| scale.size(node_size(&e.node)))
            .collect();
        let links_width = links.iter().map(String::len).max().unwrap_or(0);
        let size_width = sizes.iter().map(String::len).max().unwrap_or(0);
        for (index, entry) in entries.iter().enumerate() {
            let (name, target) = match &entry.node {
                Node::Link(link) => {
                    let (name, target) =
                        painter.link(named(&entry.name), named(link.target()), entry);
                    (name, format!(" -> {target}"))
                }
                _ => (painter.entry(named(&entry.name), entry), String::new()),
            };
            writeln!(
                out,
                "{}{} {}{owners} {} {} {}{}{target}",
                block(index),
                mode_string(&entry.node),
                goccia_interp::pad::left_pad(&links[index], links_width, ' '),
                goccia_interp::pad::left_pad(&sizes[index], size_width, ' '),
                clock.format(entry.node.meta().mtime_ns),
                name,
                suffix(entry)
            )?;
        }
        return Ok(());
    }
    if parsed.has('m') {
        let names: Vec<String> = entries
            .iter()
            .map(|e| format!("{}{}", painter.entry(named(&e.name), e), suffix(e)))
            .collect();
        return write_commas(out, &names, extras);
    }
    let names: Vec<String> = entries
        .iter()
        .enumerate()
        .map(|(index, e)| {
            let name = painter.entry(named(&e.name), e);
            format!("{}{name}{}", block(index), suffix(e))
        })
        .collect();
    // The last of `-1`, `-C` and `-x` decides the layout.
    let layout = parsed
        .flags
        .iter()
        .rev()
        .find(|f| matches!(f, '1' | 'C' | 'x'));
    if let Some(layout @ ('C' | 'x')) = layout {
        return write_columns(out, &names, *layout == 'x', extras);
    }
    for name in names {
        writeln!(out, "{name}")?;
    }
    Ok(())
}

/// KiB a file system of 4 KiB blocks gives `node` (as `du` counts).
pub(crate) fn kibibytes(node: &Node) -> u64 {
    match node {
        Node::File(file) => file.len().div_ceil(4096) * 4,
        Node::Dir(_) => 4,
        Node::Link(_) => 0,
    }
}

/// Hard links as a POSIX file system counts them: a folder's `.`, its
/// entry in its parent and each subfolder's `..`; one for anything else
/// (the VFS has no hard links).
pub(crate) fn link_count(node: &Node) -> u64 {
    match node {
        Node::Dir(dir) => {
            2 + dir
                .iter()
                .filter(|(_, child)| matches!(child, Node::Dir(_)))
                .count() as u64
        }
        _ => 1,
    }
}

/// `-m`: the names separated by commas, a line broken after a comma
/// where the next name would reach the width, as GNU's `ls` fills it.
fn write_commas(out: &mut Out, names: &[String], extras: &Extras) -> std::io::Result<()> {
    let line_width = extras.line_width();
    let mut column = 0;
    for (index, name) in names.iter().enumerate() {
        let length = shown_width(name);
        if index > 0 {
            if column + length + 2 < line_width {
                out.write_all(b", ")?;
                column += 2;
            } else {
                out.write_all(b",\n")?;
                column = 0;
            }
        }
        out.write_all(name.as_bytes())?;
        column += length;
    }
    out.write_all(b"\n")
}

/// GNU's column layout: as many columns as fit in the line width, each as
/// wide as its longest name plus two spaces (the last column unpadded),
/// filled down the columns (`-C`) or across the rows (`-x`).
fn write_columns(
    out: &mut Out,
    names: &[String],
    across: bool,
    extras: &Extras,
) -> std::io::Result<()> {
    // Coloured names are padded with spaces only, as GNU pads them.
    let tab = if extras.color { 0 } else { extras.tab_size };
    let line_width = extras.line_width();
    if names.is_empty() {
        return Ok(());
    }
    let widths: Vec<usize> = names.iter().map(|n| shown_width(n)).collect();
    let place = |index: usize, rows: usize, columns: usize| {
        if across {
            (index / columns, index % columns)
        } else {
            (index % rows, index / rows)
        }
    };
    let mut chosen = (names.len(), 1, vec![0]);
    for columns in (1..=names.len().clamp(1, (line_width / 3).max(1))).rev() {
        let rows = names.len().div_ceil(columns);
        let mut column_widths = vec![0usize; columns];
        for (index, width) in widths.iter().enumerate() {
            let (_, column) = place(index, rows, columns);
            column_widths[column] = column_widths[column].max(*width);
        }
        let used = column_widths.iter().filter(|w| **w > 0).count();
        let total: usize = column_widths.iter().sum::<usize>() + 2 * used.saturating_sub(1);
        if total < line_width || columns == 1 {
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
            at += shown_width(name);
            if position + 1 < cells.len() {
                let target = start + column_widths[*column] + 2;
                while at < target {
                    if tab > 0 && target / tab > (at + 1) / tab {
                        line.push('\t');
                        at += tab - at % tab;
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

pub fn tree(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(shell, args, "L", &[]);
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
            Some(Node::File(_) | Node::Link(_)) => {
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
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&out)) {
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
        if let Node::Link(link) = node {
            out.push_str(" -> ");
            out.push_str(link.target());
        }
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
            Node::File(_) | Node::Link(_) => *files += 1,
        }
    }
}
