//! Ordering lines: `sort`, `uniq`, `comm`.

use crate::args::parse_options;
use crate::args::usage;
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};
use std::cmp::Ordering;

/// Every line of every operand (stdin when none), without newlines.
pub(crate) fn read_lines(
    shell: &mut ShellView,
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
            lines.push(goccia_interp::raw::decode(line).into_owned());
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
    let end = goccia_interp::printf::decimal_prefix_len(text.as_bytes());
    text[..end].parse().unwrap_or(0.0)
}

/// `sort -g`'s key: C's `strtod`, with lines that are not numbers first,
/// then NaN, then the numbers, as in GNU sort.
fn general_key(text: &str) -> (u8, f64) {
    let text = text.trim_start();
    let end = goccia_interp::printf::decimal_prefix_len(text.as_bytes());
    if text.as_bytes()[..end].iter().any(u8::is_ascii_digit) {
        return (2, crate::awk::strtod(text));
    }
    match crate::awk::strtod(text) {
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

/// Compares names as versions, as GNU's `sort -V` and `ls -v` do (gnulib's
/// `filevercmp`): `.` and `..` first, then hidden names, then the names
/// without their file suffixes (`(\.[A-Za-z~][A-Za-z0-9~]*)*` at the end)
/// compared as Debian compares versions, and the whole names only when
/// those tie.
pub(crate) fn version_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a == b {
        return Ordering::Equal;
    }
    for special in [&b""[..], b".", b".."] {
        match (a == special, b == special) {
            (true, _) => return Ordering::Less,
            (_, true) => return Ordering::Greater,
            _ => {}
        }
    }
    let (a, b) = match (a.first() == Some(&b'.'), b.first() == Some(&b'.')) {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        (true, true) => (&a[1..], &b[1..]),
        (false, false) => (a, b),
    };
    let (a_prefix, b_prefix) = (without_suffix(a), without_suffix(b));
    let whole_names_only = a_prefix == a.len() && b_prefix == b.len();
    match debian_cmp(&a[..a_prefix], &b[..b_prefix]) {
        Ordering::Equal if !whole_names_only => debian_cmp(a, b),
        order => order,
    }
}

/// The length of `name` without its file suffixes: each a `.` and a
/// letter or `~`, then letters, digits and `~`, running to the end.
fn without_suffix(name: &[u8]) -> usize {
    let mut prefix = 0;
    let mut at = 0;
    while at < name.len() {
        // The character here always belongs to the name before a suffix.
        at += 1;
        prefix = at;
        while at + 1 < name.len()
            && name[at] == b'.'
            && (name[at + 1].is_ascii_alphabetic() || name[at + 1] == b'~')
        {
            at += 2;
            while at < name.len() && (name[at].is_ascii_alphanumeric() || name[at] == b'~') {
                at += 1;
            }
        }
    }
    prefix
}

/// Debian's version order: runs of non-digits compared character by
/// character (`~` before everything, even the end; letters before other
/// characters), runs of digits by their value.
fn debian_cmp(a: &[u8], b: &[u8]) -> Ordering {
    fn rank(c: Option<&u8>) -> i32 {
        match c {
            None => 0,
            Some(c) if c.is_ascii_digit() => 0,
            Some(c) if c.is_ascii_alphabetic() => i32::from(*c),
            Some(b'~') => -1,
            Some(c) => i32::from(*c) + 256,
        }
    }
    let digit = |text: &[u8], at: usize| text.get(at).is_some_and(u8::is_ascii_digit);
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        while (i < a.len() && !digit(a, i)) || (j < b.len() && !digit(b, j)) {
            let (x, y) = (rank(a.get(i)), rank(b.get(j)));
            if x != y {
                return x.cmp(&y);
            }
            i += 1;
            j += 1;
        }
        while a.get(i) == Some(&b'0') {
            i += 1;
        }
        while b.get(j) == Some(&b'0') {
            j += 1;
        }
        let mut first_difference = Ordering::Equal;
        while digit(a, i) && digit(b, j) {
            if first_difference == Ordering::Equal {
                first_difference = a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
        }
        if digit(a, i) {
            return Ordering::Greater;
        }
        if digit(b, j) {
            return Ordering::Less;
        }
        if first_difference != Ordering::Equal {
            return first_difference;
        }
    }
    Ordering::Equal
}

/// `sort -m`: the inputs merged by taking, each time, the smallest of
/// their next lines (the earlier input's on a tie), as GNU's merge does
/// whether or not the inputs were sorted.
fn merge(groups: Vec<Vec<String>>, compare: impl Fn(&String, &String) -> Ordering) -> Vec<String> {
    let total = groups.iter().map(Vec::len).sum();
    let mut heads: Vec<std::collections::VecDeque<String>> = groups
        .into_iter()
        .map(std::collections::VecDeque::from)
        .collect();
    let mut merged = Vec::with_capacity(total);
    loop {
        let mut smallest: Option<usize> = None;
        for index in 0..heads.len() {
            let Some(line) = heads[index].front() else {
                continue;
            };
            let better = match smallest.and_then(|best| heads[best].front()) {
                None => true,
                Some(best_line) => compare(line, best_line) == Ordering::Less,
            };
            if better {
                smallest = Some(index);
            }
        }
        match smallest {
            Some(index) => merged.extend(heads[index].pop_front()),
            None => return merged,
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

pub fn sort(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(status 2; shell, args,
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
        ("check-silent", 'C', false),
        ("output", 'o', true),
        ("zero-terminated", 'z', false),
        ("random-sort", 'R', false),
        ("general-numeric-sort", 'g', false),
        ("dictionary-order", 'd', false),
        ("merge", 'm', false),
    ]);
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
    let checking = parsed.has('c') || parsed.has('C');
    if checking && parsed.operands.len() > 1 {
        let extra = &parsed.operands[1];
        return Ok(shell.fail_command(
            "sort",
            &format!("extra operand '{extra}' not allowed with -c"),
            2,
        ));
    }
    // `-m` merges each input as it comes (taken as sorted): read apart.
    let merging = parsed.has('m') && !checking && !parsed.has('R');
    let groups: Vec<Vec<String>> = if merging && parsed.operands.len() > 1 {
        let mut groups = Vec::new();
        for operand in &parsed.operands {
            match read_lines(shell, "sort", std::slice::from_ref(operand), delimiter) {
                Ok(lines) => groups.push(lines),
                Err(status) => return Ok(status),
            }
        }
        groups
    } else {
        match read_lines(shell, "sort", &parsed.operands, delimiter) {
            Ok(lines) => vec![lines],
            Err(status) => return Ok(status),
        }
    };
    let mut lines: Vec<String>;
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
    if merging {
        lines = merge(groups, compare);
    } else {
        lines = groups.into_iter().flatten().collect();
    }
    if checking {
        // With -u, equal neighbours are out of order too.
        let unique = parsed.has('u');
        let disorder = lines.windows(2).position(|pair| {
            let order = compare(&pair[0], &pair[1]);
            order == Ordering::Greater || unique && order == Ordering::Equal
        });
        let Some(at) = disorder else {
            return Ok(0);
        };
        if parsed.has('c') && !parsed.has('C') {
            let name = parsed.operands.first().map_or("-", String::as_str);
            let line = &lines[at + 1];
            shell.fail_command("sort", &format!("{name}:{}: disorder: {line}", at + 2), 1);
        }
        return Ok(1);
    }
    if parsed.has('R') {
        for i in (1..lines.len()).rev() {
            let j = shell.random_u32() as usize % (i + 1);
            lines.swap(i, j);
        }
    } else if !merging {
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
            .write_file(&path, goccia_interp::raw::encode_string(text));
        return match written {
            Ok(()) => Ok(0),
            Err(error) => Ok(shell.fail_fs(
                "sort",
                output,
                &error,
                |reason| format!("open failed: {output}: {reason}"),
                2,
            )),
        };
    }
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("sort", error),
    }
}

pub fn uniq(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
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
        ]
    );
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
        let written = shell
            .context()
            .vfs
            .lock()
            .write_file(&path, goccia_interp::raw::encode_string(text));
        return Ok(match written {
            Ok(()) => 0,
            Err(error) => shell.fail_fs(
                "uniq",
                output,
                &error,
                |reason| format!("{output}: {reason}"),
                1,
            ),
        });
    }
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("uniq", error),
    }
}

pub fn comm(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[("check-order", 'C', false), ("nocheck-order", 'N', false)]
    );
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
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("comm", error),
    }
}
