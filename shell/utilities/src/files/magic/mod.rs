//! What `file` says a file's content is: the formats a sandbox's files
//! are likely to be, named by their magic bytes and their headers' fields
//! in the words of file 5.44 (Debian 12's), and text by its encoding, its
//! line terminators, the interpreter of a `#!` line and the source
//! languages file's rules name; with the MIME type `file -i` gives. A
//! format not recognised is `data`, as `file` says of what it cannot name.

mod elf;
mod source;

/// What `file` says of some content: its description (`file -b`), its
/// MIME type and charset (`file -i`).
pub struct Identity {
    pub description: String,
    pub mime_type: &'static str,
    pub charset: &'static str,
}

/// What `data` is.
pub fn identify(data: &[u8]) -> Identity {
    // The encoding of the window file reads, worked out once for both the
    // description and the charset.
    let encoding = encoding(&data[..data.len().min(TEXT_WINDOW)]);
    let (description, mime_type) = match data.len() {
        0 => ("empty".to_string(), "inode/x-empty"),
        // Too short for any magic, or for `file` to call it text.
        1 => (
            "very short file (no magic)".to_string(),
            "application/octet-stream",
        ),
        _ => binary(data).unwrap_or_else(|| text(data, encoding)),
    };
    // Nothing, or one byte, is not text to file.
    let charset = if data.len() < 2 {
        "binary"
    } else {
        charset(encoding)
    };
    Identity {
        description,
        mime_type,
        charset,
    }
}

/// The description of `data` (`file -b`).
pub fn describe(data: &[u8]) -> String {
    identify(data).description
}

/// The charset `file -i` names for an encoding ([`encoding`]'s answer).
fn charset(encoding: Option<&str>) -> &'static str {
    match encoding {
        None => "binary",
        Some("ASCII text") => "us-ascii",
        Some("ISO-8859 text") => "iso-8859-1",
        Some("Non-ISO extended-ASCII text") => "unknown-8bit",
        Some(_) => "utf-8",
    }
}

