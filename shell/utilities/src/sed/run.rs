//! Running a compiled sed program over the input: the pattern and hold
//! spaces, cycles, branches, substitutions and the output they make.

use crate::sed::program::Address;
use crate::sed::program::Cmd;
use crate::sed::program::Instruction;
use crate::sed::program::RangeEnd;
use crate::sed::program::Regex;
use crate::sed::program::Replace;
use goccia_interp::input::Source;
use goccia_interp::input::open_quiet;
use goccia_interp::interp::{Flow, ShellView};
use std::collections::HashMap;

/// Per-run state.
pub(super) struct Machine<'a> {
    pub(super) program: &'a [Instruction],
    pub(super) labels: HashMap<String, usize>,
    pub(super) quiet: bool,
    pub(super) last_regex: Option<Regex>,
    pub(super) range_active: Vec<bool>,
    pub(super) range_end_line: Vec<usize>,
    pub(super) hold: String,
    /// Whether the hold space's text ends with a newline when printed.
    pub(super) hold_newline: bool,
    pub(super) line_number: usize,
    pub(super) output: Vec<u8>,
    pub(super) append_queue: Vec<String>,
    pub(super) writes: HashMap<String, Vec<u8>>,
    pub(super) separator: u8,
    /// The last line was written without its newline (the input's last
    /// line had none): anything written after it first gets one, as GNU
    /// sed's output does.
    pub(super) owes_separator: bool,
}

pub(super) enum Action {
    /// End of cycle (with auto-print unless `d`).
    EndCycle { print: bool },
    Quit {
        code: i32,
        print: bool,
        /// `q` ends what it prints with a newline even when the input's
        /// last line had none; `n` and `N` at the end do not, as GNU.
        whole_line: bool,
    },
    /// `D` with text left: restart the cycle without reading.
    Restart,
}

impl Machine<'_> {
    /// Writes a line (the pattern space, `=`'s number, `l`'s text) and,
    /// if `newline`, the separator after it; otherwise it is owed.
    fn write_line(&mut self, text: &str, newline: bool) {
        self.write_text(text);
        if newline {
            self.output.push(self.separator);
        } else {
            self.owes_separator = true;
        }
    }

    /// Writes text that carries its own line ends (`a`, `i`, `c`, `r`).
    fn write_text(&mut self, text: &str) {
        if std::mem::take(&mut self.owes_separator) {
            self.output.push(self.separator);
        }
        goccia_interp::raw::push_encoded(&mut self.output, text);
    }

    pub(super) fn matches_address(
        &mut self,
        address: &Address,
        space: &str,
        is_last: bool,
    ) -> bool {
        match address {
            Address::Line(n) => self.line_number == *n,
            Address::Last => is_last,
            Address::Zero => false,
            Address::Step(first, step) => {
                if *step == 0 {
                    self.line_number == *first
                } else {
                    self.line_number >= *first && (self.line_number - first).is_multiple_of(*step)
                }
            }
            Address::Regex(regex) => match regex {
                Some(regex) => {
                    let result = regex.is_match(space);
                    self.last_regex = Some((**regex).clone());
                    result
                }
                None => self.last_regex.as_ref().is_some_and(|r| r.is_match(space)),
            },
        }
    }

    pub(super) fn selected(&mut self, index: usize, space: &str, is_last: bool) -> bool {
        let selector = self.program[index].selector.clone();
        let result = match (&selector.start, &selector.end) {
            (None, _) => true,
            (Some(start), None) => self.matches_address(start, space, is_last),
            (Some(start), Some(end)) => {
                if self.range_active[index] {
                    let done = match end {
                        RangeEnd::Address(Address::Line(n)) => self.line_number >= *n,
                        RangeEnd::Address(address) => self.matches_address(address, space, is_last),
                        RangeEnd::Relative(_) | RangeEnd::Multiple(_) => {
                            self.line_number >= self.range_end_line[index]
                        }
                    };
                    if done {
                        self.range_active[index] = false;
                    }
                    true
                } else {
                    let starts = match start {
                        Address::Zero => {
                            // `0,/re/`: the range is active from the start and
                            // may end on line 1.
                            if self.line_number == 1 {
                                if let RangeEnd::Address(end) = end
                                    && !self.matches_address(end, space, is_last)
                                {
                                    self.range_active[index] = true;
                                }
                                true
                            } else {
                                false
                            }
                        }
                        other => self.matches_address(other, space, is_last),
                    };
                    if starts && !matches!(start, Address::Zero) {
                        let end_line = match end {
                            RangeEnd::Relative(n) => self.line_number + n,
                            RangeEnd::Multiple(m) => {
                                if *m == 0 {
                                    self.line_number
                                } else {
                                    self.line_number.div_ceil(*m).max(1) * m
                                }
                            }
                            RangeEnd::Address(Address::Line(n)) => *n,
                            _ => 0,
                        };
                        self.range_end_line[index] = end_line;
                        let ends_now = match end {
                            RangeEnd::Address(Address::Line(n)) => *n <= self.line_number,
                            RangeEnd::Relative(n) => *n == 0,
                            RangeEnd::Multiple(_) => end_line <= self.line_number,
                            _ => false,
                        };
                        self.range_active[index] = !ends_now;
                    }
                    starts
                }
            }
        };
        result != selector.negate
    }
}

