//! `diff -u` and `diff -c`: hunks of changes with lines of context around
//! them, as GNU diff writes them. Unified: `@@ -a,b +c,d @@`, then the
//! lines marked ` `, `-` and `+`. Context: each hunk's old lines under
//! `*** FROM,TO ****` and its new lines under `--- FROM,TO ----`, marked
//! `  ` (same), `- ` (removed), `+ ` (added), `! ` (changed); a side with
//! nothing removed (or added) shows its range alone.

use std::ops::Range;

use super::options::{Layout, Options};
use super::print::FunctionFinder;
use super::script::{Change, Script};

/// The lines a hunk spans in each file, its context included.
struct Span {
    old: Range<usize>,
    new: Range<usize>,
}

fn span(script: &Script<'_>, hunk: &[Change], context: usize) -> Span {
    let (first, last) = (&hunk[0], &hunk[hunk.len() - 1]);
    // The lines before the first change and after the last are the same
    // in both files, so both sides take as many.
    let before = context.min(first.old.start).min(first.new.start);
    let after = context
        .min(script.left.len() - last.old.end)
        .min(script.right.len() - last.new.end);
    Span {
        old: first.old.start - before..last.old.end + after,
        new: first.new.start - before..last.new.end + after,
    }
}

/// The hunk's label under `-p`/`-F`, from the first file.
fn label(
    finder: &mut FunctionFinder,
    options: &Options,
    script: &Script<'_>,
    first: usize,
) -> String {
    match &options.function_line {
        Some(pattern) => finder.label(pattern, &script.left, first),
        None => String::new(),
    }
}

pub(super) fn unified(script: &Script<'_>, options: &Options, out: &mut String) {
    let layout = &options.layout;
    let mut finder = FunctionFinder::default();
    for hunk in script.hunks(options.context) {
        let span = span(script, hunk, options.context);
        let range = |lines: &Range<usize>| match lines.len() {
            1 => format!("{}", lines.start + 1),
            0 => format!("{},0", lines.start),
            len => format!("{},{len}", lines.start + 1),
        };
        out.push_str(&format!(
            "@@ -{} +{} @@{}\n",
            range(&span.old),
            range(&span.new),
            label(&mut finder, options, script, span.old.start)
        ));
        let mut at = span.old.start;
        for change in hunk {
            for line in &script.left[at..change.old.start] {
                layout.unified(out, ' ', line);
            }
            for line in &script.left[change.old.clone()] {
                layout.unified(out, '-', line);
            }
            for line in &script.right[change.new.clone()] {
                layout.unified(out, '+', line);
            }
            at = change.old.end;
        }
        for line in &script.left[at..span.old.end] {
            layout.unified(out, ' ', line);
        }
    }
}

pub(super) fn context(script: &Script<'_>, options: &Options, out: &mut String) {
    let layout = &options.layout;
    let mut finder = FunctionFinder::default();
    for hunk in script.hunks(options.context) {
        let span = span(script, hunk, options.context);
        out.push_str("***************");
        out.push_str(&label(&mut finder, options, script, span.old.start));
        out.push('\n');
        out.push_str(&format!("*** {} ****\n", context_range(&span.old)));
        context_side(out, layout, hunk, &script.left, span.old, |c| &c.old, '-');
        out.push_str(&format!("--- {} ----\n", context_range(&span.new)));
        context_side(out, layout, hunk, &script.right, span.new, |c| &c.new, '+');
    }
}

/// One side of a context hunk: its lines from `span`, each change's
/// marked `!` when it both removes and adds, else `lone`; nothing when the
/// hunk changes nothing on this side.
fn context_side(
    out: &mut String,
    layout: &Layout,
    hunk: &[Change],
    lines: &[&str],
    span: Range<usize>,
    side: fn(&Change) -> &Range<usize>,
    lone: char,
) {
    if hunk.iter().all(|change| side(change).is_empty()) {
        return;
    }
    let mut at = span.start;
    for change in hunk {
        let changed = side(change);
        for line in &lines[at..changed.start] {
            layout.flagged(out, ' ', line);
        }
        let mark = if change.old.is_empty() || change.new.is_empty() {
            lone
        } else {
            '!'
        };
        for line in &lines[changed.clone()] {
            layout.flagged(out, mark, line);
        }
        at = changed.end;
    }
    for line in &lines[at..span.end] {
        layout.flagged(out, ' ', line);
    }
}

/// GNU's context range: `FIRST,LAST` (1-based, inclusive), one number for
/// one line, and for no lines the number of the line before them.
fn context_range(lines: &Range<usize>) -> String {
    let (first, last) = (lines.start + 1, lines.end);
    if last > first {
        format!("{first},{last}")
    } else {
        last.to_string()
    }
}
