//! Interpreter builtins: commands that read or change the state of the
//! running shell (its options, directory, variables, functions, traps,
//! control flow), so they live beside the interpreter rather than among
//! the utilities. Each is a function from the shell and its arguments
//! (`args[0]` is the name) to a status; [`BUILTINS`] (in `table.rs`)
//! names them, and the few commands `type` calls utilities that are
//! interpreter work (`goccia`, `which`, `bash`, `sh`).

pub mod bash;
pub mod common;
pub mod complete;
pub mod dirs;
pub mod escalate;
pub mod flow;
pub mod hash;
pub mod history;
pub mod jobs;
pub mod lookup;
pub mod options;
pub mod print;
pub mod read;
mod table;
pub mod trap;
pub mod ulimit;
pub mod umask;
pub mod values;

pub use table::BUILTINS;
