//! goccia's virtual shell: the bash interpreter (`goccia-interp`) with
//! every builtin and utility (`goccia-utilities`) in its command table.
//! No host process is ever started.
//!
//! Everything the interpreter exports is exported here; [`commands`] adds
//! the table naming every command and the contexts that run it.

#![warn(missing_docs)]

pub mod commands;

pub use commands::{TABLE, context, context_with_hooks};
pub use goccia_interp::*;
