//! `printf`-style formatting, shared by the `printf` builtin, `seq -f`,
//! `sort -n`, `numfmt` and awk: one parser of format specs (with a
//! dialect), number parsing and padding, and problems reported to an
//! error sink the caller words.

use crate::escape;

/// The widest field and the longest precision a conversion may ask for
/// (here and in awk): the field is built in memory before it is written,
/// so `%2000000000d` must not take 2 GB of the host. Wider is an error in
/// `printf` and clamped in awk (whose `sprintf` cannot fail).
pub const MAX_FIELD: usize = 16 << 20;

/// One `%[flags][width][.precision][length]conversion` of a format.
pub struct Spec {
    /// The flag characters, as written.
    pub flags: String,
    /// Digits only: a negative `*` width became the `-` flag.
    pub width: String,
    /// `None` when absent, or from a negative `*` (C: as if omitted).
    pub precision: Option<usize>,
    /// `None` when the format ended inside the spec.
    pub conversion: Option<char>,
    /// Index just past the spec.
    pub end: usize,
}

/// The flag and length-modifier characters a printf dialect accepts.
pub struct Dialect {
    /// The flag characters (`-+ #0'`).
    pub flags: &'static str,
    /// The length modifiers (`hlLqjzt`), read and ignored.
    pub lengths: &'static str,
}

/// The shell's `printf` (`'` groups thousands; `q` is a conversion).
const SHELL_DIALECT: Dialect = Dialect {
    flags: "-+ #0'",
    lengths: "hlLjzt",
};

/// Parses the spec whose `%` is at `chars[percent]`; `star` gives the value
/// of each `*` (the next argument).
pub fn parse_spec(
    chars: &[char],
    percent: usize,
    dialect: &Dialect,
    mut star: impl FnMut() -> i64,
) -> Spec {
    let mut i = percent + 1;
    let mut flags = String::new();
    while i < chars.len() && dialect.flags.contains(chars[i]) {
        flags.push(chars[i]);
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < chars.len() && chars[*i].is_ascii_digit() {
            *i += 1;
        }
        chars[start..*i].iter().collect::<String>()
    };
    let width = if chars.get(i) == Some(&'*') {
        i += 1;
        let width = star();
        if width < 0 {
            flags.push('-');
        }
        width.unsigned_abs().to_string()
    } else {
        digits(&mut i)
    };
    let mut precision = None;
    if chars.get(i) == Some(&'.') {
        i += 1;
        precision = if chars.get(i) == Some(&'*') {
            i += 1;
            usize::try_from(star()).ok()
        } else {
            Some(digits(&mut i).parse().unwrap_or(0))
        };
    }
    while i < chars.len() && dialect.lengths.contains(chars[i]) {
        i += 1;
    }
    let conversion = chars.get(i).copied();
    Spec {
        flags,
        width,
        precision,
        conversion,
        end: if conversion.is_some() { i + 1 } else { i },
    }
}

/// Whether a width or precision asks for more than [`MAX_FIELD`].
fn too_large(size: &str) -> bool {
    size.trim()
        .parse::<i64>()
        .is_ok_and(|n| n.unsigned_abs() > MAX_FIELD as u64)
}

/// Where formatting reports a problem (`printf: x: invalid number`); the
/// caller words it (the builtin writes it to stderr, `seq -f` drops it).
pub(crate) type Errors<'a> = dyn FnMut(&str) + 'a;

/// Formats `values` with `format` (reused while values remain; `%(...)T`
/// shows times on `zone`'s clock); the status is 1 when a problem was
/// reported to `errors`.
pub fn format_all(
    format: &str,
    values: &[String],
    zone: &crate::time::Zone,
    out: &mut Vec<u8>,
    errors: &mut Errors<'_>,
) -> i32 {
    let mut status = 0;
    let mut next = 0;
    loop {
        let before = next;
        let stop = format_once(format, values, zone, &mut next, out, &mut status, errors);
        if stop || next >= values.len() || next == before {
            break;
        }
    }
    status
}

