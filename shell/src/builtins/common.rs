//! Helpers the builtins share: output and error reporting.

use crate::interp::{ExecResult, Shell};
use std::io::Write;

pub(crate) fn write_out(shell: &mut Shell, name: &str, text: &str) -> ExecResult {
    match shell.out().write_all(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status(name, error),
    }
}

/// `bash: name: message` with status.
pub(crate) fn builtin_error(
    shell: &mut Shell,
    name: &str,
    message: &str,
    status: i32,
) -> ExecResult {
    Ok(shell.fail(name, message, status))
}
