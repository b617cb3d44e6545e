//! `diff`, as GNU diffutils writes it: the normal format (default),
//! unified (`-u`), context (`-c`), side by side (`-y`), `ed` and RCS
//! scripts (`-e`, `-f`, `-n`), templates (`--line-format`, …) and brief
//! (`-q`) output, over files or directories (`-r`, `-N`, `-x`).

mod align;
mod formats;
mod options;
mod plain;
mod print;
mod script;
mod side;
mod unified;

use std::time::{Duration, Instant};

use goccia_interp::interp::{ExecResult, ShellView};
use options::{Options, Style};
use script::Script;

/// The most time an alignment takes before it settles for a correct,
/// possibly longer diff.
const EFFORT: Duration = Duration::from_secs(1);

pub fn diff(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let options = match options::parse(shell, args) {
        Ok(options) => options,
        Err(refusal) if refusal.hint => return usage(shell, &refusal.message),
        Err(refusal) => return Ok(shell.fail_command("diff", &refusal.message, 2)),
    };
    if options.operands.len() != 2 {
        let message = match options.operands.get(2) {
            Some(extra) => format!("extra operand '{extra}'"),
            None => format!(
                "missing operand after '{}'",
                options.operands.last().map_or("diff", String::as_str)
            ),
        };
        return usage(shell, &message);
    }
    let (a, b) = (&options.operands[0], &options.operands[1]);
    let mut out = String::new();
    let status = compare_operands(shell, a, b, &options, &mut out);
    match shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("diff", error),
    }
}

/// A usage error as diff words it: the `--help` hint is prefixed too.
fn usage(shell: &mut ShellView, message: &str) -> ExecResult {
    Ok(shell.fail_command(
        "diff",
        &format!("{message}\ndiff: Try 'diff --help' for more information."),
        2,
    ))
}

/// The two operands: a folder beside a file stands for the file of the
/// same name inside it, as GNU compares them.
fn compare_operands(
    shell: &mut ShellView,
    a: &str,
    b: &str,
    options: &Options,
    out: &mut String,
) -> i32 {
    let inside = |dir: &str, file: &str| {
        let name = file
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(file);
        format!("{}/{name}", dir.trim_end_matches('/'))
    };
    match (kind(shell, a), kind(shell, b)) {
        (Kind::Dir, Kind::File) => compare_paths(shell, &inside(a, b), b, options, out),
        (Kind::File, Kind::Dir) => compare_paths(shell, a, &inside(b, a), options, out),
        _ => compare_paths(shell, a, b, options, out),
    }
}

#[derive(PartialEq, Eq)]
enum Kind {
    File,
    Dir,
    /// Missing, or a stream (`-`, `/dev/…`), which is never put inside a
    /// folder.
    Other,
}

