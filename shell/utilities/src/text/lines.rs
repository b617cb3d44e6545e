//! Lines and bytes of a stream: `cat`, `head`, `tail`, `wc`, `tee`.

use crate::args::buffered;
use crate::args::check_flags;
use crate::args::finish;
use crate::args::parse_options;
use crate::args::usage;
use goccia_interp::input::{Source, open_source};
use goccia_interp::interp::{ExecResult, ShellView};
use std::io::Write;

pub fn cat(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("number", 'n', false),
            ("number-nonblank", 'b', false),
            ("squeeze-blank", 's', false),
            ("show-ends", 'E', false),
            ("show-tabs", 'T', false),
            ("show-all", 'A', false),
            ("show-nonprinting", 'v', false),
        ]
    );
    if let Err(message) = check_flags(&parsed, "nbsETAvetu") {
        return usage(shell, "cat", &message, 1);
    }
    let show_ends = parsed.has('E') || parsed.has('A') || parsed.has('e');
    let show_tabs = parsed.has('T') || parsed.has('A') || parsed.has('t');
    // `-e`, `-t` and `-A` imply `-v`.
    let nonprinting = ['v', 'A', 'e', 't']
        .into_iter()
        .any(|flag| parsed.has(flag));
    let number_all = parsed.has('n') && !parsed.has('b');
    let number_nonblank = parsed.has('b');
    let squeeze = parsed.has('s');
    let plain =
        !(show_ends || show_tabs || nonprinting || number_all || number_nonblank || squeeze);
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut out = buffered(shell);
    let mut status = 0;
    let mut line_number = 0;
    let mut last_blank = false;
    for operand in operands {
        let Ok(mut source) = open_source(shell, "cat", &operand) else {
            status = 1;
            continue;
        };
        let result = if plain {
            match &mut source {
                Source::Data(bytes) => out.write_all(bytes),
                Source::Stdin(..) => source.read_bytes(usize::MAX, |chunk| {
                    out.write_all(chunk)?;
                    Ok(true)
                }),
            }
        } else {
            source.for_each_line(|line| {
                let body = line.strip_suffix(b"\n").unwrap_or(line);
                let blank = body.is_empty();
                if squeeze && blank && last_blank {
                    return Ok(true);
                }
                last_blank = blank;
                if number_all || (number_nonblank && !blank) {
                    line_number += 1;
                    write!(out, "{line_number:>6}\t")?;
                }
                let mut text = Vec::with_capacity(body.len());
                for &byte in body {
                    if byte == b'\t' {
                        text.extend_from_slice(if show_tabs { b"^I" } else { b"\t" });
                    } else if nonprinting {
                        show_nonprinting(byte, &mut text);
                    } else {
                        text.push(byte);
                    }
                }
                out.write_all(&text)?;
                if show_ends && line.ends_with(b"\n") {
                    out.write_all(b"$")?;
                }
                if line.ends_with(b"\n") {
                    out.write_all(b"\n")?;
                }
                Ok(true)
            })
        };
        if let Err(error) = result {
            return shell.io_status("cat", error);
        }
    }
    finish(shell, "cat", out, status)
}

/// GNU `cat -v`'s notation: control bytes as `^X`, DEL as `^?`, bytes
/// from 128 as `M-` and the notation of the byte less 128 (tab and
/// newline are the caller's).
fn show_nonprinting(byte: u8, out: &mut Vec<u8>) {
    let low = if byte >= 128 {
        out.extend_from_slice(b"M-");
        byte - 128
    } else {
        byte
    };
    match low {
        0..=31 => out.extend_from_slice(&[b'^', low + 64]),
        127 => out.extend_from_slice(b"^?"),
        _ => out.push(low),
    }
}

/// Operands, `-` when none.
pub(crate) fn operands_or_stdin(operands: &[String]) -> Vec<String> {
    if operands.is_empty() {
        vec!["-".to_string()]
    } else {
        operands.to_vec()
    }
}

/// Reads every operand (`-` for stdin) and writes what `line` makes of
/// each line (newline included) to stdout, in 64 KiB writes as it goes
/// (so `yes | expand | head` ends).
pub(crate) fn filter_lines(
    shell: &mut ShellView,
    name: &str,
    operands: &[String],
    mut line: impl FnMut(&[u8], &mut Vec<u8>),
) -> ExecResult {
    let mut status = 0;
    let mut out = Vec::new();
    for operand in operands_or_stdin(operands) {
        let Ok(mut source) = open_source(shell, name, &operand) else {
            status = 1;
            continue;
        };
        let read = source.for_each_line(|text| {
            line(text, &mut out);
            if out.len() > 64 << 10 {
                shell.write_stdout(&out)?;
                out.clear();
            }
            Ok(true)
        });
        if let Err(error) = read {
            return shell.io_status(name, error);
        }
    }
    if let Err(error) = shell.write_stdout(&out) {
        return shell.io_status(name, error);
    }
    Ok(status)
}

