//! `xxd`, as vim's 2022 xxd: its own option syntax (one option per word,
//! matched by prefix: `-ps`, `-cols 8`, `-rp` is `-r`), the hex dump with
//! groups (`-g`, `-e` little-endian groups), `-b` bits, `-p` plain,
//! `-i` C include, `-a` autoskip, `-s` seek (`+` relative, `-` from the
//! end), `-l`, `-o`, `-d`, `-u`, and `-r` which turns a dump (or `-r -p`
//! plain hex) back into bytes, patching an output file in place.

use std::io::Write;

use crate::args::{buffered, finish};
use crate::output::open_sink_or_fail;
use goccia_interp::input::{ByteStream, Source, open_source};
use goccia_interp::interp::{ExecResult, ShellView};

/// Most columns a dump line may have.
const MAX_COLUMNS: i64 = 256;

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Normal,
    LittleEndian,
    Bits,
    Plain,
    Include,
}

struct Options {
    style: Style,
    columns: Option<i64>,
    group: Option<i64>,
    length: Option<i64>,
    seek: i64,
    seek_relative: bool,
    seek_from_end: bool,
    display_offset: i64,
    decimal: bool,
    upper: bool,
    autoskip: bool,
    capitalize: bool,
    revert: bool,
    name: Option<String>,
    operands: Vec<String>,
}

/// C's `strtol(text, NULL, 0)`: leading digits in base 10, `0x` hex or
/// `0` octal; what does not parse is 0.
fn strtol(text: &str) -> i64 {
    let text = text.trim_start();
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (radix, digits) = if let Some(hex) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
        (16, hex)
    } else if text.len() > 1 && text.starts_with('0') {
        (8, &text[1..])
    } else {
        (10, text)
    };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let value = i64::from_str_radix(&digits[..end], radix).unwrap_or(0);
    if negative { -value } else { value }
}

fn usage_text() -> &'static str {
    "Usage:\n       xxd [options] [infile [outfile]]\n    or\n       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]\n"
}

/// Parses xxd's arguments; `Err` carries the status and the message.
fn parse(args: &[String]) -> Result<Options, (i32, String)> {
    let mut options = Options {
        style: Style::Normal,
        columns: None,
        group: None,
        length: None,
        seek: 0,
        seek_relative: false,
        seek_from_end: false,
        display_offset: 0,
        decimal: false,
        upper: false,
        autoskip: false,
        capitalize: false,
        revert: false,
        name: None,
        operands: Vec::new(),
    };
    let bad = || (1, usage_text().to_string());
    let mut i = 1;
    // The value of `-c8`, `-cols 8`, `-c 8` alike.
    let value = |i: &mut usize, arg: &str, long: &str| -> Result<String, (i32, String)> {
        let rest = &arg[2..];
        if !rest.is_empty() && !long.starts_with(rest) {
            return Ok(rest.to_string());
        }
        *i += 1;
        args.get(*i).cloned().ok_or_else(bad)
    };
    while i < args.len() {
        let arg = args[i].as_str();
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        let letter = arg.as_bytes().get(1).copied().unwrap_or(0);
        match letter {
            b'a' => options.autoskip = !options.autoskip,
            b'b' => options.style = Style::Bits,
            b'e' => options.style = Style::LittleEndian,
            b'u' => options.upper = true,
            b'p' => options.style = Style::Plain,
            b'i' => options.style = Style::Include,
            b'C' => options.capitalize = true,
            b'd' => options.decimal = true,
            b'r' => options.revert = true,
            b'c' if arg.starts_with("-capitalize") => options.capitalize = true,
            b'c' => options.columns = Some(strtol(&value(&mut i, arg, "ols")?)),
            b'g' => options.group = Some(strtol(&value(&mut i, arg, "roupsize")?)),
            b'l' => options.length = Some(strtol(&value(&mut i, arg, "en")?)),
            b'o' => options.display_offset = strtol(&value(&mut i, arg, "ffset")?),
            b'n' => options.name = Some(value(&mut i, arg, "ame")?),
            b's' => {
                let text = value(&mut i, arg, "eek")?;
                let mut text = text.as_str();
                if let Some(rest) = text.strip_prefix('+') {
                    options.seek_relative = true;
                    text = rest;
                }
                if let Some(rest) = text.strip_prefix('-') {
                    options.seek_from_end = true;
                    text = rest;
                }
                options.seek = strtol(text);
            }
            b'v' => return Err((0, "xxd 2022-01-14 by Juergen Weigert et al.\n".to_string())),
            b'E' => return Err((1, "xxd: -E (EBCDIC) is not supported\n".to_string())),
            _ => return Err(bad()),
        }
        i += 1;
    }
    options.operands = args[i.min(args.len())..].to_vec();
    if options.operands.len() > 2 {
        return Err(bad());
    }
    Ok(options)
}

