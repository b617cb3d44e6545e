//! `history` and `fc`: the command history (`crate::interp::history`)
//! listed, changed, read from and written to its file, and a past command
//! run again. The sandbox has no editor for `fc` to open: `fc -s` (and
//! `fc -e -`) run a command again, other editing is refused.

use crate::builtins::common::write_out;
use crate::builtins::flow::run_text;
use crate::interp::{ExecResult, Shell};

const HISTORY_USAGE: &str =
    "history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]";
const FC_USAGE: &str = "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]";

fn usage(shell: &mut Shell, name: &str, message: &str, usage: &str) -> i32 {
    shell.fail(name, message, 2);
    shell.write_stderr(format!("{name}: usage: {usage}\n").as_bytes());
    2
}

/// `history [n]`, `-c`, `-d offset`, `-anrw [file]`, `-p`/`-s args`.
pub fn history(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut letters = String::new();
    let mut delete: Option<String> = None;
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        index += 1;
        for (offset, letter) in flags.char_indices() {
            match letter {
                'c' | 'a' | 'n' | 'r' | 'w' | 'p' | 's' => letters.push(letter),
                'd' => {
                    let attached = &flags[offset + 1..];
                    delete = if !attached.is_empty() {
                        Some(attached.to_string())
                    } else if let Some(next) = args.get(index) {
                        index += 1;
                        Some(next.clone())
                    } else {
                        let message = "-d: option requires an argument";
                        return Ok(usage(shell, "history", message, HISTORY_USAGE));
                    };
                    break;
                }
                _ => {
                    let message = format!("-{letter}: invalid option");
                    return Ok(usage(shell, "history", &message, HISTORY_USAGE));
                }
            }
        }
    }
    let operands = &args[index..];
    if letters.contains('p') {
        let text: String = operands.iter().map(|a| format!("{a}\n")).collect();
        return write_out(shell, "history", &text);
    }
    if letters.contains('s') {
        if !operands.is_empty() {
            shell.history.push(operands.join(" "));
            shell.apply_history_size();
        }
        return Ok(0);
    }
    if letters.contains('c') {
        shell.history.clear();
    }
    if let Some(spec) = delete {
        return Ok(delete_entries(shell, &spec));
    }
    if let Some(file_op) = letters.chars().find(|c| "anrw".contains(*c)) {
        let file = match operands.first() {
            Some(file) => Some(file.clone()),
            None => shell.history_file(),
        };
        let Some(file) = file else {
            return Ok(1);
        };
        let done = match file_op {
            'a' | 'w' => match shell.save_history(&file, file_op == 'a') {
                Ok(()) => true,
                Err(Some(error)) => {
                    let usual = |reason: &str| format!("{file}: {reason}");
                    return Ok(shell.fail_fs("history", &file, &error, usual, 1));
                }
                Err(None) => false,
            },
            'r' => shell.read_history_file(&file),
            _ => shell.read_new_history_lines(&file),
        };
        return Ok(if done { 0 } else { 1 });
    }
    if letters.contains('c') {
        return Ok(0);
    }
    let count = match operands {
        [] => None,
        [count] => match count.parse::<usize>() {
            Ok(count) => Some(count),
            Err(_) => {
                let message = format!("{count}: numeric argument required");
                return Ok(shell.fail("history", &message, 1));
            }
        },
        _ => return Ok(shell.fail("history", "too many arguments", 1)),
    };
    let skip = count.map_or(0, |count| shell.history.len().saturating_sub(count));
    let text: String = shell
        .history
        .numbered()
        .skip(skip)
        .map(|(number, entry)| format!("{number:>5}  {entry}\n"))
        .collect();
    write_out(shell, "history", &text)
}

/// `history -d N`, `-d -N` (from the end) or `-d A-B`; status 1 when a
/// position is out of range.
fn delete_entries(shell: &mut Shell, spec: &str) -> i32 {
    let position = |shell: &Shell, text: &str| -> Option<usize> {
        let n: i64 = text.parse().ok()?;
        let history = &shell.history;
        let number = if n < 0 {
            (history.last_number() as i64 + 1).checked_add(n)?
        } else {
            n
        };
        let number = usize::try_from(number).ok()?;
        (history.len() > 0 && number >= history.first_number() && number <= history.last_number())
            .then_some(number)
    };
    // `A-B` is a range (a leading `-` is a sign); the position out of
    // range is the one named in the message.
    let ends = match spec.split_once('-').filter(|(start, _)| !start.is_empty()) {
        Some((start, end)) => vec![start, end],
        None => vec![spec],
    };
    let mut numbers = Vec::new();
    for end in &ends {
        match position(shell, end) {
            Some(number) => numbers.push(number),
            None => {
                let message = format!("{end}: history position out of range");
                return shell.fail("history", &message, 1);
            }
        }
    }
    let (start, end) = (numbers[0], numbers[numbers.len() - 1]);
    if start > end {
        let message = format!("{spec}: history position out of range");
        return shell.fail("history", &message, 1);
    }
    for _ in start..=end {
        shell.history.delete(start);
    }
    0
}