/// `-5` as `-n 5` (the obsolete form head and tail accept).
pub(crate) fn normalize_count_args(args: &[String]) -> Vec<String> {
    // `-5` is the obsolete `-n 5`, unless it is the value of an option
    // before it (`head -n -5`: all but the last five lines).
    // The option before may be clustered (`-zn -5`).
    let takes_count = |option: &str| {
        matches!(option, "--lines" | "--bytes")
            || option.len() > 1
                && !option.starts_with("--")
                && option.starts_with('-')
                && option.ends_with(['n', 'c'])
                && option[1..].chars().all(|c| c.is_ascii_alphabetic())
    };
    let is_value = |i: usize| i > 0 && takes_count(&args[i - 1]);
    args.iter()
        .enumerate()
        .flat_map(|(i, a)| {
            if i > 0
                && !is_value(i)
                && a.len() > 1
                && a.starts_with('-')
                && a[1..].chars().all(|c| c.is_ascii_digit())
            {
                vec!["-n".to_string(), a[1..].to_string()]
            } else {
                vec![a.clone()]
            }
        })
        .collect()
}

/// Refuses flags `head`/`tail` do not have (GNU's words: `tail -r` is
/// BSD's).
fn known_flags(
    shell: &mut ShellView,
    name: &str,
    parsed: &crate::args::Parsed,
    allowed: &str,
) -> Result<(), i32> {
    check_flags(parsed, allowed).map_err(|message| {
        shell.fail_command(
            name,
            &format!("{message}\nTry '{name} --help' for more information."),
            1,
        )
    })
}

pub fn head(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let args = normalize_count_args(args);
    let parsed = parse_options!(
        shell,
        &args,
        "nc",
        &[
            ("lines", 'n', true),
            ("bytes", 'c', true),
            ("quiet", 'q', false),
            ("silent", 'q', false),
            ("verbose", 'v', false),
            ("zero-terminated", 'z', false),
        ]
    );
    if let Err(status) = known_flags(shell, "head", &parsed, "qvz") {
        return Ok(status);
    }
    // `-z`: lines end with NUL.
    let terminator = if parsed.has('z') { 0 } else { b'\n' };
    let files = operands_or_stdin(&parsed.operands);
    let headers = (files.len() > 1 && !parsed.has('q')) || parsed.has('v');
    let bytes_mode = parsed.value('c').map(str::to_string);
    let lines_text = parsed.value('n').unwrap_or("10").to_string();
    let (count_text, negative) = match bytes_mode
        .as_deref()
        .unwrap_or(&lines_text)
        .strip_prefix('-')
    {
        Some(rest) => (rest.to_string(), true),
        None => (bytes_mode.clone().unwrap_or(lines_text.clone()), false),
    };
    let Some(count) = crate::args::parse_size_suffix(&count_text) else {
        let what = if bytes_mode.is_some() {
            "bytes"
        } else {
            "lines"
        };
        return Ok(shell.fail_command(
            "head",
            &format!("invalid number of {what}: '{count_text}'"),
            1,
        ));
    };
    let count = count as usize;
    let mut out = buffered(shell);
    let mut status = 0;
    for (i, file) in files.iter().enumerate() {
        let Ok(mut source) = open_source(shell, "head", file) else {
            status = 1;
            continue;
        };
        let result = (|| -> std::io::Result<()> {
            if headers {
                if i > 0 {
                    writeln!(out)?;
                }
                writeln!(
                    out,
                    "==> {} <==",
                    if file == "-" { "standard input" } else { file }
                )?;
            }
            if bytes_mode.is_some() {
                if negative {
                    let data = source.read_all()?;
                    out.write_all(&data[..data.len().saturating_sub(count)])?;
                } else {
                    source.read_bytes(count, |chunk| {
                        out.write_all(chunk)?;
                        Ok(true)
                    })?;
                }
            } else if negative {
                let data = source.read_all()?;
                let lines: Vec<&[u8]> = data.split_inclusive(|b| *b == terminator).collect();
                for line in &lines[..lines.len().saturating_sub(count)] {
                    out.write_all(line)?;
                }
            } else {
                let mut seen = 0;
                if count > 0 {
                    source.for_each_record(terminator, |line| {
                        out.write_all(line)?;
                        seen += 1;
                        Ok(seen < count)
                    })?;
                }
            }
            Ok(())
        })();
        if let Err(error) = result {
            return shell.io_status("head", error);
        }
    }
    finish(shell, "head", out, status)
}

