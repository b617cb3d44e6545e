//! Sorting and column utilities: `sort`, `uniq`, `cut`, `tr`, `paste`,
//! `comm`, `join`, `column`, `split`, `expand`.

use std::cmp::Ordering;
use std::io::Write;

use super::{getopt, open_source};
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

/// Every line of every operand (stdin when none), without newlines.
fn read_lines(
    shell: &mut Shell,
    name: &str,
    operands: &[String],
    delimiter: u8,
) -> Result<Vec<String>, i32> {
    let operands = if operands.is_empty() {
        vec!["-".to_string()]
    } else {
        operands.to_vec()
    };
    let mut lines = Vec::new();
    let mut status = 0;
    for operand in operands {
        let Ok(mut source) = open_source(shell, name, &operand) else {
            status = 2;
            continue;
        };
        let data = match source.read_all() {
            Ok(data) => data,
            Err(error) => {
                let reason = error.to_string();
                return Err(shell.fail_command(name, &format!("{operand}: {reason}"), 2));
            }
        };
        for line in data.split(|b| *b == delimiter) {
            lines.push(String::from_utf8_lossy(line).into_owned());
        }
        if data.last() == Some(&delimiter) || data.is_empty() {
            lines.pop();
        }
    }
    if status != 0 && lines.is_empty() {
        return Err(status);
    }
    Ok(lines)
}

// ----- sort -----

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum SortKind {
    #[default]
    Text,
    Numeric,
    General,
    Human,
    Version,
    Month,
}

#[derive(Clone, Default)]
struct KeySpec {
    start_field: usize,
    start_char: usize,
    end_field: Option<usize>,
    end_char: usize,
    kind: SortKind,
    reverse: bool,
    fold: bool,
    blanks: bool,
    dictionary: bool,
    has_modifiers: bool,
}

fn parse_key(text: &str) -> Option<KeySpec> {
    let mut spec = KeySpec::default();
    let (start, end) = match text.split_once(',') {
        Some((start, end)) => (start, Some(end)),
        None => (text, None),
    };
    let parse_pos = |pos: &str, spec: &mut KeySpec| -> Option<(usize, usize)> {
        let digits_end = pos
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(pos.len());
        let (numbers, modifiers) = pos.split_at(digits_end);
        for m in modifiers.chars() {
            spec.has_modifiers = true;
            match m {
                'n' => spec.kind = SortKind::Numeric,
                'g' => spec.kind = SortKind::General,
                'h' => spec.kind = SortKind::Human,
                'V' => spec.kind = SortKind::Version,
                'M' => spec.kind = SortKind::Month,
                'r' => spec.reverse = true,
                'f' => spec.fold = true,
                'b' => spec.blanks = true,
                'd' => spec.dictionary = true,
                _ => return None,
            }
        }
        let (field, ch) = match numbers.split_once('.') {
            Some((f, c)) => (f.parse().ok()?, c.parse().ok()?),
            None => (numbers.parse().ok()?, 0),
        };
        Some((field, ch))
    };
    let (field, ch) = parse_pos(start, &mut spec)?;
    if field == 0 {
        return None;
    }
    spec.start_field = field;
    spec.start_char = ch;
    if let Some(end) = end {
        let (field, ch) = parse_pos(end, &mut spec)?;
        spec.end_field = Some(field);
        spec.end_char = ch;
    }
    Some(spec)
}

/// Field boundaries: with a separator, split on it; otherwise fields start
/// at a blank (the blanks belong to the field that follows).
fn fields(line: &str, separator: Option<char>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    match separator {
        Some(sep) => {
            let mut start = 0;
            for (i, c) in line.char_indices() {
                if c == sep {
                    out.push((start, i));
                    start = i + c.len_utf8();
                }
            }
            out.push((start, line.len()));
        }
        None => {
            let bytes: Vec<(usize, char)> = line.char_indices().collect();
            let mut i = 0;
            while i < bytes.len() {
                let start = bytes[i].0;
                while i < bytes.len() && bytes[i].1.is_whitespace() {
                    i += 1;
                }
                while i < bytes.len() && !bytes[i].1.is_whitespace() {
                    i += 1;
                }
                let end = if i < bytes.len() {
                    bytes[i].0
                } else {
                    line.len()
                };
                out.push((start, end));
            }
        }
    }
    out
}

