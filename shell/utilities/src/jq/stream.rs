//! jq's inputs (JSON texts or raw lines, streamed from stdin) and its
//! printer (pretty, compact, raw, ASCII-only, sorted keys).

use std::cell::RefCell;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::rc::Rc;

use jaq_json::Val;
use jaq_json::write::{Pp, Styles};

use super::options::Options;
use goccia_interp::io::SharedReader;

/// An input: a file's bytes or a stream (stdin).
pub(crate) enum Input {
    Data { name: String, bytes: bytes::Bytes },
    Stream(SharedReader),
}

/// Where the current input value came from (`input_filename`, errors).
#[derive(Default)]
pub(crate) struct Position {
    pub file: Option<String>,
    /// 1-based index of the value within its input.
    pub index: usize,
}

pub(crate) type Values<'a> = Box<dyn Iterator<Item = Result<Val, String>> + 'a>;

/// The input values, read lazily so that `jq` streams: JSON texts, or with
/// `-R` lines (or with `-R -s` each input's whole text).
pub(crate) fn input_values<'a>(
    inputs: Vec<Input>,
    options: &Options,
    position: Rc<RefCell<Position>>,
) -> Values<'a> {
    let raw = options.raw_input;
    let slurp = options.slurp;
    let max_buffered_input = options.max_buffered_input;
    let whole = options.raw_input && options.slurp;
    Box::new(inputs.into_iter().flat_map(move |input| {
        let (name, reader): (Option<String>, Box<dyn BufRead>) = match input {
            Input::Data { name, bytes } => (Some(name), Box::new(io::Cursor::new(bytes))),
            Input::Stream(shared) => {
                // Slurping holds everything: bounded like other buffering.
                let budget = if slurp {
                    max_buffered_input
                } else {
                    usize::MAX
                };
                (
                    None,
                    Box::new(BufReader::new(SharedRead { shared, budget })),
                )
            }
        };
        let values: Values<'a> = if whole {
            Box::new(std::iter::once(whole_text(reader)))
        } else if raw {
            Box::new(raw_lines(reader))
        } else {
            Box::new(json_values(reader))
        };
        let position = position.clone();
        let mut index = 0;
        values.inspect(move |_| {
            index += 1;
            let mut position = position.borrow_mut();
            position.file.clone_from(&name);
            position.index = index;
        })
    }))
}

/// Reads a shared stream one call at a time (other readers of the same
/// descriptor see what is left), failing once `budget` bytes are read.
struct SharedRead {
    shared: SharedReader,
    budget: usize,
}

impl Read for SharedRead {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        if self.budget == 0 {
            return Err(io::Error::new(
                io::ErrorKind::OutOfMemory,
                "input larger than the shell's buffered-input limit",
            ));
        }
        let want = buffer.len().min(self.budget);
        let n = self.shared.lock().read(&mut buffer[..want])?;
        self.budget -= n;
        Ok(n)
    }
}

fn whole_text(mut reader: Box<dyn BufRead>) -> Result<Val, String> {
    let mut text = Vec::new();
    reader.read_to_end(&mut text).map_err(|e| e.to_string())?;
    Ok(Val::utf8_str(valid_utf8(text)))
}

/// jq's strings are Unicode: bytes of raw input that are not UTF-8 become
/// U+FFFD, as jq makes them, so the JSON printed is valid.
fn valid_utf8(bytes: Vec<u8>) -> Vec<u8> {
    match String::from_utf8(bytes) {
        Ok(text) => text.into_bytes(),
        Err(error) => String::from_utf8_lossy(error.as_bytes())
            .into_owned()
            .into_bytes(),
    }
}

fn raw_lines(mut reader: Box<dyn BufRead>) -> impl Iterator<Item = Result<Val, String>> {
    std::iter::from_fn(move || {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => None,
            Ok(_) => {
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                Some(Ok(Val::utf8_str(valid_utf8(line))))
            }
            Err(error) => Some(Err(error.to_string())),
        }
    })
}

/// How deep JSON may nest, in input and output (jq's limit too): the
/// parser and printer recurse, and must not overflow the thread's stack.
pub(crate) const MAX_DEPTH: usize = 10_000;

/// Passes bytes through while tracking the nesting depth of the JSON text
/// outside strings; fails once it passes [`MAX_DEPTH`], before the parser
/// recurses that deep.
struct DepthGuard<R> {
    inner: R,
    state: Nesting,
}

#[derive(Default)]
struct Nesting {
    depth: usize,
    in_string: bool,
    escaped: bool,
    too_deep: bool,
}

impl Nesting {
    fn track(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.in_string {
                match byte {
                    _ if self.escaped => self.escaped = false,
                    b'\\' => self.escaped = true,
                    b'"' => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'[' | b'{' => {
                    self.depth += 1;
                    self.too_deep |= self.depth > MAX_DEPTH;
                }
                b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
    }

    fn check(&self) -> io::Result<()> {
        if self.too_deep {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("Exceeds depth limit for parsing ({MAX_DEPTH})"),
            ));
        }
        Ok(())
    }
}

