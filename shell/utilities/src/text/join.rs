//! `join`, as GNU coreutils joins: the two inputs are read line by line
//! in the order GNU reads them, so that what it prints, which disorder it
//! notices and when are the same. By default a line out of order is
//! reported once per file, only after a line was found unpairable, and
//! the status is then 1 ("input is not in sorted order"); with
//! `--check-order` the first one ends the command; `--nocheck-order`
//! checks nothing.

use std::cmp::Ordering;

use crate::args::{getopt, usage};
use crate::text::sort::read_lines;
use goccia_interp::interp::{ExecResult, ShellView};

#[derive(Clone, Copy, PartialEq, Eq)]
enum CheckOrder {
    /// Only once an unpairable line was seen; a warning, status 1 at the end.
    Default,
    /// `--check-order`: the first disorder is fatal.
    Enabled,
    /// `--nocheck-order`
    Disabled,
}

/// What an output line holds: the join field, or field `n` (0-based) of
/// file 1 or 2.
#[derive(Clone, Copy)]
enum Spec {
    Key,
    Field(usize, usize),
}

struct Settings {
    /// `-t`: one separator character; none means runs of blanks.
    tab: Option<char>,
    /// The join field of each file (0-based).
    fields: [usize; 2],
    ignore_case: bool,
    /// `-a`/`-v`: print the unpairable lines of each file.
    unpairable: [bool; 2],
    /// `-v` leaves the joined lines out.
    pairable: bool,
    /// `-e`
    empty: Option<String>,
    /// `-o`, or `-o auto` (`None` inside: work it out from the first lines).
    format: Option<Option<Vec<Spec>>>,
    check: CheckOrder,
    header: bool,
    terminator: u8,
}

/// One input: its lines, where reading is, and its order check.
struct Input {
    name: String,
    lines: Vec<Vec<String>>,
    raw: Vec<String>,
    next: usize,
    warned: bool,
}

/// Ends the command at the first disorder under `--check-order`.
struct Fatal;

struct Join<'a> {
    settings: &'a Settings,
    inputs: [Input; 2],
    seen_unpairable: bool,
    /// `-o`'s fields, `auto` worked out from each file's first line; none
    /// for the default layout.
    format: Option<Vec<Spec>>,
    out: String,
    shell: &'a mut ShellView,
}

pub fn join(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let (settings, operands) = match settings(args) {
        Ok(read) => read,
        Err((message, hint)) if hint => return usage(shell, "join", &message, 1),
        Err((message, _)) => return Ok(shell.fail_command("join", &message, 1)),
    };
    if operands[0] == "-" && operands[1] == "-" {
        // GNU adds the reason its last failed call left behind.
        return Ok(shell.fail_command(
            "join",
            "both files cannot be standard input: No such file or directory",
            1,
        ));
    }
    let mut inputs = Vec::new();
    for operand in &operands {
        let raw = match read_lines(
            shell,
            "join",
            std::slice::from_ref(operand),
            settings.terminator,
        ) {
            Ok(lines) => lines,
            Err(_) => return Ok(1),
        };
        let lines = raw.iter().map(|line| split(line, settings.tab)).collect();
        inputs.push(Input {
            name: operand.clone(),
            lines,
            raw,
            next: 0,
            warned: false,
        });
    }
    let [first, second]: [Input; 2] = match inputs.try_into() {
        Ok(inputs) => inputs,
        Err(_) => return Ok(1),
    };
    let format = match &settings.format {
        None => None,
        Some(Some(specs)) => Some(specs.clone()),
        Some(None) => Some(auto_format(
            &settings,
            [
                first.lines.first().map_or(0, Vec::len),
                second.lines.first().map_or(0, Vec::len),
            ],
        )),
    };
    let mut run = Join {
        format,
        settings: &settings,
        inputs: [first, second],
        seen_unpairable: false,
        out: String::new(),
        shell,
    };
    let status = match run.run() {
        Ok(()) if run.inputs.iter().any(|input| input.warned) => {
            run.flush();
            run.shell
                .fail_command("join", "input is not in sorted order", 1)
        }
        Ok(()) => 0,
        Err(Fatal) => 1,
    };
    run.flush();
    Ok(status)
}

