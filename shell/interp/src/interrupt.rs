//! The deadline, reachable from deep inside a command's own loops.
//!
//! A command checks the deadline between its steps through the shell
//! (`check_watch`). Some loops run inside code that has no shell at hand
//! (pattern matching, a diff's alignment, a regex fallback) and can take
//! far longer than the deadline on hostile input. The interpreter installs
//! the running shell's watch in a thread-local before every command; such
//! loops call [`stopped`], which looks at the clock every few thousand
//! calls and, once the watch has stopped, stays stopped. The loop then
//! gives up (its result is discarded: the interpreter's next check of the
//! watch ends the run before another command runs).

use std::cell::{Cell, RefCell};

use goccia_core::Watch;

/// Calls between two looks at the clock.
const POLL_EVERY: u32 = 4096;

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
    static COUNTDOWN: Cell<u32> = const { Cell::new(POLL_EVERY) };
    static TRIPPED: Cell<bool> = const { Cell::new(false) };
}

/// Makes `watch` the one [`stopped`] looks at on this thread.
pub(crate) fn install(watch: &Watch) {
    WATCH.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot
            .as_ref()
            .is_none_or(|current| current.deadline() != watch.deadline())
        {
            *slot = Some(watch.clone());
        }
    });
    TRIPPED.with(|t| t.set(false));
}

/// True once this thread's watch has stopped (the deadline passed, the
/// run was cancelled); cheap enough to call on every step of a loop.
pub fn stopped() -> bool {
    if TRIPPED.with(Cell::get) {
        return true;
    }
    let left = COUNTDOWN.with(|c| {
        let left = c.get().saturating_sub(1);
        c.set(left);
        left
    });
    if left > 0 {
        return false;
    }
    COUNTDOWN.with(|c| c.set(POLL_EVERY));
    let stopped = WATCH.with(|slot| {
        slot.borrow()
            .as_ref()
            .is_some_and(|watch| watch.check().is_err())
    });
    if stopped {
        TRIPPED.with(|t| t.set(true));
    }
    stopped
}

/// [`stopped`], looking at the clock now: for a step that may itself be
/// long (one backtracking regex match).
pub fn stopped_now() -> bool {
    COUNTDOWN.with(|c| c.set(1));
    stopped()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_passed_deadline_is_seen_within_one_poll_and_stays_seen() {
        install(&Watch::new(Duration::from_secs(60)));
        assert!((0..2 * POLL_EVERY).all(|_| !stopped()));
        install(&Watch::new(Duration::ZERO));
        assert!((0..=POLL_EVERY).any(|_| stopped()));
        assert!(stopped(), "sticky");
        install(&Watch::new(Duration::from_secs(60)));
        assert!(!stopped(), "a new watch starts clear");
    }
}