fn substitute(
    space: &str,
    matcher: &Regex,
    replacement: &[Replace],
    global: bool,
    nth: usize,
) -> Option<String> {
    let view = matcher.view(space);
    substitute_in(&view, matcher, replacement, global, nth).map(|text| matcher.settle(text))
}

fn substitute_in(
    space: &str,
    matcher: &Regex,
    replacement: &[Replace],
    global: bool,
    nth: usize,
) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    let mut replaced = false;
    for (index, found) in matcher.matches(space).enumerate() {
        if index + 1 >= nth {
            out.push_str(&space[last..found.start]);
            apply_replacement(&mut out, space, &found, replacement);
            last = found.end;
            replaced = true;
            if !global {
                break;
            }
        }
    }
    if !replaced {
        return None;
    }
    out.push_str(&space[last..]);
    Some(out)
}

fn apply_replacement(
    out: &mut String,
    space: &str,
    found: &crate::matcher::Found,
    replacement: &[Replace],
) {
    let mut mode = 'E';
    let mut one_shot: Option<char> = None;
    let push = |out: &mut String, text: &str, mode: char, one_shot: &mut Option<char>| {
        for c in text.chars() {
            let c = match one_shot.take() {
                Some('u') => goccia_interp::case::upper_char(c),
                Some('l') => goccia_interp::case::lower_char(c),
                _ => match mode {
                    'U' => goccia_interp::case::upper_char(c),
                    'L' => goccia_interp::case::lower_char(c),
                    _ => c,
                },
            };
            out.push(c);
        }
    };
    for part in replacement {
        match part {
            Replace::Literal(text) => push(out, text, mode, &mut one_shot),
            Replace::Whole => push(out, &space[found.start..found.end], mode, &mut one_shot),
            Replace::Group(n) => {
                if let Some(Some((s, e))) = found.groups.get(*n) {
                    push(out, &space[*s..*e], mode, &mut one_shot);
                }
            }
            Replace::Case(c) => match c {
                'u' | 'l' => one_shot = Some(*c),
                other => mode = *other,
            },
        }
    }
}

fn list_escape(space: &str, width: usize) -> String {
    let mut out = String::new();
    let mut column = 0;
    for byte in space.bytes() {
        let piece = match byte {
            b'\\' => "\\\\".to_string(),
            b'\n' => "\\n".to_string(),
            b'\t' => "\\t".to_string(),
            7 => "\\a".to_string(),
            8 => "\\b".to_string(),
            12 => "\\f".to_string(),
            13 => "\\r".to_string(),
            11 => "\\v".to_string(),
            32..=126 => (byte as char).to_string(),
            _ => format!("\\{byte:03o}"),
        };
        if width > 1 && column + piece.len() > width - 1 {
            out.push_str("\\\n");
            column = 0;
        }
        column += piece.len();
        out.push_str(&piece);
    }
    out.push('$');
    out
}

/// Writes what `w` commands collected; `Some(status)` when a file was
/// refused (reported on stderr).
pub(super) fn flush_writes(shell: &mut ShellView, machine: &mut Machine<'_>) -> Option<i32> {
    let mut failed = None;
    for (file, data) in std::mem::take(&mut machine.writes) {
        match file.as_str() {
            "/dev/stdout" => machine.output.extend(data),
            "/dev/stderr" => shell.write_stderr(&data),
            _ => {
                if let Ok(path) = shell.cwd().resolve(&file) {
                    let written = shell.context().vfs.lock().write_file(&path, data);
                    if let Err(error) = written {
                        failed = Some(shell.fail_fs(
                            "sed",
                            &file,
                            &error,
                            |reason| format!("couldn't open file {file}: {reason}"),
                            4,
                        ));
                    }
                }
            }
        }
    }
    failed
}

/// One input line.
#[derive(Clone, Debug, Default)]
struct Line {
    /// Index of the input it came from (for `F`).
    file: usize,
    text: String,
    /// It ended with the separator (the last line of a file may not).
    newline: bool,
}

