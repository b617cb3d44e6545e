//! The spare context: between an embedder's top-level runs, the next run's
//! runtime and context are made, and its globals installed, on a thread of
//! their own, so a run starts at its entry (docs/calls.md, "Where a call
//! runs").
//!
//! One spare per process, made for one [`Fit`] (the limits a runtime is
//! built with); a run with other limits makes its own, and the next spare
//! is made for those. A spare serves one run and ends: the thread that ran
//! it answers, frees the run's heap, and starts the next spare on a new
//! thread. No run can see another's state: each gets a runtime, a context
//! and a thread in which no guest code ran before it.
//!
//! A one-shot command line (`RunRequest::leave_heap_to_exit`) and nested
//! runs never make one: nothing would take it.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SendError, SyncSender, sync_channel};

use goccia_core::Limits;

/// Native stack beyond the JS stack limit, for the host's own frames.
pub(crate) const STACK_HEADROOM: usize = 16 << 20;

/// The limits a runtime is made with: a spare fits the runs that share
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fit {
    pub(crate) max_memory: u64,
    pub(crate) stack_size: u64,
}

impl Fit {
    pub(crate) fn of(limits: &Limits) -> Self {
        Fit {
            max_memory: limits.max_memory,
            stack_size: limits.stack_size,
        }
    }

    /// The native stack of a run's thread: the JS stack and the host's
    /// frames.
    pub(crate) fn thread_stack(self) -> usize {
        self.stack_size as usize + STACK_HEADROOM
    }
}

/// What is handed to a spare's thread: the runner's own job, which only
/// the runner's thread body opens.
pub(crate) type Message = Box<dyn Any + Send>;

/// The process's spare, if any. `promised`: a run is waiting for this one;
/// it is that run's, and other runs make their own.
enum Slot {
    Empty,
    /// Being made for these limits: the first run that fits waits for it,
    /// which is never longer than making its own.
    Preparing {
        fit: Fit,
        promised: bool,
    },
    /// Made, its thread waiting for one message.
    Ready {
        fit: Fit,
        spare: SyncSender<Message>,
        promised: bool,
    },
}

static SLOT: parking_lot::Mutex<Slot> = parking_lot::Mutex::new(Slot::Empty);
static CHANGED: parking_lot::Condvar = parking_lot::Condvar::new();
static SERVED: AtomicU64 = AtomicU64::new(0);

/// How many runs have started in a spare context in this process (for
/// tests and benchmarks).
pub fn spares_served() -> u64 {
    SERVED.load(Ordering::Relaxed)
}

/// Hands `message` to the spare made for `fit`, or to the one being made
/// for it if no other run is waiting for that; gives the message back when
/// there is none for it.
pub(crate) fn hand_over(fit: Fit, message: Message) -> Result<(), Message> {
    let mut slot = SLOT.lock();
    match &mut *slot {
        Slot::Ready {
            fit: ready,
            promised: false,
            ..
        } if *ready == fit => {}
        Slot::Preparing {
            fit: coming,
            promised,
        } if *coming == fit && !*promised => {
            *promised = true;
            loop {
                CHANGED.wait(&mut slot);
                match &*slot {
                    Slot::Preparing { fit: coming, .. } if *coming == fit => continue,
                    Slot::Ready { fit: ready, .. } if *ready == fit => break,
                    _ => return Err(message),
                }
            }
        }
        _ => return Err(message),
    }
    let Slot::Ready { spare, .. } = std::mem::replace(&mut *slot, Slot::Empty) else {
        unreachable!("matched as ready")
    };
    drop(slot);
    spare.send(message).map_err(|SendError(message)| message)
}

/// Starts making a spare for `fit` on a new thread that runs `serve`,
/// unless one is ready for it or one is being made. A ready spare of
/// other limits is let go (its thread ends).
pub(crate) fn start(fit: Fit, serve: fn(Waiting)) {
    {
        let mut slot = SLOT.lock();
        match &*slot {
            Slot::Preparing { .. } | Slot::Ready { promised: true, .. } => return,
            Slot::Ready { fit: ready, .. } if *ready == fit => return,
            Slot::Empty | Slot::Ready { .. } => {
                *slot = Slot::Preparing {
                    fit,
                    promised: false,
                }
            }
        }
    }
    let spawned = std::thread::Builder::new()
        .name("goccia-js".to_string())
        .stack_size(fit.thread_stack())
        .spawn(move || serve(Waiting { fit }));
    if spawned.is_err() {
        Waiting { fit }.give_up();
    }
}

/// A spare's thread, while it makes its context.
pub(crate) struct Waiting {
    fit: Fit,
}

impl Waiting {
    /// The limits to make the context with.
    pub(crate) fn fit(&self) -> Fit {
        self.fit
    }

    /// No spare after all: runs waiting for it make their own.
    pub(crate) fn give_up(self) {
        let mut slot = SLOT.lock();
        if matches!(*slot, Slot::Preparing { fit, .. } if fit == self.fit) {
            *slot = Slot::Empty;
        }
        CHANGED.notify_all();
    }

    /// The context is made: waits for the one message the spare serves,
    /// or `None` when it is let go (its context is then dropped).
    pub(crate) fn ready(self) -> Option<Message> {
        let (spare, handed): (_, Receiver<Message>) = sync_channel(1);
        {
            let mut slot = SLOT.lock();
            let Slot::Preparing { fit, promised } = *slot else {
                return None;
            };
            if fit != self.fit {
                return None;
            }
            *slot = Slot::Ready {
                fit,
                spare,
                promised,
            };
            CHANGED.notify_all();
        }
        let message = handed.recv().ok()?;
        SERVED.fetch_add(1, Ordering::Relaxed);
        Some(message)
    }
}