pub fn xxd(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let options = match parse(args) {
        Ok(options) => options,
        Err((status, message)) => {
            // The version (`-v`) goes to stderr too, as xxd prints it.
            shell.write_stderr(message.as_bytes());
            return Ok(status);
        }
    };
    let input_name = options
        .operands
        .first()
        .filter(|name| name.as_str() != "-")
        .cloned();
    let source = match &input_name {
        Some(name) => match open_source(shell, "xxd", name) {
            Ok(source) => source,
            Err(_) => return Ok(2),
        },
        None => Source::stdin(shell),
    };
    let output = options.operands.get(1).cloned();
    if let Some(path) = output {
        // An output file is written whole at the end (a revert patches it).
        let mut data = Vec::new();
        let result = if options.revert {
            let cap = shell.context().limits.max_buffered_input;
            let mut target = Target::Buffer {
                data: std::mem::take(&mut data),
                cap,
            };
            let result = revert(&options, source, &mut target);
            if let Target::Buffer { data: written, .. } = target {
                data = written;
            }
            result
        } else {
            dump(&options, input_name.as_deref(), source, &mut data)
        };
        let status = match result {
            Ok(()) => 0,
            Err(Failure::Xxd(status, message)) => shell.fail_command("xxd", &message, status),
            Err(Failure::Io(error)) => return shell.io_status("xxd", error),
        };
        return write_output(shell, &path, &data, options.revert)
            .map(|written| if written == 0 { status } else { written });
    }
    // Stdout streams: `yes | xxd | head` ends.
    let mut out = buffered(shell);
    let result = if options.revert {
        revert(&options, source, &mut Target::Stream(&mut out))
    } else {
        dump(&options, input_name.as_deref(), source, &mut out)
    };
    match result {
        Ok(()) => finish(shell, "xxd", out, 0),
        Err(Failure::Xxd(status, message)) => {
            let status = shell.fail_command("xxd", &message, status);
            finish(shell, "xxd", out, status)
        }
        Err(Failure::Io(error)) => shell.io_status("xxd", error),
    }
}

