//! Backslash escapes: `$'...'` (ANSI-C quoting), `echo -e` and `printf`.

/// Decodes `$'...'` content (bytes that are not UTF-8, `$'\xff'`, are
/// held as [`crate::raw`] says). A NUL ends the string, as it ends bash's
/// C strings: `$'a\0b'` is `a`.
pub fn ansi_c(raw: &str) -> String {
    let (mut bytes, _) = decode(raw, Flavor::AnsiC);
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(nul);
    }
    crate::raw::decode_vec(bytes)
}

/// Decodes `echo -e` / `printf %b` text to bytes (`\xff` is the byte
/// 0xff); the flag says `\c` was met (stop all output).
pub fn echo(raw: &str) -> (Vec<u8>, bool) {
    decode(raw, Flavor::Echo)
}

/// Decodes `printf %b` text to bytes: as `echo -e`, except that octal
/// is also `\NNN` without the leading zero (bash's `%b`).
pub fn printf_b(raw: &str) -> (Vec<u8>, bool) {
    decode(raw, Flavor::PrintfB)
}

/// Decodes a `printf` format's escapes to bytes (octal is `\NNN`, not
/// `\0NNN`).
pub fn printf_bytes(raw: &str) -> (Vec<u8>, bool) {
    decode(raw, Flavor::Printf)
}

/// [`printf_bytes`] as text, for commands that take such escapes in
/// their options (`find -printf`, `awk -F`, `sed`).
pub fn printf_format(raw: &str) -> (String, bool) {
    lossy(decode(raw, Flavor::Printf))
}

fn lossy((bytes, stop): (Vec<u8>, bool)) -> (String, bool) {
    (String::from_utf8_lossy(&bytes).into_owned(), stop)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    AnsiC,
    Echo,
    PrintfB,
    Printf,
}

fn decode(raw: &str, flavor: Flavor) -> (Vec<u8>, bool) {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = Bytes::default();
    let mut bytes: Vec<u8> = Vec::new();
    let flush_bytes = |bytes: &mut Vec<u8>, out: &mut Bytes| {
        out.0.append(bytes);
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '\\' || i + 1 >= chars.len() {
            flush_bytes(&mut bytes, &mut out);
            out.push(c);
            i += 1;
            continue;
        }
        let e = chars[i + 1];
        i += 2;
        let simple = match e {
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\x0b'),
            '\\' => Some('\\'),
            '\'' if flavor == Flavor::AnsiC => Some('\''),
            '"' if !matches!(flavor, Flavor::Echo | Flavor::PrintfB) => Some('"'),
            '?' if flavor == Flavor::AnsiC => Some('?'),
            _ => None,
        };
        if let Some(s) = simple {
            flush_bytes(&mut bytes, &mut out);
            out.push(s);
            continue;
        }
        match e {
            'c' if flavor != Flavor::AnsiC => {
                flush_bytes(&mut bytes, &mut out);
                return (out.0, true);
            }
            'c' if flavor == Flavor::AnsiC && i < chars.len() => {
                flush_bytes(&mut bytes, &mut out);
                let ctl = chars[i];
                i += 1;
                // bash keeps the low five bits (`\c0` is 0x10, `\c-` a
                // carriage return); `\c?` is DEL.
                let code = if ctl == '?' {
                    0x7f
                } else {
                    (ctl.to_ascii_uppercase() as u32) & 0x1f
                };
                out.push(char::from_u32(code).unwrap_or('\0'));
            }
            '0'..='7' => {
                // echo: \0NNN (up to 3 digits after the 0); others: \NNN.
                let (start, max) = match (flavor, e) {
                    (Flavor::Echo | Flavor::PrintfB, '0') => (i, 3),
                    (Flavor::Echo, _) => {
                        flush_bytes(&mut bytes, &mut out);
                        out.push('\\');
                        out.push(e);
                        continue;
                    }
                    _ => (i - 1, 3),
                };
                let mut value = 0u32;
                let mut j = start;
                while j < chars.len() && j < start + max && ('0'..='7').contains(&chars[j]) {
                    value = value * 8 + chars[j].to_digit(8).unwrap_or(0);
                    j += 1;
                }
                i = j;
                bytes.push((value & 0xff) as u8);
            }
            'x' => {
                let mut value = 0u32;
                let mut j = i;
                while j < chars.len() && j < i + 2 && chars[j].is_ascii_hexdigit() {
                    value = value * 16 + chars[j].to_digit(16).unwrap_or(0);
                    j += 1;
                }
                if j == i {
                    flush_bytes(&mut bytes, &mut out);
                    out.push_str("\\x");
                } else {
                    bytes.push(value as u8);
                }
                i = j;
            }
            'u' | 'U' => {
                let max = if e == 'u' { 4 } else { 8 };
                let mut value = 0u32;
                let mut j = i;
                while j < chars.len() && j < i + max && chars[j].is_ascii_hexdigit() {
                    value = value * 16 + chars[j].to_digit(16).unwrap_or(0);
                    j += 1;
                }
                flush_bytes(&mut bytes, &mut out);
                if j == i {
                    out.push('\\');
                    out.push(e);
                } else {
                    out.push(char::from_u32(value).unwrap_or('\u{fffd}'));
                }
                i = j;
            }
            _ => {
                flush_bytes(&mut bytes, &mut out);
                out.push('\\');
                out.push(e);
            }
        }
    }
    flush_bytes(&mut bytes, &mut out);
    (out.0, false)
}

/// Decoded output: characters as UTF-8, escaped bytes (and raw bytes held
/// in the text) as they are.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn push(&mut self, c: char) {
        crate::raw::push_char(&mut self.0, c);
    }

    fn push_str(&mut self, text: &str) {
        crate::raw::push_encoded(&mut self.0, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_three_flavours() {
        assert_eq!(ansi_c(r"a\tb\n\x41\101\u00e9\'"), "a\tb\nAA\u{e9}'");
        assert_eq!(echo(r"a\nb\0101"), (b"a\nbA".to_vec(), false));
        assert_eq!(echo(r"x\cy"), (b"x".to_vec(), true));
        assert_eq!(printf_format(r"\101\n"), ("A\n".to_string(), false));
        assert_eq!(echo(r"\q"), (b"\\q".to_vec(), false));
        // Escaped bytes stay bytes; text is UTF-8.
        assert_eq!(
            printf_bytes(r"\xff\376é"),
            (vec![0xff, 0xfe, 0xc3, 0xa9], false)
        );
        assert_eq!(
            crate::raw::encode(&ansi_c(r"\xff\xce\xbc")),
            &b"\xff\xce\xbc"[..]
        );
        assert_eq!(ansi_c(r"\xce\xbc"), "μ");
        assert_eq!(ansi_c(r"a\0b"), "a");
        assert_eq!(ansi_c(r"x\U0z"), "x");
    }
}
