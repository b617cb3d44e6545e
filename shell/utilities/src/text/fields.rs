//! Fields of lines: `cut`, `paste`, `join`, `column`, `expand`.

use crate::args::buffered;
use crate::args::finish;
use crate::args::parse_options;
use crate::args::usage;
use crate::text::sort::read_lines;
use crate::text::tr::unescape_tr;
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};
use std::cmp::Ordering;
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

pub fn join(shell: &mut ShellView, args: &[String]) -> ExecResult {
    // GNU checks the order only where it matters (unpairable lines) and
    // reports it; `--check-order`/`--nocheck-order` are taken, and the
    // inputs are read as sorted.
    let parsed = parse_options!(
        shell,
        args,
        "t12aveoj",
        &[
            ("ignore-case", 'i', false),
            ("check-order", 'C', false),
            ("nocheck-order", 'N', false),
        ]
    );
    if parsed.operands.len() != 2 {
        return usage(shell, "join", "missing operand", 1);
    }
    let separator = parsed.value('t').and_then(|t| t.chars().next());
    let both: Option<usize> = parsed.value('j').and_then(|v| v.parse().ok());
    let field1: usize = parsed
        .value('1')
        .and_then(|v| v.parse().ok())
        .or(both)
        .unwrap_or(1);
    let field2: usize = parsed
        .value('2')
        .and_then(|v| v.parse().ok())
        .or(both)
        .unwrap_or(1);
    let ignore_case = parsed.has('i');
    let unpaired: Vec<&str> = parsed.all('a');
    let only: Option<&str> = parsed.value('v');
    let empty = parsed.value('e').unwrap_or("").to_string();
    let left = match read_lines(shell, "join", &parsed.operands[..1], b'\n') {
        Ok(lines) => lines,
        Err(_) => return Ok(1),
    };
    let right = match read_lines(shell, "join", &parsed.operands[1..], b'\n') {
        Ok(lines) => lines,
        Err(_) => return Ok(1),
    };
    let split = |line: &str| -> Vec<String> {
        match separator {
            Some(sep) => line.split(sep).map(str::to_string).collect(),
            None => line.split_whitespace().map(str::to_string).collect(),
        }
    };
    let out_sep = separator
        .map(String::from)
        .unwrap_or_else(|| " ".to_string());
    let left: Vec<Vec<String>> = left.iter().map(|l| split(l)).collect();
    let right: Vec<Vec<String>> = right.iter().map(|l| split(l)).collect();
    // `-o auto`: the join field, then the other fields of each file as
    // many as its first line has (missing ones are `-e`'s text).
    let auto = |lines: &[Vec<String>], file: usize, join_field: usize| {
        let count = lines.first().map_or(0, Vec::len);
        (1..=count)
            .filter(move |field| *field != join_field)
            .map(move |field| (file, field))
    };
    let format: Option<Vec<(usize, usize)>> = if parsed.value('o') == Some("auto") {
        let mut fields = vec![(0, 0)];
        fields.extend(auto(&left, 1, field1));
        fields.extend(auto(&right, 2, field2));
        Some(fields)
    } else {
        parsed.value('o').map(|o| {
            o.split([',', ' '])
                .filter_map(|spec| {
                    if spec == "0" {
                        return Some((0, 0));
                    }
                    let (file, field) = spec.split_once('.')?;
                    Some((file.parse().ok()?, field.parse().ok()?))
                })
                .collect()
        })
    };
    let render = |key: &str, a: Option<&Vec<String>>, b: Option<&Vec<String>>| -> String {
        if let Some(format) = &format {
            return format
                .iter()
                .map(|(file, field)| match (file, a, b) {
                    (0, _, _) => key.to_string(),
                    (1, Some(a), _) => a.get(field - 1).cloned().unwrap_or_else(|| empty.clone()),
                    (2, _, Some(b)) => b.get(field - 1).cloned().unwrap_or_else(|| empty.clone()),
                    _ => empty.clone(),
                })
                .collect::<Vec<_>>()
                .join(&out_sep);
        }
        let mut parts = vec![key.to_string()];
        if let Some(a) = a {
            parts.extend(
                a.iter()
                    .enumerate()
                    .filter(|(i, _)| *i + 1 != field1)
                    .map(|(_, f)| f.clone()),
            );
        }
        if let Some(b) = b {
            parts.extend(
                b.iter()
                    .enumerate()
                    .filter(|(i, _)| *i + 1 != field2)
                    .map(|(_, f)| f.clone()),
            );
        }
        parts.join(&out_sep)
    };
    let mut text = String::new();
    let (mut i, mut j) = (0, 0);
    let key_of = |fields: &Vec<String>, n: usize| fields.get(n - 1).cloned().unwrap_or_default();
    // Keys as compared: case folded under -i.
    let compared = |fields: &Vec<String>, n: usize| {
        let key = key_of(fields, n);
        if ignore_case { key.to_lowercase() } else { key }
    };
    while i < left.len() || j < right.len() {
        let ord = match (left.get(i), right.get(j)) {
            (Some(a), Some(b)) => compared(a, field1).cmp(&compared(b, field2)),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match ord {
            Ordering::Less => {
                if unpaired.contains(&"1") || only == Some("1") {
                    text.push_str(&render(&key_of(&left[i], field1), Some(&left[i]), None));
                    text.push('\n');
                }
                i += 1;
            }
            Ordering::Greater => {
                if unpaired.contains(&"2") || only == Some("2") {
                    text.push_str(&render(&key_of(&right[j], field2), None, Some(&right[j])));
                    text.push('\n');
                }
                j += 1;
            }
            Ordering::Equal => {
                let key = key_of(&left[i], field1);
                let folded = compared(&left[i], field1);
                let j_end = (j..right.len())
                    .find(|&k| compared(&right[k], field2) != folded)
                    .unwrap_or(right.len());
                while i < left.len() && compared(&left[i], field1) == folded {
                    if only.is_none() {
                        for item in &right[j..j_end] {
                            text.push_str(&render(&key, Some(&left[i]), Some(item)));
                            text.push('\n');
                        }
                    }
                    i += 1;
                }
                j = j_end;
            }
        }
    }
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("join", error),
    }
}

