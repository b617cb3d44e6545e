//! hexdump's format strings: `[count][/bytes] "format"` units, each
//! format split into conversions that each consume bytes, and how one
//! conversion prints a value (util-linux's rules, including its padding
//! of conversions past the end of the data).

/// One `-e` string: format units applied to every block in turn.
#[derive(Clone, Debug)]
pub struct FormatString {
    pub units: Vec<Unit>,
}

/// `count/bytes "format"`.
#[derive(Clone, Debug)]
pub struct Unit {
    pub reps: usize,
    /// Whether the count was written (an implicit one may grow to fill
    /// the block).
    pub explicit_reps: bool,
    /// Bytes one repetition consumes.
    pub bytes: usize,
    pub pieces: Vec<Piece>,
    /// Holds `%_A`: printed once, after the data, with the end address.
    pub at_end: bool,
}

/// Literal text followed by at most one conversion.
#[derive(Clone, Debug)]
pub struct Piece {
    pub text: Vec<u8>,
    pub conversion: Option<Conversion>,
}

#[derive(Clone, Debug)]
pub struct Conversion {
    pub flags: String,
    pub width: String,
    pub precision: Option<usize>,
    pub kind: Kind,
    /// Bytes consumed.
    pub bytes: usize,
    /// Turned into blanks of the same width: the data ran out.
    pub blank: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `%_a[dox]`, `%_A[dox]`.
    Address(char),
    /// `%c`.
    Char,
    /// `%d`, `%i`.
    Signed,
    /// `%o`, `%u`, `%x`, `%X`.
    Unsigned(char),
    /// `%e`, `%E`, `%f`, `%g`, `%G`.
    Float(char),
    /// `%s`.
    Str,
    /// `%_c`: a character or its escape, octal otherwise.
    CharEscaped,
    /// `%_p`: a printable character or `.`.
    Printable,
    /// `%_u`: control characters named.
    Named,
}

/// Parses one `-e` argument.
pub fn parse(source: &str) -> Result<FormatString, String> {
    let bytes = source.as_bytes();
    let mut units = Vec::new();
    let mut i = 0;
    let skip_space = |i: &mut usize| {
        while *i < bytes.len() && bytes[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    // Absent is `Ok(None)`; digits that overflow are a bad format.
    let number = |i: &mut usize| -> Result<Option<usize>, String> {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        if start == *i {
            return Ok(None);
        }
        source[start..*i]
            .parse()
            .map(Some)
            .map_err(|_| format!("bad format {{{source}}}"))
    };
    loop {
        skip_space(&mut i);
        if i >= bytes.len() {
            break;
        }
        let reps = number(&mut i)?;
        skip_space(&mut i);
        let mut byte_count = None;
        if bytes.get(i) == Some(&b'/') {
            i += 1;
            skip_space(&mut i);
            byte_count = number(&mut i)?;
            if byte_count.is_none() {
                return Err(format!("bad format {{{source}}}"));
            }
            skip_space(&mut i);
        }
        if bytes.get(i) != Some(&b'"') {
            return Err(format!("bad format {{{source}}}"));
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i] != b'"' {
            if bytes[i] == b'\\' {
                i += 1;
            }
            i += 1;
        }
        if i >= bytes.len() {
            return Err(format!("bad format {{{source}}}"));
        }
        let format = unescape(&bytes[start..i]);
        i += 1;
        units.push(unit(&format, reps, byte_count.unwrap_or(0))?);
    }
    Ok(FormatString { units })
}

/// The format's backslash escapes.
fn unescape(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\\' && i + 1 < text.len() {
            i += 1;
            out.push(match text[i] {
                b'0' => 0,
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'v' => 11,
                other => other,
            });
        } else {
            out.push(text[i]);
        }
        i += 1;
    }
    out
}

