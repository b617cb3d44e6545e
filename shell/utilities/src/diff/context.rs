//! `diff -c`: the context format, as GNU diff writes it: each hunk's old
//! lines under `*** FROM,TO ****` and its new lines under `--- FROM,TO
//! ----`, marked `  ` (same), `- ` (removed), `+ ` (added), `! ` (changed);
//! a side with nothing removed (or added) shows its range alone.

use similar::{DiffOp, TextDiff};

/// Writes the hunks of `diff` with `lines` of context.
pub(super) fn write(
    diff: &TextDiff<'_, '_, '_, str>,
    lines: usize,
    left: &[&str],
    right: &[&str],
    out: &mut String,
) {
    for group in diff.grouped_ops(lines) {
        let (first, last) = (&group[0], &group[group.len() - 1]);
        let old = first.old_range().start..last.old_range().end;
        let new = first.new_range().start..last.new_range().end;
        out.push_str("***************\n");
        out.push_str(&format!("*** {} ****\n", range(&old)));
        let removes = group
            .iter()
            .any(|op| matches!(op, DiffOp::Delete { .. } | DiffOp::Replace { .. }));
        if removes {
            for op in &group {
                let mark = match op {
                    DiffOp::Equal { .. } => "  ",
                    DiffOp::Delete { .. } => "- ",
                    DiffOp::Replace { .. } => "! ",
                    DiffOp::Insert { .. } => continue,
                };
                for line in &left[op.old_range()] {
                    push_line(out, mark, line);
                }
            }
        }
        out.push_str(&format!("--- {} ----\n", range(&new)));
        let adds = group
            .iter()
            .any(|op| matches!(op, DiffOp::Insert { .. } | DiffOp::Replace { .. }));
        if adds {
            for op in &group {
                let mark = match op {
                    DiffOp::Equal { .. } => "  ",
                    DiffOp::Insert { .. } => "+ ",
                    DiffOp::Replace { .. } => "! ",
                    DiffOp::Delete { .. } => continue,
                };
                for line in &right[op.new_range()] {
                    push_line(out, mark, line);
                }
            }
        }
    }
}

/// GNU's context range: `FIRST,LAST` (1-based, inclusive), one number for
/// one line, and for no lines the number of the line before them.
fn range(lines: &std::ops::Range<usize>) -> String {
    let (first, last) = (lines.start + 1, lines.end);
    if last > first {
        format!("{first},{last}")
    } else {
        last.to_string()
    }
}

fn push_line(out: &mut String, mark: &str, line: &str) {
    out.push_str(mark);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}
