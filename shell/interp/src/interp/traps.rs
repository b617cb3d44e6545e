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

/// The traps that follow commands rather than signals.
#[derive(Clone, Copy)]
enum Pseudo {
    Debug,
    Err,
    Return,
}

impl Pseudo {
    fn name(self) -> &'static str {
        match self {
            Pseudo::Debug => "DEBUG",
            Pseudo::Err => "ERR",
            Pseudo::Return => "RETURN",
        }
    }

    /// Its bit in [`Shell::running_traps`].
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl Shell {
    /// The DEBUG trap, before a simple command, an arithmetic or
    /// conditional command, `case`, each `for` iteration and each
    /// `for ((...))` expression; `$LINENO` is that command's line.
    pub(crate) fn run_debug_trap(&mut self) -> Result<(), Flow> {
        self.run_pseudo_trap(Pseudo::Debug)
    }

    /// The ERR trap, after a command that failed; in a function only
    /// under `set -E`, as in bash. `set -e` still holds inside it.
    pub(crate) fn run_err_trap(&mut self) -> Result<(), Flow> {
        if self.in_function() && !self.opts.errtrace {
            return Ok(());
        }
        self.run_pseudo_trap(Pseudo::Err)
    }

    /// The RETURN trap, as a function or sourced file ends: it sees the
    /// function's `$FUNCNAME`, and `$?` is the last command's status
    /// (not the one `return` gives), as in bash.
    pub(crate) fn run_return_trap(&mut self) -> Result<(), Flow> {
        self.run_pseudo_trap(Pseudo::Return)
    }

    /// Runs `trap`'s action if one is set and it is not already running
    /// (its own commands do not set it off again), leaving `$?` as it
    /// was. An `exit` in it, or `set -e` on its failure, ends the shell.
    fn run_pseudo_trap(&mut self, trap: Pseudo) -> Result<(), Flow> {
        // Most shells set no trap: one check instead of a lookup per command.
        if self.traps.is_empty() || self.running_traps & trap.bit() != 0 {
            return Ok(());
        }
        let Some(action) = self.traps.get(trap.name()).cloned() else {
            return Ok(());
        };
        let saved = self.status;
        self.running_traps |= trap.bit();
        let result = self.run_trap_action(&action);
        self.running_traps &= !trap.bit();
        match result {
            Err(flow @ (Flow::Stop(_) | Flow::Exit(_))) => Err(flow),
            _ => {
                self.status = saved;
                Ok(())
            }
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
        if self.opts.functrace || self.traps.is_empty() {
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
        self.func_stack.iter().any(|call| call.name != "source")
    }
}