/// Why xxd stopped: its own error (a status and a message), or the
/// output failing.
enum Failure {
    Xxd(i32, String),
    Io(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Failure {
        Failure::Io(error)
    }
}

/// Writes the result to the output operand: a dump replaces the file, a
/// revert patches it in place (xxd opens it without truncating).
fn write_output(shell: &mut ShellView, path: &str, data: &[u8], patch: bool) -> ExecResult {
    let mut content = data.to_vec();
    if patch
        && let Ok(Source::Data(existing)) = goccia_interp::input::open_quiet(shell, path)
        && existing.len() > data.len()
    {
        content.extend_from_slice(&existing[data.len()..]);
    }
    let mut sink = match open_sink_or_fail(shell, "xxd", path, false, 3) {
        Ok(sink) => sink,
        Err(status) => return Ok(status),
    };
    match sink.write_all(&content).and_then(|()| sink.flush()) {
        Ok(()) => Ok(0),
        Err(error) => Ok(shell.fail_command("xxd", &format!("{path}: {error}"), 3)),
    }
}

/// The input, positioned where `-s` says; the bytes before it dropped.
/// Returns the stream and the offset it starts at.
fn seeked(options: &Options, source: Source) -> Result<(ByteStream, i64), Failure> {
    let cannot = || Failure::Xxd(4, "Sorry, cannot seek.".to_string());
    match source {
        Source::Data(data) => {
            let len = data.len() as i64;
            let start = if options.seek_from_end {
                len - options.seek
            } else {
                options.seek
            };
            if start < 0 {
                return Err(cannot());
            }
            let start = start.min(len) as usize;
            Ok((
                ByteStream::new(Source::Data(data.slice(start..))),
                start as i64,
            ))
        }
        stdin @ Source::Stdin(..) => {
            if options.seek_from_end {
                return Err(cannot());
            }
            let mut stream = ByteStream::new(stdin);
            for _ in 0..options.seek {
                if stream.next().is_none() {
                    return Err(cannot());
                }
            }
            Ok((stream, options.seek))
        }
    }
}

/// Every byte of the (sought, length-limited) input.
fn input_bytes(
    options: &Options,
    source: Source,
) -> Result<(impl Iterator<Item = u8>, i64), Failure> {
    let (mut stream, offset) = seeked(options, source)?;
    let mut left = options.length.unwrap_or(-1);
    let bytes = std::iter::from_fn(move || {
        if left == 0 || goccia_interp::interrupt::stopped() {
            return None;
        }
        left -= 1;
        stream.next()
    });
    Ok((bytes, offset))
}

fn dump(
    options: &Options,
    input_name: Option<&str>,
    source: Source,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let style = options.style;
    let columns = match options.columns {
        Some(columns) if columns != 0 || style == Style::Plain => columns,
        _ => match style {
            Style::Plain => 30,
            Style::Include => 12,
            Style::Bits => 6,
            Style::Normal | Style::LittleEndian => 16,
        },
    };
    let line_style = matches!(style, Style::Normal | Style::LittleEndian | Style::Bits);
    if (style == Style::Plain && columns < 0)
        || (style != Style::Plain && columns < 1)
        || (line_style && columns > MAX_COLUMNS)
    {
        return Err(Failure::Xxd(
            1,
            format!("invalid number of columns (max. {MAX_COLUMNS})."),
        ));
    }
    let columns = columns as usize;
    let mut group = options.group.unwrap_or(match style {
        Style::Bits => 1,
        Style::Normal => 2,
        Style::LittleEndian => 4,
        Style::Plain | Style::Include => 0,
    });
    if group < 1 || group > columns as i64 {
        group = columns as i64;
    } else if style == Style::LittleEndian && (group & (group - 1)) != 0 {
        return Err(Failure::Xxd(
            1,
            "number of octets per group must be a power of 2 with -e.".to_string(),
        ));
    }
    let group = group as usize;
    let digits: &[u8; 16] = if options.upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let (bytes, offset) = input_bytes(options, source)?;
    match style {
        Style::Plain => {
            let mut left = columns;
            let mut any_short = false;
            for byte in bytes {
                out.write_all(&[
                    digits[usize::from(byte >> 4)],
                    digits[usize::from(byte & 15)],
                ])?;
                any_short = true;
                if columns > 0 {
                    left -= 1;
                    if left == 0 {
                        out.write_all(b"\n")?;
                        left = columns;
                        any_short = false;
                    }
                }
            }
            if columns == 0 || any_short {
                out.write_all(b"\n")?;
            }
        }
        Style::Include => include(options, input_name, bytes, columns, out)?,
        _ => {
            let mut lines = Lines {
                style,
                columns,
                group,
                digits,
                decimal: options.decimal,
                autoskip: options.autoskip,
                zero_seen: 0,
                saved: Vec::new(),
            };
            lines.run(bytes, offset + options.display_offset, out)?;
        }
    }
    Ok(())
}

/// `-i`: a C array (and its length) when the input is a named file.
fn include(
    options: &Options,
    input_name: Option<&str>,
    bytes: impl Iterator<Item = u8>,
    columns: usize,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let name = options.name.clone().or_else(|| {
        input_name.map(|name| {
            let mut variable: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect();
            if variable.starts_with(|c: char| c.is_ascii_digit()) {
                variable.insert_str(0, "__");
            }
            variable
        })
    });
    let name = name.map(|name| {
        if options.capitalize {
            name.to_ascii_uppercase()
        } else {
            name
        }
    });
    if let Some(name) = &name {
        writeln!(out, "unsigned char {name}[] = {{")?;
    }
    let mut count = 0usize;
    for byte in bytes {
        let separator = if !count.is_multiple_of(columns) {
            ", "
        } else if count == 0 {
            "  "
        } else {
            ",\n  "
        };
        let value = if options.upper {
            format!("{separator}0X{byte:02X}")
        } else {
            format!("{separator}0x{byte:02x}")
        };
        out.write_all(value.as_bytes())?;
        count += 1;
    }
    if count > 0 {
        out.write_all(b"\n")?;
    }
    if let Some(name) = &name {
        let len = if options.capitalize { "LEN" } else { "len" };
        write!(out, "}};\nunsigned int {name}_{len} = {count};\n")?;
    }
    Ok(())
}

/// The line dump (`-b`, `-e` and the default), with `-a`'s squeezing.
struct Lines<'a> {
    style: Style,
    columns: usize,
    group: usize,
    digits: &'a [u8; 16],
    decimal: bool,
    autoskip: bool,
    zero_seen: usize,
    /// The second all-zero line of a run, shown if the run ends there.
    saved: Vec<u8>,
}

