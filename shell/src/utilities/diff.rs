//! `diff`: normal (default), unified, side-by-side (`-y`) and brief
//! output, over files or directories (`-r`).

use std::time::{Duration, Instant};

use similar::{DiffOp, TextDiff};

use crate::interp::{ExecResult, Shell};

struct Options {
    unified: Option<usize>,
    brief: bool,
    recursive: bool,
    new_file: bool,
    ignore_case: bool,
    ignore_space: bool,
    ignore_all_space: bool,
    ignore_blank: bool,
    labels: Vec<String>,
    /// `-y`: the two files side by side, in columns of this total width.
    side_by_side: Option<SideBySide>,
    /// The run's deadline.
    deadline: Option<Instant>,
}

/// The most time an alignment takes before it settles for a correct,
/// possibly longer diff.
const EFFORT: Duration = Duration::from_secs(1);

pub fn diff(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut options = Options {
        unified: None,
        brief: false,
        recursive: false,
        new_file: false,
        ignore_case: false,
        ignore_space: false,
        ignore_all_space: false,
        ignore_blank: false,
        deadline: Some(shell.watch().deadline()),
        labels: Vec::new(),
        side_by_side: None,
    };
    let mut width = 130;
    let mut side = SideBySide::default();
    let mut side_by_side = false;
    let mut operands = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "-u" | "--unified" => options.unified = Some(3),
            "-q" | "--brief" => options.brief = true,
            "-r" | "--recursive" => options.recursive = true,
            "-N" | "--new-file" => options.new_file = true,
            "-i" | "--ignore-case" => options.ignore_case = true,
            "-b" | "--ignore-space-change" => options.ignore_space = true,
            "-w" | "--ignore-all-space" => options.ignore_all_space = true,
            "-B" | "--ignore-blank-lines" => options.ignore_blank = true,
            "-a" | "--text" | "-s" | "--report-identical-files" => {}
            "-y" | "--side-by-side" => side_by_side = true,
            "--suppress-common-lines" => side.suppress_common = true,
            "--left-column" => side.left_column = true,
            "-W" | "--width" => {
                i += 1;
                match args.get(i).and_then(|n| n.parse().ok()) {
                    Some(n) if n > 0 => width = n,
                    _ => {
                        let given = args.get(i).map_or("", String::as_str);
                        return Ok(shell.fail_command(
                            "diff",
                            &format!("invalid width '{given}'"),
                            2,
                        ));
                    }
                }
            }
            _ if arg.starts_with("--width=") || (arg.starts_with("-W") && arg.len() > 2) => {
                let given = arg.trim_start_matches("--width=").trim_start_matches("-W");
                match given.parse() {
                    Ok(n) if n > 0 => width = n,
                    _ => {
                        return Ok(shell.fail_command(
                            "diff",
                            &format!("invalid width '{given}'"),
                            2,
                        ));
                    }
                }
            }
            "-U" => {
                i += 1;
                options.unified = args.get(i).and_then(|n| n.parse().ok());
            }
            "--label" => {
                i += 1;
                options.labels.extend(args.get(i).cloned());
            }
            _ if arg.starts_with("-U") => options.unified = arg[2..].parse().ok(),
            _ if arg.starts_with("--unified=") => options.unified = arg[10..].parse().ok(),
            _ if arg.starts_with("--label=") => options.labels.push(arg[8..].to_string()),
            _ if arg.starts_with('-') && arg.len() > 1 => {
                return Ok(shell.fail_command(
                    "diff",
                    &format!(
                        "unrecognized option '{arg}'\ndiff: Try 'diff --help' for more information."
                    ),
                    2,
                ));
            }
            _ => operands.push(arg.to_string()),
        }
        i += 1;
    }
    if side_by_side {
        side.set_width(width);
        options.side_by_side = Some(side);
    }
    if operands.len() != 2 {
        let message = if operands.len() < 2 {
            format!(
                "missing operand after '{}'",
                operands.last().map_or("diff", |s| s.as_str())
            )
        } else {
            format!("extra operand '{}'", operands[2])
        };
        return Ok(shell.fail_command(
            "diff",
            &format!("{message}\ndiff: Try 'diff --help' for more information."),
            2,
        ));
    }
    let mut out = String::new();
    let status = compare_paths(shell, &operands[0], &operands[1], &options, &mut out);
    match shell.write_stdout(&crate::raw::encode(&out)) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("diff", error),
    }
}

enum Item {
    File(Vec<u8>),
    Dir(Vec<String>),
    Missing,
}

