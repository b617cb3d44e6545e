//! `tr`: translating, squeezing and deleting characters.

use crate::args::buffered;
use crate::args::finish;
use crate::args::parse_options;
use crate::args::usage;
use goccia_interp::interp::{ExecResult, ShellView};
use std::io::Write;

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
            // A range from ASCII into the bytes past it (`\000-\377`)
            // is the ASCII part, then the bytes: not every code point
            // between.
            match (
                goccia_interp::raw::raw_byte(lo),
                goccia_interp::raw::raw_byte(hi),
            ) {
                (None, Some(_)) => {
                    out.extend(lo..='\u{7f}');
                    out.extend(goccia_interp::raw::byte_char(0x80)..=hi);
                }
                _ => out.extend(lo..=hi),
            }
            i += 3;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    Ok(out)
}

pub(crate) fn unescape_tr(text: &str) -> Vec<char> {
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
                    // Past ASCII an octal escape names a byte, as GNU tr
                    // (byte-oriented) reads it.
                    match u8::try_from(value) {
                        Ok(byte) => goccia_interp::raw::byte_char(byte),
                        Err(_) => char::from_u32(value).unwrap_or('\0'),
                    }
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

pub fn tr(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("delete", 'd', false),
            ("squeeze-repeats", 's', false),
            ("complement", 'c', false),
            ("truncate-set1", 't', false),
        ]
    );
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
    let mut input = goccia_interp::input::Source::stdin(shell);
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
        out.write_all(&goccia_interp::raw::encode(&output))
    });
    if let Err(error) = result {
        return shell.io_status("tr", error);
    }
    finish(shell, "tr", out, 0)
}
