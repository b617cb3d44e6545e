//! Node's text encodings for fs data: strings to bytes and back.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};

/// Encodes `text` as bytes in `encoding` (already validated by the JS
/// layer; unknown names fall back to UTF-8).
pub fn encode(text: &str, encoding: &str) -> Vec<u8> {
    match encoding {
        "base64" | "base64url" => decode_base64_lenient(text),
        "hex" => decode_hex_lenient(text),
        "latin1" | "binary" | "ascii" => text.encode_utf16().map(|unit| unit as u8).collect(),
        "utf16le" | "ucs2" | "ucs-2" | "utf-16le" => {
            text.encode_utf16().flat_map(u16::to_le_bytes).collect()
        }
        _ => text.as_bytes().to_vec(),
    }
}

/// Decodes bytes to a string in `encoding`. Invalid UTF-8 becomes U+FFFD,
/// as in Node.
pub fn decode(bytes: &[u8], encoding: &str) -> String {
    match encoding {
        "base64" => STANDARD.encode(bytes),
        "base64url" => URL_SAFE_NO_PAD.encode(bytes),
        "hex" => bytes.iter().map(|b| format!("{b:02x}")).collect(),
        "latin1" | "binary" => bytes.iter().map(|&b| b as char).collect(),
        "ascii" => bytes.iter().map(|&b| (b & 0x7f) as char).collect(),
        "utf16le" | "ucs2" | "ucs-2" | "utf-16le" => {
            let units: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Node decodes base64 leniently: both alphabets, whitespace and padding
/// ignored, stopping at the first invalid character.
fn decode_base64_lenient(text: &str) -> Vec<u8> {
    let cleaned: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '+' || *c == '/')
        .collect();
    let usable = match cleaned.len() % 4 {
        1 => &cleaned[..cleaned.len() - 1],
        _ => &cleaned[..],
    };
    base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(usable.as_bytes())
        .unwrap_or_default()
}

/// Node decodes hex up to the first invalid pair.
fn decode_hex_lenient(text: &str) -> Vec<u8> {
    let digits = text.as_bytes();
    let mut out = Vec::with_capacity(digits.len() / 2);
    for pair in digits.chunks_exact(2) {
        let parse = |d: u8| (d as char).to_digit(16);
        match (parse(pair[0]), parse(pair[1])) {
            (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_node_encodings() {
        for encoding in ["utf8", "base64", "base64url", "hex", "latin1", "utf16le"] {
            let bytes = encode("héllo", "utf8");
            assert_eq!(
                encode(&decode(&bytes, encoding), encoding),
                bytes,
                "{encoding}"
            );
        }
        assert_eq!(encode("aGk=\n", "base64"), b"hi");
        assert_eq!(encode("aGk", "base64"), b"hi");
        assert_eq!(encode("6869zz", "hex"), b"hi");
        assert_eq!(decode(&[0xff, b'a'], "utf8"), "\u{fffd}a");
    }
}
