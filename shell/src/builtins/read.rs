//! `read` and `mapfile`/`readarray`.

use std::io::{BufRead, Read};

use crate::interp::{ExecResult, Shell};

struct ReadOptions {
    raw: bool,
    array: Option<String>,
    delimiter: u8,
    count: Option<usize>,
    exact: bool,
    fd: usize,
    prompt: Option<String>,
    names: Vec<String>,
}

fn parse_read(shell: &mut Shell, args: &[String]) -> Result<ReadOptions, i32> {
    let mut options = ReadOptions {
        raw: false,
        array: None,
        delimiter: b'\n',
        count: None,
        exact: false,
        fd: 0,
        prompt: None,
        names: Vec::new(),
    };
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg.len() < 2 {
            break;
        }
        let chars: Vec<char> = arg[1..].chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            j += 1;
            let needs_value = matches!(c, 'a' | 'd' | 'n' | 'N' | 'p' | 't' | 'u' | 'i');
            let value = if needs_value {
                if j < chars.len() {
                    let v: String = chars[j..].iter().collect();
                    j = chars.len();
                    Some(v)
                } else {
                    i += 1;
                    match args.get(i) {
                        Some(v) => Some(v.clone()),
                        None => {
                            return Err(shell.fail(
                                "read",
                                &format!("-{c}: option requires an argument"),
                                2,
                            ));
                        }
                    }
                }
            } else {
                None
            };
            match c {
                'r' => options.raw = true,
                's' | 'e' => {}
                'a' => options.array = value,
                'd' => options.delimiter = value.and_then(|v| v.bytes().next()).unwrap_or(0),
                'n' | 'N' => {
                    options.exact = c == 'N';
                    match value.as_deref().map(str::parse::<usize>) {
                        Some(Ok(n)) => options.count = Some(n),
                        _ => {
                            return Err(shell.fail(
                                "read",
                                &format!("{}: invalid number", value.unwrap_or_default()),
                                1,
                            ));
                        }
                    }
                }
                'p' => options.prompt = value,
                't' | 'i' => {}
                'u' => match value.as_deref().map(str::parse::<usize>) {
                    Some(Ok(fd)) => options.fd = fd,
                    _ => {
                        return Err(shell.fail(
                            "read",
                            &format!(
                                "{}: invalid file descriptor specification",
                                value.unwrap_or_default()
                            ),
                            1,
                        ));
                    }
                },
                other => return Err(shell.fail("read", &format!("-{other}: invalid option"), 2)),
            }
        }
        i += 1;
    }
    options.names = args[i..].to_vec();
    Ok(options)
}

pub fn read(shell: &mut Shell, args: &[String]) -> ExecResult {
    let options = match parse_read(shell, args) {
        Ok(options) => options,
        Err(status) => return Ok(status),
    };
    if let Some(prompt) = &options.prompt {
        shell.write_stderr(prompt.as_bytes());
    }
    let Some(reader) = shell.fds().input(options.fd) else {
        return Ok(shell.fail(
            "read",
            &format!(
                "{}: invalid file descriptor: Bad file descriptor",
                options.fd
            ),
            1,
        ));
    };
    let mut bytes = Vec::new();
    let mut hit_end = false;
    {
        let mut reader = reader.lock();
        match options.count {
            Some(n) => {
                // Up to n characters (stopping early at the delimiter unless -N).
                let mut chars = 0;
                while chars < n {
                    let mut byte = [0u8; 1];
                    match reader.read(&mut byte) {
                        Ok(0) | Err(_) => {
                            hit_end = true;
                            break;
                        }
                        Ok(_) => {
                            if !options.exact && byte[0] == options.delimiter {
                                break;
                            }
                            if !options.raw && byte[0] == b'\\' && !options.exact {
                                let mut next = [0u8; 1];
                                if reader.read(&mut next).unwrap_or(0) == 1 {
                                    if next[0] != b'\n' {
                                        bytes.push(next[0]);
                                        chars += 1;
                                    }
                                    continue;
                                }
                            }
                            bytes.push(byte[0]);
                            if byte[0] & 0xc0 != 0x80 {
                                chars += 1;
                            }
                        }
                    }
                }
            }
            None => loop {
                let before = bytes.len();
                let n = reader
                    .read_until(options.delimiter, &mut bytes)
                    .unwrap_or(0);
                if n == 0 {
                    hit_end = true;
                    break;
                }
                if bytes.last() == Some(&options.delimiter) {
                    bytes.pop();
                } else {
                    hit_end = true;
                    break;
                }
                // A backslash-newline continues the line.
                if !options.raw
                    && options.delimiter == b'\n'
                    && bytes.len() > before
                    && ends_with_odd_backslashes(&bytes)
                {
                    bytes.pop();
                    continue;
                }
                break;
            },
        }
    }
    let line = String::from_utf8_lossy(&bytes).into_owned();
    let status = i32::from(hit_end && (bytes.is_empty() || options.count.is_none()));
    let status = if hit_end && options.count.is_some() && !bytes.is_empty() {
        0
    } else {
        status
    };
    assign_fields(shell, &options, &line)?;
    Ok(status)
}

fn ends_with_odd_backslashes(bytes: &[u8]) -> bool {
    bytes.iter().rev().take_while(|b| **b == b'\\').count() % 2 == 1
}

