//! The working directory: `cd`, `pwd`, `pushd`, `popd`, `dirs`.

use crate::builtins::common::write_out;
use crate::builtins::common::{builtin_error, flag_letters};
use crate::interp::{ExecResult, Shell};
use goccia_vfs::VfsPath;

pub fn cd(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut rest = &args[1..];
    let mut physical = false;
    while let Some(first) = rest.first()
        && first.len() > 1
        && first.starts_with('-')
        && first[1..].chars().all(|c| "LPe@".contains(c))
    {
        // The last of -L and -P counts.
        if let Some(last) = first.chars().rev().find(|c| matches!(c, 'L' | 'P')) {
            physical = last == 'P';
        }
        rest = &rest[1..];
    }
    if rest.first().is_some_and(|a| a == "--") {
        rest = &rest[1..];
    }
    let operands: Vec<&String> = rest.iter().collect();
    if operands.len() > 1 {
        return builtin_error(shell, "cd", "too many arguments", 1);
    }
    let (target, mut print) = match operands.first().map(|s| s.as_str()) {
        None | Some("~") => match shell.get_var("HOME") {
            Some(home) => (home, false),
            None => return builtin_error(shell, "cd", "HOME not set", 1),
        },
        Some("-") => match shell.get_var("OLDPWD") {
            Some(old) => (old, true),
            None => return builtin_error(shell, "cd", "OLDPWD not set", 1),
        },
        Some(dir) => (dir.to_string(), false),
    };
    if target.is_empty() {
        return Ok(0);
    }
    // `-P` steps out of the folder links lead to, not the links.
    let base = if physical {
        shell.physical(shell.cwd())
    } else {
        shell.cwd().clone()
    };
    let found = search_cdpath(shell, &base, &target);
    let from_cdpath = found.is_some();
    let path = match found {
        Some((path, named)) => {
            print |= named;
            path
        }
        None => match base.resolve(&target) {
            Ok(path) => path,
            Err(_) => {
                return builtin_error(shell, "cd", &format!("{target}: File name too long"), 1);
            }
        },
    };
    let exists = {
        let vfs = shell.context().vfs.lock();
        if !from_cdpath && !folders_before_dot_dot_exist(&vfs, &base, &target) {
            Err("No such file or directory")
        } else if vfs.is_dir(&path) {
            Ok(())
        } else if vfs.exists(&path) {
            Err("Not a directory")
        } else {
            Err("No such file or directory")
        }
    };
    if let Err(reason) = exists {
        return builtin_error(shell, "cd", &format!("{target}: {reason}"), 1);
    }
    let path = if physical {
        shell.physical(&path)
    } else {
        path
    };
    change_dir(shell, path);
    if print {
        let text = format!("{}\n", shell.cwd());
        return write_out(shell, "cd", &text);
    }
    Ok(0)
}

/// `$CDPATH`: a relative target that does not start with `.` or `..` is
/// looked for under each of its folders in turn (an empty entry is the
/// working folder); the first that has it wins. Also says whether the
/// folder came from a named entry (then `cd` prints where it went).
fn search_cdpath(shell: &mut Shell, base: &VfsPath, target: &str) -> Option<(VfsPath, bool)> {
    let first = target.split('/').next().unwrap_or("");
    if target.starts_with('/') || first == "." || first == ".." {
        return None;
    }
    let cdpath = shell.get_var("CDPATH").filter(|value| !value.is_empty())?;
    let vfs = shell.context().vfs.lock();
    cdpath.split(':').find_map(|entry| {
        let folder = if entry.is_empty() { "." } else { entry };
        let path = base.resolve(&format!("{folder}/{target}")).ok()?;
        vfs.is_dir(&path).then_some((path, !entry.is_empty()))
    })
}

/// Whether every folder a `..` of `target` steps out of exists (bash
/// refuses `cd missing/..` although the path it names exists).
fn folders_before_dot_dot_exist(vfs: &goccia_vfs::Vfs, cwd: &VfsPath, target: &str) -> bool {
    let mut prefix = String::new();
    for component in target.split('/') {
        if component == ".." && !prefix.is_empty() && prefix != "/" {
            match cwd.resolve(&prefix) {
                Ok(path) if vfs.is_dir(&path) => {}
                _ => return false,
            }
        }
        if !prefix.is_empty() && !prefix.ends_with('/') {
            prefix.push('/');
        }
        if component.is_empty() && prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(component);
    }
    true
}

pub(crate) fn change_dir(shell: &mut Shell, path: VfsPath) {
    let old = shell.cwd().to_string();
    let _ = shell.set_var("OLDPWD", old);
    // bash exports OLDPWD once `cd` sets it.
    shell.vars.entry("OLDPWD").attrs.exported = true;
    let _ = shell.set_var("PWD", path.to_string());
    shell.set_cwd(path);
}

pub fn pwd(shell: &mut Shell, args: &[String]) -> ExecResult {
    let letters = match flag_letters(shell, "pwd", args, "LP", "pwd [-LP]") {
        Ok((letters, _)) => letters,
        Err(status) => return Ok(status),
    };
    // The last of -L and -P counts.
    let physical = letters.last() == Some(&'P');
    let path = if physical {
        shell.physical(shell.cwd())
    } else {
        shell.cwd().clone()
    };
    let text = format!("{path}\n");
    write_out(shell, "pwd", &text)
}

