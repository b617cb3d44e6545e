//! `grep`, `egrep`, `fgrep`: GNU grep's options and behaviour; the
//! markers of `--color=always` are in `colors`.

mod colors;

use goccia_vfs::{Node, VfsPath};

use crate::matcher::{Matcher, Syntax};
use goccia_interp::input::{Source, open_quiet};
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::pattern::Pattern;

#[derive(Default)]
struct Options {
    syntax: Option<Syntax>,
    ignore_case: bool,
    invert: bool,
    count: bool,
    files_with_matches: bool,
    files_without_match: bool,
    line_numbers: bool,
    filename: Option<bool>,
    only_matching: bool,
    quiet: bool,
    silent: bool,
    recursive: bool,
    /// `-R`: links met in the walk are followed too.
    dereference: bool,
    word: bool,
    line: bool,
    after: usize,
    before: usize,
    /// `-A`, `-B`, `-C` or `-NUM` given, even as 0: groups of lines that
    /// do not touch are then separated.
    context_given: bool,
    /// The line between such groups (`--group-separator`), none with
    /// `--no-group-separator`.
    group_separator: Option<String>,
    max_count: Option<usize>,
    byte_offset: bool,
    null_data: bool,
    null_after_name: bool,
    text: bool,
    /// `-I`, `--binary-files=without-match`: a binary file does not match.
    skip_binary: bool,
    includes: Vec<String>,
    excludes: Vec<String>,
    exclude_dirs: Vec<String>,
    patterns: Vec<String>,
    pattern_files: Vec<String>,
    operands: Vec<String>,
    label: String,
    /// `--color=always`: matches, names, numbers and separators marked.
    color: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        label: "(standard input)".to_string(),
        group_separator: Some("--".to_string()),
        ..Options::default()
    };
    let mut i = 1;
    let mut positional_only = false;
    while i < args.len() {
        let arg = args[i].clone();
        i += 1;
        if positional_only || !arg.starts_with('-') || arg == "-" {
            o.operands.push(arg);
            continue;
        }
        if arg == "--" {
            positional_only = true;
            continue;
        }
        let value =
            |name: &str, attached: Option<String>, i: &mut usize| -> Result<String, String> {
                if let Some(v) = attached {
                    return Ok(v);
                }
                let v = args
                    .get(*i)
                    .cloned()
                    .ok_or_else(|| format!("option requires an argument -- '{name}'"))?;
                *i += 1;
                Ok(v)
            };
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            match name {
                "extended-regexp" => o.syntax = Some(Syntax::Extended),
                "fixed-strings" => o.syntax = Some(Syntax::Fixed),
                "basic-regexp" => o.syntax = Some(Syntax::Basic),
                "perl-regexp" => o.syntax = Some(Syntax::Perl),
                "ignore-case" => o.ignore_case = true,
                "invert-match" => o.invert = true,
                "count" => o.count = true,
                "files-with-matches" => o.files_with_matches = true,
                "files-without-match" => o.files_without_match = true,
                "line-number" => o.line_numbers = true,
                "no-line-number" => o.line_numbers = false,
                "with-filename" => o.filename = Some(true),
                "no-filename" => o.filename = Some(false),
                "only-matching" => o.only_matching = true,
                "quiet" | "silent" => o.quiet = true,
                "no-messages" => o.silent = true,
                "recursive" => o.recursive = true,
                "dereference-recursive" => {
                    o.recursive = true;
                    o.dereference = true;
                }
                "word-regexp" => o.word = true,
                "line-regexp" => o.line = true,
                "byte-offset" => o.byte_offset = true,
                "null-data" => o.null_data = true,
                "text" => o.text = true,
                "binary-files" => match value(name, attached, &mut i)?.as_str() {
                    "binary" => o.skip_binary = false,
                    "text" => o.text = true,
                    "without-match" => o.skip_binary = true,
                    other => return Err(format!("unknown binary-files type '{other}'")),
                },
                "color" | "colour" => o.color = colors::when(attached.as_deref())?,
                "binary" | "line-buffered" => {}
                "group-separator" => o.group_separator = Some(value(name, attached, &mut i)?),
                "no-group-separator" => o.group_separator = None,
                "after-context" => {
                    o.context_given = true;
                    o.after = value(name, attached, &mut i)?
                        .parse()
                        .map_err(|_| "invalid context length argument".to_string())?
                }
                "before-context" => {
                    o.context_given = true;
                    o.before = value(name, attached, &mut i)?
                        .parse()
                        .map_err(|_| "invalid context length argument".to_string())?
                }
                "context" => {
                    o.context_given = true;
                    let n = value(name, attached, &mut i)?
                        .parse()
                        .map_err(|_| "invalid context length argument".to_string())?;
                    o.after = n;
                    o.before = n;
                }
                "max-count" => o.max_count = value(name, attached, &mut i)?.parse().ok(),
                "regexp" => o.patterns.push(value(name, attached, &mut i)?),
                "file" => o.pattern_files.push(value(name, attached, &mut i)?),
                "include" => o.includes.push(value(name, attached, &mut i)?),
                "exclude" => o.excludes.push(value(name, attached, &mut i)?),
                "exclude-dir" => o.exclude_dirs.push(value(name, attached, &mut i)?),
                "label" => o.label = value(name, attached, &mut i)?,
                _ => return Err(format!("unrecognized option '--{name}'")),
            }
            continue;
        }
        let chars: Vec<char> = arg[1..].chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            j += 1;
            let attached = if j < chars.len() {
                Some(chars[j..].iter().collect::<String>())
            } else {
                None
            };
            let takes_value = matches!(c, 'e' | 'f' | 'A' | 'B' | 'C' | 'm');
            if takes_value {
                let v = value(&c.to_string(), attached, &mut i)?;
                j = chars.len();
                let number = |v: &str| {
                    v.parse::<usize>()
                        .map_err(|_| format!("{v}: invalid context length argument"))
                };
                o.context_given |= matches!(c, 'A' | 'B' | 'C');
                match c {
                    'e' => o.patterns.push(v),
                    'f' => o.pattern_files.push(v),
                    'A' => o.after = number(&v)?,
                    'B' => o.before = number(&v)?,
                    'C' => {
                        o.after = number(&v)?;
                        o.before = o.after;
                    }
                    'm' => o.max_count = v.parse().ok(),
                    _ => {}
                }
                continue;
            }
            if c.is_ascii_digit() {
                let digits: String = std::iter::once(c)
                    .chain(
                        chars[j..]
                            .iter()
                            .copied()
                            .take_while(|c| c.is_ascii_digit()),
                    )
                    .collect();
                j += digits.len() - 1;
                let n = digits.parse().unwrap_or(0);
                o.context_given = true;
                o.after = n;
                o.before = n;
                continue;
            }
            match c {
                'E' => o.syntax = Some(Syntax::Extended),
                'F' => o.syntax = Some(Syntax::Fixed),
                'G' => o.syntax = Some(Syntax::Basic),
                'P' => o.syntax = Some(Syntax::Perl),
                'i' | 'y' => o.ignore_case = true,
                'v' => o.invert = true,
                'c' => o.count = true,
                'l' => o.files_with_matches = true,
                'L' => o.files_without_match = true,
                'n' => o.line_numbers = true,
                'N' => o.line_numbers = false,
                'H' => o.filename = Some(true),
                'h' => o.filename = Some(false),
                'o' => o.only_matching = true,
                'q' => o.quiet = true,
                's' => o.silent = true,
                'r' => o.recursive = true,
                'R' => {
                    o.recursive = true;
                    o.dereference = true;
                }
                'w' => o.word = true,
                'x' => o.line = true,
                'b' => o.byte_offset = true,
                'z' => o.null_data = true,
                'Z' => o.null_after_name = true,
                'a' => o.text = true,
                'I' => o.skip_binary = true,
                'U' | 'S' | 'u' | 'T' => {}
                _ => return Err(format!("invalid option -- '{c}'")),
            }
        }
    }
    Ok(o)
}