/// One pass over the format; returns true when `\c` stopped all output.
fn format_once(
    format: &str,
    values: &[String],
    zone: &crate::time::Zone,
    next: &mut usize,
    out: &mut Vec<u8>,
    status: &mut i32,
    errors: &mut Errors<'_>,
) -> bool {
    let chars: Vec<char> = format.chars().collect();
    let mut i = 0;
    let mut literal = String::new();
    let flush = |literal: &mut String, out: &mut Vec<u8>| -> bool {
        if literal.is_empty() {
            return false;
        }
        let (bytes, stop) = escape::printf_bytes(literal);
        out.extend_from_slice(&bytes);
        literal.clear();
        stop
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            literal.push(c);
            literal.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if c != '%' {
            literal.push(c);
            i += 1;
            continue;
        }
        if chars.get(i + 1) == Some(&'%') {
            literal.push('%');
            i += 2;
            continue;
        }
        if flush(&mut literal, out) {
            return true;
        }
        let start = i;
        let Spec {
            flags,
            width,
            precision,
            conversion,
            end,
        } = parse_spec(&chars, start, &SHELL_DIALECT, || {
            parse_int(take(values, next)).unwrap_or_else(|partial| partial)
        });
        i = end;
        let Some(conversion) = conversion else {
            let spec: String = chars[start..].iter().collect();
            errors(&format!("`{spec}': missing format character"));
            *status = 1;
            return true;
        };
        if too_large(&width) || precision.is_some_and(|p| p > MAX_FIELD) {
            let spec: String = chars[start..i].iter().collect();
            let message = format!("{spec}: field width or precision over {MAX_FIELD} bytes");
            errors(&message);
            *status = 1;
            take(values, next);
            continue;
        }
        if conversion == '(' {
            // %(fmt)T
            let rest: String = chars[i..].iter().collect();
            if let Some(end) = rest.find(")T") {
                let time_format = &rest[..end];
                i += end + 2;
                let arg = take(values, next);
                let seconds = match arg.trim() {
                    "" | "-1" => now_seconds(),
                    "-2" => now_seconds(),
                    text => text.parse::<i64>().unwrap_or(0),
                };
                let mut text = crate::time::strftime_at(time_format, seconds, zone);
                // bash formats into a 128-byte buffer: a longer time is
                // empty, as strftime fails there.
                if text.len() >= 128 {
                    text.clear();
                }
                if let Some(p) = precision {
                    text = text.chars().take(p).collect();
                }
                out.extend_from_slice(pad(&text, &flags, &width).as_bytes());
            }
            continue;
        }
        let arg = take(values, next);
        let formatted = match conversion {
            's' => {
                let text = match precision {
                    Some(p) => arg.chars().take(p).collect(),
                    None => arg.to_string(),
                };
                pad(&text, &flags, &width)
            }
            'b' => {
                let (mut bytes, stop) = escape::printf_b(arg);
                if let Some(p) = precision {
                    bytes.truncate(p);
                }
                out.extend_from_slice(&pad_bytes(bytes, &flags, &width));
                if stop {
                    return true;
                }
                continue;
            }
            'q' => pad(&shell_quote(arg), &flags, &width),
            'c' => {
                // The first byte, not the first character (bash's rule).
                let bytes = crate::raw::encode(arg);
                let first = bytes.first().map(|b| vec![*b]).unwrap_or_default();
                out.extend_from_slice(&pad_bytes(first, &flags, &width));
                continue;
            }
            'd' | 'i' | 'u' | 'o' | 'x' | 'X' => {
                let value = match conversion_int(arg, matches!(conversion, 'd' | 'i')) {
                    Ok(v) => v,
                    Err(partial) => {
                        errors(&format!("{arg}: invalid number"));
                        *status = 1;
                        partial
                    }
                };
                format_int(value, conversion, &flags, &width, precision)
            }
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                let value = match parse_float(arg) {
                    Some(v) => v,
                    None => {
                        errors(&format!("{arg}: invalid number"));
                        *status = 1;
                        0.0
                    }
                };
                format_float(value, conversion, &flags, &width, precision)
            }
            other => {
                errors(&format!("`{other}': invalid format character"));
                *status = 1;
                return true;
            }
        };
        crate::raw::push_encoded(out, &formatted);
    }
    flush(&mut literal, out)
}

/// `pad` for bytes that may not be text (`%b` of `\xff`): the width
/// counts bytes.
fn pad_bytes(mut bytes: Vec<u8>, flags: &str, width: &str) -> Vec<u8> {
    let width: usize = width.parse::<usize>().unwrap_or(0).min(MAX_FIELD);
    let fill = width.saturating_sub(bytes.len());
    if fill == 0 {
        return bytes;
    }
    if flags.contains('-') {
        bytes.resize(bytes.len() + fill, b' ');
        bytes
    } else {
        let mut padded = vec![b' '; fill];
        padded.append(&mut bytes);
        padded
    }
}

