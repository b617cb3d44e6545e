//! Streams of the shell: descriptor tables, pipes between pipeline stages,
//! files in the VFS, captures and the host's output.
//!
//! Pipes (`pipe`) hold 64 KiB as the kernel's do (a stage that writes
//! faster than the next reads blocks), every blocking wait checks the
//! deadline, and a writer whose reader is gone gets `BrokenPipe` (the
//! command then ends with 141, as with SIGPIPE): `yes | head -n 3` ends at
//! once.

use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;

use bytes::Bytes;
use goccia_core::{LimitKind, Output, Stop, Stream, Watch};
use goccia_vfs::{SharedVfs, VfsPath};
use parking_lot::Mutex;

mod pipe;
pub use pipe::{PIPE_CAPACITY, PipeReader, PipeWriter, pipe};

/// The watch's stop as an I/O error (a stop travels through `io::Error`s
/// inside the shell; see [`Stop::into_io`]).
fn watch_error(watch: &Watch) -> Option<io::Error> {
    watch.check().err().map(Stop::into_io)
}

/// A write past the output budget (or a capture's size).
fn output_exceeded() -> io::Error {
    Stop::Limit(LimitKind::Output).into_io()
}

/// A readable stream shared by the descriptors that point at it.
pub type SharedReader = Arc<Mutex<Box<dyn BufRead + Send>>>;
/// A writable stream shared by the descriptors that point at it.
pub type SharedWriter = Arc<Mutex<Box<dyn Write + Send>>>;

/// What an [`Fd::Input`] or [`Fd::Output`] is open on, as `test -p`
/// tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// A pipe: a pipeline's, or a process substitution's.
    Pipe,
    /// Anything else (a here-document, a device, the host's streams).
    Other,
}

/// An open descriptor. Clones share the stream (like `dup`).
#[derive(Clone)]
pub enum Fd {
    /// Open for reading: a pipe's end, or another stream.
    Input(SharedReader, Opened),
    /// Open for writing: a pipe's end, or another stream.
    Output(SharedWriter, Opened),
    /// Open for both (`n<>file`), the two halves sharing one offset.
    Both(SharedReader, SharedWriter),
    /// Open for reading, holding nothing (`< /dev/null`, or no stdin at
    /// all): reads see end of input. Kept apart so that a command can tell
    /// "nothing piped in" from a stream (`rg` with no path).
    Null,
    /// A regular file open for reading (`< file`): what `stat` of a real
    /// descriptor would say, for commands whose output depends on it
    /// (`wc`'s column widths).
    File {
        /// The content from the start.
        reader: SharedReader,
        /// The file's size when opened.
        size: u64,
        /// Its modification time then (nanoseconds since the epoch), when
        /// it was opened from the VFS (`gzip < file` stores it, as GNU's
        /// does from a regular file on its standard input).
        mtime_ns: Option<i64>,
    },
}

impl Fd {
    /// A descriptor reading `reader`.
    pub fn reader(reader: impl BufRead + Send + 'static) -> Fd {
        Fd::Input(Arc::new(Mutex::new(Box::new(reader))), Opened::Other)
    }

    /// A descriptor writing to `writer`.
    pub fn writer(writer: impl Write + Send + 'static) -> Fd {
        Fd::Output(Arc::new(Mutex::new(Box::new(writer))), Opened::Other)
    }

    /// The read end of a pipe.
    pub fn pipe_reader(reader: impl BufRead + Send + 'static) -> Fd {
        Fd::Input(Arc::new(Mutex::new(Box::new(reader))), Opened::Pipe)
    }

    /// The write end of a pipe.
    pub fn pipe_writer(writer: impl Write + Send + 'static) -> Fd {
        Fd::Output(Arc::new(Mutex::new(Box::new(writer))), Opened::Pipe)
    }

    /// Whether this is a pipe's end (`test -p`).
    pub fn is_pipe(&self) -> bool {
        matches!(
            self,
            Fd::Input(_, Opened::Pipe) | Fd::Output(_, Opened::Pipe)
        )
    }

    /// A regular file's `content`, read from the start (`< file`).
    pub fn file(content: bytes::Bytes) -> Fd {
        Fd::regular_file(content, None)
    }