/// sed's inputs, read a line at a time as the program asks (`n`, `N` and
/// cycles), with one line of lookahead so `$` is known. Nothing is read
/// ahead further: `yes | sed p | head` streams, and a slurping script
/// (`:a;N;$!ba`) holds one copy of its input, not one object per line.
pub(super) struct Lines {
    inputs: Vec<(String, Source)>,
    current: usize,
    lookahead: Option<Line>,
    separator: u8,
    record: Vec<u8>,
}

impl Lines {
    pub(super) fn new(inputs: Vec<(String, Source)>, separator: u8) -> Self {
        Lines {
            inputs,
            current: 0,
            lookahead: None,
            separator,
            record: Vec::new(),
        }
    }

    fn read(&mut self) -> std::io::Result<Option<Line>> {
        while self.current < self.inputs.len() {
            let source = &mut self.inputs[self.current].1;
            if source.next_record(self.separator, &mut self.record)? {
                let newline = self.record.last() == Some(&self.separator);
                if newline {
                    self.record.pop();
                }
                return Ok(Some(Line {
                    file: self.current,
                    text: goccia_interp::raw::decode(&self.record).into_owned(),
                    newline,
                }));
            }
            self.current += 1;
        }
        Ok(None)
    }

    fn next(&mut self) -> std::io::Result<Option<Line>> {
        match self.lookahead.take() {
            Some(line) => Ok(Some(line)),
            None => self.read(),
        }
    }

    /// No line follows the last one read (`$`).
    fn at_end(&mut self) -> std::io::Result<bool> {
        if self.lookahead.is_none() {
            self.lookahead = self.read()?;
        }
        Ok(self.lookahead.is_none())
    }

    fn name(&self, file: usize) -> &str {
        self.inputs.get(file).map_or("-", |(name, _)| name.as_str())
    }
}

/// Output held before it goes to stdout (when streaming).
const OUTPUT_CHUNK: usize = 64 << 10;

/// What ends `run_program` early.
enum Ended {
    /// `q`/`Q`, or an error the command reports with a status.
    Status(i32),
    /// A stop (the deadline, a limit) or a broken pipe's flow.
    Flow(Flow),
}

impl From<Flow> for Ended {
    fn from(flow: Flow) -> Self {
        Ended::Flow(flow)
    }
}

/// Runs the program over the inputs' lines; `Some(code)` after `q`/`Q`
/// (or a status the run ended with). With `stream`, output goes to stdout
/// as it grows; otherwise it stays in `machine.output` (`-i`).
pub(super) fn run_program(
    shell: &mut ShellView,
    machine: &mut Machine<'_>,
    lines: &mut Lines,
    stream: bool,
) -> Result<Option<i32>, Flow> {
    let ended = cycles(shell, machine, lines, stream);
    // The `\0R` bookkeeping entries are not files.
    machine.writes.retain(|k, _| !k.starts_with('\0'));
    match ended {
        Ok(()) => Ok(None),
        Err(Ended::Status(code)) => Ok(Some(code)),
        Err(Ended::Flow(flow)) => Err(flow),
    }
}

/// Checks the deadline and the host-memory ceiling, and bounds what the
/// pattern and hold spaces may hold: a branch loop (`:a;ba`) or an endless
/// growth (`:a;s/^/y/;H;x;ba`) stops here.
fn check(shell: &mut ShellView, machine: &Machine<'_>, space: &str) -> Result<(), Ended> {
    shell.check_watch()?;
    let limit = shell.context().limits.max_buffered_input;
    if space.len() > limit || machine.hold.len() > limit {
        let message = format!("pattern or hold space larger than {limit} bytes");
        return Err(Ended::Status(shell.fail_command("sed", &message, 4)));
    }
    Ok(())
}

/// Sends what output has gathered to stdout.
fn flush_output(shell: &mut ShellView, machine: &mut Machine<'_>) -> Result<(), Ended> {
    if machine.output.is_empty() {
        return Ok(());
    }
    let output = std::mem::take(&mut machine.output);
    match shell.write_stdout(&output) {
        Ok(()) => Ok(()),
        Err(error) => match shell.io_status("sed", error) {
            Ok(status) => Err(Ended::Status(status)),
            Err(flow) => Err(Ended::Flow(flow)),
        },
    }
}

fn io_failed(shell: &mut ShellView, error: std::io::Error) -> Ended {
    match shell.io_status("sed", error) {
        Ok(status) => Ended::Status(status),
        Err(flow) => Ended::Flow(flow),
    }
}