fn load(shell: &mut Shell, operand: &str) -> Item {
    // stdin, devices and `/dev/fd/N` (process substitution) are streams.
    if operand == "-" || operand.starts_with("/dev/") {
        return match crate::utilities::input::open_quiet(shell, operand) {
            Ok(mut source) => Item::File(source.read_all().unwrap_or_default()),
            Err(_) => Item::Missing,
        };
    }
    let Ok(path) = shell.cwd().resolve(operand) else {
        return Item::Missing;
    };
    let vfs = shell.context().vfs.lock();
    match vfs.lookup(&path) {
        Ok(goccia_vfs::Node::File(file)) => Item::File(file.data().to_vec()),
        Ok(goccia_vfs::Node::Dir(dir)) => {
            Item::Dir(dir.iter().map(|(n, _)| n.to_string()).collect())
        }
        Ok(goccia_vfs::Node::Link(_)) | Err(_) => Item::Missing,
    }
}

fn compare_paths(shell: &mut Shell, a: &str, b: &str, options: &Options, out: &mut String) -> i32 {
    match (load(shell, a), load(shell, b)) {
        (Item::Missing, _) if !options.new_file => {
            shell.fail_command("diff", &format!("{a}: No such file or directory"), 2);
            2
        }
        (_, Item::Missing) if !options.new_file => {
            shell.fail_command("diff", &format!("{b}: No such file or directory"), 2);
            2
        }
        (Item::Dir(left), Item::Dir(right)) => {
            let mut names: Vec<String> = left.iter().chain(&right).cloned().collect();
            names.sort();
            names.dedup();
            let mut status = 0;
            for name in names {
                let (in_a, in_b) = (left.contains(&name), right.contains(&name));
                let (pa, pb) = (
                    format!("{}/{name}", a.trim_end_matches('/')),
                    format!("{}/{name}", b.trim_end_matches('/')),
                );
                if in_a && in_b {
                    let both_dirs = matches!(
                        (load(shell, &pa), load(shell, &pb)),
                        (Item::Dir(_), Item::Dir(_))
                    );
                    if both_dirs && !options.recursive {
                        out.push_str(&format!("Common subdirectories: {pa} and {pb}\n"));
                        continue;
                    }
                    if !options.brief {
                        let before = out.len();
                        let result = compare_paths(shell, &pa, &pb, options, out);
                        if result == 1 && !both_dirs {
                            out.insert_str(
                                before,
                                &format!(
                                    "diff {}{pa} {pb}\n",
                                    if options.unified.is_some() { "-u " } else { "" }
                                ),
                            );
                        }
                        status = status.max(result);
                    } else {
                        status = status.max(compare_paths(shell, &pa, &pb, options, out));
                    }
                } else if options.new_file {
                    status = status.max(compare_paths(shell, &pa, &pb, options, out));
                } else {
                    let dir = if in_a { a } else { b };
                    out.push_str(&format!("Only in {}: {name}\n", dir.trim_end_matches('/')));
                    status = 1;
                }
            }
            status
        }
        (Item::Dir(_), _) | (_, Item::Dir(_)) => {
            out.push_str(&format!(
                "File {a} is a directory while file {b} is a regular file\n"
            ));
            1
        }
        (left, right) => {
            let left = match left {
                Item::File(data) => data,
                _ => Vec::new(),
            };
            let right = match right {
                Item::File(data) => data,
                _ => Vec::new(),
            };
            compare_files(a, b, &left, &right, options, out)
        }
    }
}