fn u16_le(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn u16_be(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn u32_le(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

fn u32_be(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// A binary format named by its magic, if `data` is one, and its MIME
/// type.
fn binary(data: &[u8]) -> Option<(String, &'static str)> {
    let description = binary_description(data)?;
    let mime = match description.split([' ', ',']).next().unwrap_or("") {
        "PNG" => "image/png",
        "JPEG" => "image/jpeg",
        "GIF" => "image/gif",
        "gzip" => "application/gzip",
        "bzip2" => "application/x-bzip2",
        "XZ" => "application/x-xz",
        "Zip" => "application/zip",
        "PDF" => "application/pdf",
        "SQLite" => "application/vnd.sqlite3",
        "Audio" => "audio/mpeg",
        "POSIX" => "application/x-tar",
        "ELF" => elf::mime(&description),
        _ => "application/octet-stream",
    };
    Some((description, mime))
}

fn binary_description(data: &[u8]) -> Option<String> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(png(data));
    }
    if data.starts_with(b"\xff\xd8\xff") {
        return Some(jpeg(data));
    }
    if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
        let version = String::from_utf8_lossy(&data[3..6]);
        return Some(match (u16_le(data, 6), u16_le(data, 8)) {
            (Some(width), Some(height)) => {
                format!("GIF image data, version {version}, {width} x {height}")
            }
            _ => format!("GIF image data, version {version}"),
        });
    }
    if data.starts_with(b"\x1f\x8b") {
        return Some(gzip(data));
    }
    if data.starts_with(b"BZh") && data.get(3).is_some_and(u8::is_ascii_digit) {
        return Some(format!(
            "bzip2 compressed data, block size = {}00k",
            data[3] as char
        ));
    }
    if data.starts_with(b"\xfd7zXZ\0") {
        let check = match data.get(7) {
            Some(0) => "none",
            Some(1) => "CRC32",
            Some(4) => "CRC64",
            Some(10) => "SHA-256",
            _ => "unknown",
        };
        return Some(format!("XZ compressed data, checksum {check}"));
    }
    if data.starts_with(b"PK\x03\x04") {
        return Some(zip(data));
    }
    if data.starts_with(b"%PDF-") {
        let version: String = data[5..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'.')
            .map(|b| *b as char)
            .collect();
        return Some(format!("PDF document, version {version}"));
    }
    if data.starts_with(b"\x7fELF") {
        return Some(elf::describe(data));
    }
    if data.starts_with(b"SQLite format 3\0") {
        return Some(sqlite(data));
    }
    if data.starts_with(b"ID3") && data.len() >= 5 {
        return Some(format!(
            "Audio file with ID3 version 2.{}.{}",
            data[3], data[4]
        ));
    }
    if data.get(257..263) == Some(b"ustar\0") {
        return Some("POSIX tar archive".to_string());
    }
    if data.get(257..265) == Some(b"ustar  \0") {
        return Some("POSIX tar archive (GNU)".to_string());
    }
    None
}

/// PNG: the IHDR chunk's size, depth, colour type and interlacing.
fn png(data: &[u8]) -> String {
    let (Some(width), Some(height), Some(&depth), Some(&colour), Some(&interlace)) = (
        u32_be(data, 16),
        u32_be(data, 20),
        data.get(24),
        data.get(25),
        data.get(28),
    ) else {
        return "PNG image data".to_string();
    };
    let colour = match colour {
        0 => format!("{depth}-bit grayscale"),
        2 => format!("{depth}-bit/color RGB"),
        3 => format!("{depth}-bit colormap"),
        4 => format!("{depth}-bit gray+alpha"),
        6 => format!("{depth}-bit/color RGBA"),
        _ => format!("{depth}-bit"),
    };
    let interlace = if interlace == 0 {
        "non-interlaced"
    } else {
        "interlaced"
    };
    format!("PNG image data, {width} x {height}, {colour}, {interlace}")
}

/// JPEG: the JFIF header's version and density, then the first frame's
/// coding, precision, size and components.
fn jpeg(data: &[u8]) -> String {
    let mut out = "JPEG image data".to_string();
    if data.get(6..11) == Some(b"JFIF\0") {
        let length = u16_be(data, 4).unwrap_or(0);
        let (major, minor) = (data.get(11).copied(), data.get(12).copied());
        if let (Some(major), Some(minor)) = (major, minor) {
            out.push_str(&format!(", JFIF standard {major}.{minor:02}"));
        }
        let unit = match data.get(13) {
            Some(0) => ", aspect ratio",
            Some(1) => ", resolution (DPI)",
            Some(2) => ", resolution (DPCM)",
            _ => "",
        };
        out.push_str(unit);
        if let (Some(x), Some(y)) = (u16_be(data, 14), u16_be(data, 16)) {
            out.push_str(&format!(", density {x}x{y}"));
        }
        out.push_str(&format!(", segment length {length}"));
    }
    // The segments after the first, up to the start of a frame.
    let mut at = 2;
    while let (Some(&0xff), Some(&marker)) = (data.get(at), data.get(at + 1)) {
        let Some(length) = u16_be(data, at + 2) else {
            break;
        };
        let coding = match marker {
            0xc0 => Some("baseline"),
            0xc1 => Some("extended sequential"),
            0xc2 => Some("progressive"),
            0xc3 => Some("lossless"),
            _ => None,
        };
        if let Some(coding) = coding {
            if let (Some(&precision), Some(height), Some(width), Some(&components)) = (
                data.get(at + 4),
                u16_be(data, at + 5),
                u16_be(data, at + 7),
                data.get(at + 9),
            ) {
                out.push_str(&format!(
                    ", {coding}, precision {precision}, {width}x{height}, components {components}"
                ));
            }
            break;
        }
        if marker == 0xda {
            break;
        }
        at += 2 + length as usize;
    }
    out
}

/// gzip: the name and time the member holds, its level and the size
/// modulo 2^32 in its trailer.
fn gzip(data: &[u8]) -> String {
    let mut out = "gzip compressed data".to_string();
    let flags = data.get(3).copied().unwrap_or(0);
    if flags & 0x08 != 0 {
        // The header's name follows the fixed ten bytes and any extra field.
        let mut at = 10;
        if flags & 0x04 != 0 {
            at += 2 + u16_le(data, 10).unwrap_or(0) as usize;
        }
        if let Some(rest) = data.get(at..) {
            let name = rest.split(|b| *b == 0).next().unwrap_or(b"");
            out.push_str(&format!(", was \"{}\"", String::from_utf8_lossy(name)));
        }
    }
    if let Some(seconds) = u32_le(data, 4).filter(|seconds| *seconds != 0) {
        let when = chrono::DateTime::from_timestamp(seconds as i64, 0).unwrap_or_default();
        out.push_str(&format!(
            ", last modified: {}",
            when.format("%a %b %e %H:%M:%S %Y")
        ));
    }
    match data.get(8) {
        Some(2) => out.push_str(", max compression"),
        Some(4) => out.push_str(", max speed"),
        _ => {}
    }
    let system = match data.get(9) {
        Some(0) => ", from FAT filesystem (MS-DOS, OS/2, NT)",
        Some(3) => ", from Unix",
        Some(7) => ", from Macintosh",
        Some(11) => ", from NTFS filesystem (NT)",
        _ => "",
    };
    out.push_str(system);
    if data.len() >= 18
        && let Some(size) = u32_le(data, data.len() - 4)
    {
        out.push_str(&format!(", original size modulo 2^32 {size}"));
    }
    out
}

/// Zip: the version its first entry needs and that entry's method.
fn zip(data: &[u8]) -> String {
    let Some(needed) = u16_le(data, 4) else {
        return "Zip archive data".to_string();
    };
    let method = match u16_le(data, 8) {
        Some(0) => "store".to_string(),
        Some(8) => "deflate".to_string(),
        Some(12) => "bzip2".to_string(),
        Some(14) => "lzma".to_string(),
        Some(other) => other.to_string(),
        None => "?".to_string(),
    };
    format!(
        "Zip archive data, at least v{}.{} to extract, compression method={method}",
        needed / 10,
        needed % 10
    )
}

/// SQLite 3: the fields of its database header.
fn sqlite(data: &[u8]) -> String {
    let field = |at| u32_be(data, at).unwrap_or(0);
    let mut out = "SQLite 3.x database".to_string();
    let user_version = field(60);
    if user_version != 0 {
        out.push_str(&format!(", user version {user_version}"));
    }
    let application = field(68);
    if application != 0 {
        out.push_str(&format!(", application id {application}"));
    }
    out.push_str(&format!(
        ", last written using SQLite version {}, file counter {}, database pages {}, cookie 0x{:x}, schema {}",
        field(96),
        field(24),
        field(28),
        field(40),
        field(44)
    ));
    let encoding = match field(56) {
        1 => ", UTF-8",
        2 => ", UTF-16 little endian",
        3 => ", UTF-16 big endian",
        _ => "",
    };
    out.push_str(encoding);
    out.push_str(&format!(", version-valid-for {}", field(92)));
    out
}

/// How the text is encoded (`ASCII`, `Unicode text, UTF-8`, ...), or
/// `None` when it is not text.
fn encoding(data: &[u8]) -> Option<&'static str> {
    // Control characters that text holds: tab, newline, vertical tab, form
    // feed, carriage return, escape (and backspace, as in man pages).
    let is_text_control = |b: u8| matches!(b, 7..=13 | 0x1b);
    if data
        .iter()
        .any(|b| *b < 0x20 && !is_text_control(*b) || *b == 0x7f)
    {
        return None;
    }
    if data.is_ascii() {
        return Some("ASCII text");
    }
    if std::str::from_utf8(data).is_ok() {
        return Some(if data.starts_with(b"\xef\xbb\xbf") {
            "Unicode text, UTF-8 (with BOM) text"
        } else {
            "Unicode text, UTF-8 text"
        });
    }
    if data.iter().all(|b| *b < 0x80 || *b >= 0xa0) {
        return Some("ISO-8859 text");
    }
    Some("Non-ISO extended-ASCII text")
}