pub fn column(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "sOoc",
        &[
            ("table", 't', false),
            ("separator", 's', true),
            ("output-separator", 'o', true),
        ]
    );
    let lines = match read_lines(shell, "column", &parsed.operands, b'\n') {
        Ok(lines) => lines,
        Err(status) => return Ok(status.min(1)),
    };
    let mut text = String::new();
    if parsed.has('t') {
        let separators: Vec<char> = parsed
            .value('s')
            .map(|s| s.chars().collect())
            .unwrap_or_else(|| vec![' ', '\t']);
        let output = parsed.value('o').unwrap_or("  ").to_string();
        let rows: Vec<Vec<String>> = lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                if parsed.value('s').is_some() {
                    l.split(|c| separators.contains(&c))
                        .map(str::to_string)
                        .collect()
                } else {
                    l.split(|c| separators.contains(&c))
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect()
                }
            })
            .collect();
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                rows.iter()
                    .filter_map(|r| r.get(c))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for row in &rows {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                if c + 1 == row.len() {
                    line.push_str(cell);
                } else {
                    line.push_str(&goccia_interp::pad::right_pad(cell, widths[c], ' '));
                    line.push_str(&output);
                }
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
    } else {
        let items: Vec<&String> = lines.iter().filter(|l| !l.is_empty()).collect();
        let width = items.iter().map(|s| s.chars().count()).max().unwrap_or(0);
        let column_width = (width / 8 + 1) * 8;
        let per_row = (80 / column_width.max(1)).max(1);
        let rows = items.len().div_ceil(per_row);
        for r in 0..rows {
            let mut line = String::new();
            for c in 0..per_row {
                let Some(item) = items.get(c * rows + r) else {
                    continue;
                };
                let is_last = c + 1 == per_row || items.get((c + 1) * rows + r).is_none();
                if is_last {
                    line.push_str(item);
                } else {
                    let count = item.chars().count();
                    line.push_str(item);
                    let mut pos = count;
                    while pos < column_width {
                        line.push('\t');
                        pos = (pos / 8 + 1) * 8;
                    }
                }
            }
            text.push_str(&line);
            text.push('\n');
        }
    }
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("column", error),
    }
}
