//! A descriptor open for reading and writing (`n<>file`): one offset into
//! a VFS file shared by both directions, as the kernel's would be. Reads
//! see the file as it is now from the offset (the data are the VFS's
//! shared bytes, so looking costs no copy); a write overwrites from the
//! offset, extending the file, and moves the offset past what it wrote.

use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;

use bytes::Bytes;
use goccia_vfs::{SharedVfs, VfsPath};
use parking_lot::Mutex;

struct Open {
    vfs: SharedVfs,
    path: VfsPath,
    offset: usize,
}

/// The reading half.
pub struct RwReader {
    open: Arc<Mutex<Open>>,
    /// The file from the offset, as last looked at.
    seen: Bytes,
}

/// The writing half.
pub struct RwWriter {
    open: Arc<Mutex<Open>>,
}

/// Both halves of `path` opened read-write at offset 0.
pub fn open(vfs: SharedVfs, path: VfsPath) -> (RwReader, RwWriter) {
    let open = Arc::new(Mutex::new(Open {
        vfs,
        path,
        offset: 0,
    }));
    (
        RwReader {
            open: open.clone(),
            seen: Bytes::new(),
        },
        RwWriter { open },
    )
}

fn to_io(error: goccia_vfs::FsError) -> io::Error {
    io::Error::other(error.reason())
}

impl Read for RwReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for RwReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let open = self.open.lock();
        let data = open.vfs.lock().read_file(&open.path).map_err(to_io)?;
        self.seen = data.slice(open.offset.min(data.len())..);
        Ok(&self.seen)
    }

    fn consume(&mut self, amount: usize) {
        self.open.lock().offset += amount;
        self.seen = self.seen.slice(amount.min(self.seen.len())..);
    }
}

impl Write for RwWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut open = self.open.lock();
        let mut vfs = open.vfs.lock();
        let old = vfs.read_file(&open.path).map_err(to_io)?;
        let at = open.offset;
        let mut new = Vec::with_capacity(old.len().max(at + buf.len()));
        new.extend_from_slice(&old[..at.min(old.len())]);
        new.resize(at, 0);
        new.extend_from_slice(buf);
        if old.len() > at + buf.len() {
            new.extend_from_slice(&old[at + buf.len()..]);
        }
        vfs.write_file(&open.path, new).map_err(to_io)?;
        drop(vfs);
        open.offset = at + buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
