//! One JS heap budget per sandbox tree.
//!
//! Each run has its own QuickJS runtime (a nested `runScript` gets one on
//! its own thread), and each runtime enforces `max_memory` on itself. That
//! alone let a tree of N live runtimes hold N times the limit (7 levels of
//! 400 MB typed arrays held 2.88 GB). Every runtime of a tree therefore
//! allocates through a [`HeapBudget`] shared by the whole tree: an
//! allocation that would take the tree past the limit fails, and QuickJS
//! turns that into its out-of-memory error in whichever runtime asked.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rquickjs::allocator::Allocator;

/// The bytes every live runtime of one sandbox tree may hold together.
/// Cloning shares the budget (a nested run gets a clone of its caller's).
#[derive(Clone, Debug)]
pub struct HeapBudget {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    limit: usize,
    used: AtomicUsize,
}

impl HeapBudget {
    /// A budget of `limit` bytes for a new tree.
    pub fn new(limit: u64) -> Self {
        HeapBudget {
            shared: Arc::new(Shared {
                limit: usize::try_from(limit).unwrap_or(usize::MAX),
                used: AtomicUsize::new(0),
            }),
        }
    }

    /// Bytes the tree's live runtimes hold now.
    pub fn used(&self) -> usize {
        self.shared.used.load(Ordering::Relaxed)
    }

    /// The budget's limit in bytes.
    pub fn limit(&self) -> usize {
        self.shared.limit
    }

    /// An allocator for one more runtime of the tree.
    pub(crate) fn allocator(&self) -> BudgetedAllocator {
        BudgetedAllocator {
            account: Rc::new(Account {
                budget: RefCell::new(self.shared.clone()),
                held: Cell::new(0),
            }),
        }
    }
}

/// One runtime's side of a budget: which budget it draws from, and how
/// much it holds. Single-threaded, as a runtime is.
#[derive(Debug)]
struct Account {
    budget: RefCell<Arc<Shared>>,
    held: Cell<usize>,
}

/// The bytes one runtime's allocator holds now: the runtime's own heap,
/// read without walking it (QuickJS's `JS_ComputeMemoryUsage` visits every
/// object, atom and shape).
#[derive(Clone, Debug)]
pub(crate) struct Held(Rc<Account>);

impl Held {
    /// Bytes held now.
    pub(crate) fn bytes(&self) -> usize {
        self.0.held.get()
    }

    /// Moves the runtime, and what it holds, to `budget`: a spare runtime
    /// prepared on a budget of its own joins the tree it runs for. False,
    /// and nothing moved, when what it holds does not fit there.
    pub(crate) fn move_to(&self, budget: &HeapBudget) -> bool {
        let mut current = self.0.budget.borrow_mut();
        if Arc::ptr_eq(&current, &budget.shared) {
            return true;
        }
        let bytes = self.0.held.get();
        if !budget.shared.take(bytes) {
            return false;
        }
        current.give_back(bytes);
        *current = budget.shared.clone();
        true
    }
}

impl Shared {
    /// Takes `bytes` from the budget, or nothing when they do not fit.
    fn take(&self, bytes: usize) -> bool {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            return false;
        }
        true
    }

    fn give_back(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// The system allocator, charging what each block really holds (its usable
/// size) to the tree's budget.
pub(crate) struct BudgetedAllocator {
    account: Rc<Account>,
}

fn usable(ptr: *mut u8) -> usize {
    // SAFETY: `ptr` came from this module's malloc/calloc/realloc.
    unsafe { libc::malloc_usable_size(ptr.cast()) }
}

// SAFETY: every block comes from the C allocator (malloc, calloc, realloc),
// which aligns to at least 16 bytes, and is freed or resized there;
// `usable_size` is the C allocator's own answer for such a block.
unsafe impl Allocator for BudgetedAllocator {
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if !self.take(size) {
            return std::ptr::null_mut();
        }
        // SAFETY: plain malloc; a null result is handled.
        let ptr = unsafe { libc::malloc(size.max(1)) }.cast::<u8>();
        self.settle(ptr, size)
    }

    fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        let Some(total) = count.checked_mul(size) else {
            return std::ptr::null_mut();
        };
        if !self.take(total) {
            return std::ptr::null_mut();
        }
        // SAFETY: plain calloc; a null result is handled.
        let ptr = unsafe { libc::calloc(count.max(1), size.max(1)) }.cast::<u8>();
        self.settle(ptr, total)
    }

    unsafe fn dealloc(&mut self, ptr: *mut u8) {
        self.give_back(usable(ptr));
        // SAFETY: the caller passes a block of this allocator.
        unsafe { libc::free(ptr.cast()) }
    }

    unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        if ptr.is_null() {
            return self.alloc(new_size);
        }
        if new_size == 0 {
            // SAFETY: as for `dealloc`.
            unsafe { self.dealloc(ptr) };
            return std::ptr::null_mut();
        }
        let old = usable(ptr);
        // Growth is taken before the block moves, so a refusal leaves the
        // block as it was (C's realloc contract).
        let growth = new_size.saturating_sub(old);
        if !self.take(growth) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller passes a block of this allocator.
        let moved = unsafe { libc::realloc(ptr.cast(), new_size) }.cast::<u8>();
        if moved.is_null() {
            self.give_back(growth);
            return moved;
        }
        // The block now holds its usable size instead of `old + growth`.
        let now = usable(moved);
        let charged = old + growth;
        if now > charged {
            // Rounding up by the C allocator: charged even past the limit
            // (a few bytes), since the block exists.
            self.charge_over(now - charged);
        } else {
            self.give_back(charged - now);
        }
        moved
    }

    unsafe fn usable_size(ptr: *mut u8) -> usize {
        usable(ptr)
    }
}

