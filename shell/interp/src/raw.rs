//! Bytes that are not UTF-8, carried in the shell's strings.
//!
//! bash's values are C strings: any byte but NUL. goccia's are Rust
//! strings, so a byte that is not part of a UTF-8 character (`$'\xff'`,
//! `$(printf '\377')`, a script in Latin-1) is held as one character of
//! a reserved range, U+10FF80 to U+10FFFF (plane 16's last 128 private-use
//! code points, one per byte 0x80 to 0xFF), and written back as that
//! byte wherever a string becomes bytes again (output, here-documents,
//! files, a pipe's input).
//!
//! The mapping loses nothing: [`decode`] turns any bytes into a string and
//! [`encode`] gives the same bytes back. A real U+10FF80..U+10FFFF in the
//! input (never seen in text) is decoded as its four bytes, each held as
//! one of these characters, so it too comes back unchanged.
//!
//! [`bytewise`] spells a string as one character per byte, which is how
//! the C locale sees it (`?` matches a byte, `${#x}` counts bytes).

use std::borrow::Cow;

/// The first character of the reserved range: byte `0x80` is `BASE`,
/// byte `0xff` is `BASE + 0x7f`.
const BASE: u32 = 0x10_FF80;

/// Every reserved character's UTF-8 starts with these two bytes, so a
/// string without them has none (a fast path for valid text).
const LEAD: [u8; 2] = [0xF4, 0x8F];

/// The byte a reserved character stands for.
pub fn raw_byte(c: char) -> Option<u8> {
    let code = c as u32;
    (code >= BASE).then(|| (code - BASE + 0x80) as u8)
}

/// The character that holds `byte` on its own: itself for ASCII, a
/// reserved character for `0x80..=0xff`.
pub fn byte_char(byte: u8) -> char {
    if byte < 0x80 {
        byte as char
    } else {
        char::from_u32(BASE + u32::from(byte - 0x80)).expect("the reserved range is valid")
    }
}

fn may_hold_reserved(bytes: &[u8]) -> bool {
    bytes.windows(2).any(|pair| pair == LEAD)
}

/// Bytes as a shell string: UTF-8 characters as themselves, every other
/// byte as its reserved character.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) if !may_hold_reserved(bytes) => Cow::Borrowed(text),
        _ => Cow::Owned(decode_slow(bytes)),
    }
}

/// [`decode`] for an owned buffer (no copy when it is plain UTF-8).
pub fn decode_vec(bytes: Vec<u8>) -> String {
    if may_hold_reserved(&bytes) {
        return decode_slow(&bytes);
    }
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => decode_slow(error.as_bytes()),
    }
}

fn decode_slow(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    while !bytes.is_empty() {
        let (valid, rest) = match std::str::from_utf8(bytes) {
            Ok(text) => (text, &[][..]),
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                let valid = std::str::from_utf8(valid).expect("checked by from_utf8");
                (valid, rest)
            }
        };
        for c in valid.chars() {
            if raw_byte(c).is_some() {
                let mut buffer = [0u8; 4];
                out.extend(c.encode_utf8(&mut buffer).bytes().map(byte_char));
            } else {
                out.push(c);
            }
        }
        // After the valid prefix comes one byte that starts no character
        // (or a truncated one): hold it on its own and go on.
        if let Some((&byte, after)) = rest.split_first() {
            out.push(byte_char(byte));
            bytes = after;
        } else {
            bytes = rest;
        }
    }
    out
}

/// A shell string as bytes: reserved characters as the bytes they hold,
/// everything else as UTF-8.
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    if !may_hold_reserved(text.as_bytes()) {
        return Cow::Borrowed(text.as_bytes());
    }
    let mut out = Vec::with_capacity(text.len());
    push_encoded(&mut out, text);
    Cow::Owned(out)
}

/// [`encode`] for an owned string (no copy when it holds no raw byte).
pub fn encode_string(text: String) -> Vec<u8> {
    match encode(&text) {
        Cow::Borrowed(_) => text.into_bytes(),
        Cow::Owned(bytes) => bytes,
    }
}

/// Appends `text` to `out` as [`encode`] gives it.
pub fn push_encoded(out: &mut Vec<u8>, text: &str) {
    if !may_hold_reserved(text.as_bytes()) {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    for c in text.chars() {
        push_char(out, c);
    }
}

/// Appends one character to `out`: its byte if it holds one, else UTF-8.
pub fn push_char(out: &mut Vec<u8>, c: char) {
    match raw_byte(c) {
        Some(byte) => out.push(byte),
        None => {
            let mut buffer = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        }
    }
}

/// The string as the C locale reads it: one character per byte (ASCII as
/// itself, every other byte as its reserved character). [`regroup`]
/// undoes it.
pub fn bytewise(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(encode(text).iter().map(|&b| byte_char(b)).collect())
}

/// A [`bytewise`] string (or any mix) back to the usual form: the bytes
/// it holds, decoded again, so a character split into bytes is whole.
pub fn regroup(text: &str) -> Cow<'_, str> {
    match encode(text) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        Cow::Owned(bytes) => Cow::Owned(decode_vec(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(bytes: &[u8]) {
        let text = decode(bytes);
        assert_eq!(&*encode(&text), bytes, "{bytes:x?} via {text:?}");
        assert_eq!(decode_vec(bytes.to_vec()), text);
        assert_eq!(encode_string(text.to_string()), bytes);
    }

    #[test]
    fn any_bytes_come_back_unchanged() {
        round_trip(b"plain ascii");
        round_trip("μ and é".as_bytes());
        round_trip(b"\xff");
        round_trip(b"a\xce");
        round_trip(b"\xce\xce\xbc");
        round_trip(b"\xf0\x9f\x98"); // a truncated four-byte character
        round_trip("\u{10FF80}\u{10FFFF}x".as_bytes()); // the reserved range itself
        let every: Vec<u8> = (0..=255).collect();
        round_trip(&every);
    }

    #[test]
    fn valid_text_is_itself_and_stray_bytes_are_one_character_each() {
        assert!(matches!(decode("μ".as_bytes()), Cow::Borrowed("μ")));
        let text = decode(b"a\xce\xbc\xce");
        assert_eq!(text.chars().count(), 3);
        assert_eq!(text.chars().nth(1), Some('μ'));
        assert_eq!(text.chars().nth(2).and_then(raw_byte), Some(0xce));
        // A real reserved character is held as its four bytes.
        assert_eq!(decode("\u{10FFFF}".as_bytes()).chars().count(), 4);
    }

    #[test]
    fn bytewise_spells_one_character_per_byte_and_regroup_undoes_it() {
        assert_eq!(bytewise("_μ_").chars().count(), 4);
        assert_eq!(regroup(&bytewise("_μ_ x")), "_μ_ x");
        assert_eq!(bytewise("ascii"), "ascii");
        assert_eq!(byte_char(b'a'), 'a');
        assert_eq!(raw_byte(byte_char(0xff)), Some(0xff));
        assert_eq!(raw_byte('a'), None);
    }
}