pub fn grep(shell: &mut ShellView, args: &[String]) -> ExecResult {
    run(shell, args)
}

pub fn egrep(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut args = args.to_vec();
    args.insert(1, "-E".to_string());
    run(shell, &args)
}

pub fn fgrep(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut args = args.to_vec();
    args.insert(1, "-F".to_string());
    run(shell, &args)
}

fn usage(shell: &mut ShellView, name: &str, message: &str) -> ExecResult {
    Ok(shell.fail_command(name, &format!("{message}\nUsage: {name} [OPTION]... PATTERNS [FILE]...\nTry '{name} --help' for more information."), 2))
}

fn run(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let name = "grep";
    let mut options = match parse(args) {
        Ok(options) => options,
        Err(message) => return usage(shell, name, &message),
    };
    let pattern_files_given = !options.pattern_files.is_empty();
    for file in std::mem::take(&mut options.pattern_files) {
        match open_quiet(shell, &file).and_then(|mut s| s.read_all().map_err(|_| "read error")) {
            Ok(data) => options
                .patterns
                .extend(String::from_utf8_lossy(&data).lines().map(str::to_string)),
            Err(reason) => return Ok(shell.fail_command(name, &format!("{file}: {reason}"), 2)),
        }
    }
    // `-e`/`-f` name the patterns; an empty pattern file names none, and
    // then nothing matches (GNU grep).
    let explicit = !options.patterns.is_empty() || pattern_files_given;
    if !explicit {
        if options.operands.is_empty() {
            return usage(shell, name, "no pattern given");
        }
        let pattern = options.operands.remove(0);
        options
            .patterns
            .extend(pattern.split('\n').map(str::to_string));
    }
    let syntax = options.syntax.unwrap_or(Syntax::Basic);
    let mut alternatives: Vec<String> =
        options.patterns.iter().map(|p| syntax.to_rust(p)).collect();
    if options.word {
        alternatives = alternatives
            .into_iter()
            .map(|p| format!(r"\b(?:{p})\b"))
            .collect();
    }
    if options.line {
        alternatives = alternatives
            .into_iter()
            .map(|p| format!("^(?:{p})$"))
            .collect();
    }
    let combined = if alternatives.len() == 1 {
        alternatives[0].clone()
    } else {
        alternatives
            .iter()
            .map(|p| format!("(?:{p})"))
            .collect::<Vec<_>>()
            .join("|")
    };
    let made = if syntax == Syntax::Perl {
        Matcher::perl(&combined, options.ignore_case)
    } else {
        Matcher::from_rust(&combined, options.ignore_case)
    };
    let matcher = match made {
        Ok(matcher) => matcher,
        Err(error) => {
            return Ok(shell.fail_command(
                name,
                &format!("invalid regular expression: {error}"),
                2,
            ));
        }
    };
    let no_patterns = options.patterns.is_empty();
    // When no line can be selected (`-f /dev/null`, `-m 0`), GNU grep
    // reads nothing and prints nothing, unless -L is to list the files.
    if (no_patterns && !options.invert || options.max_count == Some(0))
        && !options.files_without_match
    {
        return Ok(1);
    }
    let empty_pattern = !no_patterns && options.patterns.iter().all(String::is_empty);
    // With no operand, `grep -r` searches the working directory and names
    // files without a leading `./`.
    let implicit_dot = options.operands.is_empty() && options.recursive;
    let operands = if implicit_dot {
        vec![".".to_string()]
    } else if options.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        options.operands.clone()
    };
    let mut files: Vec<(String, Option<VfsPath>)> = Vec::new();
    let mut status = 1;
    let mut error = false;
    for operand in &operands {
        if operand == "-" {
            files.push((operand.clone(), None));
            continue;
        }
        let resolved = shell.cwd().resolve(operand).ok();
        let node = resolved
            .as_ref()
            .and_then(|p| shell.context().vfs.lock().lookup(p).ok());
        // Devices and `/dev/fd/N` (a process substitution) are streams,
        // read when their turn comes; named, they are shown by name.
        if node.is_none()
            && (goccia_interp::interp::is_device(operand) || operand.starts_with("/dev/fd/"))
        {
            files.push((operand.clone(), None));
            continue;
        }
        match (resolved, node) {
            (Some(path), Some(Node::Dir(_))) => {
                if options.recursive {
                    let shown = if implicit_dot { "" } else { operand.as_str() };
                    collect_files(shell, shown, &path, &options, &mut files);
                } else {
                    if !options.silent {
                        shell.fail_command(name, &format!("{operand}: Is a directory"), 2);
                    }
                    error = true;
                }
            }
            (Some(path), Some(Node::File(_))) => files.push((operand.clone(), Some(path))),
            _ => {
                if !options.silent {
                    shell.fail_command(name, &format!("{operand}: No such file or directory"), 2);
                }
                error = true;
            }
        }
    }
    let show_names = options.filename.unwrap_or(
        files.len() > 1
            || options.recursive
                && !(files.len() == 1
                    && operands.len() == 1
                    && !shell.context().vfs.lock().is_dir(
                        &shell
                            .cwd()
                            .resolve(&operands[0])
                            .unwrap_or_else(|_| VfsPath::root()),
                    )),
    );
    let palette = options.color.then(|| {
        let deprecated = shell.get_var("GREP_COLOR").filter(|value| !value.is_empty());
        if let Some(value) = &deprecated {
            shell.write_stderr(
                format!(
                    "grep: warning: GREP_COLOR='{value}' is deprecated; use GREP_COLORS='mt={value}'\n"
                )
                .as_bytes(),
            );
        }
        colors::Colors::from_env(shell.get_var("GREP_COLORS").as_deref(), deprecated.as_deref())
    });
    let mut out: Vec<u8> = Vec::new();
    for (shown, path) in &files {
        let mut source = match path {
            None if shown == "-" => Source::stdin(shell),
            None => match open_quiet(shell, shown) {
                Ok(source) => source,
                Err(reason) => {
                    if !options.silent {
                        shell.fail_command(name, &format!("{shown}: {reason}"), 2);
                    }
                    error = true;
                    continue;
                }
            },
            Some(path) => match shell.context().vfs.lock().read_file(path) {
                Ok(data) => Source::Data(data),
                Err(_) => continue,
            },
        };
        let display = if shown == "-" && path.is_none() {
            options.label.clone()
        } else {
            shown.clone()
        };
        let result = search(
            shell,
            &mut source,
            &display,
            show_names,
            &options,
            &Selector {
                matcher: &matcher,
                colors: palette.as_ref(),
                empty_pattern,
                none: no_patterns,
            },
            &mut out,
        );
        match result {
            Ok(true) => {
                status = 0;
                if options.quiet {
                    break;
                }
            }
            Ok(false) => {}
            Err(io_error) => return shell.io_status(name, io_error),
        }
        if out.len() > 64 << 10 {
            if let Err(io_error) = shell.write_stdout(&out) {
                return shell.io_status(name, io_error);
            }
            out.clear();
        }
    }
    if !options.quiet
        && let Err(io_error) = shell.write_stdout(&out)
    {
        return shell.io_status(name, io_error);
    }
    if error && !(options.quiet && status == 0) {
        return Ok(2);
    }
    Ok(status)
}

