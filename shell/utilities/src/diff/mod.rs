//! `diff`: normal (default), unified, context (`-c`), side-by-side
//! (`-y`) and brief output, over files or directories (`-r`).

mod context;
mod side;

use std::time::{Duration, Instant};

use similar::{DiffOp, TextDiff};

use goccia_interp::interp::{ExecResult, ShellView};
use side::SideBySide;

struct Options {
    unified: Option<usize>,
    /// `-c`, `-C N`: context format with this many lines around changes.
    context: Option<usize>,
    /// The options as given, which a recursive comparison repeats in the
    /// `diff …` line before each pair of files that differ.
    given: Vec<String>,
    /// The clock header times are shown on (`TZ`).
    zone: goccia_interp::time::Zone,
    brief: bool,
    /// `-s`: say so when two files are the same.
    report_identical: bool,
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

pub fn diff(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut options = Options {
        unified: None,
        context: None,
        given: Vec::new(),
        zone: shell.time_zone(),
        brief: false,
        report_identical: false,
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
    // The options as written (`-Naur`), for the lines a recursive
    // comparison prints; then clustered short flags one by one.
    let mut taking_value = false;
    for arg in &args[1..] {
        if taking_value || (arg.starts_with('-') && arg.len() > 1) {
            options.given.push(arg.clone());
            taking_value = matches!(arg.as_str(), "-U" | "-C" | "-W" | "--label" | "--width");
        }
    }
    let args = unclustered(args);
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        match arg {
            "-u" | "--unified" => options.unified = Some(3),
            "-c" | "--context" => options.context = Some(3),
            "-C" => {
                i += 1;
                match context_length(args.get(i).map_or("", String::as_str)) {
                    Ok(n) => options.context = Some(n),
                    Err(message) => return Ok(shell.fail_command("diff", &message, 2)),
                }
            }
            "-q" | "--brief" => options.brief = true,
            "-r" | "--recursive" => options.recursive = true,
            "-N" | "--new-file" => options.new_file = true,
            "-i" | "--ignore-case" => options.ignore_case = true,
            "-b" | "--ignore-space-change" => options.ignore_space = true,
            "-w" | "--ignore-all-space" => options.ignore_all_space = true,
            "-B" | "--ignore-blank-lines" => options.ignore_blank = true,
            "-a" | "--text" => {}
            "-s" | "--report-identical-files" => options.report_identical = true,
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
                match context_length(args.get(i).map_or("", String::as_str)) {
                    Ok(n) => options.unified = Some(n),
                    Err(message) => return Ok(shell.fail_command("diff", &message, 2)),
                }
            }
            "--label" => {
                i += 1;
                options.labels.extend(args.get(i).cloned());
            }
            _ if arg.starts_with("-U")
                || arg.starts_with("-C")
                || arg.starts_with("--context=")
                || arg.starts_with("--unified=") =>
            {
                let (unified, text) = match arg.split_once('=') {
                    Some((name, text)) => (name == "--unified", text),
                    None => (arg.starts_with("-U"), &arg[2..]),
                };
                match context_length(text) {
                    Ok(n) if unified => options.unified = Some(n),
                    Ok(n) => options.context = Some(n),
                    Err(message) => return Ok(shell.fail_command("diff", &message, 2)),
                }
            }
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
    match shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("diff", error),
    }
}

enum Item {
    /// A file's bytes and modification time (ns; now for a stream).
    File(Vec<u8>, i64),
    Dir(Vec<String>),
    Missing,
}

fn load(shell: &mut ShellView, operand: &str) -> Item {
    // stdin, devices and `/dev/fd/N` (process substitution) are streams.
    if operand == "-" || operand.starts_with("/dev/") {
        return match goccia_interp::input::open_quiet(shell, operand) {
            Ok(mut source) => Item::File(
                source.read_all().unwrap_or_default(),
                goccia_interp::time::now()
                    .timestamp_nanos_opt()
                    .unwrap_or(0),
            ),
            Err(_) => Item::Missing,
        };
    }
    let Ok(path) = shell.cwd().resolve(operand) else {
        return Item::Missing;
    };
    let vfs = shell.context().vfs.lock();
    match vfs.lookup(&path) {
        Ok(goccia_vfs::Node::File(file)) => Item::File(file.data().to_vec(), file.meta().mtime_ns),
        Ok(goccia_vfs::Node::Dir(dir)) => {
            Item::Dir(dir.iter().map(|(n, _)| n.to_string()).collect())
        }
        Ok(goccia_vfs::Node::Link(_)) | Err(_) => Item::Missing,
    }
}

fn compare_paths(
    shell: &mut ShellView,
    a: &str,
    b: &str,
    options: &Options,
    out: &mut String,
) -> i32 {
    match (load(shell, a), load(shell, b)) {
        (Item::Missing, _) if !options.new_file => {
            shell.fail_command("diff", &format!("{a}: No such file or directory"), 2);
            2
        }
        (_, Item::Missing) if !options.new_file => {
            shell.fail_command("diff", &format!("{b}: No such file or directory"), 2);
            2
        }
        // A folder compared with itself: nothing to say, as GNU.
        (Item::Dir(_), Item::Dir(_)) if same_path(shell, a, b) => 0,
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
                            out.insert_str(before, &pair_line(options, &pa, &pb));
                        }
                        status = status.max(result);
                    } else {
                        status = status.max(compare_paths(shell, &pa, &pb, options, out));
                    }
                } else if options.new_file {
                    let before = out.len();
                    let result = compare_paths(shell, &pa, &pb, options, out);
                    if result == 1 && !options.brief {
                        out.insert_str(before, &pair_line(options, &pa, &pb));
                    }
                    status = status.max(result);
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
            // A file missing under -N is empty, dated at the epoch.
            let (left, left_time) = match left {
                Item::File(data, time) => (data, time),
                _ => (Vec::new(), 0),
            };
            let (right, right_time) = match right {
                Item::File(data, time) => (data, time),
                _ => (Vec::new(), 0),
            };
            let a = Side {
                name: a,
                time: left_time,
            };
            let b = Side {
                name: b,
                time: right_time,
            };
            let status = compare_files(&a, &b, &left, &right, options, out);
            if status == 0 && options.report_identical {
                out.push_str(&format!("Files {} and {} are identical\n", a.name, b.name));
            }
            status
        }
    }
}