impl Lines<'_> {
    fn run(
        &mut self,
        bytes: impl Iterator<Item = u8>,
        first: i64,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let group_width = if self.style == Style::Bits {
            8 * self.group + 1
        } else {
            2 * self.group + 1
        };
        let mut line: Vec<u8> = Vec::new();
        let mut position = 0;
        let mut nonzero = false;
        let mut address_len = 0;
        let mut end = 0;
        for (n, byte) in bytes.enumerate() {
            if position == 0 {
                let address = first.wrapping_add(n as i64);
                let text = if self.decimal {
                    format!("{address:08}:")
                } else {
                    format!("{:08x}:", address as u64)
                };
                address_len = text.len();
                line.clear();
                line.extend(text.as_bytes());
                line.resize(
                    address_len + 3 + (group_width * self.columns) / self.group + self.columns + 2,
                    b' ',
                );
            }
            let slot = if self.style == Style::LittleEndian {
                position ^ (self.group - 1)
            } else {
                position
            };
            let at = address_len + 1 + (group_width * slot) / self.group;
            if self.style == Style::Bits {
                for bit in 0..8 {
                    line[at + bit] = if byte & (0x80 >> bit) != 0 {
                        b'1'
                    } else {
                        b'0'
                    };
                }
            } else {
                line[at] = self.digits[usize::from(byte >> 4)];
                line[at + 1] = self.digits[usize::from(byte & 15)];
            }
            nonzero |= byte != 0;
            let text_at =
                address_len + 3 + (group_width * self.columns - 1) / self.group + position;
            line[text_at] = if (32..127).contains(&byte) {
                byte
            } else {
                b'.'
            };
            end = text_at + 1;
            position += 1;
            if position == self.columns {
                let mut finished = line[..end].to_vec();
                finished.push(b'\n');
                let mark = if self.autoskip { i32::from(nonzero) } else { 1 };
                self.emit(&finished, mark, out)?;
                line = finished;
                nonzero = false;
                position = 0;
            }
        }
        if position > 0 {
            let mut finished = line[..end].to_vec();
            finished.push(b'\n');
            self.emit(&finished, 1, out)?;
        } else if self.autoskip && !line.is_empty() {
            self.emit(&line.clone(), -1, out)?;
        }
        Ok(())
    }

    /// xxd's `xxdline`: with `-a`, the first all-zero line of a run
    /// shows, the rest become one `*` (the last shows when the run ends
    /// the input). `mark` is 1 for a line with data, 0 for an all-zero
    /// line, -1 for the final flush.
    fn emit(&mut self, line: &[u8], mark: i32, out: &mut impl Write) -> std::io::Result<()> {
        if mark == 0 && self.zero_seen == 1 {
            self.saved = line.to_vec();
        }
        let seen_before = self.zero_seen;
        if mark == 0 {
            self.zero_seen += 1;
        }
        if mark != 0 || seen_before == 0 {
            if mark != 0 {
                if mark < 0 {
                    self.zero_seen = self.zero_seen.saturating_sub(1);
                }
                if self.zero_seen == 2 {
                    out.write_all(&self.saved)?;
                }
                if self.zero_seen > 2 {
                    out.write_all(b"*\n")?;
                }
            }
            if mark >= 0 || self.zero_seen > 0 {
                out.write_all(line)?;
            }
            if mark != 0 {
                self.zero_seen = 0;
            }
        }
        Ok(())
    }
}

/// Where `-r` writes: stdout is a stream that only goes forward (a gap
/// is written as zeros, as far as the output limit allows); an output
/// file is a buffer that may be revisited, as large as the shell buffers.
enum Target<'a> {
    Stream(&'a mut dyn Write),
    Buffer { data: Vec<u8>, cap: usize },
}