/// What follows the encoding: escape sequences, very long lines, and
/// line terminators other than LF alone.
fn text_details(data: &[u8]) -> String {
    let mut out = String::new();
    if data.contains(&0x1b) {
        out.push_str(", with escape sequences");
    }
    let longest = data
        .split(|b| *b == b'\n' || *b == b'\r')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    if longest > 300 {
        out.push_str(&format!(", with very long lines ({longest})"));
    }
    let (mut crlf, mut lf, mut cr) = (0, 0, 0);
    for (index, byte) in data.iter().enumerate() {
        match byte {
            b'\r' if data.get(index + 1) == Some(&b'\n') => crlf += 1,
            b'\r' => cr += 1,
            b'\n' if index > 0 && data[index - 1] == b'\r' => {}
            b'\n' => lf += 1,
            _ => {}
        }
    }
    let kinds: Vec<&str> = [(crlf, "CRLF"), (cr, "CR"), (lf, "LF")]
        .iter()
        .filter(|(count, _)| *count > 0)
        .map(|(_, name)| *name)
        .collect();
    match kinds.as_slice() {
        [] => out.push_str(", with no line terminators"),
        ["LF"] => {}
        kinds => out.push_str(&format!(", with {} line terminators", kinds.join(", "))),
    }
    out
}

