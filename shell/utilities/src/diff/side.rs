//! `diff -y`: the two files side by side, laid out as GNU's side.c.

use similar::{DiffOp, TextDiff};

/// `diff -y`'s layout (GNU's side.c): a left column, a gutter holding
/// the mark (` ` same, `|` changed, `<` left only, `>` right only), and a
/// right column starting at a tab stop; tabs pad to the columns.
#[derive(Clone, Copy, Default)]
pub(super) struct SideBySide {
    /// Columns each side may fill.
    half: usize,
    /// Where the right column starts.
    right_at: usize,
    pub(super) suppress_common: bool,
    pub(super) left_column: bool,
}

const TAB: usize = 8;

impl SideBySide {
    /// Columns for a total `width` (`-W`, default 130), as GNU sets them.
    pub(super) fn set_width(&mut self, width: usize) {
        let gutter = 3;
        let offset = (width + TAB + gutter) / (2 * TAB) * TAB;
        self.half = offset
            .saturating_sub(gutter)
            .min(width.saturating_sub(offset));
        self.right_at = if self.half > 0 { offset } else { width };
    }

    pub(super) fn write(
        &self,
        diff: &TextDiff<'_, '_, '_, str>,
        left: &[&str],
        right: &[&str],
        out: &mut String,
    ) {
        for op in diff.ops() {
            match *op {
                DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } => {
                    if self.suppress_common {
                        continue;
                    }
                    for k in 0..len {
                        if self.left_column {
                            self.line(Some(left[old_index + k]), '(', None, out);
                        } else {
                            self.line(
                                Some(left[old_index + k]),
                                ' ',
                                Some(right[new_index + k]),
                                out,
                            );
                        }
                    }
                }
                DiffOp::Delete {
                    old_index, old_len, ..
                } => {
                    for line in &left[old_index..old_index + old_len] {
                        self.line(Some(line), '<', None, out);
                    }
                }
                DiffOp::Insert {
                    new_index, new_len, ..
                } => {
                    for line in &right[new_index..new_index + new_len] {
                        self.line(None, '>', Some(line), out);
                    }
                }
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => {
                    let paired = old_len.min(new_len);
                    for k in 0..paired {
                        self.line(
                            Some(left[old_index + k]),
                            '|',
                            Some(right[new_index + k]),
                            out,
                        );
                    }
                    for line in &left[old_index + paired..old_index + old_len] {
                        self.line(Some(line), '<', None, out);
                    }
                    for line in &right[new_index + paired..new_index + new_len] {
                        self.line(None, '>', Some(line), out);
                    }
                }
            }
        }
    }

    /// One output line.
    fn line(&self, left: Option<&str>, mark: char, right: Option<&str>, out: &mut String) {
        let mut newline = false;
        let mut column = 0;
        if let Some(text) = left {
            newline |= text.ends_with('\n');
            column = half_line(text, self.half, out);
        }
        let mut mark = mark;
        if mark != ' ' {
            column = pad(column, (self.half + self.right_at - 1) / 2, out) + 1;
            // A changed pair where one side ends without a newline.
            if mark == '|'
                && let Some(text) = right
                && newline != text.ends_with('\n')
            {
                mark = if newline { '/' } else { '\\' };
            }
            out.push(mark);
        }
        if let Some(text) = right {
            newline |= text.ends_with('\n');
            if !text.starts_with('\n') {
                column = pad(column, self.right_at, out);
                half_line(text, self.half, out);
            }
        }
        let _ = column;
        if newline {
            out.push('\n');
        }
    }
}

/// Pads from column `from` to `to` with tabs, then spaces; returns `to`.
fn pad(mut from: usize, to: usize, out: &mut String) -> usize {
    let mut stop = from + TAB - from % TAB;
    while stop <= to {
        out.push('\t');
        from = stop;
        stop += TAB;
    }
    while from < to {
        out.push(' ');
        from += 1;
    }
    to
}

/// Writes `line` (its newline left out) within `bound` columns; the
/// column reached.
fn half_line(line: &str, bound: usize, out: &mut String) -> usize {
    let (mut read, mut written) = (0, 0);
    for c in line.chars() {
        match c {
            '\n' => break,
            '\t' => {
                let spaces = TAB - read % TAB;
                if read == written {
                    let stop = written + spaces;
                    if stop < bound {
                        written = stop;
                        out.push('\t');
                    }
                }
                read += spaces;
            }
            c if c.is_control() => {
                if read < bound {
                    out.push(c);
                }
            }
            c => {
                if read < bound {
                    written = read + 1;
                    out.push(c);
                }
                read += 1;
            }
        }
    }
    written
}