impl Target<'_> {
    /// Moves from `at` to `to`.
    fn seek(&mut self, at: u64, to: u64) -> Result<(), Failure> {
        match self {
            Target::Stream(out) => {
                if to < at {
                    let message = "Sorry, cannot seek backwards.".to_string();
                    return Err(Failure::Xxd(5, message));
                }
                let zeros = [0u8; 8192];
                let mut gap = to - at;
                while gap > 0 && !goccia_interp::interrupt::stopped_now() {
                    let n = gap.min(zeros.len() as u64) as usize;
                    out.write_all(&zeros[..n])?;
                    gap -= n as u64;
                }
                Ok(())
            }
            Target::Buffer { data, cap } => {
                if to > *cap as u64 {
                    let message = format!(
                        "offset {to} is past the {cap} bytes the shell buffers for an output file"
                    );
                    return Err(Failure::Xxd(3, message));
                }
                if data.len() < to as usize {
                    data.resize(to as usize, 0);
                }
                Ok(())
            }
        }
    }

    /// Writes `byte` at `at` (where the last seek or put left off).
    fn put(&mut self, at: u64, byte: u8) -> Result<(), Failure> {
        match self {
            Target::Stream(out) => Ok(out.write_all(&[byte])?),
            Target::Buffer { data, .. } => {
                let at = at as usize;
                if at < data.len() {
                    data[at] = byte;
                } else {
                    data.push(byte);
                }
                Ok(())
            }
        }
    }
}

/// `-r`: a dump (or with `-p` plain hex) back into bytes, at the offsets
/// its lines name (plus `-s`); a gap is zeros.
fn revert(options: &Options, source: Source, out: &mut Target<'_>) -> Result<(), Failure> {
    let plain = match options.style {
        Style::Normal => false,
        Style::Plain => true,
        _ => {
            // xxd exits with -1 here.
            let message = "Sorry, cannot revert this type of hexdump".to_string();
            return Err(Failure::Xxd(255, message));
        }
    };
    let columns = match options.columns {
        Some(columns) if columns > 0 => columns as usize,
        _ if plain => 30,
        _ => 16,
    };
    let base = if options.seek_from_end {
        -options.seek
    } else {
        options.seek
    };
    let (mut n1, mut n2): (i32, i32) = (-1, 0);
    let mut n3: i32;
    let mut position = columns;
    let mut ignore = true;
    let mut want: i64 = 0;
    let mut have: i64 = 0;
    let hex = |c: u8| (c as char).to_digit(16).map_or(-1, |d| d as i32);
    let stream = ByteStream::new(source);
    let mut skip_line = false;
    for c in stream {
        if goccia_interp::interrupt::stopped() {
            break;
        }
        if skip_line {
            if c != b'\n' {
                continue;
            }
            skip_line = false;
        } else {
            if c == b'\r' {
                continue;
            }
            if plain && matches!(c, b' ' | b'\n' | b'\t') {
                continue;
            }
            n3 = n2;
            n2 = n1;
            n1 = hex(c);
            if n1 == -1 && ignore {
                continue;
            }
            ignore = false;
            if !plain && position >= columns {
                if n1 < 0 {
                    position = 0;
                } else {
                    want = (want << 4) | i64::from(n1);
                }
                continue;
            }
            let target = base.checked_add(want).filter(|t| *t >= 0);
            if target != Some(have) {
                let Some(target) = target else {
                    let message = "Sorry, cannot seek backwards.".to_string();
                    return Err(Failure::Xxd(5, message));
                };
                out.seek(have as u64, target as u64)?;
                have = target;
            }
            if n2 >= 0 && n1 >= 0 {
                out.put(have as u64, ((n2 << 4) | n1) as u8)?;
                have += 1;
                want += 1;
                n1 = -1;
                if !plain {
                    position += 1;
                    if position >= columns {
                        skip_line = c != b'\n';
                    }
                }
            } else if n1 < 0 && n2 < 0 && n3 < 0 {
                skip_line = c != b'\n';
            }
            if skip_line {
                continue;
            }
        }
        if c == b'\n' {
            if !plain {
                want = 0;
            }
            position = columns;
            ignore = true;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        std::iter::once("xxd")
            .chain(line.split_whitespace())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn options_match_by_prefix_one_per_word() {
        let options = parse(&args("-ps -cols 8 f")).ok().unwrap();
        assert!(options.style == Style::Plain && options.columns == Some(8));
        assert_eq!(options.operands, vec!["f"]);
        let options = parse(&args("-rp")).ok().unwrap();
        assert!(options.revert && options.style == Style::Normal);
        let options = parse(&args("-s -0x10 -c4")).ok().unwrap();
        assert!(options.seek_from_end && options.seek == 16 && options.columns == Some(4));
        assert_eq!(parse(&args("-x")).err().unwrap().0, 1);
    }

    #[test]
    fn strtol_reads_c_numbers() {
        assert_eq!(strtol("0x1f"), 31);
        assert_eq!(strtol("017"), 15);
        assert_eq!(strtol("12abc"), 12);
        assert_eq!(strtol("-3"), -3);
        assert_eq!(strtol("zz"), 0);
    }
}
