//! Writing one line of a difference: its mark, the separator `-T` turns
//! into a tab, tabs expanded under `-t`, and GNU's note after a last line
//! without its newline. And the line `-p`/`-F` label a hunk with.

use super::options::Layout;
use super::script::expand_tabs;
use crate::matcher::Matcher;

impl Layout {
    /// A line of the normal and context formats: the mark (`<`, `>`, `!`,
    /// `+`, `-`, or ` ` for context), a space or with `-T` a tab, the text.
    pub(super) fn flagged(&self, out: &mut String, mark: char, line: &str) {
        out.push(mark);
        out.push(if self.initial_tab { '\t' } else { ' ' });
        self.text(out, line);
    }

    /// A line of the unified format: the mark right before the text, a
    /// tab between them under `-T`, where a context line is the tab alone.
    pub(super) fn unified(&self, out: &mut String, mark: char, line: &str) {
        match (mark, self.initial_tab) {
            (' ', true) => out.push('\t'),
            (mark, true) => {
                out.push(mark);
                out.push('\t');
            }
            (mark, false) => out.push(mark),
        }
        self.text(out, line);
    }

    /// The text of a line, its tabs expanded under `-t`; a last line
    /// without a newline gets one and GNU's note.
    pub(super) fn text(&self, out: &mut String, line: &str) {
        if self.expand_tabs && line.contains('\t') {
            out.push_str(&expand_tabs(line, self.tab_size));
        } else {
            out.push_str(line);
        }
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// Finds the line a hunk is labelled with (`-p`, `-F`): the nearest line
/// above the hunk that matches, searching no further back than the last
/// search began; when none does, the line found last time, as GNU does.
#[derive(Default)]
pub(super) struct FunctionFinder {
    searched_from: usize,
    last_found: Option<usize>,
}

impl FunctionFinder {
    /// The label for a hunk whose first line (context included) is
    /// `first` of `lines`: a space and up to 40 bytes of the matching
    /// line, trailing blanks removed; empty when there is none.
    pub(super) fn label(&mut self, pattern: &Matcher, lines: &[&str], first: usize) -> String {
        let lowest = self.searched_from;
        self.searched_from = first;
        let found = (lowest..first)
            .rev()
            .find(|&i| pattern.is_match(lines[i].strip_suffix('\n').unwrap_or(lines[i])));
        if found.is_some() {
            self.last_found = found;
        }
        let Some(line) = self.last_found.map(|i| lines[i]) else {
            return String::new();
        };
        let line = line.strip_suffix('\n').unwrap_or(line);
        let mut end = line.len().min(40);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        format!(" {}", line[..end].trim_end())
    }
}