fn key_text<'a>(line: &'a str, key: &KeySpec, separator: Option<char>) -> &'a str {
    let fields = fields(line, separator);
    let Some(&(field_start, field_end)) = fields.get(key.start_field - 1) else {
        return "";
    };
    let mut start = field_start;
    let field = &line[field_start..field_end];
    if key.blanks || separator.is_none() && key.start_char > 0 {
        start += field.len() - field.trim_start().len();
    }
    if key.start_char > 1 {
        start = line[start..]
            .char_indices()
            .nth(key.start_char - 1)
            .map_or(line.len(), |(i, _)| start + i);
    }
    let end = match key.end_field {
        None => line.len(),
        Some(end_field) => match fields.get(end_field - 1) {
            None => line.len(),
            Some(&(s, e)) => {
                if key.end_char == 0 {
                    e
                } else {
                    let mut s = s;
                    if key.blanks {
                        s += line[s..e].len() - line[s..e].trim_start().len();
                    }
                    line[s..]
                        .char_indices()
                        .nth(key.end_char)
                        .map_or(line.len(), |(i, _)| (s + i).min(line.len()))
                }
            }
        },
    };
    if start >= end { "" } else { &line[start..end] }
}

/// `sort -n`'s number: blanks, an optional `-`, digits, a fraction (no
/// `+`, no exponent: those lines count as 0, as in GNU sort).
fn leading_number(text: &str) -> f64 {
    let text = text.trim_start();
    if text.starts_with('+') {
        return 0.0;
    }
    let end = super::printf::decimal_prefix_len(text.as_bytes());
    text[..end].parse().unwrap_or(0.0)
}

/// `sort -g`'s key: C's `strtod`, with lines that are not numbers first,
/// then NaN, then the numbers, as in GNU sort.
fn general_key(text: &str) -> (u8, f64) {
    let text = text.trim_start();
    let end = super::printf::decimal_prefix_len(text.as_bytes());
    if text.as_bytes()[..end].iter().any(u8::is_ascii_digit) {
        return (2, super::awk::strtod(text));
    }
    match super::awk::strtod(text) {
        value if value.is_nan() => (1, 0.0),
        value if value.is_infinite() => (2, value),
        _ => (0, 0.0),
    }
}

fn human_number(text: &str) -> f64 {
    let text = text.trim();
    let value = leading_number(text);
    let suffix = text
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-' || c == '+')
        .chars()
        .next();
    let power = match suffix {
        Some('K') | Some('k') => 1,
        Some('M') => 2,
        Some('G') => 3,
        Some('T') => 4,
        Some('P') => 5,
        Some('E') => 6,
        _ => 0,
    };
    value * 1024f64.powi(power)
}

fn month(text: &str) -> usize {
    const MONTHS: [&str; 12] = [
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
    ];
    let upper = text.trim().to_uppercase();
    MONTHS
        .iter()
        .position(|m| upper.starts_with(m))
        .map_or(0, |i| i + 1)
}