fn collect_files(
    shell: &ShellView,
    shown: &str,
    path: &VfsPath,
    options: &Options,
    files: &mut Vec<(String, Option<VfsPath>)>,
) {
    let Ok(entries) = shell.context().vfs.lock().read_dir(path) else {
        return;
    };
    for entry in entries {
        let child_shown = if shown.is_empty() || shown.ends_with('/') {
            format!("{shown}{}", entry.name)
        } else {
            format!("{shown}/{}", entry.name)
        };
        let child = path.join(&entry.name);
        // `-r` leaves the links it meets alone; `-R` follows them (but not
        // into a folder it is already inside).
        let node_type = match entry.node_type {
            goccia_vfs::NodeType::Symlink if options.dereference => {
                let vfs = shell.context().vfs.lock();
                match (
                    vfs.stat(&child),
                    vfs.resolve(&child, true),
                    vfs.resolve(path, true),
                ) {
                    (Ok(stat), Ok(real), Ok(here)) if !here.starts_with(&real) => stat.node_type,
                    _ => continue,
                }
            }
            other => other,
        };
        match node_type {
            goccia_vfs::NodeType::Symlink => {}
            goccia_vfs::NodeType::Directory => {
                if options
                    .exclude_dirs
                    .iter()
                    .any(|p| Pattern::new(p, true).matches(&entry.name))
                {
                    continue;
                }
                collect_files(shell, &child_shown, &child, options, files);
            }
            goccia_vfs::NodeType::File => {
                if !options.includes.is_empty()
                    && !options
                        .includes
                        .iter()
                        .any(|p| Pattern::new(p, true).matches(&entry.name))
                {
                    continue;
                }
                if options
                    .excludes
                    .iter()
                    .any(|p| Pattern::new(p, true).matches(&entry.name))
                {
                    continue;
                }
                files.push((child_shown, Some(child)));
            }
        }
    }
}