/// Splits a unit's format into pieces, giving each conversion its byte
/// count (the unit's `/bytes`, or the conversion's natural size).
fn unit(format: &[u8], reps: Option<usize>, byte_count: usize) -> Result<Unit, String> {
    let mut pieces = Vec::new();
    let mut at_end = false;
    let mut conversions = 0;
    let mut i = 0;
    while i < format.len() {
        let start = i;
        while i < format.len() && format[i] != b'%' {
            i += 1;
        }
        let text = format[start..i].to_vec();
        if i >= format.len() {
            pieces.push(Piece {
                text,
                conversion: None,
            });
            break;
        }
        let spec_start = i;
        i += 1;
        let mut flags = String::new();
        while i < format.len() && b" -0+#".contains(&format[i]) {
            flags.push(format[i] as char);
            i += 1;
        }
        let digits = |i: &mut usize| {
            let start = *i;
            while *i < format.len() && format[*i].is_ascii_digit() {
                *i += 1;
            }
            String::from_utf8_lossy(&format[start..*i]).into_owned()
        };
        let width = digits(&mut i);
        let mut precision = None;
        if format.get(i) == Some(&b'.') {
            i += 1;
            precision = Some(digits(&mut i).parse().unwrap_or(0));
        }
        let letter = format.get(i).copied().unwrap_or(0);
        i += 1;
        let spec_text = |end: usize| {
            String::from_utf8_lossy(&format[spec_start..end.min(format.len())]).into_owned()
        };
        let natural = |allowed: &[usize], default: usize, spec: String| match byte_count {
            0 => Ok(default),
            n if allowed.contains(&n) => Ok(n),
            _ => Err(format!(
                "bad byte count for conversion character {}",
                &spec[1..]
            )),
        };
        let (kind, bytes) = match letter {
            b'c' => (Kind::Char, natural(&[1], 1, spec_text(i))?),
            b'd' | b'i' => (Kind::Signed, natural(&[1, 2, 4, 8], 4, spec_text(i))?),
            b'o' | b'u' | b'x' | b'X' => (
                Kind::Unsigned(letter as char),
                natural(&[1, 2, 4, 8], 4, spec_text(i))?,
            ),
            b'e' | b'E' | b'f' | b'g' | b'G' => (
                Kind::Float(letter as char),
                natural(&[4, 8], 8, spec_text(i))?,
            ),
            b's' => {
                let bytes = match (byte_count, precision) {
                    (0, Some(precision)) => precision,
                    (0, None) => return Err("%s requires a precision or a byte count".to_string()),
                    (count, _) => count,
                };
                (Kind::Str, bytes)
            }
            b'_' => {
                let which = format.get(i).copied().unwrap_or(0);
                i += 1;
                match which {
                    b'a' | b'A' => {
                        let radix = format.get(i).copied().unwrap_or(0);
                        i += 1;
                        if !matches!(radix, b'd' | b'o' | b'x') {
                            return Err(format!(
                                "bad conversion character %{}",
                                &spec_text(i)[1..]
                            ));
                        }
                        if which == b'A' {
                            at_end = true;
                        }
                        (Kind::Address(radix as char), 0)
                    }
                    b'c' => (Kind::CharEscaped, natural(&[1], 1, spec_text(i))?),
                    b'p' => (Kind::Printable, natural(&[1], 1, spec_text(i))?),
                    b'u' => (Kind::Named, natural(&[1], 1, spec_text(i))?),
                    _ => return Err(format!("bad conversion character %{}", &spec_text(i)[1..])),
                }
            }
            _ => return Err(format!("bad conversion character %{}", &spec_text(i)[1..])),
        };
        if !matches!(kind, Kind::Address(_)) {
            conversions += 1;
            if byte_count > 0 && conversions > 1 {
                return Err("byte count with multiple conversion characters".to_string());
            }
        }
        pieces.push(Piece {
            text,
            conversion: Some(Conversion {
                flags,
                width,
                precision,
                kind,
                bytes,
                blank: false,
            }),
        });
    }
    let bytes = if byte_count > 0 {
        byte_count
    } else {
        pieces
            .iter()
            .filter_map(|p| p.conversion.as_ref())
            .map(|c| c.bytes)
            .sum()
    };
    Ok(Unit {
        reps: reps.unwrap_or(1),
        explicit_reps: reps.is_some(),
        bytes,
        pieces,
        at_end,
    })
}

impl FormatString {
    /// Bytes of the block one pass of this string consumes (saturating:
    /// the caller refuses a block larger than it can hold).
    pub fn block_size(&self) -> usize {
        self.units
            .iter()
            .map(|u| u.reps.saturating_mul(u.bytes))
            .fold(0, usize::saturating_add)
    }

    /// util-linux's adjustments once the block size is known: a last
    /// unit without a written count repeats to fill the block, and a
    /// repeated unit's last repetition drops its format's final blank.
    pub fn fit(&mut self, block_size: usize) {
        let own = self.block_size();
        if let Some(last) = self.units.last_mut()
            && !last.explicit_reps
            && own < block_size
            && last.bytes > 0
        {
            last.reps += (block_size - own) / last.bytes;
        }
    }
}

