//! `stat`: GNU coreutils 9.1's, over the VFS. A file's status in the
//! default layout, with `-c`/`--format` or `--printf` (every directive,
//! with printf's flags, width and precision) or `-t`; with `-f`, the file
//! system's. What the VFS does not keep is reported as GNU reports it where
//! a file system does not keep it: one device (0,0), inode 1, the birth
//! time unknown (`%W` 0, `%w` `-`), access and change times equal to the
//! modification time. Blocks are counted as a file system of 4 KiB blocks
//! (as `du` and `ls -s`), and the file system is a `tmpfs` of the
//! sandbox's quota (as `df`).

use crate::args::{parse_options, usage};
use crate::files::list::{kibibytes, link_count, mode_string, node_size};
use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::time::Zone;
use goccia_vfs::Node;

/// GNU's layouts, as formats of its own directives.
const FILE_LAYOUT: &str = "  File: %n\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n\
Device: %Hd,%Ld\tInode: %-11i Links: %h\n\
Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n\
Access: %x\nModify: %y\nChange: %z\n Birth: %w\n";
const FILE_TERSE: &str = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n";
const SYSTEM_LAYOUT: &str = "  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\n\
Block size: %-10s Fundamental block size: %S\nBlocks: Total: %-10b Free: %-10f Available: %a\n\
Inodes: Total: %-10c Free: %d\n";
const SYSTEM_TERSE: &str = "%n %i %l %t %s %S %b %f %a %c %d\n";

pub fn stat(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "c",
        &[
            ("format", 'c', true),
            ("printf", 'P', true),
            ("terse", 't', false),
            ("dereference", 'L', false),
            ("file-system", 'f', false),
        ]
    );
    if parsed.operands.is_empty() {
        return usage(shell, "stat", "missing operand", 1);
    }
    let file_system = parsed.has('f');
    // `-c`'s newline follows the format (a `%` that ends it is a `%`).
    let (format, trailer) = match (parsed.value('c'), parsed.value('P')) {
        (Some(format), _) => (format.to_string(), "\n"),
        (None, Some(format)) => (goccia_interp::escape::printf_format(format).0, ""),
        (None, None) => match (file_system, parsed.has('t')) {
            (false, false) => (FILE_LAYOUT.to_string(), ""),
            (false, true) => (FILE_TERSE.to_string(), ""),
            (true, false) => (SYSTEM_LAYOUT.to_string(), ""),
            (true, true) => (SYSTEM_TERSE.to_string(), ""),
        },
    };
    let default_layout = format == FILE_LAYOUT;
    let zone = shell.time_zone();
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        let node = resolve(shell, operand).ok().and_then(|path| {
            let vfs = shell.context().vfs.lock();
            if parsed.has('L') || file_system {
                vfs.lookup(&path).ok()
            } else {
                vfs.lookup_link(&path).ok()
            }
        });
        let Some(node) = node else {
            let message = if file_system {
                format!(
                    "cannot read file system information for '{operand}': No such file or directory"
                )
            } else {
                format!("cannot statx '{operand}': No such file or directory")
            };
            status = shell.fail_command("stat", &message, 1);
            continue;
        };
        if file_system {
            let system = System::of(shell);
            expand(&format, &mut out, |directive| {
                system.value(directive, operand)
            });
        } else {
            let file = File {
                name: operand,
                node: &node,
                zone: &zone,
                // GNU's layout names a link with its target.
                link_in_name: default_layout,
            };
            expand(&format, &mut out, |directive| file.value(directive));
        }
        out.push_str(trailer);
    }
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        return shell.io_status("stat", error);
    }
    Ok(status)
}

/// What a directive stands for: text, or a number (printf's numeric
/// flags apply), or seconds and nanoseconds (a precision adds a fraction).
enum Value {
    Text(String),
    Number(i128),
    Seconds(i64, u32),
}

