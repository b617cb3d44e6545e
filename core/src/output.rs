//! Guest output: stdout and stderr sinks with one shared byte budget.
//!
//! Output is written as it is produced (never buffered to the end of the
//! run). Every byte a guest emits, directly or through `$` and children,
//! is charged to one [`OutputBudget`]; past `--max-output` the rest is
//! dropped and the caller learns the cap was hit ([`Overflow::Fail`]), or
//! the first half is kept as written, the last half held back, and the
//! middle replaced by one line when the run ends ([`Overflow::Truncate`]).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::limits::Overflow;
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
pub struct OutputBudget {
    limit: u64,
    used: AtomicU64,
    exceeded: AtomicBool,
    overflow: Overflow,
    /// With [`Overflow::Truncate`]: the last bytes past the first half.
    tail: Mutex<Tail>,
    /// Whether truncate mode dropped anything from the middle.
    truncated: AtomicBool,
}

impl std::fmt::Debug for OutputBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutputBudget")
            .field("limit", &self.limit)
            .field("used", &self.used())
            .field("overflow", &self.overflow)
            .finish_non_exhaustive()
    }
}

/// The output held back in truncate mode, each chunk with its sink, and
/// what was dropped from its front.
#[derive(Default)]
struct Tail {
    chunks: VecDeque<(Sink, Vec<u8>)>,
    held: u64,
    omitted: u64,
    /// Where the marker line goes: the sink of the first byte dropped.
    marker_sink: Option<Sink>,
    /// Whether the head written so far ends a line (the marker then needs
    /// no newline of its own first).
    head_ends_line: bool,
}

impl OutputBudget {
    /// A budget of `limit` bytes that fails the run past it.
    pub fn new(limit: u64) -> Arc<Self> {
        OutputBudget::with_overflow(limit, Overflow::Fail)
    }

    /// A fresh budget of [`Limits::max_output`](crate::Limits::max_output)
    /// bytes that behaves as
    /// [`Limits::output_overflow`](crate::Limits::output_overflow) says.
    pub fn for_limits(limits: &crate::Limits) -> Arc<Self> {
        OutputBudget::with_overflow(limits.max_output, limits.output_overflow)
    }

    /// A budget of `limit` bytes with the given behaviour past it.
    pub fn with_overflow(limit: u64, overflow: Overflow) -> Arc<Self> {
        Arc::new(OutputBudget {
            limit,
            used: AtomicU64::new(0),
            exceeded: AtomicBool::new(false),
            overflow,
            tail: Mutex::new(Tail::default()),
            truncated: AtomicBool::new(false),
        })
    }

    /// True once output was dropped from the middle (truncate mode).
    pub fn truncated(&self) -> bool {
        self.truncated.load(Ordering::Relaxed)
    }

    /// Writes what truncate mode held back: the marker line (if anything
    /// was dropped) to the sink of the first dropped byte, then the kept
    /// tail, each chunk to its own sink. Call it when the run ends; a
    /// no-op otherwise.
    pub fn finish(&self) {
        let tail = std::mem::take(&mut *self.tail.lock());
        if let Some(sink) = &tail.marker_sink {
            let newline = if tail.head_ends_line { "" } else { "\n" };
            let marker = format!(
                "{newline}[goccia: {} bytes of output omitted]\n",
                tail.omitted
            );
            let _ = sink.lock().write_all(marker.as_bytes());
        }
        for (sink, bytes) in tail.chunks {
            let _ = sink.lock().write_all(&bytes);
        }
    }

    /// Truncate mode: keeps `bytes` (bound for `sink`) among the last half
    /// of the budget, dropping the oldest held bytes past it.
    fn hold(&self, sink: &Sink, bytes: &[u8]) {
        let capacity = self.limit - self.limit / 2;
        let mut tail = self.tail.lock();
        tail.chunks.push_back((sink.clone(), bytes.to_vec()));
        tail.held += bytes.len() as u64;
        while tail.held > capacity {
            let excess = tail.held - capacity;
            let (front_sink, front) = tail.chunks.front_mut().expect("held bytes are in chunks");
            let dropped = excess.min(front.len() as u64);
            let first_sink = front_sink.clone();
            if dropped as usize == front.len() {
                tail.chunks.pop_front();
            } else {
                front.drain(..dropped as usize);
            }
            tail.held -= dropped;
            tail.omitted += dropped;
            tail.marker_sink.get_or_insert(first_sink);
            self.truncated.store(true, Ordering::Relaxed);
        }
    }

