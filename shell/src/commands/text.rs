//! Line and byte utilities: `head`, `tail`, `wc`, `tee`, `seq`, `yes`,
//! `rev`, `tac`, `nl`, `fold`.

use std::io::Write;

use super::{Source, getopt, open_source};
use crate::interp::{ExecResult, OutHandle, Shell};

type Out = std::io::BufWriter<OutHandle>;

fn buffered(shell: &Shell) -> Out {
    std::io::BufWriter::with_capacity(16 << 10, shell.out())
}

fn finish(shell: &mut Shell, name: &str, mut out: Out, status: i32) -> ExecResult {
    match out.flush() {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
}

fn usage(shell: &mut Shell, name: &str, message: &str, status: i32) -> ExecResult {
    Ok(shell.fail_command(
        name,
        &format!("{message}\nTry '{name} --help' for more information."),
        status,
    ))
}

/// Operands, `-` when none.
fn operands_or_stdin(operands: &[String]) -> Vec<String> {
    if operands.is_empty() {
        vec!["-".to_string()]
    } else {
        operands.to_vec()
    }
}

/// `-5` as `-n 5` (the obsolete form head and tail accept).
fn normalize_count_args(args: &[String]) -> Vec<String> {
    args.iter()
        .enumerate()
        .flat_map(|(i, a)| {
            if i > 0
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

// ----- head, tail -----

pub fn head(shell: &mut Shell, args: &[String]) -> ExecResult {
    let args = normalize_count_args(args);
    let parsed = match getopt(
        &args,
        "nc",
        &[
            ("lines", 'n', true),
            ("bytes", 'c', true),
            ("quiet", 'q', false),
            ("silent", 'q', false),
            ("verbose", 'v', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "head", &message, 1),
    };
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
    let Some(count) = super::parse_size_suffix(&count_text) else {
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
                let lines: Vec<&[u8]> = data.split_inclusive(|b| *b == b'\n').collect();
                for line in &lines[..lines.len().saturating_sub(count)] {
                    out.write_all(line)?;
                }
            } else {
                let mut seen = 0;
                if count > 0 {
                    source.for_each_line(|line| {
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

pub fn tail(shell: &mut Shell, args: &[String]) -> ExecResult {
    let args: Vec<String> = normalize_count_args(args);
    let parsed = match getopt(
        &args,
        "nc",
        &[
            ("lines", 'n', true),
            ("bytes", 'c', true),
            ("quiet", 'q', false),
            ("verbose", 'v', false),
            ("follow", 'f', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "tail", &message, 1),
    };
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
    let Some(count) = super::parse_size_suffix(&digits) else {
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
                let lines: Vec<&[u8]> = data.split_inclusive(|b| *b == b'\n').collect();
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

// ----- wc -----

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
        let cut = super::incomplete_utf8_tail(&data);
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

pub fn wc(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("lines", 'l', false),
            ("words", 'w', false),
            ("chars", 'm', false),
            ("bytes", 'c', false),
            ("max-line-length", 'L', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "wc", &message, 1),
    };
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
    for file in &files {
        let Ok(mut source) = open_source(shell, "wc", file) else {
            status = 1;
            continue;
        };
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
    // GNU pads every number to the width of the largest when several
    // numbers or files are printed; a single count from stdin is bare.
    let single = fields.len() == 1 && parsed.operands.is_empty();
    let width = if single {
        0
    } else {
        let largest = results
            .iter()
            .flat_map(|(c, _)| fields.iter().map(|f| value(c, *f)))
            .max()
            .unwrap_or(0);
        let from_stdin = parsed.operands.is_empty();
        largest
            .to_string()
            .len()
            .max(if from_stdin { 7 } else { 1 })
    };
    let mut text = String::new();
    for (counts, name) in &results {
        let numbers: Vec<String> = fields
            .iter()
            .map(|f| format!("{:>width$}", value(counts, *f)))
            .collect();
        text.push_str(&numbers.join(" "));
        if let Some(name) = name {
            text.push(' ');
            text.push_str(name);
        }
        text.push('\n');
    }
    if let Err(error) = shell.write_stdout(text.as_bytes()) {
        return shell.io_status("wc", error);
    }
    Ok(status)
}

// ----- tee, seq, yes -----

pub fn tee(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[("append", 'a', false), ("ignore-interrupts", 'i', false)],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "tee", &message, 1),
    };
    let mut targets = Vec::new();
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(path) = shell.cwd().resolve(operand) else {
            status = 1;
            continue;
        };
        let result = {
            let mut vfs = shell.context().vfs.lock();
            if parsed.has('a') {
                vfs.append_file(&path, Vec::new())
            } else {
                vfs.write_file(&path, Vec::new())
            }
        };
        match result {
            Ok(()) => targets.push(crate::io::FileWriter::new(
                shell.context().vfs.clone(),
                path,
            )),
            Err(error) => {
                status =
                    shell.fail_command("tee", &format!("{operand}: {}", error.errno.strerror()), 1)
            }
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

fn seq_number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn decimals(text: &str) -> usize {
    if text.contains(['e', 'E']) {
        return 0;
    }
    text.split_once('.').map_or(0, |(_, frac)| frac.len())
}

pub fn seq(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut separator = "\n".to_string();
    let mut format: Option<String> = None;
    let mut equal_width = false;
    let mut numbers = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        match arg.as_str() {
            "-s" | "--separator" => {
                i += 1;
                separator = args.get(i).cloned().unwrap_or_default();
            }
            "-f" | "--format" => {
                i += 1;
                format = args.get(i).cloned();
            }
            "-w" | "--equal-width" => equal_width = true,
            _ if arg.starts_with("-s") && arg.len() > 2 => separator = arg[2..].to_string(),
            _ if arg.starts_with("-f") && arg.len() > 2 => format = Some(arg[2..].to_string()),
            _ => numbers.push(arg.clone()),
        }
        i += 1;
    }
    let parsed: Vec<Option<f64>> = numbers.iter().map(|n| seq_number(n)).collect();
    if numbers.is_empty() || numbers.len() > 3 {
        return usage(
            shell,
            "seq",
            if numbers.is_empty() {
                "missing operand"
            } else {
                "extra operand"
            },
            1,
        );
    }
    if let Some(index) = parsed.iter().position(Option::is_none) {
        return usage(
            shell,
            "seq",
            &format!("invalid floating point argument: '{}'", numbers[index]),
            1,
        );
    }
    let values: Vec<f64> = parsed.into_iter().flatten().collect();
    let (first, step, last) = match values.len() {
        1 => (1.0, 1.0, values[0]),
        2 => (values[0], 1.0, values[1]),
        _ => (values[0], values[1], values[2]),
    };
    if step == 0.0 {
        return usage(
            shell,
            "seq",
            &format!("invalid Zero increment value: '{}'", numbers[1]),
            1,
        );
    }
    let precision = numbers
        .iter()
        .take(if numbers.len() == 3 {
            2
        } else {
            numbers.len().min(1)
        })
        .map(|n| decimals(n))
        .max()
        .unwrap_or(0)
        .max(if numbers.len() >= 2 {
            decimals(&numbers[0])
        } else {
            0
        });
    let precision = if numbers.len() == 3 {
        decimals(&numbers[0]).max(decimals(&numbers[1]))
    } else {
        precision
    };
    let render = |value: f64| -> String {
        match &format {
            Some(format) => {
                let mut out = Vec::new();
                let mut scratch = shell_for_format();
                super::printf::format_all(&mut scratch, format, &[format!("{value}")], &mut out);
                String::from_utf8_lossy(&out).into_owned()
            }
            None => format!("{:.*}", precision, value),
        }
    };
    let beyond =
        |value: f64| (step > 0.0 && value > last + 1e-9) || (step < 0.0 && value < last - 1e-9);
    // `-w` pads to the widest number, which in a monotone sequence is an
    // end: known before the first line, so the output streams (an endless
    // `seq 1 1e12 | head` holds one line, not all of them).
    let width = if equal_width && !beyond(first) {
        let steps = ((last - first) / step + 1e-9).floor();
        let ends = [render(first), render(first + step * steps)];
        ends.iter().map(String::len).max().unwrap_or(0)
    } else {
        0
    };
    let equalise = |item: String| match item.strip_prefix('-') {
        _ if !equal_width => item,
        Some(rest) => format!("-{:0>w$}", rest, w = width.saturating_sub(1)),
        None => format!("{:0>width$}", item),
    };
    let mut out = buffered(shell);
    let mut n = 0u64;
    loop {
        let value = first + step * n as f64;
        if beyond(value) {
            break;
        }
        let item = equalise(render(value));
        let separated = if n > 0 {
            out.write_all(separator.as_bytes())
        } else {
            Ok(())
        };
        if let Err(error) = separated.and_then(|()| out.write_all(item.as_bytes())) {
            return shell.io_status("seq", error);
        }
        n += 1;
        if n.is_multiple_of(4096) {
            shell.check_watch()?;
        }
    }
    if n > 0
        && let Err(error) = out.write_all(b"\n")
    {
        return shell.io_status("seq", error);
    }
    finish(shell, "seq", out, 0)
}

/// `printf` formatting needs a shell only for error messages.
fn shell_for_format() -> Shell {
    let vfs = std::sync::Arc::new(parking_lot::Mutex::new(goccia_vfs::Vfs::new(
        goccia_vfs::Quota::UNLIMITED,
    )));
    let context = crate::interp::Context::new(
        vfs,
        goccia_core::Watch::new(std::time::Duration::from_secs(1)),
        Default::default(),
    );
    Shell::new(
        context,
        crate::io::Fd::null_input(),
        crate::io::Fd::null_output(),
        crate::io::Fd::null_output(),
    )
}

pub fn yes(shell: &mut Shell, args: &[String]) -> ExecResult {
    let text = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        "y".to_string()
    };
    let line = format!("{text}\n");
    let chunk = line.repeat((8192 / line.len()).max(1));
    let mut out = shell.out();
    loop {
        shell.check_watch()?;
        if let Err(error) = out.write_all(chunk.as_bytes()) {
            return shell.io_status("yes", error);
        }
    }
}

// ----- rev, tac, nl, fold -----

fn line_filter(
    shell: &mut Shell,
    name: &str,
    operands: &[String],
    mut f: impl FnMut(&[u8], &mut Out) -> std::io::Result<()>,
) -> ExecResult {
    let mut out = buffered(shell);
    let mut status = 0;
    for file in operands_or_stdin(operands) {
        let Ok(mut source) = open_source(shell, name, &file) else {
            status = 1;
            continue;
        };
        if let Err(error) = source.for_each_line(|line| {
            f(line, &mut out)?;
            Ok(true)
        }) {
            return shell.io_status(name, error);
        }
    }
    finish(shell, name, out, status)
}

pub fn rev(shell: &mut Shell, args: &[String]) -> ExecResult {
    let operands: Vec<String> = args[1..].to_vec();
    line_filter(shell, "rev", &operands, |line, out| {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, true),
            None => (line, false),
        };
        let reversed: String = String::from_utf8_lossy(body).chars().rev().collect();
        out.write_all(reversed.as_bytes())?;
        if newline {
            out.write_all(b"\n")?;
        }
        Ok(())
    })
}

pub fn tac(shell: &mut Shell, args: &[String]) -> ExecResult {
    let files = operands_or_stdin(&args[1..]);
    let mut out = buffered(shell);
    let mut status = 0;
    for file in files {
        let Ok(mut source) = open_source(shell, "tac", &file) else {
            status = 1;
            continue;
        };
        let data = match source.read_all() {
            Ok(data) => data,
            Err(error) => return shell.io_status("tac", error),
        };
        let mut lines: Vec<Vec<u8>> = data
            .split_inclusive(|b| *b == b'\n')
            .map(<[u8]>::to_vec)
            .collect();
        if let Some(last) = lines.last_mut()
            && !last.ends_with(b"\n")
        {
            // GNU tac glues an unterminated last line to the next.
            let tail = std::mem::take(last);
            lines.pop();
            lines.push(tail);
        }
        for line in lines.iter().rev() {
            if let Err(error) = out.write_all(line) {
                return shell.io_status("tac", error);
            }
        }
    }
    finish(shell, "tac", out, status)
}

pub fn nl(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(args, "bwsvinf", &[]) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "nl", &message, 1),
    };
    let style = parsed.value('b').unwrap_or("t").to_string();
    let width: usize = parsed.value('w').and_then(|w| w.parse().ok()).unwrap_or(6);
    let separator = parsed.value('s').unwrap_or("\t").to_string();
    let mut number: i64 = parsed.value('v').and_then(|v| v.parse().ok()).unwrap_or(1);
    let increment: i64 = parsed.value('i').and_then(|v| v.parse().ok()).unwrap_or(1);
    let format = parsed.value('n').unwrap_or("rn").to_string();
    let operands = parsed.operands.clone();
    line_filter(shell, "nl", &operands, |line, out| {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let numbered = match style.as_str() {
            "a" => true,
            "n" => false,
            _ => !body.is_empty(),
        };
        if numbered {
            let text = match format.as_str() {
                "ln" => format!("{:<width$}", number),
                "rz" => format!("{:0>width$}", number),
                _ => format!("{:>width$}", number),
            };
            write!(out, "{text}{separator}")?;
            number += increment;
        } else {
            write!(out, "{}", " ".repeat(width + separator.len()))?;
        }
        out.write_all(body)?;
        out.write_all(b"\n")?;
        Ok(())
    })
}

pub fn fold(shell: &mut Shell, args: &[String]) -> ExecResult {
    let args = normalize_count_args(args)
        .into_iter()
        .map(|a| if a == "-n" { "-w".to_string() } else { a })
        .collect::<Vec<_>>();
    let parsed = match getopt(
        &args,
        "w",
        &[
            ("width", 'w', true),
            ("spaces", 's', false),
            ("bytes", 'b', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "fold", &message, 1),
    };
    let width: usize = parsed
        .value('w')
        .and_then(|w| w.parse().ok())
        .unwrap_or(80)
        .max(1);
    let spaces = parsed.has('s');
    let operands = parsed.operands.clone();
    line_filter(shell, "fold", &operands, |line, out| {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, true),
            None => (line, false),
        };
        let chars: Vec<char> = String::from_utf8_lossy(body).chars().collect();
        let mut start = 0;
        while chars.len() - start > width {
            let mut end = start + width;
            if spaces && let Some(space) = chars[start..end].iter().rposition(|c| *c == ' ') {
                end = start + space + 1;
            }
            let piece: String = chars[start..end].iter().collect();
            writeln!(out, "{piece}")?;
            start = end;
        }
        let rest: String = chars[start..].iter().collect();
        out.write_all(rest.as_bytes())?;
        if newline {
            out.write_all(b"\n")?;
        }
        Ok(())
    })
}
