//! Byte-level utilities: `od`, `base64`, checksums, `cmp`, `strings`.

use std::io::Write;

use ::base64::Engine;

use crate::interp::{ExecResult, Shell};
use crate::utilities::args::parse_options;
use crate::utilities::input::open_source;

fn usage(shell: &mut Shell, name: &str, message: &str, status: i32) -> ExecResult {
    Ok(shell.fail_command(
        name,
        &format!("{message}\nTry '{name} --help' for more information."),
        status,
    ))
}

fn read_operands(shell: &mut Shell, name: &str, operands: &[String]) -> Result<Vec<u8>, i32> {
    let operands = if operands.is_empty() {
        vec!["-".to_string()]
    } else {
        operands.to_vec()
    };
    let mut data = Vec::new();
    for operand in operands {
        let Ok(mut source) = open_source(shell, name, &operand) else {
            return Err(1);
        };
        match source.read_all() {
            Ok(bytes) => data.extend(bytes),
            Err(error) => {
                let reason = error.to_string();
                return Err(shell.fail_command(name, &format!("{operand}: {reason}"), 1));
            }
        }
    }
    Ok(data)
}

fn write(shell: &mut Shell, name: &str, text: &[u8], status: i32) -> ExecResult {
    match shell.write_stdout(text) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
}

// ----- od -----

#[derive(Clone, Copy)]
enum OdType {
    Named,
    Char,
    Hex(usize),
    Octal(usize),
    Decimal(usize),
    Unsigned(usize),
}

fn parse_od_type(text: &str) -> Option<OdType> {
    let mut chars = text.chars();
    let kind = chars.next()?;
    let size_text: String = chars.collect();
    let size = match size_text.as_str() {
        "" => match kind {
            'c' | 'a' => 1,
            _ => 4,
        },
        "C" => 1,
        "S" => 2,
        "I" => 4,
        "L" => 8,
        digits => digits.parse().ok()?,
    };
    Some(match kind {
        'a' => OdType::Named,
        'c' => OdType::Char,
        'x' => OdType::Hex(size),
        'o' => OdType::Octal(size),
        'd' => OdType::Decimal(size),
        'u' => OdType::Unsigned(size),
        _ => return None,
    })
}