/// A directive as written: its printf flags, width and precision, and its
/// letter (with GNU's `H`/`L` prefix for a device's major/minor).
struct Directive {
    flags: String,
    width: Option<usize>,
    precision: Option<usize>,
    letter: String,
}

/// Writes `format` with each `%` directive replaced by what `value` says
/// (`?` for a directive it does not know, as GNU writes one).
fn expand(format: &str, out: &mut String, value: impl Fn(&str) -> Option<Value>) {
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut directive = Directive {
            flags: String::new(),
            width: None,
            precision: None,
            letter: String::new(),
        };
        while let Some(&flag) = chars.peek().filter(|c| "-#0 +'I".contains(**c)) {
            directive.flags.push(flag);
            chars.next();
        }
        let digits = |chars: &mut std::iter::Peekable<std::str::Chars>| {
            let mut number = String::new();
            while let Some(&digit) = chars.peek().filter(|c| c.is_ascii_digit()) {
                number.push(digit);
                chars.next();
            }
            number
        };
        let width = digits(&mut chars);
        directive.width = width.parse().ok();
        if chars.peek() == Some(&'.') {
            chars.next();
            directive.precision = Some(digits(&mut chars).parse().unwrap_or(0));
        }
        match chars.next() {
            None => {
                out.push('%');
                out.push_str(&directive.flags);
                out.push_str(&width);
            }
            Some('%') => out.push('%'),
            Some(prefix @ ('H' | 'L')) => {
                directive.letter.push(prefix);
                if let Some(letter) = chars.next() {
                    directive.letter.push(letter);
                }
                render(out, &directive, value(&directive.letter));
            }
            Some(letter) => {
                directive.letter.push(letter);
                render(out, &directive, value(&directive.letter));
            }
        }
    }
}

/// One directive's value, formatted as printf formats it.
fn render(out: &mut String, directive: &Directive, value: Option<Value>) {
    let left = directive.flags.contains('-');
    let (text, numeric) = match value {
        None => ("?".to_string(), false),
        Some(Value::Text(text)) => match directive.precision {
            Some(precision) => (text.chars().take(precision).collect(), false),
            None => (text, false),
        },
        Some(Value::Number(number)) => {
            let sign = if number < 0 {
                "-"
            } else if directive.flags.contains('+') {
                "+"
            } else if directive.flags.contains(' ') {
                " "
            } else {
                ""
            };
            let digits = number.unsigned_abs().to_string();
            let digits = match directive.precision {
                Some(precision) => goccia_interp::pad::left_pad(&digits, precision, '0'),
                None => digits,
            };
            (format!("{sign}{digits}"), true)
        }
        Some(Value::Seconds(seconds, nanos)) => {
            let mut text = seconds.to_string();
            if let Some(precision) = directive.precision.filter(|p| *p > 0) {
                let fraction = format!("{nanos:09}");
                text.push('.');
                text.push_str(&fraction[..precision.min(9)]);
                text.extend(std::iter::repeat_n('0', precision.saturating_sub(9)));
            }
            (text, true)
        }
    };
    let width = directive.width.unwrap_or(0);
    if left {
        out.push_str(&goccia_interp::pad::right_pad(&text, width, ' '));
    } else if numeric && directive.flags.contains('0') && directive.precision.is_none() {
        // Zeros go after the sign.
        let (sign, digits) = match text.strip_prefix(['-', '+', ' ']) {
            Some(digits) => text.split_at(text.len() - digits.len()),
            None => ("", text.as_str()),
        };
        out.push_str(sign);
        out.push_str(&goccia_interp::pad::left_pad(
            digits,
            width.saturating_sub(sign.len()),
            '0',
        ));
    } else {
        out.push_str(&goccia_interp::pad::left_pad(&text, width, ' '));
    }
}

/// A file, for its directives.
struct File<'a> {
    name: &'a str,
    node: &'a Node,
    zone: &'a Zone,
    link_in_name: bool,
}

