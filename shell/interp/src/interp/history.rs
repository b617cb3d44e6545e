//! The command history, as bash keeps it (the list here; its file in
//! `history_file`): an interactive shell records
//! each command line it reads (while `set -o history` is on), loads
//! `$HISTFILE` when it starts and saves to it when it ends; `history`
//! and `fc` read and change the list in any shell. `$HISTSIZE` bounds
//! the list (the oldest go, numbers keep counting), `$HISTFILESIZE` the
//! file (cut when it is set and after each save).

/// The list of commands and what of it the history file has seen.
#[derive(Clone, Debug)]
pub(crate) struct History {
    pub(super) entries: Vec<String>,
    /// The number of `entries[0]` (bash's `history_base`).
    pub(super) base: usize,
    /// Entries before this index are in the file already (loaded from
    /// it, or written by `history -a`/`-w`).
    pub(super) saved: usize,
    /// Lines of the file read so far (`history -n` reads past them).
    pub(super) file_lines_read: usize,
    /// Commands recorded by this session, kept or not (bash appends at
    /// exit only when none was lost to `$HISTSIZE`).
    pub(super) recorded_this_session: usize,
}

impl Default for History {
    fn default() -> Self {
        History {
            entries: Vec::new(),
            base: 1,
            saved: 0,
            file_lines_read: 0,
            recorded_this_session: 0,
        }
    }
}

impl History {
    /// Entries with their numbers, oldest first.
    pub(crate) fn numbered(
        &self,
    ) -> impl DoubleEndedIterator<Item = (usize, &str)> + ExactSizeIterator {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, entry)| (self.base + i, entry.as_str()))
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The number the next entry gets (bash's current command number,
    /// once the command is recorded).
    pub(crate) fn last_number(&self) -> usize {
        self.base + self.entries.len().saturating_sub(1)
    }

    pub(crate) fn first_number(&self) -> usize {
        self.base
    }

    pub(crate) fn push(&mut self, line: String) {
        self.entries.push(line);
    }

    /// `history -c`: numbering starts again at 1.
    pub(crate) fn clear(&mut self) {
        *self = History {
            file_lines_read: self.file_lines_read,
            recorded_this_session: self.recorded_this_session,
            ..History::default()
        };
    }

    /// Deletes entry `number`; false when there is none.
    pub(crate) fn delete(&mut self, number: usize) -> bool {
        let Some(index) = number
            .checked_sub(self.base)
            .filter(|i| *i < self.entries.len())
        else {
            return false;
        };
        self.entries.remove(index);
        if index < self.saved {
            self.saved -= 1;
        }
        true
    }

    /// Keeps the newest `size` entries.
    pub(crate) fn stifle(&mut self, size: usize) {
        let excess = self.entries.len().saturating_sub(size);
        if excess > 0 {
            self.entries.drain(..excess);
            self.base += excess;
            self.saved = self.saved.saturating_sub(excess);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::History;

    #[test]
    fn numbers_survive_stifling_and_restart_after_clear() {
        let mut history = History::default();
        for n in 1..=5 {
            history.push(format!("cmd {n}"));
        }
        history.stifle(2);
        let kept: Vec<_> = history
            .numbered()
            .map(|(n, e)| (n, e.to_string()))
            .collect();
        assert_eq!(
            kept,
            vec![(4, "cmd 4".to_string()), (5, "cmd 5".to_string())]
        );
        assert!(!history.delete(3));
        assert!(history.delete(4));
        assert_eq!(history.numbered().next(), Some((4, "cmd 5")));
        history.clear();
        history.push("again".into());
        assert_eq!(history.numbered().next(), Some((1, "again")));
    }
}
