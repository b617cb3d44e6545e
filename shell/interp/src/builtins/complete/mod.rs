//! Programmable completion's builtins, as bash has them: `complete`
//! records specifications (`crate::completion`), `compgen` prints the
//! candidates a specification generates for a word, `compopt` changes a
//! specification's `-o` options. The sandbox has no line editor of its
//! own, so a spec is used by `compgen` and listed by `complete -p`; the
//! candidates are generated as bash generates them (`generate`).

mod generate;

use crate::builtins::common::write_out;
use crate::builtins::common::write_out_then;
use crate::completion::{ACTION_LETTERS, Action, CompOption, CompSpec, Target};
use crate::interp::{ExecResult, Shell};

const COMPLETE_USAGE: &str = "complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] \
     [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] \
     [-S suffix] [name ...]";
const COMPGEN_USAGE: &str = "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] \
     [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]";
const COMPOPT_USAGE: &str = "compopt [-o|+o option] [-DEI] [name ...]";

/// The letters that take a value.
const VALUED: &str = "oAGWFCXPS";

/// What `complete` or `compgen` was given.
#[derive(Default)]
struct Given {
    spec: CompSpec,
    /// `-p`: list.
    print: bool,
    /// `-r`: remove.
    remove: bool,
    /// `-D`, `-E`, `-I`.
    targets: Vec<Target>,
    /// Any option at all (a bare `complete` lists).
    any_option: bool,
    operands: Vec<String>,
}

/// Reads `complete`'s or `compgen`'s options as bash's `getopt` does:
/// letters cluster, a value follows its letter in the same word or is
/// the next word, `--` ends the options. `allowed` is the builtin's own
/// letters; an error is reported (with the usage line where bash shows
/// it) and its status returned.
fn read_options(
    shell: &mut Shell,
    name: &str,
    args: &[String],
    allowed: &str,
    usage: &str,
) -> Result<Given, i32> {
    let mut given = Given::default();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) else {
            break;
        };
        index += 1;
        given.any_option = true;
        for (offset, letter) in letters.char_indices() {
            if !allowed.contains(letter) {
                return Err(usage_error(
                    shell,
                    name,
                    &format!("-{letter}: invalid option"),
                    usage,
                ));
            }
            if !VALUED.contains(letter) {
                read_flag(&mut given, letter);
                continue;
            }
            let attached = &letters[offset + letter.len_utf8()..];
            let value = if !attached.is_empty() {
                attached.to_string()
            } else if let Some(next) = args.get(index) {
                index += 1;
                next.clone()
            } else {
                return Err(usage_error(
                    shell,
                    name,
                    &format!("-{letter}: option requires an argument"),
                    usage,
                ));
            };
            read_value(shell, name, &mut given.spec, letter, value)?;
            break;
        }
    }
    given.operands = args[index..].to_vec();
    Ok(given)
}

fn read_flag(given: &mut Given, letter: char) {
    match letter {
        'p' => given.print = true,
        'r' => given.remove = true,
        'D' => given.targets.push(Target::Default),
        'E' => given.targets.push(Target::Empty),
        'I' => given.targets.push(Target::Initial),
        _ => {
            debug_assert!(ACTION_LETTERS.contains(letter));
            if let Some(action) = Action::lettered(letter) {
                given.spec.actions.insert(action);
            }
        }
    }
}

fn read_value(
    shell: &mut Shell,
    name: &str,
    spec: &mut CompSpec,
    letter: char,
    value: String,
) -> Result<(), i32> {
    match letter {
        'o' => match CompOption::named(&value) {
            Some(option) => {
                spec.options.insert(option);
            }
            None => return Err(shell.fail(name, &format!("{value}: invalid option name"), 2)),
        },
        'A' => match Action::named(&value) {
            Some(action) => {
                spec.actions.insert(action);
            }
            None => return Err(shell.fail(name, &format!("{value}: invalid action name"), 2)),
        },
        'G' => spec.glob = Some(value),
        'W' => spec.words = Some(value),
        'F' => spec.function = Some(value),
        'C' => spec.command = Some(value),
        'X' => spec.filter = Some(value),
        'P' => spec.prefix = Some(value),
        _ => spec.suffix = Some(value),
    }
    Ok(())
}

fn usage_error(shell: &mut Shell, name: &str, message: &str, usage: &str) -> i32 {
    shell.fail(name, message, 2);
    shell.write_stderr(format!("{name}: usage: {usage}\n").as_bytes());
    2
}

/// `complete [options] [name ...]`: records a spec for each name (and
/// `-D`/`-E`/`-I`); `-p` (or no options and no names) lists, `-r`
/// removes.
pub fn complete(shell: &mut Shell, args: &[String]) -> ExecResult {
    let allowed = format!("{ACTION_LETTERS}prDEI{VALUED}");
    let given = match read_options(shell, "complete", args, &allowed, COMPLETE_USAGE) {
        Ok(given) => given,
        Err(status) => return Ok(status),
    };
    let mut targets = given.targets.clone();
    targets.extend(given.operands.iter().cloned().map(Target::Command));
    if given.print || (!given.any_option && targets.is_empty()) {
        return list(shell, &targets);
    }
    if given.remove {
        if targets.is_empty() {
            shell.completions.clear();
            return Ok(0);
        }
        let mut status = 0;
        for target in &targets {
            if !shell.completions.remove(target) {
                status = no_spec(shell, "complete", target);
            }
        }
        return Ok(status);
    }
    if targets.is_empty() {
        // Options with nothing to complete: bash shows only the usage.
        shell.write_stderr(format!("complete: usage: {COMPLETE_USAGE}\n").as_bytes());
        return Ok(2);
    }
    for target in targets {
        shell.completions.set(target, given.spec.clone());
    }
    Ok(0)
}