impl File<'_> {
    fn value(&self, directive: &str) -> Option<Value> {
        let meta = self.node.meta();
        let (seconds, nanos) = (
            meta.mtime_ns.div_euclid(1_000_000_000),
            meta.mtime_ns.rem_euclid(1_000_000_000) as u32,
        );
        let type_bits = match self.node {
            Node::File(_) => 0o100000,
            Node::Dir(_) => 0o040000,
            Node::Link(_) => 0o120000,
        };
        let text = |text: &str| Some(Value::Text(text.to_string()));
        let number = |number: u64| Some(Value::Number(i128::from(number)));
        match directive {
            "n" => match self.node {
                Node::Link(link) if self.link_in_name => {
                    text(&format!("{} -> {}", self.name, link.target()))
                }
                _ => text(self.name),
            },
            "N" => match self.node {
                Node::Link(link) => text(&format!("'{}' -> '{}'", self.name, link.target())),
                _ => text(&format!("'{}'", self.name)),
            },
            "s" => number(node_size(self.node)),
            "b" => number(kibibytes(self.node) * 2),
            "B" => number(512),
            "o" => number(4096),
            "F" => text(match self.node {
                Node::Dir(_) => "directory",
                Node::Link(_) => "symbolic link",
                Node::File(file) if file.is_empty() => "regular empty file",
                Node::File(_) => "regular file",
            }),
            "a" => text(&format!("{:o}", meta.mode)),
            "A" => text(&mode_string(self.node)),
            "f" => text(&format!("{:x}", type_bits | meta.mode)),
            "u" | "g" => number(1000),
            "U" | "G" => text("user"),
            "h" => number(link_count(self.node)),
            "i" => number(1),
            "d" | "Hd" | "Ld" | "Hr" | "Lr" | "r" => number(0),
            "D" | "t" | "T" | "R" => text("0"),
            "m" => text("/"),
            "X" | "Y" | "Z" => Some(Value::Seconds(seconds, nanos)),
            "x" | "y" | "z" => text(&goccia_interp::time::strftime(
                "%Y-%m-%d %H:%M:%S.%N %z",
                goccia_interp::time::at(seconds, nanos),
                self.zone,
            )),
            "W" => number(0),
            "w" => text("-"),
            _ => None,
        }
    }
}

/// The VFS as a file system: a `tmpfs` of the sandbox's quota, in 4 KiB
/// blocks (as `df` shows it); an unlimited number of files shows as
/// `tmpfs` shows one, as 0 inodes.
struct System {
    blocks: u64,
    free: u64,
    inodes: u64,
    free_inodes: u64,
}

impl System {
    fn of(shell: &ShellView) -> Self {
        let vfs = shell.context().vfs.lock();
        let (quota, usage) = (vfs.quota(), vfs.usage());
        let size = crate::files::info::file_system_size(&quota);
        let (inodes, free_inodes) = if quota.max_nodes == u64::MAX {
            (0, 0)
        } else {
            (quota.max_nodes, quota.max_nodes.saturating_sub(usage.nodes))
        };
        System {
            blocks: size / 4096,
            free: size.saturating_sub(usage.bytes) / 4096,
            inodes,
            free_inodes,
        }
    }

    fn value(&self, directive: &str, name: &str) -> Option<Value> {
        let number = |number: u64| Some(Value::Number(i128::from(number)));
        match directive {
            "n" => Some(Value::Text(name.to_string())),
            "i" => Some(Value::Text("0".to_string())),
            "l" => number(255),
            "t" => Some(Value::Text("1021994".to_string())),
            "T" => Some(Value::Text("tmpfs".to_string())),
            "s" | "S" => number(4096),
            "b" => number(self.blocks),
            "f" | "a" => number(self.free),
            "c" => number(self.inodes),
            "d" => number(self.free_inodes),
            _ => None,
        }
    }
}
