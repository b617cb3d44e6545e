//! `read` and `mapfile`/`readarray`.

use std::io::BufRead;

use crate::builtins::common::usage_error;
use crate::interp::{ExecResult, Shell};

const READ_USAGE: &str = "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]";

struct ReadOptions {
    raw: bool,
    array: Option<String>,
    delimiter: u8,
    count: Option<usize>,
    exact: bool,
    /// `-t 0`: only ask whether input is ready.
    poll: bool,
    fd: usize,
    prompt: Option<String>,
    names: Vec<String>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            raw: false,
            array: None,
            delimiter: b'\n',
            count: None,
            exact: false,
            poll: false,
            fd: 0,
            prompt: None,
            names: Vec::new(),
        }
    }
}

fn parse_read(shell: &mut Shell, args: &[String]) -> Result<ReadOptions, i32> {
    let mut options = ReadOptions::default();
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
                // A timeout never fires: virtual input does not block.
                't' => {
                    options.poll = value
                        .as_deref()
                        .and_then(|v| v.parse::<f64>().ok())
                        .is_some_and(|t| t == 0.0)
                }
                'i' => {}
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
                other => {
                    shell.fail("read", &format!("-{other}: invalid option"), 2);
                    return Err(usage_error(shell, "read", READ_USAGE));
                }
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
    // `-t 0` asks whether input is ready without reading any: a virtual
    // input (file, pipe, here-string) always is, as bash's select sees
    // data or end of file.
    if options.poll {
        return Ok(0);
    }
    let (line, hit_end) = read_line(&mut *reader.lock(), &options);
    let status = i32::from(hit_end && (line.is_empty() || options.count.is_none()));
    assign_fields(shell, &options, &line)?;
    Ok(status)
}

/// A character read, and whether a backslash escaped it (then it is
/// never an IFS separator).
type Marked = (char, bool);

/// Reads up to the delimiter (or `-n`/`-N` characters). Without `-r` a
/// backslash escapes the next character, the delimiter included, and a
/// backslash-newline is removed whatever the delimiter. The flag says the
/// input ended before the delimiter.
fn read_line(reader: &mut dyn BufRead, options: &ReadOptions) -> (Vec<Marked>, bool) {
    let mut bytes: Vec<(u8, bool)> = Vec::new();
    let mut chars = 0;
    let mut next_byte = || {
        let mut byte = [0u8; 1];
        match reader.read(&mut byte) {
            Ok(1) => Some(byte[0]),
            _ => None,
        }
    };
    let mut hit_end = false;
    while options.count.is_none_or(|n| chars < n) {
        let Some(byte) = next_byte() else {
            hit_end = true;
            break;
        };
        let mut escaped = false;
        let mut byte = byte;
        if byte == b'\\' && !options.raw {
            match next_byte() {
                Some(b'\n') => continue,
                Some(next) => {
                    byte = next;
                    escaped = true;
                }
                None => {
                    hit_end = true;
                    break;
                }
            }
        } else if byte == options.delimiter && !options.exact {
            break;
        }
        // bash's values are C strings: a NUL read is dropped.
        if byte == 0 {
            continue;
        }
        bytes.push((byte, escaped));
        if byte & 0xc0 != 0x80 {
            chars += 1;
        }
    }
    (decode(&bytes), hit_end)
}

/// Bytes to characters as [`crate::raw::decode`] makes them, each marked
/// as its first byte was.
fn decode(bytes: &[(u8, bool)]) -> Vec<Marked> {
    let raw: Vec<u8> = bytes.iter().map(|(b, _)| *b).collect();
    let mut marked = Vec::new();
    let mut at = 0;
    for c in crate::raw::decode(&raw).chars() {
        marked.push((c, bytes[at].1));
        at += match crate::raw::raw_byte(c) {
            Some(_) => 1,
            None => c.len_utf8(),
        };
    }
    marked
}

fn text(chars: &[Marked]) -> String {
    chars.iter().map(|(c, _)| c).collect()
}

fn assign_fields(
    shell: &mut Shell,
    options: &ReadOptions,
    line: &[Marked],
) -> Result<(), crate::interp::Flow> {
    let ifs = shell.ifs();
    // `-N` takes the characters as read, unsplit, into the first name.
    let ifs = if options.exact { String::new() } else { ifs };
    if let Some(array) = &options.array {
        let fields = if options.exact {
            vec![text(line)]
        } else {
            Splitter::new(line, &ifs).all()
        };
        if let Err(message) = shell.set_indexed(array, fields) {
            shell.fail("read", &message, 1);
        }
        return Ok(());
    }
    if options.names.is_empty() {
        let _ = shell.set_var("REPLY", text(line));
        return Ok(());
    }
    let fields = Splitter::new(line, &ifs).fields(options.names.len());
    for (i, name) in options.names.iter().enumerate() {
        let value = fields.get(i).cloned().unwrap_or_default();
        if let Err(message) = shell.set_var(name, value) {
            shell.fail("read", &message, 1);
        }
    }
    Ok(())
}

