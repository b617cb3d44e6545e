//! `od`, as GNU coreutils 9 lays it out: every output type on its own
//! line under one address, the columns of the types aligned with each
//! other (the spare width of a narrow type spread over its fields the way
//! GNU spreads it), a repeated block shown once and then `*` (unless
//! `-v`), a last partial block printing only the fields it has, `z`'s
//! `>text<` trailer, floats in their shortest round-tripping form.

use std::io::Write;

use super::Concatenated;
use crate::args::{buffered, finish, parse_options, usage};
use goccia_interp::interp::{ExecResult, ShellView};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// `a`: named characters, high bit ignored.
    Named,
    /// `c`: printable characters or backslash escapes, octal otherwise.
    Char,
    Signed,
    Unsigned,
    Octal,
    Hex,
    Float,
}

#[derive(Clone, Copy, Debug)]
struct Format {
    kind: Kind,
    /// Bytes per value.
    size: usize,
    /// The widest value's width.
    width: usize,
    /// `z`: the block's printable bytes after the fields.
    trailer: bool,
}

impl Format {
    fn new(kind: Kind, size: usize) -> Format {
        let width = match (kind, size) {
            (Kind::Named | Kind::Char, _) => 3,
            (Kind::Signed, 1) => 4,
            (Kind::Signed, 2) => 6,
            (Kind::Signed, 4) => 11,
            (Kind::Unsigned, 1) => 3,
            (Kind::Unsigned, 2) => 5,
            (Kind::Unsigned, 4) => 10,
            (Kind::Signed | Kind::Unsigned, _) => 20,
            (Kind::Octal, 1) => 3,
            (Kind::Octal, 2) => 6,
            (Kind::Octal, 4) => 11,
            (Kind::Octal, _) => 22,
            (Kind::Hex, _) => size * 2,
            (Kind::Float, 4) => 15,
            (Kind::Float, _) => 24,
        };
        Format {
            kind,
            size,
            width,
            trailer: false,
        }
    }
}

/// Parses one `-t` argument, which may hold several types (`x1z`, `d2c`).
fn parse_types(text: &str) -> Result<Vec<Format>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut formats = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let letter = chars[i];
        i += 1;
        let kind = match letter {
            'a' => Kind::Named,
            'c' => Kind::Char,
            'd' => Kind::Signed,
            'u' => Kind::Unsigned,
            'o' => Kind::Octal,
            'x' => Kind::Hex,
            'f' => Kind::Float,
            other => {
                return Err(format!(
                    "invalid character '{other}' in type string \u{2018}{text}\u{2019}"
                ));
            }
        };
        let size = match kind {
            Kind::Named | Kind::Char => 1,
            Kind::Float => match chars.get(i) {
                Some('F') => {
                    i += 1;
                    4
                }
                Some('D') => {
                    i += 1;
                    8
                }
                Some('L') => {
                    return Err(format!(
                        "invalid type string \u{2018}{text}\u{2019};\nlong double is not supported"
                    ));
                }
                _ => sized(&chars, &mut i, 8, text, "floating point")?,
            },
            _ => match chars.get(i) {
                Some('C') => {
                    i += 1;
                    1
                }
                Some('S') => {
                    i += 1;
                    2
                }
                Some('I') => {
                    i += 1;
                    4
                }
                Some('L') => {
                    i += 1;
                    8
                }
                _ => sized(&chars, &mut i, 4, text, "integral")?,
            },
        };
        let mut format = Format::new(kind, size);
        if chars.get(i) == Some(&'z') {
            i += 1;
            format.trailer = true;
        }
        formats.push(format);
    }
    Ok(formats)
}

/// A decimal size after a type letter (`x2`), or `default`.
fn sized(
    chars: &[char],
    i: &mut usize,
    default: usize,
    text: &str,
    family: &str,
) -> Result<usize, String> {
    let start = *i;
    while *i < chars.len() && chars[*i].is_ascii_digit() {
        *i += 1;
    }
    if start == *i {
        return Ok(default);
    }
    let digits: String = chars[start..*i].iter().collect();
    let size: usize = digits.parse().unwrap_or(0);
    let valid = if family == "integral" {
        matches!(size, 1 | 2 | 4 | 8)
    } else {
        matches!(size, 4 | 8)
    };
    if valid {
        Ok(size)
    } else {
        Err(format!(
            "invalid type string \u{2018}{text}\u{2019};\nthis system doesn't provide a {size}-byte {family} type"
        ))
    }
}

