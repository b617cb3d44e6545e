//! The session's process table: the utilities running now, with the ids
//! the shell gave them, for `ps`. Builtins run inside the shell and are
//! not listed, as in bash; every utility is, from its start to its end
//! (a pipeline's stages at once, a command substitution's inner ones).
//! It also carries the signals one shell sends another (`sh -c "kill
//! -USR1 $$"`, `( kill -USR1 $$ )`) until the one signalled takes them.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

use parking_lot::Mutex;

/// A running command.
#[derive(Clone, Debug)]
pub struct Process {
    /// Its id (from the same counter as `$$` and `$!`).
    pub pid: u64,
    /// The (sub)shell that started it (`$BASHPID` there).
    pub ppid: u64,
    /// Its words (`argv[0]` is the name it was called by).
    pub argv: Vec<String>,
    /// When it started.
    pub started: SystemTime,
}

/// The table, shared by every shell of a sandbox.
#[derive(Default)]
pub struct Processes {
    running: Mutex<BTreeMap<u64, Process>>,
    /// Signals sent to a shell waiting on the one that sent them: (its
    /// `$BASHPID`, the signal's number), in the order sent.
    posted: Mutex<Vec<(u64, u32)>>,
    /// Whether `posted` holds anything: every command looks, so the
    /// common answer must not take the lock.
    any_posted: AtomicBool,
}

impl Processes {
    /// Lists `process` until the returned guard drops.
    pub(crate) fn enter(self: &Arc<Self>, process: Process) -> Running {
        let pid = process.pid;
        self.running.lock().insert(pid, process);
        Running {
            table: Arc::clone(self),
            pid,
        }
    }

    /// Sends signal `number` to the shell `pid`, which takes it when the
    /// command it waits on has ended.
    pub(crate) fn post_signal(&self, pid: u64, number: u32) {
        self.posted.lock().push((pid, number));
        self.any_posted.store(true, Ordering::Release);
    }

    /// The signals sent to `pid`, oldest first, taken out of the table.
    pub(crate) fn take_signals(&self, pid: u64) -> Vec<u32> {
        if !self.any_posted.load(Ordering::Acquire) {
            return Vec::new();
        }
        let mut posted = self.posted.lock();
        let mut taken = Vec::new();
        posted.retain(|&(to, number)| {
            if to == pid {
                taken.push(number);
            }
            to != pid
        });
        self.any_posted.store(!posted.is_empty(), Ordering::Release);
        taken
    }

    /// What runs now, by id.
    pub fn snapshot(&self) -> Vec<Process> {
        self.running.lock().values().cloned().collect()
    }
}

/// A listed process; dropping it removes the entry.
pub(crate) struct Running {
    table: Arc<Processes>,
    pid: u64,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.table.running.lock().remove(&self.pid);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_listed_while_its_guard_lives() {
        let table = Arc::new(Processes::default());
        let process = |pid| Process {
            pid,
            ppid: 1,
            argv: vec!["sleep".to_string()],
            started: SystemTime::now(),
        };
        let first = table.enter(process(7));
        let second = table.enter(process(3));
        let pids: Vec<u64> = table.snapshot().iter().map(|p| p.pid).collect();
        assert_eq!(pids, vec![3, 7]);
        drop(first);
        assert_eq!(table.snapshot().len(), 1);
        drop(second);
        assert!(table.snapshot().is_empty());
    }

    #[test]
    fn posted_signals_go_to_their_shell_once_in_order() {
        let table = Processes::default();
        assert!(table.take_signals(1).is_empty());
        table.post_signal(1, 10);
        table.post_signal(2, 15);
        table.post_signal(1, 12);
        assert_eq!(table.take_signals(1), vec![10, 12]);
        assert!(table.take_signals(1).is_empty());
        assert_eq!(table.take_signals(2), vec![15]);
    }
}
