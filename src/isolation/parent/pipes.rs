//! The threads behind a worker's three pipes: one writes the parent's
//! frames to its stdin in order, one reads its frames from stdout (a few
//! ahead at most, so a flooding worker waits on its pipe), and one keeps
//! the tail of its stderr for the crash report.

use std::io::PipeReader;
use std::io::PipeWriter;
use std::io::{BufReader, Read};
use std::sync::{Arc, mpsc};

use parking_lot::Mutex;

use crate::isolation::wire::{Down, FrameError, Up, read_frame, write_frame};

/// The thread that writes frames to the worker, in order.
pub(super) fn writer(mut stdin: PipeWriter) -> mpsc::Sender<Down> {
    let (sender, queue) = mpsc::channel::<Down>();
    std::thread::Builder::new()
        .name("goccia-isolation-writer".into())
        .spawn(move || {
            while let Ok(message) = queue.recv() {
                if write_frame(&mut stdin, &message).is_err() {
                    break;
                }
            }
        })
        .expect("a thread for the worker's stdin");
    sender
}

/// The thread that reads the worker's frames (a few ahead at most, so a
/// flooding worker waits on its pipe instead of filling this process).
pub(super) fn reader(stdout: PipeReader) -> mpsc::Receiver<Result<Up, FrameError>> {
    let (sender, receiver) = mpsc::sync_channel(8);
    std::thread::Builder::new()
        .name("goccia-isolation-reader".into())
        .spawn(move || {
            let mut input = BufReader::with_capacity(64 << 10, stdout);
            loop {
                match read_frame::<_, Up>(&mut input) {
                    Ok(Some(message)) => {
                        if sender.send(Ok(message)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(error) => {
                        let _ = sender.send(Err(error));
                        return;
                    }
                }
            }
        })
        .expect("a thread for the worker's stdout");
    receiver
}

/// Keeps the last 4 KiB the worker wrote on stderr (a panic message), for
/// the crash report.
pub(super) fn tail(mut stderr: PipeReader) -> Arc<Mutex<Vec<u8>>> {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let writer = kept.clone();
    std::thread::Builder::new()
        .name("goccia-isolation-stderr".into())
        .spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                let mut kept = writer.lock();
                kept.extend_from_slice(&buffer[..n]);
                let excess = kept.len().saturating_sub(4096);
                kept.drain(..excess);
            }
        })
        .expect("a thread for the worker's stderr");
    kept
}