fn cycles(
    shell: &mut ShellView,
    machine: &mut Machine<'_>,
    lines: &mut Lines,
    stream: bool,
) -> Result<(), Ended> {
    let separator = machine.separator;
    let sep = separator as char;
    let emit = |machine: &mut Machine<'_>, text: &str, newline: bool| {
        machine.write_line(text, newline);
    };
    'cycles: loop {
        let line = match lines.next() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => return Err(io_failed(shell, error)),
        };
        if stream && machine.output.len() >= OUTPUT_CHUNK {
            flush_output(shell, machine)?;
        }
        let Line {
            file: mut file_index,
            text: mut space,
            mut newline,
        } = line;
        check(shell, machine, &space)?;
        machine.line_number += 1;
        let mut substituted = false;
        let mut pc = 0;
        loop {
            let action = 'exec: loop {
                if pc >= machine.program.len() {
                    break 'exec Action::EndCycle { print: true };
                }
                let index = pc;
                pc += 1;
                let is_last = match lines.at_end() {
                    Ok(last) => last,
                    Err(error) => return Err(io_failed(shell, error)),
                };
                if !machine.selected(index, &space, is_last) {
                    if let Cmd::Block(end) = machine.program[index].cmd {
                        pc = end + 1;
                    }
                    continue;
                }
                match &machine.program[index].cmd {
                    Cmd::Block(_) | Cmd::EndBlock | Cmd::Label(_) | Cmd::Nop => {}
                    Cmd::Substitute {
                        regex,
                        replacement,
                        global,
                        nth,
                        print,
                        write,
                        eval,
                    } => {
                        let matcher = match regex {
                            Some(regex) => {
                                machine.last_regex = Some((**regex).clone());
                                (**regex).clone()
                            }
                            None => match &machine.last_regex {
                                Some(regex) => regex.clone(),
                                None => continue,
                            },
                        };
                        if let Some(result) =
                            substitute(&space, &matcher, replacement, *global, *nth)
                        {
                            space = result;
                            substituted = true;
                            if *eval {
                                let _ = eval;
                            }
                            for _ in 0..*print {
                                emit(machine, &space, newline);
                            }
                            if let Some(file) = write {
                                let entry = machine.writes.entry(file.clone()).or_default();
                                goccia_interp::raw::push_encoded(entry, &space);
                                entry.push(separator);
                            }
                        }
                    }
                    Cmd::Translate(from, to) => {
                        space = space
                            .chars()
                            .map(|c| from.iter().position(|f| *f == c).map_or(c, |i| to[i]))
                            .collect();
                    }
                    Cmd::Print => emit(machine, &space, newline),
                    Cmd::PrintFirst => {
                        let first = space.split(sep).next().unwrap_or("").to_string();
                        // The whole space, when it is one line, ends as
                        // that line did.
                        let whole = first.len() == space.len();
                        emit(machine, &first, newline || !whole);
                    }
                    Cmd::Delete => break 'exec Action::EndCycle { print: false },
                    Cmd::DeleteFirst => match space.find(sep) {
                        Some(position) => {
                            space = space[position + 1..].to_string();
                            break 'exec Action::Restart;
                        }
                        None => break 'exec Action::EndCycle { print: false },
                    },
                    Cmd::Next => {
                        if is_last {
                            // GNU: print and exit without running the rest.
                            break 'exec Action::Quit {
                                code: 0,
                                print: !machine.quiet,
                                whole_line: false,
                            };
                        }
                        if !machine.quiet {
                            emit(machine, &space, newline);
                        }
                        flush_appends(machine);
                        let next = match lines.next() {
                            Ok(next) => next.unwrap_or_default(),
                            Err(error) => return Err(io_failed(shell, error)),
                        };
                        (file_index, space, newline) = (next.file, next.text, next.newline);
                        machine.line_number += 1;
                    }
                    Cmd::AppendNext => {
                        if is_last {
                            break 'exec Action::Quit {
                                code: 0,
                                print: !machine.quiet,
                                whole_line: false,
                            };
                        }
                        flush_appends(machine);
                        let next = match lines.next() {
                            Ok(next) => next.unwrap_or_default(),
                            Err(error) => return Err(io_failed(shell, error)),
                        };
                        machine.line_number += 1;
                        space.push(sep);
                        space.push_str(&next.text);
                        newline = next.newline;
                        file_index = next.file;
                    }
                    Cmd::Append(text) => machine.append_queue.push(text.clone()),
                    Cmd::Insert(text) => machine.write_text(text),
                    Cmd::Change(text) => {
                        let selector = &machine.program[index].selector;
                        let in_range = selector.end.is_some()
                            && machine.range_active[index]
                            && !selector.negate;
                        if !in_range {
                            machine.write_text(text);
                        }
                        break 'exec Action::EndCycle { print: false };
                    }
                    Cmd::LineNumber => {
                        let text = machine.line_number.to_string();
                        emit(machine, &text, true);
                    }
                    Cmd::List(width) => {
                        let text = list_escape(&space, *width);
                        emit(machine, &text, true);
                    }
                    Cmd::Quit(code, print) => {
                        break 'exec Action::Quit {
                            code: *code,
                            print: *print && !machine.quiet,
                            whole_line: true,
                        };
                    }
                    // Whether a space ends with a newline goes with its
                    // text from one space to the other, as in GNU sed (the
                    // hold space starts with one).
                    Cmd::Hold => {
                        machine.hold = space.clone();
                        machine.hold_newline = newline;
                    }
                    Cmd::HoldAppend => {
                        machine.hold.push(sep);
                        machine.hold.push_str(&space);
                        machine.hold_newline = newline;
                    }
                    Cmd::Get => {
                        space = machine.hold.clone();
                        newline = machine.hold_newline;
                    }
                    Cmd::GetAppend => {
                        space.push(sep);
                        space.push_str(&machine.hold.clone());
                        newline = machine.hold_newline;
                    }
                    Cmd::Exchange => {
                        std::mem::swap(&mut space, &mut machine.hold);
                        std::mem::swap(&mut newline, &mut machine.hold_newline);
                    }
                    Cmd::Branch(label) => {
                        check(shell, machine, &space)?;
                        if label.is_empty() {
                            pc = machine.program.len();
                        } else {
                            pc = machine.labels[label];
                        }
                    }
                    Cmd::BranchIfSub(label) | Cmd::BranchUnlessSub(label) => {
                        let jump = matches!(machine.program[index].cmd, Cmd::BranchIfSub(_))
                            == substituted;
                        if jump {
                            check(shell, machine, &space)?;
                            substituted = false;
                            pc = if label.is_empty() {
                                machine.program.len()
                            } else {
                                machine.labels[label]
                            };
                        }
                    }
                    Cmd::ReadFile(file) => {
                        if let Ok(mut source) = open_quiet(shell, file)
                            && let Ok(data) = source.read_all()
                        {
                            let mut text = goccia_interp::raw::decode_vec(data);
                            if !text.is_empty() && !text.ends_with('\n') {
                                text.push('\n');
                            }
                            machine.append_queue.push(text);
                        }
                    }
                    Cmd::ReadLine(file) => {
                        if let Ok(mut source) = open_quiet(shell, file)
                            && let Ok(data) = source.read_all()
                        {
                            let text = goccia_interp::raw::decode_vec(data);
                            let consumed = machine
                                .writes
                                .get(&format!("\0R{file}"))
                                .map_or(0, |v| v.len());
                            if let Some(line) = text.lines().nth(consumed) {
                                machine.append_queue.push(format!("{line}\n"));
                                machine
                                    .writes
                                    .entry(format!("\0R{file}"))
                                    .or_default()
                                    .push(0);
                            }
                        }
                    }
                    Cmd::WriteFile(file) => {
                        let entry = machine.writes.entry(file.clone()).or_default();
                        goccia_interp::raw::push_encoded(entry, &space);
                        entry.push(separator);
                    }
                    Cmd::WriteFirst(file) => {
                        let first = space.split(sep).next().unwrap_or("").to_string();
                        let entry = machine.writes.entry(file.clone()).or_default();
                        goccia_interp::raw::push_encoded(entry, &first);
                        entry.push(separator);
                    }
                    Cmd::Zap => space.clear(),
                    Cmd::FileName => {
                        let name = lines.name(file_index).to_string();
                        emit(machine, &name, true);
                    }
                }
            };
            match action {
                Action::EndCycle { print } => {
                    if print && !machine.quiet {
                        emit(machine, &space, newline);
                    }
                    flush_appends(machine);
                    continue 'cycles;
                }
                Action::Quit {
                    code,
                    print,
                    whole_line,
                } => {
                    if print {
                        emit(machine, &space, newline || whole_line);
                    }
                    flush_appends(machine);
                    return Err(Ended::Status(code));
                }
                Action::Restart => {
                    // `D`: the first line was deleted; the rest starts a new
                    // cycle without reading input and without auto-print.
                    flush_appends(machine);
                    check(shell, machine, &space)?;
                    pc = 0;
                    substituted = false;
                }
            }
        }
    }
    Ok(())
}

fn flush_appends(machine: &mut Machine<'_>) {
    for text in std::mem::take(&mut machine.append_queue) {
        machine.write_text(&text);
    }
}
