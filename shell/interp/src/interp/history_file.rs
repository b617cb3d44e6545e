//! The history's file and bounds: what an interactive shell records,
//! `history -a/-n/-r/-w`, the save at exit, `$HISTSIZE` and
//! `$HISTFILESIZE` (see `super::history`).

use goccia_vfs::FsError;

use super::Shell;

impl Shell {
    /// Records the text the reader read for one command, as bash's
    /// `cmdhist` does: comment lines before it are entries of their own,
    /// and a command over several lines is one entry, its lines joined by
    /// `; ` (or a blank where `;` cannot go: after `{`, `do`, `|`, ...).
    pub(crate) fn record_command_text(&mut self, text: &str) {
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next_if(|line| {
            let trimmed = line.trim_start();
            trimmed.is_empty() || trimmed.starts_with('#')
        }) {
            self.record_history(line);
        }
        let mut entry = String::new();
        for line in lines {
            if !entry.is_empty() {
                let last = entry.trim_end();
                let last_word = last.split_whitespace().next_back().unwrap_or("");
                let open = ["{", "do", "then", "else"].contains(&last_word)
                    || ["(", "|", "&&", "||", ";"]
                        .iter()
                        .any(|end| last.ends_with(end));
                entry.push_str(if open { " " } else { "; " });
            }
            entry.push_str(line);
        }
        self.record_history(&entry);
    }

    /// Records a command line read by an interactive shell (`set -o
    /// history`); blank lines are not recorded.
    pub(crate) fn record_history(&mut self, line: &str) {
        let line = line.trim_end_matches('\n');
        if !self.opts.is_set("history") || line.trim().is_empty() {
            return;
        }
        self.history.push(line.to_string());
        self.history.recorded_this_session += 1;
        self.apply_history_size();
    }

    /// `$HISTSIZE`, when set to a number, bounds the list.
    pub(crate) fn apply_history_size(&mut self) {
        if let Some(size) = self.get_var("HISTSIZE").and_then(|s| s.parse::<i64>().ok()) {
            // A negative size keeps every entry (bash's rule).
            if let Ok(size) = usize::try_from(size) {
                self.history.stifle(size);
            }
        }
    }

    /// `$HISTFILE` as a path, when it names one (unset or empty: none).
    pub(crate) fn history_file(&mut self) -> Option<String> {
        self.get_var("HISTFILE").filter(|file| !file.is_empty())
    }

    /// The history file's lines; `None` when it cannot be read.
    fn history_file_lines(&mut self, file: &str) -> Option<Vec<String>> {
        let path = self.cwd.resolve(file).ok()?;
        let bytes = self.ctx.vfs.lock().read_file(&path).ok()?;
        Some(
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::to_string)
                .collect(),
        )
    }

    /// Writes (or appends) `lines` to the history file; the error is the
    /// VFS's (`None` for a path that cannot name a file).
    fn write_history_file(
        &mut self,
        file: &str,
        lines: &[String],
        append: bool,
    ) -> Result<(), Option<FsError>> {
        let path = self.cwd.resolve(file).map_err(|_| None)?;
        let mut text = String::new();
        if append && let Some(old) = self.history_file_lines(file) {
            for line in old {
                text.push_str(&line);
                text.push('\n');
            }
        }
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        let mode = self.mode_for_new(false);
        let mut vfs = self.ctx.vfs.lock();
        let created = !vfs.exists(&path);
        vfs.write_file(&path, text.into_bytes()).map_err(Some)?;
        if let Some(mode) = mode.filter(|_| created) {
            vfs.set_mode(&path, mode).map_err(Some)?;
        }
        Ok(())
    }

    /// `history -r`: appends the file's lines to the list.
    pub(crate) fn read_history_file(&mut self, file: &str) -> bool {
        let Some(lines) = self.history_file_lines(file) else {
            return false;
        };
        self.history.file_lines_read = lines.len();
        for line in lines {
            self.history.push(line);
        }
        self.history.saved = self.history.len();
        self.apply_history_size();
        true
    }

    /// `history -n`: appends the file's lines not read yet.
    pub(crate) fn read_new_history_lines(&mut self, file: &str) -> bool {
        let Some(lines) = self.history_file_lines(file) else {
            return false;
        };
        let start = self.history.file_lines_read.min(lines.len());
        self.history.file_lines_read = lines.len();
        for line in &lines[start..] {
            self.history.push(line.clone());
        }
        self.apply_history_size();
        true
    }

    /// `history -w` (all entries, replacing the file) or `history -a`
    /// (the entries the file has not seen, appended).
    pub(crate) fn save_history(&mut self, file: &str, append: bool) -> Result<(), Option<FsError>> {
        let start = if append { self.history.saved } else { 0 };
        let lines: Vec<String> = self.history.entries[start..].to_vec();
        self.write_history_file(file, &lines, append)?;
        self.history.saved = self.history.len();
        self.history.recorded_this_session = 0;
        self.cut_history_file();
        Ok(())
    }

    /// An interactive shell's end: its history goes to `$HISTFILE`,
    /// appended when `histappend` is on or nothing recorded was lost,
    /// else replacing the file.
    pub(crate) fn save_history_at_exit(&mut self) {
        let Some(file) = self.history_file() else {
            return;
        };
        let new = self.history.len().saturating_sub(self.history.saved);
        let append =
            self.opts.is_shopt_set("histappend") || self.history.recorded_this_session <= new;
        // bash says nothing when the file cannot be written at exit.
        let _ = self.save_history(&file, append);
    }

    /// Cuts the history file to its newest `$HISTFILESIZE` lines.
    pub(crate) fn cut_history_file(&mut self) {
        let Some(size) = self
            .get_var("HISTFILESIZE")
            .and_then(|s| s.parse::<i64>().ok())
            .and_then(|s| usize::try_from(s).ok())
        else {
            return;
        };
        let Some(file) = self.history_file() else {
            return;
        };
        let Some(lines) = self.history_file_lines(&file) else {
            return;
        };
        if lines.len() > size {
            let kept = lines[lines.len() - size..].to_vec();
            let _ = self.write_history_file(&file, &kept, false);
        }
    }
}