/// `fc -l [-nr] [first [last]]` lists; `fc -s [pat=rep] [command]` (or
/// `fc -e - ...`) runs a past command again.
pub fn fc(shell: &mut Shell, args: &[String]) -> ExecResult {
    let (mut list, mut numbers, mut reverse, mut again) = (false, true, false, false);
    let mut editor: Option<String> = None;
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        if flags.starts_with(|c: char| c.is_ascii_digit()) {
            break;
        }
        index += 1;
        for (offset, letter) in flags.char_indices() {
            match letter {
                'l' => list = true,
                'n' => numbers = false,
                'r' => reverse = true,
                's' => again = true,
                'e' => {
                    let attached = &flags[offset + 1..];
                    editor = if !attached.is_empty() {
                        Some(attached.to_string())
                    } else if let Some(next) = args.get(index) {
                        index += 1;
                        Some(next.clone())
                    } else {
                        let message = "-e: option requires an argument";
                        return Ok(usage(shell, "fc", message, FC_USAGE));
                    };
                    break;
                }
                _ => {
                    let message = format!("-{letter}: invalid option");
                    return Ok(usage(shell, "fc", &message, FC_USAGE));
                }
            }
        }
    }
    let operands = &args[index..];
    if again || editor.as_deref() == Some("-") {
        return run_again(shell, operands);
    }
    if !list {
        let message = "no editor in the sandbox (use fc -l to list, fc -s to run again)";
        return Ok(shell.fail("fc", message, 1));
    }
    if shell.history.len() == 0 {
        return Ok(0);
    }
    // The newest entry is this `fc` when the shell records commands.
    let recording = shell.opts.is_set("history") && shell.interactive;
    let last = shell.history.len() - 1 - usize::from(recording && shell.history.len() > 1);
    let first = match operands.first() {
        Some(spec) => entry_index(shell, spec, last, true),
        None => Some(last.saturating_sub(15)),
    };
    let end = match operands.get(1) {
        Some(spec) => entry_index(shell, spec, last, false),
        None => Some(last),
    };
    let (Some(first), Some(end)) = (first, end) else {
        return Ok(shell.fail("fc", "no command found", 1));
    };
    let (mut begin, mut finish) = if reverse { (end, first) } else { (first, end) };
    if finish < begin {
        std::mem::swap(&mut begin, &mut finish);
        reverse = true;
    }
    let entries: Vec<(usize, String)> = shell
        .history
        .numbered()
        .skip(begin)
        .take(finish - begin + 1)
        .map(|(n, e)| (n, e.to_string()))
        .collect();
    let shown = |(n, entry): &(usize, String)| {
        if numbers {
            format!("{n}\t {entry}\n")
        } else {
            format!("\t {entry}\n")
        }
    };
    let text: String = if reverse {
        entries.iter().rev().map(shown).collect()
    } else {
        entries.iter().map(shown).collect()
    };
    write_out(shell, "fc", &text)
}

/// The list index `spec` names: a number (absolute; out of range, the
/// first or the last), a negative offset back from `last`, or the newest
/// command starting with the text.
fn entry_index(shell: &Shell, spec: &str, last: usize, first: bool) -> Option<usize> {
    if let Ok(n) = spec.parse::<i64>() {
        if n < 0 {
            return Some((last as i64 + 1 + n).max(0) as usize);
        }
        if n == 0 {
            return Some(last);
        }
        let index = (n as usize).checked_sub(shell.history.first_number());
        return Some(match index {
            Some(index) if index <= last => index,
            _ if first => 0,
            _ => last,
        });
    }
    shell
        .history
        .numbered()
        .take(last + 1)
        .enumerate()
        .rev()
        .find(|(_, (_, entry))| entry.starts_with(spec))
        .map(|(index, _)| index)
}

/// `fc -s [pat=rep] [command]`: the newest command (or the one named),
/// with the first `pat` replaced, shown on standard error and run.
fn run_again(shell: &mut Shell, operands: &[String]) -> ExecResult {
    let (substitution, spec) = match operands.first() {
        Some(first) if first.contains('=') => (first.split_once('='), operands.get(1)),
        _ => (None, operands.first()),
    };
    // The newest entry is this `fc` when the shell records commands; it
    // is not searched, and the command run takes the newest entry's place
    // (bash's rule, also when nothing is recorded).
    let recording = shell.opts.is_set("history") && shell.interactive;
    let searched = shell.history.len().saturating_sub(usize::from(recording));
    if searched == 0 {
        return Ok(shell.fail("fc", "no command found", 1));
    }
    let last = searched - 1;
    let index = match spec {
        Some(spec) => entry_index(shell, spec, last, false),
        None => Some(last),
    };
    let Some(command) =
        index.and_then(|i| shell.history.numbered().nth(i).map(|(_, e)| e.to_string()))
    else {
        return Ok(shell.fail("fc", "no command found", 1));
    };
    let command = match substitution {
        Some((pattern, replacement)) if !pattern.is_empty() => {
            command.replacen(pattern, replacement, 1)
        }
        _ => command,
    };
    shell.write_stderr(format!("{command}\n").as_bytes());
    let newest = shell.history.last_number();
    shell.history.delete(newest);
    shell.history.push(command.clone());
    run_text(shell, &command)
}