/// The traditional one-letter options and the types they mean.
fn traditional(flag: char) -> Option<Format> {
    Some(match flag {
        'a' => Format::new(Kind::Named, 1),
        'b' => Format::new(Kind::Octal, 1),
        'c' => Format::new(Kind::Char, 1),
        'd' => Format::new(Kind::Unsigned, 2),
        'f' => Format::new(Kind::Float, 4),
        'i' => Format::new(Kind::Signed, 4),
        'l' => Format::new(Kind::Signed, 8),
        'o' => Format::new(Kind::Octal, 2),
        's' => Format::new(Kind::Signed, 2),
        'x' => Format::new(Kind::Hex, 2),
        _ => return None,
    })
}

/// How addresses are written.
#[derive(Clone, Copy, PartialEq)]
enum Radix {
    Octal,
    Decimal,
    Hex,
    None,
}

impl Radix {
    fn width(self) -> usize {
        match self {
            Radix::Octal | Radix::Decimal => 7,
            Radix::Hex => 6,
            Radix::None => 0,
        }
    }

    fn format(self, address: u64) -> String {
        match self {
            Radix::Octal => format!("{address:07o}"),
            Radix::Decimal => format!("{address:07}"),
            Radix::Hex => format!("{address:06x}"),
            Radix::None => String::new(),
        }
    }
}

/// Everything that shapes the dump.
struct Layout {
    formats: Vec<Format>,
    /// Per format: the spare width spread over its fields.
    pads: Vec<usize>,
    bytes_per_block: usize,
    radix: Radix,
    big_endian: bool,
}