fn take<'a>(values: &'a [String], next: &mut usize) -> &'a str {
    match values.get(*next) {
        Some(value) => {
            *next += 1;
            value
        }
        None => "",
    }
}

fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// `text` padded to `width` (digits) as `flags` say: left-justified with
/// `-`, with zeros after any sign with `0`.
pub fn pad(text: &str, flags: &str, width: &str) -> String {
    let width: i64 = width.parse().unwrap_or(0);
    let left = flags.contains('-') || width < 0;
    let width = (width.unsigned_abs() as usize).min(MAX_FIELD);
    let len = text.chars().count();
    if len >= width {
        return text.to_string();
    }
    let fill = " ".repeat(width - len);
    if left {
        format!("{text}{fill}")
    } else {
        format!("{fill}{text}")
    }
}

/// Length of the `[+-]digits[.digits]` that starts `bytes` (0 if none):
/// the plain decimal number awk's `strtod` and `sort -n` both begin with.
pub fn decimal_prefix_len(bytes: &[u8]) -> usize {
    let digits_from = |mut end: usize| {
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        end
    };
    let signed = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let end = digits_from(signed);
    if bytes.get(end) == Some(&b'.') {
        digits_from(end + 1)
    } else {
        end
    }
}

/// An integer argument of a conversion as bash reads it (`strtoimax`
/// for `%d`/`%i`, `strtoumax` for the others): leading blanks allowed,
/// anything after the number an error (with the number still used), and
/// values past the type's range clamped to its end; an unsigned one
/// returns its bits.
fn conversion_int(text: &str, signed: bool) -> Result<i64, i64> {
    let trimmed = text.trim_start();
    if trimmed.starts_with(['\'', '"']) || trimmed.is_empty() {
        return parse_int(trimmed);
    }
    let (negative, rest) = match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
    };
    let (radix, digits) =
        if let Some(hex) = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
            (16, hex)
        } else if rest.len() > 1 && rest.starts_with('0') {
            (8, &rest[1..])
        } else {
            (10, rest)
        };
    let valid = digits.chars().take_while(|c| c.is_digit(radix)).count();
    let mut magnitude: u128 = 0;
    for c in digits[..valid].chars() {
        magnitude = magnitude
            .saturating_mul(u128::from(radix))
            .saturating_add(u128::from(c.to_digit(radix).unwrap_or(0)));
    }
    let value = if signed {
        let limit = if negative {
            1u128 << 63
        } else {
            (1u128 << 63) - 1
        };
        let clamped = magnitude.min(limit);
        if negative {
            (clamped as i128).wrapping_neg() as i64
        } else {
            clamped as i64
        }
    } else if magnitude > u128::from(u64::MAX) {
        -1
    } else {
        let bits = magnitude as u64;
        (if negative { bits.wrapping_neg() } else { bits }) as i64
    };
    if valid == digits.len() && (valid > 0 || radix == 8) {
        Ok(value)
    } else {
        Err(value)
    }
}

/// Integer arguments: decimal, `0x`, octal, `'c` (character code).
/// `Err(partial)` carries what parsed before the invalid part.
pub(crate) fn parse_int(text: &str) -> Result<i64, i64> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(0);
    }
    if let Some(rest) = trimmed
        .strip_prefix('\'')
        .or_else(|| trimmed.strip_prefix('"'))
    {
        return Ok(rest.chars().next().map(|c| c as i64).unwrap_or(0));
    }
    let (negative, digits) = match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, trimmed.strip_prefix('+').unwrap_or(trimmed)),
    };
    let value = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        i64::from_str_radix(hex, 16).map_err(|_| 0)
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).map_err(|_| 0)
    } else {
        digits.parse::<i64>().map_err(|_| {
            let prefix: String = digits.chars().take_while(|c| c.is_ascii_digit()).collect();
            prefix.parse::<i64>().unwrap_or(0)
        })
    };
    match value {
        Ok(v) => Ok(if negative { -v } else { v }),
        Err(partial) => Err(if negative { -partial } else { partial }),
    }
}

