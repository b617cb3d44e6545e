//! GOCCIA PATCH: cooperative interruption (not part of upstream jaq-core).
//!
//! An embedder running untrusted filters installs a check with
//! [`set_check`]; the interpreter calls it every [`CHECK_EVERY`] term
//! evaluations and, once it returns `true`, ends the run with an
//! uncatchable halt (`try`, `?` and `//` do not stop it). [`take`] tells the
//! embedder that the halt came from the check and not from `halt/1`.
//!
//! Every tick also measures the native stack: a filter that recurses
//! without bound (`def f: 1 + f; f`) halts the same way once less than
//! [`STACK_RESERVE`] bytes are left, instead of overflowing the thread.

use alloc::boxed::Box;
use core::cell::{Cell, RefCell};

/// How many evaluations pass between two calls of the check.
pub const CHECK_EVERY: u32 = 64;

/// The exit code carried by an interruption halt.
pub const HALT_CODE: i32 = i32::MIN;

/// The exit code carried by a halt for lack of stack.
pub const STACK_HALT_CODE: i32 = i32::MIN + 1;

/// Stack that must be left for a tick to let evaluation go deeper.
pub const STACK_RESERVE: usize = 512 << 10;

type Check = Box<dyn Fn() -> bool>;

std::thread_local! {
    static CHECK: RefCell<Option<Check>> = const { RefCell::new(None) };
    static COUNTDOWN: Cell<u32> = const { Cell::new(CHECK_EVERY) };
    static TRIPPED: Cell<bool> = const { Cell::new(false) };
}

/// Installs (or with `None` removes) this thread's interruption check.
pub fn set_check(check: Option<Check>) {
    CHECK.with(|slot| *slot.borrow_mut() = check);
    COUNTDOWN.with(|c| c.set(CHECK_EVERY));
    TRIPPED.with(|t| t.set(false));
}

/// Whether an interruption ended the last run on this thread (and clears it).
pub fn take() -> bool {
    TRIPPED.with(|t| t.replace(false))
}

/// Counts one evaluation; the halt code when the run must stop.
#[inline]
pub(crate) fn tick() -> Option<i32> {
    if stacker::remaining_stack().is_some_and(|left| left < STACK_RESERVE) {
        return Some(STACK_HALT_CODE);
    }
    stopped().then_some(HALT_CODE)
}

fn stopped() -> bool {
    let left = COUNTDOWN.with(|c| {
        let left = c.get().saturating_sub(1);
        c.set(left);
        left
    });
    if left > 0 {
        return TRIPPED.with(Cell::get);
    }
    COUNTDOWN.with(|c| c.set(CHECK_EVERY));
    let stop = CHECK.with(|slot| slot.borrow().as_ref().is_some_and(|check| check()));
    if stop {
        TRIPPED.with(|t| t.set(true));
    }
    stop || TRIPPED.with(Cell::get)
}