    /// [`Fd::file`] of a file modified at `mtime_ns`.
    pub fn regular_file(content: bytes::Bytes, mtime_ns: Option<i64>) -> Fd {
        let size = content.len() as u64;
        Fd::File {
            reader: Arc::new(Mutex::new(Box::new(BytesReader::new(content)))),
            size,
            mtime_ns,
        }
    }

    /// A folder opened for reading (`< dir`): the open succeeds, as on
    /// Linux, and every read fails with "Is a directory".
    pub fn directory() -> Fd {
        Fd::reader(DirectoryReader)
    }

    /// End of input at once (`< /dev/null`).
    pub fn null_input() -> Fd {
        Fd::Null
    }

    /// `path` open for reading and writing at offset 0 (`n<>file`).
    pub fn read_write(vfs: SharedVfs, path: VfsPath) -> Fd {
        let (reader, writer) = crate::io_rw::open(vfs, path);
        Fd::Both(
            Arc::new(Mutex::new(Box::new(reader))),
            Arc::new(Mutex::new(Box::new(writer))),
        )
    }

    /// Output thrown away (`> /dev/null`).
    pub fn null_output() -> Fd {
        Fd::writer(io::sink())
    }

    /// Output that never fits (`> /dev/full`): every write fails with
    /// `No space left on device`.
    pub fn full_output() -> Fd {
        Fd::writer(FullDevice)
    }
}

/// `/dev/full` as a writer.
struct FullDevice;

impl Write for FullDevice {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::ErrorKind::StorageFull.into())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Descriptors by number.
#[derive(Default)]
pub struct FdTable {
    slots: Vec<Option<Fd>>,
}

// Written out for `clone_from`, which keeps the list of slots.
impl Clone for FdTable {
    fn clone(&self) -> Self {
        FdTable {
            slots: self.slots.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.slots.clone_from(&source.slots);
    }
}

impl FdTable {
    /// Descriptors 0, 1 and 2.
    pub fn new(stdin: Fd, stdout: Fd, stderr: Fd) -> Self {
        FdTable {
            slots: vec![Some(stdin), Some(stdout), Some(stderr)],
        }
    }

    /// The highest descriptor a script may name, as under a soft
    /// `ulimit -n` of 1024: the table grows to the number named, so an
    /// unbounded one would let `: 2147483647>f` allocate gigabytes.
    pub const MAX_FD: usize = 1023;

    /// Descriptor `fd`, if open.
    pub fn get(&self, fd: usize) -> Option<&Fd> {
        self.slots.get(fd).and_then(Option::as_ref)
    }

    /// Opens (or replaces) descriptor `fd`.
    pub fn set(&mut self, fd: usize, value: Fd) {
        if self.slots.len() <= fd {
            self.slots.resize(fd + 1, None);
        }
        self.slots[fd] = Some(value);
    }

    /// Closes descriptor `fd`.
    pub fn close(&mut self, fd: usize) {
        if let Some(slot) = self.slots.get_mut(fd) {
            *slot = None;
        }
    }

    /// The highest closed descriptor at or below `from` and above 2 (process
    /// substitutions take 63, 62, ... as bash's do), else the lowest above.
    pub fn free_downward_from(&self, from: usize) -> usize {
        (3..=from)
            .rev()
            .find(|&fd| self.get(fd).is_none())
            .unwrap_or_else(|| self.free_from(from + 1))
    }

    /// Closes every descriptor.
    pub fn close_all(&mut self) {
        self.slots.clear();
    }

    /// The lowest closed descriptor at or above `from` (`{var}>file`).
    pub fn free_from(&self, from: usize) -> usize {
        (from..)
            .find(|&fd| self.get(fd).is_none())
            .expect("unbounded")
    }

    /// Descriptor `fd`'s reader, if it is open for reading.
    pub fn input(&self, fd: usize) -> Option<SharedReader> {
        match self.get(fd) {
            Some(Fd::Input(reader, _))
            | Some(Fd::Both(reader, _))
            | Some(Fd::File { reader, .. }) => Some(reader.clone()),
            Some(Fd::Null) => Some(Arc::new(Mutex::new(Box::new(io::empty())))),
            _ => None,
        }
    }

