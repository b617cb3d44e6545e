//! `csplit`: a file cut into pieces at line numbers and at lines that
//! match, as GNU coreutils 9.1 cuts it. Where each piece ends, which line
//! a search starts from after an offset, what an error leaves behind and
//! the order of sizes and messages come from GNU's procedure, so it is
//! followed step by step (`process_regexp`, `process_line_count`,
//! `write_to_file` in GNU's `csplit.c`): a search starts after the last
//! line it examined, and a match's own line opens the next piece.

use crate::args::{parse_options, usage};
use crate::matcher::{Matcher, Syntax};
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::VfsPath;

/// Where a piece ends.
enum Cut {
    /// Before this line number (`N`; with `{k}`, before each multiple).
    Line(u64),
    /// Before the line that matches, moved by `offset` lines; `skip` drops
    /// the piece (`%RE%`).
    Match {
        matcher: Matcher,
        offset: i64,
        skip: bool,
    },
}

/// How often a cut applies (`{N}` and `{*}` after it).
enum Repeat {
    Times(u64),
    Forever,
}

struct Control {
    cut: Cut,
    repeat: Repeat,
    /// The argument as given, for messages.
    argument: String,
}

/// Why splitting stopped early: the message is written; what remains is
/// to close the open piece and remove the pieces unless `-k`.
struct Fatal;

pub fn csplit(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "bfn",
        &[
            ("suffix-format", 'b', true),
            ("prefix", 'f', true),
            ("keep-files", 'k', false),
            ("digits", 'n', true),
            ("quiet", 's', false),
            ("silent", 's', false),
            ("elide-empty-files", 'z', false),
            ("suppress-matched", 'M', false),
        ]
    );
    let Some((file, patterns)) = parsed.operands.split_first() else {
        return usage(shell, "csplit", "missing operand", 1);
    };
    if patterns.is_empty() {
        let message = format!("missing operand after \u{2018}{file}\u{2019}");
        return usage(shell, "csplit", &message, 1);
    }
    let suffix = match (parsed.value('b'), parsed.value('n')) {
        (Some(format), _) => match Suffix::parse(format) {
            Some(suffix) => suffix,
            None => {
                let message = format!("invalid suffix format: {format}");
                return Ok(shell.fail_command("csplit", &message, 1));
            }
        },
        (None, digits) => match digits.unwrap_or("2").parse::<usize>() {
            Ok(width) => Suffix::decimal(width),
            Err(_) => {
                let message = format!("invalid number: \u{2018}{}\u{2019}", digits.unwrap_or(""));
                return Ok(shell.fail_command("csplit", &message, 1));
            }
        },
    };
    let controls = match parse_controls(shell, patterns) {
        Ok(controls) => controls,
        Err(message) => return Ok(shell.fail_command("csplit", &message, 1)),
    };
    let input = match goccia_interp::input::open_quiet(shell, file)
        .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"))
    {
        Ok(input) => input,
        Err(reason) => {
            let message = format!("cannot open '{file}' for reading: {reason}");
            return Ok(shell.fail_command("csplit", &message, 1));
        }
    };
    let mut split = Split {
        lines: input.split_inclusive(|b| *b == b'\n').collect(),
        first_available: 0,
        current_line: 0,
        open: None,
        created: Vec::new(),
        sizes: String::new(),
        prefix: parsed.value('f').unwrap_or("xx").to_string(),
        suffix,
        elide_empty: parsed.has('z'),
        quiet: parsed.has('s'),
        suppress_matched: parsed.has('M'),
    };
    let ended = split.run(shell, &controls);
    let status = match ended {
        Ok(()) => 0,
        Err(Fatal) => {
            split.close(shell);
            if !parsed.has('k') {
                let vfs = shell.context().vfs.clone();
                let mut vfs = vfs.lock();
                for path in &split.created {
                    let _ = vfs.remove_file(path);
                }
            }
            1
        }
    };
    // Standard output is not a terminal: the sizes come out at the end,
    // after any message, as GNU's buffered output does.
    match shell.write_stdout(split.sizes.as_bytes()) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("csplit", error),
    }
}