impl BudgetedAllocator {
    /// What this runtime's allocator holds, for the runner to read.
    pub(crate) fn held(&self) -> Held {
        Held(self.account.clone())
    }

    /// Takes `bytes` from the tree's budget for this runtime, or nothing.
    fn take(&self, bytes: usize) -> bool {
        let account = &self.account;
        let taken = account.budget.borrow().take(bytes);
        if taken {
            account.held.set(account.held.get() + bytes);
        }
        taken
    }

    /// Charges `bytes` even past the limit (a block's rounding up).
    fn charge_over(&self, bytes: usize) {
        let account = &self.account;
        account
            .budget
            .borrow()
            .used
            .fetch_add(bytes, Ordering::Relaxed);
        account.held.set(account.held.get() + bytes);
    }

    fn give_back(&self, bytes: usize) {
        let account = &self.account;
        account.budget.borrow().give_back(bytes);
        account.held.set(account.held.get().saturating_sub(bytes));
    }

    /// A new block (or the failure) after `requested` bytes were taken:
    /// the charge becomes the block's usable size.
    fn settle(&self, ptr: *mut u8, requested: usize) -> *mut u8 {
        if ptr.is_null() {
            self.give_back(requested);
            return ptr;
        }
        let now = usable(ptr);
        if now > requested {
            self.charge_over(now - requested);
        } else {
            self.give_back(requested - now);
        }
        ptr
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_charged_and_given_back() {
        let budget = HeapBudget::new(1 << 20);
        let mut a = budget.allocator();
        let p = a.alloc(1000);
        assert!(!p.is_null());
        assert!(budget.used() >= 1000);
        let p = unsafe { a.realloc(p, 5000) };
        assert!(!p.is_null());
        assert!(budget.used() >= 5000);
        unsafe { a.dealloc(p) };
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn each_allocator_knows_what_it_holds() {
        let budget = HeapBudget::new(1 << 20);
        let (mut a, mut b) = (budget.allocator(), budget.allocator());
        let (held_a, held_b) = (a.held(), b.held());
        let p = a.alloc(1000);
        let q = b.alloc(3000);
        assert!(held_a.bytes() >= 1000 && held_a.bytes() < 3000);
        assert_eq!(held_a.bytes() + held_b.bytes(), budget.used());
        let p = unsafe { a.realloc(p, 8000) };
        assert!(held_a.bytes() >= 8000);
        unsafe { a.dealloc(p) };
        assert_eq!(held_a.bytes(), 0);
        assert_eq!(held_b.bytes(), budget.used());
        unsafe { b.dealloc(q) };
        assert_eq!(held_b.bytes(), 0);
    }

    /// A spare runtime's heap leaves the budget it was prepared on for the
    /// tree it joins, and what it frees later is given back there.
    #[test]
    fn a_runtime_moves_with_what_it_holds() {
        let (spare, tree) = (HeapBudget::new(1 << 20), HeapBudget::new(1 << 20));
        let mut a = spare.allocator();
        let held = a.held();
        let p = a.alloc(1000);
        assert!(held.move_to(&tree));
        assert_eq!(spare.used(), 0);
        assert_eq!(tree.used(), held.bytes());
        let q = a.alloc(500);
        assert_eq!(tree.used(), held.bytes());
        unsafe {
            a.dealloc(p);
            a.dealloc(q);
        }
        assert_eq!((spare.used(), tree.used()), (0, 0));
        // A heap that does not fit in the tree stays where it was.
        let small = HeapBudget::new(100);
        let r = a.alloc(1000);
        assert!(!held.move_to(&small));
        assert_eq!((small.used(), tree.used()), (0, held.bytes()));
        unsafe { a.dealloc(r) };
    }

    #[test]
    fn every_allocator_of_a_tree_draws_from_one_budget() {
        let budget = HeapBudget::new(64 << 10);
        let (mut parent, mut child) = (budget.allocator(), budget.clone().allocator());
        let held = parent.alloc(40 << 10);
        assert!(!held.is_null());
        assert!(child.alloc(40 << 10).is_null(), "the tree is over budget");
        let zeroed = child.calloc(10, 1 << 10);
        assert!(!zeroed.is_null());
        // A refused growth leaves the block as it was.
        let same = unsafe { child.realloc(zeroed, 60 << 10) };
        assert!(same.is_null());
        assert_eq!(unsafe { *zeroed }, 0);
        unsafe {
            child.dealloc(zeroed);
            parent.dealloc(held);
        }
        assert_eq!(budget.used(), 0);
        assert_eq!(budget.limit(), 64 << 10);
    }
}