impl Conversion {
    /// Prints the conversion of `data` (its `bytes` bytes; `address` for
    /// the address conversions).
    pub fn render(&self, data: &[u8], address: u64, out: &mut Vec<u8>) {
        use goccia_interp::printf::{format_float, format_int, pad};
        if self.blank {
            // util-linux drops the flags and prints an empty string at the
            // conversion's width.
            out.extend(pad("", "", &self.width).as_bytes());
            return;
        }
        let (flags, width, precision) = (self.flags.as_str(), self.width.as_str(), self.precision);
        let first = data.first().copied().unwrap_or(0);
        let text = match self.kind {
            Kind::Address(radix) => {
                let conversion = if radix == 'd' { 'u' } else { radix };
                format_int(address as i64, conversion, flags, width, precision)
            }
            Kind::Char => return char_field(first, flags, width, out),
            Kind::Signed => {
                let shift = 64 - self.bytes * 8;
                let value = ((little_endian(data) << shift) as i64) >> shift;
                format_int(value, 'd', flags, width, precision)
            }
            Kind::Unsigned(letter) => {
                format_int(little_endian(data) as i64, letter, flags, width, precision)
            }
            Kind::Float(letter) => {
                let value = if self.bytes == 4 {
                    f64::from(f32::from_bits(little_endian(data) as u32))
                } else {
                    f64::from_bits(little_endian(data))
                };
                format_float(value, letter, flags, width, precision.or(Some(6)))
            }
            Kind::Str => {
                let end = data.iter().position(|b| *b == 0).unwrap_or(data.len());
                let mut text = &data[..end];
                if let Some(precision) = precision {
                    text = &text[..precision.min(text.len())];
                }
                return pad_bytes(text, flags, width, out);
            }
            Kind::CharEscaped => match first {
                0 => pad("\\0", flags, width),
                7 => pad("\\a", flags, width),
                8 => pad("\\b", flags, width),
                12 => pad("\\f", flags, width),
                10 => pad("\\n", flags, width),
                13 => pad("\\r", flags, width),
                9 => pad("\\t", flags, width),
                11 => pad("\\v", flags, width),
                byte if is_print(byte) => return char_field(byte, flags, width, out),
                byte => pad(&format!("{byte:03o}"), flags, width),
            },
            Kind::Printable => {
                let byte = if is_print(first) { first } else { b'.' };
                return char_field(byte, flags, width, out);
            }
            Kind::Named => {
                const NAMES: [&str; 32] = [
                    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "lf", "vt",
                    "ff", "cr", "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb",
                    "can", "em", "sub", "esc", "fs", "gs", "rs", "us",
                ];
                match first {
                    byte @ 0..=0x1f => pad(NAMES[byte as usize], flags, width),
                    0x7f => pad("del", flags, width),
                    byte if is_print(byte) => return char_field(byte, flags, width, out),
                    byte => format_int(i64::from(byte), 'x', flags, width, precision),
                }
            }
        };
        out.extend(text.as_bytes());
    }
}

fn is_print(byte: u8) -> bool {
    (0x20..0x7f).contains(&byte)
}

fn little_endian(data: &[u8]) -> u64 {
    let mut raw = [0u8; 8];
    let data = &data[..data.len().min(8)];
    raw[..data.len()].copy_from_slice(data);
    u64::from_le_bytes(raw)
}

/// `%c`: the byte itself (not a character of the locale), padded.
fn char_field(byte: u8, flags: &str, width: &str, out: &mut Vec<u8>) {
    pad_bytes(&[byte], flags, width, out);
}

fn pad_bytes(text: &[u8], flags: &str, width: &str, out: &mut Vec<u8>) {
    // Clamped as printf clamps: the width comes from the guest.
    let width = width
        .parse::<usize>()
        .unwrap_or(0)
        .min(goccia_interp::printf::MAX_FIELD);
    let fill = width.saturating_sub(text.len());
    if flags.contains('-') {
        out.extend(text);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_take_counts_byte_counts_and_split_at_conversions() {
        let format = parse(r#"8/2 "%04x " "\n""#).unwrap();
        assert_eq!(format.units.len(), 2);
        assert_eq!((format.units[0].reps, format.units[0].bytes), (8, 2));
        assert_eq!(format.units[0].pieces.len(), 2);
        assert_eq!(format.units[1].pieces[0].text, b"\n");
        assert_eq!(format.block_size(), 16);
    }

    #[test]
    fn bad_formats_name_the_problem() {
        assert!(
            parse(r#""%s""#)
                .unwrap_err()
                .contains("precision or a byte count")
        );
        assert!(
            parse(r#""%q""#)
                .unwrap_err()
                .contains("bad conversion character %q")
        );
        assert!(parse(r#"3/3 "%x""#).unwrap_err().contains("bad byte count"));
        assert!(
            parse(r#"4/1 "%x %x""#)
                .unwrap_err()
                .contains("multiple conversion")
        );
        assert!(parse("4/1 %x").unwrap_err().contains("bad format"));
    }

    #[test]
    fn the_end_address_marks_its_unit() {
        let format = parse(r#""%07.7_Ax\n""#).unwrap();
        assert!(format.units[0].at_end);
    }
}
