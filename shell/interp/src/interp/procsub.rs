//! Process substitution, `<(list)` and `>(list)`: the list runs in a
//! subshell on its own thread, connected to the command by a bounded pipe
//! that the command sees as `/dev/fd/N` (63 downward, as bash numbers
//! them). After the command, its substitutions' descriptors are closed;
//! a substitution whose pipe end nobody else holds then sees end of input
//! (or a broken pipe) and is waited for, so its output and effects come
//! before the next command. One whose end lives on (`exec 3< <(list)`)
//! keeps running until that descriptor closes, and is waited for when
//! the shell ends.

use std::sync::Arc;

use super::substitutions::{Running, WeakEnd};
use super::{Flow, Shell};
use crate::ast::List;
use crate::io::{Fd, pipe};

/// The stack each substitution's thread gets (as a pipeline stage's).
const SUBSTITUTION_STACK: usize = 64 << 20;

impl Shell {
    /// How many substitutions are pending: the mark a command takes
    /// before expanding its words.
    pub(crate) fn substitutions_mark(&self) -> usize {
        self.procsubs.subs.len()
    }

    /// Starts `<(list)` (`input`) or `>(list)` and returns the name the
    /// command sees.
    pub(crate) fn process_substitution(
        &mut self,
        input: bool,
        list: &Arc<List>,
    ) -> Result<String, Flow> {
        let reservation = self.ctx.reserve_stages(1)?;
        let (writer, reader) = pipe(&self.watch);
        let mut sub = self.subshell();
        let ours = if input {
            sub.fds.set(1, Fd::pipe_writer(writer));
            Fd::pipe_reader(reader)
        } else {
            sub.fds.set(0, Fd::pipe_reader(reader));
            Fd::pipe_writer(writer)
        };
        let fd = self.fds.free_downward_from(63);
        let end = WeakEnd::of(&ours);
        self.fds.set(fd, ours);
        let list = list.clone();
        let policy_scope = goccia_vfs::policy::current_scope();
        let thread = std::thread::Builder::new()
            .name("goccia-shell-procsub".to_string())
            .stack_size(SUBSTITUTION_STACK)
            .spawn(move || {
                let _reservation = reservation;
                let mut sub = sub;
                let _metered = sub.context().metered();
                let _policy = goccia_vfs::policy::Scope::enter_if(policy_scope);
                let result = match sub.run_list(&list) {
                    Err(Flow::Exit(status))
                    | Err(Flow::Return(status))
                    | Err(Flow::Abandon(status))
                    | Err(Flow::Discard(status)) => Ok(status),
                    Err(Flow::Break { .. }) | Err(Flow::Continue { .. }) => Ok(sub.status),
                    other => other,
                };
                // Close this list's pipe end before reporting.
                drop(sub);
                result
            })
            .map_err(|_| {
                Flow::Stop(goccia_core::Stop::Limit(
                    goccia_core::LimitKind::ShellStages,
                ))
            })?;
        self.procsubs.subs.push(Running { fd, end, thread });
        Ok(format!("/dev/fd/{fd}"))
    }

    /// After a command: closes the descriptors of the substitutions it
    /// started (from `mark` on) and waits for those whose pipe end is
    /// then free. A limit one of them hit stops this shell too.
    pub(crate) fn finish_substitutions(&mut self, mark: usize) -> Result<(), Flow> {
        if self.procsubs.subs.len() <= mark {
            return Ok(());
        }
        for running in &self.procsubs.subs[mark..] {
            if self
                .fds
                .get(running.fd)
                .is_some_and(|fd| running.end.is(fd))
            {
                self.fds.close(running.fd);
            }
        }
        let mut stopped = None;
        let mut index = mark;
        while index < self.procsubs.subs.len() {
            if self.procsubs.subs[index].end.held() {
                index += 1;
                continue;
            }
            let running = self.procsubs.subs.remove(index);
            if let Ok(Err(Flow::Stop(stop))) = running.thread.join() {
                stopped.get_or_insert(stop);
            }
        }
        match stopped {
            Some(stop) => Err(Flow::Stop(stop)),
            None => Ok(()),
        }
    }

    /// When the shell ends: every descriptor closes, so every pending
    /// substitution ends; wait for them all.
    pub(crate) fn wait_substitutions(&mut self) {
        if self.procsubs.subs.is_empty() {
            return;
        }
        self.fds.close_all();
        for running in std::mem::take(&mut self.procsubs.subs) {
            let _ = running.thread.join();
        }
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        self.wait_substitutions();
    }
}
