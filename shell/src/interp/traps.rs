//! Running the traps that follow the commands themselves: DEBUG (before
//! each simple command and a few compound ones), ERR (after a failure),
//! RETURN (when a function or a sourced file ends), and how functions,
//! sourced files and subshells see them.
//!
//! Bash's rule, kept here: a function or a sourced file does not see the
//! DEBUG trap (nor a function the RETURN trap) unless `set -T` is on; one
//! it sets for itself stays set when it returns.

use super::{ExecResult, Flow, Shell};
use crate::ast::FunctionDef;

/// The traps a function or sourced file ran without, to be put back.
pub(crate) struct HiddenTraps {
    debug: Option<String>,
    ret: Option<String>,
}

impl Shell {
    /// The DEBUG trap, before a simple command, an arithmetic or
    /// conditional command, `case`, each `for` iteration and each
    /// `for ((...))` expression; `$LINENO` is that command's line. An
    /// `exit` in it (or `set -e` on its failure) ends the shell.
    pub(crate) fn run_debug_trap(&mut self) -> Result<(), Flow> {
        if self.in_debug_trap {
            return Ok(());
        }
        let Some(action) = self.traps.get("DEBUG").cloned() else {
            return Ok(());
        };
        let saved = self.status;
        self.in_debug_trap = true;
        let result = self.run_trap_action(&action);
        self.in_debug_trap = false;
        match result {
            Err(flow @ (Flow::Stop(_) | Flow::Exit(_))) => return Err(flow),
            _ => self.status = saved,
        }
        Ok(())
    }

    /// The ERR trap, after a command that failed; in a function only
    /// under `set -E`, as in bash.
    pub(crate) fn run_err_trap(&mut self) -> Result<(), Flow> {
        if self.in_err_trap || (self.in_function() && !self.opts.errtrace) {
            return Ok(());
        }
        if let Some(action) = self.traps.get("ERR").cloned() {
            let saved = self.status;
            // Not set off again by its own commands; `set -e` still holds.
            self.in_err_trap = true;
            let result = self.run_trap_action(&action);
            self.in_err_trap = false;
            if let Err(Flow::Stop(stopped)) = result {
                return Err(Flow::Stop(stopped));
            }
            self.status = saved;
        }
        Ok(())
    }

    /// The RETURN trap, as a function or sourced file ends: it sees the
    /// function's `$FUNCNAME`, and `$?` is the last command's status
    /// (not the one `return` gives), as in bash.
    pub(crate) fn run_return_trap(&mut self) -> Result<(), Flow> {
        if self.in_return_trap {
            return Ok(());
        }
        let Some(action) = self.traps.get("RETURN").cloned() else {
            return Ok(());
        };
        let saved = self.status;
        self.in_return_trap = true;
        let result = self.run_trap_action(&action);
        self.in_return_trap = false;
        self.status = saved;
        match result {
            Err(flow @ (Flow::Stop(_) | Flow::Exit(_))) => Err(flow),
            _ => Ok(()),
        }
    }

    /// Under `set -T` the DEBUG trap also marks a function's entry, with
    /// `$LINENO` the line the function was defined on.
    pub(crate) fn run_entry_trap(&mut self, function: &FunctionDef) -> Result<(), Flow> {
        if !self.opts.functrace {
            return Ok(());
        }
        let line = std::mem::replace(&mut self.line, function.line);
        let result = self.run_debug_trap();
        self.line = line;
        result
    }

    /// Runs a trap's action with `$LINENO` still the line of the command
    /// that set it off.
    pub(crate) fn run_trap_action(&mut self, action: &str) -> ExecResult {
        let (line, pinned) = (self.line, self.trap_line);
        self.trap_line = Some(pinned.unwrap_or(line));
        let result = self.run_source(action);
        self.trap_line = pinned;
        self.line = line;
        result
    }

    /// Takes away the traps a function (`function: true`: DEBUG and
    /// RETURN) or a sourced file (DEBUG) does not inherit without
    /// `set -T`.
    pub(crate) fn hide_traced_traps(&mut self, function: bool) -> HiddenTraps {
        if self.opts.functrace {
            return HiddenTraps {
                debug: None,
                ret: None,
            };
        }
        HiddenTraps {
            debug: self.traps.remove("DEBUG"),
            ret: if function {
                self.traps.remove("RETURN")
            } else {
                None
            },
        }
    }

    /// Puts back what [`Shell::hide_traced_traps`] took, unless the
    /// function or file set a trap of its own for the signal.
    pub(crate) fn restore_traced_traps(&mut self, hidden: HiddenTraps) {
        for (name, action) in [("DEBUG", hidden.debug), ("RETURN", hidden.ret)] {
            if let Some(action) = action
                && !self.traps.contains_key(name)
            {
                self.traps.insert(name.to_string(), action);
            }
        }
    }

    /// Whether a shell function is running (`source` does not count).
    pub(crate) fn in_function(&self) -> bool {
        self.func_stack.iter().any(|name| name != "source")
    }
}
