//! Guest output: stdout and stderr sinks with one shared byte budget.
//!
//! Output is written as it is produced (never buffered to the end of the
//! run). Every byte a guest emits, directly or through `$` and children,
//! is charged to one [`OutputBudget`]; past `--max-output` the rest is
//! dropped and the caller learns the cap was hit.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::outcome::LimitKind;
use crate::stop::Stop;

/// Which of the two streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// The stop a write past the budget ends with.
const OUTPUT_EXCEEDED: Stop = Stop::Limit(LimitKind::Output);

/// Bytes a run may still write, shared by everything the run starts.
#[derive(Debug)]
pub struct OutputBudget {
    limit: u64,
    used: AtomicU64,
    exceeded: AtomicBool,
}

impl OutputBudget {
    /// A budget of `limit` bytes, shared through the `Arc`.
    pub fn new(limit: u64) -> Arc<Self> {
        Arc::new(OutputBudget {
            limit,
            used: AtomicU64::new(0),
            exceeded: AtomicBool::new(false),
        })
    }

    /// The cap in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes written so far.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// True once any write was cut by the cap.
    pub fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }

    /// Starts over: a session's next run gets the whole budget again.
    pub fn reset(&self) {
        self.used.store(0, Ordering::Relaxed);
        self.exceeded.store(false, Ordering::Relaxed);
    }

    /// Reserves up to `wanted` bytes; returns how many may be written.
    fn reserve(&self, wanted: u64) -> u64 {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let granted = wanted.min(self.limit.saturating_sub(used));
            match self.used.compare_exchange_weak(
                used,
                used + granted,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    if granted < wanted {
                        self.exceeded.store(true, Ordering::Relaxed);
                    }
                    return granted;
                }
                Err(actual) => used = actual,
            }
        }
    }
}

type Sink = Arc<Mutex<dyn Write + Send>>;

/// A pair of output streams plus the budget they draw from.
#[derive(Clone)]
pub struct Output {
    stdout: Sink,
    stderr: Sink,
    budget: Arc<OutputBudget>,
}

/// An in-memory stream, readable after the run (for `--json`, `$` captures
/// and child sandboxes).
#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

impl Capture {
    /// An empty capture.
    pub fn new() -> Self {
        Self::default()
    }
    /// What was written so far; the capture is empty afterwards.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock())
    }
    /// A copy of what was written so far.
    pub fn contents(&self) -> Vec<u8> {
        self.0.lock().clone()
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The process's own stdout/stderr, flushed after every write so output
/// appears as it is produced.
struct ProcessStream(Stream);

impl Write for ProcessStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0 {
            Stream::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(buf)?;
                out.flush()?;
            }
            Stream::Stderr => io::stderr().lock().write_all(buf)?,
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        io::stdout().flush()
    }
}

impl Output {
    /// Output to the process's stdout and stderr.
    pub fn process(budget: Arc<OutputBudget>) -> Self {
        Output {
            stdout: Arc::new(Mutex::new(ProcessStream(Stream::Stdout))),
            stderr: Arc::new(Mutex::new(ProcessStream(Stream::Stderr))),
            budget,
        }
    }

    /// Output captured in memory; returns the two captures.
    pub fn captured(budget: Arc<OutputBudget>) -> (Self, Capture, Capture) {
        let (out, err) = (Capture::new(), Capture::new());
        let output = Output {
            stdout: Arc::new(Mutex::new(out.clone())),
            stderr: Arc::new(Mutex::new(err.clone())),
            budget,
        };
        (output, out, err)
    }

    /// Output to arbitrary writers.
    pub fn to_writers(
        stdout: impl Write + Send + 'static,
        stderr: impl Write + Send + 'static,
        budget: Arc<OutputBudget>,
    ) -> Self {
        Output {
            stdout: Arc::new(Mutex::new(stdout)),
            stderr: Arc::new(Mutex::new(stderr)),
            budget,
        }
    }

    /// The budget every write is charged to.
    pub fn budget(&self) -> &Arc<OutputBudget> {
        &self.budget
    }

    /// Writes `bytes`, cut at the budget; past it, the output-limit
    /// [`Stop`]. Host-side I/O errors (a closed pipe on the host's stdout)
    /// are not the guest's concern and are ignored, except a stop a sink
    /// reports itself (a sink that charges a budget further out, such as
    /// a shell's stdout, or whose shell was cancelled).
    pub fn write(&self, stream: Stream, bytes: &[u8]) -> Result<(), Stop> {
        let granted = self.budget.reserve(bytes.len() as u64) as usize;
        if granted > 0 {
            let sink = match stream {
                Stream::Stdout => &self.stdout,
                Stream::Stderr => &self.stderr,
            };
            if let Err(error) = sink.lock().write_all(&bytes[..granted])
                && let Some(stop) = Stop::in_io(&error)
            {
                return Err(stop);
            }
        }
        if granted < bytes.len() {
            Err(OUTPUT_EXCEEDED)
        } else {
            Ok(())
        }
    }

    /// Writes to stdout; see [`Output::write`].
    pub fn stdout(&self, bytes: &[u8]) -> Result<(), Stop> {
        self.write(Stream::Stdout, bytes)
    }

    /// Writes to stderr; see [`Output::write`].
    pub fn stderr(&self, bytes: &[u8]) -> Result<(), Stop> {
        self.write(Stream::Stderr, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_past_the_cap_is_dropped_and_reported() {
        let budget = OutputBudget::new(10);
        let (output, out, err) = Output::captured(budget.clone());
        assert_eq!(output.stdout(b"hello "), Ok(()));
        assert_eq!(output.stderr(b"world!!"), Err(OUTPUT_EXCEEDED));
        assert_eq!(out.contents(), b"hello ");
        assert_eq!(err.contents(), b"worl");
        assert!(budget.exceeded());
        assert_eq!(output.stdout(b"x"), Err(OUTPUT_EXCEEDED));
        assert_eq!(budget.used(), 10);
    }

    #[test]
    fn clones_share_one_budget() {
        let budget = OutputBudget::new(4);
        let (a, _, _) = Output::captured(budget.clone());
        let (b, _, _) = Output::captured(budget.clone());
        a.stdout(b"ab").unwrap();
        b.stdout(b"cd").unwrap();
        assert!(b.stdout(b"e").is_err());
    }
}