/// Removes backslash escapes (`read` without `-r`).
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn assign_fields(
    shell: &mut Shell,
    options: &ReadOptions,
    line: &str,
) -> Result<(), crate::interp::Flow> {
    let ifs = shell.ifs();
    if let Some(array) = &options.array {
        let fields: Vec<String> = split_fields(line, &ifs, usize::MAX, options.raw);
        if let Err(message) = shell.set_indexed(array, fields) {
            shell.fail("read", &message, 1);
        }
        return Ok(());
    }
    if options.names.is_empty() {
        let value = if options.raw {
            line.to_string()
        } else {
            unescape(line)
        };
        let _ = shell.set_var("REPLY", value);
        return Ok(());
    }
    let fields = split_fields(line, &ifs, options.names.len(), options.raw);
    for (i, name) in options.names.iter().enumerate() {
        let value = fields.get(i).cloned().unwrap_or_default();
        if let Err(message) = shell.set_var(name, value) {
            shell.fail("read", &message, 1);
        }
    }
    Ok(())
}

/// Splits `line` on IFS into at most `max` fields; the last takes the
/// rest (with trailing IFS whitespace removed).
fn split_fields(line: &str, ifs: &str, max: usize, raw: bool) -> Vec<String> {
    let is_ws = |c: char| (c == ' ' || c == '\t' || c == '\n') && ifs.contains(c);
    let is_delim = |c: char| ifs.contains(c);
    let chars: Vec<char> = line.chars().collect();
    let mut fields = Vec::new();
    let mut i = 0;
    while i < chars.len() && is_ws(chars[i]) {
        i += 1;
    }
    while i < chars.len() {
        if fields.len() + 1 == max {
            // The rest, minus trailing IFS whitespace.
            let mut end = chars.len();
            while end > i && is_ws(chars[end - 1]) && !(end >= 2 && chars[end - 2] == '\\' && !raw)
            {
                end -= 1;
            }
            let rest: String = chars[i..end].iter().collect();
            fields.push(if raw { rest } else { unescape(&rest) });
            return fields;
        }
        let mut field = String::new();
        while i < chars.len() && !is_delim(chars[i]) {
            if chars[i] == '\\' && !raw && i + 1 < chars.len() {
                field.push(chars[i + 1]);
                i += 2;
                continue;
            }
            field.push(chars[i]);
            i += 1;
        }
        fields.push(field);
        // Skip one delimiter: whitespace, then at most one non-whitespace
        // IFS character, then whitespace.
        while i < chars.len() && is_ws(chars[i]) {
            i += 1;
        }
        if i < chars.len() && is_delim(chars[i]) && !is_ws(chars[i]) {
            i += 1;
            while i < chars.len() && is_ws(chars[i]) {
                i += 1;
            }
        }
    }
    if ifs.is_empty() && fields.is_empty() && !line.is_empty() {
        fields.push(line.to_string());
    }
    fields
}

pub fn mapfile(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut strip = false;
    let mut delimiter = b'\n';
    let mut count = usize::MAX;
    let mut origin = 0i64;
    let mut skip = 0usize;
    let mut fd = 0usize;
    let mut name = "MAPFILE".to_string();
    let mut i = 1;
    while i < args.len() {
        let arg = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i).cloned().unwrap_or_default()
        };
        match arg {
            "-t" => strip = true,
            "-d" => delimiter = value().bytes().next().unwrap_or(0),
            "-n" => {
                count = value()
                    .parse::<usize>()
                    .map(|n| if n == 0 { usize::MAX } else { n })
                    .unwrap_or(usize::MAX)
            }
            "-O" => origin = value().parse().unwrap_or(0),
            "-s" => skip = value().parse().unwrap_or(0),
            "-u" => fd = value().parse().unwrap_or(0),
            "-C" | "-c" => {
                value();
            }
            other => name = other.to_string(),
        }
        i += 1;
    }
    let Some(reader) = shell.fds().input(fd) else {
        return Ok(shell.fail(
            &args[0],
            &format!("{fd}: invalid file descriptor: Bad file descriptor"),
            1,
        ));
    };
    let mut lines = Vec::new();
    {
        let mut reader = reader.lock();
        let mut index = 0;
        loop {
            if lines.len() >= count {
                break;
            }
            let mut bytes = Vec::new();
            let n = reader.read_until(delimiter, &mut bytes).unwrap_or(0);
            if n == 0 {
                break;
            }
            if index < skip {
                index += 1;
                continue;
            }
            index += 1;
            if strip && bytes.last() == Some(&delimiter) {
                bytes.pop();
            }
            lines.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    let mut values = if origin > 0 {
        shell
            .get_value(&name)
            .map(|v| v.values())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    values.truncate(origin as usize);
    while values.len() < origin as usize {
        values.push(String::new());
    }
    values.extend(lines);
    if let Err(message) = shell.set_indexed(&name, values) {
        return Ok(shell.fail(&args[0], &message, 1));
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_split_like_read() {
        assert_eq!(split_fields("  a  b  c  ", " \t\n", 2, true), ["a", "b  c"]);
        assert_eq!(split_fields("a:b::c", ":", 4, true), ["a", "b", "", "c"]);
        assert_eq!(split_fields("a\\ b c", " ", 2, false), ["a b", "c"]);
        assert_eq!(split_fields("one", " ", 3, true), ["one"]);
    }
}
