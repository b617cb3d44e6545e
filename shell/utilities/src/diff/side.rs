//! `diff -y`: the two files side by side, laid out as GNU's side.c.

use super::script::Script;

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
    /// `-t`: spaces where tabs would pad or stand.
    pub(super) expand_tabs: bool,
}

const TAB: usize = 8;

impl SideBySide {
    /// Columns for a total `width` (`-W`, default 130), as GNU sets them.
    /// Under `-t` the right column need not start at a tab stop.
    pub(super) fn set_width(&mut self, width: usize, expand_tabs: bool) {
        let gutter = 3;
        let stop = if expand_tabs { 1 } else { TAB };
        let offset = (width + stop + gutter) / (2 * stop) * stop;
        self.half = offset
            .saturating_sub(gutter)
            .min(width.saturating_sub(offset));
        self.right_at = if self.half > 0 { offset } else { width };
    }

    pub(super) fn write(&self, script: &Script<'_>, out: &mut String) {
        let (left, right) = (&script.left, &script.right);
        let (mut old_at, mut new_at) = (0, 0);
        let same = |out: &mut String, old: std::ops::Range<usize>, new_at: usize| {
            if self.suppress_common {
                return;
            }
            for (k, i) in old.enumerate() {
                if self.left_column {
                    self.line(Some(left[i]), '(', None, out);
                } else {
                    self.line(Some(left[i]), ' ', Some(right[new_at + k]), out);
                }
            }
        };
        for change in &script.changes {
            same(out, old_at..change.old.start, new_at);
            let paired = change.old.len().min(change.new.len());
            for k in 0..paired {
                self.line(
                    Some(left[change.old.start + k]),
                    '|',
                    Some(right[change.new.start + k]),
                    out,
                );
            }
            for line in &left[change.old.start + paired..change.old.end] {
                self.line(Some(line), '<', None, out);
            }
            for line in &right[change.new.start + paired..change.new.end] {
                self.line(None, '>', Some(line), out);
            }
            (old_at, new_at) = (change.old.end, change.new.end);
        }
        same(out, old_at..left.len(), new_at);
    }

    /// One output line.
    fn line(&self, left: Option<&str>, mark: char, right: Option<&str>, out: &mut String) {
        let mut newline = false;
        let mut column = 0;
        if let Some(text) = left {
            newline |= text.ends_with('\n');
            column = half_line(text, self.half, self.expand_tabs, out);
        }
        let mut mark = mark;
        if mark != ' ' {
            column = pad(
                column,
                (self.half + self.right_at - 1) / 2,
                self.expand_tabs,
                out,
            ) + 1;
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
                column = pad(column, self.right_at, self.expand_tabs, out);
                half_line(text, self.half, self.expand_tabs, out);
            }
        }
        let _ = column;
        if newline {
            out.push('\n');
        }
    }
}

/// Pads from column `from` to `to` with tabs (unless `spaces_only`), then
/// spaces; returns `to`.
fn pad(mut from: usize, to: usize, spaces_only: bool, out: &mut String) -> usize {
    let mut stop = from + TAB - from % TAB;
    while stop <= to && !spaces_only {
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
/// column reached. Under `expand` a tab is written as its spaces.
fn half_line(line: &str, bound: usize, expand: bool, out: &mut String) -> usize {
    let (mut read, mut written) = (0, 0);
    for c in line.chars() {
        match c {
            '\n' => break,
            '\t' => {
                let spaces = TAB - read % TAB;
                if read == written {
                    let stop = written + spaces;
                    if stop < bound {
                        if expand {
                            out.extend(std::iter::repeat_n(' ', stop - written));
                        } else {
                            out.push('\t');
                        }
                        written = stop;
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