fn normalize(line: &str, options: &Options) -> String {
    let mut line = line.trim_end_matches('\n').to_string();
    if options.ignore_case {
        line = line.to_lowercase();
    }
    if options.ignore_all_space {
        line.retain(|c| !c.is_whitespace());
    } else if options.ignore_space {
        line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    line
}

fn compare_files(
    a: &str,
    b: &str,
    left: &[u8],
    right: &[u8],
    options: &Options,
    out: &mut String,
) -> i32 {
    let left_text = crate::raw::decode(left).into_owned();
    let right_text = crate::raw::decode(right).into_owned();
    let left_lines: Vec<&str> = left_text.split_inclusive('\n').collect();
    let right_lines: Vec<&str> = right_text.split_inclusive('\n').collect();
    let left_keys: Vec<String> = left_lines.iter().map(|l| normalize(l, options)).collect();
    let right_keys: Vec<String> = right_lines.iter().map(|l| normalize(l, options)).collect();
    if left_keys == right_keys
        && options.side_by_side.is_none()
        && (options.ignore_case
            || options.ignore_space
            || options.ignore_all_space
            || left == right)
    {
        return 0;
    }
    if options.ignore_blank {
        let strip = |keys: &[String]| {
            keys.iter()
                .filter(|k| !k.trim().is_empty())
                .cloned()
                .collect::<Vec<_>>()
        };
        if strip(&left_keys) == strip(&right_keys) {
            return 0;
        }
    }
    if options.brief {
        if left_keys == right_keys {
            return 0;
        }
        out.push_str(&format!("Files {a} and {b} differ\n"));
        return 1;
    }
    let left_refs: Vec<&str> = left_keys.iter().map(String::as_str).collect();
    let right_refs: Vec<&str> = right_keys.iter().map(String::as_str).collect();
    // Like GNU diff without --minimal, effort is bounded: past a second
    // (or the run's deadline, if sooner) the alignment is finished
    // quickly, correct but possibly not minimal, instead of taking time
    // quadratic in the inputs.
    let effort = Instant::now() + EFFORT;
    let deadline = options.deadline.map_or(effort, |run| run.min(effort));
    let diff = TextDiff::configure()
        .deadline(deadline)
        .diff_slices(&left_refs, &right_refs);
    let line_out = |out: &mut String, prefix: &str, line: &str| {
        out.push_str(prefix);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    };
    if let Some(side) = &options.side_by_side {
        side.write(&diff, &left_lines, &right_lines, out);
        let same = diff
            .ops()
            .iter()
            .all(|op| matches!(op, DiffOp::Equal { .. }));
        return i32::from(!same);
    }
    if let Some(context) = options.unified {
        let label_a = options
            .labels
            .first()
            .cloned()
            .unwrap_or_else(|| a.to_string());
        let label_b = options
            .labels
            .get(1)
            .cloned()
            .unwrap_or_else(|| b.to_string());
        out.push_str(&format!("--- {label_a}\n+++ {label_b}\n"));
        for group in diff.grouped_ops(context) {
            let (first, last) = (&group[0], &group[group.len() - 1]);
            let old = first.old_range().start..last.old_range().end;
            let new = first.new_range().start..last.new_range().end;
            let range = |r: &std::ops::Range<usize>| {
                let len = r.end - r.start;
                if len == 1 {
                    format!("{}", r.start + 1)
                } else {
                    format!("{},{len}", if len == 0 { r.start } else { r.start + 1 })
                }
            };
            out.push_str(&format!("@@ -{} +{} @@\n", range(&old), range(&new)));
            for op in &group {
                for change in diff.iter_changes(op) {
                    let (prefix, line) = match change.tag() {
                        similar::ChangeTag::Equal => {
                            (" ", left_lines[change.old_index().unwrap_or(0)])
                        }
                        similar::ChangeTag::Delete => {
                            ("-", left_lines[change.old_index().unwrap_or(0)])
                        }
                        similar::ChangeTag::Insert => {
                            ("+", right_lines[change.new_index().unwrap_or(0)])
                        }
                    };
                    line_out(out, prefix, line);
                }
            }
        }
        return 1;
    }
    let range = |start: usize, len: usize| {
        if len <= 1 {
            format!("{}", start + 1)
        } else {
            format!("{},{}", start + 1, start + len)
        }
    };
    for op in diff.ops() {
        match *op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => {
                out.push_str(&format!("{}d{}\n", range(old_index, old_len), new_index));
                for line in &left_lines[old_index..old_index + old_len] {
                    line_out(out, "< ", line);
                }
            }
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => {
                out.push_str(&format!("{}a{}\n", old_index, range(new_index, new_len)));
                for line in &right_lines[new_index..new_index + new_len] {
                    line_out(out, "> ", line);
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                out.push_str(&format!(
                    "{}c{}\n",
                    range(old_index, old_len),
                    range(new_index, new_len)
                ));
                for line in &left_lines[old_index..old_index + old_len] {
                    line_out(out, "< ", line);
                }
                out.push_str("---\n");
                for line in &right_lines[new_index..new_index + new_len] {
                    line_out(out, "> ", line);
                }
            }
        }
    }
    1
}

/// `diff -y`'s layout (GNU's side.c): a left column, a gutter holding
/// the mark (` ` same, `|` changed, `<` left only, `>` right only), and a
/// right column starting at a tab stop; tabs pad to the columns.
#[derive(Clone, Copy, Default)]
struct SideBySide {
    /// Columns each side may fill.
    half: usize,
    /// Where the right column starts.
    right_at: usize,
    suppress_common: bool,
    left_column: bool,
}

const TAB: usize = 8;

impl SideBySide {
    /// Columns for a total `width` (`-W`, default 130), as GNU sets them.
    fn set_width(&mut self, width: usize) {
        let gutter = 3;
        let offset = (width + TAB + gutter) / (2 * TAB) * TAB;
        self.half = offset
            .saturating_sub(gutter)
            .min(width.saturating_sub(offset));
        self.right_at = if self.half > 0 { offset } else { width };
    }

    fn write(
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
