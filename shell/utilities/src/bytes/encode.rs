//! Encodings and digests: `base64`, `base32` and the `*sum` checksums.

use ::base64::Engine;

use super::{read_operands, write};
use crate::args::parse_options;
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};

// ----- base64 and base32 -----

pub fn base64(shell: &mut ShellView, args: &[String]) -> ExecResult {
    encoding_command(shell, args, Encoding::Base64)
}

pub fn base32(shell: &mut ShellView, args: &[String]) -> ExecResult {
    encoding_command(shell, args, Encoding::Base32)
}

/// The alphabets `base64` and `base32` write (RFC 4648, padded).
#[derive(Clone, Copy)]
enum Encoding {
    Base64,
    Base32,
}

impl Encoding {
    fn name(self) -> &'static str {
        match self {
            Encoding::Base64 => "base64",
            Encoding::Base32 => "base32",
        }
    }

    fn encode(self, data: &[u8]) -> String {
        match self {
            Encoding::Base64 => ::base64::engine::general_purpose::STANDARD.encode(data),
            Encoding::Base32 => data_encoding::BASE32.encode(data),
        }
    }

    /// Whether `-i` keeps a byte (the alphabet and padding).
    fn in_alphabet(self, byte: u8) -> bool {
        match self {
            Encoding::Base64 => byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'='),
            Encoding::Base32 => matches!(byte, b'A'..=b'Z' | b'2'..=b'7' | b'='),
        }
    }

    /// The bytes of `text` (white space already gone), read a group at a
    /// time as GNU reads them (so padded streams may follow each other), or
    /// when a group is not valid, what came before it and, for base64, the
    /// valid start of that group (a last group without its padding
    /// included): GNU writes that much before it says so.
    fn decode(self, text: &[u8]) -> Result<Vec<u8>, Vec<u8>> {
        let group = match self {
            Encoding::Base64 => 4,
            Encoding::Base32 => 8,
        };
        let mut out = Vec::new();
        for chunk in text.chunks(group) {
            let whole = match self {
                Encoding::Base64 if chunk.len() == group => {
                    ::base64::engine::general_purpose::STANDARD
                        .decode(chunk)
                        .ok()
                }
                Encoding::Base32 if chunk.len() == group => {
                    data_encoding::BASE32.decode(chunk).ok()
                }
                _ => None,
            };
            match whole {
                Some(bytes) => out.extend_from_slice(&bytes),
                None => {
                    if let Encoding::Base64 = self {
                        let good = chunk
                            .iter()
                            .position(|b| *b == b'=' || !self.in_alphabet(*b))
                            .unwrap_or(chunk.len());
                        if let Ok(bytes) = ::base64::engine::general_purpose::STANDARD_NO_PAD
                            .decode(&chunk[..good])
                        {
                            out.extend_from_slice(&bytes);
                        }
                    }
                    return Err(out);
                }
            }
        }
        Ok(out)
    }
}

fn encoding_command(shell: &mut ShellView, args: &[String], encoding: Encoding) -> ExecResult {
    let name = encoding.name();
    let parsed = parse_options!(
        shell,
        args,
        "w",
        &[
            ("decode", 'd', false),
            ("wrap", 'w', true),
            ("ignore-garbage", 'i', false),
        ]
    );
    let data = match read_operands(shell, name, &parsed.operands) {
        Ok(data) => data,
        Err(status) => return Ok(status),
    };
    if parsed.has('d') {
        let cleaned: Vec<u8> = data
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .filter(|b| !parsed.has('i') || encoding.in_alphabet(*b))
            .collect();
        return match encoding.decode(&cleaned) {
            Ok(decoded) => write(shell, name, &decoded, 0),
            Err(partial) => {
                if let Err(error) = shell.write_stdout(&partial) {
                    return shell.io_status(name, error);
                }
                Ok(shell.fail_command(name, "invalid input", 1))
            }
        };
    }
    let encoded = encoding.encode(&data);
    let wrap: usize = parsed.value('w').and_then(|w| w.parse().ok()).unwrap_or(76);
    let mut text = String::new();
    if wrap == 0 {
        text.push_str(&encoded);
        text.push('\n');
    } else {
        for chunk in encoded.as_bytes().chunks(wrap) {
            text.push_str(std::str::from_utf8(chunk).unwrap_or(""));
            text.push('\n');
        }
    }
    write(shell, name, text.as_bytes(), 0)
}

