//! The formats without context: normal (`2c2`, `<`/`>` lines), `ed`
//! scripts (`-e`, last change first so line numbers stay right, and `-f`,
//! in order), and RCS's (`-n`), as GNU diff writes them.

use super::options::Layout;
use super::script::{Change, Script};

/// `s+1,e`, or one number for one line (1-based, inclusive), joined by
/// `separator`.
fn range(lines: &std::ops::Range<usize>, separator: char) -> String {
    if lines.len() <= 1 {
        format!("{}", lines.start + 1)
    } else {
        format!("{}{separator}{}", lines.start + 1, lines.end)
    }
}

/// The changes the context-free formats show: every change but those
/// `-B` and `-I` leave out.
fn shown<'s>(script: &'s Script<'_>) -> impl DoubleEndedIterator<Item = &'s Change> {
    script.hunks(0).into_iter().flatten()
}

pub(super) fn normal(script: &Script<'_>, layout: &Layout, out: &mut String) {
    for change in shown(script) {
        let (old, new) = (&change.old, &change.new);
        let header = match (old.is_empty(), new.is_empty()) {
            (true, _) => format!("{}a{}", old.start, range(new, ',')),
            (_, true) => format!("{}d{}", range(old, ','), new.start),
            _ => format!("{}c{}", range(old, ','), range(new, ',')),
        };
        out.push_str(&header);
        out.push('\n');
        for line in &script.left[old.clone()] {
            layout.flagged(out, '<', line);
        }
        if !old.is_empty() && !new.is_empty() {
            out.push_str("---\n");
        }
        for line in &script.right[new.clone()] {
            layout.flagged(out, '>', line);
        }
    }
}

/// `-e`: commands for `ed`, last change first. A line that is a lone `.`
/// would end `ed`'s input: it is written `..`, and a substitution after
/// it mends it, as GNU does.
pub(super) fn ed(script: &Script<'_>, out: &mut String) {
    let changes: Vec<&Change> = shown(script).collect();
    for change in changes.into_iter().rev() {
        let (old, new) = (&change.old, &change.new);
        match (old.is_empty(), new.is_empty()) {
            (true, _) => out.push_str(&format!("{}a\n", old.start)),
            (_, true) => {
                out.push_str(&format!("{}d\n", range(old, ',')));
                continue;
            }
            _ => out.push_str(&format!("{}c\n", range(old, ','))),
        }
        let mut inserting = true;
        for line in &script.right[new.clone()] {
            // After `s/.//` the mended line is the current one: `a` alone
            // goes on after it.
            if !inserting {
                out.push_str("a\n");
                inserting = true;
            }
            if line.strip_suffix('\n').unwrap_or(line) == "." {
                out.push_str("..\n.\ns/.//\n");
                inserting = false;
            } else {
                push_line(out, line);
            }
        }
        if inserting {
            out.push_str(".\n");
        }
    }
}

/// `-f`: the same commands in file order, the letter before the range.
pub(super) fn forward_ed(script: &Script<'_>, out: &mut String) {
    for change in shown(script) {
        let (old, new) = (&change.old, &change.new);
        match (old.is_empty(), new.is_empty()) {
            (true, _) => out.push_str(&format!("a{}\n", old.start)),
            (_, true) => {
                out.push_str(&format!("d{}\n", range(old, ' ')));
                continue;
            }
            _ => out.push_str(&format!("c{}\n", range(old, ' '))),
        }
        for line in &script.right[new.clone()] {
            push_line(out, line);
        }
        out.push_str(".\n");
    }
}

/// `-n`: `dFIRST COUNT` for removed lines, `aAFTER COUNT` and the lines
/// for added ones; a last line without a newline is written as it is.
pub(super) fn rcs(script: &Script<'_>, out: &mut String) {
    for change in shown(script) {
        let (old, new) = (&change.old, &change.new);
        if !old.is_empty() {
            out.push_str(&format!("d{} {}\n", old.start + 1, old.len()));
        }
        if !new.is_empty() {
            out.push_str(&format!("a{} {}\n", old.end, new.len()));
            for line in &script.right[new.clone()] {
                out.push_str(line);
            }
        }
    }
}

/// A line of an `ed` script, with a newline if the file's last line
/// lacked one.
fn push_line(out: &mut String, line: &str) {
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push('\n');
    }
}
