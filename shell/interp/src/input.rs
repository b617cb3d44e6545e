//! What utilities read: operands opened as sources (files, `-`, devices,
//! pipes), each with the most a command may buffer from it, and byte
//! streams that keep a UTF-8 sequence whole across chunks. Utilities parse
//! their options with `utilities::args`; a builtin that reads a file or
//! stdin (`source`, `bash -s`) uses this too.

use std::io::{self, Read};

use bytes::Bytes;
use goccia_vfs::{Errno, Node};

use crate::interp::ShellView;
use crate::io::{Fd, SharedReader};

/// An input: a stream (stdin, a pipe, a device) with the most a command
/// may buffer from it, or a file's content.
pub enum Source {
    /// A stream (none when descriptor 0 is closed) and the most a
    /// command may buffer from it.
    Stdin(Option<SharedReader>, usize),
    /// A file's content, whole.
    Data(Bytes),
}

impl Source {
    /// The shell's standard input.
    pub fn stdin(shell: &ShellView) -> Source {
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

    /// Reads into `buffer` as [`Read::read`] does (0 at the end); a file's
    /// content is consumed as it is read.
    pub fn read_some(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Data(bytes) => {
                let n = buffer.len().min(bytes.len());
                buffer[..n].copy_from_slice(&bytes.split_to(n));
                Ok(n)
            }
            Source::Stdin(None, _) => Ok(0),
            Source::Stdin(Some(reader), _) => reader.lock().read(buffer),
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

/// A source read one byte at a time, through a buffer (for the
/// utilities that scan byte by byte and must stream: `fmt`, `xxd -r`).
pub struct ByteStream {
    source: Source,
    buffer: Vec<u8>,
    at: usize,
    filled: usize,
}

impl ByteStream {
    /// The bytes of `source`, read chunk by chunk.
    pub fn new(source: Source) -> ByteStream {
        ByteStream {
            source,
            buffer: vec![0; 8192],
            at: 0,
            filled: 0,
        }
    }
}

impl Iterator for ByteStream {
    type Item = u8;

    /// The next byte; `None` at the end (a read error ends the stream
    /// too: the utilities using this treat it as the end of input).
    fn next(&mut self) -> Option<u8> {
        if self.at == self.filled {
            self.filled = self.source.read_some(&mut self.buffer).unwrap_or(0);
            self.at = 0;
            if self.filled == 0 {
                return None;
            }
        }
        self.at += 1;
        Some(self.buffer[self.at - 1])
    }
}

/// How many bytes at the end of `data` begin a UTF-8 sequence that the
/// next chunk may complete.
pub fn incomplete_utf8_tail(data: &[u8]) -> usize {
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
    /// Reads the next record (ended by `terminator`, kept) into `record`,
    /// streaming; false at the end of the input.
    pub fn next_record(&mut self, terminator: u8, record: &mut Vec<u8>) -> io::Result<bool> {
        record.clear();
        match self {
            Source::Data(bytes) => {
                if bytes.is_empty() {
                    return Ok(false);
                }
                let end = bytes
                    .iter()
                    .position(|b| *b == terminator)
                    .map_or(bytes.len(), |at| at + 1);
                record.extend_from_slice(&bytes.split_to(end));
                Ok(true)
            }
            Source::Stdin(None, _) => Ok(false),
            Source::Stdin(Some(reader), limit) => {
                Ok(
                    crate::io::read_until_capped(&mut *reader.lock(), terminator, record, *limit)?
                        > 0,
                )
            }
        }
    }

    /// Calls `f` with the input as text, chunk by chunk as it streams in
    /// (a character cut by a chunk's end is held for the next one; bytes
    /// that are not UTF-8 are held as [`crate::raw`] characters, so
    /// [`crate::raw::encode`] gives them back unchanged).
    pub fn for_each_text_chunk(
        &mut self,
        mut f: impl FnMut(&str) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut pending: Vec<u8> = Vec::new();
        self.read_bytes(usize::MAX, |chunk| {
            pending.extend_from_slice(chunk);
            let cut = incomplete_utf8_tail(&pending);
            let rest = pending.split_off(pending.len() - cut);
            f(&crate::raw::decode(&pending))?;
            pending = rest;
            Ok(true)
        })?;
        if !pending.is_empty() {
            f(&crate::raw::decode(&pending))?;
        }
        Ok(())
    }
}

/// One line of standard input, the answer to a question a command asked
/// on stderr (`rm -i`, `find -ok`, `unzip`'s overwrite question): read up
/// to its newline only, so the next question reads the next line; at most
/// 4 KiB of it is kept. `None` when there is nothing left to read.
pub fn answer_line(shell: &ShellView) -> Option<Vec<u8>> {
    let reader = shell.fds().input(0)?;
    let mut line = Vec::new();
    let read = crate::io::read_until_capped(&mut *reader.lock(), b'\n', &mut line, 4096);
    matches!(read, Ok(n) if n > 0).then_some(line)
}

/// Whether an answer line says yes, as GNU's tools read one without a
/// terminal: it starts with `y` or `Y`.
pub fn is_yes(line: &[u8]) -> bool {
    matches!(line.first(), Some(b'y' | b'Y'))
}

/// Opens an operand: `-` is stdin; `/dev/stdin`, `/dev/fd/N` and the
/// usual devices work; anything else is a VFS file. On failure prints
/// `name: operand: reason` and returns [`Reported`].
pub fn open_source(shell: &mut ShellView, name: &str, operand: &str) -> Result<Source, Reported> {
    match open_quiet(shell, operand) {
        Ok(source) => Ok(source),
        Err(reason) => {
            shell.fail_command(name, &format!("{operand}: {reason}"), 1);
            Err(Reported)
        }
    }
}

/// An operand that could not be opened, already reported on stderr in
/// the command's words (the command goes on with the next, status 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported;

/// [`open_quiet`]'s reason for a folder, for the commands that read one
/// as GNU's do rather than fail.
pub const IS_A_DIRECTORY: &str = "Is a directory";

/// Like [`open_source`] without the message.
pub fn open_quiet(shell: &mut ShellView, operand: &str) -> Result<Source, &'static str> {
    match operand {
        "-" | "/dev/stdin" => return Ok(Source::stdin(shell)),
        "/dev/null" => return Ok(Source::Data(Bytes::new())),
        _ => {}
    }
    if let Some(Fd::Input(reader, _)) = crate::interp::device_input(operand, shell.watch()) {
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
        Ok(Node::Dir(_)) => Err(IS_A_DIRECTORY),
        Ok(Node::Link(_)) => unreachable!("lookup follows links"),
        Err(error) => Err(error.errno.strerror()),
    }
}

/// Names a list holds, one a line (one per NUL with `null`, as `-0` and
/// `--null` read them); empty ones name nothing. (`tar -T`, `rename`.)
pub fn names(list: &[u8], null: bool) -> Vec<String> {
    let separator = if null { b'\0' } else { b'\n' };
    list.split(|byte| *byte == separator)
        .filter(|name| !name.is_empty())
        .map(|name| String::from_utf8_lossy(name).into_owned())
        .collect()
}

#[cfg(test)]
mod names_tests {
    use super::names;

    #[test]
    fn lists_take_lines_or_nuls() {
        assert_eq!(names(b"a\n\nb c\n", false), ["a", "b c"]);
        assert_eq!(names(b"a\0b\nc\0", true), ["a", "b\nc"]);
    }
}
