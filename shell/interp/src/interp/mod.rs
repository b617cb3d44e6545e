//! The interpreter: a [`Shell`] holds the state of one shell (variables,
//! functions, options, descriptors, working directory); [`Context`] holds
//! what all shells of one sandbox share (the VFS, the deadline, limits,
//! counters, the command table, the nested-script launcher).
//!
//! Subshells, command substitutions and pipeline stages run on clones of
//! the `Shell` (persistent maps make that cheap); pipeline stages run on
//! their own threads so that data streams through bounded pipes.
//!
//! - [`shell`]: the state and running source text; [`context`]: what the
//!   shells of a sandbox share; `options`: the one option table;
//!   `call_scope`: a host call's own folder and variables.
//! - `exec`, `compound`, `expand` (with `brace`: brace expansion),
//!   `param`, `assign`, `redirect`, `variables`, `test_expr`, `print`:
//!   executing each construct;
//!   `procsub`: process substitution on threads of its own
//!   (`substitutions`: the table of those still running).
//! - `locale`: the locale's character type (bytes in `C`, characters in
//!   UTF-8), which patterns, lengths and substrings follow.
//! - `jobs`: background jobs and their statuses (`wait`, `jobs`, `kill`).
//! - `declare`: the declaration builtins (`declare`, `local`, `export`,
//!   `readonly`), part of assignment.
//! - [`view`]: what a utility may do with its shell ([`ShellView`]):
//!   builtins take the [`Shell`], utilities only the view.

mod assign;
mod brace;
mod call_scope;
mod compound;
pub mod context;
pub(crate) mod declare;
mod exec;
mod expand;
mod hash_table;
pub(crate) mod history;
mod history_file;
mod interactive;
pub(crate) mod jobs;
mod locale;
pub(crate) mod options;
mod param;
mod path_search;
mod print;
mod processes;
mod procsub;
mod prompt;
mod redirect;
pub(crate) mod resources;
pub mod shell;
mod shell_clone;
mod simple;
mod substitutions;
pub(crate) mod test_expr;
mod timing;
mod traps;
mod variables;
pub mod view;

pub use context::ShellView;
pub use context::{
    CommandFn, CommandKind, CommandTable, Context, Hooks, HostCommands, ScriptLauncher,
};
pub(crate) use exec::looks_binary;
pub use exec::{CommandOutcome, OutHandle};
pub(crate) use hash_table::PathHit;
pub(crate) use options::Options;
pub use param::quote;
pub(crate) use print::function_text;
pub use processes::{Process, Processes};
pub(crate) use redirect::device_input;
pub(crate) use shell::DEFAULT_PATH;
pub use shell::HOST_NAME;
pub use shell::Shell;
pub(crate) use shell::{Call, EchoedInput};
pub use test_expr::is_device;
pub(crate) use variables::split_subscript;
pub use view::ChildShell;

use goccia_core::Stop;

/// How control leaves the normal flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// `exit n` (or a fatal error in a non-interactive shell).
    Exit(i32),
    /// `return n` from a function or sourced file.
    Return(i32),
    /// `break n`: `levels` loops end; the status is the loop's (0, or 1
    /// when `n` was out of range and all loops end).
    Break {
        /// How many enclosing loops end.
        levels: usize,
        /// The status they end with.
        status: i32,
    },
    /// `continue n`, with the status as for `Break`.
    Continue {
        /// Which enclosing loop goes on (1: the innermost).
        levels: usize,
        /// The status of the loops it leaves.
        status: i32,
    },
    /// A limit or the deadline: everything unwinds.
    Stop(Stop),
    /// An error that abandons the command line being run (an arithmetic
    /// error, an assignment to a read-only variable): bash's jump back to
    /// its reader. The reader of that line (the script, `eval`, `source`,
    /// a trap) goes on with its next line with this status; a subshell
    /// ends with it, as its process would.
    Abandon(i32),
    /// An error that abandons everything being run back to the shell's
    /// own reader (bash's `DISCARD`: `shift 1 2`, `break 1 2`): unlike
    /// [`Flow::Abandon`], `eval` and `source` do not stop it. The script
    /// goes on with its next command with this status; a subshell ends
    /// with it.
    Discard(i32),
}

/// What an interactive command line did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineStatus {
    /// The line's status.
    pub status: i32,
    /// The line ran `exit`: the session ends with `status`.
    pub exited: bool,
}

/// A command's status, or how control left the normal flow.
pub type ExecResult = Result<i32, Flow>;