/// Field splitting as `read` does it: unescaped IFS characters separate;
/// a separator is IFS whitespace around at most one other IFS character.
struct Splitter<'a> {
    chars: &'a [Marked],
    ifs: &'a str,
    at: usize,
}

impl<'a> Splitter<'a> {
    fn new(chars: &'a [Marked], ifs: &'a str) -> Self {
        let mut splitter = Splitter { chars, ifs, at: 0 };
        splitter.skip_whitespace();
        splitter
    }

    fn is_separator(&self, i: usize) -> bool {
        let (c, escaped) = self.chars[i];
        !escaped && self.ifs.contains(c)
    }

    fn is_whitespace(&self, i: usize) -> bool {
        self.is_separator(i) && matches!(self.chars[i].0, ' ' | '\t' | '\n')
    }

    fn skip_whitespace(&mut self) {
        while self.at < self.chars.len() && self.is_whitespace(self.at) {
            self.at += 1;
        }
    }

    /// The next field, and the separator after it.
    fn field(&mut self) -> String {
        let start = self.at;
        while self.at < self.chars.len() && !self.is_separator(self.at) {
            self.at += 1;
        }
        let field = text(&self.chars[start..self.at]);
        self.skip_whitespace();
        if self.at < self.chars.len() && self.is_separator(self.at) {
            self.at += 1;
            self.skip_whitespace();
        }
        field
    }

    /// The rest of the line from `start` minus trailing IFS whitespace.
    /// As in bash, which trims the text with its escape markers still in,
    /// escaped whitespace is trimmed too, but never the first byte: when
    /// the rest is all whitespace and starts escaped, bash's escape marker
    /// (`\x01`) is what remains.
    fn rest_trimmed(&self, start: usize) -> String {
        let trimmable = |i: usize| {
            let c = self.chars[i].0;
            self.ifs.contains(c) && matches!(c, ' ' | '\t' | '\n')
        };
        let mut end = self.chars.len();
        while end > start + 1 && trimmable(end - 1) {
            end -= 1;
        }
        if end == start + 1 && self.chars[start].1 && trimmable(start) {
            return '\u{1}'.to_string();
        }
        text(&self.chars[start..end])
    }

    /// Every field (`read -a`).
    fn all(mut self) -> Vec<String> {
        let mut fields = Vec::new();
        while self.at < self.chars.len() {
            fields.push(self.field());
        }
        fields
    }

    /// At most `count` fields, the last taking the rest of the line: the
    /// rest is one field when it is a field and its separator (`a:` is
    /// `a`), else the rest minus trailing IFS whitespace (`a:b:` stays).
    fn fields(mut self, count: usize) -> Vec<String> {
        let mut fields = Vec::new();
        while fields.len() + 1 < count && self.at < self.chars.len() {
            fields.push(self.field());
        }
        if self.at < self.chars.len() {
            let rest_start = self.at;
            let word = self.field();
            if self.at == self.chars.len() {
                fields.push(word);
            } else {
                fields.push(self.rest_trimmed(rest_start));
            }
        }
        fields
    }
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
            // An element is a C string in bash: it ends at a NUL.
            if let Some(nul) = bytes.iter().position(|&b| b == 0) {
                bytes.truncate(nul);
            }
            lines.push(crate::raw::decode_vec(bytes));
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

    fn split(line: &str, ifs: &str, count: usize) -> Vec<String> {
        let marked: Vec<Marked> = line.chars().map(|c| (c, false)).collect();
        Splitter::new(&marked, ifs).fields(count)
    }

    #[test]
    fn fields_split_like_read() {
        assert_eq!(split("  a  b  c  ", " \t\n", 2), ["a", "b  c"]);
        assert_eq!(split("a:b::c", ":", 4), ["a", "b", "", "c"]);
        assert_eq!(split("one", " ", 3), ["one"]);
        // the last name: one field and its separator, or the whole rest
        assert_eq!(split("xx", "x ", 2), ["", ""]);
        assert_eq!(split("xxx", "x ", 2), ["", "xx"]);
        assert_eq!(split("a:", ":", 1), ["a"]);
        assert_eq!(split("a:b:", ":", 1), ["a:b:"]);
    }

    #[test]
    fn escapes_are_never_separators() {
        let newline = options(b'\n');
        let (line, end) = read_line(&mut &b"a\\ b\\\nc d\n"[..], &newline);
        assert!(!end);
        assert_eq!(Splitter::new(&line, " ").fields(2), ["a bc", "d"]);
        let (line, _) = read_line(&mut &b"a\\,b,c"[..], &options(b','));
        assert_eq!(text(&line), "a,b");
    }

    fn options(delimiter: u8) -> ReadOptions {
        ReadOptions {
            delimiter,
            ..ReadOptions::default()
        }
    }
}
