//! What utilities share: reading operands (files, `-`, devices), line
//! iteration that streams from pipes, and GNU-style option parsing.

use std::io::{self, Read};

use bytes::Bytes;
use goccia_vfs::{Errno, Node};

use crate::interp::Shell;
use crate::io::{Fd, SharedReader};

/// An input: a stream (stdin, a pipe, a device) with the most a command
/// may buffer from it, or a file's content.
pub(crate) enum Source {
    Stdin(Option<SharedReader>, usize),
    Data(Bytes),
}

impl Source {
    /// The shell's standard input.
    pub fn stdin(shell: &Shell) -> Source {
        Source::Stdin(
            shell.fds().input(0),
            shell.context().limits.max_buffered_input,
        )
    }

    /// The whole input (a stream only up to the buffered-input limit).
    pub fn read_all(&mut self) -> io::Result<Vec<u8>> {
        match self {
            Source::Data(bytes) => Ok(bytes.to_vec()),
            Source::Stdin(None, _) => Ok(Vec::new()),
            Source::Stdin(Some(reader), limit) => {
                crate::io::read_to_end_capped(&mut *reader.lock(), *limit)
            }
        }
    }

    /// Calls `f` with each line (its `\n` included when present) until it
    /// returns `false` or the input ends.
    pub fn for_each_line(&mut self, f: impl FnMut(&[u8]) -> io::Result<bool>) -> io::Result<()> {
        self.for_each_record(b'\n', f)
    }

    /// [`Source::for_each_line`] with records ended by `terminator` (`-z`:
    /// NUL).
    pub fn for_each_record(
        &mut self,
        terminator: u8,
        mut f: impl FnMut(&[u8]) -> io::Result<bool>,
    ) -> io::Result<()> {
        match self {
            Source::Data(bytes) => {
                for line in bytes.split_inclusive(|b| *b == terminator) {
                    if !f(line)? {
                        break;
                    }
                }
                Ok(())
            }
            Source::Stdin(None, _) => Ok(()),
            Source::Stdin(Some(reader), limit) => {
                let mut reader = reader.lock();
                let mut line = Vec::new();
                loop {
                    line.clear();
                    if crate::io::read_until_capped(&mut *reader, terminator, &mut line, *limit)?
                        == 0
                    {
                        return Ok(());
                    }
                    if !f(&line)? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Reads up to `limit` bytes.
    pub fn read_bytes(
        &mut self,
        limit: usize,
        mut f: impl FnMut(&[u8]) -> io::Result<bool>,
    ) -> io::Result<()> {
        match self {
            Source::Data(bytes) => {
                f(&bytes[..limit.min(bytes.len())])?;
                Ok(())
            }
            Source::Stdin(None, _) => Ok(()),
            Source::Stdin(Some(reader), _) => {
                let mut reader = reader.lock();
                let mut remaining = limit;
                let mut buffer = vec![0u8; 8192];
                while remaining > 0 {
                    let want = remaining.min(buffer.len());
                    let n = reader.read(&mut buffer[..want])?;
                    if n == 0 {
                        break;
                    }
                    remaining -= n;
                    if !f(&buffer[..n])? {
                        break;
                    }
                }
                Ok(())
            }
        }
    }
}

/// How many bytes at the end of `data` begin a UTF-8 sequence that the
/// next chunk may complete.
pub(crate) fn incomplete_utf8_tail(data: &[u8]) -> usize {
    for back in 1..=3.min(data.len()) {
        let byte = data[data.len() - back];
        let needed = match byte {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            0x80..=0xBF => continue,
            _ => return 0,
        };
        return if needed > back { back } else { 0 };
    }
    0
}

impl Source {
    /// Calls `f` with the input as text, chunk by chunk as it streams in
    /// (a character cut by a chunk's end is held for the next one; bytes
    /// that are not UTF-8 become U+FFFD).
    pub fn for_each_text_chunk(
        &mut self,
        mut f: impl FnMut(&str) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut pending: Vec<u8> = Vec::new();
        self.read_bytes(usize::MAX, |chunk| {
            pending.extend_from_slice(chunk);
            let cut = incomplete_utf8_tail(&pending);
            let rest = pending.split_off(pending.len() - cut);
            f(&String::from_utf8_lossy(&pending))?;
            pending = rest;
            Ok(true)
        })?;
        if !pending.is_empty() {
            f(&String::from_utf8_lossy(&pending))?;
        }
        Ok(())
    }
}

/// Opens an operand: `-` is stdin; `/dev/stdin`, `/dev/fd/N` and the
/// usual devices work; anything else is a VFS file. On failure prints
/// `name: operand: reason` and returns `Err(())`.
pub(crate) fn open_source(shell: &mut Shell, name: &str, operand: &str) -> Result<Source, ()> {
    match open_quiet(shell, operand) {
        Ok(source) => Ok(source),
        Err(reason) => {
            shell.fail_command(name, &format!("{operand}: {reason}"), 1);
            Err(())
        }
    }
}

/// Like [`open_source`] without the message.
pub(crate) fn open_quiet(shell: &mut Shell, operand: &str) -> Result<Source, &'static str> {
    match operand {
        "-" | "/dev/stdin" => return Ok(Source::stdin(shell)),
        "/dev/null" => return Ok(Source::Data(Bytes::new())),
        _ => {}
    }
    if let Some(Fd::Input(reader)) = crate::interp::device_input(operand, shell.watch()) {
        return Ok(Source::Stdin(
            Some(reader),
            shell.context().limits.max_buffered_input,
        ));
    }
    if let Some(fd) = operand
        .strip_prefix("/dev/fd/")
        .and_then(|n| n.parse::<usize>().ok())
    {
        return match shell.fds().input(fd) {
            Some(reader) => Ok(Source::Stdin(
                Some(reader),
                shell.context().limits.max_buffered_input,
            )),
            None => Err("No such file or directory"),
        };
    }
    let path = shell
        .cwd()
        .resolve(operand)
        .map_err(|e| Errno::from(&e).strerror())?;
    let vfs = shell.context().vfs.clone();
    let vfs = vfs.lock();
    match vfs.lookup(&path) {
        Ok(Node::File(file)) => Ok(Source::Data(file.data().clone())),
        Ok(Node::Dir(_)) => Err("Is a directory"),
        Err(error) => Err(error.errno.strerror()),
    }
}

/// Parsed command-line options.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parsed {
    /// Flags in order (repeats kept: `-vv`).
    pub flags: Vec<char>,
    /// Options with values, in order.
    pub values: Vec<(char, String)>,
    pub operands: Vec<String>,
}

impl Parsed {
    pub fn has(&self, flag: char) -> bool {
        self.flags.contains(&flag)
    }

    /// The last value given for `option`.
    pub fn value(&self, option: char) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(o, _)| *o == option)
            .map(|(_, v)| v.as_str())
    }

