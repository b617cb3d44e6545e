//! The substitutions a shell has started and not yet waited for: their
//! descriptor numbers, a weak handle on the command's pipe end (once
//! nobody holds it the list sees end of input) and their threads. Kept
//! apart from `procsub` so that `Shell` can hold this table without
//! naming the code that runs substitutions.

use std::sync::{Arc, Weak};
use std::thread::JoinHandle;

use super::ExecResult;
use crate::io::Fd;

/// The substitutions a shell started and has not waited for. A clone
/// (a subshell) starts with none: threads belong to the shell that
/// started them.
#[derive(Default)]
pub(crate) struct Pending {
    pub(super) subs: Vec<Running>,
}

impl Clone for Pending {
    fn clone(&self) -> Self {
        Pending::default()
    }
}

pub(super) struct Running {
    /// The number the command saw.
    pub(super) fd: usize,
    /// The command's end of the pipe: once nobody holds it, the list ends.
    pub(super) end: WeakEnd,
    pub(super) thread: JoinHandle<ExecResult>,
}

pub(super) enum WeakEnd {
    Reader(Weak<parking_lot::Mutex<Box<dyn std::io::BufRead + Send>>>),
    Writer(Weak<parking_lot::Mutex<Box<dyn std::io::Write + Send>>>),
}

impl WeakEnd {
    pub(super) fn of(fd: &Fd) -> WeakEnd {
        match fd {
            Fd::Input(reader, _) | Fd::File { reader, .. } => {
                WeakEnd::Reader(Arc::downgrade(reader))
            }
            Fd::Output(writer, _) | Fd::Both(_, writer) => WeakEnd::Writer(Arc::downgrade(writer)),
            // A substitution's end is a pipe, never nothing.
            Fd::Null => WeakEnd::Reader(Weak::new()),
        }
    }

    pub(super) fn held(&self) -> bool {
        match self {
            WeakEnd::Reader(weak) => weak.strong_count() > 0,
            WeakEnd::Writer(weak) => weak.strong_count() > 0,
        }
    }

    pub(super) fn is(&self, fd: &Fd) -> bool {
        match (self, fd) {
            (WeakEnd::Reader(weak), Fd::Input(reader, _)) => {
                std::ptr::eq(weak.as_ptr(), Arc::as_ptr(reader))
            }
            (WeakEnd::Writer(weak), Fd::Output(writer, _)) => {
                std::ptr::eq(weak.as_ptr(), Arc::as_ptr(writer))
            }
            _ => false,
        }
    }
}
