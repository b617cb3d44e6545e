//! Fields of lines: `cut`, `paste`, `expand`.

use crate::args::buffered;
use crate::args::finish;
use crate::args::parse_options;
use crate::args::usage;
use crate::text::sort::read_lines;
use crate::text::tr::unescape_tr;
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};
use std::io::Write;

/// A list like `1,3-5,7-` as inclusive ranges (1-based; `usize::MAX` is
/// open-ended).
fn parse_list(text: &str) -> Option<Vec<(usize, usize)>> {
    let mut ranges = Vec::new();
    for part in text.split(',') {
        let range = match part.split_once('-') {
            Some(("", "")) => return None,
            Some(("", end)) => (1, end.parse().ok()?),
            Some((start, "")) => (start.parse().ok()?, usize::MAX),
            Some((start, end)) => (start.parse().ok()?, end.parse().ok()?),
            None => {
                let n = part.parse().ok()?;
                (n, n)
            }
        };
        if range.0 == 0 || range.0 > range.1 {
            return None;
        }
        ranges.push(range);
    }
    Some(ranges)
}

fn in_list(ranges: &[(usize, usize)], index: usize) -> bool {
    ranges.iter().any(|(a, b)| index >= *a && index <= *b)
}

pub fn cut(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "dfcbO",
        &[
            ("delimiter", 'd', true),
            ("fields", 'f', true),
            ("characters", 'c', true),
            ("bytes", 'b', true),
            ("only-delimited", 's', false),
            ("complement", 'C', false),
            ("output-delimiter", 'O', true),
            ("zero-terminated", 'z', false),
        ]
    );
    let terminator = if parsed.has('z') { 0 } else { b'\n' };
    let (list, mode) = match (parsed.value('f'), parsed.value('c'), parsed.value('b')) {
        (Some(list), None, None) => (list, 'f'),
        (None, Some(list), None) => (list, 'c'),
        (None, None, Some(list)) => (list, 'b'),
        (None, None, None) => {
            return usage(
                shell,
                "cut",
                "you must specify a list of bytes, characters, or fields",
                1,
            );
        }
        _ => return usage(shell, "cut", "only one type of list may be specified", 1),
    };
    let Some(ranges) = parse_list(list) else {
        return usage(shell, "cut", &format!("invalid field value '{list}'"), 1);
    };
    let delimiter = parsed.value('d').unwrap_or("\t");
    if delimiter.chars().count() != 1 {
        return usage(shell, "cut", "the delimiter must be a single character", 1);
    }
    let delimiter = delimiter.chars().next().unwrap_or('\t');
    let output_delimiter = parsed
        .value('O')
        .map(str::to_string)
        .unwrap_or_else(|| delimiter.to_string());
    let complement = parsed.has('C');
    let only_delimited = parsed.has('s');
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut out = buffered(shell);
    let mut status = 0;
    for operand in operands {
        let Ok(mut source) = open_source(shell, "cut", &operand) else {
            status = 1;
            continue;
        };
        let result = source.for_each_record(terminator, |line| {
            let (body, newline) = match line.strip_suffix(&[terminator]) {
                Some(body) => (body, true),
                None => (line, false),
            };
            let text = goccia_interp::raw::decode(body);
            let selected: String = match mode {
                'f' => {
                    if !text.contains(delimiter) {
                        if only_delimited {
                            return Ok(true);
                        }
                        text.to_string()
                    } else {
                        let parts: Vec<&str> = text.split(delimiter).collect();
                        parts
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| in_list(&ranges, i + 1) != complement)
                            .map(|(_, p)| *p)
                            .collect::<Vec<_>>()
                            .join(&output_delimiter)
                    }
                }
                'c' => text
                    .chars()
                    .enumerate()
                    .filter(|(i, _)| in_list(&ranges, i + 1) != complement)
                    .map(|(_, c)| c)
                    .collect(),
                _ => {
                    let bytes: Vec<u8> = body
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| in_list(&ranges, i + 1) != complement)
                        .map(|(_, b)| *b)
                        .collect();
                    goccia_interp::raw::decode_vec(bytes)
                }
            };
            out.write_all(&goccia_interp::raw::encode(&selected))?;
            if newline || !body.is_empty() {
                out.write_all(&[terminator])?;
            }
            Ok(true)
        });
        if let Err(error) = result {
            return shell.io_status("cut", error);
        }
    }
    finish(shell, "cut", out, status)
}

pub fn paste(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "d",
        &[
            ("delimiters", 'd', true),
            ("serial", 's', false),
            ("zero-terminated", 'z', false),
        ]
    );
    let delimiters: Vec<char> = {
        let text = unescape_tr(parsed.value('d').unwrap_or("\t"));
        let raw = parsed.value('d').unwrap_or("\t");
        if raw == "\\0" { vec!['\0'] } else { text }
    };
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut columns: Vec<Vec<String>> = Vec::new();
    let mut stdin_lines: Option<Vec<String>> = None;
    let mut stdin_uses = 0;
    for operand in &operands {
        if operand == "-" {
            if stdin_lines.is_none() {
                stdin_lines = Some(
                    match read_lines(shell, "paste", &["-".to_string()], b'\n') {
                        Ok(lines) => lines,
                        Err(status) => return Ok(status.min(1)),
                    },
                );
            }
            stdin_uses += 1;
            columns.push(Vec::new());
        } else {
            match read_lines(shell, "paste", std::slice::from_ref(operand), b'\n') {
                Ok(lines) => columns.push(lines),
                Err(status) => return Ok(status.min(1)),
            }
        }
    }
    // Several `-` operands take stdin's lines in turn.
    if let Some(lines) = stdin_lines {
        let stdin_columns: Vec<usize> = operands
            .iter()
            .enumerate()
            .filter(|(_, o)| *o == "-")
            .map(|(i, _)| i)
            .collect();
        for (n, line) in lines.into_iter().enumerate() {
            columns[stdin_columns[n % stdin_uses]].push(line);
        }
    }
    let delimiter_at = |i: usize| -> String {
        if delimiters.is_empty() {
            return String::new();
        }
        let c = delimiters[i % delimiters.len()];
        if c == '\0' {
            String::new()
        } else {
            c.to_string()
        }
    };
    let mut text = String::new();
    if parsed.has('s') {
        for column in &columns {
            for (i, line) in column.iter().enumerate() {
                if i > 0 {
                    text.push_str(&delimiter_at(i - 1));
                }
                text.push_str(line);
            }
            text.push('\n');
        }
    } else {
        let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..rows {
            for (i, column) in columns.iter().enumerate() {
                if i > 0 {
                    text.push_str(&delimiter_at(i - 1));
                }
                if let Some(line) = column.get(row) {
                    text.push_str(line);
                }
            }
            text.push('\n');
        }
    }
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("paste", error),
    }
}
