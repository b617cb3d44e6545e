//! goccia's virtual shell: the bash language, and coreutils-style commands
//! over the VFS. No host process is ever started.
//!
//! - [`parse`]: the bash parser; [`ast`]: its syntax tree.
//! - [`interp`]: the interpreter ([`Shell`], [`Context`]).
//! - [`commands`]: builtins and utilities.
//! - [`io`]: descriptors, pipes and streams.
//! - [`arith`], [`pattern`], [`regex_compat`], [`escape`], [`vars`]: the
//!   pieces of the language.

pub mod arith;
pub mod ast;
pub mod commands;
pub mod escape;
pub mod interp;
pub mod io;
pub mod parse;
pub mod pattern;
pub mod regex_compat;
pub mod vars;

pub use goccia_core::{Limits, Stop};
pub use interp::{Context, ExecResult, Flow, LineStatus, ScriptLauncher, Shell};