/// The cuts, with GNU's refusals of what cannot be one.
fn parse_controls(shell: &mut ShellView, patterns: &[String]) -> Result<Vec<Control>, String> {
    let quoted = |text: &str| format!("\u{2018}{text}\u{2019}");
    let mut controls: Vec<Control> = Vec::new();
    let mut last_line = 0;
    let mut repeated = false;
    for argument in patterns {
        if let Some(inner) = argument.strip_prefix('{') {
            let Some(inner) = inner.strip_suffix('}') else {
                return Err(format!("{}: invalid pattern", quoted(argument)));
            };
            // GNU's message quotes all but the closing brace.
            let bad =
                || format!("\u{2018}{{{inner}\u{2019}}}: integer required between '{{' and '}}'");
            let repeat = match inner {
                "*" => Repeat::Forever,
                digits if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                    Repeat::Times(digits.parse().map_err(|_| bad())?)
                }
                _ => return Err(bad()),
            };
            // A count follows a cut, once.
            let Some(previous) = controls.last_mut().filter(|_| !repeated) else {
                return Err(format!("{}: invalid pattern", quoted(argument)));
            };
            previous.repeat = repeat;
            repeated = true;
            continue;
        }
        let cut = match argument.chars().next() {
            Some(delimiter @ ('/' | '%')) => {
                let body = &argument[1..];
                let Some(end) = body.rfind(delimiter) else {
                    return Err(format!(
                        "{argument}: closing delimiter '{delimiter}' missing"
                    ));
                };
                let (expression, offset_text) = (&body[..end], &body[end + 1..]);
                let offset = if offset_text.is_empty() {
                    0
                } else {
                    let digits = offset_text.strip_prefix(['+', '-']).unwrap_or(offset_text);
                    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(format!(
                            "{}: integer expected after delimiter",
                            quoted(argument)
                        ));
                    }
                    offset_text
                        .trim_start_matches('+')
                        .parse::<i64>()
                        .map_err(|_| {
                            format!("{}: integer expected after delimiter", quoted(argument))
                        })?
                };
                let translated = Syntax::Basic.to_rust(expression);
                let matcher = Matcher::from_rust(&translated, false).map_err(|_| {
                    format!(
                        "{}: invalid regular expression: Invalid regular expression",
                        quoted(argument)
                    )
                })?;
                Cut::Match {
                    matcher,
                    offset,
                    skip: delimiter == '%',
                }
            }
            _ if !argument.is_empty() && argument.bytes().all(|b| b.is_ascii_digit()) => {
                let number: u64 = argument
                    .parse()
                    .map_err(|_| format!("{}: invalid pattern", quoted(argument)))?;
                if number == 0 {
                    return Err(format!("{argument}: line number must be greater than zero"));
                }
                if number < last_line {
                    return Err(format!(
                        "line number {} is smaller than preceding line number, {last_line}",
                        quoted(argument)
                    ));
                }
                if number == last_line {
                    let warning = format!(
                        "warning: line number {} is the same as preceding line number",
                        quoted(argument)
                    );
                    shell.fail_command("csplit", &warning, 0);
                }
                last_line = number;
                Cut::Line(number)
            }
            _ => return Err(format!("{}: invalid pattern", quoted(argument))),
        };
        repeated = false;
        controls.push(Control {
            cut,
            repeat: Repeat::Times(0),
            argument: argument.clone(),
        });
    }
    Ok(controls)
}

/// `-b FORMAT` or `-n N`: a piece's number as printf would write it.
struct Suffix {
    before: String,
    after: String,
    width: usize,
    zeros: bool,
    left: bool,
    radix: char,
}

impl Suffix {
    fn decimal(width: usize) -> Self {
        Suffix {
            before: String::new(),
            after: String::new(),
            width,
            zeros: true,
            left: false,
            radix: 'd',
        }
    }

    /// One integer conversion (`%02d`, `%03x`, `%o`, ...) among literal
    /// text; `%%` is a `%`.
    fn parse(format: &str) -> Option<Self> {
        let mut suffix = Suffix::decimal(0);
        suffix.zeros = false;
        let mut chars = format.chars().peekable();
        let mut seen = false;
        while let Some(c) = chars.next() {
            let text = if seen {
                &mut suffix.after
            } else {
                &mut suffix.before
            };
            if c != '%' {
                text.push(c);
                continue;
            }
            if chars.peek() == Some(&'%') {
                chars.next();
                text.push('%');
                continue;
            }
            if seen {
                return None;
            }
            while let Some(&flag) = chars.peek().filter(|c| "-0#' +".contains(**c)) {
                suffix.zeros |= flag == '0';
                suffix.left |= flag == '-';
                chars.next();
            }
            let mut width = String::new();
            while let Some(&digit) = chars.peek().filter(|c| c.is_ascii_digit()) {
                width.push(digit);
                chars.next();
            }
            suffix.width = width.parse().unwrap_or(0);
            suffix.radix = chars.next().filter(|c| "diuxXo".contains(*c))?;
            seen = true;
        }
        seen.then_some(suffix)
    }