pub fn tail(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let args: Vec<String> = normalize_count_args(args);
    let parsed = parse_options!(
        shell,
        &args,
        "nc",
        &[
            ("lines", 'n', true),
            ("bytes", 'c', true),
            ("quiet", 'q', false),
            ("verbose", 'v', false),
            ("follow", 'f', false),
            ("zero-terminated", 'z', false),
        ]
    );
    if let Err(status) = known_flags(shell, "tail", &parsed, "qvfFz") {
        return Ok(status);
    }
    // `-z`: lines end with NUL.
    let terminator = if parsed.has('z') { 0 } else { b'\n' };
    let files = operands_or_stdin(&parsed.operands);
    let headers = (files.len() > 1 && !parsed.has('q')) || parsed.has('v');
    let bytes_mode = parsed.value('c').is_some();
    let text = parsed
        .value('c')
        .or(parsed.value('n'))
        .unwrap_or("10")
        .to_string();
    let (from_start, digits) = match text.strip_prefix('+') {
        Some(rest) => (true, rest.to_string()),
        None => (false, text.trim_start_matches('-').to_string()),
    };
    let Some(count) = crate::args::parse_size_suffix(&digits) else {
        let what = if bytes_mode { "bytes" } else { "lines" };
        return Ok(shell.fail_command("tail", &format!("invalid number of {what}: '{text}'"), 1));
    };
    let count = count as usize;
    let mut out = buffered(shell);
    let mut status = 0;
    for (i, file) in files.iter().enumerate() {
        let Ok(mut source) = open_source(shell, "tail", file) else {
            status = 1;
            continue;
        };
        let result = (|| -> std::io::Result<()> {
            if headers {
                if i > 0 {
                    writeln!(out)?;
                }
                writeln!(
                    out,
                    "==> {} <==",
                    if file == "-" { "standard input" } else { file }
                )?;
            }
            let data = source.read_all()?;
            if bytes_mode {
                let start = if from_start {
                    count.saturating_sub(1).min(data.len())
                } else {
                    data.len().saturating_sub(count)
                };
                out.write_all(&data[start..])?;
            } else {
                let lines: Vec<&[u8]> = data.split_inclusive(|b| *b == terminator).collect();
                let start = if from_start {
                    count.saturating_sub(1).min(lines.len())
                } else {
                    lines.len().saturating_sub(count)
                };
                for line in &lines[start..] {
                    out.write_all(line)?;
                }
            }
            Ok(())
        })();
        if let Err(error) = result {
            return shell.io_status("tail", error);
        }
    }
    finish(shell, "tail", out, status)
}

#[derive(Default, Clone, Copy)]
struct Counts {
    lines: u64,
    words: u64,
    chars: u64,
    bytes: u64,
    longest: u64,
}

/// Counts as input streams by, chunk after chunk (`wc` on an endless
/// stream runs until the deadline instead of buffering it).
#[derive(Default)]
struct Counter {
    counts: Counts,
    in_word: bool,
    line_length: u64,
    /// The start of a UTF-8 sequence cut by the end of a chunk.
    pending: Vec<u8>,
}

impl Counter {
    fn feed(&mut self, chunk: &[u8]) {
        self.counts.bytes += chunk.len() as u64;
        let mut data = std::mem::take(&mut self.pending);
        data.extend_from_slice(chunk);
        let cut = goccia_interp::input::incomplete_utf8_tail(&data);
        self.pending = data.split_off(data.len() - cut);
        for piece in data.utf8_chunks() {
            for c in piece.valid().chars() {
                self.char(c);
            }
            if !piece.invalid().is_empty() {
                self.invalid();
            }
        }
    }

    /// Bytes that are not UTF-8 count as neither characters nor word
    /// characters (GNU `wc` in a UTF-8 locale), and do not end a word.
    fn invalid(&mut self) {}

    fn char(&mut self, c: char) {
        self.counts.chars += 1;
        if c == '\n' {
            self.counts.lines += 1;
            self.counts.longest = self.counts.longest.max(self.line_length);
            self.line_length = 0;
        } else if c == '\t' {
            self.line_length = (self.line_length / 8 + 1) * 8;
        } else {
            self.line_length += 1;
        }
        if c.is_whitespace() {
            self.in_word = false;
        } else if !self.in_word {
            self.in_word = true;
            self.counts.words += 1;
        }
    }