impl<R: BufRead> DepthGuard<R> {
    fn new(inner: R) -> Self {
        DepthGuard {
            inner,
            state: Nesting::default(),
        }
    }
}

impl<R: BufRead> Read for DepthGuard<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        self.state.check()?;
        let n = self.inner.read(buffer)?;
        self.state.track(&buffer[..n]);
        self.state.check()?;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for DepthGuard<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.state.check()?;
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        // Bytes are tracked as they are consumed; a depth error surfaces
        // on the next fill or read, before the parser sees more.
        if let Ok(buffer) = self.inner.fill_buf() {
            self.state.track(&buffer[..amount.min(buffer.len())]);
        }
        self.inner.consume(amount);
    }
}

/// JSON texts until the input ends or one does not parse (jq stops
/// reading an input at its first syntax error).
fn json_values(reader: Box<dyn BufRead>) -> impl Iterator<Item = Result<Val, String>> {
    let mut failed = false;
    jaq_json::read::read_many(DepthGuard::new(reader)).map_while(move |value| {
        if failed {
            return None;
        }
        Some(value.map_err(|error| {
            failed = true;
            format!("Cannot parse input: {error}")
        }))
    })
}

/// Writes output values the way the options ask.
pub(crate) struct Printer {
    pp: Pp,
    raw: bool,
    ascii: bool,
    separator: &'static [u8],
    seq: bool,
}

impl Printer {
    pub fn new(options: &Options) -> Printer {
        let indent = if options.compact {
            None
        } else if options.tab {
            Some("\t".to_string())
        } else {
            Some(" ".repeat(options.indent))
        };
        // `--indent 0` means compact, as in jq.
        let indent = indent.filter(|unit| !unit.is_empty());
        let indent_present = indent.is_some();
        Printer {
            pp: Pp {
                indent,
                sort_keys: options.sort_keys,
                styles: if options.color {
                    Styles::ansi()
                } else {
                    Styles::default()
                },
                sep_space: indent_present,
            },
            raw: options.raw_output,
            ascii: options.ascii_output,
            separator: if options.nul_output {
                b"\0"
            } else if options.join_output {
                b""
            } else {
                b"\n"
            },
            seq: options.seq,
        }
    }

    pub fn print(&mut self, out: &mut dyn Write, value: &Val) -> io::Result<()> {
        if nesting_exceeds(value, MAX_DEPTH) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("value nested deeper than {MAX_DEPTH} levels cannot be printed"),
            ));
        }
        if self.seq {
            out.write_all(b"\x1e")?;
        }
        match value {
            Val::TStr(text) | Val::BStr(text) if self.raw => out.write_all(text)?,
            // Straight to the output: a deep value pretty-printed is
            // quadratic in its depth (200 MB for 10,000 levels).
            _ if self.ascii => {
                let mut escaped = AsciiEscaper {
                    out,
                    pending: Vec::new(),
                };
                jaq_json::write::write(&mut escaped, &self.pp, 0, value)?;
                escaped.finish()?;
            }
            _ => jaq_json::write::write(&mut *out, &self.pp, 0, value)?,
        }
        out.write_all(self.separator)
    }
}

/// `-a`: every non-ASCII character of the JSON text as `\uXXXX` (outside
/// strings there are none, so the text can be rewritten as it streams).
/// A character split between two writes waits in `pending`.
struct AsciiEscaper<'a> {
    out: &'a mut dyn Write,
    pending: Vec<u8>,
}

impl AsciiEscaper<'_> {
    fn escape(&mut self, text: &str) -> io::Result<()> {
        let mut start = 0;
        for (at, c) in text.char_indices() {
            if c.is_ascii() {
                continue;
            }
            self.out.write_all(&text.as_bytes()[start..at])?;
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(self.out, "\\u{unit:04x}")?;
            }
            start = at + c.len_utf8();
        }
        self.out.write_all(&text.as_bytes()[start..])
    }

    /// Writes what is left (an incomplete character, as U+FFFD).
    fn finish(mut self) -> io::Result<()> {
        let rest = std::mem::take(&mut self.pending);
        self.escape(&String::from_utf8_lossy(&rest))
    }
}

impl Write for AsciiEscaper<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            // An incomplete character at the end waits for the next write.
            Err(error) if error.error_len().is_none() => error.valid_up_to(),
            Err(_) => self.pending.len(),
        };
        let ready: Vec<u8> = self.pending.drain(..valid).collect();
        self.escape(&String::from_utf8_lossy(&ready))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Whether `value` nests deeper than `limit`, found without recursion.
pub(crate) fn nesting_exceeds(value: &Val, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        if depth > limit {
            return true;
        }
        match value {
            Val::Arr(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Val::Obj(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    false
}
