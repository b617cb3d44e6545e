//! The utilities: coreutils-style commands over the VFS, one family per
//! folder or file. Each is a function from the shell and its arguments
//! (`args[0]` is the name) to a status; the table in [`crate::commands`]
//! names them. They read their arguments with [`args`] and their input
//! with [`crate::input`].

pub mod archive;
pub mod args;
pub mod awk;
pub mod bc;
pub mod bytes;
pub mod date;
pub mod diff;
pub mod files;
pub mod find;
pub mod grep;
pub mod jq;
pub mod matcher;
pub mod net;
pub mod node;
pub mod numbers;
pub mod output;
pub mod patch;
pub mod process;
pub mod rg;
pub mod sed;
pub mod sqlite;
pub mod system;
pub mod text;
pub mod yq;