    pub fn all(&self, option: char) -> Vec<&str> {
        self.values
            .iter()
            .filter(|(o, _)| *o == option)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// A long option: its name, the short option it means, whether it takes
/// a value.
pub(crate) type Long = (&'static str, char, bool);

/// GNU-style parsing: short flags combine (`-la`), short options take
/// their value attached or next (`-n5`, `-n 5`), long options use `=` or
/// the next argument, `--` ends options, options may follow operands.
pub(crate) fn getopt(args: &[String], with_value: &str, longs: &[Long]) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            parsed.operands.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            let matches: Vec<&Long> = longs
                .iter()
                .filter(|(n, _, _)| n.starts_with(name))
                .collect();
            let exact = longs.iter().find(|(n, _, _)| *n == name);
            let Some(&(_, short, takes)) = exact.or(if matches.len() == 1 {
                Some(matches[0])
            } else {
                None
            }) else {
                return Err(if matches.len() > 1 {
                    format!("option '--{name}' is ambiguous")
                } else {
                    format!("unrecognized option '--{name}'")
                });
            };
            if takes {
                let value = match attached {
                    Some(value) => value,
                    None => {
                        let Some(value) = args.get(i) else {
                            return Err(format!("option '--{name}' requires an argument"));
                        };
                        i += 1;
                        value.clone()
                    }
                };
                parsed.values.push((short, value));
            } else {
                parsed.flags.push(short);
            }
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            let chars: Vec<char> = arg[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                j += 1;
                if with_value.contains(c) {
                    let value = if j < chars.len() {
                        let value: String = chars[j..].iter().collect();
                        j = chars.len();
                        value
                    } else {
                        let Some(value) = args.get(i) else {
                            return Err(format!("option requires an argument -- '{c}'"));
                        };
                        i += 1;
                        value.clone()
                    };
                    parsed.values.push((c, value));
                } else if longs.iter().any(|(_, s, _)| *s == c) || c.is_ascii_alphanumeric() {
                    parsed.flags.push(c);
                } else {
                    return Err(format!("invalid option -- '{c}'"));
                }
            }
            continue;
        }
        parsed.operands.push(arg.clone());
    }
    Ok(parsed)
}

/// Rejects flags outside `allowed` (`getopt` accepts any alphanumeric).
pub(crate) fn check_flags(parsed: &Parsed, allowed: &str) -> Result<(), String> {
    match parsed.flags.iter().find(|f| !allowed.contains(**f)) {
        Some(flag) => Err(format!("invalid option -- '{flag}'")),
        None => Ok(()),
    }
}

/// A count with an optional binary suffix (`10`, `2K`, `1M`, `3kB`).
pub(crate) fn parse_size_suffix(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits_end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let value: u64 = text[..digits_end].parse().ok()?;
    let multiplier: u64 = match &text[digits_end..] {
        "" | "c" => 1,
        "b" => 512,
        "K" | "KiB" | "k" => 1 << 10,
        "kB" | "KB" => 1000,
        "M" | "MiB" => 1 << 20,
        "MB" => 1_000_000,
        "G" | "GiB" => 1 << 30,
        "GB" => 1_000_000_000,
        "T" | "TiB" => 1 << 40,
        "TB" => 1_000_000_000_000,
        "P" | "PiB" => 1 << 50,
        "PB" => 1_000_000_000_000_000,
        "E" | "EiB" => 1 << 60,
        "EB" => 1_000_000_000_000_000_000,
        _ => return None,
    };
    value.checked_mul(multiplier)
}
