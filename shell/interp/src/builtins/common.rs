//! Helpers the builtins share: output and error reporting.

use crate::interp::{ExecResult, Shell};
use std::io::Write;

pub(crate) fn write_out(shell: &mut Shell, name: &str, text: &str) -> ExecResult {
    match shell.out().write_all(&crate::raw::encode(text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status(name, error),
    }
}

/// Writes `text` to stdout, then gives `status`, unless the write failed
/// (then its error's status, as bash's builtins do).
pub(crate) fn write_out_then(shell: &mut Shell, name: &str, text: &str, status: i32) -> ExecResult {
    match write_out(shell, name, text)? {
        0 => Ok(status),
        failed => Ok(failed),
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

/// `name: usage: ...` on stderr; a usage error's status, 2.
pub(crate) fn usage_error(shell: &mut Shell, name: &str, usage: &str) -> i32 {
    shell.write_stderr(format!("{name}: usage: {usage}\n").as_bytes());
    2
}

/// The flag letters of a builtin that takes no option values, read as
/// bash's builtins read them: leading `-abc` words, each letter one flag,
/// until `--` (skipped), a bare `-` or the first operand. Gives the letters
/// in the order given (a later one may override an earlier) and the index
/// of the first operand; a letter not in `allowed` is `-x: invalid option`
/// with the usage line, status 2.
pub(crate) fn flag_letters(
    shell: &mut Shell,
    name: &str,
    args: &[String],
    allowed: &str,
    usage: &str,
) -> Result<(Vec<char>, usize), i32> {
    let mut letters = Vec::new();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        let Some(word) = arg.strip_prefix('-').filter(|w| !w.is_empty()) else {
            break;
        };
        for letter in word.chars() {
            if !allowed.contains(letter) {
                shell.fail(name, &format!("-{letter}: invalid option"), 2);
                return Err(usage_error(shell, name, usage));
            }
            letters.push(letter);
        }
        index += 1;
    }
    Ok((letters, index))
}
