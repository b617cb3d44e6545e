//! The edit script between two files as every output style sees it: the
//! lines of each file, the changes (lines removed and lines added at one
//! place), which of them `-B` and `-I` make ignorable, and the hunks the
//! changes group into for a number of context lines, as GNU's `find_hunk`
//! groups them.

use std::ops::Range;

use std::collections::HashMap;

use super::align::{Effort, changed_lines};
use crate::matcher::Matcher;

/// How two lines are compared.
#[derive(Clone, Copy, Default)]
pub(super) struct Compare {
    pub ignore_case: bool,
    /// `-b`: runs of white space are equal, trailing white space ignored.
    pub ignore_space_change: bool,
    pub ignore_all_space: bool,
    /// `-Z`
    pub ignore_trailing_space: bool,
    /// `-E`: a tab equals the spaces it expands to.
    pub ignore_tab_expansion: bool,
    pub strip_trailing_cr: bool,
}

/// Which changes are not differences.
#[derive(Default)]
pub(super) struct Ignore {
    /// `-B`: changes whose lines are all empty.
    pub blank_lines: bool,
    /// `-I RE`: changes whose lines all match one of these.
    pub matching: Vec<Matcher>,
}

/// Lines `old` of the first file replaced by lines `new` of the second;
/// one of the two may be empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Change {
    pub old: Range<usize>,
    pub new: Range<usize>,
    /// Every line of it is blank under `-B` or matches an `-I` expression.
    pub ignorable: bool,
}

pub(super) struct Script<'a> {
    /// The lines of each file, each with its newline (the last may lack it).
    pub left: Vec<&'a str>,
    pub right: Vec<&'a str>,
    pub changes: Vec<Change>,
}

impl<'a> Script<'a> {
    /// Aligns `left` with `right`; past `deadline` the alignment is
    /// finished quickly, correct but possibly not minimal.
    pub fn new(
        left: &'a str,
        right: &'a str,
        compare: &Compare,
        ignore: &Ignore,
        effort: &Effort,
    ) -> Script<'a> {
        let left: Vec<&str> = left.split_inclusive('\n').collect();
        let right: Vec<&str> = right.split_inclusive('\n').collect();
        let left_keys: Vec<String> = left.iter().map(|l| key(l, compare)).collect();
        let right_keys: Vec<String> = right.iter().map(|l| key(l, compare)).collect();
        let changes = if left_keys == right_keys {
            Vec::new()
        } else {
            let (left_classes, right_classes) = classes(&left_keys, &right_keys);
            let (left_changed, right_changed) = changed_lines(
                &left_classes,
                &right_classes,
                |i, j| left[i] == right[j],
                effort,
            );
            changes_of(&left_changed, &right_changed)
        };
        let mut script = Script {
            left,
            right,
            changes,
        };
        script.mark_ignorable(ignore, &left_keys, &right_keys);
        script
    }

    /// Whether any change counts (the exit status).
    pub fn differs(&self) -> bool {
        self.changes.iter().any(|change| !change.ignorable)
    }

    /// The changes grouped for `context` lines around each, as GNU groups
    /// them: the next change joins a hunk when fewer than `2 * context + 1`
    /// unchanged lines separate them (`context` if it is ignorable); a
    /// hunk of ignorable changes alone is left out.
    pub fn hunks(&self, context: usize) -> Vec<&[Change]> {
        let mut hunks = Vec::new();
        let mut start = 0;
        while start < self.changes.len() {
            let mut end = start + 1;
            while let Some(next) = self.changes.get(end) {
                let gap = next.old.start - self.changes[end - 1].old.end;
                let threshold = if next.ignorable {
                    context
                } else {
                    2 * context + 1
                };
                if gap >= threshold {
                    break;
                }
                end += 1;
            }
            let hunk = &self.changes[start..end];
            if hunk.iter().any(|change| !change.ignorable) {
                hunks.push(hunk);
            }
            start = end;
        }
        hunks
    }

    fn mark_ignorable(&mut self, ignore: &Ignore, left_keys: &[String], right_keys: &[String]) {
        if !ignore.blank_lines && ignore.matching.is_empty() {
            return;
        }
        let trivial = |line: &str, key: &str| {
            (ignore.blank_lines && key.trim_end_matches('\0').is_empty())
                || ignore
                    .matching
                    .iter()
                    .any(|re| re.is_match(line.strip_suffix('\n').unwrap_or(line)))
        };
        for change in &mut self.changes {
            change.ignorable = change
                .old
                .clone()
                .all(|i| trivial(self.left[i], &left_keys[i]))
                && change
                    .new
                    .clone()
                    .all(|j| trivial(self.right[j], &right_keys[j]));
        }
    }
}