pub(crate) fn parse_float(text: &str) -> Option<f64> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Some(0.0);
    }
    if let Some(rest) = trimmed.strip_prefix('\'') {
        return Some(rest.chars().next().map(|c| c as u32 as f64).unwrap_or(0.0));
    }
    if let Ok(int) = parse_int(trimmed)
        && !trimmed.contains('.')
        && !trimmed.contains(['e', 'E'])
    {
        return Some(int as f64);
    }
    trimmed.parse::<f64>().ok()
}

/// An integer conversion (`d i o u x X`) of `value` with its flags,
/// width and precision.
pub fn format_int(
    value: i64,
    conversion: char,
    flags: &str,
    width: &str,
    precision: Option<usize>,
) -> String {
    let (mut digits, negative) = match conversion {
        'o' => (format!("{:o}", value), false),
        'x' => (format!("{:x}", value), false),
        'X' => (format!("{:X}", value), false),
        'u' => ((value as u64).to_string(), false),
        _ => (value.unsigned_abs().to_string(), value < 0),
    };
    if precision == Some(0) && value == 0 {
        // C: zero converted with zero precision is no digits at all.
        digits.clear();
    }
    if let Some(p) = precision.map(|p| p.min(MAX_FIELD))
        && digits.len() < p
    {
        digits = format!("{}{digits}", "0".repeat(p - digits.len()));
    }
    if flags.contains('#') {
        match conversion {
            'o' if !digits.starts_with('0') => digits = format!("0{digits}"),
            'x' if value != 0 => digits = format!("0x{digits}"),
            'X' if value != 0 => digits = format!("0X{digits}"),
            _ => {}
        }
    }
    let sign = if negative {
        "-"
    } else if flags.contains('+') && matches!(conversion, 'd' | 'i') {
        "+"
    } else if flags.contains(' ') && matches!(conversion, 'd' | 'i') {
        " "
    } else {
        ""
    };
    zero_pad(sign, &digits, flags, width, precision.is_none())
}

fn zero_pad(sign: &str, digits: &str, flags: &str, width: &str, allow_zero: bool) -> String {
    let width: usize = width.parse::<usize>().unwrap_or(0).min(MAX_FIELD);
    let len = sign.len() + digits.len();
    if flags.contains('0') && !flags.contains('-') && allow_zero && len < width {
        return format!("{sign}{}{digits}", "0".repeat(width - len));
    }
    pad(&format!("{sign}{digits}"), flags, &width.to_string())
}

/// A floating-point conversion (`f F e E g G a A`) of `value` with its
/// flags, width and precision.
pub fn format_float(
    value: f64,
    conversion: char,
    flags: &str,
    width: &str,
    precision: Option<usize>,
) -> String {
    let precision = precision.unwrap_or(6).min(MAX_FIELD);
    let body = if value.is_nan() {
        "nan".to_string()
    } else if value.is_infinite() {
        "inf".to_string()
    } else {
        match conversion {
            'f' | 'F' => {
                let mut text = crate::pad::fixed(value.abs(), precision);
                // `#`: a decimal point even with no digits after it.
                if precision == 0 && flags.contains('#') {
                    text.push('.');
                }
                text
            }
            'e' | 'E' => exponent(value.abs(), precision),
            'a' | 'A' => format!("{:e}", value.abs()),
            _ => general(value.abs(), precision, flags.contains('#')),
        }
    };
    let body = if conversion.is_ascii_uppercase() {
        body.to_uppercase()
    } else {
        body
    };
    let sign =
        if value.is_sign_negative() && value != 0.0 || (value == 0.0 && value.is_sign_negative()) {
            "-"
        } else if flags.contains('+') {
            "+"
        } else if flags.contains(' ') {
            " "
        } else {
            ""
        };
    zero_pad(sign, &body, flags, width, true)
}

