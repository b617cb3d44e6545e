//! Host memory that guest work takes outside the QuickJS heap (the shell,
//! `jq`, awk), bounded by a ceiling the shell checks wherever it checks
//! the deadline.
//!
//! [`Counting`] is a global allocator that counts live bytes, process-wide
//! and per [`Meter`]: a thread working for a sandbox (its shell session,
//! a pipeline stage, `jq`) enters that sandbox's meter, and what it
//! allocates and frees while inside is the sandbox's. A [`MemoryCeiling`]
//! bounds one meter, so sandboxes running at once in one process never
//! stop each other. The `goccia` binary installs `Counting`; an embedder
//! may (one line, below). Without it, [`live_bytes`] is `None` and no
//! ceiling is ever exceeded: the shell is then bounded by its per-command
//! caps and the deadline only.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};

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
        removed(layout.size());
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            removed(layout.size());
            added(new_size);
        }
        moved
    }
}

/// What a thread knows of its sandbox work, in one thread-local (one
/// lookup per allocation).
struct Local {
    /// The meter this thread's allocations go to (null: none). A raw
    /// pointer: reading it allocates nothing and it has no destructor, as
    /// an allocator needs; [`Metered`] keeps the meter alive while set.
    meter: Cell<*const Meter>,
    /// What this thread charged to `meter` and has not added to it yet:
    /// an atomic add per allocation cost a fifth of a shell loop's time,
    /// so charges are gathered here and added past [`FLUSH_BYTES`], and
    /// whenever the meter changes.
    pending: Cell<isize>,
}

thread_local! {
    static LOCAL: Local = const {
        Local {
            meter: Cell::new(std::ptr::null()),
            pending: Cell::new(0),
        }
    };
}

/// How far a thread's gathered charge may drift before it reaches its
/// meter (each thread's share of the error in [`Meter::net_bytes`]).
const FLUSH_BYTES: isize = 32 << 10;

fn added(size: usize) {
    LIVE.fetch_add(size, Ordering::Relaxed);
    if !INSTALLED.load(Ordering::Relaxed) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
    charge(size as isize);
}

fn removed(size: usize) {
    LIVE.fetch_sub(size, Ordering::Relaxed);
    charge(-(size as isize));
}

fn charge(bytes: isize) {
    // `try_with`: nothing to charge while the thread's locals are torn down.
    let _ = LOCAL.try_with(|local| {
        let meter = local.meter.get();
        if meter.is_null() {
            return;
        }
        let gathered = local.pending.get() + bytes;
        if gathered.abs() >= FLUSH_BYTES {
            // SAFETY: set only by `Meter::enter`, whose guard holds an `Arc`
            // of the meter and flushes and clears the pointer before letting
            // it go.
            unsafe { &*meter }
                .net
                .fetch_add(gathered, Ordering::Relaxed);
            local.pending.set(0);
        } else {
            local.pending.set(gathered);
        }
    });
}

/// Adds this thread's gathered charge to its current meter.
fn flush() {
    LOCAL.with(|local| {
        let meter = local.meter.get();
        let gathered = local.pending.replace(0);
        if !meter.is_null() && gathered != 0 {
            // SAFETY: as in `charge`: the guard that set it is still alive.
            unsafe { &*meter }
                .net
                .fetch_add(gathered, Ordering::Relaxed);
        }
    });
}

/// The allocations of one sandbox's work: bytes allocated minus bytes
/// freed by threads while they were inside it. A block allocated inside
/// and freed outside (or the reverse) counts once, so the figure is what
/// the work took, not an exact inventory of what it still holds.
#[derive(Debug, Default)]
pub struct Meter {
    net: AtomicIsize,
}

impl Meter {
    /// A meter at zero.
    pub fn new() -> Arc<Meter> {
        Arc::new(Meter::default())
    }

    /// Net bytes allocated inside this meter so far: exact for what this
    /// thread charged, within 32 KiB for each other thread working in it.
    pub fn net_bytes(&self) -> isize {
        let own = LOCAL.with(|local| {
            if std::ptr::eq(local.meter.get(), self) {
                local.pending.get()
            } else {
                0
            }
        });
        self.net.load(Ordering::Relaxed) + own
    }

    /// Charges this thread's allocations to `meter` until the guard drops
    /// (the previous meter, if any, then applies again).
    pub fn enter(meter: &Arc<Meter>) -> Metered {
        let held = meter.clone();
        flush();
        let previous = LOCAL.with(|local| local.meter.replace(Arc::as_ptr(&held)));
        Metered {
            previous,
            _held: held,
        }
    }
}

/// While alive, this thread's allocations go to one [`Meter`].
#[must_use = "the meter applies only while the guard lives"]
pub struct Metered {
    previous: *const Meter,
    _held: Arc<Meter>,
}

impl Drop for Metered {
    fn drop(&mut self) {
        // What this guard's meter gathered reaches it before it can go.
        flush();
        // Guards nest on one thread, so the previous one is still alive.
        LOCAL.with(|local| local.meter.set(self.previous));
    }
}

/// Bytes the process's Rust allocations hold now; `None` unless
/// [`Counting`] is the global allocator.
pub fn live_bytes() -> Option<usize> {
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| LIVE.load(Ordering::Relaxed))
}

/// A bound on what one [`Meter`] may take, fixed when a run starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryCeiling {
    /// The meter's net bytes allowed; `isize::MAX` when nothing is counted.
    pub bytes: isize,
}

impl MemoryCeiling {
    /// What `meter` holds now plus `allowance` (no bound without
    /// [`Counting`]).
    pub fn above_now(meter: &Meter, allowance: usize) -> Self {
        let allowance = isize::try_from(allowance).unwrap_or(isize::MAX);
        let bytes = match live_bytes() {
            Some(_) => meter.net_bytes().saturating_add(allowance),
            None => isize::MAX,
        };
        MemoryCeiling { bytes }
    }

    /// True once `meter`, plus `uncounted` bytes the allocator does not
    /// see (a thread's stack), holds more than the ceiling.
    pub fn exceeded_by(&self, meter: &Meter, uncounted: usize) -> bool {
        let uncounted = isize::try_from(uncounted).unwrap_or(isize::MAX);
        self.bytes != isize::MAX && meter.net_bytes().saturating_add(uncounted) > self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_the_counting_allocator_nothing_is_bounded() {
        // Unit tests run on the system allocator.
        assert_eq!(live_bytes(), None);
        let meter = Meter::new();
        let ceiling = MemoryCeiling::above_now(&meter, 0);
        assert_eq!(ceiling.bytes, isize::MAX);
        assert!(!ceiling.exceeded_by(&meter, usize::MAX));
        assert!(MemoryCeiling { bytes: 0 }.exceeded_by(&meter, 1));
    }

    #[test]
    fn guards_nest_and_restore_the_previous_meter() {
        let (outer, inner) = (Meter::new(), Meter::new());
        let a = Meter::enter(&outer);
        {
            let _b = Meter::enter(&inner);
            charge(10);
            assert_eq!(inner.net_bytes(), 10, "this thread's own charge is exact");
        }
        charge(3);
        drop(a);
        charge(100);
        assert_eq!((outer.net_bytes(), inner.net_bytes()), (3, 10));
        // Past the flush threshold a charge reaches the meter for others.
        let c = Meter::enter(&outer);
        charge(FLUSH_BYTES);
        assert_eq!(outer.net.load(Ordering::Relaxed), 3 + FLUSH_BYTES);
        drop(c);
    }
}