fn od_char(byte: u8) -> String {
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

fn od_named(byte: u8) -> String {
    const NAMES: [&str; 33] = [
        "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr",
        "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub",
        "esc", "fs", "gs", "rs", "us", "sp",
    ];
    let b = byte & 0x7f;
    match b {
        0..=32 => NAMES[b as usize].to_string(),
        127 => "del".to_string(),
        _ => (b as char).to_string(),
    }
}

pub fn od(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = parse_options!(status 2; shell, args,
    "AjNtw",
    &[
        ("address-radix", 'A', true),
        ("skip-bytes", 'j', true),
        ("read-bytes", 'N', true),
        ("format", 't', true),
        ("width", 'w', true),
    ]);
    let mut types = Vec::new();
    for flag in &parsed.flags {
        let t = match flag {
            'c' => Some(OdType::Char),
            'x' => Some(OdType::Hex(2)),
            'o' => Some(OdType::Octal(2)),
            'd' => Some(OdType::Decimal(2)),
            'b' => Some(OdType::Octal(1)),
            'a' => Some(OdType::Named),
            'v' => None,
            other => return usage(shell, "od", &format!("invalid option -- '{other}'"), 2),
        };
        types.extend(t);
    }
    for text in parsed.all('t') {
        match parse_od_type(text) {
            Some(t) => types.push(t),
            None => return usage(shell, "od", &format!("invalid type string '{text}'"), 2),
        }
    }
    if types.is_empty() {
        types.push(OdType::Octal(2));
    }
    let radix = parsed
        .value('A')
        .unwrap_or("o")
        .chars()
        .next()
        .unwrap_or('o');
    let skip = parsed
        .value('j')
        .and_then(crate::utilities::args::parse_size_suffix)
        .unwrap_or(0) as usize;
    let limit = parsed
        .value('N')
        .and_then(crate::utilities::args::parse_size_suffix)
        .map(|n| n as usize);
    let width: usize = parsed
        .value('w')
        .and_then(|w| w.parse().ok())
        .unwrap_or(16)
        .max(1);
    let data = match read_operands(shell, "od", &parsed.operands) {
        Ok(data) => data,
        Err(status) => return Ok(status),
    };
    let mut data = data[skip.min(data.len())..].to_vec();
    if let Some(limit) = limit {
        data.truncate(limit);
    }
    let address = |offset: usize| -> String {
        match radix {
            'n' => String::new(),
            'd' => format!("{offset:07}"),
            'x' => format!("{offset:06x}"),
            _ => format!("{offset:07o}"),
        }
    };
    let mut text = String::new();
    let mut offset = 0;
    for chunk in data.chunks(width) {
        for (index, kind) in types.iter().enumerate() {
            let prefix = if index == 0 {
                address(offset + skip)
            } else {
                " ".repeat(address(0).len())
            };
            text.push_str(&prefix);
            match kind {
                OdType::Char => chunk
                    .iter()
                    .for_each(|b| text.push_str(&format!("{:>4}", od_char(*b)))),
                OdType::Named => chunk
                    .iter()
                    .for_each(|b| text.push_str(&format!("{:>4}", od_named(*b)))),
                OdType::Hex(size)
                | OdType::Octal(size)
                | OdType::Decimal(size)
                | OdType::Unsigned(size) => {
                    for group in chunk.chunks(*size) {
                        let mut bytes = [0u8; 8];
                        bytes[..group.len()].copy_from_slice(group);
                        let value = u64::from_le_bytes(bytes);
                        let field = match kind {
                            OdType::Hex(_) => {
                                crate::pad::left_pad(&format!("{value:x}"), size * 2, '0')
                            }
                            OdType::Octal(_) => crate::pad::left_pad(
                                &format!("{value:o}"),
                                (size * 8).div_ceil(3),
                                '0',
                            ),
                            OdType::Unsigned(_) => value.to_string(),
                            _ => {
                                let shift = 64 - size * 8;
                                (((value << shift) as i64) >> shift).to_string()
                            }
                        };
                        let width = match kind {
                            OdType::Hex(_) => size * 2 + 1,
                            OdType::Octal(_) => (size * 8).div_ceil(3) + 1,
                            _ => [0, 4, 6, 0, 11, 0, 0, 0, 20][*size] + 1,
                        };
                        text.push_str(&crate::pad::left_pad(&field, width, ' '));
                    }
                }
            }
            text.push('\n');
        }
        offset += chunk.len();
    }
    if radix != 'n' {
        text.push_str(&address(offset + skip));
        text.push('\n');
    }
    write(shell, "od", text.as_bytes(), 0)
}

// ----- base64 -----

pub fn base64(shell: &mut Shell, args: &[String]) -> ExecResult {
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
    let data = match read_operands(shell, "base64", &parsed.operands) {
        Ok(data) => data,
        Err(status) => return Ok(status),
    };
    if parsed.has('d') {
        let cleaned: Vec<u8> = data
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .filter(|b| {
                !parsed.has('i') || b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
            })
            .collect();
        return match ::base64::engine::general_purpose::STANDARD.decode(&cleaned) {
            Ok(decoded) => write(shell, "base64", &decoded, 0),
            Err(_) => {
                let lenient = ::base64::engine::general_purpose::STANDARD_NO_PAD.decode(
                    cleaned
                        .iter()
                        .copied()
                        .filter(|b| *b != b'=')
                        .collect::<Vec<_>>(),
                );
                match lenient {
                    Ok(decoded) => write(shell, "base64", &decoded, 0),
                    Err(_) => Ok(shell.fail_command("base64", "invalid input", 1)),
                }
            }
        };
    }
    let encoded = ::base64::engine::general_purpose::STANDARD.encode(&data);
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
    write(shell, "base64", text.as_bytes(), 0)
}

// ----- checksums -----

fn digest(name: &str, data: &[u8]) -> String {
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

pub fn checksum(shell: &mut Shell, args: &[String]) -> ExecResult {
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
            let data = match crate::utilities::input::open_quiet(shell, file) {
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

// ----- cmp, strings -----

pub fn cmp(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = parse_options!(status 2; shell, args,
    "",
    &[
        ("silent", 's', false),
        ("quiet", 's', false),
        ("verbose", 'l', false),
    ]);
    if parsed.operands.is_empty() {
        return usage(shell, "cmp", "missing operand", 2);
    }
    let second = parsed
        .operands
        .get(1)
        .cloned()
        .unwrap_or_else(|| "-".to_string());
    let Ok(mut a) = open_source(shell, "cmp", &parsed.operands[0]) else {
        return Ok(2);
    };
    let Ok(mut b) = open_source(shell, "cmp", &second) else {
        return Ok(2);
    };
    let (a, b) = match (a.read_all(), b.read_all()) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Ok(2),
    };
    let mut line = 1;
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x != y {
            if parsed.has('l') {
                let mut text = String::new();
                for (j, (x, y)) in a.iter().zip(&b).enumerate().skip(i) {
                    if x != y {
                        text.push_str(&format!("{} {:o} {:o}\n", j + 1, x, y));
                    }
                }
                return write(shell, "cmp", text.as_bytes(), 1);
            }
            if !parsed.has('s') {
                let text = format!(
                    "{} {second} differ: byte {}, line {line}\n",
                    parsed.operands[0],
                    i + 1
                );
                return write(shell, "cmp", text.as_bytes(), 1);
            }
            return Ok(1);
        }
        if *x == b'\n' {
            line += 1;
        }
    }
    if a.len() != b.len() {
        if !parsed.has('s') {
            let shorter = if a.len() < b.len() {
                &parsed.operands[0]
            } else {
                &second
            };
            shell.fail_command(
                "cmp",
                &format!("EOF on {shorter} after byte {}", a.len().min(b.len())),
                1,
            );
        }
        return Ok(1);
    }
    Ok(0)
}

pub fn strings(shell: &mut Shell, args: &[String]) -> ExecResult {
    let args: Vec<String> = args
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            if i > 0
                && a.len() > 1
                && a.starts_with('-')
                && a[1..].chars().all(|c| c.is_ascii_digit())
            {
                vec!["-n".to_string(), a[1..].to_string()]
            } else {
                vec![a.clone()]
            }
        })
        .collect();
    let parsed = parse_options!(
        shell,
        &args,
        "n",
        &[("bytes", 'n', true), ("all", 'a', false)]
    );
    let minimum: usize = parsed.value('n').and_then(|n| n.parse().ok()).unwrap_or(4);
    let data = match read_operands(shell, "strings", &parsed.operands) {
        Ok(data) => data,
        Err(status) => return Ok(status),
    };
    let mut text = Vec::new();
    let mut run = Vec::new();
    for byte in data.iter().copied().chain(std::iter::once(0)) {
        if byte == b'\t' || (32..127).contains(&byte) {
            run.push(byte);
        } else {
            if run.len() >= minimum {
                text.extend_from_slice(&run);
                text.push(b'\n');
            }
            run.clear();
        }
    }
    let _ = shell.out().flush();
    write(shell, "strings", &text, 0)
}
