//! The deadline and cancellation a running guest is checked against.
//!
//! QuickJS polls its interrupt handler only while it interprets; while JS
//! waits on the host nothing polls. So every host call (fs operation, shell
//! loop iteration, `sleep`, child seeding) calls [`Watch::check`] itself.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::stop::Stop;

/// A flag the host raises to stop running guest work.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token not yet cancelled.
    pub fn new() -> Self {
        Self::default()
    }
    /// Cancels the work watching this token (from any thread).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
    /// Lowers the flag again, for the next piece of work.
    pub fn reset(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
    /// True once [`CancelToken::cancel`] was called (and not reset).
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Who set a watch's deadline, so a message can say which setting to
/// raise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadlineSource {
    /// The sandbox's limit ([`Limits::timeout`](crate::Limits::timeout)).
    #[default]
    Limit,
    /// The call's own timeout, given with the call.
    Call,
}

/// Deadline plus cancellation. Cheap to clone and to check (~20 ns).
#[derive(Clone, Debug)]
pub struct Watch {
    deadline: Instant,
    cancel: CancelToken,
    /// The time the work was given, as a message states it.
    allowed: Duration,
    source: DeadlineSource,
}

impl Watch {
    /// A watch whose deadline is `timeout` from now, with a token of its own.
    pub fn new(timeout: Duration) -> Self {
        Watch::with_cancel(timeout, CancelToken::new())
    }

    /// A watch whose deadline is `timeout` from now, cancelled by `cancel`.
    pub fn with_cancel(timeout: Duration, cancel: CancelToken) -> Self {
        Watch {
            deadline: Instant::now() + timeout,
            cancel,
            allowed: timeout,
            source: DeadlineSource::Limit,
        }
    }

    /// The same watch, its deadline said to be `allowed` set by `source`
    /// (a worker enforces what remains of its parent's call, and states the
    /// time the call was given).
    pub fn stated(mut self, allowed: Duration, source: DeadlineSource) -> Self {
        self.allowed = allowed;
        self.source = source;
        self
    }

    /// A watch for nested work: its deadline is the earlier of this one's and
    /// `now + timeout`, and it shares this watch's cancellation.
    pub fn narrowed(&self, timeout: Option<Duration>) -> Self {
        let (deadline, allowed) = match timeout {
            Some(t) if Instant::now() + t < self.deadline => (Instant::now() + t, t),
            _ => (self.deadline, self.allowed),
        };
        Watch {
            deadline,
            cancel: self.cancel.clone(),
            allowed,
            source: self.source,
        }
    }

    /// The time the work was given (what "the deadline of N ms" states).
    pub fn allowed(&self) -> Duration {
        self.allowed
    }

    /// Who set the deadline.
    pub fn source(&self) -> DeadlineSource {
        self.source
    }

    /// When the work must stop.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Time left before the deadline (zero once it passed).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The token that cancels this watch's work.
    pub fn cancel_token(&self) -> &CancelToken {
        &self.cancel
    }

    /// `Err` once the deadline has passed or the work was cancelled.
    pub fn check(&self) -> Result<(), Stop> {
        if self.cancel.is_cancelled() {
            Err(Stop::Cancelled)
        } else if Instant::now() >= self.deadline {
            Err(Stop::DEADLINE)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_stops() {
        let watch = Watch::new(Duration::ZERO);
        assert_eq!(watch.check(), Err(Stop::DEADLINE));
    }

    #[test]
    fn cancellation_stops_and_is_shared_with_narrowed_watches() {
        let watch = Watch::new(Duration::from_secs(60));
        let child = watch.narrowed(Some(Duration::from_secs(120)));
        assert!(
            child.deadline() <= watch.deadline(),
            "a child never outlives its parent"
        );
        assert_eq!(child.check(), Ok(()));
        watch.cancel_token().cancel();
        assert_eq!(child.check(), Err(Stop::Cancelled));
    }

    #[test]
    fn narrowing_takes_the_earlier_deadline() {
        let watch = Watch::new(Duration::from_secs(60));
        let child = watch.narrowed(Some(Duration::from_millis(1)));
        assert!(child.remaining() <= Duration::from_millis(1));
    }
}