/// Each line's class: equal keys, one class (what the alignment compares).
fn classes<'k>(left_keys: &'k [String], right_keys: &'k [String]) -> (Vec<usize>, Vec<usize>) {
    let mut classes: HashMap<&'k str, usize> = HashMap::new();
    let mut class_of = |key: &'k String| {
        let next = classes.len();
        *classes.entry(key.as_str()).or_insert(next)
    };
    let left = left_keys.iter().map(&mut class_of).collect();
    let right = right_keys.iter().map(&mut class_of).collect();
    (left, right)
}

/// The changes of an alignment, as GNU's `build_script` pairs them: the
/// changed lines of each file that stand between the same two unchanged
/// ones are one change.
fn changes_of(left: &[bool], right: &[bool]) -> Vec<Change> {
    let mut changes = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < left.len() || j < right.len() {
        if left.get(i) == Some(&true) || right.get(j) == Some(&true) {
            let (old_start, new_start) = (i, j);
            while left.get(i) == Some(&true) {
                i += 1;
            }
            while right.get(j) == Some(&true) {
                j += 1;
            }
            changes.push(Change {
                old: old_start..i,
                new: new_start..j,
                ignorable: false,
            });
        } else {
            i += 1;
            j += 1;
        }
    }
    changes
}

/// What a line is compared by. A last line without its newline differs
/// from the same text with one (GNU's "\ No newline at end of file" is a
/// change), so it is marked.
fn key(line: &str, compare: &Compare) -> String {
    let incomplete = !line.ends_with('\n');
    let mut key = line.strip_suffix('\n').unwrap_or(line).to_string();
    if compare.ignore_case {
        key = key.to_lowercase();
    }
    if compare.ignore_tab_expansion && key.contains('\t') {
        key = expand_tabs(&key, 8);
    }
    if compare.ignore_all_space {
        key.retain(|c| !c.is_whitespace());
    } else if compare.ignore_space_change {
        let mut collapsed = String::with_capacity(key.len());
        let mut in_space = false;
        for c in key.chars() {
            if c.is_whitespace() {
                in_space = true;
            } else {
                if in_space {
                    collapsed.push(' ');
                }
                in_space = false;
                collapsed.push(c);
            }
        }
        key = collapsed;
    } else if compare.ignore_trailing_space {
        key.truncate(key.trim_end().len());
    }
    if incomplete {
        key.push('\0');
    }
    key
}

/// `text` with each tab replaced by the spaces to the next stop.
pub(super) fn expand_tabs(text: &str, tab_size: usize) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut column = 0;
    for c in text.chars() {
        if c == '\t' {
            let spaces = tab_size - column % tab_size;
            out.extend(std::iter::repeat_n(' ', spaces));
            column += spaces;
        } else {
            out.push(c);
            column += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(old: Range<usize>, new: Range<usize>, ignorable: bool) -> Change {
        Change {
            old,
            new,
            ignorable,
        }
    }

    #[test]
    fn a_removal_beside_an_addition_is_one_change() {
        let left = [false, true, false];
        let right = [false, true, true, false];
        assert_eq!(changes_of(&left, &right), vec![change(1..2, 1..3, false)]);
        assert_eq!(
            changes_of(&[true, false], &[false, true]),
            vec![change(0..1, 0..0, false), change(2..2, 1..2, false)]
        );
    }

    #[test]
    fn space_change_keeps_leading_space_apart_from_none() {
        let compare = Compare {
            ignore_space_change: true,
            ..Compare::default()
        };
        assert_eq!(key("  a \t b  \n", &compare), " a b");
        assert_ne!(key(" a\n", &compare), key("a\n", &compare));
        assert_eq!(key("a  \n", &compare), key("a\n", &compare));
    }

    #[test]
    fn tabs_expand_to_the_next_stop() {
        assert_eq!(expand_tabs("ab\tc\t", 4), "ab  c   ");
    }
}
