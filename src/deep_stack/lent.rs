//! A deep stack lent to the calling thread for one call: mapped on the
//! thread's first call (address space: only touched pages are committed),
//! switched to for the call, switched back from after it.
//!
//! What guards its recursion by measuring the stack must not run on it:
//! `stacker` reads the thread's own bounds. Nothing of the shell does (it
//! bounds its depth by count; `jq`, which measures, runs on a thread of its
//! own).

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

thread_local! {
    /// This thread's deep stack between calls: mapped on its first
    /// [`lend_stack`], unmapped when the thread ends.
    static KEPT: RefCell<Option<Mapping>> = const { RefCell::new(None) };
    /// The usable range, low to high, of the lent stack this thread is
    /// running on now (kept for the tests, which read where they run).
    static ON_LENT: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// Runs `body` on a deep stack of at least `size` bytes, on this thread.
/// `body` is told whether it got one: `true` on a lent stack (or when this
/// thread already runs on one), `false` when no stack could be mapped
/// (address space exhausted), in which case it runs where it was called
/// and must not recurse deeply. A panic in `body` comes out of `lend_stack`.
///
/// The stack is this thread's from the first call on, and reused: only
/// the pages a call touches are committed, and they stay committed for the
/// next call, as a thread's own stack keeps its touched pages.
pub(crate) fn lend_stack<R>(size: usize, body: impl FnOnce(bool) -> R) -> R {
    if ON_LENT.get().is_some() {
        return body(true);
    }
    let kept = KEPT.take().filter(|mapping| mapping.usable() >= size);
    let mapping = match kept.map_or_else(|| Mapping::new(size), Ok) {
        Ok(mapping) => mapping,
        Err(_) => return body(false),
    };
    let (low, high) = mapping.range();
    ON_LENT.set(Some((low, high)));
    // SAFETY: `low..high` is mapped read-write for the whole call (the
    // mapping is owned here until the call returns), with a guard page
    // below it; the callback does not unwind: a panic is caught inside
    // and resumed only after the switch back.
    let ran = unsafe {
        psm::on_stack(low as *mut u8, high - low, || {
            catch_unwind(AssertUnwindSafe(|| body(true)))
        })
    };
    ON_LENT.set(None);
    KEPT.set(Some(mapping));
    match ran {
        Ok(value) => value,
        Err(payload) => resume_unwind(payload),
    }
}

/// An anonymous mapping for a stack, its lowest page a guard.
struct Mapping {
    base: *mut libc::c_void,
    len: usize,
    guard: usize,
}

impl Mapping {
    fn new(size: usize) -> std::io::Result<Self> {
        // SAFETY: `sysconf` reads a constant of the system.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
            .ok()
            .filter(|&page| page > 0)
            .unwrap_or(4096);
        let usable = size.div_ceil(page) * page;
        let len = usable + page;
        // SAFETY: a fresh private anonymous mapping; nothing else is
        // touched. Reserved as address space only (`MAP_NORESERVE`).
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let mapping = Mapping {
            base,
            len,
            guard: page,
        };
        // SAFETY: the first page of the mapping made above. An overflow
        // faults there instead of running into whatever lies below.
        if unsafe { libc::mprotect(base, page, libc::PROT_NONE) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(mapping)
    }

    fn usable(&self) -> usize {
        self.len - self.guard
    }

    fn range(&self) -> (usize, usize) {
        let low = self.base as usize + self.guard;
        (low, self.base as usize + self.len)
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once; no stack frame
        // lives on it (it is dropped only between calls or at thread exit).
        unsafe {
            libc::munmap(self.base, self.len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEEP: usize = 64 << 20;

    /// Recurses `depth` levels, each holding a 4 KiB frame.
    #[inline(never)]
    fn recurse(depth: usize) -> u64 {
        let frame = std::hint::black_box([depth as u8; 4096]);
        if depth == 0 {
            return u64::from(frame[0]);
        }
        recurse(depth - 1) + u64::from(std::hint::black_box(frame)[17])
    }

    #[test]
    fn a_thread_with_a_small_stack_recurses_deeply_on_a_lent_one() {
        // 1,024 levels of at least 4 KiB each: more than twice the
        // thread's stack (an unoptimised frame holds several copies).
        let joined = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(|| lend_stack(DEEP, |deep| (deep, recurse(1024))))
            .unwrap()
            .join()
            .unwrap();
        assert!(joined.0);
        assert!(joined.1 > 0);
    }

    #[test]
    fn the_stack_is_kept_for_the_next_call_and_nested_calls_stay_on_it() {
        let here = || psm::stack_pointer() as usize;
        let first = lend_stack(DEEP, |_| here());
        let (range, second, nested) = lend_stack(DEEP, |_| {
            let range = ON_LENT.get().unwrap();
            (range, here(), lend_stack(DEEP, |deep| (deep, here())))
        });
        assert!(first.abs_diff(second) < 64 << 10);
        assert!(range.0 < second && second <= range.1);
        assert!(range.1 - range.0 >= DEEP);
        assert!(nested.0 && range.0 < nested.1 && nested.1 < second);
        assert!(!(range.0..=range.1).contains(&here()));
    }

    #[test]
    fn without_address_space_for_the_stack_the_body_runs_where_it_is_told_so() {
        // More address space than any x86-64 or AArch64 process has.
        let (deep, lent) = lend_stack(1 << 60, |deep| (deep, ON_LENT.get()));
        assert!(!deep);
        assert_eq!(lent, None);
        // The thread can still be lent a stack that fits.
        assert!(lend_stack(DEEP, |deep| deep));
    }

    #[test]
    fn a_panic_comes_out_of_lend_and_the_thread_is_back_on_its_own_stack() {
        let caught = catch_unwind(|| lend_stack(DEEP, |_| -> () { panic!("inside") }));
        let payload = caught.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"inside"));
        assert_eq!(ON_LENT.get(), None);
        assert!(lend_stack(DEEP, |deep| deep));
    }
}