/// C's `%e`: `d.ddddde+XX`.
fn exponent(value: f64, precision: usize) -> String {
    let text = crate::pad::scientific(value, precision);
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    format!(
        "{mantissa}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

/// C's `%g`.
fn general(value: f64, precision: usize, keep_zeros: bool) -> String {
    let precision = precision.max(1);
    if value == 0.0 {
        return "0".to_string();
    }
    let exp = value.log10().floor() as i32;
    let rounded_exp = {
        let text = crate::pad::scientific(value, precision - 1);
        text.split_once('e')
            .and_then(|(_, e)| e.parse::<i32>().ok())
            .unwrap_or(exp)
    };
    let text = if rounded_exp < -4 || rounded_exp >= precision as i32 {
        exponent(value, precision - 1)
    } else {
        let decimals = (precision as i32 - 1 - rounded_exp).max(0) as usize;
        crate::pad::fixed(value, decimals)
    };
    if keep_zeros {
        return text;
    }
    trim_zeros(&text)
}

fn trim_zeros(text: &str) -> String {
    match text.split_once('e') {
        Some((mantissa, exp)) => {
            let mantissa = if mantissa.contains('.') {
                mantissa.trim_end_matches('0').trim_end_matches('.')
            } else {
                mantissa
            };
            format!("{mantissa}e{exp}")
        }
        None if text.contains('.') => text.trim_end_matches('0').trim_end_matches('.').to_string(),
        None => text.to_string(),
    }
}

/// `%q`: quoted so the shell reads it back as the same word, the way
/// bash does: `''` for nothing, `$'...'` when there is a control
/// character, otherwise a backslash before each character the shell
/// would act on (`#` and `~` only at the start).
pub(crate) fn shell_quote(text: &str) -> String {
    if text.is_empty() {
        return "''".to_string();
    }
    if text.chars().any(needs_ansi_c) {
        return ansi_c_quote(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for (index, c) in text.chars().enumerate() {
        let special =
            " \t\n!\"$&'()*,;<>?[\\]^`{|}".contains(c) || (index == 0 && (c == '#' || c == '~'));
        if special {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A character `%q` and `${x@Q}` can only write in `$'...'`: a control
/// character, or a byte that is not UTF-8 ([`crate::raw`]).
pub fn needs_ansi_c(c: char) -> bool {
    c.is_control() || crate::raw::raw_byte(c).is_some()
}

/// `$'...'` quoting: C escapes for control characters, octal for the rest
/// (and for bytes that are not UTF-8).
pub fn ansi_c_quote(text: &str) -> String {
    let mut out = String::from("$'");
    for c in text.chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x1b' => out.push_str("\\E"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if crate::raw::raw_byte(c).is_some() => {
                let byte = crate::raw::raw_byte(c).unwrap_or_default();
                out.push_str(&format!("\\{byte:03o}"));
            }
            c if c.is_control() => {
                let mut buffer = [0u8; 4];
                for byte in c.encode_utf8(&mut buffer).bytes() {
                    out.push_str(&format!("\\{byte:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_prefixes() {
        for (text, len) in [
            ("12.5e3x", 4),
            ("-7", 2),
            ("+.5", 3),
            ("1.", 2),
            ("-", 1),
            ("abc", 0),
            ("", 0),
        ] {
            assert_eq!(decimal_prefix_len(text.as_bytes()), len, "{text}");
        }
    }

    #[test]
    fn numbers_format_like_c() {
        assert_eq!(format_int(42, 'd', "", "5", None), "   42");
        assert_eq!(format_int(42, 'd', "-", "5", None), "42   ");
        assert_eq!(format_int(42, 'd', "0", "5", None), "00042");
        assert_eq!(format_int(-42, 'd', "0", "5", None), "-0042");
        assert_eq!(format_int(255, 'x', "#", "", None), "0xff");
        assert_eq!(format_int(8, 'o', "", "", None), "10");
        assert_eq!(format_int(5, 'd', "", "", Some(3)), "005");
        assert_eq!(format_float(1.005_5, 'f', "", "", Some(2)), "1.01");
        assert_eq!(format_float(1234.5, 'e', "", "", None), "1.234500e+03");
        assert_eq!(format_float(0.0001, 'g', "", "", None), "0.0001");
        assert_eq!(format_float(1e10, 'g', "", "", None), "1e+10");
        assert_eq!(format_float(100.0, 'g', "", "", None), "100");
        assert_eq!(parse_int("'A"), Ok(65));
        assert_eq!(parse_int("0x10"), Ok(16));
        assert_eq!(parse_int("12abc"), Err(12));
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("a b"), "a\\ b");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("it's"), "it\\'s");
        assert_eq!(shell_quote("a\"b$c`d"), "a\\\"b\\$c\\`d");
        assert_eq!(shell_quote("~x a~ #x a#"), "\\~x\\ a~\\ #x\\ a#");
        assert_eq!(shell_quote("%^+-./:=@_,"), "%\\^+-./:=@_\\,");
        assert_eq!(shell_quote("a'b\t"), "$'a\\'b\\t'");
        assert_eq!(shell_quote("\x1b[m\x7f"), "$'\\E[m\\177'");
        assert_eq!(shell_quote("é"), "é");
    }
}
