//! `-printf`: GNU find's directives, each with the `-` flag, a width and
//! a precision (`%-8f`, `%8.2f`). Every directive yields text, so the
//! other flags of C's printf change nothing here either, as in GNU find;
//! `#` gives `%m` its leading zero.

use goccia_vfs::{Node, NodeType};

use super::Visit;
use goccia_interp::time::Zone;

/// A `-printf` format, read once when the expression is parsed (not for
/// every entry the walk visits).
#[derive(Clone, Debug)]
pub(super) struct Format(Vec<Piece>);

/// A piece of a `-printf` format: text, or a directive with its flags.
#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    Directive {
        left: bool,
        alternate: bool,
        width: usize,
        precision: Option<usize>,
        directive: char,
        /// The letter after `%A`, `%C`, `%T`.
        letter: Option<char>,
        /// As written, printed as is when GNU find does not know it.
        raw: String,
    },
}

fn pieces(format: &str) -> Vec<Piece> {
    let (format, _) = goccia_interp::escape::printf_format(format);
    let chars: Vec<char> = format.chars().collect();
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut at = 0;
    while at < chars.len() {
        if chars[at] != '%' {
            text.push(chars[at]);
            at += 1;
            continue;
        }
        let start = at;
        at += 1;
        let (mut left, mut alternate) = (false, false);
        while let Some(flag @ ('-' | '+' | ' ' | '#' | '0')) = chars.get(at) {
            left |= *flag == '-';
            alternate |= *flag == '#';
            at += 1;
        }
        let width = digits(&chars, &mut at).unwrap_or(0);
        let precision = if chars.get(at) == Some(&'.') {
            at += 1;
            Some(digits(&chars, &mut at).unwrap_or(0))
        } else {
            None
        };
        let Some(&directive) = chars.get(at) else {
            text.extend(&chars[start..]);
            break;
        };
        at += 1;
        let letter = if matches!(directive, 'A' | 'C' | 'T') {
            at += 1;
            chars.get(at - 1).copied()
        } else {
            None
        };
        if !text.is_empty() {
            pieces.push(Piece::Text(std::mem::take(&mut text)));
        }
        pieces.push(Piece::Directive {
            left,
            alternate,
            width,
            precision,
            directive,
            letter,
            raw: chars[start..at.min(chars.len())].iter().collect(),
        });
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    pieces
}

fn known(directive: char, letter: Option<char>) -> bool {
    match directive {
        // An unknown letter goes to strftime, which prints it as written.
        'A' | 'C' | 'T' => letter.is_some(),
        other => "%pfhHPskblndyYmMugUGact".contains(other),
    }
}

/// The strftime letters `%T` passes on (GNU's `@`, `+`, `S`, `T` and `X`
/// are its own, with fractions).
const TIME_LETTERS: &str = "aAbBcdDhHIjklmMprsUwWxyYzZ";

impl Format {
    pub(super) fn parse(format: &str) -> Self {
        Format(pieces(format))
    }

    /// The directives GNU find does not know (it warns of each once,
    /// before it walks, and prints them as written).
    pub(super) fn unknown_directives(&self) -> Vec<String> {
        self.0
            .iter()
            .filter_map(|piece| match piece {
                Piece::Directive {
                    directive, letter, ..
                } if !known(*directive, *letter) => Some(format!("%{directive}")),
                _ => None,
            })
            .collect()
    }

    /// The format filled in for `visit`.
    pub(super) fn render(&self, visit: &Visit<'_>, zone: &Zone) -> String {
        let mut out = String::new();
        for piece in &self.0 {
            let Piece::Directive {
                left,
                alternate,
                width,
                precision,
                directive,
                letter,
                raw,
            } = piece
            else {
                if let Piece::Text(text) = piece {
                    out.push_str(text);
                }
                continue;
            };
            let text = match (*directive, *letter) {
                ('%', _) => Some("%".to_string()),
                ('A' | 'C' | 'T', Some(letter)) => Some(time_field(letter, visit, zone)),
                ('A' | 'C' | 'T', None) => None,
                (other, _) => field(other, *alternate, visit, zone),
            };
            let Some(mut text) = text else {
                out.push_str(raw);
                continue;
            };
            if let Some(keep) = precision {
                text = text.chars().take(*keep).collect();
            }
            out.push_str(&if *left {
                goccia_interp::pad::right_pad(&text, *width, ' ')
            } else {
                goccia_interp::pad::left_pad(&text, *width, ' ')
            });
        }
        out
    }
}

fn digits(chars: &[char], at: &mut usize) -> Option<usize> {
    let start = *at;
    while chars.get(*at).is_some_and(char::is_ascii_digit) {
        *at += 1;
    }
    chars[start..*at].iter().collect::<String>().parse().ok()
}

/// A directive's text, `None` for one GNU find does not know.
fn field(directive: char, alternate: bool, visit: &Visit<'_>, zone: &Zone) -> Option<String> {
    let meta = visit.node.meta();
    Some(match directive {
        'p' => visit.shown.clone(),
        'f' => file_name(visit),
        'h' => crate::files::names::dir_name(&visit.shown),
        'H' => visit.start.to_string(),
        'P' => visit
            .shown
            .strip_prefix(visit.start)
            .unwrap_or(&visit.shown)
            .trim_start_matches('/')
            .to_string(),
        's' => crate::files::list::node_size(visit.node).to_string(),
        // Blocks as a 4 KiB-block file system counts them (as `du` here).
        'k' => crate::files::list::kibibytes(visit.node).to_string(),
        'b' => (crate::files::list::kibibytes(visit.node) * 2).to_string(),
        'l' => match visit.node {
            Node::Link(link) => link.target().to_string(),
            _ => String::new(),
        },
        'd' => visit.depth.to_string(),
        'n' => crate::files::list::link_count(visit.node).to_string(),
        'y' => kind(visit.node.node_type()).to_string(),
        // What a link points at (the VFS resolves links inside the
        // sandbox; the walk already followed those it should).
        'Y' => kind(visit.node.node_type()).to_string(),
        'm' if alternate => format!("{:#o}", meta.mode & 0o7777).replacen("0o", "0", 1),
        'm' => format!("{:o}", meta.mode & 0o7777),
        'M' => crate::files::list::mode_string(visit.node),
        'u' | 'g' => "user".to_string(),
        'U' | 'G' => "1000".to_string(),
        // GNU find shows ten digits of the second: the nanoseconds and a
        // zero. The VFS keeps one time: access and change are it too.
        'a' | 'c' | 't' => strftime("%a %b %e %H:%M:%S.%N0 %Y", meta.mtime_ns, zone),
        _ => return None,
    })
}

/// `%Tk` (and `%Ak`, `%Ck`): one field of the time, as strftime's `%k`
/// names it, with GNU's fractional seconds and its `@` and `+`.
fn time_field(letter: char, visit: &Visit<'_>, zone: &Zone) -> String {
    let nanos = visit.node.meta().mtime_ns;
    match letter {
        '@' => format!(
            "{}.{:09}0",
            nanos.div_euclid(1_000_000_000),
            nanos.rem_euclid(1_000_000_000)
        ),
        '+' => strftime("%Y-%m-%d+%H:%M:%S.%N0", nanos, zone),
        'S' => strftime("%S.%N0", nanos, zone),
        'T' | 'X' => strftime("%H:%M:%S.%N0", nanos, zone),
        letter if TIME_LETTERS.contains(letter) => strftime(&format!("%{letter}"), nanos, zone),
        // glibc's strftime copies a conversion it does not know.
        other => format!("%{other}"),
    }
}

fn strftime(format: &str, nanos: i64, zone: &Zone) -> String {
    goccia_interp::time::strftime(
        format,
        goccia_interp::time::at(
            nanos.div_euclid(1_000_000_000),
            nanos.rem_euclid(1_000_000_000) as u32,
        ),
        zone,
    )
}

/// The columns of `-ls`, as wide as GNU starts them (inode, blocks,
/// links, owner, group, size); a wider value widens its column for the
/// lines after it, as GNU's do.
pub(super) struct LsWidths([usize; 6]);

impl Default for LsWidths {
    fn default() -> LsWidths {
        LsWidths([9, 6, 3, 8, 8, 8])
    }
}

/// One line of `-ls`: inode, 1 KiB blocks, mode, links, owner, group,
/// size, time as `ls -l` shows it (the hour within six months, else the
/// year), the path, and a link's target. The VFS keeps no inode numbers:
/// every entry's is 1, as `stat -c %i` says.
pub(super) fn ls_line(visit: &Visit<'_>, zone: &Zone, now: i64, widths: &mut LsWidths) -> String {
    let node = visit.node;
    let columns = [
        "1".to_string(),
        crate::files::list::kibibytes(node).to_string(),
        crate::files::list::link_count(node).to_string(),
        "user".to_string(),
        "user".to_string(),
        crate::files::list::node_size(node).to_string(),
    ];
    for (width, value) in widths.0.iter_mut().zip(&columns) {
        *width = (*width).max(value.len());
    }
    use goccia_interp::pad::{left_pad, right_pad};
    let [inode, blocks, links, owner, group, size] = &columns;
    let [wi, wb, wl, wo, wg, ws] = widths.0;
    const SIX_MONTHS: i64 = 31_556_952 / 2;
    let mtime = node.meta().mtime_ns;
    let seconds = mtime.div_euclid(1_000_000_000);
    let recent = now - SIX_MONTHS < seconds && seconds <= now;
    let time = strftime(
        if recent { "%b %e %H:%M" } else { "%b %e  %Y" },
        mtime,
        zone,
    );
    let mut line = [
        left_pad(inode, wi, ' '),
        left_pad(blocks, wb, ' '),
        crate::files::list::mode_string(node),
        left_pad(links, wl, ' '),
        right_pad(owner, wo, ' '),
        right_pad(group, wg, ' '),
        left_pad(size, ws, ' '),
        time,
        visit.shown.clone(),
    ]
    .join(" ");
    if let Node::Link(link) = node {
        line.push_str(" -> ");
        line.push_str(link.target());
    }
    line.push('\n');
    line
}

/// The last element of the name; a starting point keeps the slashes it
/// was written with (`src/` is `src/`, as GNU find shows it).
pub(super) fn file_name(visit: &Visit<'_>) -> String {
    if visit.depth == 0 {
        let shown = visit.shown.as_str();
        let trimmed = shown.trim_end_matches('/');
        if trimmed.is_empty() {
            return shown.to_string();
        }
        let start = trimmed.rfind('/').map_or(0, |slash| slash + 1);
        shown[start..].to_string()
    } else {
        visit.path.file_name().unwrap_or("/").to_string()
    }
}

fn kind(node_type: NodeType) -> char {
    match node_type {
        NodeType::Directory => 'd',
        NodeType::Symlink => 'l',
        NodeType::File => 'f',
    }
}
