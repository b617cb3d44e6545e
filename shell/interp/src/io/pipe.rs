//! Pipes between pipeline stages, as the kernel's behave: a pipe holds at
//! most 64 KiB (a writer with more waits until the reader takes some), a
//! write after the reader has gone fails with `BrokenPipe` (the command
//! then ends with 141, as with SIGPIPE), and every wait checks the
//! deadline. Data travels in chunks of at most 64 KiB, so one large write
//! never copies more than the pipe holds.

use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use goccia_core::Watch;
use parking_lot::{Condvar, Mutex};

use super::{read_buffered, watch_error};

/// What a pipe holds before its writer waits: Linux's default.
pub const PIPE_CAPACITY: usize = 64 << 10;
/// How often a waiting end looks at the deadline.
const POLL: Duration = Duration::from_millis(20);

/// The bytes in the pipe and whether its reader is gone, shared by the
/// two ends.
#[derive(Default)]
struct Level {
    state: Mutex<LevelState>,
    changed: Condvar,
}

#[derive(Default)]
struct LevelState {
    buffered: usize,
    reader_gone: bool,
}

/// A bounded pipe between two pipeline stages.
pub fn pipe(watch: &Watch) -> (PipeWriter, PipeReader) {
    let (tx, rx) = unbounded();
    let level = Arc::new(Level::default());
    (
        PipeWriter {
            tx,
            level: level.clone(),
            watch: watch.clone(),
        },
        PipeReader {
            rx,
            level,
            chunk: Vec::new(),
            pos: 0,
            watch: watch.clone(),
            done: false,
        },
    )
}

/// The writing end of a pipe.
pub struct PipeWriter {
    tx: Sender<Vec<u8>>,
    level: Arc<Level>,
    watch: Watch,
}

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let len = buf.len().min(PIPE_CAPACITY);
        {
            let mut state = self.level.state.lock();
            loop {
                if state.reader_gone {
                    return Err(io::ErrorKind::BrokenPipe.into());
                }
                // Room for all of it, or an empty pipe (a write of up to a
                // whole pipe's worth always goes in).
                if state.buffered == 0 || state.buffered + len <= PIPE_CAPACITY {
                    state.buffered += len;
                    break;
                }
                self.level.changed.wait_for(&mut state, POLL);
                if let Some(error) = watch_error(&self.watch) {
                    return Err(error);
                }
            }
        }
        match self.tx.send(buf[..len].to_vec()) {
            Ok(()) => Ok(len),
            Err(_) => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The reading end of a pipe.
pub struct PipeReader {
    rx: Receiver<Vec<u8>>,
    level: Arc<Level>,
    chunk: Vec<u8>,
    pos: usize,
    watch: Watch,
    done: bool,
}

impl Read for PipeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl BufRead for PipeReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.chunk.len() && !self.done {
            match self.rx.recv_timeout(POLL) {
                Ok(chunk) => {
                    // Taken out of the pipe: the writer may put more in.
                    let mut state = self.level.state.lock();
                    state.buffered -= chunk.len();
                    self.level.changed.notify_one();
                    drop(state);
                    self.chunk = chunk;
                    self.pos = 0;
                }
                Err(RecvTimeoutError::Disconnected) => self.done = true,
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(error) = watch_error(&self.watch) {
                        return Err(error);
                    }
                }
            }
        }
        Ok(&self.chunk[self.pos.min(self.chunk.len())..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos += amt;
    }
}

impl Drop for PipeReader {
    fn drop(&mut self) {
        self.level.state.lock().reader_gone = true;
        self.level.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pipe_holds_64_kib_and_a_write_after_the_reader_left_is_broken() {
        let watch = Watch::new(Duration::from_secs(60));
        let (mut writer, mut reader) = pipe(&watch);
        writer.write_all(&vec![b'x'; PIPE_CAPACITY]).unwrap();
        let blocked = std::thread::spawn(move || {
            // A full pipe: this waits until the reader takes the first 64 KiB.
            let wrote = writer.write_all(&[b'y'; 10]);
            (writer, wrote)
        });
        let mut first = vec![0u8; PIPE_CAPACITY];
        reader.read_exact(&mut first).unwrap();
        let (mut writer, wrote) = blocked.join().unwrap();
        wrote.unwrap();
        drop(reader);
        let error = writer.write_all(b"z").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
