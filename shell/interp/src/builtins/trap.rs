//! `trap` and the delivery of a signal a script sends to its own shell
//! (`kill -USR1 $$`).

use super::common::{builtin_error, write_out};
use crate::interp::{ExecResult, Flow, Shell};
use crate::signals;

/// The pseudo-signals bash traps besides the real ones, in the order
/// `trap -p` lists them (after the signals).
const PSEUDO: [&str; 3] = ["DEBUG", "ERR", "RETURN"];

/// The name a trap is kept under (`EXIT`, `INT`, `ERR`) for what the
/// user wrote (`0`, `sigint`, `2`, `ERR`).
fn trap_name(text: &str) -> Option<String> {
    let upper = text.to_ascii_uppercase();
    if PSEUDO.contains(&upper.as_str()) {
        return Some(upper);
    }
    match signals::number(text)? {
        0 => Some("EXIT".to_string()),
        number => signals::name(number),
    }
}

/// The order of a trap in listings: EXIT, the signals by number, then
/// DEBUG, ERR and RETURN.
fn listing_order(name: &str) -> u32 {
    match PSEUDO.iter().position(|p| *p == name) {
        Some(index) => 1000 + index as u32,
        None => signals::number(name).unwrap_or(999),
    }
}

/// How bash shows a trap's name: `SIG` before real signals.
fn shown_name(name: &str) -> String {
    if name == "EXIT" || PSEUDO.contains(&name) {
        name.to_string()
    } else {
        format!("SIG{name}")
    }
}

/// `'text'` with each `'` as `'\''` (how `trap` prints an action).
fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// `trap [-lp] [[action] signal ...]`.
pub fn trap(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut index = 1;
    let (mut print, mut list) = (false, false);
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "--" => {
                index += 1;
                break;
            }
            "-p" => print = true,
            "-l" => list = true,
            _ if arg.starts_with('-') && arg.len() > 1 => {
                let message = format!(
                    "{arg}: invalid option\ntrap: usage: trap [-lp] [[action] signal_spec ...]"
                );
                return builtin_error(shell, "trap", &message, 2);
            }
            _ => break,
        }
        index += 1;
    }
    let operands = &args[index..];
    if list {
        return write_out(shell, "trap", &signals::table());
    }
    if print || operands.is_empty() {
        return show(shell, operands);
    }
    let first = operands[0].as_str();
    // A first operand that is a signal number, or the only operand when it
    // names a signal, resets (bash's compatibility rule).
    let first_is_number = !first.is_empty()
        && first.bytes().all(|b| b.is_ascii_digit())
        && trap_name(first).is_some();
    let (action, names) = if first_is_number
        || (operands.len() == 1 && !first.starts_with('-') && trap_name(first).is_some())
    {
        (None, operands)
    } else if operands.len() == 1 {
        return builtin_error(
            shell,
            "trap",
            "usage: trap [-lp] [[action] signal_spec ...]",
            2,
        );
    } else if first == "-" {
        (None, &operands[1..])
    } else {
        (Some(first.to_string()), &operands[1..])
    };
    let mut status = 0;
    for text in names {
        let Some(name) = trap_name(text) else {
            let message = format!("{text}: invalid signal specification");
            status = shell.fail("trap", &message, 1);
            continue;
        };
        match &action {
            None => {
                shell.traps.remove(&name);
            }
            Some(action) => {
                shell.traps.insert(name, action.clone());
            }
        }
    }
    Ok(status)
}

/// `trap` / `trap -p [signal ...]`: the traps set, as commands that set
/// them again. A subshell shows its parent's until it sets its own.
fn show(shell: &mut Shell, only: &[String]) -> ExecResult {
    let wanted: Vec<String> = only.iter().filter_map(|s| trap_name(s)).collect();
    let shown = if shell.traps.is_empty() {
        &shell.parent_traps
    } else {
        &shell.traps
    };
    let mut all: Vec<(String, String)> = shown
        .iter()
        .filter(|(name, _)| wanted.is_empty() || wanted.contains(name))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    all.sort_by_key(|(name, _)| listing_order(name));
    let text: String = all
        .into_iter()
        .map(|(name, action)| format!("trap -- {} {}\n", single_quoted(&action), shown_name(&name)))
        .collect();
    write_out(shell, "trap", &text)
}

/// Signal `number` sent by the script to its own shell: its trap runs
/// (an empty one ignores it); without one, the signals whose default is
/// to end a process end the shell with status 128 + the number.
pub(crate) fn deliver_to_self(shell: &mut Shell, number: u32) -> Result<(), Flow> {
    let Some(name) = signals::name(number) else {
        return Ok(());
    };
    if let Some(action) = shell.traps.get(&name).cloned() {
        let saved = shell.status;
        shell.run_source(&action)?;
        shell.status = saved;
        return Ok(());
    }
    // Ignored by default (SIGCHLD, SIGCONT, SIGURG, SIGWINCH) or stops
    // the process (nothing to stop it for here).
    const HARMLESS: [&str; 8] = [
        "CHLD", "CONT", "URG", "WINCH", "STOP", "TSTP", "TTIN", "TTOU",
    ];
    if HARMLESS.contains(&name.as_str()) {
        return Ok(());
    }
    Err(Flow::Exit(128 + number as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_kept_and_as_shown() {
        assert_eq!(trap_name("0").as_deref(), Some("EXIT"));
        assert_eq!(trap_name("sigint").as_deref(), Some("INT"));
        assert_eq!(trap_name("err").as_deref(), Some("ERR"));
        assert_eq!(trap_name("foo"), None);
        assert_eq!(shown_name("INT"), "SIGINT");
        assert_eq!(shown_name("EXIT"), "EXIT");
        assert!(listing_order("EXIT") < listing_order("INT"));
        assert!(listing_order("TERM") < listing_order("DEBUG"));
        assert_eq!(single_quoted("it's"), r"'it'\''s'");
    }
}