pub fn od(shell: &mut ShellView, args: &[String]) -> ExecResult {
    // `-w` and `--width` take an optional value (32 when bare).
    let args: Vec<String> = args
        .iter()
        .map(|arg| match arg.as_str() {
            "-w" => "-w32".to_string(),
            "--width" => "--width=32".to_string(),
            _ => arg.clone(),
        })
        .collect();
    let parsed = parse_options!(status 1; shell, &args,
    "AjNtwE",
    &[
        ("address-radix", 'A', true),
        ("skip-bytes", 'j', true),
        ("read-bytes", 'N', true),
        ("format", 't', true),
        ("width", 'w', true),
        ("output-duplicates", 'v', false),
        ("endian", 'E', true),
    ]);
    // Types print in the order given, traditional letters and `-t` mixed.
    let mut formats = Vec::new();
    for (option, value) in &parsed.sequence {
        match (option, value) {
            ('t', Some(text)) => match parse_types(text) {
                Ok(more) => formats.extend(more),
                Err(message) => return Ok(shell.fail_command("od", &message, 1)),
            },
            ('v', None) | (_, Some(_)) => {}
            (flag, None) => match traditional(*flag) {
                Some(format) => formats.push(format),
                None => return usage(shell, "od", &format!("invalid option -- '{flag}'"), 1),
            },
        }
    }
    if formats.is_empty() {
        formats.push(Format::new(Kind::Octal, 2));
    }
    let radix = match parsed.value('A') {
        None => Radix::Octal,
        Some("o") => Radix::Octal,
        Some("d") => Radix::Decimal,
        Some("x") => Radix::Hex,
        Some("n") => Radix::None,
        Some(other) => {
            let message = format!(
                "invalid output address radix \u{2018}{other}\u{2019}; it must be one character from [doxn]"
            );
            return Ok(shell.fail_command("od", &message, 1));
        }
    };
    let big_endian = match parsed.value('E') {
        None | Some("little") => false,
        Some("big") => true,
        Some(other) => {
            let message = format!(
                "invalid argument \u{2018}{other}\u{2019} for \u{2018}--endian\u{2019}\nValid arguments are:\n  - \u{2018}big\u{2019}\n  - \u{2018}little\u{2019}"
            );
            return usage(shell, "od", &message, 1);
        }
    };
    let mut counts = [0u64; 2];
    for (slot, option, what) in [(0, 'j', "skip-bytes"), (1, 'N', "read-bytes")] {
        if let Some(text) = parsed.value(option) {
            match super::parse_count(text) {
                Some(count) => counts[slot] = count,
                None => {
                    let message = format!("invalid {what} argument \u{2018}{text}\u{2019}");
                    return Ok(shell.fail_command("od", &message, 1));
                }
            }
        }
    }
    let (skip, limit) = (counts[0], parsed.value('N').map(|_| counts[1]));
    let lcm = formats.iter().fold(1, |acc, f| lcm(acc, f.size));
    let bytes_per_block = match parsed.value('w') {
        None => lcm * (16 / lcm).max(1),
        Some(text) => match text.parse::<usize>() {
            Ok(width) if width > 0 && width % lcm == 0 => width,
            Ok(width) => {
                let warning = format!("warning: invalid width {width}; using {lcm} instead");
                shell.fail_command("od", &warning, 0);
                lcm
            }
            Err(_) => {
                let message = format!("invalid width argument \u{2018}{text}\u{2019}");
                return Ok(shell.fail_command("od", &message, 1));
            }
        },
    };
    let most = shell.context().limits.max_buffered_input;
    if bytes_per_block > most {
        let message =
            format!("width {bytes_per_block} is more than the {most} bytes the shell buffers");
        return Ok(shell.fail_command("od", &message, 1));
    }
    let width_per_block = formats
        .iter()
        .map(|f| (f.width + 1) * (bytes_per_block / f.size))
        .max()
        .unwrap_or(0);
    let pads = formats
        .iter()
        .map(|f| width_per_block - f.width * (bytes_per_block / f.size))
        .collect();
    let layout = Layout {
        formats,
        pads,
        bytes_per_block,
        radix,
        big_endian,
    };

    let mut input = Concatenated::new("od", &parsed.operands);
    if input.skip(shell, skip) > 0 {
        return Ok(shell.fail_command("od", "cannot skip past end of combined input", 1));
    }
    let mut out = buffered(shell);
    let mut offset = skip;
    let mut left = limit;
    let mut previous: Option<Vec<u8>> = None;
    let mut starred = false;
    let mut block = vec![0u8; bytes_per_block];
    loop {
        let want = left.map_or(bytes_per_block, |l| l.min(bytes_per_block as u64) as usize);
        if want == 0 || goccia_interp::interrupt::stopped() {
            break;
        }
        let got = input.fill(shell, &mut block[..want]);
        if got == 0 {
            break;
        }
        if let Some(l) = &mut left {
            *l -= got as u64;
        }
        let full = got == bytes_per_block;
        if full && !parsed.has('v') && previous.as_deref() == Some(&block[..]) {
            if !starred {
                let _ = out.write_all(b"*\n");
                starred = true;
            }
        } else {
            starred = false;
            block[got..].fill(0);
            let text = layout.line(offset, &block, got);
            if out.write_all(text.as_bytes()).is_err() {
                break;
            }
            previous = Some(block.clone());
        }
        offset += got as u64;
        if !full {
            break;
        }
    }
    if radix != Radix::None {
        let _ = writeln!(out, "{}", radix.format(offset));
    }
    let status = i32::from(input.failed);
    finish(shell, "od", out, status)
}

fn lcm(a: usize, b: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    a / gcd(a, b) * b
}

impl Layout {
    /// One block's lines (one per format); `used` of its bytes are data,
    /// the rest zeros.
    fn line(&self, offset: u64, block: &[u8], used: usize) -> String {
        let mut text = String::new();
        for (index, (format, pad)) in self.formats.iter().zip(&self.pads).enumerate() {
            if index == 0 {
                text.push_str(&self.radix.format(offset));
            } else {
                text.push_str(&" ".repeat(self.radix.width()));
            }
            let fields = self.bytes_per_block / format.size;
            let blank = (self.bytes_per_block - used) / format.size;
            let mut pad_remaining = *pad;
            for (n, i) in (blank + 1..=fields).rev().enumerate() {
                let next_pad = pad * (i - 1) / fields;
                let width = pad_remaining - next_pad + format.width;
                let start = n * format.size;
                let value = self.value(format, &block[start..start + format.size]);
                text.push_str(&goccia_interp::pad::left_pad(&value, width, ' '));
                pad_remaining = next_pad;
            }
            if format.trailer {
                let spaces = blank * format.width + pad * blank / fields;
                text.push_str(&" ".repeat(spaces));
                text.push_str("  >");
                for byte in &block[..used] {
                    let printable = byte.is_ascii_graphic() || *byte == b' ';
                    text.push(if printable { *byte as char } else { '.' });
                }
                text.push('<');
            }
            text.push('\n');
        }
        text
    }

