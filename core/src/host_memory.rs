//! Host memory that guest work takes outside the QuickJS heap (the shell,
//! `jq`, awk), bounded by a ceiling the shell checks wherever it checks
//! the deadline.
//!
//! Rust has no per-task allocation accounting, so the bound is
//! process-wide: [`Counting`] is a global allocator that counts live bytes,
//! and a [`MemoryCeiling`] is "no more than this many live bytes". The
//! `goccia` binary installs `Counting`; an embedder may (one line, below).
//! Without it, [`live_bytes`] is `None` and no ceiling is ever exceeded:
//! the shell is then bounded by its per-command caps and the deadline only.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static LIVE: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting the bytes it holds.
///
/// ```standalone_crate
/// #[global_allocator]
/// static ALLOCATOR: goccia_core::host_memory::Counting = goccia_core::host_memory::Counting;
///
/// let held = vec![0u8; 1 << 20];
/// assert!(goccia_core::host_memory::live_bytes().unwrap() >= 1 << 20);
/// # drop(held);
/// ```
pub struct Counting;

// SAFETY: every call forwards to `System` with the same arguments; the
// counter is bookkeeping only.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            added(layout.size());
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            added(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            added(new_size);
        }
        moved
    }
}

fn added(size: usize) {
    LIVE.fetch_add(size, Ordering::Relaxed);
    if !INSTALLED.load(Ordering::Relaxed) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
}

/// Bytes the process's Rust allocations hold now; `None` unless
/// [`Counting`] is the global allocator.
pub fn live_bytes() -> Option<usize> {
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| LIVE.load(Ordering::Relaxed))
}

/// A bound on the process's live bytes, fixed when a run starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryCeiling {
    /// Live bytes allowed; `usize::MAX` when nothing is counted.
    pub bytes: usize,
}

impl MemoryCeiling {
    /// What is live now plus `allowance` (no bound without [`Counting`]).
    pub fn above_now(allowance: usize) -> Self {
        MemoryCeiling {
            bytes: live_bytes().map_or(usize::MAX, |live| live.saturating_add(allowance)),
        }
    }

    /// True once the process holds more than the ceiling.
    pub fn exceeded(&self) -> bool {
        live_bytes().is_some_and(|live| live > self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_the_counting_allocator_nothing_is_bounded() {
        // Unit tests run on the system allocator.
        assert_eq!(live_bytes(), None);
        let ceiling = MemoryCeiling::above_now(0);
        assert_eq!(ceiling.bytes, usize::MAX);
        assert!(!ceiling.exceeded());
        assert!(!MemoryCeiling { bytes: 0 }.exceeded());
    }
}
