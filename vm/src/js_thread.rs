//! Work that answers before it cleans up: a thread of its own sends the
//! answer, starts what comes next (the next spare context), then drops
//! what the work kept (a run's JS heap: docs/calls.md,
//! "Where a call runs"). One such clean-up is in flight in a process at a
//! time ([`Teardown::claim`]), so a caller cannot pile them up.

use std::any::Any;

/// The one clean-up in flight, held by the work that may have it; given
/// back when dropped.
pub(crate) struct Teardown;

/// Whether a clean-up is in flight, and its end announced.
static IN_FLIGHT: parking_lot::Mutex<bool> = parking_lot::Mutex::new(false);
static ENDED: parking_lot::Condvar = parking_lot::Condvar::new();

impl Teardown {
    /// The right to clean up after answering, if no one holds it.
    pub(crate) fn claim() -> Option<Self> {
        let mut in_flight = IN_FLIGHT.lock();
        if *in_flight {
            return None;
        }
        *in_flight = true;
        Some(Teardown)
    }
}

impl Drop for Teardown {
    fn drop(&mut self) {
        *IN_FLIGHT.lock() = false;
        ENDED.notify_all();
    }
}

/// Waits until no run's heap is being freed after its answer: every run
/// that returned before this call has given its heap back.
pub fn wait_for_teardowns() {
    let mut in_flight = IN_FLIGHT.lock();
    while *in_flight {
        ENDED.wait(&mut in_flight);
    }
}

/// What the thread came to: the answer, the work's panic, or the thread
/// not starting (as `spawn` and `join` would say).
pub(crate) type Answered<T> = Result<Result<T, Box<dyn Any + Send>>, std::io::Error>;

/// Where a thread sends its answer: the value, or the work's panic.
pub(crate) type AnswerTo<T> = std::sync::mpsc::SyncSender<Result<T, Box<dyn Any + Send>>>;

/// On this thread: runs `work`, sends its answer, runs `then`, and drops
/// what the work kept. With `teardown` (the claim) the drop comes after
/// the answer, holding the claim until done; without it, before.
pub(crate) fn answer_then_free_here<T, Kept>(
    answer: AnswerTo<T>,
    teardown: Option<Teardown>,
    work: impl FnOnce() -> (T, Kept),
    then: impl FnOnce(),
) {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok((value, kept)) => {
            let mut kept = Some(kept);
            if teardown.is_none() {
                drop(kept.take());
            }
            let _ = answer.send(Ok(value));
            then();
            drop(kept);
        }
        Err(panic) => {
            let _ = answer.send(Err(panic));
            then();
        }
    }
    drop(teardown);
}

/// Receives what a thread answered on the other end of an [`AnswerTo`].
pub(crate) fn receive<T>(
    answered: &std::sync::mpsc::Receiver<Result<T, Box<dyn Any + Send>>>,
) -> Result<T, Box<dyn Any + Send>> {
    answered
        .recv()
        .unwrap_or_else(|_| Err(Box::new("the thread ended without an answer")))
}

/// [`answer_then_free_here`] on a new thread named `name` with `stack`
/// bytes of stack; returns the answer as soon as there is one.
pub(crate) fn answer_then_free<T, Kept>(
    name: &str,
    stack: usize,
    teardown: Option<Teardown>,
    work: impl FnOnce() -> (T, Kept) + Send + 'static,
    then: impl FnOnce() + Send + 'static,
) -> Answered<T>
where
    T: Send + 'static,
{
    let (answer, answered) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(stack)
        .spawn(move || answer_then_free_here(answer, teardown, work, then))?;
    Ok(receive(&answered))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer comes back while what the work kept is still held: the
    /// drop waits on a gate the caller opens only after it has the answer.
    #[test]
    fn the_answer_comes_before_the_clean_up() {
        struct Gate(
            std::sync::mpsc::Receiver<()>,
            std::sync::mpsc::Sender<&'static str>,
        );
        impl Drop for Gate {
            fn drop(&mut self) {
                // Dropped before the answer, the gate is never opened: it
                // says so once it gives up, and the test sees that.
                let opened = self.0.recv_timeout(std::time::Duration::from_secs(10));
                let _ = self.1.send(if opened.is_ok() {
                    "freed"
                } else {
                    "freed before the answer"
                });
            }
        }
        let (open, gate) = std::sync::mpsc::channel();
        let (freed, heard) = std::sync::mpsc::channel();
        // Another test's clean-up may hold the claim for a moment.
        let teardown = loop {
            if let Some(teardown) = Teardown::claim() {
                break teardown;
            }
            wait_for_teardowns();
        };
        let answer = answer_then_free(
            "test",
            1 << 20,
            Some(teardown),
            move || (42, Gate(gate, freed)),
            || {},
        );
        assert_eq!(answer.unwrap().unwrap(), 42);
        assert!(heard.try_recv().is_err(), "freed before the answer");
        open.send(()).unwrap();
        assert_eq!(heard.recv().unwrap(), "freed");
        wait_for_teardowns();
    }

    /// Without the claim, what the work kept is dropped before the answer,
    /// and `then` runs after it either way.
    #[test]
    fn without_the_claim_the_clean_up_comes_first() {
        let (events, heard) = std::sync::mpsc::channel();
        struct Kept(std::sync::mpsc::Sender<&'static str>);
        impl Drop for Kept {
            fn drop(&mut self) {
                let _ = self.0.send("freed");
            }
        }
        let (answer, answered) = std::sync::mpsc::sync_channel(1);
        let (kept, then) = (events.clone(), events.clone());
        answer_then_free_here(
            answer,
            None,
            move || (7, Kept(kept)),
            move || {
                let _ = then.send("then");
            },
        );
        assert_eq!(receive(&answered).unwrap(), 7);
        drop(events);
        assert_eq!(heard.iter().collect::<Vec<_>>(), ["freed", "then"]);
    }

    #[test]
    fn a_panic_is_the_answer_and_the_claim_is_given_back() {
        let teardown = loop {
            if let Some(teardown) = Teardown::claim() {
                break teardown;
            }
            wait_for_teardowns();
        };
        let answer = answer_then_free(
            "test",
            1 << 20,
            Some(teardown),
            || -> (u8, ()) { panic!("boom") },
            || {},
        );
        assert!(answer.unwrap().is_err());
        wait_for_teardowns();
    }
}