/// What selects a line: the patterns compiled, whether they are all empty
/// (every line matches), or whether there are none (an empty `-f` file:
/// no line matches).
struct Selector<'a> {
    matcher: &'a Matcher,
    /// The markers of `--color=always`, if given.
    colors: Option<&'a colors::Colors>,
    empty_pattern: bool,
    none: bool,
}

/// Searches one file as a stream, a line at a time; returns whether a
/// line was selected (GNU grep's exit status is about selected lines,
/// whatever `-L` lists). It stops reading as soon as the answer is known
/// (`-q`, `-l`, `-L`, `-m`), so a writer upstream sees a closed pipe, as
/// with GNU grep.
fn search(
    shell: &mut ShellView,
    source: &mut Source,
    name: &str,
    show_names: bool,
    options: &Options,
    selector: &Selector<'_>,
    out: &mut Vec<u8>,
) -> std::io::Result<bool> {
    let matcher = selector.matcher;
    let palette = selector.colors;
    let separator = if options.null_data { 0 } else { b'\n' };
    let terminator = separator;
    // A file is binary when it holds a NUL; a VFS file is looked at whole
    // up front, a stream line by line (GNU looks at its first buffer).
    let mut binary = !options.text
        && !options.null_data
        && matches!(source, Source::Data(data) if data[..data.len().min(32 << 10)].contains(&0));
    // Under `-I` a binary file is one without a match: what it printed
    // before it showed itself binary (a stream) is taken back.
    let mark = out.len();
    let mut skipped = binary && options.skip_binary;
    let listing =
        options.files_with_matches || options.files_without_match || options.count || options.quiet;
    let context = options.context_given;
    // A part of a line's prefix: marked under `--color=always`.
    let paint =
        |out: &mut Vec<u8>, sgr: &dyn Fn(&colors::Colors) -> &str, text: &[u8]| match palette {
            Some(colors) => colors.paint(out, sgr(colors), text),
            None => out.extend_from_slice(text),
        };
    let prefix = |out: &mut Vec<u8>, number: usize, byte: usize, sep: u8| {
        if show_names {
            paint(out, &|c| &c.file_name, name.as_bytes());
            if options.null_after_name {
                out.push(0);
            } else {
                paint(out, &|c| &c.separator, &[sep]);
            }
        }
        if options.line_numbers {
            paint(out, &|c| &c.line_number, number.to_string().as_bytes());
            paint(out, &|c| &c.separator, &[sep]);
        }
        if options.byte_offset {
            paint(out, &|c| &c.byte_offset, byte.to_string().as_bytes());
            paint(out, &|c| &c.separator, &[sep]);
        }
    };
    // A printed line: under `--color=always` its matches are marked when
    // it matched (a selected line, or a context line under `-v`), in the
    // colour of selected or context lines.
    let body = |out: &mut Vec<u8>, line: &[u8], selected: bool| {
        let Some(colors) = palette.filter(|_| selected != options.invert) else {
            out.extend_from_slice(line);
            return;
        };
        let Ok(text) = std::str::from_utf8(line) else {
            out.extend_from_slice(line);
            return;
        };
        let sgr = if selected {
            &colors.selected_match
        } else {
            &colors.context_match
        };
        let mut done = 0;
        for found in matcher.find_all(text) {
            if found.end == found.start {
                continue;
            }
            out.extend_from_slice(&line[done..found.start]);
            colors.paint(out, sgr, &line[found.start..found.end]);
            done = found.end;
        }
        out.extend_from_slice(&line[done..]);
    };
    let mut matches = 0usize;
    let mut index = 0usize;
    let mut offset = 0usize;
    let mut last_printed: Option<usize> = None;
    let mut pending_after = 0usize;
    // The lines before the current one that `-B` may print: (number, offset, text).
    let mut before: std::collections::VecDeque<(usize, usize, Vec<u8>)> =
        std::collections::VecDeque::new();
    let mut stop: Option<std::io::Error> = None;
    let mut binary_match = false;
    let skip_at_once = skipped;
    let utf8_locale = !shell.bytewise_locale();
    source.for_each_record(separator, |record| {
        if skip_at_once {
            return Ok(false);
        }
        let line = record.strip_suffix(&[separator]).unwrap_or(record);
        let (number, at) = (index, offset);
        index += 1;
        offset += record.len();
        if number % 4096 == 0
            && let Err(stopped) = shell.check_stop()
        {
            stop = Some(stopped.into_io());
            return Ok(false);
        }
        // A NUL, or in a UTF-8 locale bytes that are not UTF-8, make the
        // input binary, as GNU grep finds it (it prints no such line).
        if !binary
            && !options.text
            && !options.null_data
            && (line.contains(&0) || (utf8_locale && std::str::from_utf8(line).is_err()))
        {
            binary = true;
            if options.skip_binary {
                skipped = true;
                return Ok(false);
            }
        }
        if options.max_count.is_some_and(|m| matches >= m) && pending_after == 0 {
            return Ok(false);
        }
        let text = String::from_utf8_lossy(line);
        let selected =
            !selector.none && (selector.empty_pattern && !options.line || matcher.is_match(&text));
        let is_match = selected != options.invert;
        if is_match && options.max_count.is_none_or(|m| matches < m) {
            matches += 1;
            if listing {
                // The answer is known once a line is selected, unless
                // lines are being counted.
                return Ok(options.count
                    && !options.files_with_matches
                    && !options.files_without_match);
            }
            if binary {
                // GNU grep notes binary matches instead of printing them.
                binary_match = true;
                return Ok(false);
            }
            // Groups of lines that do not touch are separated by `--`.
            let gap = |out: &mut Vec<u8>, last: Option<usize>, next: usize| {
                if let Some(separator) = options.group_separator.as_deref()
                    && context
                    && last.is_some_and(|last| last + 1 < next)
                {
                    paint(out, &|c| &c.separator, separator.as_bytes());
                    out.push(b'\n');
                }
            };
            for (ctx_number, ctx_offset, ctx_line) in before.drain(..) {
                gap(out, last_printed, ctx_number);
                prefix(out, ctx_number + 1, ctx_offset, b'-');
                body(out, &ctx_line, false);
                out.push(terminator);
                last_printed = Some(ctx_number);
            }
            gap(out, last_printed, number);
            if options.only_matching && !options.invert {
                for found in matcher.find_all(&text) {
                    if found.end == found.start {
                        continue;
                    }
                    prefix(out, number + 1, at + found.start, b':');
                    paint(
                        out,
                        &|c| &c.selected_match,
                        text[found.start..found.end].as_bytes(),
                    );
                    out.push(terminator);
                }
            } else {
                prefix(out, number + 1, at, b':');
                body(out, line, true);
                out.push(terminator);
            }
            last_printed = Some(number);
            pending_after = options.after;
        } else if pending_after > 0 && !listing {
            prefix(out, number + 1, at, b'-');
            body(out, line, false);
            out.push(terminator);
            last_printed = Some(number);
            pending_after -= 1;
        } else if options.before > 0 && !listing {
            before.push_back((number, at, line.to_vec()));
            if before.len() > options.before {
                before.pop_front();
            }
        }
        Ok(true)
    })?;
    if let Some(stopped) = stop {
        return Err(stopped);
    }
    if skipped {
        out.truncate(mark);
        matches = 0;
        binary_match = false;
    }
    if binary_match {
        // GNU grep 3.5 and later: a note on stderr, nothing on stdout.
        shell.write_stderr(format!("grep: {name}: binary file matches\n").as_bytes());
        return Ok(true);
    }
    // `-l` and `-L` list names instead of counting.
    if options.count && !options.files_with_matches && !options.files_without_match {
        if show_names {
            paint(out, &|c| &c.file_name, name.as_bytes());
            if options.null_after_name {
                out.push(0);
            } else {
                paint(out, &|c| &c.separator, b":");
            }
        }
        out.extend_from_slice(format!("{matches}\n").as_bytes());
    }
    let name_end = if options.null_after_name { 0 } else { b'\n' };
    let listed =
        options.files_with_matches && matches > 0 || options.files_without_match && matches == 0;
    if listed {
        paint(out, &|c| &c.file_name, name.as_bytes());
        out.push(name_end);
    }
    Ok(matches > 0)
}