// ----- checksums -----

pub(super) fn digest(name: &str, data: &[u8]) -> String {
    use sha2::Digest;
    let bytes: Vec<u8> = match name {
        "md5sum" => md5::Md5::digest(data).to_vec(),
        "sha1sum" => sha1::Sha1::digest(data).to_vec(),
        "sha224sum" => sha2::Sha224::digest(data).to_vec(),
        "sha384sum" => sha2::Sha384::digest(data).to_vec(),
        "sha512sum" => sha2::Sha512::digest(data).to_vec(),
        _ => sha2::Sha256::digest(data).to_vec(),
    };
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn checksum(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let name = args[0].clone();
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("check", 'c', false),
            ("binary", 'b', false),
            ("text", 't', false),
            ("quiet", 'q', false),
            ("status", 's', false),
        ]
    );
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut text = String::new();
    let mut status = 0;
    if parsed.has('c') {
        let listing = match read_operands(shell, &name, &operands) {
            Ok(data) => data,
            Err(status) => return Ok(status),
        };
        let listing_name = match operands.as_slice() {
            [one] if one == "-" => "standard input".to_string(),
            [one] => one.clone(),
            _ => operands.join(", "),
        };
        let (mut failed, mut unreadable, mut formatted, mut malformed) = (0, 0, 0, 0);
        let hash_length = digest(&name, b"").len();
        for line in String::from_utf8_lossy(&listing).lines() {
            let split = line.split_once("  ").or_else(|| line.split_once(" *"));
            let Some((hash, file)) = split.filter(|(hash, _)| {
                hash.len() == hash_length && hash.bytes().all(|b| b.is_ascii_hexdigit())
            }) else {
                malformed += 1;
                continue;
            };
            formatted += 1;
            let data = match goccia_interp::input::open_quiet(shell, file) {
                Ok(mut source) => source.read_all().ok(),
                Err(reason) => {
                    shell.fail_command(&name, &format!("{file}: {reason}"), 1);
                    None
                }
            };
            let Some(data) = data else {
                unreadable += 1;
                text.push_str(&format!("{file}: FAILED open or read\n"));
                continue;
            };
            let ok = digest(&name, &data) == hash;
            if !ok {
                failed += 1;
            }
            let quiet_ok = ok && parsed.has('q');
            if !parsed.has('s') && !quiet_ok {
                text.push_str(&format!("{file}: {}\n", if ok { "OK" } else { "FAILED" }));
            }
        }
        if formatted == 0 {
            status = shell.fail_command(
                &name,
                &format!("'{listing_name}': no properly formatted checksum lines found"),
                1,
            );
        }
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        if malformed > 0 && formatted > 0 && !parsed.has('s') {
            let verb = if malformed == 1 {
                "line is"
            } else {
                "lines are"
            };
            let message = format!("WARNING: {malformed} {verb} improperly formatted");
            shell.fail_command(&name, &message, 1);
        }
        if unreadable > 0 {
            status = 1;
            if !parsed.has('s') {
                let message = format!(
                    "WARNING: {unreadable} listed file{} could not be read",
                    plural(unreadable)
                );
                shell.fail_command(&name, &message, 1);
            }
        }
        if failed > 0 {
            status = 1;
            if !parsed.has('s') {
                let message = format!(
                    "WARNING: {failed} computed checksum{} did NOT match",
                    plural(failed)
                );
                shell.fail_command(&name, &message, 1);
            }
        }
        return write(shell, &name, text.as_bytes(), status);
    }
    for operand in &operands {
        let Ok(mut source) = open_source(shell, &name, operand) else {
            status = 1;
            continue;
        };
        match source.read_all() {
            Ok(data) => text.push_str(&format!("{}  {operand}\n", digest(&name, &data))),
            Err(error) => return shell.io_status(&name, error),
        }
    }
    write(shell, &name, text.as_bytes(), status)
}