fn kind(shell: &ShellView, operand: &str) -> Kind {
    if operand == "-" || operand.starts_with("/dev/") {
        return Kind::Other;
    }
    let Ok(path) = shell.cwd().resolve(operand) else {
        return Kind::Other;
    };
    match shell.context().vfs.lock().lookup(&path) {
        Ok(goccia_vfs::Node::File(_)) => Kind::File,
        Ok(goccia_vfs::Node::Dir(_)) => Kind::Dir,
        _ => Kind::Other,
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
    let (mut left, mut right) = (load(shell, a), load(shell, b));
    // An absent operand is an error unless -N (or, for the first,
    // --unidirectional-new-file) makes it empty; both absent are both
    // reported, -N or not, as GNU does.
    let both_absent = matches!((&left, &right), (Item::Missing, Item::Missing));
    let mut refused = false;
    for (side, (item, operand)) in [(&left, a), (&right, b)].into_iter().enumerate() {
        if matches!(item, Item::Missing) && (both_absent || !options.absent.empty_on(side)) {
            shell.fail_command("diff", &format!("{operand}: No such file or directory"), 2);
            refused = true;
        }
    }
    if refused {
        return 2;
    }
    // Absent opposite a folder, it is an empty folder.
    match (&left, &right) {
        (Item::Missing, Item::Dir(_)) => left = Item::Dir(Vec::new()),
        (Item::Dir(_), Item::Missing) => right = Item::Dir(Vec::new()),
        _ => {}
    }
    match (left, right) {
        // A folder compared with itself: nothing to say, as GNU.
        (Item::Dir(_), Item::Dir(_)) if same_path(shell, a, b) => 0,
        (Item::Dir(left), Item::Dir(right)) => {
            let excluded = |name: &String| options.excludes.iter().any(|glob| glob.matches(name));
            let mut names: Vec<String> = left
                .iter()
                .chain(&right)
                .filter(|n| !excluded(n))
                .cloned()
                .collect();
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
                    let both_dirs = kind(shell, &pa) == Kind::Dir && kind(shell, &pb) == Kind::Dir;
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
                } else if options.absent.empty_on(usize::from(in_a)) {
                    // Only one folder has it, and its absence is empty: a
                    // folder is compared with an empty one (or named, as
                    // common, without -r), a file with an empty file.
                    let present_is_dir = kind(shell, if in_a { &pa } else { &pb }) == Kind::Dir;
                    if present_is_dir && !options.recursive {
                        out.push_str(&format!("Common subdirectories: {pa} and {pb}\n"));
                        continue;
                    }
                    let before = out.len();
                    let result = compare_paths(shell, &pa, &pb, options, out);
                    if result == 1 && !options.brief && !present_is_dir {
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
        (left @ (Item::Dir(_) | Item::File(..)), right @ (Item::Dir(_) | Item::File(..)))
            if matches!(left, Item::Dir(_)) != matches!(right, Item::Dir(_)) =>
        {
            let what = |item: &Item| match item {
                Item::Dir(_) => "directory",
                _ => "regular file",
            };
            out.push_str(&format!(
                "File {a} is a {} while file {b} is a {}\n",
                what(&left),
                what(&right)
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

/// The line a recursive comparison prints before a pair of files that
/// differ: `diff`, the options as given, the two paths.
fn pair_line(options: &Options, a: &str, b: &str) -> String {
    let mut words = vec!["diff".to_string()];
    words.extend(
        options
            .given
            .iter()
            .map(|word| crate::args::shell_escape(word)),
    );
    words.extend([a, b].map(crate::args::shell_escape));
    format!("{}\n", words.join(" "))
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
    let mut left_text = goccia_interp::raw::decode(left).into_owned();
    let mut right_text = goccia_interp::raw::decode(right).into_owned();
    if options.compare.strip_trailing_cr {
        left_text = left_text.replace("\r\n", "\n");
        right_text = right_text.replace("\r\n", "\n");
    }
    // Like GNU diff without --minimal, effort is bounded: past a second
    // (or the run's deadline, if sooner) the alignment is finished
    // quickly, correct but possibly not minimal, instead of taking time
    // quadratic in the inputs.
    let effort = Instant::now() + EFFORT;
    let deadline = options.deadline.map_or(effort, |run| run.min(effort));
    // The start and end both files share are searched as far in as the
    // context lines a unified or context diff shows (GNU's horizon).
    let horizon = match options.style {
        Style::Unified | Style::Context => options.context,
        _ => 0,
    };
    let effort = align::Effort {
        minimal: options.minimal,
        horizon,
        deadline,
    };
    let script = Script::new(
        &left_text,
        &right_text,
        &options.compare,
        &options.ignore,
        &effort,
    );
    let differs = script.differs();
    if options.brief {
        if differs {
            out.push_str(&format!("Files {} and {} differ\n", a.name, b.name));
        }
        return i32::from(differs);
    }
    match &options.style {
        // Side by side shows the files whole, even when they are the same.
        Style::SideBySide(side) => side.write(&script, out),
        Style::Formats(formats) => formats.write(&script, out),
        _ if !differs => {}
        Style::Normal => plain::normal(&script, &options.layout, out),
        Style::Ed => plain::ed(&script, out),
        Style::ForwardEd => plain::forward_ed(&script, out),
        Style::Rcs => plain::rcs(&script, out),
        Style::Unified => {
            headers(out, ["---", "+++"], a, b, options);
            unified::unified(&script, options, out);
        }
        Style::Context => {
            headers(out, ["***", "---"], a, b, options);
            unified::context(&script, options, out);
        }
    }
    i32::from(differs)
}

/// The two header lines of a unified or context diff, each file's after
/// its mark.
fn headers(out: &mut String, marks: [&str; 2], a: &Side<'_>, b: &Side<'_>, options: &Options) {
    for (index, (mark, side)) in marks.into_iter().zip([a, b]).enumerate() {
        out.push_str(&format!("{mark} {}\n", side.header(options, index)));
    }
}