/// Compares version strings (`sort -V`): digit runs numerically.
pub(crate) fn version_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let na = std::str::from_utf8(&a[..da])
                    .unwrap_or("0")
                    .trim_start_matches('0');
                let nb = std::str::from_utf8(&b[..db])
                    .unwrap_or("0")
                    .trim_start_matches('0');
                let ord = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb));
                if ord != Ordering::Equal {
                    return ord;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                let ord = x.cmp(y);
                if ord != Ordering::Equal {
                    return ord;
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn compare_keys(a: &str, b: &str, key: &KeySpec) -> Ordering {
    let prepare = |text: &str| -> String {
        let mut t = if key.blanks {
            text.trim_start().to_string()
        } else {
            text.to_string()
        };
        if key.dictionary {
            t.retain(|c| c.is_alphanumeric() || c.is_whitespace());
        }
        if key.fold {
            t = t.to_uppercase();
        }
        t
    };
    let ord = match key.kind {
        SortKind::Text => prepare(a).cmp(&prepare(b)),
        SortKind::Numeric => leading_number(a)
            .partial_cmp(&leading_number(b))
            .unwrap_or(Ordering::Equal),
        SortKind::General => general_key(a)
            .partial_cmp(&general_key(b))
            .unwrap_or(Ordering::Equal),
        SortKind::Human => human_number(a)
            .partial_cmp(&human_number(b))
            .unwrap_or(Ordering::Equal),
        SortKind::Version => version_cmp(a, b),
        SortKind::Month => month(a).cmp(&month(b)),
    };
    if key.reverse { ord.reverse() } else { ord }
}

pub fn sort(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "kto",
        &[
            ("numeric-sort", 'n', false),
            ("reverse", 'r', false),
            ("unique", 'u', false),
            ("ignore-case", 'f', false),
            ("key", 'k', true),
            ("field-separator", 't', true),
            ("stable", 's', false),
            ("ignore-leading-blanks", 'b', false),
            ("human-numeric-sort", 'h', false),
            ("version-sort", 'V', false),
            ("month-sort", 'M', false),
            ("check", 'c', false),
            ("output", 'o', true),
            ("zero-terminated", 'z', false),
            ("random-sort", 'R', false),
            ("general-numeric-sort", 'g', false),
            ("dictionary-order", 'd', false),
            ("merge", 'm', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "sort", &message, 2),
    };
    let separator = match parsed.value('t') {
        Some(t) if t.chars().count() == 1 => Some(t.chars().next().unwrap_or('\t')),
        Some("\\t") => Some('\t'),
        Some("\\0") => Some('\0'),
        Some(other) => {
            return Ok(shell.fail_command("sort", &format!("multi-character tab '{other}'"), 2));
        }
        None => None,
    };
    let global = KeySpec {
        start_field: 1,
        kind: if parsed.has('n') {
            SortKind::Numeric
        } else if parsed.has('g') {
            SortKind::General
        } else if parsed.has('h') {
            SortKind::Human
        } else if parsed.has('V') {
            SortKind::Version
        } else if parsed.has('M') {
            SortKind::Month
        } else {
            SortKind::Text
        },
        reverse: parsed.has('r'),
        fold: parsed.has('f'),
        blanks: parsed.has('b'),
        dictionary: parsed.has('d'),
        ..KeySpec::default()
    };
    let mut keys = Vec::new();
    for text in parsed.all('k') {
        match parse_key(text) {
            Some(mut key) => {
                if !key.has_modifiers {
                    key.kind = global.kind;
                    key.reverse = global.reverse;
                    key.fold = global.fold;
                    key.blanks = global.blanks;
                    key.dictionary = global.dictionary;
                }
                keys.push(key);
            }
            None => {
                return Ok(shell.fail_command(
                    "sort",
                    &format!("invalid number at field start: invalid count at start of '{text}'"),
                    2,
                ));
            }
        }
    }
    let delimiter = if parsed.has('z') { 0 } else { b'\n' };
    let mut lines = match read_lines(shell, "sort", &parsed.operands, delimiter) {
        Ok(lines) => lines,
        Err(status) => return Ok(status),
    };
    let compare = |a: &String, b: &String| -> Ordering {
        if keys.is_empty() {
            let ord = compare_keys(a, b, &global);
            if ord != Ordering::Equal || parsed.has('s') || parsed.has('u') {
                return ord;
            }
        } else {
            for key in &keys {
                let ord = compare_keys(
                    key_text(a, key, separator),
                    key_text(b, key, separator),
                    key,
                );
                if ord != Ordering::Equal {
                    return ord;
                }
            }
            if parsed.has('s') || parsed.has('u') {
                return Ordering::Equal;
            }
        }
        // Last resort: the whole line, bytewise.
        let ord = a.cmp(b);
        if global.reverse { ord.reverse() } else { ord }
    };
    if parsed.has('c') {
        for pair in lines.windows(2) {
            if compare(&pair[0], &pair[1]) == Ordering::Greater {
                shell.fail_command("sort", &format!("-:{}: disorder: {}", 2, pair[1]), 1);
                return Ok(1);
            }
        }
        return Ok(0);
    }
    if parsed.has('R') {
        for i in (1..lines.len()).rev() {
            let j = shell.random_u32() as usize % (i + 1);
            lines.swap(i, j);
        }
    } else {
        lines.sort_by(compare);
    }
    if parsed.has('u') {
        lines.dedup_by(|a, b| compare(a, b) == Ordering::Equal);
    }
    let terminator = if parsed.has('z') { '\0' } else { '\n' };
    let text: String = lines.iter().map(|l| format!("{l}{terminator}")).collect();
    if let Some(output) = parsed.value('o') {
        let Ok(path) = shell.cwd().resolve(output) else {
            return Ok(2);
        };
        let written = shell
            .context()
            .vfs
            .lock()
            .write_file(&path, text.into_bytes());
        return match written {
            Ok(()) => Ok(0),
            Err(error) => Ok(shell.fail_command(
                "sort",
                &format!("open failed: {output}: {}", error.errno.strerror()),
                2,
            )),
        };
    }
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("sort", error),
    }
}

// ----- uniq -----

pub fn uniq(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "fsw",
        &[
            ("count", 'c', false),
            ("repeated", 'd', false),
            ("unique", 'u', false),
            ("ignore-case", 'i', false),
            ("skip-fields", 'f', true),
            ("skip-chars", 's', true),
            ("check-chars", 'w', true),
            ("all-repeated", 'D', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "uniq", &message, 1),
    };
    let skip_fields: usize = parsed.value('f').and_then(|v| v.parse().ok()).unwrap_or(0);
    let skip_chars: usize = parsed.value('s').and_then(|v| v.parse().ok()).unwrap_or(0);
    let check: Option<usize> = parsed.value('w').and_then(|v| v.parse().ok());
    let input: Vec<String> = parsed.operands.iter().take(1).cloned().collect();
    let lines = match read_lines(shell, "uniq", &input, b'\n') {
        Ok(lines) => lines,
        Err(status) => return Ok(status.min(1)),
    };
    let key = |line: &str| -> String {
        let mut rest = line;
        for _ in 0..skip_fields {
            rest = rest.trim_start_matches([' ', '\t']);
            rest = rest.trim_start_matches(|c: char| c != ' ' && c != '\t');
        }
        let mut key: String = rest.chars().skip(skip_chars).collect();
        if let Some(n) = check {
            key = key.chars().take(n).collect();
        }
        if parsed.has('i') {
            key = key.to_lowercase();
        }
        key
    };
    let mut groups: Vec<(usize, Vec<&String>)> = Vec::new();
    for line in &lines {
        match groups.last_mut() {
            Some((count, members)) if key(members[0]) == key(line) => {
                *count += 1;
                members.push(line);
            }
            _ => groups.push((1, vec![line])),
        }
    }
    let mut text = String::new();
    for (count, members) in groups {
        if parsed.has('d') && count < 2
            || parsed.has('u') && count > 1
            || parsed.has('D') && count < 2
        {
            continue;
        }
        let shown: Vec<&String> = if parsed.has('D') {
            members
        } else {
            vec![members[0]]
        };
        for line in shown {
            if parsed.has('c') {
                text.push_str(&format!("{count:>7} {line}\n"));
            } else {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    if let Some(output) = parsed.operands.get(1) {
        let Ok(path) = shell.cwd().resolve(output) else {
            return Ok(1);
        };
        let _ = shell
            .context()
            .vfs
            .lock()
            .write_file(&path, text.into_bytes());
        return Ok(0);
    }
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("uniq", error),
    }
}

// ----- cut -----

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

pub fn cut(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
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
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "cut", &message, 1),
    };
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
            let text = String::from_utf8_lossy(body);
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
                    String::from_utf8_lossy(&bytes).into_owned()
                }
            };
            out.write_all(selected.as_bytes())?;
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