impl Join<'_> {
    /// GNU's merge: pairs of equal keys joined (every line of one run of
    /// equal keys with every line of the other's), the rest unpairable.
    fn run(&mut self) -> Result<(), Fatal> {
        let mut seq: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for (file, lines) in seq.iter_mut().enumerate() {
            lines.extend(self.get_line(file)?);
        }
        if self.settings.header && (!seq[0].is_empty() || !seq[1].is_empty()) {
            let (first, second) = (seq[0].first().copied(), seq[1].first().copied());
            self.print(first, second);
            for (file, lines) in seq.iter_mut().enumerate() {
                if !lines.is_empty() {
                    lines.clear();
                    lines.extend(self.get_line(file)?);
                }
            }
        }
        while !seq[0].is_empty() && !seq[1].is_empty() {
            match self.compare(seq[0][0], seq[1][0]) {
                Ordering::Less | Ordering::Greater => {
                    let file = usize::from(self.compare(seq[0][0], seq[1][0]) == Ordering::Greater);
                    if self.settings.unpairable[file] {
                        let line = seq[file][0];
                        self.print_unpaired(file, line);
                    }
                    seq[file].clear();
                    if let Some(line) = self.get_line(file)? {
                        seq[file].push(line);
                    }
                    self.seen_unpairable = true;
                    continue;
                }
                Ordering::Equal => {}
            }
            // Every following line of each file with the same key.
            let heads = [seq[0][0], seq[1][0]];
            let mut ended = [false, false];
            for (file, lines) in seq.iter_mut().enumerate() {
                loop {
                    let Some(line) = self.get_line(file)? else {
                        ended[file] = true;
                        break;
                    };
                    lines.push(line);
                    let (first, second) = if file == 0 {
                        (line, heads[1])
                    } else {
                        (heads[0], line)
                    };
                    if self.compare(first, second) != Ordering::Equal {
                        break;
                    }
                }
            }
            if self.settings.pairable {
                let left_run = seq[0].len() - usize::from(!ended[0]);
                let right_run = seq[1].len() - usize::from(!ended[1]);
                for &left in &seq[0][..left_run] {
                    for &right in &seq[1][..right_run] {
                        self.print(Some(left), Some(right));
                    }
                }
            }
            for (lines, ended) in seq.iter_mut().zip(ended) {
                let last = lines.last().copied();
                lines.clear();
                if !ended {
                    lines.extend(last);
                }
            }
        }
        // The rest of each file: unpairable, and still checked.
        for file in 0..2 {
            let Some(&line) = seq[file].first() else {
                continue;
            };
            if self.settings.unpairable[file] {
                self.print_unpaired(file, line);
            }
            if !seq[1 - file].is_empty() {
                self.seen_unpairable = true;
            }
            while let Some(line) = self.get_line(file)? {
                if self.settings.unpairable[file] {
                    self.print_unpaired(file, line);
                } else if self.inputs[file].warned {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The next line of `file`, checked against the one before it.
    fn get_line(&mut self, file: usize) -> Result<Option<usize>, Fatal> {
        let Some(line) = self.get_line_unchecked(file) else {
            return Ok(None);
        };
        let checking = match self.settings.check {
            CheckOrder::Disabled => false,
            CheckOrder::Enabled => true,
            CheckOrder::Default => self.seen_unpairable,
        };
        let previous = line.checked_sub(1).filter(|&p| {
            // The header line is never compared with the first.
            !(self.settings.header && p == 0)
        });
        if checking
            && !self.inputs[file].warned
            && let Some(previous) = previous
            && self.key_order(file, previous, line) == Ordering::Greater
        {
            let input = &self.inputs[file];
            let message = format!(
                "{}:{}: is not sorted: {}",
                input.name,
                line + 1,
                input.raw[line]
            );
            // GNU's `error()` flushes what was printed before it speaks.
            self.flush();
            if self.settings.check == CheckOrder::Enabled {
                self.shell.fail_command("join", &message, 1);
                return Err(Fatal);
            }
            self.shell
                .write_stderr(format!("join: {message}\n").as_bytes());
            self.inputs[file].warned = true;
        }
        Ok(Some(line))
    }

    fn get_line_unchecked(&mut self, file: usize) -> Option<usize> {
        let input = &mut self.inputs[file];
        (input.next < input.lines.len()).then(|| {
            input.next += 1;
            input.next - 1
        })
    }

    fn key(&self, file: usize, line: usize) -> &str {
        self.inputs[file].lines[line]
            .get(self.settings.fields[file])
            .map_or("", String::as_str)
    }

    fn key_order(&self, file: usize, a: usize, b: usize) -> Ordering {
        self.order(self.key(file, a), self.key(file, b))
    }

    fn compare(&self, left: usize, right: usize) -> Ordering {
        self.order(self.key(0, left), self.key(1, right))
    }

    fn order(&self, a: &str, b: &str) -> Ordering {
        if self.settings.ignore_case {
            a.bytes()
                .map(|b| b.to_ascii_lowercase())
                .cmp(b.bytes().map(|b| b.to_ascii_lowercase()))
        } else {
            a.cmp(b)
        }
    }

    fn print_unpaired(&mut self, file: usize, line: usize) {
        if file == 0 {
            self.print(Some(line), None);
        } else {
            self.print(None, Some(line));
        }
    }

    /// One output line from a line of each file (`None`: a missing line,
    /// all of whose fields are missing).
    fn print(&mut self, left: Option<usize>, right: Option<usize>) {
        let settings = self.settings;
        let lines = [
            left.map(|l| &self.inputs[0].lines[l]),
            right.map(|r| &self.inputs[1].lines[r]),
        ];
        let field = |file: usize, n: usize| -> Option<&str> {
            lines[file]
                .and_then(|fields| fields.get(n))
                .map(String::as_str)
        };
        let key = field(0, settings.fields[0])
            .filter(|_| lines[0].is_some())
            .or_else(|| field(1, settings.fields[1]));
        let empty = settings.empty.as_deref();
        let mut parts: Vec<&str> = Vec::new();
        match &self.format {
            Some(specs) => {
                for spec in specs {
                    let value = match *spec {
                        Spec::Key => key,
                        Spec::Field(file, n) => field(file, n),
                    };
                    parts.push(value.or(empty).unwrap_or(""));
                }
            }
            None => {
                parts.push(key.or(empty).unwrap_or(""));
                for (file, fields) in lines.iter().enumerate() {
                    let Some(fields) = fields else { continue };
                    parts.extend(
                        fields
                            .iter()
                            .enumerate()
                            .filter(|(n, _)| *n != settings.fields[file])
                            .map(|(_, value)| value.as_str()),
                    );
                }
            }
        }
        let mut buffer = [0u8; 4];
        let separator = settings.tab.unwrap_or(' ').encode_utf8(&mut buffer);
        self.out.push_str(&parts.join(separator));
        self.out.push(settings.terminator as char);
    }

    fn flush(&mut self) {
        if !self.out.is_empty() {
            let text = std::mem::take(&mut self.out);
            let _ = self.shell.write_stdout(&goccia_interp::raw::encode(&text));
        }
    }
}

/// `-o auto`: the join field, then each file's other fields, as many as
/// its first line has (`counts`).
fn auto_format(settings: &Settings, counts: [usize; 2]) -> Vec<Spec> {
    let mut specs = vec![Spec::Key];
    for (file, count) in counts.into_iter().enumerate() {
        specs.extend(
            (0..count)
                .filter(|n| *n != settings.fields[file])
                .map(|n| Spec::Field(file, n)),
        );
    }
    specs
}

/// A line's fields: split at each `-t` character, or at runs of blanks
/// with leading blanks skipped (blanks at the end leave an empty field,
/// as GNU's do).
fn split(line: &str, tab: Option<char>) -> Vec<String> {
    if line.is_empty() {
        return Vec::new();
    }
    if let Some(tab) = tab {
        return line.split(tab).map(str::to_string).collect();
    }
    let blank = |c: char| c == ' ' || c == '\t' || c == '\n';
    let rest = line.trim_start_matches(blank);
    if rest.is_empty() {
        return Vec::new();
    }
    let mut fields: Vec<String> = rest
        .split(blank)
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect();
    if rest.ends_with(blank) {
        fields.push(String::new());
    }
    fields
}

/// The settings and the two file operands, or GNU's complaint and
/// whether the `--help` hint follows it.
fn settings(args: &[String]) -> Result<(Settings, [String; 2]), (String, bool)> {
    let parsed = getopt(
        args,
        "t12aveoj",
        &[
            ("ignore-case", 'i', false),
            ("check-order", 'C', false),
            ("nocheck-order", 'N', false),
            ("header", 'H', false),
            ("zero-terminated", 'z', false),
        ],
    )
    .map_err(|message| (message, true))?;
    let mut settings = Settings {
        tab: None,
        fields: [0, 0],
        ignore_case: false,
        unpairable: [false, false],
        pairable: true,
        empty: None,
        format: None,
        check: CheckOrder::Default,
        header: false,
        terminator: b'\n',
    };
    let field_number = |text: &str| -> Result<usize, (String, bool)> {
        match text.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(n - 1),
            _ => Err((
                format!("invalid field number: \u{2018}{text}\u{2019}"),
                false,
            )),
        }
    };
    let file_number = |text: &str| -> Result<usize, (String, bool)> {
        match text {
            "1" => Ok(0),
            "2" => Ok(1),
            _ => Err((
                format!("invalid field number: \u{2018}{text}\u{2019}"),
                false,
            )),
        }
    };
    let mut specs: Vec<Spec> = Vec::new();
    let mut auto = false;
    for (option, value) in &parsed.sequence {
        let value = value.as_deref().unwrap_or("");
        match option {
            't' => {
                let mut chars = value.chars();
                settings.tab = match (chars.next(), chars.next()) {
                    (None, _) => Some('\n'),
                    (Some(c), None) => Some(c),
                    _ if value == "\\0" => Some('\0'),
                    _ => {
                        return Err((
                            format!("multi-character tab \u{2018}{value}\u{2019}"),
                            false,
                        ));
                    }
                };
            }
            '1' => settings.fields[0] = field_number(value)?,
            '2' => settings.fields[1] = field_number(value)?,
            'j' => {
                let n = field_number(value)?;
                settings.fields = [n, n];
            }
            'a' => settings.unpairable[file_number(value)?] = true,
            'v' => {
                settings.unpairable[file_number(value)?] = true;
                settings.pairable = false;
            }
            'e' => settings.empty = Some(value.to_string()),
            'o' if value == "auto" => auto = true,
            'o' => {
                for spec in value.split([',', ' ', '\t']).filter(|s| !s.is_empty()) {
                    specs.push(if spec == "0" {
                        Spec::Key
                    } else {
                        let (file, field) = spec.split_once('.').ok_or_else(|| {
                            (
                                format!("invalid field specifier: \u{2018}{spec}\u{2019}"),
                                false,
                            )
                        })?;
                        let file = match file {
                            "1" => 0,
                            "2" => 1,
                            _ => {
                                return Err((
                                    format!(
                                        "invalid file number in field spec: \u{2018}{spec}\u{2019}"
                                    ),
                                    false,
                                ));
                            }
                        };
                        Spec::Field(file, field_number(field)?)
                    });
                }
            }
            'i' => settings.ignore_case = true,
            'C' => settings.check = CheckOrder::Enabled,
            'N' => settings.check = CheckOrder::Disabled,
            'H' => settings.header = true,
            'z' => settings.terminator = b'\0',
            other => return Err((format!("invalid option -- '{other}'"), true)),
        }
    }
    settings.format = if auto {
        Some(None)
    } else if specs.is_empty() {
        None
    } else {
        Some(Some(specs))
    };
    let operands = match parsed.operands.as_slice() {
        [first, second] => [first.clone(), second.clone()],
        [] => return Err(("missing operand".to_string(), true)),
        [only] => {
            return Err((
                format!("missing operand after \u{2018}{only}\u{2019}"),
                true,
            ));
        }
        [_, _, extra, ..] => return Err((format!("extra operand '{extra}'"), true)),
    };
    Ok((settings, operands))
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn blanks_split_as_gnu_splits_them() {
        assert_eq!(split("  1   a  b", None), ["1", "a", "b"]);
        assert_eq!(split("a b ", None), ["a", "b", ""]);
        assert_eq!(split("   ", None), Vec::<String>::new());
        assert_eq!(split("a,,x", Some(',')), ["a", "", "x"]);
    }
}