/// `complete -p [name ...]`: the `complete` line of each spec asked for,
/// or of every spec.
fn list(shell: &mut Shell, targets: &[Target]) -> ExecResult {
    let mut text = String::new();
    let mut status = 0;
    if targets.is_empty() {
        for (target, spec) in shell.completions.iter() {
            text.push_str(&spec.line(target));
            text.push('\n');
        }
    } else {
        for target in targets {
            match shell.completions.get(target) {
                Some(spec) => {
                    text.push_str(&spec.line(target));
                    text.push('\n');
                }
                None => status = no_spec(shell, "complete", target),
            }
        }
    }
    write_out_then(shell, "complete", &text, status)
}

fn no_spec(shell: &mut Shell, name: &str, target: &Target) -> i32 {
    let shown = match target {
        Target::Command(name) => name.as_str(),
        Target::Default => "-D",
        Target::Empty => "-E",
        Target::Initial => "-I",
    };
    shell.fail(name, &format!("{shown}: no completion specification"), 1)
}

/// `compgen [options] [word]`: prints the candidates the options
/// generate for `word`, one per line; status 1 when there are none.
pub fn compgen(shell: &mut Shell, args: &[String]) -> ExecResult {
    let allowed = format!("{ACTION_LETTERS}{VALUED}");
    let given = match read_options(shell, "compgen", args, &allowed, COMPGEN_USAGE) {
        Ok(given) => given,
        Err(status) => return Ok(status),
    };
    let spec = given.spec;
    // bash warns that these behave outside a line editor as they can.
    for (flag, set) in [
        ("-F", spec.function.is_some()),
        ("-C", spec.command.is_some()),
    ] {
        if set {
            shell.fail(
                "compgen",
                &format!("warning: {flag} option may not work as you expect"),
                0,
            );
        }
    }
    let word = given.operands.first().cloned().unwrap_or_default();
    let mut candidates = generate::candidates(shell, &spec, &word)?;
    let fallback = [CompOption::BashDefault, CompOption::Default];
    if candidates.is_empty() && fallback.iter().any(|o| spec.options.contains(o)) {
        candidates = generate::files(shell, &word, false);
    }
    if candidates.is_empty() {
        return Ok(1);
    }
    let text: String = candidates.iter().map(|c| format!("{c}\n")).collect();
    write_out(shell, "compgen", &text)
}

/// `compopt [-o|+o option] [-DEI] [name ...]`: turns `-o` options on or
/// off in the specs named.
pub fn compopt(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut changes: Vec<(CompOption, bool)> = Vec::new();
    let mut targets: Vec<Target> = Vec::new();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        let on = match arg.chars().next() {
            Some('-') if arg.len() > 1 => true,
            Some('+') if arg.len() > 1 => false,
            _ => break,
        };
        index += 1;
        for (offset, letter) in arg.char_indices().skip(1) {
            match letter {
                'D' if on => targets.push(Target::Default),
                'E' if on => targets.push(Target::Empty),
                'I' if on => targets.push(Target::Initial),
                'o' => {
                    let attached = &arg[offset + 1..];
                    let value = if !attached.is_empty() {
                        attached.to_string()
                    } else if let Some(next) = args.get(index) {
                        index += 1;
                        next.clone()
                    } else {
                        let message = format!("{}o: option requires an argument", &arg[..1]);
                        return Ok(usage_error(shell, "compopt", &message, COMPOPT_USAGE));
                    };
                    match CompOption::named(&value) {
                        Some(option) => changes.push((option, on)),
                        None => {
                            let message = format!("{value}: invalid option name");
                            return Ok(shell.fail("compopt", &message, 2));
                        }
                    }
                    break;
                }
                _ => {
                    let message = format!("{}{letter}: invalid option", &arg[..1]);
                    return Ok(usage_error(shell, "compopt", &message, COMPOPT_USAGE));
                }
            }
        }
    }
    targets.extend(args[index..].iter().cloned().map(Target::Command));
    if targets.is_empty() {
        // Only while the line editor completes a word (which the sandbox
        // never does); a function `compgen -F` runs is not one (bash's
        // rule).
        let message = "not currently executing completion function";
        return Ok(shell.fail("compopt", message, 1));
    }
    let mut status = 0;
    for target in &targets {
        match shell.completions.get_mut(target) {
            Some(spec) => {
                for (option, on) in &changes {
                    if *on {
                        spec.options.insert(*option);
                    } else {
                        spec.options.remove(option);
                    }
                }
            }
            None => status = no_spec(shell, "compopt", target),
        }
    }
    Ok(status)
}
