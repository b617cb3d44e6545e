//! Threads with the stack a shell needs, on which shell calls run in place.
//!
//! A sandbox's shell session lives on a thread of its own with a deep
//! stack ([`STACK`]: its parser and interpreter recurse, and hostile
//! scripts nest deeply); each call is a job handed to that thread. Handing
//! over wakes the session's thread, and the answer wakes the caller: on a
//! virtual machine each wake-up costs tens of microseconds, more than a
//! short command. A caller that is itself on a thread with such a stack —
//! one started with [`spawn`], or one that [`adopt_current`] accepted (the
//! threads of an async runtime built with that stack size) — runs its call
//! in place whenever the session is idle, and no thread is woken. A call
//! that finds the session busy (a job of another caller running or waiting
//! there) is handed over as before, so calls stay in the order they came.
//!
//! Running in place blocks the calling thread for the call, as waiting for
//! the answer would: a caller that must stay free while a call runs (a
//! server reading its next request on that thread, when the call may wait
//! for an answer from that same client) should not be such a thread.

mod lent;

use std::cell::Cell;
use std::thread::JoinHandle;

/// The stack a thread needs to run the shell in place: the shell session
/// thread's own.
pub const STACK: usize = goccia_shell::THREAD_STACK;

thread_local! {
    static DEEP: Cell<bool> = const { Cell::new(false) };
}

/// Starts a thread with a [`STACK`]-deep stack on which shell calls run in
/// place (only touched pages are committed: the size is address space).
pub fn spawn<F, T>(name: &str, body: F) -> std::io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(STACK)
        .spawn(move || {
            DEEP.with(|deep| deep.set(true));
            body()
        })
}

/// Lets shell calls made on this thread run in place, if its stack is at
/// least [`STACK`] deep; says whether it is. For threads started elsewhere
/// with that stack size (an async runtime's workers).
pub fn adopt_current() -> bool {
    let deep = stack_size().is_some_and(|size| size >= STACK);
    DEEP.with(|cell| cell.set(deep));
    deep
}

/// Whether shell calls made on this thread run in place.
pub fn is_current() -> bool {
    DEEP.with(Cell::get)
}

/// Runs `body` as if this thread had been started with [`spawn`]: on a
/// [`STACK`]-deep stack lent to the thread for the call, so shell calls
/// made in `body` run in place when their session is idle (docs/calls.md,
/// "Where a call runs"). For a binding whose callers block on each call
/// from threads of their own (Python's `run_shell`), where handing the call
/// over costs as much as a short command. The stack is mapped on the
/// thread's first `lend` and kept for its next ones.
///
/// What the call calls back (an approver, an output sink) runs on the lent
/// stack too. A runtime that checks its own frames against the thread's
/// stack bounds (CPython from 3.14) may take that for an overflow, so a
/// binding lends only to calls that make no such callbacks. Without
/// address space for the stack, `body` runs where it is and its calls are
/// handed over as before.
///
/// ```
/// let on_lent_stack = std::thread::spawn(|| goccia::deep_stack::lend(goccia::deep_stack::is_current));
/// assert!(on_lent_stack.join().unwrap());
/// assert!(!goccia::deep_stack::is_current());
/// ```
pub fn lend<R>(body: impl FnOnce() -> R) -> R {
    if is_current() {
        return body();
    }
    lent::lend_stack(STACK, |deep| {
        if !deep {
            return body();
        }
        /// Clears the mark however `body` ends.
        struct Unmark;
        impl Drop for Unmark {
            fn drop(&mut self) {
                DEEP.with(|deep| deep.set(false));
            }
        }
        DEEP.with(|cell| cell.set(true));
        let _unmark = Unmark;
        body()
    })
}

/// This thread's stack size, as the thread library knows it.
fn stack_size() -> Option<usize> {
    // SAFETY: `attr` is initialised by `pthread_getattr_np` before it is
    // read, and destroyed once; the calls only read this thread's record.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut size = 0usize;
        let got = libc::pthread_attr_getstacksize(&attr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        (got == 0).then_some(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_thread_with_the_stack_is_deep() {
        let spawned = spawn("deep", is_current).unwrap().join().unwrap();
        assert!(spawned);
        let adopted = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(|| (is_current(), adopt_current(), is_current()))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(adopted, (false, true, true));
        let shallow = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| (adopt_current(), is_current()))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(shallow, (false, false));
    }
}