// ----- tr -----

/// Expands a `tr` set: ranges, classes, escapes, `[c*n]`.
fn expand_set(text: &str) -> Result<Vec<char>, String> {
    let chars: Vec<char> = unescape_tr(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '[' && chars.get(i + 1) == Some(&':') {
            let rest: String = chars[i + 2..].iter().collect();
            if let Some(end) = rest.find(":]") {
                let name = &rest[..end];
                let class: Vec<char> = match name {
                    "upper" => ('A'..='Z').collect(),
                    "lower" => ('a'..='z').collect(),
                    "alpha" => ('A'..='Z').chain('a'..='z').collect(),
                    "digit" => ('0'..='9').collect(),
                    "alnum" => ('0'..='9').chain('A'..='Z').chain('a'..='z').collect(),
                    "space" => vec![' ', '\t', '\n', '\r', '\x0b', '\x0c'],
                    "blank" => vec![' ', '\t'],
                    "punct" => (33u8..127)
                        .map(char::from)
                        .filter(|c| c.is_ascii_punctuation())
                        .collect(),
                    "xdigit" => ('0'..='9').chain('A'..='F').chain('a'..='f').collect(),
                    "cntrl" => (0u8..32)
                        .map(char::from)
                        .chain(std::iter::once('\x7f'))
                        .collect(),
                    "print" => (32u8..127).map(char::from).collect(),
                    "graph" => (33u8..127).map(char::from).collect(),
                    _ => return Err(format!("invalid character class '{name}'")),
                };
                out.extend(class);
                i += 2 + name.chars().count() + 2;
                continue;
            }
        }
        if chars[i] == '[' && chars.get(i + 2) == Some(&'*') {
            let rest: String = chars[i + 3..].iter().collect();
            if let Some(end) = rest.find(']') {
                let count: usize = if end == 0 {
                    0
                } else {
                    rest[..end].parse().unwrap_or(0)
                };
                let c = chars[i + 1];
                if count == 0 {
                    out.push(c);
                    out.push('\u{E000}');
                } else {
                    out.extend(std::iter::repeat_n(c, count));
                }
                i += 3 + end + 1;
                continue;
            }
        }
        if chars.get(i + 1) == Some(&'-') && i + 2 < chars.len() {
            let (lo, hi) = (chars[i], chars[i + 2]);
            if lo > hi {
                return Err(format!(
                    "range-endpoints of '{lo}-{hi}' are in reverse collating sequence order"
                ));
            }
            out.extend(lo..=hi);
            i += 3;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    Ok(out)
}

fn unescape_tr(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' && i + 1 < chars.len() {
            let c = chars[i + 1];
            i += 2;
            out.push(match c {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                'a' => '\x07',
                'b' => '\x08',
                'f' => '\x0c',
                'v' => '\x0b',
                '0'..='7' => {
                    let mut value = c.to_digit(8).unwrap_or(0);
                    let mut digits = 1;
                    while digits < 3 && i < chars.len() && chars[i].is_digit(8) {
                        value = value * 8 + chars[i].to_digit(8).unwrap_or(0);
                        i += 1;
                        digits += 1;
                    }
                    char::from_u32(value).unwrap_or('\0')
                }
                other => other,
            });
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

pub fn tr(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("delete", 'd', false),
            ("squeeze-repeats", 's', false),
            ("complement", 'c', false),
            ("truncate-set1", 't', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "tr", &message, 1),
    };
    let complement = parsed.has('c') || parsed.has('C');
    let delete = parsed.has('d');
    let squeeze = parsed.has('s');
    if parsed.operands.is_empty() {
        return usage(shell, "tr", "missing operand", 1);
    }
    let set1 = match expand_set(&parsed.operands[0]) {
        Ok(set) => set,
        Err(message) => return Ok(shell.fail_command("tr", &message, 1)),
    };
    let set2 = match parsed.operands.get(1).map(|s| expand_set(s)) {
        Some(Ok(set)) => Some(set),
        Some(Err(message)) => return Ok(shell.fail_command("tr", &message, 1)),
        None => None,
    };
    if !delete && !squeeze && set2.is_none() {
        return usage(
            shell,
            "tr",
            &format!(
                "missing operand after '{}'\nTwo strings must be given when translating.",
                parsed.operands[0]
            ),
            1,
        );
    }
    // `[c*]` fills set2 to set1's length.
    let set2 = set2.map(|mut set| {
        if let Some(pos) = set.iter().position(|c| *c == '\u{E000}') {
            let fill = set[pos - 1];
            set.remove(pos);
            let missing = set1.len().saturating_sub(set.len());
            for _ in 0..missing {
                set.insert(pos, fill);
            }
        }
        set
    });
    let in_set1 = |c: char| set1.contains(&c) != complement;
    let translate = |c: char| -> char {
        let Some(set2) = &set2 else { return c };
        if set2.is_empty() {
            return c;
        }
        if complement {
            return *set2.last().unwrap_or(&c);
        }
        match set1.iter().rposition(|x| *x == c) {
            Some(i) => set2
                .get(i)
                .copied()
                .unwrap_or_else(|| *set2.last().unwrap_or(&c)),
            None => c,
        }
    };
    let squeeze_set: Vec<char> = match (&set2, delete) {
        (Some(set2), false) => set2.clone(),
        (Some(set2), true) => set2.clone(),
        (None, _) => set1.clone(),
    };
    let mut input = super::Source::stdin(shell);
    let mut out = buffered(shell);
    let mut last: Option<char> = None;
    let result = input.for_each_text_chunk(|text| {
        let mut output = String::with_capacity(text.len());
        for c in text.chars() {
            if delete && in_set1(c) {
                continue;
            }
            let c = if delete || !in_set1(c) {
                c
            } else {
                translate(c)
            };
            let squeezable = if delete || set2.is_none() {
                squeeze && (squeeze_set.contains(&c) != (complement && set2.is_none()))
            } else {
                squeeze && squeeze_set.contains(&c)
            };
            if squeezable && last == Some(c) {
                continue;
            }
            last = Some(c);
            output.push(c);
        }
        out.write_all(output.as_bytes())
    });
    if let Err(error) = result {
        return shell.io_status("tr", error);
    }
    finish(shell, "tr", out, 0)
}

// ----- paste, comm, join -----

pub fn paste(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "d",
        &[
            ("delimiters", 'd', true),
            ("serial", 's', false),
            ("zero-terminated", 'z', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "paste", &message, 1),
    };
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
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("paste", error),
    }
}

pub fn comm(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[("check-order", 'C', false), ("nocheck-order", 'N', false)],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "comm", &message, 1),
    };
    if parsed.operands.len() != 2 {
        return usage(shell, "comm", "missing operand", 1);
    }
    let a = match read_lines(shell, "comm", &parsed.operands[..1], b'\n') {
        Ok(lines) => lines,
        Err(_) => return Ok(1),
    };
    let b = match read_lines(shell, "comm", &parsed.operands[1..], b'\n') {
        Ok(lines) => lines,
        Err(_) => return Ok(1),
    };
    let show = [!parsed.has('1'), !parsed.has('2'), !parsed.has('3')];
    let prefix =
        |column: usize| -> String { (0..column).filter(|c| show[*c]).map(|_| "\t").collect() };
    let mut text = String::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let ord = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        let (column, line) = match ord {
            Ordering::Less => {
                i += 1;
                (0, &a[i - 1])
            }
            Ordering::Greater => {
                j += 1;
                (1, &b[j - 1])
            }
            Ordering::Equal => {
                i += 1;
                j += 1;
                (2, &a[i - 1])
            }
        };
        if show[column] {
            text.push_str(&prefix(column));
            text.push_str(line);
            text.push('\n');
        }
    }
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("comm", error),
    }
}

