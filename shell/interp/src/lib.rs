//! goccia's bash interpreter: the language, its builtins and the view of a
//! shell that utilities get. No host process is ever started.
//!
//! - `parse`: the bash parser; `ast`: its syntax tree.
//! - [`interp`]: the interpreter ([`Shell`], [`Context`]), which knows
//!   commands only through the table its context holds; [`ShellView`]:
//!   what a utility may do with the shell that runs it.
//! - `builtins`: commands that are interpreter state (`set`, `cd`,
//!   `read`, `trap`, ...). The utilities (`goccia-utilities`) and the
//!   table naming every command (`goccia-shell`) sit above this crate,
//!   which compiles without them.
//! - [`network`]: the network as the host lets `curl` and `wget` use it.
//! - [`io`]: descriptors, pipes and streams; `io_rw`: a descriptor open
//!   for reading and writing; [`input`]: operands opened for reading.
//! - `completion`: programmable completion's specs (what `complete`
//!   records, `compgen` reads).
//! - [`raw`]: bytes that are not UTF-8, held in the shell's strings.
//! - `arith`, `assoc` (associative arrays in bash's order), `vars`: the
//!   language's values.
//! - [`pattern`], [`regex_compat`], [`escape`], [`printf`], [`time`],
//!   [`pad`] (every width or precision given at run time), [`interrupt`]:
//!   the pieces of matching, formatting and stopping that builtins and
//!   utilities share.
//!
//! Dependencies point one way: the language pieces at the bottom, the
//! interpreter on them, builtins on the interpreter.

#![warn(missing_docs)]

pub(crate) mod arith;
pub(crate) mod assoc;
pub(crate) mod ast;
pub(crate) mod builtins;
pub mod case;
pub(crate) mod completion;
pub mod escape;
pub mod input;
pub mod interp;
pub mod interrupt;
pub mod io;
mod io_rw;
pub mod network;
pub mod pad;
pub(crate) mod parse;
pub mod pattern;
pub mod printf;
pub mod raw;
pub mod regex_compat;
pub(crate) mod signals;
pub mod time;
pub(crate) mod vars;

pub use builtins::BUILTINS;
pub use goccia_core::{Limits, Stop};
pub use interp::shell::THREAD_STACK;
pub use interp::{
    ChildShell, CommandFn, CommandKind, CommandTable, Context, ExecResult, Flow, Hooks,
    HostCommands, LineStatus, ScriptLauncher, Shell, ShellView,
};
pub use network::{HttpRequest, HttpResponse, Network, NetworkError};
pub use parse::{ParseError, is_name};