    fn finish(mut self) -> Counts {
        if !self.pending.is_empty() {
            self.invalid();
        }
        self.counts.longest = self.counts.longest.max(self.line_length);
        self.counts
    }
}

pub fn wc(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("lines", 'l', false),
            ("words", 'w', false),
            ("chars", 'm', false),
            ("bytes", 'c', false),
            ("max-line-length", 'L', false),
        ]
    );
    let mut fields: Vec<char> = Vec::new();
    for flag in ['l', 'w', 'm', 'c', 'L'] {
        if parsed.has(flag) {
            fields.push(flag);
        }
    }
    if fields.is_empty() {
        fields = vec!['l', 'w', 'c'];
    }
    let files = operands_or_stdin(&parsed.operands);
    let mut results: Vec<(Counts, Option<String>)> = Vec::new();
    let mut status = 0;
    let mut total = Counts::default();
    // What `stat` says of each input, for GNU's column width: `None` when
    // it could not be opened, `Some(None)` when it is not a regular file
    // (a pipe), else its size.
    let mut stats: Vec<Option<Option<u64>>> = Vec::new();
    for file in &files {
        let Ok(mut source) = open_source(shell, "wc", file) else {
            status = 1;
            stats.push(None);
            continue;
        };
        stats.push(Some(match &source {
            Source::Data(bytes) if file != "-" => Some(bytes.len() as u64),
            _ => shell.fds().regular_size(0).filter(|_| file == "-"),
        }));
        let mut counter = Counter::default();
        let read = source.read_bytes(usize::MAX, |chunk| {
            counter.feed(chunk);
            Ok(true)
        });
        if let Err(error) = read {
            return shell.io_status("wc", error);
        }
        let counts = counter.finish();
        total.lines += counts.lines;
        total.words += counts.words;
        total.chars += counts.chars;
        total.bytes += counts.bytes;
        total.longest = total.longest.max(counts.longest);
        results.push((
            counts,
            (file != "-" || !parsed.operands.is_empty())
                .then(|| file.clone())
                .filter(|_| !parsed.operands.is_empty()),
        ));
    }
    if files.len() > 1 {
        results.push((total, Some("total".to_string())));
    }
    let value = |counts: &Counts, field: char| match field {
        'l' => counts.lines,
        'w' => counts.words,
        'm' => counts.chars,
        'c' => counts.bytes,
        _ => counts.longest,
    };
    let width = gnu_width(files.len(), fields.len(), &stats);
    let mut text = String::new();
    for (counts, name) in &results {
        let numbers: Vec<String> = fields
            .iter()
            .map(|f| goccia_interp::pad::left_pad(&value(counts, *f).to_string(), width, ' '))
            .collect();
        text.push_str(&numbers.join(" "));
        if let Some(name) = name {
            text.push(' ');
            text.push_str(name);
        }
        text.push('\n');
    }
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        return shell.io_status("wc", error);
    }
    Ok(status)
}

/// GNU wc's column width: one count of one input is bare; otherwise the
/// digits of the total size of the inputs that opened, as `stat` gives it,
/// and at least 7 when one is not a regular file (its size is unknown).
fn gnu_width(inputs: usize, fields: usize, stats: &[Option<Option<u64>>]) -> usize {
    if inputs == 1 && fields == 1 {
        return 1;
    }
    let mut minimum = 1;
    let mut total: u64 = 0;
    for stat in stats.iter().flatten() {
        match stat {
            Some(size) => total = total.saturating_add(*size),
            None => minimum = 7,
        }
    }
    total.to_string().len().max(minimum)
}

pub fn tee(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[("append", 'a', false), ("ignore-interrupts", 'i', false)]
    );
    let mut targets = Vec::new();
    let mut status = 0;
    for operand in &parsed.operands {
        use crate::output::open_sink_or_fail;
        match open_sink_or_fail(shell, "tee", operand, parsed.has('a'), 1) {
            Ok(sink) => targets.push(sink),
            Err(failed) => status = failed,
        }
    }
    let mut source = Source::stdin(shell);
    let mut out = shell.out();
    let result = source.read_bytes(usize::MAX, |chunk| {
        for target in targets.iter_mut() {
            target.write_all(chunk)?;
        }
        out.write_all(chunk)?;
        Ok(true)
    });
    for target in targets.iter_mut() {
        if let Err(error) = target.flush() {
            status = shell.fail_command("tee", &format!("write error: {error}"), 1);
        }
    }
    if let Err(error) = result {
        return shell.io_status("tee", error);
    }
    Ok(status)
}
