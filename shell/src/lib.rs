//! goccia's virtual shell: the bash language, and coreutils-style commands
//! over the VFS. No host process is ever started.
//!
//! - `parse`: the bash parser; `ast`: its syntax tree.
//! - [`interp`]: the interpreter ([`Shell`], [`Context`]), which knows
//!   commands only through the table its context holds.
//! - `builtins`: commands that are interpreter state (`set`, `cd`,
//!   `read`, `trap`, ...); `utilities`: coreutils-style commands, one
//!   family per folder; [`commands`]: the table naming them all.
//! - [`network`]: the network as the host lets `curl` and `wget` use it.
//! - [`io`]: descriptors, pipes and streams; `io_rw`: a descriptor open
//!   for reading and writing.
//! - `completion`: programmable completion's specs (what `complete`
//!   records, `compgen` reads).
//! - [`raw`]: bytes that are not UTF-8, held in the shell's strings.
//! - `arith`, `assoc` (associative arrays in bash's order), `pattern`,
//!   `regex_compat`, `escape`, `vars`, `printf`,
//!   `time`, `pad`: the pieces of the language and of formatting (`pad`:
//!   every width or precision given at run time).
//!
//! Dependencies point one way: the language pieces at the bottom, the
//! interpreter on them, builtins and utilities on the interpreter, the
//! table on top.

#![warn(missing_docs)]

pub(crate) mod arith;
pub(crate) mod assoc;
pub(crate) mod ast;
pub(crate) mod builtins;
pub mod commands;
pub(crate) mod completion;
pub(crate) mod escape;
pub(crate) mod input;
pub mod interp;
pub(crate) mod interrupt;
pub mod io;
mod io_rw;
pub mod network;
pub(crate) mod pad;
pub(crate) mod parse;
pub(crate) mod pattern;
pub(crate) mod printf;
pub mod raw;
pub(crate) mod regex_compat;
pub(crate) mod signals;
pub(crate) mod time;
pub(crate) mod utilities;
pub(crate) mod vars;

pub use goccia_core::{Limits, Stop};
pub use interp::shell::THREAD_STACK;
pub use interp::{
    Context, ExecResult, Flow, Hooks, HostCommands, LineStatus, ScriptLauncher, Shell,
};
pub use network::{HttpRequest, HttpResponse, Network, NetworkError};
pub use parse::ParseError;
