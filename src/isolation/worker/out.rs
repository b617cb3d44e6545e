//! A worker's frames to its parent, from any thread, one whole frame at a
//! time.

use std::io;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::isolation::wire::{Up, write_frame};

/// Frames to the parent, from any thread, one whole frame at a time (one
/// `write` each: the descriptor itself, not the line-buffered `Stdout`).
#[derive(Clone)]
pub(crate) struct FrameOut(pub(crate) Arc<Mutex<std::fs::File>>);

impl FrameOut {
    /// Sends one message as one frame.
    pub(crate) fn send(&self, message: &Up) -> io::Result<()> {
        write_frame(&mut *self.0.lock(), message)
    }
}