    /// Whether descriptor `fd` reads something that may hold data (a pipe,
    /// a file, a here-document): not closed, not `/dev/null`.
    pub fn has_data_input(&self, fd: usize) -> bool {
        matches!(
            self.get(fd),
            Some(Fd::Input(..) | Fd::Both(..) | Fd::File { .. })
        )
    }

    /// The size of the regular file descriptor `fd` reads, if it reads one.
    pub fn regular_size(&self, fd: usize) -> Option<u64> {
        match self.get(fd) {
            Some(Fd::File { size, .. }) => Some(*size),
            _ => None,
        }
    }

    /// The modification time (nanoseconds since the epoch) of the regular
    /// file descriptor `fd` reads, if it reads one opened from the VFS.
    pub fn regular_mtime_ns(&self, fd: usize) -> Option<i64> {
        match self.get(fd) {
            Some(Fd::File { mtime_ns, .. }) => *mtime_ns,
            _ => None,
        }
    }

    /// Descriptor `fd`'s writer, if it is open for writing.
    pub fn output(&self, fd: usize) -> Option<SharedWriter> {
        match self.get(fd) {
            Some(Fd::Output(writer, _)) | Some(Fd::Both(_, writer)) => Some(writer.clone()),
            _ => None,
        }
    }
}

/// What reading a folder gives: `EISDIR`, every time.
struct DirectoryReader;

impl Read for DirectoryReader {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::ErrorKind::IsADirectory.into())
    }
}

impl BufRead for DirectoryReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Err(io::ErrorKind::IsADirectory.into())
    }

    fn consume(&mut self, _: usize) {}
}

/// In-memory content as a reader (files, here-documents, here-strings).
pub struct BytesReader {
    data: Bytes,
    pos: usize,
}

impl BytesReader {
    /// A reader of `data`.
    pub fn new(data: impl Into<Bytes>) -> Self {
        BytesReader {
            data: data.into(),
            pos: 0,
        }
    }
}

impl Read for BytesReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = &self.data[self.pos..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

impl BufRead for BytesReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.data[self.pos..])
    }
    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.data.len());
    }
}

/// `/dev/zero`: endless zeros, stopping at the sandbox's deadline.
pub struct ZeroReader {
    buffer: Box<[u8]>,
    watch: Watch,
}

impl ZeroReader {
    /// Zeros until `watch` stops.
    pub fn new(watch: Watch) -> Self {
        ZeroReader {
            buffer: vec![0; 64 << 10].into_boxed_slice(),
            watch,
        }
    }
}

impl Read for ZeroReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(error) = watch_error(&self.watch) {
            return Err(error);
        }
        let n = buf.len().min(self.buffer.len());
        buf[..n].fill(0);
        Ok(n)
    }
}

impl BufRead for ZeroReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Some(error) = watch_error(&self.watch) {
            return Err(error);
        }
        Ok(&self.buffer)
    }
    fn consume(&mut self, _amt: usize) {}
}

fn too_large(limit: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::OutOfMemory,
        format!("input larger than {limit} bytes (the shell's buffered-input limit)"),
    )
}