    fn name(&self, number: usize) -> String {
        let digits = match self.radix {
            'x' => format!("{number:x}"),
            'X' => format!("{number:X}"),
            'o' => format!("{number:o}"),
            _ => number.to_string(),
        };
        let padded = if self.left {
            goccia_interp::pad::right_pad(&digits, self.width, ' ')
        } else {
            let fill = if self.zeros { '0' } else { ' ' };
            goccia_interp::pad::left_pad(&digits, self.width, fill)
        };
        format!("{}{padded}{}", self.before, self.after)
    }
}

/// GNU's state: the input's lines, the first not yet written or dropped,
/// the last examined, and the piece being written.
struct Split<'a> {
    lines: Vec<&'a [u8]>,
    /// Index of the first line still in the buffer.
    first_available: usize,
    /// Line number (from 1) of the last line a search examined.
    current_line: usize,
    open: Option<(VfsPath, Vec<u8>)>,
    created: Vec<VfsPath>,
    sizes: String,
    prefix: String,
    suffix: Suffix,
    elide_empty: bool,
    quiet: bool,
    suppress_matched: bool,
}

impl<'a> Split<'a> {
    fn run(&mut self, shell: &mut ShellView, controls: &[Control]) -> Result<(), Fatal> {
        for control in controls {
            let mut repetition = 0;
            loop {
                shell.check_watch().map_err(|_| Fatal)?;
                let finished = match &control.cut {
                    Cut::Line(number) => {
                        self.line_count(shell, *number, repetition)?;
                        false
                    }
                    Cut::Match {
                        matcher,
                        offset,
                        skip,
                    } => self.regexp(shell, control, matcher, *offset, *skip, repetition)?,
                };
                if finished {
                    return Ok(());
                }
                repetition += 1;
                match control.repeat {
                    Repeat::Forever => {}
                    Repeat::Times(times) if repetition <= times => {}
                    Repeat::Times(_) => break,
                }
            }
        }
        self.create(shell)?;
        self.dump_rest();
        self.close(shell);
        Ok(())
    }

    /// A cut at a match. True when `{*}` met the end of the input: the
    /// rest was written and splitting is over.
    fn regexp(
        &mut self,
        shell: &mut ShellView,
        control: &Control,
        matcher: &Matcher,
        offset: i64,
        skip: bool,
        repetition: u64,
    ) -> Result<bool, Fatal> {
        if !skip {
            self.create(shell)?;
        }
        loop {
            self.current_line += 1;
            let Some(line) = self.lines.get(self.current_line - 1).copied() else {
                if matches!(control.repeat, Repeat::Forever) {
                    if !skip {
                        self.dump_rest();
                        self.close(shell);
                    }
                    return Ok(true);
                }
                let again = if repetition > 0 {
                    format!(" on repetition {repetition}")
                } else {
                    String::new()
                };
                let message = format!(
                    "\u{2018}{}\u{2019}: match not found{again}",
                    control.argument
                );
                shell.fail_command("csplit", &message, 1);
                if !skip {
                    self.dump_rest();
                    self.close(shell);
                }
                return Err(Fatal);
            };
            let text = line.strip_suffix(b"\n").unwrap_or(line);
            if matcher.is_match(&goccia_interp::raw::decode(text)) {
                break;
            }
            // With no offset or a positive one, a line searched past is
            // written at once; a negative offset may still want it.
            if offset >= 0 {
                let line = self.remove_line();
                if !skip && let Some(line) = line {
                    self.save(line);
                }
            }
        }
        let break_line = self.current_line as i64 + offset;
        self.write_up_to(shell, break_line, skip, &control.argument)?;
        if !skip {
            self.close(shell);
        }
        if offset > 0 {
            self.current_line = break_line as usize;
        }
        // `--suppress-matched`: the line the piece ended at is dropped.
        if self.suppress_matched {
            self.remove_line();
        }
        Ok(false)
    }