    /// The cap in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// What happens past the cap.
    pub fn overflow(&self) -> Overflow {
        self.overflow
    }

    /// Bytes a run may still write before the cap.
    pub fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.used())
    }

    /// Records that output was dropped from the middle elsewhere (an
    /// isolated worker truncated the run's output under its own copy of
    /// this budget).
    pub fn note_truncated(&self) {
        self.truncated.store(true, Ordering::Relaxed);
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
        *self.tail.lock() = Tail::default();
        self.truncated.store(false, Ordering::Relaxed);
    }

    /// Reserves up to `wanted` bytes; returns how many may be written as
    /// produced (in truncate mode, only the first half of the budget).
    fn reserve(&self, wanted: u64) -> u64 {
        let head = match self.overflow {
            Overflow::Fail => self.limit,
            Overflow::Truncate => self.limit / 2,
        };
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            let granted = wanted.min(head.saturating_sub(used));
            match self.used.compare_exchange_weak(
                used,
                used + granted,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    if granted < wanted && self.overflow == Overflow::Fail {
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
        let sink = match stream {
            Stream::Stdout => &self.stdout,
            Stream::Stderr => &self.stderr,
        };
        if granted > 0
            && let Err(error) = sink.lock().write_all(&bytes[..granted])
            && let Some(stop) = Stop::in_io(&error)
        {
            return Err(stop);
        }
        if self.budget.overflow == Overflow::Truncate && granted > 0 {
            self.budget.tail.lock().head_ends_line = bytes[granted - 1] == b'\n';
        }
        if granted == bytes.len() {
            return Ok(());
        }
        match self.budget.overflow {
            Overflow::Fail => Err(OUTPUT_EXCEEDED),
            Overflow::Truncate => {
                self.budget.hold(sink, &bytes[granted..]);
                Ok(())
            }
        }
    }

    /// Writes `bytes` that another process already cut to its copy of
    /// this budget (an isolated worker's output, docs/isolation.md): charged to
    /// the budget, never refused or held back here. The caller bounds
    /// what it relays.
    pub fn relay(&self, stream: Stream, bytes: &[u8]) -> Result<(), Stop> {
        self.budget
            .used
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let sink = match stream {
            Stream::Stdout => &self.stdout,
            Stream::Stderr => &self.stderr,
        };
        match sink.lock().write_all(bytes) {
            Err(error) => Stop::in_io(&error).map_or(Ok(()), Err),
            Ok(()) => Ok(()),
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
    fn truncation_keeps_both_ends_and_counts_the_middle() {
        let budget = OutputBudget::with_overflow(10, Overflow::Truncate);
        let (output, out, err) = Output::captured(budget.clone());
        output.stdout(b"abc").unwrap();
        output.stderr(b"de").unwrap();
        output.stdout(b"0123456789").unwrap();
        output.stderr(b"XY").unwrap();
        assert!(budget.truncated());
        // The head (5 bytes) is written as produced; the tail waits.
        assert_eq!(
            (out.contents(), err.contents()),
            (b"abc".to_vec(), b"de".to_vec())
        );
        budget.finish();
        assert!(budget.truncated(), "still known after the tail is written");
        // 17 bytes: 5 head, 5 tail ("789" on stdout, "XY" on stderr), 7 omitted.
        assert_eq!(
            String::from_utf8(out.contents()).unwrap(),
            "abc\n[goccia: 7 bytes of output omitted]\n789"
        );
        assert_eq!(err.contents(), b"deXY");
        assert_eq!("truncate".parse::<Overflow>(), Ok(Overflow::Truncate));
        assert!("drop".parse::<Overflow>().is_err());
    }

    #[test]
    fn truncation_that_omits_nothing_writes_no_marker() {
        let budget = OutputBudget::with_overflow(10, Overflow::Truncate);
        let (output, out, _) = Output::captured(budget.clone());
        output.stdout(b"0123456789").unwrap();
        budget.finish();
        assert!(!budget.truncated());
        assert_eq!(out.contents(), b"0123456789");
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