/// How much of a file `file` reads to call it text, and to describe its
/// lines: what lies past it is not looked at (GNU's window, which also
/// bounds the work for a large file).
const TEXT_WINDOW: usize = 64 << 10;

/// How much of a file is parsed to call it JSON (file's read limit).
const JSON_WINDOW: usize = 7 << 20;

/// Text: a script by its `#!` line, a document by its start, JSON, a
/// source language or CSV, or plain text; `data` when it is not text
/// (`encoding` is none). With its MIME type.
fn text(whole: &[u8], encoding: Option<&'static str>) -> (String, &'static str) {
    let data = &whole[..whole.len().min(TEXT_WINDOW)];
    let Some(encoding) = encoding else {
        return ("data".to_string(), "application/octet-stream");
    };
    let details = text_details(data);
    if let Some(line) = data.strip_prefix(b"#!") {
        let line = line.split(|b| *b == b'\n').next().unwrap_or(b"");
        let line = String::from_utf8_lossy(line);
        return script(line.trim_end_matches('\r'), encoding, &details);
    }
    let start = String::from_utf8_lossy(&data[..data.len().min(512)]);
    let start = start.trim_start().to_ascii_lowercase();
    if start.starts_with("<!doctype html") || start.starts_with("<html") {
        return (format!("HTML document, {encoding}{details}"), "text/html");
    }
    if start.starts_with("<svg") || (start.starts_with("<?xml") && start.contains("<svg")) {
        return (
            "SVG Scalable Vector Graphics image".to_string(),
            "image/svg+xml",
        );
    }
    if let Some(rest) = start.strip_prefix("<?xml version=\"") {
        let version: String = rest.chars().take_while(|c| *c != '"').collect();
        return (
            format!("XML {version} document, {encoding}{details}"),
            "text/xml",
        );
    }
    if matches!(start.as_bytes().first(), Some(b'{' | b'['))
        && serde_json::from_slice::<serde_json::Value>(&whole[..whole.len().min(JSON_WINDOW)])
            .is_ok()
    {
        return ("JSON text data".to_string(), "application/json");
    }
    let text = String::from_utf8_lossy(data);
    if let Some(found) = source::recognise(&text) {
        return found.describe(encoding, &details);
    }
    (format!("{encoding}{details}"), "text/plain")
}