    /// Lines up to (not including) `last_line` into the open piece.
    fn write_up_to(
        &mut self,
        shell: &mut ShellView,
        last_line: i64,
        skip: bool,
        argument: &str,
    ) -> Result<(), Fatal> {
        let first_line = self.first_available as i64 + 1;
        // GNU reports this one with `error()`, which writes what standard
        // output holds first.
        let out_of_range = |split: &mut Self, shell: &mut ShellView| {
            let sizes = std::mem::take(&mut split.sizes);
            let _ = shell.write_stdout(sizes.as_bytes());
            let message = format!("\u{2018}{argument}\u{2019}: line number out of range");
            shell.fail_command("csplit", &message, 1);
            Fatal
        };
        if first_line > last_line {
            return Err(out_of_range(self, shell));
        }
        for _ in 0..last_line - first_line {
            let Some(line) = self.remove_line() else {
                return Err(out_of_range(self, shell));
            };
            if !skip {
                self.save(line);
            }
        }
        Ok(())
    }

    /// A cut before line `number` (times `repetition + 1`).
    fn line_count(
        &mut self,
        shell: &mut ShellView,
        number: u64,
        repetition: u64,
    ) -> Result<(), Fatal> {
        let out_of_range = |shell: &mut ShellView| {
            let again = if repetition > 0 {
                format!(" on repetition {repetition}")
            } else {
                String::new()
            };
            let message = format!("\u{2018}{number}\u{2019}: line number out of range{again}");
            shell.fail_command("csplit", &message, 1);
            Fatal
        };
        let last = number.saturating_mul(repetition + 1);
        self.create(shell)?;
        if self.no_more_lines() && self.suppress_matched {
            return Err(out_of_range(shell));
        }
        // Nothing left to read at all: GNU exits here (`die`), its piece
        // unsized and every piece left in place.
        if self.first_available >= self.lines.len() {
            self.open = None;
            self.created.clear();
            let sizes = std::mem::take(&mut self.sizes);
            let _ = shell.write_stdout(sizes.as_bytes());
            shell.fail_command("csplit", "input disappeared", 1);
            return Err(Fatal);
        }
        let mut line_number = self.first_available as u64 + 1;
        while line_number < last {
            line_number += 1;
            let Some(line) = self.remove_line() else {
                return Err(out_of_range(shell));
            };
            self.save(line);
        }
        self.close(shell);
        if self.suppress_matched {
            self.remove_line();
        }
        if self.no_more_lines() && !self.suppress_matched {
            return Err(out_of_range(shell));
        }
        Ok(())
    }

    /// Takes the first line still in the buffer. A search goes on after
    /// it: GNU moves its last examined line up to the line taken.
    fn remove_line(&mut self) -> Option<&'a [u8]> {
        let line = self.lines.get(self.first_available).copied()?;
        self.first_available += 1;
        self.current_line = self.current_line.max(self.first_available);
        Some(line)
    }

    /// Whether no line follows the last one examined (GNU's
    /// `no_more_lines`, which looks past `current_line`).
    fn no_more_lines(&self) -> bool {
        self.current_line >= self.lines.len()
    }

    fn dump_rest(&mut self) {
        while let Some(line) = self.remove_line() {
            self.save(line);
        }
    }

    fn save(&mut self, line: &[u8]) {
        if let Some((_, data)) = &mut self.open {
            data.extend_from_slice(line);
        }
    }

    /// Opens the next piece (named by how many there are).
    fn create(&mut self, shell: &mut ShellView) -> Result<(), Fatal> {
        let name = format!("{}{}", self.prefix, self.suffix.name(self.created.len()));
        let Ok(path) = shell.cwd().resolve(&name) else {
            let message = format!("{name}: No such file or directory");
            shell.fail_command("csplit", &message, 1);
            return Err(Fatal);
        };
        // The file exists from now on, as GNU opens it here.
        let made = shell.context().vfs.lock().write_file(&path, Vec::new());
        if let Err(error) = made {
            shell.fail_fs(
                "csplit",
                &name,
                &error,
                |reason| format!("{name}: {reason}"),
                1,
            );
            return Err(Fatal);
        }
        self.created.push(path.clone());
        self.open = Some((path, Vec::new()));
        Ok(())
    }

    /// Closes the open piece: written and its size noted, or, empty under
    /// `-z`, removed (its number is used again).
    fn close(&mut self, shell: &mut ShellView) {
        let Some((path, data)) = self.open.take() else {
            return;
        };
        let vfs = shell.context().vfs.clone();
        let mut vfs = vfs.lock();
        if data.is_empty() && self.elide_empty {
            let _ = vfs.remove_file(&path);
            self.created.pop();
            return;
        }
        if !self.quiet {
            self.sizes.push_str(&format!("{}\n", data.len()));
        }
        let _ = vfs.write_file(&path, data);
    }
}