    fn value(&self, format: &Format, bytes: &[u8]) -> String {
        let mut raw = [0u8; 8];
        if self.big_endian {
            raw[8 - bytes.len()..].copy_from_slice(bytes);
            raw = u64::from_be_bytes(raw).to_le_bytes();
        } else {
            raw[..bytes.len()].copy_from_slice(bytes);
        }
        let unsigned = u64::from_le_bytes(raw);
        let digits = format.width;
        match format.kind {
            Kind::Named => named(bytes[0]).to_string(),
            Kind::Char => escaped(bytes[0]),
            Kind::Unsigned => unsigned.to_string(),
            Kind::Signed => {
                let shift = 64 - format.size * 8;
                (((unsigned << shift) as i64) >> shift).to_string()
            }
            Kind::Octal => goccia_interp::pad::left_pad(&format!("{unsigned:o}"), digits, '0'),
            Kind::Hex => goccia_interp::pad::left_pad(&format!("{unsigned:x}"), digits, '0'),
            Kind::Float if format.size == 4 => shortest_f32(f32::from_bits(unsigned as u32)),
            Kind::Float => shortest_f64(f64::from_bits(unsigned)),
        }
    }
}

fn named(byte: u8) -> &'static str {
    const NAMES: [&str; 33] = [
        "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr",
        "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub",
        "esc", "fs", "gs", "rs", "us", "sp",
    ];
    const PRINTABLE: &str = "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
    match byte & 0x7f {
        b @ 0..=32 => NAMES[b as usize],
        127 => "del",
        b => {
            let i = (b - 33) as usize;
            &PRINTABLE[i..i + 1]
        }
    }
}

fn escaped(byte: u8) -> String {
    match byte {
        0 => "\\0".to_string(),
        7 => "\\a".to_string(),
        8 => "\\b".to_string(),
        9 => "\\t".to_string(),
        10 => "\\n".to_string(),
        11 => "\\v".to_string(),
        12 => "\\f".to_string(),
        13 => "\\r".to_string(),
        32..=126 => (byte as char).to_string(),
        _ => format!("{byte:03o}"),
    }
}

/// C's `%.*g` with the fewest digits that read back as the same value
/// (from 6 for normal values, from 1 for subnormal ones), as GNU's
/// `ftoastr` writes it.
fn shortest_f32(value: f32) -> String {
    let from = if value.abs() < f32::MIN_POSITIVE {
        1
    } else {
        6
    };
    shortest(f64::from(value), from, 9, |text| {
        text.parse::<f32>()
            .is_ok_and(|back| back == value || (back.is_nan() && value.is_nan()))
    })
}

fn shortest_f64(value: f64) -> String {
    let from = if value.abs() < f64::MIN_POSITIVE {
        1
    } else {
        15
    };
    shortest(value, from, 17, |text| {
        text.parse::<f64>()
            .is_ok_and(|back| back == value || (back.is_nan() && value.is_nan()))
    })
}

fn shortest(value: f64, from: usize, to: usize, reads_back: impl Fn(&str) -> bool) -> String {
    let mut text = String::new();
    for precision in from..=to {
        text = goccia_interp::printf::format_float(value, 'g', "", "", Some(precision));
        if reads_back(&text) {
            break;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_strings_hold_several_types_and_name_what_is_wrong() {
        let formats = parse_types("x1zd2c").unwrap();
        assert_eq!(formats.len(), 3);
        assert!(formats[0].trailer && formats[0].size == 1);
        assert_eq!((formats[1].size, formats[1].width), (2, 6));
        assert!(parse_types("x3").unwrap_err().contains("3-byte integral"));
        assert!(
            parse_types("q")
                .unwrap_err()
                .contains("invalid character 'q'")
        );
        assert_eq!(parse_types("fF").unwrap()[0].width, 15);
    }

    #[test]
    fn floats_are_the_shortest_that_read_back() {
        assert_eq!(shortest_f32(1.0), "1");
        assert_eq!(shortest_f32(0.1), "0.1");
        assert_eq!(shortest_f64(0.1), "0.1");
        assert_eq!(shortest_f64(1.0 / 3.0), "0.3333333333333333");
    }
}