/// `read_until` that fails with `OutOfMemory` once the line passes
/// `limit` bytes (an endless line cannot take the host's memory).
pub fn read_until_capped(
    reader: &mut dyn BufRead,
    delimiter: u8,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<usize> {
    let start = line.len();
    loop {
        let (done, used) = {
            let available = reader.fill_buf()?;
            if available.is_empty() {
                break;
            }
            match available.iter().position(|b| *b == delimiter) {
                Some(i) => {
                    line.extend_from_slice(&available[..=i]);
                    (true, i + 1)
                }
                None => {
                    line.extend_from_slice(available);
                    (false, available.len())
                }
            }
        };
        reader.consume(used);
        if line.len() - start > limit {
            return Err(too_large(limit));
        }
        if done {
            break;
        }
    }
    Ok(line.len() - start)
}

/// `/dev/urandom`: an endless pseudo-random stream (xorshift, seeded from
/// the clock; not for cryptography), stopping at the sandbox's deadline.
pub struct RandomReader {
    buffer: Box<[u8]>,
    state: u64,
    watch: Watch,
}

impl RandomReader {
    /// Random bytes until `watch` stops.
    pub fn new(watch: Watch) -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(42);
        let mut reader = RandomReader {
            buffer: vec![0; 16 << 10].into_boxed_slice(),
            state: seed | 1,
            watch,
        };
        reader.refill();
        reader
    }

    fn refill(&mut self) {
        for chunk in self.buffer.chunks_mut(8) {
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            let bytes = self.state.to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

impl Read for RandomReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl BufRead for RandomReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Some(error) = watch_error(&self.watch) {
            return Err(error);
        }
        Ok(&self.buffer)
    }
    fn consume(&mut self, _amt: usize) {
        self.refill();
    }
}

/// Reads `reader` to its end, failing with `OutOfMemory` past `limit`
/// bytes: commands that must hold their whole input (`sort`, `tac`, ...)
/// cannot take the host's memory with an endless stream.
pub fn read_to_end_capped(reader: &mut dyn Read, limit: usize) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let read = reader.take(limit as u64 + 1).read_to_end(&mut out)?;
    if read > limit {
        return Err(too_large(limit));
    }
    Ok(out)
}

/// `Read::read` for a reader whose `BufRead` side does the work.
pub(crate) fn read_buffered(reader: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

/// The host's stdout or stderr, charged to the run's output budget.
pub struct HostWriter {
    /// The run's output.
    pub output: Output,
    /// Which of its streams.
    pub stream: Stream,
}

impl Write for HostWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.output
            .write(self.stream, buf)
            .map(|()| buf.len())
            .map_err(Stop::into_io)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Collects output in memory, up to a limit (command substitution).
#[derive(Clone)]
pub struct CaptureWriter {
    /// What was written.
    pub buffer: Arc<Mutex<Vec<u8>>>,
    /// The most it holds; a write past it is the output-limit stop.
    pub limit: usize,
}

impl CaptureWriter {
    /// An empty capture holding at most `limit` bytes.
    pub fn new(limit: usize) -> Self {
        CaptureWriter {
            buffer: Arc::default(),
            limit,
        }
    }

    /// What was written; the capture is empty afterwards.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.buffer.lock())
    }
}

impl Write for CaptureWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut buffer = self.buffer.lock();
        if buffer.len() + buf.len() > self.limit {
            return Err(output_exceeded());
        }
        buffer.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Appends to a VFS file, batching small writes; flushed when the
/// redirection ends (and past 64 KiB of pending data). A descriptor keeps
/// the write policy it was opened under, as a Unix descriptor keeps the
/// access it was opened with: `escalate ... -- exec 4>/f` lets later
/// writes through fd 4 land, where the fence would otherwise drop them
/// at a flush nobody sees.
pub struct FileWriter {
    vfs: SharedVfs,
    path: VfsPath,
    pending: Vec<u8>,
    opened_under: Option<goccia_vfs::WritePolicy>,
}

const FILE_BATCH: usize = 64 << 10;

impl FileWriter {
    /// Appends to `path` of `vfs`.
    pub fn new(vfs: SharedVfs, path: VfsPath) -> Self {
        FileWriter {
            vfs,
            path,
            pending: Vec::new(),
            opened_under: goccia_vfs::policy::current_scope(),
        }
    }
}

impl Write for FileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= FILE_BATCH {
            self.flush()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let data = std::mem::take(&mut self.pending);
        let _scope = goccia_vfs::policy::Scope::enter_if(self.opened_under.clone());
        self.vfs
            .lock()
            .append_file(&self.path, data)
            .map_err(|error| {
                let kind = match error.errno {
                    goccia_vfs::Errno::NoSpc => io::ErrorKind::StorageFull,
                    goccia_vfs::Errno::IsDir => io::ErrorKind::IsADirectory,
                    goccia_vfs::Errno::NoEnt => io::ErrorKind::NotFound,
                    _ => io::ErrorKind::Other,
                };
                io::Error::new(kind, error.reason())
            })
    }
}

impl Drop for FileWriter {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}