pub fn join(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(args, "t12aveo", &[("ignore-case", 'i', false)]) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "join", &message, 1),
    };
    if parsed.operands.len() != 2 {
        return usage(shell, "join", "missing operand", 1);
    }
    let separator = parsed.value('t').and_then(|t| t.chars().next());
    let field1: usize = parsed.value('1').and_then(|v| v.parse().ok()).unwrap_or(1);
    let field2: usize = parsed.value('2').and_then(|v| v.parse().ok()).unwrap_or(1);
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
    let format: Option<Vec<(usize, usize)>> = parsed.value('o').filter(|o| *o != "auto").map(|o| {
        o.split([',', ' '])
            .filter_map(|spec| {
                if spec == "0" {
                    return Some((0, 0));
                }
                let (file, field) = spec.split_once('.')?;
                Some((file.parse().ok()?, field.parse().ok()?))
            })
            .collect()
    });
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
    let left: Vec<Vec<String>> = left.iter().map(|l| split(l)).collect();
    let right: Vec<Vec<String>> = right.iter().map(|l| split(l)).collect();
    let key_of = |fields: &Vec<String>, n: usize| fields.get(n - 1).cloned().unwrap_or_default();
    while i < left.len() || j < right.len() {
        let ord = match (left.get(i), right.get(j)) {
            (Some(a), Some(b)) => key_of(a, field1).cmp(&key_of(b, field2)),
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
                let j_end = (j..right.len())
                    .find(|&k| key_of(&right[k], field2) != key)
                    .unwrap_or(right.len());
                while i < left.len() && key_of(&left[i], field1) == key {
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
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("join", error),
    }
}

// ----- column, split, expand -----

pub fn column(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "sOoc",
        &[
            ("table", 't', false),
            ("separator", 's', true),
            ("output-separator", 'o', true),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "column", &message, 1),
    };
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
                    line.push_str(&format!("{cell:<w$}{output}", w = widths[c]));
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
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("column", error),
    }
}

