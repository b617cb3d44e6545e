//! goccia's virtual shell: the bash language, and coreutils-style commands
//! over the VFS. No host process is ever started.

pub mod ast;
pub mod escape;
pub mod parse;