/// Whether two operands name one place of the tree.
fn same_path(shell: &ShellView, a: &str, b: &str) -> bool {
    let resolved = |operand: &str| {
        let path = crate::files::names::resolve(shell, operand).ok()?;
        shell.context().vfs.lock().resolve(&path, true).ok()
    };
    matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

/// The lines of context `-C`, `-U` and their long forms ask for; GNU's
/// words for anything else.
fn context_length(text: &str) -> Result<usize, String> {
    text.parse().map_err(|_| {
        format!("invalid context length '{text}'\ndiff: Try 'diff --help' for more information.")
    })
}

/// The line a recursive comparison prints before a pair of files that
/// differ: `diff`, the options as given, the two paths.
fn pair_line(options: &Options, a: &str, b: &str) -> String {
    let mut words = vec!["diff"];
    words.extend(options.given.iter().map(String::as_str));
    words.extend([a, b]);
    format!("{}\n", words.join(" "))
}

fn normalize(line: &str, options: &Options) -> String {
    // A last line without its newline differs from the same text with
    // one (GNU's "\ No newline at end of file" is a change).
    let incomplete = !line.ends_with('\n');
    let mut line = line.trim_end_matches('\n').to_string();
    if options.ignore_case {
        line = line.to_lowercase();
    }
    if options.ignore_all_space {
        line.retain(|c| !c.is_whitespace());
    } else if options.ignore_space {
        line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    if incomplete {
        line.push('\0');
    }
    line
}

/// One of the two files: its name and modification time (ns).
struct Side<'a> {
    name: &'a str,
    time: i64,
}

impl Side<'_> {
    /// How a unified or context header names it: a `--label` (`index` 0
    /// or 1) alone, else the name and time as GNU diff prints them.
    fn header(&self, options: &Options, index: usize) -> String {
        if let Some(label) = options.labels.get(index) {
            return label.clone();
        }
        let time = goccia_interp::time::strftime(
            "%Y-%m-%d %H:%M:%S.%N %z",
            goccia_interp::time::at(
                self.time.div_euclid(1_000_000_000),
                self.time.rem_euclid(1_000_000_000) as u32,
            ),
            &options.zone,
        );
        format!("{}\t{time}", self.name)
    }
}

fn compare_files(
    a: &Side<'_>,
    b: &Side<'_>,
    left: &[u8],
    right: &[u8],
    options: &Options,
    out: &mut String,
) -> i32 {
    let left_text = goccia_interp::raw::decode(left).into_owned();
    let right_text = goccia_interp::raw::decode(right).into_owned();
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
        out.push_str(&format!("Files {} and {} differ\n", a.name, b.name));
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
    if let Some(lines) = options.context.filter(|_| options.unified.is_none()) {
        out.push_str(&format!(
            "*** {}\n--- {}\n",
            a.header(options, 0),
            b.header(options, 1)
        ));
        context::write(&diff, lines, &left_lines, &right_lines, out);
        return 1;
    }
    if let Some(context) = options.unified {
        out.push_str(&format!(
            "--- {}\n+++ {}\n",
            a.header(options, 0),
            b.header(options, 1)
        ));
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

/// `args` with each cluster of short flags (`-Naur`) split into its flags
/// (`-N -a -u -r`); a flag that takes a value (`-U`, `-C`, `-W`) keeps the
/// rest of its word as that value.
fn unclustered(args: &[String]) -> Vec<String> {
    const FLAGS: &str = "uqrNibwBasyc";
    let mut out = vec![args[0].clone()];
    let mut operands = false;
    for arg in &args[1..] {
        if operands || arg == "--" {
            operands = true;
            out.push(arg.clone());
            continue;
        }
        let Some(cluster) = arg.strip_prefix('-').filter(|rest| {
            rest.len() > 1
                && !rest.starts_with('-')
                && rest.chars().next().is_some_and(|c| FLAGS.contains(c))
        }) else {
            out.push(arg.clone());
            continue;
        };
        let chars: Vec<char> = cluster.chars().collect();
        for (at, flag) in chars.iter().enumerate() {
            if matches!(flag, 'U' | 'C' | 'W') {
                let value: String = chars[at + 1..].iter().collect();
                out.push(format!("-{flag}{value}"));
                break;
            }
            out.push(format!("-{flag}"));
        }
    }
    out
}