pub fn split(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "lbna",
        &[
            ("lines", 'l', true),
            ("bytes", 'b', true),
            ("number", 'n', true),
            ("numeric-suffixes", 'd', false),
            ("suffix-length", 'a', true),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "split", &message, 1),
    };
    let input = parsed
        .operands
        .first()
        .cloned()
        .unwrap_or_else(|| "-".to_string());
    let prefix = parsed
        .operands
        .get(1)
        .cloned()
        .unwrap_or_else(|| "x".to_string());
    let suffix_length: usize = parsed.value('a').and_then(|v| v.parse().ok()).unwrap_or(2);
    let Ok(mut source) = open_source(shell, "split", &input) else {
        return Ok(1);
    };
    let data = match source.read_all() {
        Ok(data) => data,
        Err(error) => return shell.io_status("split", error),
    };
    let chunks: Vec<Vec<u8>> = if let Some(bytes) = parsed.value('b') {
        let size = super::parse_size_suffix(bytes).unwrap_or(1).max(1) as usize;
        data.chunks(size).map(<[u8]>::to_vec).collect()
    } else if let Some(count) = parsed.value('n') {
        let count: usize = count.parse().unwrap_or(1).max(1);
        let size = data.len().div_ceil(count).max(1);
        data.chunks(size).map(<[u8]>::to_vec).collect()
    } else {
        let lines: usize = parsed
            .value('l')
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000)
            .max(1);
        let all: Vec<&[u8]> = data.split_inclusive(|b| *b == b'\n').collect();
        all.chunks(lines).map(|c| c.concat()).collect()
    };
    let numeric = parsed.has('d');
    for (index, chunk) in chunks.into_iter().enumerate() {
        let suffix = if numeric {
            format!("{index:0suffix_length$}")
        } else {
            let mut n = index;
            let mut letters = vec!['a'; suffix_length];
            for slot in letters.iter_mut().rev() {
                *slot = (b'a' + (n % 26) as u8) as char;
                n /= 26;
            }
            letters.into_iter().collect()
        };
        let Ok(path) = shell.cwd().resolve(&format!("{prefix}{suffix}")) else {
            return Ok(1);
        };
        let written = shell.context().vfs.lock().write_file(&path, chunk);
        if let Err(error) = written {
            return Ok(shell.fail_command(
                "split",
                &format!("{prefix}{suffix}: {}", error.errno.strerror()),
                1,
            ));
        }
    }
    Ok(0)
}

pub fn expand(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = match getopt(args, "t", &[("tabs", 't', true), ("initial", 'i', false)]) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "expand", &message, 1),
    };
    let tab: usize = parsed
        .value('t')
        .and_then(|v| v.parse().ok())
        .unwrap_or(8)
        .max(1);
    let lines = match read_lines(shell, "expand", &parsed.operands, b'\n') {
        Ok(lines) => lines,
        Err(status) => return Ok(status.min(1)),
    };
    let mut text = String::new();
    for line in lines {
        let mut column = 0;
        for c in line.chars() {
            if c == '\t' {
                let spaces = tab - column % tab;
                text.push_str(&" ".repeat(spaces));
                column += spaces;
            } else {
                text.push(c);
                column += 1;
            }
        }
        text.push('\n');
    }
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("expand", error),
    }
}