fn dirs_text(shell: &mut Shell) -> String {
    format!("{}\n", stack_entries(shell, false).join(" "))
}

/// The folder stack, the working folder first; `$HOME` at the start of
/// an entry shown as `~` unless `long` (`dirs -l`).
fn stack_entries(shell: &mut Shell, long: bool) -> Vec<String> {
    let home = shell
        .get_var("HOME")
        .filter(|home| !home.is_empty() && !long);
    let mut entries = vec![shell.cwd().to_string()];
    entries.extend(shell.dir_stack.iter().rev().map(|p| p.to_string()));
    let Some(home) = home else {
        return entries;
    };
    let home = home.trim_end_matches('/').to_string();
    entries
        .into_iter()
        .map(|entry| match entry.strip_prefix(&home) {
            Some("") => "~".to_string(),
            Some(rest) if rest.starts_with('/') && !home.is_empty() => format!("~{rest}"),
            _ => entry,
        })
        .collect()
}

const PUSHD_USAGE: &str = "pushd: usage: pushd [-n] [+N | -N | dir]";
const POPD_USAGE: &str = "popd: usage: popd [-n] [+N | -N]";
const DIRS_USAGE: &str = "dirs: usage: dirs [-clpv] [+N] [-N]";

/// The operands of `pushd`/`popd`/`dirs` after `--`, or the usage error
/// bash gives for an option it does not know (`-z: invalid number`).
fn stack_operands<'a>(
    shell: &mut Shell,
    name: &str,
    args: &'a [String],
    options: &str,
    usage: &str,
) -> Result<Vec<&'a String>, i32> {
    let mut operands = Vec::new();
    let mut options_done = false;
    for arg in &args[1..] {
        if !options_done && arg == "--" {
            options_done = true;
            continue;
        }
        let is_option = !options_done && arg.len() > 1 && arg.starts_with('-');
        let numbered = arg.len() > 1
            && arg.starts_with(['+', '-'])
            && arg[1..].bytes().all(|b| b.is_ascii_digit());
        // One letter per word: bash reads `-lv` as a bad number.
        if is_option && !numbered && !(arg.len() == 2 && options.contains(&arg[1..])) {
            let what = if name == "dirs" && arg.len() == 2 {
                "invalid option"
            } else {
                "invalid number"
            };
            return Err(shell.fail(name, &format!("{arg}: {what}\n{usage}"), 2));
        }
        if !is_option && !numbered {
            operands.push(arg);
        }
    }
    Ok(operands)
}

pub fn pushd(shell: &mut Shell, args: &[String]) -> ExecResult {
    let operands = match stack_operands(shell, "pushd", args, "n", PUSHD_USAGE) {
        Ok(operands) => operands,
        Err(status) => return Ok(status),
    };
    if operands.len() > 1 {
        return builtin_error(shell, "pushd", "too many arguments", 1);
    }
    let Some(target) = operands.first().copied() else {
        let Some(top) = shell.dir_stack.pop() else {
            return builtin_error(shell, "pushd", "no other directory", 1);
        };
        let current = shell.cwd().clone();
        shell.dir_stack.push(current);
        change_dir(shell, top);
        let text = dirs_text(shell);
        return write_out(shell, "pushd", &text);
    };
    let Ok(path) = shell.cwd().resolve(target) else {
        return builtin_error(
            shell,
            "pushd",
            &format!("{target}: No such file or directory"),
            1,
        );
    };
    if !shell.context().vfs.lock().is_dir(&path) {
        return builtin_error(
            shell,
            "pushd",
            &format!("{target}: No such file or directory"),
            1,
        );
    }
    let current = shell.cwd().clone();
    shell.dir_stack.push(current);
    change_dir(shell, path);
    let text = dirs_text(shell);
    write_out(shell, "pushd", &text)
}

pub fn popd(shell: &mut Shell, args: &[String]) -> ExecResult {
    match stack_operands(shell, "popd", args, "n", POPD_USAGE) {
        Ok(operands) if operands.is_empty() => {}
        Ok(operands) => {
            let message = format!("{}: invalid argument\n{POPD_USAGE}", operands[0]);
            return builtin_error(shell, "popd", &message, 2);
        }
        Err(status) => return Ok(status),
    }
    let Some(top) = shell.dir_stack.pop() else {
        return builtin_error(shell, "popd", "directory stack empty", 1);
    };
    change_dir(shell, top);
    let text = dirs_text(shell);
    write_out(shell, "popd", &text)
}

pub fn dirs(shell: &mut Shell, args: &[String]) -> ExecResult {
    match stack_operands(shell, "dirs", args, "clpv", DIRS_USAGE) {
        Ok(operands) if operands.is_empty() => {}
        Ok(operands) => {
            let message = format!("{}: invalid option\n{DIRS_USAGE}", operands[0]);
            return builtin_error(shell, "dirs", &message, 2);
        }
        Err(status) => return Ok(status),
    }
    if args.iter().any(|a| a == "-c") {
        shell.dir_stack.clear();
        return Ok(0);
    }
    let has = |letter: char| args[1..].iter().any(|a| *a == format!("-{letter}"));
    let entries = stack_entries(shell, has('l'));
    let text: String = if has('v') {
        entries
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{i:2}  {p}\n"))
            .collect()
    } else if has('p') {
        entries.iter().map(|p| format!("{p}\n")).collect()
    } else {
        format!("{}\n", entries.join(" "))
    };
    write_out(shell, "dirs", &text)
}