/// A script by the interpreter its `#!` line names: `file`'s own names for
/// the ones it knows (some only by their path, some also through `env`),
/// else `a <interpreter> script`; and its MIME type.
fn script(line: &str, encoding: &str, details: &str) -> (String, &'static str) {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let program = words.next().unwrap_or("");
    let via_env = program.ends_with("/env");
    let (name, shown) = if via_env {
        let rest: Vec<&str> = words.collect();
        (rest.first().copied().unwrap_or(""), rest.join(" "))
    } else {
        (program.rsplit('/').next().unwrap_or(""), line.to_string())
    };
    let known = match name {
        "sh" if !via_env => Some("POSIX shell script"),
        "bash" => Some("Bourne-Again shell script"),
        "zsh" => Some("Paul Falstad's zsh script"),
        "fish" => Some("fish shell script"),
        "ksh" if !via_env => Some("Korn shell script"),
        "csh" if !via_env => Some("C shell script"),
        "tcsh" if !via_env => Some("Tenex C shell script"),
        "ruby" => Some("Ruby script"),
        "php" if !via_env => Some("PHP script"),
        "lua" => Some("Lua script"),
        "awk" if !via_env => Some("awk script"),
        "gawk" if !via_env => Some("GNU awk script"),
        "tclsh" if via_env => Some("Tcl script"),
        "tclsh" => Some("Tcl/Tk script"),
        "node" | "nodejs" => {
            return (
                format!("Node.js script executable, {encoding}{details}"),
                "application/javascript",
            );
        }
        _ if name.starts_with("perl") => {
            return (
                format!("Perl script text executable{details}"),
                "text/x-perl",
            );
        }
        _ if name.starts_with("python") => Some("Python script"),
        _ => None,
    };
    let mime = match name {
        "sh" | "bash" | "zsh" | "fish" | "ksh" | "csh" | "tcsh" | "dash" => "text/x-shellscript",
        "ruby" => "text/x-ruby",
        "php" => "text/x-php",
        "lua" => "text/x-lua",
        "awk" | "gawk" => "text/x-awk",
        "tclsh" => "text/x-tcl",
        _ if name.starts_with("python") => "text/x-script.python",
        _ => "text/plain",
    };
    match known {
        Some(kind) => (format!("{kind}, {encoding} executable{details}"), mime),
        None => (
            format!("a {shown} script, {encoding} executable{details}"),
            mime,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn text_is_named_by_its_encoding_and_terminators() {
        assert_eq!(describe(b"hello\n"), "ASCII text");
        assert_eq!(describe(b"abc"), "ASCII text, with no line terminators");
        assert_eq!(
            describe(b"a\r\nb\n"),
            "ASCII text, with CRLF, LF line terminators"
        );
        assert_eq!(describe("é\n".as_bytes()), "Unicode text, UTF-8 text");
        assert_eq!(describe(b"caf\xe9\n"), "ISO-8859 text");
        assert_eq!(describe(b"a\x01b\n"), "data");
    }

    #[test]
    fn identities_carry_the_mime_type_and_charset() {
        let mime = |data: &[u8]| {
            let found = super::identify(data);
            format!("{}; charset={}", found.mime_type, found.charset)
        };
        assert_eq!(mime(b"hello\n"), "text/plain; charset=us-ascii");
        assert_eq!(mime(b""), "inode/x-empty; charset=binary");
        assert_eq!(mime(b"a,b\n1,2\n3,4\n"), "text/csv; charset=us-ascii");
        assert_eq!(mime("\u{e9}\n".as_bytes()), "text/plain; charset=utf-8");
        assert_eq!(
            mime(b"\x1f\x8b\x08\x00\x00"),
            "application/gzip; charset=binary"
        );
    }

    #[test]
    fn scripts_are_named_by_their_interpreter() {
        assert_eq!(
            describe(b"#!/usr/bin/env python3\n"),
            "Python script, ASCII text executable"
        );
        assert_eq!(
            describe(b"#!/usr/bin/env ksh\n"),
            "a ksh script, ASCII text executable"
        );
        assert_eq!(
            describe(b"#!/usr/bin/perl -w\n"),
            "Perl script text executable"
        );
    }
}
