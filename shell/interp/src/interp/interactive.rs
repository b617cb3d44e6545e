//! An interactive shell reading its commands from standard input (`bash
//! -i` inside the sandbox, given a pipe or a here-document): before each
//! command it runs `PROMPT_COMMAND` and shows `PS1` on standard error;
//! each command line read goes into the history; an error abandons only
//! its line; at the end of the input it says `exit` and saves the
//! history to `$HISTFILE`.

use super::{Flow, Shell};
use crate::parse::Parser;
use goccia_core::Stop;

impl Shell {
    /// Sets up an interactive shell: history on, `$HISTFILE` (by default
    /// `~/.bash_history`) loaded, `HISTSIZE`/`HISTFILESIZE` 500 and a
    /// default `PS1` unless set.
    pub(crate) fn start_interactive(&mut self) {
        self.interactive = true;
        self.opts.set_named("history", true);
        // Line editing starts in emacs mode (`--noediting` turns it off).
        self.opts.set_named("emacs", true);
        if self.get_value("HISTFILE").is_none() {
            let home = self.tilde("");
            let _ = self.set_var("HISTFILE", format!("{home}/.bash_history"));
        }
        // bash's defaults: 500 commands kept, the file as many lines.
        if self.get_value("HISTSIZE").is_none() {
            let _ = self.set_var("HISTSIZE", "500");
        }
        if self.get_value("HISTFILESIZE").is_none() {
            let size = self.get_var("HISTSIZE").unwrap_or_default();
            let _ = self.set_var("HISTFILESIZE", size);
        }
        if let Some(file) = self.history_file() {
            self.read_history_file(&file);
        }
        if self.get_value("PS1").is_none() {
            let _ = self.set_var("PS1", r"\s-\v\$ ");
        }
    }

    /// The whole session over `source`, then the EXIT trap, as
    /// [`Shell::run_script`] runs a script.
    pub(crate) fn run_interactive_session(&mut self, source: &str) -> Result<i32, Stop> {
        let status = match self.run_interactive_input(source) {
            Ok(status) => status,
            Err(Flow::Stop(stop)) => return Err(stop),
            Err(_) => self.status,
        };
        self.status = status;
        self.run_exit_trap()?;
        self.check_stop()?;
        Ok(self.status)
    }

    /// Reads and runs `source` as an interactive shell reads a terminal.
    /// Returns the status the shell exits with.
    fn run_interactive_input(&mut self, source: &str) -> Result<i32, Flow> {
        let chars: Vec<char> = source.chars().collect();
        let mut parser = Parser::new(source);
        parser.set_watch(self.watch.clone());
        loop {
            self.run_prompt_command()?;
            let prompt = self.get_var("PS1").unwrap_or_default();
            self.at_prompt = true;
            let shown = self.expand_prompt(&prompt);
            self.at_prompt = false;
            let shown = shown?;
            self.write_stderr(shown.as_bytes());
            self.give_aliases(&mut parser);
            parser.set_extglob(self.opts.extglob);
            let start = parser.offset();
            let command = match parser.next_command() {
                Ok(Some(command)) => command,
                Ok(None) => break,
                Err(error) => {
                    if let Some(stop) = error.stop {
                        return Err(Flow::Stop(stop));
                    }
                    // The line is lost; the session goes on after it.
                    self.report_syntax_error(&error);
                    self.status = 2;
                    break;
                }
            };
            let text: String = chars[start..parser.offset().min(chars.len())]
                .iter()
                .collect();
            self.record_command_text(&text);
            self.commands_read += 1;
            self.status = match self.run_list(&command) {
                Ok(status)
                | Err(Flow::Abandon(status))
                | Err(Flow::Discard(status))
                | Err(Flow::Return(status)) => status,
                Err(Flow::Exit(status)) => {
                    self.save_history_at_exit();
                    return Ok(status);
                }
                Err(Flow::Break { .. }) | Err(Flow::Continue { .. }) => self.status,
                Err(Flow::Stop(stop)) => return Err(Flow::Stop(stop)),
            };
        }
        self.write_stderr(b"exit\n");
        self.save_history_at_exit();
        Ok(self.status)
    }

    /// `PROMPT_COMMAND` (each element, when an array) before a prompt;
    /// it sees `$?` and leaves it as it was.
    fn run_prompt_command(&mut self) -> Result<(), Flow> {
        let Some(commands) = self.get_value("PROMPT_COMMAND") else {
            return Ok(());
        };
        let status = self.status;
        for command in commands.values() {
            match crate::builtins::flow::run_text(self, &command) {
                Err(Flow::Stop(stop)) => return Err(Flow::Stop(stop)),
                Err(Flow::Exit(status)) => return Err(Flow::Exit(status)),
                _ => {}
            }
        }
        self.status = status;
        Ok(())
    }
}
